"""Replay an experiment of this FMU with FMPy (0.3.x), from the FMU alone.

    python -m zipfile -e MODEL.fmu MODEL
    python MODEL/documentation/replay.py MODEL.fmu [EXPERIMENT] [--csv OUT.csv]

EXPERIMENT is `default` (the model description's DefaultExperiment with the
inputs of its `_in.csv`) or the name of one of the papers' scenarios on the
FMU's page; without it, `default`. The experiment's files are read from the
FMU: documentation/experiments/<EXPERIMENT>/ holds `<MODEL>_in.csv` (the
inputs, if any; linear between rows), `<MODEL>_ref.opt` (start, stop, step)
and `start_values.csv` (the parameters it sets, if any), and for `default`
(run at FMPy's own output interval: StepSize, doubled until at most 1000
intervals)
also `<MODEL>_ref.csv`, the result the FMU's makers shipped: the script
prints the largest difference from it. Prints the last row of the result;
`--csv` writes every row.
"""
import csv
import io
import os
import sys
import zipfile

import numpy as np

import fmpy
from fmpy.util import write_csv


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    out_csv = argv[argv.index("--csv") + 1] if "--csv" in argv else None
    if out_csv in args:
        args.remove(out_csv)
    if not args:
        sys.exit(__doc__)
    fmu = args[0]
    experiment = args[1] if len(args) > 1 else "default"
    model = os.path.splitext(os.path.basename(fmu))[0]
    archive = zipfile.ZipFile(fmu)
    folder = "documentation/experiments/%s/" % experiment
    present = {n[len(folder):] for n in archive.namelist() if n.startswith(folder)}
    if not present:
        names = sorted({n.split("/")[2] for n in archive.namelist() if n.startswith("documentation/experiments/")})
        sys.exit("no experiment %r in %s; it has: %s" % (experiment, fmu, ", ".join(names)))

    def text(name):
        return archive.read(folder + name).decode("utf-8")

    options = {}
    for line in text(model + "_ref.opt").splitlines():
        key, value = line.split(",", 1)
        options[key.strip()] = float(value)
    start_values = {}
    if "start_values.csv" in present:
        for row in list(csv.reader(io.StringIO(text("start_values.csv"))))[1:]:
            start_values[row[0]] = float(row[1])
    signals = None
    if model + "_in.csv" in present:
        rows = list(csv.reader(io.StringIO(text(model + "_in.csv"))))
        signals = np.array(
            [tuple(float(x) for x in r) for r in rows[1:]], dtype=[(name, np.float64) for name in rows[0]]
        )
    result = fmpy.simulate_fmu(
        fmu,
        start_time=options["StartTime"],
        stop_time=options["StopTime"],
        # The default experiment at FMPy's own output interval (StepSize,
        # doubled until at most 1000 intervals), the grid of the shipped
        # reference; a scenario at its step, the step of its paper's figure.
        output_interval=None if experiment == "default" else options["StepSize"],
        start_values=start_values,
        input=signals,
    )
    print("experiment %s: %d rows from %g s to %g s" % (experiment, len(result), result["time"][0], result["time"][-1]))
    print("last row: " + ", ".join("%s = %r" % (n, float(result[n][-1])) for n in result.dtype.names))
    if model + "_ref.csv" in present:
        rows = list(csv.reader(io.StringIO(text(model + "_ref.csv"))))
        ref = {name: np.array([float(r[i]) for r in rows[1:]]) for i, name in enumerate(rows[0])}
        # The reference keeps at most 1000 rows (every k-th point and the
        # last): compare the result at the reference's times.
        time = np.asarray(result["time"], dtype=float)
        at = np.clip(np.searchsorted(time, ref["time"] - 1e-9 * max(1.0, abs(time[-1]))), 0, len(time) - 1)
        if np.max(np.abs(time[at] - ref["time"])) > 1e-9 * max(1.0, abs(time[-1])):
            sys.exit("the result has no rows at the shipped reference's times")
        worst, scaled = 0.0, 0.0
        for name, column in ref.items():
            if name not in result.dtype.names:
                sys.exit("the result has no column %s of the shipped reference" % name)
            difference = float(np.max(np.abs(np.asarray(result[name], dtype=float)[at] - column)))
            worst = max(worst, difference)
            scaled = max(scaled, difference / max(1.0, float(np.max(np.abs(column)))))
        print("largest difference from the shipped %s_ref.csv: %r" % (model, worst))
        print("largest difference relative to its column's largest magnitude (at least 1): %r" % scaled)
    if out_csv:
        write_csv(out_csv, result)
        print("every row written to " + out_csv)


if __name__ == "__main__":
    main(sys.argv[1:])
