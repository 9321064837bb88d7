//! The step path allocates nothing: for every model, `fmi2SetReal` (inputs),
//! `fmi2DoStep` and `fmi2GetReal` (outputs), called in-process through the
//! exported functions with logging off, make no heap allocation; the same
//! for FMI 3.0. Counted by a global allocator wrapper, per thread (the
//! tests run in parallel), so the property is checked, not timed.

use fmu::description::Causality;
use fmu::ffi::known::AnyModel;
use fmu::fmi2::exports::*;
use fmu::fmi2::types::Status;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::CString;

struct Counting;

thread_local! {
    /// This thread's allocations (a const-initialized `Cell`: reading and
    /// bumping it allocates nothing).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

fn count() {
    // `try_with`: nothing to count while the thread's storage is torn down.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: forwards to the system allocator, counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn set_inputs_do_step_get_outputs_allocate_nothing() {
    let callbacks = fmu::fmi2::in_process::silent_callbacks();
    for (index, entry) in fmu::registry::MODELS.iter().enumerate() {
        let id = entry.info.identifier;
        let vars = (entry.variables)();
        let reals = |c: Causality| -> Vec<u32> {
            vars.iter().filter(|v| v.causality == c && v.type_name == "Real").map(|v| v.value_reference).collect()
        };
        let (inputs, outputs) = (reals(Causality::Input), reals(Causality::Output));
        let starts: Vec<f64> =
            vars.iter().filter(|v| v.causality == Causality::Input && v.type_name == "Real").map(|v| v.start).collect();
        let mut values = vec![0.0; outputs.len()];
        let guid = CString::new(fmu::registry::guid(index)).unwrap();
        // SAFETY: valid strings, callbacks and buffers that outlive the instance.
        unsafe {
            let c = fmi2Instantiate(
                fmu::ffi::registry_models(),
                c"alloc".as_ptr(),
                1,
                guid.as_ptr(),
                std::ptr::null(),
                &callbacks,
                0,
                0,
            );
            assert!(!c.is_null(), "{id}");
            assert_eq!(fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), Status::Ok);
            assert_eq!(fmi2EnterInitializationMode(c), Status::Ok);
            assert_eq!(fmi2ExitInitializationMode(c), Status::Ok, "{id}");
            let h = entry.info.default_experiment.step_size;
            // Warm up (one-time lazy initialisation, if any), then count.
            let mut t = 0.0;
            for _ in 0..10 {
                assert_eq!(fmi2DoStep(c, t, h, 1), Status::Ok);
                t += h;
            }
            let before = allocations();
            for k in 0..1000 {
                let input: f64 = if k % 2 == 0 { 1.0 } else { 0.5 };
                for (vr, start) in inputs.iter().zip(&starts) {
                    let x = start + input;
                    assert_eq!(fmi2SetReal::<AnyModel>(c, vr, 1, &x), Status::Ok);
                }
                assert_eq!(fmi2DoStep(c, t, h, 1), Status::Ok, "{id} at {t}");
                t += h;
                assert_eq!(
                    fmi2GetReal::<AnyModel>(c, outputs.as_ptr(), outputs.len(), values.as_mut_ptr()),
                    Status::Ok
                );
            }
            let allocations = allocations() - before;
            fmi2FreeInstance(c);
            assert_eq!(allocations, 0, "{id}: {allocations} heap allocations in 1000 steps");
        }
    }
}

