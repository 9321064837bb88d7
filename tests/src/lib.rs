//! Helpers for the integration tests: find the built FMUs, run them through
//! FMPy (a Python subprocess) and through the Rust `fmi` crate, and compare.
//!
//! The FMUs are built by `cargo xtask fmu` (the README's test command does
//! it first) into `target/fmu/`, or the folder named by `FMU_DIR`.

pub mod cosim;
pub mod oms;
pub mod raw;

use fmi::fmi2::import::Fmi2Import;
use fmi::fmi2::instance::{CoSimulation, Common};
use fmi::traits::FmiImport;
use std::path::PathBuf;
use std::process::Command;

pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The FMI 3.0 FMU of `identifier` (`target/fmu/fmi3/`, beside FMI 2.0's).
pub fn fmu3_path(identifier: &str) -> PathBuf {
    let path = fmu_path(identifier).parent().unwrap().join("fmi3").join(format!("{identifier}.fmu"));
    assert!(path.exists(), "{} is missing: run `cargo xtask fmu` (or `cargo xtask test`) first", path.display());
    path
}

pub fn fmu_path(identifier: &str) -> PathBuf {
    let dir = std::env::var_os("FMU_DIR").map(PathBuf::from).unwrap_or_else(|| workspace_root().join("target/fmu"));
    let path = dir.join(format!("{identifier}.fmu"));
    assert!(path.exists(), "{} is missing: run `cargo xtask fmu` (or `cargo xtask test`) first", path.display());
    path
}

pub fn identifiers() -> Vec<&'static str> {
    fmu::registry::MODELS.iter().map(|m| m.info.identifier).collect()
}

/// The FMUs that offer Model Exchange beside Co-Simulation: the models with
/// a hybrid form, from the registry.
pub fn with_model_exchange() -> Vec<&'static str> {
    fmu::registry::MODELS.iter().filter(|m| m.model_exchange).map(|m| m.info.identifier).collect()
}

/// The FMUs that offer Co-Simulation only (no hybrid form), from the registry.
pub fn co_simulation_only() -> Vec<&'static str> {
    fmu::registry::MODELS.iter().filter(|m| !m.model_exchange).map(|m| m.info.identifier).collect()
}

pub fn python() -> PathBuf {
    std::env::var_os("FMPY_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/venv/bin/python"))
}

/// Run the FMPy driver; returns (success, stdout, stderr).
pub fn fmpy(args: &[&str]) -> (bool, String, String) {
    run_python(&workspace_root().join("tests/python/fmpy_driver.py"), args)
}

/// Run a Python script of the repository with the test venv's Python
/// (`FMPY_PYTHON`) in a temporary folder of its own, removed after it
/// (FMPy's `extract` leaves each unzipped FMU behind otherwise); returns
/// (success, stdout, stderr).
pub fn run_python(script: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let (ok, stdout, stderr, _) = run_python_leftovers(script, args);
    (ok, stdout, stderr)
}

/// As [`run_python`], and the names of what the script left in its
/// temporary folder (a shipped example must leave nothing).
pub fn run_python_leftovers(script: &std::path::Path, args: &[&str]) -> (bool, String, String, Vec<String>) {
    let tmp = PrivateTmp::new();
    let out = tmp.command(python()).arg(script).args(args).output().unwrap_or_else(|e| {
        panic!(
            "cannot run {} ({e}): run the tests through `cargo xtask test`, which installs FMPy and the examples' \
             packages",
            script.display()
        )
    });
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        tmp.leftovers(),
    )
}

/// A temporary folder for one child process (`TMPDIR`, and `TEMP` and
/// `TMP` as Windows reads them): what the process leaves there can be
/// listed, and the folder is removed when this is dropped, so that no test
/// run fills the machine's temporary folder.
pub struct PrivateTmp(PathBuf);

impl PrivateTmp {
    pub fn new() -> Self {
        static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("fmu-tests-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        Self(dir)
    }

    /// `program` to run with this folder as its temporary folder.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new(program);
        command.env("TMPDIR", &self.0).env("TEMP", &self.0).env("TMP", &self.0);
        command
    }

