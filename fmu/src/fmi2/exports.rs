//! The 44 `fmi2*` functions of FMI 2.0: the 34 an importer binds for
//! Co-Simulation and the 10 more of Model Exchange (one binary, both
//! interfaces, the interface chosen by `fmuType` at instantiation).
//!
//! Each one: computes in IEEE 754's default floating-point environment and
//! gives the caller back its own ([`CallEnv`]: a host that flushes
//! subnormals or rounds upward gets the results of a default process, bit
//! for bit), catches any panic (no unwinding crosses the C ABI; a panic
//! becomes fmi2Error and poisons the instance), checks the component pointer, the call sequence and
//! every argument, then hands over to [`Component`]. Nothing here is model
//! specific.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::component::{allowed, Component, Interface, Snapshot, COMPONENT_MAGIC};
use super::float_env::CallEnv;
use super::log::{self, Log};
use super::types::*;
use crate::registry;
use std::ffi::{c_char, c_int, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Largest array an importer may pass; more is taken as a corrupted count.
const MAX_ARRAY_LEN: usize = 1 << 24;

/// The component behind `c`, if it is one of ours and alive.
///
/// # Safety
/// `c` is NULL or a pointer the importer got from `fmi2Instantiate` (FMI 2.0,
/// 2.1.5): readable for a `Component` unless it was freed, which the magic
/// tells apart on a best-effort basis (the memory is then the allocator's).
#[inline(always)]
unsafe fn component<'a>(c: Fmi2Component) -> Option<&'a mut Component> {
    if c.is_null() || !(c as usize).is_multiple_of(std::mem::align_of::<Component>()) {
        return None;
    }
    // SAFETY: non-NULL and aligned (checked above), and by this function's
    // contract a pointer `fmi2Instantiate` returned; no other reference to the
    // instance lives during an FMI call (FMI 2.0 forbids concurrent calls on
    // one instance).
    let comp = unsafe { &mut *(c as *mut Component) };
    (comp.magic == COMPONENT_MAGIC).then_some(comp)
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Run `body` on the component with the call-sequence check for `function`,
/// turning a panic into fmi2Error and an instance that accepts only reset/free.
///
/// # Safety
/// As [`component`] for `c`.
#[inline(always)]
unsafe fn with(
    c: Fmi2Component,
    function: &'static str,
    allowed: u16,
    body: impl FnOnce(&mut Component) -> Result<Status, String>,
) -> Status {
    // SAFETY: this function's contract.
    let Some(comp) = (unsafe { component(c) }) else {
        return Status::Error; // no instance, hence no logger to tell
    };
    match catch_unwind(AssertUnwindSafe(|| comp.call(function, allowed, body))) {
        Ok(status) => status,
        // SAFETY: `c` was found to be a live component above; the reference
        // the panicking body held is gone with the unwound closure.
        Err(payload) => unsafe { poisoned(c, function, payload) },
    }
}

/// The panic path of [`with`], out of line.
///
/// # Safety
/// `c` is a live component with no other reference to it.
#[cold]
#[inline(never)]
unsafe fn poisoned(c: Fmi2Component, function: &str, payload: Box<dyn std::any::Any + Send>) -> Status {
    // SAFETY: this function's contract.
    let comp = unsafe { &mut *(c as *mut Component) };
    let text = panic_text(payload.as_ref());
    comp.poison(
        function,
        &format!("internal error (panic): {text}; only fmi2Reset and fmi2FreeInstance are allowed now"),
    )
}

/// `ptr[0..n]`, refusing NULL with n > 0 and absurd lengths.
///
/// # Safety
/// `ptr` is NULL or points at `n` initialized `T` that outlive `'a` and that
/// nothing writes meanwhile (an FMI array argument, FMI 2.0, 2.1.7).
#[inline(always)]
unsafe fn slice<'a, T>(ptr: *const T, n: usize, what: &str) -> Result<&'a [T], String> {
    if n == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(null_array(what, n));
    }
    if n > MAX_ARRAY_LEN {
        return Err(too_long(what, n));
    }
    // SAFETY: non-NULL, and `n` elements by this function's contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr, n) })
}

/// `ptr[0..n]` to write, as [`slice`].
///
/// # Safety
/// `ptr` is NULL or points at `n` writable `T` that outlive `'a` and that
/// nothing else reads or writes meanwhile.
#[inline(always)]
unsafe fn slice_mut<'a, T>(ptr: *mut T, n: usize, what: &str) -> Result<&'a mut [T], String> {
    if n == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(null_array(what, n));
    }
    if n > MAX_ARRAY_LEN {
        return Err(too_long(what, n));
    }
    // SAFETY: non-NULL, and `n` exclusive elements by this function's contract.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, n) })
}

