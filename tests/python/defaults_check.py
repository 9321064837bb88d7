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


if __name__ == "__main__":
    if sys.argv[1] == "start_values":
        sys.exit(start_values(sys.argv[2:]))
    if sys.argv[1] == "declared_bounds":
        sys.exit(declared_bounds(sys.argv[2:]))
    sys.exit(f"unknown command {sys.argv[1]}")
