//! What `HillFrictionShaftLoad`'s default run must show (see [`crate::behaviour`]).

use crate::behaviour::{EarlyReturn, close, Behaviour, Refusal, Run, STATIC_BELOW_COULOMB};
use crate::claim;

/// Stick, slip and stops exact inside the step for a drive end held over it.
pub const BEHAVIOUR: Behaviour = Behaviour::of(default_run)
    .refuses(&[Refusal::new(&[("tau_static", 0.5)], STATIC_BELOW_COULOMB)])
    .exact_for_held_inputs()
    .returns_early(EarlyReturn::located(&[(STOP, 1e-12)]));

/// The stop of the half swing, pi/sqrt(10) s (see `default_run`; the test
/// below checks the digits).
const STOP: f64 = 0.993_458_826_579_61;

/// The shaft port released: drive end held at 0.25 rad, J = 1, k = 10, F_c = 1,
/// F_s = 1.5: a half swing about 0.15 rad, phi = 0.15 - 0.15*cos(sqrt(10) t),
/// stopping at 0.3 rad at pi/sqrt(10) = 0.993 s, then stuck (the shaft pulls
/// back with 0.5 N.m < F_s); tau_shaft on the drive is -k*(0.25 - phi) while stuck.
fn default_run(r: &Run) -> Result<(), String> {
    let t = r.time();
    let (phi, w, mode, torque) = (r.col("phi"), r.col("w"), r.col("mode"), r.col("tau_shaft"));
    let stop = std::f64::consts::PI / 10f64.sqrt();
    for (i, &ti) in t.iter().enumerate() {
        if ti < stop - 1e-9 {
            let exact = 0.15 - 0.15 * (10f64.sqrt() * ti).cos();
            claim!(close(phi[i], exact, 1e-12), "phi({ti}) = {} vs {exact}", phi[i]);
        } else if ti > stop + 0.02 {
            claim!(w[i] == 0.0 && mode[i] == 0.0, "moving at {ti}");
            claim!(close(phi[i], 0.3, 1e-12), "phi({ti}) = {}", phi[i]);
            claim!(close(torque[i], 0.5, 1e-12), "tau_shaft({ti}) = {}", torque[i]);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_stop_is_pi_over_sqrt_10() {
        assert_eq!(super::STOP, std::f64::consts::PI / 10f64.sqrt());
    }
}
