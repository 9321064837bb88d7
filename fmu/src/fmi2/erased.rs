//! The per-model half of an instance, behind one object-safe trait so the C
//! functions are written once for every model. The generic implementation
//! is monomorphized per model, so the sub-step loop inlines the model's step.

use super::log::{self, Log};
use super::types::Status;
use crate::description::{Causality, Value, Variability, Variable};
use crate::model::{Model, Transition};
use std::any::Any;

/// The instance's time keeping, which `fmi2DoStep` checks and advances.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub time: f64,
    /// `stopTime` of fmi2SetupExperiment when defined: no step may pass it.
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

/// Why [`Erased::do_step`] took no step.
#[derive(Debug)]
pub enum StepError {
    /// (t, h) break a rule of fmi2DoStep's arguments; nothing changed (the
    /// component finds and words the rule, off the accepted path).
    Refused,
    /// The model could not take the step and is back where it was: why.
    Failed(String),
}

/// Everything the FMI layer asks of a model instance.
pub trait Erased: Send {
    fn variable_name(&self, vr: u32) -> Option<&'static str>;
    fn set_real(&mut self, vrs: &[u32], values: &[f64], initialized: bool) -> Result<(), String>;
    fn set_integer(&mut self, vrs: &[u32], values: &[i32], initialized: bool) -> Result<(), String>;
    fn set_boolean(&mut self, vrs: &[u32], values: &[bool], initialized: bool) -> Result<(), String>;
    fn get_real(&self, vrs: &[u32], out: &mut [f64]) -> Result<(), String>;
    fn get_integer(&self, vrs: &[u32], out: &mut [i32]) -> Result<(), String>;
    fn get_boolean(&self, vrs: &[u32], out: &mut [bool]) -> Result<(), String>;
    /// Reject any string access: no model declares String variables.
    fn check_string_vrs(&self, vrs: &[u32]) -> Result<(), String>;
    /// `fmi2SetRealInputDerivatives`: first derivatives of declared inputs,
    /// used over the next step only; all checked before any is applied.
    fn set_input_derivatives(&mut self, vrs: &[u32], orders: &[i32], values: &[f64]) -> Result<(), String>;
    /// `fmi2GetRealOutputDerivatives`: first derivatives of declared outputs.
    fn get_output_derivatives(&self, vrs: &[u32], orders: &[i32], out: &mut [f64]) -> Result<(), String>;
    /// The model's rules, and in Co-Simulation its internal step's
    /// ([`Model::check_internal_step`]).
    fn check(&self, co_simulation: bool) -> Result<(), String>;
    fn initialize(&mut self);
    fn max_substep(&self) -> f64;
    /// `fmi2DoStep` from `t` over `h` in one dynamic call, so that the checks
    /// and the model's step are compiled together per model: `t`, `h` and
    /// the end checked against `clock` ([`step_accepted`]), then
    /// [`substep_count`] equal substeps landing exactly on `t + h`, each
    /// transition logged in category `logEvents`, and `clock` advanced. If a
    /// Real variable ends non-finite, the model is put back as it was and the
    /// error names the variable.
    fn do_step(&mut self, clock: &mut Clock, log: &Log, t: f64, h: f64) -> Result<(), StepError>;
    /// `fmi2GetReal` of one value when `vr` is a Real variable: the call's
    /// usual form, answered without building a `Result` (None: use
    /// [`Erased::get_real`], which words the refusal).
    fn get_one_real(&self, vr: u32) -> Option<f64>;
    /// First Real variable whose value is not finite, as an error message.
    fn check_finite(&self) -> Result<(), String>;
    /// Every input and parameter within its declared range, and the model's
    /// own rules: for states that come from outside (deserialization).
    fn check_all(&self, co_simulation: bool) -> Result<(), String>;
    fn reset_to_start(&mut self);
    fn boxed_clone(&self) -> Box<dyn Erased>;
    /// Copy `other` into `self`; false if it is another model type.
    fn assign(&mut self, other: &dyn Erased) -> bool;
    fn to_bytes(&self) -> Vec<u8>;
    fn decode(&self, bytes: &[u8]) -> Result<Box<dyn Erased>, String>;
    fn as_any(&self) -> &dyn Any;

