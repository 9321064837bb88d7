//! A co-simulation accuracy study: a stick-slip oscillator whose spring is
//! outside the FMU, closed by a master through `HillFrictionInertia`'s
//! torque input, with three masters (hold, first-order input derivative,
//! repeat-the-step trapezoidal with get/set FMU state). Used by the tests
//! and by the bench that writes docs/performance.md.
//!
//! The oscillator: a body `J` on static + Coulomb friction (`F_s`, `F_c`),
//! pulled through a spring `k` whose far end moves at `v` from the body's
//! rest position: `tau = k*(v*t - phi)`. From rest it sticks until the
//! spring reaches `F_s`, slips (a harmonic arc about the sliding
//! equilibrium), stops with the spring at `2*F_c - F_s`, sticks again.
//! With `omega = sqrt(k/J)` and `B = (F_s - F_c)*omega/k`, the closed form:
//! - first stick `F_s/(k*v)`; every later stick `2*(F_s - F_c)/(k*v)`;
//! - every slip `(2*pi - 2*atan(B/v))/omega` (see [`Oscillator::slip_duration`]).

use crate::raw::{RawFmu, OK};
use std::f64::consts::PI;

/// The stick-slip oscillator of the study.
#[derive(Clone, Copy, Debug)]
pub struct Oscillator {
    pub inertia: f64,
    pub stiffness: f64,
    pub drive_speed: f64,
    pub static_torque: f64,
    pub coulomb_torque: f64,
}

/// J = 1 kg.m2, k = 4*pi^2 N.m/rad (1 Hz while slipping), v = 0.05 rad/s,
/// F_s = 1.2 N.m, F_c = 1.0 N.m: slips of 0.819 s, sticks of 0.203 s.
pub const STUDY: Oscillator =
    Oscillator { inertia: 1.0, stiffness: 4.0 * PI * PI, drive_speed: 0.05, static_torque: 1.2, coulomb_torque: 1.0 };

impl Oscillator {
    fn omega(&self) -> f64 {
        (self.stiffness / self.inertia).sqrt()
    }

    /// Spring torque on the body.
    pub fn spring(&self, t: f64, phi: f64) -> f64 {
        self.stiffness * (self.drive_speed * t - phi)
    }

    pub fn first_stick_duration(&self) -> f64 {
        self.static_torque / (self.stiffness * self.drive_speed)
    }

    pub fn stick_duration(&self) -> f64 {
        2.0 * (self.static_torque - self.coulomb_torque) / (self.stiffness * self.drive_speed)
    }

    /// Slipping from rest with the spring at `F_s`: with `y = phi - (v*t - F_c/k)`,
    /// `J*y'' + k*y = 0`, `y(0) = -(F_s - F_c)/k`, `y'(0) = -v`, so
    /// `w = v*(1 - cos(theta)) + B*sin(theta)`, `theta = omega*s`, which is zero
    /// again at `tan(theta/2) = -B/v`.
    pub fn slip_duration(&self) -> f64 {
        let b = (self.static_torque - self.coulomb_torque) * self.omega() / self.stiffness;
        (2.0 * PI - 2.0 * (b / self.drive_speed).atan()) / self.omega()
    }
}

/// How the master feeds the spring torque to the FMU over a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Master {
    /// The torque at the step's start, held (zero-order hold).
    Hold,
    /// The torque and its derivative `k*(v - w)` at the step's start
    /// (fmi2SetRealInputDerivatives, order 1): a linear extrapolation.
    FirstOrder,
    /// Step with the held torque, read the predicted end torque, restore the
    /// FMU state, repeat the step with the torque linear between the two
    /// ends (its slope as the input derivative).
    Trapezoid,
}

impl Master {
    pub const ALL: [Master; 3] = [Master::Hold, Master::FirstOrder, Master::Trapezoid];

    pub fn name(self) -> &'static str {
        match self {
            Master::Hold => "hold",
            Master::FirstOrder => "first-order derivative",
            Master::Trapezoid => "repeat-the-step trapezoidal",
        }
    }
}

/// Durations of the phases a run went through, in order, and the largest
/// error of each kind against the closed form.
#[derive(Clone, Debug)]
pub struct Phases {
    pub sticks: Vec<f64>,
    pub slips: Vec<f64>,
}

impl Phases {
    /// Largest |error| of the stick durations (the first against
    /// `F_s/(k*v)`, the others against `2*(F_s - F_c)/(k*v)`).
    pub fn stick_error(&self, o: &Oscillator) -> f64 {
        self.sticks
            .iter()
            .enumerate()
            .map(|(i, d)| (d - if i == 0 { o.first_stick_duration() } else { o.stick_duration() }).abs())
            .fold(0.0, f64::max)
    }

    pub fn slip_error(&self, o: &Oscillator) -> f64 {
        self.slips.iter().map(|d| (d - o.slip_duration()).abs()).fold(0.0, f64::max)
    }
}

/// Smallest root in `(0, limit]` of `c + b*s + a*s^2`.
fn first_root(a: f64, b: f64, c: f64, limit: f64) -> Option<f64> {
    let roots = if a == 0.0 {
        [-c / b, f64::NAN]
    } else {
        let d = b * b - 4.0 * a * c;
        if d < 0.0 {
            return None;
        }
        [(-b - d.sqrt()) / (2.0 * a), (-b + d.sqrt()) / (2.0 * a)]
    };
    roots.into_iter().filter(|&s| s > 0.0 && s <= limit * (1.0 + 1e-9)).reduce(f64::min)
}

