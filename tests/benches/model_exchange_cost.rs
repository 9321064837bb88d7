//! Model Exchange evaluation cost: what a variable-step solver pays per
//! right-hand-side and root-function call, one `fmi2SetTime` +
//! `fmi2SetContinuousStates` + `fmi2GetDerivatives` +
//! `fmi2GetEventIndicators` through the C functions of each built FMU
//! binary (dlopen), against the same evaluation of the same model through
//! the FMI layer's model trait without the C ABI (set the states, evaluate,
//! read derivatives and indicators), and against the same four calls on a
//! C FMU with the Reference-FMUs' bookkeeping (`REFERENCE_KIND_C`, built by
//! `cargo xtask bench model-exchange`), interleaved in one run.
//!
//! Prints a markdown section for docs/performance.md (`cargo xtask bench
//! model-exchange` puts it there). With `MODEL_EXCHANGE_BEFORE` (a release
//! build of an earlier commit: its library of every model, or a folder of
//! its per-model binaries `lib<Model>.so`) the same four calls on that
//! binary too, in the same rounds: a change of the FMI layer judged against its
//! predecessor in one run. Timing by `Instant` over blocks of calls,
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

/// An instance of `lib` initialized into continuous-time mode, with its
/// continuous states.
///
/// # Safety
/// `lib` must be an FMI 2.0 binary with the Model Exchange functions, `nx`
/// its number of states.
unsafe fn continuous_time_instance(
    lib: &Fmi2Binding,
    guid: &CString,
    callbacks: &binding::fmi2CallbackFunctions,
    nx: usize,
) -> (binding::fmi2Component, Vec<f64>) {
    // SAFETY: a plain C struct of integers and a double; all zero is valid.
    let mut info: binding::fmi2EventInfo = unsafe { std::mem::zeroed() };
    let mut x = vec![0.0; nx];
    // SAFETY: the Model Exchange call sequence on an instance of this
    // binary (the caller's promise), with arrays of the lengths passed and
    // callbacks that outlive the instance.
    unsafe {
        let comp = lib.fmi2Instantiate(
            c"bench".as_ptr(),
            binding::fmi2Type_fmi2ModelExchange,
            guid.as_ptr(),
            null(),
            callbacks,
            0,
            0,
        );
        assert!(!comp.is_null());
        assert_eq!(lib.fmi2SetupExperiment(comp, 0, 0.0, 0.0, 0, 0.0), binding::fmi2Status_fmi2OK);
        assert_eq!(lib.fmi2EnterInitializationMode(comp), binding::fmi2Status_fmi2OK);
        assert_eq!(lib.fmi2ExitInitializationMode(comp), binding::fmi2Status_fmi2OK);
        loop {
            assert_eq!(lib.fmi2NewDiscreteStates(comp, &mut info), binding::fmi2Status_fmi2OK);
            if info.newDiscreteStatesNeeded == 0 {
                break;
            }
        }
        assert_eq!(lib.fmi2EnterContinuousTimeMode(comp), binding::fmi2Status_fmi2OK);
        assert_eq!(lib.fmi2GetContinuousStates(comp, x.as_mut_ptr(), nx), binding::fmi2Status_fmi2OK);
        (comp, x)
    }
}

/// Two nearby state vectors (a relative 1e-9 apart, and 1e-12 where a
/// state is 0), so that each call is a fresh evaluation.
fn two_states(x: &[f64]) -> [Vec<f64>; 2] {
    [x.to_vec(), x.iter().map(|v| if *v == 0.0 { 1e-12 } else { v * (1.0 + 1e-9) }).collect()]
}

