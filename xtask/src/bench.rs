//! `cargo xtask bench`: run the benches, write docs/performance.md (tables,
//! ratios measured in one run) and docs/error_vs_step.svg.

use crate::util::{cargo, root, run, Result};
use crate::{platforms, provision};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::Command;

mod call_cost;

/// Mean of a criterion benchmark in ns, from its estimates.json.
fn mean_ns(group: &str, name: &str) -> Option<f64> {
    // criterion files "group/name" benchmarks under target/criterion/group_name.
    let path = root().join("target/criterion").join(format!("{group}_{name}")).join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    // {"mean":{"confidence_interval":{...},"point_estimate":12.3,...
    let mean = &text[text.find("\"mean\"")?..];
    let at = mean.find("\"point_estimate\":")? + "\"point_estimate\":".len();
    mean[at..].split([',', '}']).next()?.trim().parse().ok()
}

/// The heading of the Model Exchange evaluation-cost section.
const MODEL_EXCHANGE_HEADING: &str = "## Model Exchange evaluation cost";

/// `cargo xtask bench [call-cost | model-exchange | fmi-overhead]`: everything,
/// or only the call-cost bench, the Model Exchange bench or the FMI overhead
/// bench (its section of docs/performance.md is replaced in place).
pub fn bench(args: &[String]) -> Result<()> {
    if args.first().is_some_and(|a| a == "call-cost") {
        let section = call_cost_section()?;
        return splice_call_cost(&section);
    }
    let env = provision::provision()?;
    let fmus = platforms::build_fmus(true)?;
    let model_exchange = |env: &provision::TestEnv| -> Result<String> {
        let mut bench = cargo();
        bench
            .current_dir(root())
            .args(["bench", "--locked", "-p", "fmu-tests", "--bench", "model_exchange_cost"])
            .env("FMU_DIR", &fmus)
            .env("REFERENCE_KIND_C", call_cost::reference_kind_c()?)
            .env("LIBCLANG_PATH", &env.libclang_dir);
        if let Some(args) = &env.bindgen_args {
            bench.env("BINDGEN_EXTRA_CLANG_ARGS", args);
        }
        let out = bench.output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!("Model Exchange bench failed: {}", String::from_utf8_lossy(&out.stderr)));
        }
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let start = text.find(MODEL_EXCHANGE_HEADING).ok_or("the Model Exchange bench printed no section")?;
        Ok(text[start..].trim_end().to_string() + "\n")
    };
    // An fmu-tests bench that loads the built FMUs through the fmi crate.
    let fmu_bench = |name: &str| {
        let mut bench = cargo();
        bench
            .current_dir(root())
            .args(["bench", "--locked", "-p", "fmu-tests", "--bench", name])
            .env("FMU_DIR", &fmus)
            .env("LIBCLANG_PATH", &env.libclang_dir);
        if let Some(args) = &env.bindgen_args {
            bench.env("BINDGEN_EXTRA_CLANG_ARGS", args);
        }
        bench
    };
    if args.first().is_some_and(|a| a == "fmi-overhead") {
        run(&mut fmu_bench("fmi_overhead"))?;
        return splice_section(FMI_OVERHEAD_HEADING, &fmi_overhead_section());
    }
    if args.first().is_some_and(|a| a == "model-exchange") {
        let section = model_exchange(&env)?;
        return splice_section(MODEL_EXCHANGE_HEADING, &section);
    }
    run(cargo().current_dir(root()).args(["bench", "--locked", "-p", "friction", "--bench", "step_cost"]))?;
    run(&mut fmu_bench("fmi_overhead"))?;
    // The co-simulation accuracy study; its markdown goes at the end of the page.
    let cosim = fmu_bench("cosim_accuracy").output().map_err(|e| e.to_string())?;
    if !cosim.status.success() {
        return Err(format!("co-simulation study failed: {}", String::from_utf8_lossy(&cosim.stderr)));
    }
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root())
        .args(["bench", "--locked", "-p", "friction", "--bench", "accuracy_and_scaling"])
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("accuracy bench failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let study = String::from_utf8_lossy(&out.stdout).into_owned();
    let call_cost = call_cost_section()?;
    write_doc(&study)?;
    let mut doc = std::fs::read_to_string(root().join("docs/performance.md")).map_err(|e| e.to_string())?;
    doc.push('\n');
    doc.push_str(&String::from_utf8_lossy(&cosim.stdout));
    std::fs::write(root().join("docs/performance.md"), doc).map_err(|e| e.to_string())?;
    splice_call_cost(&call_cost)?;
    splice_section(MODEL_EXCHANGE_HEADING, &model_exchange(&env)?)
}

