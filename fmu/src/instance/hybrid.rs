//! Model Exchange on the model side: a model's hybrid form (`Model::HYBRID`)
//! as continuous states, derivatives, event indicators and the event
//! iteration.

#![forbid(unsafe_code)]

use super::finite::finite_bits;
use super::log::{self, Log};
use super::model_box::{ModelBox, MAX_HYBRID};
use super::step::log_transition;
use crate::description::Value;
use crate::model::Model;

/// The model-side half of Model Exchange (models with a `Model::HYBRID` form).
pub trait Hybrid {
    /// (continuous states, event indicators); None: Co-Simulation only.
    fn hybrid_sizes(&self) -> Option<(usize, usize)>;
    /// Derivatives and outputs for the current time, states and inputs.
    fn evaluate(&mut self);
    /// What `evaluate` left for Model Exchange's reads: the derivatives and
    /// the event indicators, as [`Hybrid::derivatives`] and
    /// [`Hybrid::event_indicators`] give them.
    fn fill(&self, into: &mut Evaluated);
    /// [`Hybrid::evaluate`], then [`Hybrid::fill`]: one dynamic call.
    fn evaluate_into(&mut self, into: &mut Evaluated) {
        self.evaluate();
        self.fill(into);
    }
    /// The variable of continuous state `i` (for messages).
    fn state_variable(&self, i: usize) -> &'static str;
    fn continuous_states(&self, out: &mut [f64]) -> Result<(), String>;
    /// All checked (count, finite) before any is stored.
    fn set_continuous_states(&mut self, x: &[f64]) -> Result<(), String>;
    /// [`Hybrid::set_continuous_states`] of states all stored as they are,
    /// as many as the model has, all finite (by their bits): stored, true;
    /// else nothing changes, false (the general path words why).
    fn set_plain_states(&mut self, x: &[f64]) -> bool;
    /// Every state's setter stores the value as it is ([`crate::model::State::plain`]):
    /// [`Hybrid::set_continuous_states`] then computes nothing.
    fn states_plain(&self) -> bool;
    /// The derivatives `evaluate` left; an error names a non-finite one.
    fn derivatives(&self, out: &mut [f64]) -> Result<(), String>;
    fn event_indicators(&self, out: &mut [f64]) -> Result<(), String>;
    fn nominals(&self, out: &mut [f64]) -> Result<(), String>;
    /// One pass of the event iteration at `time`, transitions logged:
    /// (the discrete state changed, a continuous state changed).
    fn event(&mut self, log: &Log, time: f64) -> (bool, bool);
    /// Whether an event would change the discrete state now: a mode the
    /// states and inputs no longer allow (an input that jumped past a
    /// threshold between the solver's steps, where no indicator could be
    /// seen crossing).
    fn event_pending(&self) -> bool;
}

pub(super) fn hybrid_states<M: Model>() -> &'static [crate::model::State<M>] {
    match &M::HYBRID {
        Some(h) => h.states,
        None => &[],
    }
}

/// The value of a continuous state, read through its variable's getter.
pub(super) fn state_value<M: Model>(model: &M, s: &crate::model::State<M>) -> f64 {
    match M::VARIABLES.iter().find(|v| v.name == s.variable).map(|v| &v.value) {
        Some(Value::Real { get, .. }) => get(model),
        _ => panic!("{}: continuous state {} is not a Real variable", M::IDENTIFIER, s.variable),
    }
}

/// An indicator that is exactly 0 reads as the smallest positive double:
/// zero counts as positive. A body at rest with nothing acting on it has
/// indicators that are 0 and stay 0 (its rate, a load of 0), and CVODE
/// deactivates such a root function and warns ("some root functions
/// identically 0") at every restart. A sign change is still seen where the
/// quantity turns negative, and from negative up to 0 (the smallest
/// positive double is a normal number: no host flushes it).
fn at_rest_not_zero(z: &mut [f64]) {
    for x in z.iter_mut().filter(|x| **x == 0.0) {
        *x = f64::MIN_POSITIVE;
    }
}

#[inline(always)]
pub(super) fn check_indicator_count(indicators: usize, given: usize) -> Result<(), String> {
    if indicators == given {
        return Ok(());
    }
    Err(indicator_count_refused(indicators, given))
}

#[cold]
fn indicator_count_refused(indicators: usize, given: usize) -> String {
    format!("ni = {given} rejected: this FMU has {indicators} event indicators (numberOfEventIndicators)")
}

#[cold]
pub(super) fn non_finite_indicator(i: usize, value: f64) -> String {
    format!("event indicator {i} = {value} is not finite at the current states and inputs")
}

/// What the last evaluation of an instance left for Model Exchange's reads
/// ([`Hybrid::fill`]): the reads copy it and test it by its bits, computing
/// nothing, so a binding runs them in the host's floating-point environment
/// while it is current. Inline, so that an instance allocates nothing more.
#[derive(Clone, Copy)]
pub struct Evaluated {
    pub derivatives: [f64; MAX_HYBRID],
    pub indicators: [f64; MAX_HYBRID],
    /// The model's numbers of continuous states and event indicators.
    pub states: usize,
    pub indicator_count: usize,
}

