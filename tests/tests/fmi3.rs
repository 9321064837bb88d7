//! FMI 3.0: every model's FMI 3.0 FMU (`target/fmu/fmi3/`) in FMPy 0.3.32
//! (`tests/python/fmi3.py`): it validates, exports the 75 functions of
//! FMI 3.0, and runs its default experiment in Co-Simulation and Model
//! Exchange to the FMI 2.0 FMU's result bit for bit (one binary, one
//! instance core, two bindings); Hill's breakaway and stop read through
//! FMI 3.0 alone; and what FMI 3.0 adds at the boundary (time and event
//! indicators as variables, enumerations as Int64, scalars only, event mode
//! refused where not declared, FMU states). OMSimulator's FMI 3.0 runs are
//! in `omsimulator.rs`.

use fmu_tests::{identifiers, run_python, with_model_exchange, workspace_root};

#[test]
fn fmi3_fmus_run_in_fmpy_as_their_fmi2_twins_and_keep_the_physics() {
    let script = workspace_root().join("tests/python/fmi3.py");
    let dir = workspace_root().join("target/fmu");
    let (ok, out, err) = run_python(&script, &[dir.to_str().unwrap()]);
    println!("{out}");
    assert!(ok, "{out}\n{err}");
    for id in identifiers() {
        assert!(out.contains(&format!("ok {id}: validates with 0 problems, exports the 75 fmi3 functions")), "{id}");
        assert!(out.contains(&format!("ok {id}: FMI 3.0 CoSimulation = FMI 2.0,")), "{id}: Co-Simulation");
        let me = out.contains(&format!("ok {id}: FMI 3.0 ModelExchange = FMI 2.0,"));
        assert_eq!(me, with_model_exchange().contains(&id), "{id}: Model Exchange");
    }
    for line in [
        "ok HillFrictionInertia FMI 3.0 CoSimulation: w exactly 0.0",
        "ok HillFrictionInertia FMI 3.0 ModelExchange: w exactly 0.0",
        "ok eventModeUsed refused at instantiation, with the reason",
        "ok the boundary: time and Int64 read",
        "event indicators read as variables equal fmi3GetEventIndicators",
    ] {
        assert!(out.contains(line), "missing: {line}\n{out}");
    }
}