/// Replace the section under `heading` in docs/performance.md (or append
/// it): up to the next heading of any level (the sections written here have
/// none of their own; the accuracy study's `###` headings follow the FMI
/// overhead section's table).
fn splice_section(heading: &str, section: &str) -> Result<()> {
    let path = root().join("docs/performance.md");
    let doc = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let new = match doc.find(heading) {
        None => format!("{}\n\n{section}", doc.trim_end()),
        Some(start) => {
            let after = start + heading.len();
            let end = doc[after..].find("\n#").map(|i| after + i + 1).unwrap_or(doc.len());
            format!("{}{section}{}{}", &doc[..start], if end < doc.len() { "\n" } else { "" }, &doc[end..])
        }
    };
    std::fs::write(&path, new).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("wrote the section \"{heading}\" of docs/performance.md");
    Ok(())
}

/// The release binaries (as packaged for linux64) against the C FMU.
fn call_cost_section() -> Result<String> {
    crate::platforms::host()?;
    call_cost::measure(&crate::platforms::host_binaries())
}

fn splice_call_cost(section: &str) -> Result<()> {
    let path = root().join("docs/performance.md");
    let doc = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(&path, call_cost::splice(&doc, section)).map_err(|e| format!("{}: {e}", path.display()))?;
    println!("wrote the call-cost section of docs/performance.md");
    Ok(())
}

/// The heading of the FMI overhead section.
const FMI_OVERHEAD_HEADING: &str = "## FMI overhead";

/// The FMI overhead section, from the estimates of `tests/benches/fmi_overhead.rs`
/// (and the earlier build it was given, `FMI_OVERHEAD_BEFORE`).
fn fmi_overhead_section() -> String {
    let mut doc = String::new();
    let core = mean_ns("hill", "core_step_and_read").unwrap_or(f64::NAN);
    // What the earlier build is: `BEFORE_LABEL` (a commit, say), else its path.
    let before = match (std::env::var("BEFORE_LABEL"), std::env::var_os("FMI_OVERHEAD_BEFORE")) {
        (_, None) => " In this run no earlier build was given.".into(),
        (Ok(label), Some(_)) => format!(" In this run \"before\" is {label}."),
        (Err(_), Some(path)) => format!(" In this run \"before\" is `{}`.", std::path::Path::new(&path).display()),
    };
    let _ = write!(
        doc,
        "{FMI_OVERHEAD_HEADING}\n\nHillFrictionInertia, one internal substep per communication step: `fmi2SetReal` (input) + \
         `fmi2DoStep` + `fmi2GetReal`, and FMI 3.0's `fmi3SetFloat64` + `fmi3DoStep` + `fmi3GetFloat64`, through the \
         exported functions of the model's built binary (dlopen), in a host in IEEE 754's default environment and in \
         one that flushes subnormals (FTZ + DAZ set around each timed block), against the core step and read, same \
         run (`tests/benches/fmi_overhead.rs`; this section alone: `cargo xtask bench fmi-overhead`). Rows \"before\" \
         are an earlier build's binary (`FMI_OVERHEAD_BEFORE=<its library>`: the model's own, or from before issue 40 \
         the library of every model), timed in the same run, one bench after another (criterion runs them in \
         turn, not interleaved: a few per cent between two rows can be the machine's drift).{before}\n\n\
         | path | host | ns per step | overhead over the core (ns) | / FMI 2.0, same build and host |\n|---|---|---|---|---|\n\
         | core step + read | - | {core:.2} | - | - |\n"
    );
    // Rows of an earlier build only when this run timed one: criterion keeps
    // the estimates of the last run that did.
    let builds: &[&str] = if std::env::var_os("FMI_OVERHEAD_BEFORE").is_some() { &["", "_before"] } else { &[""] };
    for host in ["default", "flushing"] {
        for suffix in builds {
            let fmi2_name = if host == "default" && suffix.is_empty() {
                "fmi_do_step_and_get_real".to_string()
            } else {
                format!("fmi2_{host}{suffix}")
            };
            let Some(fmi2) = mean_ns("hill", &fmi2_name) else { continue };
            let build = if suffix.is_empty() { "" } else { " (before)" };
            let _ = writeln!(
                doc,
                "| FMI 2.0 setReal + doStep + getReal{build} | {host} | {fmi2:.2} | {:.2} | 1.00 |",
                fmi2 - core
            );
            if let Some(fmi3) = mean_ns("hill", &format!("fmi3_{host}{suffix}")) {
                let _ = writeln!(
                    doc,
                    "| FMI 3.0 setFloat64 + doStep + getFloat64{build} | {host} | {fmi3:.2} | {:.2} | {:.2} |",
                    fmi3 - core,
                    fmi3 / fmi2
                );
            }
        }
    }
    doc
}

