//! The FMI 2.0 binding: the 44 `fmi2*` functions of the C ABI (Co-Simulation
//! and Model Exchange in one binary) over the instance core
//! ([`crate::instance`]), written once for every model. A binding turns C
//! arguments into core calls, checks pointers and array lengths, catches
//! panics, keeps the host's floating-point environment out, and says where
//! each function is allowed ([`allowed`]); the physics and the bookkeeping
//! are the core's.
//!
//! The only folder of the product crates with `unsafe` (a test in
//! `fmu/tests/unsafe_contained.rs` keeps it so): every operation that needs
//! it sits in an explicit `unsafe` block, even inside an `unsafe fn`, and
//! each block says on the line above why it holds (`// SAFETY:`).

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod allowed;
pub mod exports;
pub mod in_process;
pub mod log;
pub mod types;

use crate::instance::Vocabulary;

/// How FMI 2.0 names what the core's messages refer to.
pub static VOCABULARY: Vocabulary = Vocabulary {
    co_simulation: "fmuType fmi2CoSimulation",
    model_exchange: "fmuType fmi2ModelExchange",
    after_internal_error: "fmi2Reset and fmi2FreeInstance",
    stop_time: "fmi2SetupExperiment (stopTimeDefined = true)",
    types: &crate::instance::CORE_TYPES,
};
