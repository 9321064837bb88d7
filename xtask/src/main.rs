//! Build automation for the workspace (the rust-analyzer `xtask` pattern): a
//! thin command line over the builds, the checks and the `packaging` crate,
//! which makes what ships (archives, pages, SSP systems, figures).
//!
//! - `cargo xtask fmu [--host]` — build the FMI binary in release for every
//!   platform (`--host`: linux64 for this machine only) and package one
//!   `<ModelIdentifier>.fmu` per model into `target/fmu/`, and the
//!   scenarios' FMI cross-check files (`<Model>_in.csv`, `<Model>_ref.opt`)
//!   beside them and per scenario in `target/fmu/scenarios/<name>/`, and
//!   the SSP systems of `packaging::ssp` (`target/fmu/<System>.ssp`).
//! - `cargo xtask docs` — regenerate `docs/models.md` from the declarations
//!   and `fmu/src/dependencies/measured.rs` from the models (`<ModelStructure>`).
//! - `cargo xtask test` — provision the importers (FMPy, libclang for the
//!   `fmi` crate) in `target/venv`, build the FMUs, run every test, the
//!   valgrind memcheck and a bounded fuzz run.
//! - `cargo xtask hostile-host` — the linux64 FMUs in hostile host processes
//!   (flushed subnormals, rounding modes, traps, a small stack, threads).
//! - `cargo xtask fuzz [SECONDS | --runs N] [--jobs J]` — the libFuzzer target
//!   alone (default 60 s; `--runs N`: N executions, however long they take;
//!   `--jobs J`: J processes in libFuzzer's fork mode).
//! - `cargo xtask bench [call-cost | model-exchange | fmi-overhead]` — benches;
//!   writes docs/performance.md and its plot (`call-cost`: only the FMI call
//!   cost against a C FMU; `model-exchange`: only the Model Exchange evaluation
//!   cost; `fmi-overhead`: only FMI 2.0's and FMI 3.0's set + step + get).
//! - `cargo xtask plots` — run every scenario in-process and render its
//!   figure into `docs/figures/<figure>.png` (`packaging::plots`).

mod bench;
mod cross_tools;
mod harness;
mod hostile_host;
mod macho;
mod platform_check;
mod platforms;
mod provision;
mod util;

use std::process::{Command, ExitCode};

