//! The call-cost bench: `fmi2DoStep` + one `fmi2GetReal` through the C ABI,
//! for our HillFrictionInertia and ConventionalCoulombBaseline binaries and for two C FMUs
//! of one first-order state (`tests/harness/c_fmu.c`, minimal bookkeeping;
//! `tests/harness/c_fmu_reference_kind.c`, the Reference-FMUs framework's
//! bookkeeping), timed by one
//! C harness (`tests/harness/call_cost.c`) in one process, interleaved, with
//! subnormals flushed. One internal model step per call for every FMU. With
//! valgrind, also the instructions per call (callgrind).

use crate::util::{root, run, Result};
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

/// The C FMUs of the bench, first in its list: (name, what the table calls it).
const YARDSTICKS: [(&str, &str); 2] =
    [("FirstOrderC", "minimal C FMU"), ("ReferenceKindC", "C FMU, Reference-FMUs bookkeeping")];

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
    /// The build with line tables to count instructions in, when it is not
    /// this build's (the rows of an earlier build, see [`earlier_build`]).
    profiled: Option<PathBuf>,
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

/// One of our models from `binary` (its own binary, or an earlier build's
/// library of every model, copied under the model's name so that it serves
/// that model only, as inside its FMU), sliding under `tau` = 2 N.m (above
/// static friction: a real step every call, no transition).
fn ours(id: &'static str, binary: &Path, dir: &Path) -> Result<Fmu> {
    let entry = fmu::registry::find(id).ok_or(format!("no model {id}"))?;
    let vars = (entry.variables)();
    let vr = |name: &str| {
        vars.iter().find(|v| v.name == name).map(|v| v.value_reference).ok_or(format!("{id} has no {name}"))
    };
    let library = dir.join(format!("{id}.so"));
    std::fs::copy(binary, &library).map_err(|e| format!("{}: {e}", library.display()))?;
    Ok(Fmu {
        name: id,
        library,
        guid: fmu::registry::guid_of(id).ok_or(format!("no GUID for {id}"))?.to_string(),
        output: vr("w")?,
        values: vec![(vr("internal_step")?, H), (vr("tau")?, 2.0)],
        profiled: None,
    })
}

/// The C yardsticks' model behind our FMI layer (`tests/yardstick`), with
/// the yardsticks' calls: the FMI bookkeeping alone against theirs.
const FIRST_ORDER: &str = "FirstOrderRust";
const FIRST_ORDER_LABEL: &str = "the C FMUs' model, our FMI layer (`tests/yardstick`)";

fn first_order(dir: &Path) -> Result<Fmu> {
    let built = crate::util::cargo()
        .current_dir(root())
        .args(["build", "--release", "--locked", "-p", "fmu-yardstick", "--lib"])
        .status()
        .map_err(|e| e.to_string())?;
    if !built.success() {
        return Err("cargo build -p fmu-yardstick failed".into());
    }
    let library = dir.join(format!("{FIRST_ORDER}.so"));
    let binary = root().join("target/release/libfmu_yardstick.so");
    std::fs::copy(&binary, &library).map_err(|e| format!("{}: {e}", binary.display()))?;
    Ok(Fmu {
        name: FIRST_ORDER,
        library,
        guid: "{first-order}".into(),
        output: 1,
        values: vec![(4, H), (2, 1.0)],
        profiled: None,
    })
}

