//! OpenModelica's simulator (OMSimulator, the binary `OMSIMULATOR` names;
//! skipped without it) imports every FMU and runs its default experiment; its results must be
//! FMPy's results for the same interface.
//!
//! Co-Simulation: OMSimulator's weakly coupled system steps the FMU, FMPy's
//! master steps it too, over the default experiment with its shipped
//! `_in.csv`, so the two importers make the same fmi2 calls and the outputs
//! agree to OMSimulator's 12 printed digits. Three differences between the
//! importers are taken out so that the calls are the same: the grid is
//! dyadic (OMSimulator sums `t += h`), the input file's jumps sit on the grid
//! (FMPy shortens a step to land on a jump, OMSimulator's fixed-step master
//! does not), and the Lua script sets the inputs before each step as FMPy
//! does (OMSimulator's CSV table reads a jump at its instant as the value
//! before it, FMPy and the cross-check rules as the value after).

use fmu_tests::oms::{omsimulator, simulate, simulate_system, HeldInputs, LuaSystem, Mode, OmsRun};
use fmu_tests::{fmpy, fmu_path, Table};
use std::path::{Path, PathBuf};

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

/// The default experiment's input file beside the FMU (`<Model>_in.csv`), if any.
fn input_file(model: &str) -> Option<PathBuf> {
    let path = fmu_path(model).with_file_name(format!("{model}_in.csv"));
    path.exists().then_some(path)
}

/// The experiment both importers run: the default one on a dyadic grid.
/// OMSimulator sums `t += h` while FMPy computes `n*h`; with a step that is
/// a power of two both times are exact and equal, so both importers read the
/// input file at the same instants. (With h = 0.01 they do not: at 1.2 s
/// OMSimulator reads the ramp at 1.2000000000000002 s, which passes Hill's
/// 1.2 N.m static level one step earlier than FMPy's exact 1.2.)
fn dyadic(e: fmu::description::Experiment) -> (f64, f64) {
    let step = 2f64.powi(e.step_size.log2().floor() as i32);
    (step, (e.stop_time / step).floor() * step)
}

/// FMPy's `simulate_fmu` on the shipped input file and the experiment `(step, stop)`.
fn fmpy_replay(model: &str, inputs: Option<&Path>, (step, stop): (f64, f64)) -> Table {
    let fmu = fmu_path(model);
    let ref_opt = std::env::temp_dir().join(format!("oms-cmp-{}-{model}_ref.opt", std::process::id()));
    std::fs::write(&ref_opt, format!("StartTime, 0.0\nStopTime, {stop:?}\nStepSize, {step:?}\nRelTol, 1e-6\n"))
        .unwrap();
    let in_arg = inputs.map_or("-".to_string(), |p| p.display().to_string());
    let (ok, stdout, stderr) = fmpy(&["replay", fmu.to_str().unwrap(), &in_arg, ref_opt.to_str().unwrap()]);
    let _ = std::fs::remove_file(&ref_opt);
    assert!(ok, "FMPy replay of {model} failed:\n{stderr}");
    let mut lines = stdout.lines();
    let columns = lines.next().expect("CSV header").split(',').map(str::to_string).collect();
    let rows = lines.map(|l| l.split(',').map(|x| x.parse::<f64>().expect("number")).collect()).collect();
    Table { columns, rows }
}

/// The input file with every jump moved to the nearest point of the grid:
/// FMPy shortens a step to land on an input's jump, OMSimulator's fixed-step
/// master cannot, so both importers are given jumps on the grid.
fn snap_jumps(csv: &str, step: f64) -> String {
    let mut lines: Vec<String> = csv.lines().map(str::to_string).collect();
    let time = |l: &str| l.split(',').next().unwrap().parse::<f64>().unwrap();
    for i in 1..lines.len() - 1 {
        if time(&lines[i]) == time(&lines[i + 1]) {
            let snapped = (time(&lines[i]) / step).round() * step;
            for j in [i, i + 1] {
                let rest = lines[j].split_once(',').unwrap().1.to_string();
                lines[j] = format!("{snapped:?},{rest}");
            }
        }
    }
    let times: Vec<f64> = lines[1..].iter().map(|l| time(l)).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "snapping the jumps to a {step} s grid reorders the rows");
    lines.join("\n") + "\n"
}

