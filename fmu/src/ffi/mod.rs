//! What both bindings (FMI 2.0 and FMI 3.0) share at the C boundary: the
//! instance handle checked, a call run under the call-sequence check with
//! panics caught, C arrays turned into slices (NULL and absurd lengths
//! refused), the host's floating-point environment kept out
//! ([`float_env`]), and the model a binary exports ([`Exported`]).
//! Nothing here knows a standard's names: the instance's vocabulary words
//! the messages.
//!
//! With the bindings, the only folders of the product crates with `unsafe`
//! (`fmu/tests/unsafe_contained.rs` keeps it so); each block says on the
//! line above why it holds (`// SAFETY:`).

#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![allow(clippy::missing_safety_doc)]

#[cfg(test)]
pub(crate) mod binding_rules;
pub mod export;
pub mod float_env;
pub mod hot;
pub mod known;

use crate::instance::{Erased, Instance, Interface, Status, INSTANCE_MAGIC};
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Largest array an importer may pass; more is taken as a corrupted count.
pub const MAX_ARRAY_LEN: usize = 1 << 24;

/// The instance behind the handle `c`, if it is one of ours and alive.
///
/// # Safety
/// `c` is NULL or a handle the importer got from one of our instantiate
/// functions: readable for an `Instance` unless it was freed, which the
/// magic tells apart on a best-effort basis (the memory is then the
/// allocator's).
#[inline(always)]
pub unsafe fn instance<'a>(c: *mut c_void) -> Option<&'a mut Instance> {
    if c.is_null() || !(c as usize).is_multiple_of(std::mem::align_of::<Instance>()) {
        return None;
    }
    // SAFETY: non-NULL and aligned (checked above), and by this function's
    // contract a handle our instantiate returned; no other reference to the
    // instance lives during an FMI call (neither standard allows concurrent
    // calls on one instance).
    let comp = unsafe { &mut *(c as *mut Instance) };
    (comp.magic == INSTANCE_MAGIC).then_some(comp)
}

pub fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// Run `body` on the instance with the call-sequence check for `function`,
/// turning a panic into an error and an instance that accepts only reset
/// and free.
///
/// # Safety
/// As [`instance`] for `c`.
#[inline(always)]
pub unsafe fn with(
    c: *mut c_void,
    function: &'static str,
    allowed: u16,
    body: impl FnOnce(&mut Instance) -> Result<Status, String>,
) -> Status {
    // SAFETY: this function's contract.
    let Some(comp) = (unsafe { instance(c) }) else {
        return Status::Error; // no instance, hence no logger to tell
    };
    match catch_unwind(AssertUnwindSafe(|| comp.call(function, allowed, body))) {
        Ok(status) => status,
        // SAFETY: `c` was found to be a live instance above; the reference
        // the panicking body held is gone with the unwound closure.
        Err(payload) => unsafe { poisoned(c, function, payload) },
    }
}

/// [`with`] with one body for every caller: for calls that are never hot,
/// so that a binary holds one copy of the checks for all of them.
///
/// # Safety
/// As [`with`].
#[inline(always)]
pub unsafe fn with_shared(
    c: *mut c_void,
    function: &'static str,
    allowed: u16,
    body: impl FnOnce(&mut Instance) -> Result<Status, String>,
) -> Status {
    let mut body = Some(body);
    // SAFETY: this function's contract.
    unsafe { with_dyn(c, function, allowed, &mut |comp| body.take().map_or(Ok(Status::Error), |f| f(comp))) }
}

/// The one body of [`with_shared`].
///
/// # Safety
/// As [`with`].
#[inline(never)]
unsafe fn with_dyn(
    c: *mut c_void,
    function: &'static str,
    allowed: u16,
    body: &mut dyn FnMut(&mut Instance) -> Result<Status, String>,
) -> Status {
    // SAFETY: this function's contract.
    unsafe { with(c, function, allowed, body) }
}

/// The panic path of [`with`], out of line.
///
/// # Safety
/// `c` is a live instance with no other reference to it.
#[cold]
#[inline(never)]
pub unsafe fn poisoned(c: *mut c_void, function: &str, payload: Box<dyn std::any::Any + Send>) -> Status {
    // SAFETY: this function's contract.
    let comp = unsafe { &mut *(c as *mut Instance) };
    let text = panic_text(payload.as_ref());
    comp.poison_after_panic(function, &text)
}

