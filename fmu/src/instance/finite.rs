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

// What a call that runs in the host's floating-point environment may ask of
// an f64 (a host may flush subnormals, trap on invalid operations, or keep
// sticky flags it reads later): the bits alone, no floating-point
// instruction, so the answer is the default environment's and the host's
// registers are untouched.

/// Exponent all ones: infinite or NaN.
const EXPONENT: u64 = 0x7FF0_0000_0000_0000;

/// `x.is_finite()`, by the bits alone.
#[inline(always)]
pub fn finite_bits(x: f64) -> bool {
    x.to_bits() & EXPONENT != EXPONENT
}

/// IEEE 754's `a < b` for finite `a` and `b`, by the bits alone: sign and
/// magnitude mapped onto one signed integer, -0.0 and +0.0 onto 0.
#[inline(always)]
pub fn less_bits(a: f64, b: f64) -> bool {
    fn ordered(x: f64) -> i64 {
        let magnitude = (x.to_bits() & !(1u64 << 63)) as i64;
        if x.is_sign_negative() {
            -magnitude
        } else {
            magnitude
        }
    }
    ordered(a) < ordered(b)
}

#[cfg(test)]
mod bits {
    use super::{finite_bits, less_bits};

    /// The bit tests answer as the floating-point ones do, over the values
    /// where they could differ (signed zeros, subnormals, the extremes)
    /// and a spread of ordinary ones.
    #[test]
    fn bit_tests_answer_as_ieee_comparisons() {
        let mut values = vec![
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            1e-310,
            -1e-310,
            f64::MAX,
            f64::MIN,
            1.0,
            -1.0,
            1e-9,
            0.3,
            2.474,
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            // xorshift: any bit pattern, then the finite ones kept.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            values.push(f64::from_bits(state));
        }
        for special in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -f64::NAN] {
            assert!(!finite_bits(special), "{special}");
        }
        let finite: Vec<f64> = values.into_iter().filter(|x| x.is_finite()).collect();
        assert!(finite.len() > 1900);
        // Every value against each special one and against a seventh of
        // the random ones.
        let (special, random) = finite.split_at(15);
        for &a in &finite {
            assert!(finite_bits(a), "{a:e}");
            for &b in special.iter().chain(random.iter().step_by(7)) {
                assert_eq!(less_bits(a, b), a < b, "{a:e} < {b:e}");
            }
        }
    }
}
