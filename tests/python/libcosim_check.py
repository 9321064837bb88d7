"""libcosim (Open Simulation Platform, libcosimpy 0.0.6) against FMPy 0.3.32 on
every FMI 2.0 FMU, in Co-Simulation.

    python libcosim_check.py [FMU_DIR]     (default: $FMU_DIR, else target/fmu)

Why: libcosim reads ALL variables of an FMU (parameters, locals and outputs
alike) in one fmi2GetReal call (and one fmi2GetInteger, one fmi2GetBoolean)
after each step, where FMPy reads the outputs alone. An FMU must answer an
output the same whatever else is read in the same call; this checks it with
a real importer that reads that way. Everything else is made the same in both
importers, so that a difference is the FMU's answer to that read:

- the runs: each FMU's DefaultExperiment (start, stop and step of its
  modelDescription) with the <Model>_in.csv beside it when there is one, and
  every scenario replay of FMU_DIR/scenarios/<name>/ (its <Model>_in.csv,
  <Model>_ref.opt and the parameters of start_values.csv);
- FMPy runs `fmpy.simulate_fmu` (no input derivatives); libcosim runs a
  fixed-step execution of the same step, the parameters set as initial
  values and, before each step, every input the table drives overridden
  with the value FMPy sets at that step's start: FMPy's own
  `Input.interpolate` (linear between rows, the value after a jump at the
  jump's time, discrete inputs held) at FMPy's communication times; the
  values FMPy sets in initialization mode are libcosim's initial values,
  which it sets in initialization mode too;
- every output (causality output) is compared at every communication point
  after the first step (libcosimpy offers no read between initialization and
  the first step): |libcosim - FMPy| <= 1e-10 * max(1, peak |FMPy| of that
  output over the run).

A run that differs is run twice more in FMPy's FMU2Slave with the same calls,
reading after each step the outputs alone and every variable in one call per
type as libcosim does: its line says whether these give simulate_fmu's and
libcosim's values (then the FMU answers an output differently when read with
all variables: neither this harness nor libcosim).

Where the two importers cannot make the same calls, the line says so, and
why. FMPy shortens a step to land on an input jump off the communication
grid, libcosim's fixed step cannot: such a run is compared with every jump
moved to the nearest grid point in both importers ("jumps snapped to the
grid" and the moves). libcosim ignores FMI 2.0 Enumeration variables (it
warns and leaves them out): an Enumeration parameter at its start value is
left unset (said on the line), another value makes the run NOT COMPARABLE;
an Enumeration output would be left out of the comparison (said on the
line). No run is left out silently.

Prints one line per run: model, run, points, the worst output, its error
and limit, "agree" or "DIFFER" (for a run that differs: which outputs differ,
by how much and first where, which agree, and the one-call read's verdict),
then the summary "libcosim runs: N compared, A agree, D differ, U not
comparable, F failed to run" and the failures. Exits 1 if any run differs or
fails to run."""
import math
import os
import sys

import numpy as np
import fmpy
from fmpy import extract
from fmpy.fmi2 import FMU2Slave
from fmpy.simulation import Input
from fmpy.util import read_csv, read_ref_opt_file
from libcosimpy.CosimExecution import CosimExecution
from libcosimpy.CosimLogging import CosimLogLevel, log_output_level
from libcosimpy.CosimManipulator import CosimManipulator
from libcosimpy.CosimObserver import CosimObserver
from libcosimpy.CosimSlave import CosimLocalSlave
from libcosimpy._internal import get_last_error_message

RELATIVE = 1e-10
NANOS = 1_000_000_000


class NotComparable(Exception):
    """The two importers cannot make the same calls for this run."""


def typed(variable, value):
    """A value as the variable's type wants it (the CSV files hold floats)."""
    if variable.type in ("Integer", "Enumeration"):
        return int(value)
    if variable.type == "Boolean":
        return bool(value)
    return float(value)


def read_start_values(path, md):
    if not os.path.exists(path):
        return {}
    by_name = {v.name: v for v in md.modelVariables}
    values = {}
    for line in open(path).read().splitlines()[1:]:
        name, value = line.split(",", 1)
        name = name.strip('"')
        values[name] = typed(by_name[name], float(value))
    return values


