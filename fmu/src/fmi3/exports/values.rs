//! Getting and setting values by value reference: Float64, Int32 (the
//! Integers), Int64 (the Enumerations) and Boolean carry the FMUs'
//! variables; the other types of FMI 3.0 have none and refuse every value
//! reference with that reason ([`no_variables_of_type!`]).

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

/// A getter or setter of FMI 3.0's common form: `(instance, vrs, nvr,
/// values, nValues)`, values as `$t`, handled by `$body(comp, vrs, values)`.
macro_rules! accessor {
    ($name:ident, get, $t:ty, $body:path) => {
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            c: Fmi3Instance,
            vr: *const Fmi3ValueReference,
            nvr: usize,
            values: *mut $t,
            n_values: usize,
        ) -> Status {
            let _env = CallEnv::enter();
            // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as its count says (FMI 3.0, 2.2.6), and `slice`/`slice_mut` refuse NULL with a non-zero count.
            unsafe {
                with(c, stringify!($name), allowed::GET, |comp| {
                    variables::scalars(nvr, n_values)?;
                    let vrs = slice(vr, nvr, "valueReferences")?;
                    let out = slice_mut(values, n_values, "values")?;
                    $body(comp, vrs, out)
                })
            }
        }
    };
    ($name:ident, set, $t:ty, $body:path) => {
        #[no_mangle]
        pub unsafe extern "C" fn $name(
            c: Fmi3Instance,
            vr: *const Fmi3ValueReference,
            nvr: usize,
            values: *const $t,
            n_values: usize,
        ) -> Status {
            let _env = CallEnv::enter();
            // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as its count says (FMI 3.0, 2.2.6), and `slice` refuses NULL with a non-zero count.
            unsafe {
                with(c, stringify!($name), allowed::SET, |comp| {
                    variables::scalars(nvr, n_values)?;
                    let vrs = slice(vr, nvr, "valueReferences")?;
                    let values = slice(values, n_values, "values")?;
                    $body(comp, vrs, values)
                })
            }
        }
    };
}

accessor!(fmi3GetFloat64, get, f64, variables::get_float64);
accessor!(fmi3SetFloat64, set, f64, variables::set_float64);
accessor!(fmi3GetInt32, get, i32, variables::get_int32);
accessor!(fmi3SetInt32, set, i32, variables::set_int32);
accessor!(fmi3GetInt64, get, i64, variables::get_int64);
accessor!(fmi3SetInt64, set, i64, variables::set_int64);
accessor!(fmi3GetBoolean, get, Fmi3Boolean, variables::get_boolean);
accessor!(fmi3SetBoolean, set, Fmi3Boolean, variables::set_boolean);

/// Getters and setters of a type without variables: every value reference
/// refused (an empty call is fine).
macro_rules! no_variables_of_type {
    ($get:ident, $set:ident, $t:ty, $type_name:literal) => {
        fn refuse_get(comp: &mut Instance, vrs: &[u32], _: &mut [$t]) -> crate::instance::Outcome {
            variables::none_of_type(comp, vrs, $type_name)
        }
        fn refuse_set(comp: &mut Instance, vrs: &[u32], _: &[$t]) -> crate::instance::Outcome {
            variables::none_of_type(comp, vrs, $type_name)
        }
        accessor!($get, get, $t, refuse_get);
        accessor!($set, set, $t, refuse_set);
    };
}

pub use {float32::*, int16::*, int8::*, string::*, uint16::*, uint32::*, uint64::*, uint8::*};

mod float32 {
    use super::*;
    no_variables_of_type!(fmi3GetFloat32, fmi3SetFloat32, f32, "Float32");
}
mod int8 {
    use super::*;
    no_variables_of_type!(fmi3GetInt8, fmi3SetInt8, i8, "Int8");
}
mod uint8 {
    use super::*;
    no_variables_of_type!(fmi3GetUInt8, fmi3SetUInt8, u8, "UInt8");
}
mod int16 {
    use super::*;
    no_variables_of_type!(fmi3GetInt16, fmi3SetInt16, i16, "Int16");
}
mod uint16 {
    use super::*;
    no_variables_of_type!(fmi3GetUInt16, fmi3SetUInt16, u16, "UInt16");
}
mod uint32 {
    use super::*;
    no_variables_of_type!(fmi3GetUInt32, fmi3SetUInt32, u32, "UInt32");
}
mod uint64 {
    use super::*;
    no_variables_of_type!(fmi3GetUInt64, fmi3SetUInt64, u64, "UInt64");
}
mod string {
    use super::*;
    no_variables_of_type!(fmi3GetString, fmi3SetString, Fmi3String, "String");
}

