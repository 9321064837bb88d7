//! What the README says of the FMUs, checked against the FMUs.
//!
//! - The "Pick an FMU" table: every variable it tells a user to set first
//!   is a variable of every FMU its row names.
//! - The cross-check files: every `_ref.csv` holds its `_ref.opt`'s grid.
//! - The FMUs' pages: the default run they draw is the shipped `_ref.csv`.

use fmu_tests::{fmu3_path, fmu_path, workspace_root};
use std::io::Read;
use std::path::{Path, PathBuf};

fn readme() -> String {
    std::fs::read_to_string(workspace_root().join("README.md")).expect("README.md")
}

/// The rows of the first Markdown table after `heading`, cells split on
/// the `|` that are not escaped (`\|`), header and rule dropped.
fn table_after(text: &str, heading: &str) -> Vec<Vec<String>> {
    let start = text.find(heading).unwrap_or_else(|| panic!("no {heading:?} in the README"));
    let lines = text[start..].lines().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|'));
    let rows: Vec<Vec<String>> = lines
        .map(|line| {
            let mut cells = vec![String::new()];
            let mut chars = line.trim().trim_start_matches('|').chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' if chars.peek() == Some(&'|') => cells.last_mut().unwrap().push(chars.next().unwrap()),
                    '|' => cells.push(String::new()),
                    c => cells.last_mut().unwrap().push(c),
                }
            }
            if cells.last().is_some_and(|c| c.trim().is_empty()) {
                cells.pop(); // after the closing `|`
            }
            cells.iter().map(|c| c.trim().to_string()).collect()
        })
        .collect();
    rows.into_iter().skip(2).collect()
}