def driven_inputs(md, signals):
    """The variables FMPy's Input sets from the table, as FMPy picks them: the
    inputs (and tunable parameters) with a column; continuous if Real and
    neither discrete nor tunable, else held."""
    if signals is None:
        return []
    driven = []
    for v in md.modelVariables:
        if v.causality != "input" and v.variability != "tunable":
            continue
        if v.name not in signals.dtype.names:
            continue
        continuous = v.type == "Real" and v.variability not in ("discrete", "tunable")
        dtype = np.float64 if v.type == "Real" else np.int32
        driven.append((v, continuous, np.asarray(np.stack([signals[v.name]]), dtype=dtype)))
    return driven


def input_values(driven, signals, time, after_event):
    """What FMPy 0.3.32 sets at `time`, by its own interpolation."""
    values = []
    for v, continuous, table in driven:
        value, _ = Input.interpolate(time=time, t=signals["time"], table=table, discrete=not continuous,
                                     after_event=after_event)
        values.append((v, value[0].item()))
    return values


def enumerations(md, experiment, signals):
    """What libcosim's blindness to Enumeration variables changes in this run:
    a note for the line, or NotComparable."""
    notes = []
    by_name = {v.name: v for v in md.modelVariables}
    for name, value in experiment[3].items():
        v = by_name[name]
        if v.type != "Enumeration":
            continue
        if v.start is None or int(v.start) != value:
            raise NotComparable(f"libcosim ignores FMI 2.0 Enumeration variables (it warns and leaves them out of "
                                f"its model description), so it cannot set the parameter {name} = {value}")
        notes.append(f"{name} = {value} is its start value, left unset in libcosim, which ignores Enumeration "
                     f"variables")
    for v, _, _ in driven_inputs(md, signals):
        if v.type == "Enumeration":
            raise NotComparable(f"libcosim ignores FMI 2.0 Enumeration variables: it cannot set the input {v.name}")
    for v in md.modelVariables:
        if v.causality == "output" and v.type == "Enumeration":
            notes.append(f"output {v.name} not compared: libcosim ignores Enumeration variables")
    return notes


def snap_jumps(signals, md, start, step):
    """The table with each of FMPy's input events (rows sharing a time, a
    discrete input's change) moved to the nearest grid point, and the moves."""
    if signals is None:
        return None, []
    snapped = signals.copy()
    moved = []
    for t_event in Input.findEvents(signals, md):
        if not math.isfinite(t_event):
            continue
        on_grid = start + round((t_event - start) / step) * step
        if on_grid != t_event:
            snapped["time"][signals["time"] == t_event] = on_grid
            moved.append((float(t_event), on_grid))
    if np.any(np.diff(snapped["time"]) < 0):
        raise NotComparable(f"moving the input jumps {moved} to the {step} s grid reorders the table's rows")
    return snapped, moved


def run_fmpy(path, experiment, signals):
    start, stop, step, start_values = experiment
    return fmpy.simulate_fmu(path, fmi_type="CoSimulation", start_time=start, stop_time=stop,
                             output_interval=step, start_values=dict(start_values), input=signals)


def regular_grid(times, start, step):
    """Whether FMPy's communication points are start + k*step, as libcosim's."""
    return all(t == start + k * step for k, t in enumerate(times))


def nanoseconds(seconds, what):
    ns = round(seconds * NANOS)
    if abs(ns - seconds * NANOS) > 1e-6 * max(1.0, abs(seconds * NANOS)):
        raise NotComparable(f"{what} = {seconds!r} s is not a whole number of nanoseconds (libcosim's time unit)")
    return ns


