"""Coupling study: a speed-controlled motor, a compliant shaft and a load with
static + Coulomb friction, cut two ways and run by plain fixed-step masters
over FMPy's low-level API (FMU2Slave), against the exact solution of the
whole system (shaft_reference.py, independent of the FMUs).

Cuts:
- torque: CompliantDrive (motor + shaft; tau_shaft out) -> tau ->
  HillFrictionInertia (load; phi, w out) -> phi_load, w_load;
- shaft: MotorDrive (motor; phi, w out) -> phi_drive, w_drive ->
  HillFrictionShaftLoad (shaft + load; tau_shaft out, the mean over the step)
  -> tau_load;
- implicit: the same two FMUs, but MotorDrive holds the shaft itself: the
  port's phi, w, k_coupling, d_coupling -> phi_load, w_load, k_coupling,
  d_coupling (tau_load stays 0).

Masters (inputs held over the step, one doStep each per step):
- jacobi: both FMUs step with the other's outputs at the step's start;
- gauss_seidel: the friction FMU steps first with the plant's outputs at
  the step's start, then the plant with the friction FMU's new outputs
  (for the shaft cut: the exact mean shaft torque over that step).

Measures, per system, cut, master and step: the durations of the complete
stick phases of the load seen at the communication points (runs of w ==
0.0 exactly between two slides) against the exact ones, and the rms of the
load-rate error at the communication points relative to the peak exact
rate. Prints one line per run: key=value pairs (parsed by
tests/tests/shaft_port.rs), and writes nothing else.

    python shaft_coupling.py FMU_DIR [STOP]
    python shaft_coupling.py --ssp SSP STEP [STOP [CSV]]
        MotorShaftLoadHillFriction.ssp (the stiff_loop system) in fmpy.ssp
        with its parameter set (CSV: write time, w of the load there)
    python shaft_coupling.py --ssp-defaults SSP STEP STOP
        the same SSP in fmpy.ssp without its parameter set (the FMUs' defaults)
    python shaft_coupling.py --derivatives FMU_DIR
        HillFrictionShaftLoad with an accelerating drive end (input derivative
        of w_drive) over one step, against closed forms and solve_ivp
    python shaft_coupling.py --light FMU_DIR [PORT]
        the light and softly controlled motors (LIGHT_MOTORS) on PORT (default
        HillFrictionShaftLoad) under the Jacobi master, plain and implicit,
        at 1 to 50 ms: the load rate against the exact solution (Hill) or
        against the implicit run at 0.25 ms (the other ports)
    python shaft_coupling.py --systems          the systems' parameters, one line each
    python shaft_coupling.py --score SYSTEM STEP CSV
        the same figures for a run made elsewhere (OMSimulator): CSV with
        columns time, w (the load rate at the communication points)
"""
import math
import os
import shutil
import sys

import numpy as np
from fmpy import extract, read_model_description
from fmpy.fmi2 import FMU2Slave

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from shaft_reference import LIGHT_MOTORS, SYSTEMS, simulate  # noqa: E402

STEPS = (1e-3, 5e-3, 20e-3)
MASTERS = ("gauss_seidel", "jacobi")
CUTS = ("torque", "shaft", "implicit")


class Fmu:
    """One instance: Reals by name."""

    _unzipped = {}

    def __init__(self, fmu_dir, model, parameters):
        path = os.path.join(fmu_dir, model + ".fmu")
        if path not in Fmu._unzipped:
            Fmu._unzipped[path] = (read_model_description(path), extract(path))
        self.md, unzipdir = Fmu._unzipped[path]
        self.vr = {v.name: v.valueReference for v in self.md.modelVariables}
        self.slave = FMU2Slave(guid=self.md.guid, unzipDirectory=unzipdir,
                               modelIdentifier=self.md.coSimulation.modelIdentifier, instanceName=model)
        self.slave.instantiate()
        self.slave.setupExperiment(startTime=0.0)
        self.set(parameters)
        self.slave.enterInitializationMode()
        self.slave.exitInitializationMode()

    def set(self, values):
        kinds = {v.name: v.type for v in self.md.modelVariables}
        reals = [n for n in values if kinds[n] == "Real"]
        integers = [n for n in values if kinds[n] != "Real"]  # Integer and Enumeration (a law's choice)
        self.slave.setReal([self.vr[n] for n in reals], [float(values[n]) for n in reals])
        if integers:
            self.slave.setInteger([self.vr[n] for n in integers], [int(values[n]) for n in integers])

    def get(self, names):
        return dict(zip(names, self.slave.getReal([self.vr[n] for n in names])))

    def free(self):
        self.slave.terminate()
        self.slave.freeInstance()

    @staticmethod
    def cleanup():
        for _, d in Fmu._unzipped.values():
            shutil.rmtree(d, ignore_errors=True)


