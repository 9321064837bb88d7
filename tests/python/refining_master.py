"""One FMU in FMI 3.0 Co-Simulation with early return, event mode and FMU
states, under a master that puts every change of a discrete output within
TOL of where the FMU has it, inputs from a table; beside it, the same FMU
under FMPy's simulate_fmu with early return and event mode.

The refining master steps to the communication grid (step STEP). It
looks at each step first on the inputs at its end: an FMU that holds its
inputs over a step changes a mode they drive at the step's start, so a
crossing inside the step shows there. Without an event it takes the step
again, from the state it saved, on the inputs at its middle (a first-order
hold's mean: second order in the step for the motion). When a step ends
with an event more than TOL after its start, at t_e (an early return
inside it, or a change the step's inputs caused, which the FMU reports at
the step's end), the master restores the saved state and takes the first
half of [t, t_e] instead, on the inputs at its end. A half without an event
is kept, and the master goes on from its end; one with an event is halved
again. So each event is approached by halving until it lies within TOL of
a step's start, where the FMU's event mode settles it: an input's crossing
is found to TOL, and a change located inside a step (a lock) is found
again on inputs sampled within TOL of it. Two to three doStep calls per
communication step, and about two per halving near an event.

    python refining_master.py FMU INPUTS_CSV STOP STEP TOL OUTPUT[,OUTPUT...]

Prints, for each master ("refining", "fmpy") and watched output, a line

    changes MASTER OUTPUT T1,T2,...

(the instants its value changes, at the first row that shows the new
value; "-" for none), and "calls refining N" (its doStep calls).
"""
import shutil
import sys

import numpy as np
import fmpy
from fmpy import extract, read_model_description
from fmpy.fmi3 import FMU3Slave
from fmpy.util import read_csv

path, csv, stop, h, tol, watched = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), \
    float(sys.argv[5]), sys.argv[6].split(",")
md = read_model_description(path)
variables = {v.name: v for v in md.modelVariables}
table = read_csv(csv)
names = [n for n in table.dtype.names if n != "time"]
times = table["time"]


def inputs_at(t):
    """The table at t, linear between rows; at a jump (a repeated time),
    the value after it."""
    k = min(max(int(np.searchsorted(times, t, side="right")) - 1, 0), len(times) - 2)
    u = (t - times[k]) / (times[k + 1] - times[k]) if times[k + 1] > times[k] else 1.0
    u = min(max(u, 0.0), 1.0)
    return {n: float(table[n][k] + u * (table[n][k + 1] - table[n][k])) for n in names}


def changes(rows):
    """For each watched output, the instants of the rows whose value differs
    from the row before."""
    return {o: [rows[i][0] for i in range(1, len(rows)) if rows[i][1][o] != rows[i - 1][1][o]] for o in watched}


unzipped = extract(path)
fmu = FMU3Slave(guid=md.guid, unzipDirectory=unzipped, modelIdentifier=md.coSimulation.modelIdentifier,
                instanceName="refined")
fmu.instantiate(eventModeUsed=True, earlyReturnAllowed=True)


def set_inputs(t):
    for n, x in inputs_at(t).items():
        fmu.setFloat64([variables[n].valueReference], [x])


def read():
    out = {}
    for o in watched:
        v = variables[o]
        if v.type == "Boolean":
            out[o] = int(fmu.getBoolean([v.valueReference])[0])
        elif v.type == "Float64":
            out[o] = fmu.getFloat64([v.valueReference])[0]
        else:
            out[o] = fmu.getInt32([v.valueReference])[0]
    return out


def settle():
    while fmu.updateDiscreteStates()[0]:
        pass
    fmu.enterStepMode()


calls = 0


def step(t, end, at):
    """A step from t to end on the inputs at `at`: (event, where it stopped)."""
    global calls
    calls += 1
    set_inputs(at)
    event, _, early, last = fmu.doStep(t, end - t)
    return event, (last if early else end)


fmu.enterInitializationMode(startTime=0.0, stopTime=stop)
set_inputs(0.0)
fmu.exitInitializationMode()
settle()
rows = [(0.0, read())]
t, k = 0.0, 1
while t < stop - 1e-12:
    target = min(k * h, stop)
    saved = fmu.getFMUState()
    event, at = step(t, target, target)
    if not event:
        fmu.setFMUState(saved)
        event, at = step(t, target, 0.5 * (t + target))
    while event and at - t > tol:
        fmu.setFMUState(saved)
        end = t + 0.5 * (at - t)
        event, at = step(t, end, end)
    fmu.freeFMUState(saved)
    t = at
    if event:
        fmu.enterEventMode()
        settle()
    rows.append((t, read()))
    if t >= target:
        k += 1
fmu.terminate()
fmu.freeInstance()
shutil.rmtree(unzipped, ignore_errors=True)
for o, instants in changes(rows).items():
    print(f"changes refining {o} {','.join(repr(x) for x in instants) or '-'}")
print(f"calls refining {calls}")

# FMPy's own loop: the inputs at each step's start.
r = fmpy.simulate_fmu(path, stop_time=stop, output_interval=h, input=table, early_return_allowed=True,
                      use_event_mode=True, output=watched)
rows = [(r["time"][i], {o: r[o][i] for o in watched}) for i in range(len(r))]
for o, instants in changes(rows).items():
    print(f"changes fmpy {o} {','.join(repr(float(x)) for x in instants) or '-'}")
