//! Bad input, abuse and concurrency, table-driven over every model: a new
//! model is covered without new test code. Calls go straight to the C ABI
//! of each built FMU binary.

use fmu::description::{Causality, VariableInfo};
use fmu_tests::raw::{RawFmu, ERROR, OK};
use std::ptr::{null, null_mut};

fn models() -> Vec<(&'static str, Vec<VariableInfo>)> {
    fmu::registry::MODELS.iter().map(|m| (m.info.identifier, (m.variables)())).collect()
}

/// Values that break a variable's declared rules, with words the error
/// message must contain.
fn bad_values(v: &VariableInfo) -> Vec<(f64, &'static str)> {
    let mut bad =
        vec![(f64::NAN, "must be finite"), (f64::INFINITY, "must be finite"), (f64::NEG_INFINITY, "must be finite")];
    if let Some(min) = v.min {
        bad.push((if v.exclusive_min { min } else { min - 1.0 }, "must be"));
        bad.push((min - 1e6, "must be"));
    }
    if let Some(max) = v.max {
        bad.push((max + 0.5, "must be"));
    }
    bad
}

#[test]
fn every_settable_real_refuses_non_finite_and_out_of_range_values_and_keeps_its_value() {
    for (id, variables) in models() {
        let fmu = RawFmu::load(id);
        unsafe {
            let c = fmu.instantiate("bad-values");
            for v in variables.iter().filter(|v| v.type_name == "Real" && v.causality != Causality::Output) {
                for (x, words) in bad_values(v) {
                    assert_eq!(fmu.lib.fmi2SetReal(c, &v.value_reference, 1, &x), ERROR, "{id}.{} = {x}", v.name);
                    let text = fmu.last_error();
                    assert!(
                        text.starts_with("fmi2SetReal: ") && text.contains(v.name) && text.contains(words),
                        "{id}.{} = {x}: {text}",
                        v.name
                    );
                }
            }
            // Nothing was applied: every value is still its start value.
            assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
            assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
            for v in variables.iter().filter(|v| v.type_name == "Real" && v.causality != Causality::Output) {
                let mut x = f64::NAN;
                assert_eq!(fmu.lib.fmi2GetReal(c, &v.value_reference, 1, &mut x), OK);
                assert_eq!(x, v.start, "{id}.{}", v.name);
            }
            assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), OK, "{id}: start values pass the model's rules");
            fmu.lib.fmi2FreeInstance(c);
        }
    }
}

#[test]
fn integers_outside_their_range_and_outputs_are_refused() {
    for (id, variables) in models() {
        let fmu = RawFmu::load(id);
        unsafe {
            let c = fmu.instantiate("ranges");
            for v in &variables {
                match (v.type_name, v.causality) {
                    ("Integer", Causality::Parameter) => {
                        for bad in [v.min.unwrap() as i32 - 1, v.max.unwrap() as i32 + 1, i32::MIN, i32::MAX] {
                            assert_eq!(
                                fmu.lib.fmi2SetInteger(c, &v.value_reference, 1, &bad),
                                ERROR,
                                "{id}.{} = {bad}",
                                v.name
                            );
                            assert!(fmu.last_error().contains(v.name));
                        }
                    }
                    (_, Causality::Output) => {
                        let status = match v.type_name {
                            "Real" => fmu.lib.fmi2SetReal(c, &v.value_reference, 1, &1.0),
                            "Integer" => fmu.lib.fmi2SetInteger(c, &v.value_reference, 1, &1),
                            _ => fmu.lib.fmi2SetBoolean(c, &v.value_reference, 1, &1),
                        };
                        assert_eq!(status, ERROR, "{id}.{}", v.name);
                        assert!(fmu.last_error().contains("outputs are computed by the FMU"));
                    }
                    _ => {}
                }
            }
            // Unknown value references (past the declared variables and the
            // derivatives of Model Exchange) and NULL arrays.
            let unknown = variables.len() as u32 + 64;
            let mut x = 0.0;
            assert_eq!(fmu.lib.fmi2SetReal(c, &unknown, 1, &1.0), ERROR);
            assert!(fmu.last_error().contains(&format!("value reference {unknown} does not exist")));
            assert_eq!(fmu.lib.fmi2SetReal(c, &0, 1, null()), ERROR);
            assert!(fmu.last_error().contains("value is NULL"));
            let c2 = fmu.initialized("ranges-2");
            assert_eq!(fmu.lib.fmi2GetReal(c2, &unknown, 1, &mut x), ERROR);
            assert_eq!(fmu.lib.fmi2GetReal(c2, null(), 1, &mut x), ERROR);
            assert_eq!(fmu.lib.fmi2GetReal(c2, &0, 1, null_mut()), ERROR);
            fmu.take_messages();
            fmu.lib.fmi2FreeInstance(c);
            fmu.lib.fmi2FreeInstance(c2);
        }
    }
}

