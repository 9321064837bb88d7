//! Hill's predictive static + Coulomb friction algorithm for a known fixed step.
//!
//! R. E. Hill, "A New Algorithm for Modeling Friction in Dynamic Mechanical
//! Systems", JPL TDA Progress Report, Eqs. (1)-(6) and function block Y22.

use crate::vocabulary::{sign, Advance, RigidBodyFriction};
use serde::{Deserialize, Serialize};

/// Hill's predictive friction: static level `F_s`, Coulomb level `F_c`, and a
/// look-ahead to a zero crossing of the rate inside the integration interval.
///
/// With `t_oc/t_i = J*w / (t_i * (F_c*sign(w) - T_ap))` (Eq. 3), the four
/// conditions of Section II are:
///
/// 1. At rest, `|T_ap| > F_s`: breakaway, `T_f = -F_c*sign(T_ap)` (Eq. 1).
///    At rest with `|T_ap| <= F_s` the friction equals the applied torque and
///    the rate stays exactly zero. This includes `T_ap = 0`, where the Y22
///    listing would compute `YN2 = 0/0`: we decide it explicitly (stuck).
/// 2. Moving, no zero crossing (`t_oc/t_i < 0` or `> 1`): `T_f = -F_c*sign(w)` (Eq. 4).
/// 3. Zero crossing, `|T_ap| <= F_s`: the net torque `-J*w/t_i` (Eq. 5) brings
///    the body to rest exactly at the end of the interval; the new rate is
///    set to exactly `0.0` rather than computed, so rounding cannot leave a
///    residual creep.
/// 4. Zero crossing, `|T_ap| > F_s`: the friction reverses with the rate and
///    its average over the interval is `F_c*sign(w)*(1 - 2*t_oc/t_i)` (Eq. 6).
///
/// Our reading where the Y22 listing and the equations differ (we follow the
/// equations, whose derivation the text gives):
/// - the listing thresholds the stop/reverse choice on `F_c` (YY7) where
///   Eqs. (5)-(6) use `F_s`; physically the body comes to rest and static
///   friction, not Coulomb, decides whether it moves on;
/// - the listing's breakaway term is `U1 - F_s` (YY5) where Eq. (1) gives
///   `T_ap - F_c` ("instantaneous transition from the static to the sliding
///   friction", with the minimum net torque `F_s - F_c` the text mentions);
/// - a crossing exactly at the end of the interval (`t_oc/t_i = 1`) is a stop
///   (Eq. 5), not Eq. (4): both give the same net torque, but only the stop
///   yields an exact zero rate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HillFriction {
    /// Static (breakaway) friction torque `F_s` (N.m), >= `coulomb_torque`.
    pub static_torque: f64,
    /// Coulomb (sliding) friction torque `F_c` (N.m), >= 0.
    pub coulomb_torque: f64,
}

