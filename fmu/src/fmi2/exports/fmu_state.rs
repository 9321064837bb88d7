//! FMU states (save, restore, free, serialize) and directional derivatives.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

/// This file's rows of the FMI 2.0 export table ([`crate::fmi2_table!`]),
/// written into the binding here and into a model's binary by
/// [`crate::export_model!`].
#[doc(hidden)]
#[macro_export]
macro_rules! fmi2_fmu_state {
    ($callback:ident { $($args:tt)* }) => {
        $crate::$callback! { $($args)*
            fn fmi2GetFMUstate(state: *mut Fmi2FmuState) computes allowed::ANY_BUT_FATAL
                => |comp, state = out("FMUstate (the pointer to fill)")| {
                    *state = comp.get_state(*state as Handle)? as Fmi2FmuState;
                    Ok(Status::Ok)
                };
            /// `state` is only compared with the instance's own live states before
            /// any use (`Instance::set_state`).
            fn fmi2SetFMUstate(state: Fmi2FmuState) computes allowed::ANY_BUT_FATAL => |comp| comp.set_state(state as Handle);
            fn fmi2FreeFMUstate(state: *mut Fmi2FmuState) host allowed::ANY_BUT_FATAL
                => |comp, state = out("FMUstate (the pointer to the state)")| {
                    comp.free_state(*state as Handle)?;
                    *state = std::ptr::null_mut();
                    Ok(Status::Ok)
                };
            fn fmi2SerializedFMUstateSize(state: Fmi2FmuState, size: *mut usize) host allowed::ANY_BUT_FATAL
                => |comp, size = out("size")| {
                    *size = comp.serialize(state as Handle)?.len();
                    Ok(Status::Ok)
                };
            fn fmi2SerializeFMUstate(state: Fmi2FmuState, bytes: *mut Fmi2Byte, size: usize) host allowed::ANY_BUT_FATAL
                // Any buffer at least the state's size will do, however large: the
                // slice reaches no further than the array bound that `slice_mut` allows.
                => |comp, bytes = slice_mut(size.min($crate::ffi::MAX_ARRAY_LEN), "serializedState")| {
                    let data = comp.serialize(state as Handle)?;
                    if size < data.len() {
                        return Err(format!(
                            "size = {size} rejected: the state needs {} bytes (fmi2SerializedFMUstateSize)",
                            data.len()
                        ));
                    }
                    // fmi2Byte is C's char: the same bits.
                    bytes.iter_mut().zip(&data).for_each(|(to, from)| *to = *from as Fmi2Byte);
                    Ok(Status::Ok)
                };
            fn fmi2DeSerializeFMUstate(bytes: *const Fmi2Byte, size: usize, state: *mut Fmi2FmuState) computes allowed::ANY_BUT_FATAL
                => |comp, bytes = slice(size, "serializedState"), state = out("FMUstate (the pointer to fill)")| {
                    let data: Vec<u8> = bytes.iter().map(|&b| b as u8).collect();
                    *state = comp.deserialize(&data, *state as Handle)? as Fmi2FmuState;
                    Ok(Status::Ok)
                };
            fn fmi2GetDirectionalDerivative(
                _unknown: *const Fmi2ValueReference,
                _n_unknown: usize,
                _known: *const Fmi2ValueReference,
                _n_known: usize,
                _dv_known: *const Fmi2Real,
                _dv_unknown: *mut Fmi2Real
            ) host allowed::DIRECTIONAL_DERIVATIVE => |_| Err("not provided (providesDirectionalDerivative=\"false\")".into());
        }
    };
}
crate::fmi2_fmu_state!(handle_exports { Fmi2Component => });
