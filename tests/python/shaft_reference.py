"""Exact reference of a speed-controlled motor driving a load with static +
Coulomb friction through a compliant shaft, independent of the FMUs.

The system (SI units, angles in rad)::

    J_m * dw_m/dt = tau_m + K_v*(w_c - w_m) - tau_s        motor and speed loop
    tau_s         = k*(phi_m - phi_l) + d*(w_m - w_l)      shaft torque on the load
    J   * dw_l/dt = tau_s - tau_f                          load
    tau_f: stuck (w_l = 0) while |tau_s| <= F_s, else F_c*sign(w_l)  (Hill, Eqs. 1-2)

The state x = (phi_m, w_m, phi_l, w_l) obeys x' = A_mode x + b_mode in each
of the three modes (slide +1, slide -1, stick: load rows zero). Each mode is
solved by the matrix exponential of the augmented matrix [[A, b], [0, 0]],
so x(t) is exact to rounding at any t. Events:

- sliding in direction s: the load rate crosses 0 (first sign change of
  s*w_l on a grid geometric after each event, to catch fast transients,
  then uniform at 0.1/|lambda| of the slowest relevant modes; refined by
  brentq to ~1e-15 s); at the stop the shaft torque decides: stick when
  |tau_s| <= F_s, else slide in direction sign(tau_s);
- stuck: |tau_s| reaches F_s (same search on F_s - |tau_s|); slide in
  direction sign(tau_s).

API (reused by the Model Exchange test of the same system cut the other
way)::

    from shaft_reference import ShaftSystem, simulate
    sol = simulate(ShaftSystem(J_motor=0.01, speed_gain=1e4, k_shaft=10.0,
                               d_shaft=0.0, J=1.0, tau_static=1.5,
                               tau_coulomb=1.0, w_command=0.5), t_end=5.0)
    sol.state(t)          # (4,) or (n, 4) array: phi_m, w_m, phi_l, w_l
    sol.load_rate(t)      # w_l, exactly 0.0 while stuck
    sol.shaft_torque(t)   # tau_s on the load
    sol.stick_intervals() # [(t_start, t_end)] of the load's sticks (t_end = t_end of run if still stuck)
    sol.events            # [(t, mode_before, mode_after)]

`python shaft_reference.py --validate` compares with scipy's solve_ivp
(Radau, rtol 1e-12, events) on the systems of the coupling test and
prints the largest differences.
"""
import math
import sys
from dataclasses import dataclass, field

import numpy as np
from scipy.linalg import expm
from scipy.optimize import brentq

STICK = 0


@dataclass
class ShaftSystem:
    J_motor: float
    speed_gain: float
    k_shaft: float
    d_shaft: float
    J: float
    tau_static: float
    tau_coulomb: float
    w_command: float
    tau_motor: float = 0.0

    def matrices(self, mode):
        """(A, b) of x' = A x + b in `mode` (+1, -1 sliding; 0 stuck)."""
        jm, kv, k, d, j = self.J_motor, self.speed_gain, self.k_shaft, self.d_shaft, self.J
        a = np.zeros((4, 4))
        b = np.zeros(4)
        a[0, 1] = 1.0
        # Motor: J_m w_m' = tau_m + K_v (w_c - w_m) - k (phi_m - phi_l) - d (w_m - w_l)
        a[1, :] = np.array([-k, -kv - d, k, d]) / jm
        b[1] = (self.tau_motor + kv * self.w_command) / jm
        if mode != STICK:
            a[2, 3] = 1.0
            a[3, :] = np.array([k, d, -k, -d]) / j
            b[3] = -self.tau_coulomb * mode / j
        return a, b

    def shaft_torque(self, x):
        x = np.asarray(x)
        return self.k_shaft * (x[..., 0] - x[..., 2]) + self.d_shaft * (x[..., 1] - x[..., 3])


