//! The exports' common imports, so that each group file starts from
//! `ffi::*`: the shared C-boundary helpers ([`crate::ffi`]) and FMI 3.0's
//! types, rules, log and value layout.

#![forbid(unsafe_code)]

pub(super) use crate::ffi::float_env::CallEnv;
/// The model the tests name to the rows that know one (`crate::ffi::known`).
#[cfg(test)]
pub(super) use crate::ffi::known::AnyModel;
pub(super) use crate::ffi::{instance, instantiate, scratch};
pub(super) use crate::fmi3::allowed;
pub(super) use crate::fmi3::log;
pub(super) use crate::fmi3::types::*;
pub(super) use crate::fmi3::VOCABULARY;
pub(super) use crate::instance::snapshot::Handle;
pub(super) use crate::instance::{Access, CoSimulationEvents, Instance, Interface, Outcome};
pub(super) use std::ffi::c_void;
pub(super) use std::panic::{catch_unwind, AssertUnwindSafe};
