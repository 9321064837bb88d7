//! Classical static / Coulomb / viscous / Stribeck friction maps
//! (Majd & Simaan, Eqs. 2, 3 and 4).

use crate::laws::smooth::{map_law, VelocityMap};
use crate::vocabulary::sign;
use serde::{Deserialize, Serialize};

/// Which of the classical maps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClassicalShape {
    /// Eq. (2): `f_s*sign(w)` inside the band `|w| < epsilon`, else
    /// `f_w*w + f_c*sign(w)`.
    #[default]
    StaticBand,
    /// Eq. (3): `f_w*w + f_c*sign(w) + (f_s - f_c)/(1 + |w/w_c|^m)` (the last
    /// term taken with the sign of `w`, as the friction is odd in `w`).
    Rational,
    /// Eq. (4) generalised: `f_w*w + [f_c + (f_s - f_c)*exp(-|w/w_c|^m)]*sign(w)`;
    /// `m = 1` is Eq. (4) itself.
    Exponential,
}

/// Classical friction with viscous `f_w`, Coulomb `f_c`, static `f_s`,
/// Stribeck velocity `w_c` and exponent `m`, band `epsilon` (Eq. 2).
/// All three reduce to Eq. (5), `f_w*w + f_c*sign(w)`, for `|w| >> w_c`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClassicalFriction {
    pub shape: ClassicalShape,
    /// `f_w` (N.m.s/rad).
    pub viscous: f64,
    /// `f_c` (N.m).
    pub coulomb_torque: f64,
    /// `f_s` (N.m), >= `f_c`.
    pub static_torque: f64,
    /// `w_c` (rad/s), > 0.
    pub stribeck_velocity: f64,
    /// `m`, > 0.
    pub exponent: f64,
    /// `epsilon` of Eq. (2) (rad/s), > 0.
    pub band: f64,
}

impl ClassicalFriction {
    /// Eq. (5): the high-speed asymptote shared by Eqs. (2)-(4).
    pub fn asymptote(&self, w: f64) -> f64 {
        self.viscous * w + self.coulomb_torque * sign(w)
    }
}

impl VelocityMap for ClassicalFriction {
    /// Eqs. (2)-(4) at 0+: the static torque `F_s`, the stiction that holds
    /// a body at rest (the laws' `sign(w)` jumps there).
    fn static_level(&self) -> f64 {
        self.static_torque
    }

    /// One evaluation of the powers and the exponential for both values
    /// (the implicit step needs both every step).
    #[inline]
    fn friction_and_slope(&self, w: f64) -> (f64, f64) {
        let stiction = self.static_torque - self.coulomb_torque;
        match self.shape {
            ClassicalShape::StaticBand => (self.friction(w), self.viscous),
            ClassicalShape::Rational => {
                let (xm, xm1) = self.powers(w);
                let d = 1.0 + xm;
                let f = self.asymptote(w) + stiction / d * sign(w);
                let slope = if w == 0.0 {
                    self.viscous
                } else {
                    self.viscous - stiction * self.exponent * xm1 / (d * d * self.stribeck_velocity)
                };
                (f, slope)
            }
            ClassicalShape::Exponential => {
                let (xm, xm1) = self.powers(w);
                let e = (-xm).exp();
                let f = self.asymptote(w) + stiction * e * sign(w);
                let slope = if w == 0.0 {
                    self.viscous
                } else {
                    self.viscous - stiction * self.exponent * xm1 * e / self.stribeck_velocity
                };
                (f, slope)
            }
        }
    }

    #[inline]
    fn friction(&self, w: f64) -> f64 {
        let stiction = self.static_torque - self.coulomb_torque;
        match self.shape {
            ClassicalShape::StaticBand => {
                if w.abs() < self.band {
                    self.static_torque * sign(w)
                } else {
                    self.asymptote(w)
                }
            }
            ClassicalShape::Rational => {
                self.asymptote(w) + stiction / (1.0 + (w / self.stribeck_velocity).abs().powf(self.exponent)) * sign(w)
            }
            ClassicalShape::Exponential => {
                self.asymptote(w) + stiction * (-(w / self.stribeck_velocity).abs().powf(self.exponent)).exp() * sign(w)
            }
        }
    }

    #[inline]
    fn slope(&self, w: f64) -> f64 {
        let stiction = self.static_torque - self.coulomb_torque;
        let x = (w / self.stribeck_velocity).abs();
        let m = self.exponent;
        match self.shape {
            ClassicalShape::StaticBand => self.viscous,
            _ if w == 0.0 => self.viscous,
            ClassicalShape::Rational => {
                let d = 1.0 + x.powf(m);
                self.viscous - stiction * m * x.powf(m - 1.0) / (d * d * self.stribeck_velocity)
            }
            ClassicalShape::Exponential => {
                self.viscous - stiction * m * x.powf(m - 1.0) * (-x.powf(m)).exp() / self.stribeck_velocity
            }
        }
    }
}

