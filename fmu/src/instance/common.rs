//! What both interfaces share: the experiment's setup, initialization,
//! termination, reset, and values got and set by reference.

#![forbid(unsafe_code)]

use super::log::Status;
use super::machine::{Instance, Interface, Outcome};
use super::phase::Allowed;
use super::phase::Phase;
use super::step::Clock;
use crate::description::index_of;

/// The model's part of [`Instance::set_one_plain_real_by`]: a function,
/// whose address the compiler sees, so that it can be inlined.
pub type PlainSet = fn(&mut dyn super::erased::Erased, std::any::TypeId, u32, f64, bool) -> bool;

impl Instance {
    pub fn setup_experiment(&mut self, tolerance: Option<f64>, start_time: f64, stop_time: Option<f64>) -> Outcome {
        if let Some(tolerance) = tolerance {
            // Our steppers are fixed-step and do not use it, but a defined
            // tolerance must still be a tolerance (FMI 2.0, 4.2.1).
            if !tolerance.is_finite() || tolerance < 0.0 {
                return Err(format!(
                    "tolerance = {tolerance} rejected (toleranceDefined = true): must be finite and >= 0"
                ));
            }
        }
        if !start_time.is_finite() {
            return Err(format!("startTime = {start_time} rejected: must be finite"));
        }
        if let Some(stop) = stop_time {
            if !stop.is_finite() || stop < start_time {
                return Err(format!("stopTime = {stop} rejected: must be finite and >= startTime = {start_time}"));
            }
        }
        self.start_time = start_time;
        self.clock.set_stop_time(stop_time);
        self.clock.time = start_time;
        Ok(Status::Ok)
    }

    pub fn enter_initialization_mode(&mut self) -> Outcome {
        self.phase = Phase::InitializationMode;
        self.stale = true;
        Ok(Status::Ok)
    }

    pub fn exit_initialization_mode(&mut self) -> Outcome {
        self.model.check(self.interface == Interface::CoSimulation)?;
        let saved = self.model.boxed_clone();
        self.model.initialize();
        self.stale = false;
        self.phase = match self.interface {
            Interface::CoSimulation if self.co_simulation_events.event_mode => Phase::EventMode,
            Interface::CoSimulation => Phase::StepComplete,
            Interface::ModelExchange => {
                if let Err(e) = self.settle() {
                    self.model = saved;
                    self.stale = true;
                    return Err(e);
                }
                self.commit(self.clock.time);
                self.event_passes = 0;
                Phase::EventMode
            }
        };
        Ok(Status::Ok)
    }

    pub fn terminate(&mut self) -> Outcome {
        self.phase = Phase::Terminated;
        Ok(Status::Ok)
    }

    pub fn reset(&mut self) -> Outcome {
        self.model.reset_to_start();
        self.phase = Phase::Instantiated;
        self.start_time = 0.0;
        self.clock = Clock::default();
        self.stale = false;
        self.dirty = true;
        self.commit(0.0);
        self.event_passes = 0;
        Ok(Status::Ok)
    }

    pub fn set_real(&mut self, vrs: &[u32], values: &[f64]) -> Outcome {
        let initialized = self.initialized();
        self.model.set_real(vrs, values, initialized)?;
        Ok(self.values_set(initialized))
    }

    pub fn set_integer(&mut self, vrs: &[u32], values: &[i32]) -> Outcome {
        let initialized = self.initialized();
        self.model.set_integer(vrs, values, initialized)?;
        Ok(self.values_set(initialized))
    }

    pub fn set_boolean(&mut self, vrs: &[u32], values: &[bool]) -> Outcome {
        let initialized = self.initialized();
        self.model.set_boolean(vrs, values, initialized)?;
        Ok(self.values_set(initialized))
    }

    /// [`Instance::set_real`] of one value stored as it is, with no range
    /// ([`super::erased::Erased::set_one_plain_real`]): true when done,
    /// with the call-sequence check of `allowed`; false, changing nothing,
    /// where the general path must answer (which computes, or refuses).
    #[inline(always)]
    pub fn set_one_plain_real(&mut self, vr: u32, x: f64, allowed: Allowed) -> bool {
        self.set_one_plain_real_by(vr, x, allowed, |model, _, vr, x, initialized| {
            model.set_one_plain_real(vr, x, initialized)
        })
    }

    /// [`Instance::set_one_plain_real`], the model's part done by `set`
    /// (given the model, its concrete type, `vr`, `x` and whether the
    /// instance is initialized; false: not done, nothing changed): for a
    /// binding that knows its binary's model and sets its field without a
    /// call through the vtable.
    #[inline(always)]
    pub fn set_one_plain_real_by(&mut self, vr: u32, x: f64, allowed: Allowed, set: PlainSet) -> bool {
        if self.phase.bit() & allowed == 0 || allowed & self.foreign() != 0 {
            return false;
        }
        let initialized = self.initialized();
        let model_type = self.model_type();
        if !set(self.model.as_mut(), model_type, vr, x, initialized) {
            return false;
        }
        if super::float_host::subnormal(x) {
            // A step in a flushing host looks at the model again.
            self.verified_at = u64::MAX;
        }
        self.values_set(initialized);
        true
    }