impl RigidBodyFriction for HillFriction {
    #[inline]
    fn advance(&mut self, applied: f64, rate: f64, inertia: f64, dt: f64) -> Advance {
        if rate == 0.0 {
            if applied.abs() <= self.static_torque {
                // At rest below breakaway: friction cancels the applied torque.
                return Advance { rate: 0.0, friction: 0.0 - applied }; // +0.0 at zero torque
            }
            // Condition (1), Eq. (1).
            let friction = -self.coulomb_torque * sign(applied);
            return Advance { rate: dt * (applied + friction) / inertia, friction };
        }
        let direction = sign(rate);
        // Torque that decelerates the body (Coulomb friction against the motion
        // minus the applied torque); a crossing needs it to oppose the rate.
        let decelerating = self.coulomb_torque * direction - applied;
        if decelerating * direction > 0.0 {
            // t_oc / t_i, Eq. (3); positive here by construction.
            let crossing = inertia * rate / (dt * decelerating);
            if crossing <= 1.0 {
                if applied.abs() <= self.static_torque {
                    // Condition (3), Eq. (5): stop exactly at the end of the step.
                    return Advance { rate: 0.0, friction: -inertia * rate / dt - applied };
                }
                // Condition (4), Eq. (6): the rate reverses within the step.
                let friction = self.coulomb_torque * direction * (1.0 - 2.0 * crossing);
                return Advance { rate: rate + dt * (applied + friction) / inertia, friction };
            }
        }
        // Condition (2), Eq. (4).
        let friction = -self.coulomb_torque * direction;
        Advance { rate: rate + dt * (applied + friction) / inertia, friction }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Y22 function block exactly as listed in Hill's Section III (logical
    /// variables as 0/1), except that the 0/0 of YN2 at rest with U1 = F_c*U3
    /// is mapped to 0. Used to check our branch form where the two agree.
    fn y22_listing(u1: f64, u2: f64, fs: f64, fc: f64, j: f64, ti: f64) -> f64 {
        let b = |c: bool| if c { 1.0 } else { 0.0 };
        let u3 = sign(u2);
        let yy1 = u1 > fc;
        let yy2 = u1 < -fc;
        let yy3 = u2 > 0.0;
        let yy4 = u2 < 0.0;
        let yy5 = u1 > fs && !(yy3 || yy4);
        let yy6 = u1 < -fs && !(yy3 || yy4);
        let yy7 = yy1 || yy2;
        let yn1 = u2 * j / ti;
        let denominator = u3 * fc - u1;
        let yn2 = if denominator == 0.0 { 0.0 } else { yn1 / denominator };
        let yy10 = yn2 > 0.0 && yn2 < 1.0;
        let y21 = (2.0 * yn2 - 1.0) * fc;
        (b(yy3) * (u1 - y21) + b(yy4) * (u1 + y21)) * b(yy7) * b(yy10)
            + (b(yy3) * (u1 - fc) + b(yy4) * (u1 + fc)) * (1.0 - b(yy10))
            + b(yy5) * (u1 - fs)
            + b(yy6) * (u1 + fs)
            - (1.0 - b(yy7)) * b(yy10) * yn1
    }

    fn net_torque(law: &mut HillFriction, applied: f64, rate: f64, j: f64, dt: f64) -> f64 {
        applied + law.advance(applied, rate, j, dt).friction
    }

    #[test]
    fn agrees_with_the_y22_listing_where_listing_and_equations_agree() {
        let (fs, fc, j, dt) = (1.25, 1.0, 2.0, 0.01);
        let mut law = HillFriction { static_torque: fs, coulomb_torque: fc };
        let mut compared = 0;
        for i in -40..=40 {
            let applied = i as f64 * 0.07;
            // The listing and the equations differ only for F_c < |T_ap| <= F_s
            // (threshold) and at rest beyond F_s (breakaway level).
            if applied.abs() > fc && applied.abs() <= fs {
                continue;
            }
            for k in -30..=30 {
                let rate = k as f64 * 0.0037;
                if rate == 0.0 && applied.abs() > fs {
                    continue;
                }
                let ours = net_torque(&mut law, applied, rate, j, dt);
                let listed = y22_listing(applied, rate, fs, fc, j, dt);
                assert!(
                    (ours - listed).abs() <= 1e-12 * (1.0 + listed.abs()),
                    "T_ap={applied} w={rate}: ours {ours}, listing {listed}"
                );
                compared += 1;
            }
        }
        assert!(compared > 3000, "compared only {compared} cases");
    }

    #[test]
    fn stays_exactly_at_rest_below_breakaway() {
        let mut law = HillFriction { static_torque: 1.2, coulomb_torque: 1.0 };
        for &applied in &[0.0, 0.3, -0.9, 1.1, 1.2, -1.2] {
            for &dt in &[1e-3, 1e-2, 0.1, 0.5] {
                let a = law.advance(applied, 0.0, 1.0, dt);
                assert_eq!(a.rate, 0.0);
                assert_eq!(a.friction, -applied);
            }
        }
    }

    #[test]
    fn breaks_away_above_static_with_coulomb_friction() {
        let mut law = HillFriction { static_torque: 1.2, coulomb_torque: 1.0 };
        let a = law.advance(1.3, 0.0, 2.0, 0.1);
        assert_eq!(a.friction, -1.0);
        assert!((a.rate - 0.1 * 0.3 / 2.0).abs() < 1e-15);
        let b = law.advance(-1.3, 0.0, 2.0, 0.1);
        assert_eq!(b.friction, 1.0);
        assert!(b.rate < 0.0);
    }

    #[test]
    fn stop_within_the_step_is_exact() {
        let mut law = HillFriction { static_torque: 1.2, coulomb_torque: 1.0 };
        // 0.004 rad/s at 1 rad/s^2 deceleration stops within a 10 ms step.
        let a = law.advance(0.0, 0.004, 1.0, 0.01);
        assert_eq!(a.rate, 0.0);
        assert!((a.friction + 0.4).abs() < 1e-12);
        // Not reachable within the step: plain Coulomb.
        let b = law.advance(0.0, 0.02, 1.0, 0.01);
        assert_eq!(b.friction, -1.0);
    }

    #[test]
    fn reversal_within_the_step_matches_the_exact_solution() {
        // w0 = 0.002, T_ap = -3, F_c = 1, J = 1, dt = 0.01:
        // decelerates at 4 rad/s^2, stops at t = 0.5 ms, then accelerates
        // backwards at 2 rad/s^2 for 9.5 ms: w = -0.019.
        let mut law = HillFriction { static_torque: 1.2, coulomb_torque: 1.0 };
        let a = law.advance(-3.0, 0.002, 1.0, 0.01);
        assert!((a.rate + 0.019).abs() < 1e-15, "{}", a.rate);
    }
}
