//! Accuracy per step and scaling, printed as Markdown (and `csv,` lines for
//! the plot); `cargo xtask bench` puts them into docs/performance.md.
//!
//! Scale: the 70-m antenna's friction-to-inertia ratio, 1.77 mrad/s^2 (Hill,
//! Section I), with static/Coulomb 425/400 psi; Hill's accuracy target is a
//! rate error below 0.1 mdeg/s = 1.745 urad/s, which he says takes about a
//! 1 ms step with the conventional model.

use friction::*;
use std::time::Instant;

const J: f64 = 1.0;
const FC: f64 = 1.77e-3;
const FS: f64 = FC * 425.0 / 400.0;
const TARGET: f64 = 0.1e-3 * std::f64::consts::PI / 180.0;
const STEPS: [f64; 9] = [1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 0.5];

/// Makes a fresh stepper of one law: `(tau, w, dt)` -> the advance.
type MakeStep = Box<dyn Fn() -> Box<dyn FnMut(f64, f64, f64) -> Advance>>;
/// One law's stepper of the antenna servo.
type AntennaStep = Box<dyn FnMut(&mut AntennaServo, f64, f64)>;
/// Makes a fresh [`AntennaStep`].
type MakeAntennaStep = Box<dyn Fn() -> AntennaStep>;

fn laws() -> Vec<(&'static str, MakeStep)> {
    fn boxed<L: RigidBodyFriction + Copy + 'static>(law: L) -> MakeStep {
        Box::new(move || {
            let mut l = law;
            Box::new(move |tau, w, dt| l.advance(tau, w, J, dt))
        })
    }
    let mut ms = MajdSimaan {
        viscous: 0.0,
        coulomb_torque: FC,
        static_torque: FS,
        sharpness: 10.0,
        critical_velocity: 0.019,
        sigma_method: SigmaMethod::Exact,
        sigma: 0.0,
    };
    ms.prepare();
    vec![
        ("conventional Coulomb", boxed(ConventionalCoulomb { coulomb_torque: FC })),
        ("Hill", boxed(HillFriction { static_torque: FS, coulomb_torque: FC })),
        (
            "Stribeck Eq. 2 (epsilon = 1 mrad/s)",
            boxed(ClassicalFriction {
                shape: ClassicalShape::StaticBand,
                viscous: 0.0,
                coulomb_torque: FC,
                static_torque: FS,
                stribeck_velocity: 0.019,
                exponent: 1.0,
                band: 1e-3,
            }),
        ),
        ("Majd-Simaan (n = 10, w_c = 0.019)", boxed(ms)),
    ]
}

/// Mean |rate| over 20 s under a constant torque of 0.9 F_c from rest: the
/// body must stay at rest, so this is all error.
fn stuck_error(make: &dyn Fn() -> Box<dyn FnMut(f64, f64, f64) -> Advance>, dt: f64) -> f64 {
    let mut step = make();
    let n = (20.0 / dt).round() as usize;
    let (mut w, mut sum) = (0.0, 0.0);
    for _ in 0..n {
        w = step(0.9 * FC, w, dt).rate;
        sum += w.abs();
    }
    sum / n as f64
}

/// Coasting from 10 mrad/s with no torque: error of the stop time against
/// v0*J/F_c (first time the rate is 0 or changes sign).
fn coast_error(make: &dyn Fn() -> Box<dyn FnMut(f64, f64, f64) -> Advance>, dt: f64) -> f64 {
    let mut step = make();
    let (v0, mut w, mut t) = (0.01, 0.01_f64, 0.0);
    let t_stop = v0 * J / FC;
    while t < 3.0 * t_stop {
        w = step(0.0, w, dt).rate;
        t += dt;
        if w <= 0.0 || w < 1e-9 * v0 {
            return (t - t_stop).abs();
        }
    }
    f64::INFINITY
}

/// The antenna servo's axis laws, in psi (F_c = 400, F_s = 425), with
/// Stribeck's band and Majd-Simaan's critical velocity scaled to the axis
/// rates of Hill's run (a few mdeg/s).
fn antenna_laws() -> Vec<(&'static str, MakeAntennaStep)> {
    fn boxed<L: RigidBodyFriction + Copy + 'static>(law: L) -> MakeAntennaStep {
        Box::new(move || {
            let mut l = law;
            let design = AntennaServoDesign::default();
            Box::new(move |servo, command, dt| servo.step_with(&design, &mut l, command, dt))
        })
    }
    let mdeg = 1e-3_f64.to_radians();
    let mut ms = MajdSimaan {
        viscous: 0.0,
        coulomb_torque: 400.0,
        static_torque: 425.0,
        sharpness: 10.0,
        critical_velocity: 0.5 * mdeg,
        sigma_method: SigmaMethod::Exact,
        sigma: 0.0,
    };
    ms.prepare();
    vec![
        ("conventional Coulomb", boxed(ConventionalCoulomb { coulomb_torque: 400.0 })),
        ("Hill", boxed(HillFriction { static_torque: 425.0, coulomb_torque: 400.0 })),
        (
            "Stribeck Eq. 2 (epsilon = 0.01 mdeg/s)",
            boxed(ClassicalFriction {
                shape: ClassicalShape::StaticBand,
                viscous: 0.0,
                coulomb_torque: 400.0,
                static_torque: 425.0,
                stribeck_velocity: 0.5 * mdeg,
                exponent: 1.0,
                band: 0.01 * mdeg,
            }),
        ),
        ("Majd-Simaan (n = 10, w_c = 0.5 mdeg/s)", boxed(ms)),
    ]
}

