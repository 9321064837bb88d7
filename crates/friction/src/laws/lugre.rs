//! The LuGre friction model: C. Canudas de Wit, H. Olsson, K. J. Åström and
//! P. Lischinsky, "A New Model for Control of Systems with Friction", IEEE
//! Transactions on Automatic Control 40(3), 1995, taken over in rotational
//! units (a torque for the force, an angle for the displacement).
//!
//! The bristle deflection `z` (rad) follows the rate `w` (Eq. 3, 4):
//!
//! ```text
//! dz/dt = w - sigma0*|w|*z/g(w),   g(w) = F_c + (F_s - F_c)*exp(-(w/w_s)^2)
//! F     = sigma0*z + sigma1*dz/dt + sigma2*w                        (Eq. 2)
//! ```
//!
//! `F` opposes the motion: a body of inertia `J` under `tau` moves by
//! `J*dw/dt = tau - F`. At a constant rate the deflection settles to
//! `z_ss = g(w)*sign(w)/sigma0` and the friction to the Stribeck curve
//! `F_ss(w) = g(w)*sign(w) + sigma2*w` (Eq. 7); for small motions from rest
//! the bristles act as a spring of stiffness `sigma0` (presliding).
//!
//! The bristle state is stiff: it relaxes with the time constant
//! `g(w)/(sigma0*|w|)` (10 us at 1 rad/s with the paper's values), and at
//! rest the body and its bristles ring at `sqrt(sigma0/J)`. So a body is
//! stepped implicitly (backward Euler): for a given end rate the deflection
//! equation is linear in `z` and solved in closed form, which leaves one
//! monotone equation in the end rate, bracketed and solved by bisection.
//! The step is stable whatever its length (L-stable: the ringing and the
//! bristle relaxation are damped, not amplified) and first-order accurate.

use crate::vocabulary::{sign, Advance, RigidBodyFriction};
use serde::{Deserialize, Serialize};

/// The smallest rate a step reports (rad/s): 1e-9 of the paper's Stribeck
/// rate, 1e-7 of the creep under F_c; below it a body is at rest (0.0).
pub const REST_RATE: f64 = 1e-12;

/// LuGre friction with its bristle state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LuGre {
    /// `sigma0` (N.m/rad): the bristles' stiffness, > 0.
    pub bristle_stiffness: f64,
    /// `sigma1` (N.m.s/rad): the bristles' damping, >= 0.
    pub bristle_damping: f64,
    /// `sigma2` (N.m.s/rad): viscous friction, >= 0.
    pub viscous: f64,
    /// `F_c` (N.m): Coulomb friction, > 0.
    pub coulomb_torque: f64,
    /// `F_s` (N.m): static friction, >= `F_c`.
    pub static_torque: f64,
    /// `v_s` (rad/s): the Stribeck rate, > 0.
    pub stribeck_rate: f64,
    /// `z` (rad): the bristle deflection, the law's state.
    pub deflection: f64,
}

impl LuGre {
    /// The paper's parameters (Section II, the simulations of Section III):
    /// sigma0 = 1e5, sigma1 = sqrt(1e5), sigma2 = 0.4, F_c = 1, F_s = 1.5,
    /// v_s = 0.001, in rotational units; at rest, undeflected.
    pub fn paper() -> Self {
        Self {
            bristle_stiffness: 1e5,
            bristle_damping: 1e5f64.sqrt(),
            viscous: 0.4,
            coulomb_torque: 1.0,
            static_torque: 1.5,
            stribeck_rate: 0.001,
            deflection: 0.0,
        }
    }

    /// `g(w)`: the Stribeck level the bristles saturate at (Eq. 4).
    #[inline]
    pub fn stribeck_level(&self, rate: f64) -> f64 {
        let r = rate / self.stribeck_rate;
        self.coulomb_torque + (self.static_torque - self.coulomb_torque) * (-r * r).exp()
    }

    /// `dz/dt` at `rate` and deflection `z` (Eq. 3).
    #[inline]
    pub fn deflection_rate(&self, rate: f64, z: f64) -> f64 {
        rate - self.bristle_stiffness * rate.abs() * z / self.stribeck_level(rate)
    }

