//! One rigid inertia with a friction contact to ground.

use crate::vocabulary::{sign, RigidBodyFriction};
use serde::{Deserialize, Serialize};

/// Direction of motion of a body relative to its friction contact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Motion {
    Backward,
    #[default]
    Stuck,
    Forward,
}

impl Motion {
    /// Motion seen from the sign of a rate; only an exactly zero rate is stuck.
    #[inline]
    pub fn of_rate(rate: f64) -> Self {
        match sign(rate) {
            s if s > 0.0 => Motion::Forward,
            s if s < 0.0 => Motion::Backward,
            _ => Motion::Stuck,
        }
    }

    /// The sense of motion as a number: -1.0, 0.0, +1.0.
    #[inline]
    pub fn sign(self) -> f64 {
        self.as_i32() as f64
    }

    /// -1 sliding backward, 0 stuck, +1 sliding forward.
    #[inline]
    pub fn as_i32(self) -> i32 {
        match self {
            Motion::Backward => -1,
            Motion::Stuck => 0,
            Motion::Forward => 1,
        }
    }
}

/// `J * dw/dt = tau + tau_f(w, tau)` for one body, with the friction law `F`.
///
/// The angle comes from the law ([`RigidBodyFriction::advance_interval`]):
/// exact for exact laws, otherwise the trapezoid rule over each interval,
/// which is exact for the constant net torque a law applies over it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FrictionInertia<F> {
    /// Moment of inertia `J` (kg.m2), > 0.
    pub inertia: f64,
    /// Angle `phi` (rad).
    pub angle: f64,
    /// Rate `w` (rad/s).
    pub rate: f64,
    /// Effective friction torque over the last interval (N.m).
    pub friction_torque: f64,
    /// Acceleration at the end of the last interval (rad/s^2), see [`crate::vocabulary::Interval`].
    pub acceleration: f64,
    /// The friction law and its parameters.
    pub law: F,
}

impl<F: RigidBodyFriction> FrictionInertia<F> {
    /// A body at `angle`, `rate`, with no interval taken yet.
    pub fn new(law: F, inertia: f64, angle: f64, rate: f64) -> Self {
        Self { inertia, angle, rate, friction_torque: 0.0, acceleration: 0.0, law }
    }

    /// Advance by `dt` seconds under the constant `applied` torque; the
    /// instant of a stop or breakaway inside it, where the law locates it
    /// (see [`crate::vocabulary::Interval::event`]).
    #[inline]
    pub fn step(&mut self, applied: f64, dt: f64) -> Option<f64> {
        self.step_ramp(applied, 0.0, dt)
    }

    /// Advance by `dt` seconds under `applied + slope*s` (a first-order
    /// input interpolation); the angle is the law's (exact for exact laws).
    /// Returns the instant of the last stop or breakaway inside the
    /// interval where the law locates it ([`crate::vocabulary::Interval::event`]).
    #[inline]
    pub fn step_ramp(&mut self, applied: f64, slope: f64, dt: f64) -> Option<f64> {
        let i = self.law.advance_interval(applied, slope, self.rate, self.inertia, dt);
        self.angle += i.travel;
        self.rate = i.rate;
        self.friction_torque = i.friction;
        self.acceleration = i.acceleration;
        i.event
    }

