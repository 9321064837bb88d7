//! FMI overhead: `fmi2DoStep` + one `fmi2GetReal` through the exported C
//! functions of the built FMU binary (dlopen), against stepping the core
//! model directly, same model, same run. One internal substep per call.

use criterion::{criterion_group, criterion_main, Criterion};
use fmi::fmi2::binding::{self, Fmi2Binding};
use friction::{FrictionInertia, HillFriction};
use std::ffi::CString;
use std::hint::black_box;
use std::ptr::null;

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
    // SAFETY: the FMU binary built by this workspace.
    let lib = unsafe { Fmi2Binding::new(&path) }.unwrap();
    let guid = CString::new(fmu::registry::guid_of(id).unwrap()).unwrap();
    let callbacks = fmu_tests::raw::silent_callbacks();
    let vars = (fmu::registry::get(id).variables)();
    let vr = |name: &str| vars.iter().find(|v| v.name == name).unwrap().value_reference;
    let (tau_vr, w_vr, step_vr, w_start_vr) = (vr("tau"), vr("w"), vr("internal_step"), vr("w_start"));
    // SAFETY: the FMI call sequence on an instance of this binary, with
    // one-element arrays and callbacks that outlive it.
    unsafe {
        let comp = lib.fmi2Instantiate(c"bench".as_ptr(), 1, guid.as_ptr(), null(), &callbacks, 0, 0);
        assert!(!comp.is_null());
        lib.fmi2SetReal(comp, [step_vr, w_start_vr].as_ptr(), 2, [H, 0.0].as_ptr());
        lib.fmi2SetupExperiment(comp, 0, 0.0, 0.0, 0, 0.0);
        lib.fmi2EnterInitializationMode(comp);
        lib.fmi2ExitInitializationMode(comp);
        let mut t = 0.0;
        let mut k = 0;
        c.bench_function("hill/fmi_do_step_and_get_real", |b| {
            b.iter(|| {
                k = (k + 1) & (N - 1);
                let mut w = 0.0;
                lib.fmi2SetReal(comp, &tau_vr, 1, &tau[k]);
                let status = lib.fmi2DoStep(comp, t, H, 1);
                t += H;
                lib.fmi2GetReal(comp, &w_vr, 1, &mut w);
                debug_assert_eq!(status, binding::fmi2Status_fmi2OK);
                black_box(w)
            })
        });
        lib.fmi2FreeInstance(comp);
    }
    std::fs::remove_dir_all(&dir).ok();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(2));
    targets = overhead
}
criterion_main!(benches);