def names(fmu_dir, model):
    """The variable names of a model."""
    return {v.name for v in read_model_description(os.path.join(fmu_dir, model + ".fmu")).modelVariables}


def exact_port(fmu_dir, port):
    """A port that integrates exactly (no internal_step: Hill's static +
    Coulomb law): it takes the system's friction levels and has the closed
    form of shaft_reference as its reference."""
    return "internal_step" not in names(fmu_dir, port)


def pair(fmu_dir, cut, s, h, port="HillFrictionShaftLoad"):
    """(friction FMU, plant FMU, friction outputs, plant outputs, friction
    inputs from plant outputs, plant inputs from friction outputs)."""
    law = {"J": s.J, "w_start": 0.0, "tau_static": s.tau_static, "tau_coulomb": s.tau_coulomb}
    if cut == "torque":
        plant = Fmu(fmu_dir, "CompliantDrive", {"J_motor": s.J_motor, "speed_gain": s.speed_gain,
                                                "k_shaft": s.k_shaft, "d_shaft": s.d_shaft, "internal_step": h,
                                                "tau_motor": s.tau_motor, "w_command": s.w_command})
        load = Fmu(fmu_dir, "HillFrictionInertia", {**law, "internal_step": h})
        return (load, plant, ["phi", "w"], ["tau_shaft"],
                lambda p: {"tau": p["tau_shaft"]},
                lambda f: {"phi_load": f["phi"], "w_load": f["w"]})
    plant = Fmu(fmu_dir, "MotorDrive", {"J_motor": s.J_motor, "speed_gain": s.speed_gain,
                                        "tau_motor": s.tau_motor, "w_command": s.w_command})
    shaft = {"k_shaft": s.k_shaft, "d_shaft": s.d_shaft, "phi_drive": 0.0, "w_drive": 0.0}
    if exact_port(fmu_dir, port):
        load = Fmu(fmu_dir, port, {**law, **shaft})
    else:
        # Another law's port: its own friction levels, the system's shaft and
        # load (but Borello's, which keeps its input tau_load: its own table's load).
        own_load = "tau_load" in names(fmu_dir, port)
        load = Fmu(fmu_dir, port, {**shaft, **({} if own_load else {"J": s.J})})
    if cut == "implicit":
        return (load, plant, ["phi", "w", "tau_shaft", "k_coupling", "d_coupling"], ["phi", "w"],
                lambda p: {"phi_drive": p["phi"], "w_drive": p["w"]},
                lambda f: {"phi_load": f["phi"], "w_load": f["w"], "k_coupling": f["k_coupling"],
                           "d_coupling": f["d_coupling"]})
    return (load, plant, ["phi", "w", "tau_shaft"], ["phi", "w"],
            lambda p: {"phi_drive": p["phi"], "w_drive": p["w"]},
            lambda f: {"tau_load": f["tau_shaft"]})


def cosimulate(fmu_dir, cut, master, s, h, stop):
    """Load rate at the communication points t = i*h."""
    return run_master(pair(fmu_dir, cut, s, h), master, h, stop)