    #[inline]
    pub fn motion(&self) -> Motion {
        Motion::of_rate(self.rate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::laws::coulomb::ConventionalCoulomb;
    use crate::laws::hill::HillFriction;

    #[test]
    fn hill_coasts_to_an_exact_stop_at_v0_j_over_fc() {
        // v0 = 1 rad/s, J = 2, F_c = 0.5: stop at t = 4 s.
        let law = HillFriction { static_torque: 0.6, coulomb_torque: 0.5 };
        for &dt in &[1e-3, 0.01, 0.03, 0.3] {
            let mut body = FrictionInertia::new(law, 2.0, 0.0, 1.0);
            let mut t = 0.0;
            let mut stopped_at = None;
            for _ in 0..((6.0 / dt) as usize) {
                body.step(0.0, dt);
                t += dt;
                if stopped_at.is_none() && body.rate == 0.0 {
                    stopped_at = Some(t);
                }
                if stopped_at.is_some() {
                    assert_eq!(body.rate, 0.0);
                }
            }
            let t_stop = stopped_at.expect("never stopped");
            assert!(t_stop >= 4.0 - 1e-9 && t_stop < 4.0 + dt + 1e-9, "dt={dt}: {t_stop}");
            // The angle is 1/2 * v0^2 * J / F_c = 2 rad, up to the last step:
            // Eq. (5) spreads the final deceleration over the whole step, so
            // the body travels at most F_c*dt^2/(2J) further.
            let bound = 0.5 * dt * dt / (2.0 * 2.0) + 1e-9;
            assert!((body.angle - 2.0).abs() <= bound, "dt={dt}: {}", body.angle);
        }
    }

    /// Hill, Section I: with the 70-m azimuth friction-to-inertia ratio of
    /// 1.77 mrad/s^2, "controlling the above rate errors to less than 0.1
    /// mdeg/sec requires a step size of roughly 1.0 msec" with the
    /// conventional model. Rate error: mean |w| under 0.9 F_c from rest.
    #[test]
    fn conventional_model_needs_about_1_ms_for_0_1_mdeg_per_s() {
        let (fc, target) = (1.77e-3, 0.1e-3_f64.to_radians());
        let error = |dt: f64| {
            let mut body = FrictionInertia::new(ConventionalCoulomb { coulomb_torque: fc }, 1.0, 0.0, 0.0);
            let n = (20.0 / dt).round() as usize;
            (0..n)
                .map(|_| {
                    body.step(0.9 * fc, dt);
                    body.rate.abs()
                })
                .sum::<f64>()
                / n as f64
        };
        // Within a factor 1.5 of the paper's "roughly 1.0 msec" (we find 1.04 ms).
        assert!(error(0.67e-3) <= target, "{}", error(0.67e-3));
        assert!(error(1.5e-3) > target, "{}", error(1.5e-3));
        // Hill's algorithm has no such error at any step.
        for dt in [1e-3, 0.1, 0.5] {
            let mut body = FrictionInertia::new(
                HillFriction { static_torque: fc * 425.0 / 400.0, coulomb_torque: fc },
                1.0,
                0.0,
                0.0,
            );
            for _ in 0..(20.0 / dt) as usize {
                body.step(0.9 * fc, dt);
                assert_eq!(body.rate, 0.0);
            }
        }
    }

    #[test]
    fn conventional_coulomb_chatters_with_nonzero_mean_below_breakaway() {
        let law = ConventionalCoulomb { coulomb_torque: 1.0 };
        let mut body = FrictionInertia::new(law, 1.0, 0.0, 0.0);
        let n = 1000;
        let mut sum = 0.0;
        for _ in 0..n {
            body.step(0.5, 0.01);
            sum += body.rate;
        }
        let mean = sum / n as f64;
        // Alternates between 0 and 0.005 rad/s: mean 0.0025 rad/s.
        assert!((mean - 0.0025).abs() < 1e-4, "{mean}");
    }
}

/// The stick-slip contact of a body for a continuous solver (Model
/// Exchange), as Modelica's friction elements keep it: a discrete
/// [`Motion`] changed only at events. While stuck the friction carries the
/// applied torque and the body stays exactly still; sliding, it opposes the
/// motion with the law's sliding level. Written once for every static +
/// sliding contact (the 1-DOF inertias, the shaft load, the antenna axis).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StickSlipContact {
    /// The static level: the applied torque the contact holds while stuck.
    pub breakaway: f64,
    /// The sliding friction's magnitude at rest (a breakaway exactly at
    /// the static level happens where sliding would accelerate: `breakaway`
    /// above this).
    pub sliding_at_rest: f64,
}

impl StickSlipContact {
    /// Friction torque on the body in `motion` under `applied`, the law's
    /// sliding magnitude at the present speed being `sliding`.
    #[inline]
    pub fn friction(motion: Motion, applied: f64, sliding: f64) -> f64 {
        match motion {
            Motion::Stuck => 0.0 - applied,
            Motion::Forward => 0.0 - sliding,
            Motion::Backward => sliding,
        }
    }

