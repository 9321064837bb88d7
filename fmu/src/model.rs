//! The contract between a model and the FMI layer.

#![forbid(unsafe_code)]

use crate::description::{ModelInfo, Variable};
use serde::{de::DeserializeOwned, Serialize};

/// A discrete change a model reports from a step, e.g. a stick/slip transition.
/// Formatted into a log message only when the `logEvents` category is on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transition {
    /// What changed, e.g. `"mode"` or `"clutch 2"`.
    pub what: &'static str,
    pub from: i32,
    pub to: i32,
    /// Words for the new value, e.g. `"stuck"`.
    pub meaning: &'static str,
    /// When it happened within the step it was reported from (s from the
    /// step's start), where the model locates it; `None`: at the step's end.
    /// The event log prints the instant.
    pub at: Option<f64>,
}

/// A model: declarations plus physics. All FMI bookkeeping (call order,
/// argument checks, time keeping, sub-stepping, state, logging) is done once
/// by the [`crate::fmi2`] layer for every model.
///
/// The struct itself holds every variable and every hidden state, so that a
/// clone is a complete FMU state and serde gives its serialized form.
pub trait Model: Clone + Default + Send + Serialize + DeserializeOwned + 'static {
    const INFO: ModelInfo;
    /// `INFO.identifier`, evaluated at compile time: the FMI layer names the
    /// model through this alone, so that a model's binary does not carry the
    /// rest of `INFO` (its page's texts, equations, sources and scenarios).
    const IDENTIFIER: &'static str = Self::INFO.identifier;
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
    /// The model as a hybrid system for Model Exchange; `None`: the FMU
    /// offers Co-Simulation only.
    const HYBRID: Option<Hybrid<Self>> = None;

    /// Longest internal integration step (s); `doStep` splits a
    /// communication step into equal substeps no longer than this, landing
    /// exactly on `t + h` (equal rather than a shortened last one, so that
    /// step-averaged outputs never come from a sliver step).
    fn max_substep(&self) -> f64;

    /// For a model that takes a step of any length in one exact pass whose
    /// work grows with the length (`HillFrictionShaftLoad`'s search for the
    /// load's stops): that work for a step of `h`, counted as substeps, and
    /// the time each stands for, so that the instance refuses a step of more
    /// than `MAX_SUBSTEPS_PER_STEP` of them as it does for a model that
    /// substeps. `None` (the default): the substeps of `max_substep`.
    #[inline(always)]
    fn one_pass_work(&self, h: f64) -> Option<(f64, f64)> {
        let _ = h;
        None
    }

    /// True for a model that takes its own internal steps inside one call
    /// of [`Model::step_in`]: a shaft port, whose drive end moves within the
    /// communication step. The instance then calls `step_in` once per
    /// communication step with the substep count it computed (and refuses a
    /// step that needs too many, as for every model).
    const SUBSTEPS_ITSELF: bool = false;

    /// Rules across variables (e.g. static >= Coulomb friction), checked when
    /// leaving initialization mode. `Err` names the variables, values and rule.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }

    /// Rules of Co-Simulation's internal step (stability bounds of the
    /// model's own integration), checked with [`Model::check`] in
    /// Co-Simulation instances only: in Model Exchange the importer's solver
    /// integrates and `internal_step` is not used.
    fn check_internal_step(&self) -> Result<(), String> {
        Ok(())
    }

    /// Rules of Model Exchange, checked with [`Model::check`] in Model
    /// Exchange instances only: a choice whose physics is a fixed-step
    /// algorithm has no continuous form there, and would tell another story
    /// than its Co-Simulation (one FMU, one physics).
    fn check_model_exchange(&self) -> Result<(), String> {
        Ok(())
    }

    /// Called when the declared start values have just been applied (at
    /// instantiation and reset), before `initialize`: lets a model tell its
    /// own start values from values the environment sets later.
    fn after_start_values(&mut self) {}

    /// Derive the hidden state and the outputs from parameters and start
    /// values. Called whenever a parameter changed before the first step.
    fn initialize(&mut self);

    /// Advance by one internal step of `dt` seconds (`0 < dt <=
    /// max_substep()`), inputs held constant; report each discrete
    /// transition to `on_transition`.
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition));

    /// For a model that `SUBSTEPS_ITSELF`: the whole communication step `h`
    /// in `substeps` equal internal steps, the count of
    /// [`friction::substep_count`] (the instance divides the step once).
    /// Otherwise unused; by default `substeps` calls of `step`.
    fn step_in(&mut self, h: f64, substeps: usize, on_transition: &mut dyn FnMut(Transition)) {
        let dt = h / substeps as f64;
        for _ in 0..substeps {
            self.step(dt, on_transition);
        }
    }

    /// Early return (FMI 3.0): [`Model::step`] that stops right after its
    /// first transition at or after `earliest` (> 0, the first instant that
    /// moves the clock) and before `dt`, in the state just after it, and says
    /// where it stopped: `Some(at)`, `at < dt` for such a stop, `at == dt`
    /// for a transition at the step's end; `None` for a step without one, or
    /// with one only at its very start (inputs just set), which is taken
    /// whole. Each transition kept is reported, located (`at`) where known.
    ///
    /// By default: the step is taken; if its first transition is located
    /// inside, the step is taken again from its start to that instant and
    /// kept if it reproduces the transition (what a stop to `w = 0.0`
    /// does). A model whose transition at `at` is a boundary that a step of
    /// exactly `at` does not cross (a lock that breaks when the torque
    /// reaches the capacity) stops inside its own step instead.
    fn step_to_event(&mut self, dt: f64, earliest: f64, on_transition: &mut dyn FnMut(Transition)) -> Option<f64> {
        let before = self.clone();
        let mut seen: [Option<Transition>; 8] = [None; 8];
        let mut count = 0;
        self.step(dt, &mut |tr| {
            if count < seen.len() {
                seen[count] = Some(tr);
            }
            count += 1;
        });
        let seen = &seen[..count.min(8)];
        let first = seen.first().copied().flatten()?;
        let report_all = |on: &mut dyn FnMut(Transition)| seen.iter().flatten().for_each(|&tr| on(tr));
        let at = match first.at {
            Some(at) if at >= earliest && at < dt => at,
            // At the step's end (where the model places it): stop here.
            None => {
                report_all(on_transition);
                return Some(dt);
            }
            Some(at) if at >= dt => {
                report_all(on_transition);
                return Some(dt);
            }
            // At the step's start (the inputs just set): step on.
            Some(_) => {
                report_all(on_transition);
                return None;
            }
        };
        let full = std::mem::replace(self, before);
        let mut again: Option<Transition> = None;
        let mut again_count = 0;
        self.step(at, &mut |tr| {
            again = Some(tr);
            again_count += 1;
        });
        let same = |a: &Transition, b: &Transition| (a.what, a.from, a.to) == (b.what, b.from, b.to);
        match again {
            Some(tr) if again_count == 1 && same(&tr, &first) => {
                on_transition(Transition { at: Some(at), ..tr });
                Some(at)
            }
            _ => {
                // The shorter step does not reach the transition (round-off
                // at its instant): keep the whole step, as without early return.
                *self = full;
                report_all(on_transition);
                None
            }
        }
    }

    /// The discrete modes the next step would take at its start, for the
    /// states and inputs now, applied now; each change reported. Called by
    /// Co-Simulation's early return between internal steps (a lock that the
    /// torques held from here break: the break is at this instant, and the
    /// step returns here) and at a step's end, and by its event mode (inputs
    /// set there act on the modes at once). Whether anything changed. By
    /// default nothing: a model whose modes change only inside its steps.
    fn settle(&mut self, on_transition: &mut dyn FnMut(Transition)) -> bool {
        let _ = on_transition;
        false
    }

    /// Early return for a model that `SUBSTEPS_ITSELF`: [`Model::step_in`]
    /// that stops right after its first transition at or after `earliest`,
    /// as [`Model::step_to_event`] says (`Some(at)`, `at <= h`). A model that
    /// stops short of `h` leaves its inputs where the step put them at `at`
    /// (a drive end that moved), so that a step from there without new
    /// inputs goes on as the old ones said. By default: the whole step,
    /// with any transition at its end.
    fn step_in_to_event(
        &mut self,
        h: f64,
        substeps: usize,
        earliest: f64,
        on_transition: &mut dyn FnMut(Transition),
    ) -> Option<f64> {
        let _ = earliest;
        let mut any = false;
        self.step_in(h, substeps, &mut |tr| {
            any = true;
            on_transition(tr)
        });
        any.then_some(h)
    }
}

