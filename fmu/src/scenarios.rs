//! The papers' experiments as scenarios: parameter values, input signals and
//! a communication grid for one FMU, declared once here.
//!
//! From these declarations `cargo xtask fmu` writes the FMI cross-check files
//! (`<Model>_in.csv`, `<Model>_ref.opt`) beside each FMU, `cargo xtask plots`
//! renders the figures, and the tests run the same scenarios through the
//! importers. A scenario's inputs are fed by a zero-order hold sampled at the
//! middle of each communication step (see [`Signal::hold_value`]).
//!
//! Data only (model layer): running a scenario is the `runner` crate's
//! `Simulate`, which drives the model through the exported fmi2 functions.

#![forbid(unsafe_code)]

use crate::description::Causality;
pub use crate::scenario::{Scenario, Signal, Trace};

/// Every scenario, in figure order.
pub fn all() -> Vec<&'static Scenario> {
    crate::models::SCENARIOS.iter().flat_map(|list| list.iter()).collect()
}

pub fn find(name: &str) -> Option<&'static Scenario> {
    all().into_iter().find(|s| s.name == name)
}

impl Scenario {
    /// FMI cross-check `<Model>_in.csv` (cross-check rules, Appendix B):
    /// quoted header `"time"` then every input of the model, in the order
    /// of its model description (an importer such as FMPy's cross-check
    /// reads exactly those columns); inputs the scenario does not drive are
    /// constant at their start value (or the value `parameters` gives them).
    /// Piecewise-linear signals are written at their break points, a jump
    /// as two rows at the same time (left limit, then the new value); sines
    /// are sampled on the communication grid, thinned if the file would
    /// exceed the rules' 1 MB. Importers interpolate linearly between rows.
    /// Integer and Boolean inputs are written as whole numbers (0/1).
    /// `None` when the model has no inputs.
    pub fn input_csv(&self) -> Option<String> {
        let variables = crate::models::variables_of(self.model)
            .unwrap_or_else(|| panic!("scenario {}: no model {}", self.name, self.model));
        let columns: Vec<(&'static str, bool, Signal)> = variables
            .into_iter()
            .filter(|v| v.causality == Causality::Input)
            .map(|v| {
                let signal = self.inputs.iter().find(|(n, _)| *n == v.name).map(|&(_, s)| s).unwrap_or_else(|| {
                    let start = self.parameters.iter().find(|(n, _)| *n == v.name).map_or(v.start, |&(_, x)| x);
                    Signal::Constant(start)
                });
                (v.name, v.type_name == "Real", signal)
            })
            .collect();
        if columns.is_empty() {
            return None;
        }
        let sampled = columns.iter().any(|(_, _, s)| matches!(s, Signal::Sine { .. }));
        let mut stride = 1;
        loop {
            let csv = self.input_rows(&columns, stride);
            if csv.len() <= MAX_CSV_BYTES || !sampled || stride >= self.points().len() {
                return Some(csv);
            }
            stride *= 2;
        }
    }

    fn input_rows(&self, columns: &[(&'static str, bool, Signal)], stride: usize) -> String {
        let mut times: Vec<f64> = vec![0.0, self.stop_time];
        for (_, _, s) in columns {
            match s {
                Signal::Constant(_) => {}
                Signal::Points(p) => times.extend(p.iter().map(|&(t, _)| t).filter(|&t| t > 0.0 && t < self.stop_time)),
                Signal::Sine { .. } => times.extend(self.points().into_iter().step_by(stride)),
            }
        }
        times.sort_by(f64::total_cmp);
        times.dedup();
        let mut out = String::from("\"time\"");
        for (name, _, _) in columns {
            out.push_str(&format!(",\"{name}\""));
        }
        out.push('\n');
        let cell = |real: bool, v: f64| if real { format!("{v:?}") } else { format!("{}", v.round() as i64) };
        for &t in &times {
            // A jump at t: one row with the left limits, one with the new values.
            let jumps = t > 0.0 && columns.iter().any(|(_, _, s)| left_value(s, t) != s.value(t));
            if jumps {
                out.push_str(&format!("{t:?}"));
                for &(_, real, s) in columns {
                    out.push_str(&format!(",{}", cell(real, left_value(&s, t))));
                }
                out.push('\n');
            }
            out.push_str(&format!("{t:?}"));
            for &(_, real, s) in columns {
                out.push_str(&format!(",{}", cell(real, s.value(t))));
            }
            out.push('\n');
        }
        out
    }
}

/// Value just before `t` (the left limit): for a piecewise-linear signal
/// with points at `t`, the first of them (a ramp ends there, a jump leaves
/// from there); elsewhere the signal is continuous.
fn left_value(s: &Signal, t: f64) -> f64 {
    match s {
        Signal::Points(p) => p.iter().find(|&&(tk, _)| tk == t).map_or_else(|| s.value(t), |&(_, x)| x),
        _ => s.value(t),
    }
}

/// Largest CSV file the cross-check rules allow.
const MAX_CSV_BYTES: usize = 1_000_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_signal_holds_jumps_and_interpolates_ramps() {
        const P: &[(f64, f64)] = &[(0.02, 0.0), (0.02, 10.0), (0.2, 10.0), (0.2, 0.0), (0.3, 0.0), (0.5, 1.0)];
        let s = Signal::Points(P);
        assert_eq!(s.value(0.0), 0.0);
        assert_eq!(s.value(0.02), 10.0);
        assert_eq!(s.value(0.1), 10.0);
        assert_eq!(s.value(0.2), 0.0);
        assert!((s.value(0.4) - 0.5).abs() < 1e-12);
        assert_eq!(s.value(9.0), 1.0);
        assert_eq!(left_value(&s, 0.02), 0.0);
        assert_eq!(left_value(&s, 0.2), 10.0);
        // A master sampling [0.01, 0.02) keeps the old value, [0.02, 0.03) the new.
        assert_eq!(s.hold_value(0.01, 0.01), 0.0);
        assert_eq!(s.hold_value(0.02, 0.01), 10.0);
    }

    /// A scenario of the blog plant with a jump, a ramp and one input left
    /// to its start value (tau_drive, 0 N.m), for the exact file contents.
    const CSV_CASE: Scenario = Scenario {
        name: "csv_case",
        model: "TwoInertiaClutch",
        figure: "csv_case",
        title: "",
        parameters: &[("J1", 2.0)],
        inputs: &[("tau_capacity", Signal::Points(&[(0.5, 0.0), (0.5, 50.0), (1.0, 50.0), (1.5, 0.0)]))],
        stop_time: 2.0,
        step_size: 0.25,
        traces: &[],
    };

    #[test]
    fn input_csv_has_every_input_jumps_as_two_rows_and_exact_break_points() {
        assert_eq!(
            CSV_CASE.input_csv().unwrap(),
            "\"time\",\"tau_drive\",\"tau_capacity\"\n\
             0.0,0.0,0.0\n\
             0.5,0.0,0.0\n\
             0.5,0.0,50.0\n\
             1.0,0.0,50.0\n\
             1.5,0.0,0.0\n\
             2.0,0.0,0.0\n"
        );
        assert_eq!(CSV_CASE.ref_opt(), "StartTime, 0.0\nStopTime, 2.0\nStepSize, 0.25\nRelTol, 1e-6\n");
        assert_eq!(CSV_CASE.start_values_csv(), "\"name\",\"value\"\n\"J1\",2.0\n");
    }

    /// Appendix B of the FMI cross-check rules, for every scenario: quoted
    /// header naming exactly the model's inputs, plain C-style numbers, time
    /// first and non-decreasing from 0 to the stop time, at most 1 MB; and
    /// the file reproduces the signal at each of its rows (the last row of a
    /// time is the value from then on).
    #[test]
    fn every_input_csv_follows_the_cross_check_rules() {
        for s in all() {
            let inputs: Vec<_> = crate::models::variables_of(s.model)
                .unwrap()
                .into_iter()
                .filter(|v| v.causality == Causality::Input)
                .collect();
            let Some(csv) = s.input_csv() else {
                assert!(inputs.is_empty(), "{}: no _in.csv for a model with inputs", s.name);
                continue;
            };
            assert!(csv.len() <= MAX_CSV_BYTES, "{}: _in.csv has {} bytes", s.name, csv.len());
            let mut lines = csv.lines();
            let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
            let expected: Vec<String> =
                std::iter::once("time").chain(inputs.iter().map(|v| v.name)).map(|n| format!("\"{n}\"")).collect();
            assert_eq!(header, expected, "{}", s.name);
            let rows: Vec<Vec<f64>> = lines
                .map(|l| {
                    let cells: Vec<f64> = l
                        .split(',')
                        .map(|c| {
                            assert!(!c.contains('"') && !c.trim().is_empty(), "{}: cell {c:?}", s.name);
                            c.parse().unwrap_or_else(|_| panic!("{}: not a number: {c:?}", s.name))
                        })
                        .collect();
                    assert_eq!(cells.len(), header.len(), "{}: row {l}", s.name);
                    cells
                })
                .collect();
            assert_eq!(rows[0][0], 0.0, "{}", s.name);
            assert_eq!(rows.last().unwrap()[0], s.stop_time, "{}", s.name);
            assert!(rows.windows(2).all(|w| w[0][0] <= w[1][0]), "{}: time decreases", s.name);
            assert!(rows.windows(3).all(|w| w[0][0] < w[2][0]), "{}: more than two rows at one time", s.name);
            for (k, row) in rows.iter().enumerate() {
                if rows.get(k + 1).is_some_and(|next| next[0] == row[0]) {
                    continue;
                }
                for &(name, signal) in s.inputs {
                    let j = 1 + inputs.iter().position(|v| v.name == name).unwrap();
                    let want = signal.value(row[0]);
                    assert!((row[j] - want).abs() <= 1e-12 * want.abs(), "{}: {name} at {}", s.name, row[0]);
                }
            }
        }
    }
}
