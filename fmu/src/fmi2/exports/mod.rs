//! The 44 `fmi2*` functions of FMI 2.0: the 34 an importer binds for
//! Co-Simulation and the 10 more of Model Exchange (one binary, both
//! interfaces, the interface chosen by `fmuType` at instantiation), each
//! exported from a model's binary through its row in [`table`].
//!
//! Each one: computes in IEEE 754's default floating-point environment and
//! gives the caller back its own ([`crate::ffi::float_env::CallEnv`]: a host that flushes
//! subnormals or rounds upward gets the results of a default process, bit
//! for bit; a function that does no floating-point work, a `host` row of
//! its table, leaves the host's as it is, and so do Model
//! Exchange's hot calls while they find nothing to compute), catches any panic (no unwinding crosses the C ABI; a panic
//! becomes fmi2Error and poisons the instance), checks the component pointer, the call sequence and
//! every argument, then hands over to the core's [`crate::instance::Instance`]. Nothing here is
//! model specific. Grouped by interface: [`common`] and [`values`] and
//! [`fmu_state`] for both, [`co_simulation`], [`model_exchange`].

#![allow(non_snake_case)]

mod co_simulation;
mod common;
mod ffi;
mod fmu_state;
mod model_exchange;
pub mod table;
mod values;

pub use co_simulation::*;
pub use common::*;
pub use fmu_state::*;
pub use model_exchange::*;
pub use values::*;

#[cfg(test)]
mod tests {
    //! The panic path, with a model made to panic (no real model does).
    use super::ffi::*;
    use super::*;
    use crate::description::{ModelInfo, Quantity, Variable};
    use crate::instance::ModelBox;
    use crate::model::{Model, Transition};
    use crate::registry;
    use std::ffi::c_void;
    use std::sync::Mutex;

    #[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
    struct Panicky {
        trigger: f64,
    }

