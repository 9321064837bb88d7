//! What `HillFrictionInertia`'s default run must show (see [`crate::behaviour`]).

use crate::behaviour::{EarlyReturn, close, Behaviour, Refusal, Run, STATIC_BELOW_COULOMB};
use crate::claim;

/// The numbers the description quotes, as it prints them; the checks read them.
pub mod quotes {
    /// The step the body breaks away in starts here, s.
    pub const BREAKAWAY_STEP: &str = "1.21";
    /// w at 2 s, rad/s.
    pub const RATE_AT_2S: &str = "0.474";
    /// The stop inside a step, s.
    pub const STOP: &str = "2.474";
}

fn quoted(text: &str) -> f64 {
    text.parse().unwrap_or_else(|_| panic!("{text} is no number"))
}

/// The stop at 2 + 0.474/(F_c/J) = 2.474 s (see `default_run`), located.
pub const BEHAVIOUR: Behaviour = Behaviour::of(default_run)
    .refuses(&[Refusal::new(&[("tau_static", 0.5)], STATIC_BELOW_COULOMB)])
    .returns_early(EarlyReturn::located(&[(2.474, 1e-12)]));

/// At rest (J = 1), tau = t on [0, 2) then 0, held over each 10 ms step at its
/// value at the step's start (tau_k = 0.01*k). Hill (F_s = 1.2, F_c = 1): stuck,
/// w == 0.0 and mode 0, while tau_k <= F_s; breakaway in the step from 1.21 s;
/// sliding w(t_n) = 0.01*sum_{k=121}^{n-1} (tau_k - 1), w(2) = 1e-4*(21 + .. + 99)
/// = 0.474; then w' = -F_c: at rest from 2.474 s (inside a step), exactly.
fn default_run(r: &Run) -> Result<(), String> {
    use quotes::*;
    let (t, w, mode, phi) = (r.time(), r.col("w"), r.col("mode"), r.col("phi"));
    let (breakaway, stop) = (quoted(BREAKAWAY_STEP), quoted(STOP));
    let mut exact = 0.0;
    for k in 0..t.len() {
        if t[k] <= breakaway + 1e-9 {
            claim!(w[k] == 0.0 && mode[k] == 0.0 && phi[k] == 0.0, "moving at {}", t[k]);
        } else if t[k] <= 2.0 + 1e-9 {
            claim!(close(w[k], exact, 1e-12) && mode[k] == 1.0, "w({}) = {} vs {exact}", t[k], w[k]);
        } else if t[k] >= stop {
            claim!(w[k] == 0.0 && mode[k] == 0.0, "not at rest at {}", t[k]);
        }
        let tau = if t[k] < 2.0 - 1e-9 { (t[k] * 100.0).round() * 0.01 } else { 0.0 };
        if t[k] >= breakaway - 1e-9 && t[k] < 2.0 - 1e-9 {
            exact += 0.01 * (tau - 1.0);
        }
    }
    let (at2, at247) = (w[r.index_at(2.0)?], w[r.index_at(2.47)?]);
    claim!(close(at2, quoted(RATE_AT_2S), 1e-12) && close(at247, 0.004, 1e-12), "w(2) = {at2}, w(2.47) = {at247}");
    // It moves in the step from the breakaway, and at w(2) - F_c*(t - 2) stops at 2 + w(2).
    let first = w.iter().position(|&x| x != 0.0).ok_or("never moves")?;
    claim!(close(t[first - 1], breakaway, 1e-9), "moves in the step from {} s", t[first - 1]);
    claim!(close(2.0 + at2, stop, 1e-12), "stops at {} s, quoted {stop}", 2.0 + at2);
    // Angle at rest: the sliding phase's exact integral (trapezoids of the
    // piecewise-linear rate) plus the coast 0.474^2/2.
    let mut angle = 0.0;
    let mut rate = 0.0;
    for k in 121..200 {
        let next = rate + 0.01 * (k as f64 * 0.01 - 1.0);
        angle += 0.01 * 0.5 * (rate + next);
        rate = next;
    }
    angle += rate * rate / 2.0;
    let last = *phi.last().ok_or("no phi")?;
    claim!(close(last, angle, 1e-12), "phi at rest {last} vs {angle}");
    Ok(())
}
