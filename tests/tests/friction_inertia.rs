//! Physics of the two 1-DOF FMUs, through the importers: Hill's claims
//! (Section I and II) against the conventional model. Each snapshot is
//! paired with assertions of the physics it shows.

use fmu_tests::{run_fmi, run_fmpy, Run, Table};

const COULOMB: &str = "ConventionalCoulombBaseline";
const HILL: &str = "HillFrictionInertia";

/// First time at which `pred` holds for the row.
fn first_time(t: &Table, pred: impl Fn(usize) -> bool) -> Option<f64> {
    let time = t.column("time");
    (0..time.len()).find(|&i| pred(i)).map(|i| time[i])
}

/// Coasting from 1 rad/s with J = 1, F_c = 1: at rest at t = v0*J/F_c = 1 s.
/// (The former default experiment, `w_start = 1` now set explicitly: the
/// bodies start at rest by default, issue 21.)
#[test]
fn coasting_from_1_rad_s_to_rest() {
    let hill = run_fmpy(&Run::new(HILL, 2.0, 0.01).with("w_start", 1.0));
    let coulomb = run_fmpy(&Run::new(COULOMB, 2.0, 0.01).with("w_start", 1.0));
    insta::assert_snapshot!("hill_coasting_from_1_rad_s", hill.snapshot_text(10));
    insta::assert_snapshot!("coulomb_coasting_from_1_rad_s", coulomb.snapshot_text(10));

    let t_stop = 1.0;
    // Hill: rate exactly 0.0 from the step that contains t_stop on, angle frozen.
    let (w, phi, mode) = (hill.column("w"), hill.column("phi"), hill.column("mode"));
    let stop = first_time(&hill, |i| w[i] == 0.0).expect("Hill stops");
    assert!(stop >= t_stop - 1e-9 && stop < t_stop + 0.01, "stopped at {stop}");
    let k = w.iter().position(|&x| x == 0.0).unwrap();
    assert!(w[k..].iter().all(|&x| x == 0.0) && mode[k..].iter().all(|&m| m == 0.0));
    assert!(phi[k..].iter().all(|&p| p == phi[k]));
    // Angle at rest: v0^2*J/(2*F_c) = 0.5 rad (stop on a step boundary: exact).
    assert!((phi[k] - 0.5).abs() < 1e-12, "{}", phi[k]);

    // Conventional: reaches the chatter band (|w| <= F_c*dt/J, dt = 1 ms
    // internal) within one step of t_stop, never rests exactly, and creeps.
    let (w, phi) = (coulomb.column("w"), coulomb.column("phi"));
    let band = 1.0 * 1e-3 / 1.0;
    let reached = first_time(&coulomb, |i| w[i].abs() <= band).unwrap();
    assert!((reached - t_stop).abs() < 0.01 + 1e-9, "{reached}");
    let k = w.iter().position(|&x| x.abs() <= band).unwrap();
    let creep = (phi[phi.len() - 1] - phi[k]) / (2.0 - reached);
    // Chatter between ~0 and F_c*dt/J: mean rate F_c*dt/(2J) = 5e-4 rad/s.
    assert!((creep - 5e-4).abs() < 2e-5, "mean rate while 'at rest': {creep}");
}

/// Hill, Section I: under a constant torque below the friction, the
/// conventional model at a 10 ms step oscillates about a non-zero mean rate
/// where the body must be at rest; Hill's model stays exactly at rest.
#[test]
fn constant_torque_below_breakaway() {
    let setup = |m| Run::new(m, 1.0, 0.01).with("tau", 0.5).with("w_start", 0.0).with("internal_step", 0.01);
    let hill = run_fmpy(&setup(HILL));
    let coulomb = run_fmpy(&setup(COULOMB));
    insta::assert_snapshot!("hill_tau_0_5_at_rest", hill.snapshot_text(10));
    insta::assert_snapshot!("coulomb_tau_0_5_chatter", coulomb.snapshot_text(10));

    assert!(hill.column("w").iter().all(|&w| w == 0.0));
    assert!(hill.column("phi").iter().all(|&p| p == 0.0));
    assert!(hill.column("tau_friction")[1..].iter().all(|&f| f == -0.5), "static friction balances the torque");

    // Conventional: from rest w jumps to tau*dt/J, back to ~0 (round-off
    // residue, never exactly 0 again), and the residue's sign picks the next
    // excursion. The mean rate is positive, at least tau*dt/(2J) = 2.5 mrad/s
    // (the pattern 0, tau*dt/J, 0, ...) and below (tau + F_c)*dt/J = 15 mrad/s:
    // Hill's threshold for a usable simulation is 0.1 mdeg/s = 1.7 urad/s.
    let phi = coulomb.column("phi");
    let mean_rate = phi[phi.len() - 1] / 1.0;
    assert!((0.0025 - 1e-9..0.015).contains(&mean_rate), "{mean_rate}");
    assert!(coulomb.column("mode").iter().any(|&m| m != 0.0));
}

