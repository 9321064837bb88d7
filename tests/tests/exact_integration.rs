//! Exact integration inside a step, through the built FMUs: angles through
//! stops and locks at steps that do and do not divide the event time, input
//! derivatives (fmi2SetRealInputDerivatives) and output derivatives
//! (fmi2GetRealOutputDerivatives) through the `fmi` crate's FMI 2.0
//! bindings and FMPy's low-level API, CoupledClutches' free clutch without
//! latency, and the co-simulation masters of the accuracy study.

use fmu_tests::cosim::{cosimulate, Master, STUDY};
use fmu_tests::raw::{RawFmu, ERROR, OK};
use fmu_tests::{fmpy, fmu_path, run_fmi, run_fmi_with, run_fmpy, Run, Table};

const HILL: &str = "HillFrictionInertia";

/// Coasting J = 2, w0 = 1, F_c = 0.5 to rest at t = 4 s with internal and
/// communication step `h`, through both importers.
fn coast(h: f64, integration: f64) -> [Table; 2] {
    let run = Run::new(HILL, 6.0, h)
        .with("J", 2.0)
        .with("w_start", 1.0)
        .with("tau_coulomb", 0.5)
        .with("tau_static", 0.6)
        .with("internal_step", h)
        .with("integration", integration);
    [run_fmi(&run), run_fmpy(&run)]
}

fn last(t: &Table, column: &str) -> f64 {
    *t.column(column).last().unwrap()
}

#[test]
fn coasting_stops_at_v0_squared_j_over_2fc_at_steps_that_do_and_do_not_divide_the_stop_time() {
    // 0.3 and 0.7 s do not divide t_stop = 4 s; 0.5 and 1 s do.
    for h in [0.3, 0.7, 0.5, 1.0] {
        for t in coast(h, 0.0) {
            let (w, phi) = (t.column("w"), t.column("phi"));
            let k = w.iter().position(|&x| x == 0.0).expect("stops");
            let stopped_at = t.column("time")[k];
            assert!(stopped_at >= 4.0 - 1e-9 && stopped_at < 4.0 + h, "h = {h}: at rest from {stopped_at}");
            assert!(w[k..].iter().all(|&x| x == 0.0) && phi[k..].iter().all(|&p| p == phi[k]));
            // phi = v0^2*J/(2*F_c) = 2 rad.
            assert!((last(&t, "phi") - 2.0).abs() <= 1e-12, "h = {h}: phi = {:.17}", last(&t, "phi"));
        }
    }
    // Hill's published algorithm (integration = 1) spreads the stop over
    // the step: it overshoots by a*u*(h - u)/2, a = F_c/J, u = the stop's
    // offset in its step (Eq. 5 applied to the trapezoid angle): 2.0025 at
    // 0.3 s, 2.0125 at 0.7 s (the figures), exact where h divides 4 s.
    for h in [0.3_f64, 0.7, 0.5] {
        let u = 4.0 - (4.0 / h).floor() * h;
        let expected = 2.0 + 0.25 * u * (h - u) / 2.0;
        for t in coast(h, 1.0) {
            assert!((last(&t, "phi") - expected).abs() <= 1e-12, "h = {h}: {} vs {expected}", last(&t, "phi"));
        }
    }
}

#[test]
fn clutch_slip_angle_is_exact_when_the_lock_falls_inside_a_step() {
    // ClutchStickSlip: J1 = J2 = 1, w1 = 10, w2 = 0, capacity 5 N.m: the
    // slip closes at 10 rad/s^2 and locks at t = 1 s after a slip angle of
    // v0^2/(2*10) = 5 rad; both then turn at 5 rad/s.
    for h in [0.3, 0.7] {
        let run = Run::new("ClutchStickSlip", 3.0, h)
            .with("w1_start", 10.0)
            .with("w2_start", 0.0)
            .with("tau_capacity", 5.0)
            .with("internal_step", h);
        for t in [run_fmi(&run), run_fmpy(&run)] {
            let (w1, w2) = (last(&t, "w1"), last(&t, "w2"));
            assert_eq!(last(&t, "locked"), 1.0);
            assert_eq!(w1, w2, "h = {h}: locked speeds bit-identical");
            let slip = last(&t, "phi1") - last(&t, "phi2");
            assert!((slip - 5.0).abs() <= 1e-12, "h = {h}: slip angle {slip:.17}");
            // phi2: 2.5 rad while slipping up to 5 rad/s, then 5 rad/s.
            let time = last(&t, "time");
            assert!((last(&t, "phi2") - (2.5 + 5.0 * (time - 1.0))).abs() <= 1e-12, "h = {h}");
            // Momentum J1*w1 + J2*w2 = 10 (no external torque): to the last
            // bit where the rates are sums of exact multiples (here they are).
            assert!((w1 + w2 - 10.0).abs() <= 2.0 * f64::EPSILON * 10.0, "h = {h}: {}", w1 + w2);
            // Every step: the total momentum holds within rounding.
            for (a, b) in t.column("w1").iter().zip(t.column("w2")) {
                assert!((a + b - 10.0).abs() <= 4.0 * f64::EPSILON * 10.0, "h = {h}: {}", a + b);
            }
        }
    }
}

