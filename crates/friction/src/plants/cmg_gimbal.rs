//! The CMG gimbal rate loop of G. S. Nurre (NASA TM X-64934, 1974, Sections
//! IV-V, Fig. 4): a gimbal of inertia `I` on a pivot with Dahl friction, driven
//! by a proportional-integral loop that follows a filtered rate command.

use crate::laws::dahl::Dahl;
use serde::{Deserialize, Serialize};

/// Nurre Eqs. (10)-(12):
///
/// - Eq. (10): `I*theta'' = K_p*(theta1' - theta') + K_I*(theta1 - theta) - T_f`;
/// - Eq. (11), read as a first-order command filter (its dots were lost in the
///   text extraction): `K_p*theta1'' = K_I*(theta_c' - theta1')`, `theta1`
///   the integral of the filtered rate `theta1'`;
/// - Eq. (12): Dahl friction `T_f` (see [`Dahl`]).
///
/// With this filter the frictionless loop from `theta_c'` to `theta'` is the
/// pure second-order `K_I/(I s^2 + K_p s + K_I)`: natural frequency
/// `omega_c = sqrt(K_I/I)` and damping `zeta = K_p/(2*omega_c*I)` (Nurre's
/// Section V), because the filter's pole cancels the loop's zero.
///
/// A frictionless copy of the loop runs alongside (`ideal_*`), so every run
/// carries the response Nurre compares against ("with and without friction").
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GimbalRateLoop {
    /// Gimbal inertia `I` (kg.m2), > 0.
    pub inertia: f64,
    /// Rate-error gain `K_p` (N.m.s/rad), >= 0.
    pub rate_gain: f64,
    /// Angle-error gain `K_I` (N.m/rad), >= 0.
    pub angle_gain: f64,
    /// Pivot friction, Dahl's model (Nurre Eq. 12); its `torque` is `T_f`.
    pub friction: Dahl,
    /// Gimbal angle `theta` (rad).
    pub angle: f64,
    /// Gimbal rate `theta'` (rad/s).
    pub rate: f64,
    /// Filtered command angle `theta1` (rad).
    pub command_angle: f64,
    /// Filtered command rate `theta1'` (rad/s).
    pub command_rate: f64,
    /// Control torque `K_p*(theta1' - theta') + K_I*(theta1 - theta)` applied
    /// over the last step (N.m).
    pub control_torque: f64,
    /// The same loop without friction: angle and rate.
    pub ideal_angle: f64,
    pub ideal_rate: f64,
}

impl GimbalRateLoop {
    /// A gimbal at rest at angle 0 except for `rate`; a gimbal set moving
    /// starts in steady sliding, `T_f = T_f0*sign(rate)` (Nurre, Fig. 5: "for
    /// the first quarter of a second, until theta' changes sign, T_f = T_f0").
    /// The command filter starts at the gimbal's state, so no transient is
    /// commanded at t = 0.
    pub fn new(inertia: f64, rate_gain: f64, angle_gain: f64, running_torque: f64, gamma: f64, rate: f64) -> Self {
        let mut friction = Dahl { running_torque, gamma, torque: 0.0 };
        friction.torque = friction.sliding(rate);
        Self {
            inertia,
            rate_gain,
            angle_gain,
            friction,
            angle: 0.0,
            rate,
            command_angle: 0.0,
            command_rate: rate,
            control_torque: 0.0,
            ideal_angle: 0.0,
            ideal_rate: rate,
        }
    }

    /// The pivot friction torque acting on the gimbal, `-T_f` (N.m).
    pub fn friction_torque(&self) -> f64 {
        -self.friction.torque
    }

    /// Advance by `dt` under the rate command `theta_c'` held constant.
    ///
    /// The command filter is linear with a constant input, so it is advanced
    /// exactly. The gimbal uses symplectic Euler (rate from the torques at the
    /// start of the step, then angle and friction state from the new rate),
    /// which keeps the energy of the presliding and control springs; the
    /// `FMU` bounds the step against their frequencies.
    #[inline]
    pub fn step(&mut self, rate_command: f64, dt: f64) {
        let (theta1, theta1_rate) = (self.command_angle, self.command_rate);
        self.advance_filter(rate_command, dt);
        // Torques from the filter state at the start of the step (as for the
        // gimbal), so the loop with friction and the ideal loop see the same.
        let control =
            |angle: f64, rate: f64| self.rate_gain * (theta1_rate - rate) + self.angle_gain * (theta1 - angle);
        self.control_torque = control(self.angle, self.rate);
        let ideal_torque = control(self.ideal_angle, self.ideal_rate);
        let a = crate::vocabulary::RigidBodyFriction::advance(
            &mut self.friction,
            self.control_torque,
            self.rate,
            self.inertia,
            dt,
        );
        self.rate = a.rate;
        self.angle += dt * a.rate;
        self.ideal_rate += dt * ideal_torque / self.inertia;
        self.ideal_angle += dt * self.ideal_rate;
    }