/// `CALL_COST_BEFORE=<target dir>`: the target directory of an earlier
/// build of this crate: one binary per model (`release/examples/lib<Model>.so`,
/// and `profiled/release/examples/lib<Model>.so` built with line tables for
/// the instruction split), or from before issue 40 one of every model
/// (`release/libfmu.so`, `profiled/release/libfmu.so`), measured in the same
/// run as rows `<model>@before`, so that a change of the FMI layer is judged
/// against its predecessor on one machine at one time. The GUIDs are this
/// build's: the earlier build must declare the same variables.
///
/// An earlier build from before issue 40 has other GUIDs and numbers its
/// FMI 2.0 value references one lower: `BEFORE_GUIDS=<file>` (lines
/// `<Model> <GUID>`, from its FMUs) and `BEFORE_FMI2_VR_SHIFT=-1` say so.
fn earlier_build(dir: &Path) -> Result<Vec<Fmu>> {
    let Ok(before) = std::env::var("CALL_COST_BEFORE") else { return Ok(Vec::new()) };
    let before = PathBuf::from(before);
    let shared = before.join("release/libfmu.so");
    let per_model = |root: &Path, id: &str| root.join(format!("release/examples/lib{id}.so"));
    let own = dir.join("before");
    std::fs::create_dir_all(&own).map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for (id, label) in [
        ("HillFrictionInertia", "HillFrictionInertia@before"),
        ("ConventionalCoulombBaseline", "ConventionalCoulombBaseline@before"),
    ] {
        let (binary, profiled) = if per_model(&before, id).is_file() {
            (per_model(&before, id), per_model(&before.join("profiled"), id))
        } else if shared.is_file() {
            (shared.clone(), before.join("profiled/release/libfmu.so"))
        } else {
            return Err(format!(
                "CALL_COST_BEFORE: neither {} nor {}",
                per_model(&before, id).display(),
                shared.display()
            ));
        };
        let mut f = ours(id, &binary, &own)?;
        f.name = label;
        if let Some(guid) = before_guid(id)? {
            f.guid = guid;
        }
        let shift = before_fmi2_vr_shift()?;
        f.output = f.output.wrapping_add_signed(shift);
        for (vr, _) in &mut f.values {
            *vr = vr.wrapping_add_signed(shift);
        }
        f.profiled = profiled.is_file().then_some(profiled);
        rows.push(f);
    }
    Ok(rows)
}

/// `BEFORE_GUIDS`: the earlier build's GUID of `id`, if the file names one.
fn before_guid(id: &str) -> Result<Option<String>> {
    let Ok(file) = std::env::var("BEFORE_GUIDS") else { return Ok(None) };
    let text = std::fs::read_to_string(&file).map_err(|e| format!("BEFORE_GUIDS {file}: {e}"))?;
    Ok(text.lines().find_map(|l| l.strip_prefix(id)?.strip_prefix(' ').map(str::to_string)))
}

/// `BEFORE_FMI2_VR_SHIFT`: what to add to this build's FMI 2.0 value
/// references for the earlier build (0 unless set).
fn before_fmi2_vr_shift() -> Result<i32> {
    std::env::var("BEFORE_FMI2_VR_SHIFT").map_or(Ok(0), |s| s.parse().map_err(|e| format!("BEFORE_FMI2_VR_SHIFT: {e}")))
}

fn cc(args: &[&str], out: &Path, source: &Path, libs: &[&str]) -> Result<()> {
    run(Command::new("cc").args(args).arg("-o").arg(out).arg(source).args(libs))
}

/// The C FMU with the Reference-FMUs' bookkeeping
/// (`tests/harness/c_fmu_reference_kind.c`), built as a shared library:
/// the yardstick of this bench and of the Model Exchange bench.
pub fn reference_kind_c() -> Result<PathBuf> {
    let dir = root().join("target/call_cost");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let out = dir.join("ReferenceKindC.so");
    let source = root().join("tests/harness/c_fmu_reference_kind.c");
    cc(&[&C_FLAGS[..], &["-fPIC", "-shared"]].concat(), &out, &source, &["-lm"])?;
    Ok(out)
}

/// -O3: the optimization level of a CMake Release build (Reference-FMUs).
const C_FLAGS: [&str; 5] = ["-O3", "-std=c99", "-D_POSIX_C_SOURCE=200809L", "-Wall", "-Werror"];

