//! FMI 3.0: every model's FMI 3.0 FMU (`target/fmu/fmi3/`) in FMPy 0.3.32
//! (`tests/python/fmi3.py`): it validates, exports the 75 functions of
//! FMI 3.0, and runs its default experiment in Co-Simulation and Model
//! Exchange to the FMI 2.0 FMU's result bit for bit (one binary, one
//! instance core, two bindings); Hill's breakaway and stop read through
//! FMI 3.0 alone; and what FMI 3.0 adds at the boundary (time and event
//! indicators as variables, enumerations as Int64, scalars only, FMU
//! states); early return at a stick inside a step and event mode (Hill's
//! stop at its exact instant, Stribeck's at its substep). OMSimulator's FMI 3.0 runs are
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
        "ok HillFrictionInertia FMI 3.0 early return: the step from 2.47 s returns at the stop, 2.474 s",
        "ok StribeckInertia FMI 3.0 early return at its mode changes",
        "ok doStep through a stop returns early at 2.474 s, eventHandlingNeeded exactly with event mode",
        "ok the boundary: time and Int64 read",
        "ok output derivatives by FMI 3.0's references, start values before initialization",
        "event indicators read as variables equal fmi3GetEventIndicators",
    ] {
        assert!(out.contains(line), "missing: {line}\n{out}");
    }
}

/// The papers' scenarios through the Rust `fmi` crate's FMI 3.0 import
/// (its bindings are generated from the standard's headers, so this also
/// calls our functions through FMI 3.0's own C declarations): every
/// scenario's parameters as start values, its inputs set each step (the
/// first in initialization mode), every output read after each step; the
/// same run through the crate's FMI 2.0 import of the FMI 2.0 FMU
/// (`run_scenario`, whose results other tests check against the papers)
/// gives the same table bit for bit.
#[test]
fn fmi_crate_runs_every_scenario_through_fmi3_as_through_fmi2() {
    use fmi::fmi3::import::Fmi3Import;
    use fmi::fmi3::{CoSimulation, Common, Fmi3Model, GetSet};
    use fmi::traits::FmiImport;

    let scenarios = fmu::scenarios::all();
    assert!(scenarios.len() > 20, "only {} scenarios", scenarios.len());
    for s in &scenarios {
        let two = fmu_tests::run_scenario(s.name);
        let import =
            fmi::import::from_path::<Fmi3Import>(fmu_tests::fmu3_path(s.model)).expect("the fmi crate loads it");
        let declared = (fmu::registry::get(s.model).variables)();
        // By the model description as the crate reads it; fmi-schema 0.8
        // skips `<Enumeration>` variables, so a choice's reference is the
        // declaration's (the same in both standards, fmu::model::Layout).
        let vr = |name: &str| -> u32 {
            let listed = import.model_description().model_variables.iter_abstract().find(|v| v.name() == name);
            match listed {
                Some(v) => v.value_reference(),
                None => {
                    let v = declared.iter().find(|v| v.name == name && v.choices.is_some());
                    v.unwrap_or_else(|| panic!("{}: no {name}", s.model)).value_reference
                }
            }
        };
        let info = |name: &str| declared.iter().find(|v| v.name == name).unwrap_or_else(|| panic!("{name}"));
        let mut instance = import.instantiate_cs("fmi-crate-3", false, false, false, false, &[]).expect("instantiate");
        for &(name, value) in s.parameters {
            let v = info(name);
            let r = [vr(name)];
            match (v.type_name, v.choices.is_some()) {
                ("Integer", true) => instance.set_int64(&r, &[value as i64]).map(|_| ()),
                ("Integer", false) => instance.set_int32(&r, &[value as i32]).map(|_| ()),
                ("Boolean", _) => instance.set_boolean(&r, &[value != 0.0]).map(|_| ()),
                _ => instance.set_float64(&r, &[value]).map(|_| ()),
            }
            .unwrap_or_else(|e| panic!("{}: set {name}: {e:?}", s.name));
        }
        instance.enter_initialization_mode(None, 0.0, Some(s.stop_time)).expect("enterInitializationMode");
        let set_inputs = |instance: &mut fmi::fmi3::instance::InstanceCS, t: f64| {
            for (name, value) in s.inputs_at(t, s.step_size) {
                instance.set_float64(&[vr(name)], &[value]).expect("setFloat64 input");
            }
        };
        set_inputs(&mut instance, 0.0);
        instance.exit_initialization_mode().expect("exitInitializationMode");
        let columns: Vec<&String> = two.columns.iter().skip(1).collect();
        let sample = |instance: &mut fmi::fmi3::instance::InstanceCS, t: f64| -> Vec<f64> {
            let mut row = vec![t];
            for name in &columns {
                let r = [vr(name)];
                row.push(match info(name).type_name {
                    "Integer" => {
                        let mut x = [0i32];
                        instance.get_int32(&r, &mut x).expect("getInt32");
                        x[0] as f64
                    }
                    "Boolean" => {
                        let mut x = [false];
                        instance.get_boolean(&r, &mut x).expect("getBoolean");
                        f64::from(u8::from(x[0]))
                    }
                    _ => {
                        let mut x = [0.0];
                        instance.get_float64(&r, &mut x).expect("getFloat64");
                        x[0]
                    }
                });
            }
            row
        };
        let times: Vec<f64> = two.rows.iter().map(|r| r[0]).collect();
        let mut rows = vec![sample(&mut instance, times[0])];
        for (k, w) in times.windows(2).enumerate() {
            if k > 0 {
                set_inputs(&mut instance, w[0]);
            }
            let (mut event, mut terminate, mut early, mut last) = (false, false, false, 0.0);
            instance
                .do_step(w[0], w[1] - w[0], true, &mut event, &mut terminate, &mut early, &mut last)
                .unwrap_or_else(|e| panic!("{}: doStep at {}: {e:?}", s.name, w[0]));
            assert!(!event && !terminate && !early && last == w[1], "{}: doStep's flags at {}", s.name, w[0]);
            rows.push(sample(&mut instance, w[1]));
        }
        instance.terminate().expect("terminate");
        let same = rows.len() == two.rows.len()
            && rows.iter().zip(&two.rows).all(|(a, b)| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits()));
        assert!(same, "{}: FMI 3.0 through the fmi crate differs from FMI 2.0", s.name);
        println!(
            "{:<40} {}: {} rows of {} outputs, FMI 3.0 = FMI 2.0 bit for bit",
            s.name,
            s.model,
            rows.len(),
            columns.len()
        );
    }
}