/// `ptr[0..n]`, refusing NULL with n > 0 and absurd lengths.
///
/// # Safety
/// `ptr` is NULL or points at `n` initialized `T` that outlive `'a` and that
/// nothing writes meanwhile (an FMI array argument).
#[inline(always)]
pub unsafe fn slice<'a, T>(ptr: *const T, n: usize, what: &str) -> Result<&'a [T], String> {
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
pub unsafe fn slice_mut<'a, T>(ptr: *mut T, n: usize, what: &str) -> Result<&'a mut [T], String> {
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

/// The `n` C strings `ptr` points at (FMI's `categories`), refusing a NULL
/// array (with n > 0), a NULL entry and one that is not UTF-8.
///
/// # Safety
/// `ptr` is NULL or points at `n` pointers, each NULL or a NUL-terminated
/// string, that outlive `'a`.
pub unsafe fn strings<'a>(ptr: *const *const std::ffi::c_char, n: usize, what: &str) -> Result<Vec<&'a str>, String> {
    // SAFETY: this function's contract.
    let pointers = unsafe { slice(ptr, n, what) }?;
    let mut texts = Vec::with_capacity(n);
    for (i, &p) in pointers.iter().enumerate() {
        if p.is_null() {
            return Err(format!("{what}[{i}] is NULL"));
        }
        // SAFETY: non-NULL, hence NUL-terminated by this function's contract.
        texts.push(unsafe { std::ffi::CStr::from_ptr(p) }.to_str().map_err(|_| format!("{what}[{i}] is not UTF-8"))?);
    }
    Ok(texts)
}

/// `*ptr` to write, refusing NULL.
///
/// # Safety
/// `ptr` is NULL or points at a writable `T` that outlives `'a` and that
/// nothing else reads or writes meanwhile (an FMI out-argument).
#[inline(always)]
pub unsafe fn out<'a, T>(ptr: *mut T, what: &str) -> Result<&'a mut T, String> {
    // SAFETY: `as_mut` refuses NULL; otherwise writable and exclusive by
    // this function's contract.
    match unsafe { ptr.as_mut() } {
        Some(value) => Ok(value),
        None => Err(null_pointer(what)),
    }
}

#[cold]
pub fn null_pointer(what: &str) -> String {
    format!("{what} is NULL")
}

#[cold]
pub fn null_array(what: &str, n: usize) -> String {
    format!("{what} is NULL with {n} elements")
}

#[cold]
pub fn too_long(what: &str, n: usize) -> String {
    format!("{what} has {n} elements (at most {MAX_ARRAY_LEN})")
}

/// `f` with `n` scratch values (a C array converted): on the stack for up
/// to 64 (every call of the FMUs' importers), on the heap only beyond, so
/// that a get or set allocates nothing per call.
pub fn scratch<T: Copy + Default, R>(n: usize, f: impl FnOnce(&mut [T]) -> R) -> R {
    const SMALL: usize = 64;
    if n <= SMALL {
        let mut buffer = [T::default(); SMALL];
        f(&mut buffer[..n])
    } else {
        f(&mut vec![T::default(); n])
    }
}

/// An instantiate function of either standard, whole: in IEEE 754's
/// default environment with panics caught, the standard's logger made
/// (`log`; none: NULL at once, nobody to tell), the instance name checked,
/// then the interface (`interface`: the one asked for, or why the call is
/// refused), then the token (`token_what`: the standard's name for it) and
/// the model it names among `models`; a new instance with Co-Simulation's
/// `events` as the handle, or NULL with the reason logged as an error of
/// `function`.
///
/// # Safety
/// `instance_name` and `token` are NULL or NUL-terminated strings; `log`
/// dereferences only what the standard's contract says is valid.
#[allow(clippy::too_many_arguments)]
pub unsafe fn instantiate(
    models: &[Exported],
    function: &str,
    log: impl FnOnce() -> Option<crate::instance::log::Log>,
    words: &'static crate::instance::Vocabulary,
    instance_name: *const std::ffi::c_char,
    interface: Result<Interface, String>,
    events: crate::instance::CoSimulationEvents,
    (token, token_what): (*const std::ffi::c_char, &str),
) -> *mut c_void {
    let _env = float_env::CallEnv::enter();
    let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let log = log()?;
        let refuse = |message: String| {
            log.emit(Status::Error, crate::instance::log::ERROR, &format!("{function}: {message}"));
            None
        };
        if instance_name.is_null() {
            return refuse("instanceName is NULL".into());
        }
        // SAFETY: non-NULL, hence NUL-terminated by this function's contract.
        let name = unsafe { std::ffi::CStr::from_ptr(instance_name) }.to_string_lossy();
        if name.trim().is_empty() {
            // FMI 2.0, 2.1.5; FMI 3.0, 2.3.1: a non-empty string.
            return refuse(format!("instanceName \"{}\" rejected: must not be empty or blank", name.escape_default()));
        }
        let interface = match interface {
            Ok(interface) => interface,
            Err(message) => return refuse(message),
        };
        if token.is_null() {
            return refuse(format!("{token_what} is NULL"));
        }
        // SAFETY: non-NULL (checked above), NUL-terminated by this function's contract.
        let token = unsafe { std::ffi::CStr::from_ptr(token) }.to_string_lossy();
        let (guid, model) = match model_for(models, &token, token_what, interface, words) {
            Ok(found) => found,
            Err(message) => return refuse(message),
        };
        let mut instance = Instance::new(log, words, guid, model, interface);
        instance.co_simulation_events = events;
        Some(Box::into_raw(Box::new(instance)) as *mut c_void)
    }));
    made.ok().flatten().unwrap_or(std::ptr::null_mut())
}

