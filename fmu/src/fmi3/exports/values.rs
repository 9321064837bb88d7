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
        #[inline]
        pub unsafe extern "C" fn $name(
            c: Fmi3Instance,
            vr: *const Fmi3ValueReference,
            nvr: usize,
            values: *mut $t,
            n_values: usize,
        ) -> Status {
            let _env = CallEnv::enter();
            // SAFETY: the importer's arguments, as this function's contract.
            unsafe { get_values(c, stringify!($name), vr, nvr, values, n_values, $body) }
        }
    };
    ($name:ident, set, $t:ty, $body:path) => {
        #[inline]
        pub unsafe extern "C" fn $name(
            c: Fmi3Instance,
            vr: *const Fmi3ValueReference,
            nvr: usize,
            values: *const $t,
            n_values: usize,
        ) -> Status {
            let _env = CallEnv::enter();
            // SAFETY: the importer's arguments, as this function's contract.
            unsafe { set_values(c, stringify!($name), vr, nvr, values, n_values, $body) }
        }
    };
}

/// The general path of a getter of the common form, in the caller's
/// environment: the counts and arrays checked, then `body`.
///
/// # Safety
/// As [`with`] for `c`; `vr` and `values` NULL or pointing at `nvr` and
/// `n_values` elements.
#[inline(always)]
unsafe fn get_values<T>(
    c: Fmi3Instance,
    function: &'static str,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    values: *mut T,
    n_values: usize,
    body: impl FnOnce(&mut Instance, &[u32], &mut [T]) -> crate::instance::Outcome,
) -> Status {
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as its count says (FMI 3.0, 2.2.6), and `slice`/`slice_mut` refuse NULL with a non-zero count.
    unsafe {
        with(c, function, allowed::GET, |comp| {
            variables::scalars(nvr, n_values)?;
            let vrs = slice(vr, nvr, "valueReferences")?;
            let out = slice_mut(values, n_values, "values")?;
            body(comp, vrs, out)
        })
    }
}

/// The general path of a setter of the common form, as [`get_values`].
///
/// # Safety
/// As [`get_values`].
#[inline(always)]
unsafe fn set_values<T>(
    c: Fmi3Instance,
    function: &'static str,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    values: *const T,
    n_values: usize,
    body: impl FnOnce(&mut Instance, &[u32], &[T]) -> crate::instance::Outcome,
) -> Status {
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as its count says (FMI 3.0, 2.2.6), and `slice` refuses NULL with a non-zero count.
    unsafe {
        with(c, function, allowed::SET, |comp| {
            variables::scalars(nvr, n_values)?;
            let vrs = slice(vr, nvr, "valueReferences")?;
            let values = slice(values, n_values, "values")?;
            body(comp, vrs, values)
        })
    }
}

/// As FMI 2.0's `fmi2GetReal`: one value of a variable, allowed now, the
/// commonest call (an importer reading an output after each step),
/// answered with the same checks but no `Result` or slice bookkeeping;
/// everything else, and every refusal, takes the general path.
#[inline]
pub unsafe extern "C" fn fmi3GetFloat64(
    c: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    values: *mut f64,
    n_values: usize,
) -> Status {
    // As `fmi2GetReal`: one value of a variable stored in a field copies an
    // f64 and computes nothing, so it is answered in the host's
    // environment; every other read computes, below.
    if nvr == 1 && n_values == 1 && !vr.is_null() && !values.is_null() {
        // SAFETY: `instance` checks `c` (NULL, alignment, magic); `vr` and
        // `values` are non-NULL and, with one value, point at one element
        // each that the importer owns for the call (FMI 3.0, 2.2.6).
        unsafe {
            // A plain field is a declared variable (past them, None).
            if let Some(x) = instance(c).and_then(|comp| comp.get_one_plain_real(*vr, allowed::GET_ONE_PLAIN)) {
                *values = x;
                return Status::Ok;
            }
        }
    }
    // SAFETY: the importer's arguments, as this function's contract.
    unsafe { get_float64_computed(c, vr, nvr, values, n_values) }
}

