//! The shaft port against the torque port, through FMPy's low-level API:
//! a speed-controlled motor winds a compliant shaft against a load with
//! static + Coulomb friction, cut either at the torque (CompliantDrive +
//! HillFrictionInertia) or at the drive's motion (MotorDrive +
//! HillFrictionShaftLoad), run by plain Gauss-Seidel and Jacobi masters
//! (inputs held) at 1, 5 and 20 ms, and compared with the exact solution of
//! the whole system (`tests/python/shaft_reference.py`: matrix exponential
//! per mode, events by root finding, validated against solve_ivp), computed
//! in the test independently of the FMUs. The study itself is
//! `tests/python/shaft_coupling.py`; this test prints its table with both
//! cuts side by side and asserts the goals of issue 20.

use fmu_tests::{fmu_path, run_python, workspace_root};
use std::collections::BTreeMap;

/// One co-simulation run: (system, cut, master, step) -> its figures.
#[derive(Debug, Clone, Default)]
struct Figures {
    rate_rms: f64,
    sticks: usize,
    exact_sticks: usize,
    spurious: usize,
    exact_stick: f64,
    mean_stick: f64,
    stick_error: f64,
    stick_score: f64,
}

type Key = (String, String, String, String);

fn parse(out: &str) -> BTreeMap<Key, Figures> {
    let mut runs = BTreeMap::new();
    for line in out.lines().filter(|l| l.starts_with("system=")) {
        let kv: BTreeMap<&str, &str> = line.split_whitespace().filter_map(|p| p.split_once('=')).collect();
        let f = |k: &str| kv[k].parse::<f64>().unwrap_or_else(|e| panic!("{k} in {line}: {e}"));
        let word = |k: &str| kv.get(k).copied().unwrap_or("-").to_string();
        let key = (word("system"), word("step"), word("master"), word("cut"));
        runs.insert(
            key,
            Figures {
                rate_rms: f("rate_rms"),
                sticks: f("sticks") as usize,
                exact_sticks: f("exact_sticks") as usize,
                spurious: f("spurious") as usize,
                exact_stick: f("exact_stick"),
                mean_stick: f("mean_stick"),
                stick_error: f("stick_error"),
                stick_score: f("stick_score"),
            },
        );
    }
    runs
}

/// Issue 20's goals for the shaft cut's figures `f` at step `h`, beside
/// the torque cut's figures at the same step and master.
fn assert_goals(system: &str, h: f64, f: &Figures, torque: &Figures, what: &str) {
    if system.starts_with("stiff") {
        // Stiff speed loop: every stick within max(2 %, one step), none
        // spurious, and the load rate within 2 % rms of its peak.
        assert!(f.stick_score <= 1.0 + 1e-9, "{what}");
        assert_eq!(f.spurious, 0, "{what}");
        assert!(f.rate_rms <= 0.02, "{what}");
        // A stick longer than the step is seen at the communication points.
        if f.exact_stick > h {
            assert_eq!(f.sticks, f.exact_sticks, "{what}");
        }
    } else {
        // Soft speed loop: at least 5 times smaller rate error than the torque cut.
        assert!(f.rate_rms * 5.0 <= torque.rate_rms, "{what} vs torque cut {torque:?}");
    }
}

