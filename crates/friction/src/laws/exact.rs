//! Exact, event-located integration of a rigid body under static + Coulomb
//! friction, for an applied torque that is constant or linear in time over
//! the interval.
//!
//! Between events the dynamics have a closed form: sliding in direction
//! `d`, `J*dw/dt = tau0 + slope*s - F_c*d` makes the rate a quadratic and the
//! angle a cubic in the elapsed time `s`. The events are closed-form roots
//! too: a stop is the first positive root of that quadratic, a breakaway from
//! rest the instant the linear torque's magnitude passes `F_s`. Each interval
//! is integrated event by event: integrate rate AND angle exactly to the
//! event, switch (stick, reverse or break away), go on to the interval's
//! end. Hill's algorithm (Eqs. 1-6) locates the same stop but spreads its
//! deceleration over the whole interval, so its angle overshoots by up to
//! `F_c*dt^2/(8J)` per stop; here the angle is exact to rounding.

use crate::vocabulary::{sign, Advance, Interval, RigidBodyFriction};
use serde::{Deserialize, Serialize};

/// Static + Coulomb friction (Hill's law, his Eqs. 1-2: stick while
/// `|T_ap| <= F_s`, slide against `F_c*sign(w)`), integrated exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExactStaticCoulomb {
    /// Static (breakaway) friction torque `F_s` (N.m), >= `coulomb_torque`.
    pub static_torque: f64,
    /// Coulomb (sliding) friction torque `F_c` (N.m), >= 0.
    pub coulomb_torque: f64,
}

/// A stop found this close to the end of the remaining interval (relative)
/// is taken at the end: the rate is then set to exactly 0 instead of a
/// rounding residue that would restart the body for a sliver step. The
/// angle error of moving a stop by `e*dt` is second order (the rate is ~0).
const END_TOLERANCE: f64 = 1e-12;

