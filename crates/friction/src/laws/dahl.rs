//! Dahl's square-law friction model as analysed by G. S. Nurre, "An Analysis
//! of the Dahl Friction Model and its Effect on a CMG Gimbal Rate
//! Controller", NASA TM X-64934, 1974.

use crate::vocabulary::{sign, Advance, RigidBodyFriction};
use serde::{Deserialize, Serialize};

/// Dahl friction: `dTf/dtheta = gamma*(Tf*sign(w) - Tf0)^2` (Nurre Eq. 2,
/// Eq. 4 in time), `Tf` the friction torque opposing the motion, `I*w' = T - Tf`.
///
/// Integrated exactly in the angle: for an increment `d > 0` the equation
/// `du/dtheta = -gamma*u^2` with `u = Tf0 - Tf` gives
/// `u1 = u0 / (1 + gamma*u0*d)`, and symmetrically for `d < 0` with
/// `v = Tf0 + Tf`. So `|Tf| <= Tf0` holds exactly whatever the step, and the
/// friction depends only on the path in angle, as Dahl's model does.
/// Small motions see the spring rate `gamma*Tf0^2` (Nurre Eqs. 5-6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Dahl {
    /// `Tf0` (N.m): the running (maximum) friction torque, > 0.
    pub running_torque: f64,
    /// `gamma` (1/(N.m.rad)), >= 0.
    pub gamma: f64,
    /// `Tf` (N.m): the friction state.
    pub torque: f64,
}

impl Dahl {
    /// Advance the friction state over an angle increment `d` (rad).
    #[inline]
    pub fn move_by(&mut self, d: f64) {
        let tf0 = self.running_torque;
        // Written as increments (u - u1 = u*g/(1+g)) to avoid cancellation
        // for the tiny angles of presliding.
        if d > 0.0 {
            let u = tf0 - self.torque;
            let g = self.gamma * u * d;
            self.torque += u * g / (1.0 + g);
        } else if d < 0.0 {
            let v = tf0 + self.torque;
            let g = -self.gamma * v * d;
            self.torque -= v * g / (1.0 + g);
        }
    }

    /// `dTf/dt` at `rate` (Nurre Eq. 4): `gamma*(Tf*sign(w) - Tf0)^2*w`, the
    /// rate form of what `move_by` integrates exactly in the angle.
    #[inline]
    pub fn torque_rate(&self, rate: f64) -> f64 {
        let gap = self.torque * sign(rate) - self.running_torque;
        self.gamma * gap * gap * rate
    }

    /// Steady sliding friction for a body moving at `rate`: `Tf0*sign(w)`.
    pub fn sliding(&self, rate: f64) -> f64 {
        self.running_torque * sign(rate)
    }
}

impl RigidBodyFriction for Dahl {
    /// Symplectic Euler: the rate from the current friction, then the angle
    /// step moves the friction state; the linear spring keeps its energy
    /// (no numerical damping), so any decay is the model's own.
    #[inline]
    fn advance(&mut self, applied: f64, rate: f64, inertia: f64, dt: f64) -> Advance {
        let friction = -self.torque;
        let new_rate = rate + dt * (applied + friction) / inertia;
        self.move_by(dt * new_rate);
        Advance { rate: new_rate, friction }
    }
}

/// Nurre Eq. (9): `Tf1/Tf0` at the start of a half cycle of a sinusoidal rate
/// of amplitude `a` (rad/s) and frequency `omega` (rad/s).
pub fn half_cycle_ratio(running_torque: f64, gamma: f64, a: f64, omega: f64) -> f64 {
    let x = running_torque * gamma * a / omega;
    -1.0 / (2.0 * x) + (1.0 / (4.0 * x * x) + 1.0).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_exceeds_the_running_torque() {
        let mut d = Dahl { running_torque: 0.27, gamma: 1.48e5, torque: 0.0 };
        for &step in &[1e-9, 1e-5, 1.0, 1e6, -3e6, 2.5e-4, -1e-7] {
            d.move_by(step);
            assert!(d.torque.abs() <= d.running_torque, "{}", d.torque);
        }
    }

    #[test]
    fn small_motion_stiffness_is_gamma_tf0_squared() {
        let mut d = Dahl { running_torque: 0.0424, gamma: 0.85e4, torque: 0.0 };
        d.move_by(1e-10);
        let k = 0.85e4 * 0.0424 * 0.0424;
        assert!((d.torque / 1e-10 - k).abs() < 1e-6 * k, "{}", d.torque / 1e-10);
    }

    #[test]
    fn exact_in_angle_whatever_the_partition() {
        let (mut a, mut b) = (
            Dahl { running_torque: 0.1, gamma: 300.0, torque: -0.05 },
            Dahl { running_torque: 0.1, gamma: 300.0, torque: -0.05 },
        );
        a.move_by(0.01);
        for _ in 0..1000 {
            b.move_by(1e-5);
        }
        assert!((a.torque - b.torque).abs() < 1e-14);
    }
}
