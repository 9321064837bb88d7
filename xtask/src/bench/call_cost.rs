//! The call-cost bench: `fmi2DoStep` + one `fmi2GetReal` through the C ABI,
//! for our HillFrictionInertia and CoulombInertia binaries and for a minimal
//! C FMU of the Reference-FMUs kind (`tests/harness/c_fmu.c`), timed by one
//! C harness (`tests/harness/call_cost.c`) in one process, interleaved, with
//! subnormals flushed. One internal model step per call for every FMU. With
//! valgrind, also the instructions per call (callgrind).

use crate::{root, run, Result};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Communication step = internal step of every FMU (one model step per call).
const H: f64 = 1e-3;
/// Calls per timed round, and rounds (the median is reported).
const CALLS: u32 = 200_000;
const ROUNDS: u32 = 31;
/// Calls per callgrind run (instructions are counted exactly: few suffice).
const COUNTED_CALLS: u32 = 20_000;

/// The heading of the section this bench writes in docs/performance.md.
pub const HEADING: &str = "## FMI call cost against a C FMU";

#[derive(Clone)]
struct Fmu {
    name: &'static str,
    library: PathBuf,
    guid: String,
    output: u32,
    /// Real values set before initialization.
    values: Vec<(u32, f64)>,
}

impl Fmu {
    fn args(&self) -> Vec<String> {
        let mut a = vec![
            self.name.to_string(),
            self.library.display().to_string(),
            self.guid.clone(),
            self.output.to_string(),
            self.values.len().to_string(),
        ];
        for (vr, x) in &self.values {
            a.push(vr.to_string());
            a.push(format!("{x:e}"));
        }
        a
    }
}

/// One of our models, from the built binary named after it (so that it
/// serves that model only, as inside its FMU), sliding under `tau` = 2 N.m
/// (above static friction: a real step every call, no transition).
fn ours(id: &'static str, binary: &Path, dir: &Path) -> Result<Fmu> {
    let entry = fmu::models::MODELS.iter().find(|m| m.info.identifier == id).ok_or(format!("no model {id}"))?;
    let vars = (entry.variables)();
    let vr = |name: &str| {
        vars.iter().find(|v| v.name == name).map(|v| v.value_reference).ok_or(format!("{id} has no {name}"))
    };
    let library = dir.join(format!("{id}.so"));
    std::fs::copy(binary, &library).map_err(|e| format!("{}: {e}", library.display()))?;
    Ok(Fmu {
        name: id,
        library,
        guid: fmu::models::guid_of(id).ok_or(format!("no GUID for {id}"))?.to_string(),
        output: vr("w")?,
        values: vec![(vr("internal_step")?, H), (vr("tau")?, 2.0)],
    })
}

fn cc(args: &[&str], out: &Path, source: &Path, libs: &[&str]) -> Result<()> {
    run(Command::new("cc").args(args).arg("-o").arg(out).arg(source).args(libs))
}