    /// The two event indicators: stuck, the margins to breakaway forward and
    /// backward; sliding, the rate in the direction of motion (a stop where
    /// it crosses 0) and `kink`, the law's own indicator at the present speed
    /// (a constant where its sliding friction has no jump).
    #[inline]
    pub fn indicators(&self, motion: Motion, applied: f64, rate: f64, kink: f64) -> [f64; 2] {
        match motion {
            Motion::Stuck => [self.breakaway - applied, self.breakaway + applied],
            Motion::Forward => [rate, kink],
            Motion::Backward => [0.0 - rate, kink],
        }
    }

    /// At an event: if the body is at rest or its rate has crossed 0, the
    /// rate is set to exactly 0.0 and the applied torque decides: breakaway
    /// above the static level (and at it where sliding would accelerate),
    /// else stuck. A body still sliding keeps its motion.
    #[inline]
    pub fn settle(&self, motion: Motion, rate: &mut f64, applied: f64) -> Motion {
        let stopped = match motion {
            Motion::Stuck => true,
            Motion::Forward => *rate <= 0.0,
            Motion::Backward => *rate >= 0.0,
        };
        if !stopped {
            return motion;
        }
        *rate = 0.0;
        let moves = |t: f64| t > self.breakaway || (t == self.breakaway && t > self.sliding_at_rest);
        if moves(applied) {
            Motion::Forward
        } else if moves(0.0 - applied) {
            Motion::Backward
        } else {
            Motion::Stuck
        }
    }
}

#[cfg(test)]
mod contact_tests {
    use super::*;

    #[test]
    fn the_contact_holds_breaks_away_and_stops_as_the_law_says() {
        let c = StickSlipContact { breakaway: 1.5, sliding_at_rest: 1.0 };
        // Stuck under 1.2 N.m: the friction carries it, margins 0.3 and 2.7.
        assert_eq!(StickSlipContact::friction(Motion::Stuck, 1.2, 1.0), -1.2);
        assert_eq!(c.indicators(Motion::Stuck, 1.2, 0.0, 1.0), [0.30000000000000004, 2.7]);
        let mut w = 0.0;
        assert_eq!(c.settle(Motion::Stuck, &mut w, 1.2), Motion::Stuck);
        // At the static level exactly: sliding (1.0) would accelerate, so it moves.
        assert_eq!(c.settle(Motion::Stuck, &mut w, 1.5), Motion::Forward);
        assert_eq!(c.settle(Motion::Stuck, &mut w, -1.6), Motion::Backward);
        // Equal levels: at the level exactly it holds (Coulomb's law).
        let coulomb = StickSlipContact { breakaway: 1.0, sliding_at_rest: 1.0 };
        assert_eq!(coulomb.settle(Motion::Stuck, &mut w, 1.0), Motion::Stuck);
        // Sliding forward: friction -1, the rate is the indicator; a rate
        // crossed to -1e-9 is set to exactly 0 and the torque decides.
        assert_eq!(StickSlipContact::friction(Motion::Forward, 3.0, 1.0), -1.0);
        assert_eq!(c.indicators(Motion::Backward, 3.0, -0.25, 1.0), [0.25, 1.0]);
        let mut w = -1e-9;
        assert_eq!(c.settle(Motion::Forward, &mut w, 0.5), Motion::Stuck);
        assert_eq!(w.to_bits(), 0.0f64.to_bits());
        let mut w = -1e-9;
        assert_eq!(c.settle(Motion::Forward, &mut w, -2.0), Motion::Backward);
        // Still sliding: nothing changes.
        let mut w = 0.1;
        assert_eq!(c.settle(Motion::Forward, &mut w, -2.0), Motion::Forward);
        assert_eq!(w, 0.1);
    }
}