#[test]
fn parameters_are_frozen_after_initialization_and_steps_are_checked() {
    for (id, variables) in models() {
        let fmu = RawFmu::load(id);
        unsafe {
            let c = fmu.initialized("frozen");
            for v in variables.iter().filter(|v| v.causality == Causality::Parameter && v.type_name == "Real") {
                assert_eq!(fmu.lib.fmi2SetReal(c, &v.value_reference, 1, &v.start), ERROR, "{id}.{}", v.name);
                assert!(fmu.last_error().contains("cannot be set after initialization"));
            }
            for (t, h) in [
                (0.0, 0.0),
                (0.0, -1.0),
                (0.0, f64::NAN),
                (0.0, f64::INFINITY),
                (f64::NAN, 0.1),
                (1.0, 0.1),
                (-1e-3, 0.1),
            ] {
                assert_eq!(fmu.lib.fmi2DoStep(c, t, h, 1), ERROR, "{id}: doStep({t}, {h})");
                assert!(fmu.last_error().starts_with("fmi2DoStep: "));
            }
            // Still usable after all those refusals.
            assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, 0.1, 1), OK, "{id}");
            // A huge but feasible step finishes (in bounded time) with finite values.
            assert_eq!(fmu.lib.fmi2DoStep(c, 0.1, 1e4, 1), OK, "{id}: 1e4 s step");
            // A step whose end overflows is refused (start 1e308, step 1e308).
            let far = fmu.instantiate("far");
            // Models exact over any step (one internal step per doStep) have no internal_step.
            let internal_step = variables.iter().find(|v| v.name == "internal_step");
            if let Some(v) = internal_step {
                assert_eq!(fmu.lib.fmi2SetReal(far, &v.value_reference, 1, &1e308), OK);
            }
            assert_eq!(fmu.lib.fmi2SetupExperiment(far, 0, 0.0, 1e308, 0, 0.0), OK);
            assert_eq!(fmu.lib.fmi2EnterInitializationMode(far), OK);
            if let (false, Some(v)) = (fmu.lib.fmi2ExitInitializationMode(far) == OK, internal_step) {
                let step_vr = v.value_reference;
                // A stability bound refuses so large an internal step (Dahl).
                let default = variables.iter().find(|v| v.name == "internal_step").unwrap().start;
                assert_eq!(fmu.lib.fmi2SetReal(far, &step_vr, 1, &default), OK);
                assert_eq!(fmu.lib.fmi2ExitInitializationMode(far), OK, "{id}");
            }
            assert_eq!(fmu.lib.fmi2DoStep(far, 1e308, 1e308, 1), ERROR, "{id}: overflow");
            let text = fmu.last_error();
            assert!(text.contains("overflows"), "{id}: {text}");
            let mut t = 0.0;
            assert_eq!(fmu.lib.fmi2GetRealStatus(far, 2, &mut t), OK);
            assert_eq!(t, 1e308, "{id}: time unchanged");
            fmu.lib.fmi2FreeInstance(far);
            for v in variables.iter().filter(|v| v.type_name == "Real") {
                let mut x = f64::NAN;
                assert_eq!(fmu.lib.fmi2GetReal(c, &v.value_reference, 1, &mut x), OK);
                assert!(x.is_finite(), "{id}.{} = {x} after a 1e4 s step", v.name);
            }
            fmu.take_messages();
            fmu.lib.fmi2FreeInstance(c);
        }
    }
}

