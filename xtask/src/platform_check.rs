//! Proof that every shipped binary works, in `cargo xtask test`:
//!
//! - the C harness `tests/harness/fmu_harness.c`, compiled per platform, runs
//!   the full FMI call sequence on every model, Co-Simulation and then Model
//!   Exchange (an explicit Euler loop with event indicators and event
//!   iteration, its states and derivatives on the output rows): natively for linux64, under
//!   wine for win64, under qemu-aarch64-static for aarch64 Linux; every
//!   output at every step must equal the linux64 run (bit for bit, or within
//!   1e-12 relative where libm differs; the report says which);
//! - structure: exports exactly the FMI functions, depends only on system
//!   libraries, the newest GLIBC symbol version (<= 2.17); darwin64, which
//!   nothing here can run, is checked as a Mach-O (slices, minimum macOS,
//!   exports, libraries: [`crate::macho`]).

use crate::cross_tools::{self, apt};
use crate::harness::{compile, compile_native, extract, harness_rows, harness_source, io, plan_text, Outcome};
use crate::platforms::DARWIN_SLICES;
use crate::util::{root, Result};
use packaging::archive::AARCH64_FOLDER;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Steps per run (the "1000 doSteps").
const STEPS: usize = 1000;
/// Where libm implementations differ (exp, sin in a few laws), results may
/// differ in the last bits; more than this is a failure.
const RELATIVE_TOLERANCE: f64 = 1e-12;

/// Libraries a binary may depend on: the C runtime every user has.
const ELF_SYSTEM_LIBS: &[&str] =
    &["libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"];
/// Rust's std on macOS links libiconv (which brings libcharset): both are
/// in /usr/lib on every macOS.
const MACOS_SYSTEM_LIBS: &[&str] =
    &["/usr/lib/libSystem.B.dylib", "/usr/lib/libiconv.2.dylib", "/usr/lib/libcharset.1.dylib"];
/// Exported besides the FMI functions, and said so in the report: the two
/// symbols ld64-style linkers define in every dylib, and zig's compiler-rt
/// OS-version helpers, which zig links with default visibility.
const MACOS_LINKER_SYMBOLS: &[&str] =
    &["___dso_handle", "__mh_dylib_header", "___isOSVersionAtLeast", "___isPlatformVersionAtLeast"];
const PE_SYSTEM_DLLS: &[&str] = &[
    "kernel32.dll",
    "msvcrt.dll",
    "ntdll.dll",
    "userenv.dll",
    "ws2_32.dll",
    "api-ms-win-core-synch-l1-2-0.dll",
    "bcryptprimitives.dll",
    "advapi32.dll",
];

fn work_dir() -> PathBuf {
    root().join("target/platform-check")
}

/// Run the checks and print one line each; (passed, failed, skipped).
pub fn report(fmus: &Path) -> Result<(u64, u64, u64)> {
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for outcome in check(fmus)? {
        let verdict = match outcome.passed {
            Some(true) => {
                passed += 1;
                "ok"
            }
            Some(false) => {
                failed += 1;
                "FAILED"
            }
            None => {
                skipped += 1;
                "SKIPPED"
            }
        };
        println!("platform check {}: {verdict}: {}", outcome.name, outcome.detail);
    }
    Ok((passed, failed, skipped))
}