/// CoupledClutches from w = (10, 0, 0, -6), J = 1 each, every clutch
/// sliding at mu*fn_max = 10 N.m and holding 11: the closed form (rates,
/// angles) at `t`. Clutch 1 slides body 1 down at -10 rad/s^2, clutch 3 body
/// 4 up at +10 while bodies 2-3 stay held (net torque 0); clutch 3 locks at
/// 0.6 s (w4 = 0, phi4 = -1.8); bodies 2-4 then gain 10/3 rad/s^2 until
/// clutch 1 locks at 0.9 s at the common speed 4/4 = 1 rad/s.
fn two_locks(t: f64) -> ([f64; 4], [f64; 4]) {
    if t <= 0.6 {
        ([10.0 - 10.0 * t, 0.0, 0.0, -6.0 + 10.0 * t], [10.0 * t - 5.0 * t * t, 0.0, 0.0, -6.0 * t + 5.0 * t * t])
    } else if t <= 0.9 {
        let s = t - 0.6;
        let (w, phi) = (10.0 / 3.0 * s, 5.0 / 3.0 * s * s);
        ([4.0 - 10.0 * s, w, w, w], [4.2 + 4.0 * s - 5.0 * s * s, phi, phi, -1.8 + phi])
    } else {
        let s = t - 0.9;
        ([1.0; 4], [4.95 + s, 0.15 + s, 0.15 + s, -1.65 + s])
    }
}

#[test]
fn coupled_clutches_angles_are_exact_through_locks_inside_a_step() {
    // Locks at 0.6 and 0.9 s: inside steps of 0.7 s (one per step) and 1 s
    // (both in the first), at step ends for 0.3 s (within rounding).
    for h in [0.3, 0.7, 1.0] {
        let run = Run::new("CoupledClutches", 2.1, h)
            .with("w1_start", 10.0)
            .with("w4_start", -6.0)
            .with("internal_step", h)
            // All three engaged (clutches 2 and 3 start open by default).
            .with("f_normalized_2", 1.0)
            .with("f_normalized_3", 1.0);
        for t in [run_fmi(&run), run_fmpy(&run)] {
            let mut worst: f64 = 0.0;
            for (k, &time) in t.column("time").iter().enumerate() {
                let (w, phi) = two_locks(time);
                for i in 0..4 {
                    worst = worst
                        .max((t.column(&format!("w{}", i + 1))[k] - w[i]).abs())
                        .max((t.column(&format!("phi{}", i + 1))[k] - phi[i]).abs());
                }
                // No external torque: momentum sum(J*w) = 4 at every step,
                // within the rounding of four separately rounded rates.
                let momentum: f64 = (1..=4).map(|i| t.column(&format!("w{i}"))[k]).sum();
                assert!((momentum - 4.0).abs() <= 8.0 * f64::EPSILON * 10.0, "h = {h}, t = {time}: {momentum}");
            }
            eprintln!("CoupledClutches h = {h}: worst rate/angle error {worst:e}");
            assert!(worst <= 1e-12, "h = {h}: worst rate/angle error {worst:e}");
            for m in ["mode_1", "mode_2", "mode_3"] {
                assert_eq!(last(&t, m), 0.0, "h = {h}: {m} locked");
            }
            let w1 = last(&t, "w1");
            assert!((2..=4).all(|i| last(&t, &format!("w{i}")) == w1), "h = {h}: one speed, bit-identical");
            // Energy: the kinetic energy lost, (10^2 + 6^2)/2 - 4*1^2/2 = 66 J,
            // is the clutches' work, capacity times slip angle (clutch 1
            // slid forward 4.8 rad, clutch 3 1.8 rad, clutch 2 held).
            let slip1 = last(&t, "phi1") - last(&t, "phi2");
            let slip3 = last(&t, "phi3") - last(&t, "phi4");
            assert_eq!(last(&t, "phi2"), last(&t, "phi3"), "clutch 2 never slid");
            let work = 10.0 * (slip1 + slip3);
            eprintln!("CoupledClutches h = {h}: friction work - energy lost = {:e} J", work - 66.0);
            assert!((work - 66.0).abs() <= 1e-12, "h = {h}: friction work {work} vs 66 J lost");
        }
    }
}

