//! Random call sequences through the exported `fmi2*` functions, for every
//! model, in both interfaces (Co-Simulation and, where the model has it,
//! Model Exchange: states and indicators of any length, time going
//! backwards, NaN states, the ME functions in any mode), in a host whose
//! floating-point environment the input changes between calls (subnormals
//! flushed, each rounding mode). A crash, an abort, a hang, a panic
//! reported by the FMU (its "internal error (panic)" message) or a call
//! that leaves the host's floating-point modes changed is a finding.

#![no_main]

use fmu::ffi::known::AnyModel;
use fmu::fmi2::exports::*;
use fmu::fmi2::types::*;
/// The binaries' rows know their model (`fmu::ffi::known`): half the calls
/// that take one name this one, which an instance of another model leaves
/// to the general path.
use fmu::models::HillFrictionInertia as Known;
use libfuzzer_sys::fuzz_target;
use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::{null, null_mut};

/// Six-argument reading of the variadic logger call (see tests/src/raw.rs).
unsafe extern "C" fn logger(
    _: *mut c_void,
    _: *const c_char,
    _: u32,
    category: *const c_char,
    _: *const c_char,
    text: *const c_char,
) {
    assert!(!category.is_null(), "NULL category");
    let text = CStr::from_ptr(text).to_string_lossy();
    assert!(!text.contains("internal error (panic)"), "the FMU caught a panic: {text}");
}

/// The host's MXCSR control bits (x86_64; FTZ bit 15, DAZ bit 6, rounding
/// bits 13-14), read and set as any host does.
#[allow(deprecated)]
fn host_modes() -> u32 {
    // SAFETY: reading MXCSR has no side effect.
    unsafe { std::arch::x86_64::_mm_getcsr() & !0x3F }
}