/// The same for FMI 3.0 (issue 40: its accessors allocated per call):
/// `fmi3SetFloat64` (inputs), `fmi3DoStep`, `fmi3GetFloat64` of all outputs
/// in one call and of each alone, and `fmi3GetInt32`, `fmi3GetInt64` (the
/// enumerations) and `fmi3GetBoolean` of every variable of their types,
/// with logging off (the same value references as FMI 2.0's).
#[test]
fn fmi3_set_inputs_do_step_get_outputs_allocate_nothing() {
    use fmu::fmi3::exports as fmi3;
    use fmu::fmi3::types::Status as Status3;
    for (index, entry) in fmu::registry::MODELS.iter().enumerate() {
        let id = entry.info.identifier;
        let vars = (entry.variables)();
        let of = |c: Option<Causality>, type_name: &str, enumeration: bool| -> Vec<u32> {
            vars.iter()
                .filter(|v| c.is_none_or(|c| v.causality == c) && v.type_name == type_name)
                .filter(|v| v.choices.is_some() == enumeration)
                .map(|v| v.value_reference)
                .collect()
        };
        let inputs = of(Some(Causality::Input), "Real", false);
        let outputs = of(Some(Causality::Output), "Real", false);
        let (integers, enumerations) = (of(None, "Integer", false), of(None, "Integer", true));
        let booleans = of(None, "Boolean", false);
        let mut items = vec![0i64; enumerations.len()];
        let starts: Vec<f64> =
            vars.iter().filter(|v| v.causality == Causality::Input && v.type_name == "Real").map(|v| v.start).collect();
        let mut values = vec![0.0; outputs.len()];
        let mut ints = vec![0i32; integers.len()];
        let mut flags = vec![0u8; booleans.len()];
        let token = CString::new(fmu::registry::guid(index)).unwrap();
        let (mut event, mut terminate, mut early, mut last) = (0u8, 0u8, 0u8, 0.0);
        // SAFETY: valid strings and buffers that outlive the instance; no logger.
        unsafe {
            let c = fmi3::fmi3InstantiateCoSimulation(
                fmu::ffi::registry_models(),
                c"alloc".as_ptr(),
                token.as_ptr(),
                std::ptr::null(),
                0,
                0,
                0,
                0,
                std::ptr::null(),
                0,
                std::ptr::null_mut(),
                None,
                None,
            );
            assert!(!c.is_null(), "{id}");
            assert_eq!(fmi3::fmi3EnterInitializationMode(c, 0, 0.0, 0.0, 0, 0.0), Status3::Ok);
            assert_eq!(fmi3::fmi3ExitInitializationMode(c), Status3::Ok, "{id}");
            let h = entry.info.default_experiment.step_size;
            let mut t = 0.0;
            let mut step = |c, t: f64| fmi3::fmi3DoStep(c, t, h, 1, &mut event, &mut terminate, &mut early, &mut last);
            for _ in 0..10 {
                assert_eq!(step(c, t), Status3::Ok);
                t += h;
            }
            let before = allocations();
            for k in 0..1000 {
                let input: f64 = if k % 2 == 0 { 1.0 } else { 0.5 };
                for (vr, start) in inputs.iter().zip(&starts) {
                    let x = start + input;
                    assert_eq!(fmi3::fmi3SetFloat64::<AnyModel>(c, vr, 1, &x, 1), Status3::Ok);
                }
                assert_eq!(step(c, t), Status3::Ok, "{id} at {t}");
                t += h;
                let n = outputs.len();
                assert_eq!(
                    fmi3::fmi3GetFloat64::<AnyModel>(c, outputs.as_ptr(), n, values.as_mut_ptr(), n),
                    Status3::Ok
                );
                for (vr, x) in outputs.iter().zip(values.iter_mut()) {
                    assert_eq!(fmi3::fmi3GetFloat64::<AnyModel>(c, vr, 1, x, 1), Status3::Ok);
                }
                let n = integers.len();
                assert_eq!(fmi3::fmi3GetInt32(c, integers.as_ptr(), n, ints.as_mut_ptr(), n), Status3::Ok, "{id}");
                let n = enumerations.len();
                assert_eq!(fmi3::fmi3GetInt64(c, enumerations.as_ptr(), n, items.as_mut_ptr(), n), Status3::Ok, "{id}");
                let n = booleans.len();
                assert_eq!(fmi3::fmi3GetBoolean(c, booleans.as_ptr(), n, flags.as_mut_ptr(), n), Status3::Ok, "{id}");
            }
            let allocations = allocations() - before;
            fmi3::fmi3FreeInstance(c);
            assert_eq!(allocations, 0, "{id}: {allocations} heap allocations in 1000 FMI 3.0 steps");
        }
    }
}
