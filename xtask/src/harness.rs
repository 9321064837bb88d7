//! The C harness `tests/harness/fmu_harness.c` and what drives it: the plan
//! a run follows, the binaries it loads, its rows of output bits. Shared by
//! the platform check and the hostile-host check, which sit above it.

use crate::util::{root, Result};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One platform's verdict, printed and counted by the caller.
pub struct Outcome {
    pub name: String,
    /// None: skipped (with the reason in `detail`).
    pub passed: Option<bool>,
    pub detail: String,
}

pub fn io<T>(r: std::io::Result<T>, what: &Path) -> Result<T> {
    r.map_err(|e| format!("{}: {e}", what.display()))
}

/// A plan for model `index`: these parameters, these input signals held
/// over each of `steps` steps of `h`.
pub fn plan_text(
    index: usize,
    parameters: &[(&str, f64)],
    inputs: &[(&str, fmu::scenarios::Signal)],
    h: f64,
    steps: usize,
) -> Result<String> {
    let entry = &fmu::registry::MODELS[index];
    let id = entry.info.identifier;
    let variables = (entry.variables)();
    let code = |t: &str| t.chars().next().unwrap_or('R');
    let bits = |x: f64| format!("{:016x}", x.to_bits());
    let find = |name: &str| variables.iter().find(|v| v.name == name).ok_or(format!("{id}: no variable {name}"));
    let mut text = format!("guid {}\nstep {} steps {steps}\n", fmu::registry::guid(index), bits(h));
    text += &format!("parameters {}\n", parameters.len());
    for (name, value) in parameters {
        let v = find(name)?;
        // 'E': an Enumeration (an Integer in FMI 2.0, an Int64 in FMI 3.0).
        let kind = if v.choices.is_some() { 'E' } else { code(v.type_name) };
        text += &format!("{} {kind} {}\n", v.value_reference, bits(*value));
    }
    text += &format!("inputs {}", inputs.len());
    for (name, _) in inputs {
        text += &format!(" {}", find(name)?.value_reference);
    }
    let outputs: Vec<_> = variables.iter().filter(|v| v.causality == fmu::description::Causality::Output).collect();
    text += &format!("\noutputs {}", outputs.len());
    for v in &outputs {
        text += &format!(" {} {}", v.value_reference, code(v.type_name));
    }
    // Model Exchange: offered (1 or 0), states, event indicators. Offered for
    // this plan unless its parameters choose what Model Exchange refuses (a
    // fixed-step algorithm: `Model::check_model_exchange`), asked of the model.
    let mut probe = (entry.new_instance)();
    for (name, value) in parameters {
        let v = find(name)?;
        let vr = [v.value_reference];
        match v.type_name {
            "Integer" => probe.set_integer(&vr, &[*value as i32], false)?,
            "Boolean" => probe.set_boolean(&vr, &[*value != 0.0], false)?,
            _ => probe.set_real(&vr, &[*value], false)?,
        }
    }
    let hybrid = probe.hybrid_sizes().filter(|_| probe.check(false).is_ok());
    let (states, indicators) = hybrid.unwrap_or((0, 0));
    text += &format!("\nmodelexchange {} {states} {indicators}\n", hybrid.is_some() as u8);
    for k in 0..steps {
        let t = k as f64 * h;
        let row: Vec<String> = inputs.iter().map(|(_, s)| bits(s.hold_value(t, h))).collect();
        text += &row.join(" ");
        text += "\n";
    }
    Ok(text)
}

/// `binaries/<folder>/<id><ext>` of every FMU into `into/` (named after the
/// model: the binary picks its model by its file name).
pub fn extract(fmus: &Path, folder: &str, extension: &str, into: &Path) -> Result<PathBuf> {
    io(std::fs::create_dir_all(into), into)?;
    for m in fmu::registry::MODELS {
        let id = m.info.identifier;
        let path = fmus.join(format!("{id}.fmu"));
        let file = io(std::fs::File::open(&path), &path)?;
        let mut zip = zip::ZipArchive::new(file).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = format!("binaries/{folder}/{id}{extension}");
        let mut entry = zip.by_name(&name).map_err(|_| format!("not in the FMUs: {name} (skipped at build)"))?;
        let mut bytes = Vec::new();
        io(entry.read_to_end(&mut bytes), &path)?;
        let out = into.join(format!("{id}{extension}"));
        io(std::fs::write(&out, bytes), &out)?;
    }
    Ok(into.to_path_buf())
}

pub fn harness_source() -> PathBuf {
    root().join("tests/harness/fmu_harness.c")
}

pub fn compile(mut cmd: Command) -> Result<()> {
    let out = cmd.output().map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr)))
    }
}

pub fn compile_native(dir: &Path) -> Result<PathBuf> {
    let exe = dir.join("fmu_harness");
    let mut cmd = Command::new("cc");
    cmd.args(["-std=c99", "-O1", "-Wall", "-Werror", "-o"]).arg(&exe).arg(harness_source()).args([
        "-ldl",
        "-lm",
        "-lpthread",
    ]);
    compile(cmd)?;
    Ok(exe)
}

/// The rows of bits a harness run printed; `Err` names `what` and the
/// harness's FAIL lines when it failed.
pub fn harness_rows(out: &std::process::Output, what: &str) -> Result<Vec<Vec<u64>>> {
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || !stdout.lines().any(|l| l.starts_with("OK ")) {
        return Err(format!(
            "{what}: harness failed ({}): {}{}",
            out.status,
            stdout.lines().filter(|l| l.starts_with("FAIL")).collect::<Vec<_>>().join("; "),
            String::from_utf8_lossy(&out.stderr).lines().take(5).collect::<Vec<_>>().join("; ")
        ));
    }
    Ok(stdout
        .lines()
        .filter(|l| !l.starts_with("OK "))
        .map(|l| l.split_whitespace().map(|h| u64::from_str_radix(h, 16).unwrap_or(u64::MAX)).collect())
        .collect())
}
