"""A clutch between two shafts (issue 28): MotorDrive -> ShaftClutch ->
MotorDrive as the load, against a reference computed here, independent of
the FMUs: scipy's solve_ivp (DOP853, rtol 1e-11) on the whole system with
the clutch's lock, breakaway and reversal as located events.

The system (SI units, angles in rad)::

    J_m w_m' = K_m (w_cm - w_m) - T1                motor, speed loop
    T1 = k1 (phi_m - phi1) + d1 (w_m - w1)          drive shaft on plate 1
    J1 w1'  = T1 - T_c                              plate 1
    J2 w2'  = T2 + T_c                              plate 2
    T2 = k2 (phi_L - phi2) + d2 (w_L - w2)          load shaft on plate 2
    J_L w_L' = K_L (w_cL - w_L) - T2                load, its own weak loop
    T_c: locked (w1 = w2) T_s = (T1 J2 - T2 J1)/(J1 + J2) while |T_s| <= C,
         slipping C*sign(w1 - w2)

    python clutch_between_shafts.py reference STOP
        the reference's events: "event t=... locked=0|1"
    python clutch_between_shafts.py ssp SSP STEP STOP
        the shipped SSP in fmpy.ssp with its parameter set: the instants the
        clutch's `locked` changes at the communication points
    python clutch_between_shafts.py figure SSP PNG
        docs/figures/clutch_between_shafts.png: the reference and fmpy.ssp at 5, 20 ms
    python clutch_between_shafts.py reference-motor STOP J_MOTOR SPEED_GAIN
        the reference's events with that motor (as `jacobi`)
    python clutch_between_shafts.py jacobi FMU_DIR STEP STOP J_MOTOR SPEED_GAIN
        the same three FMUs under a plain Jacobi loop with another motor
        (2 N.m stall torque: w_command = 2/speed_gain): the largest |w| of
        the load and of the motor, and the clutch's instants
"""
import math
import os
import shutil
import sys

import numpy as np
from scipy.integrate import solve_ivp

# The SSP's system (MotorClutchLoad.ssp's parameter set and the FMUs' start values).
SYSTEM = dict(J_m=0.01, K_m=10.0, w_cm=0.5, k1=10.0, d1=0.0, J1=0.25, J2=0.25, k2=10.0, d2=0.0,
              J_L=1.0, K_L=0.1, w_cL=0.5, C=1.0)


def reference(stop, p=SYSTEM):
    """Events (t, locked after) of the whole system from rest, clutch locked."""
    x = np.zeros(8)  # phi_m, w_m, phi1, w1, phi2, w2, phi_L, w_L
    t, locked, sense = 0.0, True, 0.0

    def shafts(x):
        t1 = p["k1"] * (x[0] - x[2]) + p["d1"] * (x[1] - x[3])
        t2 = p["k2"] * (x[6] - x[4]) + p["d2"] * (x[7] - x[5])
        return t1, t2

    def sticking(x):
        t1, t2 = shafts(x)
        return (t1 * p["J2"] - t2 * p["J1"]) / (p["J1"] + p["J2"])

    def rhs(_, x, locked, sense):
        t1, t2 = shafts(x)
        if locked:
            a = (t1 + t2) / (p["J1"] + p["J2"])
            a1 = a2 = a
        else:
            tc = p["C"] * sense
            a1, a2 = (t1 - tc) / p["J1"], (t2 + tc) / p["J2"]
        return [x[1], (p["K_m"] * (p["w_cm"] - x[1]) - t1) / p["J_m"], x[3], a1, x[5], a2, x[7],
                (p["K_L"] * (p["w_cL"] - x[7]) - t2) / p["J_L"]]

    events = []
    # At rest, locked, if the clutch can hold (it can: no torque at rest).
    while t < stop:
        if locked:
            def margin(_, x, *args):
                return p["C"] - abs(sticking(x))
        else:
            def margin(_, x, *args, s=sense):
                return s * (x[3] - x[5])
        margin.terminal, margin.direction = True, -1
        r = solve_ivp(rhs, (t, stop), x, args=(locked, sense), method="DOP853", rtol=1e-11, atol=1e-13,
                      events=margin, max_step=0.01)
        x, t = r.y[:, -1].copy(), float(r.t[-1])
        if r.status != 1:
            break
        if locked:
            locked, sense = False, math.copysign(1.0, sticking(x))
        else:
            # The slip speed crossed 0: lock if the clutch can hold T_s, else reverse.
            common = (p["J1"] * x[3] + p["J2"] * x[5]) / (p["J1"] + p["J2"])
            x[3] = x[5] = common
            ts = sticking(x)
            if abs(ts) <= p["C"]:
                locked, sense = True, 0.0
            else:
                sense = math.copysign(1.0, ts)
                events.append((t, 0))
                continue
        events.append((t, 1 if locked else 0))
    return events