/// Rate and angle at a time.
type ClosedForm<'a> = dyn Fn(f64) -> (f64, f64) + 'a;

/// An element under `J*w' = A - CM*w` from `w0`: rate and angle travelled
/// after `t` (the closed form between Borello's events).
fn damped(j: f64, cm: f64, a: f64, w0: f64, t: f64) -> (f64, f64) {
    let (k, w_inf) = (cm / j, a / cm);
    let e = (-k * t).exp();
    (w_inf + (w0 - w_inf) * e, w_inf * t + (w0 - w_inf) * (1.0 - e) / k)
}

#[test]
fn load_dependent_friction_is_exact_through_stops_reversals_and_hard_stops() {
    const MODEL: &str = "LoadDependentFrictionInertia";
    // Instants the closed forms need, found from them (not from the FMU).
    let reverse_at = (1.0_f64 / 60.0).ln_1p() / 0.1;
    let (mut low, mut high) = (0.0, 2.0);
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if damped(1.0, 0.1, -2.5, 0.0, mid).1 > -1.0 {
            low = mid
        } else {
            high = mid
        }
    }
    let impact = high;
    for h in [0.3, 0.7] {
        let base = |stop| Run::new(MODEL, stop, h).with("internal_step", h);
        // Coasting: J = 2, w0 = 1, TFR0 = 0.5, CM = 0.1, no load: stops at
        // ln(1.2)/0.05 = 3.646 s at (w0 + w_inf*ln(1 - w0/w_inf))/k, w_inf = -5.
        let coast = base(6.0)
            .with("J", 2.0)
            .with("w_start", 1.0)
            .with("tau_friction0", 0.5)
            .with("tau_load", 0.0)
            .with("stop_angle", 10.0);
        let stops_at = 20.0 * 1.2_f64.ln();
        // Reversal: J = 1, w0 = 1, TM = -5, TFR0 = 1: A = -6 to the stop,
        // then |Act| = 5 > FSD*TFR0 = 1.2: backwards at once with A = -4.
        let reversal =
            base(2.1).with("w_start", 1.0).with("tau_motor", -5.0).with("tau_load", 0.0).with("stop_angle", 100.0);
        // The default: back-driven from rest (Act = -5, aided static limit 3):
        // J*w' = -2.5 - 0.1*w up to the lower stop at -1 rad, held there.
        let wall = base(2.1).with("tau_load", 5.0);
        let cases: [(&Run, &ClosedForm<'_>); 3] = [
            (&coast, &|t| {
                if t < stops_at {
                    damped(2.0, 0.1, -0.5, 1.0, t)
                } else {
                    (0.0, 20.0 * (1.0 - 5.0 * 1.2_f64.ln()))
                }
            }),
            (&reversal, &|t| {
                if t < reverse_at {
                    damped(1.0, 0.1, -6.0, 1.0, t)
                } else {
                    let (w, phi) = damped(1.0, 0.1, -4.0, 0.0, t - reverse_at);
                    (w, phi + damped(1.0, 0.1, -6.0, 1.0, reverse_at).1)
                }
            }),
            (&wall, &|t| if t < impact { damped(1.0, 0.1, -2.5, 0.0, t) } else { (0.0, -1.0) }),
        ];
        for (run, exact) in cases {
            for t in [run_fmi(run), run_fmpy(run)] {
                let mut worst: f64 = 0.0;
                for (k, &time) in t.column("time").iter().enumerate() {
                    let (w, phi) = exact(time);
                    worst = worst.max((t.column("w")[k] - w).abs()).max((t.column("phi")[k] - phi).abs());
                    // At rest means exactly 0, and stuck: mode 0 (but at
                    // t = 0 a body at rest that its inputs start moving
                    // reports that motion, as Model Exchange's initial event).
                    if w == 0.0 && time > 0.0 {
                        assert_eq!((t.column("w")[k], t.column("mode")[k]), (0.0, 0.0), "h = {h}, t = {time}");
                    }
                }
                eprintln!("{MODEL} h = {h}: worst rate/angle error {worst:e}");
                assert!(worst <= 1e-12, "h = {h}: {:?}: worst {worst:e}", run.start_values);
            }
        }
    }
}

