//! The instance itself: what it holds, how a call is admitted (the binding's
//! `Allowed` mask against the current phase) and refused, and the
//! evaluation bookkeeping both interfaces share (outputs computed afresh for
//! the parameters, the states and the time set since). The calls themselves
//! are in the files of their interface, each an `impl Instance` on this one.

#![forbid(unsafe_code)]

use super::erased::Erased;
use super::float_host::{subnormal, FloatCheck, FloatHost, Tries};
use super::hybrid::Evaluated;
use super::log::{self, Log, Status};
use super::phase::{Allowed, Phase, CO_SIMULATION_ONLY, MODEL_EXCHANGE_ONLY};
use super::snapshot::Snapshot;
use super::step::Clock;
use super::words::Vocabulary;

/// Passes of an event iteration that still change the discrete state
/// before the iteration gives up with an error (a contact logic that
/// cannot settle, e.g. one flipping between two modes).
pub const MAX_EVENT_ITERATIONS: u32 = 100;

/// The interface an instance was instantiated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    CoSimulation,
    ModelExchange,
}

/// The earliest time that may be set after `committed` (see [`Instance::commit`]).
fn earliest(committed: f64) -> f64 {
    committed - 1e-9 * committed.abs().max(1.0)
}

/// Tag at the start of a live instance, cleared when it is freed, so that a
/// binding can refuse a stale or foreign pointer instead of using it (best effort).
pub const INSTANCE_MAGIC: u64 = 0x4652_4943_5449_4f4e; // "FRICTION"

/// Everything one instance holds. A binding's instance handle points at this.
#[repr(C)]
pub struct Instance {
    pub magic: u64,
    pub log: Log,
    pub phase: Phase,
    pub(super) words: &'static Vocabulary,
    pub(super) guid: &'static str,
    pub(super) start_time: f64,
    /// Time, stopTime and substeps taken.
    pub(super) clock: Clock,
    /// A parameter or start value changed since `initialize`.
    pub(super) stale: bool,
    /// Its concrete type never changes: it is only replaced by a clone of
    /// itself, and an FMU state is assigned into it ([`Erased::assign`]), so
    /// that `model_type` holds for the instance's life.
    pub(super) model: Box<dyn Erased>,
    /// The concrete type of `model`, for a binding that knows its binary's
    /// model ([`Instance::model_and_type`]).
    model_type: std::any::TypeId,
    /// The model's declared variables: a greater Real reference is a
    /// state's derivative (Model Exchange's hybrid form).
    pub(super) declared: usize,
    /// FMU states handed out by this instance and not yet freed.
    // Boxed: a state's handle is its address, which must not move when
    // the list grows.
    #[allow(clippy::vec_box)]
    pub(super) snapshots: Vec<Box<Snapshot>>,
    pub interface: Interface,
    /// Model Exchange: states, inputs or time changed since the last evaluation.
    pub(super) dirty: bool,
    /// Model Exchange: time of the last event or completed integrator step;
    /// setting the time may not go before it (by more than its round-off
    /// allowance: `earliest_time`, computed when it is committed, so that
    /// `set_time` computes nothing). Both set by [`Instance::commit`].
    pub(super) committed_time: f64,
    pub(super) earliest_time: f64,
    /// Model Exchange: passes of the current event iteration.
    pub(super) event_passes: u32,
    /// Model Exchange: the derivatives and event indicators of the last
    /// evaluation, current while `dirty` is false.
    pub(super) evaluated: Evaluated,
    /// Model Exchange: every state is stored as it is (`State::plain`), a
    /// constant of the model, read once.
    pub(super) states_plain: bool,
    /// Co-Simulation: what the importer asked for at instantiation (FMI
    /// 3.0; FMI 2.0 has neither).
    pub co_simulation_events: CoSimulationEvents,
    /// Where the current call computes: set by the binding's step rows,
    /// taken by the step ([`super::FloatHost`]).
    pub float: FloatHost,
    /// Calls admitted through [`Instance::call`] (wrapping): every call but
    /// the one-value reads and sets.
    pub(super) calls: u64,
    /// The call whose step, in a flushing host's environment, found no
    /// subnormal in the model and flushed nothing ([`super::InHost`]).
    pub(super) verified_at: u64,
    /// When to try a flushing host's environment again
    /// ([`super::float_host::Tries`]), for each kind of call apart: one
    /// that always meets a subnormal must not be tried as often as the
    /// others succeed.
    pub(super) host_tries: HostTries,
}

/// [`Tries`] of each kind of call that may run in a flushing host's
/// environment.
#[derive(Clone, Copy, Debug, Default)]
pub struct HostTries {
    pub step: Tries,
    pub states: Tries,
    pub evaluation: Tries,
}

