//! `ClutchStickSlip`: two inertias and a friction clutch between them, with
//! exact lock-up (the 1-D blog's model, predictive instead of banded).

use crate::description::{Experiment, ModelInfo, Quantity, Variable};
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
    /// d(tau_capacity)/dt for the next step.
    capacity_slope: f64,
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
    const VARIABLES: &'static [Variable<Self>] = &[
        Variable::<Self>::real_input(
            "tau1",
            "External torque on inertia 1",
            Quantity::Torque,
            0.0,
            |m| m.torque1,
            |m, x| m.torque1 = x,
        ),
        Variable::<Self>::real_input(
            "tau2",
            "External torque on inertia 2",
            Quantity::Torque,
            0.0,
            |m| m.torque2,
            |m, x| m.torque2 = x,
        ),
        Variable::<Self>::real_input(
            "tau_capacity",
            "Maximum torque the clutch transmits (>= 0; 0 = open)",
            Quantity::Torque,
            10.0,
            |m| m.capacity,
            |m, x| m.capacity = x,
        )
        .min(0.0),
        Variable::<Self>::real_output("phi1", "Angle of inertia 1", Quantity::Angle, |m| m.clutch.angle1)
            .display("deg"),
        Variable::<Self>::real_output("w1", "Rate of inertia 1", Quantity::AngularVelocity, |m| m.clutch.rate1)
            .display("rpm"),
        Variable::<Self>::real_output("phi2", "Angle of inertia 2", Quantity::Angle, |m| m.clutch.angle2)
            .display("deg"),
        Variable::<Self>::real_output(
            "w2",
            "Rate of inertia 2; equals w1 exactly while locked",
            Quantity::AngularVelocity,
            |m| m.clutch.rate2,
        )
        .display("rpm"),
        Variable::<Self>::real_output(
            "tau_clutch",
            "Clutch torque from inertia 1 to inertia 2, averaged over the last internal step",
            Quantity::Torque,
            |m| m.clutch.clutch_torque,
        ),
        Variable::<Self>::boolean_output("locked", "The clutch is locked (sticking)", |m| m.clutch.locked),
        Variable::<Self>::real_parameter(
            "J1",
            "Moment of inertia 1",
            Quantity::Inertia,
            1.0,
            |m| m.clutch.inertia1,
            |m, x| m.clutch.inertia1 = x,
        )
        .positive(),
        Variable::<Self>::real_parameter(
            "J2",
            "Moment of inertia 2",
            Quantity::Inertia,
            1.0,
            |m| m.clutch.inertia2,
            |m, x| m.clutch.inertia2 = x,
        )
        .positive(),
        Variable::<Self>::real_parameter(
            "w1_start",
            "Rate of inertia 1 at the start time",
            Quantity::AngularVelocity,
            10.0,
            |m| m.rate1_start,
            |m, x| m.rate1_start = x,
        ),
        Variable::<Self>::real_parameter(
            "w2_start",
            "Rate of inertia 2 at the start time",
            Quantity::AngularVelocity,
            0.0,
            |m| m.rate2_start,
            |m, x| m.rate2_start = x,
        ),
        Variable::<Self>::internal_step(1e-3, |m| m.internal_step, |m, x| m.internal_step = x),
    ];

    // The torques and the capacity linear over a step (events stay closed-form).
    const INPUT_DERIVATIVES: &'static [InputDerivative<Self>] = &[
        InputDerivative { input: "tau1", get: |m| m.slope1, set: |m, x| m.slope1 = x },
        InputDerivative { input: "tau2", get: |m| m.slope2, set: |m, x| m.slope2 = x },
        InputDerivative { input: "tau_capacity", get: |m| m.capacity_slope, set: |m, x| m.capacity_slope = x },
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
        let (t1, t2, capacity) = (self.torque1, self.torque2, self.capacity);
        self.clutch.step_ramps(t1, t2, self.slope1, self.slope2, capacity, self.capacity_slope, dt);
        if let Some(t) = Transition::of_lock(before, self.clutch.locked) {
            on_transition(t);
        }
    }
}
