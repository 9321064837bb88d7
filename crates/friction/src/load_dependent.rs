//! Borello & Dalla Vedova's load-dependent dry friction with end stops: "A dry
//! friction model and robust computational algorithm for reversible or
//! irreversible motion transmissions", Int. J. Mechanics and Control 13(2), 2012.

use crate::sign;
use serde::{Deserialize, Serialize};

/// Which of the five step conditions of Section 4 a step went through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepCondition {
    /// a) sticking, stays stuck: `|Act|` within the static limit.
    StaysStuck,
    /// b) sticking, breaks away in the sense of `Act`.
    BreaksAway,
    /// c) slipping, keeps slipping in the same sense.
    KeepsSlipping,
    /// d) slipping, the rate would reverse within the step: it stops.
    Stops,
    /// e) slipping, reverses with `|Act|` beyond the static limit: handled as
    /// d) now and b) at the next step (the paper's half-step average delay).
    StopsThenReverses,
}

/// Load-dependent Coulomb friction of one rigid element with viscous damping
/// and hard stops (Table 1, statements 01-17):
///
/// ```text
/// 01 Act = TM - TLD - CM*DXJ
/// 02 FDO = TFR0 + (1/EtO - 1)*|TLD|        opposing load, Eq. (3)
/// 03 FDA = TFR0 + (1 - EtA)*|TLD|          aiding load, Eq. (4)
/// 04-06 moving: TFR = FDO*sign(DXJ), or FDA*sign(DXJ) when the load aids
///       (DXJ*TLD < 0; the extraction's `DXJ.FR.LT.0.`, README reading)
/// 07-09 at rest: TFR = clamp(Act, -FSD*FDA, FSD*FDO) for TLD >= 0,
///       clamp(Act, -FSD*FDO, FSD*FDA) for TLD < 0 (`FSD - FDA` read FSD*FDA)
/// 11-13 D2XJ = (Act - TFR)/JM, explicit Euler
/// 14    a sign reversal within the step sets DXJ = 0
/// 15    XJ += (Old + DXJ)*DT/2, clamped to [-XJM, XJM]
/// 16-17 at a stop the rate may only leave it (plastic impact, undelayed departure)
/// ```
///
/// Statement 15 as extracted clamps the *old* position from below
/// (`MIN(MAX(-XJM, XJ) + ..., XJM)`); we clamp the new position on both sides,
/// which is what statements 16-17 need to detect the lower stop.
///
/// Sign convention: `TLD > 0` pushes towards negative angles (Act = TM - TLD).
/// An irreversible transmission (`EtA <= 0`) holds any load without motor
/// torque: at rest `|Act| = |TLD| < FSD*(TFR0 + (1 - EtA)*|TLD|)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LoadDependentFriction {
    /// `JM` (kg.m2), > 0.
    pub inertia: f64,
    /// `TFR0` (N.m): load-independent friction, >= 0.
    pub base_friction: f64,
    /// `EtO`: efficiency with opposing load, in (0, 1].
    pub eta_opposing: f64,
    /// `EtA`: efficiency with aiding load, <= 1 (<= 0: irreversible).
    pub eta_aiding: f64,
    /// `FSD`: static to dynamic friction ratio, >= 1.
    pub static_ratio: f64,
    /// `CM` (N.m.s/rad): viscous coefficient, >= 0.
    pub viscous: f64,
    /// `XJM` (rad): hard stops at +-XJM, > 0.
    pub stop: f64,
    /// `XJ` (rad).
    pub angle: f64,
    /// `DXJ` (rad/s).
    pub rate: f64,
    /// `TFR` (N.m) of the last step (opposes the motion; the torque on the
    /// element is `-TFR`).
    pub friction: f64,
}

impl LoadDependentFriction {
    /// Dynamic friction with opposing and aiding load (statements 02-03).
    pub fn dynamic_levels(&self, load: f64) -> (f64, f64) {
        let l = load.abs();
        (self.base_friction + (1.0 / self.eta_opposing - 1.0) * l, self.base_friction + (1.0 - self.eta_aiding) * l)
    }

    /// Static limits at rest `(towards negative, towards positive)` (statements 08-09).
    pub fn static_limits(&self, load: f64) -> (f64, f64) {
        let (fdo, fda) = self.dynamic_levels(load);
        let fsd = self.static_ratio;
        if load < 0.0 {
            (fsd * fdo, fsd * fda)
        } else {
            (fsd * fda, fsd * fdo)
        }
    }