/// Every message any of these calls produced had a category and the
/// instance name (checked in the logger of `RawFmu`); here: a message never
/// arrives with a NULL category even for an instance that failed to start.
#[test]
fn messages_always_carry_category_and_instance_name() {
    for (id, _) in models() {
        let fmu = RawFmu::load(id);
        unsafe {
            let wrong = c"{nope}";
            assert!(fmu
                .lib
                .fmi2Instantiate(c"named".as_ptr(), 1, wrong.as_ptr(), null(), fmu.callbacks(), 0, 1)
                .is_null());
            let messages = fmu.take_messages();
            assert_eq!(messages.len(), 1);
            assert_eq!((messages[0].category.as_str(), messages[0].instance.as_str()), ("logStatusError", "named"));
        }
    }
}

/// N instances stepped on N threads give exactly what the same runs give
/// one after another.
#[test]
fn instances_on_threads_match_sequential_runs() {
    struct Shared(RawFmu);
    // SAFETY: the binding and callbacks are only read; the logger's sink is a Mutex.
    unsafe impl Sync for Shared {}
    impl Shared {
        fn get(&self) -> &RawFmu {
            &self.0
        }
    }

    fn run(fmu: &RawFmu, first_input_vr: u32, input: f64, outputs: &[u32]) -> Vec<u64> {
        let mut trace = Vec::new();
        unsafe {
            let c = fmu.instantiate("thread");
            assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
            assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
            assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), OK);
            for k in 0..2000 {
                let u = input * ((k as f64) * 0.01).sin();
                assert_eq!(fmu.lib.fmi2SetReal(c, &first_input_vr, 1, &u), OK);
                assert_eq!(fmu.lib.fmi2DoStep(c, k as f64 * 1e-3, 1e-3, 1), OK);
                for vr in outputs {
                    let mut x = 0.0;
                    assert_eq!(fmu.lib.fmi2GetReal(c, vr, 1, &mut x), OK);
                    trace.push(x.to_bits());
                }
            }
            fmu.lib.fmi2FreeInstance(c);
        }
        trace
    }

    for (id, variables) in models() {
        let shared = Shared(RawFmu::load(id));
        let input = variables
            .iter()
            .find(|v| v.causality == Causality::Input && v.type_name == "Real")
            .unwrap()
            .value_reference;
        let outputs: Vec<u32> = variables
            .iter()
            .filter(|v| v.causality == Causality::Output && v.type_name == "Real")
            .map(|v| v.value_reference)
            .collect();
        let amplitudes = [0.3, 1.1, 2.5, 7.0];
        let sequential: Vec<Vec<u64>> = amplitudes.iter().map(|&a| run(&shared.0, input, a, &outputs)).collect();
        let (sh, outs) = (&shared, &outputs);
        let parallel: Vec<Vec<u64>> = std::thread::scope(|s| {
            let handles: Vec<_> = amplitudes.iter().map(|&a| s.spawn(move || run(sh.get(), input, a, outs))).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(sequential, parallel, "{id}");
    }
}

/// Rules that tie parameters together, checked on leaving initialization:
/// every refusal a model states (`Behaviour::refusals`, in its folder: static
/// >= Coulomb, stability of an internal step, a start inside the stops, the
/// shaft's substep rule), with words the message must contain.
#[test]
fn cross_parameter_rules_are_enforced_on_every_model_that_has_them() {
    let mut stated = 0;
    for (id, variables) in models() {
        for refusal in fmu::registry::get(id).info.behaviour.refusals {
            stated += 1;
            let (assignments, words) = (refusal.set, refusal.because);
            let fmu = RawFmu::load(id);
            unsafe {
                let c = fmu.instantiate("rules");
                for (name, value) in assignments.iter() {
                    let vr = variables.iter().find(|v| v.name == *name).unwrap().value_reference;
                    assert_eq!(fmu.lib.fmi2SetReal(c, &vr, 1, value), OK, "{id}.{name}");
                }
                assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
                assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
                assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), ERROR, "{id}");
                let text = fmu.last_error();
                assert!(text.starts_with("fmi2ExitInitializationMode: ") && text.contains(words), "{id}: {text}");
                // Reading outputs meanwhile is refused with the same reason.
                let output =
                    variables.iter().find(|v| v.causality == Causality::Output && v.type_name == "Real").unwrap();
                let mut x = 0.0;
                assert_eq!(fmu.lib.fmi2GetReal(c, &output.value_reference, 1, &mut x), ERROR);
                assert!(fmu.last_error().contains(words));
                fmu.lib.fmi2FreeInstance(c);
            }
        }
    }
    // The kinds of rule above, stated by 17 models today: a floor, so that
    // losing the statements does not pass silently.
    assert!(stated >= 17, "only {stated} refusals stated");
}