def reference_rates(stop, grid, p=SYSTEM):
    """The reference's plate rates w1, w2 and load rate on `grid` (dense output)."""
    x = np.zeros(8)
    out = np.full((len(grid), 3), np.nan)
    events = reference(stop, p)
    # Re-run piecewise with dense output between the events.
    t, locked, sense = 0.0, True, 0.0
    bounds = [e[0] for e in events] + [stop]

    def rhs(_, x, locked, sense):
        t1 = p["k1"] * (x[0] - x[2]) + p["d1"] * (x[1] - x[3])
        t2 = p["k2"] * (x[6] - x[4]) + p["d2"] * (x[7] - x[5])
        if locked:
            a1 = a2 = (t1 + t2) / (p["J1"] + p["J2"])
        else:
            a1, a2 = (t1 - p["C"] * sense) / p["J1"], (t2 + p["C"] * sense) / p["J2"]
        return [x[1], (p["K_m"] * (p["w_cm"] - x[1]) - t1) / p["J_m"], x[3], a1, x[5], a2, x[7],
                (p["K_L"] * (p["w_cL"] - x[7]) - t2) / p["J_L"]]

    for (t_end, locked_after) in zip(bounds, [e[1] for e in events] + [None]):
        r = solve_ivp(rhs, (t, t_end), x, args=(locked, sense), method="DOP853", rtol=1e-11, atol=1e-13,
                      dense_output=True, max_step=0.01)
        inside = (grid >= t) & (grid <= t_end)
        out[inside] = r.sol(grid[inside])[[3, 5, 7]].T
        x = r.y[:, -1].copy()
        if locked_after is None:
            break
        t1 = p["k1"] * (x[0] - x[2]) + p["d1"] * (x[1] - x[3])
        t2 = p["k2"] * (x[6] - x[4]) + p["d2"] * (x[7] - x[5])
        ts = (t1 * p["J2"] - t2 * p["J1"]) / (p["J1"] + p["J2"])
        if locked_after:
            x[3] = x[5] = (p["J1"] * x[3] + p["J2"] * x[5]) / (p["J1"] + p["J2"])
            locked, sense = True, 0.0
        else:
            locked, sense = False, math.copysign(1.0, ts) if locked else math.copysign(1.0, x[3] - x[5])
        t = t_end
    return events, out


