"""The shaft ports of the laws without a closed form under a shaft
(StribeckShaftLoad, MajdSimaanShaftLoad, DahlShaftLoad) and of Borello's
load-dependent law (LoadDependentFrictionShaftLoad), and Coulomb's exact
port (HillFrictionShaftLoad with equal levels), against a
reference computed here from the papers' formulas, independent of the FMUs:
scipy's solve_ivp (Radau, rtol 1e-10) with the law written out below, its
stick phases and stops located as events.

Two studies, one line of key=value figures per run (parsed by
tests/tests/law_ports.rs):

- alone: the port with its drive end winding at 0.5 rad/s (the inputs
  phi_drive = 0.5*t, w_drive = 0.5 at each step), at communication steps of
  1, 5 and 20 ms: the error of the port's own internal step;
- coupled: the port with MotorDrive (shaft cut) beside CompliantDrive with
  the law's inertia FMU (torque cut), on the systems of shaft_reference.py
  (stiff loop, soft loop, stiff shaft) with this law, Gauss-Seidel and
  Jacobi masters (shaft_coupling.py's) at 1, 5 and 20 ms.

Figures: rate_rms, the rms of the load-rate error at the communication
points relative to the peak reference rate; rate_max, its largest value
relative to the peak; for Stribeck, the sticks (|w| < STUCK between two
slides) seen and in the reference, the largest error of a stick duration
and its score, the error over max(2 %, one step) (1 = at the goal).

    python law_ports.py FMU_DIR [alone|coupled] [LAW ...]
    python law_ports.py --score LAW SYSTEM STEP CSV   (a run made elsewhere: OMSimulator)
    python law_ports.py --parameters LAW              (the law's Real parameters)
"""
import math
import os
import sys

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq, minimize_scalar

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shaft_coupling import Fmu, MASTERS, STEPS, run_master  # noqa: E402
from shaft_reference import SYSTEMS  # noqa: E402

STUCK = 1e-2  # rad/s, 1 % of the peak rate: below it a load counts as stuck (the Co-Simulation maps creep and spike, docs/coupling.md)
V_DRIVE = 0.5


class Stribeck:
    """Majd & Simaan Eq. (4), exponential Stribeck map, with a stiction state
    at w = 0 (Filippov: held while |tau| <= f_s)."""

    fmu = "Stribeck"
    torque_input = "tau"
    parameters = {"equation": 4, "viscous": 0.05, "tau_coulomb": 0.5, "tau_static": 0.95, "w_stribeck": 0.019,
                  "exponent": 1.0}
    sticks = True
    extra = 0

    stop = None

    def static(self):
        """The static limits (backward, forward) of the torque at rest."""
        return self.parameters["tau_static"], self.parameters["tau_static"]

    def active(self, tau_s, _w):
        """The torque the friction must hold at rest: the shaft's."""
        return tau_s

    def friction(self, w, _z, direction):
        """Friction torque on the load sliding in `direction` at w (the
        sign taken from the direction, so that a solver's trial rate just
        past 0 sees no jump before the stop event)."""
        p = self.parameters
        speed = max(direction * w, 0.0)
        f = p["tau_coulomb"] + (p["tau_static"] - p["tau_coulomb"]) * math.exp(-speed / p["w_stribeck"])
        return -(p["viscous"] * w + f * direction)

    def extra_rate(self, w, z):
        return []


class Coulomb(Stribeck):
    """Coulomb's law: held while |tau| <= F_c, sliding at F_c against the
    motion. Its exact port is HillFrictionShaftLoad with equal levels (and
    its inertia HillFrictionInertia with equal levels)."""

    fmu = "HillFriction"
    parameters = {"tau_static": 1.0, "tau_coulomb": 1.0}

    def friction(self, _w, _z, direction):
        return -direction * self.parameters["tau_coulomb"]


