//! The `fmi3*` functions of FMI 3.0: those of both interfaces, Model
//! Exchange's and Co-Simulation's (one binary, the interface chosen by the
//! instantiate function), and those of the features the FMUs do not
//! declare (Scheduled Execution, clocks, configuration mode, Binary and the
//! narrow numeric types), which refuse with the reason.
//!
//! Each one, as in FMI 2.0's binding: computes in IEEE 754's default
//! floating-point environment ([`crate::ffi::float_env::CallEnv`]),
//! catches any panic, checks the instance handle, the call sequence and
//! every argument, then hands over to the core's
//! [`crate::instance::Instance`]. Nothing here is model specific.

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
mod float_environment {
    use crate::ffi::binding_rules::Binding;

    /// As FMI 2.0's (`crate::fmi2::exports`): every row names its
    /// environment, and those written out enter none themselves.
    #[test]
    fn every_export_that_computes_does_it_in_the_default_float_environment() {
        let exports =
            crate::ffi::binding_rules::every_export_that_computes_enters_the_default_environment(&Binding::of("fmi3"));
        assert_eq!(exports, 75, "the fmi3 functions as written");
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
        crate::fmi3_table!(forward_exports { names(rows) ; });
        crate::ffi::binding_rules::every_binding_function_has_a_row(&Binding::of("fmi3"), &rows);
        assert_eq!(rows.len(), 75);
    }
}

/// FMI 3.0's step in a host that only flushes subnormals: as FMI 2.0's
/// (`crate::fmi2::exports`, `steps_in_a_flushing_host`), with early return
/// and event mode, through stick-slip: every step's end, early return,
/// event flag and output bits as in the default environment, the host's
/// registers kept, and the steps that read or flush nothing subnormal in
/// the host's environment.
#[cfg(all(test, target_arch = "x86_64"))]
mod steps_in_a_flushing_host {
    use super::ffi::*;
    use super::*;
    use crate::ffi::float_env::{with_host_mxcsr, DEFAULT_MXCSR};
    use crate::instance::{Log, Status};

    /// Bits of every step's end, flags and outputs; whether MXCSR was kept;
    /// how many steps ran in the host's environment.
    fn run(id: &str, taus: &[f64]) -> (Vec<u64>, bool, usize) {
        #[allow(deprecated)]
        // SAFETY: `stmxcsr` reads MXCSR; SSE is part of x86_64.
        let mxcsr = || unsafe { std::arch::x86_64::_mm_getcsr() };
        let entry = crate::registry::get(id);
        let variables = (entry.variables)();
        let vr = |name: &str| variables.iter().find(|v| v.name == name).expect(name).value_reference;
        let outputs = [vr("w"), vr("phi"), vr("tau_friction")];
        let model = with_host_mxcsr(DEFAULT_MXCSR, entry.new_instance);
        let mut instance = Instance::new(Log::silent(), &crate::fmi3::VOCABULARY, "", model, Interface::CoSimulation);
        instance.co_simulation_events = CoSimulationEvents { event_mode: true, early_return: true };
        let c = Box::into_raw(Box::new(instance)) as Fmi3Instance;
        let host = mxcsr();
        let (mut seen, mut kept, mut in_host) = (Vec::new(), true, 0);
        // SAFETY: `c` is a live Co-Simulation instance made above, freed
        // last; every pointer is to a local with the count passed.
        unsafe {
            let mut ok = |status: Status, call: &str| {
                assert_eq!(status, Status::Ok, "{id}: {call}");
                kept &= mxcsr() == host;
            };
            ok(fmi3EnterInitializationMode(c, 0, 0.0, 0.0, 0, 0.0), "enter initialization");
            ok(fmi3ExitInitializationMode(c), "exit initialization");
            // With event mode used, initialization ends in event mode.
            ok(fmi3EnterStepMode(c), "step mode");
            let (mut t, h) = (0.0, 0.1);
            for &tau in taus {
                ok(fmi3SetFloat64::<AnyModel>(c, &vr("tau"), 1, &tau, 1), "set tau");
                let (mut event, mut terminate, mut early, mut last) = (0, 0, 0, 0.0);
                ok(fmi3DoStep(c, t, h, 1, &mut event, &mut terminate, &mut early, &mut last), "step");
                in_host += usize::from((*(c as *const Instance)).last_call_in_host());
                t = last;
                seen.extend([last.to_bits(), u64::from(event), u64::from(early)]);
                for vr in outputs {
                    let mut x = 0.0;
                    ok(fmi3GetFloat64::<AnyModel>(c, &vr, 1, &mut x, 1), "get");
                    seen.push(x.to_bits());
                }
                if event != 0 {
                    ok(fmi3EnterEventMode(c), "event mode");
                    ok(fmi3EnterStepMode(c), "step mode");
                }
            }
            fmi3FreeInstance(c);
        }
        (seen, kept, in_host)
    }

    #[test]
    fn a_step_with_early_return_gives_the_default_results_in_a_flushing_host() {
        // Stick, break away, slide, stop, reverse; then a subnormal torque.
        let taus: Vec<f64> = (0..60).map(|k| if k == 50 { 5e-324 } else { 1.5 * (k as f64 * 0.35).sin() }).collect();
        // LuGre's bristles settle by `exp` of a large negative argument
        // while sliding, which underflows: those steps switch, and the few
        // after each of them switch at once (`Tries`).
        for (id, at_least) in [("HillFrictionInertia", 30), ("StribeckInertia", 30), ("LuGreInertia", 2)] {
            let (reference, kept, in_default) = with_host_mxcsr(DEFAULT_MXCSR, || run(id, &taus));
            assert!(kept && in_default == 0, "{id}");
            let early = reference.chunks(6).filter(|step| step[2] != 0).count();
            assert!(early >= 4, "{id}: the run has early returns ({early})");
            let (seen, kept, in_host) = with_host_mxcsr(DEFAULT_MXCSR | 0x8040, || run(id, &taus));
            assert!(kept, "{id}: a call changed the host's MXCSR");
            assert_eq!(seen, reference, "{id}: values differ from the default environment's");
            assert!(in_host >= at_least, "{id}: {in_host} of {} steps in the host's environment", taus.len());
            assert!(in_host < taus.len(), "{id}: the subnormal torque's step is not");
        }
    }
}
