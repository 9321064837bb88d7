//! What every FMU declares is what it does, measured through FMPy 0.3.32 on
//! each default experiment, in FMI 2.0 and FMI 3.0, Co-Simulation and Model
//! Exchange (`tests/python/declarations_hold.py`, `tests/python/warm_start.py`):
//!
//! - one get of every variable answers each as its get alone does, after
//!   every step, and the extra reads change nothing in the run;
//! - every dependency that perturbing an input or a continuous state shows
//!   is declared in `<ModelStructure>` (measured is a subset of declared);
//! - a serialized FMU state restores into a fresh instance right after
//!   instantiation and the run goes on bit for bit (Co-Simulation and
//!   Model Exchange), and FMPy's warm start takes it.

use fmu_tests::{identifiers, run_python, with_model_exchange, workspace_root};

/// The FMU x standard x interface runs a script must report `ok` for.
fn expected_runs() -> Vec<String> {
    let mut runs = Vec::new();
    for id in identifiers() {
        for standard in ["2.0", "3.0"] {
            runs.push(format!("{id} FMI {standard} CoSimulation"));
            if with_model_exchange().contains(&id) {
                runs.push(format!("{id} FMI {standard} ModelExchange"));
            }
        }
    }
    runs
}

fn run(script: &str) -> String {
    let dir = fmu_tests::fmu_path("HillFrictionInertia").parent().unwrap().to_path_buf();
    let (ok, out, err) = run_python(&workspace_root().join("tests/python").join(script), &[dir.to_str().unwrap()]);
    println!("{out}");
    assert!(ok, "{script} failed:\n{out}\n{err}");
    let runs = expected_runs();
    assert!(out.contains(&format!("runs checked: {}", runs.len())), "{script}: not every run was checked");
    runs.iter().for_each(|r| assert!(out.contains(&format!("ok {r}:")) || out.contains(&format!("{r}: ok")), "{r}"));
    out
}

#[test]
fn every_variable_reads_the_same_in_any_call_and_every_measured_dependency_is_declared() {
    let out = run("declarations_hold.py");
    // What the probe must see where the equations say it: a slipping
    // clutch's torque is its capacity (Model Exchange), an element's
    // output follows its input at once (both interfaces).
    for line in [
        "FMI 2.0 ModelExchange tau_clutch: tau1 tau2 tau_capacity",
        "StribeckElement FMI 2.0 CoSimulation tau_friction: w_rel",
        "HillFrictionShaftLoad FMI 3.0 ModelExchange tau_shaft: phi phi_drive",
    ] {
        assert!(out.contains(line), "the probe did not measure: {line}");
    }
}

#[test]
fn a_serialized_state_restores_into_a_fresh_instance_and_runs_on_bit_for_bit() {
    run("warm_start.py");
}