def run_master(pairing, master, h, stop):
    """The load rate at t = i*h of a pair (see `pair`) run by `master`."""
    load, plant, load_out, plant_out, to_load, to_plant = pairing
    # Consistent start: each FMU's inputs from the other's initial outputs.
    f, p = load.get(load_out), plant.get(plant_out)
    load.set(to_load(p))
    plant.set(to_plant(load.get(load_out)))
    f, p = load.get(load_out), plant.get(plant_out)
    n = int(round(stop / h))
    w = [f["w"]]
    for i in range(n):
        t = i * h
        if master == "jacobi":
            load.set(to_load(p))
            plant.set(to_plant(f))
            load.slave.doStep(t, h)
            plant.slave.doStep(t, h)
            f = load.get(load_out)
        else:
            load.set(to_load(p))
            load.slave.doStep(t, h)
            f = load.get(load_out)
            plant.set(to_plant(f))
            plant.slave.doStep(t, h)
        p = plant.get(plant_out)
        w.append(f["w"])
    load.free()
    plant.free()
    return np.array(w)


def stick_runs(times, w):
    """(start, end) of the complete sticks (w == 0.0 exactly, between two
    slides) at the communication points: from the first zero to the first
    non-zero after it."""
    out, start, moved = [], None, False
    for t, x in zip(times, w):
        if x == 0.0:
            if moved and start is None:
                start = t
        else:
            if start is not None:
                out.append((start, t))
                start = None
            moved = True
    return out


def stick_errors(runs, exact, h):
    """For each exact stick (a, b): |duration seen - (b - a)|, the duration
    seen being that of the run overlapping [a - h, b + h] the most (0 when a
    stick shorter than a step falls between two points); and the number of
    runs that match no exact stick (spurious sticks)."""
    errors, used = [], set()
    for a, b in exact:
        best, overlap = None, 0.0
        for i, (s, e) in enumerate(runs):
            o = min(e, b + h) - max(s, a - h)
            if o > overlap:
                best, overlap = i, o
        seen = 0.0 if best is None else runs[best][1] - runs[best][0]
        if best is not None:
            used.add(best)
        errors.append(abs(seen - (b - a)))
    return errors, len(runs) - len(used)


def figures(exact, exact_sticks, times, w, h):
    """key=value figures of one run: rms rate error relative to the peak
    exact rate, sticks seen, and stick errors against the exact sticks."""
    w_exact = exact.load_rate(times)
    peak = np.max(np.abs(w_exact))
    durations = [b - a for a, b in exact_sticks]
    rate = math.sqrt(np.mean((w - w_exact) ** 2)) / peak
    runs = stick_runs(times, w)
    errors, spurious = stick_errors(runs, exact_sticks, h)
    # Relative to the allowed error max(2 %, one step), worst over the sticks.
    score = max([e / max(0.02 * d, h) for e, d in zip(errors, durations)], default=0.0)
    mean = sum(e - s_ for s_, e in runs) / len(runs) if runs else float("nan")
    return (f"rate_rms={rate:.6g} sticks={len(runs)} exact_sticks={len(exact_sticks)} spurious={spurious} "
            f"exact_stick={durations[0] if durations else float('nan'):.6f} "
            f"mean_stick={mean:.6f} stick_error={max(errors, default=0.0):.6f} stick_score={score:.4g}")


def complete_sticks(exact, stop):
    """Complete sticks after a slide (not the initial one, not one cut by the stop)."""
    return [(a, b) for a, b in exact.stick_intervals() if a > 0.0 and b < stop]


def score(name, h, path):
    data = np.genfromtxt(path, delimiter=",", names=True)
    times, w = np.asarray(data["time"], dtype=float), np.asarray(data["w"], dtype=float)
    stop = float(times[-1])
    exact = simulate(SYSTEMS[name], stop)
    print(f"system={name} step={h} {figures(exact, complete_sticks(exact, stop), times, w, h)}")


def mode_sticks(times, modes):
    """(start, end) of the complete sticks in a run that reports its mode
    (Model Exchange: a row at each event's left and right limit): from the
    first row with mode 0 after a slide to the first row with a non-zero
    mode after it."""
    out, start, moved = [], None, False
    for t, m in zip(times, modes):
        if m == 0:
            if moved and start is None:
                start = t
        else:
            if start is not None:
                out.append((start, t))
                start = None
            moved = True
    return out


