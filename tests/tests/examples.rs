//! The coupling cookbook in `examples/`, run at small size with the test
//! venv's Python (`FMPY_PYTHON`) on the built FMUs and the SSP system
//! (`FMU_DIR`); each example's physics is checked from the files it writes
//! into `target/examples/<example>/`.

use fmu_tests::{fmu_path, workspace_root, Table};
use std::path::{Path, PathBuf};

fn out_dir(name: &str) -> PathBuf {
    let dir = workspace_root().join("target/examples").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Run `examples/<script>` with `args`; (success, stdout, stderr). An
/// example cleans up after itself: whatever it ran, it leaves nothing in
/// the temporary folder (a user's runs must not fill it).
fn example(script: &str, args: &[&str]) -> (bool, String, String) {
    let (ok, stdout, stderr, leftovers) =
        fmu_tests::run_python_leftovers(&workspace_root().join("examples").join(script), args);
    assert!(leftovers.is_empty(), "{script} left {leftovers:?} in its temporary folder");
    (ok, stdout, stderr)
}

fn run_ok(script: &str, args: &[&str]) -> String {
    let (ok, stdout, stderr) = example(script, args);
    assert!(ok, "{script} failed:\n{stdout}\n{stderr}");
    eprintln!("{script}:\n{stdout}");
    stdout
}

/// A CSV of numbers (`repr` floats) as a table; non-numeric cells are NaN.
fn read_csv(path: &Path) -> Table {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let columns = lines.next().expect("header").split(',').map(str::to_string).collect();
    let rows = lines.map(|l| l.split(',').map(|x| x.parse().unwrap_or(f64::NAN)).collect()).collect();
    Table { columns, rows }
}

fn ssp_path() -> PathBuf {
    fmu_path("CompliantDrive").with_file_name("ShaftDriveHillFriction.ssp")
}

/// The SSP system in fmpy.ssp as shipped (no input, no parameter given but
/// the bound set): a 0.9 N.m motor torque, below both friction levels,
/// winds the shaft up; the load holds w == 0.0 exactly while the shaft
/// torque is at or below the static level (1.2 N.m), breaks away in the
/// first step whose torque is above it (the shaft's overshoot, the damped
/// oscillator's first peak 0.9*(1 + e^(-zeta*pi/sqrt(1 - zeta^2))) plus
/// the damper's share, 1.47 N.m), slides against exactly the Coulomb level
/// and sticks again exactly, for good. At the system's 1 ms step and at
/// 10 ms.
#[test]
fn ssp_system_breaks_away_through_the_shafts_overshoot() {
    let ssp = ssp_path();
    for (h, label) in [(1e-3, "1ms"), (1e-2, "10ms")] {
        let out = out_dir(&format!("ssp_system_{label}"));
        let mut args = vec!["--ssp", ssp.to_str().unwrap(), "--out", out.to_str().unwrap()];
        if label == "10ms" {
            args.extend(["--step", "0.01"]);
        }
        let stdout = run_ok("ssp_system/ssp_system.py", &args);
        assert!(stdout.contains("valid: SystemStructure.ssd (SystemStructureDescription.xsd)"), "{stdout}");
        assert!(stdout.contains("valid: resources/ShaftDriveHillFriction.ssv (SystemStructureParameterValues.xsd)"));
        assert!(stdout.contains("motor torque 0.9 N.m"), "{stdout}");
        assert!(out.join("ssp_system.png").exists());
        let t = read_csv(&out.join("ssp_system.csv"));
        let (time, applied, w, friction) =
            (t.column("time"), t.column("tau_applied"), t.column("w"), t.column("tau_friction"));
        let (static_level, coulomb) = (1.2, 1.0);
        assert!((time[time.len() - 1] - 1.0).abs() < 1e-9, "the system's 1 s");
        let first = w.iter().position(|&x| x != 0.0).expect("the load never moved");
        for k in 0..first {
            assert!(
                applied[k] <= static_level && w[k] == 0.0,
                "{label}: {} s: {} N.m, w {}",
                time[k],
                applied[k],
                w[k]
            );
        }
        assert!(applied[first] > static_level, "{label}: broke away under {} N.m", applied[first]);
        // The first peak of the wind-up (5 Hz): a quarter to a half period in.
        assert!(time[first] > 0.04 && time[first] < 0.08 + h, "{label}: breakaway at {} s", time[first]);
        let peak = applied.iter().cloned().fold(f64::MIN, f64::max);
        assert!((peak - 1.47).abs() < 0.01 + 0.5 * h, "{label}: shaft torque peak {peak}");
        let sliding: Vec<usize> = (first..time.len()).filter(|&k| w[k] > 0.0).collect();
        assert!(sliding.iter().all(|&k| friction[k] == -coulomb), "{label}: sliding friction is not -F_c");
        let again = (first..time.len()).find(|&k| w[k] == 0.0).expect("never stuck again");
        assert!(time[again] > 0.15 && time[again] < 0.3, "{label}: stuck again at {} s", time[again]);
        for k in again..time.len() {
            assert!(w[k] == 0.0 && applied[k].abs() <= static_level, "{label}: {} s: w = {}", time[k], w[k]);
        }
        println!("{label}: breakaway {:.3} s, stuck {:.3} s, peak {peak:.4} N.m", time[first], time[again]);
    }
}

/// FMPy's schemas do reject a broken system: the same archive with the
/// required `version` attribute removed from SystemStructure.ssd fails.
#[test]
fn ssp_validation_rejects_an_invalid_system() {
    use std::io::{Read, Write};
    let out = out_dir("ssp_invalid");
    std::fs::create_dir_all(&out).unwrap();
    let broken = out.join("broken.ssp");
    let mut source = zip::ZipArchive::new(std::fs::File::open(ssp_path()).unwrap()).unwrap();
    let mut writer = zip::ZipWriter::new(std::fs::File::create(&broken).unwrap());
    for i in 0..source.len() {
        let mut file = source.by_index(i).unwrap();
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).unwrap();
        if file.name() == "SystemStructure.ssd" {
            let text = String::from_utf8(bytes).unwrap();
            let root = text.find("<ssd:SystemStructureDescription").expect("root element");
            let (head, tail) = text.split_at(root);
            assert!(tail.contains(" version=\"1.0\""));
            bytes = format!("{head}{}", tail.replacen(" version=\"1.0\"", "", 1)).into_bytes();
        }
        writer.start_file(file.name(), zip::write::SimpleFileOptions::default()).unwrap();
        writer.write_all(&bytes).unwrap();
    }
    writer.finish().unwrap();
    let (ok, stdout, stderr) = example(
        "ssp_system/ssp_system.py",
        &["--ssp", broken.to_str().unwrap(), "--out", out.to_str().unwrap(), "--stop-time", "0.1"],
    );
    assert!(!ok, "a system without its version attribute passed:\n{stdout}");
    assert!(stderr.contains("is not valid SSP 1.0") && stderr.contains("version"), "{stderr}");
}

