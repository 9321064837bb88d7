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
            let tmp = fmu_tests::PrivateTmp::new();
            let out = tmp.command(fmu_tests::python()).args(&words[1..]).current_dir(&dir).output().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{id}: `{line}` failed: {}{stdout}", String::from_utf8_lossy(&out.stderr));
            assert!(tmp.leftovers().is_empty(), "{id}: `{line}` left {:?} in the temporary folder", tmp.leftovers());
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
    let tmp = fmu_tests::PrivateTmp::new();
    let out = tmp
        .command(python)
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

/// Every shipped `_ref.csv` held to its model's own expected behaviour
/// (`ModelInfo::expects`, in the model's folder: closed forms and the
/// papers' and the description's numbers, with stated tolerances). Inputs:
/// start values and each model's declared default inputs (`<Model>_in.csv`),
/// held over each step at their value at its start.
#[test]
fn shipped_references_show_what_each_model_expects() {
    let mut broken = Vec::new();
    for id in identifiers() {
        let text = std::fs::read_to_string(cross_check_dir(id).join(format!("{id}_ref.csv"))).unwrap();
        let run = fmu::behaviour::Run::from_csv(&text).unwrap_or_else(|e| panic!("{id}_ref.csv: {e}"));
        if let Err(claim) = fmu::registry::get(id).info.behaviour.check_default_run(&run) {
            broken.push(format!("{id}: {claim}"));
        }
    }
    assert!(broken.is_empty(), "shipped references that break their model's claims:\n{}", broken.join("\n"));
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
