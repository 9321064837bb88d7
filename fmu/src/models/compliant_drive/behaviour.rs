//! What `CompliantDrive`'s default run must show (see [`crate::behaviour`]).

use crate::behaviour::{close, Behaviour, Run};
use crate::claim;

/// Solved exactly for inputs held over the step.
pub const BEHAVIOUR: Behaviour = Behaviour::of(default_run).exact_for_held_inputs();

/// The frictionless plant against a held load under 0.9 N.m: the damped
/// oscillator J*phi'' + d*phi' + k*phi = tau (J = 0.01, k = 10, d = 0.1).
fn default_run(r: &Run) -> Result<(), String> {
    let (t, phi, torque) = (r.time(), r.col("phi_motor"), r.col("tau_shaft"));
    let (j, k, d, tau) = (0.01_f64, 10.0_f64, 0.1_f64, 0.9_f64);
    let (wn, zeta) = ((k / j).sqrt(), d / (2.0 * (k * j).sqrt()));
    let wd = wn * (1.0 - zeta * zeta).sqrt();
    for (i, &ti) in t.iter().enumerate() {
        let e = (-zeta * wn * ti).exp();
        let exact = tau / k * (1.0 - e * ((wd * ti).cos() + zeta * wn / wd * (wd * ti).sin()));
        claim!((phi[i] - exact).abs() < 1e-12, "phi_motor({ti}) = {} vs {exact}", phi[i]);
    }
    let end = *torque.last().ok_or("no tau_shaft")?;
    claim!(close(end, tau, 1e-3), "the shaft does not carry the drive torque ({end})");
    let peak = torque.iter().cloned().fold(f64::MIN, f64::max);
    claim!(close(peak, 1.471, 1e-3), "shaft torque peak {peak}");
    Ok(())
}
