//! The C types of `fmi3PlatformTypes.h` and `fmi3FunctionTypes.h` (FMI
//! 3.0), written out here so the crate needs no C headers. `fmi3Boolean` is
//! C's `bool`, one byte; it is received as a byte (`u8`), so that a value
//! other than 0 or 1 from a careless caller is not undefined behaviour.

use crate::instance::{Kind, Types, ValueType};
use std::ffi::{c_char, c_void};

pub type Fmi3Instance = *mut c_void;
pub type Fmi3InstanceEnvironment = *mut c_void;
pub type Fmi3FmuState = *mut c_void;
pub type Fmi3ValueReference = u32;
pub type Fmi3Float64 = f64;
pub type Fmi3Boolean = u8;
pub type Fmi3String = *const c_char;
pub type Fmi3Byte = u8;

pub const FMI3_TRUE: Fmi3Boolean = 1;
pub const FMI3_FALSE: Fmi3Boolean = 0;
// What `bool::into` gives: the bindings write their flags so.
const _: () = assert!(FMI3_TRUE == true as Fmi3Boolean && FMI3_FALSE == false as Fmi3Boolean);

/// `fmi3Status`: the core's, numbered as FMI 3.0 numbers it (OK 0 to Fatal 4).
pub use crate::instance::Status;

/// `fmi3LogMessageCallback`: no format string in FMI 3.0.
pub type LogMessage = unsafe extern "C" fn(Fmi3InstanceEnvironment, Status, Fmi3String, Fmi3String);

/// `fmi3IntermediateUpdateCallback` (never called: `providesIntermediateUpdate="false"`).
pub type IntermediateUpdate = unsafe extern "C" fn(Fmi3InstanceEnvironment, f64, u8, u8, u8, u8, *mut u8, *mut f64);

/// FMI 3.0's types of the core's kinds: `time` and the event indicators
/// are Float64 variables, Integers Int32, Enumerations Int64.
pub static TYPES: Types = Types {
    of_kind: |kind| match kind {
        Kind::Real | Kind::Derivative | Kind::Time | Kind::Indicator => "a Float64",
        Kind::Integer => "an Int32",
        Kind::Enumeration => "an Enumeration (read and written as Int64)",
        Kind::Boolean => "a Boolean",
    },
    time_and_indicators: true,
    time_is_set_by: "fmi3EnterInitializationMode sets the start time, fmi3SetTime the time in Model Exchange",
    counts: ("nValueReferences", "nValues"),
};

/// The types that carry the FMUs' variables; the others have none.
pub const FLOAT64: ValueType =
    ValueType { name: "Float64", kinds: &[Kind::Real, Kind::Derivative, Kind::Time, Kind::Indicator] };
pub const FLOAT64_OUTPUT: ValueType = ValueType { name: "Float64 output", kinds: &[Kind::Real] };
pub const INT32: ValueType = ValueType { name: "Int32", kinds: &[Kind::Integer] };
pub const INT64: ValueType = ValueType { name: "Int64 (an Enumeration)", kinds: &[Kind::Enumeration] };
pub const BOOLEAN: ValueType = ValueType { name: "Boolean", kinds: &[Kind::Boolean] };
