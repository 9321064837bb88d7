//! The contract between a model and the FMI layer.

use crate::description::{ModelInfo, Variable};
use serde::{de::DeserializeOwned, Serialize};

/// A discrete change a model reports from a step, e.g. a stick/slip transition.
/// Formatted into a log message only when the `logEvents` category is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transition {
    /// What changed, e.g. `"mode"` or `"clutch 2"`.
    pub what: &'static str,
    pub from: i32,
    pub to: i32,
    /// Words for the new value, e.g. `"stuck"`.
    pub meaning: &'static str,
}

/// A model: declarations plus physics. All FMI bookkeeping (call order,
/// argument checks, time keeping, sub-stepping, state, logging) is done once
/// by the [`crate::fmi2`] layer for every model.
///
/// The struct itself holds every variable and every hidden state, so that a
/// clone is a complete FMU state and serde gives its serialized form.
pub trait Model: Clone + Default + Send + Serialize + DeserializeOwned + 'static {
    const INFO: ModelInfo;
    /// The variables; a variable's value reference is its index here.
    const VARIABLES: &'static [Variable<Self>];
    /// Inputs whose first time derivative (`fmi2SetRealInputDerivatives`)
    /// the model uses over the next step; non-empty means
    /// `canInterpolateInputs="true"`. Empty: inputs are held over a step.
    const INPUT_DERIVATIVES: &'static [InputDerivative<Self>] = &[];
    /// Outputs whose first time derivative the model gives
    /// (`fmi2GetRealOutputDerivatives`); non-empty means
    /// `maxOutputDerivativeOrder="1"`.
    const OUTPUT_DERIVATIVES: &'static [OutputDerivative<Self>] = &[];

    /// Longest internal integration step (s); `doStep` splits a
    /// communication step into equal substeps no longer than this, landing
    /// exactly on `t + h` (equal rather than a shortened last one, so that
    /// step-averaged outputs never come from a sliver step).
    fn max_substep(&self) -> f64;

    /// Rules across variables (e.g. static >= Coulomb friction), checked when
    /// leaving initialization mode. `Err` names the variables, values and rule.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }

    /// Called when the declared start values have just been applied (at
    /// instantiation and reset), before `initialize`: lets a model tell its
    /// own start values from values the environment sets later.
    fn after_start_values(&mut self) {}

    /// Derive the hidden state and the outputs from parameters and start
    /// values. Called whenever a parameter changed before the first step.
    fn initialize(&mut self);

    /// Advance by `dt` seconds (`0 < dt <= max_substep()`), inputs held
    /// constant; report each discrete transition to `on_transition`.
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition));
}

/// An input the model interpolates linearly over a step: during `doStep`
/// from `t0` the FMI layer sets the input to `u(t0) + slope*(t - t0)` at the
/// start of each substep and the model reads `slope` to integrate within
/// it; after the step the input is back at `u(t0)` and the slope at 0
/// (FMI 2.0, 4.2.1: derivatives hold for the next step only).
pub struct InputDerivative<M> {
    /// The input's name in `VARIABLES`.
    pub input: &'static str,
    pub get: fn(&M) -> f64,
    pub set: fn(&mut M, f64),
}

/// An output's first time derivative at the current time (the end of the
/// last step), consistent with the model's solution.
pub struct OutputDerivative<M> {
    /// The output's name in `VARIABLES`.
    pub output: &'static str,
    pub get: fn(&M) -> f64,
}

impl Transition {
    /// The transition of a body's `mode` (-1, 0, +1), if its motion changed.
    pub fn of_motion(before: friction::Motion, after: friction::Motion) -> Option<Self> {
        use friction::Motion::*;
        (before != after).then(|| Transition {
            what: "mode",
            from: before.as_i32(),
            to: after.as_i32(),
            meaning: match after {
                Stuck => "stuck",
                Forward => "sliding forward",
                Backward => "sliding backward",
            },
        })
    }
}

impl Transition {
    /// The transition of a clutch's `locked` flag, if it changed.
    pub fn of_lock(before: bool, after: bool) -> Option<Self> {
        (before != after).then_some(Transition {
            what: "locked",
            from: before as i32,
            to: after as i32,
            meaning: if after { "locked" } else { "slipping" },
        })
    }
}
