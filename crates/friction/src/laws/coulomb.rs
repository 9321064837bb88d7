//! The conventional Coulomb friction model (Hill, Fig. 1).

use crate::vocabulary::{sign, Advance, RigidBodyFriction};
use serde::{Deserialize, Serialize};

/// Conventional Coulomb friction: `tau_f = -F_c * sign(w)` with `sign(0) = 0`
/// (Hill, Fig. 1), integrated by explicit Euler.
///
/// This is the baseline every comparison uses. At zero rate it exerts no
/// friction at all, so an applied torque below the static level still
/// accelerates the body; at a fixed step the rate then chatters about a
/// non-zero mean (Hill, Section I).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ConventionalCoulomb {
    /// Coulomb (sliding) friction torque `F_c` (N.m), >= 0.
    pub coulomb_torque: f64,
}

impl RigidBodyFriction for ConventionalCoulomb {
    #[inline]
    fn advance(&mut self, applied: f64, rate: f64, inertia: f64, dt: f64) -> Advance {
        // `0.0 -` gives +0.0 rather than -0.0 at rest.
        let friction = 0.0 - self.coulomb_torque * sign(rate);
        Advance { rate: rate + dt * (applied + friction) / inertia, friction }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_friction_at_zero_rate() {
        let mut law = ConventionalCoulomb { coulomb_torque: 1.0 };
        let a = law.advance(0.5, 0.0, 1.0, 0.01);
        assert_eq!(a.friction, 0.0);
        assert!((a.rate - 0.005).abs() < 1e-15);
    }

    #[test]
    fn opposes_motion() {
        let mut law = ConventionalCoulomb { coulomb_torque: 2.0 };
        assert_eq!(law.advance(0.0, 3.0, 1.0, 0.1).friction, -2.0);
        assert_eq!(law.advance(0.0, -3.0, 1.0, 0.1).friction, 2.0);
    }
}
