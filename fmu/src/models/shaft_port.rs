//! The shaft port of a 1-DOF friction law without a closed form under a
//! shaft (Stribeck's maps, Majd-Simaan, Dahl): motion in, torque out. The
//! FMU holds the shaft (spring and damper) and the load with its law; the
//! drive end's angle and rate come in, the shaft's torque on the drive goes
//! out, its mean over the step. Hill's law has the exact port
//! `HillFrictionShaftLoad` (Coulomb's too: equal levels).
//!
//! Co-Simulation: the drive end moves as `phi_drive + w_drive*(t - t0)`
//! over the step, and the load takes equal internal substeps no longer than
//! `internal_step` through `friction::Shaft::step_body` (the law's own
//! integration, the shaft torque at the load's predicted mid-substep
//! angle). Model Exchange: the law's inertia model with the shaft torque
//! `k*(phi_drive - phi) + d*(w_drive - w)` as its applied torque.
//!
//! A model file adds a port through the `shaft:` arm of `law_models!`:
//! the law's parameters are declared once for its inertia, element and port.

use super::one_inertia::{HasLaw, LawHooks, LawInertia};
use crate::description::Experiment;
use crate::equations::{eq, Equation};
use crate::model::{Hybrid, Model, State};
use friction::{DriveEnd, Shaft};
use serde::{Deserialize, Serialize};

/// A substepped port's first equations: the shaft's torque, kinematics and
/// Newton's law (then come the law's own, see `port_equations!`).
pub const PORT_HEAD: [Equation; 3] = [
    eq(
        "tau_on_load = k_shaft*(phi_drive - phi) + d_shaft*(w_drive - w)",
        "",
        "torque of the shaft (spring \
        and damper) on the load; over a co-simulation step the drive end moves as phi_drive + w_drive*(t - t0)",
    ),
    eq("der(phi) = w", "", "kinematics"),
    eq(
        "J*der(w) = tau_on_load + tau_friction",
        "",
        "Newton's law for the load; Co-Simulation: substeps no \
        longer than internal_step, each the law's own integration under the shaft torque at the load's \
        predicted mid-substep angle (friction::Shaft::step_body), internal_step*max(sqrt(k_shaft/J), \
        d_shaft/J) <= 0.5",
    ),
];

/// A substepped port's last equation: the shaft's reaction on the drive.
pub const PORT_TAIL: Equation = eq(
    "tau_shaft = -tau_on_load",
    "",
    "reaction of the shaft on the drive; Co-Simulation reports it \
    and tau_friction as means over the last step, so the drive receives the impulse the load received",
);

/// A substepped port's equations around the law's own (in the port's
/// names): [`PORT_HEAD`], the law's, [`PORT_TAIL`], as one `&[Equation]`.
#[macro_export]
macro_rules! port_equations {
    ($($law:expr),* $(,)?) => {{
        use $crate::models::shaft_port::{PORT_HEAD, PORT_TAIL};
        &[PORT_HEAD[0], PORT_HEAD[1], PORT_HEAD[2], $($law,)* PORT_TAIL]
    }};
}

/// The shaft's rule for a port's internal step `h` with a load `J`:
/// `h*max(sqrt(k_shaft/J), d_shaft/J) <= friction::SUBSTEP_LIMIT`.
pub fn check_substep(shaft: &Shaft, inertia: f64, h: f64) -> Result<(), String> {
    let ratio = shaft.substep_ratio(inertia, h);
    if ratio > friction::SUBSTEP_LIMIT {
        return Err(format!(
            "internal_step = {h} s rejected: with k_shaft = {} N.m/rad, d_shaft = {} N.m.s/rad and J = {inertia} kg.m2, \
             h*max(sqrt(k_shaft/J), d_shaft/J) = {ratio} must be <= {} (internal_step <= {} s)",
            shaft.stiffness,
            shaft.damping,
            friction::SUBSTEP_LIMIT,
            h * friction::SUBSTEP_LIMIT / ratio
        ));
    }
    Ok(())
}

/// The load `LawInertia<L>` at the far end of a shaft.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct LawShaftLoad<L> {
    /// The drive end at the step's start (inputs `phi_drive`, `w_drive`).
    pub drive: DriveEnd,
    pub shaft: Shaft,
    /// The load: `J`, start values, internal step and law; its
    /// `applied_torque` is the shaft's torque on it (Model Exchange).
    pub load: LawInertia<L>,
    /// Torque of the shaft on the drive: the mean over the last step
    /// (Co-Simulation), the value now (Model Exchange).
    pub drive_torque: f64,
}

impl<L> HasLaw<L> for LawShaftLoad<L> {
    fn law(&self) -> &L {
        &self.load.body.law
    }
    fn law_mut(&mut self) -> &mut L {
        &mut self.load.body.law
    }
}

/// The ports' default experiment: the drive end winds the shaft at
/// 0.5 rad/s from 0 (`<Model>_in.csv`), 4 s in 10 ms steps: the classic
/// stick-slip experiment. Without the file the drive end stays at 0 and the
/// load at rest.
pub const PORT_EXPERIMENT: Experiment = Experiment::new(0.0, 4.0, 0.01);

