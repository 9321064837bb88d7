//! One FMU instance: the FMI 2.0 call-sequence state machine, time keeping,
//! argument checks, FMU states and logging, for every model alike.

use super::erased::{substep_count, Clock, Erased, StepError, MAX_SUBSTEPS_PER_STEP};
use super::log::{self, Log};
use super::types::Status;
use crate::text::number;

/// States of the FMI 2.0 call sequences: Co-Simulation (standard, 4.2.4;
/// `stepCanceled`/`stepInProgress` never occur: doStep is synchronous) and
/// Model Exchange (3.2.3: event mode, continuous-time mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    Instantiated = 0,
    InitializationMode = 1,
    StepComplete = 2,
    StepFailed = 3,
    Terminated = 4,
    Error = 5,
    Fatal = 6,
    EventMode = 7,
    ContinuousTimeMode = 8,
}

impl Phase {
    fn bit(self) -> u16 {
        1 << self as u16
    }

    fn from_u8(x: u8) -> Option<Self> {
        [
            Phase::Instantiated,
            Phase::InitializationMode,
            Phase::StepComplete,
            Phase::StepFailed,
            Phase::Terminated,
            Phase::Error,
            Phase::Fatal,
            Phase::EventMode,
            Phase::ContinuousTimeMode,
        ]
        .get(x as usize)
        .copied()
    }

    fn name(self) -> &'static str {
        match self {
            Phase::Instantiated => "instantiated",
            Phase::InitializationMode => "initializationMode",
            Phase::StepComplete => "stepComplete",
            Phase::StepFailed => "stepFailed",
            Phase::Terminated => "terminated",
            Phase::Error => "error",
            Phase::Fatal => "fatal",
            Phase::EventMode => "eventMode",
            Phase::ContinuousTimeMode => "continuousTimeMode",
        }
    }
}

/// Sets of phases in which a function may be called, and which interface
/// it belongs to (a Co-Simulation function on a Model Exchange instance is
/// refused, and the reverse).
pub mod allowed {
    use super::Phase::*;
    const fn set(phases: &[super::Phase]) -> u16 {
        let mut bits = 0;
        let mut i = 0;
        while i < phases.len() {
            bits |= 1 << phases[i] as u16;
            i += 1;
        }
        bits
    }
    /// Flag: a Co-Simulation function only.
    pub const CS_ONLY: u16 = 1 << 14;
    /// Flag: a Model Exchange function only.
    pub const ME_ONLY: u16 = 1 << 15;
    pub const PHASES: u16 = !(CS_ONLY | ME_ONLY);
    pub const ANY_BUT_FATAL: u16 = set(&[
        Instantiated,
        InitializationMode,
        StepComplete,
        StepFailed,
        Terminated,
        Error,
        EventMode,
        ContinuousTimeMode,
    ]);
    pub const INSTANTIATED: u16 = set(&[Instantiated]);
    pub const INITIALIZATION: u16 = set(&[InitializationMode]);
    pub const STEP_COMPLETE: u16 = set(&[StepComplete]) | CS_ONLY;
    pub const TERMINATE: u16 = set(&[StepComplete, StepFailed, EventMode, ContinuousTimeMode]);
    /// fmi2Reset: also the way out of the poisoned state after a panic.
    pub const RESET: u16 = ANY_BUT_FATAL | set(&[Fatal]);
    pub const DIRECTIONAL_DERIVATIVE: u16 =
        set(&[InitializationMode, StepComplete, StepFailed, Terminated, Error, EventMode, ContinuousTimeMode]);
    pub const INPUT_DERIVATIVES: u16 = set(&[Instantiated, InitializationMode, StepComplete]) | CS_ONLY;
    pub const OUTPUT_DERIVATIVES: u16 = set(&[StepComplete, StepFailed, Terminated, Error]) | CS_ONLY;
    pub const GET: u16 =
        set(&[InitializationMode, StepComplete, StepFailed, Terminated, Error, EventMode, ContinuousTimeMode]);
    pub const SET: u16 = set(&[Instantiated, InitializationMode, StepComplete, EventMode, ContinuousTimeMode]);
    pub const STATUS: u16 = set(&[StepComplete, StepFailed, Terminated]) | CS_ONLY;
    // Model Exchange (FMI 2.0, 3.2.3).
    pub const SET_TIME: u16 = set(&[EventMode, ContinuousTimeMode]) | ME_ONLY;
    pub const SET_STATES: u16 = set(&[ContinuousTimeMode]) | ME_ONLY;
    pub const GET_STATES: u16 = set(&[InitializationMode, EventMode, ContinuousTimeMode, Terminated, Error]) | ME_ONLY;
    pub const NOMINALS: u16 =
        set(&[Instantiated, InitializationMode, EventMode, ContinuousTimeMode, Terminated, Error]) | ME_ONLY;
    pub const ENTER_EVENT_MODE: u16 = set(&[EventMode, ContinuousTimeMode]) | ME_ONLY;
    pub const EVENT_MODE: u16 = set(&[EventMode]) | ME_ONLY;
    pub const CONTINUOUS_TIME_MODE: u16 = set(&[ContinuousTimeMode]) | ME_ONLY;
}

