//! Instantiate / step / state / free loops through every built FMU binary,
//! FMI 2.0's functions and FMI 3.0's (the same binary), meant to run under
//! `valgrind --tool=memcheck` (`cargo xtask test` does): any leak or invalid
//! access in the FMU code fails the run.

use fmi::fmi2::binding::{self, Fmi2Binding};
use fmi::fmi3::binding::{self as binding3, Fmi3Binding};
use std::ffi::{c_char, CString};
use std::ptr::{null, null_mut};

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let dir = std::env::temp_dir().join(format!("fmu-memcheck-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for m in fmu::registry::MODELS {
        let id = m.info.identifier;
        let path = fmu_tests::raw::extract_binary(id, &dir);
        // A second handle that is never closed keeps the library loaded: its
        // once-computed statics (the GUID table) stay reachable, as in an
        // importer's process, instead of turning into "lost" blocks at
        // dlclose, and reports keep their symbols.
        let c_path = CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path of the workspace's own FMU binary.
        assert!(!unsafe { libc::dlopen(c_path.as_ptr(), libc::RTLD_NOW) }.is_null());
        // SAFETY: as the dlopen above.
        let lib = unsafe { Fmi2Binding::new(&path) }.unwrap();
        let guid = CString::new((m.guid)()).unwrap();
        let callbacks = fmu_tests::raw::silent_callbacks();
        let variables = (m.variables)();
        let reals: Vec<u32> = variables.iter().filter(|v| v.type_name == "Real").map(|v| v.value_reference).collect();
        let hybrid = (m.new_instance)().hybrid_sizes();
        // SAFETY: as the dlopen above.
        let lib3 = unsafe { Fmi3Binding::new(&path) }.unwrap();
        // FMI 3.0's Float64 references: FMI 2.0's, then the event
        // indicators and `time` (fmu::model::Layout).
        let (states, indicators) = hybrid.unwrap_or((0, 0));
        let layout = fmu::model::Layout { variables: variables.len(), states, indicators };
        let mut floats: Vec<u32> = reals.clone();
        floats.push(layout.time());
        floats.extend((0..indicators).map(|k| layout.indicator(k)));
        for round in 0..rounds {
            // SAFETY: `exercise`'s contract: a loaded binary and callbacks that outlive it.
            unsafe { exercise(&lib, &guid, &callbacks, &reals, hybrid.is_some(), round) };
            if let Some((states, indicators)) = hybrid {
                // SAFETY: as above; the sizes are the model's own.
                unsafe { exercise_model_exchange(&lib, &guid, &callbacks, &reals, states, indicators, round) };
            }
            // The four combinations of event mode and early return, once each
            // (valgrind's time is the run's).
            if round < 4 {
                // SAFETY: as above.
                unsafe { exercise_fmi3(&lib3, &guid, &floats, round) };
            }
        }
        println!("memcheck: {id}: {rounds} rounds");
    }
    std::fs::remove_dir_all(&dir).ok();
}

