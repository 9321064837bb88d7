"""A Co-Simulation master that uses FMI 3.0's early return across FMUs.

Runs two of the shipped SSP systems with the FMI 3.0 twins of their FMUs
(target/fmu/fmi3/), each by two masters over FMPy's low-level FMU3Slave:

- grid: a plain Jacobi master, every FMU stepped to the next grid point
  with the others' outputs at the step's start (FMI 3.0 without early
  return: an event is seen at the end of the step that holds it);
- early: the same exchange, with early return and event mode. Before the
  step it saves every FMU's state (fmi3GetFMUState); when one FMU returns
  early at t_e (its stick, breakaway, lock or slip located inside the step),
  it brings the others to t_e (fmi3SetFMUState, then a step from t to t_e
  on the same inputs), exchanges the outputs at t_e, enters event mode in
  all (fmi3EnterEventMode, fmi3UpdateDiscreteStates until no FMU asks for
  more, fmi3EnterStepMode) and goes on from t_e to the grid point it was
  heading for.

  Two events in one step: the earliest wins; the others lie after t_e and
  are found again by the steps from t_e. An event during a step to t_e (an
  FMU brought to t_e returns early before it): that instant becomes t_e,
  and every FMU is brought there again from its saved state, until all
  stand at the same instant.
- iterating: early return and event mode as `early`, and each step taken
  again from the saved states until the FMUs agree on the motion they
  exchange. The first pass holds the inputs (as `early`); each further
  pass gives every shaft end, instead of its angle and rate at the step's
  start, the straight line with the mean rate and the mean angle over the
  step of the motion the last pass produced: the chord's rate
  (phi(t+H) - phi(t))/H and the start angle less (w(t+H) - w(t))*H/12
  (the trapezoid rule's end correction: exact for a motion of degree 3).
  A shaft's spring integrates that line to the impulse of the motion.
  On a sliver of a step (a millionth of it, a step cut to an event just
  after its start) the chord is round-off; there the mean of the two
  rates stands for it. Until every exchanged output moves by at most 1e-12 (relative)
  between passes. An early return inside a pass cuts the step to t_e and
  starts its passes again from held inputs.

Systems (the .ssp's connections and parameter set):

- MotorShaftLoadHillFriction: MotorDrive holds the shaft of
  HillFrictionShaftLoad (implicit coupling); the load sticks, breaks away
  and stops. Exact solution of the whole system: tests/python/
  shaft_reference.py (matrix exponential per mode, events by root finding).
- MotorClutchLoad: MotorDrive -> ShaftClutch -> MotorDrive as the load; the
  clutch slips and locks. Reference: tests/python/clutch_between_shafts.py
  (solve_ivp on the whole system, rtol 1e-11, the clutch's events located).

Writes <out>/instants.csv (system, event, exact instant, step, master, seen
instant, error), <out>/costs.csv (doStep calls, of them steps repeated to an
event or in a further pass, FMU states saved), <out>/stop.csv (the load rate near its first stop
at --figure-step under both masters, and exactly) and <out>/early_return_master.png.

    python examples/early_return_master/early_return_master.py --out out/early_return_master
"""
import argparse
import csv
import math
import os
import shutil
import sys
import tempfile
import zipfile

import numpy as np
from fmpy import extract, read_model_description
from fmpy.fmi3 import FMU3Slave
from fmpy.ssp.ssd import read_ssd, read_ssv

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
import clutch_between_shafts  # noqa: E402
from shaft_reference import SYSTEMS, simulate as shaft_exact  # noqa: E402

# Each system's watched output: the component and the discrete output whose
# changes are the events, and the words for its values.
WATCHED = {
    "MotorShaftLoadHillFriction": ("Load", "mode", {0: "stick", 1: "breakaway", -1: "breakaway backward"}),
    "MotorClutchLoad": ("Clutch", "locked", {0: "slip", 1: "lock"}),
}