/// `fmi3GetFloat64` of what a getter computes (or a derivative, `time`, an
/// event indicator, or a refusal), in IEEE 754's default environment.
///
/// # Safety
/// As [`with`] for `c`; `vr` and `values` NULL or pointing at `nvr` and
/// `n_values` elements.
#[inline(never)]
unsafe fn get_float64_computed(
    c: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    values: *mut f64,
    n_values: usize,
) -> Status {
    let _env = CallEnv::enter();
    if nvr == 1 && n_values == 1 && !vr.is_null() && !values.is_null() {
        // SAFETY: `instance` checks `c` (NULL, alignment, magic); `vr` and
        // `values` are non-NULL and, with one value, point at one element
        // each that the importer owns for the call (FMI 3.0, 2.2.6).
        unsafe {
            if let Some(comp) = instance(c) {
                if variables::one_value_read(comp, *vr) {
                    match catch_unwind(AssertUnwindSafe(|| comp.get_one_real(*vr, allowed::GET))) {
                        Ok(Some(x)) => {
                            *values = x;
                            return Status::Ok;
                        }
                        Ok(None) => {}
                        // The reference the closure held is gone with it.
                        Err(payload) => return poisoned(c, "fmi3GetFloat64", payload),
                    }
                }
            }
        }
    }
    // SAFETY: the importer's arguments, as this function's contract.
    unsafe { get_values(c, "fmi3GetFloat64", vr, nvr, values, n_values, variables::get_float64) }
}
/// As `fmi2SetReal`: one value of an input stored as it is, with no range,
/// is a store in the host's environment; every other set checks, below.
#[inline]
pub unsafe extern "C" fn fmi3SetFloat64(
    c: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    values: *const f64,
    n_values: usize,
) -> Status {
    if nvr == 1 && n_values == 1 && !vr.is_null() && !values.is_null() {
        // SAFETY: `instance` checks `c` (NULL, alignment, magic); `vr` and
        // `values` are non-NULL and, with one value, point at one element
        // each that the importer owns for the call (FMI 3.0, 2.2.6).
        unsafe {
            if instance(c).is_some_and(|comp| comp.set_one_plain_real(*vr, *values, allowed::SET)) {
                return Status::Ok;
            }
        }
    }
    // SAFETY: the importer's arguments, as this function's contract.
    unsafe { set_float64_computed(c, vr, nvr, values, n_values) }
}

/// `fmi3SetFloat64` with its checks, in IEEE 754's default environment.
///
/// # Safety
/// As [`with`] for `c`; `vr` and `values` NULL or pointing at `nvr` and
/// `n_values` elements.
#[inline(never)]
unsafe fn set_float64_computed(
    c: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    values: *const f64,
    n_values: usize,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: the importer's arguments, as this function's contract.
    unsafe { set_values(c, "fmi3SetFloat64", vr, nvr, values, n_values, variables::set_float64) }
}
accessor!(fmi3GetInt32, get, i32, variables::get_int32);
accessor!(fmi3SetInt32, set, i32, variables::set_int32);
accessor!(fmi3GetInt64, get, i64, variables::get_int64);
accessor!(fmi3SetInt64, set, i64, variables::set_int64);
accessor!(fmi3GetBoolean, get, Fmi3Boolean, variables::get_boolean);
accessor!(fmi3SetBoolean, set, Fmi3Boolean, variables::set_boolean);

/// Getters and setters of a type without variables: every value reference
/// refused (an empty call is fine), all through one function
/// ([`no_variable_of_type`]) so that the sixteen cost one body.
macro_rules! no_variables_of_type {
    ($get:ident, $set:ident, $t:ty, $type_name:literal) => {
        #[inline]
        pub unsafe extern "C" fn $get(
            c: Fmi3Instance,
            vr: *const Fmi3ValueReference,
            nvr: usize,
            _values: *mut $t,
            n_values: usize,
        ) -> Status {
            // SAFETY: `vr` holds `nvr` value references (FMI 3.0, 2.2.6); `c` is checked there.
            unsafe { no_variable_of_type(c, stringify!($get), allowed::GET, vr, nvr, n_values, $type_name) }
        }
        #[inline]
        pub unsafe extern "C" fn $set(
            c: Fmi3Instance,
            vr: *const Fmi3ValueReference,
            nvr: usize,
            _values: *const $t,
            n_values: usize,
        ) -> Status {
            // SAFETY: `vr` holds `nvr` value references (FMI 3.0, 2.2.6); `c` is checked there.
            unsafe { no_variable_of_type(c, stringify!($set), allowed::SET, vr, nvr, n_values, $type_name) }
        }
    };
}

