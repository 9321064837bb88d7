//! The floating-point environment of an FMI call.
//!
//! An FMU is a guest in someone else's process, and that process may flush
//! subnormals (code built with `-ffast-math` links `crtfastmath.o`; Intel's
//! compilers and many real-time targets set FTZ/DAZ), round another way, or
//! unmask exceptions. Our physics is written for IEEE 754's default
//! environment: a stop is a velocity of exactly 0.0, a closed form's root is
//! found with round-to-nearest, and a model description's text (hence its
//! GUID) depends on how a subnormal `min` compares.
//!
//! So every exported function that computes or compares a floating-point
//! value enters [`CallEnv::enter`] first (the others, which copy bytes,
//! flags and strings, run in the host's: their rows say `host`; Model Exchange's hot calls, rows `computes_if` of
//! [`handle_exports!`](crate::ffi::export), enter it only when they must
//! compute: time and states stored, derivatives and event indicators
//! copied while the last evaluation is current, are compared by their bits
//! in the host's environment; a step in a host that only flushes
//! subnormals stays in the host's environment and checks itself,
//! [`CallEnv::enter_checked`]): it saves the
//! caller's control and status registers, computes in the default
//! environment (round to nearest, subnormals kept, all exceptions masked,
//! flags clear), and gives the caller its registers back, flags included,
//! when the call returns or unwinds. The caller's environment is unchanged
//! after every call, and the results are those of a default process, bit
//! for bit, whatever the host set. Callbacks (the logger) run in the FMU's
//! environment, which masks every exception, in a call that enters it for
//! its whole length; in the host's for the others (a `computes_if` call
//! words a refusal in the FMU's environment, and logs it after giving the
//! host its own back).
//!
//! x86_64: MXCSR (Rust's `f64` arithmetic is SSE2 there; no x87 is used).
//! aarch64: FPCR and FPSR. Elsewhere: nothing is changed. The register
//! accesses may touch memory as far as the compiler knows (no `nomem`), so
//! the model's results are stored before the host's registers come back.

use crate::instance::FloatHost;

/// The caller's floating-point registers, restored on drop.
#[must_use = "the caller's environment is restored when this is dropped"]
pub struct CallEnv {
    #[cfg(target_arch = "x86_64")]
    mxcsr: u32,
    /// The host's modes were not the default: `enter` wrote MXCSR.
    #[cfg(target_arch = "x86_64")]
    switched: bool,
    #[cfg(target_arch = "aarch64")]
    fpcr: u64,
    #[cfg(target_arch = "aarch64")]
    fpsr: u64,
}

/// MXCSR of IEEE 754's default environment: all six exceptions masked
/// (bits 7-12), round to nearest (bits 13-14 = 0), FTZ (bit 15) and DAZ
/// (bit 6) off, flags (bits 0-5) clear.
#[cfg(target_arch = "x86_64")]
pub const DEFAULT_MXCSR: u32 = 0x1F80;

/// MXCSR's six exception flags (sticky status, bits 0-5).
#[cfg(target_arch = "x86_64")]
const FLAGS: u32 = 0x3F;

/// MXCSR's flushing modes: flush-to-zero (bit 15), denormals-are-zero (bit 6).
#[cfg(target_arch = "x86_64")]
const FLUSHING: u32 = 0x8040;

