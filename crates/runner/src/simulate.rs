//! A scenario run in this process: its signals and parameters applied, the
//! model stepped over the scenario's grid, the outputs gathered in a
//! [`Table`].

use fmu::description::Causality;
use fmu::fmi2::in_process::Instance;
use fmu::fmi2::types::Status;
use fmu::scenarios::{Scenario, Signal};

/// Running a [`Scenario`] in this process.
pub trait Simulate {
    /// Run the scenario in this process through the exported fmi2 functions
    /// (the same calls an importer makes), sampling every output at every
    /// communication point; the input columns hold the value applied over
    /// the step that starts at the row's time. Used by `cargo xtask plots`; the tests run the
    /// same scenarios through FMPy and the `fmi` crate.
    fn simulate(&self) -> Result<Table, String>;

    /// As [`Simulate::simulate`], but each step holds the inputs at their
    /// value at the start of the step, as FMPy's master applies an
    /// `_in.csv` (interpolated at the communication point): the reference
    /// a cross-check replay of [`Scenario::input_csv`] must reproduce.
    fn simulate_like_fmpy(&self) -> Result<Table, String>;
}

impl Simulate for Scenario {
    fn simulate(&self) -> Result<Table, String> {
        run(self, Signal::hold_value)
    }

    fn simulate_like_fmpy(&self) -> Result<Table, String> {
        run(self, |s, t, _| s.value(t))
    }
}

fn run(s: &Scenario, hold: fn(&Signal, f64, f64) -> f64) -> Result<Table, String> {
    let index = fmu::registry::MODELS
        .iter()
        .position(|m| m.info.identifier == s.model)
        .ok_or_else(|| format!("scenario {}: no model {}", s.name, s.model))?;
    let variables = (fmu::registry::MODELS[index].variables)();
    let find = |name: &str| {
        variables
            .iter()
            .find(|v| v.name == name)
            .ok_or_else(|| format!("scenario {}: {} has no variable {name}", s.name, s.model))
    };
    let outputs: Vec<_> = variables.iter().filter(|v| v.causality == Causality::Output).collect();
    let check = |status: Status, what: &str| {
        if status == Status::Ok {
            Ok(())
        } else {
            Err(format!("scenario {}: {what} returned {status:?}", s.name))
        }
    };
    let mut c = Instance::new("scenario", fmu::registry::guid(index))
        .ok_or_else(|| format!("scenario {}: fmi2Instantiate failed", s.name))?;
    check(c.setup_experiment(Some(1e-6), 0.0, Some(s.stop_time)), "fmi2SetupExperiment")?;
    for &(name, value) in s.parameters {
        let v = find(name)?;
        let vr = [v.value_reference];
        let status = match v.type_name {
            "Real" => c.set_real(&vr, &[value]),
            "Integer" => c.set_integer(&vr, &[value as i32]),
            _ => c.set_boolean(&vr, &[value as i32]),
        };
        check(status, &format!("setting {name} = {value}"))?;
    }
    let inputs: Vec<u32> =
        s.inputs.iter().map(|(n, _)| find(n).map(|v| v.value_reference)).collect::<Result<_, _>>()?;
    let points = s.points();
    check(c.enter_initialization_mode(), "fmi2EnterInitializationMode")?;
    // The inputs of the first step are set in initialization mode, as FMPy
    // does, so that the outputs at t = 0 follow from them.
    if let [t0, t1, ..] = points[..] {
        let first: Vec<f64> = s.inputs.iter().map(|(_, signal)| hold(signal, t0, t1 - t0)).collect();
        check(c.set_real(&inputs, &first), "setting the inputs in initialization mode")?;
    }
    check(c.exit_initialization_mode(), "fmi2ExitInitializationMode")?;
    let sample = |c: &mut Instance, t: f64| -> Result<Vec<f64>, String> {
        let mut row = vec![t];
        for v in &outputs {
            let vr = [v.value_reference];
            let x = match v.type_name {
                "Real" => {
                    let mut x = [0.0];
                    check(c.get_real(&vr, &mut x), v.name)?;
                    x[0]
                }
                "Integer" => {
                    let mut x = [0];
                    check(c.get_integer(&vr, &mut x), v.name)?;
                    x[0] as f64
                }
                _ => {
                    let mut x = [0];
                    check(c.get_boolean(&vr, &mut x), v.name)?;
                    x[0] as f64
                }
            };
            row.push(x);
        }
        Ok(row)
    };
    // Inputs are recorded with the row of the step they are held over.
    let mut rows = vec![sample(&mut c, 0.0)?];
    for w in points.windows(2) {
        let (t, h) = (w[0], w[1] - w[0]);
        let values: Vec<f64> = s.inputs.iter().map(|(_, signal)| hold(signal, t, h)).collect();
        check(c.set_real(&inputs, &values), "setting the inputs")?;
        rows.last_mut().unwrap().extend(&values);
        check(c.do_step(t, h, true), &format!("fmi2DoStep at t = {t}"))?;
        rows.push(sample(&mut c, w[1])?);
    }
    let last: Vec<f64> = s.inputs.iter().map(|(_, signal)| signal.value(s.stop_time)).collect();
    rows.last_mut().unwrap().extend(last);
    let columns = std::iter::once("time")
        .chain(outputs.iter().map(|v| v.name))
        .chain(s.inputs.iter().map(|(n, _)| *n))
        .map(String::from)
        .collect();
    Ok(Table { columns, rows })
}

