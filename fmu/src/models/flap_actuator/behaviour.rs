//! What `FlapActuatorServo`'s default run must show (see [`crate::behaviour`]).

use crate::behaviour::{EarlyReturn, close, Behaviour, Refusal, Run};
use crate::claim;

pub const BEHAVIOUR: Behaviour = Behaviour::of(default_run)
    .refuses(&[Refusal::of_internal_step(&[("internal_step", 1e-3)], "needs internal_step <=")])
    .returns_early(EarlyReturn::at_internal_step(&[]));

/// Borello Fig. 6 command of 1.5 deg: the surface arrives within 10 % and
/// friction stays at its levels (2000 N.m here).
/// Its angles are SI (rad); the paper's deg below.
fn default_run(r: &Run) -> Result<(), String> {
    let t = r.time();
    let position: Vec<f64> = r.col("position").iter().map(|p| p.to_degrees()).collect();
    let tau = r.col("tau_friction");
    let end = *position.last().ok_or("no position")?;
    claim!(close(end, 1.5, 0.15), "final position {end}");
    claim!(tau.iter().all(|x| x.abs() <= 2000.0 + 1e-9), "friction above its level");
    // As the description says: within 1 % by 0.224 s, stuck from 0.538 s at 1.5002 deg.
    let (mode, rate) = (r.col("mode"), r.col("rate"));
    let near = t[position.iter().position(|&p| (p - 1.5).abs() < 0.015).ok_or("never within 1 % of 1.5 deg")?];
    let rest = mode.iter().rposition(|&m| m != 0.0).ok_or("never moves")? + 1;
    let rest_time = *t.get(rest).ok_or("moving at the end")?;
    claim!(close(near, 0.224, 1e-9) && close(rest_time, 0.538, 1e-9), "{near} s, {rest_time} s");
    claim!(rate[rest..].iter().all(|&x| x == 0.0), "stuck with a rate");
    claim!(close(end, 1.5002, 1e-4), "final position {end}");
    Ok(())
}
