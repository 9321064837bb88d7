//! What the tests need on a fresh machine, installed by the test command
//! itself: FMPy (pinned) in a local virtual environment, and libclang for
//! the bindgen step of the `fmi` crate, from the PyPI `libclang` wheel (no
//! root, no system package needed).

use crate::util::{root, run, Result};
use std::path::PathBuf;
use std::process::Command;

/// Pinned versions: a new release must not change what CI tests.
const FMPY: &str = "fmpy==0.3.32";
const LIBCLANG: &str = "libclang==18.1.1";
/// The examples' pinned packages (dask, distributed, matplotlib, lxml).
const EXAMPLES_REQUIREMENTS: &str = "examples/requirements.txt";
/// `python -m fmpy.cross_check --simulate` scores results with scipy, which
/// FMPy does not install (without it every FMU scores 0 %).
const SCIPY: &str = "scipy==1.16.3";
/// libcosim (Open Simulation Platform), a second importer that reads every variable in one call.
const LIBCOSIMPY: &str = "libcosimpy==0.0.6";

pub struct TestEnv {
    pub python: PathBuf,
    pub libclang_dir: PathBuf,
    /// Include path for C headers such as stddef.h, which the wheel lacks.
    pub bindgen_args: Option<String>,
}

pub fn provision() -> Result<TestEnv> {
    let venv = root().join("target/venv");
    let python = venv.join("bin/python");
    let marker = venv.join(".provisioned");
    let requirements = root().join(EXAMPLES_REQUIREMENTS);
    let pins = std::fs::read_to_string(&requirements).map_err(|e| format!("{}: {e}", requirements.display()))?;
    let wanted = format!("{FMPY} {LIBCLANG} {SCIPY} {LIBCOSIMPY}\n{pins}");
    if std::fs::read_to_string(&marker).ok().as_deref() != Some(wanted.as_str()) {
        println!("provisioning {} with {FMPY} {LIBCLANG} {SCIPY} {LIBCOSIMPY}", venv.display());
        let system_python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
        run(Command::new(&system_python).args(["-m", "venv", "--clear"]).arg(&venv))?;
        run(Command::new(&python).args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            FMPY,
            LIBCLANG,
            SCIPY,
            LIBCOSIMPY,
        ]))?;
        println!("installing the examples' packages from {}", requirements.display());
        run(Command::new(&python)
            .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r"])
            .arg(&requirements))?;
        std::fs::write(&marker, wanted).map_err(|e| e.to_string())?;
    }
    let out = Command::new(&python)
        .args(["-c", "import clang, os; print(os.path.join(os.path.dirname(clang.__file__), 'native'))"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !out.status.success() {
        return Err(format!("locating libclang failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let libclang_dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    // The wheel ships libclang without its resource headers; the C
    // compiler's own include directory has stddef.h and friends.
    let bindgen_args = Command::new("cc")
        .args(["-print-file-name=include"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|dir| std::path::Path::new(dir).join("stddef.h").exists())
        .map(|dir| format!("-I{dir}"));
    Ok(TestEnv { python, libclang_dir, bindgen_args })
}

/// valgrind is on every machine of this project's kind; install it from
/// Debian's packages if a machine lacks it and we may (root).
pub fn valgrind() -> Result<()> {
    let present = Command::new("valgrind").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    if present {
        return Ok(());
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false);
    if !root {
        return Err("valgrind is missing and we are not root to install it: apt-get install valgrind".into());
    }
    println!("installing valgrind from Debian's packages");
    run(Command::new("apt-get").arg("update").arg("-q"))?;
    run(Command::new("apt-get").args(["install", "-y", "-q", "valgrind"]))
}

/// The installed OMSimulator looks for the SSP schemas in `bin/schema`,
/// the install puts them in `lib/<triple>/OMSimulator/schema`: without a
/// link every run warns "could not load the ssd schema file" and validates
/// no SSP. Link them, so that our SSPs are validated on every run.
fn schema_beside(prefix: &std::path::Path) -> std::result::Result<(), String> {
    let link = prefix.join("bin/schema");
    if link.join("ssp/SystemStructureDescription.xsd").exists() {
        return Ok(());
    }
    let lib = prefix.join("lib");
    let found = std::fs::read_dir(&lib)
        .map_err(|e| format!("{}: {e}", lib.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("OMSimulator/schema"))
        .find(|p| p.join("ssp/SystemStructureDescription.xsd").exists())
        .ok_or_else(|| format!("no OMSimulator/schema under {}", lib.display()))?;
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&found, &link).map_err(|e| format!("linking {}: {e}", link.display()))
}

/// OpenModelica's simulator, for the tests that import the FMUs with it:
/// the binary named by the environment variable `OMSIMULATOR` (nothing is
/// built or downloaded here). `Err` says why those tests are skipped: the
/// variable is not set, or names no file. When the binary sits in an
/// install tree (`<prefix>/bin/OMSimulator`) whose `bin/schema` is missing,
/// the SSP schemas of `<prefix>/lib` are linked there, best effort, so that
/// it validates every SSP without a warning.
pub fn omsimulator() -> std::result::Result<PathBuf, String> {
    let Some(binary) = std::env::var_os("OMSIMULATOR").filter(|v| !v.is_empty()).map(PathBuf::from) else {
        return Err(
            "OMSIMULATOR is not set: the OMSimulator tests are skipped; point it to an OMSimulator binary to run them"
                .into(),
        );
    };
    if !binary.is_file() {
        return Err(format!(
            "OMSIMULATOR={} is not a file: the OMSimulator tests are skipped; point it to an OMSimulator binary to run them",
            binary.display()
        ));
    }
    let prefix = binary.parent().filter(|bin| bin.file_name().is_some_and(|n| n == "bin")).and_then(|bin| bin.parent());
    if let Some(prefix) = prefix {
        if let Err(why) = schema_beside(prefix) {
            println!("OMSimulator: SSP schemas not linked beside the binary ({why}): its SSP runs may warn");
        }
    }
    Ok(binary)
}
