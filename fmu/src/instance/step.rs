//! Co-Simulation's step on the model side: the clock, the one substep
//! rule, the checks of a step's arguments, and the substep loop with
//! interpolated inputs, monomorphized per model so that it inlines the
//! model's own step.

#![forbid(unsafe_code)]

use super::access::{check_input_order, check_lengths, check_output_order, lookup};
use super::finite::{all_finite, first_non_finite, fixed_parameters_changed, non_finite};
use super::float_host::{holds_subnormal, subnormal, InHost};
use super::log::{self, Log, Status};
use super::model_box::ModelBox;
use crate::description::Value;
use crate::model::{Model, Transition};

/// The instance's time keeping, which a step checks and advances.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub time: f64,
    /// The experiment's `stopTime` when defined: no step may pass it.
    stop_time: Option<f64>,
    /// The last end a step may have: stopTime plus its round-off allowance,
    /// +inf without a stopTime (computed once, when stopTime is set).
    stop_limit: f64,
    /// Internal substeps taken since the start (part of the FMU state).
    pub substeps: u64,
}

impl Default for Clock {
    fn default() -> Self {
        Self { time: 0.0, stop_time: None, stop_limit: f64::INFINITY, substeps: 0 }
    }
}

impl Clock {
    pub fn stop_time(&self) -> Option<f64> {
        self.stop_time
    }

    /// FMI 2.0, 4.2.1: with stopTimeDefined, computing past stopTime is an
    /// error. The same relative round-off as for the start lets the last
    /// step of a grid summed in floating point land on it.
    pub fn set_stop_time(&mut self, stop_time: Option<f64>) {
        self.stop_time = stop_time;
        self.stop_limit = stop_time.map_or(f64::INFINITY, |stop| stop + 1e-9 * stop.abs().max(1.0));
    }

    /// Whether a step may end at `end` (false for NaN).
    pub fn within_stop(&self, end: f64) -> bool {
        end <= self.stop_limit
    }
}

/// Refuse a step that would take more substeps than this (a communication
/// step of 1e4 s at a 1 ms internal step is 1e7 substeps, well inside).
pub const MAX_SUBSTEPS_PER_STEP: f64 = 1e8;

/// Why [`Stepper::do_step`] took no step.
#[derive(Debug)]
pub enum StepError {
    /// (t, h) break a rule of a step's arguments; nothing changed (the
    /// component finds and words the rule, off the accepted path).
    Refused,
    /// The model could not take the step and is back where it was: why.
    Failed(String),
    /// A step in a flushing host's environment read or flushed a subnormal
    /// ([`super::FloatHost`]); the model is back where it was, for the step
    /// to be taken again in the default environment.
    Flushed,
}

/// How a step ended, for a binding that offers early return and event
/// mode (FMI 3.0); FMI 2.0's ignores it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepEnd {
    /// The time at which the step stopped short of `t + h`, at a
    /// transition: asked for with `early_return`, and only where the model
    /// can stop there (see [`Stepper::do_step`]).
    pub early: Option<f64>,
    /// A transition at the instant the step ended: where it stopped early,
    /// or one the model places at the end of its (sub)step.
    pub event: bool,
}