/// The code spans of a Markdown text (`` `x` ``).
fn code_spans(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The bold spans of a Markdown text (`**x**`), without their backticks.
fn bold_spans(text: &str) -> Vec<String> {
    text.split("**").skip(1).step_by(2).map(|s| s.trim_matches('`').to_string()).collect()
}

/// A model identifier's form: `HillFrictionInertia` (a capital, letters and
/// digits, some lower case: not a variable such as `J`).
fn looks_like_model(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
        && name.chars().any(|c| c.is_ascii_lowercase())
}

/// A variable name's form: `tau_static`, `J`, `J_motor`, `f_normalized_1`.
fn looks_like_variable(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && fmu::registry::find(name).is_none()
}

fn variables_of(identifier: &str) -> Option<Vec<String>> {
    fmu::registry::find(identifier).map(|m| (m.variables)().iter().map(|v| v.name.to_string()).collect())
}

/// What is wrong with the "Pick an FMU" table of `text` (a README): columns
/// "you simulate", "take", "set first". The FMUs a row names are the bold or
/// code-span identifiers of its "take" cell (each must be a model of the
/// registry). Its "set first" cell is split at `;` into groups; a group
/// that starts with FMUs of the row and a colon (`` `MotorDrive`:
/// `J_motor`, `speed_gain` ``) is what those FMUs take: the row saying
/// otherwise explicitly. Every other code span of a variable's form must be
/// a variable of every FMU of the row that has no group of its own. A row
/// that names no FMU (the interface row) says nothing of a model's
/// variables.
fn pick_table_failures(text: &str) -> Vec<String> {
    let rows = table_after(text, "## Pick an FMU");
    let mut failures = Vec::new();
    for row in &rows {
        if row.len() != 3 {
            failures.push(format!("a Pick row has three cells: {row:?}"));
            continue;
        }
        let (what, take, set_first) = (&row[0], &row[1], &row[2]);
        let mut models: Vec<String> = code_spans(take).into_iter().map(str::to_string).collect();
        models.extend(bold_spans(take));
        models.retain(|m| looks_like_model(m));
        models.sort();
        models.dedup();
        for m in &models {
            if fmu::registry::find(m).is_none() {
                failures.push(format!("{what:?}: `{m}` is no FMU of the registry"));
            }
        }
        models.retain(|m| fmu::registry::find(m).is_some());
        if models.is_empty() {
            println!("{what:?}: names no FMU, not checked");
            continue;
        }
        // (FMUs, names): the groups of the "set first" cell.
        let mut own: Vec<(Vec<String>, Vec<String>)> = Vec::new();
        let mut shared: Vec<String> = Vec::new();
        let names = |s: &str| -> Vec<String> {
            code_spans(s).into_iter().filter(|n| looks_like_variable(n)).map(str::to_string).collect()
        };
        for group in set_first.split(';') {
            let (head, body) = group.split_once(':').unwrap_or(("", group));
            let heads: Vec<String> = code_spans(head).into_iter().map(str::to_string).collect();
            if !heads.is_empty() && heads.iter().all(|h| looks_like_model(h)) {
                for h in &heads {
                    if !models.contains(h) {
                        failures.push(format!("{what:?}: \"set first\" speaks of `{h}`, which the row does not take"));
                    }
                }
                own.push((heads, names(body)));
            } else {
                shared.extend(names(group));
            }
        }
        for model in &models {
            let variables = variables_of(model).unwrap();
            let mut expected: Vec<&String> =
                own.iter().filter(|(heads, _)| heads.contains(model)).flat_map(|(_, names)| names).collect();
            if expected.is_empty() {
                expected = shared.iter().collect();
            }
            for name in &expected {
                if !variables.contains(name) {
                    failures.push(format!("{what:?}: `{model}` has no variable `{name}`"));
                }
            }
            println!("{what:?}: {model}: {expected:?}");
        }
    }
    failures
}

/// Every variable the README's Pick table tells a user to set first is a
/// variable of the FMUs its row names.
#[test]
fn the_pick_table_names_variables_the_fmus_have() {
    let text = readme();
    assert!(table_after(&text, "## Pick an FMU").len() >= 5, "the Pick table is gone");
    let failures = pick_table_failures(&text);
    assert!(failures.is_empty(), "the README's Pick table:\n{}", failures.join("\n"));
}

/// The check finds the errors it was written for: the rows as they were
/// (issue 38), where MotorDrive was told to set the load's shaft, and
/// CoupledClutches `tau_capacity` and MajdSimaanInertia Dahl's parameters.
#[test]
fn the_pick_table_check_finds_the_old_errors() {
    let old = "## Pick an FMU\n\n| you simulate | take | set first |\n|---|---|---|\n\
        | a motor | your drive (or `MotorDrive`) + **`HillFrictionShaftLoad`**: in, out | `k_shaft`, `d_shaft`, `J`, \
        `tau_static`, `tau_coulomb` |\n\
        | a clutch | **`ShaftClutch`**; `TwoInertiaClutch`, `ClutchStickSlip`, `CoupledClutches` | the `tau_capacity` input |\n\
        | a smooth law | `DahlInertia`, `MajdSimaanInertia` (or their `...ShaftLoad` ports) | `tau_running`, `gamma` |\n\
        | Coulomb | **`HillFrictionInertia`** with `tau_static = tau_coulomb` \\| a bar | `tau_coulomb`, `tau_static`, `J` |\n";
    let failures = pick_table_failures(old);
    let mut expected: Vec<String> = ["k_shaft", "d_shaft", "J", "tau_static", "tau_coulomb"]
        .iter()
        .map(|v| format!("\"a motor\": `MotorDrive` has no variable `{v}`"))
        .collect();
    expected.push("\"a clutch\": `CoupledClutches` has no variable `tau_capacity`".into());
    expected.push("\"a smooth law\": `MajdSimaanInertia` has no variable `tau_running`".into());
    expected.push("\"a smooth law\": `MajdSimaanInertia` has no variable `gamma`".into());
    assert_eq!(failures, expected);
}

/// `StartTime`, `StopTime`, `StepSize` of a `_ref.opt`.
fn ref_opt_grid(text: &str) -> (f64, f64, f64) {
    let value = |key: &str| -> f64 {
        text.lines()
            .find_map(|l| l.split_once(',').filter(|(k, _)| k.trim() == key).map(|(_, v)| v.trim().parse().unwrap()))
            .unwrap_or_else(|| panic!("no {key} in {text:?}"))
    };
    (value("StartTime"), value("StopTime"), value("StepSize"))
}

/// A CSV of numbers with a header, quotes around names dropped.
fn parse_csv(text: &str) -> (Vec<String>, Vec<Vec<f64>>) {
    let mut lines = text.lines();
    let columns = lines.next().unwrap_or("").split(',').map(|c| c.trim().trim_matches('"').to_string()).collect();
    let rows = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(',').map(|x| x.trim().parse().unwrap_or_else(|_| panic!("not a number in {l:?}"))).collect())
        .collect();
    (columns, rows)
}

