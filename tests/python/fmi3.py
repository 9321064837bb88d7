"""The FMI 3.0 FMUs (target/fmu/fmi3/) in FMPy 0.3.32, beside their FMI 2.0
twins (target/fmu/): one binary, one instance core, two bindings.

    python fmi3.py DIR        (DIR holds the FMI 2.0 FMUs and fmi3/)

For every FMU: FMPy's validation of the FMI 3.0 model description; the
binary exports every function of fmi3FunctionTypes.h; the default
experiment (inputs from <Model>_in.csv) in Co-Simulation and, where
declared, Model Exchange gives the FMI 2.0 FMU's result bit for bit.
Then the physics of one FMU read through FMI 3.0 alone (Hill's breakaway and
stop: the rate exactly 0.0 while stuck), and what FMI 3.0 adds at the
boundary, through FMPy's low-level classes: `time` and the event
indicators as variables, the Enumeration as Int64 (refused as Int32),
scalars only, Co-Simulation's event mode refused at instantiation (not
declared), FMU state round trips. Prints "ok ..." lines; exits 1 on the
first failure with what failed.
"""
import ctypes
import os
import shutil
import sys
import re
import zipfile

import numpy as np
import fmpy
from fmpy.fmi3 import FMU3Model, FMU3Slave
from fmpy.util import read_csv
from fmpy.validation import validate_fmu

FMI3_FUNCTIONS = """GetVersion SetDebugLogging InstantiateModelExchange InstantiateCoSimulation
InstantiateScheduledExecution FreeInstance EnterInitializationMode ExitInitializationMode EnterEventMode Terminate
Reset GetFloat32 GetFloat64 GetInt8 GetUInt8 GetInt16 GetUInt16 GetInt32 GetUInt32 GetInt64 GetUInt64 GetBoolean
GetString GetBinary GetClock SetFloat32 SetFloat64 SetInt8 SetUInt8 SetInt16 SetUInt16 SetInt32 SetUInt32 SetInt64
SetUInt64 SetBoolean SetString SetBinary SetClock GetNumberOfVariableDependencies GetVariableDependencies
GetFMUState SetFMUState FreeFMUState SerializedFMUStateSize SerializeFMUState DeserializeFMUState
GetDirectionalDerivative GetAdjointDerivative EnterConfigurationMode ExitConfigurationMode GetIntervalDecimal
GetIntervalFraction GetShiftDecimal GetShiftFraction SetIntervalDecimal SetIntervalFraction SetShiftDecimal
SetShiftFraction EvaluateDiscreteStates UpdateDiscreteStates EnterContinuousTimeMode CompletedIntegratorStep
SetTime SetContinuousStates GetContinuousStateDerivatives GetEventIndicators GetContinuousStates
GetNominalsOfContinuousStates GetNumberOfEventIndicators GetNumberOfContinuousStates EnterStepMode
GetOutputDerivatives DoStep ActivateModelPartition""".split()


def fail(message):
    print(f"FAIL {message}")
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def default_run(path, inputs, md, fmi_type):
    e = md.defaultExperiment
    return fmpy.simulate_fmu(path, fmi_type=fmi_type, start_time=float(e.startTime), stop_time=float(e.stopTime),
                             output_interval=float(e.stepSize), input=inputs)


