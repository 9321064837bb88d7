//! The C types of `fmi2TypesPlatform.h` and `fmi2FunctionTypes.h` (FMI 2.0,
//! "default" platform), written out here so the crate needs no C headers.

use std::ffi::{c_char, c_int, c_uint, c_void};

pub type Fmi2Component = *mut c_void;
pub type Fmi2ComponentEnvironment = *mut c_void;
pub type Fmi2FmuState = *mut c_void;
pub type Fmi2ValueReference = c_uint;
pub type Fmi2Real = f64;
pub type Fmi2Integer = c_int;
pub type Fmi2Boolean = c_int;
pub type Fmi2String = *const c_char;
pub type Fmi2Byte = c_char;

pub const FMI2_TRUE: Fmi2Boolean = 1;
pub const FMI2_FALSE: Fmi2Boolean = 0;
// What `bool::into` gives: the bindings write their flags so.
const _: () = assert!(FMI2_TRUE == true as Fmi2Boolean && FMI2_FALSE == false as Fmi2Boolean);

/// `fmi2Status`: the core's, numbered as FMI 2.0 numbers it (`fmi2Pending`,
/// 5, is never returned: no step runs asynchronously).
pub use crate::instance::Status;

/// `fmi2Type` (received as an int: an out-of-range value must not be UB).
pub const FMI2_MODEL_EXCHANGE: c_int = 0;
pub const FMI2_CO_SIMULATION: c_int = 1;

/// `fmi2StatusKind` values we answer (received as an int).
pub const FMI2_LAST_SUCCESSFUL_TIME: c_int = 2;
pub const FMI2_TERMINATED: c_int = 3;

/// `fmi2CallbackLogger`: variadic, printf-style message.
pub type Logger = unsafe extern "C" fn(Fmi2ComponentEnvironment, Fmi2String, Status, Fmi2String, Fmi2String, ...);

/// `fmi2CallbackFunctions`. Function pointers are `Option` because the
/// environment may pass NULL; we never call the memory functions
/// (canNotUseMemoryManagementFunctions="true").
#[repr(C)]
pub struct CallbackFunctions {
    pub logger: Option<Logger>,
    pub allocate_memory: Option<unsafe extern "C" fn(usize, usize) -> *mut c_void>,
    pub free_memory: Option<unsafe extern "C" fn(*mut c_void)>,
    pub step_finished: Option<unsafe extern "C" fn(Fmi2ComponentEnvironment, Status)>,
    pub component_environment: Fmi2ComponentEnvironment,
}

/// `fmi2EventInfo` (Model Exchange, fmi2NewDiscreteStates); all false
/// and 0 by default, as an importer passes it in.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct EventInfo {
    pub new_discrete_states_needed: Fmi2Boolean,
    pub terminate_simulation: Fmi2Boolean,
    pub nominals_of_continuous_states_changed: Fmi2Boolean,
    pub values_of_continuous_states_changed: Fmi2Boolean,
    pub next_event_time_defined: Fmi2Boolean,
    pub next_event_time: Fmi2Real,
}