/// The model-side half of Co-Simulation.
pub trait Stepper {
    fn max_substep(&self) -> f64;
    /// The work a step of `h` asks, counted as substeps, and the time each
    /// stands for: the substeps of `max_substep`, or what a model that takes
    /// any step in one pass counts ([`Model::one_pass_work`]). A step of
    /// more than [`MAX_SUBSTEPS_PER_STEP`] is refused.
    fn step_work(&self, h: f64) -> (f64, f64);
    /// `DoStep` from `t` over `h` in one dynamic call, so that the checks
    /// and the model's step are compiled together per model: `t`, `h` and
    /// the end checked against `clock` ([`step_accepted`]), then
    /// [`substep_count`] equal substeps landing exactly on `t + h`, each
    /// transition logged in category `logEvents`, and `clock` advanced. If a
    /// Real variable ends non-finite, the model is put back as it was and the
    /// error names the variable.
    ///
    fn do_step(&mut self, clock: &mut Clock, log: &Log, t: f64, h: f64) -> Result<(), StepError>;
    /// [`Stepper::do_step`] in a flushing host's environment
    /// ([`super::FloatHost::Flushing`]; compiled apart, so that the step in
    /// the default environment carries none of it): refused with
    /// [`StepError::Flushed`] when `t` or `h`, or unless verified the model
    /// or the clock, holds a subnormal, and undone with it when the host
    /// says a result was flushed.
    fn do_step_in_host(&mut self, clock: &mut Clock, log: &Log, t: f64, h: f64, host: InHost) -> Result<(), StepError>;
    /// [`Stepper::do_step`] telling how the step ended (FMI 3.0; compiled
    /// apart, so that FMI 2.0's step carries none of it).
    ///
    /// With `early_return`, the step stops at its first transition inside
    /// it, where the model's [`Model::step_to_event`] (a model that
    /// substeps itself: [`Model::step_in_to_event`]) stops: at the instant
    /// the model locates, or at the end of the substep where it places it.
    /// A transition at the step's very start (from inputs set at the
    /// communication point) does not stop it.
    ///
    /// [`Model::step_to_event`]: crate::model::Model::step_to_event
    /// [`Model::step_in_to_event`]: crate::model::Model::step_in_to_event
    fn do_step_to_event(
        &mut self,
        clock: &mut Clock,
        log: &Log,
        t: f64,
        h: f64,
        early_return: bool,
        // In a flushing host's environment: as `do_step_in_host`.
        in_host: Option<InHost>,
    ) -> Result<StepEnd, StepError>;
    /// Event mode (FMI 3.0 Co-Simulation): the modes the next step would
    /// take at its start, applied now ([`Model::settle`]), each change
    /// logged at the instance's time; whether anything changed.
    ///
    /// [`Model::settle`]: crate::model::Model::settle
    fn settle(&mut self, log: &Log, time: f64) -> bool;
    /// `SetRealInputDerivatives`: first derivatives of declared inputs,
    /// used over the next step only; all checked before any is applied.
    fn set_input_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &[f64]) -> Result<(), String>;
    /// `GetRealOutputDerivatives`: first derivatives of declared outputs.
    fn get_output_derivatives(&self, vrs: &[u32], orders: &[i32], out: &mut [f64]) -> Result<(), String>;
}

/// Number of equal substeps of at most `max_substep` (up to rounding) that
/// cover `h`: the rule of [`friction::substep_count`], the one the models
/// that substep themselves are handed.
pub use friction::substep_count;

/// Every rule of a step's arguments at once, so that an accepted step
/// takes one branch (`Instance::step_refused` finds and words the
/// broken rule): `t`, `h` and `t + h` finite, `h > 0`, `t` where the last
/// step ended (within round-off), the end not past stopTime, and at most
/// [`MAX_SUBSTEPS_PER_STEP`] substeps.
#[inline(always)]
pub fn step_accepted(clock: &Clock, t: f64, h: f64, substeps: f64) -> bool {
    let tolerance = 1e-9 * clock.time.abs().max(1.0);
    let end = t + h;
    // Finiteness without a test of its own for t and h: t within the
    // tolerance of the (finite) clock time is finite (a NaN or infinite t
    // fails that comparison); then a finite end means a finite h. `end - end`
    // is 0 for a finite end and NaN otherwise.
    #[allow(clippy::eq_op)]
    let end_finite = end - end == 0.0;
    h > 0.0
        && (t - clock.time).abs() <= tolerance
        && end_finite
        && clock.within_stop(end)
        && substeps <= MAX_SUBSTEPS_PER_STEP
}