/// Build everything and measure; returns the markdown section.
pub fn measure(binary: &Path) -> Result<String> {
    let dir = root().join("target/call_cost");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let harness_dir = root().join("tests/harness");
    let c_fmu = dir.join("FirstOrderC.so");
    // -O3: the optimization level of a CMake Release build (Reference-FMUs).
    let flags = ["-O3", "-std=c99", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Werror"];
    cc(&[&flags[..], &["-fPIC", "-shared"]].concat(), &c_fmu, &harness_dir.join("c_fmu.c"), &["-lm"])?;
    let harness = dir.join("call_cost");
    cc(&flags, &harness, &harness_dir.join("call_cost.c"), &["-ldl"])?;
    let fmus = [
        Fmu { name: "FirstOrderC", library: c_fmu, guid: "{c}".into(), output: 1, values: vec![(4, H), (2, 1.0)] },
        ours("HillFrictionInertia", binary, &dir)?,
        ours("CoulombInertia", binary, &dir)?,
    ];
    let mut cmd = Command::new(&harness);
    cmd.args(["time", &CALLS.to_string(), &ROUNDS.to_string(), &format!("{H:e}")]);
    for f in &fmus {
        cmd.args(f.args());
    }
    let out = cmd.output().map_err(|e| format!("{}: {e}", harness.display()))?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        return Err(format!("call-cost harness failed: {text}{}", String::from_utf8_lossy(&out.stderr)));
    }
    print!("{text}");
    let ns = |name: &str| -> Result<(f64, f64)> {
        let line =
            text.lines().find(|l| l.split_whitespace().nth(1) == Some(name)).ok_or(format!("no result for {name}"))?;
        let mut w = line.split_whitespace().skip(2).map(|x| x.parse::<f64>().map_err(|e| e.to_string()));
        Ok((w.next().ok_or("short line")??, w.next().ok_or("short line")??))
    };
    // Instructions from a build with line tables (same code, but callgrind
    // can tell the model's own step from the FMI layer by source file).
    let profiled = profiled_build(&dir);
    let counted: Vec<Option<Count>> = fmus
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut f = f.clone();
            if i > 0 {
                if let Some(p) = &profiled {
                    f.library = dir.join(format!("profiled_{}.so", f.name));
                    std::fs::copy(p, &f.library).ok()?;
                }
            }
            callgrind(&harness, &f, &dir)
        })
        .collect();
    let (c_median, c_min) = ns("FirstOrderC")?;
    let c_count = counted[0];
    let mut doc = format!(
        "{HEADING}\n\n`fmi2DoStep` + `fmi2GetReal` (one value), one internal model step per call ({H} s), called \
         through function pointers from `dlsym` by one C harness (`tests/harness/call_cost.c`), the FMUs in the same \
         process, {ROUNDS} interleaved rounds of {CALLS} calls, subnormals flushed (FTZ/DAZ). The yardstick is a \
         minimal C FMU written here the way the Modelica Reference-FMUs do their bookkeeping \
         (`tests/harness/c_fmu.c`: one first-order state, explicit Euler, instance struct, state mask, NULL checks, \
         logging gate; `cc -O3`). Our FMUs slide under 2 N.m (a full step each call) with every check on: \
         call sequence, arguments, a copy of the state to restore and a finiteness check of every Real variable \
         after the step.\n\n\
         Instructions per call from callgrind (`valgrind --tool=callgrind --toggle-collect=run_calls`, \
         {COUNTED_CALLS} calls), exact and independent of the machine's load (the times vary with it). Each total \
         includes the model's own step, which differs from model to model; \"own step\" is what callgrind \
         attributes to `crates/friction` and `fmu/src/models` (a build with line tables), and the FMI layer is the \
         rest minus the harness loop (`run_calls` itself, {} instructions). The C FMU's bookkeeping is its total \
         minus the harness loop, its Euler step (a few instructions) included.\n\n\
         | FMU | ns per call (median) | ns (min) | / C FMU (median) | instructions per call | / C FMU | own step | FMI layer | FMI layer / C bookkeeping |\n\
         |---|---|---|---|---|---|---|---|---|\n",
        c_count.and_then(|c| c.harness).map(|x| format!("{x:.0}")).unwrap_or_else(|| "-".into())
    );
    let cell = |x: Option<f64>| x.map(|v| format!("{v:.0}")).unwrap_or_else(|| "-".into());
    let c_total = c_count.map(|c| c.total);
    let c_bookkeeping = c_count.and_then(|c| Some(c.total - c.harness?));
    let _ = writeln!(
        doc,
        "| C FMU (first-order, Euler) | {c_median:.2} | {c_min:.2} | 1.00 | {} | 1.00 | - | {} | 1.00 |",
        cell(c_total),
        cell(c_bookkeeping)
    );
    for (f, count) in fmus.iter().zip(&counted).skip(1) {
        let (median, min) = ns(f.name)?;
        let total = count.map(|c| c.total);
        let own = count.and_then(|c| c.own_step);
        let layer = count.and_then(|c| Some(c.total - c.own_step? - c.harness?));
        let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => format!("{:.2}", a / b),
            _ => "-".into(),
        };
        let _ = writeln!(
            doc,
            "| {} | {median:.2} | {min:.2} | {:.2} | {} | {} | {} | {} | {} |",
            f.name,
            median / c_median,
            cell(total),
            ratio(total, c_total),
            cell(own),
            cell(layer),
            ratio(layer, c_bookkeeping)
        );
    }
    if c_count.is_none() {
        doc.push_str("\nInstruction counts skipped: valgrind is not installed.\n");
    } else if profiled.is_none() {
        doc.push_str("\nOwn step and FMI layer skipped: the build with line tables failed.\n");
    }
    Ok(doc)
}

