//! The FMI 2.0 Co-Simulation C ABI, written once for every model.

pub mod component;
pub mod erased;
pub mod exports;
pub mod in_process;
pub mod log;
pub mod module_path;
pub mod types;
