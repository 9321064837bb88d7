//! FMU states (save, restore, free, serialize) and directional derivatives.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

#[inline]
pub unsafe extern "C" fn fmi2GetFMUstate(c: Fmi2Component, state: *mut Fmi2FmuState) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the out-pointer is checked non-NULL before it is read or written, and the importer passes one it owns (FMI 2.0, 2.1.8).
    unsafe {
        with(c, "fmi2GetFMUstate", allowed::ANY_BUT_FATAL, |comp| {
            if state.is_null() {
                return Err("FMUstate (the pointer to fill) is NULL".into());
            }
            *state = comp.get_state(*state as Handle)? as Fmi2FmuState;
            Ok(Status::Ok)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2SetFMUstate(c: Fmi2Component, state: Fmi2FmuState) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `state` is only compared with the instance's own live states before any use (`Instance::set_state`).
    unsafe { with(c, "fmi2SetFMUstate", allowed::ANY_BUT_FATAL, |comp| comp.set_state(state as Handle)) }
}

#[inline]
pub unsafe extern "C" fn fmi2FreeFMUstate(c: Fmi2Component, state: *mut Fmi2FmuState) -> Status {
    // SAFETY: `c` is checked by `with`; the out-pointer is checked non-NULL before it is read or written, and the importer passes one it owns (FMI 2.0, 2.1.8).
    unsafe {
        with(c, "fmi2FreeFMUstate", allowed::ANY_BUT_FATAL, |comp| {
            if state.is_null() {
                return Err("FMUstate (the pointer to the state) is NULL".into());
            }
            comp.free_state(*state as Handle)?;
            *state = std::ptr::null_mut();
            Ok(Status::Ok)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2SerializedFMUstateSize(c: Fmi2Component, state: Fmi2FmuState, size: *mut usize) -> Status {
    // SAFETY: `c` is checked by `with`; `size` is checked non-NULL before it is written; `state` is only used once found among the instance's live states.
    unsafe {
        with(c, "fmi2SerializedFMUstateSize", allowed::ANY_BUT_FATAL, |comp| {
            if size.is_null() {
                return Err("size is NULL".into());
            }
            *size = comp.serialize(state as Handle)?.len();
            Ok(Status::Ok)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2SerializeFMUstate(
    c: Fmi2Component,
    state: Fmi2FmuState,
    bytes: *mut Fmi2Byte,
    size: usize,
) -> Status {
    // SAFETY: `c` is checked by `with`; `bytes` holds `size` bytes (FMI 2.0, 2.1.8), at least the length written, which `slice_mut` bounds and checks non-NULL.
    unsafe {
        with(c, "fmi2SerializeFMUstate", allowed::ANY_BUT_FATAL, |comp| {
            let data = comp.serialize(state as Handle)?;
            if size < data.len() {
                return Err(format!(
                    "size = {size} rejected: the state needs {} bytes (fmi2SerializedFMUstateSize)",
                    data.len()
                ));
            }
            let out = slice_mut(bytes as *mut u8, data.len(), "serializedState")?;
            out.copy_from_slice(&data);
            Ok(Status::Ok)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2DeSerializeFMUstate(
    c: Fmi2Component,
    bytes: *const Fmi2Byte,
    size: usize,
    state: *mut Fmi2FmuState,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `bytes` holds `size` bytes (FMI 2.0, 2.1.8), `slice` refuses NULL; `state` is checked non-NULL before it is read or written.
    unsafe {
        with(c, "fmi2DeSerializeFMUstate", allowed::ANY_BUT_FATAL, |comp| {
            if state.is_null() {
                return Err("FMUstate (the pointer to fill) is NULL".into());
            }
            let data = slice(bytes as *const u8, size, "serializedState")?;
            *state = comp.deserialize(data, *state as Handle)? as Fmi2FmuState;
            Ok(Status::Ok)
        })
    }
}

crate::ffi::export::handle_exports! { Fmi2Component =>
    fn fmi2GetDirectionalDerivative(
        _unknown: *const Fmi2ValueReference,
        _n_unknown: usize,
        _known: *const Fmi2ValueReference,
        _n_known: usize,
        _dv_known: *const Fmi2Real,
        _dv_unknown: *mut Fmi2Real
    ) host allowed::DIRECTIONAL_DERIVATIVE => |_| Err("not provided (providesDirectionalDerivative=\"false\")".into());
}