/// A rule about Co-Simulation's internal step is not Model Exchange's: there
/// the importer's solver integrates and `internal_step` is unused. Every
/// internal-step rule a model states (`Refusal::of_internal_step`), set on a Model Exchange instance,
/// leaves initialization with fmi2OK (issue 29: `k_shaft` = 1e4 with `J` =
/// 0.01 was refused there).
#[test]
fn internal_step_rules_apply_to_co_simulation_only() {
    use fmi::fmi2::binding;
    let mut cases = Vec::new();
    for (id, variables) in models() {
        let entry = fmu::registry::get(id);
        for refusal in entry.info.behaviour.refusals.iter().filter(|r| r.co_simulation_only) {
            assert!(entry.model_exchange, "{id}: a rule of Co-Simulation's internal step without Model Exchange");
            cases.push((id, variables.clone(), refusal.set));
        }
    }
    // Seven models state one today (a floor, as above).
    assert!(cases.len() >= 7, "only {} internal-step rules stated", cases.len());
    for (id, variables, assignments) in cases {
        let fmu = RawFmu::load(id);
        let interfaces = [(binding::fmi2Type_fmi2CoSimulation, ERROR), (binding::fmi2Type_fmi2ModelExchange, OK)];
        for (fmu_type, expected) in interfaces {
            unsafe {
                let c = fmu.instantiate_as("internal-step", fmu_type);
                assert!(!c.is_null(), "{id}");
                for (name, value) in assignments.iter() {
                    let vr = variables.iter().find(|v| v.name == *name).unwrap().value_reference;
                    assert_eq!(fmu.lib.fmi2SetReal(c, &vr, 1, value), OK, "{id}.{name}");
                }
                assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
                assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
                let status = fmu.lib.fmi2ExitInitializationMode(c);
                assert_eq!(status, expected, "{id} (fmuType {fmu_type}): {}", fmu.last_error());
                if expected == ERROR {
                    assert!(fmu.last_error().contains("internal_step"), "{id}: {}", fmu.last_error());
                }
                fmu.lib.fmi2FreeInstance(c);
            }
        }
    }
}

/// Every function given a NULL component fails cleanly (or, for the
/// functions without a component, does what it should).
#[test]
fn a_null_component_is_refused_by_every_function() {
    let fmu = RawFmu::load("HillFrictionInertia");
    let (l, c) = (&fmu.lib, null_mut());
    let (mut r, mut i, mut b, mut s, mut st) = (0.0, 0, 0, null(), null_mut());
    let mut size = 0usize;
    let mut status = 0u32;
    let vr = 0u32;
    unsafe {
        let results = [
            l.fmi2SetDebugLogging(c, 1, 0, null()),
            l.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0),
            l.fmi2EnterInitializationMode(c),
            l.fmi2ExitInitializationMode(c),
            l.fmi2Terminate(c),
            l.fmi2Reset(c),
            l.fmi2GetReal(c, &vr, 1, &mut r),
            l.fmi2GetInteger(c, &vr, 1, &mut i),
            l.fmi2GetBoolean(c, &vr, 1, &mut b),
            l.fmi2GetString(c, &vr, 1, &mut s),
            l.fmi2SetReal(c, &vr, 1, &r),
            l.fmi2SetInteger(c, &vr, 1, &i),
            l.fmi2SetBoolean(c, &vr, 1, &b),
            l.fmi2SetString(c, &vr, 1, &s),
            l.fmi2GetFMUstate(c, &mut st),
            l.fmi2SetFMUstate(c, st),
            l.fmi2FreeFMUstate(c, &mut st),
            l.fmi2SerializedFMUstateSize(c, st, &mut size),
            l.fmi2SerializeFMUstate(c, st, null_mut(), 0),
            l.fmi2DeSerializeFMUstate(c, null(), 0, &mut st),
            l.fmi2GetDirectionalDerivative(c, &vr, 1, &vr, 1, &r, &mut r),
            l.fmi2SetRealInputDerivatives(c, &vr, 1, &i, &r),
            l.fmi2GetRealOutputDerivatives(c, &vr, 1, &i, &mut r),
            l.fmi2DoStep(c, 0.0, 0.1, 1),
            l.fmi2CancelStep(c),
            l.fmi2GetStatus(c, 0, &mut status),
            l.fmi2GetRealStatus(c, 2, &mut r),
            l.fmi2GetIntegerStatus(c, 0, &mut i),
            l.fmi2GetBooleanStatus(c, 3, &mut b),
            l.fmi2GetStringStatus(c, 1, &mut s),
        ];
        assert!(results.iter().all(|&x| x == ERROR), "{results:?}");
        l.fmi2FreeInstance(c); // a no-op, no crash
        assert!(!l.fmi2GetVersion().is_null() && !l.fmi2GetTypesPlatform().is_null());
        assert!(fmu.take_messages().is_empty(), "no instance, hence no logger to call");
    }
}

