//! AntennaAzimuthServo through the `fmi` crate: Hill's Section IV run (1.0
//! mdeg position step, 10 ms, 5 s) with the conventional friction model
//! (Fig. 3) and with Hill's algorithm (Fig. 4).

use fmu_tests::Table;

const STATIC: f64 = 425.0;
const COULOMB: f64 = 400.0;

/// A scenario's run with its columns in Hill's units, those the variables
/// display: the FMU's variables are SI (rad, rad/s, Pa); Hill's figures and
/// the numbers below are in deg, mdeg/s and psi. The snapshots hold these
/// converted columns, so that they read as Hill's figures.
fn run_scenario(name: &str) -> Table {
    const PSI: f64 = 6894.757293168361;
    let mut t = fmu_tests::run_scenario(name);
    for (k, column) in t.columns.clone().iter().enumerate() {
        let scale = match column.as_str() {
            "motor_pressure" | "gear_pressure" | "friction_pressure" | "valve" | "rate_loop_integral" => 1.0 / PSI,
            "position" | "motor_angle" => 1.0 / 1f64.to_radians(),
            "rate" | "motor_rate" | "position_loop_integral" => 1.0 / 1e-3f64.to_radians(),
            _ => continue,
        };
        for row in t.rows.iter_mut() {
            row[k] *= scale;
        }
    }
    t
}

/// Root mean square of the torque's second difference over the rows `rows`:
/// how irregular the torque graph is (a smooth ramp gives ~0). The first
/// 0.1 s (the lags taking up the step) is left out.
fn roughness(torque: &[f64], rows: impl Iterator<Item = usize>) -> f64 {
    let d2: Vec<f64> = rows
        .filter(|&k| k >= 10 && k + 1 < torque.len())
        .map(|k| torque[k + 1] - 2.0 * torque[k] + torque[k - 1])
        .collect();
    (d2.iter().map(|x| x * x).sum::<f64>() / d2.len() as f64).sqrt()
}

/// Rows before the torque first reaches `level` in magnitude (all if never).
fn before_torque_reaches(t: &Table, level: f64) -> usize {
    let torque = t.column("motor_pressure");
    torque.iter().position(|p| p.abs() >= level).unwrap_or(torque.len())
}

/// The gear spring at rest: in the last second of Fig. 4 the axis is stuck
/// and the motor still, so the gear torque is the spring's alone,
/// K*(motor_angle - position) with K = (2*pi*7 Hz)^2 * J_total/4 (the 7 Hz
/// mode of two equal halves of J_total = 400 psi / 1.77 mrad/s2), and the
/// pressure lags the valve by its 10 ms time constant: valve - torque =
/// 0.01 s * d(torque)/dt (the position integrator still winds the torque up
/// while the axis sticks off its command).
fn gear_spring_holds_the_stuck_axis(t: &Table) {
    let j_total = COULOMB / 1.77e-3;
    let k = (2.0 * std::f64::consts::PI * 7.0).powi(2) * j_total / 4.0;
    let last = t.column("time").len() - 1;
    let at = |name: &str| t.column(name)[last];
    let spring = k * (at("motor_angle") - at("position")).to_radians();
    assert_eq!(at("rate"), 0.0);
    assert!((at("gear_pressure") / spring - 1.0).abs() < 1e-3, "gear {} psi, spring {spring} psi", at("gear_pressure"));
    let (time, torque) = (t.column("time"), t.column("motor_pressure"));
    let slope = (torque[last] - torque[last - 1]) / (time[last] - time[last - 1]);
    let lag = at("valve") - at("motor_pressure");
    // Within 15 %: the run's 10 ms step equals that time constant.
    assert!((lag - 0.01 * slope).abs() < 0.15 * lag.abs(), "valve - torque = {lag} psi, 10 ms * {slope} psi/s");
}