/// Whether a step of `model` from `t` over `h` reads a subnormal: in the
/// arguments, or unless `verified` in the model or the clock (see
/// [`super::FloatHost`]).
#[inline(always)]
fn reads_subnormal<M: Model>(model: &M, clock: &Clock, t: f64, h: f64, verified: bool) -> bool {
    subnormal(t) || subnormal(h) || (!verified && model_reads_subnormal(model, clock))
}

/// The model and the clock hold a subnormal (off the path of a verified step).
#[cold]
#[inline(never)]
fn model_reads_subnormal<M: Model>(model: &M, clock: &Clock) -> bool {
    subnormal(clock.time) || subnormal(clock.stop_limit) || holds_subnormal(model)
}

/// The work a step of `h` in `substeps` asks, counted as substeps: those,
/// or what a one-pass model counts ([`Model::one_pass_work`]).
#[inline(always)]
fn work<M: Model>(model: &M, h: f64, substeps: f64) -> f64 {
    model.one_pass_work(h).map_or(substeps, |(work, _)| work)
}

/// A substep count above 1 (checked <= MAX_SUBSTEPS_PER_STEP) as an integer,
/// off the path of the usual single substep.
#[cold]
#[inline(never)]
pub(super) fn several(substeps: f64) -> u64 {
    substeps as u64
}

/// A transition of the step from `start` to `end`, in category `logEvents`
/// (when it is on), at the instant the model located or else at `end`.
#[cold]
#[inline(never)]
pub(super) fn log_transition(log: &Log, identifier: &str, start: f64, end: f64, tr: Transition) {
    // At the instant the model located inside the step, else at its end.
    let time = tr.at.map_or(end, |at| start + at);
    log.emit(
        Status::Ok,
        log::EVENTS,
        &format!(
            "t = {} s: {identifier} {} {} -> {} ({})",
            crate::text::number(time),
            tr.what,
            tr.from,
            tr.to,
            tr.meaning
        ),
    );
}

/// The earliest instant after `start` at which an early return moves the
/// clock (`start + earliest(start) > start`): a step must progress.
#[inline]
fn earliest(start: f64) -> f64 {
    (start.abs() * f64::EPSILON).max(f64::MIN_POSITIVE)
}

/// Most interpolated inputs a model may declare (fixed-size bookkeeping,
/// so that `doStep` allocates nothing).
pub(super) const MAX_INTERPOLATED: usize = 8;

/// `a == b` in a constant expression.
pub(super) const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Value reference of each declared interpolated input, found by name at
/// compile time (an unknown name fails the build of that model).
pub(super) const fn interpolated_vrs<M: Model>() -> [usize; MAX_INTERPOLATED] {
    assert!(M::INPUT_DERIVATIVES.len() <= MAX_INTERPOLATED, "more interpolated inputs than MAX_INTERPOLATED");
    let mut vrs = [0; MAX_INTERPOLATED];
    let mut k = 0;
    while k < M::INPUT_DERIVATIVES.len() {
        let mut vr = 0;
        while !same_name(M::VARIABLES[vr].name, M::INPUT_DERIVATIVES[k].input) {
            vr += 1; // past the end: "index out of bounds", an unknown input name
        }
        vrs[k] = vr;
        k += 1;
    }
    vrs
}

impl<M: Model> ModelBox<M> {
    /// [`interpolated_vrs`] of `M`, computed once per model type.
    const INTERPOLATED_VRS: [usize; MAX_INTERPOLATED] = interpolated_vrs::<M>();

    fn set_input(&mut self, vr: usize, x: f64) {
        if let Value::Real { set: Some(set), .. } = M::VARIABLES[vr].value {
            set(&mut self.model, x);
        }
    }

    fn input(&self, vr: usize) -> f64 {
        match M::VARIABLES[vr].value {
            Value::Real { get, .. } => get(&self.model),
            _ => unreachable!("interpolated inputs are Real"),
        }
    }

