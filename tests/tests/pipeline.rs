//! The export pipeline, on every FMU the project builds: validation, two
//! importers agreeing, FMU state, reset, independence of instances.

use fmi::fmi2::instance::{CoSimulation, Common};
use fmi::traits::FmiStatus;
use fmu_tests::{fmpy, fmu_path, identifiers, run_fmi, run_fmpy, Loaded, Run};

#[test]
fn every_fmu_passes_fmpy_validation() {
    for id in identifiers() {
        let path = fmu_path(id);
        let (ok, stdout, stderr) = fmpy(&["validate", path.to_str().unwrap()]);
        assert!(ok, "fmpy validate {id}: problems:\n{stdout}{stderr}");
    }
}

#[test]
fn the_archive_has_the_standard_layout() {
    for id in identifiers() {
        let archive = zip::ZipArchive::new(std::fs::File::open(fmu_path(id)).unwrap()).unwrap();
        let mut names: Vec<String> = archive.file_names().map(str::to_string).collect();
        names.sort();
        // linux64 always; the other platforms when `cargo xtask fmu` could
        // build them (`--host` builds linux64 only).
        let platforms = [
            format!("binaries/aarch64-linux/{id}.so"),
            format!("binaries/darwin64/{id}.dylib"),
            format!("binaries/win64/{id}.dll"),
        ];
        let (binaries, rest): (Vec<String>, Vec<String>) = names.into_iter().partition(|n| n.starts_with("binaries/"));
        assert!(binaries.contains(&format!("binaries/linux64/{id}.so")), "{id}: {binaries:?}");
        assert!(
            binaries.iter().all(|b| *b == format!("binaries/linux64/{id}.so") || platforms.contains(b)),
            "{id}: {binaries:?}"
        );
        assert!(
            rest.iter().all(|n| n == "modelDescription.xml" || n == "model.png" || n.starts_with("documentation/")),
            "{id}: {rest:?}"
        );
        assert!(rest.contains(&"modelDescription.xml".to_string()), "{id}");
    }
}

/// Each FMU carries a binary of its own model (issue 40: a thin cdylib per
/// model, `fmu/binaries/`), not one library of every model: no two FMUs
/// hold the same linux64 binary, each refuses every other model's GUID by
/// naming its own, and each is far smaller than a library of all the
/// models (2.8 MB stripped for linux64 before; a one-model binary is about
/// 0.4 MB).
#[test]
fn each_fmu_carries_a_binary_of_its_own_model() {
    use std::io::Read;
    let mut seen = std::collections::BTreeMap::new();
    for id in identifiers() {
        let mut archive = zip::ZipArchive::new(std::fs::File::open(fmu_path(id)).unwrap()).unwrap();
        let mut bytes = Vec::new();
        archive.by_name(&format!("binaries/linux64/{id}.so")).unwrap().read_to_end(&mut bytes).unwrap();
        assert!(bytes.len() < 1 << 20, "{id}: a linux64 binary of {} bytes", bytes.len());
        if let Some(other) = seen.insert(bytes, id) {
            panic!("{id} and {other} carry the same binary");
        }
    }
    let ids = identifiers();
    let (one, other) = (ids[0], ids[1]);
    let fmu = fmu_tests::raw::RawFmu::load(one);
    let wrong = std::ffi::CString::new(fmu::registry::guid_of(other).unwrap()).unwrap();
    // SAFETY: a valid name, GUID and callbacks; a refused instantiation returns NULL.
    let c = unsafe {
        fmu.lib.fmi2Instantiate(c"other".as_ptr(), 1, wrong.as_ptr(), std::ptr::null(), fmu.callbacks(), 0, 0)
    };
    assert!(c.is_null(), "{one}'s binary instantiated {other}");
    let own = fmu::registry::guid_of(one).unwrap();
    assert!(fmu.last_error().contains(&format!("{one} has fmuGUID {own}")), "{}", fmu.last_error());
}

/// FMPy's own master loop and a loop over the `fmi` crate, fed the same
/// communication points and start values, give the same bits.
#[test]
fn fmpy_and_the_fmi_crate_agree_bit_for_bit() {
    for id in identifiers() {
        let e = fmu::registry::get(id).info.default_experiment;
        let input = Loaded::new(id).inputs().remove(0);
        let runs = [
            Run::new(id, e.stop_time, e.step_size),
            Run::new(id, 1.0, 0.037).with(&input, 0.5),
            Run::new(id, 3.0, 0.25).with(&input, -1.7),
        ];
        for run in &runs {
            let a = run_fmpy(run);
            let b = run_fmi(run);
            // The same columns (FMPy's driver lists the Real outputs first,
            // the fmi crate's loop keeps the declaration order).
            let mut sorted = (a.columns.clone(), b.columns.clone());
            sorted.0.sort();
            sorted.1.sort();
            assert_eq!(sorted.0, sorted.1, "{run:?}");
            let in_b: Vec<usize> = a.columns.iter().map(|c| b.columns.iter().position(|d| d == c).unwrap()).collect();
            assert_eq!(a.rows.len(), b.rows.len(), "{run:?}");
            for (ra, rb) in a.rows.iter().zip(&b.rows) {
                for (x, &k) in ra.iter().zip(&in_b) {
                    let y = rb[k];
                    assert_eq!(x.to_bits(), y.to_bits(), "{run:?}: FMPy row {ra:?} vs fmi crate row {rb:?}");
                }
            }
        }
    }
}

