//! OpenModelica's simulator (OMSimulator) as an importer in the tests.
//!
//! The binary is the one the environment variable `OMSIMULATOR` names
//! (nothing in this repository builds or fetches it); `cargo xtask test`
//! passes it on. Without it `OMSIMULATOR_SKIPPED` says why, and the tests
//! that need it print `skipped: ...` and return.

use crate::Table;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The OMSimulator binary, or `None` after printing why the caller skips.
pub fn omsimulator(test: &str) -> Option<PathBuf> {
    match std::env::var_os("OMSIMULATOR").map(PathBuf::from) {
        Some(path) if path.exists() => Some(path),
        Some(path) => {
            println!("skipped: {test}: OMSIMULATOR={} does not exist", path.display());
            None
        }
        None => {
            let why = std::env::var("OMSIMULATOR_SKIPPED")
                .unwrap_or_else(|_| "OMSIMULATOR is not set: point it to an OMSimulator binary".into());
            println!("skipped: {test}: OMSimulator not available ({why})");
            None
        }
    }
}

/// Interface OMSimulator imports an FMU as (`--mode`). It applies to a
/// single FMU on the command line and to a Lua script's system kind; an
/// `.ssp` keeps the system kind of its SSD whatever `--mode` says (the
/// shipped SSPs' `--mode=cs` and `--mode=me` results are identical).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Co-Simulation in a weakly coupled system: fixed communication step.
    CoSimulation,
    /// Model Exchange in a strongly coupled system: CVODE with the FMU's events.
    ModelExchange,
}

/// One FMU (or SSP file, or Lua script) run by the OMSimulator command line.
pub struct OmsRun<'a> {
    pub file: &'a Path,
    pub mode: Mode,
    pub stop: f64,
    /// Communication step (CS) or maximum step (ME), in s.
    pub step: f64,
    /// Relative tolerance of CVODE (ME).
    pub tolerance: f64,
}

/// Run OMSimulator on `run.file` in a fresh temporary folder and read its
/// result file. Columns are named as the FMU's variables (the root system's
/// prefix stripped), time first.
pub fn simulate(oms: &Path, run: &OmsRun) -> Result<Table, String> {
    let dir = tempdir(run.file);
    let result = dir.join("result.csv");
    let mode = match run.mode {
        Mode::CoSimulation => "cs",
        Mode::ModelExchange => "me",
    };
    // One result row per communication point of the CS step: intervals = stop/step.
    let intervals = (run.stop / run.step).round().max(2.0) as u64;
    let out = Command::new(oms)
        .current_dir(&dir)
        .arg(run.file)
        .arg(format!("--mode={mode}"))
        .arg(format!("--stopTime={}", run.stop))
        .arg(format!("--stepSize={}", run.step))
        .arg(format!("--intervals={intervals}"))
        .arg(format!("--tolerance={}", run.tolerance))
        .arg(format!("--resultFile={}", result.display()))
        .arg("--stripRoot=true")
        .arg("--suppressPath=true")
        .arg(format!("--tempDir={}", dir.display()))
        .output()
        .map_err(|e| format!("cannot run {}: {e}", oms.display()))?;
    let log = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if !out.status.success() || log.contains("error:") {
        return Err(format!("OMSimulator on {} ({mode}) failed ({}):\n{log}", run.file.display(), out.status));
    }
    let table = read_csv(&result).map_err(|e| format!("{e}\nOMSimulator said:\n{log}"));
    let _ = std::fs::remove_dir_all(&dir);
    table
}

/// OMSimulator's CSV: a header `time,<system>.<fmu>.<variable>,...`, then
/// rows; names are reduced to the variable name after the last `.`.
pub fn read_csv(path: &Path) -> Result<Table, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines();
    let header = lines.next().ok_or_else(|| format!("{}: empty", path.display()))?;
    let columns: Vec<String> =
        header.split(',').map(|c| c.trim().rsplit('.').next().unwrap_or(c).trim_matches('"').to_string()).collect();
    let mut rows = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        let row: Result<Vec<f64>, _> = line.split(',').map(|x| x.trim().parse::<f64>()).collect();
        rows.push(row.map_err(|e| format!("{}: {e} in `{line}`", path.display()))?);
    }
    Ok(Table { columns, rows })
}

fn tempdir(file: &Path) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("run");
    let dir = std::env::temp_dir().join(format!("oms-{}-{stem}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary folder");
    dir
}

/// A system of FMUs built by an OMSimulator Lua script: a weakly coupled
/// system (`oms_system_wc`: Co-Simulation FMUs stepped by OMSimulator's
/// fixed-step master) or a strongly coupled one (`oms_system_sc`: Model
/// Exchange FMUs integrated together by CVODE, stopping at their events).
pub struct LuaSystem<'a> {
    pub mode: Mode,
    /// `(name, FMU)`; variables are then named `name.variable`.
    pub components: Vec<(&'a str, PathBuf)>,
    /// `("drive.tau_shaft", "load.tau")`: output to input.
    pub connections: Vec<(&'a str, &'a str)>,
    /// `("drive.k_shaft", 10.0)`: parameters and input start values, set after instantiation.
    pub values: Vec<(String, f64)>,
    pub stop: f64,
    /// Communication step (wc) or maximum step of CVODE (sc), s.
    pub step: f64,
    /// CVODE's relative tolerance (its absolute tolerance is this times each state's nominal).
    pub tolerance: f64,
    /// Inputs the script sets before each step and holds over it, like
    /// FMPy's master; `None`: the system runs by `oms_simulate`.
    pub held_inputs: Option<HeldInputs>,
}

