//! What `CmgGimbalRateLoop`'s default run must show (see [`crate::behaviour`]).

use crate::behaviour::{close, Behaviour, Refusal, Run};
use crate::claim;

pub const BEHAVIOUR: Behaviour = Behaviour::of(default_run)
    .refuses(&[Refusal::of_internal_step(&[("internal_step", 1e-2)], "needs internal_step <=")]);

/// Nurre Fig. 8: 5e-4 rad/s step, CMG pivot Tf0 = 0.27 N.m; the frictionless
/// copy reaches the command, friction stays within Tf0 and slows the rise.
fn default_run(r: &Run) -> Result<(), String> {
    let t = r.time();
    let (rate, free, tau) = (r.col("rate"), r.col("rate_without_friction"), r.col("tau_friction"));
    claim!(tau.iter().all(|x| x.abs() <= 0.27 + 1e-12), "|Tf| above Tf0");
    claim!(free.iter().any(|&x| x >= 0.95 * 5e-4), "frictionless copy never reaches the command");
    let k = t.iter().position(|&x| x >= 0.05).ok_or("no row from 0.05 s")?;
    claim!(rate[k] < free[k], "friction does not slow the rise");
    // As the description says.
    claim!(
        close(rate[k], 3.16e-4, 1e-6) && close(free[k], 4.24e-4, 1e-6),
        "rate {} and without friction {} at {} s",
        rate[k],
        free[k],
        t[k]
    );
    let end = *rate.last().ok_or("no rate")?;
    claim!(close(end, 4.976e-4, 1e-7), "rate(end) = {end}");
    Ok(())
}