/// The value of each input column of an FMI cross-check `_in.csv` at `t`,
/// computed as FMPy 0.3.32's `Input.interpolate(after_event=True)` does,
/// to the bit: the value after the jump where rows share a time, else
/// `w0*v0 + w1*v1` between the neighbouring rows.
fn input_values(csv: &str, t: f64) -> Vec<f64> {
    let rows: Vec<Vec<f64>> =
        csv.lines().skip(1).map(|l| l.split(',').map(|x| x.parse::<f64>().expect("number")).collect()).collect();
    let isclose = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs());
    let columns = 1..rows[0].len();
    let mut i0 = rows.partition_point(|r| r[0] < t); // numpy.searchsorted, left
    if i0 == 0 || i0 == rows.len() {
        let r = &rows[i0.min(rows.len() - 1)];
        return columns.map(|c| r[c]).collect();
    }
    if isclose(t, rows[i0][0]) && i0 < rows.len() - 1 && isclose(rows[i0][0], rows[i0 + 1][0]) {
        while i0 < rows.len() - 1 && isclose(rows[i0][0], rows[i0 + 1][0]) {
            i0 += 1;
        }
        return columns.map(|c| rows[i0][c]).collect();
    }
    let (r0, r1) = (&rows[i0 - 1], &rows[i0]);
    let w0 = (r1[0] - t) / (r1[0] - r0[0]);
    let w1 = 1.0 - w0;
    columns.map(|c| w0 * r0[c] + w1 * r1[c]).collect()
}

/// OMSimulator runs the default experiment: the FMU alone on its command
/// line, or, with an input file, in a weakly coupled system whose Lua script
/// sets the inputs before each step as FMPy does. (OMSimulator's own CSV
/// table component reads a jump at the jump's instant as the value before
/// it, FMPy and the cross-check rules as the value after.)
fn omsimulator_default_run(
    oms: &Path,
    fmu: &Path,
    inputs: Option<&Path>,
    (step, stop): (f64, f64),
) -> Result<Table, String> {
    let fmu = fmu.to_path_buf();
    let Some(inputs) = inputs else {
        let run = OmsRun { file: &fmu, mode: Mode::CoSimulation, stop, step, tolerance: 1e-6 };
        return simulate(oms, &run);
    };
    let csv = std::fs::read_to_string(inputs).map_err(|e| e.to_string())?;
    let names: Vec<String> =
        csv.lines().next().unwrap_or("").split(',').skip(1).map(|c| c.trim_matches('"').to_string()).collect();
    let points: Vec<f64> = (0..=(stop / step).round() as usize).map(|k| k as f64 * step).collect();
    let values: Vec<Vec<f64>> = points[..points.len() - 1].iter().map(|&t| input_values(&csv, t)).collect();
    let system = LuaSystem {
        mode: Mode::CoSimulation,
        components: vec![("fmu", fmu.clone())],
        connections: Vec::new(),
        // The first step's inputs also before initialization, as FMPy sets
        // them, so that both report the outputs at t = 0 alike.
        values: names.iter().enumerate().map(|(i, n)| (format!("fmu.{n}"), values[0][i])).collect(),
        stop,
        step,
        tolerance: 1e-6,
        held_inputs: Some(HeldInputs {
            values: names
                .iter()
                .enumerate()
                .map(|(i, n)| (format!("fmu.{n}"), values.iter().map(|v| v[i]).collect()))
                .collect(),
            points,
        }),
    };
    let mut table = simulate_system(oms, &system)?;
    for c in table.columns.iter_mut() {
        if let Some(name) = c.strip_prefix("fmu.") {
            *c = name.to_string();
        }
    }
    Ok(table)
}