/// A model as a binary exports it: what an instantiate call needs of it,
/// and nothing else (no model description, no registry), so that a model's
/// binary holds its own model only. `export_model!` writes one for its
/// model; in process, [`registry_models`] has one per model.
pub struct Exported {
    pub identifier: &'static str,
    /// The GUID (FMI 2.0's fmuGUID, FMI 3.0's instantiationToken) of the
    /// model description shipped beside the binary.
    pub guid: &'static str,
    pub new_instance: fn() -> Box<dyn Erased>,
}

impl Exported {
    /// Model `M` with the GUID of its model description (written into its
    /// binary's source by `cargo xtask fmu`, checked current by a test).
    pub const fn of<M: crate::model::Model>(guid: &'static str) -> Self {
        Exported { identifier: M::IDENTIFIER, guid, new_instance: crate::registry::boxed::<M> }
    }
}

/// Every model of the registry, for instances made in process (the runner,
/// the in-process tests): one library that may be any model.
pub fn registry_models() -> &'static [Exported] {
    static ALL: std::sync::OnceLock<Vec<Exported>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        crate::registry::MODELS
            .iter()
            .enumerate()
            .map(|(i, m)| Exported {
                identifier: m.info.identifier,
                guid: crate::registry::guid(i),
                new_instance: m.new_instance,
            })
            .collect()
    })
}

/// The model an instantiate call asks for by `token` (FMI 2.0's fmuGUID,
/// FMI 3.0's instantiationToken; `what` names it in the message): among
/// `models` (a binary's one), the one whose GUID it is, offering
/// `interface`. Its GUID and a fresh model, or the message of the refusal
/// (`words`: the binding's).
pub fn model_for(
    models: &[Exported],
    token: &str,
    what: &str,
    interface: Interface,
    words: &crate::instance::Vocabulary,
) -> Result<(&'static str, Box<dyn Erased>), String> {
    let Some(found) = models.iter().find(|m| m.guid == token) else {
        let expected = match models {
            [one] => format!("{} has {what} {}", one.identifier, one.guid),
            _ => "it matches no model in this library".into(),
        };
        return Err(format!("{what} {token} does not match the model description: {expected}"));
    };
    let model = (found.new_instance)();
    if interface == Interface::ModelExchange && model.hybrid_sizes().is_none() {
        return Err(format!(
            "{} requested: {} offers Co-Simulation only (no <ModelExchange> in its model description)",
            words.model_exchange, found.identifier
        ));
    }
    Ok((found.guid, model))
}
