//! Each FMU's FMI cross-check set (fmi-cross-check rules for 2.0 CS):
//! `<Model>_in.csv`, `<Model>_ref.opt`, `<Model>_ref.csv` and `ReadMe.md`,
//! derived from the model's declarations: the run is its DefaultExperiment
//! with start values only, which `python -m fmpy.cross_check` replays
//! (FMPy sets no parameters there, only the `_in.csv` inputs).
//!
//! The inputs are the start values, except those the model's
//! `ModelInfo::default_inputs` drive (the friction elements' sine on
//! `w_rel`, the 1-DOF bodies' torque profile): the `_in.csv` carries them.
//! A model has no hidden signal, so a run without the `_in.csv` is the
//! same run with every input at its start value. The reference is
//! the in-process run with the inputs held at the communication points as
//! FMPy applies a CSV; tests check it against closed forms and paper numbers.

use crate::simulate::Simulate;
use fmu::description::{Causality, Experiment};
use fmu::registry::{Entry, MODELS};
use fmu::scenarios::{Scenario, Signal};
use std::sync::OnceLock;

/// Most rows a cross-check CSV may have (the rules' 1000 samples).
pub const MAX_ROWS: usize = 1000;

/// The communication step FMPy takes for `e`: the DefaultExperiment step,
/// doubled while the run would have more than 1000 intervals
/// (`fmpy.simulate_fmu`'s rule for `output_interval`).
pub fn fmpy_interval(e: &Experiment) -> f64 {
    let mut h = e.step_size;
    while (e.stop_time - e.start_time) / h > 1000.0 {
        h *= 2.0;
    }
    h
}

/// The default run of every model as a scenario on FMPy's grid, in
/// `MODELS` order.
pub fn default_runs() -> &'static [Scenario] {
    static RUNS: OnceLock<Vec<Scenario>> = OnceLock::new();
    RUNS.get_or_init(|| MODELS.iter().map(default_run).collect())
}

/// The default run of `identifier`.
pub fn default_run_of(identifier: &str) -> &'static Scenario {
    let index = MODELS.iter().position(|m| m.info.identifier == identifier).expect("a model");
    &default_runs()[index]
}

