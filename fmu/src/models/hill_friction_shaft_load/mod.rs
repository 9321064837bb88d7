//! `HillFrictionShaftLoad`: the shaft port of Hill's static + Coulomb
//! friction — motion in, torque out. The FMU holds the shaft (spring and
//! damper) and the load with its friction; the drive's angle and rate come
//! in, the torque of the shaft on the drive goes out (see
//! `friction::shaft_load`).
//!
//! Choose this port over `HillFrictionInertia` (torque in) when the master
//! is a fixed-step co-simulation master: the stick-slip of the load is then
//! decided on the shaft torque of the present step, not of the last one.

mod behaviour;
mod system;

use crate::bibliography;
use crate::models::one_inertia::static_at_least_coulomb;
use crate::description::{variables, Experiment, ModelInfo, Variable};
use crate::equations::eq;
use crate::model::{Hybrid, InputDerivative, Model, Transition};
use crate::model::states;
use friction::{sign, DriveEnd, ExactStaticCoulomb, Motion, ShaftLoad, StickSlipContact};
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct HillFrictionShaftLoad {
    drive: DriveEnd,
    angle_start: f64,
    rate_start: f64,
    load: ShaftLoad,
    /// The load's contact: the motion after a step (Co-Simulation); in Model
    /// Exchange the discrete state, changed only at events.
    #[serde(default)]
    contact: Motion,
    /// d(w)/dt now (Model Exchange).
    #[serde(default)]
    acceleration: f64,
}

impl Default for HillFrictionShaftLoad {
    fn default() -> Self {
        Self {
            drive: DriveEnd { angle: 0.0, rate: 0.0, acceleration: 0.0 },
            angle_start: 0.0,
            rate_start: 0.0,
            load: ShaftLoad {
                inertia: 1.0,
                stiffness: 10.0,
                damping: 0.0,
                law: ExactStaticCoulomb { static_torque: 1.5, coulomb_torque: 1.0 },
                ..Default::default()
            },
            contact: Motion::Stuck,
            acceleration: 0.0,
        }
    }
}

impl HillFrictionShaftLoad {
    /// Model Exchange: the load's static + Coulomb contact.
    fn contact_law(&self) -> StickSlipContact {
        StickSlipContact { breakaway: self.load.law.static_torque, sliding_at_rest: self.load.law.coulomb_torque }
    }
}

