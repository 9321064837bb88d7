//! What makes an FMU explain itself, beside the model description: the
//! files `write_fmu` adds to every archive ([`entries`]) and the
//! reproducible `generationDateAndTime` ([`generation_date`]), plus each
//! FMU's cross-check set in the fmi-cross-check layout
//! ([`write_cross_check_sets`]). Everything is derived from the model's
//! declarations (`fmu::registry::MODELS`, `fmu::scenarios`,
//! `runner::cross_check`); nothing here is written per model.
//!
//! Inside each FMU:
//! - `documentation/index.html`: the model, its named choices, every
//!   variable, the step-size rules, its default run drawn as inline SVG,
//!   the papers' scenarios with their figures and how to replay them; no
//!   script, no network (FMI 2.0, 2.1 and 4.4);
//! - `documentation/figures/<figure>.png`: the scenario figures of
//!   `cargo xtask plots` (docs/figures/);
//! - `documentation/licenses/LICENSE-MIT.txt`, `LICENSE-APACHE.txt`;
//! - `model.png`: the icon, the model's characteristic curve from its
//!   default run, drawn the same way for every model.

use crate::util::{root, Result};
use fmu::description::{Causality, Variability, VariableInfo};
use fmu::registry::Entry;
use fmu::scenarios::Scenario;
use runner::{Simulate, Table};
use std::path::Path;

/// `generationDateAndTime`, reproducible: `SOURCE_DATE_EPOCH` if set, else
/// the time of the checked-out commit, else the Unix epoch; so two builds
/// of one commit write the same bytes.
pub fn generation_date() -> String {
    let from_env = std::env::var("SOURCE_DATE_EPOCH").ok().and_then(|s| s.trim().parse::<i64>().ok());
    let from_git = || {
        std::process::Command::new("git")
            .args(["log", "-1", "--format=%ct"])
            .current_dir(root())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse::<i64>().ok())
    };
    iso8601(from_env.or_else(from_git).unwrap_or(0))
}

/// Seconds since the Unix epoch as `YYYY-MM-DDThh:mm:ssZ` (proleptic
/// Gregorian calendar, days-to-civil conversion).
pub fn iso8601(seconds: i64) -> String {
    let (days, rest) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    // Shift the epoch to 0000-03-01 so that leap days end each 400-year era.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest % 3600 / 60, rest % 60)
}

/// The extra archive entries of `m`: (path in the zip, bytes).
/// `platforms`: the `binaries/` folders the archive holds, named on the page.
/// The standard an FMU's page is written for: the FMI 2.0 and FMI 3.0 FMUs
/// of a model share everything but the binding's names and numbers.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Standard {
    Fmi2,
    Fmi3,
}

/// The calls a page names, as each standard names them: the page is
/// written for its standard, not rewritten from the other's.
struct Calls {
    get_states: &'static str,
    do_step: &'static str,
    exit_initialization: &'static str,
    /// Where the importer gives the stop time.
    stop_time_in: &'static str,
    error: &'static str,
}

impl Standard {
    fn calls(self) -> Calls {
        match self {
            Standard::Fmi2 => Calls {
                get_states: "fmi2GetContinuousStates",
                do_step: "fmi2DoStep",
                exit_initialization: "fmi2ExitInitializationMode",
                stop_time_in: "fmi2SetupExperiment",
                error: "fmi2Error",
            },
            Standard::Fmi3 => Calls {
                get_states: "fmi3GetContinuousStates",
                do_step: "fmi3DoStep",
                exit_initialization: "fmi3ExitInitializationMode",
                stop_time_in: "fmi3EnterInitializationMode",
                error: "fmi3Error",
            },
        }
    }
}

