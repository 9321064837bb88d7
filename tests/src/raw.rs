//! Direct calls into a built FMU binary, for the tests of the C ABI itself
//! (call order, GUID, NULL arguments, log messages). The binary is taken
//! from the FMU archive as the `fmi` crate extracts it, and bound with the
//! crate's raw FMI 2.0 bindings.

use fmi::fmi2::binding::{self, Fmi2Binding};
use fmi::fmi2::import::Fmi2Import;
use fmi::traits::FmiImport;
use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::Mutex;

/// The logger as our callbacks define it: the variadic call read as six
/// fixed arguments (every message is formatted before the call).
type SixArgLogger = unsafe extern "C" fn(*mut c_void, *const c_char, u32, *const c_char, *const c_char, *const c_char);
/// The logger as the FMI 2.0 header declares it (variadic).
type VariadicLogger = unsafe extern "C" fn(
    binding::fmi2ComponentEnvironment,
    binding::fmi2String,
    binding::fmi2Status,
    binding::fmi2String,
    binding::fmi2String,
    ...
);

/// One message the FMU sent to the logger.
#[derive(Clone, Debug)]
pub struct Message {
    pub instance: String,
    pub status: u32,
    pub category: String,
    pub text: String,
}

/// The FMU calls its logger as `logger(env, name, status, category, "%s",
/// text)`. Stable Rust cannot define a variadic function; on x86_64 System V
/// a variadic call passes its first variadic pointer in the sixth integer
/// register, exactly where this six-argument function reads `text`.
unsafe extern "C" fn capture(
    env: *mut c_void,
    instance: *const c_char,
    status: u32,
    category: *const c_char,
    format: *const c_char,
    text: *const c_char,
) {
    let read = |p: *const c_char| {
        if p.is_null() {
            "<NULL>".to_string()
        } else {
            CStr::from_ptr(p).to_string_lossy().into_owned()
        }
    };
    assert_eq!(read(format), "%s", "the FMU must pass its message through a %s format");
    let sink = &*(env as *const Mutex<Vec<Message>>);
    sink.lock().unwrap().push(Message { instance: read(instance), status, category: read(category), text: read(text) });
}

pub struct RawFmu {
    // Field order matters: the library must be unloaded last.
    pub messages: Box<Mutex<Vec<Message>>>,
    callbacks: Box<binding::fmi2CallbackFunctions>,
    pub guid: CString,
    pub lib: Fmi2Binding,
    _import: Fmi2Import,
}

pub const OK: u32 = binding::fmi2Status_fmi2OK;
pub const WARNING: u32 = binding::fmi2Status_fmi2Warning;
pub const DISCARD: u32 = binding::fmi2Status_fmi2Discard;
pub const ERROR: u32 = binding::fmi2Status_fmi2Error;

impl RawFmu {
    pub fn load(model: &str) -> Self {
        let import = fmi::import::from_path::<Fmi2Import>(crate::fmu_path(model)).expect("load FMU");
        let so = import.archive_path().join(format!("binaries/linux64/{model}.so"));
        // SAFETY: the FMU binary built by this workspace; loading it runs no
        // initializer beyond Rust's own.
        let lib = unsafe { Fmi2Binding::new(&so) }.expect("dlopen the FMU binary");
        let guid = CString::new(import.model_description().guid.clone()).unwrap();
        let messages: Box<Mutex<Vec<Message>>> = Box::default();
        let logger: SixArgLogger = capture;
        let callbacks = Box::new(binding::fmi2CallbackFunctions {
            // SAFETY: see `capture`.
            logger: Some(unsafe { std::mem::transmute::<SixArgLogger, VariadicLogger>(logger) }),
            allocateMemory: None,
            freeMemory: None,
            stepFinished: None,
            componentEnvironment: &*messages as *const Mutex<Vec<Message>> as *mut c_void,
        });
        Self { messages, callbacks, guid, lib, _import: import }
    }

    pub fn callbacks(&self) -> *const binding::fmi2CallbackFunctions {
        &*self.callbacks
    }

    /// `fmi2Instantiate` for Co-Simulation with this FMU's GUID.
    pub fn instantiate(&self, name: &str) -> binding::fmi2Component {
        self.instantiate_as(name, binding::fmi2Type_fmi2CoSimulation)
    }

