//! What `ClutchStickSlip`'s default run must show (see [`crate::behaviour`]).

use crate::behaviour::{EarlyReturn, close, Behaviour, Run};
use crate::claim;

/// The slip 10 - 20*t closes at 0.5 s, a point of the default 10 ms grid:
/// checked at 3 ms steps, where it falls inside one.
pub const BEHAVIOUR: Behaviour =
    Behaviour::of(default_run).returns_early(EarlyReturn::located(&[(0.5, 1e-12)]).at_step(0.003));

/// Two unit inertias, 10 and 0 rad/s, no torque: momentum 10 conserved,
/// locking at the common 5 rad/s.
fn default_run(r: &Run) -> Result<(), String> {
    let (t, w1, w2, locked) = (r.time(), r.col("w1"), r.col("w2"), r.col("locked"));
    for k in 0..t.len() {
        claim!(close(w1[k] + w2[k], 10.0, 1e-9), "momentum at {}", t[k]);
    }
    let end_locked = *locked.last().ok_or("no locked")?;
    claim!(end_locked == 1.0 && w1.last() == w2.last(), "locks");
    let end = *w1.last().ok_or("no w1")?;
    claim!(close(end, 5.0, 1e-9), "w1(end) = {end} vs 5");
    // The slip 10 - 2*10*t closes at 0.5 s: locked from the 0.51 s point on
    // (the lock falls on the step boundary; rounding may leave it to the next step).
    let first = locked.iter().position(|&l| l == 1.0).ok_or("never locked")?;
    let lock = t[first];
    claim!((0.5 - 1e-9..=0.51 + 1e-9).contains(&lock), "locked at {lock}");
    claim!(locked[first..].iter().all(|&l| l == 1.0), "unlocked again after locking at {lock}");
    Ok(())
}
