//! What `LoadDependentFrictionInertia` and `LoadDependentFrictionShaftLoad`'s
//! default runs must show (see [`crate::behaviour`]).

use crate::behaviour::{EarlyReturn, close, Behaviour, Refusal, Run};
use crate::claim;

/// Integrated exactly between closed-form events for held inputs.
pub const INERTIA: Behaviour = Behaviour::of(inertia)
    .refuses(&[Refusal::new(&[("phi_start", 2.0)], "outside the stops")])
    .exact_for_held_inputs()
    .returns_early(EarlyReturn::at_internal_step(&[]));

/// The shaft's substep rule: 0.2 s * sqrt(10/1) = 0.63 > 0.5.
pub const SHAFT: Behaviour = Behaviour::of(shaft).refuses(&[Refusal::of_internal_step(
    &[("internal_step", 0.2)],
    "h*max(sqrt(k_shaft/J), d_shaft/J) = 0.632",
)])
// The shaft torque 10*0.5*t reaches the static level 1.2 N.m at 0.24 s: the
// element breaks away in the 1 ms internal step after it.
.returns_early(EarlyReturn::at_internal_step(&[(0.24, 1e-3 + 1e-9)]));

/// Borello Table 1 model against a stop at -1 rad: never past it; at rest w == 0.
fn inertia(r: &Run) -> Result<(), String> {
    let (t, phi, w, mode) = (r.time(), r.col("phi"), r.col("w"), r.col("mode"));
    claim!(phi.iter().all(|&p| p >= -1.0), "past the stop");
    // As the description says: moving backward from the first step, at rest on the
    // lower stop from 0.91 s.
    let rest = mode.iter().rposition(|&m| m != 0.0).ok_or("never moves")? + 1;
    let rest_time = *t.get(rest).ok_or("moving at the end")?;
    claim!(close(rest_time, 0.91, 1e-9) && phi[rest..].iter().all(|&p| p == -1.0), "rest at {rest_time}");
    claim!(mode[1..rest].iter().all(|&m| m == -1.0), "not moving backward throughout");
    for k in 0..t.len() {
        if mode[k] == 0.0 {
            claim!(w[k] == 0.0, "stuck with w {} at {}", w[k], t[k]);
        }
    }
    Ok(())
}

/// Borello's port, the drive end winding at 0.5 rad/s (k = 10, tau_load = 0): held
/// until k*0.5*t = FSD*TFR0 = 1.2 N.m (0.24 s), one damped slide into the +1 rad stop,
/// held there; the mean shaft torque over the last step -k*(0.5*3.995 - 1).
fn shaft(r: &Run) -> Result<(), String> {
    let (t, w, phi, mode, torque) = (r.time(), r.col("w"), r.col("phi"), r.col("mode"), r.col("tau_shaft"));
    let first = t.iter().zip(&w).position(|(_, &x)| x != 0.0).ok_or("never moves")?;
    claim!(close(t[first], 0.25, 1e-9), "moves from {}", t[first]);
    let peak = w.iter().cloned().fold(f64::MIN, f64::max);
    claim!(close(peak, 0.98, 5e-3) && w.iter().all(|&x| x >= 0.0), "peak {peak}");
    let stop = r.index_at(2.32)?;
    claim!(mode[first..stop].iter().all(|&m| m == 1.0), "stuck before the hard stop");
    claim!(phi[stop..].iter().all(|&p| p == 1.0) && w[stop..].iter().all(|&x| x == 0.0), "left the stop");
    let end = *torque.last().ok_or("no tau_shaft")?;
    claim!(close(end, -9.975, 1e-9), "tau_shaft {end}");
    Ok(())
}
