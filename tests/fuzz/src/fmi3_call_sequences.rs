//! Random call sequences through the exported `fmi3*` functions, for every
//! model, in both interfaces and with every combination of Co-Simulation's
//! event mode and early return: the typed getters and setters over the
//! whole FMI 3.0 value-reference range (`time`, the event indicators, the
//! enumerations as Int64, unknown references, counts that differ), steps
//! that stop early, event mode in either interface, the functions of the
//! features not offered, FMU states, in a host whose floating-point modes
//! the input changes between calls. A crash, an abort, a hang, a panic
//! reported by the FMU (its "internal error (panic)" message) or a call
//! that leaves the host's floating-point modes changed is a finding.

#![no_main]

use fmu::ffi::known::AnyModel;
use fmu::fmi3::exports::*;
use fmu::fmi3::types::*;
/// The binaries' rows know their model (`fmu::ffi::known`): half the calls
/// that take one name this one, which an instance of another model leaves
/// to the general path.
use fmu::models::HillFrictionInertia as Known;
use libfuzzer_sys::fuzz_target;
use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::{null, null_mut};

unsafe extern "C" fn log_message(_: *mut c_void, _: Status, category: *const c_char, text: *const c_char) {
    assert!(!category.is_null(), "NULL category");
    let text = CStr::from_ptr(text).to_string_lossy();
    assert!(!text.contains("internal error (panic)"), "the FMU caught a panic: {text}");
}

#[allow(deprecated)]
fn host_modes() -> u32 {
    // SAFETY: reading MXCSR has no side effect.
    unsafe { std::arch::x86_64::_mm_getcsr() & !0x3F }
}

