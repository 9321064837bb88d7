"""FMPy side of the integration tests, called by the Rust tests.

  validate FMU                      print FMPy's validation problems; exit 1 if any
  simulate FMU STOP STEP [name=val]  simulate as Co-Simulation from t = 0 with
                                     FMPy's own master loop; print CSV with
                                     round-trip floats (repr) on stdout
  replay FMU IN_CSV REF_OPT [name=val]
                                     replay FMI cross-check files: the input
                                     signals of IN_CSV ("-" for none), start,
                                     stop time and step of REF_OPT; CSV as
                                     for simulate
  me FMU STOP STEP RTOL [INPUT_CSV]  simulate as Model Exchange (CVode, relative
                                     tolerance RTOL) with its start values and
                                     the inputs of INPUT_CSV if given, output
                                     every STEP; CSV as for simulate
  derivatives FMU                   HillFrictionInertia through FMPy's low-level
                                     FMU2Slave: one 1 s step of tau = 0.2 + t
                                     (fmi2SetRealInputDerivatives), then
                                     key=value lines: w, phi, dphi, dw
                                     (fmi2GetRealOutputDerivatives) and
                                     order2_refused
  capacity_ramp FMU H               ClutchStickSlip through FMU2Slave: one 3 s
                                     step (internal step H) of tau1 = 4 and
                                     tau_capacity = 5 - 2*t (its input
                                     derivative); key=value lines: w1, w2,
                                     phi1, phi2, dw1, dw2
"""
import sys

import fmpy
import numpy as np
from fmpy.util import read_csv, read_ref_opt_file
from fmpy.validation import validate_fmu


def validate(path):
    problems = validate_fmu(path)
    for p in problems:
        print(p)
    return 1 if problems else 0


def start_values_of(assignments):
    start_values = {}
    for a in assignments:
        name, value = a.split("=", 1)
        start_values[name] = float(value)
    return start_values


def print_csv(result):
    names = result.dtype.names
    print(",".join(names))
    for row in result:
        print(",".join(repr(float(row[n])) for n in names))


def simulate(path, stop, step, assignments):
    result = fmpy.simulate_fmu(
        path,
        fmi_type="CoSimulation",
        start_time=0.0,
        stop_time=float(stop),
        output_interval=float(step),
        start_values=start_values_of(assignments),
        validate=True,
    )
    print_csv(result)
    return 0


def replay(path, in_csv, ref_opt, assignments):
    options = read_ref_opt_file(ref_opt)
    signals = None if in_csv == "-" else read_csv(in_csv)
    result = fmpy.simulate_fmu(
        path,
        fmi_type="CoSimulation",
        start_time=options["StartTime"],
        stop_time=options["StopTime"],
        output_interval=options["StepSize"],
        relative_tolerance=options["RelTol"],
        start_values=start_values_of(assignments),
        input=signals,
        validate=True,
    )
    print_csv(result)
    return 0


def slave(path, name):
    """An instantiated FMU2Slave and the value references by name."""
    from fmpy import extract, read_model_description
    from fmpy.fmi2 import FMU2Slave

    md = read_model_description(path)
    vr = {v.name: v.valueReference for v in md.modelVariables}
    fmu = FMU2Slave(
        guid=md.guid,
        unzipDirectory=extract(path),
        modelIdentifier=md.coSimulation.modelIdentifier,
        instanceName=name,
    )
    fmu.instantiate()
    return fmu, vr


def derivatives(path):
    fmu, vr = slave(path, "derivatives")
    fmu.setupExperiment(startTime=0.0)
    names = ["J", "tau_static", "tau_coulomb", "w_start", "internal_step"]
    fmu.setReal([vr[n] for n in names], [2.0, 0.6, 0.5, 0.0, 0.25])
    fmu.enterInitializationMode()
    fmu.exitInitializationMode()
    fmu.setReal([vr["tau"]], [0.2])
    fmu.setRealInputDerivatives([vr["tau"]], [1], [1.0])
    fmu.doStep(0.0, 1.0)
    w, phi = fmu.getReal([vr["w"], vr["phi"]])
    dphi, dw = fmu.getRealOutputDerivatives([vr["phi"], vr["w"]], [1, 1])
    try:
        fmu.setRealInputDerivatives([vr["tau"]], [2], [1.0])
        refused = 0
    except Exception:
        refused = 1
    fmu.terminate()
    fmu.freeInstance()
    for key, value in [("w", w), ("phi", phi), ("dphi", dphi), ("dw", dw), ("order2_refused", refused)]:
        print(f"{key}={float(value)!r}")
    return 0


def capacity_ramp(path, internal_step):
    fmu, vr = slave(path, "capacity_ramp")
    fmu.setupExperiment(startTime=0.0)
    names = ["w1_start", "w2_start", "internal_step"]
    fmu.setReal([vr[n] for n in names], [0.0, 0.0, float(internal_step)])
    fmu.enterInitializationMode()
    fmu.exitInitializationMode()
    fmu.setReal([vr["tau1"], vr["tau_capacity"]], [4.0, 5.0])
    fmu.setRealInputDerivatives([vr["tau_capacity"]], [1], [-2.0])
    fmu.doStep(0.0, 3.0)
    values = fmu.getReal([vr[n] for n in ["w1", "w2", "phi1", "phi2"]])
    dw1, dw2 = fmu.getRealOutputDerivatives([vr["w1"], vr["w2"]], [1, 1])
    fmu.terminate()
    fmu.freeInstance()
    for key, value in zip(["w1", "w2", "phi1", "phi2", "dw1", "dw2"], list(values) + [dw1, dw2]):
        print(f"{key}={float(value)!r}")
    return 0


def model_exchange(path, stop, step, rtol, inputs=None):
    signals = np.genfromtxt(inputs, delimiter=",", names=True) if inputs else None
    result = fmpy.simulate_fmu(
        path,
        fmi_type="ModelExchange",
        input=signals,
        start_time=0.0,
        stop_time=float(stop),
        output_interval=float(step),
        relative_tolerance=float(rtol),
        validate=True,
    )
    print_csv(result)
    return 0


def main(argv):
    command = argv[1]
    if command == "validate":
        return validate(argv[2])
    if command == "simulate":
        return simulate(argv[2], argv[3], argv[4], argv[5:])
    if command == "me":
        return model_exchange(argv[2], argv[3], argv[4], argv[5], argv[6] if len(argv) > 6 else None)
    if command == "derivatives":
        return derivatives(argv[2])
    if command == "capacity_ramp":
        return capacity_ramp(argv[2], argv[3])
    if command == "replay":
        return replay(argv[2], argv[3], argv[4], argv[5:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
