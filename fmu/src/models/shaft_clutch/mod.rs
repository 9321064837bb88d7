//! `ShaftClutch`: a friction clutch to put between two shafts, a drive FMU
//! on one side and a load FMU on the other: motion in at both ends, the
//! shafts' torques on both ends out (see `friction::shaft_clutch`).

mod behaviour;
mod system;

use crate::models::shaft_port::check_substep;
use crate::models::two_inertia::{ClutchPlant, HasTwoInertia, TwoInertia};
use crate::bibliography;
use crate::description::{variables, Experiment, ModelInfo, Variable};
use crate::equations::eq;
use crate::model::{Hybrid, Model, Transition};
use crate::scenario::Signal;
use friction::{DriveEnd, Shaft};
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct ShaftClutch {
    /// The drive end at the step's start (inputs `phi_drive`, `w_drive`).
    drive: DriveEnd,
    /// The load end at the step's start (inputs `phi_load`, `w_load`).
    load: DriveEnd,
    capacity: f64,
    drive_shaft: Shaft,
    load_shaft: Shaft,
    two: TwoInertia,
    /// Torque of the drive shaft on the drive end: the mean over the last
    /// step (Co-Simulation), the value now (Model Exchange).
    drive_torque: f64,
    /// Torque of the load shaft on the load end, likewise.
    load_torque: f64,
}

impl Default for ShaftClutch {
    fn default() -> Self {
        let shaft = Shaft { stiffness: 10.0, damping: 0.0 };
        let mut two = TwoInertia { internal_step: 1e-3, ..Default::default() };
        (two.clutch.inertia1, two.clutch.inertia2) = (0.25, 0.25);
        Self {
            drive: DriveEnd::default(),
            load: DriveEnd::default(),
            capacity: 1.0,
            drive_shaft: shaft,
            load_shaft: shaft,
            two,
            drive_torque: 0.0,
            load_torque: 0.0,
        }
    }
}

impl ShaftClutch {
    /// `dt` in `n` substeps, stopping at the clutch's first lock or break
    /// from `stop_from` on ([`friction::step_between_shafts`]): the shafts'
    /// mean torques over the time taken, both ends moved to where it
    /// stopped. Returns the lock's change, the first event and the time
    /// taken.
    #[inline]
    fn advance(&mut self, dt: f64, n: usize, stop_from: Option<f64>) -> (Option<Transition>, Option<f64>, f64) {
        let before = self.two.clutch.locked;
        let c = &mut self.two.clutch;
        let (impulses, event, taken) = friction::step_between_shafts(
            c,
            (&self.drive_shaft, &self.drive),
            (&self.load_shaft, &self.load),
            self.capacity,
            dt,
            n,
            stop_from,
        );
        (self.drive_torque, self.load_torque) = (0.0 - impulses.drive / taken, 0.0 - impulses.load / taken);
        c.clutch_torque = impulses.clutch / taken;
        if taken < dt {
            (self.drive, self.load) = (self.drive.moved_by(taken), self.load.moved_by(taken));
        }
        (Transition::of_lock(before, c.locked), event, taken)
    }
}

impl HasTwoInertia for ShaftClutch {
    fn two(&self) -> &TwoInertia {
        &self.two
    }
    fn two_mut(&mut self) -> &mut TwoInertia {
        &mut self.two
    }
}

impl ClutchPlant for ShaftClutch {
    /// The shafts' torques on the plates now.
    fn torques(&self) -> (f64, f64) {
        let c = &self.two.clutch;
        (
            self.drive_shaft.torque(&self.drive, 0.0, c.angle1, c.rate1),
            self.load_shaft.torque(&self.load, 0.0, c.angle2, c.rate2),
        )
    }
    fn capacity(&self) -> f64 {
        self.capacity
    }
}

/// The default experiment's drive end (`ShaftClutch_in.csv`): it turns at
/// 2 rad/s from rest; the load end stays at 0 (a wall).
const DEFAULT_INPUTS: &[(&str, Signal)] = &[
    ("phi_drive", Signal::Points(&[(0.0, 0.0), (1.0, 2.0)])),
    ("w_drive", Signal::Constant(2.0)),
];