/// Hill's Section IV run (1 mdeg step, 5 s) with `law` at internal step
/// `dt`: the axis rate (mdeg/s) every 10 ms.
fn antenna_rates(make: &dyn Fn() -> AntennaStep, dt: f64) -> Vec<f64> {
    let mut step = make();
    let mut servo = AntennaServo::new(0.0);
    let per_sample = (0.01 / dt).round() as usize;
    let mut rates = Vec::new();
    for _ in 0..500 {
        for _ in 0..per_sample {
            step(&mut servo, 1e-3_f64.to_radians(), dt);
        }
        rates.push(servo.antenna_rate.to_degrees() * 1e3);
    }
    rates
}

fn rms_difference(a: &[f64], b: &[f64]) -> f64 {
    (a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>() / a.len() as f64).sqrt()
}

/// One table of antenna errors per step against `reference(law)`.
fn antenna_table(title: &str, reference: &dyn Fn(usize) -> Vec<f64>) {
    const ANTENNA_STEPS: [f64; 6] = [1e-2, 5e-3, 2e-3, 1e-3, 5e-4, 2e-4];
    println!("{title}\n");
    let header: Vec<String> = ANTENNA_STEPS.iter().map(|dt| format!("{} ms", dt * 1e3)).collect();
    println!("| law | {} | largest step meeting 0.1 mdeg/s | speed-up vs conventional |", header.join(" | "));
    println!("|---|{}|---|---|", vec!["---"; ANTENNA_STEPS.len()].join("|"));
    let mut conventional = None;
    for (index, (name, make)) in antenna_laws().into_iter().enumerate() {
        let reference = reference(index);
        let errors: Vec<f64> =
            ANTENNA_STEPS.iter().map(|&dt| rms_difference(&antenna_rates(make.as_ref(), dt), &reference)).collect();
        // Largest tested step from which every smaller one meets the target.
        let largest = ANTENNA_STEPS.iter().zip(&errors).rev().take_while(|(_, &e)| e <= 0.1).last().map(|(&dt, _)| dt);
        if index == 0 {
            conventional = largest;
        }
        let speedup = match (largest, conventional) {
            (Some(d), Some(c)) => format!("{:.0}x", d / c),
            _ => "-".into(),
        };
        let step = largest.map(|d| format!("{} ms", d * 1e3)).unwrap_or_else(|| "none tested".into());
        println!(
            "| {name} | {} | {step} | {speedup} |",
            errors.iter().map(|e| format!("{e:.3}")).collect::<Vec<_>>().join(" | ")
        );
    }
}

