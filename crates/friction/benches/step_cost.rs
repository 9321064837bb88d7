//! Core step cost of every friction law (ns per step), each next to a
//! minimal hand-written loop of the same algorithm on plain locals (the
//! floor), measured in the same run. `cargo xtask bench` runs it.
//!
//! Every body is driven by the same torque cycle, 1.5 N.m * sin, which
//! crosses breakaway both ways, so stick, slip, stops and reversals all occur.

use criterion::{criterion_group, criterion_main, Criterion};
use friction::*;
use std::hint::black_box;

const DT: f64 = 1e-3;
const N: usize = 1024;

fn torques() -> Vec<f64> {
    (0..N).map(|k| 1.5 * (k as f64 * 2.0 * std::f64::consts::PI / N as f64).sin()).collect()
}

/// Bench `step(tau)` over the torque cycle; returns nothing, the state lives in the closure.
fn bench(c: &mut Criterion, name: &str, mut step: impl FnMut(f64) -> f64) {
    let tau = torques();
    let mut k = 0;
    c.bench_function(name, |b| {
        b.iter(|| {
            k = (k + 1) & (N - 1);
            black_box(step(black_box(tau[k])))
        })
    });
}

fn laws(c: &mut Criterion) {
    let (j, fc, fs) = (1.0, 1.0, 1.2);

    let mut body = FrictionInertia::new(ConventionalCoulomb { coulomb_torque: fc }, j, 0.0, 0.0);
    bench(c, "coulomb/core", |t| {
        body.step(t, DT);
        body.rate
    });
    let (mut w, mut phi) = (0.0, 0.0);
    bench(c, "coulomb/floor", |t| {
        let w1 = w + DT * (t - fc * sign(w)) / j;
        phi += 0.5 * DT * (w + w1);
        w = w1;
        w
    });

    let mut body = FrictionInertia::new(HillFriction { static_torque: fs, coulomb_torque: fc }, j, 0.0, 0.0);
    bench(c, "hill/core", |t| {
        body.step(t, DT);
        body.rate
    });
    let (mut w, mut phi) = (0.0_f64, 0.0);
    bench(c, "hill/floor", |t| {
        let w1 = if w == 0.0 {
            if t.abs() <= fs {
                0.0
            } else {
                DT * (t - fc * sign(t)) / j
            }
        } else {
            let s = sign(w);
            let dec = fc * s - t;
            let x = j * w / (DT * dec);
            if dec * s > 0.0 && x <= 1.0 {
                if t.abs() <= fs {
                    0.0
                } else {
                    w + DT * (t + fc * s * (1.0 - 2.0 * x)) / j
                }
            } else {
                w + DT * (t - fc * s) / j
            }
        };
        phi += 0.5 * DT * (w + w1);
        w = w1;
        w
    });

    let stribeck = ClassicalFriction {
        shape: ClassicalShape::Exponential,
        viscous: 0.05,
        coulomb_torque: 0.5,
        static_torque: 0.95,
        stribeck_velocity: 0.019,
        exponent: 1.0,
        band: 1e-3,
    };
    let mut body = FrictionInertia::new(stribeck, j, 0.0, 0.0);
    bench(c, "stribeck_eq4/core", |t| {
        body.step(t, DT);
        body.rate
    });
    let (mut w, mut phi) = (0.0_f64, 0.0);
    bench(c, "stribeck_eq4/floor", |t| {
        let x = (w / 0.019_f64).abs();
        let f = 0.05 * w + (0.5 + 0.45 * (-x.powf(1.0)).exp()) * sign(w);
        let slope = if w == 0.0 { 0.05 } else { 0.05 - 0.45 * x.powf(0.0) * (-x.powf(1.0)).exp() / 0.019 };
        let w1 = w + DT * (t - f) / (j + DT * slope.max(0.0));
        phi += 0.5 * DT * (w + w1);
        w = w1;
        w
    });

    let mut ms = MajdSimaan {
        viscous: 0.05,
        coulomb_torque: 0.5,
        static_torque: 0.95,
        sharpness: 10.0,
        critical_velocity: 0.019,
        sigma_method: SigmaMethod::Exact,
        sigma: 0.0,
    };
    ms.prepare();
    let sigma = ms.sigma;
    let mut body = FrictionInertia::new(ms, j, 0.0, 0.0);
    bench(c, "majd_simaan/core", |t| {
        body.step(t, DT);
        body.rate
    });
    let (mut w, mut phi) = (0.0_f64, 0.0);
    bench(c, "majd_simaan/floor", |t| {
        let x = (w / 0.019_f64).abs();
        let f = 0.05 * w + (sigma * (-x).exp_m1() - (sigma + 0.5) * (-10.0 * x).exp_m1()) * sign(w);
        let slope = 0.05 + (-sigma * (-x).exp() + 10.0 * (sigma + 0.5) * (-10.0 * x).exp()) / 0.019;
        let w1 = w + DT * (t - f) / (j + DT * slope.max(0.0));
        phi += 0.5 * DT * (w + w1);
        w = w1;
        w
    });

    let mut body = FrictionInertia::new(Dahl { running_torque: 1.0, gamma: 50.0, torque: 0.0 }, j, 0.0, 0.0);
    bench(c, "dahl/core", |t| {
        body.step(t, DT);
        body.rate
    });
    let (mut w, mut phi, mut tf) = (0.0_f64, 0.0, 0.0_f64);
    bench(c, "dahl/floor", |t| {
        let w1 = w + DT * (t - tf) / j;
        let d = DT * w1;
        if d > 0.0 {
            let u = 1.0 - tf;
            let g = 50.0 * u * d;
            tf += u * g / (1.0 + g);
        } else if d < 0.0 {
            let v = 1.0 + tf;
            let g = -50.0 * v * d;
            tf -= v * g / (1.0 + g);
        }
        phi += 0.5 * DT * (w + w1);
        w = w1;
        w
    });

    let mut element = LoadDependentFriction {
        inertia: j,
        base_friction: 0.3,
        eta_opposing: 0.8,
        eta_aiding: 0.7,
        static_ratio: 1.2,
        viscous: 0.1,
        stop: 1e9,
        ..Default::default()
    };
    bench(c, "load_dependent/core", |t| {
        element.step(t, 0.5, DT);
        element.rate
    });
    // The exact step (LoadDependentFrictionInertia's): events inside the
    // step in closed form, so no floor of the same algorithm to compare with.
    let mut exact = LoadDependentFriction { rate: 0.0, angle: 0.0, ..element };
    bench(c, "load_dependent_exact/core", |t| {
        exact.step_exact(t, 0.5, DT);
        exact.rate
    });
    // Table 1 on plain locals (load 0.5 N.m held, stops far away).
    let (tfr0, eto, eta, fsd, cm, load, xjm) = (0.3, 0.8, 0.7, 1.2, 0.1, 0.5_f64, 1e9);
    let (mut w, mut phi) = (0.0_f64, 0.0_f64);
    bench(c, "load_dependent/floor", |tm| {
        let act = tm - load - cm * w;
        let (fdo, fda) = (tfr0 + (1.0 / eto - 1.0) * load.abs(), tfr0 + (1.0 - eta) * load.abs());
        let fr = if w != 0.0 {
            sign(w) * if w * load < 0.0 { fda } else { fdo }
        } else if load < 0.0 {
            act.clamp(-fsd * fdo, fsd * fda)
        } else {
            act.clamp(-fsd * fda, fsd * fdo)
        };
        let mut w1 = w + (act - fr) / j * DT;
        if w * w1 < 0.0 {
            w1 = 0.0;
        }
        phi = (phi + (w + w1) * DT / 2.0).clamp(-xjm, xjm);
        if phi == -xjm {
            w1 = w1.max(0.0);
        }
        if phi == xjm {
            w1 = w1.min(0.0);
        }
        w = w1;
        w
    });

    let mut clutch = TwoInertiaClutch::new(1.0, 1.0, 0.0, 0.0);
    bench(c, "clutch/core", |t| {
        clutch.step(t, -10.0 * clutch.rate2, 1.0, DT);
        clutch.rate1
    });
}