def score_events(name, path, stop):
    """Model Exchange run of the system (time, mode, w at the solver's
    output points and events) against the exact solution: every complete
    stick's duration, the worst relative error, and the largest |w| while
    the run says stuck (must be exactly 0.0)."""
    data = np.genfromtxt(path, delimiter=",", names=True)
    times, modes = np.asarray(data["time"], dtype=float), np.asarray(data["mode"], dtype=float)
    w = np.asarray(data["w"], dtype=float)
    exact = simulate(SYSTEMS[name], stop)
    exact_sticks = complete_sticks(exact, stop)
    runs = mode_sticks(times, modes)
    errors, spurious = stick_errors(runs, exact_sticks, 0.0)
    worst = max((e / (b - a) for e, (a, b) in zip(errors, exact_sticks)), default=float("nan"))
    events = [t for (t, _, _) in exact.events]
    print(f"system={name} exact_sticks={len(exact_sticks)} sticks={len(runs)} spurious={spurious} "
          f"exact_stick={exact_sticks[0][1] - exact_sticks[0][0] if exact_sticks else float('nan'):.9f} "
          f"stick={runs[0][1] - runs[0][0] if runs else float('nan'):.9f} worst_relative_error={worst:.3e} "
          f"stuck_w_max={float(np.max(np.abs(w[modes == 0]), initial=0.0))!r} exact_events={' '.join(f'{t:.9f}' for t in events)} "
          f"seen_starts={' '.join(f'{a:.9f}' for a, _ in runs)}")


def ssp(path, h, stop, out=None):
    """The shipped shaft-port SSP system in fmpy.ssp's fixed-step master,
    with its own parameter set (checked to be the stiff_loop system; the
    motor's w_command keeps its start value, 0.5 rad/s)."""
    from fmpy.ssp.simulation import simulate_ssp
    from fmpy.ssp.ssd import read_ssd

    s = SYSTEMS["stiff_loop"]
    parameters = read_ssd(path).system.parameterBindings[0].parameterValues[0]
    values = {p.name: float(p.value) for p in parameters.parameters}
    expected = {"Motor.J_motor": s.J_motor, "Motor.speed_gain": s.speed_gain, "Load.k_shaft": s.k_shaft,
                "Load.d_shaft": s.d_shaft, "Load.J": s.J, "Load.tau_static": s.tau_static,
                "Load.tau_coulomb": s.tau_coulomb}
    assert all(values[k] == v for k, v in expected.items()), (values, expected)
    result = simulate_ssp(path, stop_time=stop, step_size=h, parameter_set=parameters)
    # fmpy.ssp records each row after the step from `time` to `time + h`.
    times = np.concatenate([[0.0], np.asarray(result["time"], dtype=float) + h])
    w = np.concatenate([[0.0], np.asarray(result["Load.w"], dtype=float)])
    if out:
        with open(out, "w") as f:
            f.write("time,w\n" + "".join(f"{float(t)!r},{float(x)!r}\n" for t, x in zip(times, w)))
    exact = simulate(s, stop)
    print(f"system=stiff_loop cut=shaft master=fmpy_ssp step={h} "
          f"{figures(exact, complete_sticks(exact, stop), times, w, h)}")


def ssp_defaults(path, h, stop):
    """The shipped shaft-port SSP in fmpy.ssp as a user calls it first:
    stop time and step only, no parameter set (fmpy.ssp 0.3.32 applies
    neither the .ssv nor the DefaultExperiment), so every FMU runs its own
    start values. Prints the largest |w| of motor and load and the motor's
    final angle."""
    from fmpy.ssp.simulation import simulate_ssp

    result = simulate_ssp(path, stop_time=stop, step_size=h)
    motor_w, load_w = np.asarray(result["Motor.w"], dtype=float), np.asarray(result["Load.w"], dtype=float)
    print(f"ssp_defaults step={h} rows={len(motor_w)} motor_w_max={float(np.max(np.abs(motor_w)))!r} "
          f"load_w_max={float(np.max(np.abs(load_w)))!r} motor_phi_end={float(result['Motor.phi'][-1])!r}")