unsafe fn exercise(
    lib: &Fmi2Binding,
    guid: &CString,
    callbacks: &binding::fmi2CallbackFunctions,
    reals: &[u32],
    model_exchange: bool,
    round: usize,
) {
    const OK: u32 = binding::fmi2Status_fmi2OK;
    // Refused instantiations allocate nothing that survives.
    if !model_exchange {
        assert!(lib.fmi2Instantiate(c"x".as_ptr(), 0, guid.as_ptr(), null(), callbacks, 0, 0).is_null());
    }
    assert!(lib.fmi2Instantiate(c"x".as_ptr(), 1, c"{bad}".as_ptr(), null(), callbacks, 0, 1).is_null());
    let c = lib.fmi2Instantiate(c"memcheck".as_ptr(), 1, guid.as_ptr(), null(), callbacks, 0, (round % 2) as i32);
    assert!(!c.is_null());
    assert_eq!(lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
    assert_eq!(lib.fmi2EnterInitializationMode(c), OK);
    assert_eq!(lib.fmi2ExitInitializationMode(c), OK);
    let mut values = vec![0.0; reals.len()];
    let mut state = null_mut();
    for k in 0..100 {
        assert_eq!(lib.fmi2DoStep(c, k as f64 * 1e-3, 1e-3, 1), OK);
        assert_eq!(lib.fmi2GetReal(c, reals.as_ptr(), reals.len(), values.as_mut_ptr()), OK);
        if k == 50 {
            assert_eq!(lib.fmi2GetFMUstate(c, &mut state), OK);
            assert_eq!(lib.fmi2GetFMUstate(c, &mut state), OK); // overwrite in place
        }
        // Refused calls log and allocate messages: they must not leak.
        lib.fmi2DoStep(c, -1.0, f64::NAN, 1);
        lib.fmi2SetReal(c, [reals.len() as u32 + 7].as_ptr(), 1, [1.0].as_ptr());
    }
    let mut size = 0;
    assert_eq!(lib.fmi2SerializedFMUstateSize(c, state, &mut size), OK);
    let mut bytes = vec![0 as c_char; size];
    assert_eq!(lib.fmi2SerializeFMUstate(c, state, bytes.as_mut_ptr(), size), OK);
    let mut copy = null_mut();
    assert_eq!(lib.fmi2DeSerializeFMUstate(c, bytes.as_ptr(), size, &mut copy), OK);
    assert_eq!(lib.fmi2DeSerializeFMUstate(c, bytes.as_ptr(), size / 2, &mut copy), binding::fmi2Status_fmi2Error);
    assert_eq!(lib.fmi2SetFMUstate(c, copy), OK);
    assert_eq!(lib.fmi2FreeFMUstate(c, &mut copy), OK);
    // One state left alive on purpose every other round: FreeInstance frees it.
    if round.is_multiple_of(2) {
        assert_eq!(lib.fmi2FreeFMUstate(c, &mut state), OK);
    }
    assert_eq!(lib.fmi2Reset(c), OK);
    lib.fmi2FreeInstance(c);
}

/// A Model Exchange instance driven the way an importer's explicit-Euler loop
/// drives it: states, derivatives, indicators, event iteration, a saved and
/// restored state, refused calls in between, reset and free.
unsafe fn exercise_model_exchange(
    lib: &Fmi2Binding,
    guid: &CString,
    callbacks: &binding::fmi2CallbackFunctions,
    reals: &[u32],
    states: usize,
    indicators: usize,
    round: usize,
) {
    const OK: u32 = binding::fmi2Status_fmi2OK;
    let c = lib.fmi2Instantiate(c"memcheck-me".as_ptr(), 0, guid.as_ptr(), null(), callbacks, 0, (round % 2) as i32);
    assert!(!c.is_null());
    assert_eq!(lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
    assert_eq!(lib.fmi2EnterInitializationMode(c), OK);
    assert_eq!(lib.fmi2ExitInitializationMode(c), OK);
    let mut info = binding::fmi2EventInfo {
        newDiscreteStatesNeeded: 1,
        terminateSimulation: 0,
        nominalsOfContinuousStatesChanged: 0,
        valuesOfContinuousStatesChanged: 0,
        nextEventTimeDefined: 0,
        nextEventTime: 0.0,
    };
    while info.newDiscreteStatesNeeded != 0 {
        assert_eq!(lib.fmi2NewDiscreteStates(c, &mut info), OK);
    }
    assert_eq!(lib.fmi2EnterContinuousTimeMode(c), OK);
    let (mut x, mut dx) = (vec![0.0; states], vec![0.0; states]);
    let (mut z, mut z_before) = (vec![0.0; indicators], vec![0.0; indicators]);
    let mut values = vec![0.0; reals.len()];
    let mut saved = null_mut();
    let h = 1e-3;
    assert_eq!(lib.fmi2GetEventIndicators(c, z_before.as_mut_ptr(), indicators), OK);
    for k in 0..100 {
        assert_eq!(lib.fmi2GetContinuousStates(c, x.as_mut_ptr(), states), OK);
        assert_eq!(lib.fmi2GetDerivatives(c, dx.as_mut_ptr(), states), OK);
        for (x, dx) in x.iter_mut().zip(&dx) {
            *x += h * dx;
        }
        assert_eq!(lib.fmi2SetTime(c, (k + 1) as f64 * h), OK);
        assert_eq!(lib.fmi2SetContinuousStates(c, x.as_ptr(), states), OK);
        assert_eq!(lib.fmi2GetReal(c, reals.as_ptr(), reals.len(), values.as_mut_ptr()), OK);
        assert_eq!(lib.fmi2GetEventIndicators(c, z.as_mut_ptr(), indicators), OK);
        let (mut enter, mut terminate) = (0, 0);
        assert_eq!(lib.fmi2CompletedIntegratorStep(c, 1, &mut enter, &mut terminate), OK);
        let crossed = z.iter().zip(&z_before).any(|(a, b)| (*a > 0.0) != (*b > 0.0));
        if crossed || enter != 0 {
            assert_eq!(lib.fmi2EnterEventMode(c), OK);
            info.newDiscreteStatesNeeded = 1;
            while info.newDiscreteStatesNeeded != 0 {
                assert_eq!(lib.fmi2NewDiscreteStates(c, &mut info), OK);
            }
            assert_eq!(lib.fmi2EnterContinuousTimeMode(c), OK);
            assert_eq!(lib.fmi2GetEventIndicators(c, z.as_mut_ptr(), indicators), OK);
        }
        std::mem::swap(&mut z, &mut z_before);
        if k == 50 {
            assert_eq!(lib.fmi2GetFMUstate(c, &mut saved), OK);
        }
        // Refused calls log and allocate messages: they must not leak.
        lib.fmi2DoStep(c, 0.0, h, 1);
        lib.fmi2SetContinuousStates(c, vec![f64::NAN; states].as_ptr(), states);
        lib.fmi2GetDerivatives(c, vec![0.0; states + 1].as_mut_ptr(), states + 1);
        lib.fmi2SetTime(c, -1.0);
    }
    assert_eq!(lib.fmi2SetFMUstate(c, saved), OK);
    assert_eq!(lib.fmi2FreeFMUstate(c, &mut saved), OK);
    assert_eq!(lib.fmi2Reset(c), OK);
    lib.fmi2FreeInstance(c);
}

unsafe extern "C" fn silent3(_: *mut std::ffi::c_void, _: binding3::fmi3Status, _: *const c_char, _: *const c_char) {}

/// FMI 3.0 Co-Simulation with early return and event mode: steps that stop
/// at sticks, event mode after them, every Float64 read (time and the event
/// indicators included), a state saved, serialized and restored, refused
/// calls in between, reset and free.
unsafe fn exercise_fmi3(lib: &Fmi3Binding, token: &CString, floats: &[u32], round: usize) {
    const OK: u32 = binding3::fmi3Status_fmi3OK;
    let env = null_mut();
    let log: binding3::fmi3LogMessageCallback = Some(silent3);
    let (event_mode, early) = (round % 2 == 0, round % 4 < 2);
    let c = lib.fmi3InstantiateCoSimulation(
        c"memcheck3".as_ptr(),
        token.as_ptr(),
        null(),
        false,
        round % 3 == 0,
        event_mode,
        early,
        null(),
        0,
        env,
        log,
        None,
    );
    assert!(!c.is_null());
    assert!(lib
        .fmi3InstantiateCoSimulation(
            c"x".as_ptr(),
            c"{bad}".as_ptr(),
            null(),
            false,
            true,
            false,
            false,
            null(),
            0,
            env,
            log,
            None
        )
        .is_null());
    assert_eq!(lib.fmi3EnterInitializationMode(c, false, 0.0, 0.0, false, 0.0), OK);
    assert_eq!(lib.fmi3ExitInitializationMode(c), OK);
    let (mut update, mut terminate, mut nominals, mut values_changed, mut defined, mut next) =
        (false, false, false, false, false, 0.0);
    let mut settle = |c| {
        assert_eq!(
            lib.fmi3UpdateDiscreteStates(
                c,
                &mut update,
                &mut terminate,
                &mut nominals,
                &mut values_changed,
                &mut defined,
                &mut next
            ),
            OK
        );
        assert_eq!(lib.fmi3EnterStepMode(c), OK);
    };
    if event_mode {
        settle(c);
    }
    let mut values = vec![0.0; floats.len()];
    let mut state = null_mut();
    let mut t = 0.0;
    for k in 0..100 {
        let (mut needed, mut stop, mut returned, mut last) = (false, false, false, 0.0);
        assert_eq!(lib.fmi3DoStep(c, t, 1e-3, true, &mut needed, &mut stop, &mut returned, &mut last), OK);
        t = last;
        assert_eq!(lib.fmi3GetFloat64(c, floats.as_ptr(), floats.len(), values.as_mut_ptr(), floats.len()), OK);
        if needed {
            assert_eq!(lib.fmi3EnterEventMode(c), OK);
            settle(c);
        }
        if k == 50 {
            assert_eq!(lib.fmi3GetFMUState(c, &mut state), OK);
        }
        // Refused calls log and allocate messages: they must not leak.
        lib.fmi3DoStep(c, -1.0, f64::NAN, true, &mut needed, &mut stop, &mut returned, &mut last);
        lib.fmi3SetFloat64(c, [floats[floats.len() - 1] + 7].as_ptr(), 1, [1.0].as_ptr(), 1);
        lib.fmi3GetInt32(c, floats.as_ptr(), 1, [0].as_mut_ptr(), 1);
    }
    let mut size = 0;
    assert_eq!(lib.fmi3SerializedFMUStateSize(c, state, &mut size), OK);
    let mut bytes = vec![0u8; size];
    assert_eq!(lib.fmi3SerializeFMUState(c, state, bytes.as_mut_ptr(), size), OK);
    let mut copy = null_mut();
    assert_eq!(lib.fmi3DeserializeFMUState(c, bytes.as_ptr(), size, &mut copy), OK);
    assert_eq!(lib.fmi3SetFMUState(c, copy), OK);
    assert_eq!(lib.fmi3FreeFMUState(c, &mut copy), OK);
    if round.is_multiple_of(2) {
        assert_eq!(lib.fmi3FreeFMUState(c, &mut state), OK);
    }
    assert_eq!(lib.fmi3Reset(c), OK);
    lib.fmi3FreeInstance(c);
}