#[test]
fn fig4_hill_rate_is_exactly_zero_between_the_static_friction_levels() {
    let t = run_scenario("hill_fig4_predictive");
    insta::assert_snapshot!("hill_fig4", t.snapshot_text(10));
    gear_spring_holds_the_stuck_axis(&t);
    let (time, rate, gear, position) =
        (t.column("time"), t.column("rate"), t.column("gear_pressure"), t.column("position"));
    // Hill's law at every step: an axis at rest stays exactly at rest while the
    // torque the gear applies is within the static friction levels.
    for k in 1..time.len() {
        if rate[k - 1] == 0.0 && gear[k].abs() <= STATIC {
            assert_eq!(rate[k], 0.0, "t = {}: moved under {} psi", time[k], gear[k]);
        }
        if rate[k - 1] == 0.0 && rate[k] != 0.0 {
            assert!(gear[k].abs() > STATIC, "t = {}: broke away at {} psi", time[k], gear[k]);
        }
    }
    // Breakaway: the first motion comes when the gear torque first exceeds 425 psi.
    let first_motion = rate.iter().position(|&w| w != 0.0).expect("breaks away");
    let first_above = gear.iter().position(|g| g.abs() > STATIC).unwrap();
    assert_eq!(first_motion, first_above);
    eprintln!(
        "Hill: breakaway at t = {} s with {:.1} psi on the axis ({:.1} psi pressure); motion before: none",
        time[first_motion],
        gear[first_motion],
        t.column("motor_pressure")[first_motion]
    );
    assert!(time[first_motion] > 1.0 && time[first_motion] < 3.0);
    // It slides, then sticks again: exactly zero rate and a frozen position.
    let restick = (first_motion..rate.len()).find(|&k| rate[k] == 0.0).expect("sticks again");
    let slide = &rate[first_motion..restick];
    assert!(slide.iter().all(|&w| w > 0.0), "one forward slide");
    assert!(rate[restick..].iter().all(|&w| w == 0.0), "stuck to the end");
    assert!(position[restick..].iter().all(|&x| x == position[restick]));
    let stuck = rate.iter().filter(|&&w| w == 0.0).count() as f64 / rate.len() as f64;
    let peak = slide.iter().cloned().fold(0.0, f64::max);
    eprintln!(
        "Hill: slide {} s to {} s, peak {peak:.3} mdeg/s, rests at {:.4} mdeg; stuck {:.0}% of the run",
        time[first_motion],
        time[restick],
        1e3 * position[restick],
        100.0 * stuck
    );
    // While it sticks the pressure changes smoothly (a ramp driven by the loop integrators).
    let stuck_rows = (1..time.len() - 1).filter(|&k| rate[k - 1..=k + 1].iter().all(|&w| w == 0.0));
    let smooth = roughness(&t.column("motor_pressure"), stuck_rows);
    eprintln!("Hill: torque roughness while stuck {smooth:.3} psi");
    // Against the conventional model over its own interval below friction (Fig. 3).
    let c = run_scenario("hill_fig3_conventional");
    let rough = roughness(&c.column("motor_pressure"), 1..before_torque_reaches(&c, COULOMB));
    eprintln!("conventional: torque roughness below friction {rough:.3} psi");
    assert!(rough > 4.0 * smooth, "Hill's torque is smoother: {smooth} vs {rough}");
}

#[test]
fn fig3_conventional_rate_oscillates_about_a_nonzero_mean_below_friction() {
    let t = run_scenario("hill_fig3_conventional");
    insta::assert_snapshot!("hill_fig3", t.snapshot_text(10));
    let (time, rate, position) = (t.column("time"), t.column("rate"), t.column("position"));
    let below = before_torque_reaches(&t, COULOMB).min(rate.len() - 1);
    assert!(time[below] > 1.0, "torque below friction for {} s", time[below]);
    let rates = &rate[1..below];
    let mean = rates.iter().sum::<f64>() / rates.len() as f64;
    let reversals = rates.windows(2).filter(|w| w[0] * w[1] < 0.0).count();
    eprintln!(
        "conventional: torque < {COULOMB} psi until t = {} s; rate mean {mean:.3} mdeg/s, {reversals} reversals, position \
         crept to {:.3} mdeg",
        time[below],
        1e3 * position[below]
    );
    // Hill: "the rate oscillates about a non-zero mean due to the nonzero input applied force".
    assert!(reversals >= 20, "oscillates: {reversals} reversals");
    assert!(mean > 0.1, "non-zero mean: {mean} mdeg/s");
    // The axis creeps although the torque never exceeded the friction: erroneous motion.
    assert!(position[below] > 0.1e-3, "crept {} deg", position[below]);
    // With Hill's algorithm the same interval has no motion at all.
    let h = run_scenario("hill_fig4_predictive");
    let h_below = before_torque_reaches(&h, COULOMB);
    assert!(h.column("rate")[..h_below].iter().all(|&w| w == 0.0));
}