/// Smallest root in `(0, limit]` of `c + b*u + a*u^2`, if any.
pub(crate) fn first_positive_root(a: f64, b: f64, c: f64, limit: f64) -> Option<f64> {
    let within = |u: f64| (u > 0.0 && u <= limit * (1.0 + END_TOLERANCE)).then_some(u.min(limit));
    if a == 0.0 {
        return if b == 0.0 { None } else { within(-c / b) };
    }
    let discriminant = b * b - 4.0 * a * c;
    if discriminant < 0.0 {
        return None;
    }
    // Numerically stable pair of roots: q/a and c/q.
    let q = -0.5 * (b + if b >= 0.0 { 1.0 } else { -1.0 } * discriminant.sqrt());
    let r1 = if q != 0.0 { within(q / a) } else { None };
    let r2 = if q != 0.0 { within(c / q) } else { None };
    match (r1, r2) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

/// Time until `|value + slope*s|` reaches `level` (>= |value|) on the way
/// out; infinite for a constant value.
pub(crate) fn time_to_reach(level: f64, value: f64, slope: f64) -> f64 {
    if slope == 0.0 {
        f64::INFINITY
    } else {
        (level * sign(slope) - value) / slope
    }
}

impl ExactStaticCoulomb {
    /// Acceleration (rad/s^2) of a body at `rate` under `applied`: zero
    /// while it sticks (`rate == 0`, `|applied| <= F_s`).
    pub fn acceleration(&self, applied: f64, rate: f64, inertia: f64) -> f64 {
        let direction = if rate != 0.0 {
            sign(rate)
        } else if applied.abs() > self.static_torque {
            sign(applied)
        } else {
            return 0.0;
        };
        (applied - self.coulomb_torque * direction) / inertia
    }

    /// Integrate over `dt` under `applied + slope*s`, `0 <= s <= dt`.
    pub fn integrate(&self, applied: f64, slope: f64, rate: f64, inertia: f64, dt: f64) -> Interval {
        let (fs, fc) = (self.static_torque, self.coulomb_torque);
        let (mut elapsed, mut w, mut travel) = (0.0_f64, rate, 0.0_f64);
        // The instant of the last stop or breakaway inside the interval.
        let mut event = None;
        // Sliding direction; 0 while stuck. A body at rest breaking away has
        // w == 0 and direction != 0 for the first instant.
        let mut direction = sign(rate);
        // True while the body has slid in one direction since the start:
        // its friction is then exactly -F_c*direction, not a rounded
        // difference of rates.
        let mut one_slide = true;
        // Each pass ends at an event or at the end; a linear torque allows
        // at most a handful of events (stop, breakaway, stop, ...).
        for _ in 0..16 {
            let remaining = dt - elapsed;
            if remaining <= 0.0 {
                break;
            }
            let tau = applied + slope * elapsed;
            if direction == 0.0 {
                if tau.abs() > fs {
                    direction = sign(tau);
                    if elapsed > 0.0 {
                        event = Some(elapsed);
                    }
                    continue;
                }
                // Stuck until |tau| reaches F_s on the way out.
                let until = time_to_reach(fs, tau, slope);
                if until >= remaining {
                    break;
                }
                elapsed += until;
                one_slide = false;
                direction = sign(slope);
                event = Some(elapsed);
                continue;
            }
            // Sliding: w(u) = w + a0*u + b*u^2/2.
            let a0 = (tau - fc * direction) / inertia;
            let b = slope / inertia;
            match first_positive_root(0.5 * b, a0, w, remaining) {
                Some(u) => {
                    one_slide = false;
                    travel += w * u + a0 * u * u / 2.0 + b * u * u * u / 6.0;
                    // Exactly at rest; stick or reverse from here.
                    w = 0.0;
                    elapsed += u;
                    event = Some(elapsed);
                    let tau_stop = applied + slope * elapsed;
                    direction = if tau_stop.abs() > fs { sign(tau_stop) } else { 0.0 };
                    // A root at u == 0 (reversal right at a breakaway) cannot
                    // recur: the next pass starts from rest with a0*d > 0.
                }
                None => {
                    let u = remaining;
                    travel += w * u + a0 * u * u / 2.0 + b * u * u * u / 6.0;
                    let end = w + a0 * u + 0.5 * b * u * u;
                    // No root: the rate keeps its sign (a rounding residue of
                    // the other sign is a stop at the end).
                    w = if end * direction > 0.0 { end } else { 0.0 };
                    break;
                }
            }
        }
        let tau_end = applied + slope * dt;
        let friction = if one_slide && direction != 0.0 {
            -fc * direction
        } else {
            inertia * (w - rate) / dt - (applied + 0.5 * slope * dt)
        };
        Interval { rate: w, friction, travel, acceleration: self.acceleration(tau_end, w, inertia), event }
    }
}

impl RigidBodyFriction for ExactStaticCoulomb {
    #[inline]
    fn advance(&mut self, applied: f64, rate: f64, inertia: f64, dt: f64) -> Advance {
        let i = self.integrate(applied, 0.0, rate, inertia, dt);
        Advance { rate: i.rate, friction: i.friction }
    }

    #[inline]
    fn advance_interval(&mut self, applied: f64, slope: f64, rate: f64, inertia: f64, dt: f64) -> Interval {
        self.integrate(applied, slope, rate, inertia, dt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integrators::inertia::FrictionInertia;

    const LAW: ExactStaticCoulomb = ExactStaticCoulomb { static_torque: 0.6, coulomb_torque: 0.5 };

    #[test]
    fn coasting_stops_at_the_exact_angle_for_any_step() {
        // J = 2, w0 = 1, F_c = 0.5: stop at t = 4 s, phi = w0^2*J/(2*F_c) = 2.
        for dt in [1e-3, 0.01, 0.3, 0.7, 1.0, 3.0, 10.0] {
            let mut body = FrictionInertia::new(LAW, 2.0, 0.0, 1.0);
            for _ in 0..((12.0 / dt) as usize) {
                body.step(0.0, dt);
            }
            assert_eq!(body.rate, 0.0);
            assert!((body.angle - 2.0).abs() <= 1e-12, "dt = {dt}: {}", body.angle);
        }
    }

    #[test]
    fn reversal_within_the_step_is_exact_in_rate_and_angle() {
        // w0 = 0.002, T_ap = -3 > F_s in magnitude, F_c = 1, J = 1, dt = 10 ms:
        // stop at 0.5 ms after 0.5 um, then -2 rad/s^2 for 9.5 ms.
        let law = ExactStaticCoulomb { static_torque: 1.2, coulomb_torque: 1.0 };
        let i = law.integrate(-3.0, 0.0, 0.002, 1.0, 0.01);
        assert!((i.rate + 0.019).abs() < 1e-15, "{}", i.rate);
        let exact = 0.002 * 0.0005 / 2.0 - 0.5 * 2.0 * 0.0095 * 0.0095;
        assert!((i.travel - exact).abs() < 1e-17, "{} vs {exact}", i.travel);
        assert_eq!(i.acceleration, -2.0);
    }

    #[test]
    fn breakaway_on_a_ramp_at_the_closed_form_instant() {
        // At rest, tau = 0.2 + 1.0*s, F_s = 0.6, F_c = 0.5, J = 2: breakaway
        // at s = 0.4; then J*w' = 0.6 + (s - 0.4) - 0.5.
        let law = LAW;
        let i = law.integrate(0.2, 1.0, 0.0, 2.0, 1.0);
        let u: f64 = 0.6;
        let w = (0.1 * u + 0.5 * u * u) / 2.0;
        let phi = (0.1 * u * u / 2.0 + u * u * u / 6.0) / 2.0;
        assert!((i.rate - w).abs() < 1e-15 && (i.travel - phi).abs() < 1e-15, "{i:?}");
        assert!((i.acceleration - (1.2 - 0.5) / 2.0).abs() < 1e-15);
    }

    #[test]
    fn sticks_until_the_ramp_passes_the_static_level_and_has_zero_acceleration() {
        let i = LAW.integrate(-0.5, 0.05, 0.0, 1.0, 10.0);
        assert_eq!((i.rate, i.travel, i.acceleration), (0.0, 0.0, 0.0));
        assert_eq!(i.friction, -(-0.5 + 0.25));
    }

    #[test]
    fn a_falling_torque_stops_a_sliding_body_and_it_sticks() {
        // Sliding forward at 0.1 under tau = 0.5 + 0.0 - 1.0*s: w' = -s/J (J = 1,
        // F_c = 0.5) -> w = 0.1 - s^2/2, stop at s = sqrt(0.2); |tau| there
        // = 0.447 <= F_s: stuck for the rest.
        let i = LAW.integrate(0.5, -1.0, 0.1, 1.0, 1.0);
        let s = 0.2_f64.sqrt();
        assert_eq!(i.rate, 0.0);
        assert!((i.travel - (0.1 * s - s * s * s / 6.0)).abs() < 1e-15);
        assert_eq!(i.acceleration, 0.0);
    }

    /// The interval reports where its last event fell: a stop at
    /// J*w/F_c = 0.01 s into a 0.03 s interval, a breakaway where a ramp
    /// 100*s passes F_s = 1.2 (0.012 s), and none for an interval that slides
    /// through or sticks throughout.
    #[test]
    fn an_interval_reports_the_instant_of_its_last_event() {
        let law = ExactStaticCoulomb { static_torque: 1.2, coulomb_torque: 1.0 };
        let stop = law.integrate(0.0, 0.0, 0.01, 1.0, 0.03);
        assert_eq!(stop.rate, 0.0);
        assert!((stop.event.unwrap() - 0.01).abs() < 1e-15, "{stop:?}");
        let breakaway = law.integrate(0.0, 100.0, 0.0, 1.0, 0.03);
        assert!(breakaway.rate > 0.0);
        assert!((breakaway.event.unwrap() - 0.012).abs() < 1e-15, "{breakaway:?}");
        assert_eq!(law.integrate(0.0, 0.0, 1.0, 1.0, 0.03).event, None, "slides through");
        assert_eq!(law.integrate(0.5, 0.0, 0.0, 1.0, 0.03).event, None, "stuck throughout");
    }
}
