//! The exports of FMI 2.0 (44 functions: 34 for Co-Simulation, 10 more for Model Exchange): each row a C function's name and signature,
//! in the order of the binding's files. [`crate::export_model!`] writes the
//! `#[no_mangle]` function of every row into a model's binary, forwarding
//! to the binding's function of the same name (the same arguments, so a
//! row that does not match its function does not compile); rows marked
//! `models` also get the models the binary offers, rows marked `known` the
//! model's type (`crate::ffi::known`). No export is written
//! by hand, and a binding function without a row fails
//! `every_binding_function_is_exported`.

#![forbid(unsafe_code)]

/// Calls `fmu::$callback! { $args ; rows }` with this table's rows.
#[doc(hidden)]
#[macro_export]
macro_rules! fmi2_table {
    ($callback:ident { $($args:tt)* }) => {
        $crate::$callback! { $($args)* ;
            // common.rs
            fn fmi2GetTypesPlatform() -> *const c_char;
            fn fmi2GetVersion() -> *const c_char;
            fn fmi2SetDebugLogging(c: Fmi2Component, logging_on: Fmi2Boolean, n_categories: usize, categories: *const Fmi2String) -> Status;
            models fn fmi2Instantiate(instance_name: Fmi2String, fmu_type: c_int, guid: Fmi2String, resource_location: Fmi2String, functions: *const CallbackFunctions, visible: Fmi2Boolean, logging_on: Fmi2Boolean) -> Fmi2Component;
            fn fmi2FreeInstance(c: Fmi2Component);
            fn fmi2SetupExperiment(c: Fmi2Component, tolerance_defined: Fmi2Boolean, tolerance: Fmi2Real, start_time: Fmi2Real, stop_time_defined: Fmi2Boolean, stop_time: Fmi2Real) -> Status;
            fn fmi2EnterInitializationMode(c: Fmi2Component) -> Status;
            fn fmi2ExitInitializationMode(c: Fmi2Component) -> Status;
            fn fmi2Terminate(c: Fmi2Component) -> Status;
            fn fmi2Reset(c: Fmi2Component) -> Status;
            // values.rs
            known fn fmi2GetReal(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2Real) -> Status;
            fn fmi2GetInteger(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2Integer) -> Status;
            fn fmi2GetBoolean(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2Boolean) -> Status;
            fn fmi2GetString(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2String) -> Status;
            known fn fmi2SetReal(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *const Fmi2Real) -> Status;
            fn fmi2SetInteger(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *const Fmi2Integer) -> Status;
            fn fmi2SetBoolean(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *const Fmi2Boolean) -> Status;
            fn fmi2SetString(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, value: *const Fmi2String) -> Status;
            // fmu_state.rs
            fn fmi2GetFMUstate(c: Fmi2Component, state: *mut Fmi2FmuState) -> Status;
            fn fmi2SetFMUstate(c: Fmi2Component, state: Fmi2FmuState) -> Status;
            fn fmi2FreeFMUstate(c: Fmi2Component, state: *mut Fmi2FmuState) -> Status;
            fn fmi2SerializedFMUstateSize(c: Fmi2Component, state: Fmi2FmuState, size: *mut usize) -> Status;
            fn fmi2SerializeFMUstate(c: Fmi2Component, state: Fmi2FmuState, bytes: *mut Fmi2Byte, size: usize) -> Status;
            fn fmi2DeSerializeFMUstate(c: Fmi2Component, bytes: *const Fmi2Byte, size: usize, state: *mut Fmi2FmuState) -> Status;
            fn fmi2GetDirectionalDerivative(c: Fmi2Component, unknown: *const Fmi2ValueReference, n_unknown: usize, known: *const Fmi2ValueReference, n_known: usize, dv_known: *const Fmi2Real, dv_unknown: *mut Fmi2Real) -> Status;
            // co_simulation.rs
            fn fmi2SetRealInputDerivatives(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, order: *const Fmi2Integer, value: *const Fmi2Real) -> Status;
            fn fmi2GetRealOutputDerivatives(c: Fmi2Component, vr: *const Fmi2ValueReference, nvr: usize, order: *const Fmi2Integer, value: *mut Fmi2Real) -> Status;
            fn fmi2DoStep(c: Fmi2Component, current_communication_point: Fmi2Real, communication_step_size: Fmi2Real, no_set_fmu_state_prior_to_current_point: Fmi2Boolean) -> Status;
            fn fmi2CancelStep(c: Fmi2Component) -> Status;
            fn fmi2GetStatus(c: Fmi2Component, kind: c_int, value: *mut Status) -> Status;
            fn fmi2GetRealStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2Real) -> Status;
            fn fmi2GetIntegerStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2Integer) -> Status;
            fn fmi2GetBooleanStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2Boolean) -> Status;
            fn fmi2GetStringStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2String) -> Status;
            // model_exchange.rs
            fn fmi2SetTime(c: Fmi2Component, time: Fmi2Real) -> Status;
            fn fmi2SetContinuousStates(c: Fmi2Component, x: *const Fmi2Real, nx: usize) -> Status;
            fn fmi2GetContinuousStates(c: Fmi2Component, x: *mut Fmi2Real, nx: usize) -> Status;
            fn fmi2GetDerivatives(c: Fmi2Component, derivatives: *mut Fmi2Real, nx: usize) -> Status;
            fn fmi2GetEventIndicators(c: Fmi2Component, indicators: *mut Fmi2Real, ni: usize) -> Status;
            fn fmi2GetNominalsOfContinuousStates(c: Fmi2Component, nominals: *mut Fmi2Real, nx: usize) -> Status;
            fn fmi2EnterEventMode(c: Fmi2Component) -> Status;
            fn fmi2NewDiscreteStates(c: Fmi2Component, info: *mut EventInfo) -> Status;
            fn fmi2EnterContinuousTimeMode(c: Fmi2Component) -> Status;
            fn fmi2CompletedIntegratorStep(c: Fmi2Component, no_set_fmu_state_prior_to_current_point: Fmi2Boolean, enter_event_mode: *mut Fmi2Boolean, terminate_simulation: *mut Fmi2Boolean) -> Status;
        }
    };
}