/// Outputs of a run, time first (the in-process runner's and the tests' importers' alike).
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<f64>>,
}

impl Table {
    pub fn column(&self, name: &str) -> Vec<f64> {
        let i = self.columns.iter().position(|c| c == name).unwrap_or_else(|| panic!("no column {name}"));
        self.rows.iter().map(|r| r[i]).collect()
    }

    /// Every `every`-th row (and the last), in a fixed-width text form for
    /// snapshots: integer-valued columns (e.g. `mode`) as integers, the rest
    /// in `%+.6e`.
    pub fn snapshot_text(&self, every: usize) -> String {
        let integral: Vec<bool> = (0..self.columns.len())
            .map(|c| self.rows.iter().all(|r| r[c].fract() == 0.0 && r[c].abs() < 1e6))
            .collect();
        let mut out = self.columns.iter().map(|c| format!("{c:>14}")).collect::<Vec<_>>().join(" ") + "\n";
        let last = self.rows.len() - 1;
        for (i, row) in self.rows.iter().enumerate() {
            if i % every != 0 && i != last {
                continue;
            }
            let cells: Vec<String> = row
                .iter()
                .zip(&integral)
                .map(|(&x, &int)| if int { format!("{:>14}", x as i64) } else { format!("{x:>+14.6e}") })
                .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }

    /// Value of `name` in the last row.
    pub fn last(&self, name: &str) -> f64 {
        let i = self.columns.iter().position(|c| c == name).unwrap_or_else(|| panic!("no column {name}"));
        self.rows.last().expect("a row")[i]
    }

    /// Times at which `name` crosses zero upwards (linear interpolation).
    pub fn upward_zero_crossings(&self, name: &str) -> Vec<f64> {
        let (t, x) = (self.column("time"), self.column(name));
        (1..t.len())
            .filter(|&i| x[i - 1] < 0.0 && x[i] >= 0.0)
            .map(|i| t[i - 1] + (t[i] - t[i - 1]) * (-x[i - 1]) / (x[i] - x[i - 1]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_names_real_variables_and_runs() {
        let mut names: Vec<&str> = fmu::scenarios::all().iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), fmu::scenarios::all().len(), "scenario names repeat");
        for s in fmu::scenarios::all() {
            let model = fmu::registry::get(s.model);
            let vars = (model.variables)();
            for (name, _) in s.inputs {
                let v = vars.iter().find(|v| v.name == *name).unwrap_or_else(|| panic!("{}: no input {name}", s.name));
                assert_eq!(v.causality, Causality::Input, "{}: {name} is not an input", s.name);
            }
            for t in s.traces {
                assert!(vars.iter().any(|v| v.name == t.variable), "{}: no variable {}", s.name, t.variable);
            }
            let table = s.simulate().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(table.rows.len(), s.points().len());
            assert!(table.rows.iter().flatten().all(|x| x.is_finite()), "{} gives a non-finite output", s.name);
        }
    }
}