pub fn entries(m: &Entry, platforms: &[&str], standard: Standard) -> Result<Vec<(String, Vec<u8>)>> {
    let id = m.info.identifier;
    let read = |path: &Path| std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()));
    let mut out = Vec::new();
    let scenarios: Vec<&Scenario> = fmu::scenarios::all().into_iter().filter(|s| s.model == id).collect();
    let mut figures: Vec<&str> = Vec::new();
    for s in &scenarios {
        if !figures.contains(&s.figure) {
            figures.push(s.figure);
        }
    }
    let cross_check = runner::cross_check::files(id)?;
    let table = shipped_run(id, &cross_check)?;
    out.push((
        "documentation/index.html".to_string(),
        index_html(m, &scenarios, &figures, &table, platforms, standard).into_bytes(),
    ));
    for f in figures.iter().chain([&crate::plots::SHAFT_SYSTEM_FIGURE]) {
        let bytes = read(&root().join(format!("docs/figures/{f}.png")))?;
        out.push((format!("documentation/figures/{f}.png"), bytes));
    }
    for (name, file) in [("LICENSE-MIT.txt", "LICENSE-MIT"), ("LICENSE-APACHE.txt", "LICENSE-APACHE")] {
        out.push((format!("documentation/licenses/{name}"), read(&root().join(file))?));
    }
    out.push(("model.png".to_string(), model_png(m, &table)?));
    // Every experiment replays from the FMU alone (documentation/replay.py).
    out.push(("documentation/replay.py".to_string(), include_bytes!("../assets/replay.py").to_vec()));
    for (name, text) in cross_check {
        if name != "ReadMe.md" {
            out.push((format!("documentation/experiments/default/{name}"), text.into_bytes()));
        }
    }
    for s in &scenarios {
        let dir = format!("documentation/experiments/{}", s.name);
        if let Some(csv) = s.input_csv() {
            out.push((format!("{dir}/{id}_in.csv"), csv.into_bytes()));
        }
        out.push((format!("{dir}/{id}_ref.opt"), s.ref_opt().into_bytes()));
        out.push((format!("{dir}/start_values.csv"), s.start_values_csv().into_bytes()));
    }
    Ok(out)
}

/// The default run the page and `model.png` draw: the run of the shipped
/// `<id>_ref.csv`, its outputs read back from that file's text (`files`,
/// the cross-check set), so the figures show exactly the reference an
/// importer compares with; the inputs beside them are the values that run
/// held over each step (FMPy's: the `_in.csv` at the step's start).
fn shipped_run(id: &str, files: &[(String, String)]) -> Result<Table> {
    let name = format!("{id}_ref.csv");
    let (_, csv) = files.iter().find(|(n, _)| *n == name).ok_or_else(|| format!("{id}: no {name}"))?;
    let mut lines = csv.lines();
    let columns: Vec<String> =
        lines.next().unwrap_or("").split(',').map(|c| c.trim().trim_matches('"').to_string()).collect();
    let mut rows = Vec::new();
    for line in lines {
        let row: std::result::Result<Vec<f64>, _> = line.split(',').map(|x| x.trim().parse::<f64>()).collect();
        rows.push(row.map_err(|e| format!("{name}: {e} in `{line}`"))?);
    }
    let run = runner::cross_check::default_run_of(id).simulate_like_fmpy()?;
    let times_agree = run.rows.len() == rows.len() && run.rows.iter().zip(&rows).all(|(a, b)| a[0] == b[0]);
    if !times_agree {
        return Err(format!("{id}: {name} does not hold every communication point of its run"));
    }
    let inputs: Vec<usize> = (0..run.columns.len()).filter(|&c| !columns.contains(&run.columns[c])).collect();
    let mut table = Table { columns, rows };
    table.columns.extend(inputs.iter().map(|&c| run.columns[c].clone()));
    for (row, full) in table.rows.iter_mut().zip(&run.rows) {
        row.extend(inputs.iter().map(|&c| full[c]));
    }
    Ok(table)
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn number(x: f64) -> String {
    // Integers (Integer and Enumeration values, whole bounds) without ".0".
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x:?}")
    }
}

fn causality(v: &VariableInfo) -> &'static str {
    match v.causality {
        Causality::Parameter => "parameter",
        Causality::Input => "input",
        Causality::Output => "output",
    }
}

fn unit_of(m: &Entry, name: &str) -> String {
    // The unit is in the model description; read it from there (one source).
    let xml = (m.model_description)();
    let Some(at) = xml.find(&format!("name=\"{name}\"")) else { return String::new() };
    let rest = &xml[at..];
    let end = rest.find("</ScalarVariable>").unwrap_or(rest.len());
    let element = &rest[..end];
    element.find(" unit=\"").map(|u| element[u + 7..].split('"').next().unwrap_or("").to_string()).unwrap_or_default()
}

/// The unit a plot shows a variable in, and the factor from its value: its
/// `displayUnit` where it declares one (the unit its users read, e.g. mdeg
/// for a position in rad), else its unit; both read from the model
/// description, as `unit_of`.
fn shown_unit_of(m: &Entry, name: &str) -> (String, f64) {
    let unit = unit_of(m, name);
    let xml = (m.model_description)();
    let attribute = |element: &str, key: &str| -> Option<String> {
        let at = element.find(&format!(" {key}=\""))? + key.len() + 3;
        element[at..].split('"').next().map(str::to_string)
    };
    let shown = (|| {
        let at = xml.find(&format!("name=\"{name}\""))?;
        let element = &xml[at..at + xml[at..].find("</ScalarVariable>")?];
        let display = attribute(element, "displayUnit")?;
        let unit_at = xml.find(&format!("<Unit name=\"{unit}\">"))?;
        let unit_element = &xml[unit_at..unit_at + xml[unit_at..].find("</Unit>")?];
        let d = unit_element.find(&format!("<DisplayUnit name=\"{display}\""))?;
        let factor: f64 = attribute(&unit_element[d..], "factor")?.parse().ok()?;
        Some((display, factor))
    })();
    shown.unwrap_or((unit, 1.0))
}

