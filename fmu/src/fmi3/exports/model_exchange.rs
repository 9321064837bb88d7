//! The Model Exchange functions: time, continuous states, derivatives,
//! event indicators and their counts, the event iteration; and the one of
//! Scheduled Execution, not offered.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

/// This file's rows of the FMI 3.0 export table ([`crate::fmi3_table!`]),
/// written into the binding here and into a model's binary by
/// [`crate::export_model!`].
#[doc(hidden)]
#[macro_export]
macro_rules! fmi3_model_exchange {
    ($callback:ident { $($args:tt)* }) => {
        $crate::$callback! { $($args)*
            /// Stores the time: computes only to word a refusal.
            fn fmi3SetTime(time: Fmi3Float64) [first set_time] computes_if allowed::SET_TIME, when |comp| comp.refuses_time(time)
                => |comp| comp.set_time(time);
            /// Stores the states; computes only where a state is scaled when stored.
            fn fmi3SetContinuousStates<K>(x: *const Fmi3Float64, nx: usize) [first set_continuous_states] checks_if allowed::SET_STATES, when |comp| comp.states_computed()
                => |comp, x = slice(nx, "continuousStates")| comp.set_continuous_states(x);
            fn fmi3GetContinuousStates(x: *mut Fmi3Float64, nx: usize) computes allowed::GET_STATES
                => |comp, x = slice_mut(nx, "continuousStates")| comp.get_continuous_states(x);
            /// Copies what the last evaluation left; evaluates first if the time,
            /// the states or an input changed since.
            fn fmi3GetContinuousStateDerivatives(derivatives: *mut Fmi3Float64, nx: usize) checks_if allowed::GET_STATES, when |comp| comp.must_evaluate()
                => |comp, derivatives = slice_mut(nx, "derivatives")| comp.get_derivatives(derivatives);
            fn fmi3GetEventIndicators<K>(indicators: *mut Fmi3Float64, ni: usize) [first get_event_indicators] checks_if allowed::GET_STATES, when |comp| comp.must_evaluate()
                => |comp, indicators = slice_mut(ni, "eventIndicators")| comp.get_event_indicators(indicators);
            fn fmi3GetNominalsOfContinuousStates(nominals: *mut Fmi3Float64, nx: usize) computes allowed::NOMINALS
                => |comp, nominals = slice_mut(nx, "nominals")| comp.get_nominals(nominals);
            fn fmi3GetNumberOfContinuousStates(n: *mut usize) host allowed::COUNTS
                => |comp, n = out("nContinuousStates")| {
                    *n = comp.hybrid_sizes().map_or(0, |s| s.0);
                    Ok(Status::Ok)
                };
            fn fmi3GetNumberOfEventIndicators(n: *mut usize) host allowed::COUNTS
                => |comp, n = out("nEventIndicators")| {
                    *n = comp.hybrid_sizes().map_or(0, |s| s.1);
                    Ok(Status::Ok)
                };
            /// One pass of the event iteration (event mode of either interface);
            /// no time events (the models change mode only where a state or an
            /// input crosses a threshold).
            fn fmi3UpdateDiscreteStates(
                discrete_states_need_update: *mut Fmi3Boolean,
                terminate_simulation: *mut Fmi3Boolean,
                nominals_changed: *mut Fmi3Boolean,
                values_changed: *mut Fmi3Boolean,
                next_event_time_defined: *mut Fmi3Boolean,
                next_event_time: *mut Fmi3Float64
            ) computes allowed::EVENT_MODE
                => |comp,
                    discrete_states_need_update = out("discreteStatesNeedUpdate"),
                    terminate_simulation = out("terminateSimulation"),
                    nominals_changed = out("nominalsOfContinuousStatesChanged"),
                    values_changed = out("valuesOfContinuousStatesChanged"),
                    next_event_time_defined = out("nextEventTimeDefined"),
                    next_event_time = out("nextEventTime")| {
                    let info = match comp.interface {
                        Interface::ModelExchange => comp.new_discrete_states()?,
                        Interface::CoSimulation => comp.co_simulation_discrete_states()?,
                    };
                    *discrete_states_need_update = info.new_discrete_states_needed.into();
                    (*terminate_simulation, *nominals_changed) = (FMI3_FALSE, FMI3_FALSE);
                    *values_changed = info.values_of_continuous_states_changed.into();
                    (*next_event_time_defined, *next_event_time) = (FMI3_FALSE, 0.0);
                    Ok(Status::Ok)
                };
            fn fmi3EnterContinuousTimeMode() computes allowed::ENTER_CONTINUOUS_TIME_MODE => |comp| {
                comp.enter_continuous_time_mode()
            };
            fn fmi3CompletedIntegratorStep(
                _no_set_fmu_state_prior_to_current_point: Fmi3Boolean,
                enter_event_mode: *mut Fmi3Boolean,
                terminate_simulation: *mut Fmi3Boolean
            ) computes allowed::CONTINUOUS_TIME_MODE
                => |comp, enter_event_mode = out("enterEventMode"), terminate_simulation = out("terminateSimulation")| {
                    let (event, terminate) = comp.completed_integrator_step()?;
                    (*enter_event_mode, *terminate_simulation) = (event.into(), terminate.into());
                    Ok(Status::Ok)
                };
            /// No discrete states to evaluate apart from the event iteration
            /// (`providesEvaluateDiscreteStates="false"`).
            fn fmi3EvaluateDiscreteStates() host allowed::ANY_BUT_FATAL => |_| {
                Err("not provided (providesEvaluateDiscreteStates=\"false\")".into())
            };
            fn fmi3ActivateModelPartition(
                clock_reference: Fmi3ValueReference,
                _activation_time: Fmi3Float64
            ) host allowed::ANY_BUT_FATAL => |_| {
                Err(format!("clock {clock_reference}: Scheduled Execution is not offered (no <ScheduledExecution>)"))
            };
        }
    };
}
crate::fmi3_model_exchange!(handle_exports { Fmi3Instance => });