    /// Integrate from `t0` over `h` in `substeps` equal substeps (see
    /// [`substep_count`]), landing exactly on `t0 + h`. If a Real variable
    /// ends non-finite, the model is put back as it was and the error names
    /// the variable.
    ///
    /// `EVENTS`: also tell how the step ended, stopping at its first
    /// transition if `early_return` ([`Stepper::do_step_to_event`]); without,
    /// none of that is compiled in.
    #[inline(always)]
    fn advance<const EVENTS: bool>(
        &mut self,
        t0: f64,
        h: f64,
        substeps: u64,
        early_return: bool,
        in_host: Option<InHost>,
        on_transition: &mut dyn FnMut(f64, f64, Transition),
    ) -> Result<(StepEnd, u64), StepError> {
        // A stack copy (the models hold plain numbers): restores the state if
        // the step fails, without allocating on the step path.
        let saved = self.model.clone();
        // Interpolated inputs: value and slope at the start of the step
        // (`n` is a constant of the model type: these loops unroll).
        let n = M::INPUT_DERIVATIVES.len();
        let mut value = [0.0; MAX_INTERPOLATED];
        let mut slope = [0.0; MAX_INTERPOLATED];
        for (k, d) in M::INPUT_DERIVATIVES.iter().enumerate() {
            value[k] = self.input(Self::INTERPOLATED_VRS[k]);
            slope[k] = (d.get)(&self.model);
        }
        let interpolating = slope[..n].iter().any(|&s| s != 0.0);
        let mut end = StepEnd::default();
        let mut taken = substeps;
        if M::SUBSTEPS_ITSELF && EVENTS && early_return {
            // A port: its own substeps, its drive end moving within them; it
            // stops at its first transition and says where.
            let at = self
                .model
                .step_in_to_event(h, substeps as usize, earliest(t0), &mut |tr| on_transition(t0, t0 + h, tr));
            if let Some(at) = at {
                end = StepEnd { early: (t0 + at < t0 + h).then_some(t0 + at), event: true };
                if end.early.is_some() {
                    // The substeps begun, for the count in the FMU state.
                    taken = ((at / h * substeps as f64).ceil() as u64).clamp(1, substeps);
                }
            }
        } else if M::SUBSTEPS_ITSELF {
            // A shaft port: its own substeps, its drive end moving within them;
            // a transition is reported over the whole step, at its end.
            self.model.step_in(h, substeps as usize, &mut |tr| {
                end.event |= EVENTS;
                on_transition(t0, t0 + h, tr)
            });
        } else if EVENTS && early_return {
            let dt = h / substeps as f64;
            for k in 1..substeps + 1 {
                if interpolating && k > 1 {
                    let offset = (k - 1) as f64 * dt;
                    for (i, &vr) in Self::INTERPOLATED_VRS[..n].iter().enumerate() {
                        self.set_input(vr, value[i] + slope[i] * offset);
                    }
                }
                let start = t0 + (k - 1) as f64 * dt;
                let t = if k == substeps { t0 + h } else { t0 + k as f64 * dt };
                let span = t - start;
                let stopped =
                    self.model.step_to_event(span, earliest(start), &mut |tr| on_transition(start, start + span, tr));
                // No transition inside: a mode the next substep would change
                // at its start changes here, at this instant.
                let stopped = stopped.or_else(|| self.model.settle(&mut |tr| on_transition(t, t, tr)).then_some(span));
                if let Some(at) = stopped {
                    end = StepEnd { early: (start + at < t0 + h).then_some(start + at), event: true };
                    if end.early.is_some() {
                        taken = k;
                        break;
                    }
                }
            }
        } else if substeps == 1 {
            // The usual case, without the loop's bookkeeping: the same `dt`
            // (`h / 1`) and time (`t0 + h`) as the loop's single pass.
            self.model.step(h, &mut |tr| {
                end.event |= EVENTS && tr.at.is_none();
                on_transition(t0, t0 + h, tr)
            });
        } else {
            let dt = h / substeps as f64;
            for k in 1..substeps + 1 {
                if interpolating && k > 1 {
                    let offset = (k - 1) as f64 * dt;
                    for (i, &vr) in Self::INTERPOLATED_VRS[..n].iter().enumerate() {
                        self.set_input(vr, value[i] + slope[i] * offset);
                    }
                }
                let start = t0 + (k - 1) as f64 * dt;
                let t = if k == substeps { t0 + h } else { t0 + k as f64 * dt };
                let last = k == substeps;
                self.model.step(dt, &mut |tr| {
                    end.event |= EVENTS && last && tr.at.is_none();
                    on_transition(start, t, tr)
                });
            }
        }
        if !all_finite(&self.model) {
            let error = match first_non_finite(&self.model) {
                Some(vr) => non_finite::<M>(&self.model, vr),
                None => "a Real variable became non-finite".into(), // all_finite and first_non_finite agree
            };
            self.model = saved;
            return Err(StepError::Failed(error));
        }
        if cfg!(debug_assertions) {
            if let Some(name) = fixed_parameters_changed(&saved, &self.model) {
                panic!("a step changed the fixed parameter {name}");
            }
        }
        // Last, so that it sees every result of the step (and the end time
        // the caller computed before).
        if in_host.is_some_and(|host| (host.underflowed)()) {
            self.model = saved;
            return Err(StepError::Flushed);
        }
        // The inputs keep the values the environment set (after an early
        // return, where the step left them: a port's drive end moved on);
        // their derivatives applied to this step only.
        for (k, d) in M::INPUT_DERIVATIVES.iter().enumerate() {
            if end.early.is_none() {
                self.set_input(Self::INTERPOLATED_VRS[k], value[k]);
            }
            (d.set)(&mut self.model, 0.0);
        }
        Ok((end, taken))
    }
}

