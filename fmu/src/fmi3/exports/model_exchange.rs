//! The Model Exchange functions: time, continuous states, derivatives,
//! event indicators and their counts, the event iteration; and the one of
//! Scheduled Execution, not offered.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

crate::ffi::export::handle_exports! { Fmi3Instance =>
    fn fmi3SetTime(time: Fmi3Float64) computes allowed::SET_TIME => |comp| comp.set_time(time);
}

#[inline]
pub unsafe extern "C" fn fmi3SetContinuousStates(c: Fmi3Instance, x: *const Fmi3Float64, nx: usize) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `x` holds `nx` values (FMI 3.0, 3.2.1), `slice` refuses NULL with a non-zero count.
    unsafe {
        with(c, "fmi3SetContinuousStates", allowed::SET_STATES, |comp| {
            let x = slice(x, nx, "continuousStates")?;
            comp.set_continuous_states(x)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi3GetContinuousStates(c: Fmi3Instance, x: *mut Fmi3Float64, nx: usize) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `x` holds `nx` values (FMI 3.0, 3.2.1), `slice_mut` refuses NULL with a non-zero count.
    unsafe {
        with(c, "fmi3GetContinuousStates", allowed::GET_STATES, |comp| {
            let x = slice_mut(x, nx, "continuousStates")?;
            comp.get_continuous_states(x)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi3GetContinuousStateDerivatives(
    c: Fmi3Instance,
    derivatives: *mut Fmi3Float64,
    nx: usize,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `derivatives` holds `nx` values (FMI 3.0, 3.2.1), `slice_mut` refuses NULL with a non-zero count.
    unsafe {
        with(c, "fmi3GetContinuousStateDerivatives", allowed::GET_STATES, |comp| {
            let out = slice_mut(derivatives, nx, "derivatives")?;
            comp.get_derivatives(out)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi3GetEventIndicators(c: Fmi3Instance, indicators: *mut Fmi3Float64, ni: usize) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `indicators` holds `ni` values (FMI 3.0, 3.2.1), `slice_mut` refuses NULL with a non-zero count.
    unsafe {
        with(c, "fmi3GetEventIndicators", allowed::GET_STATES, |comp| {
            let out = slice_mut(indicators, ni, "eventIndicators")?;
            comp.get_event_indicators(out)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi3GetNominalsOfContinuousStates(
    c: Fmi3Instance,
    nominals: *mut Fmi3Float64,
    nx: usize,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; `nominals` holds `nx` values (FMI 3.0, 3.2.1), `slice_mut` refuses NULL with a non-zero count.
    unsafe {
        with(c, "fmi3GetNominalsOfContinuousStates", allowed::NOMINALS, |comp| {
            let out = slice_mut(nominals, nx, "nominals")?;
            comp.get_nominals(out)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi3GetNumberOfContinuousStates(c: Fmi3Instance, n: *mut usize) -> Status {
    // SAFETY: `c` is checked by `with`; `n` is checked non-NULL before it is written (`put`).
    unsafe {
        with(c, "fmi3GetNumberOfContinuousStates", allowed::COUNTS, |comp| {
            put(n, comp.hybrid_sizes().map_or(0, |s| s.0), "nContinuousStates")?;
            Ok(Status::Ok)
        })
    }
}

#[inline]
pub unsafe extern "C" fn fmi3GetNumberOfEventIndicators(c: Fmi3Instance, n: *mut usize) -> Status {
    // SAFETY: `c` is checked by `with`; `n` is checked non-NULL before it is written (`put`).
    unsafe {
        with(c, "fmi3GetNumberOfEventIndicators", allowed::COUNTS, |comp| {
            put(n, comp.hybrid_sizes().map_or(0, |s| s.1), "nEventIndicators")?;
            Ok(Status::Ok)
        })
    }
}

/// One pass of the event iteration (event mode of either interface).
#[inline]
pub unsafe extern "C" fn fmi3UpdateDiscreteStates(
    c: Fmi3Instance,
    discrete_states_need_update: *mut Fmi3Boolean,
    terminate_simulation: *mut Fmi3Boolean,
    nominals_changed: *mut Fmi3Boolean,
    values_changed: *mut Fmi3Boolean,
    next_event_time_defined: *mut Fmi3Boolean,
    next_event_time: *mut Fmi3Float64,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; every out-pointer is checked non-NULL before the pass runs, then written (`put`); the importer owns them for the call (FMI 3.0, 3.2.2).
    unsafe {
        with(c, "fmi3UpdateDiscreteStates", allowed::EVENT_MODE, |comp| {
            let flags = [
                (discrete_states_need_update, "discreteStatesNeedUpdate"),
                (terminate_simulation, "terminateSimulation"),
                (nominals_changed, "nominalsOfContinuousStatesChanged"),
                (values_changed, "valuesOfContinuousStatesChanged"),
                (next_event_time_defined, "nextEventTimeDefined"),
            ];
            if let Some((_, what)) = flags.iter().find(|(p, _)| p.is_null()) {
                return Err(format!("{what} is NULL"));
            }
            if next_event_time.is_null() {
                return Err("nextEventTime is NULL".into());
            }
            let info = match comp.interface {
                Interface::ModelExchange => comp.new_discrete_states()?,
                Interface::CoSimulation => comp.co_simulation_discrete_states()?,
            };
            put(discrete_states_need_update, flag(info.new_discrete_states_needed), "discreteStatesNeedUpdate")?;
            put(terminate_simulation, FMI3_FALSE, "terminateSimulation")?;
            put(nominals_changed, FMI3_FALSE, "nominalsOfContinuousStatesChanged")?;
            put(values_changed, flag(info.values_of_continuous_states_changed), "valuesOfContinuousStatesChanged")?;
            // No time events: the models change mode only where a state or
            // an input crosses a threshold.
            put(next_event_time_defined, FMI3_FALSE, "nextEventTimeDefined")?;
            put(next_event_time, 0.0, "nextEventTime")?;
            Ok(Status::Ok)
        })
    }
}

crate::ffi::export::handle_exports! { Fmi3Instance =>
    fn fmi3EnterContinuousTimeMode() computes allowed::ENTER_CONTINUOUS_TIME_MODE => |comp| {
        comp.enter_continuous_time_mode()
    };
    /// No discrete states to evaluate apart from the event iteration
    /// (`providesEvaluateDiscreteStates="false"`).
    fn fmi3EvaluateDiscreteStates() host allowed::ANY_BUT_FATAL => |_| {
        Err("not provided (providesEvaluateDiscreteStates=\"false\")".into())
    };
    fn fmi3ActivateModelPartition(
        clock_reference: Fmi3ValueReference,
        _activation_time: Fmi3Float64
    ) host allowed::ANY_BUT_FATAL => |_| {
        Err(format!("clock {clock_reference}: Scheduled Execution is not offered (no <ScheduledExecution>)"))
    };
}

#[inline]
pub unsafe extern "C" fn fmi3CompletedIntegratorStep(
    c: Fmi3Instance,
    _no_set_fmu_state_prior_to_current_point: Fmi3Boolean,
    enter_event_mode: *mut Fmi3Boolean,
    terminate_simulation: *mut Fmi3Boolean,
) -> Status {
    let _env = CallEnv::enter();
    // SAFETY: `c` is checked by `with`; both out-pointers are checked non-NULL before the call's work, then written (`put`).
    unsafe {
        with(c, "fmi3CompletedIntegratorStep", allowed::CONTINUOUS_TIME_MODE, |comp| {
            if enter_event_mode.is_null() || terminate_simulation.is_null() {
                return Err("enterEventMode or terminateSimulation is NULL".into());
            }
            let (event, terminate) = comp.completed_integrator_step()?;
            put(enter_event_mode, flag(event), "enterEventMode")?;
            put(terminate_simulation, flag(terminate), "terminateSimulation")?;
            Ok(Status::Ok)
        })
    }
}