impl Evaluated {
    /// Nothing evaluated yet, for a model of `sizes` (states, indicators).
    pub fn new(sizes: Option<(usize, usize)>) -> Self {
        let (states, indicator_count) = sizes.unwrap_or((0, 0));
        Self { derivatives: [f64::NAN; MAX_HYBRID], indicators: [f64::NAN; MAX_HYBRID], states, indicator_count }
    }
}

#[inline(always)]
pub(super) fn check_state_count(states: usize, given: usize, what: &str) -> Result<(), String> {
    if states == given {
        return Ok(());
    }
    Err(state_count_refused(states, given, what))
}

#[cold]
fn state_count_refused(states: usize, given: usize, what: &str) -> String {
    format!("{what} has {given} elements rejected: this FMU has {states} continuous states (nx = {states})")
}

impl<M: Model> Hybrid for ModelBox<M> {
    fn hybrid_sizes(&self) -> Option<(usize, usize)> {
        M::HYBRID.as_ref().map(|h| (h.states.len(), h.indicators))
    }

    fn evaluate(&mut self) {
        if let Some(h) = &M::HYBRID {
            (h.evaluate)(&mut self.model);
        }
    }

    fn fill(&self, into: &mut Evaluated) {
        if let Some(h) = &M::HYBRID {
            for (slot, s) in into.derivatives.iter_mut().zip(h.states) {
                *slot = (s.derivative)(&self.model);
            }
            let z = &mut into.indicators[..h.indicators];
            (h.event_indicators)(&self.model, z);
            at_rest_not_zero(z);
        }
    }

    fn state_variable(&self, i: usize) -> &'static str {
        hybrid_states::<M>().get(i).map_or("?", |s| s.variable)
    }

    fn continuous_states(&self, out: &mut [f64]) -> Result<(), String> {
        let states = hybrid_states::<M>();
        check_state_count(states.len(), out.len(), "x")?;
        for (slot, s) in out.iter_mut().zip(states) {
            *slot = state_value(&self.model, s);
        }
        Ok(())
    }

    fn states_plain(&self) -> bool {
        hybrid_states::<M>().iter().all(|s| s.plain)
    }

    fn set_continuous_states(&mut self, x: &[f64]) -> Result<(), String> {
        let states = hybrid_states::<M>();
        check_state_count(states.len(), x.len(), "x")?;
        if let Some((value, s)) = x.iter().zip(states).find(|(&value, _)| !finite_bits(value)) {
            return Err(format!("state {} = {value} rejected: must be finite", s.variable));
        }
        for (&value, s) in x.iter().zip(states) {
            (s.set)(&mut self.model, value);
        }
        Ok(())
    }

    fn set_plain_states(&mut self, x: &[f64]) -> bool {
        let states = hybrid_states::<M>();
        if !states.iter().all(|s| s.plain) || x.len() != states.len() || !x.iter().all(|&value| finite_bits(value)) {
            return false;
        }
        for (&value, s) in x.iter().zip(states) {
            (s.set)(&mut self.model, value);
        }
        true
    }

    fn derivatives(&self, out: &mut [f64]) -> Result<(), String> {
        let states = hybrid_states::<M>();
        check_state_count(states.len(), out.len(), "derivatives")?;
        for (slot, s) in out.iter_mut().zip(states) {
            *slot = (s.derivative)(&self.model);
            if !slot.is_finite() {
                return Err(format!("der({}) = {} is not finite at the current states and inputs", s.variable, slot));
            }
        }
        Ok(())
    }

    fn event_indicators(&self, out: &mut [f64]) -> Result<(), String> {
        let Some(h) = &M::HYBRID else { return check_state_count(0, out.len(), "eventIndicators") };
        check_indicator_count(h.indicators, out.len())?;
        (h.event_indicators)(&self.model, out);
        at_rest_not_zero(out);
        match out.iter().position(|z| !z.is_finite()) {
            Some(i) => Err(non_finite_indicator(i, out[i])),
            None => Ok(()),
        }
    }

    fn nominals(&self, out: &mut [f64]) -> Result<(), String> {
        let states = hybrid_states::<M>();
        check_state_count(states.len(), out.len(), "x_nominal")?;
        for (slot, s) in out.iter_mut().zip(states) {
            *slot = s.nominal;
        }
        Ok(())
    }

    fn event_pending(&self) -> bool {
        let Some(h) = &M::HYBRID else { return false };
        let mut probe = self.model.clone();
        (h.evaluate)(&mut probe);
        (h.event)(&mut probe, &mut |_| {})
    }

    fn event(&mut self, log: &Log, time: f64) -> (bool, bool) {
        let Some(h) = &M::HYBRID else { return (false, false) };
        let before: Vec<u64> = h.states.iter().map(|s| state_value(&self.model, s).to_bits()).collect();
        let events_on = log.enabled(log::EVENTS);
        let changed = (h.event)(&mut self.model, &mut |tr| {
            if events_on {
                log_transition(log, M::IDENTIFIER, time, time, tr);
            }
        });
        let moved = h.states.iter().zip(before).any(|(s, b)| state_value(&self.model, s).to_bits() != b);
        (changed, moved)
    }
}