class Component:
    """One FMI 3.0 Co-Simulation instance of a system's component."""

    def __init__(self, name, path, parameters, early, stop):
        self.name = name
        self.md = read_model_description(path)
        self.dir = extract(path)
        self.variables = {v.name: v for v in self.md.modelVariables}
        self.slave = FMU3Slave(guid=self.md.guid, unzipDirectory=self.dir,
                               modelIdentifier=self.md.coSimulation.modelIdentifier, instanceName=name)
        self.early = early
        self.slave.instantiate(eventModeUsed=early, earlyReturnAllowed=early)
        self.set(parameters)
        self.slave.enterInitializationMode(startTime=0.0, stopTime=stop)
        self.slave.exitInitializationMode()
        if early:  # with event mode, initialization ends in event mode
            self.settle()
        self.time = 0.0

    def set(self, values):
        for name, value in values.items():
            v = self.variables[name]
            if v.type == "Float64":
                self.slave.setFloat64([v.valueReference], [float(value)])
            elif v.type == "Boolean":
                self.slave.setBoolean([v.valueReference], [bool(value)])
            else:
                self.slave.setInt32([v.valueReference], [int(value)])

    def get(self, name):
        v = self.variables[name]
        if v.type == "Float64":
            return self.slave.getFloat64([v.valueReference])[0]
        if v.type == "Boolean":
            return int(self.slave.getBoolean([v.valueReference])[0])
        return self.slave.getInt32([v.valueReference])[0]

    def settle(self):
        while self.slave.updateDiscreteStates()[0]:
            pass
        self.slave.enterStepMode()

    def free(self):
        self.slave.terminate()
        self.slave.freeInstance()
        shutil.rmtree(self.dir, ignore_errors=True)


class System:
    """An SSP system's components (FMI 3.0 twins) and connections."""

    def __init__(self, ssp, fmu3_dir, early, stop):
        ssd = read_ssd(ssp)
        self.name = ssd.system.name
        values = {}
        for binding in ssd.system.parameterBindings:
            for p in read_ssv(ssp, binding.source).parameters:
                component, variable = p.name.split(".", 1)
                values.setdefault(component, {})[variable] = float(p.value)
        self.components = {}
        for e in ssd.system.elements:
            model = os.path.splitext(os.path.basename(e.source))[0]
            self.components[e.name] = Component(e.name, os.path.join(fmu3_dir, model + ".fmu"),
                                                values.get(e.name, {}), early, stop)
        self.connections = [(c.startElement, c.startConnector, c.endElement, c.endConnector)
                            for c in ssd.system.connections]
        self.steps = self.repeated = self.saved = 0

    def outputs(self):
        """Every connected output now, by (component, output)."""
        return {(a, o): self.components[a].get(o) for a, o, _, _ in self.connections}

    def exchange(self):
        """Every input from the connected output now (Jacobi)."""
        outputs = self.outputs()
        for a, o, b, i in self.connections:
            self.components[b].set({i: outputs[(a, o)]})

    def motion_pairs(self):
        """The connections that carry a shaft end's motion: each angle
        (phi...) with the rate (w...) of the same end between the same
        components."""
        pairs = []
        for a, o, b, i in self.connections:
            rate = (a, "w" + o[3:], b, "w" + i[3:])
            if o.startswith("phi") and i.startswith("phi") and rate in self.connections:
                pairs.append(((a, o, b, i), rate))
        return pairs

    def step(self, component, t, h):
        self.steps += 1
        event, _, early, last = component.slave.doStep(t, h)
        return event, (last if early else t + h)

    def reached(self, reached, t, t_e, target, record, k, returns):
        """Every FMU stands at t_e (`reached`: each one's (event, time)):
        recorded, then event mode in all if one has an event there (until
        no FMU asks for another pass; ours settle in one) and recorded
        again. The grid step's count and the early returns inside it, on."""
        record(t_e)
        if any(event for event, _ in reached.values()):
            self.exchange()
            components = list(self.components.values())
            for c in components:
                c.slave.enterEventMode()
            again = True
            while again:
                again = any([c.slave.updateDiscreteStates()[0] for c in components])
            for c in components:
                c.slave.enterStepMode()
            record(t_e)
        if t_e == target:
            return k + 1, 0
        if returns + 1 > 100:  # an FMU that keeps returning without getting on
            raise RuntimeError(f"{self.name}: more than 100 early returns in the step from {t} s")
        return k, returns + 1

    def free(self):
        for c in self.components.values():
            c.free()


def grid_master(system, h, stop, record):
    n = int(round(stop / h))
    record(0.0)
    for k in range(n):
        t, end = k * h, (k + 1) * h if k + 1 < n else stop
        system.exchange()
        for c in system.components.values():
            system.step(c, t, end - t)
        record(end)


