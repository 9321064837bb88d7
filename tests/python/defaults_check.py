"""What a user's plain FMPy run gets from the declared defaults.

  start_values FMU [FMU ...]
      For each FMU: its DefaultExperiment through fmpy.simulate_fmu four
      ways: without and with every input and parameter's declared start
      value written (FMPy writes start values only when given them), each
      without an input file and with the <Model>_in.csv beside the FMU (if
      any). Prints one line per FMU and run pair; exit 1 if a pair differs
      in any output at any point (compared bit for bit).
  declared_bounds FMU [FMU ...]
      For each FMU, through FMPy's low-level FMU2Slave: every Real input and
      parameter set to its declared min and to its declared max (each in a
      fresh instance, before initialization) is accepted by fmi2SetReal.
      (Rules across variables, e.g. tau_static >= tau_coulomb, are checked
      when leaving initialization and are not what min/max declare.)
      Prints one line per value; exit 1 if any is refused.
"""
import os
import sys

import numpy as np

import fmpy
from fmpy.util import read_csv


def declared_start_values(md):
    values = {}
    for v in md.modelVariables:
        if v.causality not in ("input", "parameter") or v.start is None:
            continue
        if v.type == "Real":
            values[v.name] = float(v.start)
        elif v.type in ("Integer", "Enumeration"):
            values[v.name] = int(v.start)
        elif v.type == "Boolean":
            values[v.name] = v.start in (True, "true", "1", 1)
    return values


def run(path, md, start_values, signals):
    e = md.defaultExperiment
    return fmpy.simulate_fmu(
        path,
        fmi_type="CoSimulation",
        start_time=float(e.startTime),
        stop_time=float(e.stopTime),
        output_interval=float(e.stepSize),
        start_values=start_values,
        input=signals,
    )


def identical(a, b):
    if a.dtype.names != b.dtype.names or len(a) != len(b):
        return False, "different shape"
    for n in a.dtype.names:
        x, y = np.asarray(a[n], dtype=float), np.asarray(b[n], dtype=float)
        if not np.array_equal(x.view(np.uint64), y.view(np.uint64)):
            k = int(np.argmax(x.view(np.uint64) != y.view(np.uint64)))
            return False, f"{n} differs first at row {k}: {x[k]!r} vs {y[k]!r}"
    return True, ""


def start_values(paths):
    failed = 0
    for path in paths:
        md = fmpy.read_model_description(path)
        sv = declared_start_values(md)
        in_csv = path[: -len(".fmu")] + "_in.csv"
        inputs = [("no input file", None)]
        if os.path.exists(in_csv):
            inputs.append(("_in.csv", read_csv(in_csv)))
        for label, signals in inputs:
            bare = run(path, md, {}, signals)
            written = run(path, md, sv, signals)
            same, why = identical(bare, written)
            print(f"{md.modelName} [{label}]: {len(bare)} rows, {len(sv)} start values written: "
                  f"{'identical' if same else 'DIFFERENT: ' + why}")
            failed += not same
    return 1 if failed else 0


def declared_bounds(paths):
    from fmpy import extract
    from fmpy.fmi2 import FMU2Slave

    failed = 0
    for path in paths:
        md = fmpy.read_model_description(path)
        unzipdir = extract(path)
        checked = 0
        for v in md.modelVariables:
            if v.type != "Real" or v.causality not in ("input", "parameter"):
                continue
            for bound in ("min", "max"):
                text = getattr(v, bound)
                if text is None:
                    continue
                value = float(text)
                fmu = FMU2Slave(guid=md.guid, unzipDirectory=unzipdir,
                                modelIdentifier=md.coSimulation.modelIdentifier, instanceName="bounds")
                fmu.instantiate()
                try:
                    fmu.setupExperiment(startTime=0.0)
                    fmu.setReal([v.valueReference], [value])
                    ok = True
                except Exception as e:  # FMPy raises on fmi2Error
                    ok = False
                    print(f"{md.modelName}.{v.name} = {text} ({bound}) REFUSED: {e}")
                fmu.freeInstance()
                failed += not ok
                checked += 1
        print(f"{md.modelName}: {checked} declared bounds set and accepted" if not failed else md.modelName)
    return 1 if failed else 0


def slave(path, name):
    from fmpy import extract
    from fmpy.fmi2 import FMU2Slave

    md = fmpy.read_model_description(path)
    fmu = FMU2Slave(guid=md.guid, unzipDirectory=extract(path),
                    modelIdentifier=md.coSimulation.modelIdentifier, instanceName=name)
    fmu.instantiate()
    return fmu, md, {v.name: v.valueReference for v in md.modelVariables}