#[test]
fn the_shaft_port_keeps_the_stick_at_every_step_and_master() {
    let script = workspace_root().join("tests/python/shaft_coupling.py");
    let dir = fmu_path("HillFrictionShaftLoad").parent().unwrap().to_path_buf();
    fmu_path("MotorDrive");
    let (ok, out, err) = run_python(&script, &[dir.to_str().unwrap(), "4.0"]);
    assert!(ok, "shaft_coupling.py failed:\n{out}\n{err}");
    let runs = parse(&out);
    assert_eq!(runs.len(), 3 * 3 * 2 * 2, "{out}");

    println!(
        "\n{:<12} {:>6} {:<13} | {:>26} | {:>26} | exact stick",
        "system", "step", "master", "torque cut: stick (n), rate", "shaft cut: stick (n), rate"
    );
    let cell = |f: &Figures| format!("{:.4} s ({}), {:.2e}", f.mean_stick, f.sticks, f.rate_rms);
    let mut rows: Vec<_> = runs.keys().map(|(s, h, m, _)| (s.clone(), h.clone(), m.clone())).collect();
    rows.dedup();
    for (system, step, master) in &rows {
        let get = |cut: &str| &runs[&(system.clone(), step.clone(), master.clone(), cut.to_string())];
        let (torque, shaft) = (get("torque"), get("shaft"));
        println!(
            "{system:<12} {step:>6} {master:<13} | {:>26} | {:>26} | {:.4} s ({}); worst stick error {:.4} / {:.4} s",
            cell(torque),
            cell(shaft),
            shaft.exact_stick,
            shaft.exact_sticks,
            torque.stick_error,
            shaft.stick_error
        );
    }

    for ((system, step, master, cut), f) in &runs {
        let h: f64 = step.parse().unwrap();
        let what = format!("{system} {cut} {master} h = {h}: {f:?}");
        if cut != "shaft" {
            continue;
        }
        let torque = &runs[&(system.clone(), step.clone(), master.clone(), "torque".to_string())];
        assert_goals(system, h, f, torque, &what);
    }
    // The torque cut loses the stick as the issue reports (its stick is late:
    // 0.30-0.42 s instead of 0.199 s at 20 ms on the system).
    let torque_20ms = |m: &str| &runs[&("stiff_loop".into(), "0.02".into(), m.into(), "torque".into())];
    assert!(torque_20ms("gauss_seidel").mean_stick > 0.25 && torque_20ms("jacobi").mean_stick > 0.25);
    let exact = runs[&("stiff_loop".into(), "0.001".into(), "jacobi".into(), "shaft".into())].exact_stick;
    assert!((exact - 0.199).abs() < 5e-4, "exact stick of the issue's system: {exact}");
}

/// The exact reference agrees with scipy's solve_ivp (Radau, rtol 1e-12,
/// event location) on the three systems: rate within 1e-7 rad/s, events
/// within 1e-8 s, same number of events.
#[test]
fn the_exact_reference_agrees_with_an_event_located_ode_solver() {
    let script = workspace_root().join("tests/python/shaft_reference.py");
    let (ok, out, err) = run_python(&script, &["--validate"]);
    println!("{out}");
    assert!(ok, "{out}\n{err}");
    assert_eq!(out.lines().filter(|l| l.contains("events (solve_ivp")).count(), 3, "{out}");
}

