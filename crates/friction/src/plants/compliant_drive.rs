//! A frictionless rotational plant for coupling studies: a motor inertia,
//! driven by a torque command and an optional proportional speed loop,
//! turning a load through a torsionally compliant shaft. The load itself
//! (its inertia and its friction) is not here: it is the 1-DOF friction body
//! on the other end of the shaft, e.g. in a friction FMU.
//!
//! ```text
//!  J_m * dw_m/dt = tau_m + K_v*(w_c - w_m) - tau_shaft
//!  tau_shaft     = k*(phi_m - phi_l) + d*(w_m - w_l)     (the torque on the load)
//! ```

use serde::{Deserialize, Serialize};

/// Motor, speed loop and shaft; the load's angle and rate are inputs.
///
/// Each step solves the linear motor equation exactly for inputs held over
/// the step (zero-order hold, as FMI 2.0 inputs without derivatives): no
/// step-size rule, whatever the stiffness of the shaft or the speed loop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CompliantDrive {
    /// Motor (rotor) inertia `J_m` (kg.m2), > 0.
    pub motor_inertia: f64,
    /// Proportional speed-loop gain `K_v` (N.m.s/rad), >= 0; 0 = torque drive only.
    pub speed_gain: f64,
    /// Shaft torsional stiffness `k` (N.m/rad), > 0.
    pub shaft_stiffness: f64,
    /// Shaft torsional damping `d` (N.m.s/rad), >= 0.
    pub shaft_damping: f64,
    /// Motor angle `phi_m` (rad).
    pub motor_angle: f64,
    /// Motor rate `w_m` (rad/s).
    pub motor_rate: f64,
    /// Torque the shaft applies to the load at the end of the last step (N.m).
    pub shaft_torque: f64,
}

/// What drives the motor and where the load is, held over one step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DriveInputs {
    /// Motor torque command `tau_m` (N.m).
    pub motor_torque: f64,
    /// Speed command `w_c` (rad/s) of the speed loop.
    pub speed_command: f64,
    /// Load angle `phi_l` (rad).
    pub load_angle: f64,
    /// Load rate `w_l` (rad/s).
    pub load_rate: f64,
}

impl CompliantDrive {
    /// Torque of the shaft on the load for the present motor state.
    #[inline]
    pub fn shaft_torque_for(&self, load_angle: f64, load_rate: f64) -> f64 {
        self.shaft_stiffness * (self.motor_angle - load_angle) + self.shaft_damping * (self.motor_rate - load_rate)
    }

    /// Advance by `dt` seconds. With `x = (phi_m, w_m)`, `x' = A x + b`
    /// and `b` constant, `x(dt) = x_eq + e^(A dt) (x0 - x_eq)` about the
    /// equilibrium `x_eq = (phi_l + (tau_m + K_v w_c + d w_l)/k, 0)`.
    /// `A = [[0, 1], [-k/J, -c/J]]` (`c = K_v + d`) has the trace `2s`,
    /// `s = -c/(2J)`, so `e^(A t) = e^(st) [C I + S (A - s I)]` with
    /// `C = cosh(qt)`, `S = sinh(qt)/q`, `q^2 = s^2 - k/J` (cos and sin for
    /// `q^2 < 0`), each product with `e^(st)` formed without overflow.
    #[inline]
    pub fn step(&mut self, u: DriveInputs, dt: f64) {
        let (j, k) = (self.motor_inertia, self.shaft_stiffness);
        let s = -(self.speed_gain + self.shaft_damping) / (2.0 * j);
        let q2 = s * s - k / j;
        let (c, sh) = exp_cosh_sinh(s, q2, dt);
        let phi_eq =
            u.load_angle + (u.motor_torque + self.speed_gain * u.speed_command + self.shaft_damping * u.load_rate) / k;
        let (e0, w0) = (self.motor_angle - phi_eq, self.motor_rate);
        self.motor_angle = phi_eq + (c - s * sh) * e0 + sh * w0;
        self.motor_rate = -(k / j) * sh * e0 + (c + s * sh) * w0;
        self.shaft_torque = self.shaft_torque_for(u.load_angle, u.load_rate);
    }
}