/// Get/set and serialize/deserialize of the FMU state continue bit-identically.
#[test]
fn fmu_state_round_trips_continue_bit_identically() {
    for id in identifiers() {
        let fmu = Loaded::new(id);
        let input = fmu.inputs().remove(0);
        let run = Run::new(id, 3.0, 0.013).with(&input, 1.1);
        let points = run.points();
        let (first, second) = points.split_at(points.len() / 2);
        let second: Vec<f64> = std::iter::once(*first.last().unwrap()).chain(second.iter().copied()).collect();

        let mut a = fmu.instantiate("a");
        fmu.initialize(&mut a, &run);
        fmu.steps(&mut a, first);
        let saved = a.get_fmu_state().expect("getFMUstate");
        let bytes = a.serialize_fmu_state(&saved).expect("serialize");
        let reference = fmu.steps(&mut a, &second);

        // Back to the saved state in the same instance.
        a.set_fmu_state(&saved).ok().expect("setFMUstate");
        assert_eq!(fmu.steps(&mut a, &second), reference, "{id}: set_fmu_state");

        // Deserialized into a fresh instance that has run differently.
        let mut b = fmu.instantiate("b");
        fmu.initialize(&mut b, &Run::new(id, 3.0, 0.1).with(&input, -5.0));
        fmu.steps(&mut b, &[0.0, 0.1, 0.2]);
        let restored = b.deserialize_fmu_state(&bytes).expect("deserialize");
        b.set_fmu_state(&restored).ok().expect("setFMUstate");
        let continued = fmu.steps(&mut b, &second);
        for (x, y) in continued.iter().flatten().zip(reference.iter().flatten()) {
            assert_eq!(x.to_bits(), y.to_bits(), "{id}: deserialized state");
        }
    }
}

/// A second run after fmi2Reset equals the first.
#[test]
fn reset_restores_start_values_and_time() {
    for id in identifiers() {
        let fmu = Loaded::new(id);
        let input = fmu.inputs().remove(0);
        // A physical parameter (not the internal step), changed from its start.
        let (parameter, vr, start) =
            fmu.real_parameters().into_iter().find(|p| p.0 != "internal_step" && p.2 != 0.0).expect("a parameter");
        let run = Run::new(id, 2.0, 0.05).with(&input, 1.5).with(&parameter, start * 1.1);
        let points = run.points();
        let mut i = fmu.instantiate("reset");
        fmu.initialize(&mut i, &run);
        let first = fmu.steps(&mut i, &points);
        i.reset().expect("reset");
        // Start values again, not the values set before the reset.
        i.setup_experiment(None, 0.0, None).unwrap();
        i.enter_initialization_mode().unwrap();
        let mut value = [0.0];
        i.get_real(&[vr], &mut value).unwrap();
        assert_eq!(value[0], start, "{id}: {parameter} back at its start value");
        i.exit_initialization_mode().unwrap();
        assert!(i.do_step(1.0, 0.1, true).is_err(), "{id}: time must be back at 0 after reset");
        i.reset().unwrap();
        fmu.initialize(&mut i, &run);
        assert_eq!(fmu.steps(&mut i, &points), first, "{id}");
    }
}

/// Two instances in one process, stepped alternately with different
/// inputs, give what each gives alone.
#[test]
fn instances_are_independent() {
    for id in identifiers() {
        let fmu = Loaded::new(id);
        let input = fmu.inputs().remove(0);
        let run_a = Run::new(id, 1.0, 0.01).with(&input, 2.0);
        let run_b = Run::new(id, 1.0, 0.01).with(&input, -0.5);
        let alone_a = run_fmi(&run_a).rows;
        let alone_b = run_fmi(&run_b).rows;
        let mut a = fmu.instantiate("a");
        let mut b = fmu.instantiate("b");
        fmu.initialize(&mut a, &run_a);
        fmu.initialize(&mut b, &run_b);
        let points = run_a.points();
        for (k, w) in points.windows(2).enumerate() {
            a.do_step(w[0], w[1] - w[0], true).unwrap();
            b.do_step(w[0], w[1] - w[0], true).unwrap();
            assert_eq!(fmu.sample(&mut a, w[1]), alone_a[k + 1], "{id} a at {}", w[1]);
            assert_eq!(fmu.sample(&mut b, w[1]), alone_b[k + 1], "{id} b at {}", w[1]);
        }
    }
}

/// The docs are derived from the declarations and must be current.
#[test]
fn models_doc_is_current() {
    let path = fmu_tests::workspace_root().join("docs/models.md");
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    let expected = fmu::registry::models_markdown();
    assert!(on_disk == expected, "docs/models.md is stale: run `cargo xtask docs`");
}
