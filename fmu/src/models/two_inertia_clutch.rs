//! `TwoInertiaClutch`: the 1-D blog's plant — a drive torque on inertia 1,
//! viscous damping on inertia 2, and the clutch between them.

use crate::description::{field, variables, Experiment, ModelInfo, Variable};
use crate::model::{InputDerivative, Model, Transition};
use crate::scenarios::{Scenario, Signal, Trace};
use friction::TwoInertiaClutch as Clutch;
use serde::{Deserialize, Serialize};

/// The blog's example: drive 20 N.m, damping 10 N.m.s on inertia 2, clutch
/// capacity 50 N.m for 1 s < t < 2 s, 3 s.
pub const SCENARIOS: &[Scenario] = &[Scenario {
    name: "clutch_blog",
    model: "TwoInertiaClutch",
    figure: "clutch_blog",
    title: "Blog example: J1 = J2 = 1, drive 20 N.m, capacity 50 N.m for 1 s < t < 2 s",
    parameters: &[],
    inputs: &[
        ("tau_drive", Signal::Constant(20.0)),
        ("tau_capacity", Signal::Points(&[(1.0, 0.0), (1.0, 50.0), (2.0, 50.0), (2.0, 0.0)])),
    ],
    stop_time: 3.0,
    step_size: 1e-3,
    traces: &[
        Trace::new("w1", 1.0, "rate (rad/s)"),
        Trace::new("w2", 1.0, "rate (rad/s)"),
        Trace::new("tau_clutch", 1.0, "clutch torque (N.m)"),
        Trace::new("locked", 1.0, "locked"),
    ],
}];

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct TwoInertiaClutch {
    drive_torque: f64,
    /// d(tau_drive)/dt for the next step (fmi2SetRealInputDerivatives).
    drive_slope: f64,
    capacity: f64,
    damping: f64,
    rate1_start: f64,
    rate2_start: f64,
    internal_step: f64,
    clutch: Clutch,
}

impl Model for TwoInertiaClutch {
    const INFO: ModelInfo = ModelInfo {
        identifier: "TwoInertiaClutch",
        description:
            "Two inertias and a friction clutch (the 1-D blog's plant): drive torque on inertia 1, viscous damping \
                      on inertia 2 (held over each internal step), exact lock-up; defaults: the blog's J1 = J2 = 1, \
                      damping 10 N.m.s; drive and clutch capacity are inputs",
        default_experiment: Experiment { start_time: 0.0, stop_time: 3.0, step_size: 0.001 },
    };
    const VARIABLES: &'static [Variable<Self>] = variables! {
        input("tau_drive", "Drive torque on inertia 1", Torque, 20.0, field!(drive_torque)),
        input("tau_capacity", "Maximum torque the clutch transmits (>= 0; 0 = open). The start value 15 N.m makes the \
            default run show the clutch locked from rest and slipping once the torque it must carry passes 15 N.m",
            Torque, 15.0, field!(capacity)).min(0.0),
        output("w1", "Rate of inertia 1", AngularVelocity, |m| m.clutch.rate1).display("rpm"),
        output("w2", "Rate of inertia 2; equals w1 exactly while locked",
            AngularVelocity, |m| m.clutch.rate2).display("rpm"),
        output("phi1", "Angle of inertia 1", Angle, |m| m.clutch.angle1).display("deg"),
        output("phi2", "Angle of inertia 2", Angle, |m| m.clutch.angle2).display("deg"),
        output("tau_clutch", "Clutch torque from inertia 1 to inertia 2, averaged over the last internal step",
            Torque, |m| m.clutch.clutch_torque),
        boolean_output("locked", "The clutch is locked (sticking)", |m| m.clutch.locked),
        parameter("J1", "Moment of inertia 1", Inertia, 1.0, field!(clutch.inertia1)).positive(),
        parameter("J2", "Moment of inertia 2", Inertia, 1.0, field!(clutch.inertia2)).positive(),
        parameter("d2", "Viscous damping on inertia 2 (torque -d2*w2)",
            RotationalDamping, 10.0, field!(damping)).min(0.0),
        parameter("w1_start", "Rate of inertia 1 at the start time", AngularVelocity, 0.0, field!(rate1_start)),
        parameter("w2_start", "Rate of inertia 2 at the start time", AngularVelocity, 0.0, field!(rate2_start)),
        internal_step(1e-3, field!(internal_step)),
    };

    // The drive torque linear over a step; the damping torque is taken at
    // each internal step's start, the capacity held.
    const INPUT_DERIVATIVES: &'static [InputDerivative<Self>] =
        &[InputDerivative { input: "tau_drive", get: |m| m.drive_slope, set: |m, x| m.drive_slope = x }];

    fn max_substep(&self) -> f64 {
        self.internal_step
    }

    fn initialize(&mut self) {
        let (j1, j2) = (self.clutch.inertia1, self.clutch.inertia2);
        self.clutch = Clutch::new(j1, j2, self.rate1_start, self.rate2_start);
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let before = self.clutch.locked;
        let damping_torque = -self.damping * self.clutch.rate2;
        self.clutch.step_ramp(self.drive_torque, damping_torque, self.drive_slope, 0.0, self.capacity, dt);
        if let Some(t) = Transition::of_lock(before, self.clutch.locked) {
            on_transition(t);
        }
    }
}
