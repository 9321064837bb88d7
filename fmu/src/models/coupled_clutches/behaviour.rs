//! What `CoupledClutches`' default run must show (see [`crate::behaviour`]).

use crate::behaviour::{EarlyReturn, close, Behaviour, Run};
use crate::claim;

/// The Modelica Standard Library's published result of
/// Modelica.Mechanics.Rotational.Examples.CoupledClutches
/// (modelica/MAP-LIB_ReferenceResults, commit
/// d6a2b9b20426bbff1a6a5a1f29bb4c5e50d0e57a, CoupledClutches.csv: the times
/// of its event rows), the instants each clutch's mode changes.
pub const BEHAVIOUR: Behaviour = Behaviour::of(default_run).changes_as(&[
    ("mode_1", &[0.7916582843202501, 0.8311085062703351, 0.9068491375443823, 1.0002958601138683, 1.25]),
    ("mode_2", &[0.4, 0.7096214638328813]),
    ("mode_3", &[0.9, 1.1439696304337055]),
])
// The three locks that follow a slip, located, against the reference's
// instants: within 0.5 ms at the default 2 ms step, the drive torque and the
// normal forces held over each step where the reference's are continuous.
.returns_early(EarlyReturn::located(&[
    (0.7096214638328813, 5e-4),
    (0.7916582843202501, 5e-4),
    (1.1439696304337055, 5e-4),
]));

/// The Modelica example's inputs, held over each 2 ms step: the clutches engage and
/// lock one after another as the description says (mode 0 = locked, 2 = free).
fn default_run(r: &Run) -> Result<(), String> {
    let t = r.time();
    let modes: Vec<Vec<f64>> = (1..=3).map(|i| r.col(&format!("mode_{i}"))).collect();
    let w: Vec<Vec<f64>> = (1..=4).map(|i| r.col(&format!("w{i}"))).collect();
    let mut sequence: Vec<(f64, [i32; 3])> = Vec::new();
    for k in 0..t.len() {
        let now = [modes[0][k] as i32, modes[1][k] as i32, modes[2][k] as i32];
        if sequence.last().map(|s| s.1) != Some(now) {
            sequence.push((t[k], now));
        }
        for j in 0..3 {
            if now[j] == 0 {
                claim!(w[j][k] == w[j + 1][k], "clutch {} locked at unequal speeds", j + 1);
            }
        }
    }
    let expected = [
        (0.0, [1, 2, 2]),   // clutch 1 slides J2 up; 2 and 3 open
        (0.402, [1, 1, 2]), // clutch 2 engaged at 0.4 s
        (0.71, [1, 0, 2]),  // J2-J3 locked
        (0.792, [0, 0, 2]), // J1 locked to them
        (0.834, [1, 0, 2]), // slips again with the drive
        (0.902, [1, 0, 1]), // clutch 3 engaged at 0.9 s
        (0.91, [0, 0, 1]),  // J1 locked again
        (1.004, [1, 0, 1]), // and slips
        (1.146, [1, 0, 0]), // J4 locked to J2-J3
        (1.254, [2, 0, 0]), // clutch 1 free: f_1 = cos(0.4*pi*t) <= 0
    ];
    claim!(sequence.len() == expected.len(), "{sequence:?}");
    for ((tk, m), (te, me)) in sequence.iter().zip(expected) {
        claim!(close(*tk, te, 1e-9) && *m == me, "{sequence:?}");
    }
    let last = |i: usize| w[i].last().copied().ok_or(format!("no w{}", i + 1));
    let end = [last(1)?, last(2)?, last(3)?];
    claim!(end.iter().all(|&x| close(x, 2.464352, 1e-6)), "J2-J4 end at {end:?}");
    Ok(())
}