/// The two masters on the stick-slip oscillator: the fine-step reference
/// sticks for the closed-form 2*(F_s - F_c)/(k*v) = 0.2 s per cycle; at
/// 20 ms the hold master stretches each stick phase, the iterating master
/// (state saved and restored, steps repeated until the end-of-step values
/// agree) less so, and follows the reference more closely.
#[test]
fn iterating_master_beats_the_hold_master() {
    let out = out_dir("iterating_master");
    let fmu_dir = fmu_path("CompliantDrive").parent().unwrap().to_path_buf();
    let stdout = run_ok(
        "iterating_master/iterating_master.py",
        &[
            "--fmu-dir",
            fmu_dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--step",
            "0.02",
            "--stop-time",
            "6",
            "--refine",
            "20",
        ],
    );
    assert!(stdout.contains("0 steps not converged"), "{stdout}");
    assert!(out.join("iterating_master.png").exists());
    let text = std::fs::read_to_string(out.join("stick_phases.csv")).unwrap();
    let mut durations = std::collections::BTreeMap::<String, Vec<f64>>::new();
    for line in text.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        durations.entry(cells[0].to_string()).or_default().push(cells[3].parse().unwrap());
    }
    let closed_form = 2.0 * (1.5 - 1.0) / (10.0 * 0.5);
    let mean = |m: &str| {
        let d = &durations[m];
        assert!(d.len() >= 2, "{m}: {d:?}");
        d.iter().sum::<f64>() / d.len() as f64
    };
    let (reference, hold, iterated) = (mean("reference"), mean("hold"), mean("iterated"));
    eprintln!("stick: closed form {closed_form} s, reference {reference}, hold {hold}, iterated {iterated}");
    assert!((reference - closed_form).abs() < 0.1 * closed_form, "reference {reference} vs {closed_form}");
    assert!(hold > iterated && iterated > reference, "hold {hold}, iterated {iterated}, reference {reference}");
    let t = read_csv(&out.join("traces.csv"));
    let rms = |c: &str| {
        let (x, r) = (t.column(c), t.column("w_reference"));
        (x.iter().zip(&r).map(|(a, b)| (a - b) * (a - b)).sum::<f64>() / x.len() as f64).sqrt()
    };
    let (rms_hold, rms_iterated) = (rms("w_hold"), rms("w_iterated"));
    eprintln!("rms rate difference to the reference: hold {rms_hold}, iterated {rms_iterated}");
    assert!(rms_iterated < 0.5 * rms_hold);
    // The shaft cut (MotorDrive + HillFrictionShaftLoad) under both masters at
    // the same 20 ms: every stick within one step of the exact one (shaft
    // reference, matrix exponential per mode), the rate within 0.1 % rms of
    // its peak, where the torque cut's hold master is off by tens of %.
    let exact = mean("exact");
    assert!((exact - 0.199).abs() < 1e-3, "exact stick {exact}");
    for m in ["shaft_jacobi", "shaft_gauss_seidel"] {
        assert_eq!(durations[m].len(), durations["exact"].len(), "{m}: {:?}", durations[m]);
        assert!(durations[m].iter().all(|d| (d - exact).abs() <= 0.02 + 1e-9), "{m}: {:?}", durations[m]);
    }
    let rms_exact = |c: &str| {
        let (x, r) = (t.column(c), t.column("w_exact"));
        let peak = r.iter().fold(0.0_f64, |a, b| a.max(b.abs()));
        (x.iter().zip(&r).map(|(a, b)| (a - b) * (a - b)).sum::<f64>() / x.len() as f64).sqrt() / peak
    };
    let (jacobi, gauss_seidel, hold) =
        (rms_exact("w_shaft_jacobi"), rms_exact("w_shaft_gauss_seidel"), rms_exact("w_hold"));
    eprintln!("rms rate error / peak against the exact solution: shaft jacobi {jacobi}, gauss-seidel {gauss_seidel}, torque hold {hold}");
    assert!(jacobi < 1e-3 && gauss_seidel < 1e-3 && hold > 0.05, "{jacobi} {gauss_seidel} {hold}");
}