/// OMSimulator's weakly coupled system (its fixed-step Jacobi master) on the
/// same systems, cuts and steps: the same goals as the plain masters.
#[test]
fn omsimulator_weakly_coupled_system_keeps_the_stick_with_the_shaft_port() {
    use fmu_tests::oms::{omsimulator, rate_at_steps, shaft_system, shaft_systems, simulate_system, Cut, Mode, HILL};
    let Some(oms) = omsimulator("the shaft port in OMSimulator") else { return };
    let stop = 4.0;
    let script = workspace_root().join("tests/python/shaft_coupling.py");
    let dir = workspace_root().join("target/shaft_port_oms");
    std::fs::create_dir_all(&dir).unwrap();
    let mut runs = BTreeMap::new();
    for (name, p) in shaft_systems() {
        let law = [("tau_static".to_string(), p["tau_static"]), ("tau_coulomb".to_string(), p["tau_coulomb"])];
        for step in ["0.001", "0.005", "0.02"] {
            let h: f64 = step.parse().unwrap();
            for (cut, word) in [(Cut::Torque, "torque"), (Cut::Shaft, "shaft")] {
                let system = shaft_system(cut, Mode::CoSimulation, &HILL, &law, &p, stop, h);
                let table = simulate_system(&oms, &system).unwrap_or_else(|e| panic!("{name} {word} {step}: {e}"));
                let csv =
                    rate_at_steps(&table, "load.w", h, stop).unwrap_or_else(|e| panic!("{name} {word} {step}: {e}"));
                let path = dir.join(format!("{name}_{word}_{step}.csv"));
                std::fs::write(&path, csv).unwrap();
                let (ok, out, err) = run_python(&script, &["--score", &name, step, path.to_str().unwrap()]);
                assert!(ok, "{out}\n{err}");
                let line = out.lines().find(|l| l.starts_with("system=")).unwrap().to_string();
                let with_cut = line.replacen(" step=", &format!(" cut={word} master=omsimulator_wc step="), 1);
                runs.extend(parse(&with_cut));
            }
        }
    }
    println!("\nOMSimulator weakly coupled system (oms_system_wc):");
    println!("{:<12} {:>6} | {:>26} | {:>26}", "system", "step", "torque cut: stick (n), rate", "shaft cut");
    let cell = |f: &Figures| format!("{:.4} s ({}), {:.2e}", f.mean_stick, f.sticks, f.rate_rms);
    for ((system, step, _, cut), f) in &runs {
        if cut == "shaft" {
            let torque = &runs[&(system.clone(), step.clone(), "omsimulator_wc".into(), "torque".into())];
            println!("{system:<12} {step:>6} | {:>26} | {:>26}", cell(torque), cell(f));
        }
    }
    for ((system, step, _, cut), f) in &runs {
        let h: f64 = step.parse().unwrap();
        let what = format!("OMSimulator {system} {cut} h = {h}: {f:?}");
        if cut != "shaft" {
            continue;
        }
        let torque = &runs[&(system.clone(), step.clone(), "omsimulator_wc".into(), "torque".into())];
        assert_goals(system, h, f, torque, &what);
    }
}

/// The shipped shaft-port system `MotorShaftLoadHillFriction.ssp` in
/// `fmpy.ssp` (a Jacobi master): the goals of a stiff speed loop at 1, 5
/// and 20 ms.
#[test]
fn the_shaft_port_ssp_system_in_fmpy_keeps_the_stick() {
    let script = workspace_root().join("tests/python/shaft_coupling.py");
    let ssp = fmu_path("MotorDrive").with_file_name("MotorShaftLoadHillFriction.ssp");
    assert!(ssp.exists(), "{} is missing: run `cargo xtask fmu`", ssp.display());
    for step in ["0.001", "0.005", "0.02"] {
        let (ok, out, err) = run_python(&script, &["--ssp", ssp.to_str().unwrap(), step, "4.0"]);
        assert!(ok, "{out}\n{err}");
        let runs = parse(&out);
        let f = runs.values().next().unwrap_or_else(|| panic!("no figures in {out}"));
        println!(
            "fmpy.ssp h = {step}: stick {:.4} s (exact {:.4} s), rate rms {:.2e}",
            f.mean_stick, f.exact_stick, f.rate_rms
        );
        assert!(f.stick_score <= 1.0 + 1e-9 && f.spurious == 0 && f.sticks == f.exact_sticks, "{step}: {f:?}");
        assert!(f.rate_rms <= 0.02, "{step}: {f:?}");
    }
}