use util::{cargo, root, run, Result};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("fmu") => {
            util::warn_if_disk_low(&root(), 6, "`cargo xtask fmu`");
            platforms::build_fmus(args.get(1).is_some_and(|a| a == "--host")).map(|_| ())
        }
        Some("docs") => write_docs(),
        Some("test") => test(&args[1..]),
        Some("platform-check") => platform_check::report(&platforms::fmu_dir()).map(|_| ()),
        Some("hostile-host") => hostile_host::check(&platforms::fmu_dir()).map(|outcomes| {
            for o in outcomes {
                let verdict = match o.passed {
                    Some(true) => "ok",
                    Some(false) => "FAILED",
                    None => "SKIPPED",
                };
                println!("{}: {verdict}: {}", o.name, o.detail);
            }
        }),
        Some("bench") => bench::bench(&args[1..]),
        Some("plots") => packaging::plots::plots(),
        Some("fuzz") => {
            // `--jobs J`: libFuzzer's fork mode, J processes sharing one corpus
            // (the executions counted are the sum over them).
            let (jobs, rest): (u32, Vec<&str>) = match args.iter().position(|a| a == "--jobs") {
                Some(i) => (
                    args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(0),
                    args[1..].iter().enumerate().filter(|(k, _)| *k + 1 != i && *k != i).map(|(_, a)| a.as_str()).collect(),
                ),
                None => (1, args[1..].iter().map(String::as_str).collect()),
            };
            let usage = "usage: cargo xtask fuzz [SECONDS | --runs N] [--jobs J]";
            let budget = match (rest.first().copied(), rest.get(1).and_then(|s| s.parse().ok())) {
                (Some("--runs"), Some(runs)) => Ok(FuzzBudget::Runs(runs)),
                (Some(s), _) => s.parse().map(FuzzBudget::Seconds).map_err(|_| usage.to_string()),
                (None, _) => Ok(FuzzBudget::Seconds(60)),
            };
            match budget {
                Ok(budget) if jobs >= 1 => fuzz(budget, jobs).and_then(|findings| {
                    if findings.is_empty() {
                        Ok(())
                    } else {
                        Err(findings.join("\n"))
                    }
                }),
                _ => Err(usage.into()),
            }
        }
        _ => {
            Err("usage: cargo xtask <fmu [--host] | docs | test [cargo test args] | platform-check | hostile-host | fuzz [seconds | --runs N] [--jobs J] | bench [call-cost | model-exchange | fmi-overhead] | plots>"
                .into())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn write_docs() -> Result<()> {
    // The models' dependencies, measured (`<ModelStructure>` and the pages
    // are made from them), kept as source: first, since the text below
    // needs them compiled in.
    let path = root().join("fmu/src/dependencies/measured.rs");
    let measured: Vec<_> = fmu::registry::MODELS.iter().map(|m| (m.measure_dependencies)()).collect();
    for (m, why) in measured.iter().flat_map(|m| m.skipped.iter().map(move |s| (m.model, s))) {
        println!("{m}: dependencies not measured on {why}");
    }
    std::fs::write(&path, fmu::dependencies::rust_source(&measured)).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("wrote {}", path.display());
    let stale = measured.iter().any(|m| fmu::dependencies::kept(m.model).is_none_or(|kept| !m.matches(kept)));
    if stale {
        // A new or changed model: this build holds the old measurement, so
        // the text is written by the next build (once: it holds the new one).
        if std::env::var_os("XTASK_DOCS_REBUILT").is_some() {
            return Err("the measured dependencies changed again after a rebuild".into());
        }
        println!("the measurement changed: rebuilding to write docs/models.md from it");
        let status = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["run", "-q", "-p", "xtask", "--", "docs"])
            .env("XTASK_DOCS_REBUILT", "1")
            .current_dir(root())
            .status()
            .map_err(|e| e.to_string())?;
        return if status.success() { Ok(()) } else { Err("cargo xtask docs (second pass) failed".into()) };
    }
    let path = root().join("docs/models.md");
    std::fs::create_dir_all(path.parent().unwrap()).map_err(|e| e.to_string())?;
    std::fs::write(&path, fmu::registry::models_markdown()).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("wrote {}", path.display());
    // The models' binaries carry their GUIDs, which the declarations and
    // the measurement decide: a new or changed model gets its source here
    // too (`cargo xtask fmu` writes them as well).
    let rewritten = packaging::binaries::write(&root())?;
    if !rewritten.is_empty() {
        println!("rewrote {}: {}", packaging::binaries::FOLDER, rewritten.join(", "));
    }
    Ok(())
}

/// How long a fuzz run goes.
#[derive(Clone, Copy)]
enum FuzzBudget {
    Seconds(u32),
    Runs(u64),
}

