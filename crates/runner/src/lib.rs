//! Runs models in this process through the exported fmi2 functions (the
//! same calls, checks and bookkeeping an importer gets), for the tools and
//! tests: the papers' scenarios ([`Simulate`]), the FMI cross-check sets
//! ([`cross_check`]) and the [`Table`] they produce.
//!
//! This crate sits above the FMI layer and is not linked into the FMU
//! binary; it has no `unsafe` (it drives instances through
//! [`fmu::fmi2::in_process::Instance`]).

#![forbid(unsafe_code)]

pub mod cross_check;
pub mod simulate;

pub use simulate::{Simulate, Table};