/// Reports a step's change of mode (`transition`), if any, at the instant it
/// stopped (`taken` short of `dt`) or else at its end, and tells the
/// instance what [`Model::step_to_event`] says: the shared ending of the
/// models' own steps to an event. `event`: the instant of the step's first
/// event, if it knows it.
pub fn report_stop(
    transition: Option<Transition>,
    (event, taken): (Option<f64>, f64),
    dt: f64,
    earliest: f64,
    on_transition: &mut dyn FnMut(Transition),
) -> Option<f64> {
    let stopped = taken < dt;
    match transition {
        Some(t) => on_transition(t.at(stopped.then_some(taken))),
        None if !stopped => return None,
        None => {} // stopped at an event that changed no shown mode
    }
    stopped_at(event, taken, dt, earliest)
}

/// What a step that stops at its first event tells the instance (see
/// [`Model::step_to_event`]), from the step's event instant and the time it
/// took: where it stopped, or `dt` for a transition at its end; `None` for
/// one at its very start (before `earliest`).
pub fn stopped_at(event: Option<f64>, taken: f64, dt: f64, earliest: f64) -> Option<f64> {
    if taken < dt {
        Some(taken)
    } else if event.is_some_and(|at| at < earliest) {
        None
    } else {
        Some(dt)
    }
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
            at: None,
        })
    }
}