#[cold]
fn null_array(what: &str, n: usize) -> String {
    format!("{what} is NULL with {n} elements")
}

#[cold]
fn too_long(what: &str, n: usize) -> String {
    format!("{what} has {n} elements (at most {MAX_ARRAY_LEN})")
}

// ----- Common functions ------------------------------------------------------

#[no_mangle]
pub extern "C" fn fmi2GetTypesPlatform() -> *const c_char {
    let _env = CallEnv::enter();
    c"default".as_ptr()
}

#[no_mangle]
pub extern "C" fn fmi2GetVersion() -> *const c_char {
    let _env = CallEnv::enter();
    c"2.0".as_ptr()
}

#[no_mangle]
pub unsafe extern "C" fn fmi2SetDebugLogging(
    c: Fmi2Component,
    logging_on: Fmi2Boolean,
    n_categories: usize,
    categories: *const Fmi2String,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `categories` holds `n_categories` pointers (FMI 2.0, 2.1.5), `slice` refuses NULL, and each entry is checked non-NULL before it is read as a NUL-terminated string.
    unsafe {
        with(c, "fmi2SetDebugLogging", allowed::ANY_BUT_FATAL, |comp| {
            let pointers = slice(categories, n_categories, "categories")?;
            let mut names = Vec::with_capacity(pointers.len());
            for (i, &p) in pointers.iter().enumerate() {
                if p.is_null() {
                    return Err(format!("categories[{i}] is NULL"));
                }
                names.push(CStr::from_ptr(p).to_str().map_err(|_| format!("categories[{i}] is not UTF-8"))?);
            }
            match comp.log.set(logging_on != FMI2_FALSE, &names) {
                Ok(()) => Ok(Status::Ok),
                // Unknown names are a warning: the known ones were applied.
                Err(unknown) => Ok(comp.fail("fmi2SetDebugLogging", Status::Warning, &unknown)),
            }
        })
    }
}

/// Model identifier of the shared object this code was loaded from, if it
/// names a model: an FMU's binary then accepts only its own model's GUID.
fn binary_identifier() -> Option<&'static str> {
    static ID: std::sync::OnceLock<Option<&'static str>> = std::sync::OnceLock::new();
    *ID.get_or_init(|| {
        let path = super::module_path::this_library()?;
        let stem = path.file_stem()?.to_str()?;
        registry::MODELS.iter().map(|m| m.info.identifier).find(|id| *id == stem)
    })
}

#[no_mangle]
pub unsafe extern "C" fn fmi2Instantiate(
    instance_name: Fmi2String,
    fmu_type: c_int,
    guid: Fmi2String,
    _resource_location: Fmi2String,
    functions: *const CallbackFunctions,
    _visible: Fmi2Boolean,
    logging_on: Fmi2Boolean,
) -> Fmi2Component {
    let _env = CallEnv::enter();
    // SAFETY: the importer passes NULL or NUL-terminated strings and NULL or
    // a callback struct (FMI 2.0, 2.1.5): `instantiate`'s contract.
    catch_unwind(AssertUnwindSafe(|| unsafe { instantiate(instance_name, fmu_type, guid, functions, logging_on) }))
        .unwrap_or(std::ptr::null_mut())
}

