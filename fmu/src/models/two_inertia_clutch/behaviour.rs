//! What `TwoInertiaClutch`'s default run must show (see [`crate::behaviour`]).

use crate::behaviour::{EarlyReturn, close, Behaviour, Run};
use crate::claim;

/// The break at ln(2)/5 = 0.1386 s: the damping torque is held over each
/// 1 ms internal step, so the step returns at the end of the internal step
/// after which the clutch can no longer carry it.
pub const BEHAVIOUR: Behaviour = Behaviour::of(default_run)
    .returns_early(EarlyReturn::at_internal_step(&[(BREAKAWAY, 1e-3)]));

/// ln(2)/5 s (see `default_run`; the test below checks the digits).
const BREAKAWAY: f64 = 0.138_629_436_111_989_06;

/// The blog's plant (J1 = J2 = 1, drive 20 N.m, damping 10 N.m.s on J2)
/// with a 15 N.m clutch: locked from rest, 2*w' = 20 - 10*w, so
/// w = 2*(1 - exp(-5t)), until the torque the clutch must carry,
/// (20 + 10*w)/2, passes 15 N.m at w = 1, t_b = ln(2)/5; then slipping
/// at 15 N.m: w1 = 1 + 5*(t - t_b), w2 = 1.5 - 0.5*exp(-10*(t - t_b)).
/// Tolerances: the damping torque is held over each 1 ms internal step.
fn default_run(r: &Run) -> Result<(), String> {
    let (t, w1, w2, torque) = (r.time(), r.col("w1"), r.col("w2"), r.col("tau_clutch"));
    let breakaway = 2f64.ln() / 5.0;
    for k in 0..t.len() {
        let s = t[k] - breakaway;
        if s < -2e-3 {
            let locked = 2.0 * (1.0 - (-5.0 * t[k]).exp());
            claim!(w1[k] == w2[k], "slipping at {} below the capacity", t[k]);
            claim!(close(w1[k], locked, 2e-3), "w({}) = {} vs {locked}", t[k], w1[k]);
        } else if s > 2e-3 {
            let (slip1, slip2) = (1.0 + 5.0 * s, 1.5 - 0.5 * (-10.0 * s).exp());
            claim!(close(w1[k], slip1, 1e-2), "w1({}) = {} vs {slip1}", t[k], w1[k]);
            claim!(close(w2[k], slip2, 1e-2), "w2({}) = {} vs {slip2}", t[k], w2[k]);
            claim!(close(torque[k].abs(), 15.0, 1e-9), "slipping clutch carries {}", torque[k]);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_breakaway_is_ln_2_over_5() {
        assert_eq!(super::BREAKAWAY, 2f64.ln() / 5.0);
    }
}
