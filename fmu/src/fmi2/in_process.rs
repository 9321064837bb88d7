//! A safe handle on an in-process instance, for the tools and tests that
//! drive a model without loading an FMU (the `runner` crate: scenarios,
//! cross-check references, figures).
//!
//! Every call goes through the exported `fmi2*` functions, so the same
//! argument checks, state machine, logging and panic guard run as for an
//! importer; this file only owns the pointers. It is the one place outside
//! `exports/` where those functions are called from Rust.

use super::exports::*;
use super::types::*;
use crate::ffi::known::AnyModel;
use std::ffi::{c_char, c_void, CString};

/// An instance of one model, freed on drop.
pub struct Instance {
    component: Fmi2Component,
    /// Kept for the instance's lifetime: FMI 2.0 lets an FMU keep the pointer.
    _callbacks: Box<CallbackFunctions>,
}

impl Instance {
    /// `fmi2Instantiate` for Co-Simulation with the GUID `guid` and a
    /// logger that drops every message; `None` if the FMU refuses.
    pub fn new(instance_name: &str, guid: &str) -> Option<Self> {
        let name = CString::new(instance_name).ok()?;
        let guid = CString::new(guid).ok()?;
        let callbacks = Box::new(silent_callbacks());
        // SAFETY: valid NUL-terminated strings for the duration of the call
        // (the FMU copies them) and callbacks that live as long as the
        // instance (they are kept in it).
        let component = unsafe {
            fmi2Instantiate(
                crate::ffi::registry_models(),
                name.as_ptr(),
                FMI2_CO_SIMULATION,
                guid.as_ptr(),
                std::ptr::null(),
                &*callbacks,
                0,
                0,
            )
        };
        (!component.is_null()).then_some(Self { component, _callbacks: callbacks })
    }

    /// `fmi2SetupExperiment`; `None` leaves the tolerance or stop time undefined.
    pub fn setup_experiment(&mut self, tolerance: Option<f64>, start_time: f64, stop_time: Option<f64>) -> Status {
        // SAFETY: `component` is a live instance (created in `new`, freed only on drop).
        unsafe {
            fmi2SetupExperiment(
                self.component,
                tolerance.is_some() as Fmi2Boolean,
                tolerance.unwrap_or(0.0),
                start_time,
                stop_time.is_some() as Fmi2Boolean,
                stop_time.unwrap_or(0.0),
            )
        }
    }

    pub fn enter_initialization_mode(&mut self) -> Status {
        // SAFETY: `component` is a live instance.
        unsafe { fmi2EnterInitializationMode(self.component) }
    }

    pub fn exit_initialization_mode(&mut self) -> Status {
        // SAFETY: `component` is a live instance.
        unsafe { fmi2ExitInitializationMode(self.component) }
    }

    pub fn do_step(&mut self, time: f64, step: f64, no_set_fmu_state_prior: bool) -> Status {
        // SAFETY: `component` is a live instance.
        unsafe { fmi2DoStep(self.component, time, step, no_set_fmu_state_prior as Fmi2Boolean) }
    }

    /// `fmi2SetReal`; `fmi2Error` without a call if the lengths differ.
    pub fn set_real(&mut self, vrs: &[u32], values: &[f64]) -> Status {
        if vrs.len() != values.len() {
            return Status::Error;
        }
        // SAFETY: a live instance; both arrays hold `vrs.len()` elements.
        unsafe { fmi2SetReal::<AnyModel>(self.component, vrs.as_ptr(), vrs.len(), values.as_ptr()) }
    }

    /// `fmi2SetInteger`; `fmi2Error` without a call if the lengths differ.
    pub fn set_integer(&mut self, vrs: &[u32], values: &[i32]) -> Status {
        if vrs.len() != values.len() {
            return Status::Error;
        }
        // SAFETY: a live instance; both arrays hold `vrs.len()` elements.
        unsafe { fmi2SetInteger(self.component, vrs.as_ptr(), vrs.len(), values.as_ptr()) }
    }

    /// `fmi2SetBoolean` (0 false, else true); `fmi2Error` without a call if the lengths differ.
    pub fn set_boolean(&mut self, vrs: &[u32], values: &[i32]) -> Status {
        if vrs.len() != values.len() {
            return Status::Error;
        }
        // SAFETY: a live instance; both arrays hold `vrs.len()` elements.
        unsafe { fmi2SetBoolean(self.component, vrs.as_ptr(), vrs.len(), values.as_ptr()) }
    }

    /// `fmi2GetReal`; `fmi2Error` without a call if the lengths differ.
    pub fn get_real(&mut self, vrs: &[u32], values: &mut [f64]) -> Status {
        if vrs.len() != values.len() {
            return Status::Error;
        }
        // SAFETY: a live instance; both arrays hold `vrs.len()` elements, `values` writable.
        unsafe { fmi2GetReal::<AnyModel>(self.component, vrs.as_ptr(), vrs.len(), values.as_mut_ptr()) }
    }

    /// `fmi2GetInteger`; `fmi2Error` without a call if the lengths differ.
    pub fn get_integer(&mut self, vrs: &[u32], values: &mut [i32]) -> Status {
        if vrs.len() != values.len() {
            return Status::Error;
        }
        // SAFETY: a live instance; both arrays hold `vrs.len()` elements, `values` writable.
        unsafe { fmi2GetInteger(self.component, vrs.as_ptr(), vrs.len(), values.as_mut_ptr()) }
    }

    /// `fmi2GetBoolean`; `fmi2Error` without a call if the lengths differ.
    pub fn get_boolean(&mut self, vrs: &[u32], values: &mut [i32]) -> Status {
        if vrs.len() != values.len() {
            return Status::Error;
        }
        // SAFETY: a live instance; both arrays hold `vrs.len()` elements, `values` writable.
        unsafe { fmi2GetBoolean(self.component, vrs.as_ptr(), vrs.len(), values.as_mut_ptr()) }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: a live instance, freed once: `component` is not used after this.
        unsafe { fmi2FreeInstance(self.component) }
    }
}

/// Callbacks for an in-process instance whose logger drops every message.
pub fn silent_callbacks() -> CallbackFunctions {
    // SAFETY: the same ABI for the calls the FMU makes; see `quiet`.
    let logger = unsafe { std::mem::transmute::<QuietLogger, Logger>(quiet as QuietLogger) };
    CallbackFunctions {
        logger: Some(logger),
        allocate_memory: None,
        free_memory: None,
        step_finished: None,
        component_environment: std::ptr::null_mut(),
    }
}

type QuietLogger =
    unsafe extern "C" fn(*mut c_void, *const c_char, Status, *const c_char, *const c_char, *const c_char);

/// The FMU calls `logger(env, name, status, category, "%s", text)`. Stable
/// Rust cannot define a variadic function; on x86_64 System V this
/// six-argument function receives exactly those arguments. It drops them.
unsafe extern "C" fn quiet(
    _env: *mut c_void,
    _name: *const c_char,
    _status: Status,
    _category: *const c_char,
    _format: *const c_char,
    _text: *const c_char,
) {
}