/// Run every check over the FMUs in `fmus`.
pub fn check(fmus: &Path) -> Result<Vec<Outcome>> {
    let dir = work_dir();
    let _ = std::fs::remove_dir_all(&dir);
    io(std::fs::create_dir_all(&dir), &dir)?;
    let models: Vec<&str> = fmu::registry::MODELS.iter().map(|m| m.info.identifier).collect();
    let plans = models.iter().map(|id| plan(id)).collect::<Result<Vec<_>>>()?;
    let mut outcomes = Vec::new();

    // Reference: linux64, natively.
    let linux = extract(fmus, "linux64", ".so", &dir)?;
    let reference = match compile_native(&linux).and_then(|h| {
        run_all(&models, &plans, &linux, |lib, plan| Command::new(&h).arg(lib).arg(plan).current_dir(&linux).output())
    }) {
        Ok(r) => r,
        Err(e) => {
            outcomes.push(Outcome { name: "linux64 harness".into(), passed: Some(false), detail: e });
            return Ok(outcomes);
        }
    };
    let values: usize = reference.iter().flatten().map(Vec::len).sum();
    outcomes.push(Outcome {
        name: "linux64 harness (native)".into(),
        passed: Some(true),
        detail: format!(
            "{} models x {STEPS} steps, {values} output values, state replay and reset equal, FMI 3.0 Co-Simulation \
             equal to FMI 2.0 (the harness checks each run)",
            models.len()
        ),
    });
    outcomes.push(elf_structure("linux64", &linux, &models, "x86-64"));
    // linux64 as a guest in hostile host processes (issue 30).
    match crate::hostile_host::check(fmus) {
        Ok(hostile) => outcomes.extend(hostile),
        Err(e) => outcomes.push(Outcome { name: "hostile host".into(), passed: Some(false), detail: e }),
    }

    // win64 under wine.
    outcomes.push(match win64(fmus, &dir, &models, &plans) {
        Ok(runs) => compare("win64 harness (wine)", &reference, &runs),
        Err(e) => skip_or_fail("win64 harness (wine)", e),
    });
    if let Ok(win) = extract(fmus, "win64", ".dll", &dir.join("win64-structure")) {
        outcomes.push(pe_structure(&win, &models));
    }
    // aarch64 Linux under qemu.
    outcomes.push(match aarch64(fmus, &dir, &models, &plans) {
        Ok(runs) => compare("aarch64 Linux harness (qemu)", &reference, &runs),
        Err(e) => skip_or_fail("aarch64 Linux harness (qemu)", e),
    });
    if let Ok(arm) = extract(fmus, AARCH64_FOLDER, ".so", &dir.join("aarch64-structure")) {
        outcomes.push(elf_structure("aarch64 Linux", &arm, &models, "aarch64"));
    }
    // darwin64: structure only.
    outcomes.push(match extract(fmus, "darwin64", ".dylib", &dir.join("darwin64")) {
        Ok(darwin) => darwin_structure(&darwin, &models),
        Err(e) => skip_or_fail("darwin64 structure", e),
    });
    Ok(outcomes)
}

/// A platform missing from the FMUs is a skip (said at build time why);
/// anything else is a failure.
fn skip_or_fail(name: &str, e: String) -> Outcome {
    let skipped = e.starts_with("not in the FMUs") || e.starts_with("cannot run:");
    Outcome { name: name.into(), passed: if skipped { None } else { Some(false) }, detail: e }
}

/// The plan the harness reads: GUID, step, the first scenario's parameters
/// and its inputs at each of `STEPS` communication points, the outputs.
fn plan(id: &str) -> Result<String> {
    let index = fmu::registry::MODELS.iter().position(|m| m.info.identifier == id).expect("registered");
    let entry = &fmu::registry::MODELS[index];
    let scenario = fmu::scenarios::all().into_iter().find(|s| s.model == id);
    let h = scenario.map(|s| s.step_size).unwrap_or(entry.info.default_experiment.step_size);
    let parameters = scenario.map(|s| s.parameters).unwrap_or(&[]);
    let inputs = scenario.map(|s| s.inputs).unwrap_or(&[]);
    plan_text(index, parameters, inputs, h, STEPS)
}

/// Outputs of one model: one row of bits per step.
type Run = Vec<Vec<u64>>;

fn run_all(
    models: &[&str],
    plans: &[String],
    dir: &Path,
    run: impl Fn(&str, &str) -> std::io::Result<std::process::Output>,
) -> Result<Vec<Run>> {
    let extension = std::fs::read_dir(dir)
        .ok()
        .and_then(|mut d| {
            d.find_map(|e| {
                let p = e.ok()?.path();
                let ext = p.extension()?.to_str()?.to_string();
                ["so", "dll"].contains(&ext.as_str()).then_some(ext)
            })
        })
        .unwrap_or_else(|| "so".into());
    let mut runs = Vec::new();
    for (id, plan) in models.iter().zip(plans) {
        let plan_file = dir.join(format!("{id}.plan"));
        io(std::fs::write(&plan_file, plan), &plan_file)?;
        let out = run(&format!("./{id}.{extension}"), &format!("{id}.plan"))
            .map_err(|e| format!("cannot run: the harness for {id}: {e}"))?;
        let rows: Run = harness_rows(&out, id)?;
        if rows.len() != STEPS {
            return Err(format!("{id}: {} rows of outputs, expected {STEPS}", rows.len()));
        }
        runs.push(rows);
    }
    Ok(runs)
}