    impl Model for Panicky {
        const INFO: ModelInfo = ModelInfo {
            identifier: "Panicky",
            description: "panics in doStep when trigger > 0",
            default_experiment: crate::description::Experiment::new(0.0, 1.0, 0.1),
            default_inputs: &[],
            sources: &[],
            equations: &[],
            behaviour: crate::behaviour::Behaviour::UNSTATED,
            systems: &[],
        };
        const VARIABLES: &'static [Variable<Self>] = &[Variable::<Self>::real_input(
            "trigger",
            "panic when > 0",
            Quantity::Torque,
            0.0,
            |m| m.trigger,
            |m, x| m.trigger = x,
        )];
        fn max_substep(&self) -> f64 {
            0.1
        }
        fn initialize(&mut self) {}
        fn step(&mut self, _dt: f64, _on: &mut dyn FnMut(Transition)) {
            assert!(self.trigger <= 0.0, "deliberate test panic");
        }
    }

    static MESSAGES: Mutex<Vec<String>> = Mutex::new(Vec::new());

    /// Six-argument reading of the variadic logger call (x86-64 System V).
    unsafe extern "C" fn capture(
        _: *mut c_void,
        _: *const c_char,
        _: Status,
        _: *const c_char,
        _: *const c_char,
        text: *const c_char,
    ) {
        // SAFETY: `Log::send` passes a NUL-terminated message as the sixth argument.
        let text = unsafe { CStr::from_ptr(text) };
        MESSAGES.lock().unwrap().push(text.to_string_lossy().into_owned());
    }

    #[test]
    fn a_panic_becomes_fmi2_error_and_leaves_only_reset_and_free() {
        let logger: unsafe extern "C" fn(
            *mut c_void,
            *const c_char,
            Status,
            *const c_char,
            *const c_char,
            *const c_char,
        ) = capture;
        // SAFETY: the x86-64 System V ABI passes the first six arguments of a
        // variadic call as of a fixed-arity one, so `capture` reads them right
        // (see `capture`).
        let logger: Logger = unsafe { std::mem::transmute(logger) };
        let log = log::to_logger(logger, std::ptr::null_mut(), CString::from(c"panicky"), false);
        let c = Box::into_raw(Box::new(Instance::new(
            log,
            &VOCABULARY,
            "{panicky}",
            Box::new(ModelBox::<Panicky>::new()),
            Interface::CoSimulation,
        ))) as Fmi2Component;
        // SAFETY: `c` is a live component made above, freed last; every array
        // argument points at one element.
        unsafe {
            assert_eq!(fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), Status::Ok);
            assert_eq!(fmi2EnterInitializationMode(c), Status::Ok);
            assert_eq!(fmi2ExitInitializationMode(c), Status::Ok);
            assert_eq!(fmi2DoStep(c, 0.0, 0.1, 1), Status::Ok);
            assert_eq!(fmi2SetReal::<AnyModel>(c, &1, 1, &1.0), Status::Ok);
            assert_eq!(fmi2DoStep(c, 0.1, 0.1, 1), Status::Error);
            let last = MESSAGES.lock().unwrap().last().cloned().unwrap();
            assert!(last.contains("fmi2DoStep: internal error (panic): deliberate test panic"), "{last}");
            let mut x = 0.0;
            assert_eq!(fmi2GetReal::<AnyModel>(c, &1, 1, &mut x), Status::Error);
            assert!(MESSAGES
                .lock()
                .unwrap()
                .last()
                .unwrap()
                .contains("only fmi2Reset and fmi2FreeInstance are allowed"));
            let mut state = std::ptr::null_mut();
            assert_eq!(fmi2GetFMUstate(c, &mut state), Status::Error);
            assert_eq!(fmi2Reset(c), Status::Ok);
            assert_eq!(fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), Status::Ok);
            assert_eq!(fmi2EnterInitializationMode(c), Status::Ok);
            assert_eq!(fmi2ExitInitializationMode(c), Status::Ok);
            assert_eq!(fmi2DoStep(c, 0.0, 0.1, 1), Status::Ok, "usable again after reset (start values)");
            fmi2FreeInstance(c);
        }
    }

    /// The one-value read `fmi2GetReal` answers first (in the host's
    /// environment) agrees with the general one for every value reference
    /// of every model: the same bits for a Real variable declared by a
    /// bare field path, and nothing where the general read refuses.
    #[test]
    fn one_value_read_agrees_with_the_general_read() {
        for entry in registry::MODELS {
            let model = (entry.new_instance)();
            let count = (entry.variables)().len() as u32;
            for vr in 0..count + 3 {
                let mut out = [0.0];
                let general = model.get_real(&[vr], &mut out).map(|()| out[0].to_bits());
                if let Some(plain) = model.get_one_plain_real(vr) {
                    assert_eq!(Ok(plain.to_bits()), general, "{} vr {vr}", entry.info.identifier);
                }
            }
        }
        // The plain set (host environment) does what the general set does,
        // where it answers at all, and never takes what that would refuse.
        for entry in registry::MODELS {
            let count = (entry.variables)().len() as u32;
            for vr in 0..count + 3 {
                for initialized in [false, true] {
                    for x in [0.25, -3.0, f64::NAN, f64::INFINITY] {
                        let (mut plain, mut general) = ((entry.new_instance)(), (entry.new_instance)());
                        if plain.set_one_plain_real(vr, x, initialized) {
                            let id = entry.info.identifier;
                            assert!(general.set_real(&[vr], &[x], initialized).is_ok(), "{id} vr {vr} = {x}");
                            assert_eq!(plain.to_bytes(), general.to_bytes(), "{id} vr {vr} = {x}");
                        } else {
                            assert_eq!(
                                plain.to_bytes(),
                                (entry.new_instance)().to_bytes(),
                                "a refusal changes nothing"
                            );
                        }
                        assert!(x.is_finite() || !plain.set_one_plain_real(vr, x, initialized), "{x} is refused");
                    }
                }
            }
        }
        // Which are plain: a bare field (HillFrictionInertia's rate), not a
        // scaled one nor a computed one.
        let plain = |id: &str, name: &str| {
            let entry = registry::get(id);
            let vr = (entry.variables)().iter().find(|v| v.name == name).unwrap().value_reference;
            (entry.new_instance)().get_one_plain_real(vr).is_some()
        };
        assert!(plain("HillFrictionInertia", "w") && plain("HillFrictionInertia", "tau"));
        assert!(plain("AntennaAzimuthServo", "rate"), "a bare field");
        let sets_plainly = |id: &str, name: &str| {
            let entry = registry::get(id);
            let vr = (entry.variables)().iter().find(|v| v.name == name).unwrap().value_reference;
            (entry.new_instance)().set_one_plain_real(vr, 0.5, false)
        };
        assert!(sets_plainly("HillFrictionInertia", "tau"), "an input without a range");
        assert!(!sets_plainly("HillFrictionInertia", "J"), "a parameter with a range is checked");
        assert!(!plain("AntennaAzimuthServo", "motor_pressure"), "a scaled field is computed");
    }
}