    // ----- Model Exchange (models with a `Model::HYBRID` form) -------------
    /// (continuous states, event indicators); None: Co-Simulation only.
    fn hybrid_sizes(&self) -> Option<(usize, usize)>;
    /// Derivatives and outputs for the current time, states and inputs.
    fn evaluate(&mut self);
    fn continuous_states(&self, out: &mut [f64]) -> Result<(), String>;
    /// All checked (count, finite) before any is stored.
    fn set_continuous_states(&mut self, x: &[f64]) -> Result<(), String>;
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

/// Number of equal substeps of at most `max_substep` (up to rounding) that
/// cover `h`: the substep is `h / n`, so no sliver substep ever occurs and
/// the averaged outputs do not depend on how the grid falls.
#[inline(always)]
pub fn substep_count(h: f64, max_substep: f64) -> f64 {
    // A step no longer than the internal step (the usual case) is one
    // substep, told without the division: h <= max_substep gives
    // h / max_substep <= 1 (division rounds monotonically), so the ratio
    // below is under 1 and the answer the same.
    if h <= max_substep {
        return 1.0;
    }
    // 1e-9: a step that exceeds a multiple of max_substep only by rounding
    // does not get an extra substep.
    let ratio = h / max_substep - 1e-9;
    // One substep (the usual case) without calling `ceil`; a NaN ratio too,
    // as `NaN.ceil().max(1.0)` is 1.
    if ratio > 1.0 {
        ratio.ceil()
    } else {
        1.0
    }
}

/// Every rule of `fmi2DoStep`'s arguments at once, so that an accepted
/// step takes one branch (`Component::step_refused` finds and words the
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

/// A substep count above 1 (checked <= MAX_SUBSTEPS_PER_STEP) as an integer,
/// off the path of the usual single substep.
#[cold]
#[inline(never)]
fn several(substeps: f64) -> u64 {
    substeps as u64
}

/// A transition at `time`, in category `logEvents` (when it is on).
#[cold]
#[inline(never)]
fn log_transition(log: &Log, identifier: &str, time: f64, tr: Transition) {
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

/// A model and its start values.
#[derive(Clone)]
pub struct ModelBox<M: Model> {
    pub model: M,
}

impl<M: Model> ModelBox<M> {
    pub fn new() -> Self {
        Self { model: start_values::<M>() }
    }
}

impl<M: Model> Default for ModelBox<M> {
    fn default() -> Self {
        Self::new()
    }
}

/// `M` with every input and parameter at its declared start value, initialized.
pub fn start_values<M: Model>() -> M {
    let mut m = M::default();
    for v in M::VARIABLES {
        match v.value {
            Value::Real { start, set: Some(set), .. } => set(&mut m, start),
            Value::Integer { start, set: Some(set), .. } => set(&mut m, start),
            Value::Boolean { start, set: Some(set), .. } => set(&mut m, start),
            _ => {}
        }
    }
    m.after_start_values();
    m.initialize();
    m
}

fn lookup<M>(vr: u32) -> Result<&'static Variable<M>, String>
where
    M: Model,
{
    M::VARIABLES.get(vr as usize).ok_or_else(|| {
        format!(
            "value reference {vr} does not exist in {} (valid: 0..={})",
            M::INFO.identifier,
            M::VARIABLES.len().saturating_sub(1)
        )
    })
}

fn wrong_type<M>(v: &Variable<M>, vr: u32, wanted: &str) -> String {
    format!("{} (value reference {vr}) is a {}, not a {wanted}", v.name, v.type_name())
}

fn not_settable<M>(v: &Variable<M>, initialized: bool) -> String {
    let when = if initialized { "after initialization" } else { "now" };
    let rule = match v.causality {
        crate::description::Causality::Output => "outputs are computed by the FMU and cannot be set",
        _ => "fixed parameters can be set only before fmi2ExitInitializationMode",
    };
    format!("{} cannot be set {when}: {rule}", v.name)
}

#[inline(always)]
fn check_lengths(vrs: usize, values: usize) -> Result<(), String> {
    if vrs == values {
        Ok(())
    } else {
        Err(lengths_differ(vrs, values))
    }
}

#[cold]
#[inline(never)]
fn lengths_differ(vrs: usize, values: usize) -> String {
    format!("{vrs} value references but {values} values")
}

/// Validate a Real against its declared range.
fn check_real<M>(v: &Variable<M>, x: f64) -> Result<(), String> {
    let Value::Real { quantity, min, exclusive_min, max, .. } = v.value else {
        unreachable!("check_real on a non-Real variable")
    };
    let unit = quantity.unit();
    if !x.is_finite() {
        return Err(format!("{} = {x} rejected: must be finite", v.name));
    }
    let shown = |x: f64| crate::text::with_unit(x, unit);
    if let Some(min) = min {
        if x < min || (exclusive_min && x == min) {
            let op = if exclusive_min { ">" } else { ">=" };
            return Err(format!("{} = {} rejected: must be {op} {}", v.name, shown(x), shown(min)));
        }
    }
    if let Some(max) = max {
        if x > max {
            return Err(format!("{} = {} rejected: must be <= {}", v.name, shown(x), shown(max)));
        }
    }
    Ok(())
}

/// Validates every (vr, value) pair before applying any, so that a rejected
/// call changes nothing.
macro_rules! set_values {
    ($self:ident, $vrs:ident, $values:ident, $initialized:ident, $variant:ident, $type_name:literal, $check:expr) => {{
        check_lengths($vrs.len(), $values.len())?;
        for (&vr, &x) in $vrs.iter().zip($values) {
            let v = lookup::<M>(vr)?;
            let Value::$variant { set: Some(_), .. } = v.value else {
                return Err(match v.value {
                    Value::$variant { .. } => not_settable(v, $initialized),
                    _ => wrong_type(v, vr, $type_name),
                });
            };
            if !v.settable($initialized) {
                return Err(not_settable(v, $initialized));
            }
            $check(v, x)?;
        }
        for (&vr, &x) in $vrs.iter().zip($values) {
            if let Value::$variant { set: Some(set), .. } = M::VARIABLES[vr as usize].value {
                set(&mut $self.model, x);
            }
        }
        Ok(())
    }};
}

macro_rules! get_values {
    ($self:ident, $vrs:ident, $out:ident, $variant:ident, $type_name:literal) => {{
        check_lengths($vrs.len(), $out.len())?;
        for (&vr, slot) in $vrs.iter().zip($out.iter_mut()) {
            let Some(Value::$variant { get, .. }) = M::VARIABLES.get(vr as usize).map(|v| &v.value) else {
                return Err(cannot_get::<M>(vr, $type_name));
            };
            *slot = get(&$self.model);
        }
        Ok(())
    }};
}

/// Why a get of `vr` as `type_name` is refused (no such variable, or
/// another type), out of the getters' fast path.
#[cold]
#[inline(never)]
fn cannot_get<M: Model>(vr: u32, type_name: &str) -> String {
    match lookup::<M>(vr) {
        Ok(v) => wrong_type(v, vr, type_name),
        Err(e) => e,
    }
}

fn check_integer<M>(v: &Variable<M>, x: i32) -> Result<(), String> {
    if let Value::Integer { choices: Some(e), .. } = v.value {
        if e.item(x).is_none() {
            return Err(format!("{} = {x} rejected: must be one of {} ({})", v.name, e.listing(), e.name));
        }
    }
    if let Value::Integer { min, max, .. } = v.value {
        if min.is_some_and(|m| x < m) || max.is_some_and(|m| x > m) {
            return Err(format!("{} = {x} rejected: must be within [{min:?}, {max:?}]", v.name));
        }
    }
    Ok(())
}

/// Value reference of the first Real variable of `model` that is not finite.
///
/// Checked after every step, so written out per index: `M::VARIABLES` is a
/// constant, hence for each index the variable's type and getter are known
/// when this is compiled, and each check becomes a direct read of the field
/// (no loop over the declarations, no call through a function pointer).
#[inline(always)]
fn first_non_finite<M: Model>(model: &M) -> Option<usize> {
    macro_rules! check {
        ($($i:literal)*) => {$(
            if $i < M::VARIABLES.len() {
                if let Value::Real { get, .. } = M::VARIABLES[$i].value {
                    if !get(model).is_finite() {
                        return Some($i);
                    }
                }
            }
        )*};
    }
    check!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
           32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
    const UNROLLED: usize = 64;
    if M::VARIABLES.len() <= UNROLLED {
        return None;
    }
    M::VARIABLES.iter().enumerate().skip(UNROLLED).find_map(|(i, v)| match v.value {
        Value::Real { get, .. } if !get(model).is_finite() => Some(i),
        _ => None,
    })
}

/// True when every Real variable of `model` is finite: `x - x` is 0 for a
/// finite `x` and NaN otherwise, so the sum of them all is 0 exactly when
/// [`first_non_finite`] would find none, with one branch instead of one per
/// variable (written out per index as there).
#[inline(always)]
#[allow(clippy::eq_op)]
fn all_finite<M: Model>(model: &M) -> bool {
    let mut residue = 0.0;
    macro_rules! add {
        ($($i:literal)*) => {$(
            if $i < M::VARIABLES.len() && !fixed_parameter(&M::VARIABLES[$i]) {
                if let Value::Real { get, .. } = M::VARIABLES[$i].value {
                    let x = get(model);
                    residue += x - x;
                }
            }
        )*};
    }
    add!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
         32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
    const UNROLLED: usize = 64;
    residue == 0.0 && (M::VARIABLES.len() <= UNROLLED || first_non_finite(model).is_none())
}

/// A parameter fixed after initialization: checked finite when set, and
/// only read by a step (checked after every step in debug builds, hence by
/// every test that steps a model in-process: [`fixed_parameters_changed`]).
const fn fixed_parameter<M>(v: &Variable<M>) -> bool {
    matches!(v.causality, Causality::Parameter) && matches!(v.variability, Variability::Fixed)
}

/// Name of the first fixed Real parameter whose bits differ between `before`
/// and `after` (debug builds: the step must leave them alone for
/// [`all_finite`] to skip them).
fn fixed_parameters_changed<M: Model>(before: &M, after: &M) -> Option<&'static str> {
    M::VARIABLES.iter().find_map(|v| match v.value {
        Value::Real { get, .. } if fixed_parameter(v) && get(before).to_bits() != get(after).to_bits() => Some(v.name),
        _ => None,
    })
}

/// `get_real`'s general case, out of line; value references past the
/// declared variables are the derivatives of the continuous states (see
/// [`derivative_value`]).
#[inline(never)]
fn get_reals<M: Model>(model: &ModelBox<M>, vrs: &[u32], out: &mut [f64]) -> Result<(), String> {
    if vrs.iter().any(|&vr| vr as usize >= M::VARIABLES.len()) {
        check_lengths(vrs.len(), out.len())?;
        for (&vr, slot) in vrs.iter().zip(out.iter_mut()) {
            *slot = match derivative_value(&model.model, vr) {
                Some(x) => x,
                None => match M::VARIABLES.get(vr as usize).map(|v| &v.value) {
                    Some(Value::Real { get, .. }) => get(&model.model),
                    _ => return Err(cannot_get::<M>(vr, "Real")),
                },
            };
        }
        return Ok(());
    }
    get_values!(model, vrs, out, Real, "Real")
}

/// The derivative of continuous state `k` has value reference
/// `VARIABLES.len() + k` (declared as `der(<state>)` in the XML).
fn derivative_value<M: Model>(model: &M, vr: u32) -> Option<f64> {
    let k = (vr as usize).checked_sub(M::VARIABLES.len())?;
    M::HYBRID.as_ref()?.states.get(k).map(|s| (s.derivative)(model))
}

/// The error for a variable [`first_non_finite`] found.
#[cold]
#[inline(never)]
fn non_finite<M: Model>(model: &M, vr: usize) -> String {
    let v = &M::VARIABLES[vr];
    let Value::Real { get, .. } = v.value else { unreachable!("first_non_finite returns Real variables") };
    format!("{} became {}", v.name, get(model))
}

fn hybrid_states<M: Model>() -> &'static [crate::model::State<M>] {
    match &M::HYBRID {
        Some(h) => h.states,
        None => &[],
    }
}