impl<M: Model> ModelBox<M> {
    /// [`Stepper::do_step`], and with `in_host` [`Stepper::do_step_in_host`]:
    /// written once, compiled twice (`in_host` is a constant in each).
    #[inline(always)]
    fn take_step(
        &mut self,
        clock: &mut Clock,
        log: &Log,
        t: f64,
        h: f64,
        in_host: Option<InHost>,
    ) -> Result<(), StepError> {
        if in_host.is_some_and(|host| reads_subnormal(&self.model, clock, t, h, host.verified)) {
            return Err(StepError::Flushed);
        }
        let substeps = substep_count(h, self.model.max_substep());
        if !step_accepted(clock, t, h, work(&self.model, h, substeps)) {
            return Err(StepError::Refused);
        }
        let substeps = if substeps == 1.0 { 1 } else { several(substeps) };
        let events_on = log.enabled(log::EVENTS);
        // Computed before the check of `flushed`, in `advance`.
        let end = t + h;
        self.advance::<false>(t, h, substeps, false, in_host, &mut |start, end, tr| {
            if events_on {
                log_transition(log, M::IDENTIFIER, start, end, tr);
            }
        })?;
        clock.time = end;
        clock.substeps += substeps;
        Ok(())
    }
}

impl<M: Model> Stepper for ModelBox<M> {
    fn max_substep(&self) -> f64 {
        self.model.max_substep()
    }

    fn step_work(&self, h: f64) -> (f64, f64) {
        let max_substep = self.model.max_substep();
        self.model.one_pass_work(h).unwrap_or((substep_count(h, max_substep), max_substep))
    }

    fn do_step(&mut self, clock: &mut Clock, log: &Log, t: f64, h: f64) -> Result<(), StepError> {
        self.take_step(clock, log, t, h, None)
    }

    fn do_step_in_host(&mut self, clock: &mut Clock, log: &Log, t: f64, h: f64, host: InHost) -> Result<(), StepError> {
        self.take_step(clock, log, t, h, Some(host))
    }