/// Model Exchange's hot calls in the host's environment (`computes_if`
/// rows) decide and answer as in IEEE 754's default one, and leave the
/// host's registers as they were, in every host mode, on the values where a
/// floating-point comparison or store would differ: subnormals, signed
/// zeros, a time refused by one subnormal.
#[cfg(all(test, target_arch = "x86_64"))]
mod host_environment {
    use super::ffi::*;
    use super::*;
    use crate::ffi::float_env::{with_host_mxcsr, DEFAULT_MXCSR};
    use crate::instance::Log;

    /// The host modes where a floating-point instruction would answer
    /// otherwise, or trap.
    const HOSTS: [(&str, u32); 5] = [
        ("FTZ + DAZ", DEFAULT_MXCSR | 0x8040),
        ("upward", DEFAULT_MXCSR | 0x4000),
        ("downward", DEFAULT_MXCSR | 0x2000),
        ("toward zero", DEFAULT_MXCSR | 0x6000),
        ("invalid, divide by zero, overflow unmasked", DEFAULT_MXCSR & !0x0680),
    ];

    fn mxcsr() -> u32 {
        #[allow(deprecated)]
        // SAFETY: `stmxcsr` reads MXCSR; SSE is part of x86_64.
        unsafe {
            std::arch::x86_64::_mm_getcsr()
        }
    }

    /// A Model Exchange instance of `id` as fmi2Instantiate makes it, in the
    /// default environment (the start values are computed when the model is
    /// made), and its numbers of states and indicators; freed by the caller.
    fn model_exchange_instance(id: &str) -> (Fmi2Component, usize, usize) {
        let model = with_host_mxcsr(DEFAULT_MXCSR, crate::registry::get(id).new_instance);
        let (nx, ni) = model.hybrid_sizes().expect("a Model Exchange form");
        let c = Box::into_raw(Box::new(Instance::new(Log::silent(), &VOCABULARY, "", model, Interface::ModelExchange)))
            as Fmi2Component;
        (c, nx, ni)
    }

