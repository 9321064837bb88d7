//! The FMI 3.0 binding: the `fmi3*` functions of the C ABI (Co-Simulation
//! and Model Exchange in one binary, beside FMI 2.0's) over the same
//! instance core ([`crate::instance`]). Like [`crate::fmi2`], it turns C
//! arguments into core calls and says where each function is allowed
//! ([`allowed`]); what FMI 3.0 adds at the boundary is here too: its
//! types ([`types::TYPES`]: the independent variable `time` and the event
//! indicators are Float64 variables, enumerations read and written as
//! Int64; the core checks each reference against them,
//! [`crate::instance::typed`]), and the functions of features the FMUs do not declare
//! (clocks, configuration mode, scheduled execution, binaries), which
//! refuse with the reason.
//!
//! Co-Simulation's early return and event mode are the core's
//! ([`crate::instance::StepEnd`]): a step stops at its first stick, slip,
//! lock or unlock when the importer allows it, and asks for event mode there
//! when the importer uses it.

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod allowed;
pub mod exports;
pub mod log;
pub mod types;

use crate::instance::Vocabulary;

/// How FMI 3.0 names what the core's messages refer to.
pub static VOCABULARY: Vocabulary = Vocabulary {
    co_simulation: "fmi3InstantiateCoSimulation",
    model_exchange: "fmi3InstantiateModelExchange",
    after_internal_error: "fmi3Reset and fmi3FreeInstance",
    stop_time: "fmi3EnterInitializationMode (stopTimeDefined = true)",
    types: &types::TYPES,
};
