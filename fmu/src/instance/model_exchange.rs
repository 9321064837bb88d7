//! Model Exchange: time, continuous states, derivatives, event indicators
//! and the event iteration, each evaluated once for the values set since.

#![forbid(unsafe_code)]

use super::finite::{finite_bits, less_bits};
use super::float_host::{subnormal, FloatCheck, FloatHost};
use super::hybrid::{check_indicator_count, check_state_count, non_finite_indicator};
use super::log::Status;
use super::machine::{Instance, Outcome, MAX_EVENT_ITERATIONS};
use super::phase::{Allowed, Phase};
use crate::text::number;

/// What one pass of the event iteration reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventInfo {
    pub new_discrete_states_needed: bool,
    pub values_of_continuous_states_changed: bool,
}

/// How [`Instance::set_plain_states_by`] stores the states: the model, its
/// concrete type and the states; false when nothing was stored.
pub type PlainStatesSet = fn(&mut dyn super::erased::Erased, std::any::TypeId, &[f64]) -> bool;

impl Instance {
    /// Computes nothing (the bits of `time` are compared with the earliest
    /// time allowed, computed when it was committed), so that the binding
    /// runs it in the host's floating-point environment.
    #[inline(always)]
    pub fn set_time(&mut self, time: f64) -> Outcome {
        if self.refuses_time(time) {
            return Err(self.time_refused(time));
        }
        // No stopTime check: a variable-step solver evaluates past its last
        // output point and interpolates back (CVODE does), and the model's
        // equations hold there as well.
        self.clock.time = time;
        self.dirty = true;
        Ok(Status::Ok)
    }

    #[cold]
    #[inline(never)]
    fn time_refused(&self, time: f64) -> String {
        if !finite_bits(time) {
            return format!("time = {time} rejected: must be finite");
        }
        format!(
            "time = {} s rejected: before t = {} s, the last event or completed integrator step \
             (time may not go back past it)",
            number(time),
            number(self.committed_time)
        )
    }

    /// Whether [`Instance::set_time`] refuses `time` (by its bits: the
    /// binding words the refusal in the default environment).
    #[inline(always)]
    pub fn refuses_time(&self, time: f64) -> bool {
        !finite_bits(time) || less_bits(time, self.earliest_time)
    }

    /// Whether setting the states computes (a setter that scales or goes
    /// through a method); else they are stored as they are, their
    /// finiteness told by their bits.
    #[inline(always)]
    pub fn states_computed(&self) -> bool {
        !self.states_plain
    }

    pub fn set_continuous_states(&mut self, x: &[f64]) -> Outcome {
        if let FloatHost::Flushing(check) = std::mem::take(&mut self.float) {
            if self.set_states_in_host(check, x) {
                return Ok(Status::Ok);
            }
        }
        self.model.set_continuous_states(x)?;
        self.dirty = true;
        Ok(Status::Ok)
    }

    /// States that are scaled or computed when set, set in a flushing
    /// host's environment ([`FloatHost`]): unless `x` or the model holds a
    /// subnormal, or the setting flushed one (then done again in the default
    /// environment: a setter stores what `x` gives, whatever was there). True
    /// when set there; else the default environment is entered, and nothing
    /// is set.
    #[inline(never)]
    fn set_states_in_host(&mut self, check: FloatCheck, x: &[f64]) -> bool {
        if self.host_tries.states.now() {
            // The model as the last call that verified it left it (an
            // evaluation or a setting of states there), or looked at now.
            let verified = self.verified_since_last_call();
            if !x.iter().any(|&value| subnormal(value))
                && (verified || !self.model.holds_subnormal())
                && self.model.set_continuous_states(x).is_ok()
                && !(check.underflowed)()
            {
                self.verified_at = self.calls;
                self.host_tries.states.stayed();
                self.dirty = true;
                return true;
            }
            self.host_tries.states.switched();
        }
        (check.to_default)();
        false
    }

    pub fn get_continuous_states(&mut self, out: &mut [f64]) -> Outcome {
        self.refresh()?;
        self.model.continuous_states(out).map(|()| Status::Ok)
    }

    /// The derivatives as the last evaluation left them (evaluated first if
    /// anything changed since): a copy, its finiteness told by the bits.
    #[inline(always)]
    pub fn get_derivatives(&mut self, out: &mut [f64]) -> Outcome {
        self.fresh()?;
        let done = &self.evaluated;
        check_state_count(done.states, out.len(), "derivatives")?;
        match copy_finite(&done.derivatives[..done.states], out) {
            Some(i) => Err(self.non_finite_derivative(i, out[i])),
            None => Ok(Status::Ok),
        }
    }

    #[cold]
    fn non_finite_derivative(&self, i: usize, value: f64) -> String {
        format!("der({}) = {value} is not finite at the current states and inputs", self.model.state_variable(i))
    }

    /// (Also what a Co-Simulation instance's hybrid form would indicate
    /// now, for a binding that declares the indicators as variables.)
    #[inline(always)]
    pub fn get_event_indicators(&mut self, out: &mut [f64]) -> Outcome {
        self.fresh()?;
        if self.interface == super::machine::Interface::CoSimulation {
            return self.co_simulation_indicators(out);
        }
        let done = &self.evaluated;
        check_indicator_count(done.indicator_count, out.len())?;
        match copy_finite(&done.indicators[..done.indicator_count], out) {
            Some(i) => Err(non_finite_indicator(i, out[i])),
            None => Ok(Status::Ok),
        }
    }

    /// A Co-Simulation instance's indicators: its hybrid form settled now.
    #[inline(never)]
    fn co_simulation_indicators(&self, out: &mut [f64]) -> Outcome {
        self.hybrid_view()?.event_indicators(out).map(|()| Status::Ok)
    }

