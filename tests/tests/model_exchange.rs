//! Model Exchange: the FMUs that declare `<ModelExchange>` run in FMPy's
//! CVode (`tests/python/model_exchange.py`: closed forms of the papers'
//! 1-DOF experiments, stuck rate exactly 0.0, agreement with Co-Simulation)
//! and in OpenModelica's strongly coupled system (`oms_system_sc`, CVODE):
//! CompliantDrive driving HillFrictionInertia through its shaft, both as
//! Model Exchange FMUs, against the exact solution of the whole system
//! (`tests/python/shaft_reference.py`, independent of the FMUs).

use fmu_tests::{fmu_path, run_python, workspace_root};

/// The FMUs that carry Model Exchange beside Co-Simulation (issue 19: the
/// others follow).
const WITH_MODEL_EXCHANGE: &[&str] =
    &["CoulombInertia", "HillFrictionInertia", "StribeckInertia", "CompliantDrive", "MotorDrive"];

#[test]
fn the_declared_interfaces_are_the_ones_instantiated() {
    for id in fmu_tests::identifiers() {
        let mut zip = zip::ZipArchive::new(std::fs::File::open(fmu_path(id)).unwrap()).unwrap();
        let mut xml = String::new();
        std::io::Read::read_to_string(&mut zip.by_name("modelDescription.xml").unwrap(), &mut xml).unwrap();
        assert_eq!(xml.contains("<ModelExchange"), WITH_MODEL_EXCHANGE.contains(&id), "{id}");
        assert!(xml.contains("<CoSimulation"), "{id}");
    }
}

#[test]
fn fmpy_runs_model_exchange_to_the_closed_forms() {
    let script = workspace_root().join("tests/python/model_exchange.py");
    let dir = workspace_root().join("target/fmu");
    let (ok, out, err) = run_python(&script, &[dir.to_str().unwrap()]);
    println!("{out}");
    assert!(ok, "{out}\n{err}");
    for id in WITH_MODEL_EXCHANGE {
        assert!(out.contains(&format!("ok {id}: validates with 0 problems")), "{id} not checked:\n{out}");
        assert!(out.contains(&format!("ok {id}: default experiment in Model Exchange")), "{id}:\n{out}");
    }
    for check in ["coasts to a stop", "breaks away at", "stuck rows", "stops at"] {
        assert!(out.contains(check), "no check \"{check}\":\n{out}");
    }
}

/// The shaft-and-load system of issue 19, strongly coupled in OMSimulator.
/// OMSimulator's `oms_system_sc` (the version in ../shared) passes values
/// between its FMUs only where CVODE returns (each maximum step and each
/// event), not inside CVODE's right-hand side: the shaft torque reaches the
/// load held over each maximum step. Its accuracy is therefore that of the
/// maximum step, printed here at 1 ms, 0.1 ms and 10 us, and must fall
/// with it. At 10 us the stiff speed loop meets the goal of every stick
/// within 0.1 % of the exact one (0.056 %); the stiff shaft (16 ms sticks,
/// a 100 N.m/rad shaft against a 0.01 kg.m2 rotor) does not (3.4 %): the
/// held shaft torque, not the FMUs, which are exact alone (FMPy test above).
#[test]
fn omsimulator_strongly_coupled_system_meets_the_stick_goal() {
    use fmu_tests::oms::{omsimulator, simulate_system, LuaSystem, Mode};
    let Some(oms) = omsimulator("the Model Exchange shaft system in OMSimulator") else { return };
    let stop = 4.0;
    let script = workspace_root().join("tests/python/shaft_coupling.py");
    let (ok, out, err) = run_python(&script, &["--systems"]);
    assert!(ok, "{out}\n{err}");
    let dir = workspace_root().join("target/model_exchange_oms");
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for line in out.lines() {
        let mut words = line.split_whitespace();
        let name = words.next().unwrap();
        let p: std::collections::BTreeMap<&str, f64> =
            words.filter_map(|w| w.split_once('=')).map(|(k, v)| (k, v.parse().unwrap())).collect();
        let mut errors = Vec::new();
        for max_step in [1e-3, 1e-4, 1e-5] {
            let values = vec![
                ("drive.J_motor".to_string(), p["J_motor"]),
                ("drive.speed_gain".into(), p["speed_gain"]),
                ("drive.k_shaft".into(), p["k_shaft"]),
                ("drive.d_shaft".into(), p["d_shaft"]),
                ("drive.tau_motor".into(), p["tau_motor"]),
                ("drive.w_command".into(), p["w_command"]),
                ("load.J".into(), p["J"]),
                ("load.w_start".into(), 0.0),
                ("load.tau_static".into(), p["tau_static"]),
                ("load.tau_coulomb".into(), p["tau_coulomb"]),
            ];
            let system = LuaSystem {
                mode: Mode::ModelExchange,
                components: vec![("drive", fmu_path("CompliantDrive")), ("load", fmu_path("HillFrictionInertia"))],
                connections: vec![
                    ("drive.tau_shaft", "load.tau"),
                    ("load.phi", "drive.phi_load"),
                    ("load.w", "drive.w_load"),
                ],
                values,
                stop,
                step: max_step,
                tolerance: 1e-8,
                held_inputs: None,
            };
            let table = simulate_system(&oms, &system).unwrap_or_else(|e| panic!("{name} {max_step}: {e}"));
            let (time, mode, w) = (table.column("time"), table.column("load.mode"), table.column("load.w"));
            let mut csv = String::from("time,mode,w\n");
            for ((t, m), x) in time.iter().zip(&mode).zip(&w) {
                csv += &format!("{t:?},{m:?},{x:?}\n");
            }
            let path = dir.join(format!("{name}_{max_step}.csv"));
            std::fs::write(&path, csv).unwrap();
            let (ok, out, err) =
                run_python(&script, &["--score-events", name, path.to_str().unwrap(), &stop.to_string()]);
            assert!(ok, "{out}\n{err}");
            println!("max_step={max_step} {out}");
            let figure = |key: &str| -> f64 {
                let word = out.split_whitespace().find_map(|w| w.strip_prefix(&format!("{key}="))).unwrap();
                word.parse().unwrap_or(f64::NAN)
            };
            // Stuck means exactly still, under any solver.
            assert_eq!(figure("stuck_w_max"), 0.0, "{out}");
            assert_eq!(figure("spurious"), 0.0, "{name}: {out}");
            assert_eq!(figure("sticks"), figure("exact_sticks"), "{name}: {out}");
            errors.push(figure("worst_relative_error"));
        }
        if errors[0].is_nan() {
            // The soft loop: one breakaway, no stick after it (none seen).
            checked += 1;
            continue;
        }
        // The error falls with OMSimulator's maximum step (its coupling).
        assert!(errors[2] < errors[1] && errors[1] < errors[0], "{name}: {errors:?}");
        if name == "stiff_loop" {
            assert!(errors[2] <= 1e-3, "{name}: the 0.1 % stick goal at 10 us: {errors:?}");
        }
        checked += 1;
    }
    assert_eq!(checked, 3, "stiff loop, soft loop, stiff shaft");
}
