//! The C types of `fmi3PlatformTypes.h` and `fmi3FunctionTypes.h` (FMI
//! 3.0), written out here so the crate needs no C headers. `fmi3Boolean` is
//! C's `bool`, one byte; it is received as a byte (`u8`), so that a value
//! other than 0 or 1 from a careless caller is not undefined behaviour.

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

/// `fmi3Status`: the core's, numbered as FMI 3.0 numbers it (OK 0 to Fatal 4).
pub use crate::instance::Status;

/// `fmi3LogMessageCallback`: no format string in FMI 3.0.
pub type LogMessage = unsafe extern "C" fn(Fmi3InstanceEnvironment, Status, Fmi3String, Fmi3String);

/// `fmi3IntermediateUpdateCallback` (never called: `providesIntermediateUpdate="false"`).
pub type IntermediateUpdate = unsafe extern "C" fn(Fmi3InstanceEnvironment, f64, u8, u8, u8, u8, *mut u8, *mut f64);

/// `fmi3Boolean` for a Rust `bool`.
pub fn flag(b: bool) -> Fmi3Boolean {
    if b {
        FMI3_TRUE
    } else {
        FMI3_FALSE
    }
}