class _Mode:
    """Exact flow of one mode: z(u) = expm(M u) z0 with z = (x, 1)."""

    def __init__(self, system, mode):
        a, b = system.matrices(mode)
        self.m = np.zeros((5, 5))
        self.m[:4, :4] = a
        self.m[:4, 4] = b
        lam = np.linalg.eigvals(a)
        lam = lam[np.abs(lam) > 1e-12]
        slow = lam[np.abs(lam) < 1e3]
        speed = max([abs(x) for x in slow] + [1.0])
        self.grid = min(0.1 / speed, 1e-2)
        self.step = expm(self.m * self.grid)

    def at(self, z0, u):
        return expm(self.m * u) @ z0


@dataclass
class Solution:
    system: ShaftSystem
    t_end: float
    # (t_start, t_stop, mode, z_start)
    segments: list = field(default_factory=list)
    events: list = field(default_factory=list)
    _modes: dict = field(default_factory=dict)

    def _segment(self, t):
        starts = [seg[0] for seg in self.segments]
        i = max(0, int(np.searchsorted(starts, t, side="right")) - 1)
        return self.segments[i]

    def _one(self, t):
        t0, _, mode, z0 = self._segment(t)
        x = (expm(self._modes[mode].m * (t - t0)) @ z0)[:4]
        if mode == STICK:
            x[3] = 0.0
        return x

    def state(self, t):
        t = np.asarray(t, dtype=float)
        if t.ndim == 0:
            return self._one(float(t))
        return np.array([self._one(float(s)) for s in t])

    def load_rate(self, t):
        return self.state(t)[..., 3]

    def shaft_torque(self, t):
        return self.system.shaft_torque(self.state(t))

    def mode(self, t):
        return self._segment(t)[2]

    def stick_intervals(self):
        """(start, end) of every stick of the load, in order; the first one
        starts at 0 when the load starts at rest; a stick still on at t_end
        ends at t_end."""
        return [(t0, t1) for t0, t1, mode, _ in self.segments if mode == STICK and t1 > t0]


def _first_root(g, u_max, grid, z0_flow):
    """First u in (0, u_max] where g(u) <= 0 (g(0+) > 0), refined by brentq."""
    # Geometric grid first (fast transients right after an event), then uniform.
    points = []
    u = min(1e-10, grid)
    while u < grid:
        points.append(u)
        u *= 2.0
    n = int(math.ceil(u_max / grid))
    points += [grid * i for i in range(1, n + 1)]
    points = [p for p in points if p < u_max] + [u_max]
    lo = 0.0
    for p in points:
        if g(p) <= 0.0:
            if lo == 0.0:
                return p  # immediately (does not happen for consistent modes)
            return brentq(g, lo, p, xtol=1e-15, rtol=1e-15, maxiter=200)
        lo = p
    return None


def simulate(system, t_end, x0=(0.0, 0.0, 0.0, 0.0)):
    """Exact solution from x0 = (phi_m, w_m, phi_l, w_l) over [0, t_end]."""
    sol = Solution(system, t_end)
    sol._modes = {m: _Mode(system, m) for m in (STICK, 1, -1)}
    fs = system.tau_static
    z = np.append(np.asarray(x0, dtype=float), 1.0)
    t = 0.0

    def decide(z):
        tau = system.shaft_torque(z[:4])
        return int(np.sign(tau)) if abs(tau) > fs else STICK

    mode = int(np.sign(z[3])) if z[3] != 0.0 else decide(z)
    for _ in range(100000):
        if t >= t_end:
            break
        flow = sol._modes[mode]
        if mode == STICK:
            z[3] = 0.0

            def g(u):
                return fs - abs(system.shaft_torque(flow.at(z, u)[:4]))
        else:

            def g(u, mode=mode):
                return mode * flow.at(z, u)[3]

        u = _first_root(g, t_end - t, flow.grid, z)
        if u is None:
            sol.segments.append((t, t_end, mode, z.copy()))
            break
        sol.segments.append((t, t + u, mode, z.copy()))
        z = flow.at(z, u)
        t += u
        if mode == STICK:
            new = int(np.sign(system.shaft_torque(z[:4])))
        else:
            z[3] = 0.0
            new = decide(z)
        sol.events.append((t, mode, new))
        mode = new
    return sol


