//! Borello & Dalla Vedova's load-dependent dry friction with end stops: "A dry
//! friction model and robust computational algorithm for reversible or
//! irreversible motion transmissions", Int. J. Mechanics and Control 13(2), 2012.

use crate::integrators::inertia::Motion;
use crate::vocabulary::sign;
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
            limited(act, -negative, positive)
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

/// `(1 - e^-x)/x`, 1 at `x = 0`: the rate's and travel's decay factor.
fn decay1(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        -(-x).exp_m1() / x
    }
}

/// `(x - 1 + e^-x)/x^2`, 1/2 at `x = 0` (its series below 0.1, where the
/// direct form loses digits to cancellation).
fn decay2(x: f64) -> f64 {
    if x < 0.1 {
        // 1/2 - x/6 + x^2/24 - ...: the terms (-x)^n/(n+2)!, to x^9 (< 1e-16 relative at 0.1).
        let mut term = 0.5;
        let mut sum = 0.5;
        for n in 1..10 {
            term *= -x / (n + 2) as f64;
            sum += term;
        }
        sum
    } else {
        (x + (-x).exp_m1()) / (x * x)
    }
}

/// Motion under `J*dw/dt = A - CM*w` (a constant net torque `A` besides
/// the viscous term) from rate `w0`: the rate and angle travelled after `s`,
/// `w0*e^(-k s) + (A/J)*s*decay1(k s)` and `w0*s*decay1(k s) + (A/J)*s^2*decay2(k s)`
/// with `k = CM/J` (the constant-acceleration forms at `CM = 0`).
#[derive(Clone, Copy, Debug)]
struct Viscous {
    w0: f64,
    /// `A/J` (rad/s^2).
    acceleration: f64,
    /// `CM/J` (1/s).
    k: f64,
}

impl Viscous {
    fn rate(&self, s: f64) -> f64 {
        self.w0 * (-self.k * s).exp() + self.acceleration * s * decay1(self.k * s)
    }

    fn travel(&self, s: f64) -> f64 {
        self.w0 * s * decay1(self.k * s) + self.acceleration * s * s * decay2(self.k * s)
    }

    /// When the rate reaches 0, if it does (the net torque opposes the
    /// motion): `ln(1 - w0/w_inf)/k` with `w_inf = A/CM`, `-w0*J/A` at `CM = 0`.
    fn stop_time(&self) -> Option<f64> {
        if self.w0 == 0.0 || self.w0 * self.acceleration >= 0.0 {
            return None;
        }
        let y = -self.w0 / self.acceleration; // > 0: the undamped stop time
        Some(if self.k == 0.0 { y } else { (self.k * y).ln_1p() / self.k })
    }

    /// The instant in `(0, limit]` at which the travel reaches `distance`
    /// (same sign as the motion, which keeps its sense up to `limit`), if it
    /// does. Transcendental with damping: Newton on the monotone travel,
    /// kept inside its bracket, to the last bit.
    fn time_to_travel(&self, distance: f64, limit: f64) -> Option<f64> {
        if distance == 0.0 {
            return Some(0.0);
        }
        let direction = sign(distance);
        if (self.travel(limit) - distance) * direction < 0.0 {
            return None;
        }
        if self.k == 0.0 {
            return crate::laws::exact::first_positive_root(0.5 * self.acceleration, self.w0, -distance, limit);
        }
        let (mut low, mut high) = (0.0, limit);
        let mut s = limit;
        for _ in 0..200 {
            let error = self.travel(s) - distance;
            if error == 0.0 {
                return Some(s);
            }
            if error * direction > 0.0 {
                high = s;
            } else {
                low = s;
            }
            let newton = s - error / self.rate(s);
            let next = if newton > low && newton < high { newton } else { 0.5 * (low + high) };
            if next == s || next <= low || next >= high {
                break;
            }
            s = next;
        }
        Some(high)
    }
}

