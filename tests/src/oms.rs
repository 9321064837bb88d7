//! OpenModelica's simulator (OMSimulator) as an importer in the tests.
//!
//! `cargo xtask test` builds it once from `../shared/omsimulator/` into
//! `target/omsimulator` and passes the binary in `OMSIMULATOR`; without it
//! (a clone without `../shared`, or a failed build) `OMSIMULATOR_SKIPPED`
//! says why, and the tests that need it print `skipped: ...` and return.

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
                .unwrap_or_else(|_| "OMSIMULATOR is not set (run the tests through `cargo xtask test`)".into());
            println!("skipped: {test}: OMSimulator not available ({why})");
            None
        }
    }
}

/// Interface OMSimulator imports an FMU as (`--mode`).
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