def early_return_master(system, h, stop, record):
    components = list(system.components.values())
    n = int(round(stop / h))
    record(0.0)
    t, k, returns = 0.0, 0, 0
    while k < n:
        target = (k + 1) * h if k + 1 < n else stop
        system.exchange()
        saved = {c.name: c.slave.getFMUState() for c in components}
        system.saved += len(components)
        reached = {c.name: system.step(c, t, target - t) for c in components}
        t_e = min(at for _, at in reached.values())
        # Bring every FMU to t_e, again from its saved state if one returns
        # before t_e on the way (an event inside the shorter step).
        while any(at != t_e for _, at in reached.values()):
            for c in components:
                if reached[c.name][1] != t_e:
                    c.slave.setFMUState(saved[c.name])
                    system.repeated += 1
                    reached[c.name] = system.step(c, t, t_e - t)
            t_e = min(at for _, at in reached.values())
        for state, c in zip(saved.values(), components):
            c.slave.freeFMUState(state)
        k, returns = system.reached(reached, t, t_e, target, record, k, returns)
        t = t_e


def iterating_master(system, h, stop, record, tolerance=1e-12, max_passes=50):
    components = list(system.components.values())
    pairs = system.motion_pairs()
    n = int(round(stop / h))
    record(0.0)
    t, k, returns = 0.0, 0, 0
    while k < n:
        target = (k + 1) * h if k + 1 < n else stop
        start = system.outputs()
        saved = {c.name: c.slave.getFMUState() for c in components}
        system.saved += len(components)
        t_end, last, passes = target, None, 0
        while True:
            if passes > 0:
                for c in components:
                    c.slave.setFMUState(saved[c.name])
                system.repeated += len(components)
            passes += 1
            if passes > max_passes:  # cuts to events included
                raise RuntimeError(f"{system.name}: the step from {t} s does not settle in {max_passes} passes")
            span = t_end - t
            inputs = {(b, i): start[(a, o)] for a, o, b, i in system.connections}
            if last is not None:
                # The line with the last pass's mean rate (its chord) and
                # mean angle; on a sliver of the step the chord is round-off,
                # and the mean of the rates stands for it.
                for (a, angle, b, angle_in), (_, rate, _, rate_in) in pairs:
                    w0, w1 = start[(a, rate)], last[(a, rate)]
                    inputs[(b, angle_in)] = start[(a, angle)] - (w1 - w0) * span / 12
                    chord = (last[(a, angle)] - start[(a, angle)]) / span
                    inputs[(b, rate_in)] = chord if span > 1e-6 * h else (w0 + w1) / 2
            for (b, i), value in inputs.items():
                system.components[b].set({i: value})
            reached = {c.name: system.step(c, t, span) for c in components}
            t_e = min(at for _, at in reached.values())
            if t_e < t_end:  # an event inside: the passes again, to it
                t_end, last = t_e, None
                continue
            now = system.outputs()
            agreed = last is not None and all(abs(now[x] - last[x]) <= tolerance * (1 + abs(now[x])) for x in now)
            last = now
            if agreed:
                break
        for c in components:
            c.slave.freeFMUState(saved[c.name])
        k, returns = system.reached(reached, t, t_end, target, record, k, returns)
        t = t_end


MASTERS = {"grid": grid_master, "early": early_return_master, "iterating": iterating_master}


def run(ssp, fmu3_dir, master, h, stop):
    """Rows (t, watched output, load rate) at every recorded instant, and the costs."""
    system = System(ssp, fmu3_dir, master != "grid", stop)
    component, output, _ = WATCHED[system.name]
    rate = ("Load", "w")
    rows = []

    def record(t):
        rows.append((t, system.components[component].get(output), system.components[rate[0]].get(rate[1])))

    MASTERS[master](system, h, stop, record)
    costs = (system.steps, system.repeated, system.saved)
    system.free()
    return rows, costs


def seen_events(rows):
    """(instant, new value) of each change of the watched output, at the
    first row that shows it."""
    return [(rows[i][0], rows[i][1]) for i in range(1, len(rows)) if rows[i][1] != rows[i - 1][1]]


def exact_events(name, stop):
    """(instant, new value) of each change of the watched output, exactly."""
    if name == "MotorShaftLoadHillFriction":
        solution = shaft_exact(SYSTEMS["stiff_loop"], stop)
        return [(t, new) for t, _, new in solution.events], solution
    # (A reversal of the slip is an event of the reference, not a change of `locked`.)
    events = []
    for t, locked in clutch_between_shafts.reference(stop):
        if not events or events[-1][1] != locked:
            events.append((t, locked))
    return events, None