/// # Safety
/// `instance_name` and `guid` are NULL or NUL-terminated strings;
/// `functions` is NULL or points at a valid `fmi2CallbackFunctions`.
unsafe fn instantiate(
    instance_name: Fmi2String,
    fmu_type: c_int,
    guid: Fmi2String,
    functions: *const CallbackFunctions,
    logging_on: Fmi2Boolean,
) -> Fmi2Component {
    if functions.is_null() {
        return std::ptr::null_mut(); // no logger to tell
    }
    // SAFETY: non-NULL (checked above), valid by this function's contract.
    let functions = unsafe { &*functions };
    let Some(logger) = functions.logger else {
        return std::ptr::null_mut();
    };
    let name_ok = !instance_name.is_null();
    let name = if name_ok {
        // SAFETY: non-NULL, hence NUL-terminated by this function's contract.
        unsafe { CStr::from_ptr(instance_name) }.to_owned()
    } else {
        CString::from(c"(null)")
    };
    let blank = name.as_bytes().iter().all(u8::is_ascii_whitespace);
    let shown = name.to_string_lossy().into_owned();
    let log = Log::new(logger, functions.component_environment, name, logging_on != FMI2_FALSE);
    let refuse = |message: String| {
        log.emit(Status::Error, log::ERROR, &format!("fmi2Instantiate: {message}"));
        std::ptr::null_mut()
    };
    if !name_ok {
        return refuse("instanceName is NULL".into());
    }
    if blank {
        // FMI 2.0, 2.1.5: instanceName is a non-empty string.
        return refuse(format!("instanceName \"{}\" rejected: must not be empty or blank", shown.escape_default()));
    }
    let interface = match fmu_type {
        FMI2_CO_SIMULATION => Interface::CoSimulation,
        FMI2_MODEL_EXCHANGE => Interface::ModelExchange,
        _ => {
            return refuse(format!(
                "fmuType = {fmu_type} rejected: must be fmi2ModelExchange ({FMI2_MODEL_EXCHANGE}) or fmi2CoSimulation \
                 ({FMI2_CO_SIMULATION})"
            ))
        }
    };
    if guid.is_null() {
        return refuse("fmuGUID is NULL".into());
    }
    // SAFETY: non-NULL (checked above), NUL-terminated by this function's contract.
    let guid = unsafe { CStr::from_ptr(guid) }.to_string_lossy();
    let only = binary_identifier();
    let found = registry::MODELS
        .iter()
        .enumerate()
        .filter(|(_, m)| only.is_none_or(|id| id == m.info.identifier))
        .find(|(i, _)| registry::guid(*i) == guid);
    let Some((index, entry)) = found else {
        let expected = match only {
            Some(id) => format!("{id} has GUID {}", registry::guid_of(id).unwrap_or("?")),
            None => "it matches no model in this binary".into(),
        };
        return refuse(format!("fmuGUID {guid} does not match the model description: {expected}"));
    };
    let model = (entry.new_instance)();
    if interface == Interface::ModelExchange && model.hybrid_sizes().is_none() {
        return refuse(format!(
            "fmi2ModelExchange requested: {} offers Co-Simulation only (no <ModelExchange> in its model description)",
            entry.info.identifier
        ));
    }
    let comp = Box::new(Component::new(log, registry::guid(index), model, interface));
    Box::into_raw(comp) as Fmi2Component
}

