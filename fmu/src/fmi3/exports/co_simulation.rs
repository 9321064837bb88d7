//! The Co-Simulation functions: the step (early return at a transition,
//! when allowed), step mode entered from event mode, the output derivatives.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

/// This file's rows of the FMI 3.0 export table ([`crate::fmi3_table!`]),
/// written into the binding here and into a model's binary by
/// [`crate::export_model!`].
#[doc(hidden)]
#[macro_export]
macro_rules! fmi3_co_simulation {
    ($callback:ident { $($args:tt)* }) => {
        $crate::$callback! { $($args)*
            fn fmi3EnterStepMode() computes allowed::ENTER_STEP_MODE => |comp| comp.enter_step_mode();
            fn fmi3GetOutputDerivatives(
                vr: *const Fmi3ValueReference,
                nvr: usize,
                orders: *const i32,
                values: *mut Fmi3Float64,
                n_values: usize
            ) computes allowed::OUTPUT_DERIVATIVES
                => |comp, vr = slice(nvr, "valueReferences"), orders = slice(nvr, "orders"), values = slice_mut(n_values, "values")| {
                    comp.check_type(vr, n_values, &FLOAT64_OUTPUT, Access::Get)?;
                    comp.get_output_derivatives(vr, orders, values)
                };
            /// A step to `t + h`, through any stick or slip inside it (exactly, as
            /// FMI 2.0's); or, with early return allowed, to the first of them,
            /// where the FMU's time is then; with event mode used, an event at the
            /// step's end asks for it. Never a request to end.
            fn fmi3DoStep(
                current_communication_point: Fmi3Float64,
                communication_step_size: Fmi3Float64,
                _no_set_fmu_state_prior_to_current_point: Fmi3Boolean,
                event_handling_needed: *mut Fmi3Boolean,
                terminate_simulation: *mut Fmi3Boolean,
                early_return: *mut Fmi3Boolean,
                last_successful_time: *mut Fmi3Float64
            ) steps allowed::STEP_MODE
                => |comp,
                    event_handling_needed = out("eventHandlingNeeded"),
                    terminate_simulation = out("terminateSimulation"),
                    early_return = out("earlyReturn"),
                    last_successful_time = out("lastSuccessfulTime")| {
                    let (t, h) = (current_communication_point, communication_step_size);
                    let events = comp.co_simulation_events;
                    // Without early return and event mode the step is FMI 2.0's,
                    // which keeps no account of where it could have stopped.
                    let (event, early) = if events.early_return || events.event_mode {
                        let end = comp.do_step_to_event(t, h)?;
                        (end.event, end.early.is_some())
                    } else {
                        comp.do_step(t, h)?;
                        (false, false)
                    };
                    (*event_handling_needed, *terminate_simulation, *early_return) = (event.into(), FMI3_FALSE, early.into());
                    *last_successful_time = comp.last_successful_time();
                    Ok(Status::Ok)
                };
        }
    };
}
crate::fmi3_co_simulation!(handle_exports { Fmi3Instance => });
