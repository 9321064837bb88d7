//! The call-sequence states an instance passes through, and sets of them:
//! a binding says, per function of its standard, in which states the
//! function may be called and which interface it belongs to.

#![forbid(unsafe_code)]

/// States of the call sequences: Co-Simulation (FMI 2.0, 4.2.4: instantiated,
/// initialization mode, step complete or failed; `stepCanceled` and
/// `stepInProgress` never occur, a step is synchronous) and Model Exchange
/// (3.2.3: event mode, continuous-time mode), plus the ends both share.
/// The names are FMI 2.0's; FMI 3.0 calls "step complete" Step Mode.
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

const ALL: [Phase; 9] = [
    Phase::Instantiated,
    Phase::InitializationMode,
    Phase::StepComplete,
    Phase::StepFailed,
    Phase::Terminated,
    Phase::Error,
    Phase::Fatal,
    Phase::EventMode,
    Phase::ContinuousTimeMode,
];

impl Phase {
    #[inline(always)]
    pub fn bit(self) -> u16 {
        1 << self as u16
    }

    pub fn from_u8(x: u8) -> Option<Self> {
        ALL.get(x as usize).copied()
    }

    pub fn name(self) -> &'static str {
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

    /// After initialization mode.
    pub fn initialized(self) -> bool {
        !matches!(self, Phase::Instantiated | Phase::InitializationMode)
    }
}

/// Where a function may be called: a set of phases as bits, and flags for
/// the interface it belongs to (a Co-Simulation function on a Model
/// Exchange instance is refused, and the reverse).
pub type Allowed = u16;

/// The set of `phases`.
pub const fn set(phases: &[Phase]) -> Allowed {
    let mut bits = 0;
    let mut i = 0;
    while i < phases.len() {
        bits |= 1 << phases[i] as u16;
        i += 1;
    }
    bits
}

/// What both standards allow in every state but the poisoned one after a
/// panic (logging, the FMU state, the refusals of what is not offered).
pub const ANY_BUT_FATAL: Allowed = set(&ALL) & !set(&[Phase::Fatal]);
/// Reset: also the way out of the poisoned state.
pub const RESET: Allowed = set(&ALL);
/// Only before initialization (setup, start values), or only during it.
pub const INSTANTIATED: Allowed = set(&[Phase::Instantiated]);
pub const INITIALIZATION: Allowed = set(&[Phase::InitializationMode]);

/// Flag: a Co-Simulation function only.
pub const CO_SIMULATION_ONLY: Allowed = 1 << 14;
/// Flag: a Model Exchange function only.
pub const MODEL_EXCHANGE_ONLY: Allowed = 1 << 15;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_round_trip_through_their_numbers_and_leave_the_flags_free() {
        for (i, p) in ALL.iter().enumerate() {
            assert_eq!(Phase::from_u8(i as u8), Some(*p));
            assert_eq!(p.bit() & (CO_SIMULATION_ONLY | MODEL_EXCHANGE_ONLY), 0);
        }
        assert_eq!(Phase::from_u8(ALL.len() as u8), None);
    }
}