/// The interface an instance was instantiated for (`fmuType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    CoSimulation,
    ModelExchange,
}

/// What `fmi2NewDiscreteStates` reports (fmi2EventInfo).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventInfo {
    pub new_discrete_states_needed: bool,
    pub values_of_continuous_states_changed: bool,
}

/// Passes of an event iteration that still change the discrete state
/// before fmi2NewDiscreteStates gives up with fmi2Error (a contact logic that
/// cannot settle, e.g. one flipping between two modes).
pub const MAX_EVENT_ITERATIONS: u32 = 100;

/// Tag at the start of a live component, cleared when it is freed, so that a
/// stale or foreign pointer is refused instead of used (best effort).
pub const COMPONENT_MAGIC: u64 = 0x4652_4943_5449_4f4e; // "FRICTION"
const SNAPSHOT_MAGIC: u64 = 0x4652_4943_5354_4154; // "FRICSTAT"
/// Leading bytes and version of a serialized FMU state.
const SERIAL_MAGIC: &[u8; 8] = b"FRICFMU\x02";
const SERIAL_VERSION: u32 = 1;

/// A saved FMU state (`fmi2FMUstate` points at one of these).
pub struct Snapshot {
    magic: u64,
    phase: Phase,
    time: f64,
    start_time: f64,
    substeps: u64,
    stale: bool,
    model: Box<dyn Erased>,
}

/// Everything one instance holds. `fmi2Component` points at this.
#[repr(C)]
pub struct Component {
    pub magic: u64,
    pub log: Log,
    pub phase: Phase,
    guid: &'static str,
    start_time: f64,
    /// Time, stopTime and substeps taken.
    clock: Clock,
    /// A parameter or start value changed since `initialize`.
    stale: bool,
    model: Box<dyn Erased>,
    /// FMU states handed out by this instance and not yet freed.
    snapshots: Vec<*mut Snapshot>,
    pub interface: Interface,
    /// Model Exchange: states, inputs or time changed since the last evaluation.
    dirty: bool,
    /// Model Exchange: time of the last event or completed integrator step;
    /// fmi2SetTime may not go before it.
    committed_time: f64,
    /// Model Exchange: passes of the current event iteration.
    event_passes: u32,
}

type Outcome = Result<Status, String>;

