//! The words every law and plant shares: the sign function of Hill's
//! Fig. 1, what one interval of a law gives ([`Advance`], [`Interval`]), the
//! law's trait ([`RigidBodyFriction`]), and the one rule that splits a step
//! into equal substeps ([`substep_count`]). Imports nothing of the crate.

#![forbid(unsafe_code)]

/// Signum with `sign(0) = 0`, the non-linear block of Hill's Fig. 1
/// ("zero output for zero velocity"). `f64::signum` returns 1 for +0.0.
#[inline]
pub fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// What a friction law did to a body over one integration interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Advance {
    /// Rate at the end of the interval (rad/s). Exactly `0.0` when the body sticks.
    pub rate: f64,
    /// Effective friction torque (N.m): the friction averaged over the interval,
    /// so that `inertia * (rate - rate0) / dt == applied + friction`.
    pub friction: f64,
}

/// A friction law acting on one rigid body, advanced over a fixed interval.
///
/// Laws are evaluated once per interval with the applied torque held constant
/// (zero-order hold), as in Hill's external Euler integration.
pub trait RigidBodyFriction {
    /// Advance the rate of a body of `inertia` (kg.m2) under `applied` torque
    /// (N.m) from `rate` (rad/s) over `dt` seconds.
    fn advance(&mut self, applied: f64, rate: f64, inertia: f64, dt: f64) -> Advance;

    /// Advance under the applied torque `applied + slope*s` (`0 <= s <= dt`),
    /// also returning the angle travelled. Laws without a closed form see the
    /// mean torque held over the interval, and the angle follows the
    /// trapezoid rule (exact for a constant net torque); exact laws override.
    #[inline]
    fn advance_interval(&mut self, applied: f64, slope: f64, rate: f64, inertia: f64, dt: f64) -> Interval {
        let a = self.advance(applied + 0.5 * slope * dt, rate, inertia, dt);
        Interval {
            rate: a.rate,
            friction: a.friction,
            travel: 0.5 * dt * (rate + a.rate),
            acceleration: (a.rate - rate) / dt,
            event: None,
        }
    }
}

/// An interval integrated with its angle (see [`RigidBodyFriction::advance_interval`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Rate at the end (rad/s); exactly `0.0` when the body sticks.
    pub rate: f64,
    /// Effective friction torque (N.m): `inertia*(rate - rate0)/dt == mean applied + friction`.
    pub friction: f64,
    /// Angle travelled over the interval (rad).
    pub travel: f64,
    /// Acceleration at the end of the interval (rad/s^2): exact laws give
    /// the derivative of the exact solution (0 while stuck); others the
    /// interval's mean.
    pub acceleration: f64,
    /// When the last stop or breakaway inside the interval happened (s from
    /// its start), for laws that locate it (exact laws); `None` otherwise,
    /// and for a change of motion seen only at the interval's end.
    pub event: Option<f64>,
}

/// Number of equal substeps of at most `longest` (up to rounding) that
/// cover `h`, at least 1: the substep is `h / n`, so no sliver substep ever
/// occurs and step-averaged values do not depend on how the grid falls. A
/// step that exceeds a multiple of `longest` only by rounding (1e-9 of a
/// substep) takes no extra one. As `f64`, so that a caller can refuse an
/// absurd count before converting it; NaN gives 1.
#[inline(always)]
pub fn substep_count(h: f64, longest: f64) -> f64 {
    // A step no longer than the internal step (the usual case) is one
    // substep, told without the division: h <= longest gives h / longest
    // <= 1 (division rounds monotonically), so the ratio below is under 1
    // and the answer the same.
    if h <= longest {
        return 1.0;
    }
    let ratio = h / longest - 1e-9;
    // One substep without calling `ceil`; a NaN ratio too.
    if ratio > 1.0 {
        ratio.ceil()
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::substep_count;

    #[test]
    fn a_step_splits_into_equal_substeps_no_longer_than_the_longest() {
        assert_eq!(substep_count(1e-3, 1e-3), 1.0);
        assert_eq!(substep_count(0.5e-3, 1e-3), 1.0);
        assert_eq!(substep_count(2.5e-3, 1e-3), 3.0);
        // 0.1 / 0.01 rounds to 10.000000000000002: no eleventh substep.
        assert_eq!(substep_count(0.1, 0.01), 10.0);
        assert_eq!(substep_count(f64::NAN, 1e-3), 1.0);
        assert_eq!(substep_count(1.0, 1e-9), 1e9);
    }
}
