//! Model Exchange evaluation cost: what a variable-step solver pays per
//! right-hand-side and root-function call, one `fmi2SetTime` +
//! `fmi2SetContinuousStates` + `fmi2GetDerivatives` +
//! `fmi2GetEventIndicators` through the C functions of each built FMU
//! binary (dlopen), against the same evaluation of the same model through
//! the FMI layer's model trait without the C ABI (set the states, evaluate,
//! read derivatives and indicators), interleaved in one run.
//!
//! Prints a markdown section for docs/performance.md (`cargo xtask bench
//! model-exchange` puts it there). Timing by `Instant` over blocks of calls,
//! the median of the rounds; the states alternate between two nearby values
//! so that every call evaluates the model afresh.

use fmi::fmi2::binding::{self, Fmi2Binding};
use std::ffi::CString;
use std::hint::black_box;
use std::ptr::null;
use std::time::Instant;

const CALLS: usize = 20_000;
const ROUNDS: usize = 15;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is accepted.
    let dir = std::env::temp_dir().join(format!("me-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let callbacks = fmu_tests::raw::silent_callbacks();
    let mut rows = Vec::new();
    for entry in fmu::registry::MODELS {
        let id = entry.info.identifier;
        let Some((nx, nz)) = (entry.new_instance)().hybrid_sizes() else { continue };
        let path = fmu_tests::raw::extract_binary(id, &dir);
        // SAFETY: the FMU binary built by this workspace.
        let lib = unsafe { Fmi2Binding::new(&path) }.unwrap();
        let guid = CString::new((entry.guid)()).unwrap();
        let (mut x, mut dx, mut z) = (vec![0.0; nx], vec![0.0; nx], vec![0.0; nz]);
        // SAFETY: a plain C struct of integers and a double; all zero is valid.
        let mut info: binding::fmi2EventInfo = unsafe { std::mem::zeroed() };
        // SAFETY: the Model Exchange call sequence on an instance of this
        // binary, with arrays of the lengths passed and callbacks that
        // outlive the instance.
        let comp = unsafe {
            let comp = lib.fmi2Instantiate(
                c"bench".as_ptr(),
                binding::fmi2Type_fmi2ModelExchange,
                guid.as_ptr(),
                null(),
                &callbacks,
                0,
                0,
            );
            assert!(!comp.is_null(), "{id}");
            lib.fmi2SetupExperiment(comp, 0, 0.0, 0.0, 0, 0.0);
            lib.fmi2EnterInitializationMode(comp);
            lib.fmi2ExitInitializationMode(comp);
            loop {
                lib.fmi2NewDiscreteStates(comp, &mut info);
                if info.newDiscreteStatesNeeded == 0 {
                    break;
                }
            }
            lib.fmi2EnterContinuousTimeMode(comp);
            lib.fmi2GetContinuousStates(comp, x.as_mut_ptr(), nx);
            comp
        };
        // Two nearby state vectors (a relative 1e-9 apart, and 1e-12 where a
        // state is 0), so that each call is a fresh evaluation.
        let other: Vec<f64> = x.iter().map(|v| if *v == 0.0 { 1e-12 } else { v * (1.0 + 1e-9) }).collect();
        let states = [x.clone(), other];
        // The same model without the C ABI: initialized from its start
        // values as the instance above was.
        let mut model = (entry.new_instance)();
        model.initialize();
        let (mut abi, mut direct) = (Vec::new(), Vec::new());
        let mut t = 0.0;
        for _ in 0..ROUNDS {
            let start = Instant::now();
            for k in 0..CALLS {
                t += 1e-9;
                let s = &states[k & 1];
                // SAFETY: as above; `s`, `dx`, `z` hold nx, nx, nz values.
                unsafe {
                    lib.fmi2SetTime(comp, t);
                    lib.fmi2SetContinuousStates(comp, s.as_ptr(), nx);
                    lib.fmi2GetDerivatives(comp, dx.as_mut_ptr(), nx);
                    lib.fmi2GetEventIndicators(comp, z.as_mut_ptr(), nz);
                }
                black_box((&dx, &z));
            }
            abi.push(start.elapsed().as_nanos() as f64 / CALLS as f64);
            let start = Instant::now();
            for k in 0..CALLS {
                let s = &states[k & 1];
                let _ = model.set_continuous_states(s);
                model.evaluate();
                let _ = model.derivatives(&mut dx);
                let _ = model.event_indicators(&mut z);
                black_box((&dx, &z));
            }
            direct.push(start.elapsed().as_nanos() as f64 / CALLS as f64);
        }
        // SAFETY: the instance created above, freed once.
        unsafe { lib.fmi2FreeInstance(comp) };
        rows.push((id, nx, nz, median(abi), median(direct)));
    }
    std::fs::remove_dir_all(&dir).ok();
    println!("## Model Exchange evaluation cost\n");
    println!(
        "Regenerate with `cargo xtask bench model-exchange` (`tests/benches/model_exchange_cost.rs`). One \
         evaluation is what a variable-step solver asks per right-hand-side and root-function call: \
         `fmi2SetTime` + `fmi2SetContinuousStates` + `fmi2GetDerivatives` + `fmi2GetEventIndicators` through \
         the built binary's C functions, against the same model evaluated through the FMI layer's model trait \
         without the C ABI (set the states, evaluate, read derivatives and indicators), interleaved in one run, \
         median of {ROUNDS} rounds of {CALLS} calls. Not yet beside the Reference-FMUs' C: the C FMUs of the \
         call-cost bench have no Model Exchange interface.\n"
    );
    println!("| model | states | indicators | C ABI (ns/evaluation) | without the ABI (ns) | ratio |\n|---|---|---|---|---|---|");
    for (id, nx, nz, abi, direct) in rows {
        println!("| {id} | {nx} | {nz} | {abi:.1} | {direct:.1} | {:.2} |", abi / direct);
    }
}
