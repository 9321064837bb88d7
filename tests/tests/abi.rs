//! The C ABI of the built binaries: instantiation checks, the call-sequence
//! state machine, argument checks, logging. Calls go straight to the
//! exported functions of the `.so` inside each FMU.

use fmu_tests::identifiers;
use fmu_tests::raw::{RawFmu, DISCARD, ERROR, OK, WARNING};
use std::ffi::CString;
use std::ptr::{null, null_mut};

// Value references of the one-inertia FMUs (HillFrictionInertia's layout,
// shared by the baseline and the other laws' inertias); checked against the
// declarations by `the_value_reference_constants_name_their_variables`.
const J: u32 = 6;
const TAU_COULOMB: u32 = 10;
const TAU_STATIC: u32 = 11;
const TAU: u32 = 1;
const W: u32 = 3;
const W_START: u32 = 7;
const MODE: u32 = 5;

#[test]
fn the_value_reference_constants_name_their_variables() {
    let vars = (fmu::registry::get("HillFrictionInertia").variables)();
    let vr = |name: &str| vars.iter().find(|v| v.name == name).map(|v| v.value_reference);
    let constants = [
        ("J", J),
        ("tau_coulomb", TAU_COULOMB),
        ("tau_static", TAU_STATIC),
        ("tau", TAU),
        ("w", W),
        ("w_start", W_START),
    ];
    for (name, constant) in constants.into_iter().chain([("mode", MODE)]) {
        assert_eq!(vr(name), Some(constant), "{name}");
    }
    let baseline = (fmu::registry::get("ConventionalCoulombBaseline").variables)();
    assert_eq!(baseline.iter().find(|v| v.name == "phi").map(|v| v.value_reference), Some(2), "baseline phi");
}

#[test]
fn instantiate_refuses_bad_arguments_and_says_why() {
    for id in identifiers() {
        let fmu = RawFmu::load(id);
        let name = c"x";
        unsafe {
            let wrong = c"{00000000-0000-0000-0000-000000000000}";
            let c = fmu.lib.fmi2Instantiate(name.as_ptr(), 1, wrong.as_ptr(), null(), fmu.callbacks(), 0, 0);
            assert!(c.is_null(), "{id}: wrong GUID accepted");
            let text = fmu.last_error();
            assert!(
                text.contains(wrong.to_str().unwrap()) && text.contains(fmu.guid.to_str().unwrap()),
                "{id}: {text}"
            );

            // The GUID of another model is wrong for this FMU, too.
            for other in identifiers().into_iter().filter(|o| *o != id) {
                let g = CString::new(fmu::registry::guid_of(other).unwrap()).unwrap();
                assert!(fmu.lib.fmi2Instantiate(name.as_ptr(), 1, g.as_ptr(), null(), fmu.callbacks(), 0, 0).is_null());
                fmu.take_messages();
            }

            // Model Exchange where the model description declares it, else
            // refused with the reason; an unknown fmuType always.
            let me = fmu.lib.fmi2Instantiate(name.as_ptr(), 0, fmu.guid.as_ptr(), null(), fmu.callbacks(), 0, 0);
            if (fmu::registry::get(id).model_description)().contains("<ModelExchange") {
                assert!(!me.is_null(), "{id}: {:?}", fmu.take_messages());
                fmu.lib.fmi2FreeInstance(me);
            } else {
                assert!(me.is_null());
                assert!(fmu.last_error().contains("fmi2ModelExchange requested"), "{id}");
            }
            assert!(fmu
                .lib
                .fmi2Instantiate(name.as_ptr(), 7, fmu.guid.as_ptr(), null(), fmu.callbacks(), 0, 0)
                .is_null());
            assert!(fmu.last_error().contains("fmuType = 7 rejected"), "{id}");

            assert!(fmu.lib.fmi2Instantiate(null(), 1, fmu.guid.as_ptr(), null(), fmu.callbacks(), 0, 0).is_null());
            assert!(fmu.last_error().contains("instanceName is NULL"));

            assert!(fmu.lib.fmi2Instantiate(name.as_ptr(), 1, null(), null(), fmu.callbacks(), 0, 0).is_null());
            assert!(fmu.last_error().contains("fmuGUID is NULL"));

            assert!(fmu.lib.fmi2Instantiate(name.as_ptr(), 1, fmu.guid.as_ptr(), null(), null(), 0, 0).is_null());
            let no_logger = fmi::fmi2::binding::fmi2CallbackFunctions {
                logger: None,
                allocateMemory: None,
                freeMemory: None,
                stepFinished: None,
                componentEnvironment: null_mut(),
            };
            assert!(fmu.lib.fmi2Instantiate(name.as_ptr(), 1, fmu.guid.as_ptr(), null(), &no_logger, 0, 0).is_null());

            // The right GUID works; NULL resource location is fine (no resources).
            let c = fmu.lib.fmi2Instantiate(name.as_ptr(), 1, fmu.guid.as_ptr(), null(), fmu.callbacks(), 0, 0);
            assert!(!c.is_null());
            fmu.lib.fmi2FreeInstance(c);
            // Functions on a NULL component fail without crashing.
            assert_eq!(fmu.lib.fmi2DoStep(null_mut(), 0.0, 0.1, 1), ERROR);
            fmu.lib.fmi2FreeInstance(null_mut());
        }
    }
}