/// Compare with the linux64 run: bitwise, else within the tolerance.
fn compare(name: &str, reference: &[Run], runs: &[Run]) -> Outcome {
    let (mut equal, mut total, mut worst) = (0usize, 0usize, 0.0f64);
    let mut bad = Vec::new();
    for (m, (a, b)) in reference.iter().zip(runs).enumerate() {
        for (k, (ra, rb)) in a.iter().zip(b).enumerate() {
            for (i, (&x, &y)) in ra.iter().zip(rb).enumerate() {
                total += 1;
                if x == y {
                    equal += 1;
                    continue;
                }
                let (x, y) = (f64::from_bits(x), f64::from_bits(y));
                let relative = (x - y).abs() / x.abs().max(y.abs());
                worst = worst.max(relative);
                if relative.is_nan() || relative > RELATIVE_TOLERANCE {
                    bad.push(format!(
                        "{} step {k} output {i}: {x:e} vs {y:e}",
                        fmu::registry::MODELS[m].info.identifier
                    ));
                }
            }
        }
    }
    let passed = bad.is_empty() && total > 0;
    let detail = if equal == total {
        format!("all {total} output values bitwise equal to linux64; FMI 3.0 equal to FMI 2.0 in every run")
    } else {
        format!(
            "{equal} of {total} output values bitwise equal to linux64, the rest within {worst:.1e} relative (limit {RELATIVE_TOLERANCE:e}); FMI 3.0 equal to FMI 2.0 in every run{}",
            if bad.is_empty() { String::new() } else { format!("; BEYOND: {}", bad.iter().take(5).cloned().collect::<Vec<_>>().join(", ")) }
        )
    };
    Outcome { name: name.into(), passed: Some(passed), detail }
}

fn win64(fmus: &Path, dir: &Path, models: &[&str], plans: &[String]) -> Result<Vec<Run>> {
    let win = extract(fmus, "win64", ".dll", &dir.join("win64"))?;
    apt(&["gcc-mingw-w64-x86-64", "wine64"]).map_err(|e| format!("cannot run: {e}"))?;
    let exe = win.join("fmu_harness.exe");
    let mut cmd = Command::new("x86_64-w64-mingw32-gcc");
    cmd.args(["-std=c99", "-O1", "-Wall", "-Werror", "-static", "-o"]).arg(&exe).arg(harness_source());
    compile(cmd)?;
    // Wine 8 lacks bcryptprimitives.dll (ProcessPrng, which Rust's std uses
    // since 1.78; Windows 10+ has it): a stand-in beside the test executable
    // only. It is never put into an FMU.
    let standin = win.join("bcryptprimitives.dll");
    let mut cmd = Command::new("x86_64-w64-mingw32-gcc");
    cmd.args(["-shared", "-O1", "-Wall", "-Werror", "-o"])
        .arg(&standin)
        .arg(root().join("tests/harness/bcryptprimitives_standin.c"))
        .arg("-ladvapi32");
    compile(cmd)?;
    let wine = ["wine64", "/usr/lib/wine/wine64", "wine"]
        .into_iter()
        .find(|w| Command::new(w).arg("--version").output().map(|o| o.status.success()).unwrap_or(false))
        .ok_or("cannot run: no wine64 after installing wine64")?;
    let prefix = cross_tools::dir().join("wineprefix");
    run_all(models, plans, &win, |lib, plan| {
        Command::new(wine)
            .arg("fmu_harness.exe")
            .arg(lib.trim_start_matches("./"))
            .arg(plan)
            .current_dir(&win)
            .env("WINEPREFIX", &prefix)
            .env("WINEDEBUG", "-all")
            // No Mono/Gecko installer dialogs on the first start.
            .env("WINEDLLOVERRIDES", "mscoree,mshtml=")
            .output()
    })
}

