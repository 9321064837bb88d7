//! OpenModelica's simulator (OMSimulator, built from `../shared/omsimulator`)
//! imports every FMU and runs its default experiment; its results must be
//! FMPy's results for the same interface.
//!
//! Co-Simulation: OMSimulator's weakly coupled system steps the FMU at the
//! experiment's step, FMPy's master at the same step, both with the start
//! values only, so the two importers make the same fmi2DoStep calls and the
//! outputs agree to round-off in the time grid (OMSimulator accumulates
//! `t += h`, FMPy computes `n*h`).

use fmu_tests::oms::{omsimulator, simulate, Mode, OmsRun};
use fmu_tests::{fmu_path, run_fmpy, Run, Table};

/// Largest difference between two runs over the columns they share, at the
/// times they share, relative to each column's largest magnitude (absolute
/// below 1). Returns (column, time, difference) of the worst.
fn worst_difference(a: &Table, b: &Table) -> (String, f64, f64) {
    let ta = a.column("time");
    let tb = b.column("time");
    let mut worst = (String::new(), 0.0, 0.0);
    for name in a.columns.iter().filter(|c| *c != "time" && b.columns.contains(c)) {
        let (xa, xb) = (a.column(name), b.column(name));
        let scale = xa.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        for (i, &t) in ta.iter().enumerate() {
            // The first row at `t` in b: OMSimulator writes each point twice and,
            // having summed `t += h`, ends with a sliver step of ~1e-13 s to
            // reach stopTime exactly, after which step-mean outputs (the last
            // internal step's effective friction) are instantaneous values.
            let Some(j) = tb.iter().position(|&s| (s - t).abs() <= 1e-9 * t.abs().max(1.0)) else { continue };
            let d = (xa[i] - xb[j]).abs() / scale;
            if d > worst.2 {
                worst = (name.clone(), t, d);
            }
        }
    }
    worst
}

#[test]
fn every_fmu_runs_its_default_experiment_in_omsimulator_as_in_fmpy_cosimulation() {
    let Some(oms) = omsimulator("OMSimulator co-simulation of every FMU") else { return };
    let mut failures = Vec::new();
    for model in fmu::registry::MODELS {
        let e = model.info.default_experiment;
        assert_eq!(e.start_time, 0.0, "{}: the comparison assumes a start at 0", model.info.identifier);
        let path = fmu_path(model.info.identifier);
        let run =
            OmsRun { file: &path, mode: Mode::CoSimulation, stop: e.stop_time, step: e.step_size, tolerance: 1e-6 };
        let oms_table = match simulate(&oms, &run) {
            Ok(t) => t,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let fmpy_table = run_fmpy(&Run::new(model.info.identifier, e.stop_time, e.step_size));
        let shared: Vec<&String> =
            fmpy_table.columns.iter().filter(|c| *c != "time" && oms_table.columns.contains(c)).collect();
        let (column, t, d) = worst_difference(&fmpy_table, &oms_table);
        let times = oms_table.column("time");
        println!(
            "{:<30} cs: {} rows to t = {}, {} outputs compared, worst {column} at t = {t}: {d:.1e}",
            model.info.identifier,
            oms_table.rows.len(),
            times.last().unwrap(),
            shared.len()
        );
        // Every output FMPy records is in OMSimulator's result too.
        if shared.len() + 1 != fmpy_table.columns.len() {
            failures.push(format!(
                "{}: OMSimulator's result lacks outputs: FMPy {:?}, OMSimulator {:?}",
                model.info.identifier, fmpy_table.columns, oms_table.columns
            ));
        }
        if (times.last().unwrap() - e.stop_time).abs() > 1e-9 * e.stop_time {
            failures.push(format!("{}: OMSimulator stopped at {} s", model.info.identifier, times.last().unwrap()));
        }
        if d > 1e-9 {
            failures.push(format!("{}: {column} differs by {d:e} (relative) at t = {t}", model.info.identifier));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