#[test]
fn version_and_platform() {
    let fmu = RawFmu::load(identifiers()[0]);
    unsafe {
        assert_eq!(std::ffi::CStr::from_ptr(fmu.lib.fmi2GetVersion()).to_str().unwrap(), "2.0");
        assert_eq!(std::ffi::CStr::from_ptr(fmu.lib.fmi2GetTypesPlatform()).to_str().unwrap(), "default");
    }
}

#[test]
fn illegal_call_order_is_refused_and_named() {
    for id in identifiers() {
        let fmu = RawFmu::load(id);
        unsafe {
            let c = fmu.instantiate("order");
            let mut x = [0.0];
            assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, 0.1, 1), ERROR);
            let text = fmu.last_error();
            assert!(text.contains("fmi2DoStep") && text.contains("instantiated"), "{text}");
            assert_eq!(fmu.lib.fmi2GetReal(c, [W].as_ptr(), 1, x.as_mut_ptr()), ERROR);
            assert!(fmu.last_error().contains("fmi2GetReal: not allowed in state instantiated"));
            assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), ERROR);
            assert_eq!(fmu.lib.fmi2Terminate(c), ERROR);
            fmu.take_messages();

            // Refused calls change nothing: the normal sequence still works.
            assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
            assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
            assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), ERROR);
            assert!(fmu.last_error().contains("initializationMode"));
            assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, 0.1, 1), ERROR);
            assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), OK);
            assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), ERROR);
            assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, 0.1, 1), OK);
            assert_eq!(fmu.lib.fmi2Terminate(c), OK);
            assert_eq!(fmu.lib.fmi2DoStep(c, 0.1, 0.1, 1), ERROR);
            assert!(fmu.last_error().contains("terminated"));
            // Values stay readable after terminate.
            assert_eq!(fmu.lib.fmi2GetReal(c, [W].as_ptr(), 1, x.as_mut_ptr()), OK);
            fmu.lib.fmi2FreeInstance(c);
        }
    }
}

