//! Getting and setting values by value reference: Float64, Int32 (the
//! Integers), Int64 (the Enumerations) and Boolean carry the FMUs'
//! variables; the other types of FMI 3.0 have none and refuse every value
//! reference with that reason.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

/// This file's rows of the FMI 3.0 export table ([`crate::fmi3_table!`]),
/// written into the binding here and into a model's binary by
/// [`crate::export_model!`].
#[doc(hidden)]
#[macro_export]
macro_rules! fmi3_values {
    ($callback:ident { $($args:tt)* }) => {
        $crate::$callback! { $($args)*
            /// As `fmi2GetReal`: one value of a variable stored in a field, in the
            /// host's environment ([`crate::ffi::hot::get_one_float64`]); also
            /// `time` and the event indicators.
            fn fmi3GetFloat64<K>(vr: *const Fmi3ValueReference, nvr: usize, values: *mut f64, n_values: usize) [first get_one_float64] computes allowed::GET
                => |comp, vr = slice(nvr, "valueReferences"), values = slice_mut(n_values, "values")| {
                    comp.check_type(vr, n_values, &FLOAT64, Access::Get)?;
                    comp.get_float(vr, values)
                };
            /// As `fmi2SetReal`: one value of an input stored as it is, with no
            /// range, in the host's environment ([`crate::ffi::hot::set_one_float64`]).
            fn fmi3SetFloat64<K>(vr: *const Fmi3ValueReference, nvr: usize, values: *const f64, n_values: usize) [first set_one_float64] computes allowed::SET
                => |comp, vr = slice(nvr, "valueReferences"), values = slice(n_values, "values")| {
                    comp.check_type(vr, n_values, &FLOAT64, Access::Set)?;
                    comp.set_real(vr, values)
                };
            fn fmi3GetInt32(vr: *const Fmi3ValueReference, nvr: usize, values: *mut i32, n_values: usize) computes allowed::GET
                => |comp, vr = slice(nvr, "valueReferences"), values = slice_mut(n_values, "values")| {
                    comp.check_type(vr, n_values, &INT32, Access::Get)?;
                    comp.get_integer(vr, values)
                };
            fn fmi3SetInt32(vr: *const Fmi3ValueReference, nvr: usize, values: *const i32, n_values: usize) computes allowed::SET
                => |comp, vr = slice(nvr, "valueReferences"), values = slice(n_values, "values")| {
                    comp.check_type(vr, n_values, &INT32, Access::Set)?;
                    comp.set_integer(vr, values)
                };
            /// The only Int64 variables are the enumerations, held as Integers.
            fn fmi3GetInt64(vr: *const Fmi3ValueReference, nvr: usize, values: *mut i64, n_values: usize) computes allowed::GET
                => |comp, vr = slice(nvr, "valueReferences"), values = slice_mut(n_values, "values")| {
                    comp.check_type(vr, n_values, &INT64, Access::Get)?;
                    scratch(nvr, |narrow: &mut [i32]| {
                        let status = comp.get_integer(vr, narrow)?;
                        values.iter_mut().zip(narrow.iter()).for_each(|(to, &from)| *to = from.into());
                        Ok(status)
                    })
                };
            fn fmi3SetInt64(vr: *const Fmi3ValueReference, nvr: usize, values: *const i64, n_values: usize) computes allowed::SET
                => |comp, vr = slice(nvr, "valueReferences"), values = slice(n_values, "values")| {
                    comp.check_type(vr, n_values, &INT64, Access::Set)?;
                    scratch(nvr, |narrow: &mut [i32]| {
                        for ((to, &from), &vr) in narrow.iter_mut().zip(values).zip(vr) {
                            // Out of i32's range is no item of any enumeration.
                            *to = i32::try_from(from).map_err(|_| {
                                format!("{} = {from} rejected: not an item of its Enumeration", comp.variable_name(vr).unwrap_or("?"))
                            })?;
                        }
                        comp.set_integer(vr, narrow)
                    })
                };
            fn fmi3GetBoolean(vr: *const Fmi3ValueReference, nvr: usize, values: *mut Fmi3Boolean, n_values: usize) computes allowed::GET
                => |comp, vr = slice(nvr, "valueReferences"), values = slice_mut(n_values, "values")| {
                    comp.check_type(vr, n_values, &BOOLEAN, Access::Get)?;
                    scratch(nvr, |flags: &mut [bool]| {
                        let status = comp.get_boolean(vr, flags)?;
                        values.iter_mut().zip(flags.iter()).for_each(|(to, &from)| *to = from.into());
                        Ok(status)
                    })
                };
            fn fmi3SetBoolean(vr: *const Fmi3ValueReference, nvr: usize, values: *const Fmi3Boolean, n_values: usize) computes allowed::SET
                => |comp, vr = slice(nvr, "valueReferences"), values = slice(n_values, "values")| {
                    comp.check_type(vr, n_values, &BOOLEAN, Access::Set)?;
                    scratch(nvr, |flags: &mut [bool]| {
                        flags.iter_mut().zip(values).for_each(|(to, &from)| *to = from != FMI3_FALSE);
                        comp.set_boolean(vr, flags)
                    })
                };
            // The types without variables: every value reference refused (an
            // empty call is fine), with what it is.
            fn fmi3GetFloat32(vr: *const Fmi3ValueReference, nvr: usize, _values: *mut f32, n_values: usize) host allowed::GET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "Float32");
            fn fmi3SetFloat32(vr: *const Fmi3ValueReference, nvr: usize, _values: *const f32, n_values: usize) host allowed::SET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "Float32");
            fn fmi3GetInt8(vr: *const Fmi3ValueReference, nvr: usize, _values: *mut i8, n_values: usize) host allowed::GET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "Int8");
            fn fmi3SetInt8(vr: *const Fmi3ValueReference, nvr: usize, _values: *const i8, n_values: usize) host allowed::SET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "Int8");
            fn fmi3GetUInt8(vr: *const Fmi3ValueReference, nvr: usize, _values: *mut u8, n_values: usize) host allowed::GET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "UInt8");
            fn fmi3SetUInt8(vr: *const Fmi3ValueReference, nvr: usize, _values: *const u8, n_values: usize) host allowed::SET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "UInt8");
            fn fmi3GetInt16(vr: *const Fmi3ValueReference, nvr: usize, _values: *mut i16, n_values: usize) host allowed::GET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "Int16");
            fn fmi3SetInt16(vr: *const Fmi3ValueReference, nvr: usize, _values: *const i16, n_values: usize) host allowed::SET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "Int16");
            fn fmi3GetUInt16(vr: *const Fmi3ValueReference, nvr: usize, _values: *mut u16, n_values: usize) host allowed::GET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "UInt16");
            fn fmi3SetUInt16(vr: *const Fmi3ValueReference, nvr: usize, _values: *const u16, n_values: usize) host allowed::SET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "UInt16");
            fn fmi3GetUInt32(vr: *const Fmi3ValueReference, nvr: usize, _values: *mut u32, n_values: usize) host allowed::GET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "UInt32");
            fn fmi3SetUInt32(vr: *const Fmi3ValueReference, nvr: usize, _values: *const u32, n_values: usize) host allowed::SET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "UInt32");
            fn fmi3GetUInt64(vr: *const Fmi3ValueReference, nvr: usize, _values: *mut u64, n_values: usize) host allowed::GET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "UInt64");
            fn fmi3SetUInt64(vr: *const Fmi3ValueReference, nvr: usize, _values: *const u64, n_values: usize) host allowed::SET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "UInt64");
            fn fmi3GetString(vr: *const Fmi3ValueReference, nvr: usize, _values: *mut Fmi3String, n_values: usize) host allowed::GET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "String");
            fn fmi3SetString(vr: *const Fmi3ValueReference, nvr: usize, _values: *const Fmi3String, n_values: usize) host allowed::SET
                => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "String");
            /// Binary: the values come with their sizes.
            fn fmi3GetBinary(
                vr: *const Fmi3ValueReference,
                nvr: usize,
                _value_sizes: *mut usize,
                _values: *mut *const u8,
                n_values: usize
            ) host allowed::GET => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "Binary");
            fn fmi3SetBinary(
                vr: *const Fmi3ValueReference,
                nvr: usize,
                _value_sizes: *const usize,
                _values: *const *const u8,
                n_values: usize
            ) host allowed::SET => |comp, vr = slice(nvr, "valueReferences")| no_values(comp, vr, n_values, "Binary");
            /// Clocks: one value per clock, no count of values.
            fn fmi3GetClock(vr: *const Fmi3ValueReference, nvr: usize, _values: *mut Fmi3Boolean) host allowed::GET
                => |comp, vr = slice(nvr, "valueReferences")| comp.none_of_type(vr, "Clock");
            fn fmi3SetClock(vr: *const Fmi3ValueReference, nvr: usize, _values: *const Fmi3Boolean) host allowed::SET
                => |comp, vr = slice(nvr, "valueReferences")| comp.none_of_type(vr, "Clock");
            // The clock functions of FMI 3.0 (intervals and shifts): no clocks.
            fn fmi3GetIntervalDecimal(vr: *const Fmi3ValueReference, nvr: usize, _intervals: *mut f64, _qualifiers: *mut i32) host allowed::ANY_BUT_FATAL
                => |comp, vr = slice(nvr, "valueReferences")| comp.none_of_type(vr, "Clock");
            fn fmi3GetIntervalFraction(vr: *const Fmi3ValueReference, nvr: usize, _counters: *mut u64, _resolutions: *mut u64, _qualifiers: *mut i32) host allowed::ANY_BUT_FATAL
                => |comp, vr = slice(nvr, "valueReferences")| comp.none_of_type(vr, "Clock");
            fn fmi3GetShiftDecimal(vr: *const Fmi3ValueReference, nvr: usize, _shifts: *mut f64) host allowed::ANY_BUT_FATAL
                => |comp, vr = slice(nvr, "valueReferences")| comp.none_of_type(vr, "Clock");
            fn fmi3GetShiftFraction(vr: *const Fmi3ValueReference, nvr: usize, _counters: *mut u64, _resolutions: *mut u64) host allowed::ANY_BUT_FATAL
                => |comp, vr = slice(nvr, "valueReferences")| comp.none_of_type(vr, "Clock");
            fn fmi3SetIntervalDecimal(vr: *const Fmi3ValueReference, nvr: usize, _intervals: *const f64) host allowed::ANY_BUT_FATAL
                => |comp, vr = slice(nvr, "valueReferences")| comp.none_of_type(vr, "Clock");
            fn fmi3SetIntervalFraction(vr: *const Fmi3ValueReference, nvr: usize, _counters: *const u64, _resolutions: *const u64) host allowed::ANY_BUT_FATAL
                => |comp, vr = slice(nvr, "valueReferences")| comp.none_of_type(vr, "Clock");
            fn fmi3SetShiftDecimal(vr: *const Fmi3ValueReference, nvr: usize, _shifts: *const f64) host allowed::ANY_BUT_FATAL
                => |comp, vr = slice(nvr, "valueReferences")| comp.none_of_type(vr, "Clock");
            fn fmi3SetShiftFraction(vr: *const Fmi3ValueReference, nvr: usize, _counters: *const u64, _resolutions: *const u64) host allowed::ANY_BUT_FATAL
                => |comp, vr = slice(nvr, "valueReferences")| comp.none_of_type(vr, "Clock");
            fn fmi3GetNumberOfVariableDependencies(vr: Fmi3ValueReference, _n_dependencies: *mut usize) host allowed::ANY_BUT_FATAL
                => |_| Err(format!("vr {vr}: not provided (providesPerElementDependencies=\"false\"; see <ModelStructure>)"));
            fn fmi3GetVariableDependencies(
                dependent: Fmi3ValueReference,
                _element_indices_of_dependent: *mut usize,
                _independents: *mut Fmi3ValueReference,
                _element_indices_of_independents: *mut usize,
                _dependency_kinds: *mut i32,
                _n_dependencies: usize
            ) host allowed::ANY_BUT_FATAL => |_| {
                Err(format!("vr {dependent}: not provided (providesPerElementDependencies=\"false\"; see <ModelStructure>)"))
            };
        }
    };
}
crate::fmi3_values!(handle_exports { Fmi3Instance => });

/// Every one of `vrs` refused as not of `type_name`, with one value each.
fn no_values(comp: &Instance, vrs: &[u32], n_values: usize, type_name: &str) -> Outcome {
    comp.check_counts(vrs.len(), n_values)?;
    comp.none_of_type(vrs, type_name)
}
