//! A torque-driven motor for the shaft port: inertia `J_m`, a proportional
//! speed loop towards `w_c`, a feed-forward torque and the load torque of
//! the shaft as inputs; angle and rate out.
//!
//! ```text
//!  J_m * dw/dt = tau_m + K_v*(w_c - w) + tau_load,   dphi/dt = w
//! ```
//!
//! With a [`ShaftCoupling`] the motor also holds the shaft to the load
//! itself (an implicit coupling): `+ k*(phi_l(t) - phi) + d*(w_l - w)`, the
//! far end moving as `phi_l + w_l*t` over the step. The held shaft torque of
//! the plain exchange acts explicitly and may diverge under a Jacobi master
//! once `h*sqrt(k/J_m)` passes 0.2 (a weakly damped motor does at 0.32);
//! solved exactly against the far end's
//! motion, the motor side is stable at any step.

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

/// The shaft to the load as the motor sees it over a step: stiffness,
/// damping and the far end's motion (`far_angle + far_rate*t`), from the
/// shaft port's outputs at the step's start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ShaftCoupling {
    /// Torsional stiffness `k` (N.m/rad), >= 0; with `damping`, 0 means no shaft.
    pub stiffness: f64,
    /// Torsional damping `d` (N.m.s/rad), >= 0.
    pub damping: f64,
    /// Angle of the far end at the step's start (rad).
    pub far_angle: f64,
    /// Rate of the far end over the step (rad/s).
    pub far_rate: f64,
}

impl ShaftCoupling {
    /// A shaft is there (stiffness or damping set).
    pub fn is_present(&self) -> bool {
        self.stiffness > 0.0 || self.damping > 0.0
    }

    /// Torque of the shaft on the motor at `angle`, `rate`, `u` seconds into the step.
    pub fn torque(&self, angle: f64, rate: f64, u: f64) -> f64 {
        self.stiffness * (self.far_angle + self.far_rate * u - angle) + self.damping * (self.far_rate - rate)
    }
}

/// `(w(t) - w0, phi(t) - phi0 - w0*t)` of `J*dw/dt = b - g*w` from `w0`:
/// the exact exponential relaxation (uniform acceleration for `g = 0`).
fn relax(b: f64, gain: f64, inertia: f64, w0: f64, dt: f64) -> (f64, f64) {
    let alpha = gain / inertia;
    let x = alpha * dt;
    // (1 - e^(-x))/alpha without cancellation.
    let spread = if x < 1e-8 { dt * (1.0 - 0.5 * x) } else { -(-x).exp_m1() / alpha };
    // The initial acceleration a0: w(t) = w0 + a0*(1 - e^(-alpha t))/alpha,
    // phi = phi0 + w0 t + a0*(t - spread)/alpha.
    let a0 = (b - gain * w0) / inertia;
    let creep = if x < 1e-4 { dt * dt * (0.5 - x / 6.0 + x * x / 24.0) } else { (dt - spread) / alpha };
    (a0 * spread, a0 * creep)
}

/// `e^(A t)` of the damped oscillator `A = [[0, 1], [-w0sq, -2p]]`
/// (`w0sq > 0`, `p >= 0`), row-major, without overflow or cancellation in
/// any regime: `e^(-p t)(cos(wt) I + sin(wt)/w (A + p I))` when underdamped,
/// Sylvester's formula on the two real roots otherwise.
fn oscillator_exponential(w0sq: f64, p: f64, t: f64) -> [[f64; 2]; 2] {
    let q = p * p - w0sq;
    if q < 0.0 {
        let w = (-q).sqrt();
        let (decay, cos, sinc) = ((-p * t).exp(), (w * t).cos(), (w * t).sin() / w);
        [[decay * (cos + sinc * p), decay * sinc], [-decay * sinc * w0sq, decay * (cos - sinc * p)]]
    } else {
        // Roots l1 = -p + r (computed without cancellation) and l2 = -p - r.
        let r = q.sqrt();
        let (l1, l2) = (-w0sq / (p + r), -p - r);
        let e2 = (l2 * t).exp();
        // (e^(l1 t) - e^(l2 t))/(l1 - l2), l1 - l2 = 2r.
        let spread = if r == 0.0 {
            t * e2
        } else if 2.0 * r * t <= 1.0 {
            e2 * (2.0 * r * t).exp_m1() / (2.0 * r)
        } else {
            ((l1 * t).exp() - e2) / (2.0 * r)
        };
        // e2*I + spread*(A - l2 I), A - l2 I = [[-l2, 1], [-w0sq, l1]].
        [[e2 - spread * l2, spread], [-spread * w0sq, e2 + spread * l1]]
    }
}