/// The refusal of a getter or setter of a type without variables: the
/// counts and the first value reference checked and named.
///
/// # Safety
/// `c` is NULL or an instance handle; `vr` is NULL or points at `nvr`
/// value references.
#[inline(never)]
unsafe fn no_variable_of_type(
    c: Fmi3Instance,
    function: &'static str,
    allowed: crate::instance::Allowed,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    n_values: usize,
    type_name: &str,
) -> Status {
    // SAFETY: `c` is checked by `with`; `slice` refuses NULL with a non-zero count (this function's contract).
    unsafe {
        with(c, function, allowed, |comp| {
            variables::scalars(nvr, n_values)?;
            variables::none_of_type(comp, slice(vr, nvr, "valueReferences")?, type_name)
        })
    }
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
#[inline]
pub unsafe extern "C" fn fmi3GetBinary(
    c: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    _value_sizes: *mut usize,
    _values: *mut *const u8,
    n_values: usize,
) -> Status {
    // SAFETY: `c` is checked by `with`; `vr` holds `nvr` value references (FMI 3.0, 2.2.6), `slice` refuses NULL with a non-zero count.
    unsafe {
        with(c, "fmi3GetBinary", allowed::GET, |comp| {
            variables::scalars(nvr, n_values)?;
            variables::none_of_type(comp, slice(vr, nvr, "valueReferences")?, "Binary")
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi3SetBinary(
    c: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    _value_sizes: *const usize,
    _values: *const *const u8,
    n_values: usize,
) -> Status {
    // SAFETY: `c` is checked by `with`; `vr` holds `nvr` value references (FMI 3.0, 2.2.6), `slice` refuses NULL with a non-zero count.
    unsafe {
        with(c, "fmi3SetBinary", allowed::SET, |comp| {
            variables::scalars(nvr, n_values)?;
            variables::none_of_type(comp, slice(vr, nvr, "valueReferences")?, "Binary")
        })
    }
}

/// Clocks: one value per clock, no count of values.
#[inline]
pub unsafe extern "C" fn fmi3GetClock(
    c: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    _values: *mut Fmi3Boolean,
) -> Status {
    // SAFETY: `c` is checked by `with`; `vr` holds `nvr` value references (FMI 3.0, 2.2.6), `slice` refuses NULL with a non-zero count.
    unsafe {
        with(c, "fmi3GetClock", allowed::GET, |comp| {
            variables::none_of_type(comp, slice(vr, nvr, "valueReferences")?, "Clock")
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi3SetClock(
    c: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    _values: *const Fmi3Boolean,
) -> Status {
    // SAFETY: `c` is checked by `with`; `vr` holds `nvr` value references (FMI 3.0, 2.2.6), `slice` refuses NULL with a non-zero count.
    unsafe {
        with(c, "fmi3SetClock", allowed::SET, |comp| {
            variables::none_of_type(comp, slice(vr, nvr, "valueReferences")?, "Clock")
        })
    }
}

/// The clock functions of FMI 3.0 (intervals and shifts): no clocks.
macro_rules! no_clocks {
    ($($clock_function:ident($($arg:ident: $t:ty),*);)*) => {$(
        #[inline]
        pub unsafe extern "C" fn $clock_function(c: Fmi3Instance, vr: *const Fmi3ValueReference, nvr: usize, $($arg: $t),*) -> Status {
            $(let _ = $arg;)*
            // SAFETY: `c` is checked by `with`; `vr` holds `nvr` value references (FMI 3.0, 2.2.6), `slice` refuses NULL with a non-zero count.
            unsafe {
                with(c, stringify!($clock_function), allowed::ANY_BUT_FATAL, |comp| {
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

#[inline]
pub unsafe extern "C" fn fmi3GetNumberOfVariableDependencies(
    c: Fmi3Instance,
    vr: Fmi3ValueReference,
    _n_dependencies: *mut usize,
) -> Status {
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe {
        with(c, "fmi3GetNumberOfVariableDependencies", allowed::ANY_BUT_FATAL, |_| {
            Err(format!("vr {vr}: not provided (providesPerElementDependencies=\"false\"; see <ModelStructure>)"))
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi3GetVariableDependencies(
    c: Fmi3Instance,
    dependent: Fmi3ValueReference,
    _element_indices_of_dependent: *mut usize,
    _independents: *mut Fmi3ValueReference,
    _element_indices_of_independents: *mut usize,
    _dependency_kinds: *mut i32,
    _n_dependencies: usize,
) -> Status {
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe {
        with(c, "fmi3GetVariableDependencies", allowed::ANY_BUT_FATAL, |_| {
            Err(format!(
                "vr {dependent}: not provided (providesPerElementDependencies=\"false\"; see <ModelStructure>)"
            ))
        })
    }
}