#[allow(deprecated)]
fn set_host_modes(modes: u32) {
    // SAFETY: only the FTZ, DAZ and rounding bits change.
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
    // FMI 3.0's references run to `time` and the indicators after it; a
    // few beyond are unknown.
    let (states, indicators) = (entry.new_instance)().hybrid_sizes().unwrap_or((0, 0));
    let top = fmu::model::Layout { variables: variables.len(), states, indicators }.time() + 3;
    let token = CString::new(fmu::registry::guid(index)).unwrap();
    let instantiate = |how: u8| unsafe {
        if how & 0x80 != 0 {
            let me = fmi3InstantiateModelExchange(
                fmu::ffi::registry_models(),
                c"fuzz".as_ptr(),
                token.as_ptr(),
                null(),
                0,
                how & 1,
                null_mut(),
                Some(log_message),
            );
            if !me.is_null() {
                return me;
            }
        }
        let c = fmi3InstantiateCoSimulation(
            fmu::ffi::registry_models(),
            c"fuzz".as_ptr(),
            token.as_ptr(),
            null(),
            0,
            how & 1,
            how >> 1 & 1,
            how >> 2 & 1,
            null(),
            0,
            null_mut(),
            Some(log_message),
            None,
        );
        assert!(!c.is_null());
        c
    };
    unsafe {
        let mut c = instantiate(pick);
        let mut buffer = [0.0f64; 16];
        let mut states: Vec<Fmi3FmuState> = Vec::new();
        let mut time = 0.0;
        set_host_modes(0);
        while let Some(op) = b.u8() {
            let vr = b.u8().map(|x| x as u32 % top).unwrap_or(0);
            let n = (op >> 5) as usize % 3; // 0, 1 or 2 values for 1 reference
            let modes = host_modes();
            match op % 27 {
                0 => {
                    let _ = fmi3EnterInitializationMode(c, op & 1, 1e-6, b.real().unwrap_or(0.0), 0, 0.0);
                }
                1 => {
                    let _ = fmi3ExitInitializationMode(c);
                }
                2 => {
                    let x = [b.real().unwrap_or(0.0); 2];
                    let _ = if op & 0x10 == 0 {
                        fmi3SetFloat64::<AnyModel>(c, &vr, 1, x.as_ptr(), n)
                    } else {
                        fmi3SetFloat64::<Known>(c, &vr, 1, x.as_ptr(), n)
                    };
                }
                3 => {
                    let _ = fmi3SetInt32(c, &vr, 1, [b.u8().unwrap_or(0) as i32 - 128; 2].as_ptr(), n);
                    let _ = fmi3SetInt64(
                        c,
                        &vr,
                        1,
                        [(b.real().unwrap_or(0.0) as i64).wrapping_mul(1_000_000_007); 2].as_ptr(),
                        n,
                    );
                }
                4 => {
                    let _ = fmi3SetBoolean(c, &vr, 1, [b.u8().unwrap_or(0); 2].as_ptr(), n);
                }
                5 => {
                    let _ = if op & 0x10 == 0 {
                        fmi3GetFloat64::<AnyModel>(c, &vr, 1, buffer.as_mut_ptr(), n)
                    } else {
                        fmi3GetFloat64::<Known>(c, &vr, 1, buffer.as_mut_ptr(), n)
                    };
                }
                6 => {
                    let (mut i, mut l, mut f) = ([0i32; 2], [0i64; 2], [0u8; 2]);
                    let _ = fmi3GetInt32(c, &vr, 1, i.as_mut_ptr(), n);
                    let _ = fmi3GetInt64(c, &vr, 1, l.as_mut_ptr(), n);
                    let _ = fmi3GetBoolean(c, &vr, 1, f.as_mut_ptr(), n);
                    let _ = fmi3GetFloat32(c, &vr, 1, [0f32; 2].as_mut_ptr(), n);
                    let _ = fmi3GetUInt64(c, &vr, 1, [0u64; 2].as_mut_ptr(), n);
                }
                7 | 8 => {
                    let h = b.real().unwrap_or(0.01);
                    let t = if op & 1 == 0 { time } else { b.real().unwrap_or(time) };
                    // As the FMI 2.0 target: an accepted step of more than 1e3
                    // substeps is legitimate work, not a finding.
                    // The instance's own count (internal steps, or the points
                    // of a one-pass model's search), read in-process.
                    let work = fmu::ffi::instance(c).map_or(0.0, |comp| comp.step_work(h));
                    if work > 1e3 && work <= 1e8 {
                        continue;
                    }
                    let (mut needed, mut terminate, mut early, mut last) = (0u8, 0u8, 0u8, 0.0);
                    if fmi3DoStep(c, t, h, 1, &mut needed, &mut terminate, &mut early, &mut last) == Status::Ok {
                        // A step returns later than it starts, early or
                        // not, unless h is below t's resolution (the FMU
                        // rounds to nearest, whatever the host's mode).
                        let resolution = h <= t.abs() * f64::EPSILON;
                        assert!(last > t || resolution, "no progress: from {t} to {last} (h = {h}, early {early})");
                        time = last;
                    }
                }
                9 => {
                    let _ = fmi3EnterEventMode(c);
                }
                10 => {
                    let (mut a, mut t, mut nc, mut vc, mut nd) = (0u8, 0u8, 0u8, 0u8, 0u8);
                    let mut next = 0.0;
                    let first = if op & 0x80 != 0 { null_mut() } else { &mut a as *mut u8 };
                    let _ = fmi3UpdateDiscreteStates(c, first, &mut t, &mut nc, &mut vc, &mut nd, &mut next);
                }
                11 => {
                    let _ = fmi3EnterStepMode(c);
                    let _ = fmi3EnterContinuousTimeMode(c);
                }
                12 => {
                    let mut s = states.last().copied().unwrap_or(null_mut());
                    if fmi3GetFMUState(c, &mut s) == Status::Ok && !states.contains(&s) {
                        states.push(s);
                    }
                }
                13 => {
                    if let Some(&s) = states.get(vr as usize % (states.len() + 1)) {
                        let _ = fmi3SetFMUState(c, s);
                    }
                }
                14 => {
                    if !states.is_empty() {
                        let mut s = states.swap_remove(vr as usize % states.len());
                        let _ = fmi3FreeFMUState(c, &mut s);
                    }
                }
                15 => {
                    if let Some(&s) = states.last() {
                        let mut size = 0;
                        if fmi3SerializedFMUStateSize(c, s, &mut size) == Status::Ok {
                            let mut bytes = vec![0u8; size];
                            let _ = fmi3SerializeFMUState(c, s, bytes.as_mut_ptr(), size);
                            let flip = b.u8().unwrap_or(0) as usize;
                            if flip & 1 == 1 && size > 0 {
                                bytes[flip % size] ^= b.u8().unwrap_or(1);
                            }
                            let len = if flip & 2 == 2 { flip % (size + 1) } else { size };
                            let mut out = null_mut();
                            if fmi3DeserializeFMUState(c, bytes.as_ptr(), len, &mut out) == Status::Ok {
                                states.push(out);
                            }
                        }
                    }
                }
                16 => {
                    if fmi3Reset(c) == Status::Ok {
                        time = 0.0;
                    }
                }
                17 => {
                    let _ = fmi3Terminate(c);
                }
                18 => {
                    let names = [c"logEvents".as_ptr(), c"logAll".as_ptr(), c"bogus".as_ptr(), null()];
                    let _ = fmi3SetDebugLogging(c, op & 1, vr as usize % 4, names.as_ptr());
                }
                19 => {
                    let _ = fmi3SetTime(c, b.real().unwrap_or(time));
                }
                20 => {
                    let k = vr as usize % buffer.len();
                    for x in &mut buffer[..k] {
                        *x = b.real().unwrap_or(0.0);
                    }
                    let _ = if op & 0x80 == 0 {
                        fmi3SetContinuousStates::<AnyModel>(c, buffer.as_ptr(), k)
                    } else {
                        fmi3SetContinuousStates::<Known>(c, buffer.as_ptr(), k)
                    };
                }
                21 => {
                    let k = vr as usize % buffer.len();
                    let _ = match op & 0xc0 {
                        0x00 => fmi3GetContinuousStates(c, buffer.as_mut_ptr(), k),
                        0x40 => fmi3GetContinuousStateDerivatives(c, buffer.as_mut_ptr(), k),
                        0x80 => fmi3GetNominalsOfContinuousStates(c, buffer.as_mut_ptr(), k),
                        _ if op & 0x20 == 0 => fmi3GetEventIndicators::<AnyModel>(c, buffer.as_mut_ptr(), k),
                        _ => fmi3GetEventIndicators::<Known>(c, buffer.as_mut_ptr(), k),
                    };
                    let mut count = 0;
                    let _ = fmi3GetNumberOfEventIndicators(c, &mut count);
                    let _ = fmi3GetNumberOfContinuousStates(c, if op & 1 == 0 { &mut count } else { null_mut() });
                }
                22 => {
                    let (mut enter, mut terminate) = (0u8, 0u8);
                    let out = if op & 0x80 != 0 { null_mut() } else { &mut enter as *mut u8 };
                    let _ = fmi3CompletedIntegratorStep(c, 1, out, &mut terminate);
                }
                23 => {
                    // What is not offered, refused.
                    let _ = fmi3EnterConfigurationMode(c);
                    let _ = fmi3GetClock(c, &vr, 1, [0u8].as_mut_ptr());
                    let _ = fmi3GetIntervalDecimal(c, &vr, 1, [0.0].as_mut_ptr(), [0].as_mut_ptr());
                    let _ = fmi3EvaluateDiscreteStates(c);
                    let mut count = 0;
                    let _ = fmi3GetNumberOfVariableDependencies(c, vr, &mut count);
                }
                24 => {
                    let mut out = [0.0];
                    let _ = fmi3GetOutputDerivatives(c, &vr, 1, [1].as_ptr(), out.as_mut_ptr(), 1);
                }
                25 => {
                    let m = b.u8().unwrap_or(0) as u32;
                    set_host_modes(((m & 3) << 13) | if m & 4 != 0 { 0x8040 } else { 0 });
                    continue;
                }
                _ => {
                    fmi3FreeInstance(c);
                    states.clear();
                    time = 0.0;
                    c = instantiate(op);
                }
            }
            assert_eq!(host_modes(), modes, "a call changed the host's floating-point modes (op {})", op % 27);
        }
        fmi3FreeInstance(c);
        set_host_modes(0);
    }
});
