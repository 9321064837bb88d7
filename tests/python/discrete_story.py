"""One FMU, one physics: each FMU's default experiment (with its <Model>_in.csv)
in FMPy 0.3.32, Co-Simulation and Model Exchange (CVode), compared on its
discrete outputs (Integer, Boolean, Enumeration): their values at t = 0 and
the sequence of their changes at the communication points.

    python discrete_story.py FMU [FMU ...]

Prints one line per FMU, "ok" or "DIFFERS" with the first changes of each;
the caller decides (tests/tests/model_exchange.rs holds the list of those
still known to differ)."""
import os
import sys

import numpy as np
import fmpy
from fmpy.util import read_csv


def story(path, md, fmi_type):
    e = md.defaultExperiment
    inputs = path[:-4] + "_in.csv"
    signals = read_csv(inputs) if os.path.exists(inputs) else None
    discrete = [v.name for v in md.modelVariables if v.causality == "output" and v.type != "Real"]
    r = fmpy.simulate_fmu(path, fmi_type=fmi_type, start_time=float(e.startTime), stop_time=float(e.stopTime),
                          output_interval=float(e.stepSize), input=signals, output=discrete)
    rows = [tuple(int(r[n][k]) for n in discrete) for k in range(len(r))]
    changes = [rows[0]] + [b for a, b in zip(rows, rows[1:]) if a != b]
    return discrete, rows[0], changes


bad = 0
for path in sys.argv[1:]:
    md = fmpy.read_model_description(path)
    name = md.modelName
    if md.modelExchange is None:
        print(f"ok {name}: Co-Simulation only, one story")
        continue
    cs = story(path, md, "CoSimulation")
    me = story(path, md, "ModelExchange")
    same = cs[1] == me[1] and cs[2] == me[2]
    bad += not same
    print(f"{'ok' if same else 'DIFFERS'} {name}: {cs[0]} at t=0 CS {cs[1]} ME {me[1]}; changes CS {len(cs[2]) - 1} ME {len(me[2]) - 1}"
          + ("" if same else f"; CS {cs[2][:8]} ME {me[2][:8]}"))
