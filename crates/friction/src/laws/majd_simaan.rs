//! Majd & Simaan's continuous friction model with stiction, "A Continuous
//! Friction Model for Servo Systems with Stiction".

use crate::laws::smooth::{map_law, VelocityMap};
use crate::vocabulary::sign;
use serde::{Deserialize, Serialize};

/// How `sigma` is obtained from `f_s`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SigmaMethod {
    /// Eq. (7) with Eq. (8) solved numerically: the maximum of `F+`, viscous
    /// term included, is exactly `f_s`. This is what the paper's
    /// `sigma = 0.6858` (Eq. 15) satisfies.
    #[default]
    Exact,
    /// Eq. (13) solved numerically: the same condition with `f_w*w` dropped
    /// (Eq. 10, valid under Eq. 9); gives 0.68626 for the paper's example.
    Eq13,
    /// Eq. (19), the closed-form approximation (within delta of `f_s` when
    /// `eta = f_s/f_c` is inside the bound of Eq. 23).
    Approximate,
}

/// Eq. (6): `F(w) = f_w*w + [f_c + sigma*exp(-|w/w_c|) - (sigma + f_c)*exp(-|n*w/w_c|)]*sign(w)`.
///
/// Continuous at `w = 0` (presliding without hysteresis), peak `f_s` at
/// `w_peak` (Eq. 11), and Eq. (4) as `n -> infinity`. With `f_s = f_c`,
/// `sigma = 0` and it is the reduced model Eq. (24),
/// `f_w*w + f_c*(1 - exp(-|n*w/w_c|))*sign(w)` (the README's reading: `n`,
/// not `eta`, in the exponent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MajdSimaan {
    /// `f_w` (N.m.s/rad).
    pub viscous: f64,
    /// `f_c` (N.m).
    pub coulomb_torque: f64,
    /// `f_s` (N.m), >= `f_c`.
    pub static_torque: f64,
    /// Sharpness index `n` (> 1).
    pub sharpness: f64,
    /// Critical velocity `w_c` (rad/s).
    pub critical_velocity: f64,
    /// How [`MajdSimaan::prepare`] derives `sigma`.
    pub sigma_method: SigmaMethod,
    /// `sigma`, derived from the above by [`MajdSimaan::prepare`].
    pub sigma: f64,
}

/// Peak of `F+` for a given sigma (Eq. 12).
pub fn peak_friction(coulomb: f64, sigma: f64, n: f64) -> f64 {
    if sigma == 0.0 {
        return coulomb;
    }
    coulomb + sigma * (n - 1.0) * n.powf(-n / (n - 1.0)) * (1.0 + coulomb / sigma).powf(-1.0 / (n - 1.0))
}