/// MXCSR's underflow flag (bit 4): under flush-to-zero, set by every result
/// that was flushed (Intel SDM vol. 1, 10.2.3.3).
#[cfg(target_arch = "x86_64")]
const UNDERFLOW: u32 = 0x10;

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn read_mxcsr() -> u32 {
    let mut value: u32 = 0;
    // SAFETY: `stmxcsr` stores the 32-bit MXCSR at the address given, a
    // local of this frame; it has no other effect. SSE is part of x86_64.
    unsafe { core::arch::asm!("stmxcsr [{}]", in(reg) &mut value, options(nostack, preserves_flags)) };
    value
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn write_mxcsr(value: u32) {
    // SAFETY: `ldmxcsr` loads MXCSR from a local; its reserved bits (16-31)
    // are zero in every value written here (the default, or one read with
    // `stmxcsr`), so it cannot fault. Changing the rounding, flushing and
    // exception masks is the purpose: no Rust code relies on another value
    // across this point.
    unsafe { core::arch::asm!("ldmxcsr [{}]", in(reg) &value, options(nostack, preserves_flags)) };
}

#[cfg(target_arch = "aarch64")]
#[inline(always)]
fn read_fpcr_fpsr() -> (u64, u64) {
    let (fpcr, fpsr): (u64, u64);
    // SAFETY: reading the FP control and status registers has no side
    // effect; both are accessible at EL0.
    unsafe {
        core::arch::asm!("mrs {}, fpcr", "mrs {}, fpsr", out(reg) fpcr, out(reg) fpsr, options(nostack, preserves_flags))
    };
    (fpcr, fpsr)
}

#[cfg(target_arch = "aarch64")]
#[inline(always)]
fn write_fpcr(value: u64) {
    // SAFETY: FPCR is writable at EL0; the values written are 0 (IEEE default)
    // or one read from it before.
    unsafe { core::arch::asm!("msr fpcr, {}", in(reg) value, options(nostack, preserves_flags)) };
}

#[cfg(target_arch = "aarch64")]
#[inline(always)]
fn write_fpsr(value: u64) {
    // SAFETY: FPSR is writable at EL0; the value written is one read from it.
    unsafe { core::arch::asm!("msr fpsr, {}", in(reg) value, options(nostack, preserves_flags)) };
}

impl CallEnv {
    /// Save the caller's environment and switch to IEEE 754's default.
    #[inline(always)]
    pub fn enter() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            // Only the control bits decide: a host in the default modes
            // (nearly every one, with some flags raised) costs two
            // `stmxcsr` per call and no `ldmxcsr`, unless the call raises a
            // flag the host had not (then `drop` puts the host's back).
            let mxcsr = read_mxcsr();
            let switched = mxcsr & !FLAGS != DEFAULT_MXCSR;
            if switched {
                write_mxcsr(DEFAULT_MXCSR);
            }
            CallEnv { mxcsr, switched }
        }
        #[cfg(target_arch = "aarch64")]
        {
            let (fpcr, fpsr) = read_fpcr_fpsr();
            if fpcr != 0 {
                write_fpcr(0);
            }
            CallEnv { fpcr, fpsr }
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            CallEnv {}
        }
    }
}

impl CallEnv {
    /// [`CallEnv::enter`] for a call that can check its own result and do
    /// its work again ([`FloatHost`]): in a host whose modes are the
    /// default but for flushing subnormals (FTZ, DAZ or both), with its
    /// underflow flag clear, the call stays in the host's environment
    /// (`FloatHost::Flushing`). Writing MXCSR costs far more than the step
    /// of a simple model (on the project's machine a call that switches
    /// and switches back pays about 15 ns more each way, `docs/performance.md`), and in
    /// such a host the results are the default's bit for bit unless a
    /// subnormal comes in (DAZ reads it as zero: the core looks for one
    /// first) or a result is flushed (FTZ raises the underflow flag, which
    /// [`underflowed`] reads; the core then does the work again in the
    /// default environment, [`to_default`]). Any other host: as `enter`.
    #[inline(always)]
    pub fn enter_checked() -> (Self, FloatHost) {
        #[cfg(target_arch = "x86_64")]
        {
            let mxcsr = read_mxcsr();
            let modes = mxcsr & !FLAGS;
            if modes == DEFAULT_MXCSR {
                return (CallEnv { mxcsr, switched: false }, FloatHost::Default);
            }
            if modes & !FLUSHING == DEFAULT_MXCSR && mxcsr & UNDERFLOW == 0 {
                let host = FloatHost::Flushing(crate::instance::FloatCheck { underflowed, to_default });
                return (CallEnv { mxcsr, switched: false }, host);
            }
            write_mxcsr(DEFAULT_MXCSR);
            (CallEnv { mxcsr, switched: true }, FloatHost::Default)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            (Self::enter(), FloatHost::Default)
        }
    }
}

/// Whether a result was flushed since a call entered with
/// `FloatHost::Flushing` (whose host's underflow flag was clear then).
#[cfg(target_arch = "x86_64")]
fn underflowed() -> bool {
    read_mxcsr() & UNDERFLOW != 0
}

/// IEEE 754's default environment from here on in a call entered with
/// `FloatHost::Flushing`; the call's [`CallEnv`] gives the host its own
/// back (it finds MXCSR changed).
#[cfg(target_arch = "x86_64")]
fn to_default() {
    write_mxcsr(DEFAULT_MXCSR);
}

impl Drop for CallEnv {
    /// The caller's registers back: its modes and exactly its flags (the
    /// flags our arithmetic raised are dropped, so an unmasked exception
    /// cannot fire late in the caller either).
    #[inline(always)]
    fn drop(&mut self) {
        // After a switch the host's value goes back unread: reading MXCSR
        // right after computing in other modes waits for the computation
        // to retire, and costs more than the write (a call that switches,
        // in a host that flushes subnormals: 30 ns instead of 107 on the
        // project's machine, `docs/performance.md`).
        #[cfg(target_arch = "x86_64")]
        if self.switched || read_mxcsr() != self.mxcsr {
            write_mxcsr(self.mxcsr);
        }
        #[cfg(target_arch = "aarch64")]
        {
            let (fpcr, fpsr) = read_fpcr_fpsr();
            if fpcr != self.fpcr {
                write_fpcr(self.fpcr);
            }
            if fpsr != self.fpsr {
                write_fpsr(self.fpsr);
            }
        }
    }
}

