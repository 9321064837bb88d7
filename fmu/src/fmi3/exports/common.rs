//! The functions of both interfaces: version, logging, instantiation,
//! initialization, termination and reset; and the features the FMUs do not
//! declare (configuration mode, scheduled execution), which refuse.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

/// This file's rows of the FMI 3.0 export table ([`crate::fmi3_table!`]),
/// written into the binding here and into a model's binary by
/// [`crate::export_model!`].
#[doc(hidden)]
#[macro_export]
macro_rules! fmi3_common {
    ($callback:ident { $($args:tt)* }) => {
        $crate::$callback! { $($args)*
            host fn fmi3GetVersion() -> *const std::ffi::c_char => { c"3.0".as_ptr() };
            /// `models`: as `fmi2Instantiate`'s.
            models fn fmi3InstantiateModelExchange(
                instance_name: Fmi3String, instantiation_token: Fmi3String, _resource_path: Fmi3String, _visible: Fmi3Boolean,
                logging_on: Fmi3Boolean, environment: Fmi3InstanceEnvironment, log_message: Option<LogMessage>
            ) -> Fmi3Instance => {
                let log = || Some(logger(log_message, environment, logging_on));
                let (interface, events) = (Ok(Interface::ModelExchange), CoSimulationEvents::default());
                let token = (instantiation_token, "instantiationToken");
                // SAFETY: the importer passes NULL or NUL-terminated strings (FMI 3.0, 2.3.1): `instantiate`'s contract.
                unsafe { instantiate(models, "fmi3InstantiateModelExchange", log, &VOCABULARY, instance_name, interface, events, token) }
            };
            models fn fmi3InstantiateCoSimulation(
                instance_name: Fmi3String, instantiation_token: Fmi3String, _resource_path: Fmi3String, _visible: Fmi3Boolean,
                logging_on: Fmi3Boolean, event_mode_used: Fmi3Boolean, early_return_allowed: Fmi3Boolean,
                _required_intermediate_variables: *const Fmi3ValueReference, n_required_intermediate_variables: usize,
                environment: Fmi3InstanceEnvironment, log_message: Option<LogMessage>, _intermediate_update: Option<IntermediateUpdate>
            ) -> Fmi3Instance => {
                let log = || Some(logger(log_message, environment, logging_on));
                // What the model description does not declare is refused by name.
                let interface = match n_required_intermediate_variables {
                    0 => Ok(Interface::CoSimulation),
                    n => Err(format!("nRequiredIntermediateVariables = {n} rejected: providesIntermediateUpdate=\"false\"")),
                };
                let events = CoSimulationEvents { event_mode: event_mode_used != FMI3_FALSE, early_return: early_return_allowed != FMI3_FALSE };
                let token = (instantiation_token, "instantiationToken");
                // SAFETY: the importer passes NULL or NUL-terminated strings (FMI 3.0, 2.3.1): `instantiate`'s contract.
                unsafe { instantiate(models, "fmi3InstantiateCoSimulation", log, &VOCABULARY, instance_name, interface, events, token) }
            };
            /// Scheduled Execution is not offered (no `<ScheduledExecution>`): no
            /// instance, and no logger call (the callback types differ and nothing
            /// says the importer passed one meant for us).
            host fn fmi3InstantiateScheduledExecution(
                _instance_name: Fmi3String, _instantiation_token: Fmi3String, _resource_path: Fmi3String, _visible: Fmi3Boolean,
                _logging_on: Fmi3Boolean, _environment: Fmi3InstanceEnvironment, _log_message: Option<LogMessage>,
                _clock_update: *mut c_void, _lock_preemption: *mut c_void, _unlock_preemption: *mut c_void
            ) -> Fmi3Instance => { std::ptr::null_mut() };
            host fn fmi3FreeInstance(c: Fmi3Instance) => {
                // SAFETY: `c` is NULL or from an instantiate function (FMI 3.0, 2.3.1).
                if unsafe { instance(c) }.is_some() {
                    // SAFETY: a live instance, created by Box::into_raw in `instantiate`;
                    // the importer does not use `c` after fmi3FreeInstance.
                    let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(c as *mut Instance) })));
                }
            };
            fn fmi3SetDebugLogging(logging_on: Fmi3Boolean, n_categories: usize, categories: *const Fmi3String) host allowed::ANY_BUT_FATAL
                => |comp, categories = strings(n_categories, "categories")| match comp.log.set(logging_on != FMI3_FALSE, &categories) {
                    Ok(()) => Ok(Status::Ok),
                    // Unknown names are a warning: the known ones were applied.
                    Err(unknown) => Ok(comp.fail("fmi3SetDebugLogging", Status::Warning, &unknown)),
                };
            fn fmi3EnterInitializationMode(
                tolerance_defined: Fmi3Boolean,
                tolerance: Fmi3Float64,
                start_time: Fmi3Float64,
                stop_time_defined: Fmi3Boolean,
                stop_time: Fmi3Float64
            ) computes allowed::INSTANTIATED => |comp| {
                comp.setup_experiment(
                    (tolerance_defined != FMI3_FALSE).then_some(tolerance),
                    start_time,
                    (stop_time_defined != FMI3_FALSE).then_some(stop_time),
                )?;
                comp.enter_initialization_mode()
            };
            fn fmi3ExitInitializationMode() computes allowed::INITIALIZATION => |comp| comp.exit_initialization_mode();
            fn fmi3EnterEventMode() computes allowed::ENTER_EVENT_MODE => |comp| match comp.interface {
                Interface::ModelExchange => comp.enter_event_mode(),
                Interface::CoSimulation => comp.enter_co_simulation_event_mode(),
            };
            fn fmi3Terminate() computes allowed::TERMINATE => |comp| comp.terminate();
            fn fmi3Reset() computes allowed::RESET => |comp| comp.reset();
            fn fmi3EnterConfigurationMode() host allowed::ANY_BUT_FATAL => |_| {
                Err("no configuration mode: the FMU has no structural parameters".into())
            };
            fn fmi3ExitConfigurationMode() host allowed::ANY_BUT_FATAL => |_| {
                Err("no configuration mode: the FMU has no structural parameters".into())
            };
        }
    };
}
crate::fmi3_common!(handle_exports { Fmi3Instance => });

/// The importer's logger (a NULL callback is allowed, FMI 3.0, 2.3.1: the
/// instance logs nothing).
fn logger(log_message: Option<LogMessage>, environment: Fmi3InstanceEnvironment, logging_on: Fmi3Boolean) -> log::Log {
    match log_message {
        Some(callback) => log::to_callback(callback, environment, logging_on != FMI3_FALSE),
        None => log::Log::silent(),
    }
}
