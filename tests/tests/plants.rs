//! The plants of the papers, through their FMUs.

use fmu_tests::{run_fmi_with, Run};

/// TwoInertiaClutch, the blog's scenario: drive 20 N.m, damping 10 N.m.s on
/// inertia 2 inside the plant, capacity 50 N.m for 1 s < t < 2 s (fed by the
/// master), 3 s.
#[test]
fn two_inertia_clutch_blog_scenario() {
    let run = Run::new("TwoInertiaClutch", 3.0, 1e-3);
    let t = run_fmi_with(&run, |time, _| {
        vec![("tau_capacity", if time >= 1.0 - 1e-9 && time < 2.0 - 1e-9 { 50.0 } else { 0.0 })]
    });
    insta::assert_snapshot!("two_inertia_clutch_blog", t.snapshot_text(100));
    let (time, w1, w2, locked) = (t.column("time"), t.column("w1"), t.column("w2"), t.column("locked"));
    // Open: w1 = 20 t, w2 = 0.
    for k in 0..time.len() {
        if time[k] <= 1.0 {
            assert!((w1[k] - 20.0 * time[k]).abs() < 1e-9 && w2[k] == 0.0);
        }
        if locked[k] == 1.0 {
            assert_eq!(w1[k], w2[k]);
            assert!(time[k] > 1.0 && time[k] <= 2.0 + 1e-9);
        }
    }
    // Slipping from 1 s: w1 = 20 - 30 s, w2 = 5 (1 - exp(-10 s)); equal at s = 0.50111.
    let lock = time[locked.iter().position(|&l| l == 1.0).unwrap()];
    eprintln!("TwoInertiaClutch locked at {lock} s");
    assert!((lock - 1.50111).abs() < 1.5e-3, "locked at {lock}");
    // Locked: (J1 + J2) dw/dt = 20 - 10 w, so w -> 2 rad/s with time constant 0.2 s.
    let k2 = time.iter().position(|&x| x >= 2.0 - 1e-9).unwrap();
    let w_lock = w1[locked.iter().position(|&l| l == 1.0).unwrap()];
    let expected = 2.0 + (w_lock - 2.0) * (-(2.0 - lock) / 0.2_f64).exp();
    assert!((w1[k2] - expected).abs() < 5e-3, "{} vs {expected}", w1[k2]);
    // Open again after 2 s: inertia 1 accelerates at 20 rad/s^2, inertia 2 decays.
    let last = time.len() - 1;
    assert!((w1[last] - (w1[k2] + 20.0 * (3.0 - 2.0))).abs() < 1e-6);
    assert!(w2[last] < w2[k2] * (-10.0_f64 * 0.9).exp());
}