directory = sys.argv[1]
names = sorted(f[:-4] for f in os.listdir(os.path.join(directory, "fmi3")) if f.endswith(".fmu"))
check(len(names) >= 22, f"only {len(names)} FMI 3.0 FMUs")
for name in names:
    path3 = os.path.join(directory, "fmi3", name + ".fmu")
    path2 = os.path.join(directory, name + ".fmu")
    problems = validate_fmu(path3)
    check(not problems, f"{name}: FMPy's validation: {problems}")
    md = fmpy.read_model_description(path3)
    check(md.fmiVersion == "3.0", f"{name}: fmiVersion {md.fmiVersion}")
    unzipped = fmpy.extract(path3)
    try:
        library = ctypes.CDLL(os.path.join(unzipped, "binaries", "x86_64-linux", name + ".so"))
        missing = [f for f in FMI3_FUNCTIONS if not hasattr(library, "fmi3" + f)]
        check(len(FMI3_FUNCTIONS) == 75 and not missing, f"{name}: missing {missing}")
    finally:
        shutil.rmtree(unzipped, ignore_errors=True)
    csv = os.path.join(directory, name + "_in.csv")
    inputs = read_csv(csv) if os.path.exists(csv) else None
    interfaces = ["CoSimulation"] + (["ModelExchange"] if md.modelExchange is not None else [])
    with zipfile.ZipFile(path3) as z:
        for text_file in ["modelDescription.xml", "documentation/index.html"]:
            text = z.read(text_file).decode()
            stray = [m.start() for m in re.finditer("fmi2", text) if not text[:m.start()].endswith("FMI 2.0's ")]
            check(not stray, f"{name}: {text_file} names FMI 2.0 functions: {[text[i - 40:i + 40] for i in stray]}")
            check('fmiVersion="3.0"' in text or "<td>FMI</td><td>3.0 " in text, f"{name}: {text_file} is not 3.0's")
    for fmi_type in interfaces:
        r3 = default_run(path3, inputs, md, fmi_type)
        r2 = default_run(path2, inputs, fmpy.read_model_description(path2), fmi_type)
        check(r3.dtype.names == r2.dtype.names, f"{name} {fmi_type}: columns {r3.dtype.names} vs {r2.dtype.names}")
        same = len(r3) == len(r2) and all(np.array_equal(r3[c], r2[c]) for c in r2.dtype.names)
        check(same, f"{name} {fmi_type}: FMI 3.0 and FMI 2.0 results differ")
        print(f"ok {name}: FMI 3.0 {fmi_type} = FMI 2.0, {len(r3)} rows of {len(r3.dtype.names) - 1} outputs, "
              f"bit for bit")
    print(f"ok {name}: validates with 0 problems, exports the 75 fmi3 functions")

# Physics through FMI 3.0 alone: HillFrictionInertia's default run (tau
# ramps 0 -> 2 N.m over 2 s, then 0; F_s = 1.2, F_c = 1 N.m, J = 1). Model
# Exchange breaks away where tau passes F_s, at 1.2 s; Co-Simulation holds
# tau over each 10 ms step (no input derivatives in FMI 3.0), so it breaks
# away in the step from 1.21 s. Stuck means w exactly 0.0 and mode 0. The
# body then slides (mode 1) until tau drops at 2 s and stops inside a step,
# after which w is exactly 0.0 again.
path = os.path.join(directory, "fmi3", "HillFrictionInertia.fmu")
md = fmpy.read_model_description(path)
inputs = read_csv(os.path.join(directory, "HillFrictionInertia_in.csv"))
for fmi_type, breakaway in [("CoSimulation", 1.21), ("ModelExchange", 1.2)]:
    r = default_run(path, inputs, md, fmi_type)
    t = r["time"]
    stuck = t <= breakaway + 1e-9
    # (Model Exchange's event rows at 1.2 s: mode 0 before, 1 after, w = 0.0.)
    check(np.all(r["w"][stuck] == 0.0) and np.all(r["mode"][t < breakaway - 1e-9] == 0),
          f"{fmi_type}: moves before {breakaway} s")
    sliding = (t > breakaway + 1e-9) & (t < 2.0)
    check(np.all(r["w"][sliding] > 0.0) and np.all(r["mode"][sliding] == 1), f"{fmi_type}: no breakaway at {breakaway} s")
    # The first row at rest after 2 s, and every row after it (by row:
    # Model Exchange's event rows share the stop's instant).
    first = np.flatnonzero((t > 2.0) & (r["w"] == 0.0))[0]
    stop = t[first]
    check(np.all(r["w"][first:] == 0.0) and 2.4 < stop < 2.6, f"{fmi_type}: stops at {stop} s")
    print(f"ok HillFrictionInertia FMI 3.0 {fmi_type}: w exactly 0.0 on {stuck.sum()} rows to {breakaway} s, "
          f"sliding after, at rest with w exactly 0.0 from {stop:.4f} s")

