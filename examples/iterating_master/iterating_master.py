"""Two cuts and three masters over FMPy's low-level API, on a stick-slip oscillator.

CompliantDrive (a speed-controlled motor, a compliant shaft) pulls a load
with Hill's static + Coulomb friction (HillFrictionInertia) at a constant
speed v: the load sticks until the shaft torque reaches the static level,
slips, stops, sticks again. Undamped, the stick phases last exactly
2*(tau_static - tau_coulomb)/(k*v) (the load stops where the shaft torque
is 2*tau_coulomb - tau_static and waits for it to wind up to tau_static).

- hold master: every FMU steps with the other's outputs from the step's
  start (what fmpy.ssp and most masters do);
- iterating master: saves both FMUs' state (fmi2GetFMUstate), steps, and
  repeats the step from the saved state with the other FMU's end-of-step
  outputs as inputs until they agree (fixed point; fmi2SetFMUstate).

The same system cut at the shaft instead of at the torque: MotorDrive
(motor and speed loop; torque in, motion out) drives HillFrictionShaftLoad
(shaft and load; the drive's angle and rate in, the shaft's mean torque
out), whose stick and breakaway are exact inside the step; run by a Jacobi
master (both FMUs with the other's outputs at the step's start) and a
Gauss-Seidel one (the load first, then the motor with its new torque).

All run at the communication step --step, and the torque cut's hold master
also at --step/--refine as the reference; the exact solution of the whole
system (tests/python/shaft_reference.py: matrix exponential per mode,
events by root finding) is the judge. Writes <out>/traces.csv (both masters at
the coarse step), <out>/reference.csv, <out>/stick_phases.csv and
<out>/iterating_master.png.

    python examples/iterating_master/iterating_master.py --out out/iterating_master
"""
import argparse
import csv
import os
import shutil
import sys

from fmpy import extract, read_model_description
from fmpy.fmi2 import FMU2Slave

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
from shaft_reference import ShaftSystem, simulate as exact_solution  # noqa: E402

# The oscillator: 1 kg.m2 load, 1.5/1.0 N.m static/Coulomb friction, a
# 10 N.m/rad undamped shaft driven at 0.5 rad/s by a stiff speed loop
# (its droop, tau_shaft/speed_gain, acts as a damper in series: keep it stiff).
DRIVE = {"J_motor": 0.01, "speed_gain": 1e4, "k_shaft": 10.0, "d_shaft": 0.0}
LOAD = {"J": 1.0, "w_start": 0.0, "tau_static": 1.5, "tau_coulomb": 1.0}
SPEED = 0.5


def stick_duration_closed_form():
    return 2.0 * (LOAD["tau_static"] - LOAD["tau_coulomb"]) / (DRIVE["k_shaft"] * SPEED)


class Fmu:
    """One FMU instance: value references by name, get/set of Reals."""

    def __init__(self, path, name, parameters):
        self.md = read_model_description(path)
        self.unzipdir = extract(path)
        self.vr = {v.name: v.valueReference for v in self.md.modelVariables}
        self.slave = FMU2Slave(guid=self.md.guid, unzipDirectory=self.unzipdir,
                               modelIdentifier=self.md.coSimulation.modelIdentifier, instanceName=name)
        self.slave.instantiate()
        self.slave.setupExperiment(startTime=0.0)
        self.set(parameters)
        self.slave.enterInitializationMode()
        self.slave.exitInitializationMode()

    def set(self, values):
        names = list(values)
        self.slave.setReal([self.vr[n] for n in names], [float(values[n]) for n in names])

    def get(self, names):
        return dict(zip(names, self.slave.getReal([self.vr[n] for n in names])))

    def free(self):
        self.slave.terminate()
        self.slave.freeInstance()
        shutil.rmtree(self.unzipdir, ignore_errors=True)


DRIVE_OUT, LOAD_OUT = ["tau_shaft"], ["phi", "w"]


def load_inputs(drive_out):
    return {"tau": drive_out["tau_shaft"]}


def drive_inputs(load_out):
    return {"phi_load": load_out["phi"], "w_load": load_out["w"]}