impl Transition {
    /// The same transition, located `at` seconds into its step (`None`
    /// leaves it at the step's end).
    pub fn at(self, at: Option<f64>) -> Self {
        Self { at: at.or(self.at), ..self }
    }

    /// The transition of a clutch's `locked` flag, if it changed.
    pub fn of_lock(before: bool, after: bool) -> Option<Self> {
        (before != after).then_some(Transition {
            what: "locked",
            from: before as i32,
            to: after as i32,
            meaning: if after { "locked" } else { "slipping" },
            at: None,
        })
    }
}

/// A model as a hybrid system, for FMI 2.0 Model Exchange: the importer's
/// solver integrates `states` with the derivatives `evaluate` gives, watches
/// the event indicators change sign, and calls `event` there. The model's
/// Co-Simulation step is untouched by it.
///
/// The contact logic follows Modelica's friction elements: a discrete mode
/// per contact (stuck, sliding forward, sliding backward) that changes only
/// at an event; while stuck the rate state is exactly 0.0 with derivative 0.0.
pub struct Hybrid<M: 'static> {
    /// The continuous states, in the order of the state vector.
    pub states: &'static [State<M>],
    /// Number of event indicators (`numberOfEventIndicators`).
    pub indicators: usize,
    /// From time, states, inputs and the discrete mode: every state's
    /// derivative and every output (stored in the model for the getters).
    pub evaluate: fn(&mut M),
    /// The event indicators for the values `evaluate` left; an event is a
    /// sign change of one of them.
    pub event_indicators: fn(&M, &mut [f64]),
    /// At an event (and after initialization): the discrete mode that holds
    /// for the current states and inputs, a state set where the physics jumps
    /// (a rate to exactly 0.0 at a stop). True when something changed: the
    /// importer then asks again, until nothing changes.
    pub event: fn(&mut M, &mut dyn FnMut(Transition)) -> bool,
}

/// One continuous state: a Real variable of the model the solver integrates.
pub struct State<M> {
    /// The variable's name in `VARIABLES`.
    pub variable: &'static str,
    /// Stores a value the solver sets.
    pub set: fn(&mut M, f64),
    /// The state's time derivative, as `evaluate` left it.
    pub derivative: fn(&M) -> f64,
    /// A typical magnitude (fmi2GetNominalsOfContinuousStates): a solver's
    /// absolute tolerance is its relative tolerance times this.
    pub nominal: f64,
    /// `set` stores the value in a field as it is, computing nothing (so a
    /// binding may set the states in the host's floating-point environment).
    pub plain: bool,
}

