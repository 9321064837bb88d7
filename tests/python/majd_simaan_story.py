"""Majd & Simaan's discrete story, independently: the sign of the rate
(the FMUs' `mode`) in the default experiments of MajdSimaanInertia and
MajdSimaanShaftLoad, from Eq. (6) integrated here with scipy's Radau at
rtol 1e-10 (atol 1e-22, steps <= 1 ms), against FMPy's Co-Simulation and
Model Exchange runs of the FMUs (at their DefaultExperiment tolerance).

    python majd_simaan_story.py DIR      (DIR holds the built FMUs)

Parameters are the FMUs' start values (read from modelDescription.xml);
sigma is solved here from the peak condition of Eqs. (7)-(8) (the paper's
0.6858), not read from the FMU. Inputs: MajdSimaanInertia's tau is 0 to
2 N.m over 2 s, then 0; the shaft's drive end turns at 0.5 rad/s from 0.
Prints one line per FMU and run: "story <name> <run> [..]", the FMU runs
with w at each change of their mode after the start.
Only changes at the communication points count, as in discrete_story.py.
"""
import os
import sys
import warnings

import numpy as np
import fmpy
from fmpy.util import read_csv
from scipy.integrate import solve_ivp
from scipy.optimize import brentq, minimize_scalar


# Radau's step-size update divides by an error norm that is exactly 0 where
# the state is (the body at rest at the start): a warning, not a failure.
warnings.filterwarnings("ignore", "divide by zero", RuntimeWarning)


def start_values(md):
    return {v.name: float(v.start) for v in md.modelVariables if v.type == "Real" and v.start is not None}


def friction(p):
    fw, fc, fs, n, wc = p["viscous"], p["tau_coulomb"], p["tau_static"], p["sharpness"], p["w_critical"]

    def f_plus(w, s):
        return fw * w + fc + s * np.exp(-w / wc) - (s + fc) * np.exp(-n * w / wc)

    def peak(s):
        r = minimize_scalar(lambda w: -f_plus(w, s), bounds=(0.0, wc), method="bounded", options={"xatol": 1e-14})
        return -r.fun

    sigma = brentq(lambda s: peak(s) - fs, 1e-6, 10.0, xtol=1e-15)
    assert abs(sigma - 0.6858) < 1e-4 or (fc, fs) != (0.5, 0.95), sigma

    def F(w):
        a = abs(w)
        return fw * w + (fc + sigma * np.exp(-a / wc) - (sigma + fc) * np.exp(-n * a / wc)) * np.sign(w)

    def slope(w):
        a = abs(w)
        return fw - sigma / wc * np.exp(-a / wc) + n * (sigma + fc) / wc * np.exp(-n * a / wc)

    return F, slope


def reference(name, md):
    p = start_values(md)
    F, slope = friction(p)
    J = p["J"]
    if "tau" in p:  # the inertia under its applied torque; else the shaft port
        def rhs(t, y):
            tau = t if t < 2.0 else 0.0
            return [y[1], (tau - F(y[1])) / J]

        def jac(t, y):
            return [[0.0, 1.0], [0.0, -slope(y[1]) / J]]
        y0, breaks = [p.get("phi_start", 0.0), p["w_start"]], [0.0, 2.0]
    else:
        k, d = p["k_shaft"], p["d_shaft"]

        def rhs(t, y):
            tau = k * (0.5 * t - y[0]) + d * (0.5 - y[1])
            return [y[1], (tau - F(y[1])) / J]

        def jac(t, y):
            return [[0.0, 1.0], [-k / J, (-d - slope(y[1])) / J]]
        y0, breaks = [p["phi_start"], p["w_start"]], [0.0]
    e = md.defaultExperiment
    stop, h = float(e.stopTime), float(e.stepSize)
    times = np.round(np.arange(0.0, stop + h / 2, h), 12)
    w = {}
    # Piece by piece, so that the torque's drop at 2 s is a boundary (the
    # state is continuous there: the shared point gets the same value).
    for a, b in zip(breaks, breaks[1:] + [stop]):
        ts = times[(times >= a) & (times <= b)]
        r = solve_ivp(rhs, (a, b), y0, method="Radau", jac=jac, rtol=1e-10, atol=1e-22, t_eval=ts,
                      max_step=1e-3)
        assert r.success, r.message
        w.update(zip(ts, r.y[1]))
        y0 = r.y[:, -1]
    assert len(w) == len(times)
    return [int(np.sign(w[t])) for t in times]


def changes(rows):
    return [rows[0]] + [b for a, b in zip(rows, rows[1:]) if a != b]


def fmu_story(path, md, fmi_type):
    e = md.defaultExperiment
    r = fmpy.simulate_fmu(path, fmi_type=fmi_type, stop_time=float(e.stopTime), output_interval=float(e.stepSize),
                          input=read_csv(path[:-4] + "_in.csv"), output=["mode", "w"])
    modes = [int(m) for m in r["mode"]]
    at = [f"{w:.2g}" for a, b, w in zip(modes, modes[1:], r["w"][1:]) if a != b]
    return changes(modes), at


for name in ["MajdSimaanInertia", "MajdSimaanShaftLoad"]:
    path = os.path.join(sys.argv[1], name + ".fmu")
    md = fmpy.read_model_description(path)
    print(f"story {name} reference {changes(reference(name, md))}")
    for fmi_type in ["CoSimulation", "ModelExchange"]:
        story, at = fmu_story(path, md, fmi_type)
        print(f"story {name} {fmi_type} {story} w at the changes {' '.join(at)} rad/s "
              f"(tolerance {md.defaultExperiment.tolerance})")