    /// The friction torque `F` (opposing the motion) at `rate` and `z` (Eq. 2).
    #[inline]
    pub fn friction(&self, rate: f64, z: f64) -> f64 {
        self.bristle_stiffness * z + self.bristle_damping * self.deflection_rate(rate, z) + self.viscous * rate
    }

    /// The steady-state friction at a constant `rate`: the Stribeck curve
    /// `g(w)*sign(w) + sigma2*w` (Eq. 7).
    pub fn steady_state(&self, rate: f64) -> f64 {
        self.stribeck_level(rate) * sign(rate) + self.viscous * rate
    }

    /// The deflection after `dt` at the constant `rate` from `z0`, exact:
    /// `z` relaxes to `z_ss = g*sign(w)/sigma0` at the rate `sigma0*|w|/g`.
    pub fn deflection_after(&self, rate: f64, z0: f64, dt: f64) -> f64 {
        if rate == 0.0 {
            return z0;
        }
        let g = self.stribeck_level(rate);
        let settled = g * sign(rate) / self.bristle_stiffness;
        settled + (z0 - settled) * (-self.bristle_stiffness * rate.abs() / g * dt).exp()
    }

    /// Backward Euler's deflection at the end of a step of `dt` that ends at
    /// the rate `rate`: `z1 = z0 + dt*(w1 - sigma0*|w1|*z1/g(w1))`, linear
    /// in `z1`.
    #[inline]
    fn implicit_deflection(&self, rate: f64, z0: f64, dt: f64) -> f64 {
        (z0 + dt * rate) / (1.0 + dt * self.bristle_stiffness * rate.abs() / self.stribeck_level(rate))
    }

    /// The end-of-step residual of `J*dw/dt = tau - F` for the end rate `w1`
    /// (backward Euler): increasing in `w1`, so its root is unique.
    #[inline]
    fn residual(&self, applied: f64, rate0: f64, inertia: f64, dt: f64, rate1: f64) -> f64 {
        let z1 = self.implicit_deflection(rate1, self.deflection, dt);
        let friction =
            self.bristle_stiffness * z1 + self.bristle_damping * (z1 - self.deflection) / dt + self.viscous * rate1;
        inertia * (rate1 - rate0) - dt * (applied - friction)
    }
}