    /// After a set: before initialization the outputs must be derived
    /// again from the parameters; Model Exchange evaluates afresh.
    fn values_set(&mut self, initialized: bool) -> Status {
        self.stale |= !initialized;
        self.dirty = true;
        Status::Ok
    }

    pub fn get_real(&mut self, vrs: &[u32], out: &mut [f64]) -> Outcome {
        self.fresh()?;
        if self.interface == Interface::CoSimulation && vrs.iter().any(|&vr| index_of(vr) >= self.declared) {
            return self.get_real_with_derivatives(vrs, out);
        }
        self.model.get_real(vrs, out).map(|()| Status::Ok)
    }

    /// A Co-Simulation read that includes a state's derivative: each
    /// derivative from the hybrid form at the communication point (on a
    /// copy: [`Instance::hybrid_view`]), every other variable from the
    /// instance as a read of it alone gives it (libcosim reads all
    /// variables in one call; the outputs are the step's, not Model
    /// Exchange's).
    #[cold]
    #[inline(never)]
    fn get_real_with_derivatives(&self, vrs: &[u32], out: &mut [f64]) -> Outcome {
        super::access::check_lengths(vrs.len(), out.len())?;
        let view = self.hybrid_view()?;
        for (&vr, slot) in vrs.iter().zip(out.iter_mut()) {
            let source = if index_of(vr) >= self.declared { view.as_ref() } else { self.model.as_ref() };
            source.get_real(std::slice::from_ref(&vr), std::slice::from_mut(slot))?;
        }
        Ok(Status::Ok)
    }

    /// Model Exchange's evaluation at the current time, states and inputs,
    /// with the discrete state settled for them (a Co-Simulation step keeps
    /// its contact state its own way), for what a Co-Simulation instance is
    /// asked of its hybrid form: derivatives and event indicators, and for
    /// the tool that measures `<ModelStructure>`. On a copy: the instance
    /// stays as the step left it.
    pub fn hybrid_view(&self) -> Result<Box<dyn super::erased::Erased>, String> {
        let mut view = self.model.boxed_clone();
        super::machine::settle(view.as_mut(), &super::log::Log::silent(), self.clock.time)?;
        Ok(view)
    }

    /// One Real value, of a variable whose getter copies a stored field,
    /// when reading is allowed now and needs no refresh: a read that
    /// computes nothing, so that the binding may answer it in the host's
    /// floating-point environment. None otherwise ([`Instance::get_real`]
    /// then reads it, says why not, or refreshes). `allowed`: where the
    /// binding allows this read.
    #[inline(always)]
    pub fn get_one_plain_real(&self, vr: u32, allowed: Allowed) -> Option<f64> {
        if self.readable_now(vr, allowed) {
            self.model.get_one_plain_real(vr)
        } else {
            None
        }
    }

    /// The model and its concrete type, which never changes: for a binding
    /// that knows its binary's model, to read it without a call through the
    /// vtable ([`Instance::readable_now`] first).
    #[inline(always)]
    pub fn model_and_type(&self) -> (&dyn super::erased::Erased, std::any::TypeId) {
        (self.model.as_ref(), self.model_type())
    }

    /// Reading `vr` is allowed now and needs no refresh: Model Exchange
    /// evaluates afresh after a set; Co-Simulation reads a derivative from a
    /// copy ([`Instance::get_real`]).
    #[inline(always)]
    pub fn readable_now(&self, vr: u32, allowed: Allowed) -> bool {
        let refresh = match self.interface {
            Interface::ModelExchange => self.dirty,
            Interface::CoSimulation => index_of(vr) >= self.declared,
        };
        self.phase.bit() & allowed != 0 && !self.stale && !refresh
    }

    pub fn get_integer(&mut self, vrs: &[u32], out: &mut [i32]) -> Outcome {
        self.fresh()?;
        self.model.get_integer(vrs, out).map(|()| Status::Ok)
    }

    pub fn get_boolean(&mut self, vrs: &[u32], out: &mut [bool]) -> Outcome {
        self.fresh()?;
        self.model.get_boolean(vrs, out).map(|()| Status::Ok)
    }

    /// The current time: the start time, the end of the last step, or the
    /// time last set (Model Exchange).
    pub fn time(&self) -> f64 {
        self.clock.time
    }

    /// What a binding must know of the model to lay out its value
    /// references: the declared variables, and (Model Exchange) the
    /// continuous states and event indicators.
    pub fn variable_count(&self) -> usize {
        self.model.variable_count()
    }

    pub fn hybrid_sizes(&self) -> Option<(usize, usize)> {
        self.model.hybrid_sizes()
    }

    pub fn kind(&self, vr: u32) -> Option<super::erased::Kind> {
        self.model.kind(vr)
    }

    pub fn is_output(&self, vr: u32) -> bool {
        self.model.is_output(vr)
    }

    pub fn variable_name(&self, vr: u32) -> Option<&'static str> {
        self.model.variable_name(vr)
    }
}