def mean(start, end):
    return {n: 0.5 * (start[n] + end[n]) for n in start}


def simulate(fmu_dir, stop, h, iterate, inputs="trapezoid", tolerance=1e-12, max_iterations=50):
    """Run one master; returns rows (time, w, phi, tau_shaft, iterations).
    The iterating master feeds each FMU, over the step, the mean of the
    other's outputs at the step's start and end ("trapezoid") or the end
    values alone ("end", backward Euler: it damps the oscillation)."""
    drive = Fmu(os.path.join(fmu_dir, "CompliantDrive.fmu"), "drive", {**DRIVE, "tau_motor": 0.0})
    load = Fmu(os.path.join(fmu_dir, "HillFrictionInertia.fmu"), "load", LOAD)
    drive.set({"w_command": SPEED})
    d_out, l_out = drive.get(DRIVE_OUT), load.get(LOAD_OUT)
    rows = [(0.0, l_out["w"], l_out["phi"], d_out["tau_shaft"], 0)]
    n = int(round(stop / h))
    unconverged = 0
    for i in range(n):
        t = i * h
        if not iterate:
            load.set(load_inputs(d_out))
            drive.set(drive_inputs(l_out))
            load.slave.doStep(t, h)
            drive.slave.doStep(t, h)
            d_out, l_out = drive.get(DRIVE_OUT), load.get(LOAD_OUT)
            rows.append((t + h, l_out["w"], l_out["phi"], d_out["tau_shaft"], 1))
            continue
        saved = (drive.slave.getFMUState(), load.slave.getFMUState())
        guess_d, guess_l = d_out, l_out  # first pass: the hold master's inputs
        for k in range(1, max_iterations + 1):
            if k > 1:
                drive.slave.setFMUState(saved[0])
                load.slave.setFMUState(saved[1])
            over_d, over_l = (mean(d_out, guess_d), mean(l_out, guess_l)) if inputs == "trapezoid" else (guess_d, guess_l)
            load.set(load_inputs(over_d))
            drive.set(drive_inputs(over_l))
            load.slave.doStep(t, h)
            drive.slave.doStep(t, h)
            new_d, new_l = drive.get(DRIVE_OUT), load.get(LOAD_OUT)
            change = max(abs(new_d["tau_shaft"] - guess_d["tau_shaft"]), abs(new_l["w"] - guess_l["w"]),
                         abs(new_l["phi"] - guess_l["phi"]))
            guess_d, guess_l = new_d, new_l
            if k > 1 and change <= tolerance:
                break
        else:
            unconverged += 1
        drive.slave.freeFMUState(saved[0])
        load.slave.freeFMUState(saved[1])
        d_out, l_out = guess_d, guess_l
        rows.append((t + h, l_out["w"], l_out["phi"], d_out["tau_shaft"], k))
    drive.free()
    load.free()
    return rows, unconverged


def simulate_shaft(fmu_dir, stop, h, master):
    """The shaft cut: MotorDrive + HillFrictionShaftLoad, inputs held; rows
    as `simulate`'s. master: "jacobi" or "gauss_seidel" (load first)."""
    motor = Fmu(os.path.join(fmu_dir, "MotorDrive.fmu"), "motor",
                {"J_motor": DRIVE["J_motor"], "speed_gain": DRIVE["speed_gain"], "tau_motor": 0.0, "w_command": SPEED})
    load = Fmu(os.path.join(fmu_dir, "HillFrictionShaftLoad.fmu"), "load",
               {**LOAD, "k_shaft": DRIVE["k_shaft"], "d_shaft": DRIVE["d_shaft"], "phi_drive": 0.0, "w_drive": 0.0})
    m_out, l_out = motor.get(["phi", "w"]), load.get(["phi", "w", "tau_shaft"])
    rows = [(0.0, l_out["w"], l_out["phi"], l_out["tau_shaft"], 1)]
    for i in range(int(round(stop / h))):
        t = i * h
        load.set({"phi_drive": m_out["phi"], "w_drive": m_out["w"]})
        if master == "jacobi":
            motor.set({"tau_load": l_out["tau_shaft"]})
            load.slave.doStep(t, h)
            motor.slave.doStep(t, h)
            l_out = load.get(["phi", "w", "tau_shaft"])
        else:
            load.slave.doStep(t, h)
            l_out = load.get(["phi", "w", "tau_shaft"])
            motor.set({"tau_load": l_out["tau_shaft"]})
            motor.slave.doStep(t, h)
        m_out = motor.get(["phi", "w"])
        rows.append((t + h, l_out["w"], l_out["phi"], l_out["tau_shaft"], 1))
    motor.free()
    load.free()
    return rows