#[test]
fn do_step_checks_its_arguments() {
    for id in identifiers() {
        let fmu = RawFmu::load(id);
        unsafe {
            let c = fmu.initialized("step");
            for h in [0.0, -0.1, f64::NAN, f64::INFINITY] {
                assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, h, 1), ERROR, "h = {h}");
                let text = fmu.last_error();
                assert!(text.contains("communicationStepSize") && text.contains("must be finite and > 0"), "{text}");
            }
            assert_eq!(fmu.lib.fmi2DoStep(c, 0.5, 0.1, 1), ERROR);
            let text = fmu.last_error();
            assert!(text.contains("currentCommunicationPoint = 0.5") && text.contains("t = 0 s"), "{text}");
            assert_eq!(fmu.lib.fmi2DoStep(c, f64::NAN, 0.1, 1), ERROR);
            fmu.take_messages();
            // A step that would need more than 1e8 internal steps is refused up front:
            // those of internal_step, or the points of a one-pass model's search for
            // stops (the shaft port of Hill's law); a model exact over any step in one
            // pass of fixed work takes any.
            let work = ((fmu::registry::get(id).new_instance)()).step_work(1e12).0;
            let has_internal_step = (fmu::registry::get(id).variables)().iter().any(|v| v.name == "internal_step");
            assert!(work > 1e8 || !has_internal_step, "{id}: {work} internal steps for 1e12 s");
            if work > 1e8 {
                assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, 1e12, 1), ERROR);
                let text = fmu.last_error();
                assert!(text.contains("internal steps") && text.contains("limit 1e8"), "{text}");
            }
            // A huge but feasible step finishes with finite outputs.
            assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, 1e4, 1), OK);
            let mut t = 0.0;
            assert_eq!(fmu.lib.fmi2GetRealStatus(c, 2, &mut t), OK);
            assert_eq!(t, 1e4);
            // Every Real variable finite afterwards.
            for v in (fmu::registry::get(id).variables)() {
                if v.type_name == "Real" {
                    let mut x = f64::NAN;
                    assert_eq!(fmu.lib.fmi2GetReal(c, &v.value_reference, 1, &mut x), OK);
                    assert!(x.is_finite(), "{id}.{} = {x}", v.name);
                }
            }
            fmu.lib.fmi2FreeInstance(c);
        }
    }
}

/// The 1-DOF FMUs with J at vr 5 and tau_coulomb, tau_static at vr 9-10.
const STATIC_COULOMB_MODELS: [&str; 2] = ["ConventionalCoulombBaseline", "HillFrictionInertia"];

#[test]
fn set_checks_ranges_types_and_phase_and_applies_nothing_on_error() {
    for id in STATIC_COULOMB_MODELS {
        let fmu = RawFmu::load(id);
        unsafe {
            let c = fmu.instantiate("set");
            // One bad value in a batch rejects the whole batch.
            assert_eq!(fmu.lib.fmi2SetReal(c, [TAU_COULOMB, J].as_ptr(), 2, [0.5, -1.0].as_ptr()), ERROR);
            let text = fmu.last_error();
            assert!(text.contains("J = -1") && text.contains("must be > 0"), "{text}");
            assert_eq!(fmu.lib.fmi2SetReal(c, [J].as_ptr(), 1, [0.0].as_ptr()), ERROR);
            assert_eq!(fmu.lib.fmi2SetReal(c, [TAU].as_ptr(), 1, [f64::NAN].as_ptr()), ERROR);
            assert!(fmu.last_error().contains("tau = NaN rejected: must be finite"));
            assert_eq!(fmu.lib.fmi2SetReal(c, [99].as_ptr(), 1, [1.0].as_ptr()), ERROR);
            assert!(fmu.last_error().contains("value reference 99 does not exist"));
            assert_eq!(fmu.lib.fmi2SetReal(c, [W].as_ptr(), 1, [1.0].as_ptr()), ERROR);
            assert!(fmu.last_error().contains("outputs are computed by the FMU"));
            assert_eq!(fmu.lib.fmi2SetInteger(c, [J].as_ptr(), 1, [1].as_ptr()), ERROR);
            assert!(fmu.last_error().contains("is a Real, not a Integer"));
            assert_eq!(fmu.lib.fmi2SetReal(c, null(), 1, [1.0].as_ptr()), ERROR);
            assert!(fmu.last_error().contains("vr is NULL"));
            assert_eq!(fmu.lib.fmi2SetString(c, [TAU].as_ptr(), 1, [c"x".as_ptr()].as_ptr()), ERROR);
            fmu.take_messages();
            assert_eq!(fmu.lib.fmi2SetReal(c, null(), 0, null()), OK, "empty set is fine");

            assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
            assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
            let mut v = [0.0; 2];
            assert_eq!(fmu.lib.fmi2GetReal(c, [TAU_COULOMB, J].as_ptr(), 2, v.as_mut_ptr()), OK);
            assert_eq!(v, [1.0, 1.0], "{id}: nothing of the rejected batch was applied");

            // Static friction below Coulomb friction is caught on leaving initialization.
            assert_eq!(fmu.lib.fmi2SetReal(c, [TAU_STATIC].as_ptr(), 1, [0.5].as_ptr()), OK);
            assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), ERROR);
            let text = fmu.last_error();
            assert!(text.contains("tau_static = 0.5") && text.contains("tau_coulomb = 1"), "{text}");
            assert_eq!(fmu.lib.fmi2SetReal(c, [TAU_STATIC].as_ptr(), 1, [1.5].as_ptr()), OK);
            assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), OK);

            // Fixed parameters are frozen after initialization; inputs are not.
            assert_eq!(fmu.lib.fmi2SetReal(c, [J].as_ptr(), 1, [2.0].as_ptr()), ERROR);
            assert!(fmu.last_error().contains("J cannot be set after initialization"));
            assert_eq!(fmu.lib.fmi2SetReal(c, [TAU].as_ptr(), 1, [0.3].as_ptr()), OK);
            let mut mode = [7];
            assert_eq!(fmu.lib.fmi2GetInteger(c, [MODE].as_ptr(), 1, mode.as_mut_ptr()), OK);
            assert_eq!(fmu.lib.fmi2GetReal(c, [MODE].as_ptr(), 1, v.as_mut_ptr()), ERROR);
            fmu.lib.fmi2FreeInstance(c);
        }
    }
}

