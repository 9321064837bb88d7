//! libcosim (the Open Simulation Platform's co-simulation library, through
//! PyPI's `libcosimpy` 0.0.6, installed by `cargo xtask test`) imports every
//! FMI 2.0 FMU (`tests/python/libcosim_check.py`): each FMU's default
//! experiment and every scenario replay, run in libcosim and in FMPy with the
//! same inputs at the same communication points, every output within 1e-10
//! of its peak. libcosim reads all variables of an FMU in one fmi2GetReal
//! call after each step where FMPy reads the outputs alone: an FMU that
//! answers an output differently in such a read fails here.

use fmu_tests::{fmu_path, identifiers, run_python, workspace_root};

#[test]
fn libcosim_reading_every_variable_at_once_gets_fmpys_outputs() {
    let dir = fmu_path(identifiers()[0]).parent().unwrap().to_path_buf();
    let script = workspace_root().join("tests/python/libcosim_check.py");
    let (ok, out, err) = run_python(&script, &[dir.to_str().unwrap()]);
    println!("{out}");
    // "libcosim runs: N compared, A agree, D differ, U not comparable, F failed to run"
    let summary = out
        .lines()
        .find_map(|l| l.strip_prefix("libcosim runs: "))
        .unwrap_or_else(|| panic!("no summary line from {}:\n{out}\n{err}", script.display()));
    let compared: usize = summary
        .split(" compared")
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("unreadable summary: {summary}"));
    assert!(compared > 0, "no run compared: {summary}\n{err}");
    for id in identifiers() {
        assert!(out.contains(&format!("{id} [default")), "{id}: its default experiment was not run\n{err}");
    }
    for s in fmu::scenarios::all() {
        assert!(out.contains(&format!("[scenario {}]", s.name)), "scenario {} was not replayed\n{err}", s.name);
    }
    assert!(ok, "libcosim and FMPy differ ({summary}):\n{err}");
}