impl Model for HillFrictionShaftLoad {
    const INFO: ModelInfo = ModelInfo::new("HillFrictionShaftLoad", Experiment::new(0.0, 2.0, 0.01))
        .expects(behaviour::BEHAVIOUR)
        .systems(&[system::SYSTEM])
        // A coupling input starts at 0 (a partner drives it); the default
        // experiment holds the drive end at 0.25 rad through its _in.csv.
        .default_inputs(&[("phi_drive", crate::scenario::Signal::Constant(0.25))])
        .sources(&[(&bibliography::HILL, "static and Coulomb levels, stick and breakaway, Eqs. (1)-(6)")])
        .equations(&[
            eq("tau_on_load = k_shaft*(phi_drive - phi) + d_shaft*(w_drive - w)", "", "torque of the shaft (spring \
                and damper) on the load; over a co-simulation step the drive end moves as phi_drive + w_drive*(t - \
                t0), plus a*(t - t0)^2/2 with the input derivative a of w_drive"),
            eq("der(phi) = w", "", "kinematics"),
            eq("J*der(w) = tau_on_load + tau_friction", "", "Newton's law for the load (Hill, Eq. 2); Co-Simulation: \
                solved in closed form per mode, with stops, breakaways and reversals found inside the step"),
            eq("tau_friction = -tau_coulomb*sign(w)", "w != 0", "sliding: Coulomb friction against the motion \
                (Hill, Eq. 4)"),
            eq("tau_friction = -tau_on_load", "w = 0, abs(tau_on_load) <= tau_static", "stuck: the friction \
                carries the shaft torque, so w stays exactly 0 (Hill, Section II)"),
            eq("tau_friction = -tau_coulomb*sign(tau_on_load)", "w = 0, abs(tau_on_load) > tau_static", "breakaway: \
                the load leaves rest in the direction of the shaft torque (Hill, Eq. 1)"),
            eq("tau_shaft = -tau_on_load", "", "reaction of the shaft on the drive; Co-Simulation reports it and \
                tau_friction as means over the last step, from the load's momentum balance, so their impulses are \
                exact"),
            eq("mode = sign(w)", "", "-1 sliding backward, 0 stuck, +1 sliding forward"),
        ])
        .description("\
        Shaft port of Hill's static + Coulomb friction (motion in, torque out): a load J with friction at the end of \
        a shaft k_shaft, d_shaft whose drive end moves as phi_drive + w_drive*(t - t0) over each step; stick, \
        breakaway, stops and reversals found exactly inside the step (closed form per mode); tau_shaft is the shaft's \
        torque on the drive, mean over the last step (connect to a torque-input plant such as MotorDrive's tau_load). \
        Choose it over HillFrictionInertia (torque in) for fixed-step co-simulation masters: the stick is decided on \
        the present step's shaft torque. Default experiment (phi_drive from HillFrictionShaftLoad_in.csv: the drive end \
        held at 0.25 rad, 2.5 N.m > F_s = 1.5 N.m; without the file phi_drive keeps its start value 0 and the load \
        rests): the load \
        breaks away, swings about 0.15 rad and stops at 0.3 rad after pi*sqrt(J/k_shaft) = 0.993 s, where the shaft \
        pulls back with 0.5 N.m < F_s: stuck from then on (w exactly 0). Model Exchange: the same contact with the \
        importer's solver (stuck: w and der(w) exactly 0; breakaway where |k_shaft*(phi_drive - phi) + d_shaft*w_drive| \
        passes F_s, a stop where w crosses 0); phi_drive and w_drive are then the drive end now and tau_shaft the \
        shaft's torque now");
    const VARIABLES: &'static [Variable<Self>] = variables! {
        input(phi_drive = drive.angle, "Angle of the drive end of the shaft at the step's start (connect the drive's \
            phi); starts at 0, where the load rests; a derivative set for it is accepted and not used (the drive end's \
            slope is w_drive)", Angle, 0.0),
        input(w_drive = drive.rate, "Rate of the drive end; the drive end moves as phi_drive + w_drive*(t - t0) over \
            the step, + a*(t - t0)^2/2 with the input derivative a of w_drive (connect the drive's w)", AngularVelocity,
            0.0),
        output(tau_shaft = load.drive_torque, "Torque the shaft applies to the drive, mean over the last step (its \
            impulse over the step is exact; connect to the drive's tau_load); plain exchange: the drive takes it held \
            over the step, stable under a Jacobi master while h*sqrt(k_shaft/J_drive) <= 0.2 for a weakly damped drive \
            (step this FMU first, or let the drive hold the shaft: k_coupling)", Torque),
        output(phi = load.angle, "Angle of the load", Angle).display("deg"),
        output(w = load.rate, "Rate of the load; exactly 0 while stuck", AngularVelocity).display("deg/s"),
        output(tau_friction = load.friction_torque, "Friction torque on the load, mean over the last step \
            (Model Exchange: its value now, -tau_on_load while stuck)", Torque),
        integer_output("mode", "Load motion: -1 sliding backward, 0 stuck (w exactly 0), +1 sliding forward \
            (Co-Simulation: at the end of the step; Model Exchange: the contact's discrete state)", -1, 1,
            |m| m.contact.as_i32()),
        parameter(k_shaft = load.stiffness, "Shaft torsional stiffness", RotationalStiffness, 10.0).positive(),
        parameter(d_shaft = load.damping, "Shaft torsional damping", RotationalDamping, 0.0).min(0.0),
        parameter(J = load.inertia, "Moment of inertia of the load", Inertia, 1.0).positive(),
        parameter(w_start = rate_start, "Load rate at the start time", AngularVelocity, 0.0),
        parameter(phi_start = angle_start, "Load angle at the start time", Angle, 0.0),
        parameter(tau_coulomb = load.law.coulomb_torque, "Coulomb (sliding) friction torque F_c", Torque, 1.0).min(0.0),
        parameter(tau_static = load.law.static_torque, "Static (breakaway) friction torque F_s, >= tau_coulomb",
            Torque, 1.5).min(0.0),
        output(k_coupling = load.stiffness, "Shaft stiffness as the drive sees it, for a drive that holds \
            the shaft itself (implicit coupling, stable at any step: connect to MotorDrive's k_coupling, with phi and w \
            to its phi_load and w_load); equals k_shaft", RotationalStiffness),
        output(d_coupling = load.damping, "Shaft damping as the drive sees it (implicit coupling: connect to \
            MotorDrive's d_coupling); equals d_shaft", RotationalDamping),
    };

    /// The ramp's acceleration: with `fmi2SetRealInputDerivatives` on
    /// `w_drive`, the drive end moves as `phi_drive + w_drive*u + a*u^2/2`
    /// over the step, integrated exactly (the shaft torque is then quadratic
    /// while stuck; the sliding particular solution shifts by `J*a/k`).
    /// `phi_drive`'s derivative is accepted (a master that extrapolates every
    /// input it can, as OMSimulator's `--inputExtrapolation`, sends it) and
    /// not stored: the ramp's slope is `w_drive`, set with it (its `get` is 0,
    /// so the shared layer adds nothing to `phi_drive` within a step).
    const INPUT_DERIVATIVES: &'static [InputDerivative<Self>] = &[
        InputDerivative { input: "w_drive", get: |m| m.drive.acceleration, set: |m, x| m.drive.acceleration = x },
        InputDerivative { input: "phi_drive", get: |_| 0.0, set: |_, _| {} },
    ];

    // Model Exchange: the stick-slip contact of HillFrictionInertia with the
    // shaft's torque k*(phi_drive - phi) + d*(w_drive - w) as the applied one.
    const HYBRID: Option<Hybrid<Self>> = Some(Hybrid {
        states: states! {
            state("phi", |m, x| m.load.angle = x, |m| if m.contact == Motion::Stuck { 0.0 } else { m.load.rate }),
            state("w", |m, x| m.load.rate = x, |m| m.acceleration),
        },
        indicators: 2,
        evaluate: |m| {
            let tau = m.load.load_torque(m.drive.angle, m.drive.rate);
            let friction = StickSlipContact::friction(m.contact, tau, m.load.law.coulomb_torque);
            m.load.drive_torque = 0.0 - tau;
            m.load.friction_torque = friction;
            m.acceleration = if m.contact == Motion::Stuck { 0.0 } else { (tau + friction) / m.load.inertia };
        },
        event_indicators: |m, z| {
            let tau = m.load.load_torque(m.drive.angle, m.drive.rate);
            z.copy_from_slice(&m.contact_law().indicators(m.contact, tau, m.load.rate, 1.0));
        },
        // At rest: breakaway above the static level, and at it where the
        // static level exceeds the Coulomb one, as HillFrictionInertia decides it.
        event: |m, on_transition| {
            let before = m.contact;
            let tau = m.load.load_torque(m.drive.angle, m.drive.rate);
            m.contact = m.contact_law().settle(before, &mut m.load.rate, tau);
            match Transition::of_motion(before, m.contact) {
                Some(t) => {
                    on_transition(t);
                    true
                }
                None => false,
            }
        },
    });

    /// The step is exact for any length: one internal step per
    /// communication step, so `tau_shaft` is the mean over the master's step.
    fn max_substep(&self) -> f64 {
        f64::INFINITY
    }

    /// The one pass searches for the load's stops on a grid of half a
    /// radian of the shaft's fastest motion (`ShaftLoad::grid_step`): a step
    /// of more than 1e8 of its points is refused, as a step of more than 1e8
    /// internal steps of another model.
    #[inline(always)]
    fn one_pass_work(&self, h: f64) -> Option<(f64, f64)> {
        let grid = self.load.grid_step();
        Some((h / grid, grid))
    }

    fn check(&self) -> Result<(), String> {
        static_at_least_coulomb("tau_static", self.load.law.static_torque, "tau_coulomb", self.load.law.coulomb_torque)
    }

    fn initialize(&mut self) {
        self.load.angle = self.angle_start;
        self.load.rate = self.rate_start;
        self.acceleration = 0.0;
        // Before the first step: the instantaneous shaft torque, and the
        // friction that holds it (at rest) or slides against the motion.
        let tau = self.load.load_torque(self.drive.angle, self.drive.rate);
        self.load.drive_torque = 0.0 - tau;
        let law = self.load.law;
        // At rest under a shaft torque past the static level the load slides
        // from the start: its mode after initialization is the sliding one
        // (w still exactly 0), the mode Model Exchange's event iteration
        // settles to, so that both interfaces report the same mode at t = 0.
        self.contact = if self.rate_start == 0.0 && tau.abs() > law.static_torque {
            Motion::of_rate(tau)
        } else {
            Motion::of_rate(self.rate_start)
        };
        self.load.friction_torque = if self.rate_start != 0.0 {
            -law.coulomb_torque * sign(self.rate_start)
        } else if tau.abs() <= law.static_torque {
            0.0 - tau
        } else {
            -law.coulomb_torque * sign(tau)
        };
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let before = self.contact;
        self.load.step(self.drive, dt);
        self.contact = Motion::of_rate(self.load.rate);
        if let Some(t) = Transition::of_motion(before, self.contact) {
            on_transition(t);
        }
    }

    /// Early return at the load's stop, breakaway or reversal, located in
    /// closed form: the load's mode from there is the sense it moves in
    /// (sliding at `w = 0.0` from a breakaway), the drive end where the
    /// step's inputs moved it.
    fn step_to_event(&mut self, dt: f64, earliest: f64, on_transition: &mut dyn FnMut(Transition)) -> Option<f64> {
        let before = self.contact;
        let (event, taken, sense) = self.load.step_to_event(self.drive, dt, earliest, self.contact.sign());
        let stopped = taken < dt;
        // At rest at the end, the sense it goes on in (a breakaway there).
        self.contact = Motion::of_rate(if stopped || self.load.rate == 0.0 { sense } else { self.load.rate });
        if stopped {
            self.drive = self.drive.moved_by(taken);
        }
        let transition = Transition::of_motion(before, self.contact);
        crate::model::report_stop(transition, (event, taken), dt, earliest, on_transition)
    }
}