/// Binary: the values come with their sizes.
#[no_mangle]
pub unsafe extern "C" fn fmi3GetBinary(
    c: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    _value_sizes: *mut usize,
    _values: *mut *const u8,
    n_values: usize,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `vr` holds `nvr` value references (FMI 3.0, 2.2.6), `slice` refuses NULL with a non-zero count.
    unsafe {
        with(c, "fmi3GetBinary", allowed::GET, |comp| {
            variables::scalars(nvr, n_values)?;
            variables::none_of_type(comp, slice(vr, nvr, "valueReferences")?, "Binary")
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi3SetBinary(
    c: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    _value_sizes: *const usize,
    _values: *const *const u8,
    n_values: usize,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `vr` holds `nvr` value references (FMI 3.0, 2.2.6), `slice` refuses NULL with a non-zero count.
    unsafe {
        with(c, "fmi3SetBinary", allowed::SET, |comp| {
            variables::scalars(nvr, n_values)?;
            variables::none_of_type(comp, slice(vr, nvr, "valueReferences")?, "Binary")
        })
    }
}

/// Clocks: one value per clock, no count of values.
#[no_mangle]
pub unsafe extern "C" fn fmi3GetClock(
    c: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    _values: *mut Fmi3Boolean,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `vr` holds `nvr` value references (FMI 3.0, 2.2.6), `slice` refuses NULL with a non-zero count.
    unsafe {
        with(c, "fmi3GetClock", allowed::GET, |comp| {
            variables::none_of_type(comp, slice(vr, nvr, "valueReferences")?, "Clock")
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi3SetClock(
    c: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    _values: *const Fmi3Boolean,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `vr` holds `nvr` value references (FMI 3.0, 2.2.6), `slice` refuses NULL with a non-zero count.
    unsafe {
        with(c, "fmi3SetClock", allowed::SET, |comp| {
            variables::none_of_type(comp, slice(vr, nvr, "valueReferences")?, "Clock")
        })
    }
}

/// The clock functions of FMI 3.0 (intervals and shifts): no clocks.
macro_rules! no_clocks {
    ($($name:ident($($arg:ident: $t:ty),*);)*) => {$(
        #[no_mangle]
        pub unsafe extern "C" fn $name(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, $($arg: $t),*) -> Status {
            let _env = CallEnv::enter();
            $(let _ = $arg;)*
            // SAFETY: `c` is checked by `with`; `vr` holds `nvr` value references (FMI 3.0, 2.2.6), `slice` refuses NULL with a non-zero count.
            unsafe {
                with(c, stringify!($name), allowed::ANY_BUT_FATAL, |comp| {
                    variables::none_of_type(comp, slice(vr, nvr, "valueReferences")?, "Clock")
                })
            }
        }
    )*};
}

no_clocks! {
    fmi3GetIntervalDecimal(intervals: *mut f64, qualifiers: *mut i32);
    fmi3GetIntervalFraction(counters: *mut u64, resolutions: *mut u64, qualifiers: *mut i32);
    fmi3GetShiftDecimal(shifts: *mut f64);
    fmi3GetShiftFraction(counters: *mut u64, resolutions: *mut u64);
    fmi3SetIntervalDecimal(intervals: *const f64);
    fmi3SetIntervalFraction(counters: *const u64, resolutions: *const u64);
    fmi3SetShiftDecimal(shifts: *const f64);
    fmi3SetShiftFraction(counters: *const u64, resolutions: *const u64);
}

#[no_mangle]
pub unsafe extern "C" fn fmi3GetNumberOfVariableDependencies(
    c: Fmi3Instance,
    vr: Fmi3ValueReference,
    _n_dependencies: *mut usize,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe {
        with(c, "fmi3GetNumberOfVariableDependencies", allowed::ANY_BUT_FATAL, |_| {
            Err(format!("vr {vr}: not provided (providesPerElementDependencies=\"false\"; see <ModelStructure>)"))
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi3GetVariableDependencies(
    c: Fmi3Instance,
    dependent: Fmi3ValueReference,
    _element_indices_of_dependent: *mut usize,
    _independents: *mut Fmi3ValueReference,
    _element_indices_of_independents: *mut usize,
    _dependency_kinds: *mut i32,
    _n_dependencies: usize,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe {
        with(c, "fmi3GetVariableDependencies", allowed::ANY_BUT_FATAL, |_| {
            Err(format!(
                "vr {dependent}: not provided (providesPerElementDependencies=\"false\"; see <ModelStructure>)"
            ))
        })
    }
}