/// One round: `CALLS` evaluations through the C functions, ns each.
///
/// # Safety
/// `comp` is an instance of `lib` in continuous-time mode with `nx` states
/// and `nz` event indicators.
unsafe fn abi_round(
    lib: &Fmi2Binding,
    comp: binding::fmi2Component,
    states: &[Vec<f64>; 2],
    nz: usize,
    t: &mut f64,
) -> f64 {
    let nx = states[0].len();
    let (mut dx, mut z) = (vec![0.0; nx], vec![0.0; nz]);
    let start = Instant::now();
    for k in 0..CALLS {
        *t += 1e-9;
        let s = &states[k & 1];
        // SAFETY: the caller's promise; `s`, `dx`, `z` hold nx, nx, nz values.
        unsafe {
            lib.fmi2SetTime(comp, *t);
            lib.fmi2SetContinuousStates(comp, s.as_ptr(), nx);
            lib.fmi2GetDerivatives(comp, dx.as_mut_ptr(), nx);
            lib.fmi2GetEventIndicators(comp, z.as_mut_ptr(), nz);
        }
        black_box((&dx, &z));
    }
    start.elapsed().as_nanos() as f64 / CALLS as f64
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is accepted.
    let dir = std::env::temp_dir().join(format!("me-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let callbacks = fmu_tests::raw::silent_callbacks();
    // The yardstick: the C FMU with the Reference-FMUs' bookkeeping
    // (tests/harness/c_fmu_reference_kind.c, one state, one indicator),
    // built by `cargo xtask bench model-exchange` as the call-cost bench
    // builds it, timed in the same rounds as each of our FMUs.
    let yardstick = std::env::var_os("REFERENCE_KIND_C").map(|path| {
        // SAFETY: the C FMU built by xtask from tests/harness.
        let lib = unsafe { Fmi2Binding::new(std::path::Path::new(&path)) }.unwrap();
        // SAFETY: it has the Model Exchange functions and one state.
        let (comp, x) = unsafe { continuous_time_instance(&lib, &CString::new("{c}").unwrap(), &callbacks, 1) };
        (lib, comp, two_states(&x))
    });
    // An earlier build of this crate, timed in the same rounds (optional):
    // one library of every model, or a folder of one binary per model.
    let before_path = std::env::var_os("MODEL_EXCHANGE_BEFORE").map(std::path::PathBuf::from);
    if let Some(p) = before_path.as_deref().filter(|p| !p.exists()) {
        panic!("MODEL_EXCHANGE_BEFORE={}: neither a library nor a folder", p.display());
    }
    let load_before = |path: &std::path::Path| {
        // SAFETY: a release build of this crate's cdylib (the caller's word).
        unsafe { Fmi2Binding::new(path) }.expect("MODEL_EXCHANGE_BEFORE: not loadable")
    };
    let shared_before = before_path.as_deref().filter(|p| p.is_file()).map(load_before);
    let mut c_times = Vec::new();
    let mut rows = Vec::new();
    let mut flushing = Vec::new();
    for entry in fmu::registry::MODELS {
        let id = entry.info.identifier;
        let Some((nx, nz)) = (entry.new_instance)().hybrid_sizes() else { continue };
        let path = fmu_tests::raw::extract_binary(id, &dir);
        // SAFETY: the FMU binary built by this workspace.
        let lib = unsafe { Fmi2Binding::new(&path) }.unwrap();
        let guid = CString::new((entry.guid)()).unwrap();
        // SAFETY: our binaries carry Model Exchange; nx is the model's.
        let (comp, x) = unsafe { continuous_time_instance(&lib, &guid, &callbacks, nx) };
        let states = two_states(&x);
        // The earlier build serves every model (its file name is not a
        // model's), each by this build's GUID: a model whose declarations
        // changed since has another GUID there and gets no earlier column.
        // SAFETY: a valid name, GUID and callbacks; the instance, if any, is
        // freed at once (only whether the GUID is known matters here).
        // An earlier build may know the model by another GUID
        // (fmu_tests::before_guid); Model Exchange's calls name no value
        // reference.
        let own_before = before_path
            .as_deref()
            .map(|dir| dir.join(format!("lib{id}.so")))
            .filter(|p| p.is_file())
            .map(|p| load_before(&p));
        let before = own_before.as_ref().or(shared_before.as_ref());
        let why_none = if before.is_none() { "no earlier binary of it" } else { "declarations changed since" };
        let before_guid = fmu_tests::before_guid(id).map_or_else(|| guid.clone(), |g| CString::new(g).unwrap());
        let known = before.is_some_and(|b| unsafe {
            let c = b.fmi2Instantiate(
                c"probe".as_ptr(),
                binding::fmi2Type_fmi2ModelExchange,
                before_guid.as_ptr(),
                null(),
                &callbacks,
                0,
                0,
            );
            let known = !c.is_null();
            if known {
                b.fmi2FreeInstance(c);
            }
            known
        });
        // SAFETY: the earlier build knows this model's GUID (above) and
        // carries Model Exchange; nx is the model's.
        let earlier =
            before.filter(|_| known).map(|b| unsafe { continuous_time_instance(b, &before_guid, &callbacks, nx) }.0);
        // The same model without the C ABI: initialized from its start
        // values as the instance above was.
        let mut model = (entry.new_instance)();
        model.initialize();
        let (mut dx, mut z) = (vec![0.0; nx], vec![0.0; nz]);
        let (mut abi, mut direct, mut c, mut old) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut abi_flush, mut c_flush, mut old_flush) = (Vec::new(), Vec::new(), Vec::new());
        let (mut t, mut t_c, mut t_old) = (0.0, 0.0, 0.0);
        for _ in 0..ROUNDS {
            // SAFETY: `comp` is in continuous-time mode with nx states, nz indicators.
            abi.push(unsafe { abi_round(&lib, comp, &states, nz, &mut t) });
            // The same calls in a flushing host.
            // SAFETY: as above.
            abi_flush.push(fmu_tests::raw::in_host(fmu_tests::raw::FLUSHING_HOST, || unsafe {
                abi_round(&lib, comp, &states, nz, &mut t)
            }));
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
            if let Some((lib_c, comp_c, states_c)) = &yardstick {
                // SAFETY: the yardstick's instance: one state, one indicator.
                c.push(unsafe { abi_round(lib_c, *comp_c, states_c, 1, &mut t_c) });
                // SAFETY: as above.
                c_flush.push(fmu_tests::raw::in_host(fmu_tests::raw::FLUSHING_HOST, || unsafe {
                    abi_round(lib_c, *comp_c, states_c, 1, &mut t_c)
                }));
            }
            if let (Some(b), Some(comp_b)) = (before, earlier) {
                // SAFETY: the earlier build's instance of the same model.
                old.push(unsafe { abi_round(b, comp_b, &states, nz, &mut t_old) });
                // SAFETY: as above.
                old_flush.push(fmu_tests::raw::in_host(fmu_tests::raw::FLUSHING_HOST, || unsafe {
                    abi_round(b, comp_b, &states, nz, &mut t_old)
                }));
            }
        }
        // SAFETY: the instances created above, freed once.
        unsafe { lib.fmi2FreeInstance(comp) };
        if let (Some(b), Some(comp_b)) = (before, earlier) {
            // SAFETY: as above.
            unsafe { b.fmi2FreeInstance(comp_b) };
        }
        let median_or_nan = |v: Vec<f64>| if v.is_empty() { f64::NAN } else { median(v) };
        let (c, old) = (median_or_nan(c), median_or_nan(old));
        c_times.push(c);
        flushing.push((id, median(abi_flush), median_or_nan(c_flush), median_or_nan(old_flush)));
        rows.push((id, nx, nz, median(abi), median(direct), c, old, why_none));
    }
    if let Some((lib, comp, _)) = yardstick {
        // SAFETY: the yardstick's instance, freed once.
        unsafe { lib.fmi2FreeInstance(comp) };
    }
    std::fs::remove_dir_all(&dir).ok();
    let c_median = median(c_times.clone());
    println!("## Model Exchange evaluation cost\n");
    println!(
        "Regenerate with `cargo xtask bench model-exchange` (`tests/benches/model_exchange_cost.rs`). One \
         evaluation is what a variable-step solver asks per right-hand-side and root-function call: \
         `fmi2SetTime` + `fmi2SetContinuousStates` + `fmi2GetDerivatives` + `fmi2GetEventIndicators` through \
         the built binary's C functions, against the same model evaluated through the FMI layer's model trait \
         without the C ABI (set the states, evaluate, read derivatives and indicators), and against the same \
         four calls on the C FMU with the Reference-FMUs' bookkeeping (`tests/harness/c_fmu_reference_kind.c`, \
         `cc -O3`: one state x' = (u - x)/T and one indicator; per call the framework's state mask, the array \
         length against the model's count and a NULL check, then the model unit's function, a real call), timed \
         in the same rounds, interleaved, median of {ROUNDS} rounds of {CALLS} calls. The C FMU's model is the \
         cheapest possible (one division), so its column is the bookkeeping floor of a C FMU; ours check more per \
         call (every state and time finite, the instance's mode, the arrays' lengths, nothing changed on a refused \
         call) and evaluate the friction contact.\n"
    );
    if c_median.is_nan() {
        println!("(The C FMU was not built: run through `cargo xtask bench model-exchange`.)\n");
    } else {
        println!("C FMU, Reference-FMUs bookkeeping: {c_median:.1} ns per evaluation (median over the rounds of all models).\n");
    }
    if before_path.is_none() {
        println!(
            "| model | states | indicators | C ABI (ns/evaluation) | without the ABI (ns) | ratio | the C FMU in the same rounds (ns) | ours / C FMU |\n|---|---|---|---|---|---|---|---|"
        );
    } else {
        println!(
            "\"Earlier build\": the library, or the folder of per-model binaries, that `MODEL_EXCHANGE_BEFORE` names \
             (`cargo xtask bench model-exchange` with it set; `BEFORE_GUIDS` for a build whose GUIDs differ), timed in \
             the same rounds as this build's binaries.\n"
        );
        println!(
            "| model | states | indicators | C ABI (ns/evaluation) | without the ABI (ns) | ratio | the C FMU in the same rounds (ns) | ours / C FMU | earlier build, same rounds (ns) | this / earlier |\n|---|---|---|---|---|---|---|---|---|---|"
        );
    }
    for (id, nx, nz, abi, direct, c, old, why_none) in rows {
        let earlier = match (before_path.is_some(), old.is_nan()) {
            (false, _) => String::new(),
            (true, false) => format!(" {old:.1} | {:.2} |", abi / old),
            (true, true) => format!(" - | - ({why_none}) |"),
        };
        println!(
            "| {id} | {nx} | {nz} | {abi:.1} | {direct:.1} | {:.2} | {c:.1} | {:.2} |{earlier}",
            abi / direct,
            abi / c
        );
    }
    println!(
        "\nIn a host that flushes subnormals (FTZ + DAZ set around each timed round, the same rounds): our \
         functions give IEEE 754's default results whatever the host's. Those that compute nothing run in the \
         host's environment (`fmi2SetTime`, `fmi2SetContinuousStates` of states stored as they are, a read \
         after the evaluation); so do the evaluation and the setting of scaled states in a host whose only \
         departure from the default is flushing, with its underflow flag clear (as here): they look for a \
         subnormal first and read the underflow flag after, and on either are done again in the default \
         environment (`docs/robustness.md`). Writing MXCSR, which a switch costs, waits for the work in \
         flight, so the figures of an earlier build vary from run to run.\n"
    );
    let earlier = if before_path.is_some() { " earlier build, flushing (ns) | this / earlier |" } else { "" };
    let rule = if before_path.is_some() { "---|---|" } else { "" };
    println!("| model | C ABI, flushing host (ns/evaluation) | the C FMU, flushing (ns) | ours / C FMU |{earlier}");
    println!("|---|---|---|---|{rule}");
    for (id, abi, c, old) in flushing {
        let earlier = if before_path.is_some() { format!(" {old:.1} | {:.2} |", abi / old) } else { String::new() };
        println!("| {id} | {abi:.1} | {c:.1} | {:.2} |{earlier}", abi / c);
    }
}