    /// One step of Table 1 under motor torque `motor` and load `load`.
    pub fn step(&mut self, motor: f64, load: f64, dt: f64) -> StepCondition {
        let act = motor - load - self.viscous * self.rate; // 01
        let (fdo, fda) = self.dynamic_levels(load); // 02-03
        let moving = self.rate != 0.0; // 04
        let friction = if moving {
            let aided = self.rate * load < 0.0; // 06 (README reading)
            sign(self.rate) * if aided { fda } else { fdo } // 05-06
        } else {
            let (negative, positive) = self.static_limits(load); // 08-09
            act.clamp(-negative, positive)
        };
        let acceleration = (act - friction) / self.inertia; // 11
        let old = self.rate; // 12
        let mut rate = old + acceleration * dt; // 13
        let mut condition = if moving {
            StepCondition::KeepsSlipping
        } else if rate == 0.0 {
            StepCondition::StaysStuck
        } else {
            StepCondition::BreaksAway
        };
        if old * rate < 0.0 {
            // 14: stop within the step; e) when the active torque would carry
            // it on backwards past the static limit (breakaway next step).
            rate = 0.0;
            let (negative, positive) = self.static_limits(load);
            let beyond = if old > 0.0 { act < -negative } else { act > positive };
            condition = if beyond { StepCondition::StopsThenReverses } else { StepCondition::Stops };
        }
        // 15-17 with both bounds on the new position.
        let angle = (self.angle + (old + rate) * dt / 2.0).clamp(-self.stop, self.stop);
        if angle == -self.stop {
            rate = rate.max(0.0);
        }
        if angle == self.stop {
            rate = rate.min(0.0);
        }
        self.angle = angle;
        self.rate = rate;
        self.friction = friction;
        condition
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use StepCondition::*;

    fn reversible() -> LoadDependentFriction {
        LoadDependentFriction {
            inertia: 1.0,
            base_friction: 1.0,
            eta_opposing: 0.8,
            eta_aiding: 0.7,
            static_ratio: 1.2,
            viscous: 0.1,
            stop: 1.0,
            ..Default::default()
        }
    }

    #[test]
    fn a_stays_stuck_below_the_static_limit() {
        // Aided breakaway limit FSD*FDA = 1.2*(1 + 0.3*1) = 1.56 > |Act| = 1.
        let mut f = reversible();
        for _ in 0..100 {
            assert_eq!(f.step(0.0, 1.0, 0.01), StaysStuck);
        }
        assert_eq!((f.rate, f.angle, f.friction), (0.0, 0.0, -1.0));
    }

    #[test]
    fn b_breaks_away_with_the_excess_over_the_static_limit() {
        // Reversible, back-driven by a load above its static friction:
        // Act = -5, limit 1.2*(1 + 0.3*5) = 3, D2XJ = -2.
        let mut f = reversible();
        assert_eq!(f.step(0.0, 5.0, 0.01), BreaksAway);
        assert!((f.rate + 0.02).abs() < 1e-15);
        // Opposing breakaway uses EtO: limit 1.2*(1 + 0.25*5) = 2.7.
        let mut g = reversible();
        assert_eq!(g.step(7.0, 5.0, 0.01), StaysStuck);
        assert_eq!(g.step(7.8, 5.0, 0.01), BreaksAway);
        assert!((g.rate - 0.01 * (7.8 - 5.0 - 2.7)).abs() < 1e-12);
    }

    #[test]
    fn c_keeps_slipping_with_dynamic_friction() {
        let mut f = LoadDependentFriction { rate: 1.0, ..reversible() };
        assert_eq!(f.step(5.0, 0.0, 0.01), KeepsSlipping);
        assert!((f.rate - (1.0 + 0.01 * (5.0 - 0.1 - 1.0))).abs() < 1e-12);
        assert_eq!(f.friction, 1.0);
        // Moving backwards with the load aiding: FDA applies.
        let mut g = LoadDependentFriction { rate: -1.0, ..reversible() };
        g.step(0.0, 5.0, 0.01);
        assert!((g.friction + 2.5).abs() < 1e-12, "{}", g.friction);
    }

    #[test]
    fn d_stops_at_a_reversal_then_stays() {
        let mut f = LoadDependentFriction { rate: 0.001, ..reversible() };
        assert_eq!(f.step(0.0, 0.0, 0.01), Stops);
        assert_eq!(f.rate, 0.0);
        assert_eq!(f.step(0.0, 0.0, 0.01), StaysStuck);
    }

    #[test]
    fn e_reverses_through_a_stop_step_and_a_breakaway() {
        let mut f = LoadDependentFriction { rate: 0.001, ..reversible() };
        assert_eq!(f.step(-10.0, 0.0, 0.01), StopsThenReverses);
        assert_eq!(f.rate, 0.0);
        assert_eq!(f.step(-10.0, 0.0, 0.01), BreaksAway);
        assert!(f.rate < 0.0);
    }

    #[test]
    fn irreversible_transmission_holds_any_load_alone() {
        for eta_aiding in [0.0, -0.2, -0.4] {
            for load in [1.0, 1e3, 74500.0, -74500.0, 1e9] {
                let mut f = LoadDependentFriction { eta_aiding, ..reversible() };
                for _ in 0..10 {
                    assert_eq!(f.step(0.0, load, 0.01), StaysStuck, "EtA = {eta_aiding}, load {load}");
                }
                assert_eq!(f.rate, 0.0);
            }
        }
    }

    #[test]
    fn hard_stops_zero_the_rate_and_release_without_delay() {
        let mut f = LoadDependentFriction { rate: -5.0, angle: -0.95, ..reversible() };
        f.step(0.0, 20.0, 0.05);
        assert_eq!(f.angle, -1.0);
        assert_eq!(f.rate, 0.0);
        // Pressed into the stop: stays.
        f.step(0.0, 20.0, 0.05);
        assert_eq!((f.angle, f.rate), (-1.0, 0.0));
        // Pulled away: leaves at the very next step.
        let c = f.step(40.0, 20.0, 0.05);
        assert_eq!(c, BreaksAway);
        assert!(f.rate > 0.0 && f.angle > -1.0);
    }
}
