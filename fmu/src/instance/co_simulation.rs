//! Co-Simulation: the step from the instance's own time, and the input and
//! output derivatives that go with it.

#![forbid(unsafe_code)]

use super::float_host::{FloatCheck, FloatHost, InHost};
use super::log::{self, Status};
use super::machine::{Instance, Outcome};
use super::phase::Phase;
use super::step::{StepEnd, StepError, MAX_SUBSTEPS_PER_STEP};
use crate::text::number;

impl Instance {
    pub fn set_input_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &[f64]) -> Outcome {
        self.model.set_input_derivatives(vrs, orders, values).map(|()| Status::Ok)
    }

    pub fn get_output_derivatives(&mut self, vrs: &[u32], orders: &[i32], out: &mut [f64]) -> Outcome {
        self.refresh()?;
        self.model.get_output_derivatives(vrs, orders, out).map(|()| Status::Ok)
    }

    /// `DoStep`: integrate from our own time to `t + h`, the checks and
    /// the step in one call to the model (inlined into the export: one
    /// function entry and exit less per call).
    #[inline(always)]
    pub fn do_step(&mut self, t: f64, h: f64) -> Outcome {
        if let FloatHost::Flushing(check) = self.float {
            return self.do_step_in_host(check, t, h);
        }
        match self.model.do_step(&mut self.clock, &self.log, t, h) {
            Ok(()) => Ok(Status::Ok),
            Err(error) => Err(self.step_error(t, h, error)),
        }
    }

    /// [`Instance::do_step`] in a flushing host's environment
    /// ([`FloatHost::Flushing`], set by the binding for this call): taken
    /// again in the default environment if it read or flushed a
    /// subnormal, or ended otherwise than well (refused or failed, which
    /// changed nothing), so that every refusal is worded there; and in the
    /// default environment from the start when events are logged (the
    /// logger runs in the FMU's environment).
    #[inline(never)]
    fn do_step_in_host(&mut self, check: FloatCheck, t: f64, h: f64) -> Outcome {
        self.float = FloatHost::Default;
        if !self.log.enabled(log::EVENTS) && self.host_tries.step.now() {
            let in_host = self.in_host(check);
            if self.model.do_step_in_host(&mut self.clock, &self.log, t, h, in_host).is_ok() {
                self.verified_at = self.calls;
                self.host_tries.step.stayed();
                return Ok(Status::Ok);
            }
            self.host_tries.step.switched();
        }
        (check.to_default)();
        self.do_step(t, h)
    }

    /// What a step in the host's environment is told: whether the last
    /// call before this one was a step that verified the model.
    #[inline(always)]
    fn in_host(&self, check: FloatCheck) -> InHost {
        InHost { underflowed: check.underflowed, verified: self.verified_since_last_call() }
    }

    /// The error of a step in the default environment, worded.
    #[cold]
    fn step_error(&mut self, t: f64, h: f64, error: StepError) -> String {
        match error {
            StepError::Refused => self.step_refused(t, h),
            StepError::Failed(what) => self.step_failed(t, h, &what),
            StepError::Flushed => unreachable!("only a step in a flushing host's environment is flushed"),
        }
    }

    /// `DoStep` with what a binding with early return and event mode needs
    /// to know (FMI 3.0): the step stops at its first transition when the
    /// importer allowed early return at instantiation; the end says where,
    /// and whether an event is there (for an importer that uses event mode).
    pub fn do_step_to_event(&mut self, t: f64, h: f64) -> Result<StepEnd, String> {
        let early_return = self.co_simulation_events.early_return;
        let end = match std::mem::take(&mut self.float) {
            FloatHost::Flushing(check) => {
                let in_host = Some(self.in_host(check));
                let try_host = !self.log.enabled(log::EVENTS) && self.host_tries.step.now();
                let (clock, log) = (&mut self.clock, &self.log);
                match try_host.then(|| self.model.do_step_to_event(clock, log, t, h, early_return, in_host)) {
                    Some(Ok(end)) => {
                        self.verified_at = self.calls;
                        self.host_tries.step.stayed();
                        Ok(end)
                    }
                    tried => {
                        if tried.is_some() {
                            self.host_tries.step.switched();
                        }
                        (check.to_default)();
                        self.model.do_step_to_event(clock, log, t, h, early_return, None)
                    }
                }
            }
            FloatHost::Default => self.model.do_step_to_event(&mut self.clock, &self.log, t, h, early_return, None),
        };
        match end {
            Ok(end) => Ok(StepEnd { event: end.event && self.co_simulation_events.event_mode, ..end }),
            Err(error) => Err(self.step_error(t, h, error)),
        }
    }

    /// Co-Simulation's event mode (FMI 3.0, importers that use it): entered
    /// after a step that ended at an event, or when the importer has an
    /// event of its own (an input that jumps).
    pub fn enter_co_simulation_event_mode(&mut self) -> Outcome {
        if !self.co_simulation_events.event_mode {
            return Err(format!(
                "not allowed: event mode was not requested at instantiation (eventModeUsed = false, {})",
                self.words.co_simulation
            ));
        }
        if self.phase != Phase::StepComplete {
            return Err(format!("not allowed in state {} (only in step mode)", self.phase.name()));
        }
        self.phase = Phase::EventMode;
        Ok(Status::Ok)
    }

    /// Co-Simulation's event iteration: the contact modes the next step
    /// would take at its start, for the states and the inputs now (also
    /// inputs set in event mode), applied now (`Model::settle`): a lock the
    /// held torques break is released here. One pass settles them; none
    /// more is needed. The continuous states do not jump.
    pub fn co_simulation_discrete_states(&mut self) -> Result<super::model_exchange::EventInfo, String> {
        self.model.settle(&self.log, self.clock.time);
        Ok(super::model_exchange::EventInfo::default())
    }

    pub fn enter_step_mode(&mut self) -> Outcome {
        self.phase = Phase::StepComplete;
        Ok(Status::Ok)
    }

    /// The work a Co-Simulation step of `h` asks, counted as internal steps:
    /// a step of more than `MAX_SUBSTEPS_PER_STEP` is refused. For a caller
    /// that weighs a step before it asks for it (the fuzz targets).
    pub fn step_work(&self, h: f64) -> f64 {
        self.model.step_work(h).0
    }

    /// The first rule of the step's arguments that (t, h) breaks (the
    /// checks of `do_step` one by one).
    #[cold]
    #[inline(never)]
    fn step_refused(&self, t: f64, h: f64) -> String {
        let (end, t_shown, h_shown) = (number(t + h), number(t), number(h));
        let tolerance = 1e-9 * self.clock.time.abs().max(1.0);
        let (work, each) = self.model.step_work(h);
        if !h.is_finite() || h <= 0.0 {
            return format!("communicationStepSize = {h} rejected: must be finite and > 0");
        }
        if !t.is_finite() {
            return format!("currentCommunicationPoint = {t} rejected: must be finite");
        }
        if !(t + h).is_finite() {
            return format!("currentCommunicationPoint + communicationStepSize = {t} + {h} s overflows: the end of the step must be finite");
        }
        if (t - self.clock.time).abs() > tolerance {
            return format!(
                "currentCommunicationPoint = {t_shown} s rejected: the FMU is at t = {} s \
                 (a step must start where the last one ended, within {tolerance:e} s)",
                number(self.clock.time)
            );
        }
        if let Some(stop) = self.clock.stop_time() {
            if !self.clock.within_stop(t + h) {
                return format!(
                    "step from t = {t_shown} s to {end} s rejected: it passes stopTime = {} s set by {}",
                    number(stop),
                    self.words.stop_time
                );
            }
        }
        format!(
            "communicationStepSize = {h_shown} s rejected: it would take {work:e} internal steps of {} s \
             (limit {MAX_SUBSTEPS_PER_STEP:e}); use smaller communication steps (or, where the model has the \
             parameter, a larger internal_step)",
            number(each)
        )
    }

    /// A step the model could not take: the model is back at t;
    /// the last successful time stays t.
    #[cold]
    #[inline(never)]
    fn step_failed(&mut self, t: f64, h: f64, what: &str) -> String {
        self.phase = Phase::Error;
        let (t, end) = (number(t), number(t + h));
        format!(
            "step from t = {t} s to {end} s failed: {what}; the model is left at t = {t} s in state error \
             (restore a saved FMU state or reset it)"
        )
    }

    pub fn last_successful_time(&self) -> f64 {
        self.clock.time
    }
}
