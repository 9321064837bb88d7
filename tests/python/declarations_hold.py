"""What every FMU declares is what it does, measured through FMPy 0.3.32 on
its default experiment (inputs from <Model>_in.csv), FMI 2.0 and FMI 3.0,
Co-Simulation and Model Exchange:

- reads: after every communication step (Co-Simulation) or output step
  (Model Exchange, CVode), one get of every variable of a type at once
  (as libcosim reads) answers each variable as its get alone does, bit for
  bit, and a run with those extra reads records the same outputs as one
  without them;
- <ModelStructure>: at about 25 instants of each run every known is
  perturbed alone (each input; in Model Exchange also each continuous
  state, through fmi2SetContinuousStates / fmi3SetContinuousStates), the
  FMU state saved before and restored after, and every output (and in
  Model Exchange every derivative) that changes at all must list that
  known in its `dependencies`: measured is a subset of declared.

    python declarations_hold.py DIR     (DIR holds the FMI 2.0 FMUs and fmi3/)

Prints one line per FMU x standard x interface and a table of the
dependencies measured; exits 1 listing every failure.
"""
import ctypes
import os
import struct
import sys

import numpy as np
import fmpy
from fmpy.util import read_csv

PROBES = 25


def bits(x):
    """A value as comparable bits (a NaN equals itself)."""
    if isinstance(x, float):
        return struct.pack("<d", x)
    return int(x)


class Access:
    """One FMU instance's typed getters and setters, by standard."""

    def __init__(self, fmu, md):
        self.fmu = fmu
        self.md = md
        self.fmi3 = md.fmiVersion.startswith("3")
        self.by_type = {}
        for v in md.modelVariables:
            if self.fmi3 and v.name == "time":
                continue
            self.by_type.setdefault(self.getter_name(v), []).append(v)

    def getter_name(self, v):
        if not self.fmi3:
            return {"Real": "getReal", "Integer": "getInteger", "Enumeration": "getInteger",
                    "Boolean": "getBoolean"}[v.type]
        return {"Float64": "getFloat64", "Int32": "getInt32", "Int64": "getInt64", "Enumeration": "getInt64",
                "Boolean": "getBoolean"}[v.type]

    def get(self, variables):
        """Values of `variables` (one type), in one call."""
        getter = getattr(self.fmu, self.getter_name(variables[0]))
        return list(getter([v.valueReference for v in variables]))

    def set_real(self, v, x):
        (self.fmu.setFloat64 if self.fmi3 else self.fmu.setReal)([v.valueReference], [x])

    def states(self):
        n = len(self.md.derivatives)
        x = (ctypes.c_double * n)()
        self.fmu.getContinuousStates(x, n)
        return list(x)

    def set_states(self, x):
        self.fmu.setContinuousStates((ctypes.c_double * len(x))(*x), len(x))

    def save(self):
        return self.fmu.getFMUState()

    def restore(self, state):
        self.fmu.setFMUState(state)
        self.fmu.freeFMUState(state)


def perturbations(x):
    scale = max(abs(x), 1.0)
    return [x * (1 + 1e-5) + 1e-5 * scale, x - 2e-2 * scale]


def run(path, md, fmi_type, inputs, hook=None):
    e = md.defaultExperiment
    kwargs = {}
    if fmi_type == "ModelExchange" and e.tolerance is not None:
        kwargs["relative_tolerance"] = float(e.tolerance)
    return fmpy.simulate_fmu(path, fmi_type=fmi_type, start_time=float(e.startTime), stop_time=float(e.stopTime),
                             output_interval=float(e.stepSize), input=inputs, step_finished=hook, **kwargs)