/// Plants: one step of each (its own default step), driven by a slow cycle.
fn plants(c: &mut Criterion) {
    let mut chain = ClutchChain::new(&[1.0; 4], &[10.0, 0.0, 0.0, 0.0]);
    bench(c, "coupled_clutches/core", |t| {
        // Drive and clutch forces swing so clutches lock, slide and free.
        let f = [10.0 * t.abs(), 10.0 * (t + 0.5).max(0.0), 10.0];
        let fs = [11.0 * t.abs(), 11.0 * (t + 0.5).max(0.0), 11.0];
        chain.step(&[10.0 * t, 0.0, 0.0, 0.0], &f, &fs, DT);
        chain.rate[0]
    });

    // Hill's claim: his algorithm costs no more per step than the conventional model.
    let mdeg = 1e-3_f64.to_radians();
    for (name, friction) in [("antenna/conventional", AxisFriction::Conventional), ("antenna/hill", AxisFriction::Hill)]
    {
        let design = AntennaServoDesign { friction, ..Default::default() };
        let mut servo = AntennaServo::new(0.0);
        bench(c, name, |t| {
            servo.step(&design, mdeg * t, 0.01);
            servo.antenna_rate
        });
    }

    // Borello's flap servo at its default 100 us step, reversible set, a
    // command swinging +-1 deg under a 25 kN.m load (stick-slip and motion).
    let mut flap = FlapActuatorServo::reversible();
    bench(c, "flap_actuator/core", |t| {
        flap.step((1.0_f64).to_radians() * t, 25_000.0, 26e6, 1e-4);
        flap.rate()
    });

    let mut gimbal = GimbalRateLoop::new(5.0, 280.0, 1e4, 0.27, 1.48e5, 0.0);
    bench(c, "cmg_gimbal/core", |t| {
        gimbal.step(5e-4 * t, 1e-4);
        gimbal.rate
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(2));
    targets = laws, plants
}
criterion_main!(benches);