/// Build everything and measure our models' binaries in `binaries` (the
/// host build's, `lib<Model>.so`); returns the markdown section.
pub fn measure(binaries: &Path) -> Result<String> {
    let binary = |id: &str| binaries.join(format!("lib{id}.so"));
    let dir = root().join("target/call_cost");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let harness_dir = root().join("tests/harness");
    let c_fmu = dir.join("FirstOrderC.so");
    let flags = C_FLAGS;
    cc(&[&flags[..], &["-fPIC", "-shared"]].concat(), &c_fmu, &harness_dir.join("c_fmu.c"), &["-lm"])?;
    let reference_kind = reference_kind_c()?;
    let harness = dir.join("call_cost");
    cc(&flags, &harness, &harness_dir.join("call_cost.c"), &["-ldl"])?;
    let mut fmus = vec![
        Fmu {
            name: "FirstOrderC",
            library: c_fmu,
            guid: "{c}".into(),
            output: 1,
            values: vec![(4, H), (2, 1.0)],
            profiled: None,
        },
        Fmu {
            name: "ReferenceKindC",
            library: reference_kind,
            guid: "{c}".into(),
            output: 1,
            values: vec![(4, H), (2, 1.0)],
            profiled: None,
        },
        first_order(&dir)?,
        ours("HillFrictionInertia", &binary("HillFrictionInertia"), &dir)?,
        ours("ConventionalCoulombBaseline", &binary("ConventionalCoulombBaseline"), &dir)?,
    ];
    fmus.extend(earlier_build(&dir)?);
    // The same rounds in a host that flushes subnormals (the table's
    // first columns) and in one in IEEE 754's default environment.
    let time = |host: &str| -> Result<String> {
        let mut cmd = Command::new(&harness);
        cmd.args(["time", &CALLS.to_string(), &ROUNDS.to_string(), &format!("{H:e}")]).env("CALL_COST_HOST", host);
        for f in &fmus {
            cmd.args(f.args());
        }
        let out = cmd.output().map_err(|e| format!("{}: {e}", harness.display()))?;
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        if !out.status.success() {
            return Err(format!("call-cost harness failed: {text}{}", String::from_utf8_lossy(&out.stderr)));
        }
        print!("{host} host:\n{text}");
        Ok(text)
    };
    let (text, default_text) = (time("flushing")?, time("default")?);
    let parse = |text: &str, name: &str| -> Result<(f64, f64)> {
        let line =
            text.lines().find(|l| l.split_whitespace().nth(1) == Some(name)).ok_or(format!("no result for {name}"))?;
        let mut w = line.split_whitespace().skip(2).map(|x| x.parse::<f64>().map_err(|e| e.to_string()));
        Ok((w.next().ok_or("short line")??, w.next().ok_or("short line")??))
    };
    // The same model gives the same outputs: the sum the harness keeps of
    // every value read, printed to 6 digits.
    let sink = |name: &str| {
        text.lines().find(|l| l.split_whitespace().nth(1) == Some(name)).and_then(|l| l.split("(sink ").nth(1))
    };
    if sink(FIRST_ORDER) != sink(YARDSTICKS[0].0) {
        return Err(format!(
            "{FIRST_ORDER} read other values than {}: sink {:?} against {:?}",
            YARDSTICKS[0].0,
            sink(FIRST_ORDER),
            sink(YARDSTICKS[0].0)
        ));
    }
    let ns = |name: &str| parse(&text, name);
    let ns_default = |name: &str| parse(&default_text, name);
    // Instructions from a build with line tables (same code, but callgrind
    // can tell the model's own step from the FMI layer by source file).
    let profiled = profiled_build(&dir);
    let counted: Vec<Option<Count>> = fmus
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let mut f = f.clone();
            if i >= YARDSTICKS.len() {
                let own = profiled.as_ref().map(|p| p.join(format!("lib{}.so", f.name)));
                if let Some(p) = f.profiled.as_ref().or(own.as_ref()) {
                    f.library = dir.join(format!("profiled_{}.so", f.name));
                    std::fs::copy(p, &f.library).ok()?;
                }
            }
            callgrind(&harness, &f, &dir)
        })
        .collect();
    // Per yardstick: median ns, instructions per call, bookkeeping (all but the harness loop).
    let mut yard = Vec::new();
    for (k, (name, _)) in YARDSTICKS.iter().enumerate() {
        let count = counted[k];
        yard.push((
            ns(name)?.0,
            count.map(|c| c.total),
            count.and_then(|c| Some(c.total - c.harness?)),
            ns_default(name)?.0,
        ));
    }
    let c_count = counted[0];
    let mut doc = format!(
        "{HEADING}\n\n`fmi2DoStep` + `fmi2GetReal` (one value), one internal model step per call ({H} s), called \
         through function pointers from `dlsym` by one C harness (`tests/harness/call_cost.c`), the FMUs in the same \
         process, {ROUNDS} interleaved rounds of {CALLS} calls, in a host that flushes subnormals (FTZ/DAZ, as code \
         built with `-ffast-math` runs) and, in a second run of the same rounds, in IEEE 754's default environment \
         (the last two columns). Our FMUs compute in the default environment whatever the host's (bit-for-bit the \
         results of a default process): a call that computes sets it and gives the host its own back, which in a \
         flushing host costs two writes of MXCSR, but for the step: in a host that only flushes (its underflow \
         flag clear, as in this harness) it runs in the host's environment and checks itself, taken again in the \
         default environment when it read or flushed a subnormal (`docs/robustness.md`); a one-value get or set \
         of a variable stored in a field computes nothing and runs in the host's. Two yardsticks, both \
         written here, both the same model (one first-order state x' = (u - x) / T, explicit Euler), both `cc -O3`:\n\n\
         - **minimal C FMU** (`tests/harness/c_fmu.c`), the leanest bookkeeping we would accept: per doStep the state \
         bit against a mask, h > 0 and t, h finite, t against the FMU's time, the end against stopTime, a loop of \
         internal steps (the Euler step inline, a sign test for the event log), a finiteness test of x; per getReal \
         the state mask, NULL checks, a switch on the value reference.\n\
         - **C FMU, Reference-FMUs bookkeeping** (`tests/harness/c_fmu_reference_kind.c`), the per-call path of the \
         Modelica Reference-FMUs framework (`src/fmi2Functions.c`, `src/cosimulation.c`, a model unit like \
         `Dahlquist/model.c`) written again here: per doStep the state mask, t against the FMU's time and the end \
         against stopTime by its closeness test (absolute or relative 1e-5), h > 0, then per internal step \
         getContinuousStates into an array, getDerivatives (through calculateValues), the Euler update over the \
         array, setContinuousStates (values marked dirty), time = start + nSteps * step, the event indicator \
         evaluated and compared with the previous one, the time-event test, the intermediate-update test; per \
         getReal the state mask, NULL checks, calculateValues when dirty, and per value reference a call of the \
         model's getFloat64 (room check, switch). The model unit's functions are real calls (separate translation \
         units there, no LTO). No finiteness test of the result (the framework has none). The loop's end test \
         uses half an internal step instead of the framework's relative 1e-5, which past t = 100 s would let an \
         extra internal step through per call.\n\n\
         Our FMUs slide under 2 N.m (a full step each call) with every check on: call sequence, arguments, the state \
         kept to restore (a copy of the model on the stack) and after the step a finiteness check of every Real \
         variable a step can write (all but the fixed parameters, which were checked when set; debug builds assert \
         after every step that it left them bit-for-bit alone).\n\n\
         Instructions per call from callgrind (`valgrind --tool=callgrind --toggle-collect=run_calls`, \
         {COUNTED_CALLS} calls), exact and independent of the machine's load (the times vary with it). Each total \
         includes the model's own step, which differs from model to model; \"own step\" is what callgrind \
         attributes to `crates/friction` and `fmu/src/models` (a build with line tables), and the FMI layer is the \
         rest minus the harness loop (`run_calls` itself, {} instructions). A C FMU's bookkeeping is its total \
         minus the harness loop, its Euler step (a few instructions) included.\n\n\
         | FMU | ns per call (median) | ns (min) | / minimal C (median ns) | / Reference-kind C (median ns) | \
         instructions per call | / minimal C | / Reference-kind C | own step | FMI layer | layer / minimal C \
         bookkeeping | layer / Reference-kind C bookkeeping | ns, default host (median) | / Reference-kind C, \
         default host |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        c_count.and_then(|c| c.harness).map(|x| format!("{x:.0}")).unwrap_or_else(|| "-".into())
    );
    let cell = |x: Option<f64>| x.map(|v| format!("{v:.0}")).unwrap_or_else(|| "-".into());
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => format!("{:.2}", a / b),
        _ => "-".into(),
    };
    for (i, f) in fmus.iter().enumerate() {
        let count = counted[i];
        let (median, min) = ns(f.name)?;
        let default = ns_default(f.name)?.0;
        let total = count.map(|c| c.total);
        let yardstick = YARDSTICKS.get(i).map(|y| y.1);
        let (own, layer) = match yardstick {
            Some(_) => (None, count.and_then(|c| Some(c.total - c.harness?))),
            None => (count.and_then(|c| c.own_step), count.and_then(|c| Some(c.total - c.own_step? - c.harness?))),
        };
        let _ = writeln!(
            doc,
            "| {} | {median:.2} | {min:.2} | {:.2} | {:.2} | {} | {} | {} | {} | {} | {} | {} | {default:.2} | {:.2} |",
            yardstick.unwrap_or(if f.name == FIRST_ORDER { FIRST_ORDER_LABEL } else { f.name }),
            median / yard[0].0,
            median / yard[1].0,
            cell(total),
            ratio(total, yard[0].1),
            ratio(total, yard[1].1),
            cell(own),
            cell(layer),
            ratio(layer, yard[0].2),
            ratio(layer, yard[1].2),
            default / yard[1].3
        );
    }
    if std::env::var_os("CALL_COST_BEFORE").is_some() {
        doc.push_str(
            "\nRows `@before`: the same two FMUs from the earlier build that `CALL_COST_BEFORE` names (their own \
             binaries, or from before issue 40 its library of every model copied under each model's name), timed \
             and counted in the same run, with its GUIDs and value references where they differ (`BEFORE_GUIDS`, \
             `BEFORE_FMI2_VR_SHIFT`).\n",
        );
    }
    doc.push_str(
        "\nReading the table: the FMI layer (everything but the model's own step and the harness loop) is the \
         per-call cost of the FMI bookkeeping, the part both kinds of FMU share; the C yardsticks' model is one \
         multiply-add, ours a friction law with its event logic (HillFrictionInertia's exact step finds stops and \
         breakaways inside the step), so the totals also compare two different physics. The row of the C FMUs' \
         model behind our FMI layer (`tests/yardstick`: the same state, step, value references and start values, \
         exported by `fmu::export_model!` as every model's binary is, its own step a handful of instructions) \
         compares the bookkeeping alone, in time: the bench checks that the sum of every value it reads is the minimal C \
         FMU's (to 6 digits).\n\n\
         History of this bench (same harness, same checks), instructions per call, total (own step, FMI layer): \
         before issue 14, HillFrictionInertia 588 (216, 350), ConventionalCoulombBaseline 434 (69, 343); then 479 (199, 258) \
         and 343 (65, 256) with the one-substep path without the substep loop, the finiteness test as one sum of \
         `x - x` over the variables a step can write, `do_step` inlined into `fmi2DoStep` and a one-value \
         `fmi2GetReal` without the loop; then the figures above with one dynamic call per FMI call \
         (`Erased::do_step` holds the argument rules, the substep count and the step, so `max_substep` and the \
         model's step inline into it; `Erased::get_one_real` answers a one-value `fmi2GetReal` without building a \
         `Result`), and no division for a step no longer than the internal step; 469 (209, 238) and 315 (68, 225) \
         before the step in a flushing host stayed in the host's environment (issue 40's second half: ten \
         instructions more per call in a default host, the choice of environment and the count of calls that \
         tells a step whether it must look at the model again; the timings callgrind cannot see, in a flushing \
         host, are the first columns); 479 (209, 248) and 325 (68, 235) before the one-value read knew its \
         binary's model (`fmu/src/ffi/known.rs`: the field read in place, no call through the vtable, so the \
         read saves one register instead of seven). The step inlined the same way was tried and left out: \
         ConventionalCoulombBaseline took 25.1 ns per call in the default host against 18.5 ns through the \
         vtable in one build, 19.5 against 18.7 in another, with two instructions fewer.\n",
    );
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
    /// In `crates/friction`, `fmu/src/models` or the yardstick's model (needs line tables).
    own_step: Option<f64>,
    /// In the harness's `run_calls` itself (the loop, the two indirect calls).
    harness: Option<f64>,
}

/// The models' binaries again, with line tables, in their own target
/// directory; the folder that holds them.
fn profiled_build(dir: &Path) -> Option<PathBuf> {
    let target = dir.join("profiled");
    let build = |args: &[&str]| {
        crate::util::cargo()
            .current_dir(root())
            .args(["build", "--release", "--locked"])
            .args(args)
            .arg("--target-dir")
            .arg(&target)
            .env("CARGO_PROFILE_RELEASE_DEBUG", "line-tables-only")
            .status()
            .is_ok_and(|s| s.success())
    };
    let ok = build(&["-p", packaging::binaries::PACKAGE, "--examples"]) && build(&["-p", "fmu-yardstick", "--lib"]);
    let examples = target.join("release/examples");
    let yardstick = target.join("release/libfmu_yardstick.so");
    (ok && std::fs::copy(yardstick, examples.join(format!("lib{FIRST_ORDER}.so"))).is_ok()).then_some(examples)
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
        own_step: sum(&|l| {
            l.contains("crates/friction/") || l.contains("fmu/src/models/") || l.contains("tests/yardstick/")
        }),
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
