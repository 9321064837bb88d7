//! The Model Exchange functions: time, continuous states, derivatives,
//! event indicators and the event iteration.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

crate::ffi::export::handle_exports! { Fmi2Component =>
    fn fmi2SetTime(time: Fmi2Real) computes allowed::SET_TIME => |comp| comp.set_time(time);
    fn fmi2EnterEventMode() computes allowed::ENTER_EVENT_MODE => |comp| comp.enter_event_mode();
    fn fmi2EnterContinuousTimeMode() computes allowed::EVENT_MODE => |comp| comp.enter_continuous_time_mode();
}

#[inline]
pub unsafe extern "C" fn fmi2SetContinuousStates(c: Fmi2Component, x: *const Fmi2Real, nx: usize) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `x` holds `nx` values (FMI 2.0, 2.1.7), `slice` refuses NULL with nx > 0.
    unsafe {
        with(c, "fmi2SetContinuousStates", allowed::SET_STATES, |comp| {
            let x = slice(x, nx, "x")?;
            comp.set_continuous_states(x)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2GetContinuousStates(c: Fmi2Component, x: *mut Fmi2Real, nx: usize) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `x` has room for `nx` values (FMI 2.0, 2.1.7), `slice_mut` refuses NULL with nx > 0.
    unsafe {
        with(c, "fmi2GetContinuousStates", allowed::GET_STATES, |comp| {
            let x = slice_mut(x, nx, "x")?;
            comp.get_continuous_states(x)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2GetDerivatives(c: Fmi2Component, derivatives: *mut Fmi2Real, nx: usize) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `derivatives` has room for `nx` values (FMI 2.0, 2.1.7), `slice_mut` refuses NULL with nx > 0.
    unsafe {
        with(c, "fmi2GetDerivatives", allowed::GET_STATES, |comp| {
            let out = slice_mut(derivatives, nx, "derivatives")?;
            comp.get_derivatives(out)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2GetEventIndicators(c: Fmi2Component, indicators: *mut Fmi2Real, ni: usize) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `indicators` has room for `ni` values (FMI 2.0, 2.1.7), `slice_mut` refuses NULL with ni > 0.
    unsafe {
        with(c, "fmi2GetEventIndicators", allowed::GET_STATES, |comp| {
            let out = slice_mut(indicators, ni, "eventIndicators")?;
            comp.get_event_indicators(out)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2GetNominalsOfContinuousStates(
    c: Fmi2Component,
    nominals: *mut Fmi2Real,
    nx: usize,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `nominals` has room for `nx` values (FMI 2.0, 2.1.7), `slice_mut` refuses NULL with nx > 0.
    unsafe {
        with(c, "fmi2GetNominalsOfContinuousStates", allowed::NOMINALS, |comp| {
            let out = slice_mut(nominals, nx, "x_nominal")?;
            comp.get_nominals(out)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2NewDiscreteStates(c: Fmi2Component, info: *mut EventInfo) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `info` is checked non-NULL before it is written, and the importer passes one it owns (FMI 2.0, 3.2.2).
    unsafe {
        with(c, "fmi2NewDiscreteStates", allowed::EVENT_MODE, |comp| {
            if info.is_null() {
                return Err("fmi2EventInfo is NULL".into());
            }
            let result = comp.new_discrete_states()?;
            let flag = |b: bool| if b { FMI2_TRUE } else { FMI2_FALSE };
            *info = EventInfo {
                new_discrete_states_needed: flag(result.new_discrete_states_needed),
                terminate_simulation: FMI2_FALSE,
                nominals_of_continuous_states_changed: FMI2_FALSE,
                values_of_continuous_states_changed: flag(result.values_of_continuous_states_changed),
                next_event_time_defined: FMI2_FALSE,
                next_event_time: 0.0,
            };
            Ok(Status::Ok)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi2CompletedIntegratorStep(
    c: Fmi2Component,
    _no_set_fmu_state_prior_to_current_point: Fmi2Boolean,
    enter_event_mode: *mut Fmi2Boolean,
    terminate_simulation: *mut Fmi2Boolean,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; both out-pointers are checked non-NULL before they are written, and the importer passes ones it owns (FMI 2.0, 3.2.2).
    unsafe {
        with(c, "fmi2CompletedIntegratorStep", allowed::CONTINUOUS_TIME_MODE, |comp| {
            if enter_event_mode.is_null() || terminate_simulation.is_null() {
                return Err("enterEventMode or terminateSimulation is NULL".into());
            }
            let (event, terminate) = comp.completed_integrator_step()?;
            *enter_event_mode = if event { FMI2_TRUE } else { FMI2_FALSE };
            *terminate_simulation = if terminate { FMI2_TRUE } else { FMI2_FALSE };
            Ok(Status::Ok)
        })
    }
}