fn range(v: &VariableInfo) -> String {
    if let Some(e) = v.choices {
        return e.items.iter().map(|i| format!("{} = {}", i.value, i.name)).collect::<Vec<_>>().join(", ");
    }
    let lo = match v.min {
        Some(m) if v.exclusive_min => format!("&gt; {}", number(m)),
        Some(m) => format!("&ge; {}", number(m)),
        None => String::new(),
    };
    let hi = v.max.map(|m| format!("&le; {}", number(m))).unwrap_or_default();
    [lo, hi].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(", ")
}

const STYLE: &str = "body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em;color:#222;line-height:1.4}\
h1{border-bottom:2px solid #1f77b4}h2{color:#1f77b4;margin-top:1.6em}\
table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ccc;padding:.25em .5em;vertical-align:top}\
th{background:#eef4fa;text-align:left}code{background:#f4f4f4;padding:0 .2em}pre{background:#f4f4f4;padding:.6em;overflow-x:auto}\
img.figure{max-width:100%;border:1px solid #ddd}svg{border:1px solid #ddd;background:#fff}.meta td{border:none;padding:.1em .6em .1em 0}\
table.equations td{vertical-align:middle}table.equations td:last-child{min-width:16em}.when{color:#555;font-size:.9em}math{font-size:1.15em;math-style:normal}";

