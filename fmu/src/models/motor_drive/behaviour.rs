//! What `MotorDrive`'s default run must show (see [`crate::behaviour`]).

use crate::behaviour::{close, Behaviour, Run};
use crate::claim;

/// Solved exactly for inputs held over the step.
pub const BEHAVIOUR: Behaviour = Behaviour::of(default_run).exact_for_held_inputs();

/// The motor alone: w = 0.5*(1 - exp(-t/0.1)) towards w_command = 0.5 rad/s.
fn default_run(r: &Run) -> Result<(), String> {
    let (t, w) = (r.time(), r.col("w"));
    for (i, &ti) in t.iter().enumerate() {
        let exact = 0.5 * (1.0 - (-ti / 0.1).exp());
        claim!(close(w[i], exact, 1e-12), "w({ti}) = {} vs {exact}", w[i]);
    }
    Ok(())
}