/// Eq. (13) solved for sigma by bisection (the peak grows monotonically with
/// sigma), to full double precision.
pub fn sigma_exact(coulomb: f64, static_torque: f64, n: f64) -> f64 {
    if static_torque <= coulomb {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0_f64, static_torque - coulomb);
    while peak_friction(coulomb, hi, n) < static_torque {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid == lo || mid == hi {
            break;
        }
        if peak_friction(coulomb, mid, n) < static_torque {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Maximum of `F+(w)` (Eq. 8) over `0 < w < w_c`, by golden-section search
/// (`F+` rises from `0` to one peak there).
fn max_f_plus(viscous: f64, coulomb: f64, sigma: f64, n: f64, wc: f64) -> f64 {
    let f = |w: f64| viscous * w + coulomb + sigma * (-w / wc).exp() - (sigma + coulomb) * (-n * w / wc).exp();
    let r = 0.5 * (5.0_f64.sqrt() - 1.0);
    let (mut a, mut b) = (0.0, wc);
    for _ in 0..120 {
        let (c, d) = (b - r * (b - a), a + r * (b - a));
        let (a_next, b_next) = if f(c) > f(d) { (a, d) } else { (c, b) };
        // Once the bracket stops shrinking (a few ulps wide) every further
        // step repeats this one: stop, with the same bits as the full count.
        if (a_next, b_next) == (a, b) {
            break;
        }
        (a, b) = (a_next, b_next);
    }
    f(0.5 * (a + b))
}

/// Eq. (7) with Eq. (8) solved for sigma by bisection.
pub fn sigma_with_viscous(viscous: f64, coulomb: f64, static_torque: f64, n: f64, wc: f64) -> f64 {
    if static_torque <= coulomb {
        return 0.0;
    }
    let peak = |s: f64| max_f_plus(viscous, coulomb, s, n, wc);
    let (mut lo, mut hi) = (0.0_f64, static_torque - coulomb);
    while peak(hi) < static_torque {
        hi *= 2.0;
    }
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        let (lo_next, hi_next) = if peak(mid) < static_torque { (mid, hi) } else { (lo, mid) };
        // A step that changes nothing repeats forever: stop (same bits).
        if (lo_next, hi_next) == (lo, hi) {
            break;
        }
        (lo, hi) = (lo_next, hi_next);
    }
    0.5 * (lo + hi)
}

/// Eq. (19): `sigma = (2*n^n)^(1/(n-1)) / (n-1) * (f_s - f_c)`.
pub fn sigma_approximate(coulomb: f64, static_torque: f64, n: f64) -> f64 {
    // (2 n^n)^(1/(n-1)) computed in logs: n^n overflows for large n.
    ((2.0_f64.ln() + n * n.ln()) / (n - 1.0)).exp() / (n - 1.0) * (static_torque - coulomb)
}

/// Eq. (11): the velocity of the friction peak.
pub fn peak_velocity(coulomb: f64, sigma: f64, n: f64, critical_velocity: f64) -> f64 {
    (n * (1.0 + coulomb / sigma)).ln() / (n - 1.0) * critical_velocity
}

/// Relative peak error of the approximate sigma for `eta = f_s/f_c` (Eqs. 16, 20).
pub fn approximation_error(eta: f64, n: f64) -> f64 {
    let (fc, fs) = (1.0, eta);
    (peak_friction(fc, sigma_approximate(fc, fs, n), n) - fs) / fs
}

impl MajdSimaan {
    /// Derive sigma from `f_c`, `f_s`, `n` with `sigma_method`.
    pub fn prepare(&mut self) {
        self.sigma = match self.sigma_method {
            SigmaMethod::Exact => sigma_with_viscous(
                self.viscous,
                self.coulomb_torque,
                self.static_torque,
                self.sharpness,
                self.critical_velocity,
            ),
            SigmaMethod::Eq13 => sigma_exact(self.coulomb_torque, self.static_torque, self.sharpness),
            SigmaMethod::Approximate => sigma_approximate(self.coulomb_torque, self.static_torque, self.sharpness),
        };
    }
}

impl VelocityMap for MajdSimaan {
    /// The two exponentials once for both values.
    #[inline]
    fn friction_and_slope(&self, w: f64) -> (f64, f64) {
        let x = (w / self.critical_velocity).abs();
        let (e1, en) = ((-x).exp_m1(), (-self.sharpness * x).exp_m1());
        let tail = self.sigma + self.coulomb_torque;
        let f = self.viscous * w + (self.sigma * e1 - tail * en) * sign(w);
        let slope =
            self.viscous + (-self.sigma * (1.0 + e1) + self.sharpness * tail * (1.0 + en)) / self.critical_velocity;
        (f, slope)
    }

    #[inline]
    fn friction(&self, w: f64) -> f64 {
        let x = (w / self.critical_velocity).abs();
        // f_c + sigma*e^-x - (sigma + f_c)*e^-nx written with expm1, so
        // that the bracket keeps its precision (~ (n(sigma + f_c) - sigma)*x)
        // at the tiny speeds of presliding instead of cancelling to zero.
        let bracket = self.sigma * (-x).exp_m1() - (self.sigma + self.coulomb_torque) * (-self.sharpness * x).exp_m1();
        self.viscous * w + bracket * sign(w)
    }

    #[inline]
    fn slope(&self, w: f64) -> f64 {
        let x = (w / self.critical_velocity).abs();
        self.viscous
            + (-self.sigma * (-x).exp()
                + self.sharpness * (self.sigma + self.coulomb_torque) * (-self.sharpness * x).exp())
                / self.critical_velocity
    }
}

map_law!(MajdSimaan);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::RigidBodyFriction;

    /// The searches stop once their bracket stops moving; that must give the
    /// bits of the full iteration counts (sigma feeds the shipped references).
    #[test]
    fn early_stops_give_the_bits_of_the_full_counts() {
        fn full_max(v: f64, fc: f64, sigma: f64, n: f64, wc: f64) -> f64 {
            let f = |w: f64| v * w + fc + sigma * (-w / wc).exp() - (sigma + fc) * (-n * w / wc).exp();
            let r = 0.5 * (5.0_f64.sqrt() - 1.0);
            let (mut a, mut b) = (0.0, wc);
            for _ in 0..120 {
                let (c, d) = (b - r * (b - a), a + r * (b - a));
                if f(c) > f(d) {
                    b = d;
                } else {
                    a = c;
                }
            }
            f(0.5 * (a + b))
        }
        fn full_sigma(v: f64, fc: f64, fs: f64, n: f64, wc: f64) -> f64 {
            let peak = |s: f64| full_max(v, fc, s, n, wc);
            let (mut lo, mut hi) = (0.0_f64, fs - fc);
            while peak(hi) < fs {
                hi *= 2.0;
            }
            for _ in 0..100 {
                let mid = 0.5 * (lo + hi);
                if peak(mid) < fs {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            0.5 * (lo + hi)
        }
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut uniform = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..300 {
            let fc = 0.01 + 10.0 * uniform();
            let fs = fc * (1.0 + 3.0 * uniform());
            let (v, n, wc) = (0.5 * uniform(), 1.5 + 30.0 * uniform(), 1e-3 + uniform());
            let (early, full) = (sigma_with_viscous(v, fc, fs, n, wc), full_sigma(v, fc, fs, n, wc));
            assert_eq!(early.to_bits(), full.to_bits(), "v {v} fc {fc} fs {fs} n {n} wc {wc}");
        }
    }

    /// The paper's example, Eq. (14).
    fn example() -> MajdSimaan {
        let mut m = MajdSimaan {
            viscous: 0.05,
            coulomb_torque: 0.5,
            static_torque: 0.95,
            sharpness: 10.0,
            critical_velocity: 0.019,
            sigma_method: SigmaMethod::Exact,
            sigma: 0.0,
        };
        m.prepare();
        m
    }

    #[test]
    fn reproduces_eq15_sigma_and_peak_velocity() {
        let m = example();
        // Paper: sigma = 0.6858 (4 digits) and w_peak = 0.006 (1 digit).
        assert!((m.sigma - 0.6858).abs() < 5e-5, "sigma = {}", m.sigma);
        // Eq. (13) alone (f_w dropped) lands within 0.1% of it.
        let eq13 = sigma_exact(0.5, 0.95, 10.0);
        assert!((eq13 - 0.6858).abs() / 0.6858 < 1e-3, "Eq. 13: {eq13}");
        assert!((peak_friction(0.5, eq13, 10.0) - 0.95).abs() < 1e-12);
        let w_peak = peak_velocity(m.coulomb_torque, m.sigma, m.sharpness, m.critical_velocity);
        assert!((w_peak - 0.006).abs() < 5e-4, "w_peak = {w_peak}");
        // The numerical maximum of Eq. (6) sits there and equals f_s.
        let (mut best_w, mut best) = (0.0, 0.0);
        for i in 1..20000 {
            let w = i as f64 * 1e-6;
            let f = m.friction(w);
            if f > best {
                best = f;
                best_w = w;
            }
        }
        assert!((best - 0.95).abs() < 1e-9, "{best}");
        // Eq. (11) neglects f_w (Eq. 9), which moves the true peak slightly.
        assert!((best_w - w_peak).abs() < 2e-4, "{best_w} vs {w_peak}");
    }

    #[test]
    fn combined_evaluation_matches_the_separate_ones() {
        let m = example();
        for &w in &[0.0, 1e-9, -0.003, 0.006, -0.05, 2.0] {
            let (a, b) = m.friction_and_slope(w);
            assert!((a - m.friction(w)).abs() <= 1e-15 * (1.0 + a.abs()));
            assert!((b - m.slope(w)).abs() <= 1e-9 * (1.0 + b.abs()), "{b} vs {}", m.slope(w));
        }
    }

    #[test]
    fn continuous_at_zero_and_odd() {
        let m = example();
        assert_eq!(m.friction(0.0), 0.0);
        assert!(m.friction(1e-12).abs() < 1e-9 && m.friction(-1e-12).abs() < 1e-9);
        for &w in &[1e-4, 0.006, 0.1, 2.0] {
            assert_eq!(m.friction(-w), -m.friction(w));
        }
        // The slope at zero is several hundred N.m.s: the reason for the implicit step.
        assert!(m.slope(0.0) > 500.0 && m.slope(0.0) < 700.0, "{}", m.slope(0.0));
    }

    #[test]
    fn approximate_sigma_bounds_of_eq23() {
        // Zero error at eta = 1.6452 for n = 10 (paper, 4 digits).
        assert!(approximation_error(1.6452, 10.0).abs() < 1e-4, "{}", approximation_error(1.6452, 10.0));
        // Error reaches delta = 2% at eta = 2.3666 and stays within it below.
        assert!((approximation_error(2.3666, 10.0) - 0.02).abs() < 1e-4, "{}", approximation_error(2.3666, 10.0));
        for i in 0..=100 {
            let eta = 1.0 + 1.3666 * i as f64 / 100.0;
            assert!(approximation_error(eta, 10.0).abs() <= 0.02 + 1e-6, "eta = {eta}");
        }
        assert!(approximation_error(2.5, 10.0) > 0.02);
    }

    #[test]
    fn sigma_tends_to_stiction_as_n_grows_and_vanishes_without_stiction() {
        let (fc, fs) = (0.5, 0.95);
        let mut last = f64::INFINITY;
        for n in [5.0, 10.0, 100.0, 1e3, 1e5] {
            let ratio = sigma_exact(fc, fs, n) / (fs - fc);
            assert!(ratio > 1.0 && ratio < last, "n = {n}: {ratio}");
            last = ratio;
        }
        assert!((last - 1.0).abs() < 1e-3, "{last}");
        assert_eq!(sigma_exact(fc, fc, 10.0), 0.0);
        assert_eq!(sigma_approximate(fc, fc, 10.0), 0.0);
        // Reduced model Eq. (24).
        let m = MajdSimaan {
            viscous: 0.05,
            coulomb_torque: 0.5,
            static_torque: 0.5,
            sharpness: 10.0,
            critical_velocity: 0.019,
            sigma_method: SigmaMethod::Exact,
            sigma: 0.0,
        };
        let w = 0.003;
        let eq24 = 0.05 * w + 0.5 * (1.0 - (-10.0 * w / 0.019_f64).exp());
        assert!((m.friction(w) - eq24).abs() < 1e-15);
    }

    #[test]
    fn stays_stable_and_settles_in_presliding_for_small_inertia() {
        // J = 0.01 and dt = 1 ms: explicit Euler factor slope*dt/J ~ 59.
        let mut m = example();
        let (j, dt, applied) = (0.01, 1e-3, 0.4);
        let mut w: f64 = 0.0;
        let mut previous = 0.0;
        for k in 0..2000 {
            w = m.advance(applied, w, j, dt).rate;
            assert!(w.is_finite() && w >= 0.0, "step {k}: {w}");
            if k > 0 {
                assert!(w >= previous - 1e-15, "monotone approach");
            }
            previous = w;
        }
        // Settles where F(w) = T_ap on the rising branch, below w_peak.
        assert!((m.friction(w) - applied).abs() < 1e-9);
        assert!(w < 0.006);
    }
}
