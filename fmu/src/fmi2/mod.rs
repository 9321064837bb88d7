//! The FMI 2.0 C ABI (Co-Simulation and Model Exchange in one binary), written once for every model.
//!
//! The only folder of the product crates with `unsafe` (a test in
//! `fmu/tests/unsafe_contained.rs` keeps it so): every operation that needs
//! it sits in an explicit `unsafe` block, even inside an `unsafe fn`, and
//! each block says on the line above why it holds (`// SAFETY:`).

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod component;
pub mod erased;
pub mod exports;
pub mod float_env;
pub mod in_process;
pub mod log;
pub mod module_path;
pub mod types;
