//! The Co-Simulation functions: the step, its status, and the input and
//! output derivatives.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

#[inline]
pub unsafe extern "C" fn fmi2SetRealInputDerivatives(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    order: *const Fmi2Integer,
    value: *const Fmi2Real,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as the count says (FMI 2.0, 2.1.7), and `slice`/`slice_mut` refuse NULL with a non-zero count.
    unsafe {
        with(c, "fmi2SetRealInputDerivatives", allowed::INPUT_DERIVATIVES, |comp| {
            let vrs = slice(vr, nvr, "vr")?;
            let orders = slice(order, nvr, "order")?;
            let values = slice(value, nvr, "value")?;
            comp.set_input_derivatives(vrs, orders, values)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2GetRealOutputDerivatives(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    order: *const Fmi2Integer,
    value: *mut Fmi2Real,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as the count says (FMI 2.0, 2.1.7), and `slice`/`slice_mut` refuse NULL with a non-zero count.
    unsafe {
        with(c, "fmi2GetRealOutputDerivatives", allowed::OUTPUT_DERIVATIVES, |comp| {
            let vrs = slice(vr, nvr, "vr")?;
            let orders = slice(order, nvr, "order")?;
            let out = slice_mut(value, nvr, "value")?;
            comp.get_output_derivatives(vrs, orders, out)
        })
    }
}

crate::ffi::export::handle_exports! { Fmi2Component =>
    fn fmi2DoStep(
        current_communication_point: Fmi2Real,
        communication_step_size: Fmi2Real,
        _no_set_fmu_state_prior_to_current_point: Fmi2Boolean
    ) computes allowed::STEP_COMPLETE => |comp| comp.do_step(current_communication_point, communication_step_size);
    fn fmi2CancelStep() host allowed::ANY_BUT_FATAL => |_| {
        Err("no step is pending: fmi2DoStep never returns fmi2Pending (canRunAsynchronuously=\"false\")".into())
    };
}

/// Status queries: only the ones an importer may ask after a synchronous
/// step are answered; the rest are fmi2Discard, as the standard says.
#[inline]
pub unsafe extern "C" fn fmi2GetStatus(c: Fmi2Component, kind: c_int, value: *mut Status) -> Status {
    // SAFETY: `c` is checked by `with`; the out-pointer is checked non-NULL before it is read or written, and the importer passes one it owns (FMI 2.0, 2.1.8).
    unsafe {
        with(c, "fmi2GetStatus", allowed::STATUS, |comp| {
            if value.is_null() {
                return Err("value is NULL".into());
            }
            Ok(comp.fail(
                "fmi2GetStatus",
                Status::Discard,
                &format!("status kind {kind} is not available: no step is pending"),
            ))
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2GetRealStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2Real) -> Status {
    // SAFETY: `c` is checked by `with`; the out-pointer is checked non-NULL before it is read or written, and the importer passes one it owns (FMI 2.0, 2.1.8).
    unsafe {
        with(c, "fmi2GetRealStatus", allowed::STATUS, |comp| {
            if value.is_null() {
                return Err("value is NULL".into());
            }
            if kind == FMI2_LAST_SUCCESSFUL_TIME {
                *value = comp.last_successful_time();
                return Ok(Status::Ok);
            }
            Ok(comp.fail("fmi2GetRealStatus", Status::Discard, &format!("status kind {kind} is not a Real status")))
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2GetIntegerStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2Integer) -> Status {
    // SAFETY: `c` is checked by `with`; the out-pointer is checked non-NULL before it is read or written, and the importer passes one it owns (FMI 2.0, 2.1.8).
    unsafe {
        with(c, "fmi2GetIntegerStatus", allowed::STATUS, |comp| {
            if value.is_null() {
                return Err("value is NULL".into());
            }
            Ok(comp.fail(
                "fmi2GetIntegerStatus",
                Status::Discard,
                &format!("status kind {kind} is not an Integer status"),
            ))
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2GetBooleanStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2Boolean) -> Status {
    // SAFETY: `c` is checked by `with`; the out-pointer is checked non-NULL before it is read or written, and the importer passes one it owns (FMI 2.0, 2.1.8).
    unsafe {
        with(c, "fmi2GetBooleanStatus", allowed::STATUS, |comp| {
            if value.is_null() {
                return Err("value is NULL".into());
            }
            if kind == FMI2_TERMINATED {
                *value = FMI2_FALSE; // the FMU never asks to end the simulation
                return Ok(Status::Ok);
            }
            Ok(comp.fail(
                "fmi2GetBooleanStatus",
                Status::Discard,
                &format!("status kind {kind} is not a Boolean status"),
            ))
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2GetStringStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2String) -> Status {
    // SAFETY: `c` is checked by `with`; the out-pointer is checked non-NULL before it is read or written, and the importer passes one it owns (FMI 2.0, 2.1.8).
    unsafe {
        with(c, "fmi2GetStringStatus", allowed::STATUS, |comp| {
            if value.is_null() {
                return Err("value is NULL".into());
            }
            Ok(comp.fail(
                "fmi2GetStringStatus",
                Status::Discard,
                &format!("status kind {kind} is not available: no step is pending"),
            ))
        })
    }
}