/// Run `f` with the calling thread's MXCSR set to `mxcsr`, then put the
/// previous value back: how the tests stand in for a hostile host.
#[cfg(all(test, target_arch = "x86_64"))]
pub fn with_host_mxcsr<T>(mxcsr: u32, f: impl FnOnce() -> T) -> T {
    let before = read_mxcsr();
    write_mxcsr(mxcsr);
    let out = f();
    write_mxcsr(before);
    out
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    const FTZ_DAZ: u32 = DEFAULT_MXCSR | 0x8040;
    const ROUND_UP: u32 = DEFAULT_MXCSR | 0x4000;
    const ROUND_DOWN: u32 = DEFAULT_MXCSR | 0x2000;
    const ROUND_TO_ZERO: u32 = DEFAULT_MXCSR | 0x6000;
    /// Invalid, divide by zero and overflow unmasked.
    const TRAPS: u32 = DEFAULT_MXCSR & !(0x0080 | 0x0200 | 0x0400);

    /// A computation whose result depends on the environment: a subnormal
    /// product (flushed under FTZ) and an inexact quotient (rounded).
    fn probe() -> (f64, f64) {
        let tiny = std::hint::black_box(f64::MIN_POSITIVE) * std::hint::black_box(0.25);
        let third = std::hint::black_box(1.0) / std::hint::black_box(3.0);
        (tiny, third)
    }

    #[test]
    fn the_call_computes_in_the_default_environment_and_restores_the_callers() {
        let reference = probe();
        assert!(reference.0 > 0.0, "the probe makes a subnormal");
        for host in
            [FTZ_DAZ, ROUND_UP, ROUND_DOWN, ROUND_TO_ZERO, TRAPS, FTZ_DAZ | ROUND_UP | 0x3F, DEFAULT_MXCSR | 0x20]
        {
            let (inside, hosts, before, after) = with_host_mxcsr(host, || {
                let hosts = probe();
                let before = read_mxcsr();
                let inside = {
                    let _env = CallEnv::enter();
                    assert_eq!(read_mxcsr() & !FLAGS, DEFAULT_MXCSR);
                    probe()
                };
                (inside, hosts, before, read_mxcsr())
            });
            assert_eq!(inside.0.to_bits(), reference.0.to_bits(), "MXCSR {host:#x}");
            assert_eq!(inside.1.to_bits(), reference.1.to_bits(), "MXCSR {host:#x}");
            // The probe is a real test of the host mode: it changes there.
            if host & 0x8040 != 0 {
                assert_eq!(hosts.0, 0.0);
            }
            if host & 0x6000 == 0x4000 {
                assert_ne!(hosts.1.to_bits(), reference.1.to_bits());
            }
            // The caller's register comes back as it was right before the
            // call: its modes, its flags, none of ours.
            assert_eq!(after, before, "MXCSR {host:#x}");
            assert_eq!(after & !0x3F, host & !0x3F);
        }
    }

    #[test]
    fn flags_raised_inside_a_call_do_not_reach_the_caller() {
        let after = with_host_mxcsr(DEFAULT_MXCSR, || {
            {
                let _env = CallEnv::enter();
                let _ = probe(); // underflow, inexact
                assert_ne!(read_mxcsr() & 0x3F, 0);
            }
            read_mxcsr()
        });
        assert_eq!(after, DEFAULT_MXCSR);
    }

    #[test]
    fn every_model_description_is_the_same_text_in_every_host_environment() {
        let reference: Vec<String> = crate::registry::MODELS.iter().map(|m| (m.model_description)()).collect();
        for host in [FTZ_DAZ, ROUND_UP, ROUND_DOWN, ROUND_TO_ZERO] {
            // Without the call environment: the text itself must not depend
            // on the mode (numbers are written by their bits).
            let texts: Vec<String> =
                with_host_mxcsr(host, || crate::registry::MODELS.iter().map(|m| (m.model_description)()).collect());
            for ((m, a), b) in crate::registry::MODELS.iter().zip(&reference).zip(&texts) {
                assert!(a == b, "{}: model description differs under MXCSR {host:#x}", m.info.identifier);
            }
        }
    }
}
