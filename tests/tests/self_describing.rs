//! Self-describing FMUs, on every FMU `cargo xtask fmu` built: the
//! documentation and icon inside, the metadata, and the cross-check set in
//! the fmi-cross-check layout replayed by `python -m fmpy.cross_check`; the
//! shipped `_ref.csv` values checked against closed forms and the papers'
//! numbers (not only against the FMU that produced them).

use fmu_tests::{fmu_path, identifiers, workspace_root};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::PathBuf;
use std::process::Command;

fn archive(id: &str) -> zip::ZipArchive<std::fs::File> {
    zip::ZipArchive::new(std::fs::File::open(fmu_path(id)).unwrap()).unwrap()
}

fn read(zip: &mut zip::ZipArchive<std::fs::File>, name: &str) -> Vec<u8> {
    let mut f = zip.by_name(name).unwrap_or_else(|_| panic!("{name} is missing"));
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).unwrap();
    bytes
}

/// Every `src="…"` and `href="…"` of an HTML text.
fn references(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attribute in ["src=\"", "href=\""] {
        for (at, _) in html.match_indices(attribute) {
            let rest = &html[at + attribute.len()..];
            out.push(rest[..rest.find('"').unwrap()].to_string());
        }
    }
    out
}

#[test]
fn every_fmu_holds_its_documentation_icon_and_licenses() {
    for id in identifiers() {
        let mut zip = archive(id);
        let names: BTreeSet<String> = zip.file_names().map(str::to_string).collect();
        let html = String::from_utf8(read(&mut zip, "documentation/index.html")).unwrap();
        assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"), "{id}");
        // Offline: no script, no remote resource.
        assert!(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"), "{id}");
        // The page names every platform folder the archive carries.
        for folder in names.iter().filter_map(|n| n.strip_prefix("binaries/")?.split('/').next()) {
            assert!(
                html.contains(&format!("<td>binaries</td><td>{folder}")) || html.contains(&format!(", {folder}")),
                "{id}: {folder} not named"
            );
        }
        // No NaN shown (issue 29: "internal_step (default NaN s)" on models
        // without one); every Model Exchange state's derivative listed with
        // its unit; the interpolated inputs named where there are any.
        assert!(!html.contains("NaN"), "{id}: the page shows a NaN");
        let entry = fmu::registry::get(id);
        for (state, unit) in (entry.states)() {
            assert!(!unit.is_empty(), "{id}: der({state}) has no unit");
            assert!(
                html.contains(&format!("<td><code>der({state})</code></td><td>{unit}</td>")),
                "{id}: der({state}) not on the page"
            );
        }
        for input in (entry.interpolated_inputs)() {
            assert!(
                html.contains(&format!("<code>{input}</code> follow"))
                    || html.contains(&format!("<code>{input}</code>, ")),
                "{id}: {input}"
            );
        }
        // Every variable is in the table, with its description.
        for v in (entry.variables)() {
            assert!(html.contains(&format!("<tr id=\"{}\">", v.name)), "{id}: variable {} not documented", v.name);
            if let Some(e) = v.choices {
                for item in e.items {
                    assert!(html.contains(&format!("<code>{}</code>", item.name)), "{id}: choice {}", item.name);
                }
            }
        }
        // The page cites the model's papers in full, with what it takes from each.
        assert!(html.contains("<h2>Sources</h2>"), "{id}: no Sources section");
        for (source, used) in entry.info.sources {
            for part in [source.authors, source.title, source.year] {
                assert!(html.contains(part), "{id}: the page does not cite {part}");
            }
            assert!(html.contains(&format!("Used here: {used}.")), "{id}: the page does not say what it uses");
        }
        // The model's equations as MathML: one <math> per equation and per
        // condition (a declaration that does not parse would show as code).
        assert!(html.contains("<h2>Equations</h2>"), "{id}: no Equations section");
        let maths = entry.info.equations.len() + entry.info.equations.iter().filter(|e| !e.when.is_empty()).count();
        assert_eq!(html.matches("<math>").count(), maths, "{id}: equations shown");
        // Every reference resolves inside the archive (relative to documentation/).
        let refs = references(&html);
        for r in &refs {
            if let Some(anchor) = r.strip_prefix('#') {
                assert!(html.contains(&format!(" id=\"{anchor}\"")), "{id}: no element {r} on the page");
                continue;
            }
            assert!(!r.contains("..") && !r.starts_with('/'), "{id}: reference {r} leaves documentation/");
            assert!(names.contains(&format!("documentation/{r}")), "{id}: {r} is not in the FMU");
        }
        // Which interface to pick, with the shaft system three ways (issue 19).
        assert!(html.contains("<h2 id=\"interface\">Which interface to pick</h2>"), "{id}");
        assert!(refs.iter().any(|r| r == "figures/shaft_system_three_ways.png"), "{id}: the interface figure");
        // The papers' figures of the model's scenarios are shown.
        for s in fmu::scenarios::all().into_iter().filter(|s| s.model == id) {
            let figure = format!("figures/{}.png", s.figure);
            assert!(refs.contains(&figure), "{id}: {figure} not shown");
            assert!(html.contains(s.name), "{id}: scenario {} not listed", s.name);
        }
        for r in refs.iter().filter(|r| r.ends_with(".png")) {
            assert!(read(&mut zip, &format!("documentation/{r}")).starts_with(b"\x89PNG\r\n\x1a\n"), "{id}: {r}");
        }
        let icon = read(&mut zip, "model.png");
        assert!(icon.starts_with(b"\x89PNG\r\n\x1a\n"), "{id}: model.png is not a PNG");
        // PNG IHDR: width and height at bytes 16..24.
        let size = (
            u32::from_be_bytes(icon[16..20].try_into().unwrap()),
            u32::from_be_bytes(icon[20..24].try_into().unwrap()),
        );
        assert_eq!(size, (128, 128), "{id}: model.png size");
        let mit = String::from_utf8(read(&mut zip, "documentation/licenses/LICENSE-MIT.txt")).unwrap();
        assert!(mit.starts_with("MIT License"), "{id}");
        let apache = String::from_utf8(read(&mut zip, "documentation/licenses/LICENSE-APACHE.txt")).unwrap();
        assert!(apache.contains("Apache License") && apache.contains("Version 2.0"), "{id}");
    }
}

/// The page's replay commands, run as written (with the test venv's
/// Python) in an empty folder holding only the FMU: the default experiment
/// reproduces the shipped `_ref.csv`, a scenario runs to its stop time.
#[test]
fn the_pages_replay_commands_work_from_the_fmu_alone() {
    for id in identifiers() {
        let html = String::from_utf8(read(&mut archive(id), "documentation/index.html")).unwrap();
        let section = &html[html.find("<h2 id=\"replay\">").unwrap_or_else(|| panic!("{id}: no Replay section"))..];
        let pre = &section[section.find("<pre>").unwrap() + 5..section.find("</pre>").unwrap()];
        let dir = std::env::temp_dir().join(format!("replay-{id}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(fmu_path(id), dir.join(format!("{id}.fmu"))).unwrap();
        let lines: Vec<&str> = pre.lines().collect();
        assert!(lines.len() >= 2, "{id}: replay commands {lines:?}");
        for line in lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(words[0], "python", "{id}: {line}");
            let out = Command::new(fmu_tests::python()).args(&words[1..]).current_dir(&dir).output().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{id}: `{line}` failed: {}{stdout}", String::from_utf8_lossy(&out.stderr));
            if words[1] == "-m" {
                continue;
            }
            let experiment = words.get(3).copied().unwrap_or("default");
            let stop = if experiment == "default" {
                fmu::registry::get(id).info.default_experiment.stop_time
            } else {
                fmu::scenarios::all().into_iter().find(|s| s.name == experiment).unwrap().stop_time
            };
            let last = stdout.lines().find(|l| l.starts_with("last row: ")).unwrap_or_else(|| panic!("{id}: {stdout}"));
            let time: f64 = last["last row: time = ".len()..].split(',').next().unwrap().parse().unwrap();
            assert!((time - stop).abs() <= 1e-9 * stop, "{id} {experiment}: ends at {time}, not {stop}");
            if experiment == "default" {
                assert!(stdout.contains(&format!("largest difference from the shipped {id}_ref.csv: ")), "{id}");
                let worst: f64 = stdout
                    .lines()
                    .find_map(|l| {
                        l.strip_prefix("largest difference relative to its column's largest magnitude (at least 1): ")
                    })
                    .unwrap_or_else(|| panic!("{id}: no comparison with the reference: {stdout}"))
                    .parse()
                    .unwrap();
                // The reference is the same run through the FMU's functions
                // in-process (FMPy's call sequence and input interpolation),
                // printed with 17 digits: equal up to rounding in the
                // interpolation of the inputs (relative 1.1e-16 seen).
                assert!(worst <= 1e-12, "{id}: the replay differs from the shipped reference by {worst}");
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn model_descriptions_carry_the_metadata_and_a_reproducible_date() {
    for id in identifiers() {
        let mut zip = archive(id);
        let xml = String::from_utf8(read(&mut zip, "modelDescription.xml")).unwrap();
        let entry = fmu::registry::get(id);
        for (attribute, value) in [
            ("author", fmu::xml::AUTHOR),
            ("version", env!("CARGO_PKG_VERSION")),
            ("copyright", fmu::xml::COPYRIGHT),
            ("license", fmu::xml::LICENSE),
            ("generationTool", fmu::xml::GENERATION_TOOL),
        ] {
            assert!(xml.contains(&format!(" {attribute}=\"{value}\"")), "{id}: {attribute}");
        }
        let tolerance = fmu::registry::get(id).info.default_experiment.tolerance;
        assert!(tolerance <= fmu::xml::DEFAULT_TOLERANCE, "{id}: a default run looser than the others");
        assert!(xml.contains(&format!(" tolerance=\"{tolerance:e}\"")), "{id}: DefaultExperiment tolerance");
        let at = xml.find("generationDateAndTime=\"").expect("generationDateAndTime") + 23;
        let date = &xml[at..at + 20];
        let shape = date.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            10 => b == b'T',
            13 | 16 => b == b':',
            19 => b == b'Z',
            _ => b.is_ascii_digit(),
        });
        assert!(shape, "{id}: generationDateAndTime {date}");
        // Besides the date, the XML is the declarations' own (and so the GUID).
        assert_eq!(xml, fmu::xml::with_generation_date(&(entry.model_description)(), date), "{id}");
    }
}

fn cross_check_dir(id: &str) -> PathBuf {
    fmu_path(id)
        .parent()
        .unwrap()
        .join(format!("cross-check/fmus/2.0/cs/linux64/friction-fmu/{}/{id}", env!("CARGO_PKG_VERSION")))
}

/// `python -m fmpy.cross_check --simulate` over the shipped tree: every FMU
/// validates, every file is accepted and every result scores 100 %.
#[test]
fn fmpy_cross_check_scores_100_percent_on_every_fmu() {
    let root = fmu_path(identifiers()[0]).parent().unwrap().join("cross-check");
    let report = root.join("report.html");
    let python = std::env::var_os("FMPY_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/venv/bin/python"));
    let out = Command::new(python)
        .args(["-m", "fmpy.cross_check", "--simulate", "--fmus_dir"])
        .arg(root.join("fmus"))
        .arg("--report")
        .arg(&report)
        .output()
        .expect("run fmpy.cross_check (cargo xtask test installs FMPy and scipy)");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&report).unwrap();
    let rows: Vec<&str> = html.split("<tr>").filter(|r| r.contains("friction-fmu")).collect();
    assert_eq!(rows.len(), identifiers().len(), "one row per FMU");
    for row in rows {
        let name = row.split("</td>").next().unwrap();
        assert!(row.contains("100 %"), "{name}: not 100 %:\n{row}");
        assert!(!row.contains("label-warning") && !row.contains("label-danger"), "{name}: a problem:\n{row}");
        assert!(!row.contains("label-default") || !row.contains("skipped"), "{name}: skipped");
    }
    println!("fmpy.cross_check: {} FMUs, all 100 %", identifiers().len());
}

/// A shipped `_ref.csv` as columns.
struct Reference {
    columns: Vec<String>,
    rows: Vec<Vec<f64>>,
}

impl Reference {
    fn load(id: &str) -> Self {
        let text = std::fs::read_to_string(cross_check_dir(id).join(format!("{id}_ref.csv"))).unwrap();
        let mut lines = text.lines();
        let columns = lines.next().unwrap().split(',').map(|c| c.trim_matches('"').to_string()).collect();
        let rows = lines.map(|l| l.split(',').map(|x| x.parse().unwrap()).collect()).collect();
        Self { columns, rows }
    }
    fn col(&self, name: &str) -> Vec<f64> {
        let i = self.columns.iter().position(|c| c == name).unwrap_or_else(|| panic!("no column {name}"));
        self.rows.iter().map(|r| r[i]).collect()
    }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// The shipped references against what the physics says, model by model,
/// with stated tolerances. Inputs: start values and each model's declared
/// default inputs (`<Model>_in.csv`: the elements' `w_rel = 0.05*sin(2*pi*t)`,
/// the 1-DOF bodies' torque ramp, CoupledClutches' Modelica inputs), held
/// over each step at their value at its start.
#[test]
fn shipped_references_match_closed_forms_and_paper_numbers() {
    let pi2 = 2.0 * std::f64::consts::PI;
    for id in identifiers() {
        let r = Reference::load(id);
        let t = r.col("time");
        match id {
            // At rest (J = 1), tau = t on [0, 2) then 0, held over each 10 ms step at its
            // value at the step's start (tau_k = 0.01*k). Hill (F_s = 1.2, F_c = 1): stuck,
            // w == 0.0 and mode 0, while tau_k <= F_s; breakaway in the step from 1.21 s;
            // sliding w(t_n) = 0.01*sum_{k=121}^{n-1} (tau_k - 1), w(2) = 1e-4*(21 + .. + 99)
            // = 0.474; then w' = -F_c: at rest from 2.474 s (inside a step), exactly.
            "HillFrictionInertia" => {
                let (w, mode, phi) = (r.col("w"), r.col("mode"), r.col("phi"));
                let mut exact = 0.0;
                for k in 0..t.len() {
                    if t[k] <= 1.21 + 1e-9 {
                        assert!(w[k] == 0.0 && mode[k] == 0.0 && phi[k] == 0.0, "{id}: moving at {}", t[k]);
                    } else if t[k] <= 2.0 + 1e-9 {
                        assert!(close(w[k], exact, 1e-12) && mode[k] == 1.0, "{id}: w({}) = {} vs {exact}", t[k], w[k]);
                    } else if t[k] >= 2.474 {
                        assert!(w[k] == 0.0 && mode[k] == 0.0, "{id}: not at rest at {}", t[k]);
                    }
                    let tau = if t[k] < 2.0 - 1e-9 { (t[k] * 100.0).round() * 0.01 } else { 0.0 };
                    if t[k] >= 1.21 - 1e-9 && t[k] < 2.0 - 1e-9 {
                        exact += 0.01 * (tau - 1.0);
                    }
                }
                let at = |x: f64| w[t.iter().position(|&tk| close(tk, x, 1e-9)).unwrap()];
                assert!(
                    close(at(2.0), 0.474, 1e-12) && close(at(2.47), 0.004, 1e-12),
                    "{id}: {} {}",
                    at(2.0),
                    at(2.47)
                );
                // Angle at rest: the sliding phase's exact integral (trapezoids of the
                // piecewise-linear rate) plus the coast 0.474^2/2.
                let mut angle = 0.0;
                let mut rate = 0.0;
                for k in 121..200 {
                    let next = rate + 0.01 * (k as f64 * 0.01 - 1.0);
                    angle += 0.01 * 0.5 * (rate + next);
                    rate = next;
                }
                angle += rate * rate / 2.0;
                assert!(
                    close(*phi.last().unwrap(), angle, 1e-12),
                    "{id}: phi at rest {} vs {angle}",
                    phi.last().unwrap()
                );
            }
            // The conventional model (F_c = 1, 1 ms internal steps) under the same torque:
            // where it should rest it chatters within F_c*dt/J = 1e-3 rad/s of zero and creeps,
            // backward at F_c*dt/(2J) = 5e-4 rad/s after the stop; slides from tau = F_c.
            "ConventionalCoulombBaseline" => {
                let (w, mode, phi) = (r.col("w"), r.col("mode"), r.col("phi"));
                let k1 = t.iter().position(|&x| close(x, 1.0, 1e-9)).unwrap();
                assert!(w[..=k1].iter().all(|x| x.abs() <= 2e-3), "{id}: more than chatter below F_c");
                assert!(phi[k1] > 1e-4, "{id}: no creep below F_c ({})", phi[k1]);
                let k2 = t.iter().position(|&x| close(x, 2.0, 1e-9)).unwrap();
                assert!(close(w[k2], 0.495, 1e-3), "{id}: w(2) = {}", w[k2]);
                let k3 = t.iter().position(|&x| close(x, 3.0, 1e-9)).unwrap();
                let creep = (phi[phi.len() - 1] - phi[k3]) / (t[t.len() - 1] - t[k3]);
                assert!(close(creep, -5e-4, 2e-5), "{id}: creep {creep} rad/s after the stop");
                assert!(mode[k3..].iter().all(|&m| m != 0.0), "{id}: the conventional model never rests");
            }
            // The same torque on the maps (J = 1, f_s = 0.95, f_c = 0.5): no motion (Stribeck:
            // its static level holds w at 0.0) or a creep (Majd-Simaan) below f_s, sliding
            // above, then the classical map stops exactly (w == 0.0, mode 0)
            // while Majd-Simaan's continuous law decays without ever reaching 0.0 (as its
            // description says).
            "StribeckInertia" | "MajdSimaanInertia" => {
                let (w, mode) = (r.col("w"), r.col("mode"));
                let k = t.iter().position(|&x| close(x, 0.9, 1e-9)).unwrap();
                let creep = if id == "StribeckInertia" { 1e-20 } else { 5e-3 };
                assert!(w[..=k].iter().all(|&x| (0.0..creep).contains(&x)), "{id}: more than creep below f_s");
                let k2 = t.iter().position(|&x| close(x, 2.0, 1e-9)).unwrap();
                assert!(w[k2] > 0.9, "{id}: w(2) = {}", w[k2]);
                assert!(w[k2..].windows(2).all(|p| p[1] <= p[0]), "{id}: rate must not increase while coasting");
                let last = *w.last().unwrap();
                if id == "StribeckInertia" {
                    let stop = t[w.iter().rposition(|&x| x != 0.0).unwrap() + 1];
                    assert!(close(stop, 3.79, 1e-9), "{id}: at rest from {stop} s");
                    assert!(last == 0.0 && *mode.last().unwrap() == 0.0, "{id}: w(end) = {last}");
                } else {
                    assert!(last > 0.0 && last < 1e-50 && *mode.last().unwrap() == 1.0, "{id}: w(end) = {last}");
                }
            }
            // Exponential Stribeck (Eq. 4), f_c = 0.5, f_s = 0.95, w_c = 0.019, f_w = 0.05,
            // at the input held over the step that ends at the row.
            "StribeckElement" => {
                let tau = r.col("tau_friction");
                for k in 1..t.len() {
                    let w = 0.05 * (pi2 * t[k - 1]).sin();
                    let f = w.signum() * (0.5 + 0.45 * (-w.abs() / 0.019).exp()) + 0.05 * w;
                    let expected = if w == 0.0 { 0.0 } else { -f };
                    assert!(close(tau[k], expected, 1e-12), "{id}: tau({}) = {} vs Eq. (4) {expected}", t[k], tau[k]);
                }
            }
            // Odd map: half a period later the input is negated, so is the torque;
            // never above f_s + f_w*|w|.
            "MajdSimaanElement" => {
                let tau = r.col("tau_friction");
                let half = t.iter().position(|&x| close(x, 0.5, 1e-12)).unwrap();
                for k in 1..half {
                    assert!(close(tau[k + half], -tau[k], 1e-9), "{id}: not odd at {}", t[k]);
                    assert!(tau[k].abs() <= 0.95 + 0.05 * 0.05 + 1e-12, "{id}: |tau| above f_s");
                }
            }
            // Dahl (Nurre Eqs. 2-4): |Tf| <= Tf0 = 0.0424, and a hysteresis loop:
            // at the same w_rel the torque differs on the way out and back.
            "DahlElement" => {
                let tau = r.col("tau_friction");
                assert!(tau.iter().all(|x| x.abs() <= 0.0424), "{id}: |Tf| above Tf0");
                let (quarter, three_quarters) = (25, 75); // w_rel = +-0.05 peaks at 0.25 and 0.75 s (0.01 s steps)
                assert!(
                    tau[quarter + 1] < -0.03 && tau[three_quarters + 1] > 0.03,
                    "{id}: sliding torque opposes w_rel"
                );
                // w_rel is 0.05*sin(2*pi*0.1) at t = 0.1 and t = 0.4: rising vs falling branch.
                let (a, b) = (tau[11], tau[41]);
                assert!((a - b).abs() > 0.005, "{id}: no hysteresis ({a} vs {b})");
            }
            // Nurre Fig. 5: I = 5, Tf0 = 0.0424, w0 = 0.002; the body starts in steady sliding
            // (Tf = -Tf0), and the presliding spring keeps |Tf| <= Tf0 throughout.
            "DahlInertia" => {
                let (w, tau) = (r.col("w"), r.col("tau_friction"));
                assert!(close(tau[0], -0.0424, 1e-12) && close(w[0], 0.002, 0.0), "{id}: start");
                assert!(tau.iter().all(|x| x.abs() <= 0.0424 + 1e-12), "{id}: |Tf| above Tf0");
                // Sliding at Tf0 decelerates at Tf0/I: the rate first reaches 0 near w0*I/Tf0 = 0.236 s.
                let stop = t[w.iter().position(|&x| x <= 0.0).unwrap()];
                assert!((0.2..0.3).contains(&stop), "{id}: first stop at {stop} s");
                // As the description says: it rings on the presliding spring and never sticks.
                let mode = r.col("mode");
                assert!(mode.iter().all(|&m| m != 0.0), "{id}: Dahl's law reported an exact stop");
                let last = w.last().unwrap().abs();
                assert!(last > 0.0 && last < 1e-4, "{id}: w(20) = {last}");
            }
            // Two unit inertias, 10 and 0 rad/s, no torque: momentum 10 conserved,
            // locking at the common 5 rad/s.
            "ClutchStickSlip" => {
                let (w1, w2, locked) = (r.col("w1"), r.col("w2"), r.col("locked"));
                for k in 0..t.len() {
                    assert!(close(w1[k] + w2[k], 10.0, 1e-9), "{id}: momentum at {}", t[k]);
                }
                assert!(*locked.last().unwrap() == 1.0 && w1.last() == w2.last(), "{id}: locks");
                assert!(close(*w1.last().unwrap(), 5.0, 1e-9), "{id}");
                // The slip 10 - 2*10*t closes at 0.5 s: locked from the 0.51 s point on
                // (the lock falls on the step boundary; rounding may leave it to the next step).
                let lock = t[locked.iter().position(|&l| l == 1.0).unwrap()];
                assert!((0.5 - 1e-9..=0.51 + 1e-9).contains(&lock), "{id}: locked at {lock}");
                assert!(locked[locked.iter().position(|&l| l == 1.0).unwrap()..].iter().all(|&l| l == 1.0));
            }
            // The blog's plant (J1 = J2 = 1, drive 20 N.m, damping 10 N.m.s on J2)
            // with a 15 N.m clutch: locked from rest, 2*w' = 20 - 10*w, so
            // w = 2*(1 - exp(-5t)), until the torque the clutch must carry,
            // (20 + 10*w)/2, passes 15 N.m at w = 1, t_b = ln(2)/5; then slipping
            // at 15 N.m: w1 = 1 + 5*(t - t_b), w2 = 1.5 - 0.5*exp(-10*(t - t_b)).
            // Tolerances: the damping torque is held over each 1 ms internal step.
            "TwoInertiaClutch" => {
                let (w1, w2, torque) = (r.col("w1"), r.col("w2"), r.col("tau_clutch"));
                let breakaway = 2f64.ln() / 5.0;
                for k in 0..t.len() {
                    let s = t[k] - breakaway;
                    if s < -2e-3 {
                        let locked = 2.0 * (1.0 - (-5.0 * t[k]).exp());
                        assert!(w1[k] == w2[k], "{id}: slipping at {} below the capacity", t[k]);
                        assert!(close(w1[k], locked, 2e-3), "{id}: w({}) = {} vs {locked}", t[k], w1[k]);
                    } else if s > 2e-3 {
                        let (slip1, slip2) = (1.0 + 5.0 * s, 1.5 - 0.5 * (-10.0 * s).exp());
                        assert!(close(w1[k], slip1, 1e-2), "{id}: w1({}) = {} vs {slip1}", t[k], w1[k]);
                        assert!(close(w2[k], slip2, 1e-2), "{id}: w2({}) = {} vs {slip2}", t[k], w2[k]);
                        assert!(close(torque[k].abs(), 15.0, 1e-9), "{id}: slipping clutch carries {}", torque[k]);
                    }
                }
            }
            // The Modelica example's inputs, held over each 2 ms step: the clutches engage and
            // lock one after another as the description says (mode 0 = locked, 2 = free).
            "CoupledClutches" => {
                let modes: Vec<Vec<f64>> = (1..=3).map(|i| r.col(&format!("mode_{i}"))).collect();
                let w: Vec<Vec<f64>> = (1..=4).map(|i| r.col(&format!("w{i}"))).collect();
                let mut sequence: Vec<(f64, [i32; 3])> = Vec::new();
                for k in 0..t.len() {
                    let now = [modes[0][k] as i32, modes[1][k] as i32, modes[2][k] as i32];
                    if sequence.last().map(|s| s.1) != Some(now) {
                        sequence.push((t[k], now));
                    }
                    for j in 0..3 {
                        if now[j] == 0 {
                            assert!(w[j][k] == w[j + 1][k], "{id}: clutch {} locked at unequal speeds", j + 1);
                        }
                    }
                }
                let expected = [
                    (0.0, [1, 2, 2]),   // clutch 1 slides J2 up; 2 and 3 open
                    (0.402, [1, 1, 2]), // clutch 2 engaged at 0.4 s
                    (0.71, [1, 0, 2]),  // J2-J3 locked
                    (0.792, [0, 0, 2]), // J1 locked to them
                    (0.834, [1, 0, 2]), // slips again with the drive
                    (0.902, [1, 0, 1]), // clutch 3 engaged at 0.9 s
                    (0.91, [0, 0, 1]),  // J1 locked again
                    (1.004, [1, 0, 1]), // and slips
                    (1.146, [1, 0, 0]), // J4 locked to J2-J3
                    (1.254, [2, 0, 0]), // clutch 1 free: f_1 = cos(0.4*pi*t) <= 0
                ];
                assert_eq!(sequence.len(), expected.len(), "{id}: {sequence:?}");
                for ((tk, m), (te, me)) in sequence.iter().zip(expected) {
                    assert!(close(*tk, te, 1e-9) && *m == me, "{id}: {sequence:?}");
                }
                let end = [w[1].last().unwrap(), w[2].last().unwrap(), w[3].last().unwrap()];
                assert!(end.iter().all(|&&x| close(x, 2.464352, 1e-6)), "{id}: J2-J4 end at {end:?}");
            }
            // Hill Sec. IV, 1 mdeg step, Hill's friction: the axis stays exactly still
            // until its torque passes the 425 psi static level, then breaks away.
            // Its variables are SI (rad, Pa): Hill's psi and mdeg below by their factors.
            "AntennaAzimuthServo" => {
                const PSI: f64 = 6894.757293168361;
                let (rate, mode) = (r.col("rate"), r.col("mode"));
                let gear: Vec<f64> = r.col("gear_pressure").iter().map(|g| g / PSI).collect();
                for k in 0..t.len() {
                    if mode[k] == 0.0 {
                        assert!(rate[k] == 0.0, "{id}: stuck with rate {} at {}", rate[k], t[k]);
                    }
                }
                let first = mode.iter().position(|&m| m != 0.0).expect("breakaway");
                assert!(gear[first] >= 400.0, "{id}: breakaway at {} psi", gear[first]);
                assert!(gear[..first].iter().all(|&g| g < 425.0 + 3.0), "{id}: torque above static before breakaway");
                // As the description says: breakaway at 1.87 s, at rest from 3.81 s at 1.538 mdeg,
                // 0.54 mdeg past the 1 mdeg command, the torque below the static level.
                let position = r.col("position");
                let last_moving = mode.iter().rposition(|&m| m != 0.0).unwrap();
                assert!(
                    close(t[first], 1.87, 1e-9) && close(t[last_moving + 1], 3.81, 1e-9),
                    "{id}: moves {}..{}",
                    t[first],
                    t[last_moving + 1]
                );
                let end = position.last().unwrap().to_degrees() * 1e3;
                assert!(close(end, 1.538, 5e-4), "{id}: ends at {end} mdeg");
                assert!(
                    gear[last_moving + 1..].iter().all(|g| g.abs() < 425.0),
                    "{id}: held with the torque above F_s"
                );
            }
            // Nurre Fig. 8: 5e-4 rad/s step, CMG pivot Tf0 = 0.27 N.m; the frictionless
            // copy reaches the command, friction stays within Tf0 and slows the rise.
            "CmgGimbalRateLoop" => {
                let (rate, free, tau) = (r.col("rate"), r.col("rate_without_friction"), r.col("tau_friction"));
                assert!(tau.iter().all(|x| x.abs() <= 0.27 + 1e-12), "{id}: |Tf| above Tf0");
                assert!(free.iter().any(|&x| x >= 0.95 * 5e-4), "{id}: frictionless copy never reaches the command");
                let k = t.iter().position(|&x| x >= 0.05).unwrap();
                assert!(rate[k] < free[k], "{id}: friction does not slow the rise");
                // As the description says.
                assert!(
                    close(rate[k], 3.16e-4, 1e-6) && close(free[k], 4.24e-4, 1e-6),
                    "{id}: {} {}",
                    rate[k],
                    free[k]
                );
                assert!(close(*rate.last().unwrap(), 4.976e-4, 1e-7), "{id}: {}", rate.last().unwrap());
            }
            // Borello Fig. 6 command of 1.5 deg: the surface arrives within 10 % and
            // friction stays at its levels (2000 N.m here).
            // Its angles are SI (rad); the paper's deg below.
            "FlapActuatorServo" => {
                let position: Vec<f64> = r.col("position").iter().map(|p| p.to_degrees()).collect();
                let tau = r.col("tau_friction");
                assert!(
                    close(*position.last().unwrap(), 1.5, 0.15),
                    "{id}: final position {}",
                    position.last().unwrap()
                );
                assert!(tau.iter().all(|x| x.abs() <= 2000.0 + 1e-9), "{id}: friction above its level");
                // As the description says: within 1 % by 0.224 s, stuck from 0.538 s at 1.5002 deg.
                let (mode, rate) = (r.col("mode"), r.col("rate"));
                let near = t[position.iter().position(|&p| (p - 1.5).abs() < 0.015).unwrap()];
                let rest = mode.iter().rposition(|&m| m != 0.0).unwrap() + 1;
                assert!(close(near, 0.224, 1e-9) && close(t[rest], 0.538, 1e-9), "{id}: {near} s, {} s", t[rest]);
                assert!(rate[rest..].iter().all(|&x| x == 0.0), "{id}: stuck with a rate");
                assert!(close(*position.last().unwrap(), 1.5002, 1e-4), "{id}: {}", position.last().unwrap());
            }
            // Borello Table 1 model against a stop at -1 rad: never past it; at rest w == 0.
            "LoadDependentFrictionInertia" => {
                let (phi, w, mode) = (r.col("phi"), r.col("w"), r.col("mode"));
                assert!(phi.iter().all(|&p| p >= -1.0), "{id}: past the stop");
                // As the description says: moving backward from the first step, at rest on the
                // lower stop from 0.91 s.
                let rest = mode.iter().rposition(|&m| m != 0.0).unwrap() + 1;
                assert!(
                    close(t[rest], 0.91, 1e-9) && phi[rest..].iter().all(|&p| p == -1.0),
                    "{id}: rest at {}",
                    t[rest]
                );
                assert!(mode[1..rest].iter().all(|&m| m == -1.0), "{id}: not moving backward throughout");
                for k in 0..t.len() {
                    if mode[k] == 0.0 {
                        assert!(w[k] == 0.0, "{id}: stuck with w {} at {}", w[k], t[k]);
                    }
                }
            }
            // The frictionless plant against a held load under 0.9 N.m: the damped
            // oscillator J*phi'' + d*phi' + k*phi = tau (J = 0.01, k = 10, d = 0.1).
            "CompliantDrive" => {
                let (phi, torque) = (r.col("phi_motor"), r.col("tau_shaft"));
                let (j, k, d, tau) = (0.01_f64, 10.0_f64, 0.1_f64, 0.9_f64);
                let (wn, zeta) = ((k / j).sqrt(), d / (2.0 * (k * j).sqrt()));
                let wd = wn * (1.0 - zeta * zeta).sqrt();
                for (i, &ti) in t.iter().enumerate() {
                    let e = (-zeta * wn * ti).exp();
                    let exact = tau / k * (1.0 - e * ((wd * ti).cos() + zeta * wn / wd * (wd * ti).sin()));
                    assert!((phi[i] - exact).abs() < 1e-12, "{id}: phi_motor({ti}) = {} vs {exact}", phi[i]);
                }
                assert!(close(*torque.last().unwrap(), tau, 1e-3), "{id}: the shaft does not carry the drive torque");
                let peak = torque.iter().cloned().fold(f64::MIN, f64::max);
                assert!(close(peak, 1.471, 1e-3), "{id}: shaft torque peak {peak}");
            }
            // The shaft port released: drive end held at 0.25 rad, J = 1, k = 10, F_c = 1,
            // F_s = 1.5: a half swing about 0.15 rad, phi = 0.15 - 0.15*cos(sqrt(10) t),
            // stopping at 0.3 rad at pi/sqrt(10) = 0.993 s, then stuck (the shaft pulls
            // back with 0.5 N.m < F_s); tau_shaft on the drive is -k*(0.25 - phi) while stuck.
            "HillFrictionShaftLoad" => {
                let (phi, w, mode, torque) = (r.col("phi"), r.col("w"), r.col("mode"), r.col("tau_shaft"));
                let stop = std::f64::consts::PI / 10f64.sqrt();
                for (i, &ti) in t.iter().enumerate() {
                    if ti < stop - 1e-9 {
                        let exact = 0.15 - 0.15 * (10f64.sqrt() * ti).cos();
                        assert!(close(phi[i], exact, 1e-12), "{id}: phi({ti}) = {} vs {exact}", phi[i]);
                    } else if ti > stop + 0.02 {
                        assert!(w[i] == 0.0 && mode[i] == 0.0, "{id}: moving at {ti}");
                        assert!(close(phi[i], 0.3, 1e-12), "{id}: phi({ti}) = {}", phi[i]);
                        assert!(close(torque[i], 0.5, 1e-12), "{id}: tau_shaft({ti}) = {}", torque[i]);
                    }
                }
            }
            // The law ports' default run: the drive end winds at 0.5 rad/s (k = 10, J = 1).
            // tests/tests/law_ports.rs checks the same run against an independent solve_ivp
            // reference; here the numbers their descriptions give.
            "StribeckShaftLoad" | "MajdSimaanShaftLoad" | "DahlShaftLoad" => {
                let (w, friction) = (r.col("w"), r.col("tau_friction"));
                let at = |x: f64| t.iter().position(|&ti| close(ti, x, 1e-9)).unwrap();
                let slow = |a: f64, b: f64| w[at(a)..=at(b)].iter().all(|x| x.abs() < 1e-2);
                let peak = w.iter().cloned().fold(f64::MIN, f64::max);
                match id {
                    "StribeckShaftLoad" => {
                        assert!(w[..=at(0.18)].iter().all(|x| x.abs() < 1e-19), "{id}: more than creep before f_s");
                        assert!(close(peak, 1.03, 5e-3) && slow(1.99, 2.23), "{id}: peak {peak}, no rest near 2 s");
                    }
                    "MajdSimaanShaftLoad" => {
                        assert!(w[at(0.18)] > 1e-3 && w[at(0.18)] < 5e-3, "{id}: creep {}", w[at(0.18)]);
                        assert!(close(peak, 1.03, 5e-3) && slow(1.98, 2.23), "{id}: peak {peak}, no slowing near 2 s");
                        assert!(w[1..].iter().all(|&x| x != 0.0), "{id}: the continuous law stuck exactly");
                    }
                    _ => {
                        assert!(
                            close(peak, 0.99, 5e-3) && close(t[w.iter().position(|&x| x == peak).unwrap()], 1.0, 1e-9)
                        );
                        assert!(
                            slow(1.96, 2.03) && w.iter().all(|&x| x >= 0.0),
                            "{id}: not the swing behind the drive"
                        );
                        for (i, &x) in w.iter().enumerate().skip(1) {
                            if x > 0.1 && t[i] >= 0.5 {
                                assert!(
                                    close(friction[i], -0.0424, 0.002),
                                    "{id}: friction {} at {}",
                                    friction[i],
                                    t[i]
                                );
                            }
                        }
                    }
                }
            }
            // Borello's port, the drive end winding at 0.5 rad/s (k = 10, tau_load = 0): held
            // until k*0.5*t = FSD*TFR0 = 1.2 N.m (0.24 s), one damped slide into the +1 rad stop,
            // held there; the mean shaft torque over the last step -k*(0.5*3.995 - 1).
            "LoadDependentFrictionShaftLoad" => {
                let (w, phi, mode, torque) = (r.col("w"), r.col("phi"), r.col("mode"), r.col("tau_shaft"));
                let first = t.iter().zip(&w).position(|(_, &x)| x != 0.0).unwrap();
                assert!(close(t[first], 0.25, 1e-9), "{id}: moves from {}", t[first]);
                let peak = w.iter().cloned().fold(f64::MIN, f64::max);
                assert!(close(peak, 0.98, 5e-3) && w.iter().all(|&x| x >= 0.0), "{id}: peak {peak}");
                let stop = t.iter().position(|&ti| close(ti, 2.32, 1e-9)).unwrap();
                assert!(mode[first..stop].iter().all(|&m| m == 1.0), "{id}: stuck before the hard stop");
                assert!(
                    phi[stop..].iter().all(|&p| p == 1.0) && w[stop..].iter().all(|&x| x == 0.0),
                    "{id}: left the stop"
                );
                assert!(close(*torque.last().unwrap(), -9.975, 1e-9), "{id}: tau_shaft {}", torque.last().unwrap());
            }
            // The motor alone: w = 0.5*(1 - exp(-t/0.1)) towards w_command = 0.5 rad/s.
            "MotorDrive" => {
                let w = r.col("w");
                for (i, &ti) in t.iter().enumerate() {
                    let exact = 0.5 * (1.0 - (-ti / 0.1).exp());
                    assert!(close(w[i], exact, 1e-12), "{id}: w({ti}) = {} vs {exact}", w[i]);
                }
            }
            // Locked from rest (w1 == w2 exactly) until the torque the clutch must
            // carry passes its 1 N.m near 0.10 s; then slipping to the end at the
            // capacity, plate 2 swinging on its shaft about its 0.1 rad deflection
            // under 1 N.m (k_load = 10 N.m/rad).
            "ShaftClutch" => {
                let (locked, w1, w2) = (r.col("locked"), r.col("w1"), r.col("w2"));
                let (clutch, phi2) = (r.col("tau_clutch"), r.col("phi2"));
                let k = locked.iter().position(|&l| l == 0.0).unwrap();
                assert!(t[k] > 0.09 && t[k] < 0.11, "{id}: unlocked at {}", t[k]);
                assert!((0..k).all(|i| locked[i] == 1.0 && w1[i] == w2[i]), "{id}: locked means w1 == w2");
                assert!(locked[k..].iter().all(|&l| l == 0.0), "{id}: locked again");
                assert!(clutch[k + 1..].iter().all(|&c| close(c, 1.0, 1e-12)), "{id}: slipping at the capacity");
                let after = t.iter().position(|&ti| ti >= 0.2).unwrap();
                assert!(phi2[after..].iter().all(|&p| (0.0..0.2).contains(&p)), "{id}: plate 2's swing");
            }
            other => panic!("{other}: add the physics its reference must show"),
        }
    }
}

/// A headless Chromium screenshot of one FMU's documentation, extracted from
/// the archive (so it shows exactly what an importer opens), written to
/// `target/doc-screenshots/`; skipped with a note when Chromium is absent.
#[test]
fn documentation_renders_in_a_browser() {
    let browser = ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| Command::new(b).arg("--version").output().map(|o| o.status.success()).unwrap_or(false));
    let Some(browser) = browser else {
        println!("skipped: no chromium on this machine (Debian: apt-get install chromium)");
        return;
    };
    // Two pages: an inertia's (its equations in MathML) and a plant's.
    for id in ["HillFrictionInertia", "AntennaAzimuthServo"] {
        screenshot(browser, id);
    }
}

fn screenshot(browser: &str, id: &str) {
    let dir = workspace_root().join("target/doc-screenshots").join(id);
    let _ = std::fs::remove_dir_all(&dir);
    let mut zip = archive(id);
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).unwrap();
        if let Some(name) = f.name().strip_prefix("documentation/").map(str::to_string) {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let mut bytes = Vec::new();
            f.read_to_end(&mut bytes).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
    }
    let shot = workspace_root().join(format!("target/doc-screenshots/{id}.png"));
    let profile = std::env::temp_dir().join(format!("chromium-profile-{}", std::process::id()));
    let out = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg("--window-size=1200,2400")
        .arg(format!("file://{}", dir.join("index.html").display()))
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&profile);
    assert!(out.status.success(), "{browser}: {}", String::from_utf8_lossy(&out.stderr));
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000, "screenshot {} looks empty", shot.display());
    println!("screenshot of {id}'s documentation/index.html: {}", shot.display());
}