/// The value of a continuous state, read through its variable's getter.
fn state_value<M: Model>(model: &M, s: &crate::model::State<M>) -> f64 {
    match M::VARIABLES.iter().find(|v| v.name == s.variable).map(|v| &v.value) {
        Some(Value::Real { get, .. }) => get(model),
        _ => panic!("{}: continuous state {} is not a Real variable", M::INFO.identifier, s.variable),
    }
}

fn check_state_count(states: usize, given: usize, what: &str) -> Result<(), String> {
    if states == given {
        return Ok(());
    }
    Err(format!("{what} has {given} elements rejected: this FMU has {states} continuous states (nx = {states})"))
}

/// Most interpolated inputs a model may declare (fixed-size bookkeeping,
/// so that `doStep` allocates nothing).
const MAX_INTERPOLATED: usize = 8;

/// The order of an input derivative (fmi2SetRealInputDerivatives): only 1.
fn check_input_order(function_order: i32, name: &str) -> Result<(), String> {
    if function_order != 1 {
        return Err(format!(
            "order = {function_order} for {name} rejected: this FMU takes first derivatives of its inputs only \
             (inputs linear in time over a step)"
        ));
    }
    Ok(())
}

/// The order of an output derivative (fmi2GetRealOutputDerivatives): only 1.
fn check_output_order(function_order: i32, name: &str) -> Result<(), String> {
    if function_order != 1 {
        return Err(format!(
            "order = {function_order} for {name} rejected: this FMU gives first derivatives of its outputs only \
             (maxOutputDerivativeOrder = 1)"
        ));
    }
    Ok(())
}