# The systems of the coupling test (tests/tests/shaft_port.rs).
SYSTEMS = {
    # The system: a stiff speed loop winds a 10 N.m/rad shaft at 0.5 rad/s.
    "stiff_loop": ShaftSystem(0.01, 1e4, 10.0, 0.0, 1.0, 1.5, 1.0, 0.5),
    # A soft speed loop (K_v = 20 N.m.s/rad): its droop tau_s/K_v acts as a
    # damper in series with the shaft; one breakaway, then a damped slide.
    "soft_loop": ShaftSystem(0.01, 20.0, 10.0, 0.0, 1.0, 1.5, 1.0, 0.5),
    # A stiff shaft (100 N.m/rad), stiff loop: sticks of 16 ms.
    "stiff_shaft": ShaftSystem(0.01, 1e4, 100.0, 0.0, 1.0, 1.5, 1.0, 0.5),
}

# Light or softly controlled motors (issue 28): J_motor 1e-2 or 1e-3, speed
# gain 1 or 0.1 with 2 N.m stall torque (w_command = 2/K_v) on the same shaft
# and load. The held shaft torque of the plain exchange diverges on them
# under a Jacobi master once h*sqrt(k/J_motor) passes 0.2 (a weakly damped
# motor at 0.32).
LIGHT_MOTORS = {
    f"motor_J{j:g}_Kv{kv:g}": ShaftSystem(j, kv, 10.0, 0.0, 1.0, 1.5, 1.0, 2.0 / kv)
    for j in (1e-2, 1e-3)
    for kv in (1.0, 0.1)
}


def validate(t_end=5.0):
    """Largest difference of the load rate and of the stick instants against
    solve_ivp (Radau, rtol 1e-12, atol 1e-14, terminal events)."""
    from scipy.integrate import solve_ivp

    out = {}
    for name, s in SYSTEMS.items():
        ref = simulate(s, t_end)
        t, z, mode = 0.0, np.zeros(4), STICK
        ts, ws, events = [], [], []
        while t < t_end:
            a, b = s.matrices(mode)

            def f(_, x, a=a, b=b):
                return a @ x + b

            if mode == STICK:

                def ev(_, x):
                    return s.tau_static - abs(s.shaft_torque(x))
            else:

                def ev(_, x, m=mode):
                    return m * x[3]

            ev.terminal, ev.direction = True, -1
            r = solve_ivp(f, (t, t_end), z, method="Radau", rtol=1e-12, atol=1e-14, events=ev, dense_output=True,
                          max_step=1e-3)
            ts.append(r.t)
            ws.append(r.y[3])
            t, z = r.t[-1], r.y[:, -1].copy()
            if r.status == 1:
                events.append(t)
                if mode == STICK:
                    mode = int(np.sign(s.shaft_torque(z)))
                else:
                    z[3] = 0.0
                    tau = s.shaft_torque(z)
                    mode = int(np.sign(tau)) if abs(tau) > s.tau_static else STICK
        tt = np.concatenate(ts)
        ww = np.concatenate(ws)
        dw = np.max(np.abs(ref.load_rate(tt[::20]) - ww[::20]))
        te = [e[0] for e in ref.events]
        n = min(len(te), len(events))
        if n == 0:
            te, events, n = [0.0], [0.0], 1
        dt_ev = max(abs(a - b) for a, b in zip(te[:n], events[:n]))
        out[name] = (dw, dt_ev, len(te), len(events))
        print(f"{name}: {len(te)} events (solve_ivp {len(events)}), max |dw_l| {dw:.2e} rad/s, "
              f"max |event time difference| {dt_ev:.2e} s; sticks {[round(b - a, 6) for a, b in ref.stick_intervals()]}")
    return out


if __name__ == "__main__":
    if "--validate" in sys.argv:
        res = validate()
        bad = [k for k, (dw, de, n1, n2) in res.items() if dw > 1e-7 or de > 1e-8 or n1 != n2]
        sys.exit(1 if bad else 0)