def run_libcosim(path, md, experiment, signals, times, outputs):
    """One fixed-step libcosim execution over FMPy's communication points; the
    outputs after each step, one array per output."""
    start, stop, step, start_values = experiment
    if start != 0.0:
        raise NotComparable(f"start time {start} s: libcosimpy's from_step_size starts at 0")
    execution = CosimExecution.from_step_size(step_size=nanoseconds(step, "the step"))
    slave = CosimLocalSlave(fmu_path=os.path.abspath(path), instance_name="libcosim")
    index = execution.add_local_slave(local_slave=slave)
    if index < 0:
        raise RuntimeError(f"libcosim cannot load {path}: {get_last_error_message()}")
    observer = CosimObserver.create_last_value()
    execution.add_observer(observer=observer)
    manipulator = CosimManipulator.create_override()
    execution.add_manipulator(manipulator=manipulator)
    by_name = {v.name: v for v in md.modelVariables}

    def initial(variable, value):
        vr = variable.valueReference
        if variable.type == "Real":
            ok = execution.real_initial_value(index, vr, float(value))
        elif variable.type == "Boolean":
            ok = execution.boolean_initial_value(index, vr, bool(value))
        else:
            ok = execution.integer_initial_value(index, vr, int(value))
        if not ok:
            raise RuntimeError(f"libcosim refused the initial value {variable.name} = {value}: "
                               f"{get_last_error_message()}")

    def override(variable, value):
        vr = [variable.valueReference]
        if variable.type == "Real":
            ok = manipulator.slave_real_values(index, vr, [float(value)])
        elif variable.type == "Boolean":
            ok = manipulator.slave_boolean_values(index, vr, [bool(value)])
        else:
            ok = manipulator.slave_integer_values(index, vr, [int(value)])
        if not ok:
            raise RuntimeError(f"libcosim refused to set {variable.name} = {value}: {get_last_error_message()}")

    for name, value in start_values.items():
        if by_name[name].type != "Enumeration":  # at its start value: see enumerations()
            initial(by_name[name], value)
    driven = driven_inputs(md, signals)
    # FMPy sets the inputs in initialization mode as the value before a jump
    # at the start time (after_event=False), then before each step the value
    # after it.
    for variable, value in input_values(driven, signals, times[0], after_event=False):
        initial(variable, value)
    readers = {
        "Real": observer.last_real_values,
        "Integer": observer.last_integer_values,
        "Boolean": observer.last_boolean_values,
    }
    rows = []
    for k in range(len(times) - 1):
        for variable, value in input_values(driven, signals, times[k], after_event=True):
            override(variable, value)
        if not execution.step():
            raise RuntimeError(f"libcosim's step from t = {times[k]} s failed: {get_last_error_message()}")
        row = {}
        for kind, reader in readers.items():
            mine = [v for v in outputs if v.type == kind]
            if mine:
                row.update(zip((v.name for v in mine), reader(index, [v.valueReference for v in mine])))
        rows.append([float(row[v.name]) for v in outputs])
    return {v.name: np.array([r[i] for r in rows]) for i, v in enumerate(outputs)}


def run_fmu2slave(path, md, experiment, signals, times, outputs, everything):
    """FMPy's FMU2Slave making simulate_fmu's calls, reading after each step
    the outputs alone (as simulate_fmu) or, with `everything`, every variable
    libcosim knows in one call per type (as libcosim); the outputs after each
    step, one array per output."""
    start, stop, step, start_values = experiment
    fmu = FMU2Slave(guid=md.guid, unzipDirectory=extract(path), modelIdentifier=md.coSimulation.modelIdentifier,
                    instanceName="one_call")
    by_name = {v.name: v for v in md.modelVariables}

    def set_value(variable, value):
        vr = [variable.valueReference]
        if variable.type == "Real":
            fmu.setReal(vr, [float(value)])
        elif variable.type == "Boolean":
            fmu.setBoolean(vr, [bool(value)])
        else:
            fmu.setInteger(vr, [int(value)])

    fmu.instantiate()
    fmu.setupExperiment(startTime=start, stopTime=stop)
    for name, value in start_values.items():
        set_value(by_name[name], value)
    fmu.enterInitializationMode()
    driven = driven_inputs(md, signals)
    for variable, value in input_values(driven, signals, times[0], after_event=False):
        set_value(variable, value)
    fmu.exitInitializationMode()
    read = md.modelVariables if everything else outputs
    read = {kind: [v for v in read if v.type == kind] for kind in ("Real", "Integer", "Boolean")}
    getters = {"Real": fmu.getReal, "Integer": fmu.getInteger, "Boolean": fmu.getBoolean}
    rows = []
    for k in range(len(times) - 1):
        for variable, value in input_values(driven, signals, times[k], after_event=True):
            set_value(variable, value)
        fmu.doStep(currentCommunicationPoint=times[k], communicationStepSize=times[k + 1] - times[k])
        row = {}
        for kind, variables in read.items():
            if variables:
                row.update(zip((v.name for v in variables), getters[kind]([v.valueReference for v in variables])))
        rows.append([float(row[v.name]) for v in outputs])
    fmu.terminate()
    fmu.freeInstance()
    return {v.name: np.array([r[i] for r in rows]) for i, v in enumerate(outputs)}