def ramp_master(path):
    fmu, md, vr = slave(path, "ramp")
    fmu.setupExperiment(startTime=0.0)
    fmu.enterInitializationMode()
    fmu.exitInitializationMode()
    h, rows = 0.01, []
    for n in range(300):
        t = n * h
        tau, slope = (t, 1.0) if n < 200 else (0.0, 0.0)
        fmu.setReal([vr["tau"]], [tau])
        fmu.setRealInputDerivatives([vr["tau"]], [1], [slope])
        fmu.doStep(t, h)
        rows.append(((n + 1) * h, fmu.getReal([vr["w"]])[0]))
    fmu.terminate()
    fmu.freeInstance()
    first = next(t for t, w in rows if w != 0.0)
    w2 = next(w for t, w in rows if abs(t - 2.0) < 1e-9)
    rest = next(t for t, w in rows if t > 2.0 and w == 0.0)
    try:
        from fmpy.util import read_csv
        fmpy.simulate_fmu(path, stop_time=3.0, output_interval=h, set_input_derivatives=True,
                          input=read_csv(path[: -len(".fmu")] + "_in.csv"))
        outcome = "ok"
    except Exception as e:
        outcome = f"{type(e).__name__}: {e}"
    for key, value in [("first_moving", first), ("w_at_2", w2), ("rest_from", rest)]:
        print(f"{key}={value!r}")
    print(f"simulate_fmu_derivatives={outcome}")
    return 0


def mean_impulse(paths):
    for path in paths:
        results = []
        for ramp in (True, False):
            fmu, md, vr = slave(path, "impulse")
            outputs = [v for v in md.modelVariables if v.causality == "output" and v.type == "Real"]
            fmu.setupExperiment(startTime=0.0)
            fmu.setReal([vr["internal_step"]], [0.01])
            fmu.enterInitializationMode()
            fmu.exitInitializationMode()
            if ramp:
                fmu.setReal([vr["tau"]], [0.0])
                fmu.setRealInputDerivatives([vr["tau"]], [1], [20.0])
                fmu.doStep(0.0, 0.1)
            else:
                for k in range(10):
                    fmu.setReal([vr["tau"]], [20.0 * (k + 0.5) * 0.01])
                    fmu.doStep(k * 0.01, 0.01)
            first = fmu.getReal([v.valueReference for v in outputs])
            fmu.setReal([vr["tau"]], [2.0])  # the derivative is reset after a step: held now
            fmu.doStep(0.1, 0.1)
            second = fmu.getReal([v.valueReference for v in outputs])
            fmu.terminate()
            fmu.freeInstance()
            results.append((first, second))
        (a1, a2), (b1, b2) = results
        moved = max(abs(x) for x in a1)
        print(f"{md.modelName}: moved={moved!r} "
              f"ramp_vs_means={max(abs(x - y) for x, y in zip(a1, b1))!r} "
              f"next_step_held={max(abs(x - y) for x, y in zip(a2, b2))!r}")
    return 0


def element_on_rigid(path, tau, inertia, h, duration):
    fmu, md, vr = slave(path, "element")
    fmu.setupExperiment(startTime=0.0)
    fmu.enterInitializationMode()
    fmu.exitInitializationMode()
    tau, inertia, h, duration = float(tau), float(inertia), float(h), float(duration)
    w, phi, rates = 0.0, 0.0, []
    for n in range(int(round(duration / h))):
        fmu.setReal([vr["w_rel"]], [w])
        fmu.doStep(n * h, h)
        friction = fmu.getReal([vr["tau_friction"]])[0]
        w += h * (tau + friction) / inertia
        phi += h * w
        rates.append(w)
    fmu.terminate()
    fmu.freeInstance()
    changes = sum(1 for a, b in zip(rates, rates[1:]) if a * b < 0)
    print(f"sign_changes={changes}")
    print(f"mean_rate={phi / duration!r}")
    print(f"max_rate={max(abs(x) for x in rates)!r}")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "ramp_master":
        sys.exit(ramp_master(sys.argv[2]))
    if sys.argv[1] == "mean_impulse":
        sys.exit(mean_impulse(sys.argv[2:]))
    if sys.argv[1] == "element_on_rigid":
        sys.exit(element_on_rigid(*sys.argv[2:7]))
    if sys.argv[1] == "start_values":
        sys.exit(start_values(sys.argv[2:]))
    if sys.argv[1] == "declared_bounds":
        sys.exit(declared_bounds(sys.argv[2:]))
    sys.exit(f"unknown command {sys.argv[1]}")