fn aarch64(fmus: &Path, dir: &Path, models: &[&str], plans: &[String]) -> Result<Vec<Run>> {
    let arm = extract(fmus, AARCH64_FOLDER, ".so", &dir.join("aarch64-linux"))?;
    apt(&["qemu-user-static", "libc6-arm64-cross"]).map_err(|e| format!("cannot run: {e}"))?;
    let zig = cross_tools::zig().map_err(|e| format!("cannot run: {e}"))?;
    let exe = arm.join("fmu_harness");
    let mut cmd = Command::new(zig);
    cmd.args(["cc", "-target", "aarch64-linux-gnu.2.17", "-std=c99", "-O1", "-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg(harness_source())
        .args(["-ldl", "-lm", "-lpthread"]);
    compile(cmd)?;
    run_all(models, plans, &arm, |lib, plan| {
        Command::new("qemu-aarch64-static")
            .args(["-L", "/usr/aarch64-linux-gnu"])
            .arg("./fmu_harness")
            .arg(lib)
            .arg(plan)
            .current_dir(&arm)
            .output()
    })
}

/// The exported names must be exactly the 44 functions of FMI 2.0 and the
/// 75 of FMI 3.0 (one binary serves both standards' FMUs).
fn check_exports(exported: &BTreeSet<String>) -> std::result::Result<(), String> {
    let fmi: BTreeSet<String> = FMI2_FUNCTIONS.iter().chain(&FMI3_FUNCTIONS).map(|s| s.to_string()).collect();
    if *exported == fmi {
        Ok(())
    } else {
        let extra: Vec<_> = exported.difference(&fmi).take(5).cloned().collect();
        let missing: Vec<_> = fmi.difference(exported).cloned().collect();
        Err(format!("exports {} symbols (extra e.g. {extra:?}, missing {missing:?})", exported.len()))
    }
}

pub const FMI2_FUNCTIONS: [&str; 44] = [
    "fmi2GetTypesPlatform",
    "fmi2GetVersion",
    "fmi2SetDebugLogging",
    "fmi2Instantiate",
    "fmi2FreeInstance",
    "fmi2SetupExperiment",
    "fmi2EnterInitializationMode",
    "fmi2ExitInitializationMode",
    "fmi2Terminate",
    "fmi2Reset",
    "fmi2GetReal",
    "fmi2GetInteger",
    "fmi2GetBoolean",
    "fmi2GetString",
    "fmi2SetReal",
    "fmi2SetInteger",
    "fmi2SetBoolean",
    "fmi2SetString",
    "fmi2GetFMUstate",
    "fmi2SetFMUstate",
    "fmi2FreeFMUstate",
    "fmi2SerializedFMUstateSize",
    "fmi2SerializeFMUstate",
    "fmi2DeSerializeFMUstate",
    "fmi2GetDirectionalDerivative",
    "fmi2SetRealInputDerivatives",
    "fmi2GetRealOutputDerivatives",
    "fmi2DoStep",
    "fmi2CancelStep",
    "fmi2GetStatus",
    "fmi2GetRealStatus",
    "fmi2GetIntegerStatus",
    "fmi2GetBooleanStatus",
    "fmi2GetStringStatus",
    "fmi2SetTime",
    "fmi2SetContinuousStates",
    "fmi2GetContinuousStates",
    "fmi2GetDerivatives",
    "fmi2GetEventIndicators",
    "fmi2GetNominalsOfContinuousStates",
    "fmi2EnterEventMode",
    "fmi2NewDiscreteStates",
    "fmi2EnterContinuousTimeMode",
    "fmi2CompletedIntegratorStep",
];

/// FMI 3.0's functions (`fmi3FunctionTypes.h`), every interface's: an
/// importer may bind them all, those of features the FMUs do not declare
/// included (they refuse with the reason).
pub const FMI3_FUNCTIONS: [&str; 75] = [
    "fmi3GetVersion",
    "fmi3SetDebugLogging",
    "fmi3InstantiateModelExchange",
    "fmi3InstantiateCoSimulation",
    "fmi3InstantiateScheduledExecution",
    "fmi3FreeInstance",
    "fmi3EnterInitializationMode",
    "fmi3ExitInitializationMode",
    "fmi3EnterEventMode",
    "fmi3Terminate",
    "fmi3Reset",
    "fmi3GetFloat32",
    "fmi3GetFloat64",
    "fmi3GetInt8",
    "fmi3GetUInt8",
    "fmi3GetInt16",
    "fmi3GetUInt16",
    "fmi3GetInt32",
    "fmi3GetUInt32",
    "fmi3GetInt64",
    "fmi3GetUInt64",
    "fmi3GetBoolean",
    "fmi3GetString",
    "fmi3GetBinary",
    "fmi3GetClock",
    "fmi3SetFloat32",
    "fmi3SetFloat64",
    "fmi3SetInt8",
    "fmi3SetUInt8",
    "fmi3SetInt16",
    "fmi3SetUInt16",
    "fmi3SetInt32",
    "fmi3SetUInt32",
    "fmi3SetInt64",
    "fmi3SetUInt64",
    "fmi3SetBoolean",
    "fmi3SetString",
    "fmi3SetBinary",
    "fmi3SetClock",
    "fmi3GetNumberOfVariableDependencies",
    "fmi3GetVariableDependencies",
    "fmi3GetFMUState",
    "fmi3SetFMUState",
    "fmi3FreeFMUState",
    "fmi3SerializedFMUStateSize",
    "fmi3SerializeFMUState",
    "fmi3DeserializeFMUState",
    "fmi3GetDirectionalDerivative",
    "fmi3GetAdjointDerivative",
    "fmi3EnterConfigurationMode",
    "fmi3ExitConfigurationMode",
    "fmi3GetIntervalDecimal",
    "fmi3GetIntervalFraction",
    "fmi3GetShiftDecimal",
    "fmi3GetShiftFraction",
    "fmi3SetIntervalDecimal",
    "fmi3SetIntervalFraction",
    "fmi3SetShiftDecimal",
    "fmi3SetShiftFraction",
    "fmi3EvaluateDiscreteStates",
    "fmi3UpdateDiscreteStates",
    "fmi3EnterContinuousTimeMode",
    "fmi3CompletedIntegratorStep",
    "fmi3SetTime",
    "fmi3SetContinuousStates",
    "fmi3GetContinuousStateDerivatives",
    "fmi3GetEventIndicators",
    "fmi3GetContinuousStates",
    "fmi3GetNominalsOfContinuousStates",
    "fmi3GetNumberOfEventIndicators",
    "fmi3GetNumberOfContinuousStates",
    "fmi3EnterStepMode",
    "fmi3GetOutputDerivatives",
    "fmi3DoStep",
    "fmi3ActivateModelPartition",
];

/// Issue 40's goal for every model's binary, per architecture (a darwin64
/// file holds two slices: each counts alone).
const MAX_BINARY_BYTES: usize = 400_000;

/// The range of `sizes` (model, bytes) and the largest, or every one
/// above [`MAX_BINARY_BYTES`].
fn size_verdict(sizes: &[(&str, usize)]) -> Result<String> {
    let above: Vec<String> =
        sizes.iter().filter(|(_, b)| *b > MAX_BINARY_BYTES).map(|(id, b)| format!("{id} {b} bytes")).collect();
    if !above.is_empty() {
        return Err(format!("above {MAX_BINARY_BYTES} bytes: {}", above.join(", ")));
    }
    let smallest = sizes.iter().map(|s| s.1).min().unwrap_or(0);
    let largest = sizes.iter().max_by_key(|s| s.1).copied().unwrap_or(("-", 0));
    Ok(format!(
        "{:.0}-{:.0} KB (largest {}; at most {:.0} KB)",
        smallest as f64 / 1e3,
        largest.1 as f64 / 1e3,
        largest.0,
        MAX_BINARY_BYTES as f64 / 1e3
    ))
}

fn file_size(file: &Path) -> Result<usize> {
    Ok(io(std::fs::metadata(file), file)?.len() as usize)
}

fn tool_output(program: &str, args: &[&str], file: &Path) -> Result<String> {
    let out = Command::new(program).args(args).arg(file).output().map_err(|e| format!("cannot run {program}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{program} {args:?} {}: {}", file.display(), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// ELF (binutils' objdump reads any ELF's dynamic section): machine, exports,
/// NEEDED libraries, newest GLIBC symbol version, stripped.
fn elf_structure(name: &str, dir: &Path, models: &[&str], machine: &str) -> Outcome {
    let name = format!("{name} structure");
    let result = (|| -> Result<String> {
        let mut newest = (0u32, 0u32);
        let mut sizes = Vec::new();
        for id in models {
            let file = dir.join(format!("{id}.so"));
            sizes.push((*id, file_size(&file)?));
            let headers = tool_output("objdump", &["-f", "-p", "-h"], &file)?;
            let symbols = tool_output("objdump", &["-T"], &file)?;
            let arch_ok = headers.lines().any(|l| l.starts_with("architecture:") && l.contains(machine))
                || (machine == "aarch64" && headers.contains("elf64-little"));
            if !arch_ok {
                return Err(format!("{id}: not {machine}"));
            }
            if headers.contains(".symtab") || headers.contains(".debug_info") {
                return Err(format!("{id}: not stripped"));
            }
            for needed in headers.lines().filter_map(|l| l.trim().strip_prefix("NEEDED")) {
                if !ELF_SYSTEM_LIBS.contains(&needed.trim()) {
                    return Err(format!("{id}: depends on {}", needed.trim()));
                }
            }
            let mut exported = BTreeSet::new();
            for line in symbols.lines() {
                if let Some(v) = line.split("GLIBC_").nth(1) {
                    let v: Vec<u32> = v
                        .split(|c: char| !c.is_ascii_digit() && c != '.')
                        .next()
                        .unwrap_or("")
                        .split('.')
                        .filter_map(|n| n.parse().ok())
                        .collect();
                    newest = newest.max((v.first().copied().unwrap_or(0), v.get(1).copied().unwrap_or(0)));
                }
                if !line.contains("*UND*") && line.contains(" g ") {
                    if let Some(sym) = line.split_whitespace().last() {
                        exported.insert(sym.to_string());
                    }
                }
            }
            check_exports(&exported).map_err(|e| format!("{id}: {e}"))?;
        }
        if newest > (2, 17) {
            return Err(format!("needs GLIBC_{}.{} (> 2.17)", newest.0, newest.1));
        }
        Ok(format!(
            "{machine}, stripped, {}, exports exactly the 44 fmi2 and 75 fmi3 functions, needs only libc/libm/libpthread/libdl, newest symbol GLIBC_{}.{}",
            size_verdict(&sizes)?,
            newest.0, newest.1
        ))
    })();
    verdict(name, result)
}

/// PE: exports and imported DLLs (no libgcc_s / libwinpthread).
fn pe_structure(dir: &Path, models: &[&str]) -> Outcome {
    let result = (|| -> Result<String> {
        let mut dlls = BTreeSet::new();
        let mut sizes = Vec::new();
        for id in models {
            let file = dir.join(format!("{id}.dll"));
            sizes.push((*id, file_size(&file)?));
            let text = tool_output("x86_64-w64-mingw32-objdump", &["-p", "-h"], &file)?;
            if !text.contains("pei-x86-64") {
                return Err(format!("{id}: not PE32+ x86-64"));
            }
            for dll in text.lines().filter_map(|l| l.trim().strip_prefix("DLL Name:")) {
                let dll = dll.trim().to_ascii_lowercase();
                if !PE_SYSTEM_DLLS.contains(&dll.as_str()) {
                    return Err(format!("{id}: imports {dll}"));
                }
                dlls.insert(dll);
            }
            if text.contains(".debug_info") {
                return Err(format!("{id}: not stripped"));
            }
            // The export name table: lines "\t[   n] name" after its heading.
            let exported: BTreeSet<String> = text
                .split("[Ordinal/Name Pointer] Table")
                .nth(1)
                .unwrap_or("")
                .lines()
                .skip(1)
                .take_while(|l| l.trim_start().starts_with('['))
                .filter_map(|l| l.split(']').nth(1).map(|s| s.trim().to_string()))
                .collect();
            check_exports(&exported).map_err(|e| format!("{id}: {e}"))?;
        }
        Ok(format!(
            "PE32+ x86-64, stripped, {}, exports exactly the 44 fmi2 and 75 fmi3 functions, imports only {}",
            size_verdict(&sizes)?,
            dlls.into_iter().collect::<Vec<_>>().join(", ")
        ))
    })();
    verdict("win64 structure".into(), result)
}

fn darwin_structure(dir: &Path, models: &[&str]) -> Outcome {
    let result = (|| -> Result<String> {
        let mut summary = String::new();
        // Per slice: each architecture's binary counts alone.
        let mut sizes: BTreeMap<&str, Vec<(&str, usize)>> = BTreeMap::new();
        for id in models {
            let file = dir.join(format!("{id}.dylib"));
            let data = io(std::fs::read(&file), &file)?;
            let slices = crate::macho::universal(&data).map_err(|e| format!("{id}: {e}"))?;
            let wanted: Vec<(&str, &str)> = DARWIN_SLICES
                .iter()
                .map(|(t, v)| (if t.starts_with("x86_64") { "x86_64" } else { "arm64" }, *v))
                .collect();
            for (arch, min_os) in &wanted {
                let s = slices.iter().find(|s| s.arch == *arch).ok_or(format!("{id}: no {arch} slice"))?;
                if s.min_os != *min_os {
                    return Err(format!("{id}: {arch} needs macOS {} (expected {min_os})", s.min_os));
                }
                if s.file_type != "dylib" {
                    return Err(format!("{id}: {arch} slice is a {}", s.file_type));
                }
                // Not the build machine's path: what an importer that links
                // the dylib records.
                if s.install_name != format!("@rpath/{id}.dylib") {
                    return Err(format!("{id}: {arch} is named {:?} (expected @rpath/{id}.dylib)", s.install_name));
                }
                for lib in &s.libraries {
                    if !MACOS_SYSTEM_LIBS.contains(&lib.as_str()) {
                        return Err(format!("{id}: {arch} links {lib}"));
                    }
                }
                let exported: BTreeSet<String> = s
                    .exports
                    .iter()
                    .filter(|e| !MACOS_LINKER_SYMBOLS.contains(&e.as_str()))
                    .map(|e| e.trim_start_matches('_').to_string())
                    .collect();
                check_exports(&exported).map_err(|e| format!("{id}: {arch}: {e}"))?;
                sizes.entry(s.arch).or_default().push((*id, s.bytes));
                if summary.len() < 400 && id == &models[0] {
                    summary += &format!(
                        "{arch} (macOS >= {}, named {}, links {}), ",
                        s.min_os,
                        s.install_name,
                        s.libraries.join(" ")
                    );
                }
            }
            if slices.len() != wanted.len() {
                return Err(format!("{id}: {} slices", slices.len()));
            }
        }
        Ok(format!(
            "NOT RUN (no macOS here): universal Mach-O dylib with {summary}slices of {}, each exporting the 44 fmi2 and 75 fmi3 functions and \
             nothing else but {}",
            sizes
                .iter()
                .map(|(arch, sizes)| size_verdict(sizes).map(|v| format!("{arch} {v}")).map_err(|e| format!("{arch}: {e}")))
                .collect::<Result<Vec<_>>>()?
                .join("; "),
            MACOS_LINKER_SYMBOLS.join(" ")
        ))
    })();
    verdict("darwin64 structure".into(), result)
}

fn verdict(name: String, result: Result<String>) -> Outcome {
    match result {
        Ok(detail) => Outcome { name, passed: Some(true), detail },
        Err(detail) => Outcome { name, passed: Some(false), detail },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_above_the_size_goal_fails_by_name() {
        let ok = size_verdict(&[("A", 300_000), ("B", 400_000)]).unwrap();
        assert_eq!(ok, "300-400 KB (largest B; at most 400 KB)");
        let err = size_verdict(&[("A", 400_001), ("B", 10), ("C", 500_000)]).unwrap_err();
        assert_eq!(err, "above 400000 bytes: A 400001 bytes, C 500000 bytes");
    }
}
