//! The finiteness check after every step, written out per variable index
//! so that it costs a few instructions per Real variable.

#![forbid(unsafe_code)]

use crate::description::{Causality, Value, Variability, Variable};
use crate::model::Model;

/// Value reference of the first Real variable of `model` that is not finite.
///
/// Checked after every step, so written out per index: `M::VARIABLES` is a
/// constant, hence for each index the variable's type and getter are known
/// when this is compiled, and each check becomes a direct read of the field
/// (no loop over the declarations, no call through a function pointer).
#[inline(always)]
pub(super) fn first_non_finite<M: Model>(model: &M) -> Option<usize> {
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
pub(super) fn all_finite<M: Model>(model: &M) -> bool {
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
pub(super) const fn fixed_parameter<M>(v: &Variable<M>) -> bool {
    matches!(v.causality, Causality::Parameter) && matches!(v.variability, Variability::Fixed)
}

/// Name of the first fixed Real parameter whose bits differ between `before`
/// and `after` (debug builds: the step must leave them alone for
/// [`all_finite`] to skip them).
pub(super) fn fixed_parameters_changed<M: Model>(before: &M, after: &M) -> Option<&'static str> {
    M::VARIABLES.iter().find_map(|v| match v.value {
        Value::Real { get, .. } if fixed_parameter(v) && get(before).to_bits() != get(after).to_bits() => Some(v.name),
        _ => None,
    })
}

/// The error for a variable [`first_non_finite`] found.
#[cold]
#[inline(never)]
pub(super) fn non_finite<M: Model>(model: &M, vr: usize) -> String {
    let v = &M::VARIABLES[vr];
    let Value::Real { get, .. } = v.value else { unreachable!("first_non_finite returns Real variables") };
    format!("{} became {}", v.name, get(model))
}
