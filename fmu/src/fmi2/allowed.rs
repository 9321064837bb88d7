//! FMI 2.0's call-sequence rules: per function, the states in which it may
//! be called and the interface it belongs to (FMI 2.0, 4.2.4 for
//! Co-Simulation, 3.2.3 for Model Exchange, as tables of allowed calls).

#![forbid(unsafe_code)]

use crate::instance::phase::{set, Allowed, Phase::*, CO_SIMULATION_ONLY, MODEL_EXCHANGE_ONLY};
pub use crate::instance::phase::{ANY_BUT_FATAL, INITIALIZATION, INSTANTIATED, RESET};

pub const TERMINATE: Allowed = set(&[StepComplete, StepFailed, EventMode, ContinuousTimeMode]);
pub const DIRECTIONAL_DERIVATIVE: Allowed =
    set(&[InitializationMode, StepComplete, StepFailed, Terminated, Error, EventMode, ContinuousTimeMode]);
pub const GET: Allowed =
    set(&[InitializationMode, StepComplete, StepFailed, Terminated, Error, EventMode, ContinuousTimeMode]);
pub const SET: Allowed = set(&[Instantiated, InitializationMode, StepComplete, EventMode, ContinuousTimeMode]);

// Co-Simulation.
pub const STEP_COMPLETE: Allowed = set(&[StepComplete]) | CO_SIMULATION_ONLY;
pub const INPUT_DERIVATIVES: Allowed = set(&[Instantiated, InitializationMode, StepComplete]) | CO_SIMULATION_ONLY;
pub const OUTPUT_DERIVATIVES: Allowed = set(&[StepComplete, StepFailed, Terminated, Error]) | CO_SIMULATION_ONLY;
pub const STATUS: Allowed = set(&[StepComplete, StepFailed, Terminated]) | CO_SIMULATION_ONLY;

// Model Exchange.
pub const SET_TIME: Allowed = set(&[EventMode, ContinuousTimeMode]) | MODEL_EXCHANGE_ONLY;
pub const SET_STATES: Allowed = set(&[ContinuousTimeMode]) | MODEL_EXCHANGE_ONLY;
pub const GET_STATES: Allowed =
    set(&[InitializationMode, EventMode, ContinuousTimeMode, Terminated, Error]) | MODEL_EXCHANGE_ONLY;
pub const NOMINALS: Allowed =
    set(&[Instantiated, InitializationMode, EventMode, ContinuousTimeMode, Terminated, Error]) | MODEL_EXCHANGE_ONLY;
pub const ENTER_EVENT_MODE: Allowed = set(&[EventMode, ContinuousTimeMode]) | MODEL_EXCHANGE_ONLY;
pub const EVENT_MODE: Allowed = set(&[EventMode]) | MODEL_EXCHANGE_ONLY;
pub const CONTINUOUS_TIME_MODE: Allowed = set(&[ContinuousTimeMode]) | MODEL_EXCHANGE_ONLY;
