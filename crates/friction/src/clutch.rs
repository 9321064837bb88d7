//! Two inertias coupled by a friction clutch, with exact lock-up at a fixed
//! step (the 1-D blog's example, without its velocity tolerance).

use crate::sign;
use serde::{Deserialize, Serialize};

/// Two bodies `J1`, `J2` with external torques `T1`, `T2` and a clutch that
/// transmits at most `capacity` between them.
///
/// Locked, the clutch carries the sticking torque (blog):
/// `T_s = (T1*J2 - T2*J1) / (J1 + J2)`, and stays locked while `|T_s| <= capacity`.
/// Slipping, it carries `capacity*sign(w1 - w2)`. Like Hill's algorithm for
/// one body, each step predicts the zero crossing of the relative speed
/// `t_c = -v / a_rel` inside the step instead of using a velocity band:
/// - a crossing with `|T_s| <= capacity` locks at the end of the step, both
///   bodies taking the speed that conserves the total angular momentum
///   `(J1*w1 + J2*w2 + dt*(T1 + T2)) / (J1 + J2)`: exact, whatever the
///   clutch did inside the step, and bit-identical for both;
/// - a crossing with `|T_s| > capacity` reverses the slip; the clutch torque
///   averaged over the step is `capacity*sign(v)*(2*t_c/dt - 1)` (Hill Eq. 6).
///
/// Torques are held over the step (zero-order hold).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TwoInertiaClutch {
    pub inertia1: f64,
    pub inertia2: f64,
    pub angle1: f64,
    pub angle2: f64,
    pub rate1: f64,
    pub rate2: f64,
    /// Torque the clutch transmits from body 1 to body 2, averaged over the
    /// last step (body 1 feels `-tau`, body 2 `+tau`).
    pub clutch_torque: f64,
    /// Locked at the end of the last step (then `rate1 == rate2` exactly).
    pub locked: bool,
}

impl TwoInertiaClutch {
    pub fn new(inertia1: f64, inertia2: f64, rate1: f64, rate2: f64) -> Self {
        Self { inertia1, inertia2, rate1, rate2, locked: false, ..Default::default() }
    }

    /// The clutch torque that keeps the bodies together (blog).
    pub fn sticking_torque(&self, t1: f64, t2: f64) -> f64 {
        (t1 * self.inertia2 - t2 * self.inertia1) / (self.inertia1 + self.inertia2)
    }

    fn lock(&mut self, t1: f64, t2: f64, dt: f64) -> f64 {
        let (j1, j2) = (self.inertia1, self.inertia2);
        let w = (j1 * self.rate1 + j2 * self.rate2 + dt * (t1 + t2)) / (j1 + j2);
        self.locked = true;
        // Effective clutch torque from body 1's momentum balance.
        t1 - j1 * (w - self.rate1) / dt
    }

    /// Advance by `dt` under external torques `t1`, `t2` and clutch capacity
    /// `capacity` (>= 0), all held over the step.
    pub fn step(&mut self, t1: f64, t2: f64, capacity: f64, dt: f64) {
        let (j1, j2) = (self.inertia1, self.inertia2);
        let (w1, w2) = (self.rate1, self.rate2);
        let v = w1 - w2;
        let sticking = self.sticking_torque(t1, t2);
        let torque = if v == 0.0 {
            if sticking.abs() <= capacity {
                self.lock(t1, t2, dt)
            } else {
                self.locked = false;
                capacity * sign(sticking)
            }
        } else {
            self.locked = false;
            let slip = capacity * sign(v);
            let relative_acceleration = (t1 - slip) / j1 - (t2 + slip) / j2;
            let crosses = v * relative_acceleration < 0.0 && v.abs() <= relative_acceleration.abs() * dt;
            if !crosses {
                slip
            } else if sticking.abs() <= capacity {
                self.lock(t1, t2, dt)
            } else {
                let fraction = -v / (relative_acceleration * dt);
                slip * (2.0 * fraction - 1.0)
            }
        };
        let (n1, n2) = if self.locked {
            let w = (j1 * w1 + j2 * w2 + dt * (t1 + t2)) / (j1 + j2);
            (w, w)
        } else {
            (w1 + dt * (t1 - torque) / j1, w2 + dt * (t2 + torque) / j2)
        };
        self.angle1 += 0.5 * dt * (w1 + n1);
        self.angle2 += 0.5 * dt * (w2 + n2);
        self.rate1 = n1;
        self.rate2 = n2;
        self.clutch_torque = torque;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locks_exactly_with_momentum_conserved() {
        // w1 = 1, w2 = 0, no external torque, capacity 10, J = 1 each:
        // relative deceleration 20 rad/s^2 closes 1 rad/s in 50 ms.
        for &dt in &[1e-3, 0.01, 0.03, 0.2] {
            let mut c = TwoInertiaClutch::new(1.0, 1.0, 1.0, 0.0);
            let mut locked_at = None;
            for k in 1..=100 {
                c.step(0.0, 0.0, 10.0, dt);
                if c.locked && locked_at.is_none() {
                    locked_at = Some(k as f64 * dt);
                }
                if locked_at.is_some() {
                    assert!(c.locked);
                    assert_eq!(c.rate1, c.rate2);
                    assert!((c.rate1 - 0.5).abs() < 1e-12, "momentum conserved");
                }
                if k as f64 * dt > 1.0 {
                    break;
                }
            }
            let t = locked_at.unwrap();
            assert!(t >= 0.05 - 1e-12 && t < 0.05 + dt + 1e-12, "dt = {dt}: locked at {t}");
        }
    }

    #[test]
    fn slips_when_the_sticking_torque_exceeds_capacity() {
        let mut c = TwoInertiaClutch::new(1.0, 2.0, 0.0, 0.0);
        // T_s = (30*2 - 0)/3 = 20 > 5: slips forward with 5 N.m.
        c.step(30.0, 0.0, 5.0, 0.01);
        assert!(!c.locked);
        assert_eq!(c.clutch_torque, 5.0);
        assert!(c.rate1 > c.rate2);
        // Below capacity: stays together exactly.
        let mut d = TwoInertiaClutch::new(1.0, 2.0, 0.3, 0.3);
        d.step(3.0, -1.0, 5.0, 0.01);
        assert!(d.locked && d.rate1 == d.rate2);
        assert!((d.clutch_torque - d.sticking_torque(3.0, -1.0)).abs() < 1e-9);
    }

    #[test]
    fn reversal_matches_the_exact_piecewise_solution() {
        // v = 0.01, capacity 1, T1 = -10, T2 = 0, J = 1: |T_s| = 5 > 1.
        // Slip forward: a_rel = (-10 - 1) - 1 = -12, crossing at 0.01/12 s;
        // then backward: a_rel = (-10 + 1) + 1 = -8 for the rest.
        let dt = 0.01;
        let mut c = TwoInertiaClutch::new(1.0, 1.0, 0.01, 0.0);
        c.step(-10.0, 0.0, 1.0, dt);
        let tc = 0.01 / 12.0;
        let v_exact = -8.0 * (dt - tc);
        assert!((c.rate1 - c.rate2 - v_exact).abs() < 1e-12, "{}", c.rate1 - c.rate2);
    }
}