impl Component {
    pub fn new(log: Log, guid: &'static str, model: Box<dyn Erased>, interface: Interface) -> Self {
        Self {
            magic: COMPONENT_MAGIC,
            log,
            phase: Phase::Instantiated,
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

    /// After a panic: fmi2Error (fmi2Fatal would condemn every instance of
    /// the FMU, FMI 2.0 2.1.3), and this instance accepts only fmi2Reset and
    /// fmi2FreeInstance from now on.
    pub fn poison(&mut self, function: &str, message: &str) -> Status {
        self.phase = Phase::Fatal;
        self.fail(function, Status::Error, message)
    }

    /// Run `body` if `function` is allowed in the current phase; turn an
    /// `Err(message)` into a logged fmi2Error that leaves the instance as it was.
    #[inline(always)]
    pub fn call(&mut self, function: &str, allowed: u16, body: impl FnOnce(&mut Self) -> Outcome) -> Status {
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
    fn foreign(&self) -> u16 {
        match self.interface {
            Interface::CoSimulation => allowed::ME_ONLY,
            Interface::ModelExchange => allowed::CS_ONLY,
        }
    }

    /// `function` called in a phase that does not allow it.
    #[cold]
    #[inline(never)]
    fn refuse(&mut self, function: &str, allowed: u16) -> Status {
        let message = if allowed & self.foreign() != 0 {
            match self.interface {
                Interface::CoSimulation => "not allowed: a Model Exchange function, and this instance was \
                    instantiated for Co-Simulation (fmuType fmi2CoSimulation)"
                    .to_string(),
                Interface::ModelExchange => "not allowed: a Co-Simulation function, and this instance was \
                    instantiated for Model Exchange (fmuType fmi2ModelExchange)"
                    .to_string(),
            }
        } else if self.phase == Phase::Fatal {
            "refused: the instance had an internal error; only fmi2Reset and fmi2FreeInstance are allowed".to_string()
        } else {
            format!("not allowed in state {}", self.phase.name())
        };
        self.fail(function, Status::Error, &message)
    }

    pub fn initialized(&self) -> bool {
        !matches!(self.phase, Phase::Instantiated | Phase::InitializationMode)
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

    /// Model Exchange: values for the current time, states and inputs, and
    /// before initialization for the current parameters.
    #[inline(always)]
    fn fresh(&mut self) -> Result<(), String> {
        self.refresh()?;
        if self.dirty && self.interface == Interface::ModelExchange {
            self.model.evaluate();
            self.dirty = false;
        }
        Ok(())
    }

    /// The whole event iteration at once (after initialization): the
    /// discrete state consistent with the states and inputs.
    fn settle(&mut self) -> Result<(), String> {
        for _ in 0..MAX_EVENT_ITERATIONS {
            self.model.evaluate();
            let (changed, _) = self.model.event(&self.log, self.clock.time);
            if !changed {
                self.model.evaluate();
                self.dirty = false;
                return Ok(());
            }
        }
        Err(format!("the initial discrete state did not settle in {MAX_EVENT_ITERATIONS} passes"))
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

    // ----- Model Exchange --------------------------------------------------

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

    pub fn get_event_indicators(&mut self, out: &mut [f64]) -> Outcome {
        self.fresh()?;
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
    /// None otherwise ([`Component::get_real`] then says why, or refreshes).
    #[inline(always)]
    pub fn get_one_real(&self, vr: u32) -> Option<f64> {
        if self.phase.bit() & allowed::GET != 0
            && !self.stale
            && !(self.dirty && self.interface == Interface::ModelExchange)
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

    pub fn set_input_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &[f64]) -> Outcome {
        self.model.set_input_derivatives(vrs, orders, values).map(|()| Status::Ok)
    }

    pub fn get_output_derivatives(&mut self, vrs: &[u32], orders: &[i32], out: &mut [f64]) -> Outcome {
        self.refresh()?;
        self.model.get_output_derivatives(vrs, orders, out).map(|()| Status::Ok)
    }

    pub fn check_string_vrs(&self, vrs: &[u32]) -> Outcome {
        self.model.check_string_vrs(vrs).map(|()| Status::Ok)
    }

    /// `fmi2DoStep`: integrate from our own time to `t + h`, the checks and
    /// the step in one call to the model (inlined into the export: one
    /// function entry and exit less per call).
    #[inline(always)]
    pub fn do_step(&mut self, t: f64, h: f64) -> Outcome {
        match self.model.do_step(&mut self.clock, &self.log, t, h) {
            Ok(()) => Ok(Status::Ok),
            Err(StepError::Refused) => Err(self.step_refused(t, h)),
            Err(StepError::Failed(what)) => Err(self.step_failed(t, h, &what)),
        }
    }

    /// The first rule of `fmi2DoStep`'s arguments that (t, h) breaks (the
    /// checks of `do_step` one by one).
    #[cold]
    #[inline(never)]
    fn step_refused(&self, t: f64, h: f64) -> String {
        let (end, t_shown, h_shown) = (number(t + h), number(t), number(h));
        let tolerance = 1e-9 * self.clock.time.abs().max(1.0);
        let max_substep = self.model.max_substep();
        let substeps = substep_count(h, max_substep);
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
                    "step from t = {t_shown} s to {end} s rejected: it passes stopTime = {} s set by \
                     fmi2SetupExperiment (stopTimeDefined = true)",
                    number(stop)
                );
            }
        }
        format!(
            "communicationStepSize = {h_shown} s rejected: it would take {substeps:e} internal steps of {} s \
             (limit {MAX_SUBSTEPS_PER_STEP:e}); use smaller communication steps or a larger internal step",
            number(max_substep)
        )
    }

    /// A step the model could not take: the model is back at t;
    /// fmi2LastSuccessfulTime stays t.
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

    // ----- FMU state -------------------------------------------------------
    //
    // The functions below take `fmi2FMUstate` pointers from the environment
    // and dereference one only after `owns` found it in this instance's list
    // of live states it created itself, hence safe functions
    // (clippy::not_unsafe_ptr_arg_deref allowed on each).

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            magic: SNAPSHOT_MAGIC,
            phase: self.phase,
            time: self.clock.time,
            start_time: self.start_time,
            substeps: self.clock.substeps,
            stale: self.stale,
            model: self.model.boxed_clone(),
        }
    }

    /// A call-sequence state only the other interface has.
    fn foreign_phase(&self, phase: Phase) -> bool {
        match self.interface {
            Interface::CoSimulation => matches!(phase, Phase::EventMode | Phase::ContinuousTimeMode),
            Interface::ModelExchange => matches!(phase, Phase::StepComplete | Phase::StepFailed),
        }
    }

    fn owns(&self, state: *mut Snapshot) -> bool {
        !state.is_null() && self.snapshots.contains(&state)
    }

    /// `fmi2GetFMUstate`: a new state, or overwrite `existing` if it is ours.
    #[allow(clippy::not_unsafe_ptr_arg_deref)]
    pub fn get_state(&mut self, existing: *mut Snapshot) -> Result<*mut Snapshot, String> {
        if existing.is_null() {
            let ptr = Box::into_raw(Box::new(self.snapshot()));
            self.snapshots.push(ptr);
            return Ok(ptr);
        }
        if !self.owns(existing) {
            return Err("*FMUstate is neither NULL nor a state of this instance".into());
        }
        // SAFETY: `existing` is one of our live snapshots.
        let s = unsafe { &mut *existing };
        s.phase = self.phase;
        s.time = self.clock.time;
        s.start_time = self.start_time;
        s.substeps = self.clock.substeps;
        s.stale = self.stale;
        if !s.model.assign(self.model.as_ref()) {
            s.model = self.model.boxed_clone();
        }
        Ok(existing)
    }

    #[allow(clippy::not_unsafe_ptr_arg_deref)]
    pub fn set_state(&mut self, state: *mut Snapshot) -> Outcome {
        if !self.owns(state) {
            return Err("FMUstate is not a live state of this instance".into());
        }
        // SAFETY: checked live and ours.
        let s = unsafe { &*state };
        let initialized = |p: Phase| !matches!(p, Phase::Instantiated | Phase::InitializationMode);
        if initialized(s.phase) != initialized(self.phase) && self.phase != Phase::Error {
            return Err(format!(
                "FMUstate was saved in state {} and cannot be restored in state {}: \
                 states from before initialization only restore before it, and after it only after it",
                s.phase.name(),
                self.phase.name()
            ));
        }
        if self.foreign_phase(s.phase) {
            return Err(format!(
                "FMUstate was saved in state {} of the other interface: this instance runs {:?}",
                s.phase.name(),
                self.interface
            ));
        }
        if s.magic != SNAPSHOT_MAGIC || !self.model.assign(s.model.as_ref()) {
            return Err("FMUstate belongs to another model".into());
        }
        // The call-sequence state stays (fmi2SetFMUstate has no transition),
        // except that a good state lifts an instance out of error/stepFailed.
        if matches!(self.phase, Phase::Error | Phase::StepFailed) {
            self.phase = match (initialized(s.phase), self.interface) {
                (false, _) => s.phase,
                (true, Interface::CoSimulation) => Phase::StepComplete,
                (true, Interface::ModelExchange) => Phase::EventMode,
            };
        }
        self.dirty = true;
        self.committed_time = s.time;
        self.event_passes = 0;
        self.clock.time = s.time;
        self.start_time = s.start_time;
        self.clock.substeps = s.substeps;
        self.stale = s.stale;
        Ok(Status::Ok)
    }

    #[allow(clippy::not_unsafe_ptr_arg_deref)]
    pub fn free_state(&mut self, state: *mut Snapshot) -> Outcome {
        if state.is_null() {
            return Ok(Status::Ok); // freeing NULL is a no-op, as free(NULL)
        }
        let Some(i) = self.snapshots.iter().position(|&p| p == state) else {
            return Err("FMUstate is not a live state of this instance (already freed?)".into());
        };
        self.snapshots.swap_remove(i);
        // SAFETY: created by Box::into_raw in get_state/deserialize, removed above.
        unsafe {
            (*state).magic = 0;
            drop(Box::from_raw(state));
        }
        Ok(Status::Ok)
    }

    /// Byte form of a state: magic, format version, GUID, framing, model.
    #[allow(clippy::not_unsafe_ptr_arg_deref)]
    pub fn serialize(&self, state: *mut Snapshot) -> Result<Vec<u8>, String> {
        if !self.owns(state) {
            return Err("FMUstate is not a live state of this instance".into());
        }
        // SAFETY: checked live and ours.
        let s = unsafe { &*state };
        let model = s.model.to_bytes();
        let mut out = Vec::with_capacity(64 + self.guid.len() + model.len());
        out.extend_from_slice(SERIAL_MAGIC);
        out.extend_from_slice(&SERIAL_VERSION.to_le_bytes());
        out.extend_from_slice(&(self.guid.len() as u32).to_le_bytes());
        out.extend_from_slice(self.guid.as_bytes());
        out.push(s.phase as u8);
        out.extend_from_slice(&s.time.to_le_bytes());
        out.extend_from_slice(&s.start_time.to_le_bytes());
        out.extend_from_slice(&s.substeps.to_le_bytes());
        out.push(s.stale as u8);
        out.extend_from_slice(&(model.len() as u32).to_le_bytes());
        out.extend_from_slice(&model);
        Ok(out)
    }

    /// Decode a serialized state into `existing` if it is one of ours (as
    /// fmi2GetFMUstate overwrites), else into a new state.
    #[allow(clippy::not_unsafe_ptr_arg_deref)]
    pub fn deserialize(&mut self, bytes: &[u8], existing: *mut Snapshot) -> Result<*mut Snapshot, String> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != SERIAL_MAGIC {
            return Err("not a serialized FMU state of this project (bad magic)".into());
        }
        let version = r.u32()?;
        if version != SERIAL_VERSION {
            return Err(format!("serialized FMU state has format version {version}, this FMU reads {SERIAL_VERSION}"));
        }
        let guid_len = r.u32()? as usize;
        let guid = r.take(guid_len)?;
        if guid != self.guid.as_bytes() {
            return Err(format!(
                "serialized FMU state is for GUID {}, this FMU is {}",
                String::from_utf8_lossy(guid),
                self.guid
            ));
        }
        let phase = Phase::from_u8(r.u8()?).ok_or("serialized FMU state has an invalid phase")?;
        let time = r.f64()?;
        let start_time = r.f64()?;
        let substeps = r.u64()?;
        let stale = match r.u8()? {
            0 => false,
            1 => true,
            _ => return Err("serialized FMU state has an invalid flag".into()),
        };
        let model_len = r.u32()? as usize;
        let model = self.model.decode(r.take(model_len)?)?;
        if r.at != bytes.len() {
            return Err(format!("{} trailing bytes after the serialized FMU state", bytes.len() - r.at));
        }
        if !time.is_finite() || !start_time.is_finite() || phase == Phase::Fatal {
            return Err("serialized FMU state holds a non-finite time or a fatal phase".into());
        }
        if self.foreign_phase(phase) {
            return Err(format!(
                "serialized FMU state was saved in state {} of the other interface: this instance runs {:?}",
                phase.name(),
                self.interface
            ));
        }
        model.check_finite().map_err(|e| format!("serialized FMU state is not finite: {e}"))?;
        model
            .check_all(self.interface == Interface::CoSimulation)
            .map_err(|e| format!("serialized FMU state breaks a rule: {e}"))?;
        let snapshot = Snapshot { magic: SNAPSHOT_MAGIC, phase, time, start_time, substeps, stale, model };
        if self.owns(existing) {
            // SAFETY: checked live and ours.
            unsafe { *existing = snapshot };
            return Ok(existing);
        }
        if !existing.is_null() {
            return Err("*FMUstate is neither NULL nor a state of this instance".into());
        }
        let ptr = Box::into_raw(Box::new(snapshot));
        self.snapshots.push(ptr);
        Ok(ptr)
    }
}

impl Drop for Component {
    fn drop(&mut self) {
        self.magic = 0;
        for &p in &self.snapshots {
            // SAFETY: every pointer in the list is a live Box we created.
            unsafe { drop(Box::from_raw(p)) };
        }
    }
}

/// Bounds-checked reading of a serialized state.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or_else(|| {
            format!("serialized FMU state is truncated: {} bytes, needed {} at offset {}", self.bytes.len(), n, self.at)
        })?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
}
