//! FMI overhead: `fmi2SetReal` + `fmi2DoStep` + one `fmi2GetReal`, and the
//! same three calls of FMI 3.0, through the exported C functions of the
//! built FMU binary (dlopen), in a default host and in one that flushes
//! subnormals, against stepping the core model directly: same model, same
//! run. One internal substep per call. With `FMI_OVERHEAD_BEFORE`, an
//! earlier build's library in the same run.

use criterion::{criterion_group, criterion_main, Criterion};
use fmi::fmi2::binding::{self, Fmi2Binding};
use fmi::fmi3::binding::Fmi3Binding;
use friction::{FrictionInertia, HillFriction};
use std::ffi::CString;
use std::hint::black_box;
use std::ptr::null;
use std::time::Instant;

const H: f64 = 1e-3;
const N: usize = 1024;

fn torques() -> Vec<f64> {
    (0..N).map(|k| 1.5 * (k as f64 * 2.0 * std::f64::consts::PI / N as f64).sin()).collect()
}

fn overhead(c: &mut Criterion) {
    let tau = torques();
    let mut body = FrictionInertia::new(HillFriction { static_torque: 1.2, coulomb_torque: 1.0 }, 1.0, 0.0, 0.0);
    let mut k = 0;
    c.bench_function("hill/core_step_and_read", |b| {
        b.iter(|| {
            k = (k + 1) & (N - 1);
            body.step(black_box(tau[k]), H);
            black_box(body.rate)
        })
    });

    let id = "HillFrictionInertia";
    let dir = std::env::temp_dir().join(format!("fmu-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = fmu_tests::raw::extract_binary(id, &dir);
    let mut binaries = vec![("", path)];
    // `FMI_OVERHEAD_BEFORE=<an earlier build's library>`: the same calls on
    // it, in the same run (the model's own binary, or from before issue 40
    // the library of every model, copied under the model's name, which that
    // library took to mean "serve this model only").
    if let Some(before) = std::env::var_os("FMI_OVERHEAD_BEFORE") {
        let copy = dir.join("before").join(format!("{id}.so"));
        std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
        std::fs::copy(&before, &copy).expect("FMI_OVERHEAD_BEFORE: not readable");
        binaries.push(("_before", copy));
    }
    let guid = CString::new(fmu::registry::guid_of(id).unwrap()).unwrap();
    let vars = (fmu::registry::get(id).variables)();
    let vr = |name: &str| vars.iter().find(|v| v.name == name).unwrap().value_reference;
    let vrs = Vrs { tau: vr("tau"), w: vr("w"), internal_step: vr("internal_step"), w_start: vr("w_start") };
    for (host, mxcsr) in HOSTS {
        for (suffix, path) in &binaries {
            let name = if host == "default" && suffix.is_empty() {
                // The name this bench has always had (docs/performance.md).
                "hill/fmi_do_step_and_get_real".to_string()
            } else {
                format!("hill/fmi2_{host}{suffix}")
            };
            // An earlier build may know the model by another GUID and number
            // FMI 2.0's references otherwise (fmu_tests::before_guid).
            let before = !suffix.is_empty();
            let token = match before.then(|| fmu_tests::before_guid(id)).flatten() {
                Some(g) => CString::new(g).unwrap(),
                None => guid.clone(),
            };
            let fmi2_vrs = if before {
                let b = fmu_tests::before_fmi2_vr;
                Vrs { tau: b(vrs.tau), w: b(vrs.w), internal_step: b(vrs.internal_step), w_start: b(vrs.w_start) }
            } else {
                vrs
            };
            // SAFETY: an FMU binary built by this workspace (or the earlier
            // build the caller named).
            let lib = unsafe { Fmi2Binding::new(path) }.unwrap();
            fmi2_steps(c, &name, &lib, &token, fmi2_vrs, &tau, mxcsr);
            // SAFETY: as above.
            let lib = unsafe { Fmi3Binding::new(path) }.unwrap();
            fmi3_steps(c, &format!("hill/fmi3_{host}{suffix}"), &lib, &token, vrs, &tau, mxcsr);
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The host environments the calls are timed in: IEEE 754's default, and a
/// host that flushes subnormals (FTZ + DAZ, as `-ffast-math` code runs).
const HOSTS: [(&str, u32); 2] =
    [("default", fmu_tests::raw::DEFAULT_HOST), ("flushing", fmu_tests::raw::FLUSHING_HOST)];

#[derive(Clone, Copy)]
struct Vrs {
    tau: u32,
    w: u32,
    internal_step: u32,
    w_start: u32,
}

/// Times `call(torque, t)` (set the torque, step from `t` by `H`, read the
/// rate) over the torque cycle, in the host environment `mxcsr`.
fn timed(c: &mut Criterion, name: &str, mxcsr: u32, mut call: impl FnMut(f64, f64) -> f64, tau: &[f64]) {
    let (mut t, mut k) = (0.0, 0);
    c.bench_function(name, |b| {
        b.iter_custom(|iterations| {
            fmu_tests::raw::in_host(mxcsr, || {
                let start = Instant::now();
                for _ in 0..iterations {
                    k = (k + 1) & (N - 1);
                    black_box(call(tau[k], t));
                    t += H;
                }
                start.elapsed()
            })
        })
    });
}

/// `fmi2SetReal` (the torque) + `fmi2DoStep` + `fmi2GetReal` (the rate).
fn fmi2_steps(c: &mut Criterion, name: &str, lib: &Fmi2Binding, guid: &CString, vr: Vrs, tau: &[f64], mxcsr: u32) {
    let callbacks = fmu_tests::raw::silent_callbacks();
    // SAFETY: the FMI call sequence on an instance of this binary, with
    // one-element arrays and callbacks that outlive it.
    unsafe {
        let comp = lib.fmi2Instantiate(c"bench".as_ptr(), 1, guid.as_ptr(), null(), &callbacks, 0, 0);
        assert!(!comp.is_null(), "{name}");
        lib.fmi2SetReal(comp, [vr.internal_step, vr.w_start].as_ptr(), 2, [H, 0.0].as_ptr());
        lib.fmi2SetupExperiment(comp, 0, 0.0, 0.0, 0, 0.0);
        lib.fmi2EnterInitializationMode(comp);
        lib.fmi2ExitInitializationMode(comp);
        timed(
            c,
            name,
            mxcsr,
            |torque, t| {
                let mut w = 0.0;
                lib.fmi2SetReal(comp, &vr.tau, 1, &torque);
                let status = lib.fmi2DoStep(comp, t, H, 1);
                lib.fmi2GetReal(comp, &vr.w, 1, &mut w);
                debug_assert_eq!(status, binding::fmi2Status_fmi2OK);
                w
            },
            tau,
        );
        lib.fmi2FreeInstance(comp);
    }
}

/// The same in FMI 3.0: `fmi3SetFloat64` + `fmi3DoStep` + `fmi3GetFloat64`
/// (the same value references).
fn fmi3_steps(c: &mut Criterion, name: &str, lib: &Fmi3Binding, token: &CString, vr: Vrs, tau: &[f64], mxcsr: u32) {
    let (tau_vr, w_vr) = (vr.tau, vr.w);
    // SAFETY: as `fmi2_steps`, in FMI 3.0 (no logger).
    unsafe {
        let comp = lib.fmi3InstantiateCoSimulation(
            c"bench".as_ptr(),
            token.as_ptr(),
            null(),
            false,
            false,
            false,
            false,
            null(),
            0,
            std::ptr::null_mut(),
            None,
            None,
        );
        assert!(!comp.is_null(), "{name}");
        lib.fmi3SetFloat64(comp, [vr.internal_step, vr.w_start].as_ptr(), 2, [H, 0.0].as_ptr(), 2);
        lib.fmi3EnterInitializationMode(comp, false, 0.0, 0.0, false, 0.0);
        lib.fmi3ExitInitializationMode(comp);
        timed(
            c,
            name,
            mxcsr,
            |torque, t| {
                let mut w = 0.0;
                let (mut event, mut terminate, mut early, mut last) = (false, false, false, 0.0);
                lib.fmi3SetFloat64(comp, &tau_vr, 1, &torque, 1);
                let status = lib.fmi3DoStep(comp, t, H, true, &mut event, &mut terminate, &mut early, &mut last);
                lib.fmi3GetFloat64(comp, &w_vr, 1, &mut w, 1);
                debug_assert_eq!(status, fmi::fmi3::binding::fmi3Status_fmi3OK);
                w
            },
            tau,
        );
        lib.fmi3FreeInstance(comp);
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(2));
    targets = overhead
}
criterion_main!(benches);