def figure(ssp_path, out_png, stop=3.0):
    """docs/figures/clutch_between_shafts.png: the plate rates of the
    reference and of fmpy.ssp's runs at 5 and 20 ms, the clutch's state."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from fmpy.ssp.simulation import simulate_ssp
    from fmpy.ssp.ssd import read_ssd

    grid = np.linspace(0.0, stop, 1501)
    events, rates = reference_rates(stop, grid)
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(8, 5.5), sharex=True, gridspec_kw={"height_ratios": [3, 1]})
    ax.plot(grid, rates[:, 0], "k-", lw=1.0, zorder=3, label="plate 1 (drive side), reference")
    ax.plot(grid, rates[:, 1], "k--", lw=1.0, zorder=3, label="plate 2 (load side), reference")
    parameters = read_ssd(ssp_path).system.parameterBindings[0].parameterValues[0]
    for h, style, every in ((0.005, "o", 6), (0.02, "s", 1)):
        r = simulate_ssp(ssp_path, stop_time=stop, step_size=h, parameter_set=parameters)
        t = np.asarray(r["time"], dtype=float) + h
        for name, color, label in (("Clutch.w1", "tab:blue", "plate 1"), ("Clutch.w2", "tab:red", "plate 2")):
            ax.plot(t, r[name], style, ms=3, mfc="none", color=color, markevery=every,
                    label=f"{label}, fmpy.ssp {h * 1e3:g} ms")
        ax2.step(t, np.asarray(r["Clutch.locked"], dtype=float), where="post", label=f"{h * 1e3:g} ms")
    for te, b in events:
        for a in (ax, ax2):
            a.axvline(te, color="0.6", lw=0.8, ls=":")
    ax.set_ylabel("rate (rad/s)")
    ax.set_title("MotorClutchLoad.ssp: ShaftClutch between MotorDrive and a load, implicit coupling")
    ax.legend(fontsize=7, ncol=2)
    ax2.set_ylabel("locked")
    ax2.set_xlabel("time (s); dotted: the reference's unlock and lock")
    ax2.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)


def instants(times, locked):
    """(t, locked after) at each communication point where `locked` changed."""
    return [(float(t), int(b)) for t, a, b in zip(times[1:], locked[:-1], locked[1:]) if a != b]


def ssp(path, h, stop):
    from fmpy.ssp.simulation import simulate_ssp
    from fmpy.ssp.ssd import read_ssd

    parameters = read_ssd(path).system.parameterBindings[0].parameterValues[0]
    result = simulate_ssp(path, stop_time=stop, step_size=h, parameter_set=parameters)
    # fmpy.ssp records each row after the step from `time` to `time + h`.
    times = np.concatenate([[0.0], np.asarray(result["time"], dtype=float) + h])
    locked = np.concatenate([[1], np.asarray(result["Clutch.locked"], dtype=int)])
    w_load = np.asarray(result["Load.w"], dtype=float)
    print(f"ssp step={h} load_w_max={float(np.max(np.abs(w_load)))!r} load_w_end={float(w_load[-1])!r}")
    for t, b in instants(times, locked):
        print(f"seen t={t!r} locked={b}")


class Fmu:
    def __init__(self, path, name, values):
        from fmpy import extract, read_model_description
        from fmpy.fmi2 import FMU2Slave

        self.md = read_model_description(path)
        self.dir = extract(path)
        self.vr = {v.name: v.valueReference for v in self.md.modelVariables}
        self.types = {v.name: v.type for v in self.md.modelVariables}
        self.s = FMU2Slave(guid=self.md.guid, unzipDirectory=self.dir,
                           modelIdentifier=self.md.coSimulation.modelIdentifier, instanceName=name)
        self.s.instantiate()
        self.s.setupExperiment(startTime=0.0)
        self.s.enterInitializationMode()
        self.set(values)
        self.s.exitInitializationMode()

    def set(self, values):
        if values:
            self.s.setReal([self.vr[k] for k in values], [float(v) for v in values.values()])

    def get(self, names):
        reals = [n for n in names if self.types[n] == "Real"]
        out = dict(zip(reals, self.s.getReal([self.vr[n] for n in reals])))
        for n in names:
            if self.types[n] == "Boolean":
                out[n] = int(self.s.getBoolean([self.vr[n]])[0])
        return out

    def free(self):
        self.s.terminate()
        self.s.freeInstance()
        shutil.rmtree(self.dir, ignore_errors=True)


def jacobi(fmu_dir, h, stop, j_motor, speed_gain):
    """The SSP's wiring under a plain Jacobi loop (every FMU steps on the
    others' outputs at the step's start), with another motor."""
    p = lambda m: os.path.join(fmu_dir, m + ".fmu")  # noqa: E731
    motor = Fmu(p("MotorDrive"), "Motor", {"J_motor": j_motor, "speed_gain": speed_gain,
                                          "w_command": 2.0 / speed_gain})
    clutch = Fmu(p("ShaftClutch"), "Clutch", {})
    load = Fmu(p("MotorDrive"), "Load", {"J_motor": 1.0, "speed_gain": 0.1})
    c_out = ["phi1", "w1", "phi2", "w2", "k_coupling_drive", "d_coupling_drive", "k_coupling_load",
             "d_coupling_load", "locked"]

    def exchange():
        m, c, l_ = motor.get(["phi", "w"]), clutch.get(c_out), load.get(["phi", "w"])
        motor.set({"phi_load": c["phi1"], "w_load": c["w1"], "k_coupling": c["k_coupling_drive"],
                   "d_coupling": c["d_coupling_drive"]})
        load.set({"phi_load": c["phi2"], "w_load": c["w2"], "k_coupling": c["k_coupling_load"],
                  "d_coupling": c["d_coupling_load"]})
        clutch.set({"phi_drive": m["phi"], "w_drive": m["w"], "phi_load": l_["phi"], "w_load": l_["w"]})
        return m, c, l_

    n = int(round(stop / h))
    times, locked, w_motor, w_load = [0.0], [], [], []
    for i in range(n):
        m, c, l_ = exchange()
        locked.append(c["locked"])
        w_motor.append(m["w"])
        w_load.append(l_["w"])
        for f in (motor, clutch, load):
            f.s.doStep(i * h, h)
        times.append((i + 1) * h)
    m, c, l_ = exchange()
    locked.append(c["locked"])
    w_motor.append(m["w"])
    w_load.append(l_["w"])
    with np.errstate(all="ignore"):
        print(f"jacobi step={h} J_motor={j_motor} speed_gain={speed_gain} "
              f"motor_w_max={float(np.nanmax(np.abs(w_motor)))!r} load_w_max={float(np.nanmax(np.abs(w_load)))!r} "
              f"load_w_end={float(w_load[-1])!r}")
    for t, b in instants(np.array(times), np.array(locked)):
        print(f"seen t={t!r} locked={b}")
    for f in (motor, clutch, load):
        f.free()


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[0] == "reference":
        for t, b in reference(float(a[1])):
            print(f"event t={t!r} locked={b}")
    elif a[0] == "reference-motor":
        # The jacobi study's system: another motor, 2 N.m stall torque.
        j_motor, gain = float(a[2]), float(a[3])
        p = {**SYSTEM, "J_m": j_motor, "K_m": gain, "w_cm": 2.0 / gain}
        for t, b in reference(float(a[1]), p):
            print(f"event t={t!r} locked={b}")
    elif a[0] == "figure":
        figure(a[1], a[2])
    elif a[0] == "ssp":
        ssp(a[1], float(a[2]), float(a[3]))
    elif a[0] == "jacobi":
        jacobi(a[1], float(a[2]), float(a[3]), float(a[4]), float(a[5]))