impl LoadDependentFriction {
    /// The same law as [`Self::step`] (statements 01-10, 16-17), integrated
    /// exactly with the torques held over `dt`, event by event. Between
    /// events the friction is constant (`FDO` or `FDA` by the sense of motion
    /// and load), so `JM*dw/dt = Act0 - TFR - CM*w` has the exponential
    /// solution of [`Viscous`]; a stop is its closed-form zero, after which
    /// the element sticks (`|Act|` within the static limits) or breaks away
    /// the other way at once; a hard stop is reached at the root of the
    /// travel (to the last bit), where the rate is zeroed (plastic impact)
    /// and the element stays while pressed into it. Rate AND angle are
    /// exact to rounding at any step: Table 1's Euler step delays every
    /// breakaway and stop by up to a step (the half-step average delay of its
    /// condition e) and integrates the viscous term explicitly.
    ///
    /// `friction` becomes the mean of `TFR` over the step (its value when
    /// one mode lasts the whole step).
    pub fn step_exact(&mut self, motor: f64, load: f64, dt: f64) {
        let act = motor - load; // 01 at rest; the viscous term is in Viscous
        let (fdo, fda) = self.dynamic_levels(load);
        let (negative, positive) = self.static_limits(load);
        let k = self.viscous / self.inertia;
        let (mut elapsed, mut impulse) = (0.0, 0.0);
        let mut whole_step = None;
        // Events per step: stop, breakaway, hard stop: a handful at most.
        for _ in 0..8 {
            let remaining = dt - elapsed;
            if remaining <= 0.0 {
                break;
            }
            let direction = if self.rate != 0.0 {
                sign(self.rate)
            } else {
                let pressed = (self.angle >= self.stop && act > 0.0) || (self.angle <= -self.stop && act < 0.0);
                if pressed || (-negative..=positive).contains(&act) {
                    // Stuck (or held by a hard stop) for the rest of the step.
                    let held = limited(act, -negative, positive);
                    impulse += held * remaining;
                    if elapsed == 0.0 {
                        whole_step = Some(held);
                    }
                    break;
                }
                sign(act)
            };
            let aided = direction * load < 0.0; // 06 (README reading)
            let friction = direction * if aided { fda } else { fdo };
            let motion = Viscous { w0: self.rate, acceleration: (act - friction) / self.inertia, k };
            let stop = motion.stop_time().filter(|&s| s <= remaining * (1.0 + 1e-12));
            let limit = stop.map_or(remaining, |s| s.min(remaining));
            let wall = motion.time_to_travel(direction * self.stop - self.angle, limit);
            let u = wall.unwrap_or(limit);
            if elapsed == 0.0 && u == remaining && wall.is_none() && stop.is_none() {
                whole_step = Some(friction);
            }
            impulse += friction * u;
            elapsed += u;
            if wall.is_some() {
                // Plastic impact: exactly at the stop, at rest (16-17).
                self.angle = direction * self.stop;
                self.rate = 0.0;
            } else {
                self.angle = (self.angle + motion.travel(u)).clamp(-self.stop, self.stop);
                let end = motion.rate(u);
                // At the stop instant, or a rounding residue of the other sign: at rest.
                self.rate = if stop.is_some() || end * direction <= 0.0 { 0.0 } else { end };
            }
        }
        self.friction = whole_step.unwrap_or(impulse / dt);
    }
}