impl Model for ShaftClutch {
    const INFO: ModelInfo = ModelInfo::new("ShaftClutch", Experiment::new(0.0, 1.0, 0.002))
        .expects(behaviour::BEHAVIOUR)
        .systems(&[system::SYSTEM])
        .default_inputs(DEFAULT_INPUTS)
        .sources(&[(&bibliography::FRICTION_BLOG, "the clutch between the plates: the sticking torque \
            T_s = (T1*J2 - T2*J1)/(J1 + J2), locked while it stays within the capacity, lock-up found inside the \
            step")])
        .equations(&[
            eq("tau1 = k_drive*(phi_drive - phi1) + d_drive*(w_drive - w1)", "", "the drive shaft's torque on plate \
                1; over a co-simulation step the drive end moves as phi_drive + w_drive*(t - t0)"),
            eq("tau2 = k_load*(phi_load - phi2) + d_load*(w_load - w2)", "", "the load shaft's torque on plate 2; \
                the load end moves as phi_load + w_load*(t - t0)"),
            eq("der(phi1) = w1", "", "kinematics"),
            eq("der(phi2) = w2", "", "kinematics"),
            eq("J1*der(w1) = tau1 - tau_clutch", "", "plate 1; Co-Simulation: substeps no longer than \
                internal_step, the shaft torques as ramps over each (friction::step_between_shafts), \
                internal_step*max(sqrt(k/J), d/J) <= 0.5 for each shaft and plate"),
            eq("J2*der(w2) = tau2 + tau_clutch", "", "plate 2"),
            eq("tau_sticking = (tau1*J2 - tau2*J1)/(J1 + J2)", "", "the clutch torque that keeps the plates \
                together"),
            eq("tau_clutch = tau_sticking", "w1 = w2, abs(tau_sticking) <= tau_capacity", "locked: w1 = w2 \
                exactly, the lock found at its instant inside the substep (as TwoInertiaClutch)"),
            eq("tau_clutch = tau_capacity*sign(w1 - w2)", "w1 != w2", "slipping: the capacity, against the slip"),
            eq("tau_drive = -tau1", "", "reaction on the drive end (Co-Simulation: the mean over the last step, \
                the impulse the plate received)"),
            eq("tau_load = -tau2", "", "reaction on the load end, likewise"),
        ])
        .description("\
        A friction clutch to put between two shafts: a drive FMU moves one end (phi_drive, w_drive), a load FMU the \
        other (phi_load, w_load); inside, two plates J1, J2, each on its compliant shaft, and the clutch between them \
        with capacity tau_capacity and the exact lock and breakaway of TwoInertiaClutch (w1 = w2 exactly while \
        locked); out, the shafts' torques on both ends (tau_drive, tau_load: connect to the drive's and the load's \
        torque inputs) or, for an implicit coupling, each plate's motion and shaft (phi1, w1, k_coupling_drive, \
        d_coupling_drive to MotorDrive's phi_load, w_load, k_coupling, d_coupling; phi2, w2, k_coupling_load, \
        d_coupling_load likewise on the load side). Default experiment (ShaftClutch_in.csv: the drive end turns at 2 \
        rad/s from rest, the load end held at 0; capacity 1 N.m, shafts 10 N.m/rad, plates 0.25 kg.m2): locked, \
        both plates wind up together until the torque the clutch must carry passes 1 N.m near 0.10 s; then it \
        slips to the end, carrying 1 N.m: plate 1 follows the drive shaft, plate 2 swings on the load shaft \
        between 0 and 0.2 rad (about its 0.1 rad deflection under 1 N.m). Without the input file both ends stay \
        at 0 and nothing moves");
    const VARIABLES: &'static [Variable<Self>] = variables! {
        input(phi_drive = drive.angle, "Angle of the drive end of the drive shaft at the step's start (connect the \
            drive's phi)", Angle, 0.0),
        input(w_drive = drive.rate, "Rate of the drive end; it moves as phi_drive + w_drive*(t - t0) over the step \
            (connect the drive's w)", AngularVelocity, 0.0),
        input(phi_load = load.angle, "Angle of the load end of the load shaft at the step's start (connect the \
            load's phi)", Angle, 0.0),
        input(w_load = load.rate, "Rate of the load end; it moves as phi_load + w_load*(t - t0) over the step \
            (connect the load's w)", AngularVelocity, 0.0),
        input(tau_capacity = capacity, "Maximum torque the clutch transmits (>= 0; 0 = open), held over the step",
            Torque, 1.0).min(0.0),
        output(tau_drive = drive_torque, "Torque the drive shaft applies to the drive end: Co-Simulation, the mean \
            over the last step; Model Exchange, its value now (connect to the drive's tau_load)", Torque),
        output(tau_load = load_torque, "Torque the load shaft applies to the load end: Co-Simulation, the mean over \
            the last step; Model Exchange, its value now (connect to the load's torque input)", Torque),
        clutch_phi1(), clutch_w1(), clutch_phi2(), clutch_w2(), clutch_torque(), clutch_locked(),
        parameter(J1 = two.clutch.inertia1, "Moment of inertia of plate 1 (drive side)", Inertia, 0.25).positive(),
        parameter(J2 = two.clutch.inertia2, "Moment of inertia of plate 2 (load side)", Inertia, 0.25).positive(),
        parameter(k_drive = drive_shaft.stiffness, "Torsional stiffness of the drive shaft", RotationalStiffness,
            10.0).positive(),
        parameter(d_drive = drive_shaft.damping, "Torsional damping of the drive shaft", RotationalDamping, 0.0)
            .min(0.0),
        parameter(k_load = load_shaft.stiffness, "Torsional stiffness of the load shaft", RotationalStiffness, 10.0)
            .positive(),
        parameter(d_load = load_shaft.damping, "Torsional damping of the load shaft", RotationalDamping, 0.0)
            .min(0.0),
        clutch_w1_start(0.0), clutch_w2_start(0.0), clutch_internal_step(1e-3),
        output(k_coupling_drive = drive_shaft.stiffness, "The drive shaft's stiffness as the drive sees it (implicit \
            coupling: connect to MotorDrive's k_coupling, with phi1, w1 to its phi_load, w_load)",
            RotationalStiffness),
        output(d_coupling_drive = drive_shaft.damping, "The drive shaft's damping (implicit coupling: connect to \
            MotorDrive's d_coupling)", RotationalDamping),
        output(k_coupling_load = load_shaft.stiffness, "The load shaft's stiffness as the load sees it (implicit \
            coupling, with phi2, w2)", RotationalStiffness),
        output(d_coupling_load = load_shaft.damping, "The load shaft's damping (implicit coupling)",
            RotationalDamping),
    };

    // Model Exchange: the clutch of ClutchPlant under the shafts' torques now.
    const HYBRID: Option<Hybrid<Self>> = Some(Hybrid {
        evaluate: |m| {
            (Self::CLUTCH_HYBRID.evaluate)(m);
            let (t1, t2) = m.torques();
            (m.drive_torque, m.load_torque) = (0.0 - t1, 0.0 - t2);
        },
        ..Self::CLUTCH_HYBRID
    });

    // The ends move within the step: the model substeps itself.
    const SUBSTEPS_ITSELF: bool = true;
    fn max_substep(&self) -> f64 {
        self.two.internal_step
    }

    fn check_internal_step(&self) -> Result<(), String> {
        let (c, h) = (&self.two.clutch, self.two.internal_step);
        check_substep(&self.drive_shaft, c.inertia1, h)
            .map_err(|e| format!("drive shaft and plate 1 (k_drive, d_drive, J1 in the rule's k_shaft, d_shaft, J): {e}"))?;
        check_substep(&self.load_shaft, c.inertia2, h)
            .map_err(|e| format!("load shaft and plate 2 (k_load, d_load, J2 in the rule's k_shaft, d_shaft, J): {e}"))
    }

    fn initialize(&mut self) {
        self.two.start((0.0, 0.0), self.capacity);
        let torques = self.torques();
        self.two.start(torques, self.capacity);
        (self.drive_torque, self.load_torque) = (0.0 - torques.0, 0.0 - torques.1);
        let c = &mut self.two.clutch;
        (c.acceleration1, c.acceleration2) = c.accelerations(torques.0, torques.1, self.capacity);
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        // The instance calls `step_in` with its count; a direct caller gets
        // the same rule.
        self.step_in(dt, friction::substep_count(dt, self.two.internal_step) as usize, on_transition);
    }

    #[inline]
    fn step_in(&mut self, dt: f64, n: usize, on_transition: &mut dyn FnMut(Transition)) {
        if let (Some(t), ..) = self.advance(dt, n, None) {
            on_transition(t);
        }
    }

    /// Early return at the clutch's lock or break, located inside the
    /// substep that has it; both shaft ends where the step's inputs moved
    /// them.
    fn step_in_to_event(
        &mut self,
        dt: f64,
        n: usize,
        earliest: f64,
        on_transition: &mut dyn FnMut(Transition),
    ) -> Option<f64> {
        let (transition, event, taken) = self.advance(dt, n, Some(earliest));
        crate::model::report_stop(transition, (event, taken), dt, earliest, on_transition)
    }
}