impl MotorDrive {
    /// Advance by `dt` with the shaft to the load modelled here
    /// ([`ShaftCoupling`]), besides the held `load_torque`; exact for the far
    /// end moving as `far_angle + far_rate*t`. Without a shaft, [`Self::step`].
    ///
    /// In the twist `u = phi - phi_l(t)` and its rate `v = w - w_l`:
    /// `J_m u'' + (K_v + d) u' + k u = F`, `F = tau_m + tau_load + K_v*(w_c - w_l)`,
    /// a damped oscillator about `u = F/k` (a relaxation of `v` for `k = 0`).
    pub fn step_coupled(
        &mut self,
        motor_torque: f64,
        speed_command: f64,
        load_torque: f64,
        shaft: &ShaftCoupling,
        dt: f64,
    ) {
        if !shaft.is_present() {
            return self.step(motor_torque, speed_command, load_torque, dt);
        }
        let gain = self.speed_gain + shaft.damping;
        let force = motor_torque + load_torque + self.speed_gain * (speed_command - shaft.far_rate);
        let (u0, v0) = (self.angle - shaft.far_angle, self.rate - shaft.far_rate);
        let (u, v) = if shaft.stiffness == 0.0 {
            let (dv, creep) = relax(force, gain, self.inertia, v0, dt);
            (u0 + v0 * dt + creep, v0 + dv)
        } else {
            let rest = force / shaft.stiffness;
            let e = oscillator_exponential(shaft.stiffness / self.inertia, 0.5 * gain / self.inertia, dt);
            let e0 = u0 - rest;
            (rest + e[0][0] * e0 + e[0][1] * v0, e[1][0] * e0 + e[1][1] * v0)
        };
        self.angle = shaft.far_angle + shaft.far_rate * dt + u;
        self.rate = shaft.far_rate + v;
    }

    /// Advance by `dt` under the held feed-forward `motor_torque`, speed
    /// command `speed_command` and load torque `load_torque` (the shaft's
    /// torque on the motor, positive along the motor's rotation).
    pub fn step(&mut self, motor_torque: f64, speed_command: f64, load_torque: f64, dt: f64) {
        // Net torque at rate w: b - K_v*w, b = tau_m + K_v*w_c + tau_load.
        let b = motor_torque + self.speed_gain * speed_command + load_torque;
        let w0 = self.rate;
        let (dw, creep) = relax(b, self.speed_gain, self.inertia, w0, dt);
        self.rate = w0 + dw;
        self.angle += w0 * dt + creep;
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

    /// RK4 with 2e5 steps on `J w' = tau_m + K_v (w_c - w) + tau_l + k (phi_l + w_l t - phi) + d (w_l - w)`.
    fn fine(m: MotorDrive, tau_m: f64, w_c: f64, tau_l: f64, s: &ShaftCoupling, dt: f64) -> (f64, f64) {
        let f = |t: f64, phi: f64, w: f64| (tau_m + m.speed_gain * (w_c - w) + tau_l + s.torque(phi, w, t)) / m.inertia;
        let n = 200_000;
        let h = dt / n as f64;
        let (mut phi, mut w) = (m.angle, m.rate);
        for i in 0..n {
            let t = i as f64 * h;
            let (k1p, k1w) = (w, f(t, phi, w));
            let (k2p, k2w) = (w + 0.5 * h * k1w, f(t + 0.5 * h, phi + 0.5 * h * k1p, w + 0.5 * h * k1w));
            let (k3p, k3w) = (w + 0.5 * h * k2w, f(t + 0.5 * h, phi + 0.5 * h * k2p, w + 0.5 * h * k2w));
            let (k4p, k4w) = (w + h * k3w, f(t + h, phi + h * k3p, w + h * k3w));
            phi += h / 6.0 * (k1p + 2.0 * k2p + 2.0 * k3p + k4p);
            w += h / 6.0 * (k1w + 2.0 * k2w + 2.0 * k3w + k4w);
        }
        (phi, w)
    }

    #[test]
    fn coupled_step_is_exact_underdamped_overdamped_critical_and_damper_only() {
        let base = MotorDrive { inertia: 0.01, speed_gain: 0.1, angle: 0.3, rate: -1.0 };
        // (K_v, k, d): underdamped, overdamped, critically damped (K_v = 2 sqrt(k J)), damper only.
        for (gain, k, d) in [(0.1, 10.0, 0.0), (50.0, 10.0, 0.5), (2.0 * 0.1_f64.sqrt(), 10.0, 0.0), (0.1, 0.0, 0.3)] {
            let s = ShaftCoupling { stiffness: k, damping: d, far_angle: 0.1, far_rate: 0.7 };
            let m0 = MotorDrive { speed_gain: gain, ..base };
            let (phi, w) = fine(m0, 0.2, 2.0, -0.3, &s, 0.05);
            let mut m = m0;
            m.step_coupled(0.2, 2.0, -0.3, &s, 0.05);
            assert!(
                (m.angle - phi).abs() < 1e-11 && (m.rate - w).abs() < 1e-9,
                "K_v {gain} k {k} d {d}: {m:?} vs {phi} {w}"
            );
        }
    }

    #[test]
    fn coupled_step_stays_finite_when_stiff_and_heavily_damped() {
        // K_v/J_m = 1e6 and k/J_m = 1e9 over a long step: no overflow, the twist at rest.
        let mut m = MotorDrive { inertia: 0.01, speed_gain: 1e4, angle: 0.0, rate: 0.0 };
        let s = ShaftCoupling { stiffness: 1e7, damping: 0.0, far_angle: 0.0, far_rate: 0.0 };
        m.step_coupled(0.0, 0.5, 0.0, &s, 1.0);
        let rest = 1e4 * 0.5 / 1e7;
        assert!((m.angle - rest).abs() < 1e-15 && m.rate.abs() < 1e-12, "{m:?}");
        // Without a shaft the coupled step is the plain one.
        let (mut a, mut b) = (m, m);
        a.step_coupled(0.1, 0.2, 0.3, &ShaftCoupling::default(), 0.02);
        b.step(0.1, 0.2, 0.3, 0.02);
        assert_eq!(a, b);
    }
}