/// The early-return master (issue 41) on the two SSP systems at 1, 5, 20
/// and 50 ms, against the grid master and the references computed
/// independently of the FMUs (`shaft_reference.py`: the whole system
/// exactly; `clutch_between_shafts.py`: `solve_ivp` with located events).
/// Motor and shaft port: every event within 1 % of the step where the grid
/// master is up to one step late, the load's rate exactly 0.0 at every
/// stuck row. The clutch system: within 1 % at 1 ms; at larger steps the
/// coupled trajectory's own error, bounded by a fifth of the step. Costs:
/// at most one extra doStep per FMU and one repeated step per FMU for each
/// event. The iterating master (each step again until the FMUs agree on
/// the motion they exchange): both systems within 1 % of the step up to
/// 20 ms, 2.5 % at 50 ms, every event seen once, at most 8 doStep calls
/// per grid step.
#[test]
fn early_return_master_puts_the_events_at_their_instants() {
    let out = out_dir("early_return_master");
    let fmu_dir = fmu_path("CompliantDrive").parent().unwrap().to_path_buf();
    let stdout = run_ok(
        "early_return_master/early_return_master.py",
        &["--fmu-dir", fmu_dir.to_str().unwrap(), "--out", out.to_str().unwrap()],
    );
    assert!(out.join("early_return_master.png").exists());
    assert!(!stdout.contains("every stuck row: no"), "{stdout}");
    assert_eq!(stdout.matches("every stuck row: yes").count(), 12, "{stdout}");
    let instants = std::fs::read_to_string(out.join("instants.csv")).unwrap();
    let mut rows = 0;
    for line in instants.lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        let (system, event, step, master) = (c[0], c[1], c[3].parse::<f64>().unwrap(), c[4]);
        let error: f64 = c[6].parse().unwrap();
        assert!(error.is_finite(), "{line}: not seen");
        let bound = match (system, master) {
            (_, "grid") => step + 1e-9,
            // (README: within 10 microseconds at every step.)
            ("MotorShaftLoadHillFriction", _) => (0.01 * step).min(1e-5),
            (_, _) if step <= 1e-3 => 0.01 * step,
            // The iterating master: 1 % of the step up to 20 ms (issue 41's
            // goal), 2.5 % at 50 ms (README: 2.0 % there).
            (_, "iterating") if step <= 0.02 => 0.01 * step,
            (_, "iterating") => 0.025 * step,
            _ => 0.2 * step,
        };
        assert!(
            error.abs() <= bound,
            "{system} {event} at {step} s, {master} master: off by {error} s (bound {bound})"
        );
        if master == "grid" && system == "MotorShaftLoadHillFriction" {
            assert!(error > 0.0, "{line}: the grid master sees an event before it happens");
        }
        rows += 1;
    }
    assert_eq!(rows, (3 + 2) * 4 * 3, "{instants}");
    let costs = std::fs::read_to_string(out.join("costs.csv")).unwrap();
    let table: Vec<Vec<&str>> = costs.lines().skip(1).map(|l| l.split(',').collect()).collect();
    for triple in table.chunks(3) {
        let (grid, early, iterating) = (&triple[0], &triple[1], &triple[2]);
        assert_eq!((grid[2], early[2], iterating[2]), ("grid", "early", "iterating"));
        assert_eq!(iterating[6], iterating[7], "{} at {}: the iterating master's events", grid[0], grid[1]);
        // The passes settle: at most 8 doStep calls per grid step (README:
        // 3 to 7 here).
        let calls: usize = iterating[3].parse().unwrap();
        assert!(calls <= 8 * grid[3].parse::<usize>().unwrap(), "{} at {}: {calls} doStep calls", grid[0], grid[1]);
        let fmus = if grid[0] == "MotorClutchLoad" { 3 } else { 2 };
        let (seen, exact): (usize, usize) = (early[6].parse().unwrap(), early[7].parse().unwrap());
        let step: f64 = grid[1].parse().unwrap();
        // Up to 20 ms each master sees each event once; at 50 ms the clutch
        // system's coupled trajectory may lock for an instant after its slip.
        assert!(seen == exact || (step > 0.02 && seen > exact), "{} at {step}: {seen} events for {exact}", grid[0]);
        assert_eq!(grid[6], grid[7], "{} at {step}: the grid master's events", grid[0]);
        let events = seen;
        let extra = early[3].parse::<usize>().unwrap() - grid[3].parse::<usize>().unwrap();
        assert!(
            extra <= 2 * fmus * events,
            "{} at {}: {extra} extra doStep calls for {events} events",
            grid[0],
            grid[1]
        );
    }
}

