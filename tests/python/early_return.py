"""FMI 3.0 Co-Simulation with early return and event mode, through FMPy's
simulate_fmu, for each FMU given: the default experiment (inputs from
<Model>_in.csv) at the communication step given, with and without early
return. Prints one line per FMU:

    result ID STEP CHANGES RETURNS UNEXPLAINED

CHANGES: the discrete-output changes of the run without early return;
RETURNS: the instants (s) of the rows off the communication grid (the early
returns), comma-separated, "-" for none; UNEXPLAINED: those of them whose row
shows no discrete output changed since the row before.

    python early_return.py DIR ID:STEP [ID:STEP ...]   (STEP "-": the default)
"""
import os
import sys

import numpy as np
import fmpy
from fmpy.util import read_csv

directory = sys.argv[1]
for arg in sys.argv[2:]:
    identifier, step = arg.split(":")
    path = os.path.join(directory, "fmi3", identifier + ".fmu")
    md = fmpy.read_model_description(path)
    e = md.defaultExperiment
    h = float(e.stepSize) if step == "-" else float(step)
    csv = os.path.join(directory, identifier + "_in.csv")
    inputs = read_csv(csv) if os.path.exists(csv) else None
    discrete = [v.name for v in md.modelVariables
                if v.causality == "output" and v.type in ("Boolean", "Int32", "Int64", "Enumeration")]
    kw = dict(start_time=float(e.startTime), stop_time=float(e.stopTime), output_interval=h, input=inputs,
              output=discrete or None)
    plain = fmpy.simulate_fmu(path, **kw)
    early = fmpy.simulate_fmu(path, early_return_allowed=True, use_event_mode=True, **kw)
    changes = sum(int(np.sum(plain[c][1:] != plain[c][:-1])) for c in discrete)
    t = early["time"]
    # Off the grid, and short of the stop time (a last step shorter than h).
    off = (np.abs(t / h - np.round(t / h)) > 1e-6) & (t < float(e.stopTime) - 1e-9)
    returns, unexplained = [], []
    for k in np.flatnonzero(off):
        if k > 0 and t[k - 1] == t[k]:
            continue  # the event mode's second row at the same instant
        returns.append(float(t[k]))
        if not any(early[c][k] != early[c][k - 1] for c in discrete):
            unexplained.append(float(t[k]))
    listed = lambda xs: ",".join(repr(x) for x in xs) or "-"
    print(f"result {identifier} {h!r} {changes} {listed(returns)} {listed(unexplained)}", flush=True)