def compare(reference, ours, outputs, times):
    """Per output: (error, limit, first time over the limit, (ours, reference)
    there); `reference` has the row at the start time, `ours` does not."""
    report = {}
    for v in outputs:
        b = np.asarray(reference[v.name], dtype=float)
        limit = RELATIVE * max(1.0, float(np.max(np.abs(b))))
        a, b = ours[v.name], b[1:]
        d = np.where(np.isnan(a) & np.isnan(b), 0.0, np.abs(a - b))
        d = np.where(np.isnan(d), np.inf, d)
        error = float(np.max(d)) if d.size else 0.0
        over = np.flatnonzero(d > limit)
        first = (float(times[over[0] + 1]), (float(a[over[0]]), float(b[over[0]]))) if over.size else (None, None)
        report[v.name] = (error, limit) + first
    return report


def over_limit(report):
    return [n for n in report if report[n][2] is not None]


def one_run(path, md, label, experiment, signals):
    """Run and compare; returns (status, line), status 'agree' or 'differ'."""
    start, stop, step, _ = experiment
    notes = enumerations(md, experiment, signals)
    outputs = [v for v in md.modelVariables if v.causality == "output" and v.type != "Enumeration"]
    theirs = run_fmpy(path, experiment, signals)
    if not regular_grid(theirs["time"], start, step):
        # FMPy landed a step on an input event off the grid, or shortened the
        # last step to the stop time: libcosim's fixed step cannot.
        if not math.isclose(start + round((stop - start) / step) * step, stop, rel_tol=1e-9):
            raise NotComparable(f"stop time {stop} s is not on the {step} s grid: FMPy shortens its last step, "
                                f"libcosim's fixed step cannot")
        signals, moved = snap_jumps(signals, md, start, step)
        theirs = run_fmpy(path, experiment, signals)
        if not regular_grid(theirs["time"], start, step):
            raise NotComparable("FMPy's communication points leave the grid even with the input jumps on it")
        notes.append("jumps snapped to the grid, as FMPy steps to an input jump off it and libcosim's fixed step "
                     "cannot: " + ", ".join(f"{a!r} -> {b!r} s" for a, b in moved))
    times = np.asarray(theirs["time"], dtype=float)
    ours = run_libcosim(path, md, experiment, signals, times, outputs)
    report = compare(theirs, ours, outputs, times)
    worst = max(report, key=lambda n: report[n][0] / report[n][1])
    error, limit = report[worst][:2]
    differ = over_limit(report)
    shown = "".join(f" ({n})" for n in notes)
    line = (f"{md.modelName} [{label}]{shown}: {len(times)} points, worst {worst} |diff| {error:.3g} "
            f"(limit {limit:.3g}): {'DIFFER' if differ else 'agree'}")
    if not differ:
        return "agree", line
    details = []
    for n in differ:
        e, _, t, (a, b) = report[n]
        details.append(f"{n} {e:.3g} (first at t = {t!r}: libcosim {a!r}, FMPy {b!r})")
    agree = [n for n in report if report[n][2] is None]
    line += f"\n    differ: {'; '.join(details)}\n    agree: {', '.join(agree) or 'none'}"
    # Whose difference: FMPy's own calls, reading the outputs alone and
    # reading everything in one call as libcosim does.
    alone = run_fmu2slave(path, md, experiment, signals, times, outputs, everything=False)
    one_call = run_fmu2slave(path, md, experiment, signals, times, outputs, everything=True)
    as_libcosim = {n: np.concatenate([[0.0], ours[n]]) for n in ours}
    off_alone = over_limit(compare(theirs, alone, outputs, times))
    off_one_call = over_limit(compare(as_libcosim, one_call, outputs, times))
    if not off_alone and not off_one_call:
        line += ("\n    FMPy's FMU2Slave with the same calls gives simulate_fmu's values reading the outputs alone "
                 "and libcosim's reading every variable in one call per type, as libcosim does: the FMU answers "
                 "these outputs differently when they are read with all variables")
    else:
        line += (f"\n    FMPy's FMU2Slave with the same calls does NOT explain the difference by the read: reading "
                 f"the outputs alone, {', '.join(off_alone) or 'none'} differ from simulate_fmu's; reading every "
                 f"variable in one call, {', '.join(off_one_call) or 'none'} differ from libcosim's")
    return "differ", line