    /// Statuses and output bits of one run of the calls on a Model Exchange
    /// instance of `id`, and whether every call left MXCSR as the host set it.
    fn run(id: &str) -> (Vec<Status>, Vec<u64>, bool) {
        let (c, nx, ni) = model_exchange_instance(id);
        let host = mxcsr();
        let (mut statuses, mut seen) = (Vec::new(), Vec::new());
        let mut kept = true;
        let mut info = EventInfo::default();
        let (mut x, mut dx, mut z) = (vec![0.0; nx], vec![0.0; nx], vec![0.0; ni]);
        // Each set of states: its first values, then the last repeated.
        let states = |values: &[f64]| -> Vec<f64> { (0..nx).map(|i| values[i.min(values.len() - 1)]).collect() };
        // SAFETY: `c` is a live Model Exchange instance made above, freed
        // last; every array has the length passed with it (but the one
        // call that passes nx + 1 on purpose, refused before any access).
        unsafe {
            let mut call = |status: Status, out: &[f64]| {
                statuses.push(status);
                seen.extend(out.iter().map(|v| v.to_bits()));
                kept &= mxcsr() == host;
            };
            call(fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), &[]);
            call(fmi2EnterInitializationMode(c), &[]);
            call(fmi2ExitInitializationMode(c), &[]);
            call(fmi2NewDiscreteStates(c, &mut info), &[]);
            call(fmi2EnterContinuousTimeMode(c), &[]);
            // Committed at 1e-9 s: the earliest time allowed is then 0.0
            // exactly, and -5e-324 is before it (as DAZ would not see).
            call(fmi2SetTime(c, 1e-9), &[]);
            call(fmi2EnterEventMode(c), &[]);
            call(fmi2NewDiscreteStates(c, &mut info), &[]);
            call(fmi2EnterContinuousTimeMode(c), &[]);
            for time in [-5e-324, -0.0, 5e-324, 1e-310, f64::NAN, 2e-9] {
                call(fmi2SetTime(c, time), &[]);
            }
            for values in [&[1e-310, -0.0][..], &[0.3, -5e-324], &[f64::INFINITY, 1.0], &[0.25, 1e-3]] {
                let values = states(values);
                call(fmi2SetContinuousStates::<AnyModel>(c, values.as_ptr(), nx), &[]);
                call(fmi2GetContinuousStates(c, x.as_mut_ptr(), nx), &x);
                call(fmi2GetDerivatives(c, dx.as_mut_ptr(), nx), &dx);
                call(fmi2GetEventIndicators::<AnyModel>(c, z.as_mut_ptr(), ni), &z);
                // Again, now from what the evaluation left.
                call(fmi2GetDerivatives(c, dx.as_mut_ptr(), nx), &dx);
                call(fmi2GetEventIndicators::<AnyModel>(c, z.as_mut_ptr(), ni), &z);
                call(fmi2GetDerivatives(c, dx.as_mut_ptr(), nx + 1), &[]);
            }
            fmi2FreeInstance(c);
        }
        (statuses, seen, kept)
    }

    /// Models with plain states (the hand-marked ones among them) and one
    /// whose states are scaled when set.
    const MODELS: [&str; 6] = [
        "HillFrictionInertia",
        "CoupledClutches",
        "TwoInertiaClutch",
        "LuGreInertia",
        "DahlInertia",
        "AntennaAzimuthServo",
    ];

    #[test]
    fn hot_calls_answer_as_in_the_default_environment_in_any_host() {
        for id in MODELS {
            let (statuses, reference, kept) = with_host_mxcsr(DEFAULT_MXCSR, || run(id));
            assert!(kept, "{id}");
            // The refusals are where IEEE 754 puts them: the times -5e-324
            // (9) and NaN (13), not -0.0 (not before 0.0); the infinite
            // state (29); the derivatives asked for nx + 1 states, once per
            // set (21, 28, 35, 42).
            let refused: Vec<usize> = (0..statuses.len()).filter(|&i| statuses[i] == Status::Error).collect();
            assert_eq!(refused, [9, 13, 21, 28, 29, 35, 42], "{id}: {statuses:?}");
            for (name, host) in HOSTS {
                let (answers, seen, kept) = with_host_mxcsr(host, || run(id));
                assert!(kept, "{id}, {name}: a call changed the host's MXCSR");
                assert_eq!(answers, statuses, "{id}, {name}: statuses differ from the default environment's");
                assert_eq!(seen, reference, "{id}, {name}: values differ from the default environment's");
            }
        }
    }

    /// The evaluation runs in a flushing host's own environment when it
    /// reads and flushes no subnormal, and gives the default's values
    /// either way: per evaluation (new states each), whether it ran there,
    /// and the bits of the derivatives and indicators.
    fn evaluations(id: &str, host: u32) -> (Vec<bool>, Vec<u64>, bool) {
        let (c, nx, ni) = model_exchange_instance(id);
        let (mut in_host, mut seen, mut kept) = (Vec::new(), Vec::new(), true);
        with_host_mxcsr(host, || {
            let mut info = EventInfo::default();
            let (mut dx, mut z) = (vec![0.0; nx], vec![0.0; ni]);
            // Whether each call left MXCSR as it found it (this test's own
            // arithmetic raises flags between calls).
            let mut before = mxcsr();
            let mut ok = |status: Status, before: &mut u32| {
                assert_eq!(status, Status::Ok, "{id}");
                kept &= mxcsr() == *before;
            };
            // SAFETY: `c` is a live Model Exchange instance made above, freed
            // last; every array has the length passed with it.
            unsafe {
                ok(fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), &mut before);
                ok(fmi2EnterInitializationMode(c), &mut before);
                ok(fmi2ExitInitializationMode(c), &mut before);
                ok(fmi2NewDiscreteStates(c, &mut info), &mut before);
                ok(fmi2EnterContinuousTimeMode(c), &mut before);
                // Normal states; one subnormal (the 3rd); normal again.
                for (k, x) in [0.25, 0.5, 1e-310, 0.75, 1.0, 1.25].into_iter().enumerate() {
                    let states: Vec<f64> =
                        (0..nx).map(|i| if i == nx - 1 { x } else { 0.1 * (i + 1) as f64 }).collect();
                    let time = 1e-3 * (k + 1) as f64;
                    before = mxcsr();
                    ok(fmi2SetTime(c, time), &mut before);
                    ok(fmi2SetContinuousStates::<AnyModel>(c, states.as_ptr(), nx), &mut before);
                    ok(fmi2GetDerivatives(c, dx.as_mut_ptr(), nx), &mut before);
                    in_host.push((*(c as *const Instance)).last_call_in_host());
                    ok(fmi2GetEventIndicators::<AnyModel>(c, z.as_mut_ptr(), ni), &mut before);
                    seen.extend(dx.iter().chain(&z).map(|v| v.to_bits()));
                }
                fmi2FreeInstance(c);
            }
        });
        (in_host, seen, kept)
    }

    #[test]
    fn an_evaluation_runs_in_a_flushing_host_unless_a_subnormal_is_involved() {
        for id in [
            "HillFrictionInertia",
            "HillFrictionShaftLoad",
            "TwoInertiaClutch",
            "CoupledClutches",
            "DahlInertia",
            "AntennaAzimuthServo",
            "CmgGimbalRateLoop",
        ] {
            let (in_default, reference, kept) = evaluations(id, DEFAULT_MXCSR);
            assert!(kept && in_default.iter().all(|&x| !x), "{id}");
            let (in_host, seen, kept) = evaluations(id, DEFAULT_MXCSR | 0x8040);
            assert!(kept, "{id}: a call changed the host's MXCSR");
            assert_eq!(seen, reference, "{id}: values differ from the default environment's");
            // The evaluation after the subnormal one may find what that one
            // derived from it (in the default environment) still stored.
            let expected = [true, true, false, in_host[3], true, true];
            assert_eq!(in_host, expected, "{id}: evaluations in the host's environment");
            let (in_host, seen, _) = evaluations(id, DEFAULT_MXCSR | 0x8040 | 0x10);
            assert!(seen == reference && in_host.iter().all(|&x| !x), "{id}: underflow flag raised");
        }
    }

    /// An evaluation whose derivative is subnormal (a frictionless body of
    /// 1e10 kg.m2 under 1e-300 N.m, after one under 1 N.m): flushed in the
    /// host's environment, so evaluated again in the default one, with the
    /// default's bits.
    #[test]
    fn an_evaluation_that_flushes_is_evaluated_again_in_the_default_environment() {
        let derivative = |host: u32| -> (Vec<u64>, [bool; 2]) {
            let entry = crate::registry::get("HillFrictionInertia");
            let variables = (entry.variables)();
            let vr = |name: &str| variables.iter().find(|v| v.name == name).expect(name).value_reference;
            let model = with_host_mxcsr(DEFAULT_MXCSR, entry.new_instance);
            let c =
                Box::into_raw(Box::new(Instance::new(Log::silent(), &VOCABULARY, "", model, Interface::ModelExchange)))
                    as Fmi2Component;
            let mut info = EventInfo::default();
            let mut dx = [0.0; 2];
            let set = [("tau_static", 0.0), ("tau_coulomb", 0.0), ("J", 1e10), ("tau", 1.0)];
            with_host_mxcsr(host, || {
                // SAFETY: `c` is a live Model Exchange instance made above,
                // freed last; `dx` holds the model's two states.
                unsafe {
                    for (name, x) in set {
                        assert_eq!(fmi2SetReal::<AnyModel>(c, &vr(name), 1, &x), Status::Ok);
                    }
                    assert_eq!(fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), Status::Ok);
                    assert_eq!(fmi2EnterInitializationMode(c), Status::Ok);
                    assert_eq!(fmi2ExitInitializationMode(c), Status::Ok);
                    assert_eq!(fmi2NewDiscreteStates(c, &mut info), Status::Ok);
                    assert_eq!(fmi2EnterContinuousTimeMode(c), Status::Ok);
                    assert_eq!(fmi2SetTime(c, 1e-3), Status::Ok);
                    assert_eq!(fmi2GetDerivatives(c, dx.as_mut_ptr(), 2), Status::Ok);
                    let first = (*(c as *const Instance)).last_call_in_host();
                    // A torque whose acceleration is subnormal: nothing the
                    // model holds is, so only the flush can tell.
                    assert_eq!(fmi2SetReal::<AnyModel>(c, &vr("tau"), 1, &1e-300), Status::Ok);
                    assert_eq!(fmi2SetTime(c, 2e-3), Status::Ok);
                    assert_eq!(fmi2GetDerivatives(c, dx.as_mut_ptr(), 2), Status::Ok);
                    let second = (*(c as *const Instance)).last_call_in_host();
                    fmi2FreeInstance(c);
                    (dx.iter().map(|v| v.to_bits()).collect(), [first, second])
                }
            })
        };
        let (reference, _) = derivative(DEFAULT_MXCSR);
        assert!(reference[1] != 0 && f64::from_bits(reference[1]).abs() < f64::MIN_POSITIVE, "{reference:?}");
        let (seen, in_host) = derivative(DEFAULT_MXCSR | 0x8040);
        assert_eq!(seen, reference);
        assert_eq!(in_host, [true, false], "the flushed evaluation was done again in the default environment");
    }

    /// A state marked plain (`State::plain`, by the `states!` macro or by
    /// hand) is stored as it is in any host: set in the host's environment,
    /// it reads back with the same bits, where arithmetic that is an
    /// identity in the default environment (`x - 0.0`, `x * 1.0`) would
    /// flush a subnormal under DAZ or turn +0.0 into -0.0 rounding downward.
    #[test]
    fn plain_states_are_stored_as_they_are_in_any_host() {
        for m in crate::registry::MODELS.iter().filter(|m| m.model_exchange) {
            let mut model = (m.new_instance)();
            if !model.states_plain() {
                continue;
            }
            let (nx, _) = model.hybrid_sizes().unwrap();
            for (name, host) in [("default", DEFAULT_MXCSR)].into_iter().chain(HOSTS) {
                for x in [0.0, 1e-310, -5e-324, -0.0, 0.1, -1.0 / 3.0, 1e300] {
                    let back = with_host_mxcsr(host, || {
                        model.set_continuous_states(&vec![x; nx]).unwrap();
                        let mut back = vec![1.0; nx];
                        model.continuous_states(&mut back).unwrap();
                        back
                    });
                    let same = back.iter().all(|b| b.to_bits() == x.to_bits());
                    assert!(same, "{}, {name}: {x:e} read back as {back:?}", m.info.identifier);
                }
            }
        }
    }
}