fn antenna_study() {
    const REFERENCE: f64 = 2e-5;
    println!("\n### Antenna servo (Hill Section IV: 1 mdeg step, 5 s)\n");
    println!(
        "RMS error of the axis rate (mdeg/s, every 10 ms over 5 s), the whole loop integrated at the step shown \
         (10 ms is the largest the loop's explicit integration allows with the 7 Hz gear mode). Hill's target: \
         0.1 mdeg/s.\n"
    );
    let laws = antenna_laws();
    let own: Vec<Vec<f64>> = laws.iter().map(|(_, make)| antenna_rates(make.as_ref(), REFERENCE)).collect();
    antenna_table(
        &format!("Against the same law at a {REFERENCE} s step (convergence of each model to itself):"),
        &|i| own[i].clone(),
    );
    println!();
    antenna_table(
        &format!(
            "Against Hill's algorithm at a {REFERENCE} s step (true stiction at 425 psi; the conventional model has no \
             static level and the continuous models creep below it, so their errors level off at their model error):"
        ),
        &|_| own[1].clone(),
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return; // cargo test asks bench targets to list their tests
    }
    if std::env::args().any(|a| a == "antenna") {
        antenna_study();
        return;
    }
    println!("### Accuracy per step\n");
    println!("Rate error while it must stick (mean |w| under 0.9 F_c, rad/s), and stop-time error when coasting to rest (s), per step.\n");
    let header: Vec<String> = STEPS.iter().map(|dt| format!("{dt} s")).collect();
    println!("| law | error | {} |", header.join(" | "));
    println!("|---|---|{}|", vec!["---"; STEPS.len()].join("|"));
    let mut needed = Vec::new();
    for (name, make) in laws() {
        let stuck: Vec<f64> = STEPS.iter().map(|&dt| stuck_error(make.as_ref(), dt)).collect();
        let coast: Vec<f64> = STEPS.iter().map(|&dt| coast_error(make.as_ref(), dt)).collect();
        println!(
            "| {name} | stuck rate | {} |",
            stuck.iter().map(|e| format!("{e:.2e}")).collect::<Vec<_>>().join(" | ")
        );
        println!("| | stop time | {} |", coast.iter().map(|e| format!("{e:.2e}")).collect::<Vec<_>>().join(" | "));
        for (dt, e) in STEPS.iter().zip(&stuck) {
            println!("csv,{name},{dt},{e}");
        }
        // Largest step meeting Hill's target, by bisection in log(dt) between tested steps.
        let ok = |dt: f64| stuck_error(make.as_ref(), dt) <= TARGET;
        let largest = if ok(STEPS[STEPS.len() - 1]) {
            Some(STEPS[STEPS.len() - 1])
        } else if !ok(1e-5) {
            None
        } else {
            let (mut lo, mut hi) = (1e-5_f64.ln(), STEPS[STEPS.len() - 1].ln());
            for _ in 0..30 {
                let mid = 0.5 * (lo + hi);
                if ok(mid.exp()) {
                    lo = mid
                } else {
                    hi = mid
                }
            }
            Some(lo.exp())
        };
        needed.push((name, largest));
    }
    println!("\n### Step needed for Hill's target (stuck-rate error <= 0.1 mdeg/s = {TARGET:.3e} rad/s)\n");
    println!("| law | largest step meeting it | speed-up vs conventional |\n|---|---|---|");
    let conventional = needed[0].1;
    for (name, dt) in &needed {
        let (step, speedup) = match (dt, conventional) {
            (Some(d), Some(c)) => (format!("{d:.3e} s"), format!("{:.0}x", d / c)),
            (Some(d), None) => (format!("{d:.3e} s"), "-".into()),
            (None, _) => ("not reached at any step >= 1e-5 s (the model itself creeps)".into(), "-".into()),
        };
        let step = if dt == &Some(STEPS[STEPS.len() - 1]) { format!("every tested step, up to {step}") } else { step };
        println!("| {name} | {step} | {speedup} |");
    }

    antenna_study();

    println!("\n### Scaling (Hill law, core, one thread unless stated)\n");
    let run = |steps: usize, fs: f64| {
        let mut body = FrictionInertia::new(HillFriction { static_torque: fs, coulomb_torque: 1.0 }, 1.0, 0.0, 0.0);
        for k in 0..steps {
            body.step(1.5 * (k as f64 * 0.006).sin(), 1e-3);
        }
        body.angle
    };
    let time = |f: &dyn Fn() -> f64| {
        let start = Instant::now();
        std::hint::black_box(f());
        start.elapsed().as_secs_f64()
    };
    let t5 = time(&|| run(100_000, 1.2));
    let t6 = time(&|| run(1_000_000, 1.2));
    println!("| run | time | per step |\n|---|---|---|");
    println!("| 1e5 steps | {:.3} ms | {:.2} ns |", t5 * 1e3, t5 / 1e5 * 1e9);
    println!("| 1e6 steps | {:.3} ms | {:.2} ns |", t6 * 1e3, t6 / 1e6 * 1e9);
    let sweep = |threads: usize| {
        let sets: Vec<f64> = (0..1000).map(|i| 1.0 + i as f64 * 1e-3).collect();
        std::thread::scope(|s| {
            let chunks: Vec<_> = sets
                .chunks(sets.len().div_ceil(threads))
                .map(|c| s.spawn(move || c.iter().map(|&fs| run(10_000, fs)).sum::<f64>()))
                .collect();
            chunks.into_iter().map(|h| h.join().unwrap()).sum::<f64>()
        })
    };
    let s1 = time(&|| sweep(1));
    let s2 = time(&|| sweep(2));
    println!("| sweep, 1000 sets x 1e4 steps, 1 thread | {:.1} ms | {:.2} ns |", s1 * 1e3, s1 / 1e7 * 1e9);
    println!("| sweep, 1000 sets x 1e4 steps, 2 threads | {:.1} ms | {:.2} ns |", s2 * 1e3, s2 / 1e7 * 1e9);
    println!(
        "\nRatios in this run: 1e6/1e5 steps = {:.2} (linear: 10); sweep 1 thread / 2 threads = {:.2} (2 cores: 2).",
        t6 / t5,
        s1 / s2
    );
}