/// `(e^(st) C(t), e^(st) S(t))` for `C = cosh(qt)`, `S = sinh(qt)/q`,
/// `q = sqrt(q2)`; trigonometric for `q2 < 0`, a series near `q = 0`, and
/// for real `q` as `(e^((s+q)t) +- e^((s-q)t))/2` (`s + q <= 0` here, so
/// nothing overflows however stiff the modes).
pub(crate) fn exp_cosh_sinh(s: f64, q2: f64, t: f64) -> (f64, f64) {
    let x2 = q2 * t * t;
    if x2.abs() < 1e-8 {
        let e = (s * t).exp();
        return (e * (1.0 + x2 / 2.0), e * t * (1.0 + x2 / 6.0));
    }
    if q2 < 0.0 {
        let (omega, e) = ((-q2).sqrt(), (s * t).exp());
        return (e * (omega * t).cos(), e * (omega * t).sin() / omega);
    }
    let q = q2.sqrt();
    let (fast, slow) = (((s - q) * t).exp(), ((s + q) * t).exp());
    (0.5 * (slow + fast), 0.5 * (slow - fast) / q)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Load held still, constant torque: a damped oscillator about
    /// `phi_eq = tau/k` with `omega_n^2 = k/J`, `2 zeta omega_n = d/J`:
    /// `phi(t) = phi_eq (1 - e^(-zeta w t) (cos w_d t + zeta w/w_d sin w_d t))`.
    #[test]
    fn held_load_matches_the_damped_oscillator() {
        let (j, k, d, tau): (f64, f64, f64, f64) = (0.01, 10.0, 0.05, 2.0);
        let (wn, zeta) = ((k / j).sqrt(), d / (2.0 * (k * j).sqrt()));
        let wd = wn * (1.0 - zeta * zeta).sqrt();
        let exact = |t: f64| {
            let e = (-zeta * wn * t).exp();
            (tau / k) * (1.0 - e * ((wd * t).cos() + zeta * wn / wd * (wd * t).sin()))
        };
        // Exact for held inputs: round-off only, at any step.
        for &dt in &[1e-3_f64, 0.01, 0.1] {
            let mut drive =
                CompliantDrive { motor_inertia: j, shaft_stiffness: k, shaft_damping: d, ..Default::default() };
            let u = DriveInputs { motor_torque: tau, ..Default::default() };
            let n = (1.0 / dt).round() as usize;
            let mut worst: f64 = 0.0;
            for i in 1..=n {
                drive.step(u, dt);
                worst = worst.max((drive.motor_angle - exact(i as f64 * dt)).abs());
            }
            assert!(worst < 1e-12, "dt = {dt}: max angle error {worst} rad");
        }
    }

    /// The speed loop holds the motor at `w_c - tau_shaft/K_v` (its droop);
    /// a shaft against a still load winds up until `tau_shaft = K_v*w_c`.
    #[test]
    fn speed_loop_winds_the_shaft_up_to_its_stall_torque() {
        let mut drive = CompliantDrive {
            motor_inertia: 0.01,
            speed_gain: 50.0,
            shaft_stiffness: 10.0,
            shaft_damping: 0.1,
            ..Default::default()
        };
        let u = DriveInputs { speed_command: 1.0, ..Default::default() };
        for _ in 0..200_000 {
            drive.step(u, 1e-3);
        }
        assert!((drive.shaft_torque - 50.0).abs() < 1e-9, "{}", drive.shaft_torque);
        assert!(drive.motor_rate.abs() < 1e-9);
    }

    /// Any step: a stiff speed loop at a step 10^4 times its time constant
    /// lands on the equilibrium, neither ringing nor overflowing.
    #[test]
    fn stable_at_steps_far_beyond_the_motor_modes() {
        let mut drive = CompliantDrive {
            motor_inertia: 1e-4,
            speed_gain: 100.0,
            shaft_stiffness: 1e4,
            shaft_damping: 0.0,
            ..Default::default()
        };
        let u = DriveInputs { motor_torque: 1.0, speed_command: 0.0, load_angle: 0.3, load_rate: 0.0 };
        for _ in 0..20 {
            drive.step(u, 0.05);
            assert!(drive.motor_angle.is_finite() && drive.motor_angle.abs() < 1.0);
        }
        assert!((drive.motor_angle - (0.3 + 1e-4)).abs() < 1e-9, "{}", drive.motor_angle);
        assert!((drive.shaft_torque - 1.0).abs() < 1e-6);
    }
}