#[test]
fn unsupported_functions_return_error_with_a_reason() {
    // A friction element: inputs held over a step, no output derivatives
    // (vr 0 = w_rel, its input; vr 2 = internal_step).
    let fmu = RawFmu::load("StribeckElement");
    unsafe {
        let c = fmu.initialized("unsupported");
        let (vr, order, value) = ([TAU], [1], [0.0]);
        assert_eq!(fmu.lib.fmi2SetRealInputDerivatives(c, vr.as_ptr(), 1, order.as_ptr(), value.as_ptr()), ERROR);
        assert!(fmu.last_error().contains("canInterpolateInputs"));
        let mut out = [0.0];
        assert_eq!(fmu.lib.fmi2GetRealOutputDerivatives(c, [W].as_ptr(), 1, order.as_ptr(), out.as_mut_ptr()), ERROR);
        assert!(fmu.last_error().contains("maxOutputDerivativeOrder"));
        assert_eq!(
            fmu.lib.fmi2GetDirectionalDerivative(c, [W].as_ptr(), 1, vr.as_ptr(), 1, value.as_ptr(), out.as_mut_ptr()),
            ERROR
        );
        assert!(fmu.last_error().contains("providesDirectionalDerivative"));
        assert_eq!(fmu.lib.fmi2CancelStep(c), ERROR);
        let mut status = 0u32;
        assert_eq!(fmu.lib.fmi2GetStatus(c, 0, &mut status), DISCARD);
        let mut terminated = 1;
        assert_eq!(fmu.lib.fmi2GetBooleanStatus(c, 3, &mut terminated), OK);
        assert_eq!(terminated, 0);
        fmu.lib.fmi2FreeInstance(c);
    }
}

