//! The FMUs as guests in a hostile host process, in `cargo xtask test`
//! (issue 30): the C harness `tests/harness/fmu_harness.c`, natively on
//! linux64, runs every model's default experiment and every scenario (with
//! their inputs, Co-Simulation and Model Exchange) in a process that
//!
//! - flushes subnormals to zero (FTZ+DAZ) from before the library is loaded,
//! - rounds upward, downward or toward zero,
//! - traps on invalid, divide by zero and overflow,
//! - runs everything on a thread with a 64 KiB stack,
//! - runs four copies at once on four threads,
//!
//! and checks after every FMI call that the caller's floating-point
//! environment (control and status registers) is as it was. The FMU computes
//! in IEEE 754's default environment whatever the host set
//! (`fmu::ffi::float_env`), so every value the FMU computes must equal the
//! default process's bit for bit. The one thing a host mode changes is the
//! harness's own arithmetic: its Model Exchange loop integrates
//! `x += 1e-5 * der(x)` in the host's rounding or flushing, so its states may
//! drift from the default run by the rounding of that sum; they are held to
//! [`ME_RELATIVE`] of each state's scale. The default run's physics
//! assertions (the snapshot and closed-form tests) hold for these runs
//! because the values are the same.

use crate::harness::{compile_native, extract, harness_rows, plan_text, Outcome};
use crate::util::{root, Result};
use std::path::Path;
use std::process::Command;

/// The host modes besides the default, as `fmu_harness` names them.
pub const HOSTS: &[(&str, &str)] = &[
    ("ftz", "subnormals flushed to zero and treated as zero (FTZ+DAZ), set before dlopen"),
    ("upward", "rounding upward"),
    ("downward", "rounding downward"),
    ("toward_zero", "rounding toward zero"),
    ("traps", "traps on invalid, divide by zero, overflow (SIGFPE)"),
    ("stack64k", "the whole run on a thread with a 64 KiB stack"),
    ("threads", "four runs at once on four threads"),
];

/// Steps of one run at most (a long default experiment is cut there).
const MAX_STEPS: usize = 20_000;

/// The Model Exchange states of the harness's own Euler loop, integrated in
/// the host's rounding: allowed deviation relative to the state's largest
/// magnitude over the run.
pub const ME_RELATIVE: f64 = 1e-9;

/// One run of the harness: a model's default experiment or a scenario.
struct Plan {
    model: &'static str,
    name: String,
    text: String,
    /// Co-Simulation columns (the outputs); the rest are ME states and derivatives.
    outputs: usize,
}

fn plans() -> Result<Vec<Plan>> {
    let mut plans = Vec::new();
    for (index, m) in fmu::registry::MODELS.iter().enumerate() {
        let outputs = (m.variables)().iter().filter(|v| v.causality == fmu::description::Causality::Output).count();
        let e = m.info.default_experiment;
        let steps = |stop: f64, h: f64| (((stop / h).round() as usize).max(2)).min(MAX_STEPS);
        plans.push(Plan {
            model: m.info.identifier,
            name: "default experiment".into(),
            text: plan_text(
                index,
                &[],
                m.info.default_inputs,
                e.step_size,
                steps(e.stop_time - e.start_time, e.step_size),
            )?,
            outputs,
        });
        for s in fmu::scenarios::all().into_iter().filter(|s| s.model == m.info.identifier) {
            plans.push(Plan {
                model: m.info.identifier,
                name: s.name.into(),
                text: plan_text(index, s.parameters, s.inputs, s.step_size, steps(s.stop_time, s.step_size))?,
                outputs,
            });
        }
    }
    Ok(plans)
}

/// Rows of bits, one per step.
type Rows = Vec<Vec<u64>>;

fn run(harness: &Path, dir: &Path, plan: &Plan, host: &str) -> Result<Rows> {
    let file = dir.join(format!("{}-{}.plan", plan.model, plan.name.replace(' ', "_")));
    std::fs::write(&file, &plan.text).map_err(|e| format!("{}: {e}", file.display()))?;
    let out = Command::new(harness)
        .arg(format!("./{}.so", plan.model))
        .arg(&file)
        .arg(host)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run the harness: {e}"))?;
    harness_rows(&out, &format!("{} {} in host {host}", plan.model, plan.name))
}