/// `phi_drive = 0.5*t`, `w_drive = 0.5` (see [`PORT_EXPERIMENT`]).
pub const PORT_DEFAULT_INPUTS: &[(&str, crate::scenario::Signal)] = &[
    ("phi_drive", crate::scenario::Signal::Points(&[(0.0, 0.0), (4.0, 2.0)])),
    ("w_drive", crate::scenario::Signal::Constant(0.5)),
];

impl<L: LawHooks> LawShaftLoad<L>
where
    LawInertia<L>: Model,
{
    /// The drive end now, at rest within no step (Model Exchange).
    fn shaft_torque_now(&self) -> f64 {
        self.shaft.torque(&self.drive, 0.0, self.load.body.angle, self.load.body.rate)
    }

    /// The law's rules.
    pub fn check_port(&self) -> Result<(), String> {
        self.load.body.law.check()
    }

    /// The rules the internal step must meet (Co-Simulation): the shaft's
    /// (see `friction::SUBSTEP_LIMIT`) and the law's own.
    pub fn check_port_step(&self) -> Result<(), String> {
        let (j, h) = (self.load.body.inertia, self.load.internal_step);
        check_substep(&self.shaft, j, h)?;
        self.load.body.law.check_step(j, h)
    }

    pub fn initialize_port(&mut self) {
        let (phi, w) = (self.load.angle_start, self.load.rate_start);
        self.load.applied_torque = self.shaft.torque(&self.drive, 0.0, phi, w);
        self.load.applied_slope = 0.0;
        self.load.initialize_body();
        self.drive_torque = 0.0 - self.load.applied_torque;
    }

    /// One communication step: the drive end ramps from its inputs, the
    /// load takes `n` equal substeps (no longer than `internal_step`).
    #[inline]
    pub fn step_port(&mut self, dt: f64, n: usize, on_transition: &mut dyn FnMut(crate::model::Transition)) {
        let before = self.load.contact;
        let (impulses, _) = self.shaft.step_body(&self.drive, dt, n, &mut self.load.body, None);
        self.load.contact = self.load.body.motion();
        self.drive_torque = 0.0 - impulses.shaft_impulse / dt;
        self.load.body.friction_torque = impulses.friction_impulse / dt;
        if let Some(t) = crate::model::Transition::of_motion(before, self.load.contact) {
            on_transition(t);
        }
    }

    /// [`Self::step_port`] that stops right after the load's first change
    /// of motion (see `friction::Shaft::step_body`), the drive end
    /// where the step's inputs moved it; see `Model::step_in_to_event`.
    pub fn step_port_to_event(
        &mut self,
        dt: f64,
        n: usize,
        earliest: f64,
        on_transition: &mut dyn FnMut(crate::model::Transition),
    ) -> Option<f64> {
        let before = self.load.contact;
        let (impulses, taken) = self.shaft.step_body(&self.drive, dt, n, &mut self.load.body, Some(earliest));
        self.load.contact = self.load.body.motion();
        self.drive_torque = 0.0 - impulses.shaft_impulse / taken;
        self.load.body.friction_torque = impulses.friction_impulse / taken;
        let stopped = taken < dt;
        if stopped {
            self.drive = self.drive.moved_by(taken);
        }
        let transition = crate::model::Transition::of_motion(before, self.load.contact);
        crate::model::report_stop(transition, (None, taken), dt, earliest, on_transition)
    }

    /// The law's inertia as a hybrid system (every law with a port has one).
    const INERTIA: Hybrid<LawInertia<L>> = match <LawInertia<L> as Model>::HYBRID {
        Some(h) => h,
        None => panic!("a shaft port needs the law's Model Exchange form"),
    };

    /// A state the law adds beyond phi and w (Dahl's friction torque).
    const LAW_STATE: Option<&'static State<LawInertia<L>>> = match Self::INERTIA.states {
        [_, _, third, ..] => Some(third),
        _ => None,
    };

    const ANGLE: State<Self> =
        State::plain("phi", |m, x| m.load.body.angle = x, |m| (Self::INERTIA.states[0].derivative)(&m.load), 1.0);
    const RATE: State<Self> =
        State::plain("w", |m, x| m.load.body.rate = x, |m| (Self::INERTIA.states[1].derivative)(&m.load), 1.0);
    const THIRD: State<Self> = match Self::LAW_STATE {
        Some(s) => State {
            variable: s.variable,
            set: |m, x| (Self::LAW_STATE.unwrap().set)(&mut m.load, x),
            derivative: |m| (Self::LAW_STATE.unwrap().derivative)(&m.load),
            nominal: s.nominal,
            // The law's own setter, on the load.
            plain: s.plain,
        },
        None => Self::ANGLE,
    };

    /// Model Exchange: the law's inertia under the shaft's torque now.
    pub const HYBRID_PORT: Hybrid<Self> = Hybrid {
        states: if Self::LAW_STATE.is_some() {
            &[Self::ANGLE, Self::RATE, Self::THIRD]
        } else {
            &[Self::ANGLE, Self::RATE]
        },
        indicators: Self::INERTIA.indicators,
        evaluate: |m| {
            m.load.applied_torque = m.shaft_torque_now();
            (Self::INERTIA.evaluate)(&mut m.load);
            m.drive_torque = 0.0 - m.load.applied_torque;
        },
        event_indicators: |m, z| (Self::INERTIA.event_indicators)(&m.load, z),
        event: |m, on_transition| {
            m.load.applied_torque = m.shaft_torque_now();
            (Self::INERTIA.event)(&mut m.load, on_transition)
        },
    };
}