#[derive(Clone, Copy)]
struct Count {
    total: f64,
    /// In `crates/friction` and `fmu/src/models` (needs line tables).
    own_step: Option<f64>,
    /// In the harness's `run_calls` itself (the loop, the two indirect calls).
    harness: Option<f64>,
}

/// The FMU binary again, with line tables, in its own target directory.
fn profiled_build(dir: &Path) -> Option<PathBuf> {
    let target = dir.join("profiled");
    let ok = crate::cargo()
        .current_dir(root())
        .args(["build", "--release", "--locked", "-p", "fmu", "--target-dir"])
        .arg(&target)
        .env("CARGO_PROFILE_RELEASE_DEBUG", "line-tables-only")
        .status()
        .is_ok_and(|s| s.success());
    ok.then(|| target.join("release/libfmu.so"))
}

/// Instructions per call under callgrind, collected inside `run_calls` only;
/// None without valgrind.
fn callgrind(harness: &Path, f: &Fmu, dir: &Path) -> Option<Count> {
    let out_file = dir.join(format!("callgrind.{}.out", f.name));
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--toggle-collect=run_calls"])
        .arg(format!("--callgrind-out-file={}", out_file.display()))
        .arg(harness)
        .args(["count", &COUNTED_CALLS.to_string(), &format!("{H:e}")])
        .args(f.args())
        .output()
        .ok()?;
    if !out.status.success() {
        println!("callgrind for {} failed: {}", f.name, String::from_utf8_lossy(&out.stderr));
        return None;
    }
    // "summary: <Ir>" or "totals: <Ir>" in the output file.
    let text = std::fs::read_to_string(&out_file).ok()?;
    let total: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("totals:").or_else(|| l.strip_prefix("summary:")))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    // Exclusive counts per file:function ("  1,720,000 (14.55%)  path:function [object]").
    let annotated = Command::new("callgrind_annotate").arg("--auto=no").arg(&out_file).output().ok();
    let annotated = annotated.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default();
    let calls = COUNTED_CALLS as f64;
    let sum = |keep: &dyn Fn(&str) -> bool| {
        let ir: f64 = annotated
            .lines()
            .filter(|l| keep(l))
            .filter_map(|l| l.split_whitespace().next()?.replace(',', "").parse::<f64>().ok())
            .sum();
        (ir > 0.0).then_some(ir / calls)
    };
    Some(Count {
        total: total / calls,
        own_step: sum(&|l| l.contains("crates/friction/") || l.contains("fmu/src/models/")),
        harness: sum(&|l| l.contains(":run_calls ")),
    })
}

/// Replace the section under [`HEADING`] in `doc` (up to the next `## `), or
/// append it.
pub fn splice(doc: &str, section: &str) -> String {
    let Some(start) = doc.find(HEADING) else {
        return format!("{}\n{section}", doc.trim_end_matches('\n').to_string() + "\n");
    };
    let after = start + HEADING.len();
    let end = doc[after..].find("\n## ").map(|i| after + i + 1).unwrap_or(doc.len());
    format!("{}{section}{}{}", &doc[..start], if end < doc.len() { "\n" } else { "" }, &doc[end..])
}