/// The Dask sweep, 104 runs (13 friction levels x 4 steps x 2 laws) on a
/// LocalCluster of 2 workers, then serially: identical tables. Physics:
/// with Hill's algorithm the axis comes exactly to rest, the settle error
/// grows with friction and hardly depends on the step up to 10 ms; the
/// conventional model never rests and chatters more at larger steps (Hill,
/// Figs. 3-4).
#[test]
fn dask_sweep_matches_serial_and_hill() {
    let out = out_dir("dask_sweep");
    let stdout = run_ok(
        "dask_sweep/dask_sweep.py",
        &[
            "--fmu",
            fmu_path("AntennaAzimuthServo").to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--workers",
            "2",
            "--levels",
            "13",
            "--steps",
            "0.002,0.005,0.01,0.02",
            "--serial",
        ],
    );
    // Straight to stderr, past the test harness's capture: the speed-up is
    // reported on every run, never asserted.
    for line in stdout.lines().filter(|l| l.contains("runs/s") || l.contains("speed-up")) {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "dask sweep: {line}");
    }
    assert!(stdout.contains("serial and parallel results identical"), "{stdout}");
    let parallel = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    assert_eq!(parallel, std::fs::read_to_string(out.join("sweep_serial.csv")).unwrap());
    assert!(out.join("sweep.png").exists());
    let t = read_csv(&out.join("sweep.csv"));
    assert_eq!(t.rows.len(), 104);
    let col = |n: &str| t.columns.iter().position(|c| c == n).unwrap();
    let (model, level, step) = (col("friction_model"), col("friction_level"), col("step"));
    let (error, stuck, chatter, transitions) =
        (col("settle_error_mdeg"), col("stuck_time_s"), col("chatter_mdeg_s"), col("transitions"));
    let select = |m: f64, s: f64| -> Vec<&Vec<f64>> {
        let mut rows: Vec<&Vec<f64>> = t.rows.iter().filter(|r| r[model] == m && r[step] == s).collect();
        rows.sort_by(|a, b| a[level].total_cmp(&b[level]));
        rows
    };
    for r in &t.rows {
        if r[model] == 1.0 {
            assert!(r[stuck] > 0.5 && r[transitions] <= 10.0, "Hill run does not rest: {r:?}");
        } else {
            assert!(r[stuck] == 0.0 && r[transitions] > 50.0 && r[chatter] > 0.0, "conventional run rests: {r:?}");
        }
    }
    let hill_1 = select(1.0, 0.002);
    for w in hill_1.windows(2) {
        assert!(w[1][error] > w[0][error], "Hill's settle error does not grow with friction");
    }
    for s in [0.005, 0.01] {
        for (a, b) in select(1.0, s).iter().zip(&hill_1) {
            assert!((a[error] - b[error]).abs() < 0.01, "Hill at {s} s: {} vs {} mdeg", a[error], b[error]);
        }
    }
    for (coarse, fine) in select(0.0, 0.02).iter().zip(select(0.0, 0.002)) {
        assert!(coarse[chatter] > 2.0 * fine[chatter], "conventional chatter does not grow with the step");
    }
}

