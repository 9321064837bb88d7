//! FMU states (save, restore, free, serialize) and the derivative
//! functions the FMUs do not provide.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

#[inline]
pub unsafe extern "C" fn fmi3GetFMUState(c: Fmi3Instance, state: *mut Fmi3FmuState) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the out-pointer is checked non-NULL before it is read or written, and the importer passes one it owns (FMI 3.0, 2.2.7).
    unsafe {
        with(c, "fmi3GetFMUState", allowed::FMU_STATE, |comp| {
            if state.is_null() {
                return Err("FMUState (the pointer to fill) is NULL".into());
            }
            *state = comp.get_state(*state as Handle)? as Fmi3FmuState;
            Ok(Status::Ok)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi3SetFMUState(c: Fmi3Instance, state: Fmi3FmuState) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `state` is only compared with the instance's own live states before any use (`Instance::set_state`).
    unsafe { with(c, "fmi3SetFMUState", allowed::FMU_STATE, |comp| comp.set_state(state as Handle)) }
}

#[inline]
pub unsafe extern "C" fn fmi3FreeFMUState(c: Fmi3Instance, state: *mut Fmi3FmuState) -> Status {
    // SAFETY: `c` is checked by `with`; the out-pointer is checked non-NULL before it is read or written, and the importer passes one it owns (FMI 3.0, 2.2.7).
    unsafe {
        with(c, "fmi3FreeFMUState", allowed::FMU_STATE, |comp| {
            if state.is_null() {
                return Err("FMUState (the pointer to the state) is NULL".into());
            }
            comp.free_state(*state as Handle)?;
            *state = std::ptr::null_mut();
            Ok(Status::Ok)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi3SerializedFMUStateSize(c: Fmi3Instance, state: Fmi3FmuState, size: *mut usize) -> Status {
    // SAFETY: `c` is checked by `with`; `size` is checked non-NULL before it is written (`put`); `state` is only used once found among the instance's live states.
    unsafe {
        with(c, "fmi3SerializedFMUStateSize", allowed::FMU_STATE, |comp| {
            let n = comp.serialize(state as Handle)?.len();
            put(size, n, "size")?;
            Ok(Status::Ok)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi3SerializeFMUState(
    c: Fmi3Instance,
    state: Fmi3FmuState,
    bytes: *mut Fmi3Byte,
    size: usize,
) -> Status {
    // SAFETY: `c` is checked by `with`; `bytes` holds `size` bytes (FMI 3.0, 2.2.7), at least the length written, which `slice_mut` bounds and checks non-NULL.
    unsafe {
        with(c, "fmi3SerializeFMUState", allowed::FMU_STATE, |comp| {
            let data = comp.serialize(state as Handle)?;
            if size < data.len() {
                return Err(format!(
                    "size = {size} rejected: the state needs {} bytes (fmi3SerializedFMUStateSize)",
                    data.len()
                ));
            }
            slice_mut(bytes, data.len(), "serializedState")?.copy_from_slice(&data);
            Ok(Status::Ok)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi3DeserializeFMUState(
    c: Fmi3Instance,
    bytes: *const Fmi3Byte,
    size: usize,
    state: *mut Fmi3FmuState,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `bytes` holds `size` bytes (FMI 3.0, 2.2.7), `slice` refuses NULL; `state` is checked non-NULL before it is read or written.
    unsafe {
        with(c, "fmi3DeserializeFMUState", allowed::FMU_STATE, |comp| {
            if state.is_null() {
                return Err("FMUState (the pointer to fill) is NULL".into());
            }
            let data = slice(bytes, size, "serializedState")?;
            *state = comp.deserialize(data, *state as Handle)? as Fmi3FmuState;
            Ok(Status::Ok)
        })
    }
}

crate::ffi::export::handle_exports! { Fmi3Instance =>
    fn fmi3GetDirectionalDerivative(
        _unknowns: *const Fmi3ValueReference,
        _n_unknowns: usize,
        _knowns: *const Fmi3ValueReference,
        _n_knowns: usize,
        _seed: *const Fmi3Float64,
        _n_seed: usize,
        _sensitivity: *mut Fmi3Float64,
        _n_sensitivity: usize
    ) host allowed::DERIVATIVES => |_| Err("not provided (providesDirectionalDerivatives=\"false\")".into());
    fn fmi3GetAdjointDerivative(
        _unknowns: *const Fmi3ValueReference,
        _n_unknowns: usize,
        _knowns: *const Fmi3ValueReference,
        _n_knowns: usize,
        _seed: *const Fmi3Float64,
        _n_seed: usize,
        _sensitivity: *mut Fmi3Float64,
        _n_sensitivity: usize
    ) host allowed::DERIVATIVES => |_| Err("not provided (providesAdjointDerivatives=\"false\")".into());
}