// HillFrictionInertia's value references (checked by name in
// `the_oscillator_constants_name_their_variables`).
const TAU: u32 = 1;
const PHI: u32 = 2;
const W: u32 = 3;

#[test]
fn the_oscillator_constants_name_their_variables() {
    for (name, constant) in [("tau", TAU), ("phi", PHI), ("w", W)] {
        assert_eq!(vr(name), constant, "{name}");
    }
}

fn vr(name: &str) -> u32 {
    let entry = fmu::registry::get(HILL);
    (entry.variables)().iter().find(|v| v.name == name).unwrap().value_reference
}

/// An initialized HillFrictionInertia at rest: J = 2, F_s = 0.6, F_c = 0.5.
fn hill_at_rest(fmu: &RawFmu) -> fmi::fmi2::binding::fmi2Component {
    let c = fmu.instantiate("ramp");
    unsafe {
        let l = &fmu.lib;
        assert_eq!(l.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
        for (name, x) in
            [("J", 2.0), ("tau_static", 0.6), ("tau_coulomb", 0.5), ("w_start", 0.0), ("internal_step", 0.25)]
        {
            assert_eq!(l.fmi2SetReal(c, &vr(name), 1, &x), OK);
        }
        assert_eq!(l.fmi2EnterInitializationMode(c), OK);
        assert_eq!(l.fmi2ExitInitializationMode(c), OK);
    }
    c
}

#[test]
fn input_derivative_ramps_the_torque_over_one_step_and_breakaway_is_the_closed_form_root() {
    let fmu = RawFmu::load(HILL);
    let l = &fmu.lib;
    unsafe {
        let c = hill_at_rest(&fmu);
        let get = |v: u32| {
            let mut x = f64::NAN;
            assert_eq!(l.fmi2GetReal(c, &v, 1, &mut x), OK);
            x
        };
        let derivative = |v: u32| {
            let mut x = f64::NAN;
            assert_eq!(l.fmi2GetRealOutputDerivatives(c, &v, 1, &1, &mut x), OK);
            x
        };
        assert_eq!((derivative(PHI), derivative(W)), (0.0, 0.0), "at rest: stuck, zero acceleration");
        // tau(t) = 0.2 + 1.0*t over [0, 1] (four internal substeps): stuck
        // until |tau| = F_s = 0.6 at t = 0.4, then J*w' = tau - F_c.
        assert_eq!(l.fmi2SetReal(c, &TAU, 1, &0.2), OK);
        assert_eq!(l.fmi2SetRealInputDerivatives(c, &TAU, 1, &1, &1.0), OK);
        assert_eq!(l.fmi2DoStep(c, 0.0, 1.0, 1), OK);
        let u: f64 = 0.6;
        let w1 = (0.1 * u + 0.5 * u * u) / 2.0;
        let phi1 = (0.1 * u * u / 2.0 + u * u * u / 6.0) / 2.0;
        assert!((get(W) - w1).abs() <= 1e-15, "{} vs {w1}", get(W));
        assert!((get(PHI) - phi1).abs() <= 1e-15, "{} vs {phi1}", get(PHI));
        // Output derivatives at the end of the step: w, and (tau(1) - F_c)/J.
        assert_eq!(derivative(PHI), get(W));
        assert!((derivative(W) - (1.2 - 0.5) / 2.0).abs() <= 1e-15, "{}", derivative(W));
        // The input keeps the value set; its derivative applied to that step
        // only (FMI 2.0: reset after the step): the next step holds 0.2.
        assert_eq!(get(TAU), 0.2);
        assert_eq!(l.fmi2DoStep(c, 1.0, 0.5, 1), OK);
        let w2 = w1 + 0.5 * (0.2 - 0.5) / 2.0;
        assert!((get(W) - w2).abs() <= 1e-15, "{} vs {w2}", get(W));
        assert!((derivative(W) + 0.15).abs() <= 1e-15);

        // Refused, logged, nothing changed: order 2, an output, a parameter, NaN.
        fmu.take_messages();
        assert_eq!(l.fmi2SetRealInputDerivatives(c, &TAU, 1, &2, &1.0), ERROR);
        assert!(fmu.last_error().contains("order = 2 for tau rejected"));
        assert_eq!(l.fmi2SetRealInputDerivatives(c, &W, 1, &1, &1.0), ERROR);
        let refused = format!("w (value reference {W}) rejected: not an input this FMU interpolates");
        assert!(fmu.last_error().contains(&refused));
        assert_eq!(l.fmi2SetRealInputDerivatives(c, &vr("J"), 1, &1, &1.0), ERROR);
        assert_eq!(l.fmi2SetRealInputDerivatives(c, &TAU, 1, &1, &f64::NAN), ERROR);
        assert!(fmu.last_error().contains("must be finite"));
        let mut x = 0.0;
        assert_eq!(l.fmi2GetRealOutputDerivatives(c, &W, 1, &2, &mut x), ERROR);
        assert!(fmu.last_error().contains("order = 2 for w rejected"));
        assert_eq!(l.fmi2GetRealOutputDerivatives(c, &vr("tau_friction"), 1, &1, &mut x), ERROR);
        assert!(fmu.last_error().contains("no derivative for it (outputs with derivatives: phi, w)"));
        let before = get(PHI);
        assert_eq!(l.fmi2DoStep(c, 1.5, 0.5, 1), OK);
        // Held 0.2 N.m: decelerates at 0.15 rad/s^2 and stops after 0.3 s,
        // inside the step, having travelled w^2/(2*0.15); then stuck.
        let expected = before + w2 * w2 / (2.0 * 0.15);
        assert!((get(PHI) - expected).abs() <= 1e-15, "refused derivatives left the torque held");
        assert_eq!((get(W), derivative(W)), (0.0, 0.0));
        l.fmi2FreeInstance(c);
    }
}

#[test]
fn models_declare_interpolation_and_output_derivatives_only_where_they_use_them() {
    let mut seen = Vec::new();
    for entry in fmu::registry::MODELS {
        let xml = (entry.model_description)();
        let id = entry.info.identifier;
        // A model interpolates the inputs its step reads the slope of
        // (`Model::INPUT_DERIVATIVES`) and gives the derivatives its step
        // computes (`Model::OUTPUT_DERIVATIVES`); the XML says so exactly.
        let (interpolated, derived) = ((entry.interpolated_inputs)(), (entry.output_derivatives)());
        assert_eq!(xml.contains("canInterpolateInputs=\"true\""), !interpolated.is_empty(), "{id}");
        assert_eq!(xml.contains("maxOutputDerivativeOrder=\"1\""), !derived.is_empty(), "{id}");
        // Every 1-DOF FMU (input tau) interpolates its torque.
        if (entry.variables)().first().is_some_and(|v| v.name == "tau") {
            assert_eq!(interpolated, ["tau"], "{id}");
        }
        seen.push((id, interpolated, derived));
    }
    // Today: the six 1-DOF FMUs, the two-inertia clutches and Hill's port
    // interpolate; Hill's inertia and ClutchStickSlip give derivatives (the
    // exact laws; the tests above check the values). A floor, not a list.
    assert!(seen.iter().filter(|s| !s.1.is_empty()).count() >= 9, "{seen:?}");
    assert_eq!(seen.iter().filter(|s| !s.2.is_empty()).count(), 2, "{seen:?}");
}

#[test]
fn laws_without_a_closed_form_apply_the_mean_of_the_torque_ramp_over_each_internal_step() {
    // ConventionalCoulombBaseline (explicit Euler, Hill Fig. 1), J = 1, F_c = 1, w0 = 1:
    // tau = 0 + 1*t over one 0.2 s step in two 0.1 s substeps with means
    // 0.05 and 0.15: w = 1 + 0.1*(0.05 - 1) + 0.1*(0.15 - 1) = 0.82.
    let fmu = RawFmu::load("ConventionalCoulombBaseline");
    let c = fmu.instantiate("coulomb-ramp");
    unsafe {
        let l = &fmu.lib;
        assert_eq!(l.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(l.fmi2SetReal(c, &9, 1, &0.1), OK); // internal_step
        assert_eq!(l.fmi2SetReal(c, &7, 1, &1.0), OK); // w_start (bodies start at rest by default)
        assert_eq!(l.fmi2EnterInitializationMode(c), OK);
        assert_eq!(l.fmi2ExitInitializationMode(c), OK);
        assert_eq!(l.fmi2SetReal(c, &TAU, 1, &0.0), OK);
        assert_eq!(l.fmi2SetRealInputDerivatives(c, &TAU, 1, &1, &1.0), OK);
        assert_eq!(l.fmi2DoStep(c, 0.0, 0.2, 1), OK);
        let mut w = 0.0;
        assert_eq!(l.fmi2GetReal(c, &W, 1, &mut w), OK);
        assert!((w - 0.82).abs() <= 1e-15, "{w}");
        // No output derivatives: the Euler rate has no derivative to report.
        let mut x = 0.0;
        assert_eq!(l.fmi2GetRealOutputDerivatives(c, &W, 1, &1, &mut x), ERROR);
        l.fmi2FreeInstance(c);
    }
}

#[test]
fn clutch_output_derivatives_follow_the_exact_solution() {
    // Defaults: J1 = J2 = 1, w1 = 10, w2 = 0, capacity 10 N.m, no torques:
    // slipping at -10/+10 rad/s^2 until the lock at t = 0.5 s, then 0.
    let fmu = RawFmu::load("ClutchStickSlip");
    let e = fmu::registry::get("ClutchStickSlip");
    let vars = (e.variables)();
    let vr = |name: &str| vars.iter().find(|v| v.name == name).unwrap().value_reference;
    let c = fmu.instantiate("clutch");
    unsafe {
        let l = &fmu.lib;
        assert_eq!(l.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
        assert_eq!(l.fmi2SetReal(c, &vr("internal_step"), 1, &0.3), OK);
        assert_eq!(l.fmi2EnterInitializationMode(c), OK);
        assert_eq!(l.fmi2ExitInitializationMode(c), OK);
        let derivatives_of = |c| {
            let vrs = [vr("phi1"), vr("w1"), vr("phi2"), vr("w2")];
            let mut out = [f64::NAN; 4];
            assert_eq!(l.fmi2GetRealOutputDerivatives(c, vrs.as_ptr(), 4, [1; 4].as_ptr(), out.as_mut_ptr()), OK);
            out
        };
        let derivatives = || derivatives_of(c);
        assert_eq!(derivatives(), [10.0, -10.0, 0.0, 10.0]);
        assert_eq!(l.fmi2DoStep(c, 0.0, 0.3, 1), OK);
        let d = derivatives();
        assert!((d[0] - 7.0).abs() < 1e-14 && (d[2] - 3.0).abs() < 1e-14 && d[1] == -10.0 && d[3] == 10.0, "{d:?}");
        assert_eq!(l.fmi2DoStep(c, 0.3, 0.3, 1), OK);
        assert_eq!(derivatives(), [5.0, 0.0, 5.0, 0.0], "locked at 5 rad/s, no torque");
        l.fmi2FreeInstance(c);

        // Torque ramp: locked at rest, capacity 5, tau1 = 20*t over one 1 s
        // step (four internal steps): T_s = 10*t breaks the lock at t = 0.5
        // (w = 5*t^2 = 1.25), then w1' = 20*t - 5, w2' = 5: w1 = 6.25, w2 = 3.75.
        let c = fmu.instantiate("clutch-ramp");
        assert_eq!(l.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
        for (name, x) in [("internal_step", 0.25), ("w1_start", 0.0), ("tau_capacity", 5.0)] {
            assert_eq!(l.fmi2SetReal(c, &vr(name), 1, &x), OK);
        }
        assert_eq!(l.fmi2EnterInitializationMode(c), OK);
        assert_eq!(l.fmi2ExitInitializationMode(c), OK);
        assert_eq!(l.fmi2SetRealInputDerivatives(c, &vr("tau1"), 1, &1, &20.0), OK);
        assert_eq!(l.fmi2DoStep(c, 0.0, 1.0, 1), OK);
        let mut w = [0.0; 2];
        assert_eq!(l.fmi2GetReal(c, [vr("w1"), vr("w2")].as_ptr(), 2, w.as_mut_ptr()), OK);
        assert!((w[0] - 6.25).abs() < 1e-13 && (w[1] - 3.75).abs() < 1e-13, "{w:?}");
        assert_eq!(derivatives_of(c)[1], 15.0, "(tau1(1) - 5)/J1");
        l.fmi2FreeInstance(c);
    }
}

/// ClutchStickSlip locked at rest, J1 = J2 = 1, tau1 = 4 (T_s = 2, both at
/// 2 rad/s^2), capacity 5 - 2*t by its input derivative over one 3 s step:
/// the lock breaks at 1.5 s (w = 3, phi = 2.25), the clutch slips with the
/// falling capacity (w1' = 2 + 2r, w2' = 2 - 2r, r = t - 1.5) until it is
/// empty at 2.5 s, then the bodies run free (w1' = 4, w2' = 0): at 3 s
/// w = (8, 4), phi = (6.25 + 1/3 + 3.5, 6.25 - 1/3 + 2).
const CAPACITY_RAMP_END: [f64; 4] = [8.0, 4.0, 6.25 + 1.0 / 3.0 + 3.5, 6.25 - 1.0 / 3.0 + 2.0];

#[test]
fn a_capacity_ramp_breaks_the_lock_and_empties_the_clutch_at_the_closed_form_instants() {
    let e = fmu::registry::get("ClutchStickSlip");
    let vars = (e.variables)();
    let vr = |name: &str| vars.iter().find(|v| v.name == name).unwrap().value_reference;
    let fmu = RawFmu::load("ClutchStickSlip");
    let l = &fmu.lib;
    // Internal steps of 0.3 s (1.5 s on a substep boundary, 2.5 s inside)
    // and 0.7 s (both inside substeps).
    for h in [0.3, 0.7] {
        let c = fmu.instantiate("capacity-ramp");
        unsafe {
            assert_eq!(l.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
            for (name, x) in [("internal_step", h), ("w1_start", 0.0), ("w2_start", 0.0)] {
                assert_eq!(l.fmi2SetReal(c, &vr(name), 1, &x), OK);
            }
            assert_eq!(l.fmi2EnterInitializationMode(c), OK);
            assert_eq!(l.fmi2ExitInitializationMode(c), OK);
            assert_eq!(l.fmi2SetReal(c, [vr("tau1"), vr("tau_capacity")].as_ptr(), 2, [4.0, 5.0].as_ptr()), OK);
            assert_eq!(l.fmi2SetRealInputDerivatives(c, &vr("tau_capacity"), 1, &1, &-2.0), OK);
            assert_eq!(l.fmi2DoStep(c, 0.0, 3.0, 1), OK);
            let vrs = [vr("w1"), vr("w2"), vr("phi1"), vr("phi2")];
            let mut got = [f64::NAN; 4];
            assert_eq!(l.fmi2GetReal(c, vrs.as_ptr(), 4, got.as_mut_ptr()), OK);
            for (x, e) in got.iter().zip(CAPACITY_RAMP_END) {
                assert!((x - e).abs() <= 1e-12, "h = {h}: {got:?} vs {CAPACITY_RAMP_END:?}");
            }
            // Open at the end: no torque transmitted, w1' = tau1/J1, w2' = 0.
            let mut d = [f64::NAN; 2];
            assert_eq!(l.fmi2GetRealOutputDerivatives(c, vrs.as_ptr(), 2, [1; 2].as_ptr(), d.as_mut_ptr()), OK);
            assert_eq!(d, [4.0, 0.0], "h = {h}");
            // The derivative applied to that step only: the next one holds
            // the 5 N.m set (slipping: w1' = 4 - 5, w2' = 5).
            assert_eq!(l.fmi2DoStep(c, 3.0, 0.5, 1), OK);
            assert_eq!(l.fmi2GetReal(c, vrs.as_ptr(), 2, got.as_mut_ptr()), OK);
            assert!((got[0] - 7.5).abs() <= 1e-12 && (got[1] - 6.5).abs() <= 1e-12, "h = {h}: {got:?}");
            l.fmi2FreeInstance(c);
        }
        // The same through FMPy's FMU2Slave.
        let path = fmu_path("ClutchStickSlip");
        let (ok, stdout, stderr) = fmpy(&["capacity_ramp", path.to_str().unwrap(), &h.to_string()]);
        assert!(ok, "{stderr}");
        let value = |key: &str| -> f64 {
            let line = stdout.lines().find(|l| l.starts_with(&format!("{key}="))).unwrap_or_else(|| panic!("{stdout}"));
            line[key.len() + 1..].parse().unwrap()
        };
        for (key, e) in ["w1", "w2", "phi1", "phi2"].iter().zip(CAPACITY_RAMP_END) {
            assert!((value(key) - e).abs() <= 1e-12, "FMPy h = {h}: {key} {} vs {e}", value(key));
        }
        assert_eq!((value("dw1"), value("dw2")), (4.0, 0.0));
    }
}

#[test]
fn fmpy_low_level_api_sets_input_and_gets_output_derivatives() {
    let path = fmu_path(HILL);
    let (ok, stdout, stderr) = fmpy(&["derivatives", path.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let value = |key: &str| -> f64 {
        let line =
            stdout.lines().find(|l| l.starts_with(&format!("{key}="))).unwrap_or_else(|| panic!("{key}: {stdout}"));
        line[key.len() + 1..].parse().unwrap()
    };
    // The ramp of the test above, through FMPy's FMU2Slave.
    let u: f64 = 0.6;
    assert!((value("w") - (0.1 * u + 0.5 * u * u) / 2.0).abs() <= 1e-15, "{stdout}");
    assert!((value("phi") - (0.1 * u * u / 2.0 + u * u * u / 6.0) / 2.0).abs() <= 1e-15, "{stdout}");
    assert_eq!(value("dphi"), value("w"));
    assert!((value("dw") - 0.35).abs() <= 1e-15, "{stdout}");
    assert_eq!(value("order2_refused"), 1.0, "{stdout}");
}

#[test]
fn coupled_clutches_reports_a_clutch_free_in_the_step_its_normal_force_goes_to_zero() {
    // Clutch 2 engaged until t = 0.1 s, released from then on (f <= 0).
    let run = Run::new("CoupledClutches", 0.2, 0.01).with("w1_start", 10.0);
    let t = run_fmi_with(&run, |t, _| {
        vec![
            ("f_normalized_1", 1.0),
            ("f_normalized_2", if t < 0.1 - 1e-9 { 1.0 } else { 0.0 }),
            ("f_normalized_3", 1.0),
        ]
    });
    let (time, mode) = (t.column("time"), t.column("mode_2"));
    for (i, (&ti, &m)) in time.iter().zip(&mode).enumerate() {
        // Row i is read after the step that ends at ti, whose input was set at ti - h.
        if i > 0 && ti > 0.1 + 1e-9 {
            assert_eq!(m, 2.0, "t = {ti}: free from the step whose input released it");
        } else if i > 0 {
            assert_ne!(m, 2.0, "t = {ti}");
        }
    }
    // Read right after setting the input, before any step: already free.
    let fmu = RawFmu::load("CoupledClutches");
    let c = fmu.initialized("latency");
    let vr_of = |name: &str| {
        let e = fmu::registry::get("CoupledClutches");
        (e.variables)().iter().find(|v| v.name == name).unwrap().value_reference
    };
    unsafe {
        let l = &fmu.lib;
        assert_eq!(l.fmi2SetReal(c, &vr_of("f_normalized_2"), 1, &1.0), OK);
        assert_eq!(l.fmi2DoStep(c, 0.0, 0.01, 1), OK);
        let mut m = 0;
        assert_eq!(l.fmi2GetInteger(c, &vr_of("mode_2"), 1, &mut m), OK);
        assert_eq!(m, 0, "engaged at equal speeds: locked");
        assert_eq!(l.fmi2SetReal(c, &vr_of("f_normalized_2"), 1, &0.0), OK);
        assert_eq!(l.fmi2GetInteger(c, &vr_of("mode_2"), 1, &mut m), OK);
        assert_eq!(m, 2, "free as soon as f <= 0 is set");
        l.fmi2FreeInstance(c);
    }
    // Declared: mode_k depends on f_normalized_k.
    let e = fmu::registry::get("CoupledClutches");
    let xml = (e.model_description)();
    for k in 1..=3 {
        // A variable's index in <ModelStructure> is its position, which is
        // its value reference (one numbering for both standards).
        let (mode, force) = (vr_of(&format!("mode_{k}")), vr_of(&format!("f_normalized_{k}")));
        assert!(xml.contains(&format!("<Unknown index=\"{mode}\" dependencies=\"{force}\"/>")), "mode_{k}");
    }
}

#[test]
fn the_first_order_and_trapezoidal_masters_converge_faster_than_the_hold() {
    // The study of docs/performance.md at two steps; errors of the stick and
    // slip durations against the closed form over 3.5 s (3 slips).
    let fmu = RawFmu::load(HILL);
    let error = |master, h| {
        let p = cosimulate(&fmu, &STUDY, master, 0, h, 3.5);
        assert!(p.slips.len() >= 3, "{master:?} h = {h}: {p:?}");
        p.stick_error(&STUDY).max(p.slip_error(&STUDY))
    };
    let (h1, h2) = (0.02, 0.01);
    let hold = (error(Master::Hold, h1), error(Master::Hold, h2));
    let first = (error(Master::FirstOrder, h1), error(Master::FirstOrder, h2));
    let trapezoid = (error(Master::Trapezoid, h1), error(Master::Trapezoid, h2));
    eprintln!("hold {hold:?} first-order {first:?} trapezoid {trapezoid:?}");
    // Hold: first order (halving h halves the error, within noise).
    assert!(hold.1 > 0.3 * hold.0 && hold.1 < 0.7 * hold.0, "{hold:?}");
    // Derivative and trapezoidal masters: second order.
    assert!(first.1 < 0.35 * first.0, "{first:?}");
    assert!(trapezoid.1 < 0.35 * trapezoid.0, "{trapezoid:?}");
    assert!(first.1 < 0.1 * hold.1 && trapezoid.1 < 0.1 * hold.1);
}