/// docs/performance.md from the criterion estimates and the study's output.
pub fn write_doc(study: &str) -> Result<()> {
    let mut doc = String::from(
        "# Performance\n\nRegenerate everything on this page with `cargo xtask bench` (criterion benches \
         `crates/friction/benches/step_cost.rs` and `tests/benches/fmi_overhead.rs`, and the study \
         `crates/friction/benches/accuracy_and_scaling.rs`). Figures are from one run on the project's \
         2-core machine; compare ratios, not absolute times.\n\n## Core step cost\n\n\
         Each law steps one body through the same torque cycle (1.5 N.m sine: stick, breakaway, stops, \
         reversals). The floor is a hand-written loop of the same algorithm on plain locals, in the same run.\n\n\
         | law | core (ns/step) | floor (ns/step) | core / floor |\n|---|---|---|---|\n",
    );
    for law in
        ["coulomb", "hill", "stribeck_eq4", "majd_simaan", "dahl", "load_dependent", "load_dependent_exact", "clutch"]
    {
        let core = mean_ns(law, "core");
        let floor = mean_ns(law, "floor");
        let cell = |x: Option<f64>| x.map(|v| format!("{v:.2}")).unwrap_or_else(|| "-".into());
        let ratio = match (core, floor) {
            (Some(c), Some(f)) => format!("{:.2}", c / f),
            _ => "-".into(),
        };
        let _ = writeln!(doc, "| {law} | {} | {} | {ratio} |", cell(core), cell(floor));
    }
    doc.push_str(
        "\n## Plants\n\nOne internal step of each plant's core (its default step), driven through a slow cycle. \
         The antenna servo runs the same loop with either axis friction: Hill's claim that his algorithm costs no \
         more per step than the conventional model is the ratio of the two.\n\n| plant | ns/step |\n|---|---|\n",
    );
    let plants = [
        ("coupled_clutches", "core", "CoupledClutches (4 bodies, 3 clutches, every lock combination)"),
        ("cmg_gimbal", "core", "CmgGimbalRateLoop (Dahl pivot + frictionless copy)"),
        ("flap_actuator", "core", "FlapActuatorServo"),
        ("antenna", "conventional", "AntennaAzimuthServo, conventional friction"),
        ("antenna", "hill", "AntennaAzimuthServo, Hill's algorithm"),
    ];
    for (group, name, label) in plants {
        if let Some(ns) = mean_ns(group, name) {
            let _ = writeln!(doc, "| {label} | {ns:.2} |");
        }
    }
    if let (Some(h), Some(c)) = (mean_ns("antenna", "hill"), mean_ns("antenna", "conventional")) {
        let _ = writeln!(doc, "\nAntenna servo, Hill / conventional cost per step: {:.2}.", h / c);
    }
    doc.push_str(&fmi_overhead_section());
    doc.push('\n');
    let mut series: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for line in study.lines() {
        if let Some(rest) = line.strip_prefix("csv,") {
            let parts: Vec<&str> = rest.rsplitn(3, ',').collect();
            if let [e, dt, name] = parts[..] {
                series
                    .entry(name.to_string())
                    .or_default()
                    .push((dt.parse().unwrap_or(f64::NAN), e.parse().unwrap_or(f64::NAN)));
            }
        } else {
            doc.push_str(line);
            doc.push('\n');
        }
    }
    doc.push_str(
        "\n![rate error while stuck versus step](error_vs_step.svg)\n\nHill's error is exactly zero at every step \
         (drawn on the bottom edge); the conventional model crosses Hill's 0.1 mdeg/s target at about 1 ms, as Hill \
         says; Stribeck's Eq. 2 holds a body at rest exactly too, at every step (its static level decides at a \
         stop, as Hill's: no kick of h*(F_s + T)/J across zero since issue 29; before, its error grew as the step \
         squared and crossed the target at about 75 ms), and its stop time differs from Coulomb's by about 33 ms \
         at small steps, its velocity band's own physics; the continuous Majd-Simaan model creeps at its \
         presliding equilibrium whatever the step (a property of the model, not of the integration).\n",
    );
    std::fs::write(root().join("docs/performance.md"), doc).map_err(|e| e.to_string())?;
    std::fs::write(root().join("docs/error_vs_step.svg"), svg(&series)).map_err(|e| e.to_string())?;
    println!("wrote docs/performance.md and docs/error_vs_step.svg");
    Ok(())
}