/// A master loop in the Lua script: before the step from `points[k]` to
/// `points[k + 1]` each named input gets its `k`-th value.
pub struct HeldInputs {
    /// Communication points from the start time to the stop time.
    pub points: Vec<f64>,
    /// `("fmu.tau", values)`, one value per step.
    pub values: Vec<(String, Vec<f64>)>,
}

/// Run `system` through an OMSimulator Lua script; its result file has a
/// row per communication point (wc) or per output interval and event (sc),
/// columns named `component.variable`.
pub fn simulate_system(oms: &Path, system: &LuaSystem) -> Result<Table, String> {
    let dir = tempdir(Path::new("system"));
    let result = dir.join("result.csv");
    let root = "model.root";
    let kind = match system.mode {
        Mode::CoSimulation => "oms_system_wc",
        Mode::ModelExchange => "oms_system_sc",
    };
    let mut lua = format!(
        "oms_setCommandLineOption(\"--suppressPath=true\")\noms_setTempDirectory(\"{dir}\")\n\
         oms_newModel(\"model\")\noms_addSystem(\"{root}\", {kind})\n",
        dir = dir.display()
    );
    for (name, fmu) in &system.components {
        lua += &format!("oms_addSubModel(\"{root}.{name}\", \"{}\")\n", fmu.display());
    }
    for (from, to) in &system.connections {
        lua += &format!("oms_addConnection(\"{root}.{from}\", \"{root}.{to}\")\n");
    }
    lua += &format!("oms_setResultFile(\"model\", \"{}\", 1)\n", result.display());
    lua += &format!("oms_setStopTime(\"model\", {:?})\n", system.stop);
    lua += &format!("oms_setTolerance(\"{root}\", {:?})\n", system.tolerance);
    lua += &match system.mode {
        Mode::CoSimulation => format!("oms_setFixedStepSize(\"{root}\", {:?})\n", system.step),
        Mode::ModelExchange => format!("oms_setVariableStepSize(\"{root}\", 1e-6, 1e-12, {:?})\n", system.step),
    };
    lua += &format!("oms_setLoggingInterval(\"model\", {:?})\n", system.step);
    lua += "oms_instantiate(\"model\")\n";
    for (name, value) in &system.values {
        lua += &format!("oms_setReal(\"{root}.{name}\", {value:?})\n");
    }
    lua += "oms_initialize(\"model\")\n";
    match &system.held_inputs {
        None => lua += "oms_simulate(\"model\")\n",
        Some(held) => {
            let list = |values: &[f64]| values.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(",");
            lua += &format!("t = {{{}}}\n", list(&held.points[1..]));
            for (i, (_, values)) in held.values.iter().enumerate() {
                lua += &format!("u{i} = {{{}}}\n", list(values));
            }
            lua += &format!("for k = 1, {} do\n", held.points.len() - 1);
            for (i, (name, _)) in held.values.iter().enumerate() {
                lua += &format!("  oms_setReal(\"{root}.{name}\", u{i}[k])\n");
            }
            lua += "  oms_stepUntil(\"model\", t[k])\nend\n";
        }
    }
    lua += "oms_terminate(\"model\")\noms_delete(\"model\")\n";
    let script = dir.join("system.lua");
    std::fs::write(&script, &lua).map_err(|e| format!("{}: {e}", script.display()))?;
    let out = Command::new(oms)
        .current_dir(&dir)
        .arg(&script)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", oms.display()))?;
    let log = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if !out.status.success() || log.contains("error:") {
        return Err(format!("OMSimulator on\n{lua}\nfailed ({}):\n{log}", out.status));
    }
    let mut table = read_csv_full_names(&result).map_err(|e| format!("{e}\nOMSimulator said:\n{log}"))?;
    for c in table.columns.iter_mut() {
        if let Some(rest) = c.strip_prefix(&format!("{root}.")) {
            *c = rest.to_string();
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(table)
}

/// OMSimulator's CSV with the full variable names.
fn read_csv_full_names(path: &Path) -> Result<Table, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let header = text.lines().next().ok_or_else(|| format!("{}: empty", path.display()))?;
    let columns = header.split(',').map(|c| c.trim().trim_matches('"').to_string()).collect();
    let mut table = read_csv(path)?;
    table.columns = columns;
    Ok(table)
}

/// Where the shaft-and-load system of the coupling studies is cut.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cut {
    /// CompliantDrive holds the shaft and sends its torque to the law's inertia FMU.
    Torque,
    /// MotorDrive sends its motion to the law's shaft port, which holds the shaft.
    Shaft,
}