/// A model's continuous states, one line each (a long one continues on a
/// second line, indented by four; rustfmt leaves the brace macro alone):
/// `state(variable, set, derivative)`, and a fourth argument, the nominal,
/// where it is not 1. Expands to `&[State; N]`. What a derivative depends
/// on is measured, not declared ([`crate::dependencies`]).
///
/// ```text
/// states: states! {
///     state("phi1", |m, x| m.two_mut().clutch.angle1 = x, |m| m.two().clutch.rate1),
///     state("tau_friction", |m, x| m.body.law.torque = 0.0 - x, |m| m.body.law.torque_rate(m.body.rate), 0.01),
/// },
/// ```
///
/// A setter written as a field path given the value as it is (`|m, x|
/// m.body.rate = x`) is `plain` ([`State::plain`]); any other (a method on
/// the way, arithmetic on the value) is not.
macro_rules! states {
    ($(state($($args:tt)*)),* $(,)?) => {
        &[$($crate::model::states!(@state $($args)*)),*]
    };
    (@state $variable:expr, |$m:ident, $x:ident| $root:ident $(. $field:ident)+ = $value:ident,
        $derivative:expr $(, $nominal:expr)? $(,)?) => {
        $crate::model::State::plain(
            $variable, |$m, $x| $root $(. $field)+ = $value, $derivative, $crate::model::states!(@nominal $($nominal)?)
        )
    };
    (@state $variable:expr, $set:expr, $derivative:expr $(, $nominal:expr)? $(,)?) => {
        $crate::model::State::with_nominal(
            $variable, $set, $derivative, $crate::model::states!(@nominal $($nominal)?)
        )
    };
    (@nominal) => { 1.0 };
    (@nominal $nominal:expr) => { $nominal };
}
pub(crate) use states;

impl<M> State<M> {
    /// The state `variable`, stored by `set`, with its `derivative`; nominal 1.
    pub const fn new(variable: &'static str, set: fn(&mut M, f64), derivative: fn(&M) -> f64) -> Self {
        Self { variable, set, derivative, nominal: 1.0, plain: false }
    }

    /// As [`State::new`], with a typical magnitude other than 1.
    pub const fn with_nominal(
        variable: &'static str,
        set: fn(&mut M, f64),
        derivative: fn(&M) -> f64,
        nominal: f64,
    ) -> Self {
        Self { variable, set, derivative, nominal, plain: false }
    }

    /// As [`State::with_nominal`], for a `set` that stores the value as it
    /// is (the field [`State::plain`]).
    pub const fn plain(variable: &'static str, set: fn(&mut M, f64), derivative: fn(&M) -> f64, nominal: f64) -> Self {
        Self { variable, set, derivative, nominal, plain: true }
    }
}

/// Where the value references lie for one model, in both standards: the
/// declared variables, the states' derivatives, then (FMI 3.0 only, where
/// they are variables) the event indicators and `time`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Declared variables: value references 1 to `variables`.
    pub variables: usize,
    /// Continuous states (Model Exchange): their derivatives follow.
    pub states: usize,
    /// Event indicators (Model Exchange): they follow the derivatives.
    pub indicators: usize,
}

impl Layout {
    pub fn of<M: Model>() -> Self {
        let (states, indicators) = M::HYBRID.as_ref().map_or((0, 0), |h| (h.states.len(), h.indicators));
        Layout { variables: M::VARIABLES.len(), states, indicators }
    }

    /// Declared variable `k` (0-based), as in FMI 2.0.
    pub fn variable(&self, k: usize) -> u32 {
        crate::description::value_reference(k)
    }

    /// `der(x_k)`, as in FMI 2.0.
    pub fn derivative(&self, k: usize) -> u32 {
        crate::description::value_reference(self.variables + k)
    }

    /// Event indicator `k` (0-based).
    pub fn indicator(&self, k: usize) -> u32 {
        (self.variables + self.states + k) as u32 + 1
    }

    /// The independent variable `time`, last.
    pub fn time(&self) -> u32 {
        (self.variables + self.states + self.indicators) as u32 + 1
    }

    /// Whether `vr` is a declared variable or a derivative: the core's, as
    /// FMI 2.0's (the same numbers in both standards).
    pub fn is_core(&self, vr: u32) -> bool {
        crate::description::index_of(vr) < self.variables + self.states
    }

    /// Which event indicator `vr` is, if one.
    pub fn indicator_of(&self, vr: u32) -> Option<usize> {
        let k = vr.checked_sub(self.indicator(0))? as usize;
        (k < self.indicators).then_some(k)
    }

    /// Name of event indicator `k` (0-based) in the model description.
    pub fn indicator_name(k: usize) -> String {
        format!("event_indicator_{}", k + 1)
    }
}
