//! Getting and setting values by value reference.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

/// This file's rows of the FMI 2.0 export table ([`crate::fmi2_table!`]),
/// written into the binding here and into a model's binary by
/// [`crate::export_model!`].
#[doc(hidden)]
#[macro_export]
macro_rules! fmi2_values {
    ($callback:ident { $($args:tt)* }) => {
        $crate::$callback! { $($args)*
            /// One value of a variable stored in a field (an importer reading an
            /// output after each step) is copied in the host's environment
            /// ([`crate::ffi::hot::get_one_real`]); every other read computes.
            fn fmi2GetReal<K>(vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2Real) [first get_one_real] computes allowed::GET
                => |comp, vr = slice(nvr, "vr"), value = slice_mut(nvr, "value")| comp.get_real(vr, value);
            fn fmi2GetInteger(vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2Integer) computes allowed::GET
                => |comp, vr = slice(nvr, "vr"), value = slice_mut(nvr, "value")| comp.get_integer(vr, value);
            fn fmi2GetBoolean(vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2Boolean) computes allowed::GET
                => |comp, vr = slice(nvr, "vr"), value = slice_mut(nvr, "value")| {
                    scratch(nvr, |values: &mut [bool]| {
                        let status = comp.get_boolean(vr, values)?;
                        value.iter_mut().zip(values.iter()).for_each(|(to, &from)| *to = from.into());
                        Ok(status)
                    })
                };
            /// No String variables: every value reference is refused by name.
            fn fmi2GetString(vr: *const Fmi2ValueReference, nvr: usize, value: *mut Fmi2String) host allowed::GET
                => |comp, vr = slice(nvr, "vr"), value = slice_mut(nvr, "value")| comp.none_of_type(vr, "String");
            /// One value of an input stored as it is, with no range (an importer
            /// setting an input before each step), is stored in the host's
            /// environment ([`crate::ffi::hot::set_one_real`]); every other set
            /// checks ranges.
            fn fmi2SetReal<K>(vr: *const Fmi2ValueReference, nvr: usize, value: *const Fmi2Real) [first set_one_real] computes allowed::SET
                => |comp, vr = slice(nvr, "vr"), value = slice(nvr, "value")| comp.set_real(vr, value);
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
                => |comp, vr = slice(nvr, "vr"), value = slice(nvr, "value")| comp.none_of_type(vr, "String");
        }
    };
}
crate::fmi2_values!(handle_exports { Fmi2Component => });
