//! The functions of both interfaces: version, logging, instantiation,
//! initialization, termination and reset; and the features the FMUs do not
//! declare (configuration mode, scheduled execution), which refuse.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

#[inline]
pub extern "C" fn fmi3GetVersion() -> *const std::ffi::c_char {
    c"3.0".as_ptr()
}

crate::ffi::export::handle_exports! { Fmi3Instance =>
    fn fmi3SetDebugLogging(logging_on: Fmi3Boolean, n_categories: usize, categories: *const Fmi3String) host allowed::ANY_BUT_FATAL
        => |comp, categories = strings(n_categories, "categories")| match comp.log.set(logging_on != FMI3_FALSE, &categories) {
            Ok(()) => Ok(Status::Ok),
            // Unknown names are a warning: the known ones were applied.
            Err(unknown) => Ok(comp.fail("fmi3SetDebugLogging", Status::Warning, &unknown)),
        };
}

/// What both instantiate functions share, after their own arguments (the
/// C arguments they have in common, hence the count).
///
/// # Safety
/// `instance_name` and `token` are NULL or NUL-terminated strings.
#[allow(clippy::too_many_arguments)]
unsafe fn instantiate(
    models: &[Exported],
    function: &str,
    interface: Interface,
    instance_name: Fmi3String,
    token: Fmi3String,
    environment: Fmi3InstanceEnvironment,
    log_message: Option<LogMessage>,
    logging_on: Fmi3Boolean,
    refusal: Option<String>,
) -> Fmi3Instance {
    // A NULL callback is allowed (FMI 3.0, 2.3.1): the instance logs nothing.
    let log = match log_message {
        Some(callback) => log::to_callback(callback, environment, logging_on != FMI3_FALSE),
        None => log::Log::silent(),
    };
    let interface = match refusal {
        Some(message) => Err(message),
        None => Ok(interface),
    };
    // SAFETY: this function's contract.
    unsafe {
        crate::ffi::instantiate(
            models,
            function,
            log,
            &VOCABULARY,
            instance_name,
            interface,
            token,
            "instantiationToken",
        )
    }
}

/// `models`: as [`crate::fmi2::exports::fmi2Instantiate`]'s.
#[inline]
pub unsafe fn fmi3InstantiateModelExchange(
    models: &[Exported],
    instance_name: Fmi3String,
    instantiation_token: Fmi3String,
    _resource_path: Fmi3String,
    _visible: Fmi3Boolean,
    logging_on: Fmi3Boolean,
    environment: Fmi3InstanceEnvironment,
    log_message: Option<LogMessage>,
) -> Fmi3Instance {
    let _env = CallEnv::enter();
    // SAFETY: the importer passes NULL or NUL-terminated strings (FMI 3.0, 2.3.1): `instantiate`'s contract.
    catch_unwind(AssertUnwindSafe(|| unsafe {
        instantiate(
            models,
            "fmi3InstantiateModelExchange",
            Interface::ModelExchange,
            instance_name,
            instantiation_token,
            environment,
            log_message,
            logging_on,
            None,
        )
    }))
    .unwrap_or(std::ptr::null_mut())
}

/// `models`: as [`crate::fmi2::exports::fmi2Instantiate`]'s.
#[inline]
pub unsafe fn fmi3InstantiateCoSimulation(
    models: &[Exported],
    instance_name: Fmi3String,
    instantiation_token: Fmi3String,
    _resource_path: Fmi3String,
    _visible: Fmi3Boolean,
    logging_on: Fmi3Boolean,
    event_mode_used: Fmi3Boolean,
    early_return_allowed: Fmi3Boolean,
    _required_intermediate_variables: *const Fmi3ValueReference,
    n_required_intermediate_variables: usize,
    environment: Fmi3InstanceEnvironment,
    log_message: Option<LogMessage>,
    _intermediate_update: Option<IntermediateUpdate>,
) -> Fmi3Instance {
    let _env = CallEnv::enter();
    // What the model description does not declare is refused by name.
    let refusal = if n_required_intermediate_variables > 0 {
        Some(format!(
            "nRequiredIntermediateVariables = {n_required_intermediate_variables} rejected: \
             providesIntermediateUpdate=\"false\""
        ))
    } else {
        None
    };
    let events = CoSimulationEvents {
        event_mode: event_mode_used != FMI3_FALSE,
        early_return: early_return_allowed != FMI3_FALSE,
    };
    // SAFETY: the importer passes NULL or NUL-terminated strings (FMI 3.0, 2.3.1): `instantiate`'s contract.
    let c = catch_unwind(AssertUnwindSafe(|| unsafe {
        instantiate(
            models,
            "fmi3InstantiateCoSimulation",
            Interface::CoSimulation,
            instance_name,
            instantiation_token,
            environment,
            log_message,
            logging_on,
            refusal,
        )
    }))
    .unwrap_or(std::ptr::null_mut());
    // SAFETY: NULL or the instance just made, referenced nowhere else yet.
    if let Some(comp) = unsafe { instance(c) } {
        comp.co_simulation_events = events;
    }
    c
}

/// Scheduled Execution is not offered (no `<ScheduledExecution>`): no
/// instance, and no logger call (the callback types differ and nothing
/// says the importer passed one meant for us).
#[inline]
pub unsafe extern "C" fn fmi3InstantiateScheduledExecution(
    _instance_name: Fmi3String,
    _instantiation_token: Fmi3String,
    _resource_path: Fmi3String,
    _visible: Fmi3Boolean,
    _logging_on: Fmi3Boolean,
    _environment: Fmi3InstanceEnvironment,
    _log_message: Option<LogMessage>,
    _clock_update: *mut c_void,
    _lock_preemption: *mut c_void,
    _unlock_preemption: *mut c_void,
) -> Fmi3Instance {
    std::ptr::null_mut()
}

#[inline]
pub unsafe extern "C" fn fmi3FreeInstance(c: Fmi3Instance) {
    // SAFETY: `c` is NULL or from an instantiate function (FMI 3.0, 2.3.1).
    if unsafe { instance(c) }.is_some() {
        // SAFETY: a live instance, created by Box::into_raw in `instantiate`;
        // the importer does not use `c` after fmi3FreeInstance.
        let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(c as *mut Instance) })));
    }
}

crate::ffi::export::handle_exports! { Fmi3Instance =>
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