class MajdSimaan:
    """Majd & Simaan Eq. (6), sigma such that the peak of F (viscous term
    included) is f_s (Eqs. 7-8), found here by brentq over sigma on a
    numerical maximum."""

    fmu = "MajdSimaan"
    torque_input = "tau"
    parameters = {"viscous": 0.05, "tau_coulomb": 0.5, "tau_static": 0.95, "sharpness": 10.0, "w_critical": 0.019,
                  "sigma_method": 0}
    sticks = False
    extra = 0

    def __init__(self):
        p = self.parameters
        fw, fc, n, wc = p["viscous"], p["tau_coulomb"], p["sharpness"], p["w_critical"]

        def peak(sigma):
            f = lambda w: -(fw * w + fc + sigma * math.exp(-w / wc) - (sigma + fc) * math.exp(-n * w / wc))
            return -minimize_scalar(f, bounds=(1e-9, wc), method="bounded", options={"xatol": 1e-14}).fun

        self.sigma = brentq(lambda s: peak(s) - p["tau_static"], 1e-6, 10.0, xtol=1e-14)

    def friction(self, w, _z, _direction):
        p = self.parameters
        fw, fc, n, wc = p["viscous"], p["tau_coulomb"], p["sharpness"], p["w_critical"]
        a = abs(w)
        f = fc + self.sigma * math.exp(-a / wc) - (self.sigma + fc) * math.exp(-n * a / wc)
        return -(fw * w + f * np.sign(w))

    def extra_rate(self, w, z):
        return []


class Dahl:
    """Nurre Eqs. (2), (4): dTf/dt = gamma*(Tf*sign(w) - Tf0)^2*w, the friction
    on the load -Tf (the extra state z[0] = Tf)."""

    fmu = "Dahl"
    torque_input = "tau"
    parameters = {"tau_running": 0.0424, "gamma": 0.85e4}
    sticks = False
    extra = 1

    def friction(self, _w, z, _direction):
        return -z[0]

    def extra_rate(self, w, z):
        p = self.parameters
        return [p["gamma"] * (z[0] * np.sign(w) - p["tau_running"]) ** 2 * w]


class LoadDependent:
    """Borello & Dalla Vedova, Eqs. (3)-(6) and Table 1: Act = TM - TLD - CM*w
    with the shaft as the motor TM; sliding friction FDO = TFR0 + (1/EtO -
    1)|TLD| against the load, FDA = TFR0 + (1 - EtA)|TLD| with it; at rest
    held within FSD times the level on each side; plastic hard stops at
    +-XJM. The load TLD is held constant (1 N.m, opposing forward motion)."""

    fmu = "LoadDependentFriction"
    torque_input = "tau_motor"
    parameters = {"tau_friction0": 1.0, "eta_opposing": 0.8, "eta_aiding": 0.7, "static_ratio": 1.6,
                  "viscous": 0.1, "stop_angle": 1.5, "tau_load": 1.0}
    sticks = True
    extra = 0

    @property
    def stop(self):
        return self.parameters["stop_angle"]

    def levels(self):
        p = self.parameters
        tld = abs(p["tau_load"])
        return p["tau_friction0"] + (1 / p["eta_opposing"] - 1) * tld, p["tau_friction0"] + (1 - p["eta_aiding"]) * tld

    def static(self):
        fdo, fda = self.levels()
        fsd, tld = self.parameters["static_ratio"], self.parameters["tau_load"]
        return (fsd * fdo, fsd * fda) if tld < 0 else (fsd * fda, fsd * fdo)

    def active(self, tau_s, w):
        return tau_s - self.parameters["tau_load"] - self.parameters["viscous"] * w

    def friction(self, w, _z, direction):
        """The friction plus the load and viscous terms: all but the shaft."""
        fdo, fda = self.levels()
        tld = self.parameters["tau_load"]
        aided = direction * tld < 0
        return -direction * (fda if aided else fdo) - tld - self.parameters["viscous"] * w

    def extra_rate(self, w, z):
        return []


LAWS = {law.fmu: law for law in (Coulomb, Stribeck, MajdSimaan, Dahl, LoadDependent)}