fn index_html(
    m: &Entry,
    scenarios: &[&Scenario],
    figures: &[&str],
    table: &Table,
    platforms: &[&str],
    standard: Standard,
) -> String {
    let fmi3 = standard == Standard::Fmi3;
    let calls = standard.calls();
    let id = m.info.identifier;
    let e = m.info.default_experiment;
    let variables = (m.variables)();
    let mut h = String::new();
    h.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{id}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>{id}</h1>\n<p>{}</p>\n",
        escape(m.info.description)
    ));
    h.push_str(&format!(
        "<table class=\"meta\"><tr><td>FMI</td><td>{} {}</td></tr><tr><td>binaries</td><td>{}</td></tr>\
         <tr><td>version</td><td>{}</td></tr><tr><td>generated by</td><td>{}</td></tr>\
         <tr><td>author</td><td>{}</td></tr><tr><td>license</td><td>MIT OR Apache-2.0: \
         <a href=\"licenses/LICENSE-MIT.txt\">MIT</a>, <a href=\"licenses/LICENSE-APACHE.txt\">Apache-2.0</a></td></tr></table>\n",
        if fmi3 { "3.0" } else { "2.0" },
        if (m.new_instance)().hybrid_sizes().is_some() { "Co-Simulation and Model Exchange" } else { "Co-Simulation" },
        platforms.join(", "),
        env!("CARGO_PKG_VERSION"),
        escape(fmu::xml::GENERATION_TOOL),
        escape(fmu::xml::AUTHOR)
    ));

    h.push_str("<h2>Sources</h2>\n");
    if m.info.sources.is_empty() {
        h.push_str("<p>No paper: a coupling plant of this project, exact for inputs held over a step.</p>\n");
    } else {
        h.push_str("<ol class=\"sources\">\n");
        for (source, used) in m.info.sources {
            h.push_str(&format!("<li>{}<br>Used here: {}.</li>\n", escape(&source.citation()), escape(used)));
        }
        h.push_str("</ol>\n");
    }

    if !m.info.equations.is_empty() {
        h.push_str(&format!(
            "<h2>Equations</h2>\n<p>In the names of the <a href=\"#variables\">variables</a>; t is time, \
             x<sup>−</sup> the value just before an event.</p>\n<table class=\"equations\"><tr><th>equation, and when it holds \
             (always where nothing is said)</th><th>from</th></tr>\n"
        ));
        for e in m.info.equations {
            // Declarations are checked by tests; a bad one shows its reason here.
            let show = |s: &str| match fmu::equations::parse(s) {
                Ok(x) => fmu::equations::math_element(&x),
                Err(why) => format!("<code>{}</code>", escape(&why)),
            };
            // A condition in words ("otherwise") reads without "when".
            let when = match fmu::equations::parse(e.when) {
                _ if e.when.is_empty() => String::new(),
                Ok(fmu::equations::Expr::Text(_)) => format!("<br><span class=\"when\">{}</span>", show(e.when)),
                _ => format!("<br><span class=\"when\">when {}</span>", show(e.when)),
            };
            h.push_str(&format!("<tr><td>{}{when}</td><td>{}</td></tr>\n", show(e.math), escape(e.source)));
        }
        h.push_str("</table>\n");
    }

    let choices: Vec<&VariableInfo> = variables.iter().filter(|v| v.choices.is_some()).collect();
    if !choices.is_empty() {
        h.push_str("<h2>Choices</h2>\n");
        for v in choices {
            let en = v.choices.unwrap();
            h.push_str(&format!(
                "<p><code>{}</code> ({}, Enumeration <code>{}</code>, default {}): {}</p>\n<table><tr><th>value</th><th>name</th><th>meaning</th></tr>\n",
                v.name,
                escape(en.description),
                en.name,
                v.start,
                escape(v.description)
            ));
            for i in en.items {
                h.push_str(&format!(
                    "<tr><td>{}</td><td><code>{}</code></td><td>{}</td></tr>\n",
                    i.value,
                    i.name,
                    escape(i.description)
                ));
            }
            h.push_str("</table>\n");
        }
    }

    h.push_str(&format!(
        "<h2>Default experiment</h2>\n<p>{} s to {} s, communication step {} s (Model Exchange: relative tolerance \
         {}), with every variable at its start value{}. Every output (and input) of the run in the shipped \
         <code>{id}_ref.csv</code> (inputs held over each step at their value at its start, as FMPy holds them):</p>\n{}",
        e.start_time,
        e.stop_time,
        e.step_size,
        fmu::text::number(e.tolerance),
        if m.info.default_inputs.is_empty() {
            String::new()
        } else {
            let names: Vec<String> = m.info.default_inputs.iter().map(|(n, _)| format!("<code>{n}</code>")).collect();
            format!(" but {}, which follow the experiment's <code>{id}_in.csv</code>", names.join(", "))
        },
        svg_plots(table, |name| shown_unit_of(m, name))
    ));

    h.push_str(
        "<h2 id=\"variables\">Variables</h2>\n<table><tr><th>vr</th><th>name</th><th>causality</th><th>variability</th><th>type</th>\
         <th>unit</th><th>start</th><th>range</th><th>description</th></tr>\n",
    );
    for v in &variables {
        let variability = match v.variability {
            Variability::Fixed => "fixed",
            Variability::Discrete => "discrete",
            Variability::Continuous => "continuous",
        };
        let (shown, factor) = shown_unit_of(m, v.name);
        let unit = unit_of(m, v.name);
        // A start in a display unit reads as the user sets it: 1 mdeg, not 1.745e-5 rad.
        let start = match v.causality {
            Causality::Output => String::new(),
            _ if shown != unit => format!("{} ({} {})", number(v.start), number(v.start * factor), escape(&shown)),
            _ => number(v.start),
        };
        let unit =
            if shown != unit { format!("{} (shown in {})", escape(&unit), escape(&shown)) } else { escape(&unit) };
        h.push_str(&format!(
            "<tr id=\"{name}\"><td>{}</td><td><code>{name}</code></td><td>{}</td><td>{variability}</td><td>{}</td>\
             <td>{}</td><td>{start}</td><td>{}</td><td>{}</td></tr>\n",
            v.value_reference,
            causality(v),
            v.choices.map_or(if fmi3 { fmi3_type(v.type_name) } else { v.type_name }, |e| e.name),
            unit,
            range(v),
            escape(v.description),
            name = v.name,
        ));
    }
    h.push_str("</table>\n");
    if fmi3 {
        let (states, indicators) = (m.new_instance)().hybrid_sizes().unwrap_or((0, 0));
        let layout = fmu::model::Layout { variables: variables.len(), states, indicators };
        let derivatives = if states == 0 {
            String::new()
        } else {
            format!(
                "the states' derivatives <code>der(x)</code> are {} to {}; ",
                layout.derivative(0),
                layout.derivative(states - 1)
            )
        };
        let indicators = if indicators == 0 {
            String::new()
        } else {
            format!(
                "the {indicators} event indicators of Model Exchange are variables too, <code>event_indicator_1</code> \
                 to <code>event_indicator_{indicators}</code> ({} to {}: the value <code>fmi3GetEventIndicators</code> \
                 gives, in Co-Simulation the value Model Exchange would give for the current state); ",
                layout.indicator(0),
                layout.indicator(indicators - 1)
            )
        };
        h.push_str(&format!(
            "<h2 id=\"fmi3\">FMI 3.0</h2>\n<ul>\n<li>Value references are those of the FMI 2.0 FMU (the table above), each a variable's \
             position in <code>modelDescription.xml</code>; {derivatives}{indicators}the independent \
             variable <code>time</code> is {}, last.</li>\n<li>Integers are <code>Int32</code>, choices \
             <code>Enumeration</code>s read and written with <code>fmi3GetInt64</code>/<code>fmi3SetInt64</code>; \
             every variable is a scalar.</li>\n<li>Co-Simulation: with early return allowed \
             (<code>earlyReturnAllowed</code>), <code>fmi3DoStep</code> stops at the first stick, slip, lock or \
             unlock inside the step and returns its instant in <code>lastSuccessfulTime</code> (a port's drive \
             end moved on to it as the step's inputs said). {} With event mode used \
             (<code>eventModeUsed</code>), such a step asks for event mode (<code>eventHandlingNeeded</code>), where \
             one pass of <code>fmi3UpdateDiscreteStates</code> applies the modes the next step would start in for the \
             states and the inputs then (a lock that the torques break is released at once). Without either, a step \
             goes through every stick exactly, as FMI 2.0's. No intermediate update, and no input derivatives \
             (FMI 3.0 has none): inputs are held over a step.</li>\n\
             <li>Not offered: clocks, configuration mode, Scheduled Execution, directional and adjoint derivatives; \
             their functions refuse with the reason.</li>\n</ul>\n",
            layout.time(),
            escape(&m.info.behaviour.early_return_sentence())
        ));
    }

    let internal_step = variables.iter().find(|v| v.name == "internal_step").map(|v| v.start);
    let states = (m.states)();
    if !states.is_empty() {
        h.push_str(&format!(
            "<h2 id=\"states\">Model Exchange states</h2>\n<p>The continuous states, in the order of the state vector \
             (<code>{}</code>), and their derivatives, declared as variables \
             <code>der(x)</code>:</p>\n<table><tr><th>state</th><th>derivative</th><th>unit of the derivative</th></tr>\n",
            calls.get_states
        ));
        for (state, unit) in &states {
            h.push_str(&format!(
                "<tr><td><code>{state}</code></td><td><code>der({state})</code></td><td>{unit}</td></tr>\n"
            ));
        }
        h.push_str("</table>\n");
    }
    h.push_str(&dependencies_html(m));
    h.push_str(&format!(
        "<h2 id=\"interface\">Which interface to pick</h2>\n<ul>\n<li><b>Model Exchange</b> when the plant has its own \
         variable-step solver (a Modelica tool, FMPy's CVode, OMSimulator's strongly coupled system): the FMU gives \
         derivatives and event indicators, the importer's solver stops at each stick, slip and breakaway.</li>\n\
         <li><b>Co-Simulation</b> in a fixed-step co-simulation (FMPy's default master, SSP, OMSimulator's weakly \
         coupled system, libcosim): exact alone at any step; but a master that holds a coupling torque over each \
         step makes every stick late. Through a compliant shaft, couple at the shaft port instead \
         (<code>HillFrictionShaftLoad</code>, exact; <code>StribeckShaftLoad</code>, <code>MajdSimaanShaftLoad</code>, \
         <code>DahlShaftLoad</code>, <code>LoadDependentFrictionShaftLoad</code> substepped: the drive's angle and \
         rate in, the shaft torque out).</li>\n</ul>\n\
         <p><img class=\"figure\" src=\"figures/{f}.png\" alt=\"the shaft-and-load system three ways\"></p>\n\
         <p>The figure: CompliantDrive winding its shaft against HillFrictionInertia, exact; as two Model Exchange \
         FMUs in OMSimulator's strongly coupled system; as two Co-Simulation FMUs in its weakly coupled system at \
         20 ms; and cut at the shaft port (MotorDrive and HillFrictionShaftLoad) at 20 ms.</p>\n",
        f = crate::plots::SHAFT_SYSTEM_FIGURE
    ));

    // What this model does with a communication step (no NaN for a model
    // without internal_step; interpolated inputs named).
    let splitting = match internal_step {
        Some(step) => format!(
            "<code>{}</code> splits it into equal substeps no longer than <code>internal_step</code> \
             (default {step} s) and lands exactly on <code>t + h</code>",
            calls.do_step
        ),
        None => format!(
            "<code>{}</code> solves the step exactly, whatever its length (a closed form per mode; \
             stops, sticks and breakaways found inside the step)",
            calls.do_step
        ),
    };
    let interpolated = (m.interpolated_inputs)();
    let all_inputs: Vec<&str> =
        variables.iter().filter(|v| v.causality == fmu::description::Causality::Input).map(|v| v.name).collect();
    let inputs = if all_inputs.is_empty() {
        "it has no inputs".to_string()
    } else if interpolated.is_empty() || fmi3 {
        // FMI 3.0's Co-Simulation has no input derivatives.
        "inputs are held constant over a step".to_string()
    } else {
        let held: Vec<&str> = all_inputs.iter().copied().filter(|n| !interpolated.contains(n)).collect();
        let code = |names: &[&str]| names.iter().map(|n| format!("<code>{n}</code>")).collect::<Vec<_>>().join(", ");
        format!(
            "{} follow{} the derivative set by <code>fmi2SetRealInputDerivatives</code> over the next step \
             (<code>canInterpolateInputs</code>; held when none is set){}",
            code(&interpolated),
            if interpolated.len() == 1 { "s" } else { "" },
            if held.is_empty() { String::new() } else { format!("; {} held constant over a step", code(&held)) }
        )
    };
    let bounds = if internal_step.is_some() {
        format!(
            "<li>Stability bounds of the law or plant (e.g. Dahl's presliding spring, a servo's fastest mode) are \
             checked in <code>{}</code> of a Co-Simulation instance, which refuses a too large \
             <code>internal_step</code> and logs the bound (Model Exchange does not use it).</li>\n",
            calls.exit_initialization
        )
    } else {
        String::new()
    };
    h.push_str(&format!(
        "<h2>Step size</h2>\n<ul>\n<li>The communication step is free (<code>canHandleVariableCommunicationStepSize</code>): \
         {splitting}; {inputs}.</li>\n\
         <li>A step must start where the last one ended (relative tolerance 1e-9), be finite and &gt; 0, take at most 1e8 \
         substeps, and not pass a <code>stopTime</code> given to <code>{stop_time_in}</code>.</li>\n{bounds}\
         <li>Every refused call returns <code>{error}</code> and logs the value and the rule; the instance stays usable.</li>\n</ul>\n",
        stop_time_in = calls.stop_time_in,
        error = calls.error
    ));

    if !scenarios.is_empty() {
        h.push_str("<h2>The papers' experiments</h2>\n");
        for f in figures {
            h.push_str(&format!(
                "<p><img class=\"figure\" src=\"figures/{f}.png\" alt=\"figure {f}\"></p>\n<table><tr><th>scenario</th><th>what it shows</th>\
                 <th>parameters</th><th>inputs</th><th>run</th></tr>\n"
            ));
            for s in scenarios.iter().filter(|s| s.figure == *f) {
                let parameters: Vec<String> = s.parameters.iter().map(|(n, v)| format!("{n} = {v:?}")).collect();
                let inputs: Vec<String> =
                    s.inputs.iter().map(|(n, sig)| format!("{n}: {}", signal_text(sig))).collect();
                h.push_str(&format!(
                    "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{} s, step {} s</td></tr>\n",
                    s.name,
                    escape(s.title),
                    escape(&parameters.join(", ")),
                    escape(&inputs.join("; ")),
                    s.stop_time,
                    s.step_size
                ));
            }
            h.push_str("</table>\n");
        }
    }

    let names: Vec<String> = scenarios.iter().map(|s| format!("<code>{}</code>", s.name)).collect();
    h.push_str(&format!(
        "<h2 id=\"replay\">Replay</h2>\n<p>From the FMU alone, with Python and FMPy (0.3.x): unpack it, then run its \
         <code>documentation/replay.py</code> on the default experiment{}. The script reads the experiment's inputs, \
         parameters and times from <code>documentation/experiments/</code> inside the FMU, prints the last row (and \
         with <code>--csv out.csv</code> writes every row); for the default experiment it also prints the largest \
         difference from the shipped <code>{id}_ref.csv</code>.</p>\n\
         <pre>python -m zipfile -e {id}.fmu {id}\npython {id}/documentation/replay.py {id}.fmu{}</pre>\n",
        if scenarios.is_empty() { String::new() } else { format!(" or a paper's scenario ({})", names.join(", ")) },
        scenarios
            .first()
            .map_or(String::new(), |s| format!("\npython {id}/documentation/replay.py {id}.fmu {}", s.name)),
    ));
    h.push_str("</body>\n</html>\n");
    h
}