#[test]
fn serialized_state_is_checked() {
    for id in identifiers() {
        let fmu = RawFmu::load(id);
        unsafe {
            let c = fmu.initialized("state");
            let mut state = null_mut();
            assert_eq!(fmu.lib.fmi2GetFMUstate(c, &mut state), OK);
            let mut size = 0;
            assert_eq!(fmu.lib.fmi2SerializedFMUstateSize(c, state, &mut size), OK);
            let mut bytes = vec![0 as std::ffi::c_char; size];
            assert_eq!(fmu.lib.fmi2SerializeFMUstate(c, state, bytes.as_mut_ptr(), size), OK);
            assert_eq!(fmu.lib.fmi2SerializeFMUstate(c, state, bytes.as_mut_ptr(), size - 1), ERROR);
            // A buffer larger than the state is fine, however large: even
            // past the bound on array counts (16 Mi elements).
            if id == identifiers()[0] {
                let mut big = vec![0 as std::ffi::c_char; fmu::ffi::MAX_ARRAY_LEN + 1];
                assert_eq!(fmu.lib.fmi2SerializeFMUstate(c, state, big.as_mut_ptr(), big.len()), OK);
                assert_eq!(big[..size], bytes[..], "{id}: the state at the buffer's start");
            }
            fmu.take_messages();
            let mut restored = null_mut();
            // Truncated at every length, and with a flipped magic byte.
            for n in 0..size {
                assert_eq!(
                    fmu.lib.fmi2DeSerializeFMUstate(c, bytes.as_ptr(), n, &mut restored),
                    ERROR,
                    "{id}: {n} bytes"
                );
            }
            assert!(fmu.last_error().contains("truncated"));
            let mut bad = bytes.clone();
            bad[0] ^= 0x55;
            assert_eq!(fmu.lib.fmi2DeSerializeFMUstate(c, bad.as_ptr(), size, &mut restored), ERROR);
            assert!(fmu.last_error().contains("bad magic"));
            // A state from another model is refused by its GUID.
            for other in identifiers().into_iter().filter(|o| *o != id) {
                let o = RawFmu::load(other);
                let oc = o.initialized("other");
                let mut os = null_mut();
                assert_eq!(o.lib.fmi2GetFMUstate(oc, &mut os), OK);
                let mut osize = 0;
                assert_eq!(o.lib.fmi2SerializedFMUstateSize(oc, os, &mut osize), OK);
                let mut obytes = vec![0 as std::ffi::c_char; osize];
                assert_eq!(o.lib.fmi2SerializeFMUstate(oc, os, obytes.as_mut_ptr(), osize), OK);
                assert_eq!(fmu.lib.fmi2DeSerializeFMUstate(c, obytes.as_ptr(), osize, &mut restored), ERROR);
                assert!(fmu.last_error().contains("GUID"));
                o.lib.fmi2FreeInstance(oc);
            }
            // A pointer that is not one of this instance's states.
            let mut fake = [0u64; 16];
            assert_eq!(fmu.lib.fmi2SetFMUstate(c, fake.as_mut_ptr() as *mut _), ERROR);
            assert_eq!(fmu.lib.fmi2DeSerializeFMUstate(c, bytes.as_ptr(), size, &mut restored), OK);
            assert_eq!(fmu.lib.fmi2SetFMUstate(c, restored), OK);
            assert_eq!(fmu.lib.fmi2FreeFMUstate(c, &mut restored), OK);
            assert!(restored.is_null());
            assert_eq!(fmu.lib.fmi2FreeFMUstate(c, &mut state), OK);
            fmu.lib.fmi2FreeInstance(c);
        }
    }
}

