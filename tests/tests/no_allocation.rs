//! The step path allocates nothing: for every model, `fmi2SetReal` (inputs),
//! `fmi2DoStep` and `fmi2GetReal` (outputs), called in-process through the
//! exported functions with logging off, make no heap allocation. Counted by
//! a global allocator wrapper, so the property is checked, not timed.

use fmu::description::Causality;
use fmu::fmi2::exports::*;
use fmu::fmi2::types::Status;
use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::CString;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator, counting calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
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
            let c = fmi2Instantiate(c"alloc".as_ptr(), 1, guid.as_ptr(), std::ptr::null(), &callbacks, 0, 0);
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
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            for k in 0..1000 {
                let input: f64 = if k % 2 == 0 { 1.0 } else { 0.5 };
                for (vr, start) in inputs.iter().zip(&starts) {
                    let x = start + input;
                    assert_eq!(fmi2SetReal(c, vr, 1, &x), Status::Ok);
                }
                assert_eq!(fmi2DoStep(c, t, h, 1), Status::Ok, "{id} at {t}");
                t += h;
                assert_eq!(fmi2GetReal(c, outputs.as_ptr(), outputs.len(), values.as_mut_ptr()), Status::Ok);
            }
            let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
            fmi2FreeInstance(c);
            assert_eq!(allocations, 0, "{id}: {allocations} heap allocations in 1000 steps");
        }
    }
}