fn default_run(m: &'static Entry) -> Scenario {
    let variables = (m.variables)();
    let inputs: Vec<(&'static str, Signal)> = variables
        .iter()
        .filter(|v| v.causality == Causality::Input)
        .map(|v| {
            let declared = m.info.default_inputs.iter().find(|(name, _)| *name == v.name);
            (v.name, declared.map_or(Signal::Constant(v.start), |&(_, s)| s))
        })
        .collect();
    let e = m.info.default_experiment;
    Scenario {
        name: m.info.identifier,
        model: m.info.identifier,
        figure: m.info.identifier,
        title: "DefaultExperiment, start values only",
        parameters: &[],
        // One small list per model, built once for the process.
        inputs: Box::leak(inputs.into_boxed_slice()),
        stop_time: e.stop_time,
        step_size: fmpy_interval(&e),
        traces: &[],
    }
}

/// `<Model>_ref.opt`: the DefaultExperiment itself (so the two agree).
pub fn ref_opt(identifier: &str) -> String {
    let e = fmu::registry::get(identifier).info.default_experiment;
    format!(
        "StartTime, {:?}\nStopTime, {:?}\nStepSize, {:?}\nRelTol, {:?}\n",
        e.start_time, e.stop_time, e.step_size, e.tolerance
    )
}

/// `<Model>_ref.csv`: every output at the communication points, at most
/// [`MAX_ROWS`] rows (every k-th point and the last); Integer and Boolean
/// outputs as whole numbers.
pub fn ref_csv(identifier: &str) -> Result<String, String> {
    let run = default_run_of(identifier);
    let table = run.simulate_like_fmpy()?;
    let outputs: Vec<_> =
        (fmu::registry::get(identifier).variables)().into_iter().filter(|v| v.causality == Causality::Output).collect();
    let stride = table.rows.len().div_ceil(MAX_ROWS);
    let mut out = String::from("\"time\"");
    for v in &outputs {
        out.push_str(&format!(",\"{}\"", v.name));
    }
    out.push('\n');
    let last = table.rows.len() - 1;
    for (i, row) in table.rows.iter().enumerate() {
        if i % stride != 0 && i != last {
            continue;
        }
        out.push_str(&format!("{:?}", row[0]));
        for (v, x) in outputs.iter().zip(&row[1..]) {
            if v.type_name == "Real" {
                out.push_str(&format!(",{x:?}"));
            } else {
                out.push_str(&format!(",{}", *x as i64));
            }
        }
        out.push('\n');
    }
    Ok(out)
}

/// `ReadMe.md` of the cross-check folder.
pub fn readme(identifier: &str) -> String {
    let m = fmu::registry::get(identifier);
    let e = m.info.default_experiment;
    let run = default_run_of(identifier);
    let inputs: Vec<String> = run
        .inputs
        .iter()
        .map(|(name, s)| match s {
            Signal::Sine { amplitude, frequency, .. } => format!("`{name}` = {amplitude:?}*sin(2*pi*{frequency:?}*t)"),
            Signal::Points(points) => format!(
                "`{name}` piecewise linear through (t, value) = {}",
                points.iter().map(|(t, x)| format!("({t:?}, {x:?})")).collect::<Vec<_>>().join(", ")
            ),
            Signal::Constant(x) => format!("`{name}` = {x:?} (its start value)"),
        })
        .collect();
    format!(
        "# {id}\n\n{description}\n\n\
         Cross-check run: the DefaultExperiment ({start:?} s to {stop:?} s, step {step:?} s) with every parameter at \
         its start value. Inputs (`{id}_in.csv`): {inputs}. `{id}_ref.csv` holds every output at the communication \
         points ({interval:?} s apart, as FMPy runs it; at most {max} rows), computed by `cargo xtask fmu` through the \
         exported fmi2 functions with the inputs held over each step at their value at its start, and checked in the \
         project's tests against closed forms and the papers' numbers.\n\n\
         Replay: `python -m fmpy.cross_check --fmus_dir <this tree> --simulate`, or\n\
         `python -c \"import fmpy, fmpy.util as u; print(fmpy.simulate_fmu('{id}.fmu'{input}))\"`.\n\n\
         Tool: {tool}. Documentation: `documentation/index.html` inside the FMU.\n",
        id = identifier,
        description = m.info.description,
        start = e.start_time,
        stop = e.stop_time,
        step = e.step_size,
        inputs = if inputs.is_empty() { "none".to_string() } else { inputs.join("; ") },
        interval = run.step_size,
        max = MAX_ROWS,
        input =
            if run.inputs.is_empty() { String::new() } else { format!(", input=u.read_csv('{identifier}_in.csv')") },
        tool = fmu::xml::GENERATION_TOOL,
    )
}

/// Every file of the set as (file name, contents).
pub fn files(identifier: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    if let Some(csv) = default_run_of(identifier).input_csv() {
        out.push((format!("{identifier}_in.csv"), csv));
    }
    out.push((format!("{identifier}_ref.opt"), ref_opt(identifier)));
    out.push((format!("{identifier}_ref.csv"), ref_csv(identifier)?));
    out.push(("ReadMe.md".to_string(), readme(identifier)));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fmpy_interval_keeps_at_most_1000_intervals() {
        let e = |stop, step| Experiment::new(0.0, stop, step);
        assert_eq!(fmpy_interval(&e(1.0, 1e-3)), 1e-3);
        assert_eq!(fmpy_interval(&e(1.5, 1e-3)), 2e-3);
        assert_eq!(fmpy_interval(&e(20.0, 0.01)), 0.02);
        assert_eq!(fmpy_interval(&e(20.01, 0.01)), 0.04);
    }

    /// Every default experiment's stop time lands on its grid: a whole
    /// number of DefaultExperiment steps, and of FMPy's output interval (no
    /// shortened last step).
    #[test]
    fn every_stop_time_lands_on_the_grid() {
        for m in MODELS {
            let e = m.info.default_experiment;
            for h in [e.step_size, fmpy_interval(&e)] {
                let n = (e.stop_time - e.start_time) / h;
                assert!((n - n.round()).abs() < 1e-9, "{}: {} s is {n} steps of {h} s", m.info.identifier, e.stop_time);
            }
        }
    }

    /// Every declared default input names an input of its model (a typo
    /// would silently leave the input at its start value).
    #[test]
    fn every_default_input_is_an_input_of_its_model() {
        for m in MODELS {
            let inputs: Vec<_> =
                (m.variables)().into_iter().filter(|v| v.causality == Causality::Input).map(|v| v.name).collect();
            for (name, _) in m.info.default_inputs {
                assert!(inputs.contains(name), "{}: default input {name} is not an input", m.info.identifier);
            }
        }
    }

    /// FMPy's grid for every default run has fewer than 1000 intervals, so
    /// the reference holds every communication point (no decimation that
    /// could cut a first-step peak) within the rules' 1000 rows.
    #[test]
    fn every_default_run_fits_1000_rows_undecimated() {
        for m in MODELS {
            let e = m.info.default_experiment;
            let intervals = ((e.stop_time - e.start_time) / fmpy_interval(&e)).round() as usize;
            assert!(intervals < MAX_ROWS, "{}: {intervals} intervals", m.info.identifier);
        }
    }

    /// The rules' limits on every set: at most 1000 rows, the header with
    /// every output, times from the start to the stop time.
    #[test]
    fn every_reference_has_every_output_and_at_most_1000_rows() {
        for m in MODELS {
            let id = m.info.identifier;
            let csv = ref_csv(id).unwrap();
            let rows: Vec<&str> = csv.lines().collect();
            assert!(rows.len() - 1 <= MAX_ROWS, "{id}: {} rows", rows.len() - 1);
            let outputs = (m.variables)().into_iter().filter(|v| v.causality == Causality::Output).count();
            assert_eq!(rows[0].split(',').count(), outputs + 1, "{id}");
            assert!(rows[1].starts_with("0.0,"), "{id}");
            let last: f64 = rows.last().unwrap().split(',').next().unwrap().parse().unwrap();
            assert_eq!(last, m.info.default_experiment.stop_time, "{id}");
        }
    }
}

#[cfg(test)]
mod flat {
    use super::*;

    /// No default experiment is flat: in every model's default run (start
    /// values and the `_in.csv` inputs) the main output (the first) moves.
    #[test]
    fn no_default_experiment_is_flat() {
        for m in MODELS {
            let id = m.info.identifier;
            let table = default_run_of(id).simulate().unwrap();
            for (c, name) in table.columns.iter().enumerate().skip(1) {
                let x: Vec<f64> = table.rows.iter().map(|r| r[c]).collect();
                let (lo, hi) = x.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
                eprintln!("{id}.{name}: {lo:e} .. {hi:e}");
            }
            let x = table.column(&table.columns[1]);
            assert!(x.iter().any(|&v| v != x[0]), "{id}: {} is flat", table.columns[1]);
        }
    }
}