// HillFrictionInertia's value references (`tests/tests/exact_integration.rs`
// checks the same numbers against the declarations by name).
const TAU: u32 = 1;
const PHI: u32 = 2;
const W: u32 = 3;

/// Co-simulate the oscillator from rest for `stop` seconds at communication
/// step `h` (one internal step per communication step) with `integration`
/// 0 (exact) or 1 (Hill's published algorithm).
///
/// Event instants inside a step are recovered from the FMU's state at the
/// step's start and the input the master applied over it, with the
/// algorithm's own event rule: a stop at the first root of the rate
/// (exact: the rate under the torque ramp; published: Hill's Eq. 3 with the
/// step's mean torque); a breakaway where the ramp passes `F_s` (exact) or
/// at the step's start (published: Eq. 1 applies over the whole step).
pub fn cosimulate(fmu: &RawFmu, o: &Oscillator, master: Master, integration: i32, h: f64, stop: f64) -> Phases {
    let lib = &fmu.lib;
    let c = fmu.instantiate("oscillator");
    let vr = |name: &str| vr_of("HillFrictionInertia", name);
    let (j, fc, fs, w0, step, int) =
        (vr("J"), vr("tau_coulomb"), vr("tau_static"), vr("w_start"), vr("internal_step"), vr("integration"));
    let mut phases = Phases { sticks: Vec::new(), slips: Vec::new() };
    // SAFETY: calls into the FMU binary in the FMI call sequence, on an
    // instance it returned, with arrays of the lengths passed.
    unsafe {
        assert_eq!(lib.fmi2SetupExperiment(c, 0, 0.0, 0.0, 0, 0.0), OK);
        let reals = [(j, o.inertia), (fc, o.coulomb_torque), (fs, o.static_torque), (w0, 0.0), (step, h)];
        for (v, x) in reals {
            assert_eq!(lib.fmi2SetReal(c, &v, 1, &x), OK);
        }
        assert_eq!(lib.fmi2SetInteger(c, &int, 1, &integration), OK);
        assert_eq!(lib.fmi2EnterInitializationMode(c), OK);
        assert_eq!(lib.fmi2ExitInitializationMode(c), OK);
        let read = |vr: u32| {
            let mut x = 0.0;
            assert_eq!(lib.fmi2GetReal(c, &vr, 1, &mut x), OK);
            x
        };
        let mut state = std::ptr::null_mut();
        let n = (stop / h).round() as usize;
        let (mut stick_start, mut slip_start) = (Some(0.0), None::<f64>);
        for k in 0..n {
            let t = k as f64 * h;
            let (phi, w) = (read(PHI), read(W));
            let u = o.spring(t, phi);
            let slope = match master {
                Master::Hold => 0.0,
                Master::FirstOrder => o.stiffness * (o.drive_speed - w),
                Master::Trapezoid => {
                    assert_eq!(lib.fmi2GetFMUstate(c, &mut state), OK);
                    assert_eq!(lib.fmi2SetReal(c, &TAU, 1, &u), OK);
                    assert_eq!(lib.fmi2DoStep(c, t, h, 0), OK);
                    let predicted = o.spring(t + h, read(PHI));
                    assert_eq!(lib.fmi2SetFMUstate(c, state), OK);
                    (predicted - u) / h
                }
            };
            assert_eq!(lib.fmi2SetReal(c, &TAU, 1, &u), OK);
            if slope != 0.0 {
                assert_eq!(lib.fmi2SetRealInputDerivatives(c, &TAU, 1, &1, &slope), OK);
            }
            assert_eq!(lib.fmi2DoStep(c, t, h, 1), OK);
            let w_end = read(W);
            // Events inside this step (at most one stop or one breakaway at these steps).
            if w == 0.0 && w_end != 0.0 {
                let at = if integration == 0 && u.abs() <= o.static_torque && slope != 0.0 {
                    (o.static_torque * slope.signum() - u) / slope
                } else {
                    0.0
                };
                phases.sticks.push(t + at - stick_start.take().expect("breakaway while stuck"));
                slip_start = Some(t + at);
            } else if w != 0.0 && w_end == 0.0 {
                let d = w.signum();
                let (a, b) = if integration == 0 {
                    (0.5 * slope / o.inertia, (u - o.coulomb_torque * d) / o.inertia)
                } else {
                    (0.0, (u + 0.5 * slope * h - o.coulomb_torque * d) / o.inertia)
                };
                let at = first_root(a, b, w, h).unwrap_or(h);
                phases.slips.push(t + at - slip_start.take().expect("stop while slipping"));
                stick_start = Some(t + at);
            }
        }
        if !state.is_null() {
            assert_eq!(lib.fmi2FreeFMUstate(c, &mut state), OK);
        }
        lib.fmi2FreeInstance(c);
    }
    phases
}

/// Value reference of a variable of a built model, from its declarations.
fn vr_of(model: &str, name: &str) -> u32 {
    let entry = fmu::registry::get(model);
    (entry.variables)()
        .iter()
        .find(|v| v.name == name)
        .unwrap_or_else(|| panic!("{model} has no {name}"))
        .value_reference
}