#[test]
fn logging_honours_categories_and_reports_stick_events_with_time() {
    let fmu = RawFmu::load("HillFrictionInertia");
    unsafe {
        // Coasting from w_start = 1 rad/s (the bodies start at rest by default).
        let c = fmu.instantiate("log");
        assert_eq!(fmu.lib.fmi2SetReal(c, [W_START].as_ptr(), 1, [1.0].as_ptr()), OK);
        assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
        assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), OK);
        // Off by default (loggingOn = false): coasting to rest logs nothing.
        for k in 0..100 {
            assert_eq!(fmu.lib.fmi2DoStep(c, k as f64 * 0.02, 0.02, 1), OK);
        }
        assert!(fmu.take_messages().is_empty());
        assert_eq!(fmu.lib.fmi2Reset(c), OK);
        // Unknown names are a warning; the known ones are applied.
        let unknown = [c"logStatusWarning".as_ptr(), c"logNothing".as_ptr()];
        assert_eq!(fmu.lib.fmi2SetDebugLogging(c, 1, 2, unknown.as_ptr()), WARNING);
        let warned = fmu.take_messages();
        assert!(
            warned.iter().any(|m| m.category == "logStatusWarning" && m.text.contains("\"logNothing\"")),
            "{warned:?}"
        );
        let events = [c"logEvents".as_ptr()];
        let warnings = [c"logStatusWarning".as_ptr()];
        assert_eq!(fmu.lib.fmi2SetDebugLogging(c, 0, 1, warnings.as_ptr()), OK);
        assert_eq!(fmu.lib.fmi2SetDebugLogging(c, 1, 1, events.as_ptr()), OK);
        assert_eq!(fmu.lib.fmi2SetReal(c, [W_START].as_ptr(), 1, [1.0].as_ptr()), OK);
        assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
        assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), OK);
        for k in 0..100 {
            assert_eq!(fmu.lib.fmi2DoStep(c, k as f64 * 0.02, 0.02, 1), OK);
        }
        let messages = fmu.take_messages();
        assert_eq!(messages.len(), 1, "{messages:?}");
        let m = &messages[0];
        assert_eq!((m.category.as_str(), m.status, m.instance.as_str()), ("logEvents", OK, "log"));
        // w_start = 1 rad/s, F_c = 1 N.m, J = 1 kg.m2: at rest at t = 1 s.
        assert!(m.text.starts_with("t = 1 s:") && m.text.contains("mode 1 -> 0 (stuck)"), "{}", m.text);
        fmu.lib.fmi2FreeInstance(c);
    }
}

/// The event log gives the instant the model located inside the step, not
/// the step's end (issue 29): coasting from 1 rad/s against F_c = 1 N.m with
/// J = 1 stops at 1 s, inside the 0.03 s step from 0.99 s (its end 1.02 s);
/// with 0.4 s steps, inside the step from 0.8 s; ClutchStickSlip's lock
/// inside its step likewise (w1 = 10 -> 5 rad/s at 0.5 s, steps of 0.3 s).
#[test]
fn the_event_log_gives_the_instant_inside_the_step() {
    for (id, start, h, steps, expected) in [
        ("HillFrictionInertia", vec![(W_START, 1.0)], 0.03, 40, "t = 1 s: HillFrictionInertia mode 1 -> 0 (stuck)"),
        ("HillFrictionInertia", vec![(W_START, 1.0)], 0.4, 3, "t = 1 s: HillFrictionInertia mode 1 -> 0 (stuck)"),
        ("ClutchStickSlip", vec![], 0.3, 3, "t = 0.5 s: ClutchStickSlip locked 0 -> 1 (locked)"),
    ] {
        let fmu = RawFmu::load(id);
        unsafe {
            let c = fmu.instantiate("instant");
            let events = [c"logEvents".as_ptr()];
            assert_eq!(fmu.lib.fmi2SetDebugLogging(c, 1, 1, events.as_ptr()), OK);
            for (vr, x) in &start {
                assert_eq!(fmu.lib.fmi2SetReal(c, vr, 1, x), OK);
            }
            assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
            assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
            assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), OK);
            for k in 0..steps {
                assert_eq!(fmu.lib.fmi2DoStep(c, k as f64 * h, h, 1), OK);
            }
            let messages = fmu.take_messages();
            assert!(messages.iter().any(|m| m.text == expected), "{id}, h = {h}: {messages:?}");
            fmu.lib.fmi2FreeInstance(c);
        }
    }
}

#[test]
fn switching_one_category_off_after_all_on_silences_it() {
    let fmu = RawFmu::load("HillFrictionInertia");
    unsafe {
        let c = fmu.instantiate("log-off");
        assert_eq!(fmu.lib.fmi2SetDebugLogging(c, 1, 0, null()), OK);
        let events = [c"logEvents".as_ptr()];
        assert_eq!(fmu.lib.fmi2SetDebugLogging(c, 0, 1, events.as_ptr()), OK);
        assert_eq!(fmu.lib.fmi2SetReal(c, [W_START].as_ptr(), 1, [1.0].as_ptr()), OK);
        assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
        assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), OK);
        for k in 0..100 {
            assert_eq!(fmu.lib.fmi2DoStep(c, k as f64 * 0.02, 0.02, 1), OK);
        }
        let messages = fmu.take_messages();
        assert!(messages.iter().all(|m| m.category != "logEvents"), "{messages:?}");
        fmu.lib.fmi2FreeInstance(c);
    }
}