/// What one host mode gave over all plans.
#[derive(Default)]
struct Tally {
    runs: usize,
    cs_equal: usize,
    cs_total: usize,
    me_equal: usize,
    me_total: usize,
    me_worst: f64,
    bad: Vec<String>,
}

fn compare(plan: &Plan, reference: &Rows, rows: &Rows, tally: &mut Tally) {
    tally.runs += 1;
    if reference.len() != rows.len() {
        tally.bad.push(format!("{} {}: {} rows, expected {}", plan.model, plan.name, rows.len(), reference.len()));
        return;
    }
    let width = reference.first().map_or(0, Vec::len);
    // Scale of each ME column: its largest magnitude in the default run.
    let scale: Vec<f64> = (0..width)
        .map(|i| reference.iter().map(|r| f64::from_bits(r[i]).abs()).fold(0.0, f64::max).max(f64::MIN_POSITIVE))
        .collect();
    for (k, (a, b)) in reference.iter().zip(rows).enumerate() {
        for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
            let cs = i < plan.outputs;
            if cs {
                tally.cs_total += 1;
            } else {
                tally.me_total += 1;
            }
            if x == y {
                if cs {
                    tally.cs_equal += 1;
                } else {
                    tally.me_equal += 1;
                }
                continue;
            }
            let (x, y) = (f64::from_bits(x), f64::from_bits(y));
            let relative = (x - y).abs() / scale[i];
            if cs || !(relative <= ME_RELATIVE) {
                if tally.bad.len() < 5 {
                    tally.bad.push(format!(
                        "{} {} step {k} {} column {i}: {x:e} vs {y:e}",
                        plan.model,
                        plan.name,
                        if cs { "CS" } else { "ME" }
                    ));
                }
            } else {
                tally.me_worst = tally.me_worst.max(relative);
            }
        }
    }
}

/// Every host mode over every plan; one outcome per mode.
pub fn check(fmus: &Path) -> Result<Vec<Outcome>> {
    let dir = root().join("target/hostile-host");
    let _ = std::fs::remove_dir_all(&dir);
    let linux = extract(fmus, "linux64", ".so", &dir)?;
    let harness = compile_native(&linux)?;
    let plans = plans()?;
    let models = fmu::registry::MODELS.len();
    let scenarios = plans.len() - models;
    let references = plans.iter().map(|p| run(&harness, &linux, p, "default")).collect::<Result<Vec<_>>>()?;
    let mut outcomes = Vec::new();
    for (host, what) in HOSTS {
        let mut tally = Tally::default();
        for (plan, reference) in plans.iter().zip(&references) {
            match run(&harness, &linux, plan, host) {
                Ok(rows) => compare(plan, reference, &rows, &mut tally),
                Err(e) => {
                    tally.runs += 1;
                    tally.bad.push(e)
                }
            }
        }
        let me = if tally.me_equal == tally.me_total {
            format!("ME {} values bitwise equal", tally.me_total)
        } else {
            format!(
                "ME {} of {} values bitwise equal, the rest within {:.1e} of the state's scale (the harness's own Euler sum in the host's mode; limit {ME_RELATIVE:e})",
                tally.me_equal, tally.me_total, tally.me_worst
            )
        };
        outcomes.push(Outcome {
            name: format!("hostile host {host} ({what})"),
            passed: Some(tally.bad.is_empty()),
            detail: format!(
                "{} runs ({models} default experiments + {scenarios} scenarios), every FMI call left the caller's floating-point environment unchanged; CS {} of {} values bitwise equal to the default process (FMI 3.0's equal to FMI 2.0's in each run); {me}{}",
                tally.runs,
                tally.cs_equal,
                tally.cs_total,
                if tally.bad.is_empty() { String::new() } else { format!("; FAILED: {}", tally.bad.join("; ")) }
            ),
        });
    }
    Ok(outcomes)
}
