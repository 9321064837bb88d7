//! FMI 3.0's call-sequence rules for the functions the FMUs implement: per
//! function, the states in which it may be called and the interface it
//! belongs to (FMI 3.0, 3.2 (Model Exchange) and 4.2 (Co-Simulation), the
//! tables of allowed calls). The core's phases carry FMI 2.0's names: Step
//! Mode is `StepComplete`; Event Mode is both interfaces'. Configuration
//! mode and clocks are not offered, so their states never occur.

#![forbid(unsafe_code)]

use crate::instance::phase::{set, Allowed, Phase::*, CO_SIMULATION_ONLY, MODEL_EXCHANGE_ONLY};
pub use crate::instance::phase::{ANY_BUT_FATAL, INITIALIZATION, INSTANTIATED, RESET};

pub const TERMINATE: Allowed = set(&[StepComplete, EventMode, ContinuousTimeMode]);
/// Getters: also in Instantiated (start values; `variables` refuses the
/// calculated ones there) and after an error (FMI 3.0, 2.3: an fmi3Error
/// leaves the FMU terminated, where values may be read for debugging).
pub const GET: Allowed =
    set(&[Instantiated, InitializationMode, StepComplete, Terminated, Error, EventMode, ContinuousTimeMode]);
/// `fmi3GetFloat64`'s read of one plain field, answered as FMI 2.0's: not
/// in Instantiated, where only start values may be read and the general
/// path decides which.
pub const GET_ONE_PLAIN: Allowed = GET & !INSTANTIATED;
pub const SET: Allowed = set(&[Instantiated, InitializationMode, StepComplete, EventMode, ContinuousTimeMode]);
pub const FMU_STATE: Allowed = ANY_BUT_FATAL;
pub const DERIVATIVES: Allowed = set(&[InitializationMode, StepComplete, Terminated, EventMode, ContinuousTimeMode]);

// Co-Simulation.
pub const STEP_MODE: Allowed = set(&[StepComplete]) | CO_SIMULATION_ONLY;
/// fmi3EnterStepMode: out of Co-Simulation's event mode.
pub const ENTER_STEP_MODE: Allowed = set(&[EventMode]) | CO_SIMULATION_ONLY;
pub const OUTPUT_DERIVATIVES: Allowed = set(&[StepComplete, Terminated, Error]) | CO_SIMULATION_ONLY;

// Model Exchange.
pub const SET_TIME: Allowed = set(&[EventMode, ContinuousTimeMode]) | MODEL_EXCHANGE_ONLY;
pub const SET_STATES: Allowed = set(&[ContinuousTimeMode]) | MODEL_EXCHANGE_ONLY;
pub const GET_STATES: Allowed =
    set(&[InitializationMode, EventMode, ContinuousTimeMode, Terminated]) | MODEL_EXCHANGE_ONLY;
pub const COUNTS: Allowed = ANY_BUT_FATAL | MODEL_EXCHANGE_ONLY;
pub const NOMINALS: Allowed =
    set(&[InitializationMode, EventMode, ContinuousTimeMode, Terminated]) | MODEL_EXCHANGE_ONLY;
pub const ENTER_CONTINUOUS_TIME_MODE: Allowed = set(&[EventMode]) | MODEL_EXCHANGE_ONLY;

// Both: Model Exchange from continuous-time mode, Co-Simulation (with
// eventModeUsed) from step mode; the event iteration in event mode.
pub const ENTER_EVENT_MODE: Allowed = set(&[ContinuousTimeMode, StepComplete]);
pub const EVENT_MODE: Allowed = set(&[EventMode]);
pub const CONTINUOUS_TIME_MODE: Allowed = set(&[ContinuousTimeMode]) | MODEL_EXCHANGE_ONLY;