/// Where the times of a `_ref.csv` leave the grid `start + k*step` of its
/// `_ref.opt` (every point from the start to the stop time), if they do.
fn off_grid(ref_csv: &str, ref_opt: &str) -> Option<String> {
    let (start, stop, step) = ref_opt_grid(ref_opt);
    let n = ((stop - start) / step).round() as usize;
    let (_, rows) = parse_csv(ref_csv);
    let times: Vec<f64> = rows.iter().map(|r| r[0]).collect();
    if times.len() != n + 1 {
        return Some(format!("{} rows for the {} points of {start}..{stop} s every {step} s", times.len(), n + 1));
    }
    let k = (0..=n).find(|&k| (times[k] - (start + k as f64 * step)).abs() > 1e-9 * step)?;
    Some(format!("row {k} at t = {}, not {}", times[k], start + k as f64 * step))
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// The files of a zip archive whose names `keep` selects, by name.
fn unzip(path: &Path, keep: impl Fn(&str) -> bool) -> Vec<(String, Vec<u8>)> {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    let names: Vec<String> = zip.file_names().filter(|n| keep(n)).map(str::to_string).collect();
    names
        .into_iter()
        .map(|name| {
            let mut bytes = Vec::new();
            zip.by_name(&name).unwrap().read_to_end(&mut bytes).unwrap();
            (name, bytes)
        })
        .collect()
}

/// Issue 38: an importer that compares on the grid of `_ref.opt` finds
/// every row of `_ref.csv` there. Every `_ref.csv` that `cargo xtask fmu`
/// writes (beside the FMUs, in the fmi-cross-check tree, under
/// `scenarios/`, and inside every FMI 2.0 and 3.0 FMU's
/// `documentation/experiments/`) has a `_ref.opt` beside it, and its time
/// column is `StartTime + k*StepSize`, k = 0 .. (StopTime - StartTime)/StepSize.
#[test]
fn every_ref_csv_lies_on_its_ref_opt_grid() {
    let dir = fmu_path(fmu::registry::MODELS[0].info.identifier).parent().unwrap().to_path_buf();
    // (where, _ref.csv text, _ref.opt text)
    let mut sets: Vec<(String, String, Option<String>)> = Vec::new();
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    let mut archives = Vec::new();
    for path in files_under(&dir) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix("_ref.csv") {
            let opt = path.with_file_name(format!("{stem}_ref.opt"));
            sets.push((path.display().to_string(), read(&path), opt.exists().then(|| read(&opt))));
        } else if name.ends_with(".fmu") {
            archives.push(path);
        }
    }
    for fmu in &archives {
        let files = unzip(fmu, |n| n.ends_with("_ref.csv") || n.ends_with("_ref.opt"));
        for (name, bytes) in &files {
            if let Some(stem) = name.strip_suffix("_ref.csv") {
                let opt = files.iter().find(|(n, _)| *n == format!("{stem}_ref.opt"));
                sets.push((
                    format!("{}!{name}", fmu.display()),
                    String::from_utf8(bytes.clone()).unwrap(),
                    opt.map(|(_, b)| String::from_utf8(b.clone()).unwrap()),
                ));
            }
        }
    }
    // Beside each FMU, in the cross-check tree, in the FMI 2.0 and 3.0 FMUs.
    assert!(sets.len() >= 4 * fmu::registry::MODELS.len(), "only {} _ref.csv files", sets.len());
    let mut failures = Vec::new();
    for (what, csv, opt) in &sets {
        match opt {
            None => failures.push(format!("{what}: no _ref.opt beside it")),
            Some(opt) => {
                if let Some(why) = off_grid(csv, opt) {
                    failures.push(format!("{what}: {why} (_ref.opt: {})", opt.replace('\n', "; ")));
                }
            }
        }
    }
    println!("{} _ref.csv files checked against their _ref.opt", sets.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One inline SVG plot of a page: the column it draws (`aria-label`), its
/// frame and the points of its polyline, in pixels.
struct SvgPlot {
    name: String,
    width: f64,
    height: f64,
    pad: f64,
    points: Vec<(f64, f64)>,
}

fn svg_plots(html: &str) -> Vec<SvgPlot> {
    let attribute = |tag: &str, key: &str| -> String {
        let at = tag.find(&format!(" {key}=\"")).unwrap_or_else(|| panic!("no {key} in {tag}")) + key.len() + 3;
        tag[at..at + tag[at..].find('"').unwrap()].to_string()
    };
    html.split("<svg ")
        .skip(1)
        .map(|svg| {
            let svg = &svg[..svg.find("</svg>").expect("</svg>")];
            let head = &svg[..svg.find('>').unwrap()];
            let rect = &svg[svg.find("<rect").expect("a frame")..];
            let polyline = &svg[svg.find("<polyline").expect("a polyline")..];
            let points = attribute(polyline, "points")
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            SvgPlot {
                name: attribute(&format!(" {head}"), "aria-label"),
                width: attribute(&format!(" {head}"), "width").parse().unwrap(),
                height: attribute(&format!(" {head}"), "height").parse().unwrap(),
                pad: attribute(rect, "x").parse().unwrap(),
                points,
            }
        })
        .collect()
}

/// Where a plot leaves the series `(t, x)`: the page draws `x` over time in
/// its frame, scaled to the series' range (in the unit it shows, a factor
/// that the range cancels), every row when the run has fewer than 1200 rows
/// (else every `rows/600`-th and the last), to 0.1 px.
fn plot_differs(plot: &SvgPlot, t: &[f64], x: &[f64]) -> Option<String> {
    let stride = (t.len() / 600).max(1);
    let drawn: Vec<usize> = (0..t.len()).filter(|&i| i % stride == 0 || i == t.len() - 1).collect();
    if drawn.len() != plot.points.len() {
        return Some(format!("{} points drawn for {} rows", plot.points.len(), drawn.len()));
    }
    let (lo, hi) = x.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
    let (lo, hi) = if hi > lo { (lo, hi) } else { (lo - 1.0, hi + 1.0) };
    let t_end = *t.last().unwrap();
    let (w, h, pad) = (plot.width, plot.height, plot.pad);
    for (&i, &(px, py)) in drawn.iter().zip(&plot.points) {
        let (ex, ey) = (pad + (w - 2.0 * pad) * t[i] / t_end, h - pad - (h - 2.0 * pad) * (x[i] - lo) / (hi - lo));
        if (px - ex).abs() > 0.051 || (py - ey).abs() > 0.051 {
            return Some(format!(
                "at t = {}: drawn at ({px}, {py}) px, the _ref.csv's {} at ({ex:.2}, {ey:.2}) px",
                t[i], x[i]
            ));
        }
    }
    None
}

/// Issue 38: an FMU's page draws its default run, and the text beside it
/// (the model's description) quotes the shipped `_ref.csv`; they must be
/// one run. For every model, the FMI 2.0 and 3.0 pages
/// (`documentation/index.html`) draw, for every column of the
/// `_ref.csv` shipped in the archive (which is the one beside the FMU),
/// exactly that series: each polyline point is the row's time and value in
/// the plot's frame to the page's 0.1 px.
#[test]
fn every_page_draws_the_shipped_ref_csv() {
    let mut failures = Vec::new();
    for m in fmu::registry::MODELS {
        let id = m.info.identifier;
        let beside = std::fs::read_to_string(fmu_path(id).with_file_name(format!("{id}_ref.csv"))).unwrap();
        for archive in [fmu_path(id), fmu3_path(id)] {
            let files = unzip(&archive, |n| n.starts_with("documentation/"));
            let text = |name: &str| {
                files
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, b)| String::from_utf8(b.clone()).unwrap())
                    .unwrap_or_else(|| panic!("{}: no {name}", archive.display()))
            };
            let shipped = text(&format!("documentation/experiments/default/{id}_ref.csv"));
            assert_eq!(shipped, beside, "{}: the _ref.csv inside differs from the one beside", archive.display());
            let (columns, rows) = parse_csv(&shipped);
            let plots = svg_plots(&text("documentation/index.html"));
            let t: Vec<f64> = rows.iter().map(|r| r[0]).collect();
            let mut drawn = 0;
            for (c, name) in columns.iter().enumerate().skip(1) {
                let Some(plot) = plots.iter().find(|p| p.name == *name) else {
                    failures.push(format!("{}: no plot of {name}", archive.display()));
                    continue;
                };
                let x: Vec<f64> = rows.iter().map(|r| r[c]).collect();
                if let Some(why) = plot_differs(plot, &t, &x) {
                    failures.push(format!("{}: {name}: {why}", archive.display()));
                }
                drawn += 1;
            }
            println!("{id}: {drawn} plots of {} are the _ref.csv's columns", archive.display());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The `fmpy...` names of a Markdown text's code spans outside fenced blocks
/// (`fmpy.ssp.simulation`, `fmpy.simulate_fmu`), the names its `from
/// fmpy... import x` spans import and the modules its `python -m fmpy...`
/// spans run, but those it says do not exist (after "no ").
fn fmpy_names(text: &str) -> Vec<String> {
    let dotted =
        |s: &str| s.split('.').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    let mut prose = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    let mut names = Vec::new();
    let parts: Vec<&str> = prose.split('`').collect();
    for (i, span) in parts.iter().enumerate().skip(1).step_by(2) {
        let before = parts[i - 1].split_whitespace().last().unwrap_or("");
        let span = span.split_whitespace().collect::<Vec<_>>().join(" ");
        if before == "no" {
            continue;
        }
        if let Some(rest) = span.strip_prefix("from ") {
            if let Some((module, items)) = rest.split_once(" import ") {
                if module.starts_with("fmpy") && dotted(module) {
                    names.extend(items.split(',').map(|x| format!("{module}.{}", x.trim())).filter(|n| dotted(n)));
                }
            }
        } else if let Some(rest) = span.strip_prefix("python -m ") {
            let module = rest.split_whitespace().next().unwrap_or("");
            if module.starts_with("fmpy") && dotted(module) {
                names.push(module.to_string());
            }
        } else if span.starts_with("fmpy") && dotted(&span) {
            names.push(span);
        }
    }
    names
}

/// Issue 38: the README named `fmpy.ssp.simulate_ssp` and
/// `fmpy.simulate_ssp`, which FMPy 0.3.32 does not have. Every FMPy name
/// the README, the pages under `docs/` it links (where its FMPy and SSP
/// notes moved) and the examples' READMEs give resolves in the test venv's
/// FMPy (a module, or an attribute of one).
#[test]
fn every_fmpy_name_the_readmes_give_exists() {
    let mut files = vec![workspace_root().join("README.md")];
    files.extend(
        std::fs::read_dir(workspace_root().join("docs"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md")),
    );
    files.extend(
        files_under(&workspace_root().join("examples"))
            .into_iter()
            .filter(|p| p.file_name().is_some_and(|n| n == "README.md")),
    );
    let mut names: Vec<String> = files.iter().flat_map(|f| fmpy_names(&std::fs::read_to_string(f).unwrap())).collect();
    names.sort();
    names.dedup();
    assert!(names.iter().any(|n| n == "fmpy.ssp.simulation.simulate_ssp"), "{names:?}");
    let script = "import importlib, sys\n\
        for name in sys.argv[1:]:\n    \
            parts = name.split('.')\n    \
            for k in range(len(parts), 0, -1):\n        \
                try:\n            \
                    x = importlib.import_module('.'.join(parts[:k]))\n            \
                    break\n        \
                except ImportError:\n            \
                    continue\n    \
            try:\n        \
                for p in parts[k:]:\n            \
                    x = getattr(x, p)\n        \
                print('ok', name)\n    \
            except AttributeError:\n        \
                print('missing', name)\n";
    let out = std::process::Command::new(fmu_tests::python()).arg("-c").arg(script).args(&names).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    println!("{stdout}");
    let missing: Vec<&str> = stdout.lines().filter(|l| l.starts_with("missing")).collect();
    assert!(missing.is_empty(), "names FMPy does not have: {missing:?}");
    assert_eq!(stdout.lines().count(), names.len(), "{stdout}");
}