/// FMI 3.0 Co-Simulation's options of an instance, set at instantiation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoSimulationEvents {
    /// `eventModeUsed`: a step reports an event at its end, and the instance
    /// goes through event mode after initialization and after such a step.
    pub event_mode: bool,
    /// `earlyReturnAllowed`: a step stops at its first transition.
    pub early_return: bool,
}

/// A call's result: its status, or the message of the rule it broke.
pub type Outcome = Result<Status, String>;

impl Instance {
    pub fn new(
        log: Log,
        words: &'static Vocabulary,
        guid: &'static str,
        model: Box<dyn Erased>,
        interface: Interface,
    ) -> Self {
        Self {
            magic: INSTANCE_MAGIC,
            log,
            phase: Phase::Instantiated,
            words,
            guid,
            start_time: 0.0,
            clock: Clock::default(),
            stale: false,
            declared: model.variable_count(),
            evaluated: Evaluated::new(model.hybrid_sizes()),
            states_plain: model.states_plain(),
            model_type: model.as_any().type_id(),
            model,
            snapshots: Vec::new(),
            interface,
            dirty: true,
            committed_time: 0.0,
            earliest_time: earliest(0.0),
            event_passes: 0,
            co_simulation_events: CoSimulationEvents::default(),
            float: FloatHost::Default,
            calls: 0,
            verified_at: u64::MAX,
            host_tries: HostTries::default(),
        }
    }

    /// Log `message` for a failed `function` and return `status`.
    #[cold]
    pub fn fail(&mut self, function: &str, status: Status, message: &str) -> Status {
        self.log.emit(status, log::category_of(status), &format!("{function}: {message}"));
        status
    }

    /// After a panic: an error (a fatal status would condemn every instance
    /// of the FMU, FMI 2.0 2.1.3), and this instance accepts only reset and
    /// free from now on.
    pub fn poison(&mut self, function: &str, message: &str) -> Status {
        self.phase = Phase::Fatal;
        self.fail(function, Status::Error, message)
    }

    /// [`Instance::poison`] for a caught panic, in the binding's words.
    pub fn poison_after_panic(&mut self, function: &str, panic: &str) -> Status {
        let message =
            format!("internal error (panic): {panic}; only {} are allowed now", self.words.after_internal_error);
        self.poison(function, &message)
    }

    /// Run `body` if `function` is allowed in the current phase; turn an
    /// `Err(message)` into a logged error that leaves the instance as it was.
    #[inline(always)]
    pub fn call(&mut self, function: &str, allowed: Allowed, body: impl FnOnce(&mut Self) -> Outcome) -> Status {
        // Any call may change the model: a step after it looks at it again.
        self.calls = self.calls.wrapping_add(1);
        if self.phase.bit() & allowed == 0 || allowed & self.foreign() != 0 {
            return self.refuse(function, allowed);
        }
        match body(self) {
            Ok(status) => status,
            Err(message) => self.fail(function, Status::Error, &message),
        }
    }

    /// The concrete type of the model, as when the instance was made (the
    /// tests' builds check that it still is: a binding's typed access,
    /// `crate::ffi::known`, relies on it).
    #[inline(always)]
    pub(super) fn model_type(&self) -> std::any::TypeId {
        debug_assert_eq!(self.model.as_any().type_id(), self.model_type, "the model's type changed");
        self.model_type
    }

    /// The flag of the functions of the other interface.
    #[inline(always)]
    pub(super) fn foreign(&self) -> Allowed {
        match self.interface {
            Interface::CoSimulation => MODEL_EXCHANGE_ONLY,
            Interface::ModelExchange => CO_SIMULATION_ONLY,
        }
    }

    /// `function` called in a phase that does not allow it.
    #[cold]
    #[inline(never)]
    fn refuse(&mut self, function: &str, allowed: Allowed) -> Status {
        let message = if allowed & self.foreign() != 0 {
            match self.interface {
                Interface::CoSimulation => format!(
                    "not allowed: a Model Exchange function, and this instance was instantiated for \
                     Co-Simulation ({})",
                    self.words.co_simulation
                ),
                Interface::ModelExchange => format!(
                    "not allowed: a Co-Simulation function, and this instance was instantiated for Model \
                     Exchange ({})",
                    self.words.model_exchange
                ),
            }
        } else if self.phase == Phase::Fatal {
            format!("refused: the instance had an internal error; only {} are allowed", self.words.after_internal_error)
        } else {
            format!("not allowed in state {}", self.phase.name())
        };
        self.fail(function, Status::Error, &message)
    }

    /// Model Exchange: `time` is the last event or completed integrator
    /// step's; the time may be set back to it, within 1e-9 of its
    /// magnitude (at least 1e-9 s) for a solver's round-off.
    pub(super) fn commit(&mut self, time: f64) {
        self.committed_time = time;
        self.earliest_time = earliest(time);
    }