/// The plant alone through FMPy, its default experiment: 0.9 N.m against a
/// still load is a damped oscillator about phi = tau/k (J 0.01 kg.m2,
/// k 10 N.m/rad, d 0.1 N.m.s/rad: 5.0 Hz, zeta 0.158), solved exactly:
/// `phi(t) = tau/k (1 - e^(-zeta w t) (cos w_d t + zeta w/w_d sin w_d t))`.
#[test]
fn compliant_drive_is_the_damped_oscillator() {
    let t = fmu_tests::run_fmpy(&fmu_tests::Run::new("CompliantDrive", 2.0, 1e-3));
    let (j, k, d, tau) = (0.01_f64, 10.0_f64, 0.1_f64, 0.9_f64);
    let (wn, zeta) = ((k / j).sqrt(), d / (2.0 * (k * j).sqrt()));
    let wd = wn * (1.0 - zeta * zeta).sqrt();
    let (time, phi, torque) = (t.column("time"), t.column("phi_motor"), t.column("tau_shaft"));
    for i in 0..time.len() {
        let e = (-zeta * wn * time[i]).exp();
        let exact = tau / k * (1.0 - e * ((wd * time[i]).cos() + zeta * wn / wd * (wd * time[i]).sin()));
        assert!((phi[i] - exact).abs() < 1e-12, "{} s: {} vs {exact}", time[i], phi[i]);
    }
    // The shaft carries the drive torque once the oscillation has died out.
    assert!((torque[time.len() - 1] - tau).abs() < 1e-3);
}

/// The README's two Python blocks (the quick start and the coupling loop),
/// run as written from the repository root, and the physics they print
/// (issue 29: a quick start that runs, within the first 100 lines).
#[test]
fn readme_quick_start_and_coupling_loop_run_as_written() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let start = readme.find("```python").expect("a Python block in the README");
    assert!(readme[..start].lines().count() < 100, "the quick start starts past line 100");
    let blocks: Vec<&str> = readme.split("```python\n").skip(1).map(|b| b.split("\n```").next().unwrap()).collect();
    assert_eq!(blocks.len(), 2, "the quick start and the coupling loop");
    let dir = out_dir("readme");
    std::fs::create_dir_all(&dir).unwrap();
    let python = std::env::var("FMPY_PYTHON").unwrap_or_else(|_| "python3".into());
    let mut outputs = Vec::new();
    for (k, block) in blocks.iter().enumerate() {
        let script = dir.join(format!("block{k}.py"));
        std::fs::write(&script, block).unwrap();
        let tmp = fmu_tests::PrivateTmp::new();
        let out = tmp.command(&python).arg(&script).current_dir(workspace_root()).output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success() && stderr.trim().is_empty(), "README block {k}:\n{stdout}\n{stderr}");
        assert!(tmp.leftovers().is_empty(), "README block {k} left {:?} in its temporary folder", tmp.leftovers());
        eprintln!("README block {k}:\n{stdout}");
        outputs.push(stdout.into_owned());
    }
    // The README shows what the blocks print; the physics it claims:
    // breakaway in the step after F_s/(1 N.m/s) = 1.2 s (the torque held
    // over each step), 0.474 rad/s at release, a stop inside the step at
    // 2.474 s and exactly zero rate after it.
    for line in outputs[0].lines() {
        assert!(readme.contains(line), "the README does not show the printed line {line:?}");
    }
    assert!(outputs[0].contains("breaks away in the step to t = 1.22 s"), "{}", outputs[0]);
    assert!(outputs[0].contains("fastest: w = 0.474 rad/s at t = 2.00 s"), "{}", outputs[0]);
    assert!(outputs[0].contains("stuck from t = 2.48 s on: w = 0.0 rad/s, mode = 0"), "{}", outputs[0]);
    // The loop: at rest until k_shaft*w_command*t = tau_static (0.3 s),
    // then the system's one stick, 0.1989 s exact (shaft_reference.py's
    // stiff_loop), on the 10 ms grid.
    let printed = outputs[1].trim();
    assert_eq!(printed, "load stuck (w exactly 0.0) for [0.3, 0.2] s; motor at 0.500 rad/s");
    assert!(readme.contains(&format!("prints `{printed}`")), "the README shows another result");
}
