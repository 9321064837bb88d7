//! Getting and setting values by value reference.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

#[inline]
pub unsafe extern "C" fn fmi2GetReal(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    value: *mut Fmi2Real,
) -> Status {
    // One value of a variable stored in a field, allowed now: the commonest
    // call (an importer reading an output after each step) copies an f64
    // and computes nothing, so it is answered in the host's floating-point
    // environment, with the same checks (no `Result`, no slices; a field
    // read cannot panic). Every other read computes: below.
    if nvr == 1 && !vr.is_null() && !value.is_null() {
        // SAFETY: `component` checks `c` (NULL, alignment, magic); `vr` and
        // `value` are non-NULL and, with nvr = 1, point at one element each
        // that the importer owns for the call (FMI 2.0, 2.1.7).
        unsafe {
            if let Some(x) = component(c).and_then(|comp| comp.get_one_plain_real(*vr, allowed::GET)) {
                *value = x;
                return Status::Ok;
            }
        }
    }
    // SAFETY: the importer's arguments, as this function's contract.
    unsafe { get_real_computed(c, vr, nvr, value) }
}

/// `fmi2GetReal` of what a getter computes (or a derivative, or a refusal),
/// in IEEE 754's default environment.
///
/// # Safety
/// As [`with`] for `c`; `vr` and `value` NULL or pointing at `nvr` elements.
#[inline(always)]
unsafe fn get_real_computed(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    value: *mut Fmi2Real,
) -> Status {
    let _env = CallEnv::enter();
    // One value of a Real variable, allowed now, answered with the same
    // checks but no `Result` or slice bookkeeping; everything else, and
    // every refusal, takes the general path below.
    if nvr == 1 && !vr.is_null() && !value.is_null() {
        // SAFETY: `component` checks `c` (NULL, alignment, magic); `vr` and
        // `value` are non-NULL and, with nvr = 1, point at one element each
        // that the importer owns for the call (FMI 2.0, 2.1.7).
        unsafe {
            if let Some(comp) = component(c) {
                match catch_unwind(AssertUnwindSafe(|| comp.get_one_real(*vr, allowed::GET))) {
                    Ok(Some(x)) => {
                        *value = x;
                        return Status::Ok;
                    }
                    Ok(None) => {}
                    // The reference the closure held is gone with it.
                    Err(payload) => return poisoned(c, "fmi2GetReal", payload),
                }
            }
            // (nvr is 1 here: one register less to keep across the call.)
            return get_real_checked(c, vr, 1, value);
        }
    }
    // SAFETY: as this function's contract (the importer's arguments).
    unsafe { get_real_checked(c, vr, nvr, value) }
}

/// `fmi2GetReal` in general: any count, and the words for every refusal.
///
/// # Safety
/// As [`with`] for `c`; `vr` and `value` NULL or pointing at `nvr` elements.
#[inline(never)]
unsafe fn get_real_checked(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    value: *mut Fmi2Real,
) -> Status {
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as the count says (FMI 2.0, 2.1.7), and `slice`/`slice_mut` refuse NULL with a non-zero count.
    unsafe {
        with(c, "fmi2GetReal", allowed::GET, |comp| {
            let vrs = slice(vr, nvr, "vr")?;
            let out = slice_mut(value, nvr, "value")?;
            comp.get_real(vrs, out)
        })
    }
}

crate::ffi::export::handle_exports! { Fmi2Component =>
    fn fmi2GetInteger(vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2Integer) computes allowed::GET
        => |comp, vr = slice(nvr, "vr"), value = slice_mut(nvr, "value")| comp.get_integer(vr, value);
    fn fmi2GetBoolean(vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2Boolean) computes allowed::GET
        => |comp, vr = slice(nvr, "vr"), value = slice_mut(nvr, "value")| {
            scratch(nvr, |values: &mut [bool]| {
                let status = comp.get_boolean(vr, values)?;
                value.iter_mut().zip(values.iter()).for_each(|(to, &from)| *to = flag(from));
                Ok(status)
            })
        };
    /// No String variables: every value reference is refused by name.
    fn fmi2GetString(vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2String) host allowed::GET
        => |comp, vr = slice(nvr, "vr"), value = slice_mut(nvr, "value")| comp.check_string_vrs(vr);
}

#[inline]
pub unsafe extern "C" fn fmi2SetReal(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    value: *const Fmi2Real,
) -> Status {
    // One value of an input stored as it is, with no range (an importer
    // setting an input before each step): a store that computes and
    // compares no floating-point value, so it runs in the host's
    // environment; every other set checks ranges, below.
    if nvr == 1 && !vr.is_null() && !value.is_null() {
        // SAFETY: `component` checks `c` (NULL, alignment, magic); `vr` and
        // `value` are non-NULL and, with nvr = 1, point at one element each
        // that the importer owns for the call (FMI 2.0, 2.1.7).
        unsafe {
            if component(c).is_some_and(|comp| comp.set_one_plain_real(*vr, *value, allowed::SET)) {
                return Status::Ok;
            }
        }
    }
    // SAFETY: the importer's arguments, as this function's contract.
    unsafe { set_real_computed(c, vr, nvr, value) }
}

/// `fmi2SetReal` with its checks (ranges, several values, refusals), in
/// IEEE 754's default environment.
///
/// # Safety
/// As [`with`] for `c`; `vr` and `value` NULL or pointing at `nvr` elements.
#[inline(never)]
unsafe fn set_real_computed(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    value: *const Fmi2Real,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as the count says (FMI 2.0, 2.1.7), and `slice`/`slice_mut` refuse NULL with a non-zero count.
    unsafe {
        with(c, "fmi2SetReal", allowed::SET, |comp| {
            let vrs = slice(vr, nvr, "vr")?;
            let values = slice(value, nvr, "value")?;
            comp.set_real(vrs, values)
        })
    }
}

crate::ffi::export::handle_exports! { Fmi2Component =>
    fn fmi2SetInteger(vr: *const Fmi2ValueReference, nvr: usize, value: *const Fmi2Integer) computes allowed::SET
        => |comp, vr = slice(nvr, "vr"), value = slice(nvr, "value")| comp.set_integer(vr, value);
    fn fmi2SetBoolean(vr: *const Fmi2ValueReference, nvr: usize, value: *const Fmi2Boolean) computes allowed::SET
        => |comp, vr = slice(nvr, "vr"), value = slice(nvr, "value")| {
            scratch(nvr, |values: &mut [bool]| {
                values.iter_mut().zip(value).for_each(|(to, &from)| *to = from != FMI2_FALSE);
                comp.set_boolean(vr, values)
            })
        };
    fn fmi2SetString(vr: *const Fmi2ValueReference, nvr: usize, value: *const Fmi2String) host allowed::SET
        => |comp, vr = slice(nvr, "vr"), value = slice(nvr, "value")| comp.check_string_vrs(vr);
}