/// A friction law's FMUs on either side of the cut.
#[derive(Clone, Copy, Debug)]
pub struct LawFmus<'a> {
    /// The inertia FMU (torque cut) and the input the shaft torque goes to.
    pub inertia: &'a str,
    pub torque_input: &'static str,
    /// The shaft port (shaft cut).
    pub port: &'a str,
    /// The inertia integrates exactly at any step: under Co-Simulation it
    /// takes the communication step as its internal step.
    pub exact: bool,
}

/// Hill's static + Coulomb law: `HillFrictionInertia` and `HillFrictionShaftLoad`.
pub const HILL: LawFmus<'static> =
    LawFmus { inertia: "HillFrictionInertia", torque_input: "load.tau", port: "HillFrictionShaftLoad", exact: true };

/// The systems of the coupling studies, `name -> parameters`, from
/// `tests/python/shaft_coupling.py --systems` (one source for every importer).
pub fn shaft_systems() -> std::collections::BTreeMap<String, std::collections::BTreeMap<String, f64>> {
    let script = crate::workspace_root().join("tests/python/shaft_coupling.py");
    let (ok, out, err) = crate::run_python(&script, &["--systems"]);
    assert!(ok, "{out}\n{err}");
    out.lines()
        .map(|l| {
            let mut words = l.split_whitespace();
            let name = words.next().unwrap().to_string();
            (name, words.filter_map(|w| w.split_once('=')).map(|(k, v)| (k.into(), v.parse().unwrap())).collect())
        })
        .collect()
}

/// One shaft-and-load system (`p`, see [`shaft_systems`]) in OMSimulator,
/// the load under `law` with its parameters `law_values` (named without
/// prefix; J and w_start come from `p`), cut at the torque or at the shaft:
/// weakly coupled (Co-Simulation at the communication step `step`; the
/// torque cut's CompliantDrive, and an exact inertia, take it as internal
/// step) or strongly coupled (Model Exchange, CVODE at relative tolerance
/// 1e-11 and maximum step `step`). Components `drive` and `load`.
pub fn shaft_system(
    cut: Cut,
    mode: Mode,
    law: &LawFmus<'_>,
    law_values: &[(String, f64)],
    p: &std::collections::BTreeMap<String, f64>,
    stop: f64,
    step: f64,
) -> LuaSystem<'static> {
    let mut values: Vec<(String, f64)> = law_values.iter().map(|(k, v)| (format!("load.{k}"), *v)).collect();
    values.extend([
        ("load.J".to_string(), p["J"]),
        ("load.w_start".into(), 0.0),
        ("drive.J_motor".into(), p["J_motor"]),
        ("drive.speed_gain".into(), p["speed_gain"]),
        ("drive.tau_motor".into(), p["tau_motor"]),
        ("drive.w_command".into(), p["w_command"]),
    ]);
    let (components, connections) = match cut {
        Cut::Torque => {
            values.extend([("drive.k_shaft".to_string(), p["k_shaft"]), ("drive.d_shaft".into(), p["d_shaft"])]);
            if mode == Mode::CoSimulation {
                values.push(("drive.internal_step".to_string(), step));
                if law.exact {
                    values.push(("load.internal_step".to_string(), step));
                }
            }
            (
                vec![("drive", crate::fmu_path("CompliantDrive")), ("load", crate::fmu_path(law.inertia))],
                vec![("drive.tau_shaft", law.torque_input), ("load.phi", "drive.phi_load"), ("load.w", "drive.w_load")],
            )
        }
        Cut::Shaft => {
            values.extend([("load.k_shaft".to_string(), p["k_shaft"]), ("load.d_shaft".into(), p["d_shaft"])]);
            (
                vec![("drive", crate::fmu_path("MotorDrive")), ("load", crate::fmu_path(law.port))],
                vec![
                    ("drive.phi", "load.phi_drive"),
                    ("drive.w", "load.w_drive"),
                    ("load.tau_shaft", "drive.tau_load"),
                ],
            )
        }
    };
    LuaSystem {
        mode,
        components,
        connections,
        values,
        stop,
        step,
        tolerance: if mode == Mode::ModelExchange { 1e-11 } else { 1e-6 },
        held_inputs: None,
    }
}

/// `column` at the communication points `i*h` of a weakly coupled run, as
/// a CSV `time,w` for the studies' `--score` (the first row at each time:
/// OMSimulator ends with a sliver step of ~1e-13 s).
pub fn rate_at_steps(table: &Table, column: &str, h: f64, stop: f64) -> Result<String, String> {
    let mut csv = String::from("time,w\n");
    let mut next = 0usize;
    for (t, x) in table.column("time").iter().zip(table.column(column).iter()) {
        if (t - next as f64 * h).abs() < 1e-9 {
            csv += &format!("{:?},{:?}\n", next as f64 * h, x);
            next += 1;
        }
    }
    let expected = (stop / h).round() as usize + 1;
    if next != expected {
        return Err(format!("{next} rows at the communication points, {expected} expected"));
    }
    Ok(csv)
}