/// `canInterpolateInputs`: with the input derivative of `w_drive` (FMPy's
/// fmi2SetRealInputDerivatives) the drive end accelerates over the step;
/// the stuck load's mean shaft torque is the closed form, and after the
/// breakaway the rate agrees with solve_ivp (rtol 1e-12).
#[test]
fn an_accelerating_drive_end_is_integrated_exactly() {
    let script = workspace_root().join("tests/python/shaft_coupling.py");
    let dir = fmu_path("HillFrictionShaftLoad").parent().unwrap().to_path_buf();
    let (ok, out, err) = run_python(&script, &["--derivatives", dir.to_str().unwrap()]);
    assert!(ok, "{out}\n{err}");
    println!("{out}");
    let value = |line: &str, key: &str| -> f64 {
        let l = out.lines().find(|l| l.starts_with(line)).unwrap_or_else(|| panic!("{line} in {out}"));
        l.split_whitespace().find_map(|p| p.strip_prefix(&format!("{key}="))).unwrap().parse().unwrap()
    };
    assert_eq!(value("derivatives stuck", "w"), 0.0);
    let (tau, expected) = (value("derivatives stuck", "tau_shaft"), value("derivatives stuck", "expected_tau"));
    assert!((tau - expected).abs() < 1e-12, "{tau} vs {expected}");
    let (w, expected) = (value("derivatives sliding", "w"), value("derivatives sliding", "expected_w"));
    assert!(w > 0.0 && (w - expected).abs() < 1e-9, "{w} vs {expected}");
    let (phi, expected) = (value("derivatives sliding", "phi"), value("derivatives sliding", "expected_phi"));
    assert!((phi - expected).abs() < 1e-10, "{phi} vs {expected}");
}

/// The shipped `MotorShaftLoadHillFriction.ssp` on OMSimulator's command
/// line: its weakly coupled system at the step the SSP's OMSimulator
/// annotation fixes (20 ms, which overrides `--stepSize`): the goals of a
/// stiff speed loop.
#[test]
fn the_shaft_port_ssp_system_in_omsimulator_keeps_the_stick() {
    let Some(oms) = fmu_tests::oms::omsimulator("the shaft-port SSP in OMSimulator") else { return };
    let script = workspace_root().join("tests/python/shaft_coupling.py");
    let ssp = fmu_path("MotorDrive").with_file_name("MotorShaftLoadHillFriction.ssp");
    let dir = workspace_root().join("target/shaft_port_oms_ssp");
    for step in ["0.02"] {
        let h: f64 = step.parse().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let result = dir.join("result.csv");
        let out = std::process::Command::new(&oms)
            .current_dir(&dir)
            .arg(&ssp)
            .args(["--mode=cs", "--stopTime=4", &format!("--stepSize={step}"), "--intervals=200"])
            .arg(format!("--resultFile={}", result.display()))
            .args(["--stripRoot=true", "--suppressPath=true"])
            .arg(format!("--tempDir={}", dir.display()))
            .output()
            .unwrap();
        let log = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success() && !log.contains("error:"), "{log}");
        let text = std::fs::read_to_string(&result).unwrap();
        let mut lines = text.lines();
        let header: Vec<String> =
            lines.next().unwrap().split(',').map(|c| c.trim().trim_matches('"').to_string()).collect();
        let w_col = header.iter().position(|c| c == "Load.w").unwrap_or_else(|| panic!("no Load.w in {header:?}"));
        // The first row at each communication point (OMSimulator ends with a sliver step).
        let mut csv = String::from("time,w\n");
        let mut next = 0usize;
        for line in lines {
            let cells: Vec<f64> = line.split(',').map(|c| c.trim().parse().unwrap()).collect();
            if (cells[0] - next as f64 * h).abs() < 1e-9 {
                csv += &format!("{:?},{:?}\n", next as f64 * h, cells[w_col]);
                next += 1;
            }
        }
        assert_eq!(next, (4.0 / h).round() as usize + 1, "{step}: rows");
        let path = dir.join("w.csv");
        std::fs::write(&path, csv).unwrap();
        let (ok, out, err) = run_python(&script, &["--score", "stiff_loop", step, path.to_str().unwrap()]);
        assert!(ok, "{out}\n{err}");
        let runs = parse(&out);
        let f = runs.values().next().unwrap_or_else(|| panic!("no figures in {out}"));
        println!(
            "OMSimulator SSP h = {step}: stick {:.4} s (exact {:.4} s), rate rms {:.2e}",
            f.mean_stick, f.exact_stick, f.rate_rms
        );
        assert!(f.stick_score <= 1.0 + 1e-9 && f.spurious == 0 && f.sticks == f.exact_sticks, "{step}: {f:?}");
        assert!(f.rate_rms <= 0.02, "{step}: {f:?}");
    }
}