def reference(law, t_end, grid, drive=None, s=None):
    """The load rate on `grid`: driven either by `drive` (phi_d = V_DRIVE*t)
    or by the motor of system `s` (state phi_m, w_m first)."""
    k = s.k_shaft if s else 10.0
    d = s.d_shaft if s else 0.0
    j = s.J if s else 1.0
    nm = 2 if s else 0  # motor states

    def shaft(t, x):
        if s:
            return k * (x[0] - x[nm]) + d * (x[1] - x[nm + 1])
        return k * (V_DRIVE * t - x[0]) + d * (V_DRIVE - x[1])

    def motor(x, tau_s):
        if not s:
            return []
        return [x[1], (s.tau_motor + s.speed_gain * (s.w_command - x[1]) - tau_s) / s.J_motor]

    def rhs(stuck, direction):
        def f(t, x):
            tau_s = shaft(t, x)
            z = x[nm + 2:]
            if stuck:
                return motor(x, tau_s) + [0.0, 0.0]
            w = x[nm + 1]
            return motor(x, tau_s) + [w, (tau_s + law.friction(w, z, direction)) / j] + law.extra_rate(w, z)
        return f

    x = np.zeros(nm + 2 + law.extra)
    t, out = 0.0, np.full(len(grid), np.nan)
    stuck = law.sticks  # starts at rest
    direction = 0.0

    def from_rest(tt, xx, at_limit):
        """At rest: the direction the element breaks away in (0: held);
        `at_limit`: the torque has just reached a static limit (the event)."""
        backward, forward = law.static()
        act = law.active(shaft(tt, xx), 0.0)
        stop = law.stop
        if at_limit:
            forward, backward = forward * (1 - 1e-9), backward * (1 - 1e-9)
        if act > forward and not (stop is not None and xx[nm] >= stop):
            return 1.0
        if act < -backward and not (stop is not None and xx[nm] <= -stop):
            return -1.0
        return 0.0

    while t < t_end:
        events = []
        if stuck:
            backward, forward = law.static()
            up = lambda tt, xx: forward - law.active(shaft(tt, xx), 0.0)
            down = lambda tt, xx: backward + law.active(shaft(tt, xx), 0.0)
            # Against a hard stop only the limit away from it is watched.
            at_stop = law.stop is not None and abs(x[nm]) >= law.stop
            events = [down] if at_stop and x[nm] > 0 else [up] if at_stop else [up, down]
        elif law.sticks:
            events = [lambda tt, xx: xx[nm + 1] * direction]
            if law.stop is not None:
                events.append(lambda tt, xx: law.stop - direction * xx[nm])
        for ev in events:
            ev.terminal, ev.direction = True, -1
        sol = solve_ivp(rhs(stuck, direction), (t, t_end), x, method="Radau", rtol=1e-10, atol=1e-12, dense_output=True,
                        events=events or None, max_step=0.01)
        t_next = sol.t[-1]
        sel = (grid >= t) & (grid <= t_next)
        if stuck:
            out[sel] = 0.0
        else:
            out[sel] = sol.sol(grid[sel])[nm + 1]
        x = sol.y[:, -1].copy()
        t = t_next
        if sol.status == 1:
            at_limit = stuck
            if not stuck:
                # A stop, or a plastic impact on a hard stop: at rest there.
                x[nm + 1] = 0.0
                if law.stop is not None and abs(x[nm]) >= law.stop * (1 - 1e-12):
                    x[nm] = np.sign(x[nm]) * law.stop
            direction = from_rest(t, x, at_limit)
            stuck = direction == 0.0
            if not stuck:
                # Leave the event's zero: the rate just off 0 in the breakaway's direction.
                x[nm + 1] = direction * 1e-12
        elif sol.status != 0:
            raise RuntimeError(sol.message)
    return out


def stick_durations(times, w):
    """Durations of the complete sticks (|w| < STUCK) after a slide."""
    out, start, moved = [], None, False
    for t, x in zip(times, w):
        if abs(x) < STUCK:
            if moved and start is None:
                start = t
        else:
            if start is not None:
                out.append(t - start)
                start = None
            moved = True
    return out


def figures(law, times, w, ref, h):
    peak = np.max(np.abs(ref))
    err = np.abs(w - ref)
    line = f"rate_rms={math.sqrt(np.mean(err ** 2)) / peak:.4g} rate_max={np.max(err) / peak:.4g}"
    if law.sticks:
        seen, exact = stick_durations(times, w), stick_durations(times, ref)
        n = min(len(seen), len(exact))
        errors = [abs(a - b) for a, b in zip(seen[:n], exact[:n])]
        # Relative to the allowed error max(2 %, one step), worst over the sticks.
        score = max((e / max(0.02 * b, h) for e, b in zip(errors, exact)), default=0.0)
        line += (f" sticks={len(seen)} exact_sticks={len(exact)} stick_error={max(errors, default=0.0):.4g}"
                 f" stick_score={score:.4g}")
    return line