/// At rest with |tau| <= F_s, Hill's model keeps w exactly 0.0 for every step
/// from 1 ms to 0.5 s; between F_c and F_s the conventional model slides away.
#[test]
fn hill_holds_at_any_step_and_breaks_away_above_static() {
    for h in [1e-3, 1e-2, 0.05, 0.1, 0.25, 0.5] {
        for tau in [0.5, -0.99, 1.1, 1.2, -1.2] {
            let run = Run::new(HILL, 2.0, h).with("tau", tau).with("w_start", 0.0).with("internal_step", h);
            let t = run_fmi(&run);
            assert!(t.column("w").iter().all(|&w| w == 0.0), "h = {h}, tau = {tau}");
        }
        // Just above F_s = 1.2: breaks away with the Coulomb level (Eq. 1):
        // w(t) = (tau - F_c)/J * t.
        let run = Run::new(HILL, 2.0, h).with("tau", 1.25).with("w_start", 0.0).with("internal_step", h);
        let t = run_fmi(&run);
        let (time, w) = (t.column("time"), t.column("w"));
        for (ti, wi) in time.iter().zip(&w) {
            assert!((wi - 0.25 * ti).abs() <= 1e-12 * (1.0 + ti), "h = {h}: w({ti}) = {wi}");
        }
    }
    let run = Run::new(COULOMB, 2.0, 0.01).with("tau", 1.1).with("w_start", 0.0).with("internal_step", 0.01);
    let w = run_fmi(&run).column("w");
    assert!(w[w.len() - 1] > 0.19, "conventional model slides below breakaway: {}", w[w.len() - 1]);
}

/// Coasting to rest: v0 = 1 rad/s, J = 2, F_c = 0.5, stop at 4 s. Hill stops
/// within one step of v0*J/F_c and stays at exactly 0.0; the conventional
/// model reverses within one step and then chatters.
#[test]
fn coasting_stops_within_one_step() {
    let t_stop = 4.0;
    for h in [1e-3, 0.01, 0.03, 0.3, 0.5] {
        for (internal, label) in [(h, "internal = h"), (0.01, "internal = 10 ms")] {
            let base = |m| {
                Run::new(m, 6.0, h)
                    .with("w_start", 1.0)
                    .with("J", 2.0)
                    .with("tau_coulomb", 0.5)
                    .with("tau_static", 0.6)
                    .with("internal_step", internal)
            };
            let hill = run_fmi(&base(HILL));
            let w = hill.column("w");
            let k = w.iter().position(|&x| x == 0.0).expect("stops");
            let stop = hill.column("time")[k];
            assert!(stop >= t_stop - 1e-9 && stop < t_stop + h + 1e-9, "h = {h} ({label}): stopped at {stop}");
            assert!(w[k..].iter().all(|&x| x == 0.0), "h = {h} ({label})");

            let coulomb = run_fmi(&base(COULOMB));
            let w = coulomb.column("w");
            // It cannot rest; it enters its chatter band |w| <= F_c*dt/J
            // (dt the internal substep) one substep before t_stop, seen at
            // the next communication point.
            let dt = internal.min(h);
            let band = 0.5 * dt / 2.0 * (1.0 + 1e-9);
            let reached = first_time(&coulomb, |i| w[i].abs() <= band).unwrap();
            assert!(
                reached >= t_stop - dt - 1e-9 && reached < t_stop - dt + h + 1e-9,
                "h = {h} ({label}): conventional in its chatter band at {reached}"
            );
        }
    }
}