/// `impl Model for LawShaftLoad<$law>`: the shaft port (vr 0-12) plus the
/// law's parameters (vr 13 on). Use through `law_models!`.
#[macro_export]
macro_rules! shaft_model {
    ($law:ty, $info:expr, default_step: $step:expr, [$($extra:tt)*]) => {
        impl $crate::model::Model for $crate::models::shaft_port::LawShaftLoad<$law> {
            const INFO: $crate::description::ModelInfo = $info;
            const VARIABLES: &'static [$crate::description::Variable<Self>] = $crate::description::variables! {
                input(phi_drive = drive.angle, "Angle of the drive end of the shaft at the step's start (connect \
                    the drive's phi)", Angle, 0.0),
                input(w_drive = drive.rate, "Rate of the drive end; it moves as phi_drive + w_drive*(t - t0) over \
                    the step (connect the drive's w)", AngularVelocity, 0.0),
                output(tau_shaft = drive_torque, "Torque the shaft applies to the drive: Co-Simulation, the mean \
                    over the last step (its impulse is the one the load received); Model Exchange, its value now \
                    (connect to the drive's tau_load); plain exchange: the drive takes it held over the step, stable \
                    under a Jacobi master while h*sqrt(k_shaft/J_drive) <= 0.2 for a weakly damped drive (step this \
                    FMU first, or let the drive hold the shaft: k_coupling)", Torque),
                output(phi = load.body.angle, "Angle of the load", Angle).display("deg"),
                output(w = load.body.rate, "Rate of the load", AngularVelocity).display("deg/s"),
                output(tau_friction = load.body.friction_torque, "Friction torque on the load: Co-Simulation, the \
                    mean over the last step; Model Exchange, its value now", Torque),
                integer_output("mode", "Load motion: -1 sliding backward, 0 stuck (w exactly 0), +1 sliding forward \
                    (Co-Simulation: at the end of the step; Model Exchange: the discrete state)", -1, 1,
                    |m| m.load.contact.as_i32()),
                parameter(k_shaft = shaft.stiffness, "Shaft torsional stiffness", RotationalStiffness, 10.0).positive(),
                parameter(d_shaft = shaft.damping, "Shaft torsional damping", RotationalDamping, 0.0).min(0.0),
                parameter(J = load.body.inertia, "Moment of inertia of the load", Inertia, 1.0).positive(),
                parameter(w_start = load.rate_start, "Load rate at the start time", AngularVelocity, 0.0),
                parameter(phi_start = load.angle_start, "Load angle at the start time", Angle, 0.0),
                internal_step($step, $crate::description::field!(load.internal_step)),
                $($extra)*
                output(k_coupling = shaft.stiffness, "Shaft stiffness as the drive sees it, for a drive that holds \
                    the shaft itself (implicit coupling, stable at any step: connect to MotorDrive's k_coupling, with phi and w \
                    to its phi_load and w_load); equals k_shaft", RotationalStiffness),
                output(d_coupling = shaft.damping, "Shaft damping as the drive sees it (implicit coupling: connect to \
                    MotorDrive's d_coupling); equals d_shaft", RotationalDamping),
            };
            const HYBRID: Option<$crate::model::Hybrid<Self>> = Some(Self::HYBRID_PORT);
            // The port substeps itself: its drive end moves within the step.
            const SUBSTEPS_ITSELF: bool = true;
            fn max_substep(&self) -> f64 {
                self.load.internal_step
            }
            fn check(&self) -> Result<(), String> {
                self.check_port()
            }
            fn check_internal_step(&self) -> Result<(), String> {
                self.check_port_step()
            }
            fn initialize(&mut self) {
                self.initialize_port();
            }
            #[inline]
            fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut($crate::model::Transition)) {
                // The instance calls `step_in` with its count; a direct
                // caller gets the same rule.
                self.step_port(dt, friction::substep_count(dt, self.load.internal_step) as usize, on_transition);
            }

            #[inline]
            fn step_in(&mut self, dt: f64, n: usize, on_transition: &mut dyn FnMut($crate::model::Transition)) {
                self.step_port(dt, n, on_transition);
            }

            fn step_in_to_event(
                &mut self,
                dt: f64,
                n: usize,
                earliest: f64,
                on_transition: &mut dyn FnMut($crate::model::Transition),
            ) -> Option<f64> {
                self.step_port_to_event(dt, n, earliest, on_transition)
            }
        }
    };
}