    pub fn get_nominals(&mut self, out: &mut [f64]) -> Outcome {
        self.model.nominals(out).map(|()| Status::Ok)
    }

    pub fn enter_event_mode(&mut self) -> Outcome {
        self.phase = Phase::EventMode;
        self.commit(self.clock.time);
        self.event_passes = 0;
        Ok(Status::Ok)
    }

    /// One pass of the event iteration; the importer repeats the call while
    /// `new_discrete_states_needed`.
    pub fn new_discrete_states(&mut self) -> Result<EventInfo, String> {
        if self.event_passes >= MAX_EVENT_ITERATIONS {
            return Err(format!(
                "the event iteration at t = {} s did not settle: the discrete state still changed after \
                 {MAX_EVENT_ITERATIONS} passes",
                self.clock.time
            ));
        }
        self.fresh()?;
        let (changed, moved) = self.model.event(&self.log, self.clock.time);
        self.event_passes = if changed { self.event_passes + 1 } else { 0 };
        self.dirty = true;
        self.fresh()?;
        Ok(EventInfo { new_discrete_states_needed: changed, values_of_continuous_states_changed: moved })
    }

    pub fn enter_continuous_time_mode(&mut self) -> Outcome {
        self.phase = Phase::ContinuousTimeMode;
        Ok(Status::Ok)
    }

    /// (enterEventMode, terminateSimulation): a step event when the discrete
    /// state no longer fits the states and inputs (an input set past a
    /// threshold between two integrator steps changes no indicator inside
    /// a step, so the solver cannot locate it).
    pub fn completed_integrator_step(&mut self) -> Result<(bool, bool), String> {
        self.fresh()?;
        self.commit(self.clock.time);
        Ok((self.model.event_pending(), false))
    }
}

/// Model Exchange's hot calls when they compute nothing and break no rule:
/// each does what its general form does (above) and says true, or changes
/// nothing and says false, and the general form then words the refusal.
/// Without a `Result`, a closure or a message to build, so that the
/// binding answers them in a few instructions (`crate::ffi::hot`).
impl Instance {
    /// The call is allowed now (its phases, its interface).
    #[inline(always)]
    fn admits(&self, allowed: Allowed) -> bool {
        self.phase.bit() & allowed != 0 && allowed & self.foreign() == 0
    }

    /// [`Instance::set_time`].
    #[inline(always)]
    pub fn set_time_now(&mut self, time: f64, allowed: Allowed) -> bool {
        if !self.admits(allowed) || self.refuses_time(time) {
            return false;
        }
        self.clock.time = time;
        self.dirty = true;
        true
        // (A subnormal time is looked at by the evaluation itself.)
    }

    /// [`Instance::set_continuous_states`] of states stored as they are.
    #[inline(always)]
    pub fn set_plain_states_now(&mut self, x: &[f64], allowed: Allowed) -> bool {
        self.set_plain_states_by(x, allowed, |model, _, x| model.set_plain_states(x))
    }

    /// As [`Instance::set_plain_states_now`], the states stored by `set`
    /// (given the model and its concrete type; false: nothing stored): a
    /// binary's own model stores them without a call through the vtable
    /// (`crate::ffi::known`).
    #[inline(always)]
    pub fn set_plain_states_by(&mut self, x: &[f64], allowed: Allowed, set: PlainStatesSet) -> bool {
        if !self.admits(allowed) || !self.states_plain {
            return false;
        }
        let model_type = self.model_type();
        if !set(self.model.as_mut(), model_type, x) {
            return false;
        }
        if x.iter().any(|&value| subnormal(value)) {
            // An evaluation in a flushing host looks at the model again.
            self.verified_at = u64::MAX;
        }
        self.dirty = true;
        true
    }

    /// [`Instance::get_event_indicators`] while the last evaluation is current.
    #[inline(always)]
    pub fn copy_indicators_now(&self, out: &mut [f64], allowed: Allowed) -> bool {
        self.copy_indicators_of(self.evaluated.indicator_count, out, allowed)
    }

    /// As [`Instance::copy_indicators_now`] when the model has `count`
    /// indicators (a binary's own model: a constant, so that the copy
    /// unrolls); else false.
    #[inline(always)]
    pub fn copy_indicators_of(&self, count: usize, out: &mut [f64], allowed: Allowed) -> bool {
        let done = &self.evaluated;
        self.admits(allowed)
            && !self.must_evaluate()
            && done.indicator_count == count
            && copy_if_finite(&done.indicators, count, out)
    }
}

/// The first `n` of `from` copied into `out` if it holds `n` and all are
/// finite (told by their bits, without a branch per value); else false,
/// `out` perhaps written.
#[inline(always)]
fn copy_if_finite(from: &[f64], n: usize, out: &mut [f64]) -> bool {
    if out.len() != n || n > from.len() {
        return false;
    }
    let mut finite = true;
    for (slot, &x) in out.iter_mut().zip(from) {
        *slot = x;
        finite &= finite_bits(x);
    }
    finite
}

/// `from` copied into `out` (as long), and the first value that is not
/// finite, told by its bits: one pass, computing nothing, without a branch
/// per value; the index looked for only when there is one.
#[inline(always)]
fn copy_finite(from: &[f64], out: &mut [f64]) -> Option<usize> {
    let mut finite = true;
    for (slot, &x) in out.iter_mut().zip(from) {
        *slot = x;
        finite &= finite_bits(x);
    }
    if finite {
        return None;
    }
    first_not_finite(out)
}

#[cold]
#[inline(never)]
fn first_not_finite(values: &[f64]) -> Option<usize> {
    values.iter().position(|&x| !finite_bits(x))
}
