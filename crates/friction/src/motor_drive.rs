//! A torque-driven motor for the shaft port: inertia `J_m`, a proportional
//! speed loop towards `w_c`, a feed-forward torque and the load torque of
//! the shaft as inputs; angle and rate out.
//!
//! ```text
//!  J_m * dw/dt = tau_m + K_v*(w_c - w) + tau_load,   dphi/dt = w
//! ```

use serde::{Deserialize, Serialize};

/// Motor inertia with a proportional speed loop, solved exactly for inputs
/// held over a step: `w(t) = w_eq + (w_0 - w_eq) e^(-alpha t)` with
/// `alpha = K_v/J_m`, `w_eq = w_c + (tau_m + tau_load)/K_v` (a uniform
/// acceleration for `K_v = 0`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MotorDrive {
    /// Motor inertia `J_m` (kg.m2), > 0.
    pub inertia: f64,
    /// Speed-loop gain `K_v` (N.m.s/rad), >= 0.
    pub speed_gain: f64,
    /// Angle `phi` (rad).
    pub angle: f64,
    /// Rate `w` (rad/s).
    pub rate: f64,
}

impl MotorDrive {
    /// Advance by `dt` under the held feed-forward `motor_torque`, speed
    /// command `speed_command` and load torque `load_torque` (the shaft's
    /// torque on the motor, positive along the motor's rotation).
    pub fn step(&mut self, motor_torque: f64, speed_command: f64, load_torque: f64, dt: f64) {
        // Net torque at rate w: b - K_v*w, b = tau_m + K_v*w_c + tau_load.
        let b = motor_torque + self.speed_gain * speed_command + load_torque;
        let alpha = self.speed_gain / self.inertia;
        let x = alpha * dt;
        // (1 - e^(-x))/alpha without cancellation.
        let spread = if x < 1e-8 { dt * (1.0 - 0.5 * x) } else { -(-x).exp_m1() / alpha };
        let w0 = self.rate;
        let a0 = (b - self.speed_gain * w0) / self.inertia; // initial acceleration
                                                            // w(t) = w0 + a0*(1 - e^(-alpha t))/alpha; phi = phi0 + w0 t + a0*(t - spread)/alpha.
        self.rate = w0 + a0 * spread;
        let creep = if x < 1e-4 { dt * dt * (0.5 - x / 6.0 + x * x / 24.0) } else { (dt - spread) / alpha };
        self.angle += w0 * dt + a0 * creep;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_loop_relaxes_exactly_and_torque_drive_accelerates_uniformly() {
        let mut m = MotorDrive { inertia: 0.01, speed_gain: 1.0, angle: 0.0, rate: 0.0 };
        m.step(0.0, 2.0, 0.5, 0.03);
        // w_eq = 2 + 0.5 = 2.5, alpha = 100: w = 2.5 (1 - e^-3).
        let w = 2.5 * (1.0 - (-3.0_f64).exp());
        let phi = 2.5 * (0.03 - (1.0 - (-3.0_f64).exp()) / 100.0);
        assert!((m.rate - w).abs() < 1e-14 && (m.angle - phi).abs() < 1e-15, "{m:?}");
        let mut m = MotorDrive { inertia: 2.0, speed_gain: 0.0, angle: 1.0, rate: 0.5 };
        m.step(1.0, 3.0, -0.2, 2.0);
        assert!((m.rate - (0.5 + 0.4 * 2.0)).abs() < 1e-15, "{m:?}");
        assert!((m.angle - (1.0 + 1.0 + 0.5 * 0.4 * 4.0)).abs() < 1e-15, "{m:?}");
    }
}