/// Build the libFuzzer targets with coverage instrumentation (stable flags:
/// sancov without a sanitizer) and run each for the budget (FMI 2.0's
/// functions, then FMI 3.0's); what they found, one line each (none: all
/// clean). The corpora live in `target/fuzz-corpus` and
/// `target/fuzz-corpus-fmi3`.
fn fuzz(budget: FuzzBudget, jobs: u32) -> Result<Vec<String>> {
    let dir = root().join("tests/fuzz");
    let target_dir = root().join("target/fuzz");
    let flags = [
        "-Cpasses=sancov-module",
        "-Cllvm-args=-sanitizer-coverage-level=4",
        "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
        "-Cllvm-args=-sanitizer-coverage-pc-table",
        "-Cllvm-args=-sanitizer-coverage-trace-compares",
        "--cfg",
        "fuzzing",
    ];
    // An explicit --target keeps the instrumentation off build scripts.
    run(cargo()
        .current_dir(&dir)
        .args(["build", "--release", "--target", "x86_64-unknown-linux-gnu", "--target-dir"])
        .arg(&target_dir)
        .env("RUSTFLAGS", flags.join(" ")))?;
    let budget_text = match budget {
        FuzzBudget::Seconds(seconds) => format!("{seconds} s"),
        FuzzBudget::Runs(runs) => format!("{runs} executions"),
    } + &if jobs > 1 { format!(" in {jobs} jobs") } else { String::new() };
    let mut findings = Vec::new();
    // FMI 2.0's functions and FMI 3.0's, each target with its own corpus.
    for (target, corpus, standard) in
        [("call_sequences", "fuzz-corpus", "fmi2"), ("fmi3_call_sequences", "fuzz-corpus-fmi3", "fmi3")]
    {
        let corpus = root().join("target").join(corpus);
        std::fs::create_dir_all(&corpus).map_err(|e| e.to_string())?;
        let binary = target_dir.join("x86_64-unknown-linux-gnu/release").join(target);
        let before = fuzz_artifacts()?;
        let mut child = Command::new(&binary)
            .arg(&corpus)
            .arg(match budget {
                FuzzBudget::Seconds(seconds) => format!("-max_total_time={seconds}"),
                FuzzBudget::Runs(runs) => format!("-runs={runs}"),
            })
            // Long inputs are long call sequences: let them grow early.
            .args([
                &format!("-timeout={FUZZ_TIMEOUT}"),
                "-rss_limit_mb=2048",
                "-print_final_stats=1",
                "-max_len=2048",
                "-len_control=10",
            ])
            // Fork mode counts a timeout and goes on (a child starved of CPU by
            // another job is not a hang); a crash still stops the run.
            .args(if jobs > 1 { vec![format!("-fork={jobs}")] } else { vec![] })
            .arg(format!("-artifact_prefix={}/", root().join("target").display()))
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run the fuzz target {target}: {e}"))?;
        // Echoed as it comes; what a finding says of itself is kept, to be
        // said again where a log's last lines show it.
        let what_it_said = finding_lines(child.stderr.take().expect("piped"))?;
        let status = child.wait().map_err(|e| e.to_string())?;
        let found: Vec<_> = fuzz_artifacts()?.into_iter().filter(|a| !before.contains(a)).collect();
        let ok = status.success() || (!found.is_empty() && found.iter().all(|a| timeout_not_reproduced(&binary, a)));
        println!(
            "fuzz {standard}* ({budget_text} over all models): {}",
            if status.success() {
                "no crash, hang or panic"
            } else if ok {
                "no crash, hang or panic (the timeout above did not reproduce: see the re-run)"
            } else {
                "FOUND A PROBLEM (the input is printed above in hex, and kept as target/<kind>-<sha1>)"
            }
        );
        if !ok {
            let names: Vec<_> = found.iter().filter_map(|a| a.file_name()).map(|n| n.to_string_lossy()).collect();
            findings.push(format!(
                "fuzz {standard}*: {status}; input {}; it said: {}",
                if names.is_empty() { "none written".into() } else { names.join(", ") },
                if what_it_said.is_empty() { "nothing of its finding".into() } else { what_it_said.join(" | ") }
            ));
        }
    }
    Ok(findings)
}

/// Echo a fuzz target's standard error line by line, and keep what a
/// finding says of itself: a panic's place and message (to the backtrace),
/// libFuzzer's error and summary lines.
fn finding_lines(stderr: impl std::io::Read) -> Result<Vec<String>> {
    use std::io::BufRead;
    let mut reader = std::io::BufReader::new(stderr);
    let (mut kept, mut in_panic, mut raw) = (Vec::new(), false, Vec::new());
    loop {
        raw.clear();
        if reader.read_until(b'\n', &mut raw).map_err(|e| e.to_string())? == 0 {
            return Ok(kept);
        }
        let line = String::from_utf8_lossy(&raw);
        let line = line.trim_end();
        eprintln!("{line}");
        if line.contains("panicked at") {
            in_panic = true;
        } else if line.starts_with("stack backtrace:") || line.starts_with("note: ") {
            in_panic = false;
        }
        let libfuzzer =
            line.contains("ERROR: libFuzzer") || line.starts_with("SUMMARY: libFuzzer") || line.contains("ALARM:");
        if (in_panic || libfuzzer) && kept.len() < 12 {
            kept.push(line.to_string());
        }
    }
}

/// libFuzzer's limit on one input (s). It measures the wall clock
/// (`system_clock`), so a stalled machine or a clock step looks like a hang
/// too: [`timeout_not_reproduced`] tells them apart.
const FUZZ_TIMEOUT: u32 = 10;

/// The inputs libFuzzer has written into `target/` (`crash-`, `timeout-`,
/// `oom-`, `leak-`, `slow-unit-` and its SHA-1).
fn fuzz_artifacts() -> Result<Vec<std::path::PathBuf>> {
    let kinds = ["crash-", "timeout-", "oom-", "leak-", "slow-unit-"];
    let entries = std::fs::read_dir(root().join("target")).map_err(|e| e.to_string())?;
    Ok(entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| kinds.iter().any(|k| n.starts_with(k))))
        .collect())
}

