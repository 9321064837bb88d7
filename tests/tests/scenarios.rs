//! The FMI cross-check files that `cargo xtask fmu` ships for every scenario
//! (`target/fmu/scenarios/<name>/<Model>_in.csv`, `<Model>_ref.opt`,
//! `start_values.csv`) replayed by a real importer, FMPy, and compared with
//! the in-process run of the same scenario (`Scenario::simulate`).
//!
//! How the two runs may differ, and so the comparison rule: FMPy applies at
//! the start of each communication step the CSV interpolated linearly at
//! that time (the value after a jump at a jump time); our run holds over
//! the step the signal's value at the middle of the step. The two agree
//! exactly where the inputs are piecewise constant with their jumps on the
//! communication grid: there the runs make the same fmi2 calls with the
//! same values, and every output must agree to rounding. Where an input
//! moves within a step (ramps, sines), FMPy's value lags ours by half a
//! step, a time shift of `h/2` of the input; the responses then differ by
//! the response to that shift, O(h) — and a stick/slip decision may land one
//! step apart. For those:
//! - the discrete outputs (modes, locked) agree on all but `DISCRETE_ROWS`
//!   of the rows (each transition at most a step or two apart);
//! - where they agree (a row and its neighbours), every Real output of FMPy
//!   lies within ours over the neighbouring communication points (one step
//!   of time alignment: covers the half-step shift of outputs that follow
//!   the inputs algebraically, such as a locked clutch's torque) widened by
//!   `BAND` of the output's range, for what the shift accumulates in the
//!   states, on all but `OUTSIDE_ROWS` of the rows (isolated switches of
//!   discontinuous torques). Where the modes differ, constraint torques
//!   legitimately differ by a jump and are not compared row by row;
//! - the final values agree within the same band.
//!
//! The observed deviations are ~0.1% of the range (CoupledClutches' rates,
//! a 5 Hz drive at 1 ms steps, whose input moves 2*pi*5*0.5e-3 = 1.6% of
//! its amplitude in half a step) and ~1e-3 for Nurre's sines: `BAND` is
//! about ten times that, far below any wrong signal, column or time.

use fmu::scenarios::{all, Scenario, Signal};
use fmu_tests::{fmpy, fmu_path};
use runner::{Simulate, Table};
use std::path::PathBuf;

/// Allowed deviation beyond one-step alignment, as a fraction of the
/// output's range over our run, for inputs that move within a step.
const BAND: f64 = 1e-2;
/// Fraction of rows on which a discrete output may differ (a transition one
/// step apart each time it happens), for inputs that move within a step.
const DISCRETE_ROWS: f64 = 0.01;
/// Fraction of rows on which a Real output may leave the one-step band:
/// friction and constraint torques are discontinuous in the state (stick or
/// slip, static or dynamic level) and may switch a step or two apart
/// without a discrete output showing it; such switches are isolated rows.
const OUTSIDE_ROWS: f64 = 0.01;

fn scenario_dir(s: &Scenario) -> PathBuf {
    fmu_path(s.model).parent().unwrap().join("scenarios").join(s.name)
}

/// Replay the shipped files through FMPy's `simulate_fmu`.
fn replay(s: &Scenario) -> Table {
    let dir = scenario_dir(s);
    let fmu = fmu_path(s.model);
    let in_csv = dir.join(format!("{}_in.csv", s.model));
    let ref_opt = dir.join(format!("{}_ref.opt", s.model));
    let start_values = std::fs::read_to_string(dir.join("start_values.csv"))
        .unwrap_or_else(|e| panic!("{}: {e}: run `cargo xtask fmu`", dir.display()));
    // The shipped files are what the scenario declares.
    assert_eq!(std::fs::read_to_string(&ref_opt).unwrap(), s.ref_opt(), "{}: stale _ref.opt", s.name);
    assert_eq!(std::fs::read_to_string(&in_csv).ok(), s.input_csv(), "{}: stale _in.csv", s.name);
    assert_eq!(start_values, s.start_values_csv(), "{}: stale start_values.csv", s.name);
    let assignments: Vec<String> = start_values
        .lines()
        .skip(1)
        .map(|l| {
            let (name, value) = l.split_once(',').unwrap();
            format!("{}={value}", name.trim_matches('"'))
        })
        .collect();
    let in_arg = if in_csv.exists() { in_csv.to_str().unwrap().to_string() } else { "-".into() };
    let mut args = vec!["replay", fmu.to_str().unwrap(), &in_arg, ref_opt.to_str().unwrap()];
    args.extend(assignments.iter().map(String::as_str));
    let (ok, stdout, stderr) = fmpy(&args);
    assert!(ok, "FMPy replay of {} failed:\n{stderr}", s.name);
    let mut lines = stdout.lines();
    let columns: Vec<String> = lines.next().expect("CSV header").split(',').map(str::to_string).collect();
    let rows = lines
        .map(|l| l.split(',').map(|x| x.parse::<f64>().unwrap_or_else(|_| panic!("{}: {l}", s.name))).collect())
        .collect();
    Table { columns, rows }
}