/// FMI 3.0's name of an FMI 2.0 type.
/// `<ModelStructure>` as a table: what each output and derivative follows at
/// once, and which of it is Model Exchange's only (measured on the model,
/// `fmu::dependencies`).
fn dependencies_html(m: &Entry) -> String {
    let table = fmu::dependencies::of(m.info.identifier);
    let codes = |names: &[&str]| names.iter().map(|n| format!("<code>{n}</code>")).collect::<Vec<_>>().join(", ");
    let mut h = String::from(
        "<h2 id=\"dependencies\">Dependencies</h2>\n<p>What each output (and, in Model Exchange, each derivative) \
         follows at once, as <code>&lt;ModelStructure&gt;</code> declares it: measured on the model by perturbing \
         each input and state alone. One model structure serves both interfaces, so it declares the union; in \
         Co-Simulation an input set between steps acts only from the next step on unless it is listed under \
         both.</p>\n<table><tr><th>unknown</th><th>both interfaces</th><th>Model Exchange only</th></tr>\n",
    );
    for (name, co_simulation, _) in table.outputs {
        let only = table.model_exchange_only(name);
        h.push_str(&format!(
            "<tr><td><code>{name}</code></td><td>{}</td><td>{}</td></tr>\n",
            codes(co_simulation),
            codes(&only)
        ));
    }
    for (state, knowns) in table.derivatives {
        h.push_str(&format!("<tr><td><code>der({state})</code></td><td></td><td>{}</td></tr>\n", codes(knowns)));
    }
    h.push_str("</table>\n");
    h
}

