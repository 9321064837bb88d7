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
pub unsafe fn set_continuous_states(c: *mut c_void, allowed: Allowed, x: *const f64, nx: usize) -> Option<Status> {
    // SAFETY: this function's contract.
    let (comp, x) = unsafe { (instance(c)?, array(x, nx)?) };
    comp.set_plain_states_now(x, allowed).then_some(Status::Ok)
}

/// `fmi*GetEventIndicators`.
///
/// # Safety
/// `c` as [`instance`]'s; `out` as [`array_mut`]'s.
#[inline(always)]
pub unsafe fn get_event_indicators(c: *mut c_void, allowed: Allowed, out: *mut f64, ni: usize) -> Option<Status> {
    // SAFETY: this function's contract.
    let (comp, out) = unsafe { (instance(c)?, array_mut(out, ni)?) };
    comp.copy_indicators_now(out, allowed).then_some(Status::Ok)
}