impl ClassicalFriction {
    /// `|w/w_c|^m` and `|w/w_c|^(m-1)`, without `powf` for the usual m = 1.
    #[inline]
    fn powers(&self, w: f64) -> (f64, f64) {
        let x = (w / self.stribeck_velocity).abs();
        if self.exponent == 1.0 {
            (x, 1.0)
        } else {
            let xm = x.powf(self.exponent);
            (xm, if x == 0.0 { 0.0 } else { xm / x })
        }
    }
}

map_law!(ClassicalFriction);

#[cfg(test)]
mod tests {
    use super::*;

    fn law(shape: ClassicalShape) -> ClassicalFriction {
        ClassicalFriction {
            shape,
            viscous: 0.05,
            coulomb_torque: 0.5,
            static_torque: 0.95,
            stribeck_velocity: 0.019,
            exponent: 1.0,
            band: 1e-3,
        }
    }

    #[test]
    fn all_three_reduce_to_eq5_away_from_zero() {
        for shape in [ClassicalShape::StaticBand, ClassicalShape::Rational, ClassicalShape::Exponential] {
            let f = law(shape);
            for &w in &[1.0, -2.0, 5.0] {
                // |w| >= 50 w_c: the Stribeck term is below 2% of f_s - f_c (Eq. 3)
                // and negligible for Eq. 4.
                let rel = (f.friction(w) - f.asymptote(w)).abs() / (f.static_torque - f.coulomb_torque);
                assert!(rel < 0.02, "{shape:?} at {w}: {rel}");
            }
        }
    }

    #[test]
    fn static_level_at_zero_plus_and_odd_symmetry() {
        for shape in [ClassicalShape::StaticBand, ClassicalShape::Rational, ClassicalShape::Exponential] {
            let f = law(shape);
            assert!((f.friction(1e-12) - 0.95).abs() < 1e-6, "{shape:?}");
            assert_eq!(f.friction(0.0), 0.0);
            for &w in &[1e-4, 0.01, 0.3] {
                assert_eq!(f.friction(-w), -f.friction(w));
            }
        }
    }

    #[test]
    fn combined_evaluation_matches_the_separate_ones() {
        for shape in [ClassicalShape::StaticBand, ClassicalShape::Rational, ClassicalShape::Exponential] {
            for m in [1.0, 1.7, 0.6] {
                let f = ClassicalFriction { exponent: m, ..law(shape) };
                for &w in &[0.0, 1e-5, -0.003, 0.02, -0.4, 3.0] {
                    let (a, b) = f.friction_and_slope(w);
                    assert!((a - f.friction(w)).abs() <= 1e-12 * (1.0 + a.abs()), "{shape:?} m={m} w={w}");
                    assert!(
                        (b - f.slope(w)).abs() <= 1e-9 * (1.0 + b.abs()),
                        "{shape:?} m={m} w={w}: {b} vs {}",
                        f.slope(w)
                    );
                }
            }
        }
    }

    #[test]
    fn slope_matches_finite_differences() {
        for shape in [ClassicalShape::Rational, ClassicalShape::Exponential] {
            let f = ClassicalFriction { exponent: 1.7, ..law(shape) };
            for &w in &[0.003, 0.02, -0.05, 0.4] {
                let h = 1e-7;
                let fd = (f.friction(w + h) - f.friction(w - h)) / (2.0 * h);
                assert!((f.slope(w) - fd).abs() < 1e-4 * (1.0 + fd.abs()), "{shape:?} {w}: {} vs {fd}", f.slope(w));
            }
        }
    }

    /// Stribeck's classical law (a jump to the static level at 0): a body
    /// creeping at 1e-18 rad/s under a torque below the static level stops
    /// at exactly 0 and stays there, where the map alone kicked it to
    /// `h*(F_s + T)/J` the other way; above the static level it breaks away.
    #[test]
    fn a_map_with_a_static_level_holds_a_body_at_rest() {
        let law = ClassicalFriction {
            shape: ClassicalShape::Exponential,
            coulomb_torque: 1.0,
            static_torque: 1.5,
            viscous: 0.1,
            stribeck_velocity: 0.1,
            exponent: 2.0,
            band: 0.0,
        };
        for (rate, applied) in [(1e-18, -1.2), (-1e-18, 1.2), (1e-18, 1.4), (1e-22, 0.0)] {
            let a = crate::laws::smooth::advance_map(&law, applied, rate, 1.0, 1e-3);
            assert_eq!(a.rate, 0.0, "rate {rate}, torque {applied}: {a:?}");
            let b = crate::laws::smooth::advance_map(&law, applied, a.rate, 1.0, 1e-3);
            assert_eq!((b.rate, b.friction), (0.0, -applied), "held at rest: {b:?}");
        }
        let a = crate::laws::smooth::advance_map(&law, 1.6, 0.0, 1.0, 1e-3);
        // Past the static level it breaks away against the static level, not
        // against sign(0) = 0: the rate gains (1.6 - 1.5)*dt/J, not 1.6*dt/J.
        assert!(a.rate > 0.0 && (a.rate - 1e-4).abs() < 1e-6, "past the static level it breaks away: {a:?}");
        let a = crate::laws::smooth::advance_map(&law, -1.6, 1e-18, 1.0, 1e-3);
        assert!(a.rate < 0.0, "and reverses: {a:?}");
    }
}