impl RigidBodyFriction for LuGre {
    /// One backward-Euler step of the body and its bristles (see the
    /// module): the end rate is the root of [`LuGre::residual`], found by
    /// bisection in a bracket grown from the rate the applied torque alone
    /// would give; the deflection follows in closed form. `friction` is the
    /// torque on the body (`-F` at the end of the step), so that
    /// `inertia*(rate - rate0)/dt == applied + friction` holds exactly as
    /// the step's equation.
    fn advance(&mut self, applied: f64, rate: f64, inertia: f64, dt: f64) -> Advance {
        let f = |w: f64| self.residual(applied, rate, inertia, dt, w);
        // A bracket: from the start rate, widened by the largest rate change
        // any friction up to the step's torques could make.
        let reach = dt * (applied.abs() + self.static_torque + self.bristle_stiffness * self.deflection.abs())
            / inertia
            + self.bristle_damping * self.deflection.abs() / inertia;
        let mut span = reach.max(f64::MIN_POSITIVE) + rate.abs() * f64::EPSILON;
        let (mut lo, mut hi) = (rate - span, rate + span);
        // Widened at most to the whole line: an infinite span has no root to
        // find (a step that overflows), and the step ends non-finite.
        while (f(lo) > 0.0 || f(hi) < 0.0) && span.is_finite() {
            span *= 2.0;
            (lo, hi) = (rate - span, rate + span);
        }
        // Bisection to the rate's round-off (relative 2^-52, and 1e-18 rad/s
        // near rest, far below any rate the law distinguishes): about 60
        // halvings.
        loop {
            let mid = 0.5 * (lo + hi);
            // Written so that a NaN (a state or an input that is not finite,
            // or a bracket that overflowed) ends the search too: the step
            // then ends non-finite, and the caller refuses it, instead of
            // halving a NaN forever.
            if !(mid > lo && mid < hi) || hi - lo <= f64::EPSILON * lo.abs().max(hi.abs()) + 1e-18 {
                break;
            }
            if f(mid) > 0.0 {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let new_rate = if f(hi).abs() < f(lo).abs() { hi } else { lo };
        // At rest the body rings on its bristles (damping ratio
        // sigma1/(2*sqrt(sigma0*J)), 0.5 with the paper's values and J = 1)
        // and its rate changes sign each half period on its way down: below
        // REST_RATE that sign is round-off (an input rounded otherwise flips
        // it), so the rate is 0.0 there and the step's equation still holds.
        let new_rate = if new_rate.abs() < REST_RATE { 0.0 } else { new_rate };
        let z1 = self.implicit_deflection(new_rate, self.deflection, dt);
        let friction = inertia * (new_rate - rate) / dt - applied;
        self.deflection = z1;
        Advance { rate: new_rate, friction }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step whose numbers overflow (an inertia of 1.1e-312 kg.m2, the
    /// value the fuzz target found; any J > 0 is accepted) ends, non-finite,
    /// and so does the step after it from that state: before, the second
    /// halved a NaN bracket forever inside one `DoStep`.
    #[test]
    fn a_step_that_overflows_ends_and_says_so() {
        let mut law = LuGre::paper();
        let inertia = 1.12873630621e-312;
        let first = law.advance(0.0, 0.0, inertia, 3.0278183043882564e-144);
        assert!(first.rate.is_finite(), "a step this short still holds: {first:?}");
        let second = law.advance(0.0, first.rate, inertia, 1e-3);
        assert!(!second.rate.is_finite() || !law.deflection.is_finite(), "{second:?}, z = {}", law.deflection);
        let third = law.advance(0.0, second.rate, inertia, 1e-3);
        assert!(!third.rate.is_finite(), "{third:?}");
        // From a state that is not finite, whatever the inertia: the step
        // ends, and what it leaves is not finite either (the FMU checks
        // every Real variable, `z` among them, and refuses the step).
        let mut law = LuGre { deflection: f64::NAN, ..LuGre::paper() };
        let ended = law.advance(0.5, 0.0, 1.0, 1e-3);
        assert!(!ended.rate.is_finite() || !law.deflection.is_finite(), "{ended:?}");
        let mut law = LuGre::paper();
        assert!(!law.advance(0.5, f64::NEG_INFINITY, 1.0, 1e-3).rate.is_finite());
    }

    /// Eq. (7): at a constant rate the friction settles on the Stribeck
    /// curve g(w)*sign(w) + sigma2*w, from either side (checked on the
    /// exact deflection after 10 relaxation times).
    #[test]
    fn steady_state_is_the_stribeck_curve() {
        let law = LuGre::paper();
        for w in [1e-4, 5e-4, 1e-3, 3e-3, 1e-2, 0.1, 1.0, -1e-3, -0.2] {
            let g = law.stribeck_level(w);
            let relax = g / (law.bristle_stiffness * f64::abs(w));
            for z0 in [0.0, -2.0 * law.static_torque / law.bristle_stiffness] {
                let z = law.deflection_after(w, z0, 40.0 * relax);
                let f = law.friction(w, z);
                let ss = law.steady_state(w);
                assert!((f - ss).abs() <= 1e-9 * ss.abs(), "w = {w}: F = {f}, F_ss = {ss}");
            }
        }
        // The curve's ends: F_s at rest, F_c + sigma2*w far above v_s.
        assert!((law.steady_state(1e-9) - 1.5).abs() < 1e-9);
        assert!((law.steady_state(0.1) - (1.0 + 0.04)).abs() < 1e-12);
    }

    /// Presliding: from rest, a small angle x moves the bristles as a
    /// spring of stiffness sigma0 (the |w|*z/g term is second order in x).
    #[test]
    fn presliding_stiffness_is_sigma0() {
        let law = LuGre::paper();
        for x in [1e-8, 1e-7, 1e-6] {
            // A slow ramp: 1000 exact substeps at the rate x/T.
            let (mut z, rate, steps) = (0.0, x / 1.0, 1000);
            for _ in 0..steps {
                z = law.deflection_after(rate, z, 1.0 / steps as f64);
            }
            let spring = law.bristle_stiffness * z / x;
            // Eq. 3 to first order: z = x - sigma0*x^2/(2*g): stiffness sigma0*(1 - sigma0*x/(2*F_s)).
            let expected = law.bristle_stiffness * (1.0 - law.bristle_stiffness * x / (2.0 * law.static_torque));
            assert!((spring - expected).abs() <= 1e-3 * expected, "x = {x}: {spring} N.m/rad, expected {expected}");
        }
    }

    /// Under a constant torque below F_c the body does not slide: its rate
    /// decays to 0 and the bristles carry the torque, sigma0*z = tau; the
    /// angle stops (a little past z: the bristles give while the body
    /// rings), with no drift. So at every step from 0.1 ms to 0.1 s: the
    /// implicit step is stable however stiff the bristles.
    #[test]
    fn below_coulomb_the_body_only_presslides_at_any_step() {
        for dt in [1e-4, 1e-3, 1e-2, 1e-1] {
            let (mut law, mut rate, mut angle, inertia, tau) = (LuGre::paper(), 0.0, 0.0, 1.0, 0.5);
            let n = (2.0 / dt) as usize;
            let (mut peak, mut angle_at_1s): (f64, f64) = (0.0, 0.0);
            for k in 0..n {
                let a = law.advance(tau, rate, inertia, dt);
                angle += dt * a.rate;
                rate = a.rate;
                peak = peak.max(rate.abs());
                assert!(rate.is_finite() && law.deflection.is_finite(), "dt = {dt}");
                if k + 1 == n / 2 {
                    angle_at_1s = angle;
                }
            }
            let presliding = tau / law.bristle_stiffness;
            assert!(peak < 1e-2, "dt = {dt}: the body slid at {peak} rad/s");
            assert!(rate.abs() < 1e-6, "dt = {dt}: still moving at {rate} rad/s after 2 s");
            assert!((law.deflection - presliding).abs() < 1e-6 * presliding, "dt = {dt}: z = {}", law.deflection);
            assert!(angle >= 0.99 * presliding && angle < 2.0 * presliding, "dt = {dt}: angle {angle}");
            assert!((angle - angle_at_1s).abs() < 1e-3 * presliding, "dt = {dt}: drifts {}", angle - angle_at_1s);
        }
    }

    /// Above F_s the body breaks away and, once the bristles have settled,
    /// accelerates as the steady state says: J*dw/dt = tau - F_ss(w), so at
    /// 2 N.m it tends to w = (2 - 1)/0.4 = 2.5 rad/s (F_c + sigma2*w = 2).
    /// At 1 ms and 10 ms steps, each within its step's first-order error of
    /// the closed form of that ODE (F_ss = F_c + sigma2*w far above v_s).
    #[test]
    fn above_static_the_body_slides_on_the_steady_state_curve() {
        for (dt, tolerance) in [(1e-3, 5e-3), (1e-2, 5e-2)] {
            let (mut law, mut rate, inertia, tau) = (LuGre::paper(), 0.0, 1.0, 2.0);
            let n = (5.0 / dt) as usize;
            for _ in 0..n {
                rate = law.advance(tau, rate, inertia, dt).rate;
            }
            // dw/dt = (1 - 0.4*w)/J from w ~ 0: w = 2.5*(1 - exp(-0.4 t)).
            let exact = 2.5 * (1.0 - (-0.4f64 * 5.0).exp());
            assert!((rate - exact).abs() < tolerance * exact, "dt = {dt}: w(5 s) = {rate}, closed form {exact}");
            let f = law.friction(rate, law.deflection);
            assert!((f - law.steady_state(rate)).abs() < 1e-6, "dt = {dt}: on the curve: {f}");
        }
    }

    /// The step's own equation holds exactly: J*(w1 - w0)/dt = tau + friction.
    #[test]
    fn the_reported_friction_closes_the_momentum_balance() {
        let (mut law, inertia, dt) = (LuGre::paper(), 2.0, 1e-3);
        let mut rate = 0.3;
        for tau in [0.0, 1.2, -3.0, 0.7] {
            let a = law.advance(tau, rate, inertia, dt);
            let lhs = inertia * (a.rate - rate) / dt;
            assert!((lhs - (tau + a.friction)).abs() < 1e-9, "{lhs} vs {}", tau + a.friction);
            rate = a.rate;
        }
    }

    /// The belt stick-slip experiment the static + Coulomb law is checked
    /// on (`integrators::shaft_load`'s closed form): the drive end at
    /// v = 0.5 rad/s through k = 10 N.m/rad to a load J = 1, F_s = 1.5,
    /// F_c = 1; LuGre without its viscous term (sigma2 = 0: the paper's 0.4
    /// damps the cycle out at this speed) and with the paper's bristles.
    /// LuGre breaks away below F_s under a slowly rising force (the creep
    /// speeds up as the bristles near g): at F_b = k*v*t_b with t_b within
    /// 30 ms before the static law's F_s/(k*v) = 0.3 s (60 ms at 10 ms
    /// substeps: first order in the creep). From there it is the
    /// static law's cycle with F_b for F_s: a slip of
    /// (2*pi - 2*atan(B/v))/omega, B = (F_b - F_c)*omega/k (the swing about
    /// F_c ends at 2*F_c - F_b), then a stick of 2*(F_b - F_c)/(k*v), each
    /// within two 10 ms communication steps, and at substeps from 0.1 ms to
    /// 10 ms (backward Euler through the stiff bristles: the same cycle at
    /// every substep, none unstable). "Stuck" is a rate under 1e-3 rad/s:
    /// the bristles presslide, the load never stops exactly.
    #[test]
    fn belt_stick_slip_is_the_static_laws_cycle_at_any_substep() {
        use crate::integrators::inertia::FrictionInertia;
        use crate::integrators::shaft_load::{DriveEnd, Shaft};
        let (k, v, fs, fc): (f64, f64, f64, f64) = (10.0, 0.5, 1.5, 1.0);
        let omega = k.sqrt();
        let first_stick = fs / (k * v);
        let shaft = Shaft { stiffness: k, damping: 0.0 };
        for h in [1e-4_f64, 1e-3, 2e-3, 5e-3, 1e-2] {
            let law = LuGre { viscous: 0.0, ..LuGre::paper() };
            let mut body = FrictionInertia::new(law, 1.0, 0.0, 0.0);
            let dt = 0.01_f64;
            let n = (dt / h).round() as usize;
            // Instants where the load starts and stops sliding.
            let (mut changes, mut sliding) = (Vec::new(), false);
            for i in 0..300 {
                let t0 = i as f64 * dt;
                shaft.step_body(&DriveEnd { angle: v * t0, rate: v, acceleration: 0.0 }, dt, n, &mut body, None);
                assert!(body.rate.is_finite() && body.law.deflection.abs() <= fs / law.bristle_stiffness * 1.01);
                if (body.rate.abs() > 1e-3) != sliding {
                    sliding = !sliding;
                    changes.push(t0 + dt);
                }
            }
            assert!(changes.len() >= 3, "h = {h}: {changes:?}");
            let (breakaway, stop, again) = (changes[0], changes[1], changes[2]);
            // Backward Euler's first-order error in the creep: 0.28 s at
            // 0.1 to 2 ms substeps, 0.27 s at 5 ms, 0.25 s at 10 ms.
            let early = if h <= 5e-3 { 0.03 } else { 0.06 };
            assert!(breakaway <= first_stick + 1e-9 && breakaway >= first_stick - early - 1e-9, "h = {h}: {breakaway}");
            let level = k * v * breakaway;
            let b = (level - fc) * omega / k;
            let slip = (2.0 * std::f64::consts::PI - 2.0 * (b / v).atan()) / omega;
            let stick = 2.0 * (level - fc) / (k * v);
            assert!((stop - breakaway - slip).abs() <= 0.02, "h = {h}: slip {} vs {slip}", stop - breakaway);
            assert!((again - stop - stick).abs() <= 0.02, "h = {h}: stick {} vs {stick}", again - stop);
        }
    }
}