# Early return and event mode (FMPy's simulate_fmu with both): the step
# stops at the stick inside it, where the FMU's time then is. Held tau = 2
# N.m until 2 s gives w = 0.474 rad/s there; with tau = 0 the body slows at
# F_c/J = 1 rad/s^2 and stops at exactly 2.474 s, inside the step from 2.47.
plain = default_run(path, inputs, md, "CoSimulation")
e = md.defaultExperiment
early = fmpy.simulate_fmu(path, stop_time=float(e.stopTime), output_interval=float(e.stepSize), input=inputs,
                          early_return_allowed=True, use_event_mode=True)
k = np.flatnonzero(np.abs(early["time"] - 2.474) < 1e-12)
check(len(k) >= 1, f"no row at the stop 2.474 s: {early['time'][(early['time'] > 2.46) & (early['time'] < 2.49)]}")
check(early["w"][k[0]] == 0.0 and early["mode"][k[0]] == 0 and early["w"][k[0] - 1] > 0.0, "not stopped at 2.474 s")
off_grid = [t for t in early["time"] if abs(t / 0.01 - round(t / 0.01)) > 1e-6]
check(off_grid and all(abs(t - 2.474) < 1e-12 for t in off_grid), f"early returns at {off_grid}")
for row in plain:
    same = early[np.abs(early["time"] - row["time"]) < 1e-9][-1]
    check(all(same[c] == row[c] for c in ["phi", "w", "mode"]), f"t = {row['time']}: {same} vs {row}")
print(f"ok HillFrictionInertia FMI 3.0 early return: the step from 2.47 s returns at the stop, 2.474 s, w exactly "
      f"0.0 there; phi, w and mode at every grid point as without early return")

# Stribeck's inertia substeps (internal_step 1 ms): it returns at the end of
# the substep in which its mode changes.
path_s = os.path.join(directory, "fmi3", "StribeckInertia.fmu")
md_s = fmpy.read_model_description(path_s)
e = md_s.defaultExperiment
r = fmpy.simulate_fmu(path_s, stop_time=float(e.stopTime), output_interval=float(e.stepSize),
                      input=read_csv(os.path.join(directory, "StribeckInertia_in.csv")),
                      early_return_allowed=True, use_event_mode=True)
off_grid = [t for t in r["time"] if abs(t / 0.01 - round(t / 0.01)) > 1e-6]
check(off_grid and all(abs(t / 1e-3 - round(t / 1e-3)) < 1e-6 for t in off_grid), f"Stribeck returns at {off_grid}")
for t in sorted(set(np.round(off_grid, 9))):
    at = np.flatnonzero(np.abs(r["time"] - t) < 1e-9)
    check(r["mode"][at[0] - 1] != r["mode"][at[0]], f"Stribeck: no mode change at its early return {t}")
print(f"ok StribeckInertia FMI 3.0 early return at its mode changes, on its 1 ms substeps: "
      f"{sorted(set(float(x) for x in np.round(off_grid, 6)))} s")

# The boundary, through FMPy's low-level classes.
log = []


def capture(environment, status, category, message):
    log.append((status, category.decode(), message.decode()))


def refused(call, words):
    """`call` fails with fmi3Error and logs a message containing `words`."""
    before = len(log)
    try:
        call()
    except Exception:
        text = " | ".join(m for _, _, m in log[before:])
        check(any(s == 3 for s, _, _ in log[before:]), f"no fmi3Error logged for {words!r}: {text}")
        check(words in text, f"expected {words!r} in: {text}")
        return text
    fail(f"not refused: {words}")


