//! The Model Exchange functions: time, continuous states, derivatives,
//! event indicators and the event iteration.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

/// This file's rows of the FMI 2.0 export table ([`crate::fmi2_table!`]),
/// written into the binding here and into a model's binary by
/// [`crate::export_model!`].
#[doc(hidden)]
#[macro_export]
macro_rules! fmi2_model_exchange {
    ($callback:ident { $($args:tt)* }) => {
        $crate::$callback! { $($args)*
            /// Stores the time: computes only to word a refusal.
            fn fmi2SetTime(time: Fmi2Real) [first set_time] computes_if allowed::SET_TIME, when |comp| comp.refuses_time(time)
                => |comp| comp.set_time(time);
            fn fmi2EnterEventMode() computes allowed::ENTER_EVENT_MODE => |comp| comp.enter_event_mode();
            fn fmi2EnterContinuousTimeMode() computes allowed::EVENT_MODE => |comp| comp.enter_continuous_time_mode();
            /// Stores the states; computes only where a state is scaled when stored.
            fn fmi2SetContinuousStates<K>(x: *const Fmi2Real, nx: usize) [first set_continuous_states] checks_if allowed::SET_STATES, when |comp| comp.states_computed()
                => |comp, x = slice(nx, "x")| comp.set_continuous_states(x);
            fn fmi2GetContinuousStates(x: *mut Fmi2Real, nx: usize) computes allowed::GET_STATES
                => |comp, x = slice_mut(nx, "x")| comp.get_continuous_states(x);
            /// Copies what the last evaluation left; evaluates first if the time,
            /// the states or an input changed since.
            fn fmi2GetDerivatives(derivatives: *mut Fmi2Real, nx: usize) checks_if allowed::GET_STATES, when |comp| comp.must_evaluate()
                => |comp, derivatives = slice_mut(nx, "derivatives")| comp.get_derivatives(derivatives);
            fn fmi2GetEventIndicators<K>(indicators: *mut Fmi2Real, ni: usize) [first get_event_indicators] checks_if allowed::GET_STATES, when |comp| comp.must_evaluate()
                => |comp, indicators = slice_mut(ni, "eventIndicators")| comp.get_event_indicators(indicators);
            fn fmi2GetNominalsOfContinuousStates(nominals: *mut Fmi2Real, nx: usize) computes allowed::NOMINALS
                => |comp, nominals = slice_mut(nx, "x_nominal")| comp.get_nominals(nominals);
            /// One pass of the event iteration; no time events (the models change
            /// mode only where a state or an input crosses a threshold).
            fn fmi2NewDiscreteStates(info: *mut EventInfo) computes allowed::EVENT_MODE
                => |comp, info = out("fmi2EventInfo")| {
                    let result = comp.new_discrete_states()?;
                    *info = EventInfo {
                        new_discrete_states_needed: result.new_discrete_states_needed.into(),
                        terminate_simulation: FMI2_FALSE,
                        nominals_of_continuous_states_changed: FMI2_FALSE,
                        values_of_continuous_states_changed: result.values_of_continuous_states_changed.into(),
                        next_event_time_defined: FMI2_FALSE,
                        next_event_time: 0.0,
                    };
                    Ok(Status::Ok)
                };
            fn fmi2CompletedIntegratorStep(
                _no_set_fmu_state_prior_to_current_point: Fmi2Boolean,
                enter_event_mode: *mut Fmi2Boolean,
                terminate_simulation: *mut Fmi2Boolean
            ) computes allowed::CONTINUOUS_TIME_MODE
                => |comp, enter_event_mode = out("enterEventMode"), terminate_simulation = out("terminateSimulation")| {
                    let (event, terminate) = comp.completed_integrator_step()?;
                    (*enter_event_mode, *terminate_simulation) = (event.into(), terminate.into());
                    Ok(Status::Ok)
                };
        }
    };
}
crate::fmi2_model_exchange!(handle_exports { Fmi2Component => });