/// A step whose result is not finite fails with fmi2Error, leaves the model
/// and the time where they were (fmi2LastSuccessfulTime = start of the
/// step), and only reset, getters and FMU states are accepted after it.
#[test]
fn a_failed_step_leaves_the_model_at_its_start() {
    let fmu = RawFmu::load("HillFrictionInertia");
    unsafe {
        let c = fmu.instantiate("fail");
        assert_eq!(fmu.lib.fmi2SetReal(c, [J, TAU, W_START].as_ptr(), 3, [1e-300, 1e300, 1.0].as_ptr()), OK);
        assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
        assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), OK);
        let mut state = null_mut();
        assert_eq!(fmu.lib.fmi2GetFMUstate(c, &mut state), OK);
        assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, 0.01, 1), ERROR);
        let text = fmu.last_error();
        assert!(text.contains("became inf") && text.contains("left at t = 0 s"), "{text}");
        let mut w = [f64::NAN];
        assert_eq!(fmu.lib.fmi2GetReal(c, [W].as_ptr(), 1, w.as_mut_ptr()), OK);
        assert_eq!(w[0], 1.0, "w_start kept: the model is back where it was");
        assert_eq!(fmu.lib.fmi2Terminate(c), ERROR, "no terminate from the error state");
        assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, 0.01, 1), ERROR);
        // A saved state lifts the instance out of the error state.
        assert_eq!(fmu.lib.fmi2SetFMUstate(c, state), OK);
        assert_eq!(fmu.lib.fmi2SetReal(c, [TAU].as_ptr(), 1, [0.0].as_ptr()), OK);
        assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, 0.01, 1), OK);
        assert_eq!(fmu.lib.fmi2FreeFMUstate(c, &mut state), OK);
        fmu.lib.fmi2FreeInstance(c);
    }
}

/// fmi2SetFMUstate restores the instance as it was saved, its call-sequence
/// state included (as the Reference FMUs do): a state from before
/// initialization takes an initialized instance back to `instantiated`, and
/// a state saved after a step, serialized, restores into a fresh instance
/// right after fmi2Instantiate (a warm start) and steps on from there.
#[test]
fn set_fmu_state_takes_over_the_saved_call_sequence_state() {
    const PHI_OF_BASELINE: u32 = 2;
    let fmu = RawFmu::load("ConventionalCoulombBaseline");
    unsafe {
        let c = fmu.instantiate("phase");
        let mut early = null_mut();
        assert_eq!(fmu.lib.fmi2GetFMUstate(c, &mut early), OK);
        assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
        assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), OK);
        let mut late = null_mut();
        assert_eq!(fmu.lib.fmi2GetFMUstate(c, &mut late), OK);
        assert_eq!(fmu.lib.fmi2SetFMUstate(c, early), OK);
        assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, 0.1, 1), ERROR, "back in instantiated: no step");
        assert!(fmu.last_error().contains("not allowed in state instantiated"), "{}", fmu.last_error());
        assert_eq!(fmu.lib.fmi2SetFMUstate(c, late), OK);
        // Pushed past breakaway, so that the step moves the body.
        assert_eq!(fmu.lib.fmi2SetReal(c, [TAU].as_ptr(), 1, [3.0].as_ptr()), OK);
        assert_eq!(fmu.lib.fmi2GetFMUstate(c, &mut late), OK);
        assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, 0.1, 1), OK, "stepComplete again, at t = 0");
        let mut after_step = [0.0; 2];
        assert_eq!(fmu.lib.fmi2GetReal(c, [PHI_OF_BASELINE, W].as_ptr(), 2, after_step.as_mut_ptr()), OK);
        // Deserializing into a live state overwrites it in place.
        let mut size = 0;
        assert_eq!(fmu.lib.fmi2SerializedFMUstateSize(c, late, &mut size), OK);
        let mut bytes = vec![0 as std::ffi::c_char; size];
        assert_eq!(fmu.lib.fmi2SerializeFMUstate(c, late, bytes.as_mut_ptr(), size), OK);
        let before = late;
        assert_eq!(fmu.lib.fmi2DeSerializeFMUstate(c, bytes.as_ptr(), size, &mut late), OK);
        assert_eq!(late, before);
        // A fresh instance takes the serialized state right after instantiation.
        let fresh = fmu.instantiate("fresh");
        let mut restored = null_mut();
        assert_eq!(fmu.lib.fmi2DeSerializeFMUstate(fresh, bytes.as_ptr(), size, &mut restored), OK);
        assert_eq!(fmu.lib.fmi2SetFMUstate(fresh, restored), OK);
        assert_eq!(fmu.lib.fmi2DoStep(fresh, 0.0, 0.1, 1), OK, "stepComplete, taken over");
        let mut fresh_step = [0.0; 2];
        assert_eq!(fmu.lib.fmi2GetReal(fresh, [PHI_OF_BASELINE, W].as_ptr(), 2, fresh_step.as_mut_ptr()), OK);
        assert!(after_step[1] > 0.0, "the step moved the body: {after_step:?}");
        assert_eq!(fresh_step.map(f64::to_bits), after_step.map(f64::to_bits), "the same step, bit for bit");
        assert_eq!(fmu.lib.fmi2FreeFMUstate(fresh, &mut restored), OK);
        fmu.lib.fmi2FreeInstance(fresh);
        assert_eq!(fmu.lib.fmi2FreeFMUstate(c, &mut early), OK);
        assert_eq!(fmu.lib.fmi2FreeFMUstate(c, &mut late), OK);
        fmu.lib.fmi2FreeInstance(c);
    }
}

