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
"""
import sys

import fmpy
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


def main(argv):
    command = argv[1]
    if command == "validate":
        return validate(argv[2])
    if command == "simulate":
        return simulate(argv[2], argv[3], argv[4], argv[5:])
    if command == "replay":
        return replay(argv[2], argv[3], argv[4], argv[5:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