/// FMI 2.0 conformance found by a call-sequence harness, on every model: a
/// blank instance name, a step past a defined stopTime and an unusable
/// defined tolerance are refused with a message; the instance stays usable.
#[test]
fn blank_names_steps_past_stop_time_and_bad_tolerances_are_refused() {
    for (id, _) in models() {
        let fmu = RawFmu::load(id);
        unsafe {
            for name in [c"", c" ", c" \t\n "] {
                let c = fmu.lib.fmi2Instantiate(name.as_ptr(), 1, fmu.guid.as_ptr(), null(), fmu.callbacks(), 0, 0);
                assert!(c.is_null(), "{id}: instanceName {name:?} accepted");
                let text = fmu.last_error();
                assert!(text.contains("instanceName") && text.contains("must not be empty or blank"), "{id}: {text}");
            }

            let c = fmu.instantiate("tolerance");
            for bad in [-1e-6, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
                assert_eq!(fmu.lib.fmi2SetupExperiment(c, 1, bad, 0.0, 0, 0.0), ERROR, "{id}: tolerance {bad}");
                let text = fmu.last_error();
                assert!(text.contains("tolerance = ") && text.contains("must be finite and >= 0"), "{id}: {text}");
            }
            // Undefined tolerances are ignored whatever their value; 0 and 1e-6 are fine.
            assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, f64::NAN, 0.0, 0, 0.0), OK, "{id}");
            assert_eq!(fmu.lib.fmi2SetupExperiment(c, 1, 0.0, 0.0, 0, 0.0), OK, "{id}");
            assert_eq!(fmu.lib.fmi2SetupExperiment(c, 1, 1e-6, 0.0, 1, 0.3), OK, "{id}");
            assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
            assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), OK, "{id}");
            // 0.1 + 0.1 + 0.1 = 0.30000000000000004: round-off at the last step is accepted.
            let mut t = 0.0;
            for _ in 0..3 {
                assert_eq!(fmu.lib.fmi2DoStep(c, t, 0.1, 1), OK, "{id}: doStep({t}, 0.1) up to stopTime 0.3");
                t += 0.1;
            }
            assert_eq!(fmu.lib.fmi2DoStep(c, t, 0.01, 1), ERROR, "{id}: a step past stopTime");
            let text = fmu.last_error();
            // Times read with the digits that matter (0.31, not 0.31000000000000005).
            let end = fmu::text::number(t + 0.01);
            assert!(text.contains("stopTime = 0.3 s") && text.contains(&format!("to {end} s")), "{id}: {text}");
            let mut now = f64::NAN;
            assert_eq!(fmu.lib.fmi2GetRealStatus(c, 2, &mut now), OK);
            assert_eq!(now, t, "{id}: time unchanged by the refused step");
            // Reset forgets the stop time.
            assert_eq!(fmu.lib.fmi2Reset(c), OK);
            assert_eq!(fmu.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
            assert_eq!(fmu.lib.fmi2EnterInitializationMode(c), OK);
            assert_eq!(fmu.lib.fmi2ExitInitializationMode(c), OK);
            assert_eq!(fmu.lib.fmi2DoStep(c, 0.0, 1.0, 1), OK, "{id}: no stopTime after reset");
            fmu.take_messages();
            fmu.lib.fmi2FreeInstance(c);
        }
    }
}