/// Memoryless friction elements answer a new w_rel at once (declared as a
/// direct dependency); Dahl's element, which has state, in the next step.
#[test]
fn element_outputs_follow_their_declared_dependencies() {
    for (model, feedthrough) in [("MajdSimaanElement", true), ("StribeckElement", true), ("DahlElement", false)] {
        let fmu = RawFmu::load(model);
        let vars = (fmu::registry::get(model).variables)();
        let vr = |name: &str| vars.iter().find(|v| v.name == name).unwrap().value_reference;
        let (w_rel, torque) = ([vr("w_rel")], [vr("tau_friction")]);
        unsafe {
            let c = fmu.instantiate("element");
            assert_eq!(fmu.lib.fmi2SetReal(c, w_rel.as_ptr(), 1, [1.0].as_ptr()), OK);
            assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
            assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
            let mut f = [0.0];
            assert_eq!(fmu.lib.fmi2GetReal(c, torque.as_ptr(), 1, f.as_mut_ptr()), OK);
            assert_eq!(f[0] != 0.0, feedthrough, "{model}: initial output for w_rel = 1");
            assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), OK);
            assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, 0.01, 1), OK);
            let mut before = [0.0];
            assert_eq!(fmu.lib.fmi2GetReal(c, torque.as_ptr(), 1, before.as_mut_ptr()), OK);
            assert_eq!(fmu.lib.fmi2SetReal(c, w_rel.as_ptr(), 1, [-1.0].as_ptr()), OK);
            let mut after = [0.0];
            assert_eq!(fmu.lib.fmi2GetReal(c, torque.as_ptr(), 1, after.as_mut_ptr()), OK);
            assert_eq!(after[0] == -before[0], feedthrough, "{model}: {} then {}", before[0], after[0]);
            fmu.lib.fmi2FreeInstance(c);
        }
        let xml = (fmu::registry::get(model).model_description)();
        // Dahl's output is its state in Model Exchange: it depends on
        // itself there, and on w_rel in neither interface.
        let declared = if feedthrough {
            "<Unknown index=\"2\" dependencies=\"1\"/>"
        } else {
            "<Unknown index=\"2\" dependencies=\"2\"/>"
        };
        assert!(xml.contains(declared), "{model}");
    }
}