def runs(fmu_dir):
    """(FMU path, model description, label, experiment, input table) of every
    run: each FMU's default experiment, then every scenario replay. An
    experiment is (start, stop, step, start values)."""
    paths = sorted(os.path.join(fmu_dir, f) for f in os.listdir(fmu_dir) if f.endswith(".fmu"))
    for path in paths:
        md = fmpy.read_model_description(path)
        e = md.defaultExperiment
        experiment = (float(e.startTime), float(e.stopTime), float(e.stepSize), {})
        in_csv = path[: -len(".fmu")] + "_in.csv"
        if os.path.exists(in_csv):
            yield path, md, "default, _in.csv", experiment, read_csv(in_csv)
        else:
            yield path, md, "default", experiment, None
    root = os.path.join(fmu_dir, "scenarios")
    for name in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        d = os.path.join(root, name)
        model = next(f for f in os.listdir(d) if f.endswith("_ref.opt"))[: -len("_ref.opt")]
        path = os.path.join(fmu_dir, model + ".fmu")
        md = fmpy.read_model_description(path)
        options = read_ref_opt_file(os.path.join(d, model + "_ref.opt"))
        start_values = read_start_values(os.path.join(d, "start_values.csv"), md)
        experiment = (float(options["StartTime"]), float(options["StopTime"]), float(options["StepSize"]),
                      start_values)
        in_csv = os.path.join(d, model + "_in.csv")
        yield path, md, f"scenario {name}", experiment, read_csv(in_csv) if os.path.exists(in_csv) else None


def main(argv):
    fmu_dir = argv[1] if len(argv) > 1 else os.environ.get("FMU_DIR", "target/fmu")
    log_output_level(CosimLogLevel.ERROR)
    counts = {"agree": 0, "differ": 0, "not comparable": 0, "failed": 0}
    failures = []
    for path, md, label, experiment, signals in runs(fmu_dir):
        name = f"{md.modelName} [{label}]"
        try:
            if md.fmiVersion != "2.0" or md.coSimulation is None:
                raise RuntimeError("not an FMI 2.0 Co-Simulation FMU")
            status, line = one_run(path, md, label, experiment, signals)
        except NotComparable as why:
            status, line = "not comparable", f"{name}: NOT COMPARABLE: {why}"
        except Exception as e:  # an importer failed: the run fails, saying what failed
            status, line = "failed", f"{name}: FAILED TO RUN: {type(e).__name__}: {e}"
        counts[status] += 1
        if status in ("differ", "failed"):
            failures.append(line.splitlines()[0])
        print(line, flush=True)
    print(f"libcosim runs: {counts['agree'] + counts['differ']} compared, {counts['agree']} agree, "
          f"{counts['differ']} differ, {counts['not comparable']} not comparable, {counts['failed']} failed to run")
    if failures:
        print("failures:\n  " + "\n  ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
