//! What every export shares: the component pointer checked, the call run
//! under the call-sequence check with panics caught, and C arrays turned
//! into slices (NULL and absurd lengths refused). The exports' common
//! imports are here too, so that each group file starts from `ffi::*`.

#![allow(clippy::missing_safety_doc)]

pub(super) use crate::fmi2::allowed;
pub(super) use crate::fmi2::float_env::CallEnv;
pub(super) use crate::fmi2::log;
pub(super) use crate::fmi2::types::*;
pub(super) use crate::fmi2::VOCABULARY;
pub(super) use crate::instance::snapshot::Handle;
pub(super) use crate::instance::{Instance, Interface, INSTANCE_MAGIC};
pub(super) use crate::registry;
pub(super) use std::ffi::{c_char, c_int, CStr, CString};
pub(super) use std::panic::{catch_unwind, AssertUnwindSafe};

/// Largest array an importer may pass; more is taken as a corrupted count.
pub(super) const MAX_ARRAY_LEN: usize = 1 << 24;

/// The component behind `c`, if it is one of ours and alive.
///
/// # Safety
/// `c` is NULL or a pointer the importer got from `fmi2Instantiate` (FMI 2.0,
/// 2.1.5): readable for an `Instance` unless it was freed, which the magic
/// tells apart on a best-effort basis (the memory is then the allocator's).
#[inline(always)]
pub(super) unsafe fn component<'a>(c: Fmi2Component) -> Option<&'a mut Instance> {
    if c.is_null() || !(c as usize).is_multiple_of(std::mem::align_of::<Instance>()) {
        return None;
    }
    // SAFETY: non-NULL and aligned (checked above), and by this function's
    // contract a pointer `fmi2Instantiate` returned; no other reference to the
    // instance lives during an FMI call (FMI 2.0 forbids concurrent calls on
    // one instance).
    let comp = unsafe { &mut *(c as *mut Instance) };
    (comp.magic == INSTANCE_MAGIC).then_some(comp)
}

pub(super) fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Run `body` on the component with the call-sequence check for `function`,
/// turning a panic into fmi2Error and an instance that accepts only reset/free.
///
/// # Safety
/// As [`component`] for `c`.
#[inline(always)]
pub(super) unsafe fn with(
    c: Fmi2Component,
    function: &'static str,
    allowed: u16,
    body: impl FnOnce(&mut Instance) -> Result<Status, String>,
) -> Status {
    // SAFETY: this function's contract.
    let Some(comp) = (unsafe { component(c) }) else {
        return Status::Error; // no instance, hence no logger to tell
    };
    match catch_unwind(AssertUnwindSafe(|| comp.call(function, allowed, body))) {
        Ok(status) => status,
        // SAFETY: `c` was found to be a live component above; the reference
        // the panicking body held is gone with the unwound closure.
        Err(payload) => unsafe { poisoned(c, function, payload) },
    }
}

/// The panic path of [`with`], out of line.
///
/// # Safety
/// `c` is a live component with no other reference to it.
#[cold]
#[inline(never)]
pub(super) unsafe fn poisoned(c: Fmi2Component, function: &str, payload: Box<dyn std::any::Any + Send>) -> Status {
    // SAFETY: this function's contract.
    let comp = unsafe { &mut *(c as *mut Instance) };
    let text = panic_text(payload.as_ref());
    comp.poison(
        function,
        &format!("internal error (panic): {text}; only fmi2Reset and fmi2FreeInstance are allowed now"),
    )
}

/// `ptr[0..n]`, refusing NULL with n > 0 and absurd lengths.
///
/// # Safety
/// `ptr` is NULL or points at `n` initialized `T` that outlive `'a` and that
/// nothing writes meanwhile (an FMI array argument, FMI 2.0, 2.1.7).
#[inline(always)]
pub(super) unsafe fn slice<'a, T>(ptr: *const T, n: usize, what: &str) -> Result<&'a [T], String> {
    if n == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(null_array(what, n));
    }
    if n > MAX_ARRAY_LEN {
        return Err(too_long(what, n));
    }
    // SAFETY: non-NULL, and `n` elements by this function's contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr, n) })
}

/// `ptr[0..n]` to write, as [`slice`].
///
/// # Safety
/// `ptr` is NULL or points at `n` writable `T` that outlive `'a` and that
/// nothing else reads or writes meanwhile.
#[inline(always)]
pub(super) unsafe fn slice_mut<'a, T>(ptr: *mut T, n: usize, what: &str) -> Result<&'a mut [T], String> {
    if n == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(null_array(what, n));
    }
    if n > MAX_ARRAY_LEN {
        return Err(too_long(what, n));
    }
    // SAFETY: non-NULL, and `n` exclusive elements by this function's contract.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, n) })
}

#[cold]
pub(super) fn null_array(what: &str, n: usize) -> String {
    format!("{what} is NULL with {n} elements")
}

#[cold]
pub(super) fn too_long(what: &str, n: usize) -> String {
    format!("{what} has {n} elements (at most {MAX_ARRAY_LEN})")
}