/// A Co-Simulation step in a host that only flushes subnormals runs in the
/// host's environment (`steps` rows, `crate::instance::FloatHost`) and
/// gives the default environment's results bit for bit: when nothing
/// subnormal is read or flushed, in the host's; when a subnormal is an
/// input, a parameter or a state, or a result would be one, taken again in
/// the default environment. And it leaves the host's registers, flags
/// included, as they were.
#[cfg(all(test, target_arch = "x86_64"))]
mod steps_in_a_flushing_host {
    use super::ffi::*;
    use super::*;
    use crate::ffi::float_env::{with_host_mxcsr, DEFAULT_MXCSR};
    use crate::instance::Log;

    /// A run: parameters set before initialization, then per step the
    /// inputs set and one step of `h`.
    struct Run {
        id: &'static str,
        parameters: &'static [(&'static str, f64)],
        inputs: &'static [&'static [(&'static str, f64)]],
        h: f64,
    }

    /// What a run gives: every status, the bits of every Real after every
    /// step, whether every call left MXCSR as it was, and per step whether
    /// it ran in the host's environment (a step that verified itself there).
    fn run(r: &Run) -> (Vec<Status>, Vec<u64>, bool, Vec<bool>) {
        #[allow(deprecated)]
        // SAFETY: `stmxcsr` reads MXCSR; SSE is part of x86_64.
        let mxcsr = || unsafe { std::arch::x86_64::_mm_getcsr() };
        let entry = crate::registry::get(r.id);
        let variables = (entry.variables)();
        let vr = |name: &str| variables.iter().find(|v| v.name == name).expect(name).value_reference;
        let reals: Vec<u32> = variables.iter().filter(|v| v.type_name == "Real").map(|v| v.value_reference).collect();
        let model = with_host_mxcsr(DEFAULT_MXCSR, entry.new_instance);
        let c = Box::into_raw(Box::new(Instance::new(Log::silent(), &VOCABULARY, "", model, Interface::CoSimulation)))
            as Fmi2Component;
        let host = mxcsr();
        let (mut statuses, mut bits, mut kept, mut in_host) = (Vec::new(), Vec::new(), true, Vec::new());
        let mut out = vec![0.0; reals.len()];
        // SAFETY: `c` is a live Co-Simulation instance made above, freed
        // last; every array has the length passed with it.
        unsafe {
            let mut call = |status: Status| {
                statuses.push(status);
                kept &= mxcsr() == host;
            };
            let set = |name: &str, x: f64| fmi2SetReal::<AnyModel>(c, &vr(name), 1, &x);
            for &(name, x) in r.parameters {
                call(set(name, x));
            }
            call(fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0));
            call(fmi2EnterInitializationMode(c));
            call(fmi2ExitInitializationMode(c));
            for (k, inputs) in r.inputs.iter().enumerate() {
                for &(name, x) in inputs.iter() {
                    call(set(name, x));
                }
                call(fmi2DoStep(c, k as f64 * r.h, r.h, 1));
                in_host.push((*(c as *const Instance)).last_call_in_host());
                // One value per call, as an importer reading its outputs
                // does: these calls leave the step's verification standing.
                for (vr, x) in reals.iter().zip(out.iter_mut()) {
                    call(fmi2GetReal::<AnyModel>(c, vr, 1, x));
                }
                bits.extend(out.iter().map(|v| v.to_bits()));
            }
            fmi2FreeInstance(c);
        }
        (statuses, bits, kept, in_host)
    }

    const FTZ_DAZ: u32 = DEFAULT_MXCSR | 0x8040;

    #[test]
    fn a_step_gives_the_default_results_and_runs_in_the_host_only_when_nothing_subnormal_is_involved() {
        let sliding: &[&[(&str, f64)]] = &[&[("tau", 2.0)], &[], &[], &[("tau", -3.0)], &[]];
        // Frictionless, a torque whose acceleration over 1 ms is subnormal:
        // flushed in the host (step 1); then w is subnormal (steps 2, 3); a
        // subnormal input (step 4); all normal again (5, 6), from the step
        // after the first in the host on.
        let tiny: &[&[(&str, f64)]] =
            &[&[("tau", 1e-306)], &[("tau", 0.0)], &[], &[("tau", 5e-324)], &[("tau", 1e3)], &[], &[]];
        let frictionless: &[(&str, f64)] = &[("tau_static", 0.0), ("tau_coulomb", 0.0), ("internal_step", 1e-3)];
        let runs = [
            (Run { id: "HillFrictionInertia", parameters: &[], inputs: sliding, h: 1e-3 }, vec![true; 5]),
            (Run { id: "ConventionalCoulombBaseline", parameters: &[], inputs: sliding, h: 1e-3 }, vec![true; 5]),
            (
                Run { id: "HillFrictionInertia", parameters: frictionless, inputs: tiny, h: 1e-3 },
                vec![false, false, false, false, false, true, true],
            ),
            (
                Run { id: "ConventionalCoulombBaseline", parameters: frictionless, inputs: tiny, h: 1e-3 },
                vec![false, false, false, false, false, true, true],
            ),
            // A subnormal parameter: never in the host's environment.
            (
                Run { id: "HillFrictionInertia", parameters: &[("w_start", 1e-310)], inputs: sliding, h: 1e-3 },
                vec![false; 5],
            ),
            // A subnormal input after steps in the host's environment.
            (
                Run {
                    id: "HillFrictionInertia",
                    parameters: &[],
                    inputs: &[&[("tau", 2.0)], &[], &[("tau", 5e-324)], &[("tau", 2.0)], &[]],
                    h: 1e-3,
                },
                // After the switch, the next step switches at once (`Tries`).
                vec![true, true, false, false, true],
            ),
            (Run { id: "LuGreInertia", parameters: &[], inputs: sliding, h: 1e-3 }, vec![true; 5]),
            (Run { id: "CoupledClutches", parameters: &[], inputs: &[&[], &[], &[]], h: 1e-3 }, vec![true; 3]),
        ];
        for (r, expected_in_host) in &runs {
            let (statuses, reference, kept, in_default) = with_host_mxcsr(DEFAULT_MXCSR, || run(r));
            assert!(kept, "{}", r.id);
            assert!(statuses.iter().all(|&s| s == Status::Ok), "{}: {statuses:?}", r.id);
            assert!(in_default.iter().all(|&x| !x), "{}: a default host switches nothing", r.id);
            // The host's own flags, some raised (inexact), must come back.
            for (name, host) in [("FTZ + DAZ", FTZ_DAZ), ("FTZ + DAZ, inexact raised", FTZ_DAZ | 0x20)] {
                let (answers, seen, kept, in_host) = with_host_mxcsr(host, || run(r));
                assert!(kept, "{}, {name}: a call changed the host's MXCSR", r.id);
                assert_eq!(answers, statuses, "{}, {name}", r.id);
                assert_eq!(seen, reference, "{}, {name}: values differ from the default environment's", r.id);
                assert_eq!(&in_host, expected_in_host, "{}, {name}: steps in the host's environment", r.id);
            }
            // A host whose underflow flag is already raised cannot tell a
            // flush of ours: every step switches.
            let (_, seen, kept, in_host) = with_host_mxcsr(FTZ_DAZ | 0x10, || run(r));
            assert!(kept && seen == reference && in_host.iter().all(|&x| !x), "{}, underflow raised", r.id);
        }
    }
}

