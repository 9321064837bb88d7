//! What `ShaftClutch`'s default run must show (see [`crate::behaviour`]).

use crate::behaviour::{EarlyReturn, close, Behaviour, Refusal, Run};
use crate::claim;

/// Per shaft and plate: 0.2 s * sqrt(10/0.25) = 1.26 > 0.5.
pub const BEHAVIOUR: Behaviour = Behaviour::of(default_run)
    .refuses(&[Refusal::of_internal_step(&[("internal_step", 0.2)], "drive shaft and plate 1 (k_drive, d_drive, J1")])
    // The drive end winds the drive shaft at 2 rad/s against the load shaft
    // (both 10 N.m/rad): the torque the clutch must carry, about 10 N.m/s
    // times t, reaches its 1 N.m at 0.1 s, a point of the default
    // 2 ms grid (and of 2.5 and 5 ms), where the step ends at the break:
    // checked at 4.5 ms steps, the break at an internal step's boundary.
    .returns_early(EarlyReturn::at_internal_step(&[(0.1, 1e-3)]).at_step(0.0045));

/// Locked from rest (w1 == w2 exactly) until the torque the clutch must
/// carry passes its 1 N.m near 0.10 s; then slipping to the end at the
/// capacity, plate 2 swinging on its shaft about its 0.1 rad deflection
/// under 1 N.m (k_load = 10 N.m/rad).
fn default_run(r: &Run) -> Result<(), String> {
    let t = r.time();
    let (locked, w1, w2) = (r.col("locked"), r.col("w1"), r.col("w2"));
    let (clutch, phi2) = (r.col("tau_clutch"), r.col("phi2"));
    let k = locked.iter().position(|&l| l == 0.0).ok_or("never unlocks")?;
    claim!(t[k] > 0.09 && t[k] < 0.11, "unlocked at {}", t[k]);
    claim!((0..k).all(|i| locked[i] == 1.0 && w1[i] == w2[i]), "locked means w1 == w2");
    claim!(locked[k..].iter().all(|&l| l == 0.0), "locked again");
    claim!(clutch[k + 1..].iter().all(|&c| close(c, 1.0, 1e-12)), "slipping at the capacity");
    let after = t.iter().position(|&ti| ti >= 0.2).ok_or("no row from 0.2 s")?;
    claim!(phi2[after..].iter().all(|&p| (0.0..0.2).contains(&p)), "plate 2's swing");
    Ok(())
}