    /// What is in the folder now, by name.
    pub fn leftovers(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .map(|entries| entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        names.sort();
        names
    }
}

impl Default for PrivateTmp {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for PrivateTmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A co-simulation run: fixed communication step from t = 0, constant
/// start values for inputs and parameters.
#[derive(Clone, Debug)]
pub struct Run<'a> {
    pub model: &'a str,
    pub stop: f64,
    pub step: f64,
    pub start_values: Vec<(&'a str, f64)>,
}

impl<'a> Run<'a> {
    pub fn new(model: &'a str, stop: f64, step: f64) -> Self {
        Self { model, stop, step, start_values: Vec::new() }
    }
    pub fn with(mut self, name: &'a str, value: f64) -> Self {
        self.start_values.push((name, value));
        self
    }
    /// Communication points exactly as FMPy's master computes them.
    pub fn points(&self) -> Vec<f64> {
        let mut points = vec![0.0];
        let mut n = 0u64;
        loop {
            let t: f64 = *points.last().unwrap();
            if t > self.stop || is_close(t, self.stop) {
                break;
            }
            let mut next = (n + 1) as f64 * self.step;
            if next > self.stop && !is_close(next, self.stop) {
                next = self.stop;
            }
            points.push(next);
            n += 1;
        }
        points
    }
}

/// Python's math.isclose with FMPy's arguments (rel_tol=1e-9, abs_tol=0).
fn is_close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

pub use runner::Table;

/// Simulate through FMPy's `simulate_fmu`.
pub fn run_fmpy(run: &Run) -> Table {
    let path = fmu_path(run.model);
    let (stop, step) = (run.stop.to_string(), run.step.to_string());
    let assignments: Vec<String> = run.start_values.iter().map(|(n, v)| format!("{n}={v:?}")).collect();
    let mut args = vec!["simulate", path.to_str().unwrap(), &stop, &step];
    args.extend(assignments.iter().map(String::as_str));
    let (ok, stdout, stderr) = fmpy(&args);
    assert!(ok, "FMPy simulation of {} failed:\n{stderr}", run.model);
    let mut lines = stdout.lines();
    let columns: Vec<String> = lines.next().expect("CSV header").split(',').map(str::to_string).collect();
    let rows = lines.map(|l| l.split(',').map(|x| x.parse::<f64>().expect("number")).collect()).collect();
    Table { columns, rows }
}

/// Type of an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Real,
    Integer,
    Boolean,
}

/// An FMU loaded through the Rust `fmi` crate.
pub struct Loaded {
    pub import: Fmi2Import,
}

impl Loaded {
    pub fn new(model: &str) -> Self {
        let import = fmi::import::from_path::<Fmi2Import>(fmu_path(model)).expect("the fmi crate loads the FMU");
        Self { import }
    }

    pub fn vr(&self, name: &str) -> u32 {
        self.import.model_description().model_variable_by_name(name).expect("variable").value_reference
    }

    /// Outputs in model-description order, with their type.
    pub fn outputs(&self) -> Vec<(String, u32, Kind)> {
        use fmi::schema::fmi2::ScalarVariableElement as E;
        self.import
            .model_description()
            .get_model_variables()
            .filter(|v| v.causality == fmi::schema::fmi2::Causality::Output)
            .map(|v| {
                let kind = match v.elem {
                    E::Real(_) => Kind::Real,
                    E::Integer(_) => Kind::Integer,
                    E::Boolean(_) => Kind::Boolean,
                    _ => panic!("unexpected output type of {}", v.name),
                };
                (v.name.clone(), v.value_reference, kind)
            })
            .collect()
    }

    /// Names of the Real inputs.
    pub fn inputs(&self) -> Vec<String> {
        self.import
            .model_description()
            .get_model_variables()
            .filter(|v| v.causality == fmi::schema::fmi2::Causality::Input)
            .map(|v| v.name.clone())
            .collect()
    }

    /// Real parameters with their start values.
    pub fn real_parameters(&self) -> Vec<(String, u32, f64)> {
        self.import
            .model_description()
            .get_model_variables()
            .filter(|v| v.causality == fmi::schema::fmi2::Causality::Parameter)
            .filter_map(|v| match &v.elem {
                fmi::schema::fmi2::ScalarVariableElement::Real(r) => {
                    Some((v.name.clone(), v.value_reference, r.start?))
                }
                _ => None,
            })
            .collect()
    }

    pub fn instantiate(&self, name: &str) -> fmi::fmi2::instance::InstanceCS {
        self.import.instantiate_cs(name, false, false).expect("instantiate")
    }

    /// Set start values and initialize (the sequence FMPy uses).
    pub fn initialize(&self, instance: &mut fmi::fmi2::instance::InstanceCS, run: &Run) {
        self.initialize_with(instance, run, |_, _| {});
    }

    /// [`Loaded::initialize`], calling `in_initialization` inside
    /// initialization mode (with the start time), where a master sets the
    /// inputs of the first step.
    pub fn initialize_with(
        &self,
        instance: &mut fmi::fmi2::instance::InstanceCS,
        run: &Run,
        in_initialization: impl FnOnce(&mut fmi::fmi2::instance::InstanceCS, f64),
    ) {
        instance.setup_experiment(None, 0.0, Some(run.stop)).expect("setupExperiment");
        let variables = fmu::registry::find(run.model).map(|m| (m.variables)()).unwrap_or_default();
        for (name, value) in &run.start_values {
            let vr = [self.vr(name)];
            match variables.iter().find(|v| v.name == *name).map(|v| v.type_name) {
                Some("Integer") => instance.set_integer(&vr, &[*value as i32]).expect("setInteger"),
                Some("Boolean") => instance.set_boolean(&vr, &[(*value != 0.0) as i32]).expect("setBoolean"),
                _ => instance.set_real(&vr, &[*value]).expect("setReal"),
            };
        }
        instance.enter_initialization_mode().expect("enterInitializationMode");
        in_initialization(instance, 0.0);
        instance.exit_initialization_mode().expect("exitInitializationMode");
    }

