//! Value access by reference: every get and set of a model's variables,
//! checked against their declarations (type, causality, range) before
//! anything changes.

#![forbid(unsafe_code)]

use super::model_box::ModelBox;
use crate::description::{index_of, Value, Variable};
use crate::model::Model;

pub(super) fn lookup<M>(vr: u32) -> Result<&'static Variable<M>, String>
where
    M: Model,
{
    M::VARIABLES.get(index_of(vr)).ok_or_else(|| {
        format!("value reference {vr} does not exist in {} (valid: 1..={})", M::IDENTIFIER, M::VARIABLES.len())
    })
}

pub(super) fn wrong_type<M>(v: &Variable<M>, vr: u32, wanted: &str) -> String {
    format!("{} (value reference {vr}) is a {}, not a {wanted}", v.name, v.type_name())
}

pub(super) fn not_settable<M>(v: &Variable<M>, initialized: bool) -> String {
    let when = if initialized { "after initialization" } else { "now" };
    let rule = match v.causality {
        crate::description::Causality::Output => "outputs are computed by the FMU and cannot be set",
        _ => "fixed parameters can be set only before initialization mode ends",
    };
    format!("{} cannot be set {when}: {rule}", v.name)
}

#[inline(always)]
pub(super) fn check_lengths(vrs: usize, values: usize) -> Result<(), String> {
    if vrs == values {
        Ok(())
    } else {
        Err(lengths_differ(vrs, values))
    }
}

#[cold]
#[inline(never)]
pub(super) fn lengths_differ(vrs: usize, values: usize) -> String {
    format!("{vrs} value references but {values} values")
}

/// Validate a Real against its declared range.
pub(super) fn check_real<M>(v: &Variable<M>, x: f64) -> Result<(), String> {
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
            if let Value::$variant { set: Some(set), .. } = M::VARIABLES[index_of(vr)].value {
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
            let Some(Value::$variant { get, .. }) = M::VARIABLES.get(index_of(vr)).map(|v| &v.value) else {
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
pub(super) fn cannot_get<M: Model>(vr: u32, type_name: &str) -> String {
    match lookup::<M>(vr) {
        Ok(v) => wrong_type(v, vr, type_name),
        Err(e) => e,
    }
}

pub(super) fn check_integer<M>(v: &Variable<M>, x: i32) -> Result<(), String> {
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

/// `get_real`'s general case, out of line; value references past the
/// declared variables are the derivatives of the continuous states (see
/// [`derivative_value`]).
#[inline(never)]
pub(super) fn get_reals<M: Model>(model: &ModelBox<M>, vrs: &[u32], out: &mut [f64]) -> Result<(), String> {
    if vrs.iter().any(|&vr| index_of(vr) >= M::VARIABLES.len()) {
        check_lengths(vrs.len(), out.len())?;
        for (&vr, slot) in vrs.iter().zip(out.iter_mut()) {
            *slot = match derivative_value(&model.model, vr) {
                Some(x) => x,
                None => match M::VARIABLES.get(index_of(vr)).map(|v| &v.value) {
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
/// `VARIABLES.len() + 1 + k` (declared as `der(<state>)` in the XML).
pub(super) fn derivative_value<M: Model>(model: &M, vr: u32) -> Option<f64> {
    let k = index_of(vr).checked_sub(M::VARIABLES.len())?;
    M::HYBRID.as_ref()?.states.get(k).map(|s| (s.derivative)(model))
}

/// The order of an input derivative (SetRealInputDerivatives): only 1.
pub(super) fn check_input_order(function_order: i32, name: &str) -> Result<(), String> {
    if function_order != 1 {
        return Err(format!(
            "order = {function_order} for {name} rejected: this FMU takes first derivatives of its inputs only \
             (inputs linear in time over a step)"
        ));
    }
    Ok(())
}

/// The order of an output derivative (GetRealOutputDerivatives): only 1.
pub(super) fn check_output_order(function_order: i32, name: &str) -> Result<(), String> {
    if function_order != 1 {
        return Err(format!(
            "order = {function_order} for {name} rejected: this FMU gives first derivatives of its outputs only \
             (maxOutputDerivativeOrder = 1)"
        ));
    }
    Ok(())
}

/// The value of Real variable `vr` of `model` when its getter copies a
/// stored field ([`crate::description::Variable::plain`]); None for any
/// other variable, a derivative, or none: written out per index (as
/// `first_non_finite`), so that it compiles to a jump on `vr` into direct
/// reads of the fields, not a call through the getter's function pointer.
#[inline(always)]
pub(super) fn plain_real_value<M: Model>(model: &M, vr: u32) -> Option<f64> {
    let index = index_of(vr);
    macro_rules! case {
        ($($i:literal)*) => {
            match index {
                $($i if $i < M::VARIABLES.len() => match M::VARIABLES[$i].value {
                    Value::Real { get, plain: true, .. } => Some(get(model)),
                    _ => None,
                },)*
                _ => match M::VARIABLES.get(index) {
                    Some(Variable { value: Value::Real { get, plain: true, .. }, .. }) => Some(get(model)),
                    _ => None,
                },
            }
        };
    }
    case!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
          32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63)
}
