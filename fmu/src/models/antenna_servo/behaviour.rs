//! What `AntennaAzimuthServo`'s default run must show (see [`crate::behaviour`]).

use crate::behaviour::{EarlyReturn, close, Behaviour, Refusal, Run, STATIC_BELOW_COULOMB};
use crate::claim;

pub const BEHAVIOUR: Behaviour = Behaviour::of(default_run).refuses(&[
    Refusal::new(&[("breakaway_pressure", 300.0)], STATIC_BELOW_COULOMB),
    Refusal::of_internal_step(&[("internal_step", 1.0)], "needs internal_step <= 1/omega"),
])
// The stop Hill's law locates inside the loop's Euler step (t_c, Hill Eq. 3);
// the breakaway is due at a step's end.
.returns_early(EarlyReturn::located(&[]));

/// Hill Sec. IV, 1 mdeg step, Hill's friction: the axis stays exactly still
/// until its torque passes the 425 psi static level, then breaks away.
/// Its variables are SI (rad, Pa): Hill's psi and mdeg below by their factors.
fn default_run(r: &Run) -> Result<(), String> {
    const PSI: f64 = 6894.757293168361;
    let t = r.time();
    let (rate, mode) = (r.col("rate"), r.col("mode"));
    let gear: Vec<f64> = r.col("gear_pressure").iter().map(|g| g / PSI).collect();
    for k in 0..t.len() {
        if mode[k] == 0.0 {
            claim!(rate[k] == 0.0, "stuck with rate {} at {}", rate[k], t[k]);
        }
    }
    let first = mode.iter().position(|&m| m != 0.0).ok_or("no breakaway")?;
    claim!(gear[first] >= 400.0, "breakaway at {} psi", gear[first]);
    claim!(gear[..first].iter().all(|&g| g < 425.0 + 3.0), "torque above static before breakaway");
    // As the description says: breakaway at 1.87 s, at rest from 3.81 s at 1.538 mdeg,
    // 0.54 mdeg past the 1 mdeg command, the torque below the static level.
    let position = r.col("position");
    let last_moving = mode.iter().rposition(|&m| m != 0.0).ok_or("never moves")?;
    let rest = *t.get(last_moving + 1).ok_or("moving at the end")?;
    claim!(close(t[first], 1.87, 1e-9) && close(rest, 3.81, 1e-9), "moves {}..{rest}", t[first]);
    let end = position.last().ok_or("no position")?.to_degrees() * 1e3;
    claim!(close(end, 1.538, 5e-4), "ends at {end} mdeg");
    claim!(gear[last_moving + 1..].iter().all(|g| g.abs() < 425.0), "held with the torque above F_s");
    Ok(())
}