fn fmi3_type(fmi2: &'static str) -> &'static str {
    match fmi2 {
        "Real" => "Float64",
        "Integer" => "Int32",
        other => other,
    }
}

fn signal_text(s: &fmu::scenarios::Signal) -> String {
    use fmu::scenarios::Signal;
    match s {
        Signal::Constant(x) => format!("{x:?}"),
        Signal::Sine { offset, amplitude, frequency, phase } => {
            format!("{offset:?} + {amplitude:?}*sin(2*pi*{frequency:?}*t + {phase:?})")
        }
        Signal::Points(p) => {
            let points: Vec<String> = p.iter().map(|(t, x)| format!("({t:?}, {x:?})")).collect();
            format!("piecewise linear through {}", points.join(" "))
        }
    }
}

/// One small inline SVG per Real output of the default run (no script, no
/// font files: the browser sets the text).
/// One small plot per column over time, each titled with the unit it is
/// shown in (`phi [rad]`; the display unit where the variable declares one,
/// `position [mdeg]`; a count without one) and its time axis labelled.
fn svg_plots(table: &Table, unit: impl Fn(&str) -> (String, f64)) -> String {
    let (w, hgt, pad) = (420.0, 150.0, 34.0);
    let time = table.column("time");
    let t_end = *time.last().unwrap_or(&1.0);
    let mut out = String::new();
    for name in table.columns.iter().skip(1) {
        let (unit, factor) = unit(name);
        let y: Vec<f64> = table.column(name).iter().map(|v| v * factor).collect();
        let title = if unit.is_empty() { name.to_string() } else { format!("{name} [{}]", escape(&unit)) };
        let (lo, hi) = y.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
        let (lo, hi) = if hi > lo { (lo, hi) } else { (lo - 1.0, hi + 1.0) };
        let px = |t: f64| pad + (w - 2.0 * pad) * t / t_end;
        let py = |v: f64| hgt - pad + (2.0 * pad - hgt) * (v - lo) / (hi - lo);
        let stride = (time.len() / 600).max(1);
        let points: Vec<String> = time
            .iter()
            .zip(&y)
            .enumerate()
            .filter(|(i, _)| i % stride == 0 || *i == time.len() - 1)
            .map(|(_, (&t, &v))| format!("{:.1},{:.1}", px(t), py(v)))
            .collect();
        out.push_str(&format!(
            "<svg width=\"{w}\" height=\"{hgt}\" viewBox=\"0 0 {w} {hgt}\" role=\"img\" aria-label=\"{name}\">\
             <text x=\"{pad}\" y=\"14\" font-size=\"12\">{title}</text>\
             <text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"end\">time [s], 0 to {t_end}</text>\
             <text x=\"2\" y=\"{}\" font-size=\"10\">{hi:.4}</text><text x=\"2\" y=\"{}\" font-size=\"10\">{lo:.4}</text>\
             <rect x=\"{pad}\" y=\"{pad}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#bbb\"/>\
             <polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"{}\"/></svg>\n",
            w - pad,
            hgt - 4.0,
            pad - 4.0,
            hgt - pad + 12.0,
            w - 2.0 * pad,
            hgt - 2.0 * pad,
            points.join(" ")
        ));
    }
    out
}

/// `model.png`: 128x128, the model's characteristic curve from its default
/// run in the same frame and colour for every model, labelled with its
/// quantities and units (readable at 128 px): friction against relative
/// speed for an element (the law's curve, Dahl's loop), else the body's
/// rate `w` (or the first output) against time.
fn model_png(m: &Entry, table: &Table) -> Result<Vec<u8>> {
    use crate::plots::{Align, Text};
    use plotters::prelude::*;
    let id = m.info.identifier;
    let (x_name, y_name) = if table.columns.iter().any(|c| c == "w_rel") {
        ("w_rel", "tau_friction")
    } else if table.columns.iter().any(|c| c == "w") {
        ("time", "w")
    } else {
        ("time", table.columns[1].as_str())
    };
    let (x, y) = (table.column(x_name), table.column(y_name));
    let label = |name: &str| {
        let unit = if name == "time" { "s".to_string() } else { unit_of(m, name) };
        if unit.is_empty() {
            name.to_string()
        } else {
            format!("{name} [{unit}]")
        }
    };
    let bounds = |v: &[f64]| {
        let (lo, hi) = v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
        let margin = if hi > lo { 0.08 * (hi - lo) } else { 1.0 };
        (lo - margin)..(hi + margin)
    };
    let text = Text::load()?;
    let dir = root().join("target/model-png");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join(format!("{id}.png"));
    {
        let area = BitMapBackend::new(&path, (128, 128)).into_drawing_area();
        let failed = |e: &dyn std::fmt::Display| format!("{id} model.png: {e}");
        area.fill(&RGBColor(250, 252, 255)).map_err(|e| failed(&e))?;
        // The quantity on top, the abscissa below: 11 px DejaVu Sans.
        let ink = RGBColor(40, 40, 40);
        text.draw(&area, &label(y_name), (4, 2), 11.0, (Align::Start, Align::Start), ink).map_err(|e| failed(&e))?;
        text.draw(&area, &label(x_name), (124, 126), 11.0, (Align::End, Align::End), ink).map_err(|e| failed(&e))?;
        let plot = area.margin(17, 17, 6, 6);
        let mut chart = ChartBuilder::on(&plot).build_cartesian_2d(bounds(&x), bounds(&y)).map_err(|e| failed(&e))?;
        let frame = chart.plotting_area().get_pixel_range();
        let (x0, x1, y0, y1) = (frame.0.start, frame.0.end, frame.1.start, frame.1.end);
        area.draw(&Rectangle::new([(x0, y0), (x1, y1)], RGBColor(31, 119, 180).stroke_width(2)))
            .map_err(|e| failed(&e))?;
        // Zero lines, where inside.
        let grey = RGBColor(190, 190, 190);
        if bounds(&y).contains(&0.0) {
            let line = vec![(bounds(&x).start, 0.0), (bounds(&x).end, 0.0)];
            chart.draw_series(std::iter::once(PathElement::new(line, grey))).map_err(|e| failed(&e))?;
        }
        if bounds(&x).contains(&0.0) && x_name != "time" {
            let line = vec![(0.0, bounds(&y).start), (0.0, bounds(&y).end)];
            chart.draw_series(std::iter::once(PathElement::new(line, grey))).map_err(|e| failed(&e))?;
        }
        // Thin to about one point per pixel: plotters draws a wide polyline
        // of many short segments as a rope.
        let stride = (x.len() / 120).max(1);
        let points: Vec<(f64, f64)> = x
            .iter()
            .zip(&y)
            .enumerate()
            .filter(|(i, _)| i % stride == 0 || *i == x.len() - 1)
            .map(|(_, (&a, &b))| (a, b))
            .collect();
        chart.draw_series(LineSeries::new(points, RGBColor(214, 39, 40).stroke_width(2))).map_err(|e| failed(&e))?;
        area.present().map_err(|e| failed(&e))?;
    }
    std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Every FMU's cross-check set in the fmi-cross-check layout,
/// `<out>/cross-check/fmus/2.0/cs/linux64/friction-fmu/<version>/<Model>/`
/// (the FMU, `_in.csv`, `_ref.opt`, `_ref.csv`, `ReadMe.md`), and the same
/// files beside each FMU in `out`.
pub fn write_cross_check_sets(out: &Path) -> Result<()> {
    let tree = out.join(format!("cross-check/fmus/2.0/cs/linux64/friction-fmu/{}", env!("CARGO_PKG_VERSION")));
    for m in fmu::registry::MODELS {
        let id = m.info.identifier;
        let dir = tree.join(id);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let fmu = out.join(format!("{id}.fmu"));
        std::fs::copy(&fmu, dir.join(format!("{id}.fmu"))).map_err(|e| format!("{}: {e}", fmu.display()))?;
        for (name, text) in runner::cross_check::files(id)? {
            for target in [dir.join(&name), out.join(&name)] {
                if name == "ReadMe.md" && target.parent() == Some(out) {
                    continue; // one ReadMe per model folder only
                }
                std::fs::write(&target, &text).map_err(|e| format!("{}: {e}", target.display()))?;
            }
        }
    }
    println!("cross-check sets in {}", tree.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso8601_matches_known_dates() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(1_700_000_000), "2023-11-14T22:13:20Z");
        assert_eq!(iso8601(-1), "1969-12-31T23:59:59Z");
    }
}
