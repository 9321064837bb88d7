//! Velocity-map friction laws `F(w)` and their linearly implicit step.
//!
//! A map law gives the friction magnitude `F(w)` (odd in `w`, opposing the
//! motion: the torque on the body is `-F(w)`). Near zero speed these maps are
//! steep (Majd-Simaan's Eq. 6 with the paper's parameters rises at several
//! hundred N.m.s), so explicit Euler is stable only for
//! `dt < 2*J / F'(w)`. We step linearly implicitly instead:
//!
//! `w1 = w0 + dt*(T_ap - F(w0)) / (J + dt*c)`, `c = max(F'(w0), 0)`
//!
//! The tangent slope `F'` makes the rising part implicit. Where that step
//! would carry the rate past zero although the applied torque does not
//! oppose the motion (a small inertia overshooting into the flat part of the
//! curve, which would then oscillate), the step is redone with the secant
//! `c = max(F'(w0), F(w0)/w0)`: friction taken proportional to the rate
//! within the step, which can bring the rate to zero but never past it. So
//! a coasting body never reverses, whatever `J` and `dt`, and the accurate
//! tangent step is kept everywhere else.

use crate::vocabulary::Advance;

/// Friction as a function of the rate.
pub trait VelocityMap {
    /// Friction magnitude `F(w)` (N.m); the torque on the body is `-F(w)`.
    fn friction(&self, rate: f64) -> f64;
    /// `dF/dw` (N.m.s), used by the implicit step.
    fn slope(&self, rate: f64) -> f64;
    /// The level `F(0+)` the friction jumps to at `w = 0`, which holds a
    /// body at rest against any smaller torque (stiction); 0 for a map
    /// continuous at 0.
    fn static_level(&self) -> f64 {
        0.0
    }
    /// Both at once; laws override it to share their transcendental terms.
    #[inline]
    fn friction_and_slope(&self, rate: f64) -> (f64, f64) {
        (self.friction(rate), self.slope(rate))
    }
}

/// One linearly implicit Euler step of `J*dw/dt = T_ap - F(w)`, with the
/// map's stiction: a law whose friction jumps at `w = 0` to a holding level
/// `F(0+)` ([`VelocityMap::static_level`]: Stribeck's static level; 0 for a
/// map continuous there, as Majd-Simaan's) holds a body at rest, or stops
/// one whose rate would pass through 0, under any applied torque within
/// that level: `w` is then exactly 0, as in the law's Model Exchange form
/// with its stuck state.
/// Without it a creep of 1e-18 rad/s under a torque below the static level
/// was kicked to `h*(F(0+) + T_ap)/J` the other way for a step.
#[inline]
pub fn advance_map<M: VelocityMap>(map: &M, applied: f64, rate: f64, inertia: f64, dt: f64) -> Advance {
    let holds = |torque: f64| torque.abs() <= map.static_level() && map.static_level() > 0.0;
    if rate == 0.0 && holds(applied) {
        return Advance { rate: 0.0, friction: 0.0 - applied };
    }
    // Breaking away from rest: the map at 0+ in the torque's direction (the
    // static level against it, as Model Exchange's breakaway), not sign(0) = 0.
    let at = if rate == 0.0 && map.static_level() > 0.0 { f64::MIN_POSITIVE.copysign(applied) } else { rate };
    let (friction, slope) = map.friction_and_slope(at);
    let step = |damping: f64| rate + dt * (applied - friction) / (inertia + dt * damping.max(0.0));
    // Signs compared directly: products of subnormal rates underflow to 0.
    let reverses = |w: f64| (rate > 0.0 && w < 0.0) || (rate < 0.0 && w > 0.0);
    let opposed = (rate > 0.0 && applied < 0.0) || (rate < 0.0 && applied > 0.0);
    let mut new_rate = step(slope);
    if reverses(new_rate) && holds(applied) {
        // Through 0 under a torque the friction holds: the body stops there.
        new_rate = 0.0;
    } else if reverses(new_rate) && !opposed {
        // The tangent overshot zero (a small inertia on a curve that
        // flattens): take the secant, which friction alone cannot overshoot.
        new_rate = step(slope.max(friction / rate));
        if reverses(new_rate) {
            new_rate = 0.0; // only rounding at subnormal rates gets here
        }
    }
    Advance { rate: new_rate, friction: inertia * (new_rate - rate) / dt - applied }
}

/// Every velocity map is a rigid-body friction law through [`advance_map`].
macro_rules! map_law {
    ($t:ty) => {
        impl $crate::vocabulary::RigidBodyFriction for $t {
            #[inline]
            fn advance(&mut self, applied: f64, rate: f64, inertia: f64, dt: f64) -> $crate::vocabulary::Advance {
                crate::laws::smooth::advance_map(self, applied, rate, inertia, dt)
            }
        }
    };
}
pub(crate) use map_law;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::RigidBodyFriction;

    /// A steep linear map F = c*w: the implicit step decays monotonically at
    /// any dt, where explicit Euler diverges for dt > 2J/c.
    struct Linear(f64);
    impl VelocityMap for Linear {
        fn friction(&self, w: f64) -> f64 {
            self.0 * w
        }
        fn slope(&self, _: f64) -> f64 {
            self.0
        }
    }
    impl RigidBodyFriction for Linear {
        fn advance(&mut self, applied: f64, rate: f64, inertia: f64, dt: f64) -> Advance {
            advance_map(self, applied, rate, inertia, dt)
        }
    }

    /// A flat-topped map (Coulomb-like beyond a steep start): the tangent
    /// alone would overshoot zero with a small inertia; the secant does not.
    struct Saturating;
    impl VelocityMap for Saturating {
        fn friction(&self, w: f64) -> f64 {
            (w / 0.001).tanh()
        }
        fn slope(&self, w: f64) -> f64 {
            1000.0 / (w / 0.001).cosh().powi(2)
        }
    }
    impl RigidBodyFriction for Saturating {
        fn advance(&mut self, applied: f64, rate: f64, inertia: f64, dt: f64) -> Advance {
            advance_map(self, applied, rate, inertia, dt)
        }
    }

    #[test]
    fn a_coasting_body_never_reverses() {
        for j in [1e-6, 1e-4, 1e-2, 1.0] {
            for dt in [1e-4, 1e-3, 0.1] {
                let mut law = Saturating;
                let mut w = 1.0;
                for _ in 0..10_000 {
                    let next = law.advance(0.0, w, j, dt).rate;
                    assert!(next >= 0.0 && next <= w, "J = {j}, dt = {dt}: {w} -> {next}");
                    w = next;
                }
            }
        }
    }

    #[test]
    fn implicit_step_is_stable_where_explicit_euler_diverges() {
        let (c, j, dt) = (600.0, 0.01, 1e-3); // explicit factor c*dt/J = 60
        let mut law = Linear(c);
        let (mut w_implicit, mut w_explicit) = (1.0_f64, 1.0_f64);
        for _ in 0..50 {
            let next = law.advance(0.0, w_implicit, j, dt).rate;
            assert!(next >= 0.0 && next < w_implicit);
            w_implicit = next;
            w_explicit += dt * (-c * w_explicit) / j;
        }
        assert!(w_implicit < 1e-30);
        assert!(w_explicit.abs() > 1e50);
    }
}