/// `a == b` in a constant expression.
const fn same_name(a: &str, b: &str) -> bool {
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
const fn interpolated_vrs<M: Model>() -> [usize; MAX_INTERPOLATED] {
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
    #[inline(always)]
    fn advance(
        &mut self,
        t0: f64,
        h: f64,
        substeps: u64,
        on_transition: &mut dyn FnMut(f64, Transition),
    ) -> Result<(), String> {
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
        if substeps == 1 {
            // The usual case, without the loop's bookkeeping: the same `dt`
            // (`h / 1`) and time (`t0 + h`) as the loop's single pass.
            self.model.step(h, &mut |tr| on_transition(t0 + h, tr));
        } else {
            let dt = h / substeps as f64;
            for k in 1..substeps + 1 {
                if interpolating && k > 1 {
                    let offset = (k - 1) as f64 * dt;
                    for (i, &vr) in Self::INTERPOLATED_VRS[..n].iter().enumerate() {
                        self.set_input(vr, value[i] + slope[i] * offset);
                    }
                }
                let t = if k == substeps { t0 + h } else { t0 + k as f64 * dt };
                self.model.step(dt, &mut |tr| on_transition(t, tr));
            }
        }
        if !all_finite(&self.model) {
            let error = match first_non_finite(&self.model) {
                Some(vr) => non_finite::<M>(&self.model, vr),
                None => "a Real variable became non-finite".into(), // all_finite and first_non_finite agree
            };
            self.model = saved;
            return Err(error);
        }
        if cfg!(debug_assertions) {
            if let Some(name) = fixed_parameters_changed(&saved, &self.model) {
                panic!("a step changed the fixed parameter {name}");
            }
        }
        // The inputs keep the values the environment set; their derivatives
        // applied to this step only.
        for (k, d) in M::INPUT_DERIVATIVES.iter().enumerate() {
            self.set_input(Self::INTERPOLATED_VRS[k], value[k]);
            (d.set)(&mut self.model, 0.0);
        }
        Ok(())
    }
}

/// The value of Real variable `vr` of `model`, None for another variable or
/// none: written out per index (as [`first_non_finite`]), so that it compiles
/// to a jump on `vr` into direct reads of the fields, not a call through the
/// getter's function pointer.
#[inline(always)]
fn real_value<M: Model>(model: &M, vr: u32) -> Option<f64> {
    macro_rules! case {
        ($($i:literal)*) => {
            match vr {
                $($i if $i < M::VARIABLES.len() => match M::VARIABLES[$i].value {
                    Value::Real { get, .. } => Some(get(model)),
                    _ => None,
                },)*
                _ => match M::VARIABLES.get(vr as usize) {
                    Some(Variable { value: Value::Real { get, .. }, .. }) => Some(get(model)),
                    Some(_) => None,
                    None => derivative_value(model, vr),
                },
            }
        };
    }
    case!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
          32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63)
}