def stick_phases(rows):
    """(start, end) of each run of exact zeros in w after the first breakaway,
    at the communication points (the initial stick phase is left out)."""
    phases, start, moved = [], None, False
    for t, w, *_ in rows:
        if w == 0.0 and moved and start is None:
            start = t
        elif w != 0.0:
            moved = True
            if start is not None:
                phases.append((start, t))
                start = None
    return phases


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fmu-dir", default=os.path.join(ROOT, "target", "fmu"))
    parser.add_argument("--out", required=True, help="folder for the CSVs and the PNG")
    parser.add_argument("--step", type=float, default=0.02, help="communication step (s)")
    parser.add_argument("--stop-time", type=float, default=10.0)
    parser.add_argument("--refine", type=int, default=40, help="reference step = step/refine (hold master)")
    parser.add_argument("--inputs", choices=["trapezoid", "end"], default="trapezoid",
                        help="iterating master's inputs over a step: mean of start and end values, or end values")
    args = parser.parse_args(argv)
    h, stop = args.step, args.stop_time
    os.makedirs(args.out, exist_ok=True)

    hold, _ = simulate(args.fmu_dir, stop, h, iterate=False)
    iterated, unconverged = simulate(args.fmu_dir, stop, h, iterate=True, inputs=args.inputs)
    reference, _ = simulate(args.fmu_dir, stop, h / args.refine, iterate=False)
    ref_at = {i: reference[i * args.refine] for i in range(len(hold))}
    shaft = {m: simulate_shaft(args.fmu_dir, stop, h, m) for m in ("jacobi", "gauss_seidel")}
    exact = exact_solution(ShaftSystem(DRIVE["J_motor"], DRIVE["speed_gain"], DRIVE["k_shaft"], DRIVE["d_shaft"],
                                       LOAD["J"], LOAD["tau_static"], LOAD["tau_coulomb"], SPEED), stop)
    w_exact = exact.load_rate([r[0] for r in hold])

    with open(os.path.join(args.out, "traces.csv"), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["time", "w_hold", "w_iterated", "w_reference", "tau_shaft_hold", "tau_shaft_iterated",
                      "tau_shaft_reference", "iterations", "w_shaft_jacobi", "w_shaft_gauss_seidel", "w_exact"])
        for i, (a, b) in enumerate(zip(hold, iterated)):
            r = ref_at[i]
            out.writerow([repr(a[0]), repr(a[1]), repr(b[1]), repr(r[1]), repr(a[3]), repr(b[3]), repr(r[3]), b[4],
                          repr(shaft["jacobi"][i][1]), repr(shaft["gauss_seidel"][i][1]), repr(float(w_exact[i]))])
    with open(os.path.join(args.out, "reference.csv"), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["time", "w", "tau_shaft"])
        for r in reference:
            out.writerow([repr(r[0]), repr(r[1]), repr(r[3])])
    expected = stick_duration_closed_form()
    phases = {"hold": stick_phases(hold), "iterated": stick_phases(iterated), "reference": stick_phases(reference),
              "shaft_jacobi": stick_phases(shaft["jacobi"]), "shaft_gauss_seidel": stick_phases(shaft["gauss_seidel"]),
              "exact": [(a, b) for a, b in exact.stick_intervals() if a > 0.0 and b < stop]}
    with open(os.path.join(args.out, "stick_phases.csv"), "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["master", "start", "end", "duration", "closed_form"])
        for master, list_ in phases.items():
            for s, e in list_:
                out.writerow([master, repr(s), repr(e), repr(e - s), repr(expected)])

    def rms(i):
        return (sum((row[1] - ref_at[k][1]) ** 2 for k, row in enumerate(i)) / len(i)) ** 0.5

    print(f"closed-form stick duration {expected:.4f} s; step {h} s, reference {h / args.refine} s")
    for master, list_ in phases.items():
        durations = [e - s for s, e in list_]
        mean = sum(durations) / len(durations) if durations else float("nan")
        print(f"{master:9s}: {len(durations)} stick phases, mean {mean:.4f} s")
    print(f"rms rate difference to the reference: hold {rms(hold):.4g} rad/s, iterated {rms(iterated):.4g} rad/s")
    print(f"iterating master: {sum(r[4] for r in iterated[1:]) / (len(iterated) - 1):.2f} passes per step, "
          f"{unconverged} steps not converged")
    peak = max(abs(x) for x in w_exact)

    def rms_exact(rows):
        return (sum((row[1] - w_exact[k]) ** 2 for k, row in enumerate(rows)) / len(rows)) ** 0.5 / peak

    print("rms rate error against the exact solution, relative to its peak: "
          f"torque cut hold {rms_exact(hold):.3g}, iterated {rms_exact(iterated):.3g}; "
          f"shaft cut jacobi {rms_exact(shaft['jacobi']):.3g}, gauss_seidel {rms_exact(shaft['gauss_seidel']):.3g}")
    plot(hold, iterated, reference, ref_at, phases, expected, h, os.path.join(args.out, "iterating_master.png"),
         shaft, w_exact)
    return 0


def plot(hold, iterated, reference, ref_at, phases, expected, h, path, shaft, w_exact):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(3, 1, figsize=(9, 9))
    ax = axes[0]
    ax.plot([r[0] for r in reference], [r[1] for r in reference], "k", lw=0.8, label="reference (hold, fine step)")
    ax.plot([r[0] for r in hold], [r[1] for r in hold], ".-", ms=2, lw=0.8, label=f"hold master, {h} s")
    ax.plot([r[0] for r in iterated], [r[1] for r in iterated], ".-", ms=2, lw=0.8, label=f"iterating master, {h} s")
    for m, rows in shaft.items():
        ax.plot([r[0] for r in rows], [r[1] for r in rows], ".-", ms=2, lw=0.8, label=f"shaft cut, {m}, {h} s")
    ax.plot([r[0] for r in hold], w_exact, "r--", lw=0.8, label="exact")
    ax.set_ylabel("load rate w (rad/s)")
    ax.set_title("Stick-slip: torque cut (CompliantDrive + HillFrictionInertia) vs shaft cut "
                 "(MotorDrive + HillFrictionShaftLoad)", fontsize=9)
    ax.legend(fontsize=7)
    ax = axes[1]
    ax.plot([r[0] for r in hold], [r[1] - ref_at[i][1] for i, r in enumerate(hold)], lw=0.8, label="hold - reference")
    ax.plot([r[0] for r in iterated], [r[1] - ref_at[i][1] for i, r in enumerate(iterated)], lw=0.8,
            label="iterating - reference")
    for m, rows in shaft.items():
        ax.plot([r[0] for r in rows], [r[1] - w_exact[i] for i, r in enumerate(rows)], lw=0.8,
                label=f"shaft cut {m} - exact")
    ax.set_ylabel("rate difference (rad/s)")
    ax.set_xlabel("time (s)")
    ax.legend(fontsize=7)
    ax = axes[2]
    for master, marker in [("reference", "k."), ("hold", "o"), ("iterated", "s"), ("shaft_jacobi", "^"),
                           ("shaft_gauss_seidel", "v"), ("exact", "r*")]:
        ax.plot([s for s, _ in phases[master]], [e - s for s, e in phases[master]], marker, label=master, ms=5)
    ax.axhline(expected, color="gray", ls="--", label=f"closed form {expected:.3f} s")
    ax.set_xlabel("start of stick phase (s)")
    ax.set_ylabel("stick duration (s)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("wrote", path)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