/// `x` held within `[lo, hi]` like `f64::clamp`, but NaN instead of a panic
/// when the bounds are not ordered numbers: a friction level that overflowed
/// (`1/eta_opposing` infinite for a subnormal efficiency, times a zero load)
/// makes the step's result non-finite, which the caller can reject.
fn limited(x: f64, lo: f64, hi: f64) -> f64 {
    if lo <= hi {
        x.clamp(lo, hi)
    } else {
        f64::NAN
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

    /// Found by the fuzzer through FlapActuatorServo: a subnormal efficiency
    /// makes 1/eta infinite, times a zero load NaN, so a static limit is
    /// NaN; stepping at rest must not panic (f64::clamp does on NaN bounds)
    /// but give a non-finite result.
    #[test]
    fn an_overflowed_friction_level_gives_nan_not_a_panic() {
        let degenerate = LoadDependentFriction { eta_opposing: 1e-320, ..reversible() };
        let (_, positive) = degenerate.static_limits(0.0);
        assert!(positive.is_nan());
        let mut table1 = degenerate;
        table1.step(1.0, 0.0, 1e-3);
        assert!(!table1.rate.is_finite() || !table1.friction.is_finite());
        let mut exact = degenerate;
        exact.step_exact(1.0, 0.0, 1e-3);
        assert!(!exact.rate.is_finite() || !exact.friction.is_finite() || !exact.angle.is_finite());
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

    /// Closed form of an element coasting under `J*w' = A - CM*w` from
    /// `w0`: rate and travel after `t` (independent of [`Viscous`]).
    fn damped(j: f64, cm: f64, a: f64, w0: f64, t: f64) -> (f64, f64) {
        let (k, w_inf) = (cm / j, a / cm);
        let e = (-k * t).exp();
        (w_inf + (w0 - w_inf) * e, w_inf * t + (w0 - w_inf) * (1.0 - e) / k)
    }

    #[test]
    fn exact_coasting_stops_at_the_closed_form_angle_for_any_step() {
        // J = 2, w0 = 1, TFR0 = 0.5, CM = 0.1: w_inf = -5 rad/s, k = 0.05/s;
        // stop at ln(1.2)/k = 3.646 s after (w0 + w_inf*ln(1 - w0/w_inf))/k.
        let angle = 20.0 * (1.0 - 5.0 * 1.2_f64.ln());
        for dt in [1e-3, 0.3, 0.7, 1.0, 5.0] {
            let mut f =
                LoadDependentFriction { inertia: 2.0, base_friction: 0.5, stop: 10.0, rate: 1.0, ..reversible() };
            let steps = (10.0 / dt) as usize;
            for k in 1..=steps {
                f.step_exact(0.0, 0.0, dt);
                let t = k as f64 * dt;
                if t < 20.0 * 1.2_f64.ln() {
                    let (w, phi) = damped(2.0, 0.1, -0.5, 1.0, t);
                    assert!(
                        (f.rate - w).abs() <= 1e-12 && (f.angle - phi).abs() <= 1e-12,
                        "dt = {dt}, t = {t}: {:e} {:e}",
                        f.rate - w,
                        f.angle - phi
                    );
                }
            }
            assert_eq!(f.rate, 0.0);
            assert!((f.angle - angle).abs() <= 1e-12 + steps as f64 * 1e-16, "dt = {dt}: {} vs {angle}", f.angle);
        }
    }

    #[test]
    fn exact_reversal_stops_and_breaks_away_inside_the_step() {
        // J = 1, w0 = 1, TM = -5, no load, TFR0 = 1, FSD = 1.2, CM = 0.1:
        // A = -6 until the stop at ln(1 + 1/60)/0.1 s; |Act| = 5 > 1.2:
        // reverses at once with A = -4.
        let stop: f64 = (1.0_f64 / 60.0).ln_1p() / 0.1;
        let (_, travel1) = damped(1.0, 0.1, -6.0, 1.0, stop);
        for dt in [1e-3_f64, 0.3, 0.7] {
            let mut f = LoadDependentFriction { stop: 100.0, rate: 1.0, ..reversible() };
            let steps = (2.1_f64 / dt).round() as usize;
            for _ in 0..steps {
                f.step_exact(-5.0, 0.0, dt);
            }
            let (w, travel2) = damped(1.0, 0.1, -4.0, 0.0, steps as f64 * dt - stop);
            assert!((f.rate - w).abs() <= 1e-12, "dt = {dt}: {} vs {w}", f.rate);
            assert!((f.angle - travel1 - travel2).abs() <= 1e-12, "dt = {dt}: {}", f.angle - travel1 - travel2);
            assert_eq!(f.friction, -1.0, "sliding backward: TFR = -FDO");
        }
    }

    #[test]
    fn exact_hard_stop_is_reached_at_the_root_of_the_travel() {
        // Back-driven from rest (Act = -5 beyond the aided limit 3): J*w' =
        // -2.5 - 0.1*w up to the lower stop at -1 rad, then held there.
        let phi_at = |t: f64| damped(1.0, 0.1, -2.5, 0.0, t).1;
        let (mut low, mut high) = (0.0, 2.0);
        for _ in 0..200 {
            let mid = 0.5 * (low + high);
            if phi_at(mid) > -1.0 {
                low = mid
            } else {
                high = mid
            }
        }
        let impact = high;
        for dt in [1e-3_f64, 0.3, 0.7] {
            let mut f = reversible();
            for k in 1..=(2.1_f64 / dt).round() as usize {
                f.step_exact(0.0, 5.0, dt);
                let t = k as f64 * dt;
                if t < impact - 1e-9 {
                    let (w, phi) = damped(1.0, 0.1, -2.5, 0.0, t);
                    assert!((f.rate - w).abs() <= 1e-12 && (f.angle - phi).abs() <= 1e-12, "dt = {dt}, t = {t}");
                } else {
                    assert_eq!((f.angle, f.rate), (-1.0, 0.0), "dt = {dt}, t = {t}: held at the stop");
                }
            }
        }
        assert!((impact - 0.9).abs() < 0.05, "{impact}");
    }
}

/// Table 1's contact as a hybrid system (Model Exchange): the contact's
/// mode is a discrete [`Motion`] that changes only at events, as in
/// Modelica's friction elements. `act` is statement 01's `Act` at the
/// current state, viscous term included (`TM - TLD - CM*w`); `act_at_rest`
/// the same with `w = 0`.
impl LoadDependentFriction {
    /// Sliding friction `TFR` in `direction` (+-1): `FDO` with an opposing
    /// load, `FDA` with an aiding one (statements 02-03), signed.
    pub fn sliding_friction(&self, load: f64, direction: f64) -> f64 {
        let (fdo, fda) = self.dynamic_levels(load);
        let aided = direction * load < 0.0;
        direction * if aided { fda } else { fdo }
    }

    /// The motion of the element at rest under `act_at_rest`: it breaks
    /// away above a static limit (at it, where sliding would accelerate),
    /// and not into a stop it is pressed against (statements 08-10, 16-17).
    pub fn motion_from_rest(&self, act_at_rest: f64, load: f64) -> Motion {
        let (negative, positive) = self.static_limits(load);
        let moves = |direction: f64, level: f64| {
            let pushed = direction * act_at_rest;
            let pressed = direction * self.angle >= self.stop;
            !pressed
                && (pushed > level || (pushed == level && pushed > self.sliding_friction(load, direction) * direction))
        };
        if moves(1.0, positive) {
            Motion::Forward
        } else if moves(-1.0, negative) {
            Motion::Backward
        } else {
            Motion::Stuck
        }
    }

    /// In `contact`: sets `friction` (stuck: what holds `act`, within the
    /// static limits) and returns `dw/dt` (exactly 0 while stuck).
    pub fn contact_acceleration(&mut self, contact: Motion, act: f64, load: f64) -> f64 {
        let (negative, positive) = self.static_limits(load);
        self.friction = match contact {
            Motion::Stuck => act.max(-negative).min(positive), // no clamp: NaN limits must not panic
            moving => self.sliding_friction(load, moving.sign()),
        };
        if contact == Motion::Stuck {
            0.0
        } else {
            (act - self.friction) / self.inertia
        }
    }

    /// Three event indicators: stuck, the margins of `act_at_rest` to the
    /// static limits; sliding, the rate in the direction of motion (a
    /// stop), the load (its sign picks `FDO` or `FDA`) and the distance to
    /// the hard stop ahead.
    pub fn contact_indicators(&self, contact: Motion, act_at_rest: f64, load: f64, z: &mut [f64]) {
        match contact {
            Motion::Stuck => {
                let (negative, positive) = self.static_limits(load);
                z[0] = positive - act_at_rest;
                z[1] = negative + act_at_rest;
                z[2] = 1.0;
            }
            moving => {
                let direction = moving.sign();
                z[0] = direction * self.rate;
                z[1] = load;
                z[2] = self.stop - direction * self.angle;
            }
        }
    }

    /// At an event in `contact`: a plastic impact on the stop ahead (the
    /// angle set to exactly +-XJM, statements 16-17) or a stop of the motion
    /// sets the rate to exactly 0. True when the element is at rest, so that
    /// the caller decides the new mode with [`Self::motion_from_rest`].
    pub fn settle(&mut self, contact: Motion) -> bool {
        if contact != Motion::Stuck {
            let direction = contact.sign();
            let stopped = direction * self.rate <= 0.0;
            let at_wall = direction * self.angle >= self.stop;
            if at_wall {
                self.angle = direction * self.stop;
            }
            if stopped || at_wall {
                self.rate = 0.0;
            }
        }
        self.rate == 0.0
    }
}

/// The element under a held external load `TLD`, driven through a shaft
/// (`crate::integrators::shaft_load::Shaft::step_body`): the shaft's torque is the motor torque `TM`.
pub struct UnderLoad<'a> {
    pub element: &'a mut LoadDependentFriction,
    /// `TLD` (N.m), held over the step.
    pub load: f64,
}

impl crate::integrators::shaft_load::TorqueDriven for UnderLoad<'_> {
    fn angle(&self) -> f64 {
        self.element.angle
    }
    fn rate(&self) -> f64 {
        self.element.rate
    }
    /// Exact for the ramp's mean held over `h` (statements 01-17 event by event).
    fn advance_under(&mut self, applied: f64, slope: f64, h: f64) -> f64 {
        self.element.step_exact(applied + 0.5 * slope * h, self.load, h);
        0.0 - self.element.friction
    }
}
