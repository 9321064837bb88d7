//! The exports of FMI 3.0 (75 functions, the unused features' among them, which refuse): each row a C function's name and signature,
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
macro_rules! fmi3_table {
    ($callback:ident { $($args:tt)* }) => {
        $crate::$callback! { $($args)* ;
            // common.rs
            fn fmi3GetVersion() -> *const std::ffi::c_char;
            fn fmi3SetDebugLogging(c: Fmi3Instance, logging_on: Fmi3Boolean, n_categories: usize, categories: *const Fmi3String) -> Status;
            models fn fmi3InstantiateModelExchange(instance_name: Fmi3String, instantiation_token: Fmi3String, resource_path: Fmi3String, visible: Fmi3Boolean, logging_on: Fmi3Boolean, environment: Fmi3InstanceEnvironment, log_message: Option<LogMessage>) -> Fmi3Instance;
            models fn fmi3InstantiateCoSimulation(instance_name: Fmi3String, instantiation_token: Fmi3String, resource_path: Fmi3String, visible: Fmi3Boolean, logging_on: Fmi3Boolean, event_mode_used: Fmi3Boolean, early_return_allowed: Fmi3Boolean, required_intermediate_variables: *const Fmi3ValueReference, n_required_intermediate_variables: usize, environment: Fmi3InstanceEnvironment, log_message: Option<LogMessage>, intermediate_update: Option<IntermediateUpdate>) -> Fmi3Instance;
            fn fmi3InstantiateScheduledExecution(instance_name: Fmi3String, instantiation_token: Fmi3String, resource_path: Fmi3String, visible: Fmi3Boolean, logging_on: Fmi3Boolean, environment: Fmi3InstanceEnvironment, log_message: Option<LogMessage>, clock_update: *mut c_void, lock_preemption: *mut c_void, unlock_preemption: *mut c_void) -> Fmi3Instance;
            fn fmi3FreeInstance(c: Fmi3Instance);
            fn fmi3EnterInitializationMode(c: Fmi3Instance, tolerance_defined: Fmi3Boolean, tolerance: Fmi3Float64, start_time: Fmi3Float64, stop_time_defined: Fmi3Boolean, stop_time: Fmi3Float64) -> Status;
            fn fmi3ExitInitializationMode(c: Fmi3Instance) -> Status;
            fn fmi3EnterEventMode(c: Fmi3Instance) -> Status;
            fn fmi3Terminate(c: Fmi3Instance) -> Status;
            fn fmi3Reset(c: Fmi3Instance) -> Status;
            fn fmi3EnterConfigurationMode(c: Fmi3Instance) -> Status;
            fn fmi3ExitConfigurationMode(c: Fmi3Instance) -> Status;
            // values.rs
            fn fmi3GetBinary(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, value_sizes: *mut usize, values: *mut *const u8, n_values: usize) -> Status;
            fn fmi3SetBinary(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, value_sizes: *const usize, values: *const *const u8, n_values: usize) -> Status;
            fn fmi3GetClock(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *mut Fmi3Boolean) -> Status;
            fn fmi3SetClock(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *const Fmi3Boolean) -> Status;
            fn fmi3GetNumberOfVariableDependencies(c: Fmi3Instance, vr: Fmi3ValueReference, n_dependencies: *mut usize) -> Status;
            fn fmi3GetVariableDependencies(c: Fmi3Instance, dependent: Fmi3ValueReference, element_indices_of_dependent: *mut usize, independents: *mut Fmi3ValueReference, element_indices_of_independents: *mut usize, dependency_kinds: *mut i32, n_dependencies: usize) -> Status;
            known fn fmi3GetFloat64(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *mut f64, n_values: usize) -> Status;
            known fn fmi3SetFloat64(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *const f64, n_values: usize) -> Status;
            fn fmi3GetInt32(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *mut i32, n_values: usize) -> Status;
            fn fmi3SetInt32(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *const i32, n_values: usize) -> Status;
            fn fmi3GetInt64(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *mut i64, n_values: usize) -> Status;
            fn fmi3SetInt64(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *const i64, n_values: usize) -> Status;
            fn fmi3GetBoolean(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *mut Fmi3Boolean, n_values: usize) -> Status;
            fn fmi3SetBoolean(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *const Fmi3Boolean, n_values: usize) -> Status;
            fn fmi3GetFloat32(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *mut f32, n_values: usize) -> Status;
            fn fmi3SetFloat32(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *const f32, n_values: usize) -> Status;
            fn fmi3GetInt8(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *mut i8, n_values: usize) -> Status;
            fn fmi3SetInt8(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *const i8, n_values: usize) -> Status;
            fn fmi3GetUInt8(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *mut u8, n_values: usize) -> Status;
            fn fmi3SetUInt8(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *const u8, n_values: usize) -> Status;
            fn fmi3GetInt16(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *mut i16, n_values: usize) -> Status;
            fn fmi3SetInt16(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *const i16, n_values: usize) -> Status;
            fn fmi3GetUInt16(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *mut u16, n_values: usize) -> Status;
            fn fmi3SetUInt16(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *const u16, n_values: usize) -> Status;
            fn fmi3GetUInt32(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *mut u32, n_values: usize) -> Status;
            fn fmi3SetUInt32(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *const u32, n_values: usize) -> Status;
            fn fmi3GetUInt64(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *mut u64, n_values: usize) -> Status;
            fn fmi3SetUInt64(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *const u64, n_values: usize) -> Status;
            fn fmi3GetString(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *mut Fmi3String, n_values: usize) -> Status;
            fn fmi3SetString(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, values: *const Fmi3String, n_values: usize) -> Status;
            fn fmi3GetIntervalDecimal(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, intervals: *mut f64, qualifiers: *mut i32) -> Status;
            fn fmi3GetIntervalFraction(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, counters: *mut u64, resolutions: *mut u64, qualifiers: *mut i32) -> Status;
            fn fmi3GetShiftDecimal(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, shifts: *mut f64) -> Status;
            fn fmi3GetShiftFraction(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, counters: *mut u64, resolutions: *mut u64) -> Status;
            fn fmi3SetIntervalDecimal(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, intervals: *const f64) -> Status;
            fn fmi3SetIntervalFraction(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, counters: *const u64, resolutions: *const u64) -> Status;
            fn fmi3SetShiftDecimal(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, shifts: *const f64) -> Status;
            fn fmi3SetShiftFraction(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, counters: *const u64, resolutions: *const u64) -> Status;
            // fmu_state.rs
            fn fmi3GetFMUState(c: Fmi3Instance, state: *mut Fmi3FmuState) -> Status;
            fn fmi3SetFMUState(c: Fmi3Instance, state: Fmi3FmuState) -> Status;
            fn fmi3FreeFMUState(c: Fmi3Instance, state: *mut Fmi3FmuState) -> Status;
            fn fmi3SerializedFMUStateSize(c: Fmi3Instance, state: Fmi3FmuState, size: *mut usize) -> Status;
            fn fmi3SerializeFMUState(c: Fmi3Instance, state: Fmi3FmuState, bytes: *mut Fmi3Byte, size: usize) -> Status;
            fn fmi3DeserializeFMUState(c: Fmi3Instance, bytes: *const Fmi3Byte, size: usize, state: *mut Fmi3FmuState) -> Status;
            fn fmi3GetDirectionalDerivative(c: Fmi3Instance, unknowns: *const Fmi3ValueReference, n_unknowns: usize, knowns: *const Fmi3ValueReference, n_knowns: usize, seed: *const Fmi3Float64, n_seed: usize, sensitivity: *mut Fmi3Float64, n_sensitivity: usize) -> Status;
            fn fmi3GetAdjointDerivative(c: Fmi3Instance, unknowns: *const Fmi3ValueReference, n_unknowns: usize, knowns: *const Fmi3ValueReference, n_knowns: usize, seed: *const Fmi3Float64, n_seed: usize, sensitivity: *mut Fmi3Float64, n_sensitivity: usize) -> Status;
            // co_simulation.rs
            fn fmi3EnterStepMode(c: Fmi3Instance) -> Status;
            fn fmi3GetOutputDerivatives(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, orders: *const i32, values: *mut Fmi3Float64, n_values: usize) -> Status;
            fn fmi3DoStep(c: Fmi3Instance, current_communication_point: Fmi3Float64, communication_step_size: Fmi3Float64, no_set_fmu_state_prior_to_current_point: Fmi3Boolean, event_handling_needed: *mut Fmi3Boolean, terminate_simulation: *mut Fmi3Boolean, early_return: *mut Fmi3Boolean, last_successful_time: *mut Fmi3Float64) -> Status;
            // model_exchange.rs
            fn fmi3SetTime(c: Fmi3Instance, time: Fmi3Float64) -> Status;
            fn fmi3SetContinuousStates(c: Fmi3Instance, x: *const Fmi3Float64, nx: usize) -> Status;
            fn fmi3GetContinuousStates(c: Fmi3Instance, x: *mut Fmi3Float64, nx: usize) -> Status;
            fn fmi3GetContinuousStateDerivatives(c: Fmi3Instance, derivatives: *mut Fmi3Float64, nx: usize) -> Status;
            fn fmi3GetEventIndicators(c: Fmi3Instance, indicators: *mut Fmi3Float64, ni: usize) -> Status;
            fn fmi3GetNominalsOfContinuousStates(c: Fmi3Instance, nominals: *mut Fmi3Float64, nx: usize) -> Status;
            fn fmi3GetNumberOfContinuousStates(c: Fmi3Instance, n: *mut usize) -> Status;
            fn fmi3GetNumberOfEventIndicators(c: Fmi3Instance, n: *mut usize) -> Status;
            fn fmi3UpdateDiscreteStates(c: Fmi3Instance, discrete_states_need_update: *mut Fmi3Boolean, terminate_simulation: *mut Fmi3Boolean, nominals_changed: *mut Fmi3Boolean, values_changed: *mut Fmi3Boolean, next_event_time_defined: *mut Fmi3Boolean, next_event_time: *mut Fmi3Float64) -> Status;
            fn fmi3EnterContinuousTimeMode(c: Fmi3Instance) -> Status;
            fn fmi3CompletedIntegratorStep(c: Fmi3Instance, no_set_fmu_state_prior_to_current_point: Fmi3Boolean, enter_event_mode: *mut Fmi3Boolean, terminate_simulation: *mut Fmi3Boolean) -> Status;
            fn fmi3EvaluateDiscreteStates(c: Fmi3Instance) -> Status;
            fn fmi3ActivateModelPartition(c: Fmi3Instance, clock_reference: Fmi3ValueReference, activation_time: Fmi3Float64) -> Status;
        }
    };
}
