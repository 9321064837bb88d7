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
        // Every variable is in the table, with its description.
        let entry = fmu::registry::get(id);
        for v in (entry.variables)() {
            assert!(html.contains(&format!("<tr id=\"{}\">", v.name)), "{id}: variable {} not documented", v.name);
            if let Some(e) = v.choices {
                for item in e.items {
                    assert!(html.contains(&format!("<code>{}</code>", item.name)), "{id}: choice {}", item.name);
                }
            }
        }
        // Every reference resolves inside the archive (relative to documentation/).
        let refs = references(&html);
        for r in &refs {
            assert!(!r.contains("..") && !r.starts_with('/'), "{id}: reference {r} leaves documentation/");
            assert!(names.contains(&format!("documentation/{r}")), "{id}: {r} is not in the FMU");
        }
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
        assert!(xml.contains(" tolerance=\"1e-6\""), "{id}: DefaultExperiment tolerance");
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
/// with stated tolerances. Inputs: start values (and the elements' test
/// sine `w_rel = 0.05*sin(2*pi*t)`, held over each step at its start value).
#[test]
fn shipped_references_match_closed_forms_and_paper_numbers() {
    let pi2 = 2.0 * std::f64::consts::PI;
    for id in identifiers() {
        let r = Reference::load(id);
        let t = r.col("time");
        match id {
            // J = 1, F_c = 1, w(0) = 1: w = 1 - t until rest at t = 1 s (Hill Fig. 1 baseline).
            "CoulombInertia" | "HillFrictionInertia" => {
                let w = r.col("w");
                for (k, &tk) in t.iter().enumerate().filter(|(_, &tk)| tk < 0.995) {
                    assert!(close(w[k], 1.0 - tk, 1e-9), "{id}: w({tk}) = {}", w[k]);
                }
                if id == "HillFrictionInertia" {
                    // Exact stiction after the stop: w == 0.0 and mode 0 from 1 s on.
                    let mode = r.col("mode");
                    for (k, &tk) in t.iter().enumerate().filter(|(_, &tk)| tk >= 1.0 + 1e-9) {
                        assert!(w[k] == 0.0 && mode[k] == 0.0, "{id}: moving at {tk}");
                    }
                }
            }
            // Slowing from 0.05 rad/s under the friction map; the classical
            // map sticks exactly, Majd-Simaan's continuous one decays to ~0.
            "StribeckInertia" | "MajdSimaanInertia" => {
                let w = r.col("w");
                assert!(w.windows(2).all(|p| p[1] <= p[0]), "{id}: rate must not increase while coasting");
                let last = *w.last().unwrap();
                assert!(if id == "StribeckInertia" { last == 0.0 } else { last.abs() < 1e-6 }, "{id}: w(end) = {last}");
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
            // Four unit inertias, w1(0) = 10, no drive: momentum 10 conserved, all
            // locked at 10/4 = 2.5 rad/s in the end.
            "CoupledClutches" => {
                let w: Vec<Vec<f64>> = (1..=4).map(|i| r.col(&format!("w{i}"))).collect();
                for k in 0..t.len() {
                    let momentum: f64 = w.iter().map(|c| c[k]).sum();
                    assert!(close(momentum, 10.0, 1e-9), "{id}: momentum {momentum} at {}", t[k]);
                }
                for c in &w {
                    assert!(close(*c.last().unwrap(), 2.5, 1e-9), "{id}: final rate {}", c.last().unwrap());
                }
            }
            // Hill Sec. IV, 1 mdeg step, Hill's friction: the axis stays exactly still
            // until its torque passes the 425 psi static level, then breaks away.
            "AntennaAzimuthServo" => {
                let (rate, mode, gear) = (r.col("rate"), r.col("mode"), r.col("tau_gear"));
                for k in 0..t.len() {
                    if mode[k] == 0.0 {
                        assert!(rate[k] == 0.0, "{id}: stuck with rate {} at {}", rate[k], t[k]);
                    }
                }
                let first = mode.iter().position(|&m| m != 0.0).expect("breakaway");
                assert!(gear[first] >= 400.0, "{id}: breakaway at {} psi", gear[first]);
                assert!(gear[..first].iter().all(|&g| g < 425.0 + 3.0), "{id}: torque above static before breakaway");
            }
            // Nurre Fig. 8: 5e-4 rad/s step, CMG pivot Tf0 = 0.27 N.m; the frictionless
            // copy reaches the command, friction stays within Tf0 and slows the rise.
            "CmgGimbalRateLoop" => {
                let (rate, free, tau) = (r.col("rate"), r.col("rate_without_friction"), r.col("tau_friction"));
                assert!(tau.iter().all(|x| x.abs() <= 0.27 + 1e-12), "{id}: |Tf| above Tf0");
                assert!(free.iter().any(|&x| x >= 0.95 * 5e-4), "{id}: frictionless copy never reaches the command");
                let k = t.iter().position(|&x| x >= 0.05).unwrap();
                assert!(rate[k] < free[k], "{id}: friction does not slow the rise");
            }
            // Borello Fig. 6 command of 1.5 deg: the surface arrives within 10 % and
            // friction stays at its levels (2000 N.m here).
            "FlapActuatorServo" => {
                let (position, tau) = (r.col("position"), r.col("tau_friction"));
                assert!(
                    close(*position.last().unwrap(), 1.5, 0.15),
                    "{id}: final position {}",
                    position.last().unwrap()
                );
                assert!(tau.iter().all(|x| x.abs() <= 2000.0 + 1e-9), "{id}: friction above its level");
            }
            // Borello Table 1 model against a stop at -1 rad: never past it; at rest w == 0.
            "LoadDependentFrictionInertia" => {
                let (phi, w, mode) = (r.col("phi"), r.col("w"), r.col("mode"));
                assert!(phi.iter().all(|&p| p >= -1.0), "{id}: past the stop");
                for k in 0..t.len() {
                    if mode[k] == 0.0 {
                        assert!(w[k] == 0.0, "{id}: stuck with w {} at {}", w[k], t[k]);
                    }
                }
            }
            // The frictionless plant against a held load under 1 N.m: the damped
            // oscillator J*phi'' + d*phi' + k*phi = tau (J = 0.01, k = 10, d = 0.1).
            "CompliantDrive" => {
                let (phi, torque) = (r.col("phi_motor"), r.col("tau_shaft"));
                let (j, k, d, tau) = (0.01_f64, 10.0_f64, 0.1_f64, 1.0_f64);
                let (wn, zeta) = ((k / j).sqrt(), d / (2.0 * (k * j).sqrt()));
                let wd = wn * (1.0 - zeta * zeta).sqrt();
                for (i, &ti) in t.iter().enumerate() {
                    let e = (-zeta * wn * ti).exp();
                    let exact = tau / k * (1.0 - e * ((wd * ti).cos() + zeta * wn / wd * (wd * ti).sin()));
                    assert!((phi[i] - exact).abs() < 1e-12, "{id}: phi_motor({ti}) = {} vs {exact}", phi[i]);
                }
                assert!(close(*torque.last().unwrap(), tau, 1e-3), "{id}: the shaft does not carry the drive torque");
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
            // The motor alone: w = 0.5*(1 - exp(-t/0.1)) towards w_command = 0.5 rad/s.
            "MotorDrive" => {
                let w = r.col("w");
                for (i, &ti) in t.iter().enumerate() {
                    let exact = 0.5 * (1.0 - (-ti / 0.1).exp());
                    assert!(close(w[i], exact, 1e-12), "{id}: w({ti}) = {} vs {exact}", w[i]);
                }
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
    let id = "AntennaAzimuthServo";
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
