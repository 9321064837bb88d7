//! What `ConventionalCoulombBaseline`'s default run must show (see [`crate::behaviour`]).

use crate::behaviour::{EarlyReturn, close, Behaviour, Refusal, Run, STATIC_BELOW_COULOMB};
use crate::claim;

/// Its sign chatter changes the mode at internal steps, and each change
/// returns early: the conventional model's physics, shown as it is.
pub const BEHAVIOUR: Behaviour = Behaviour::of(default_run)
    .refuses(&[Refusal::new(&[("tau_static", 0.5)], STATIC_BELOW_COULOMB)])
    .returns_early(EarlyReturn::at_internal_step(&[]));

/// The conventional model (F_c = 1, 1 ms internal steps) under the same torque:
/// where it should rest it chatters within F_c*dt/J = 1e-3 rad/s of zero and creeps,
/// backward at F_c*dt/(2J) = 5e-4 rad/s after the stop; slides from tau = F_c.
fn default_run(r: &Run) -> Result<(), String> {
    let (t, w, mode, phi) = (r.time(), r.col("w"), r.col("mode"), r.col("phi"));
    let k1 = r.index_at(1.0)?;
    claim!(w[..=k1].iter().all(|x| x.abs() <= 2e-3), "more than chatter below F_c");
    claim!(phi[k1] > 1e-4, "no creep below F_c ({})", phi[k1]);
    let k2 = r.index_at(2.0)?;
    claim!(close(w[k2], 0.495, 1e-3), "w(2) = {}", w[k2]);
    let k3 = r.index_at(3.0)?;
    let creep = (phi[phi.len() - 1] - phi[k3]) / (t[t.len() - 1] - t[k3]);
    claim!(close(creep, -5e-4, 2e-5), "creep {creep} rad/s after the stop");
    claim!(mode[k3..].iter().all(|&m| m != 0.0), "the conventional model never rests");
    Ok(())
}