    pub fn sample(&self, instance: &mut fmi::fmi2::instance::InstanceCS, t: f64) -> Vec<f64> {
        let mut row = vec![t];
        for (_, vr, kind) in self.outputs() {
            match kind {
                Kind::Real => {
                    let mut v = [0.0];
                    instance.get_real(&[vr], &mut v).expect("getReal");
                    row.push(v[0]);
                }
                Kind::Integer => {
                    let mut v = [0];
                    instance.get_integer(&[vr], &mut v).expect("getInteger");
                    row.push(v[0] as f64);
                }
                Kind::Boolean => {
                    let mut v = [0];
                    instance.get_boolean(&[vr], &mut v).expect("getBoolean");
                    row.push(if v[0] != 0 { 1.0 } else { 0.0 });
                }
            }
        }
        row
    }

    /// Step `instance` over the communication points of `run`, from `points[from]`.
    pub fn steps(&self, instance: &mut fmi::fmi2::instance::InstanceCS, points: &[f64]) -> Vec<Vec<f64>> {
        let mut rows = Vec::new();
        for w in points.windows(2) {
            instance.do_step(w[0], w[1] - w[0], true).expect("doStep");
            rows.push(self.sample(instance, w[1]));
        }
        rows
    }

    pub fn columns(&self) -> Vec<String> {
        std::iter::once("time".to_string()).chain(self.outputs().into_iter().map(|o| o.0)).collect()
    }
}

/// Simulate through the `fmi` crate with FMPy's communication points.
pub fn run_fmi(run: &Run) -> Table {
    let fmu = Loaded::new(run.model);
    let mut instance = fmu.instantiate("fmi-crate");
    fmu.initialize(&mut instance, run);
    let points = run.points();
    let mut rows = vec![fmu.sample(&mut instance, 0.0)];
    rows.extend(fmu.steps(&mut instance, &points));
    instance.terminate().expect("terminate");
    Table { columns: fmu.columns(), rows }
}

/// Simulate through the `fmi` crate with inputs computed by the master at
/// each communication point from the time and the last output row (a
/// co-simulation loop, e.g. a damping torque fed back from an output).
///
/// The inputs of the first step are set in initialization mode, from the
/// outputs there (FMI 2.0 allows reading them), so that the row at the start
/// time already shows the FMU under them (issue 29: a master that set them
/// only after initialization showed start values at t = 0).
pub fn run_fmi_with(run: &Run, mut inputs: impl FnMut(f64, &Table) -> Vec<(&'static str, f64)>) -> Table {
    let fmu = Loaded::new(run.model);
    let mut instance = fmu.instantiate("fmi-crate-loop");
    fmu.initialize_with(&mut instance, run, |instance, t0| {
        let table = Table { columns: fmu.columns(), rows: vec![fmu.sample(instance, t0)] };
        for (name, value) in inputs(t0, &table) {
            instance.set_real(&[fmu.vr(name)], &[value]).expect("setReal input in initialization mode");
        }
    });
    let points = run.points();
    let mut table = Table { columns: fmu.columns(), rows: vec![fmu.sample(&mut instance, points[0])] };
    for (k, w) in points.windows(2).enumerate() {
        // The first step's inputs were set in initialization mode.
        if k > 0 {
            for (name, value) in inputs(w[0], &table) {
                instance.set_real(&[fmu.vr(name)], &[value]).expect("setReal input");
            }
        }
        instance.do_step(w[0], w[1] - w[0], true).expect("doStep");
        table.rows.push(fmu.sample(&mut instance, w[1]));
    }
    table
}

/// Run a paper's scenario (see `fmu::scenarios`) through the `fmi` crate:
/// its parameters as start values, its inputs held over each step at their
/// mid-step value, exactly as `Scenario::simulate` feeds them.
pub fn run_scenario(name: &str) -> Table {
    let s = fmu::scenarios::find(name).unwrap_or_else(|| panic!("no scenario {name}"));
    let mut run = Run::new(s.model, s.stop_time, s.step_size);
    for &(n, v) in s.parameters {
        run = run.with(n, v);
    }
    run_fmi_with(&run, |t, _| s.inputs_at(t, s.step_size))
}

/// An earlier build in a bench (`*_BEFORE`): its GUID of `id` from the file
/// `BEFORE_GUIDS` names (lines `<Model> <GUID>`, from that build's FMUs),
/// when it differs from this build's (before issue 40 it did).
pub fn before_guid(id: &str) -> Option<String> {
    let text = std::fs::read_to_string(std::env::var("BEFORE_GUIDS").ok()?).expect("BEFORE_GUIDS: not readable");
    text.lines().find_map(|l| l.strip_prefix(id)?.strip_prefix(' ').map(str::to_string))
}

/// This build's FMI 2.0 value reference `vr` in an earlier build: shifted
/// by `BEFORE_FMI2_VR_SHIFT` (-1 for a build from before issue 40, which
/// numbered FMI 2.0's variables from 0).
pub fn before_fmi2_vr(vr: u32) -> u32 {
    let shift: i32 = std::env::var("BEFORE_FMI2_VR_SHIFT").map_or(0, |s| s.parse().expect("BEFORE_FMI2_VR_SHIFT"));
    vr.wrapping_add_signed(shift)
}
