//! The Co-Simulation functions: the step (early return at a transition,
//! when allowed), step mode entered from event mode, the output derivatives.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

crate::ffi::export::handle_exports! { Fmi3Instance =>
    fn fmi3EnterStepMode() computes allowed::ENTER_STEP_MODE => |comp| comp.enter_step_mode();
}

#[inline]
pub unsafe extern "C" fn fmi3GetOutputDerivatives(
    c: Fmi3Instance,
    vr: *const Fmi3ValueReference,
    nvr: usize,
    orders: *const i32,
    values: *mut Fmi3Float64,
    n_values: usize,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; the importer passes for each array argument NULL or a pointer to as many elements as its count says (FMI 3.0, 4.2.1), and `slice`/`slice_mut` refuse NULL with a non-zero count.
    unsafe {
        with(c, "fmi3GetOutputDerivatives", allowed::OUTPUT_DERIVATIVES, |comp| {
            variables::scalars(nvr, n_values)?;
            let vrs = slice(vr, nvr, "valueReferences")?;
            let orders = slice(orders, nvr, "orders")?;
            let out = slice_mut(values, n_values, "values")?;
            variables::get_output_derivatives(comp, vrs, orders, out)
        })
    }
}

/// A step to `t + h`, through any stick or slip inside it (exactly, as
/// FMI 2.0's); or, with early return allowed, to the first of them, where
/// the FMU's time is then; with event mode used, an event at the step's end
/// asks for it. Never a request to end.
#[inline]
pub unsafe extern "C" fn fmi3DoStep(
    c: Fmi3Instance,
    current_communication_point: Fmi3Float64,
    communication_step_size: Fmi3Float64,
    _no_set_fmu_state_prior_to_current_point: Fmi3Boolean,
    event_handling_needed: *mut Fmi3Boolean,
    terminate_simulation: *mut Fmi3Boolean,
    early_return: *mut Fmi3Boolean,
    last_successful_time: *mut Fmi3Float64,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; every out-pointer is checked non-NULL before anything is done, then written; the importer owns them for the call (FMI 3.0, 4.2.1).
    unsafe {
        with(c, "fmi3DoStep", allowed::STEP_MODE, |comp| {
            // One test for the four (what FMI 2.0's step does not pay);
            // which one is NULL only on the way out.
            if event_handling_needed.is_null()
                || terminate_simulation.is_null()
                || early_return.is_null()
                || last_successful_time.is_null()
            {
                return Err(null_out_pointer([
                    (event_handling_needed.is_null(), "eventHandlingNeeded"),
                    (terminate_simulation.is_null(), "terminateSimulation"),
                    (early_return.is_null(), "earlyReturn"),
                    (last_successful_time.is_null(), "lastSuccessfulTime"),
                ]));
            }
            let (t, h) = (current_communication_point, communication_step_size);
            let events = comp.co_simulation_events;
            // Without early return and event mode the step is FMI 2.0's,
            // which keeps no account of where it could have stopped.
            let (event, early) = if events.early_return || events.event_mode {
                let end = comp.do_step_to_event(t, h)?;
                (end.event, end.early.is_some())
            } else {
                comp.do_step(t, h)?;
                (false, false)
            };
            event_handling_needed.write(flag(event));
            terminate_simulation.write(FMI3_FALSE);
            early_return.write(flag(early));
            last_successful_time.write(comp.last_successful_time());
            Ok(Status::Ok)
        })
    }
}

/// "`name` is NULL" for the first NULL of `pointers` (is NULL, name).
#[cold]
#[inline(never)]
fn null_out_pointer<const N: usize>(pointers: [(bool, &str); N]) -> String {
    let what = pointers.iter().find(|p| p.0).map_or("an out-pointer", |p| p.1);
    format!("{what} is NULL")
}