/// Whether every input is piecewise constant with its jumps on the
/// communication grid (then FMPy applies exactly the values we hold).
fn step_exact(s: &Scenario) -> bool {
    let grid = s.points();
    let on_grid = |t: f64| t <= 0.0 || t >= s.stop_time || grid.iter().any(|&g| (g - t).abs() <= 1e-9 * t.abs());
    s.inputs.iter().all(|(_, signal)| match signal {
        Signal::Constant(_) => true,
        Signal::Sine { amplitude, frequency, .. } => *amplitude == 0.0 || *frequency == 0.0,
        Signal::Points(p) => p.windows(2).all(|w| w[0].1 == w[1].1 || (w[0].0 == w[1].0 && on_grid(w[0].0))),
    })
}

#[test]
fn every_scenario_replays_through_fmpy_from_the_shipped_files() {
    let mut report = String::new();
    for s in all() {
        let ours = s.simulate().unwrap_or_else(|e| panic!("{e}"));
        let theirs = replay(s);
        // Same communication grid.
        let (t_ours, t_theirs) = (ours.column("time"), theirs.column("time"));
        assert_eq!(t_theirs.len(), t_ours.len(), "{}: FMPy has {} rows, we {}", s.name, t_theirs.len(), t_ours.len());
        for (a, b) in t_ours.iter().zip(&t_theirs) {
            assert!((a - b).abs() <= 1e-12 * a.abs().max(1.0), "{}: time {a} against FMPy's {b}", s.name);
        }
        let exact = step_exact(s);
        let model = fmu::registry::get(s.model);
        let variables = (model.variables)();
        let outputs: Vec<&String> = theirs.columns.iter().skip(1).collect();
        let discrete: Vec<&String> = outputs
            .iter()
            .copied()
            .filter(|n| variables.iter().any(|v| v.name == n.as_str() && v.type_name != "Real"))
            .collect();
        // Rows where the two runs are in different discrete states (a mode
        // change one step apart), and their neighbours.
        let mut apart = vec![false; t_ours.len()];
        for name in &discrete {
            let (a, b) = (ours.column(name), theirs.column(name));
            let differing = a.iter().zip(&b).filter(|(x, y)| x != y).count();
            report.push_str(&format!("{} {name}: {differing} of {} rows differ\n", s.name, a.len()));
            let limit = if exact { 0 } else { (DISCRETE_ROWS * a.len() as f64) as usize };
            assert!(differing <= limit, "{}: {name} differs on {differing} of {} rows", s.name, a.len());
            for k in (0..a.len()).filter(|&k| a[k] != b[k]) {
                apart[k.saturating_sub(1)..(k + 2).min(a.len())].iter_mut().for_each(|x| *x = true);
            }
        }
        for name in outputs.iter().filter(|n| !discrete.contains(n)) {
            let (a, b) = (ours.column(name), theirs.column(name));
            let (lo, hi) = a.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
            let worst = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
            report.push_str(&format!("{} {name}: max difference {worst:.3e}, range {:.3e}\n", s.name, hi - lo));
            let mut outside = Vec::new();
            for k in 0..a.len() {
                let (x, y) = (a[k], b[k]);
                if exact {
                    let tol = 1e-9 * (1.0 + hi.abs().max(lo.abs()));
                    assert!((x - y).abs() <= tol, "{}: {name} at t = {}: ours {x}, FMPy {y}", s.name, t_ours[k]);
                } else if !apart[k] {
                    let near = &a[k.saturating_sub(1)..(k + 2).min(a.len())];
                    let (nlo, nhi) =
                        near.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
                    let band = BAND * (hi - lo);
                    if y < nlo - band || y > nhi + band {
                        outside.push(format!("t = {}: FMPy {y} outside ours [{nlo}, {nhi}] +- {band}", t_ours[k]));
                    }
                }
            }
            assert!(
                outside.len() as f64 <= OUTSIDE_ROWS * a.len() as f64,
                "{}: {name} leaves the one-step band on {} of {} rows:\n{}",
                s.name,
                outside.len(),
                a.len(),
                outside.join("\n")
            );
            // The end of the run, whatever the modes did on the way.
            let band = if exact { 1e-9 * (1.0 + hi.abs().max(lo.abs())) } else { BAND * (hi - lo) };
            let (x, y) = (a[a.len() - 1], b[b.len() - 1]);
            assert!((x - y).abs() <= band, "{}: final {name}: ours {x}, FMPy {y}", s.name);
        }
    }
    println!("{report}");
}
