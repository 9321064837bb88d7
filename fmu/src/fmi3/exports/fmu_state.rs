//! FMU states (save, restore, free, serialize) and the derivative
//! functions the FMUs do not provide.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

/// This file's rows of the FMI 3.0 export table ([`crate::fmi3_table!`]),
/// written into the binding here and into a model's binary by
/// [`crate::export_model!`].
#[doc(hidden)]
#[macro_export]
macro_rules! fmi3_fmu_state {
    ($callback:ident { $($args:tt)* }) => {
        $crate::$callback! { $($args)*
            fn fmi3GetFMUState(state: *mut Fmi3FmuState) computes allowed::FMU_STATE
                => |comp, state = out("FMUState (the pointer to fill)")| {
                    *state = comp.get_state(*state as Handle)? as Fmi3FmuState;
                    Ok(Status::Ok)
                };
            /// `state` is only compared with the instance's own live states before
            /// any use (`Instance::set_state`).
            fn fmi3SetFMUState(state: Fmi3FmuState) computes allowed::FMU_STATE => |comp| comp.set_state(state as Handle);
            fn fmi3FreeFMUState(state: *mut Fmi3FmuState) host allowed::FMU_STATE
                => |comp, state = out("FMUState (the pointer to the state)")| {
                    comp.free_state(*state as Handle)?;
                    *state = std::ptr::null_mut();
                    Ok(Status::Ok)
                };
            fn fmi3SerializedFMUStateSize(state: Fmi3FmuState, size: *mut usize) host allowed::FMU_STATE
                => |comp, size = out("size")| {
                    *size = comp.serialize(state as Handle)?.len();
                    Ok(Status::Ok)
                };
            fn fmi3SerializeFMUState(state: Fmi3FmuState, bytes: *mut Fmi3Byte, size: usize) host allowed::FMU_STATE
                // Any buffer at least the state's size will do, however large: the
                // slice reaches no further than the array bound that `slice_mut` allows.
                => |comp, bytes = slice_mut(size.min($crate::ffi::MAX_ARRAY_LEN), "serializedState")| {
                    let data = comp.serialize(state as Handle)?;
                    if size < data.len() {
                        return Err(format!(
                            "size = {size} rejected: the state needs {} bytes (fmi3SerializedFMUStateSize)",
                            data.len()
                        ));
                    }
                    bytes[..data.len()].copy_from_slice(&data);
                    Ok(Status::Ok)
                };
            fn fmi3DeserializeFMUState(bytes: *const Fmi3Byte, size: usize, state: *mut Fmi3FmuState) computes allowed::FMU_STATE
                => |comp, bytes = slice(size, "serializedState"), state = out("FMUState (the pointer to fill)")| {
                    *state = comp.deserialize(bytes, *state as Handle)? as Fmi3FmuState;
                    Ok(Status::Ok)
                };
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
    };
}
crate::fmi3_fmu_state!(handle_exports { Fmi3Instance => });
