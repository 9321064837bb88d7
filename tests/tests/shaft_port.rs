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
fn assert_goals(system: &str, h: f64, f: &Figures, torque: &Figures, what: &str, late_inputs: bool) {
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
    } else if late_inputs {
        // The implicit coupling under a load-first Gauss-Seidel master: the
        // motor extrapolates the load end from the step's end, not its start
        // (it is made for Jacobi masters); still no worse than the torque cut.
        assert!(f.rate_rms <= torque.rate_rms, "{what} vs torque cut {torque:?}");
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
    assert_eq!(runs.len(), 3 * 3 * 3 * 2, "{out}");

    println!(
        "\n{:<12} {:>6} {:<13} | {:>26} | {:>26} | {:>26} | exact stick",
        "system",
        "step",
        "master",
        "torque cut: stick (n), rate",
        "shaft cut: stick (n), rate",
        "implicit: stick (n), rate"
    );
    let cell = |f: &Figures| format!("{:.4} s ({}), {:.2e}", f.mean_stick, f.sticks, f.rate_rms);
    let mut rows: Vec<_> = runs.keys().map(|(s, h, m, _)| (s.clone(), h.clone(), m.clone())).collect();
    rows.dedup();
    for (system, step, master) in &rows {
        let get = |cut: &str| &runs[&(system.clone(), step.clone(), master.clone(), cut.to_string())];
        let (torque, shaft) = (get("torque"), get("shaft"));
        println!(
            "{system:<12} {step:>6} {master:<13} | {:>26} | {:>26} | {:>26} | {:.4} s ({}); worst stick error {:.4} / {:.4} s",
            cell(torque),
            cell(shaft),
            cell(get("implicit")),
            shaft.exact_stick,
            shaft.exact_sticks,
            torque.stick_error,
            shaft.stick_error
        );
    }

    for ((system, step, master, cut), f) in &runs {
        let h: f64 = step.parse().unwrap();
        let what = format!("{system} {cut} {master} h = {h}: {f:?}");
        // The shaft cut, plain or implicit (MotorDrive holds the shaft): the same goals.
        if cut == "torque" {
            continue;
        }
        let torque = &runs[&(system.clone(), step.clone(), master.clone(), "torque".to_string())];
        assert_goals(system, h, f, torque, &what, cut == "implicit" && master == "gauss_seidel");
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
        assert_goals(system, h, f, torque, &what, false);
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

/// Issue 28: the shipped shaft-port SSP as a user first calls it in
/// fmpy.ssp, stop time and step only (no parameter set: MotorDrive's own
/// soft defaults, J_motor 0.01, speed_gain 0.1, which diverged at 20 ms with
/// the plain exchange). With the implicit coupling it stays bounded at 5, 20
/// and 50 ms and shows the physics of those defaults: at most
/// speed_gain*w_command = 0.05 N.m, below F_s = 1.5 N.m, so the load never
/// moves (w exactly 0) and the motor settles where the shaft's torque
/// balances its speed loop, phi = speed_gain*w_command/k_shaft = 5 mrad (the
/// decay e^(-5 t) leaves 2e-9 rad at 4 s).
#[test]
fn the_shaft_port_ssp_system_in_fmpy_without_its_parameter_set_stays_bounded() {
    let script = workspace_root().join("tests/python/shaft_coupling.py");
    let ssp = fmu_path("MotorDrive").with_file_name("MotorShaftLoadHillFriction.ssp");
    for step in ["0.005", "0.02", "0.05"] {
        let (ok, out, err) = run_python(&script, &["--ssp-defaults", ssp.to_str().unwrap(), step, "4.0"]);
        assert!(ok, "{out}\n{err}");
        println!("{out}");
        let value = |key: &str| -> f64 {
            out.split_whitespace().find_map(|p| p.strip_prefix(&format!("{key}="))).unwrap().parse().unwrap()
        };
        assert_eq!(value("load_w_max"), 0.0, "{step}: the load moved: {out}");
        assert!(value("motor_w_max") < 0.2, "{step}: {out}");
        assert!((value("motor_phi_end") - 0.005).abs() < 1e-6, "{step}: {out}");
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

/// Run `ssp` on OMSimulator's command line (`args` added, `--mode=cs`, weakly
/// coupled, unless they say otherwise) in a fresh `dir`, check that it
/// succeeded without an error, and return
/// `(time, column)` at the communication points `k*h`: the first row at each
/// (OMSimulator writes more rows, and ends with a sliver step).
fn omsimulator_ssp_rows(
    oms: &std::path::Path,
    ssp: &std::path::Path,
    dir: &std::path::Path,
    args: &[&str],
    column: &str,
    h: f64,
) -> Vec<(f64, f64)> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let result = dir.join("result.csv");
    let out = std::process::Command::new(oms)
        .current_dir(dir)
        .arg(ssp)
        .args(if args.iter().any(|a| a.starts_with("--mode=")) { &[][..] } else { &["--mode=cs"][..] })
        .args(args)
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
    let col = header.iter().position(|c| c == column).unwrap_or_else(|| panic!("no {column} in {header:?}"));
    let mut rows = Vec::new();
    for line in lines {
        let cells: Vec<f64> = line.split(',').map(|c| c.trim().parse().unwrap()).collect();
        if (cells[0] - rows.len() as f64 * h).abs() < 1e-9 {
            rows.push((rows.len() as f64 * h, cells[col]));
        }
    }
    rows
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
        let args = ["--stopTime=4", &format!("--stepSize={step}"), "--intervals=200"];
        let rows = omsimulator_ssp_rows(&oms, &ssp, &dir, &args, "Load.w", h);
        let mut csv = String::from("time,w\n");
        for (t, w) in &rows {
            csv += &format!("{t:?},{w:?}\n");
        }
        assert_eq!(rows.len(), (4.0 / h).round() as usize + 1, "{step}: rows");
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
        // fmpy.ssp with the SSP's parameter set gives the same run: both are
        // Jacobi masters over the same FMUs (measured: 3.3e-7 rad/s apart at
        // most, of a 0.5 rad/s peak; not bit for bit, as the two masters
        // initialize differently and OMSimulator's CSV rounds).
        let fmpy_csv = dir.join("fmpy.csv");
        let (ok, out, err) =
            run_python(&script, &["--ssp", ssp.to_str().unwrap(), step, "4.0", fmpy_csv.to_str().unwrap()]);
        assert!(ok, "{out}\n{err}");
        let column = |path: &std::path::Path| -> Vec<f64> {
            let text = std::fs::read_to_string(path).unwrap();
            text.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect()
        };
        let (oms_w, fmpy_w) = (column(&path), column(&fmpy_csv));
        assert_eq!(oms_w.len(), fmpy_w.len());
        let worst = oms_w.iter().zip(&fmpy_w).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        println!("OMSimulator vs fmpy.ssp with the parameter set, h = {step}: largest |w| difference {worst:e} rad/s");
        assert!(worst <= 1e-6, "OMSimulator and fmpy.ssp differ by {worst} rad/s");
    }
}

/// Every shipped SSP in OMSimulator, weakly coupled (the system kind its SSD
/// declares; `--mode=me` would not change it), with and without
/// `--inputExtrapolation=true` (which sets the derivative of every input
/// of an FMU that can interpolate): no error and no warning in the log, and
/// the run reaches its stop time: OMSimulator's command line runs an SSP to
/// `--stopTime` (default 1 s) and does not read the SSD's DefaultExperiment
/// for it (OMSimulator.cpp, `.ssp` branch). (The SSD schema is linked beside
/// the binary, so each SSP is also validated against SSP 1.0's schema.)
#[test]
fn every_shipped_ssp_runs_in_omsimulator_without_errors_or_warnings() {
    let Some(oms) = fmu_tests::oms::omsimulator("the shipped SSPs in OMSimulator") else { return };
    let fmu_dir = fmu_path("MotorDrive").parent().unwrap().to_path_buf();
    let mut ssps: Vec<_> = std::fs::read_dir(&fmu_dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ssp"))
        .collect();
    ssps.sort();
    assert_eq!(ssps.len(), 3, "{ssps:?}");
    for ssp in &ssps {
        for (mode, extrapolation) in [("cs", "false"), ("cs", "true")] {
            let dir = workspace_root()
                .join(format!("target/oms_ssp_{}_{mode}_{extrapolation}", ssp.file_stem().unwrap().to_string_lossy()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let result = dir.join("result.csv");
            let out = std::process::Command::new(&oms)
                .current_dir(&dir)
                .arg(ssp)
                .args([format!("--mode={mode}"), format!("--inputExtrapolation={extrapolation}")])
                .arg(format!("--resultFile={}", result.display()))
                .arg(format!("--tempDir={}", dir.display()))
                .output()
                .unwrap();
            let log = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            let what = format!("{} --mode={mode} --inputExtrapolation={extrapolation}", ssp.display());
            assert!(out.status.success(), "{what}: {log}");
            let bad: Vec<_> = log.lines().filter(|l| l.starts_with("error") || l.starts_with("warning")).collect();
            assert!(bad.is_empty(), "{what}: {bad:#?}");
            let text = std::fs::read_to_string(&result).unwrap();
            let last = text.lines().last().unwrap();
            let t_end: f64 = last.split(',').next().unwrap().trim().parse().unwrap();
            assert!(last.split(',').all(|c| c.trim().parse::<f64>().is_ok_and(f64::is_finite)), "{what}: {last}");
            println!("{what}: 0 errors, 0 warnings, ran to {t_end} s");
            assert!(t_end > 0.99, "{what}: stopped at {t_end}");
        }
    }
}

/// The shaft ports: every model that offers the implicit coupling (a
/// `k_coupling` output), from the registry.
fn implicit_ports() -> Vec<&'static str> {
    fmu::registry::MODELS
        .iter()
        .filter(|m| {
            (m.variables)().iter().any(|v| v.name == "k_coupling" && v.causality == fmu::description::Causality::Output)
        })
        .map(|m| m.info.identifier)
        .collect()
}

/// Issue 28: light or softly controlled motors (J_motor 1e-2 or 1e-3, K_v 1
/// or 0.1 with 2 N.m stall torque) on every shaft port under the Jacobi
/// master, 1 to 50 ms. With the implicit coupling (MotorDrive holds the
/// shaft, from the port's k_coupling, d_coupling, phi, w) the load stays
/// bounded at every step, and its rate is within rms 2 % of its peak at
/// 5 ms and 5 % at 20 ms, against the exact solution (Hill) or the same
/// system at 0.25 ms (the other laws). The plain exchange (held tau_shaft)
/// diverges at 20 ms on the soft loops, as the issue measured.
#[test]
fn light_motors_stay_bounded_and_accurate_under_jacobi_with_the_implicit_coupling() {
    let script = workspace_root().join("tests/python/shaft_coupling.py");
    let dir = fmu_path("MotorDrive").parent().unwrap().to_path_buf();
    let ports = implicit_ports();
    // Six ports today (Hill's, the four laws', LuGre's): a floor, so that
    // losing the k_coupling output does not pass silently.
    assert!(ports.len() >= 6, "{ports:?}");
    println!("\n{:<32} {:<22} {:>6} | {:>22} | {:>22}", "port", "motor", "step", "plain: |w|max, rms", "implicit");
    for port in ports {
        // The port integrated exactly (no internal_step: Hill's) has a closed
        // form; the plain exchange with it is where the issue measured the
        // divergence.
        let exact = !(fmu::registry::get(port).variables)().iter().any(|v| v.name == "internal_step");
        let (ok, out, err) = run_python(&script, &["--light", dir.to_str().unwrap(), port]);
        assert!(ok, "{out}\n{err}");
        let mut runs = BTreeMap::new();
        for line in out.lines().filter(|l| l.starts_with("port=")) {
            let word =
                |k: &str| line.split_whitespace().find_map(|p| p.strip_prefix(&format!("{k}="))).unwrap().to_string();
            let number = |k: &str| word(k).parse::<f64>().unwrap();
            runs.insert(
                (word("system"), word("step"), word("cut")),
                (number("peak"), number("w_max"), number("rate_rms"), word("reference")),
            );
        }
        assert_eq!(runs.len(), 4 * 5 * 2, "{out}");
        for ((system, step, cut), (peak, w_max, rms, reference)) in &runs {
            let h: f64 = step.parse().unwrap();
            let what =
                format!("{port} {system} {cut} h = {h} against {reference}: |w|max {w_max}, peak {peak}, rms {rms}");
            if cut == "implicit" {
                let plain = &runs[&(system.clone(), step.clone(), "shaft".to_string())];
                println!(
                    "{port:<32} {system:<22} {step:>6} | {:>10.3e}, {:>9.2e} | {w_max:>10.3e}, {rms:>9.2e}",
                    plain.1, plain.2
                );
                assert!(w_max.is_finite() && *w_max <= 1.1 * peak, "bounded: {what}");
                if h <= 0.005 + 1e-12 {
                    assert!(*rms <= 0.02, "{what}");
                } else if h <= 0.02 + 1e-12 {
                    assert!(*rms <= 0.05, "{what}");
                }
            } else if exact && system.ends_with("Kv0.1") && h >= 0.02 {
                // The plain exchange as the issue measured it: no bound at 20 ms.
                assert!(!(*w_max <= 100.0 * peak), "the plain exchange diverges: {what}");
            }
        }
    }
}

/// Issue 28: the stability of the motor + shaft-port pair under a Jacobi
/// master, from the exact step maps of both sides in their sliding phase
/// (`tests/python/coupling_stability.py`, independent of the FMUs): the
/// spectral radius of one master step. Plain exchange (held mean shaft
/// torque): the motor's bound, unstable on the soft speed loops at 20 and
/// 50 ms (radius 1.09 to 2.5), stable while h*sqrt(k/J_motor) <= 0.2.
/// Implicit coupling: stable on every light motor at every step; over a
/// grid of 6,912 pairs the bound is now the load's: no damped motor
/// (speed_gain or d_shaft > 0) is unstable while h*max(sqrt(k/J), d/J) <=
/// 0.1. An undamped torque drive is not covered (the grid finds unstable
/// ones at any load ratio).
#[test]
fn the_implicit_coupling_moves_the_stability_bound_from_the_motor_to_the_load() {
    let script = workspace_root().join("tests/python/coupling_stability.py");
    let (ok, out, err) = run_python(&script, &["table"]);
    assert!(ok, "{out}\n{err}");
    println!("{out}");
    let number = |line: &str, key: &str| -> f64 {
        line.split_whitespace().find_map(|p| p.strip_prefix(&format!("{key}="))).unwrap().parse().unwrap()
    };
    let rows: Vec<_> = out.lines().filter(|l| l.starts_with("table ")).collect();
    assert_eq!(rows.len(), 2 * 2 * 5, "{out}");
    for line in rows {
        let (gain, h, ratio) = (number(line, "speed_gain"), number(line, "step"), number(line, "motor_ratio"));
        let (plain, implicit) = (number(line, "plain"), number(line, "implicit"));
        assert!(implicit <= 1.0, "implicit unstable: {line}");
        if ratio <= 0.2 {
            assert!(plain <= 1.0, "plain unstable within its bound: {line}");
        }
        if gain == 0.1 && h >= 0.02 {
            assert!(plain > 1.05, "plain stable where the issue measured a divergence: {line}");
        }
    }
    let (ok, out, err) = run_python(&script, &["grid"]);
    assert!(ok, "{out}\n{err}");
    println!("{out}");
    let line = out.lines().find(|l| l.starts_with("grid load_ratio<=0.1 ")).unwrap();
    assert_eq!(number(line, "unstable_damped"), 0.0, "{line}");
    let line = out.lines().find(|l| l.starts_with("grid combinations=")).unwrap();
    assert_eq!(number(line, "combinations"), 6912.0, "{line}");
}

/// The `(t, locked)` lines `event ...` or `seen ...` of clutch_between_shafts.py.
fn clutch_instants(out: &str, kind: &str) -> Vec<(f64, i32)> {
    out.lines()
        .filter(|l| l.starts_with(kind))
        .map(|l| {
            let value = |k: &str| l.split_whitespace().find_map(|p| p.strip_prefix(&format!("{k}="))).unwrap();
            (value("t").parse().unwrap(), value("locked").parse().unwrap())
        })
        .collect()
}

/// Every instant seen within max(2 %, one step) of the reference's, in the
/// same order and kind (lock or unlock), none missing or spurious.
fn assert_instants(seen: &[(f64, i32)], reference: &[(f64, i32)], h: f64, what: &str) {
    assert_eq!(seen.len(), reference.len(), "{what}: seen {seen:?}, reference {reference:?}");
    for (&(t, locked), &(t_ref, locked_ref)) in seen.iter().zip(reference) {
        assert_eq!(locked, locked_ref, "{what}: seen {seen:?}, reference {reference:?}");
        assert!((t - t_ref).abs() <= (0.02 * t_ref).max(h) + 1e-9, "{what}: {t} vs {t_ref}");
    }
}

/// Issue 28 item 4: a clutch between two shafts. The shipped
/// MotorClutchLoad.ssp (MotorDrive -> ShaftClutch -> MotorDrive as the load,
/// implicit coupling on both sides) in fmpy.ssp with its parameter set at
/// 1, 5 and 20 ms: the clutch unlocks and locks again at the instants of a
/// reference computed independently (scipy's solve_ivp on the whole system,
/// the clutch's events located), each within max(2 %, one step); and so in
/// OMSimulator at the SSP's annotated 10 ms, as the weakly coupled
/// (Co-Simulation) system the SSD declares.
#[test]
fn the_clutch_between_shafts_locks_and_slips_at_the_reference_instants() {
    let script = workspace_root().join("tests/python/clutch_between_shafts.py");
    let ssp = fmu_path("ShaftClutch").with_file_name("MotorClutchLoad.ssp");
    let (ok, out, err) = run_python(&script, &["reference", "3.0"]);
    assert!(ok, "{out}\n{err}");
    let reference = clutch_instants(&out, "event");
    println!("reference: {reference:?}");
    assert_eq!(reference.iter().map(|e| e.1).collect::<Vec<_>>(), [0, 1], "unlock, then lock: {reference:?}");
    for step in ["0.001", "0.005", "0.02"] {
        let (ok, out, err) = run_python(&script, &["ssp", ssp.to_str().unwrap(), step, "3.0"]);
        assert!(ok, "{out}\n{err}");
        let seen = clutch_instants(&out, "seen");
        println!("fmpy.ssp h = {step}: {seen:?}");
        assert_instants(&seen, &reference, step.parse().unwrap(), &format!("fmpy.ssp h = {step}"));
    }
    // OMSimulator's weakly coupled system at the SSP's annotated 10 ms.
    let Some(oms) = fmu_tests::oms::omsimulator("the clutch SSP in OMSimulator") else { return };
    let dir = workspace_root().join("target/oms_clutch_instants");
    let h = 0.01;
    for mode in ["--mode=cs"] {
        let rows = omsimulator_ssp_rows(&oms, &ssp, &dir, &["--stopTime=3", mode], "Clutch.locked", h);
        assert_eq!(rows.len(), 301, "{mode}: rows at the communication points");
        // The changes of `locked` at the communication points.
        let seen: Vec<(f64, i32)> =
            rows.windows(2).filter(|p| p[0].1 != p[1].1).map(|p| (p[1].0, p[1].1 as i32)).collect();
        println!("OMSimulator {mode} h = {h}: {seen:?}");
        assert_instants(&seen, &reference, h, &format!("OMSimulator {mode}"));
    }
}

/// Issue 28 item 4: the clutch between shafts under a plain Jacobi loop
/// with the light and softly controlled motors of the shaft-port study
/// (J_motor 1e-2 or 1e-3, speed_gain 1 or 0.1, 2 N.m stall torque), 5 to
/// 50 ms: bounded (no speed above the motor's command), and the clutch's
/// lock and unlock instants within max(2 %, one step) of the reference at
/// 5 ms, within two steps at 20 ms (the lightest motor, J_motor 1e-3 with
/// speed_gain 1, sees its first unlock at 0.26 s for 0.2388 s: one step
/// late, its 100 rad/s swing against the shaft sampled at 20 ms).
#[test]
fn the_clutch_between_shafts_stays_bounded_under_jacobi_with_light_motors() {
    let script = workspace_root().join("tests/python/clutch_between_shafts.py");
    let dir = fmu_path("ShaftClutch").parent().unwrap().to_path_buf();
    for (j_motor, gain) in [("0.01", "1"), ("0.01", "0.1"), ("0.001", "1"), ("0.001", "0.1")] {
        let (ok, out, err) = run_python(&script, &["reference-motor", "3.0", j_motor, gain]);
        assert!(ok, "{out}\n{err}");
        let reference = clutch_instants(&out, "event");
        for step in ["0.005", "0.02", "0.05"] {
            let (ok, out, err) = run_python(&script, &["jacobi", dir.to_str().unwrap(), step, "3.0", j_motor, gain]);
            assert!(ok, "{out}\n{err}");
            let line = out.lines().find(|l| l.starts_with("jacobi ")).unwrap();
            let value = |k: &str| -> f64 {
                line.split_whitespace().find_map(|p| p.strip_prefix(&format!("{k}="))).unwrap().parse().unwrap()
            };
            let command = 2.0 / gain.parse::<f64>().unwrap();
            let seen = clutch_instants(&out, "seen");
            println!(
                "J_motor {j_motor}, speed_gain {gain}, h = {step}: {line}; seen {seen:?}, reference {reference:?}"
            );
            for k in ["motor_w_max", "load_w_max"] {
                assert!(value(k).is_finite() && value(k) <= 1.1 * command, "{k}: {line}");
            }
            let what = format!("J_motor {j_motor}, speed_gain {gain}, h = {step}");
            match step {
                "0.005" => assert_instants(&seen, &reference, 0.005, &what),
                "0.02" => assert_instants(&seen, &reference, 0.04, &what),
                _ => {}
            }
        }
    }
}
