//! Model Exchange's hot calls, answered before the general path of their
//! row (`first` in [`handle_exports!`](crate::ffi::export)) when they
//! compute nothing and break no rule: `SetTime` (the time compared with the
//! earliest allowed by its bits), `SetContinuousStates` of states stored as
//! they are, and the event indicators copied while the last evaluation is
//! current. (Not the derivatives: a solver asks for them after new states,
//! so they evaluate nearly always, and the row answers at once.) A variable-step solver makes these calls on every
//! right-hand side; here each is the handle check, the phase check and the
//! copy, without the general path's `Result`, closure and panic guard (none
//! of this can panic: it indexes nothing it has not checked, and allocates
//! nothing). `None`: the general path answers, which checks everything again
//! and words any refusal. Each runs in the host's floating-point
//! environment: it computes nothing and compares only bits.
//!
//! One set for both standards: the two bindings' functions take the same
//! arguments.

use super::known::Known;
use super::{instance, MAX_ARRAY_LEN};
use crate::instance::{Allowed, Status};
use std::ffi::c_void;

/// `ptr[0..n]` when the importer passed an array the general path would
/// accept as one: none (a count of zero, any pointer: a model without
/// states or indicators is asked for its empty arrays on every evaluation),
/// or non-NULL with a count within bounds.
///
/// # Safety
/// `ptr` is NULL or points at `n` elements for the call (FMI 2.0, 2.1.7;
/// FMI 3.0, 2.2.6).
#[inline(always)]
unsafe fn array<'a>(ptr: *const f64, n: usize) -> Option<&'a [f64]> {
    if n == 0 {
        return Some(&[]);
    }
    if ptr.is_null() || n > MAX_ARRAY_LEN {
        return None;
    }
    // SAFETY: non-NULL, and `n` elements by this function's contract.
    Some(unsafe { std::slice::from_raw_parts(ptr, n) })
}

/// As [`array`], to write.
///
/// # Safety
/// `ptr` is NULL or points at `n` writable elements that nothing else reads
/// or writes during the call.
#[inline(always)]
unsafe fn array_mut<'a>(ptr: *mut f64, n: usize) -> Option<&'a mut [f64]> {
    if n == 0 {
        return Some(&mut []);
    }
    if ptr.is_null() || n > MAX_ARRAY_LEN {
        return None;
    }
    // SAFETY: non-NULL, and `n` writable elements by this function's contract.
    Some(unsafe { std::slice::from_raw_parts_mut(ptr, n) })
}

/// `fmi*SetTime`.
///
/// # Safety
/// `c` as [`instance`]'s.
#[inline(always)]
pub unsafe fn set_time(c: *mut c_void, allowed: Allowed, time: f64) -> Option<Status> {
    // SAFETY: this function's contract.
    let comp = unsafe { instance(c) }?;
    comp.set_time_now(time, allowed).then_some(Status::Ok)
}

/// `fmi*SetContinuousStates`.
///
/// # Safety
/// `c` as [`instance`]'s; `x` as [`array`]'s.
#[inline(always)]
pub unsafe fn set_continuous_states<K: Known>(
    c: *mut c_void,
    allowed: Allowed,
    x: *const f64,
    nx: usize,
) -> Option<Status> {
    // SAFETY: this function's contract.
    let (comp, x) = unsafe { (instance(c)?, array(x, nx)?) };
    K::set_plain_states(comp, x, allowed).then_some(Status::Ok)
}

/// `fmi*GetEventIndicators`.
///
/// # Safety
/// `c` as [`instance`]'s; `out` as [`array_mut`]'s.
#[inline(always)]
pub unsafe fn get_event_indicators<K: Known>(
    c: *mut c_void,
    allowed: Allowed,
    out: *mut f64,
    ni: usize,
) -> Option<Status> {
    // SAFETY: this function's contract.
    let (comp, out) = unsafe { (instance(c)?, array_mut(out, ni)?) };
    K::copy_indicators(comp, out, allowed).then_some(Status::Ok)
}

/// Where a one-value read may be answered here: where the row allows a
/// read, but not in Instantiated, where FMI 3.0 allows the start values
/// only and the row decides which (FMI 2.0 reads nothing there).
const READ_NOW: Allowed = !crate::instance::phase::set(&[crate::instance::Phase::Instantiated]);

/// `fmi2GetReal` of one variable stored in a field (an importer reading an
/// output after each step): a copy that computes nothing.
///
/// # Safety
/// `c` as [`instance`]'s; `vr` and `value` NULL or pointing at `nvr`
/// elements for the call.
#[inline(always)]
pub unsafe fn get_one_real<K: Known>(
    c: *mut c_void,
    allowed: Allowed,
    vr: *const u32,
    nvr: usize,
    value: *mut f64,
) -> Option<Status> {
    if nvr != 1 || vr.is_null() || value.is_null() {
        return None;
    }
    // SAFETY: this function's contract; `vr` and `value` are non-NULL and,
    // with one value, point at one element each.
    unsafe {
        let x = K::get_one_plain_real(instance(c)?, *vr, allowed & READ_NOW)?;
        *value = x;
    }
    Some(Status::Ok)
}

/// `fmi3GetFloat64`: as [`get_one_real`], with one value.
///
/// # Safety
/// As [`get_one_real`]'s, `values` pointing at `n_values` elements.
#[inline(always)]
pub unsafe fn get_one_float64<K: Known>(
    c: *mut c_void,
    allowed: Allowed,
    vr: *const u32,
    nvr: usize,
    values: *mut f64,
    n_values: usize,
) -> Option<Status> {
    if n_values != nvr {
        return None;
    }
    // SAFETY: this function's contract, with as many values as references.
    unsafe { get_one_real::<K>(c, allowed, vr, nvr, values) }
}

/// `fmi2SetReal` of one input stored as it is, with no range to check (an
/// importer setting an input before each step): a store.
///
/// # Safety
/// `c` as [`instance`]'s; `vr` and `value` NULL or pointing at `nvr`
/// elements for the call.
#[inline(always)]
pub unsafe fn set_one_real<K: Known>(
    c: *mut c_void,
    allowed: Allowed,
    vr: *const u32,
    nvr: usize,
    value: *const f64,
) -> Option<Status> {
    if nvr != 1 || vr.is_null() || value.is_null() {
        return None;
    }
    // SAFETY: this function's contract; `vr` and `value` are non-NULL and,
    // with one value, point at one element each.
    let stored = unsafe { K::set_one_plain_real(instance(c)?, *vr, *value, allowed) };
    stored.then_some(Status::Ok)
}

/// `fmi3SetFloat64`: as [`set_one_real`], with one value.
///
/// # Safety
/// As [`set_one_real`]'s, `values` pointing at `n_values` elements.
#[inline(always)]
pub unsafe fn set_one_float64<K: Known>(
    c: *mut c_void,
    allowed: Allowed,
    vr: *const u32,
    nvr: usize,
    values: *const f64,
    n_values: usize,
) -> Option<Status> {
    if n_values != nvr {
        return None;
    }
    // SAFETY: this function's contract, with as many values as references.
    unsafe { set_one_real::<K>(c, allowed, vr, nvr, values) }
}