    /// `fmi2Instantiate` for `fmu_type` (Co-Simulation or Model Exchange).
    pub fn instantiate_as(&self, name: &str, fmu_type: binding::fmi2Type) -> binding::fmi2Component {
        let name = CString::new(name).unwrap();
        // SAFETY: NUL-terminated strings and callbacks that outlive the call
        // (the callbacks live as long as `self`).
        unsafe {
            self.lib.fmi2Instantiate(
                name.as_ptr(),
                fmu_type,
                self.guid.as_ptr(),
                c"file:///tmp".as_ptr(),
                self.callbacks(),
                0,
                0,
            )
        }
    }

    /// Instantiate and initialize with default start values.
    pub fn initialized(&self, name: &str) -> binding::fmi2Component {
        let c = self.instantiate(name);
        assert!(!c.is_null());
        // SAFETY: `c` is a live instance of this binary, made just above.
        unsafe {
            assert_eq!(self.lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
            assert_eq!(self.lib.fmi2EnterInitializationMode(c), OK);
            assert_eq!(self.lib.fmi2ExitInitializationMode(c), OK);
        }
        c
    }

    pub fn take_messages(&self) -> Vec<Message> {
        std::mem::take(&mut *self.messages.lock().unwrap())
    }

    /// The last error message logged, for assertions on its wording.
    pub fn last_error(&self) -> String {
        let messages = self.take_messages();
        let m = messages
            .iter()
            .rev()
            .find(|m| m.status == ERROR)
            .unwrap_or_else(|| panic!("no error logged: {messages:?}"));
        assert_eq!(m.category, "logStatusError");
        m.text.clone()
    }
}

/// Write the binary of the built FMU `id` to `dir` (as an importer unpacks
/// it) and return its path.
pub fn extract_binary(id: &str, dir: &std::path::Path) -> std::path::PathBuf {
    use std::io::Read;
    let mut archive = zip::ZipArchive::new(std::fs::File::open(crate::fmu_path(id)).unwrap()).unwrap();
    let mut so = Vec::new();
    archive.by_name(&format!("binaries/linux64/{id}.so")).unwrap().read_to_end(&mut so).unwrap();
    let path = dir.join(format!("{id}.so"));
    std::fs::write(&path, so).unwrap();
    path
}

unsafe extern "C" fn quiet(
    _: *mut c_void,
    _: *const c_char,
    _: u32,
    _: *const c_char,
    _: *const c_char,
    _: *const c_char,
) {
}

/// Callbacks whose logger drops every message (same six-argument reading of
/// the variadic call as [`RawFmu`]'s).
pub fn silent_callbacks() -> binding::fmi2CallbackFunctions {
    let logger: SixArgLogger = quiet;
    binding::fmi2CallbackFunctions {
        // SAFETY: see `capture`.
        logger: Some(unsafe { std::mem::transmute::<SixArgLogger, VariadicLogger>(logger) }),
        allocateMemory: None,
        freeMemory: None,
        stepFinished: None,
        componentEnvironment: std::ptr::null_mut(),
    }
}

/// IEEE 754's default environment (MXCSR), and a host that flushes
/// subnormals (FTZ + DAZ, as `-ffast-math` code runs): the benches time
/// their calls in both.
pub const DEFAULT_HOST: u32 = 0x1F80;
pub const FLUSHING_HOST: u32 = 0x1F80 | 0x8040;

/// `f` with the calling thread's MXCSR set to `mxcsr` (x86_64; elsewhere
/// the default environment only), around a whole timed block so that the
/// harness itself switches nothing per call.
pub fn in_host<T>(mxcsr: u32, f: impl FnOnce() -> T) -> T {
    #[cfg(target_arch = "x86_64")]
    #[allow(deprecated)]
    {
        use std::arch::x86_64::{_mm_getcsr, _mm_setcsr};
        // SAFETY: MXCSR values with reserved bits clear; the caller's is
        // put back after `f`.
        unsafe {
            let before = _mm_getcsr();
            _mm_setcsr(mxcsr);
            let out = f();
            _mm_setcsr(before);
            out
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = mxcsr;
        f()
    }
}