/// A log-log plot of the stuck-rate error versus the step, one line per law
/// (zero errors are drawn on the bottom edge).
fn svg(series: &BTreeMap<String, Vec<(f64, f64)>>) -> String {
    let (w, h, left, bottom, top, right) = (720.0, 420.0, 80.0, 50.0, 30.0, 250.0);
    let (x0, x1, y0, y1) = (-4.0_f64, 0.0_f64, -9.0_f64, -2.0_f64);
    let px = |dt: f64| left + (dt.log10() - x0) / (x1 - x0) * (w - left - right);
    let py = |e: f64| {
        let l = if e > 0.0 { e.log10().clamp(y0, y1) } else { y0 };
        h - bottom - (l - y0) / (y1 - y0) * (h - bottom - top)
    };
    let colors = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd"];
    let mut s = format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    for k in (x0 as i32)..=(x1 as i32) {
        let x = px(10f64.powi(k));
        let _ = writeln!(s, "<line x1=\"{x}\" y1=\"{top}\" x2=\"{x}\" y2=\"{}\" stroke=\"#ddd\"/><text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">1e{k}</text>", h - bottom, h - bottom + 16.0);
    }
    for k in (y0 as i32)..=(y1 as i32) {
        let y = py(10f64.powi(k));
        let _ = writeln!(s, "<line x1=\"{left}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#ddd\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\">1e{k}</text>", w - right, left - 6.0, y + 4.0);
    }
    let target = 0.1e-3_f64.to_radians();
    let _ = writeln!(s, "<line x1=\"{left}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"black\" stroke-dasharray=\"6 4\"/><text x=\"{2}\" y=\"{3}\">0.1 mdeg/s (Hill's target)</text>", py(target), w - right, w - right + 6.0, py(target) + 4.0);
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">step (s)</text>",
        left + (w - left - right) / 2.0,
        h - 12.0
    );
    let _ = writeln!(s, "<text x=\"16\" y=\"{}\" transform=\"rotate(-90 16 {})\" text-anchor=\"middle\">mean |w| while it must stick (rad/s)</text>", h / 2.0, h / 2.0);
    for (i, (name, points)) in series.iter().enumerate() {
        let c = colors[i % colors.len()];
        let path: Vec<String> = points.iter().map(|&(dt, e)| format!("{:.1},{:.1}", px(dt), py(e))).collect();
        let _ =
            writeln!(s, "<polyline fill=\"none\" stroke=\"{c}\" stroke-width=\"2\" points=\"{}\"/>", path.join(" "));
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" fill=\"{c}\">{}</text>",
            w - right + 6.0,
            top + 40.0 + 18.0 * i as f64,
            name.replace('&', "and")
        );
    }
    s.push_str("</svg>\n");
    s
}