def alone(fmu_dir, law, stop=4.0):
    for h in STEPS:
        n = int(round(stop / h))
        times = np.arange(n + 1) * h
        ref = reference(law, stop, times)
        port = Fmu(fmu_dir, law.fmu + "ShaftLoad", law.parameters)
        w = [port.get(["w"])["w"]]
        for i in range(n):
            port.set({"phi_drive": V_DRIVE * i * h, "w_drive": V_DRIVE})
            port.slave.doStep(i * h, h)
            w.append(port.get(["w"])["w"])
        port.free()
        print(f"law={law.fmu} study=alone step={h} {figures(law, times, np.array(w), ref, h)}", flush=True)


def pair(fmu_dir, law, cut, s, h):
    body = {**law.parameters, "J": s.J, "w_start": 0.0}
    if cut == "torque":
        plant = Fmu(fmu_dir, "CompliantDrive", {"J_motor": s.J_motor, "speed_gain": s.speed_gain,
                                                "k_shaft": s.k_shaft, "d_shaft": s.d_shaft, "internal_step": h,
                                                "tau_motor": s.tau_motor, "w_command": s.w_command})
        load = Fmu(fmu_dir, law.fmu + "Inertia", body)
        return (load, plant, ["phi", "w"], ["tau_shaft"],
                lambda p: {law.torque_input: p["tau_shaft"]},
                lambda f: {"phi_load": f["phi"], "w_load": f["w"]})
    plant = Fmu(fmu_dir, "MotorDrive", {"J_motor": s.J_motor, "speed_gain": s.speed_gain,
                                        "tau_motor": s.tau_motor, "w_command": s.w_command})
    load = Fmu(fmu_dir, law.fmu + "ShaftLoad", {**body, "k_shaft": s.k_shaft, "d_shaft": s.d_shaft})
    return (load, plant, ["phi", "w", "tau_shaft"], ["phi", "w"],
            lambda p: {"phi_drive": p["phi"], "w_drive": p["w"]},
            lambda f: {"tau_load": f["tau_shaft"]})


def cosimulate(fmu_dir, law, cut, master, s, h, stop):
    return run_master(pair(fmu_dir, law, cut, s, h), master, h, stop)


def coupled(fmu_dir, law, stop=4.0):
    for name, s in SYSTEMS.items():
        for h in STEPS:
            n = int(round(stop / h))
            times = np.arange(n + 1) * h
            ref = reference(law, stop, times, s=s)
            for cut in ("torque", "shaft"):
                for master in MASTERS:
                    w = cosimulate(fmu_dir, law, cut, master, s, h, stop)
                    print(f"law={law.fmu} study=coupled system={name} cut={cut} master={master} step={h} "
                          f"{figures(law, times, w, ref, h)}", flush=True)


def main(argv):
    if argv[0] == "--parameters":
        # The law's Real parameters, one `name value` per line (OMSimulator's
        # oms_setReal; the choices `equation` and `sigma_method` keep their
        # start values there, 4 and 0, which are the ones written above).
        for name, value in LAWS[argv[1]].parameters.items():
            if isinstance(value, float):
                print(name, repr(value))
        return
    if argv[0] == "--score":
        law, s, h = LAWS[argv[1]](), SYSTEMS[argv[2]], float(argv[3])
        data = np.genfromtxt(argv[4], delimiter=",", names=True)
        times, w = np.asarray(data["time"], dtype=float), np.asarray(data["w"], dtype=float)
        ref = reference(law, float(times[-1]), times, s=s)
        print(f"law={law.fmu} system={argv[2]} step={h} {figures(law, times, w, ref, h)}")
        return
    fmu_dir = argv[0]
    studies = [argv[1]] if len(argv) > 1 else ["alone", "coupled"]
    laws = argv[2:] or list(LAWS)
    for name in laws:
        for study in studies:
            (alone if study == "alone" else coupled)(fmu_dir, LAWS[name]())
    Fmu.cleanup()


if __name__ == "__main__":
    main(sys.argv[1:])