def moving_while_stuck(rows):
    """Instants of the rows that show the load stuck (mode 0) with a rate
    other than exactly 0.0."""
    return [t for t, mode, w in rows if mode == 0 and w != 0.0]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fmu-dir", default=os.path.join(ROOT, "target", "fmu"))
    parser.add_argument("--out", required=True)
    parser.add_argument("--steps", default="0.001,0.005,0.02,0.05")
    parser.add_argument("--stop-time", type=float, default=2.5)
    parser.add_argument("--figure-step", type=float, default=0.02)
    parser.add_argument("--systems", default="MotorShaftLoadHillFriction,MotorClutchLoad")
    a = parser.parse_args()
    os.makedirs(a.out, exist_ok=True)
    fmu3_dir = os.path.join(a.fmu_dir, "fmi3")
    steps = [float(x) for x in a.steps.split(",")]
    instants, costs, traces = [], [], {}
    for name in a.systems.split(","):
        ssp = os.path.join(a.fmu_dir, name + ".ssp")
        exact, solution = exact_events(name, a.stop_time)
        words = WATCHED[name][2]
        for h in steps:
            for master in MASTERS:
                rows, (steps_taken, repeated, saved) = run(ssp, fmu3_dir, master, h, a.stop_time)
                seen = seen_events(rows)
                if name == "MotorShaftLoadHillFriction":
                    bad = moving_while_stuck(rows)
                    print(f"{name} {master} step={h}: load rate exactly 0.0 at every stuck row: "
                          f"{'yes' if not bad else 'no, at ' + str(bad[:3])}")
                    if math.isclose(h, a.figure_step):
                        traces[master] = rows
                for i, (t_exact, value) in enumerate(exact):
                    # The nearest change to the same value (a coarse coupling
                    # may show a change and its undoing around one exact event).
                    near = [t for t, v in seen if v == value]
                    t_seen = min(near, key=lambda t: abs(t - t_exact)) if near else float("nan")
                    instants.append((name, f"{i + 1}: {words[value]}", t_exact, h, master, t_seen, t_seen - t_exact))
                costs.append((name, h, master, steps_taken, repeated, saved, len(seen), len(exact)))
                print(f"{name} {master} step={h}: {len(seen)} events seen ({len(exact)} exact), "
                      f"{steps_taken} doStep calls ({repeated} repeated: to an event, or another pass), {saved} states saved")
        if solution is not None:
            traces["exact"] = solution
    with open(os.path.join(a.out, "instants.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["system", "event", "exact", "step", "master", "seen", "error"])
        for r in instants:
            w.writerow([r[0], r[1], repr(r[2]), repr(r[3]), r[4], repr(r[5]), repr(r[6])])
    with open(os.path.join(a.out, "costs.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["system", "step", "master", "doStep_calls", "repeated", "states_saved", "events_seen", "events_exact"])
        w.writerows(costs)
    print()
    print(f"{'system':28s} {'event':22s} {'exact (s)':>10s} {'step':>6s}" + "".join(f"{m + ' error':>16s}" for m in MASTERS))
    by_key = {(r[0], r[1], r[3], r[4]): r for r in instants}
    for r in instants:
        if r[4] != "grid":
            continue
        errors = "".join(f"{by_key[(r[0], r[1], r[3], m)][6]:16.3e}" for m in MASTERS)
        print(f"{r[0]:28s} {r[1]:22s} {r[2]:10.6f} {r[3]:6g}{errors}")
    if {"grid", "early", "exact"} <= set(traces):
        figure(traces, a.figure_step, os.path.join(a.out, "stop.csv"), os.path.join(a.out, "early_return_master.png"))


def figure(traces, h, csv_path, png_path):
    """The load rate near its first stop (MotorShaftLoadHillFriction)."""
    solution = traces["exact"]
    stop = next(t for t, before, new in solution.events if before != 0 and new == 0)
    lo, hi = stop - 6 * h, stop + 3 * h
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["master", "time", "w"])
        for master in ("grid", "early"):
            for t, _, rate in traces[master]:
                if lo <= t <= hi:
                    w.writerow([master, repr(t), repr(rate)])
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fine = np.linspace(lo, hi, 600)
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.plot(fine, solution.load_rate(fine), "k-", lw=1, label="exact (whole system)")
    for master, style, label in (("grid", "s--", "grid master"), ("early", "o-", "early-return master")):
        pts = [(t, rate) for t, _, rate in traces[master] if lo <= t <= hi]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, ms=4, label=f"{label}, {h * 1e3:g} ms")
    ax.axvline(stop, color="grey", lw=0.6)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("load rate w (rad/s)")
    ax.set_title(f"MotorDrive + HillFrictionShaftLoad: the load's first stop, {stop:.4f} s exactly")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)


if __name__ == "__main__":
    main()