/// Print a finding's input in hex (CI keeps the log, not `target/`:
/// `xxd -r -p` turns it back into the file), then, for a timeout, run that
/// input alone once more under the same limit, timed by a monotonic clock.
/// True only for a timeout whose input then runs through in under a tenth
/// of the limit: not a hang, nor a slow input, but a run whose wall clock
/// jumped or whose process was stopped. Anything else is a finding.
fn timeout_not_reproduced(binary: &std::path::Path, artifact: &std::path::Path) -> bool {
    let name = artifact.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let bytes = std::fs::read(artifact).unwrap_or_default();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    println!("fuzz finding {name} ({} bytes, hex): {hex}", bytes.len());
    if !name.starts_with("timeout-") {
        return false;
    }
    let started = std::time::Instant::now();
    let status = Command::new(binary)
        .arg(artifact)
        .arg(format!("-timeout={FUZZ_TIMEOUT}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    let seconds = started.elapsed().as_secs_f64();
    let passed = status.as_ref().is_ok_and(|s| s.success());
    let quick = passed && seconds < FUZZ_TIMEOUT as f64 / 10.0;
    println!(
        "fuzz re-run of {name} alone: {} in {seconds:.3} s (monotonic clock): {}",
        if passed { "ran through" } else { "failed again" },
        if quick { "the timeout does not reproduce" } else { "it reproduces (a hang or a slow input)" }
    );
    quick
}

/// Run the memcheck harness under valgrind; true when clean.
fn memcheck(fmus: &std::path::Path, env: &provision::TestEnv) -> Result<bool> {
    let mut build = cargo();
    build
        .current_dir(root())
        .args(["build", "--locked", "-p", "fmu-tests", "--bin", "memcheck"])
        .env("LIBCLANG_PATH", &env.libclang_dir);
    if let Some(args) = &env.bindgen_args {
        build.env("BINDGEN_EXTRA_CLANG_ARGS", args);
    }
    run(&mut build)?;
    provision::valgrind()?;
    let status = Command::new("valgrind")
        .args(["-q", "--error-exitcode=1", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect"])
        .arg(root().join("target/debug/memcheck"))
        .arg("10")
        .env("FMU_DIR", fmus)
        .status()
        .map_err(|e| format!("cannot run valgrind (it is on every machine of this project's kind): {e}"))?;
    println!(
        "memcheck (valgrind, 10 rounds per FMU): {}",
        if status.success() { "no errors, no leaks" } else { "FAILED" }
    );
    Ok(status.success())
}

fn test(extra: &[String]) -> Result<()> {
    util::warn_if_disk_low(&root(), 12, "`cargo xtask test`");
    let env = provision::provision()?;
    // OpenModelica's simulator for the tests that import the FMUs with it:
    // the binary `OMSIMULATOR` names (nothing builds it here); without it
    // those tests say they skipped and why.
    let omsimulator = provision::omsimulator();
    match &omsimulator {
        Ok(path) => println!("OMSimulator: {}", path.display()),
        Err(why) => println!("OMSimulator: {why}"),
    }
    // A selection of tests (extra args) is the development loop: host only.
    let full = extra.is_empty();
    let fmus = platforms::build_fmus(!full)?;
    // Debian's Chromium renders one FMU's documentation in a test; without
    // it (not root, no apt) that test says it skipped.
    if full {
        if let Err(e) = cross_tools::apt(&["chromium"]) {
            println!("documentation screenshot will be skipped: {e}");
        }
    }
    let mut cmd = cargo();
    cmd.current_dir(root())
        .args(["test", "--workspace", "--locked"])
        // The models' binaries were built above, in release, as they ship;
        // a debug build of the 26 would test nothing more.
        .args(["--exclude", packaging::binaries::PACKAGE])
        .args(extra)
        .env("FMU_DIR", &fmus)
        .env("FMPY_PYTHON", &env.python)
        .env("LIBCLANG_PATH", &env.libclang_dir)
        .stdout(std::process::Stdio::piped());
    match &omsimulator {
        Ok(path) => cmd.env("OMSIMULATOR", path),
        Err(why) => cmd.env_remove("OMSIMULATOR").env("OMSIMULATOR_SKIPPED", why),
    };
    if let Some(args) = &env.bindgen_args {
        cmd.env("BINDGEN_EXTRA_CLANG_ARGS", args);
    }
    let mut child = cmd.spawn().map_err(|e| format!("cannot run cargo test: {e}"))?;
    // Echo the output and add up the per-binary results into one closing line.
    let (mut passed, mut failed, mut ignored) = (0u64, 0u64, 0u64);
    let stdout = child.stdout.take().expect("piped");
    for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
        let line = line.map_err(|e| e.to_string())?;
        println!("{line}");
        if let Some(rest) = line.strip_prefix("test result: ") {
            let count = |word: &str| {
                rest.split([';', '.'])
                    .find_map(|part| part.trim().strip_suffix(word).and_then(|n| n.trim().parse::<u64>().ok()))
                    .unwrap_or(0)
            };
            passed += count("passed");
            failed += count("failed");
            ignored += count("ignored");
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    // Memory: instantiate/step/state/free loops through every FMU binary
    // under valgrind memcheck; any invalid access or leak fails.
    // And a bounded fuzz run of the C ABI (the long runs: `cargo xtask fuzz N`).
    let memcheck_ok = !full || (status.success() && memcheck(&fmus, &env)?);
    let fuzz_findings = if full && status.success() { fuzz(FuzzBudget::Seconds(90), 1)? } else { Vec::new() };
    let fuzz_ok = !full || (status.success() && fuzz_findings.is_empty());
    // Every platform's binary run (wine, qemu) or checked (darwin64).
    let mut platforms_ok = true;
    if full && status.success() {
        let (p, f, s) = platform_check::report(&fmus)?;
        (passed, failed, ignored) = (passed + p, failed + f, ignored + s);
        platforms_ok = f == 0;
    }
    if full {
        for ok in [memcheck_ok, fuzz_ok] {
            if ok {
                passed += 1
            } else {
                failed += 1
            }
        }
    }
    println!("tests: {passed} passed, {failed} failed, {ignored} skipped");
    // Said again last: a log's tail shows what the fuzz run found.
    for finding in &fuzz_findings {
        println!("{finding}");
    }
    if !full {
        println!(
            "memcheck, the fuzz run and the platform check: skipped, test arguments were given (the development \
             loop, host FMUs only); `cargo xtask test` alone runs them"
        );
    }
    if status.success() && memcheck_ok && fuzz_ok && platforms_ok {
        Ok(())
    } else {
        let said = |ok: bool| match (full, ok) {
            (false, _) => "skipped",
            (true, true) => "passed",
            (true, false) => "failed",
        };
        Err(format!(
            "cargo test: {status}; memcheck {}; fuzz {}; platforms {}",
            said(memcheck_ok),
            said(fuzz_ok),
            said(platforms_ok)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::{finding_lines, timeout_not_reproduced};

    /// What a finding says of itself is kept (a panic's place and message,
    /// libFuzzer's error and summary), the backtrace and the progress not.
    #[test]
    fn a_finding_keeps_its_own_words() {
        let stderr = "#396402\tREDUCE cov: 16647 ft: 57703\n\
            thread '<unnamed>' (32219) panicked at src/call_sequences.rs:280:13:\n\
            assertion `left == right` failed: a call changed the host's floating-point modes (op 20)\n  \
            left: 8064\n  right: 40896\nstack backtrace:\n   0: __rustc::rust_begin_unwind\n\
            ==32219== ERROR: libFuzzer: deadly signal\nNOTE: libFuzzer has rudimentary signal handlers.\n\
            SUMMARY: libFuzzer: deadly signal\nstat::number_of_executed_units: 396432\n";
        let kept = finding_lines(stderr.as_bytes()).unwrap();
        assert_eq!(
            kept,
            [
                "thread '<unnamed>' (32219) panicked at src/call_sequences.rs:280:13:",
                "assertion `left == right` failed: a call changed the host's floating-point modes (op 20)",
                "  left: 8064",
                "  right: 40896",
                "==32219== ERROR: libFuzzer: deadly signal",
                "SUMMARY: libFuzzer: deadly signal",
            ]
        );
        assert!(finding_lines("#2\tINITED cov: 7700\nDone 381384 runs in 91 second(s)\n".as_bytes())
            .unwrap()
            .is_empty());
    }

    /// A timeout passes only if its input then runs through quickly; a crash
    /// or a timeout that fails again is a finding.
    #[test]
    fn only_a_timeout_that_runs_through_alone_is_forgiven() {
        let dir = std::env::temp_dir().join(format!("xtask-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (timeout, crash) = (dir.join("timeout-0a"), dir.join("crash-0a"));
        std::fs::write(&timeout, [1u8, 2]).unwrap();
        std::fs::write(&crash, [1u8, 2]).unwrap();
        let (passes, fails) = (std::path::Path::new("/bin/true"), std::path::Path::new("/bin/false"));
        assert!(timeout_not_reproduced(passes, &timeout));
        assert!(!timeout_not_reproduced(fails, &timeout));
        assert!(!timeout_not_reproduced(passes, &crash));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
