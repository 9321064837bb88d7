//! `ClutchStickSlip`: two inertias and a friction clutch between them, with
//! exact lock-up (the 1-D blog's model, predictive instead of banded).

use crate::description::{field, variables, Experiment, ModelInfo, Variable};
use crate::model::{InputDerivative, Model, OutputDerivative, Transition};
use friction::TwoInertiaClutch;
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct ClutchStickSlip {
    torque1: f64,
    torque2: f64,
    /// d(tau1)/dt, d(tau2)/dt for the next step (fmi2SetRealInputDerivatives).
    slope1: f64,
    slope2: f64,
    capacity: f64,
    rate1_start: f64,
    rate2_start: f64,
    internal_step: f64,
    clutch: TwoInertiaClutch,
}

impl Model for ClutchStickSlip {
    const INFO: ModelInfo = ModelInfo {
        identifier: "ClutchStickSlip",
        description: "Two inertias coupled by a friction clutch of time-varying capacity: sticking torque (T1*J2 - T2*J1)/(J1 + J2) \
                      checked against the capacity, lock-up predicted within the step (no velocity band), exact w1 == w2 while locked",
        default_experiment: Experiment { start_time: 0.0, stop_time: 1.0, step_size: 0.01 },
    };
    const VARIABLES: &'static [Variable<Self>] = variables! {
        input("tau1", "External torque on inertia 1", Torque, 0.0, field!(torque1)),
        input("tau2", "External torque on inertia 2", Torque, 0.0, field!(torque2)),
        input("tau_capacity", "Maximum torque the clutch transmits (>= 0; 0 = open)",
            Torque, 10.0, field!(capacity)).min(0.0),
        output("phi1", "Angle of inertia 1", Angle, |m| m.clutch.angle1).display("deg"),
        output("w1", "Rate of inertia 1", AngularVelocity, |m| m.clutch.rate1).display("rpm"),
        output("phi2", "Angle of inertia 2", Angle, |m| m.clutch.angle2).display("deg"),
        output("w2", "Rate of inertia 2; equals w1 exactly while locked",
            AngularVelocity, |m| m.clutch.rate2).display("rpm"),
        output("tau_clutch", "Clutch torque from inertia 1 to inertia 2, averaged over the last internal step",
            Torque, |m| m.clutch.clutch_torque),
        boolean_output("locked", "The clutch is locked (sticking)", |m| m.clutch.locked),
        parameter("J1", "Moment of inertia 1", Inertia, 1.0, field!(clutch.inertia1)).positive(),
        parameter("J2", "Moment of inertia 2", Inertia, 1.0, field!(clutch.inertia2)).positive(),
        parameter("w1_start", "Rate of inertia 1 at the start time", AngularVelocity, 10.0, field!(rate1_start)),
        parameter("w2_start", "Rate of inertia 2 at the start time", AngularVelocity, 0.0, field!(rate2_start)),
        internal_step(1e-3, field!(internal_step)),
    };

    // The torques linear over a step (events stay closed-form); the capacity is held.
    const INPUT_DERIVATIVES: &'static [InputDerivative<Self>] = &[
        InputDerivative { input: "tau1", get: |m| m.slope1, set: |m, x| m.slope1 = x },
        InputDerivative { input: "tau2", get: |m| m.slope2, set: |m, x| m.slope2 = x },
    ];
    // Rates, and the accelerations of the exact solution at the end of the
    // step (equal while locked).
    const OUTPUT_DERIVATIVES: &'static [OutputDerivative<Self>] = &[
        OutputDerivative { output: "phi1", get: |m| m.clutch.rate1 },
        OutputDerivative { output: "w1", get: |m| m.clutch.acceleration1 },
        OutputDerivative { output: "phi2", get: |m| m.clutch.rate2 },
        OutputDerivative { output: "w2", get: |m| m.clutch.acceleration2 },
    ];

    fn max_substep(&self) -> f64 {
        self.internal_step
    }

    fn initialize(&mut self) {
        let (j1, j2) = (self.clutch.inertia1, self.clutch.inertia2);
        self.clutch = TwoInertiaClutch::new(j1, j2, self.rate1_start, self.rate2_start);
        (self.clutch.acceleration1, self.clutch.acceleration2) =
            self.clutch.accelerations(self.torque1, self.torque2, self.capacity);
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let before = self.clutch.locked;
        self.clutch.step_ramp(self.torque1, self.torque2, self.slope1, self.slope2, self.capacity, dt);
        if let Some(t) = Transition::of_lock(before, self.clutch.locked) {
            on_transition(t);
        }
    }
}
