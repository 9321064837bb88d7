//! Model Exchange: time, continuous states, derivatives, event indicators
//! and the event iteration, each evaluated once for the values set since.

#![forbid(unsafe_code)]

use super::log::Status;
use super::machine::{Instance, Outcome, MAX_EVENT_ITERATIONS};
use super::phase::Phase;
use crate::text::number;

/// What one pass of the event iteration reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventInfo {
    pub new_discrete_states_needed: bool,
    pub values_of_continuous_states_changed: bool,
}

impl Instance {
    pub fn set_time(&mut self, time: f64) -> Outcome {
        if !time.is_finite() {
            return Err(format!("time = {time} rejected: must be finite"));
        }
        let tolerance = 1e-9 * self.committed_time.abs().max(1.0);
        if time < self.committed_time - tolerance {
            return Err(format!(
                "time = {} s rejected: before t = {} s, the last event or completed integrator step \
                 (time may not go back past it)",
                number(time),
                number(self.committed_time)
            ));
        }
        // No stopTime check: a variable-step solver evaluates past its last
        // output point and interpolates back (CVODE does), and the model's
        // equations hold there as well.
        self.clock.time = time;
        self.dirty = true;
        Ok(Status::Ok)
    }

    pub fn set_continuous_states(&mut self, x: &[f64]) -> Outcome {
        self.model.set_continuous_states(x)?;
        self.dirty = true;
        Ok(Status::Ok)
    }

    pub fn get_continuous_states(&mut self, out: &mut [f64]) -> Outcome {
        self.refresh()?;
        self.model.continuous_states(out).map(|()| Status::Ok)
    }

    pub fn get_derivatives(&mut self, out: &mut [f64]) -> Outcome {
        self.fresh()?;
        self.model.derivatives(out).map(|()| Status::Ok)
    }

    /// (Also what a Co-Simulation instance's hybrid form would indicate
    /// now, for a binding that declares the indicators as variables.)
    pub fn get_event_indicators(&mut self, out: &mut [f64]) -> Outcome {
        self.fresh()?;
        if self.interface == super::machine::Interface::CoSimulation {
            return self.hybrid_view()?.event_indicators(out).map(|()| Status::Ok);
        }
        self.model.event_indicators(out).map(|()| Status::Ok)
    }

    pub fn get_nominals(&mut self, out: &mut [f64]) -> Outcome {
        self.model.nominals(out).map(|()| Status::Ok)
    }

    pub fn enter_event_mode(&mut self) -> Outcome {
        self.phase = Phase::EventMode;
        self.committed_time = self.clock.time;
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
        self.committed_time = self.clock.time;
        Ok((self.model.event_pending(), false))
    }
}