#[allow(deprecated)]
fn set_host_modes(modes: u32) {
    // SAFETY: only the FTZ, DAZ and rounding bits change (exceptions stay
    // masked: the fuzzer's own arithmetic may overflow).
    unsafe { std::arch::x86_64::_mm_setcsr(0x1F80 | (modes & 0xE040)) }
}

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }
    fn f64(&mut self) -> Option<f64> {
        if self.0.len() < 8 {
            return None;
        }
        let (head, rest) = self.0.split_at(8);
        self.0 = rest;
        Some(f64::from_le_bytes(head.try_into().unwrap()))
    }
    /// A real that is usually plausible, sometimes anything at all.
    fn real(&mut self) -> Option<f64> {
        let mode = self.u8()?;
        let raw = self.f64()?;
        Some(if mode & 0x80 != 0 {
            raw
        } else if raw.is_finite() {
            (raw % 10.0).abs() * if mode & 1 == 0 { 1.0 } else { -1.0 }
        } else {
            0.5
        })
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let Some(pick) = b.u8() else { return };
    let index = pick as usize % fmu::registry::MODELS.len();
    let entry = &fmu::registry::MODELS[index];
    let variables = (entry.variables)();
    let n_vars = variables.len() as u32;
    // The registry's GUID is computed once (writing the model description
    // on every execution would halve the fuzzer's rate).
    let guid = CString::new(fmu::registry::guid(index)).unwrap();
    let logger: unsafe extern "C" fn(*mut c_void, *const c_char, u32, *const c_char, *const c_char, *const c_char) =
        logger;
    let callbacks = CallbackFunctions {
        logger: Some(unsafe { std::mem::transmute(logger) }),
        allocate_memory: None,
        free_memory: None,
        step_finished: None,
        component_environment: null_mut(),
    };
    // fmi2ModelExchange (0) where the model offers it, else fmi2CoSimulation (1).
    let instantiate = |model_exchange: bool, logging: i32| unsafe {
        let me = fmi2Instantiate(fmu::ffi::registry_models(), c"fuzz".as_ptr(), 0, guid.as_ptr(), null(), &callbacks, 0, logging);
        if model_exchange && !me.is_null() {
            return me;
        }
        if !me.is_null() {
            fmi2FreeInstance(me);
        }
        let c = fmi2Instantiate(fmu::ffi::registry_models(), c"fuzz".as_ptr(), 1, guid.as_ptr(), null(), &callbacks, 0, logging);
        assert!(!c.is_null());
        c
    };
    unsafe {
        let mut c = instantiate(pick & 0x80 != 0, 1);
        // Room for any model's states and indicators and a few more, so that
        // too long a vector is tried too.
        let mut buffer = [0.0f64; 16];
        let mut states: Vec<Fmi2FmuState> = Vec::new();
        let mut time = 0.0;
        set_host_modes(0);
        while let Some(op) = b.u8() {
            let vr = b.u8().map(|x| x as u32 % (n_vars + 2)).unwrap_or(0);
            let modes = host_modes();
            match op % 29 {
                0 => {
                    let _ = fmi2SetupExperiment(c, 0, 0.0, b.real().unwrap_or(0.0), 0, 0.0);
                }
                1 => {
                    let _ = fmi2EnterInitializationMode(c);
                }
                2 => {
                    let _ = fmi2ExitInitializationMode(c);
                }
                3 => {
                    let x = b.real().unwrap_or(0.0);
                    let _ = if op & 0x80 == 0 {
                        fmi2SetReal::<AnyModel>(c, &vr, 1, &x)
                    } else {
                        fmi2SetReal::<Known>(c, &vr, 1, &x)
                    };
                }
                4 => {
                    let _ = fmi2SetInteger(c, &vr, 1, &(b.u8().unwrap_or(0) as i32 - 128));
                }
                5 => {
                    let _ = fmi2SetBoolean(c, &vr, 1, &(b.u8().unwrap_or(0) as i32));
                }
                6 => {
                    let mut x = 0.0;
                    let _ = if op & 0x80 == 0 {
                        fmi2GetReal::<AnyModel>(c, &vr, 1, &mut x)
                    } else {
                        fmi2GetReal::<Known>(c, &vr, 1, &mut x)
                    };
                }
                7 => {
                    let mut x = 0;
                    let _ = fmi2GetInteger(c, &vr, 1, &mut x);
                    let _ = fmi2GetBoolean(c, &vr, 1, &mut x);
                }
                8 | 9 | 10 => {
                    let h = b.real().unwrap_or(0.01);
                    let t = if op & 1 == 0 { time } else { b.real().unwrap_or(time) };
                    // A step the FMU accepts costs one model step per substep: up
                    // to 1e8 of them (the FMU's limit) is legitimate work of
                    // seconds to minutes, not a finding, so the fuzzer skips
                    // accepted steps of more than 1e3 substeps (refused ones
                    // beyond the limit are cheap and still exercised).
                    // The instance's own count (internal steps, or the points
                    // of a one-pass model's search), read in-process.
                    let work = fmu::ffi::instance(c).map_or(0.0, |comp| comp.step_work(h));
                    if work > 1e3 && work <= 1e8 {
                        continue;
                    }
                    if fmi2DoStep(c, t, h, 1) == Status::Ok {
                        time = t + h;
                    }
                }
                11 => {
                    let mut s = states.last().copied().unwrap_or(null_mut());
                    if fmi2GetFMUstate(c, &mut s) == Status::Ok && !states.contains(&s) {
                        states.push(s);
                    }
                }
                12 => {
                    if let Some(&s) = states.get(vr as usize % (states.len() + 1)) {
                        let _ = fmi2SetFMUstate(c, s);
                    }
                }
                13 => {
                    if !states.is_empty() {
                        let mut s = states.swap_remove(vr as usize % states.len());
                        let _ = fmi2FreeFMUstate(c, &mut s);
                    }
                }
                14 => {
                    // Serialize, corrupt one byte (maybe), truncate (maybe), deserialize.
                    if let Some(&s) = states.last() {
                        let mut size = 0;
                        if fmi2SerializedFMUstateSize(c, s, &mut size) == Status::Ok {
                            let mut bytes = vec![0 as c_char; size];
                            let _ = fmi2SerializeFMUstate(c, s, bytes.as_mut_ptr(), size);
                            let flip = b.u8().unwrap_or(0) as usize;
                            if flip & 1 == 1 && size > 0 {
                                bytes[flip % size] ^= b.u8().unwrap_or(1) as c_char;
                            }
                            let len = if flip & 2 == 2 { flip % (size + 1) } else { size };
                            let mut out = null_mut();
                            if fmi2DeSerializeFMUstate(c, bytes.as_ptr(), len, &mut out) == Status::Ok {
                                states.push(out);
                            }
                        }
                    }
                }
                15 => {
                    // Raw fuzz bytes as a serialized state.
                    let n = (b.u8().unwrap_or(0) as usize).min(b.0.len());
                    let (raw, rest) = b.0.split_at(n);
                    b.0 = rest;
                    let mut out = null_mut();
                    if fmi2DeSerializeFMUstate(c, raw.as_ptr() as *const c_char, raw.len(), &mut out) == Status::Ok {
                        states.push(out);
                    }
                }
                16 => {
                    if fmi2Reset(c) == Status::Ok {
                        time = 0.0;
                    }
                }
                17 => {
                    let _ = fmi2Terminate(c);
                }
                18 => {
                    let names = [c"logEvents".as_ptr(), c"logAll".as_ptr(), c"bogus".as_ptr(), null()];
                    let n = vr as usize % 4;
                    let _ = fmi2SetDebugLogging(c, (op & 0x20) as i32, n, names.as_ptr());
                }
                // Model Exchange (refused by name in a Co-Simulation instance).
                19 => {
                    let _ = fmi2SetTime(c, b.real().unwrap_or(time));
                }
                20 => {
                    let n = vr as usize % buffer.len();
                    for x in &mut buffer[..n] {
                        *x = b.real().unwrap_or(0.0);
                    }
                    let _ = if op & 0x80 == 0 {
                        fmi2SetContinuousStates::<AnyModel>(c, buffer.as_ptr(), n)
                    } else {
                        fmi2SetContinuousStates::<Known>(c, buffer.as_ptr(), n)
                    };
                }
                21 => {
                    let n = vr as usize % buffer.len();
                    let _ = match op & 0xc0 {
                        0x00 => fmi2GetContinuousStates(c, buffer.as_mut_ptr(), n),
                        0x40 => fmi2GetDerivatives(c, buffer.as_mut_ptr(), n),
                        0x80 => fmi2GetNominalsOfContinuousStates(c, buffer.as_mut_ptr(), n),
                        _ => fmi2GetDerivatives(c, null_mut(), n),
                    };
                }
                22 => {
                    let n = vr as usize % buffer.len();
                    let _ = if op & 0x80 == 0 {
                        fmi2GetEventIndicators::<AnyModel>(c, buffer.as_mut_ptr(), n)
                    } else {
                        fmi2GetEventIndicators::<Known>(c, buffer.as_mut_ptr(), n)
                    };
                }
                23 => {
                    let _ = fmi2EnterEventMode(c);
                }
                24 => {
                    let mut info = EventInfo::default();
                    let _ = fmi2NewDiscreteStates(c, if op & 0x80 != 0 { null_mut() } else { &mut info });
                }
                25 => {
                    let _ = fmi2EnterContinuousTimeMode(c);
                }
                26 => {
                    let (mut enter, mut terminate) = (0, 0);
                    let out = if op & 0x80 != 0 { null_mut() } else { &mut enter as *mut Fmi2Boolean };
                    let _ = fmi2CompletedIntegratorStep(c, 1, out, &mut terminate);
                }
                27 => {
                    // The host changes its floating-point modes.
                    let m = b.u8().unwrap_or(0) as u32;
                    set_host_modes(((m & 3) << 13) | if m & 4 != 0 { 0x8040 } else { 0 });
                    continue;
                }
                _ => {
                    // Free and start over (states go with the instance), in
                    // either interface.
                    fmi2FreeInstance(c);
                    states.clear();
                    time = 0.0;
                    c = instantiate(op & 0x40 != 0, (op & 1) as i32);
                }
            }
            assert_eq!(host_modes(), modes, "a call changed the host's floating-point modes (op {})", op % 29);
        }
        fmi2FreeInstance(c);
        set_host_modes(0);
    }
});