#[cfg(test)]
mod float_environment {
    use crate::ffi::binding_rules::Binding;

    /// Every row names its floating-point environment (see
    /// [`crate::ffi::float_env::CallEnv`]); those written out enter none
    /// themselves: the version strings and free compute nothing (`host`),
    /// instantiate hands over to the shared one (`models`), which enters
    /// the default environment first.
    #[test]
    fn every_export_that_computes_does_it_in_the_default_float_environment() {
        let exports =
            crate::ffi::binding_rules::every_export_that_computes_enters_the_default_environment(&Binding::of("fmi2"));
        assert_eq!(exports, 44, "the 44 fmi2 functions");
    }
}

#[cfg(test)]
mod table_is_complete {
    use crate::ffi::binding_rules::Binding;

    /// Every function of this binding has a row in its export table
    /// (`table.rs`), so a model's binary exports it; a row without its
    /// function does not compile.
    #[test]
    #[allow(clippy::vec_init_then_push)] // one push per row, written by the table's macro
    fn every_binding_function_is_exported() {
        let mut rows: Vec<&str> = Vec::new();
        crate::fmi2_table!(forward_exports { names(rows) ; });
        crate::ffi::binding_rules::every_binding_function_has_a_row(&Binding::of("fmi2"), &rows);
        assert_eq!(rows.len(), 44);
    }
}