path = os.path.join(directory, "fmi3", "MajdSimaanInertia.fmu")
md = fmpy.read_model_description(path)
vr = {v.name: v.valueReference for v in md.modelVariables}
unzipped = fmpy.extract(path)
try:
    def slave():
        return FMU3Slave(guid=md.guid, unzipDirectory=unzipped, modelIdentifier=md.coSimulation.modelIdentifier,
                         instanceName="boundary")


    fmu = slave()
    fmu.instantiate(logMessage=capture)
    fmu.enterInitializationMode(startTime=0.5)
    fmu.exitInitializationMode()
    check(fmu.getFloat64([vr["time"]]) == [0.5], "time is not the start time")
    check(vr["time"] == max(vr.values()), "time is not last")
    check(fmu.getInt64([vr["sigma_method"]]) == [0], "sigma_method as Int64")
    refused(lambda: fmu.getInt32([vr["sigma_method"]]), "is an Enumeration (read and written as Int64), not an Int32")
    refused(lambda: fmu.setFloat64([vr["time"]], [1.0]), "the independent variable cannot be set")
    refused(lambda: fmu.getFloat64([vr["mode"]]), "is an Int32, not a Float64")
    refused(lambda: fmu.getFloat64([max(vr.values()) + 1]), "does not exist in this FMU")
    values = (ctypes.c_double * 2)()
    refs = (ctypes.c_uint32 * 1)(vr["w"])
    refused(lambda: fmu.fmi3GetFloat64(fmu.component, refs, 1, values, 2), "nValues = 2 rejected")
    refused(lambda: fmu.getFloat32([vr["w"]]), "not a Float32")
    fmu.setFloat64([vr["tau"]], [2.0])
    state = fmu.getFMUState()
    fmu.doStep(0.5, 0.1)
    after = fmu.getFloat64([vr["w"], vr["time"]])
    blob = fmu.serializeFMUState(state)
    # Any buffer at least the state's size will do, however large: even past
    # the bound on array counts (16 Mi elements); the state at its start.
    big = (ctypes.c_uint8 * ((1 << 24) + 1))()
    fmu.fmi3SerializeFMUState(fmu.component, state, big, len(big))
    check(bytes(big[:len(blob)]) == bytes(blob), "a state serialized into a large buffer")
    fmu.setFMUState(fmu.deserializeFMUState(blob))
    check(fmu.getFloat64([vr["time"]]) == [0.5], "restored state's time")
    fmu.doStep(0.5, 0.1)
    check(fmu.getFloat64([vr["w"], vr["time"]]) == after, "a restored state does not replay bit for bit")
    fmu.terminate()
    fmu.freeInstance()
    print(f"ok the boundary: time and Int64 read, {sum(1 for s, _, _ in log if s == 3)} misuses refused with "
          f"their reason, FMU state replayed bit for bit")

    # Output derivatives by FMI 3.0's references (HillFrictionInertia: after
    # one step of 0.1 s from rest under tau = 2 N.m, d(phi)/dt is w); start
    # values readable in Instantiated, outputs not; values after an error;
    # no logger at all.
    path_h = os.path.join(directory, "fmi3", "HillFrictionInertia.fmu")
    md_h = fmpy.read_model_description(path_h)
    vr_h = {v.name: v.valueReference for v in md_h.modelVariables}
    unzipped_h = fmpy.extract(path_h)
    try:
        fmu = FMU3Slave(guid=md_h.guid, unzipDirectory=unzipped_h, modelIdentifier="HillFrictionInertia",
                        instanceName="derivatives")
        fmu.instantiate(logMessage=capture)
        check(fmu.getFloat64([vr_h["J"], vr_h["tau_static"]]) == [1.0, 1.2], "start values in Instantiated")
        refused(lambda: fmu.getFloat64([vr_h["w"]]), "only start values can be read before")
        fmu.enterInitializationMode()
        fmu.exitInitializationMode()
        fmu.setFloat64([vr_h["tau"]], [2.0])
        fmu.doStep(0.0, 0.1)
        w = fmu.getFloat64([vr_h["w"]])[0]
        check(w > 0.0 and fmu.getOutputDerivatives([vr_h["phi"]], [1]) == [w], "d(phi)/dt is not w")
        fmu.setFloat64([vr_h["tau"]], [1.7e308])
        refused(lambda: fmu.doStep(0.1, 10.0), "failed")
        check(fmu.getFloat64([vr_h["time"]]) == [0.1], "values are not readable after an error")
        fmu.freeInstance()
        library = ctypes.CDLL(os.path.join(unzipped_h, "binaries", "x86_64-linux", "HillFrictionInertia.so"))
        library.fmi3InstantiateCoSimulation.restype = ctypes.c_void_p
        c = library.fmi3InstantiateCoSimulation(b"silent", md_h.guid.encode(), None, False, False, False, False,
                                                None, ctypes.c_size_t(0), None, None, None)
        check(c is not None, "no instance without a logger (a NULL logMessage is allowed)")
        library.fmi3FreeInstance(ctypes.c_void_p(c))
    finally:
        shutil.rmtree(unzipped_h, ignore_errors=True)
    print("ok output derivatives by FMI 3.0's references, start values before initialization, values after an "
          "error, an instance without a logger")

    # The flags of one step through the stop (HillFrictionInertia, tau = 0
    # from w = 0.474 rad/s at 2 s), with and without event mode.
    path_h = os.path.join(directory, "fmi3", "HillFrictionInertia.fmu")
    md_h = fmpy.read_model_description(path_h)
    vr_h = {v.name: v.valueReference for v in md_h.modelVariables}
    unzipped_h = fmpy.extract(path_h)
    try:
        for event_mode in [False, True]:
            fmu = FMU3Slave(guid=md_h.guid, unzipDirectory=unzipped_h, modelIdentifier="HillFrictionInertia",
                            instanceName="early")
            fmu.instantiate(eventModeUsed=event_mode, earlyReturnAllowed=True, logMessage=capture)
            fmu.setFloat64([vr_h["w_start"]], [0.474])
            fmu.enterInitializationMode(startTime=2.0)
            fmu.exitInitializationMode()
            if event_mode:
                check(fmu.updateDiscreteStates()[0] is False, "an event iteration that does not settle")
                fmu.enterStepMode()
            else:
                refused(lambda: fmu.enterEventMode(), "eventModeUsed = false")
            needed, terminate, returned, last = fmu.doStep(2.0, 1.0)
            check(returned and abs(last - 2.474) < 1e-12 and needed == event_mode and not terminate,
                  f"doStep flags {needed, terminate, returned, last} (event mode {event_mode})")
            check(fmu.getFloat64([vr_h["w"], vr_h["time"]]) == [0.0, last], "not at rest at the stop")
            if event_mode:
                fmu.enterEventMode()
                check(fmu.updateDiscreteStates()[0] is False, "an event iteration that does not settle")
                fmu.enterStepMode()
            needed, terminate, returned, last2 = fmu.doStep(last, 3.0 - last)
            check(not returned and not needed and last2 == 3.0, f"after the stop: {needed, returned, last2}")
            fmu.terminate()
            fmu.freeInstance()
    finally:
        shutil.rmtree(unzipped_h, ignore_errors=True)
    print("ok doStep through a stop returns early at 2.474 s, eventHandlingNeeded exactly with event mode; "
          "event mode refused where not asked for at instantiation")

    model = FMU3Model(guid=md.guid, unzipDirectory=unzipped, modelIdentifier=md.modelExchange.modelIdentifier,
                      instanceName="indicators")
    model.instantiate(logMessage=capture)
    model.enterInitializationMode()
    model.exitInitializationMode()
    indicators = [v.valueReference for v in md.modelVariables if v.name.startswith("event_indicator_")]
    check(len(indicators) == len(md.eventIndicators) > 0, "event indicators as variables")
    z = (ctypes.c_double * len(indicators))()
    model.fmi3GetEventIndicators(model.component, z, len(indicators))
    check(model.getFloat64(indicators) == list(z), "an event indicator variable is not the indicator")
    model.terminate()
    model.freeInstance()
    print(f"ok {len(indicators)} event indicators read as variables equal fmi3GetEventIndicators")
finally:
    shutil.rmtree(unzipped, ignore_errors=True)