def check_fmu(path, md, fmi_type, inputs, failures, table):
    label = f"{md.modelName} FMI {md.fmiVersion} {fmi_type}"
    plain = run(path, md, fmi_type, inputs)
    model_exchange = fmi_type == "ModelExchange"
    names = {v.name: v for v in md.modelVariables}
    input_vars = [v for v in md.modelVariables if v.causality == "input" and v.type in ("Real", "Float64")]
    state_vars = [d.variable.derivative for d in md.derivatives] if model_exchange else []
    unknowns = [(o.variable, o.dependencies) for o in md.outputs]
    if model_exchange:
        unknowns += [(d.variable, d.dependencies) for d in md.derivatives]
    declared = {u.name: {k.name for k in (deps if deps is not None else md.modelVariables)} for u, deps in unknowns}
    measured = {u.name: set() for u, _ in unknowns}
    steps = max(1, round((float(md.defaultExperiment.stopTime) - float(md.defaultExperiment.startTime))
                         / float(md.defaultExperiment.stepSize)))
    every = max(1, steps // PROBES)
    state = {"calls": 0, "reads": 0, "probes": 0, "differ": []}

    def hook(time, recorder):
        access = Access(recorder.fmu, md)
        state["calls"] += 1
        # Every variable of a type in one get, against each alone.
        for variables in access.by_type.values():
            together = access.get(variables)
            for v, x in zip(variables, together):
                alone = access.get([v])[0]
                state["reads"] += 1
                if bits(alone) != bits(x) and len(state["differ"]) < 5:
                    state["differ"].append(f"t = {time}: {v.name} = {alone} alone, {x} in one get of all")
        if state["calls"] % every:
            return True
        state["probes"] += 1
        outputs = [u for u, _ in unknowns]

        def read():
            return [bits(access.get([u])[0]) for u in outputs]

        base = read()
        knowns = [(v, "input") for v in input_vars] + [(names[s.name], k) for k, s in enumerate(state_vars)]
        x0 = access.states() if model_exchange else []
        for v, kind in knowns:
            value = x0[kind] if kind != "input" else access.get([v])[0]
            for moved in perturbations(value):
                saved = access.save()
                try:
                    if kind == "input":
                        access.set_real(v, moved)
                    else:
                        x = list(x0)
                        x[kind] = moved
                        access.set_states(x)
                    now = read()
                except Exception:  # a value the FMU refuses (e.g. below a min): nothing measured
                    now = base
                access.restore(saved)
                for u, a, b in zip(outputs, base, now):
                    if a != b:
                        measured[u.name].add(v.name)
        return True

    probed = run(path, md, fmi_type, inputs, hook)
    same = len(probed) == len(plain) and all(np.array_equal(probed[c], plain[c], equal_nan=True)
                                             for c in plain.dtype.names)
    if state["differ"]:
        failures.append(f"{label}: a get of every variable answers otherwise than gets alone: {state['differ']}")
    if not same:
        failures.append(f"{label}: the run with reads and probes records other outputs than the run without")
    undeclared = {u: sorted(measured[u] - declared[u]) for u in measured if measured[u] - declared[u]}
    if undeclared:
        failures.append(f"{label}: dependencies measured but not declared: {undeclared}")
    if state["probes"] < 3:
        failures.append(f"{label}: only {state['probes']} probe instants")
    for u in measured:
        table.append((label, u, sorted(measured[u]), sorted(declared[u])))
    print(f"{'ok' if not (undeclared or state['differ'] or not same) else 'FAIL'} {label}: {state['reads']} reads alone "
          f"= in one get after {state['calls']} steps; {state['probes']} probe instants, "
          f"{sum(len(m) for m in measured.values())} dependencies measured, "
          f"{sum(len(d) for d in declared.values())} declared, {len(undeclared)} unknowns with undeclared ones")


def main(directory):
    failures, table, runs = [], [], 0
    names = sorted(f[:-4] for f in os.listdir(directory) if f.endswith(".fmu"))
    for name in names:
        csv = os.path.join(directory, name + "_in.csv")
        inputs = read_csv(csv) if os.path.exists(csv) else None
        for path in [os.path.join(directory, name + ".fmu"), os.path.join(directory, "fmi3", name + ".fmu")]:
            if not os.path.exists(path):
                failures.append(f"{path} is missing")
                continue
            md = fmpy.read_model_description(path)
            for fmi_type in ["CoSimulation"] + (["ModelExchange"] if md.modelExchange is not None else []):
                check_fmu(path, md, fmi_type, inputs, failures, table)
                runs += 1
    print("\nmeasured dependencies (unknown: measured / declared):")
    for label, u, m, d in table:
        print(f"  {label} {u}: {' '.join(m) or '-'} / {' '.join(d) or '-'}")
    print(f"runs checked: {runs}")
    for f in failures:
        print(f"FAIL {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