#[no_mangle]
pub unsafe extern "C" fn fmi2FreeInstance(c: Fmi2Component) {
    let _env = CallEnv::enter();
    // SAFETY: `c` is NULL or from fmi2Instantiate (FMI 2.0, 2.1.5).
    if unsafe { component(c) }.is_some() {
        // SAFETY: a live component, created by Box::into_raw in `instantiate`;
        // the importer does not use `c` after fmi2FreeInstance.
        let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(c as *mut Component) })));
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2SetupExperiment(
    c: Fmi2Component,
    tolerance_defined: Fmi2Boolean,
    tolerance: Fmi2Real,
    start_time: Fmi2Real,
    stop_time_defined: Fmi2Boolean,
    stop_time: Fmi2Real,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe {
        with(c, "fmi2SetupExperiment", allowed::INSTANTIATED, |comp| {
            comp.setup_experiment(
                (tolerance_defined != FMI2_FALSE).then_some(tolerance),
                start_time,
                (stop_time_defined != FMI2_FALSE).then_some(stop_time),
            )
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2EnterInitializationMode(c: Fmi2Component) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe { with(c, "fmi2EnterInitializationMode", allowed::INSTANTIATED, Component::enter_initialization_mode) }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2ExitInitializationMode(c: Fmi2Component) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe { with(c, "fmi2ExitInitializationMode", allowed::INITIALIZATION, Component::exit_initialization_mode) }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2Terminate(c: Fmi2Component) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe { with(c, "fmi2Terminate", allowed::TERMINATE, Component::terminate) }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2Reset(c: Fmi2Component) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe { with(c, "fmi2Reset", allowed::RESET, Component::reset) }
}

// ----- Getting and setting values -------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn fmi2GetReal(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    value: *mut Fmi2Real,
) -> Status {
    let _env = CallEnv::enter();
    // One value of a Real variable, allowed now: the commonest call (an
    // importer reading an output after each step), answered with the same
    // checks but no `Result` or slice bookkeeping; everything else, and
    // every refusal, takes the general path below.
    if nvr == 1 && !vr.is_null() && !value.is_null() {
        // SAFETY: `component` checks `c` (NULL, alignment, magic); `vr` and
        // `value` are non-NULL and, with nvr = 1, point at one element each
        // that the importer owns for the call (FMI 2.0, 2.1.7).
        unsafe {
            if let Some(comp) = component(c) {
                match catch_unwind(AssertUnwindSafe(|| comp.get_one_real(*vr))) {
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

#[no_mangle]
pub unsafe extern "C" fn fmi2GetInteger(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    value: *mut Fmi2Integer,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as the count says (FMI 2.0, 2.1.7), and `slice`/`slice_mut` refuse NULL with a non-zero count.
    unsafe {
        with(c, "fmi2GetInteger", allowed::GET, |comp| {
            let vrs = slice(vr, nvr, "vr")?;
            let out = slice_mut(value, nvr, "value")?;
            comp.get_integer(vrs, out)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2GetBoolean(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    value: *mut Fmi2Boolean,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as the count says (FMI 2.0, 2.1.7), and `slice`/`slice_mut` refuse NULL with a non-zero count.
    unsafe {
        with(c, "fmi2GetBoolean", allowed::GET, |comp| {
            let vrs = slice(vr, nvr, "vr")?;
            let out = slice_mut(value, nvr, "value")?;
            let mut values = vec![false; nvr];
            let status = comp.get_boolean(vrs, &mut values)?;
            for (o, v) in out.iter_mut().zip(values) {
                *o = if v { FMI2_TRUE } else { FMI2_FALSE };
            }
            Ok(status)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2GetString(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    value: *mut Fmi2String,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as the count says (FMI 2.0, 2.1.7), and `slice`/`slice_mut` refuse NULL with a non-zero count.
    unsafe {
        with(c, "fmi2GetString", allowed::GET, |comp| {
            let vrs = slice(vr, nvr, "vr")?;
            slice_mut(value, nvr, "value")?;
            comp.check_string_vrs(vrs)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2SetReal(
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

#[no_mangle]
pub unsafe extern "C" fn fmi2SetInteger(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    value: *const Fmi2Integer,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as the count says (FMI 2.0, 2.1.7), and `slice`/`slice_mut` refuse NULL with a non-zero count.
    unsafe {
        with(c, "fmi2SetInteger", allowed::SET, |comp| {
            let vrs = slice(vr, nvr, "vr")?;
            let values = slice(value, nvr, "value")?;
            comp.set_integer(vrs, values)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2SetBoolean(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    value: *const Fmi2Boolean,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as the count says (FMI 2.0, 2.1.7), and `slice`/`slice_mut` refuse NULL with a non-zero count.
    unsafe {
        with(c, "fmi2SetBoolean", allowed::SET, |comp| {
            let vrs = slice(vr, nvr, "vr")?;
            let values: Vec<bool> = slice(value, nvr, "value")?.iter().map(|&b| b != FMI2_FALSE).collect();
            comp.set_boolean(vrs, &values)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2SetString(
    c: Fmi2Component,
    vr: *const Fmi2ValueReference,
    nvr: usize,
    value: *const Fmi2String,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as the count says (FMI 2.0, 2.1.7), and `slice`/`slice_mut` refuse NULL with a non-zero count.
    unsafe {
        with(c, "fmi2SetString", allowed::SET, |comp| {
            let vrs = slice(vr, nvr, "vr")?;
            slice(value, nvr, "value")?;
            comp.check_string_vrs(vrs)
        })
    }
}

// ----- FMU state ---------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn fmi2GetFMUstate(c: Fmi2Component, state: *mut Fmi2FmuState) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the out-pointer is checked non-NULL before it is read or written, and the importer passes one it owns (FMI 2.0, 2.1.8).
    unsafe {
        with(c, "fmi2GetFMUstate", allowed::ANY_BUT_FATAL, |comp| {
            if state.is_null() {
                return Err("FMUstate (the pointer to fill) is NULL".into());
            }
            *state = comp.get_state(*state as *mut Snapshot)? as Fmi2FmuState;
            Ok(Status::Ok)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2SetFMUstate(c: Fmi2Component, state: Fmi2FmuState) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `state` is only compared with the instance's own live states before any use (`Component::set_state`).
    unsafe { with(c, "fmi2SetFMUstate", allowed::ANY_BUT_FATAL, |comp| comp.set_state(state as *mut Snapshot)) }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2FreeFMUstate(c: Fmi2Component, state: *mut Fmi2FmuState) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the out-pointer is checked non-NULL before it is read or written, and the importer passes one it owns (FMI 2.0, 2.1.8).
    unsafe {
        with(c, "fmi2FreeFMUstate", allowed::ANY_BUT_FATAL, |comp| {
            if state.is_null() {
                return Err("FMUstate (the pointer to the state) is NULL".into());
            }
            comp.free_state(*state as *mut Snapshot)?;
            *state = std::ptr::null_mut();
            Ok(Status::Ok)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2SerializedFMUstateSize(c: Fmi2Component, state: Fmi2FmuState, size: *mut usize) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `size` is checked non-NULL before it is written; `state` is only used once found among the instance's live states.
    unsafe {
        with(c, "fmi2SerializedFMUstateSize", allowed::ANY_BUT_FATAL, |comp| {
            if size.is_null() {
                return Err("size is NULL".into());
            }
            *size = comp.serialize(state as *mut Snapshot)?.len();
            Ok(Status::Ok)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2SerializeFMUstate(
    c: Fmi2Component,
    state: Fmi2FmuState,
    bytes: *mut Fmi2Byte,
    size: usize,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `bytes` holds `size` bytes (FMI 2.0, 2.1.8), at least the length written, which `slice_mut` bounds and checks non-NULL.
    unsafe {
        with(c, "fmi2SerializeFMUstate", allowed::ANY_BUT_FATAL, |comp| {
            let data = comp.serialize(state as *mut Snapshot)?;
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

#[no_mangle]
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
            *state = comp.deserialize(data, *state as *mut Snapshot)? as Fmi2FmuState;
            Ok(Status::Ok)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2GetDirectionalDerivative(
    c: Fmi2Component,
    _unknown: *const Fmi2ValueReference,
    _n_unknown: usize,
    _known: *const Fmi2ValueReference,
    _n_known: usize,
    _dv_known: *const Fmi2Real,
    _dv_unknown: *mut Fmi2Real,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as the count says (FMI 2.0, 2.1.7), and `slice`/`slice_mut` refuse NULL with a non-zero count.
    unsafe {
        with(c, "fmi2GetDirectionalDerivative", allowed::DIRECTIONAL_DERIVATIVE, |_| {
            Err("not provided (providesDirectionalDerivative=\"false\")".into())
        })
    }
}

// ----- Co-Simulation functions -----------------------------------------------

#[no_mangle]
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

#[no_mangle]
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

#[no_mangle]
pub unsafe extern "C" fn fmi2DoStep(
    c: Fmi2Component,
    current_communication_point: Fmi2Real,
    communication_step_size: Fmi2Real,
    _no_set_fmu_state_prior_to_current_point: Fmi2Boolean,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe {
        with(c, "fmi2DoStep", allowed::STEP_COMPLETE, |comp| {
            comp.do_step(current_communication_point, communication_step_size)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2CancelStep(c: Fmi2Component) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe {
        with(c, "fmi2CancelStep", allowed::ANY_BUT_FATAL, |_| {
            Err("no step is pending: fmi2DoStep never returns fmi2Pending (canRunAsynchronuously=\"false\")".into())
        })
    }
}

/// Status queries: only the ones an importer may ask after a synchronous
/// step are answered; the rest are fmi2Discard, as the standard says.
#[no_mangle]
pub unsafe extern "C" fn fmi2GetStatus(c: Fmi2Component, kind: c_int, value: *mut Status) -> Status {
    let _env = CallEnv::enter();
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

#[no_mangle]
pub unsafe extern "C" fn fmi2GetRealStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2Real) -> Status {
    let _env = CallEnv::enter();
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

#[no_mangle]
pub unsafe extern "C" fn fmi2GetIntegerStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2Integer) -> Status {
    let _env = CallEnv::enter();
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

#[no_mangle]
pub unsafe extern "C" fn fmi2GetBooleanStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2Boolean) -> Status {
    let _env = CallEnv::enter();
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

#[no_mangle]
pub unsafe extern "C" fn fmi2GetStringStatus(c: Fmi2Component, kind: c_int, value: *mut Fmi2String) -> Status {
    let _env = CallEnv::enter();
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

// ----- Model Exchange functions ----------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn fmi2SetTime(c: Fmi2Component, time: Fmi2Real) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe { with(c, "fmi2SetTime", allowed::SET_TIME, |comp| comp.set_time(time)) }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2SetContinuousStates(c: Fmi2Component, x: *const Fmi2Real, nx: usize) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `x` holds `nx` values (FMI 2.0, 2.1.7), `slice` refuses NULL with nx > 0.
    unsafe {
        with(c, "fmi2SetContinuousStates", allowed::SET_STATES, |comp| {
            let x = slice(x, nx, "x")?;
            comp.set_continuous_states(x)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2GetContinuousStates(c: Fmi2Component, x: *mut Fmi2Real, nx: usize) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `x` has room for `nx` values (FMI 2.0, 2.1.7), `slice_mut` refuses NULL with nx > 0.
    unsafe {
        with(c, "fmi2GetContinuousStates", allowed::GET_STATES, |comp| {
            let x = slice_mut(x, nx, "x")?;
            comp.get_continuous_states(x)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2GetDerivatives(c: Fmi2Component, derivatives: *mut Fmi2Real, nx: usize) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `derivatives` has room for `nx` values (FMI 2.0, 2.1.7), `slice_mut` refuses NULL with nx > 0.
    unsafe {
        with(c, "fmi2GetDerivatives", allowed::GET_STATES, |comp| {
            let out = slice_mut(derivatives, nx, "derivatives")?;
            comp.get_derivatives(out)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2GetEventIndicators(c: Fmi2Component, indicators: *mut Fmi2Real, ni: usize) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `indicators` has room for `ni` values (FMI 2.0, 2.1.7), `slice_mut` refuses NULL with ni > 0.
    unsafe {
        with(c, "fmi2GetEventIndicators", allowed::GET_STATES, |comp| {
            let out = slice_mut(indicators, ni, "eventIndicators")?;
            comp.get_event_indicators(out)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2GetNominalsOfContinuousStates(
    c: Fmi2Component,
    nominals: *mut Fmi2Real,
    nx: usize,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `nominals` has room for `nx` values (FMI 2.0, 2.1.7), `slice_mut` refuses NULL with nx > 0.
    unsafe {
        with(c, "fmi2GetNominalsOfContinuousStates", allowed::NOMINALS, |comp| {
            let out = slice_mut(nominals, nx, "x_nominal")?;
            comp.get_nominals(out)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2EnterEventMode(c: Fmi2Component) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe { with(c, "fmi2EnterEventMode", allowed::ENTER_EVENT_MODE, Component::enter_event_mode) }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2NewDiscreteStates(c: Fmi2Component, info: *mut EventInfo) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `info` is checked non-NULL before it is written, and the importer passes one it owns (FMI 2.0, 3.2.2).
    unsafe {
        with(c, "fmi2NewDiscreteStates", allowed::EVENT_MODE, |comp| {
            if info.is_null() {
                return Err("fmi2EventInfo is NULL".into());
            }
            let result = comp.new_discrete_states()?;
            let flag = |b: bool| if b { FMI2_TRUE } else { FMI2_FALSE };
            *info = EventInfo {
                new_discrete_states_needed: flag(result.new_discrete_states_needed),
                terminate_simulation: FMI2_FALSE,
                nominals_of_continuous_states_changed: FMI2_FALSE,
                values_of_continuous_states_changed: flag(result.values_of_continuous_states_changed),
                next_event_time_defined: FMI2_FALSE,
                next_event_time: 0.0,
            };
            Ok(Status::Ok)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2EnterContinuousTimeMode(c: Fmi2Component) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with` (NULL, alignment, magic); the closure dereferences no pointer.
    unsafe { with(c, "fmi2EnterContinuousTimeMode", allowed::EVENT_MODE, Component::enter_continuous_time_mode) }
}

#[no_mangle]
pub unsafe extern "C" fn fmi2CompletedIntegratorStep(
    c: Fmi2Component,
    _no_set_fmu_state_prior_to_current_point: Fmi2Boolean,
    enter_event_mode: *mut Fmi2Boolean,
    terminate_simulation: *mut Fmi2Boolean,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; both out-pointers are checked non-NULL before they are written, and the importer passes ones it owns (FMI 2.0, 3.2.2).
    unsafe {
        with(c, "fmi2CompletedIntegratorStep", allowed::CONTINUOUS_TIME_MODE, |comp| {
            if enter_event_mode.is_null() || terminate_simulation.is_null() {
                return Err("enterEventMode or terminateSimulation is NULL".into());
            }
            let (event, terminate) = comp.completed_integrator_step()?;
            *enter_event_mode = if event { FMI2_TRUE } else { FMI2_FALSE };
            *terminate_simulation = if terminate { FMI2_TRUE } else { FMI2_FALSE };
            Ok(Status::Ok)
        })
    }
}

#[cfg(test)]
mod tests {
    //! The panic path, with a model made to panic (no real model does).
    use super::*;
    use crate::description::{ModelInfo, Quantity, Variable};
    use crate::fmi2::erased::ModelBox;
    use crate::model::{Model, Transition};
    use std::ffi::c_void;
    use std::sync::Mutex;

    #[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
    struct Panicky {
        trigger: f64,
    }

    impl Model for Panicky {
        const INFO: ModelInfo = ModelInfo {
            identifier: "Panicky",
            description: "panics in doStep when trigger > 0",
            default_experiment: crate::description::Experiment { start_time: 0.0, stop_time: 1.0, step_size: 0.1 },
            default_inputs: &[],
            sources: &[],
            equations: &[],
        };
        const VARIABLES: &'static [Variable<Self>] = &[Variable::<Self>::real_input(
            "trigger",
            "panic when > 0",
            Quantity::Torque,
            0.0,
            |m| m.trigger,
            |m, x| m.trigger = x,
        )];
        fn max_substep(&self) -> f64 {
            0.1
        }
        fn initialize(&mut self) {}
        fn step(&mut self, _dt: f64, _on: &mut dyn FnMut(Transition)) {
            assert!(self.trigger <= 0.0, "deliberate test panic");
        }
    }

    static MESSAGES: Mutex<Vec<String>> = Mutex::new(Vec::new());

    /// Six-argument reading of the variadic logger call (x86-64 System V).
    unsafe extern "C" fn capture(
        _: *mut c_void,
        _: *const c_char,
        _: Status,
        _: *const c_char,
        _: *const c_char,
        text: *const c_char,
    ) {
        // SAFETY: `Log::send` passes a NUL-terminated message as the sixth argument.
        let text = unsafe { CStr::from_ptr(text) };
        MESSAGES.lock().unwrap().push(text.to_string_lossy().into_owned());
    }

    #[test]
    fn a_panic_becomes_fmi2_error_and_leaves_only_reset_and_free() {
        let logger: unsafe extern "C" fn(
            *mut c_void,
            *const c_char,
            Status,
            *const c_char,
            *const c_char,
            *const c_char,
        ) = capture;
        // SAFETY: the x86-64 System V ABI passes the first six arguments of a
        // variadic call as of a fixed-arity one, so `capture` reads them right
        // (see `capture`).
        let logger: Logger = unsafe { std::mem::transmute(logger) };
        let log = Log::new(logger, std::ptr::null_mut(), CString::from(c"panicky"), false);
        let c = Box::into_raw(Box::new(Component::new(
            log,
            "{panicky}",
            Box::new(ModelBox::<Panicky>::new()),
            Interface::CoSimulation,
        ))) as Fmi2Component;
        // SAFETY: `c` is a live component made above, freed last; every array
        // argument points at one element.
        unsafe {
            assert_eq!(fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), Status::Ok);
            assert_eq!(fmi2EnterInitializationMode(c), Status::Ok);
            assert_eq!(fmi2ExitInitializationMode(c), Status::Ok);
            assert_eq!(fmi2DoStep(c, 0.0, 0.1, 1), Status::Ok);
            assert_eq!(fmi2SetReal(c, &0, 1, &1.0), Status::Ok);
            assert_eq!(fmi2DoStep(c, 0.1, 0.1, 1), Status::Error);
            let last = MESSAGES.lock().unwrap().last().cloned().unwrap();
            assert!(last.contains("fmi2DoStep: internal error (panic): deliberate test panic"), "{last}");
            let mut x = 0.0;
            assert_eq!(fmi2GetReal(c, &0, 1, &mut x), Status::Error);
            assert!(MESSAGES
                .lock()
                .unwrap()
                .last()
                .unwrap()
                .contains("only fmi2Reset and fmi2FreeInstance are allowed"));
            let mut state = std::ptr::null_mut();
            assert_eq!(fmi2GetFMUstate(c, &mut state), Status::Error);
            assert_eq!(fmi2Reset(c), Status::Ok);
            assert_eq!(fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), Status::Ok);
            assert_eq!(fmi2EnterInitializationMode(c), Status::Ok);
            assert_eq!(fmi2ExitInitializationMode(c), Status::Ok);
            assert_eq!(fmi2DoStep(c, 0.0, 0.1, 1), Status::Ok, "usable again after reset (start values)");
            fmi2FreeInstance(c);
        }
    }

    /// The one-value read `fmi2GetReal` answers first agrees with the
    /// general one for every value reference of every model: the same bits
    /// for a Real variable, and None exactly where the general read refuses.
    #[test]
    fn one_value_read_agrees_with_the_general_read() {
        for entry in registry::MODELS {
            let model = (entry.new_instance)();
            let count = (entry.variables)().len() as u32;
            for vr in 0..count + 3 {
                let mut out = [0.0];
                let general = model.get_real(&[vr], &mut out).map(|()| out[0].to_bits());
                let one = model.get_one_real(vr).map(f64::to_bits);
                assert_eq!(one, general.ok(), "{} vr {vr}", entry.info.identifier);
            }
        }
    }
}

#[cfg(test)]
mod float_environment {
    /// Every exported function enters the call's floating-point environment
    /// before anything else (see [`super::CallEnv`]): a function added
    /// without it would compute in the host's modes.
    #[test]
    fn every_export_computes_in_the_default_float_environment() {
        let source = include_str!("exports.rs");
        let lines: Vec<&str> = source.lines().collect();
        let mut exports = 0;
        for (i, line) in lines.iter().enumerate() {
            let is_export = line.starts_with("pub extern \"C\" fn ") || line.starts_with("pub unsafe extern \"C\" fn ");
            if !is_export {
                continue;
            }
            exports += 1;
            let body = lines[i..].iter().position(|l| l.trim_end().ends_with('{')).expect("a body") + i + 1;
            assert_eq!(lines[body].trim(), "let _env = CallEnv::enter();", "{line}");
        }
        assert_eq!(exports, 44, "the 44 fmi2 functions");
    }
}