def derivatives(fmu_dir):
    """From rest, drive end phi_d = a*u^2/2 (w_drive = 0, its derivative a):
    stuck until k*a*u^2/2 + d*a*u = F_s; the mean shaft torque on the drive
    over a step T inside the stick is -(k*a*T^2/6 + d*a*T/2); after the
    breakaway, solve_ivp (rtol 1e-12) on J*w' = k*(a*u^2/2 - phi) +
    d*(a*u - w) - F_c gives the rate at T."""
    from scipy.integrate import solve_ivp

    j, k, d, fs, fc, a = 1.0, 10.0, 2.0, 1.5, 1.0, 4.0
    t_break = (-d * a + math.sqrt((d * a) ** 2 + 2.0 * k * a * fs)) / (k * a)
    for label, big_t in (("stuck", 0.9 * t_break), ("sliding", 1.5 * t_break)):
        load = Fmu(fmu_dir, "HillFrictionShaftLoad", {"J": j, "k_shaft": k, "d_shaft": d, "tau_static": fs,
                                                      "tau_coulomb": fc, "w_start": 0.0, "phi_drive": 0.0,
                                                      "w_drive": 0.0})
        load.slave.setRealInputDerivatives([load.vr["w_drive"]], [1], [a])
        load.slave.doStep(0.0, big_t)
        out = load.get(["w", "phi", "tau_shaft"])
        load.free()
        if label == "stuck":
            expected = -(k * a * big_t ** 2 / 6.0 + d * a * big_t / 2.0)
            print(f"derivatives stuck w={out['w']!r} tau_shaft={out['tau_shaft']!r} expected_tau={expected!r}")
        else:
            def f(u, x):
                return [x[1], (k * (a * u * u / 2.0 - x[0]) + d * (a * u - x[1]) - fc) / j]
            r = solve_ivp(f, (t_break, big_t), [0.0, 0.0], method="DOP853", rtol=1e-12, atol=1e-15)
            print(f"derivatives sliding w={out['w']!r} phi={out['phi']!r} expected_w={float(r.y[1, -1])!r} "
                  f"expected_phi={float(r.y[0, -1])!r}")
    Fmu.cleanup()


def figure_data(name, stop, out, series):
    """The figure "the shaft-and-load system three ways" (docs/figures/):
    one CSV, a column per series on a 2 ms grid (the exact load rate, each
    run's interpolated linearly between its points, 6 significant digits),
    and per series its sticks against the exact ones (from the run's own
    points, not the grid). `series`: LABEL=KIND:PATH, KIND `me` (time, mode,
    w at the solver's output points and events) or `cs` (time, w at the
    communication points)."""
    exact = simulate(SYSTEMS[name], stop)
    exact_sticks = complete_sticks(exact, stop)
    grid = np.round(np.arange(0.0, stop + 1e-9, 2e-3), 9)
    columns = {"exact": exact.load_rate(grid)}
    durations = [b - a for a, b in exact_sticks]
    print(f"series=exact sticks={len(exact_sticks)} mean_stick={np.mean(durations):.6f}")
    for item in series:
        label, rest = item.split("=", 1)
        kind, path = rest.split(":", 1)
        data = np.genfromtxt(path, delimiter=",", names=True)
        times, w = np.asarray(data["time"], dtype=float), np.asarray(data["w"], dtype=float)
        if kind == "me":
            runs, h = mode_sticks(times, np.asarray(data["mode"], dtype=float)), 0.0
        else:
            runs, h = stick_runs(times, w), float(times[1] - times[0])
        columns[label] = np.interp(grid, times, w)
        errors, spurious = stick_errors(runs, exact_sticks, h)
        mean = np.mean([b - a for a, b in runs]) if runs else float("nan")
        worst = max((e / d for e, d in zip(errors, durations)), default=float("nan"))
        print(f"series={label} sticks={len(runs)} spurious={spurious} mean_stick={mean:.6f} "
              f"worst_relative_error={worst:.3e}")
    with open(out, "w") as f:
        f.write(",".join(["time"] + list(columns)) + "\n")
        for i, t in enumerate(grid):
            f.write(",".join([f"{t:.6g}"] + [f"{c[i]:.6g}" for c in columns.values()]) + "\n")