    fn do_step_to_event(
        &mut self,
        clock: &mut Clock,
        log: &Log,
        t: f64,
        h: f64,
        early_return: bool,
        in_host: Option<InHost>,
    ) -> Result<StepEnd, StepError> {
        if in_host.is_some_and(|host| reads_subnormal(&self.model, clock, t, h, host.verified)) {
            return Err(StepError::Flushed);
        }
        let substeps = substep_count(h, self.model.max_substep());
        if !step_accepted(clock, t, h, work(&self.model, h, substeps)) {
            return Err(StepError::Refused);
        }
        let substeps = if substeps == 1.0 { 1 } else { several(substeps) };
        let events_on = log.enabled(log::EVENTS);
        let full = t + h;
        let (end, taken) = self.advance::<true>(t, h, substeps, early_return, in_host, &mut |start, end, tr| {
            if events_on {
                log_transition(log, M::IDENTIFIER, start, end, tr);
            }
        })?;
        clock.time = end.early.unwrap_or(full);
        clock.substeps += taken;
        Ok(end)
    }

    fn settle(&mut self, log: &Log, time: f64) -> bool {
        let events_on = log.enabled(log::EVENTS);
        self.model.settle(&mut |tr| {
            if events_on {
                log_transition(log, M::IDENTIFIER, time, time, tr);
            }
        })
    }

    fn set_input_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &[f64]) -> Result<(), String> {
        check_lengths(vrs.len(), values.len())?;
        check_lengths(vrs.len(), orders.len())?;
        for ((&vr, &order), &x) in vrs.iter().zip(orders).zip(values) {
            let v = lookup::<M>(vr)?;
            if !M::INPUT_DERIVATIVES.iter().any(|d| d.input == v.name) {
                return Err(if M::INPUT_DERIVATIVES.is_empty() {
                    format!(
                        "{} (value reference {vr}) rejected: this FMU holds its inputs over a step \
                         (canInterpolateInputs=\"false\")",
                        v.name
                    )
                } else {
                    let names: Vec<_> = M::INPUT_DERIVATIVES.iter().map(|d| d.input).collect();
                    format!(
                        "{} (value reference {vr}) rejected: not an input this FMU interpolates (those are: {})",
                        v.name,
                        names.join(", ")
                    )
                });
            }
            check_input_order(order, v.name)?;
            if !x.is_finite() {
                return Err(format!("derivative of {} = {x} rejected: must be finite", v.name));
            }
        }
        for (&vr, &x) in vrs.iter().zip(values) {
            let name = M::VARIABLES[crate::description::index_of(vr)].name;
            if let Some(d) = M::INPUT_DERIVATIVES.iter().find(|d| d.input == name) {
                (d.set)(&mut self.model, x);
            }
        }
        Ok(())
    }

    fn get_output_derivatives(&self, vrs: &[u32], orders: &[i32], out: &mut [f64]) -> Result<(), String> {
        check_lengths(vrs.len(), out.len())?;
        check_lengths(vrs.len(), orders.len())?;
        for ((&vr, &order), slot) in vrs.iter().zip(orders).zip(out.iter_mut()) {
            let v = lookup::<M>(vr)?;
            let Some(d) = M::OUTPUT_DERIVATIVES.iter().find(|d| d.output == v.name) else {
                let names: Vec<_> = M::OUTPUT_DERIVATIVES.iter().map(|d| d.output).collect();
                return Err(format!(
                    "{} (value reference {vr}) rejected: no derivative for it (outputs with derivatives: {})",
                    v.name,
                    if names.is_empty() {
                        "none, maxOutputDerivativeOrder=\"0\"".to_string()
                    } else {
                        names.join(", ")
                    }
                ));
            };
            check_output_order(order, v.name)?;
            *slot = (d.get)(&self.model);
        }
        Ok(())
    }
}