    /// Model Exchange: whether the values a read asks for must be computed
    /// first (the default floating-point environment), or are held as the
    /// last evaluation left them (copied, in any environment).
    #[inline(always)]
    pub fn must_evaluate(&self) -> bool {
        self.stale || self.dirty || self.interface == Interface::CoSimulation
    }

    pub fn initialized(&self) -> bool {
        self.phase.initialized()
    }

    /// Outputs read before the first step reflect the current parameters,
    /// once those pass the model's rules (else the read is refused).
    #[inline(always)]
    pub(super) fn refresh(&mut self) -> Result<(), String> {
        if self.stale {
            return self.refresh_now();
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    pub(super) fn refresh_now(&mut self) -> Result<(), String> {
        let co_simulation = self.interface == Interface::CoSimulation;
        self.model.check(co_simulation).map_err(|e| format!("outputs cannot be computed yet: {e}"))?;
        self.model.initialize();
        self.stale = false;
        // Whatever the settling below leaves, the last evaluation is no
        // longer current: a failed settle must not leave an old one to copy.
        self.dirty = true;
        if self.interface == Interface::ModelExchange {
            self.settle()?;
        }
        Ok(())
    }

    /// Model Exchange: values for the current time, states and inputs, and
    /// before initialization for the current parameters.
    #[inline(always)]
    pub(super) fn fresh(&mut self) -> Result<(), String> {
        if self.stale {
            // Initializing and settling is not checked: the default
            // environment first, if the call was left in a flushing host's.
            if let FloatHost::Flushing(check) = std::mem::take(&mut self.float) {
                (check.to_default)();
            }
            self.refresh_now()?;
        }
        if self.dirty && self.interface == Interface::ModelExchange {
            match std::mem::take(&mut self.float) {
                FloatHost::Default => self.model.evaluate_into(&mut self.evaluated),
                FloatHost::Flushing(check) => self.evaluate_in_host(check),
            }
            self.dirty = false;
        }
        Ok(())
    }

    /// The evaluation in a flushing host's environment ([`FloatHost`], set
    /// by the binding's evaluating rows): there unless the time, or unless
    /// verified the model, holds a subnormal, and again in the default
    /// environment if it flushed one. An evaluation is a function of the
    /// time, the states, the inputs and the discrete state, none of which
    /// it changes: done again, it gives the default's values.
    #[inline(never)]
    fn evaluate_in_host(&mut self, check: FloatCheck) {
        if self.host_tries.evaluation.now() {
            let verified = self.verified_since_last_call();
            if !subnormal(self.clock.time) && (verified || !self.model.holds_subnormal()) {
                self.model.evaluate_into(&mut self.evaluated);
                if !(check.underflowed)() {
                    self.verified_at = self.calls;
                    self.host_tries.evaluation.stayed();
                    return;
                }
            }
            self.host_tries.evaluation.switched();
        }
        (check.to_default)();
        self.model.evaluate_into(&mut self.evaluated);
    }

    /// The last call admitted (a step, an evaluation, a setting of states)
    /// ran in a flushing host's environment and verified the model there,
    /// and nothing but fast paths came after it: the next one need not look
    /// at the model again ([`super::InHost::verified`]).
    #[inline(always)]
    pub(super) fn verified_since_last_call(&self) -> bool {
        self.verified_at.wrapping_add(1) == self.calls
    }

    /// This call ran in a flushing host's environment and verified itself
    /// there (for the tests).
    #[cfg(test)]
    pub fn last_call_in_host(&self) -> bool {
        self.verified_at == self.calls
    }

    /// The whole event iteration at once (after initialization): the
    /// discrete state consistent with the states and inputs.
    pub(super) fn settle(&mut self) -> Result<(), String> {
        settle(self.model.as_mut(), &self.log, self.clock.time)?;
        self.model.fill(&mut self.evaluated);
        self.dirty = false;
        Ok(())
    }
}

/// The event iteration of `model` at `time` until its discrete state holds,
/// evaluated for it: Model Exchange's settling, and a Co-Simulation
/// instance's view of its hybrid form (on a copy, logging nothing).
pub fn settle(model: &mut dyn Erased, log: &Log, time: f64) -> Result<(), String> {
    for _ in 0..MAX_EVENT_ITERATIONS {
        model.evaluate();
        let (changed, _) = model.event(log, time);
        if !changed {
            model.evaluate();
            return Ok(());
        }
    }
    Err(format!("the discrete state at t = {time} s did not settle in {MAX_EVENT_ITERATIONS} passes"))
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.magic = 0;
    }
}