impl<M: Model> Erased for ModelBox<M> {
    fn variable_name(&self, vr: u32) -> Option<&'static str> {
        M::VARIABLES.get(vr as usize).map(|v| v.name)
    }

    fn hybrid_sizes(&self) -> Option<(usize, usize)> {
        M::HYBRID.as_ref().map(|h| (h.states.len(), h.indicators))
    }

    fn evaluate(&mut self) {
        if let Some(h) = &M::HYBRID {
            (h.evaluate)(&mut self.model);
        }
    }

    fn continuous_states(&self, out: &mut [f64]) -> Result<(), String> {
        let states = hybrid_states::<M>();
        check_state_count(states.len(), out.len(), "x")?;
        for (slot, s) in out.iter_mut().zip(states) {
            *slot = state_value(&self.model, s);
        }
        Ok(())
    }

    fn set_continuous_states(&mut self, x: &[f64]) -> Result<(), String> {
        let states = hybrid_states::<M>();
        check_state_count(states.len(), x.len(), "x")?;
        if let Some((value, s)) = x.iter().zip(states).find(|(value, _)| !value.is_finite()) {
            return Err(format!("state {} = {value} rejected: must be finite", s.variable));
        }
        for (&value, s) in x.iter().zip(states) {
            (s.set)(&mut self.model, value);
        }
        Ok(())
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
        if out.len() != h.indicators {
            return Err(format!(
                "ni = {} rejected: this FMU has {} event indicators (numberOfEventIndicators)",
                out.len(),
                h.indicators
            ));
        }
        (h.event_indicators)(&self.model, out);
        match out.iter().position(|z| !z.is_finite()) {
            Some(i) => Err(format!("event indicator {i} = {} is not finite at the current states and inputs", out[i])),
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
                log_transition(log, M::INFO.identifier, time, tr);
            }
        });
        let moved = h.states.iter().zip(before).any(|(s, b)| state_value(&self.model, s).to_bits() != b);
        (changed, moved)
    }

    fn set_real(&mut self, vrs: &[u32], values: &[f64], initialized: bool) -> Result<(), String> {
        set_values!(self, vrs, values, initialized, Real, "Real", check_real::<M>)
    }

    fn set_integer(&mut self, vrs: &[u32], values: &[i32], initialized: bool) -> Result<(), String> {
        set_values!(self, vrs, values, initialized, Integer, "Integer", check_integer::<M>)
    }

    fn set_boolean(&mut self, vrs: &[u32], values: &[bool], initialized: bool) -> Result<(), String> {
        set_values!(self, vrs, values, initialized, Boolean, "Boolean", |_, _| Ok::<(), String>(()))
    }

    fn get_real(&self, vrs: &[u32], out: &mut [f64]) -> Result<(), String> {
        // One value, the commonest request: without the loop, so that
        // few registers are live across the getter (a short entry and exit).
        if let ([vr], [slot]) = (vrs, &mut *out) {
            if let Some(Value::Real { get, .. }) = M::VARIABLES.get(*vr as usize).map(|v| &v.value) {
                *slot = get(&self.model);
                return Ok(());
            }
        }
        get_reals(self, vrs, out)
    }

    fn get_integer(&self, vrs: &[u32], out: &mut [i32]) -> Result<(), String> {
        get_values!(self, vrs, out, Integer, "Integer")
    }

    fn get_boolean(&self, vrs: &[u32], out: &mut [bool]) -> Result<(), String> {
        get_values!(self, vrs, out, Boolean, "Boolean")
    }

    fn check_string_vrs(&self, vrs: &[u32]) -> Result<(), String> {
        match vrs.first() {
            None => Ok(()),
            Some(&vr) => match lookup::<M>(vr) {
                Ok(v) => Err(wrong_type(v, vr, "String")),
                Err(e) => Err(e),
            },
        }
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
            let name = M::VARIABLES[vr as usize].name;
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

    fn check(&self, co_simulation: bool) -> Result<(), String> {
        self.model.check()?;
        if co_simulation {
            self.model.check_internal_step()?;
        }
        Ok(())
    }

    fn initialize(&mut self) {
        self.model.initialize();
    }

    fn max_substep(&self) -> f64 {
        self.model.max_substep()
    }

    fn do_step(&mut self, clock: &mut Clock, log: &Log, t: f64, h: f64) -> Result<(), StepError> {
        let substeps = substep_count(h, self.model.max_substep());
        if !step_accepted(clock, t, h, substeps) {
            return Err(StepError::Refused);
        }
        let substeps = if substeps == 1.0 { 1 } else { several(substeps) };
        let calls = if M::SUBSTEPS_ITSELF { 1 } else { substeps };
        let events_on = log.enabled(log::EVENTS);
        self.advance(t, h, calls, &mut |time, tr| {
            if events_on {
                log_transition(log, M::INFO.identifier, time, tr);
            }
        })
        .map_err(StepError::Failed)?;
        clock.time = t + h;
        clock.substeps += substeps;
        Ok(())
    }

    fn get_one_real(&self, vr: u32) -> Option<f64> {
        real_value(&self.model, vr)
    }

    fn check_all(&self, co_simulation: bool) -> Result<(), String> {
        for v in M::VARIABLES {
            match v.value {
                Value::Real { get, set: Some(_), .. } => check_real(v, get(&self.model))?,
                Value::Integer { get, set: Some(_), .. } => check_integer(v, get(&self.model))?,
                _ => {}
            }
        }
        self.check(co_simulation)
    }

    fn check_finite(&self) -> Result<(), String> {
        match first_non_finite(&self.model) {
            Some(vr) => Err(non_finite::<M>(&self.model, vr)),
            None => Ok(()),
        }
    }

    fn reset_to_start(&mut self) {
        self.model = start_values::<M>();
    }

    fn boxed_clone(&self) -> Box<dyn Erased> {
        Box::new(self.clone())
    }

    fn assign(&mut self, other: &dyn Erased) -> bool {
        match other.as_any().downcast_ref::<Self>() {
            Some(o) => {
                self.model.clone_from(&o.model);
                true
            }
            None => false,
        }
    }

    fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(&self.model).expect("serializing plain numeric state cannot fail")
    }

    fn decode(&self, bytes: &[u8]) -> Result<Box<dyn Erased>, String> {
        let (model, rest): (M, &[u8]) =
            postcard::take_from_bytes(bytes).map_err(|e| format!("model state does not decode: {e}"))?;
        if !rest.is_empty() {
            return Err(format!("{} trailing bytes after the model state", rest.len()));
        }
        Ok(Box::new(ModelBox { model }))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