LIGHT_STEPS = (1e-3, 5e-3, 10e-3, 20e-3, 50e-3)


def light(fmu_dir, port="HillFrictionShaftLoad", stop=4.0):
    """One line per light motor, cut (plain shaft or implicit) and step under
    the Jacobi master: the largest |w| of the load (bounded?) and the rms of
    its rate error relative to the peak reference rate. The reference: the
    exact solution for Hill's port; the implicit run at 0.25 ms for the other
    laws (their own levels: no closed form)."""
    for name, s in LIGHT_MOTORS.items():
        if exact_port(fmu_dir, port):
            exact = simulate(s, stop)

            def reference(times):
                return exact.load_rate(times)
            label = "exact"
        else:
            fine_h = 0.25e-3
            fine = run_master(pair(fmu_dir, "implicit", s, fine_h, port), "jacobi", fine_h, stop)
            fine_t = np.arange(len(fine)) * fine_h

            def reference(times):
                return np.interp(times, fine_t, fine)
            label = "implicit_0.25ms"
        for h in LIGHT_STEPS:
            n = int(round(stop / h))
            times = np.arange(n + 1) * h
            w_ref = reference(times)
            peak = float(np.max(np.abs(w_ref)))
            for cut in ("shaft", "implicit"):
                with np.errstate(all="ignore"):
                    w = run_master(pair(fmu_dir, cut, s, h, port), "jacobi", h, stop)
                    finite = bool(np.all(np.isfinite(w)))
                    rate = float(math.sqrt(np.mean((w - w_ref) ** 2)) / peak) if finite else float("inf")
                print(f"port={port} system={name} cut={cut} master=jacobi step={h} reference={label} "
                      f"peak={peak:.6g} w_max={float(np.max(np.abs(w))):.6g} rate_rms={rate:.6g}", flush=True)
    Fmu.cleanup()


def main(argv):
    if argv[0] == "--light":
        light(argv[1], *argv[2:3])
        return
    if argv[0] == "--figure-data":
        figure_data(argv[1], float(argv[2]), argv[3], argv[4:])
        return
    if argv[0] == "--derivatives":
        derivatives(argv[1])
        return
    if argv[0] == "--ssp-defaults":
        ssp_defaults(argv[1], float(argv[2]), float(argv[3]))
        return
    if argv[0] == "--ssp":
        ssp(argv[1], float(argv[2]), float(argv[3]) if len(argv) > 3 else 4.0, argv[4] if len(argv) > 4 else None)
        return
    if argv[0] == "--systems":
        for name, s in SYSTEMS.items():
            print(name, " ".join(f"{k}={v!r}" for k, v in vars(s).items()))
        return
    if argv[0] == "--score-events":
        score_events(argv[1], argv[2], float(argv[3]))
        return
    if argv[0] == "--score":
        score(argv[1], float(argv[2]), argv[3])
        return
    fmu_dir = argv[0]
    stop = float(argv[1]) if len(argv) > 1 else 4.0
    for name, s in SYSTEMS.items():
        exact = simulate(s, stop)
        # Complete sticks after a slide (not the initial one, not one cut by the stop).
        exact_sticks = complete_sticks(exact, stop)
        for h in STEPS:
            n = int(round(stop / h))
            times = np.arange(n + 1) * h
            for cut in CUTS:
                for master in MASTERS:
                    w = cosimulate(fmu_dir, cut, master, s, h, stop)
                    print(f"system={name} cut={cut} master={master} step={h} "
                          f"{figures(exact, exact_sticks, times, w, h)}", flush=True)
    Fmu.cleanup()


if __name__ == "__main__":
    main(sys.argv[1:])