#[test]
fn every_fmu_runs_its_default_experiment_in_omsimulator_as_in_fmpy_cosimulation() {
    let Some(oms) = omsimulator("OMSimulator co-simulation of every FMU") else { return };
    let mut failures = Vec::new();
    for model in fmu::registry::MODELS {
        let id = model.info.identifier;
        let e = model.info.default_experiment;
        assert_eq!(e.start_time, 0.0, "{id}: the comparison assumes a start at 0");
        let (step, stop) = dyadic(e);
        let inputs = input_file(id).map(|path| {
            let snapped = std::env::temp_dir().join(format!("oms-cmp-{}-{id}_in.csv", std::process::id()));
            std::fs::write(&snapped, snap_jumps(&std::fs::read_to_string(path).unwrap(), step)).unwrap();
            snapped
        });
        let oms_table = match omsimulator_default_run(&oms, &fmu_path(id), inputs.as_deref(), (step, stop)) {
            Ok(t) => t,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let fmpy_table = fmpy_replay(id, inputs.as_deref(), (step, stop));
        if let Some(path) = &inputs {
            let _ = std::fs::remove_file(path);
        }
        let shared: Vec<&String> =
            fmpy_table.columns.iter().filter(|c| *c != "time" && oms_table.columns.contains(c)).collect();
        let (column, t, d) =
            worst_difference(&without_event_instants(&fmpy_table), &without_event_instants(&oms_table));
        let times = oms_table.column("time");
        println!(
            "{id:<30} cs, h = 2^{}{}: {} rows to t = {}, {} outputs compared, worst {column} at t = {t}: {d:.1e}",
            step.log2(),
            if inputs.is_some() { " with _in.csv" } else { "" },
            oms_table.rows.len(),
            times.last().unwrap(),
            shared.len()
        );
        // Every output FMPy records is in OMSimulator's result too.
        if shared.len() + 1 != fmpy_table.columns.len() {
            failures.push(format!(
                "{id}: OMSimulator's result lacks outputs: FMPy {:?}, OMSimulator {:?}",
                fmpy_table.columns, oms_table.columns
            ));
        }
        if (times.last().unwrap() - stop).abs() > 1e-9 * stop {
            failures.push(format!("{id}: OMSimulator stopped at {} s", times.last().unwrap()));
        }
        if d > 1e-9 {
            failures.push(format!("{id}: {column} differs by {d:e} (relative) at t = {t}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// FMI 3.0 Co-Simulation in OMSimulator (a weakly coupled system, as for
/// FMI 2.0; its strongly coupled one takes no FMI 3.0): every FMU's FMI 3.0
/// twin runs its default experiment, inputs from `_in.csv`, with no error
/// or warning, and gives the FMI 2.0 FMU's result bit for bit (one binary,
/// one core): every column of FMI 2.0's result, at every row.
#[test]
fn every_fmi3_fmu_runs_in_omsimulator_as_its_fmi2_twin() {
    let Some(oms) = omsimulator("OMSimulator co-simulation of the FMI 3.0 FMUs") else { return };
    let mut failures = Vec::new();
    for model in fmu::registry::MODELS {
        let id = model.info.identifier;
        let (step, stop) = dyadic(model.info.default_experiment);
        let inputs = input_file(id).map(|path| {
            let snapped = std::env::temp_dir().join(format!("oms-fmi3-{}-{id}_in.csv", std::process::id()));
            std::fs::write(&snapped, snap_jumps(&std::fs::read_to_string(path).unwrap(), step)).unwrap();
            snapped
        });
        let runs = [fmu_path(id), fmu_tests::fmu3_path(id)]
            .map(|fmu| omsimulator_default_run(&oms, &fmu, inputs.as_deref(), (step, stop)));
        if let Some(path) = &inputs {
            let _ = std::fs::remove_file(path);
        }
        let [Ok(two), Ok(three)] = runs else {
            failures.push(format!("{id}: {:?}", runs.iter().filter_map(|r| r.as_ref().err()).collect::<Vec<_>>()));
            continue;
        };
        let mut differs = Vec::new();
        for column in two.columns.iter() {
            match three.columns.iter().position(|c| c == column) {
                None => differs.push(format!("{column} missing")),
                Some(k) => {
                    let i = two.columns.iter().position(|c| c == column).unwrap();
                    let same = two.rows.len() == three.rows.len()
                        && two.rows.iter().zip(&three.rows).all(|(a, b)| a[i].to_bits() == b[k].to_bits());
                    if !same {
                        differs.push(column.clone());
                    }
                }
            }
        }
        println!(
            "{id:<30} FMI 3.0 cs, h = 2^{}: {} rows, {} columns of FMI 2.0's result compared: {}",
            step.log2(),
            three.rows.len(),
            two.columns.len(),
            if differs.is_empty() { "identical" } else { "DIFFER" }
        );
        if !differs.is_empty() {
            failures.push(format!("{id}: FMI 3.0 differs from FMI 2.0 in {differs:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Model Exchange: OMSimulator's strongly coupled system (CVODE) and FMPy's
/// CVode run every FMU's default experiment through Model Exchange, both
/// at relative tolerance 1e-8 with outputs every default step, and agree.
/// An FMU whose `_in.csv` varies gets it in OMSimulator as a table
/// component (the CSV as a submodel, linear between its rows, each column
/// connected to the input of its name) and in FMPy as `input=`. The two
/// importers feed a varying input differently (FMPy sets it where CVode
/// calls its root function: a staircase; OMSimulator where CVODE returns),
/// so the event instants of those runs differ by up to an output step:
/// they are compared at rtol 1e-6 (FMPy's CVode stalls on DahlElement's
/// staircase at 1e-8), on their continuous states (a friction torque jumps
/// or is steep where a state crosses a threshold a little earlier in one
/// importer), away from events (rows within two output steps of one left
/// out), to 2e-2 of a column's scale (a model without states: its
/// outputs); the constant ones everywhere, every output, to 1e-5.
///
/// CoupledClutches' mode changes are also checked against the Modelica
/// Standard Library's reference (as in model_exchange.py) within three
/// output steps (3 ms; OMSimulator holds a table input over each CVODE
/// step, so a capacity that falls with its input is seen to pass the torque
/// at a step's end, and a late unlock moves the next lock: worst 2.3 ms):
/// OMSimulator's strongly coupled system ignores the enterEventMode of
/// fmi2CompletedIntegratorStep, so a clutch engaged by an input step is
/// seen only through its event indicator, which must not start at exactly
/// 0 (it did: clutch 1 first locked at 0.557 s instead of 0.792 s).
#[test]
fn model_exchange_fmus_run_in_omsimulator_as_in_fmpy() {
    let Some(oms) = omsimulator("OMSimulator Model Exchange of the FMUs") else { return };
    let mut compared = Vec::new();
    let mut failures = Vec::new();
    for model in fmu::registry::MODELS {
        let id = model.info.identifier;
        if (model.new_instance)().hybrid_sizes().is_none() {
            println!("{id}: Co-Simulation only, not run in Model Exchange");
            continue;
        }
        let inputs = input_file(id);
        let constant = inputs.as_ref().is_none_or(|p| {
            let csv = std::fs::read_to_string(p).unwrap();
            let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').skip(1).collect()).collect();
            rows.windows(2).all(|w| w[0] == w[1])
        });
        let e = model.info.default_experiment;
        let (step, stop) = (e.step_size, e.stop_time);
        let tolerance = if constant { 1e-8 } else { 1e-6 };
        let oms_table = if constant {
            let run = OmsRun { file: &fmu_path(id), mode: Mode::ModelExchange, stop, step, tolerance };
            simulate(&oms, &run)
        } else {
            let csv = inputs.clone().unwrap();
            let header = std::fs::read_to_string(&csv).unwrap().lines().next().unwrap().to_string();
            let names: Vec<String> =
                header.split(',').skip(1).map(|c| c.trim().trim_matches('"').to_string()).collect();
            let connections: Vec<(String, String)> =
                names.iter().map(|n| (format!("input.{n}"), format!("fmu.{n}"))).collect();
            let system = fmu_tests::oms::LuaSystem {
                mode: Mode::ModelExchange,
                components: vec![("fmu", fmu_path(id)), ("input", csv)],
                connections: connections.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect(),
                values: vec![],
                stop,
                step,
                tolerance,
                held_inputs: None,
            };
            fmu_tests::oms::simulate_system(&oms, &system).map(|mut t| {
                let keep: Vec<usize> = (0..t.columns.len()).filter(|&i| !t.columns[i].starts_with("input.")).collect();
                t.rows = t.rows.iter().map(|r| keep.iter().map(|&i| r[i]).collect()).collect();
                t.columns = keep.iter().map(|&i| t.columns[i].trim_start_matches("fmu.").to_string()).collect();
                t
            })
        };
        let oms_table = match oms_table {
            Ok(t) => t,
            Err(why) => {
                failures.push(format!("{id}: OMSimulator --mode=me failed: {why}"));
                continue;
            }
        };
        let fmu = fmu_path(id);
        let mut args = vec!["me".to_string(), fmu.display().to_string(), format!("{stop:?}"), format!("{step:?}")];
        args.push(format!("{tolerance:e}"));
        if !constant {
            args.push(inputs.unwrap().display().to_string());
        }
        let (ok, stdout, stderr) = fmpy(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(ok, "FMPy Model Exchange of {id} failed:\n{stderr}");
        let mut lines = stdout.lines();
        let columns = lines.next().expect("CSV header").split(',').map(str::to_string).collect();
        let rows = lines.map(|l| l.split(',').map(|x| x.parse::<f64>().expect("number")).collect()).collect();
        let fmpy_table = Table { columns, rows };
        let (column, t, d) = if constant {
            worst_difference(&without_event_instants(&fmpy_table), &without_event_instants(&oms_table))
        } else {
            // FMPy's event instants (OMSimulator's table writes some
            // points twice without an event).
            let events = event_instants(&fmpy_table);
            // The continuous states (OMSimulator writes their der() columns).
            let states: Vec<String> = oms_table
                .columns
                .iter()
                .filter_map(|c| c.strip_prefix("der(").and_then(|c| c.strip_suffix(')')).map(str::to_string))
                .collect();
            let away = |t: &Table| {
                let mut t = without_event_instants(t);
                let time = t.column("time");
                t.rows = (0..time.len())
                    .filter(|&i| events.iter().all(|e| (time[i] - e).abs() > 2.0 * step))
                    .map(|i| t.rows[i].clone())
                    .collect();
                let keep: Vec<usize> =
                    (0..t.columns.len()).filter(|&i| i == 0 || states.contains(&t.columns[i])).collect();
                t.rows = t.rows.iter().map(|r| keep.iter().map(|&i| r[i]).collect()).collect();
                t.columns = keep.iter().map(|&i| t.columns[i].clone()).collect();
                t
            };
            worst_difference(&away(&fmpy_table), &away(&oms_table))
        };
        let inputs = if constant { "constant inputs" } else { "inputs from its _in.csv" };
        println!(
            "{id}: Model Exchange ({inputs}), OMSimulator vs FMPy: worst {column} at t = {t} s, {d:.2e} of its scale"
        );
        compared.push(id);
        // Two CVODE runs at 1e-8 agree to ~1e-6 of a column's scale.
        let limit = if constant { 1e-5 } else { 2e-2 };
        // The instants of the model's independent reference (its
        // `Behaviour::reference_changes`, e.g. the Modelica library's for
        // CoupledClutches); OMSimulator's table steps are seen up to one
        // output step late.
        let time = oms_table.column("time");
        for (output, expected) in fmu::registry::get(id).info.behaviour.reference_changes {
            let m = oms_table.column(output);
            let changes: Vec<f64> = (1..m.len()).filter(|&i| m[i] != m[i - 1]).map(|i| time[i]).collect();
            println!("  {output}: changes at {changes:?} (reference {expected:?})");
            let worst = changes.iter().zip(expected.iter()).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
            if changes.len() != expected.len() || worst > 3.0 * step {
                failures.push(format!("{id} {output}: changes {changes:?}, reference {expected:?}"));
            }
        }
        if d > limit {
            failures.push(format!("{id}: {column} at t = {t} s differs by {d:.3e} of its scale (limit {limit:e})"));
        }
    }
    println!("compared in Model Exchange: {compared:?}");
    let with_me = fmu::registry::MODELS.iter().filter(|m| (m.new_instance)().hybrid_sizes().is_some()).count();
    assert!(with_me >= 22, "only {with_me} models with Model Exchange");
    assert_eq!(compared.len(), with_me, "not every FMU compared: {compared:?}\n{failures:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The instants an importer wrote more than once (its events).
fn event_instants(table: &Table) -> Vec<f64> {
    let t = table.column("time");
    t.windows(2).filter(|w| (w[1] - w[0]).abs() <= 1e-9 * w[0].abs().max(1.0)).map(|w| w[0]).collect()
}

/// The table without the rows at an event's instant: an importer writes
/// such an instant twice or more (before and after the event) and which
/// row another importer's single row there matches is the importer's
/// choice, not the FMU's. Rows at an instant the importer wrote once stay.
fn without_event_instants(table: &Table) -> Table {
    let t = table.column("time");
    let same = |i: usize, j: usize| (t[i] - t[j]).abs() <= 1e-9 * t[i].abs().max(1.0);
    let rows = (0..t.len())
        .filter(|&i| !(i > 0 && same(i, i - 1)) && !(i + 1 < t.len() && same(i, i + 1)))
        .map(|i| table.rows[i].clone())
        .collect();
    Table { columns: table.columns.clone(), rows }
}