    /// Eq. (11): `theta1'' = (K_I/K_p)*(theta_c' - theta1')`, exact over `dt`.
    /// With `K_p = 0` the filter has no lag: `theta1' = theta_c'`.
    fn advance_filter(&mut self, rate_command: f64, dt: f64) {
        let offset = self.command_rate - rate_command;
        if self.rate_gain > 0.0 {
            let a = self.angle_gain / self.rate_gain;
            let decay = (-a * dt).exp_m1(); // e^{-a dt} - 1, accurate for small a*dt
            self.command_angle += rate_command * dt - offset * if a > 0.0 { decay / a } else { -dt };
            self.command_rate = rate_command + offset * (1.0 + decay);
        } else {
            self.command_angle += rate_command * dt;
            self.command_rate = rate_command;
        }
    }

    /// Natural frequency of the frictionless loop, `sqrt(K_I/I)` (rad/s).
    pub fn loop_frequency(&self) -> f64 {
        (self.angle_gain / self.inertia).sqrt()
    }

    /// Natural frequency of the friction loop, `sqrt(gamma*T_f0^2/I)` (rad/s)
    /// (Nurre Section V).
    pub fn friction_frequency(&self) -> f64 {
        (self.friction.gamma * self.friction.running_torque.powi(2) / self.inertia).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unit step of `K_I/(I s^2 + K_p s + K_I)`.
    fn second_order_step(omega: f64, zeta: f64, t: f64) -> f64 {
        let wd = omega * (1.0 - zeta * zeta).sqrt();
        1.0 - (-zeta * omega * t).exp() * ((wd * t).cos() + zeta * omega / wd * (wd * t).sin())
    }

    #[test]
    fn frictionless_loop_is_nurres_second_order_system() {
        // Nurre: K_I = 1e4, K_p = 280, I = 5: omega_c = 44.7 rad/s (7.1 Hz), zeta = 0.626.
        let mut g = GimbalRateLoop::new(5.0, 280.0, 1e4, 0.27, 0.0, 0.0);
        let (omega, zeta) = (g.loop_frequency(), 280.0 / (2.0 * g.loop_frequency() * 5.0));
        assert!((omega - 44.72).abs() < 0.01 && (zeta - 0.626).abs() < 1e-3);
        let dt = 1e-4;
        let mut worst: f64 = 0.0;
        for k in 1..=5000 {
            g.step(5e-4, dt);
            let exact = 5e-4 * second_order_step(omega, zeta, k as f64 * dt);
            worst = worst.max((g.rate - exact).abs()).max((g.ideal_rate - exact).abs());
        }
        // gamma = 0 freezes the Dahl state at 0: the two loops agree and follow
        // the closed form to 1% of the command (first-order integration).
        assert!(worst < 5e-6, "worst {worst}");
        assert_eq!(g.rate, g.ideal_rate);
    }

    #[test]
    fn filter_is_exact_for_a_held_command() {
        let mut g = GimbalRateLoop::new(5.0, 280.0, 1e4, 0.27, 1.48e5, 0.0);
        let a: f64 = 1e4 / 280.0;
        let mut t: f64 = 0.0;
        for _ in 0..100 {
            g.step(1.0, 3e-3);
            t += 3e-3;
        }
        let rate = 1.0 - (-a * t).exp();
        let angle = t - (1.0 - (-a * t).exp()) / a;
        assert!((g.command_rate - rate).abs() < 1e-12 && (g.command_angle - angle).abs() < 1e-12);
    }

    #[test]
    fn free_decay_period_matches_nurres_equation_6() {
        // K_p = K_I = 0: Fig. 6 values; period 2*pi*sqrt(I/(gamma*Tf0^2)) = 0.1353 s.
        let mut g = GimbalRateLoop::new(5.0, 0.0, 0.0, 0.27, 1.48e5, 0.002);
        let dt = 1e-5;
        let mut crossings = Vec::new();
        let mut previous = g.rate;
        for k in 1..=100_000 {
            g.step(0.0, dt);
            if previous < 0.0 && g.rate >= 0.0 {
                crossings.push(k as f64 * dt);
            }
            previous = g.rate;
            assert!(g.friction.torque.abs() <= 0.27);
        }
        let period = crossings[2] - crossings[1];
        let expected = 2.0 * std::f64::consts::PI / g.friction_frequency();
        assert!((period / expected - 1.0).abs() < 0.01, "{period} vs {expected}");
    }
}
