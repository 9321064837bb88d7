//! The instance core: one FMU instance as every standard sees it, knowing
//! no FMI version and no C. It holds the call-sequence state machine (which
//! call is allowed in which [`Phase`]), the time keeping, the value access
//! by reference, the FMU states, the event iteration and the logging of
//! transitions; a binding (`crate::fmi2`) turns C arguments into these
//! calls and says, per function of its standard, where it is allowed.
//!
//! Grouped by interface: this file what both interfaces share,
//! [`co_simulation`] the step, [`model_exchange`] the hybrid bookkeeping,
//! [`fmu_state`] saving, restoring and serializing. Below them, the model
//! side behind one object ([`erased`]): values ([`access`]), the step
//! ([`step`]), the hybrid form ([`hybrid`]).

#![forbid(unsafe_code)]

#[macro_use]
pub mod access;
pub mod co_simulation;
pub mod erased;
pub mod finite;
pub mod fmu_state;
pub mod hybrid;
pub mod log;
pub mod model_box;
pub mod model_exchange;
pub mod phase;
pub mod step;

pub use erased::Erased;
pub use fmu_state::Snapshot;
pub use log::{Log, Sink, Status};
pub use model_box::ModelBox;
pub use model_exchange::EventInfo;
pub use phase::{Allowed, Phase};

use phase::{CO_SIMULATION_ONLY, MODEL_EXCHANGE_ONLY};
use step::Clock;

/// The interface an instance was instantiated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    CoSimulation,
    ModelExchange,
}

/// How the binding's standard names what the core's messages refer to.
pub struct Vocabulary {
    /// How an instance was created for each interface, e.g. `fmuType fmi2CoSimulation`.
    pub co_simulation: &'static str,
    pub model_exchange: &'static str,
    /// The functions still allowed after an internal error.
    pub after_internal_error: &'static str,
    /// Where a stop time comes from.
    pub stop_time: &'static str,
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
    words: &'static Vocabulary,
    guid: &'static str,
    start_time: f64,
    /// Time, stopTime and substeps taken.
    clock: Clock,
    /// A parameter or start value changed since `initialize`.
    stale: bool,
    model: Box<dyn Erased>,
    /// FMU states handed out by this instance and not yet freed.
    snapshots: Vec<Box<Snapshot>>,
    pub interface: Interface,
    /// Model Exchange: states, inputs or time changed since the last evaluation.
    dirty: bool,
    /// Model Exchange: time of the last event or completed integrator step;
    /// setting the time may not go before it.
    committed_time: f64,
    /// Model Exchange: passes of the current event iteration.
    event_passes: u32,
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
            model,
            snapshots: Vec::new(),
            interface,
            dirty: true,
            committed_time: 0.0,
            event_passes: 0,
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

    /// Run `body` if `function` is allowed in the current phase; turn an
    /// `Err(message)` into a logged error that leaves the instance as it was.
    #[inline(always)]
    pub fn call(&mut self, function: &str, allowed: Allowed, body: impl FnOnce(&mut Self) -> Outcome) -> Status {
        if self.phase.bit() & allowed == 0 || allowed & self.foreign() != 0 {
            return self.refuse(function, allowed);
        }
        match body(self) {
            Ok(status) => status,
            Err(message) => self.fail(function, Status::Error, &message),
        }
    }

    /// The flag of the functions of the other interface.
    #[inline(always)]
    fn foreign(&self) -> Allowed {
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

    pub fn initialized(&self) -> bool {
        self.phase.initialized()
    }

    /// Outputs read before the first step reflect the current parameters,
    /// once those pass the model's rules (else the read is refused).
    #[inline(always)]
    fn refresh(&mut self) -> Result<(), String> {
        if self.stale {
            return self.refresh_now();
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn refresh_now(&mut self) -> Result<(), String> {
        let co_simulation = self.interface == Interface::CoSimulation;
        self.model.check(co_simulation).map_err(|e| format!("outputs cannot be computed yet: {e}"))?;
        self.model.initialize();
        self.stale = false;
        if self.interface == Interface::ModelExchange {
            self.settle()?;
        }
        Ok(())
    }

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
            Interface::CoSimulation => Phase::StepComplete,
            Interface::ModelExchange => {
                if let Err(e) = self.settle() {
                    self.model = saved;
                    self.stale = true;
                    return Err(e);
                }
                self.committed_time = self.clock.time;
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
        self.committed_time = 0.0;
        self.event_passes = 0;
        Ok(Status::Ok)
    }

    pub fn set_real(&mut self, vrs: &[u32], values: &[f64]) -> Outcome {
        let initialized = self.initialized();
        self.model.set_real(vrs, values, initialized)?;
        self.stale |= !initialized;
        self.dirty = true;
        Ok(Status::Ok)
    }

    pub fn set_integer(&mut self, vrs: &[u32], values: &[i32]) -> Outcome {
        let initialized = self.initialized();
        self.model.set_integer(vrs, values, initialized)?;
        self.stale |= !initialized;
        self.dirty = true;
        Ok(Status::Ok)
    }

    pub fn set_boolean(&mut self, vrs: &[u32], values: &[bool]) -> Outcome {
        let initialized = self.initialized();
        self.model.set_boolean(vrs, values, initialized)?;
        self.stale |= !initialized;
        self.dirty = true;
        Ok(Status::Ok)
    }

    pub fn get_real(&mut self, vrs: &[u32], out: &mut [f64]) -> Outcome {
        self.fresh()?;
        self.model.get_real(vrs, out).map(|()| Status::Ok)
    }

    /// One Real value when reading is allowed now and needs no refresh;
    /// None otherwise ([`Instance::get_real`] then says why, or refreshes).
    /// `allowed`: where the binding allows a read.
    #[inline(always)]
    pub fn get_one_real(&self, vr: u32, allowed: Allowed) -> Option<f64> {
        if self.phase.bit() & allowed != 0 && !self.stale && !(self.dirty && self.interface == Interface::ModelExchange)
        {
            self.model.get_one_real(vr)
        } else {
            None
        }
    }

    pub fn get_integer(&mut self, vrs: &[u32], out: &mut [i32]) -> Outcome {
        self.fresh()?;
        self.model.get_integer(vrs, out).map(|()| Status::Ok)
    }

    pub fn get_boolean(&mut self, vrs: &[u32], out: &mut [bool]) -> Outcome {
        self.fresh()?;
        self.model.get_boolean(vrs, out).map(|()| Status::Ok)
    }

    pub fn check_string_vrs(&self, vrs: &[u32]) -> Outcome {
        self.model.check_string_vrs(vrs).map(|()| Status::Ok)
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.magic = 0;
    }
}
