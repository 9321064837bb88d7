//! The exports' common imports, so that each group file starts from
//! `ffi::*`: the shared C-boundary helpers ([`crate::ffi`]: the handle
//! checked, the call run with panics caught, arrays as slices) and FMI
//! 2.0's types, rules and log.

#![forbid(unsafe_code)]

pub(super) use crate::ffi::float_env::CallEnv;
/// The model the tests name to the rows that know one (`crate::ffi::known`).
#[cfg(test)]
pub(super) use crate::ffi::known::AnyModel;
pub(super) use crate::ffi::{instance as component, instantiate, scratch};
pub(super) use crate::fmi2::allowed;
pub(super) use crate::fmi2::log;
pub(super) use crate::fmi2::types::*;
pub(super) use crate::fmi2::VOCABULARY;
pub(super) use crate::instance::snapshot::Handle;
pub(super) use crate::instance::{Instance, Interface};
pub(super) use std::ffi::{c_char, c_int, CStr, CString};
pub(super) use std::panic::{catch_unwind, AssertUnwindSafe};
