//! `ClutchStickSlip`: two inertias and a friction clutch between them, with
//! exact lock-up (the 1-D blog's model, predictive instead of banded).

mod behaviour;

use crate::bibliography;
use crate::models::two_inertia::{ClutchPlant, HasTwoInertia, TwoInertia};
use crate::description::{variables, Experiment, ModelInfo, Variable};
use crate::equations::eq;
use crate::model::{Hybrid, InputDerivative, Model, OutputDerivative, Transition};
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
    two: TwoInertia,
}

impl HasTwoInertia for ClutchStickSlip {
    fn two(&self) -> &TwoInertia {
        &self.two
    }
    fn two_mut(&mut self) -> &mut TwoInertia {
        &mut self.two
    }
}

impl ClutchPlant for ClutchStickSlip {
    fn torques(&self) -> (f64, f64) {
        (self.torque1, self.torque2)
    }
    fn capacity(&self) -> f64 {
        self.capacity
    }
}

impl Model for ClutchStickSlip {
    const INFO: ModelInfo = ModelInfo::new("ClutchStickSlip", Experiment::new(0.0, 1.0, 0.01))
        .expects(behaviour::BEHAVIOUR)
        .sources(&[(&bibliography::FRICTION_BLOG, "stick/slip switching, sticking torque (T1*J2 - T2*J1)/(J1 + J2)")])
        .equations(&[
            eq("der(phi1) = w1", "", "kinematics"),
            eq("der(phi2) = w2", "", "kinematics"),
            eq("J1*der(w1) = tau1 - tau_clutch", "", "Newton's law for inertia 1: the clutch torque passes from \
                inertia 1 to inertia 2 (blog)"),
            eq("J2*der(w2) = tau2 + tau_clutch", "", "Newton's law for inertia 2 (blog)"),
            eq("tau_sticking = (tau1*J2 - tau2*J1)/(J1 + J2)", "", "the clutch torque that keeps both inertias \
                together (blog's sticking torque)"),
            eq("tau_clutch = tau_sticking", "w1 = w2, abs(tau_sticking) <= tau_capacity", "locked: both turn as \
                one, der(w1) = der(w2) = (tau1 + tau2)/(J1 + J2), w1 = w2 exactly (blog, without its velocity \
                band: the lock is found inside the step)"),
            eq("tau_clutch = tau_capacity*sign(w1 - w2)", "w1 != w2", "slipping: the capacity, against the slip \
                (blog)"),
            eq("tau_clutch = tau_capacity*sign(tau_sticking)", "w1 = w2, abs(tau_sticking) > tau_capacity",
                "breaking loose (or reversing): slips in the sense the sticking torque drives it (Modelica \
                Rotational.Components.Clutch's mode switching)"),
            eq("locked = (abs(tau_sticking) <= tau_capacity)", "w1 = w2", "the locked flag; false while the rates \
                differ. A lock conserves the momentum J1*w1 + J2*w2"),
        ])
        .description("Two \
        inertias coupled by a friction clutch of time-varying capacity: sticking torque (T1*J2 - T2*J1)/(J1 + J2) \
        checked against the capacity, lock-up predicted within the step (no velocity band), exact w1 == w2 while \
        locked. Default experiment (start values; J1 = J2 = 1, w1 = 10 and w2 = 0 rad/s, capacity 10 N.m, no external \
        torque): a clutch engaging between a coasting and a resting body; the slip 10 - 20*t closes at 0.5 s (first \
        seen locked at the 0.51 s point) and both turn at 5 rad/s from there, momentum conserved");
    const VARIABLES: &'static [Variable<Self>] = variables! {
        input(tau1 = torque1, "External torque on inertia 1", Torque, 0.0),
        input(tau2 = torque2, "External torque on inertia 2", Torque, 0.0),
        input(tau_capacity = capacity, "Maximum torque the clutch transmits (>= 0; 0 = open)",
            Torque, 10.0).min(0.0),
        clutch_phi1(), clutch_w1(), clutch_phi2(), clutch_w2(), clutch_torque(), clutch_locked(),
        clutch_j1(), clutch_j2(), clutch_w1_start(10.0), clutch_w2_start(0.0), clutch_internal_step(1e-3),
    };

    // The torques and the capacity linear over a step (events stay closed-form).
    const INPUT_DERIVATIVES: &'static [InputDerivative<Self>] = &[
        InputDerivative { input: "tau1", get: |m| m.slope1, set: |m, x| m.slope1 = x },
        InputDerivative { input: "tau2", get: |m| m.slope2, set: |m, x| m.slope2 = x },
        InputDerivative { input: "tau_capacity", get: |m| m.capacity_slope, set: |m, x| m.capacity_slope = x },
    ];
    // Rates, and the accelerations of the exact solution at the end of the
    // step (equal while locked).
    const OUTPUT_DERIVATIVES: &'static [OutputDerivative<Self>] = &[
        OutputDerivative { output: "phi1", get: |m| m.two.clutch.rate1 },
        OutputDerivative { output: "w1", get: |m| m.two.clutch.acceleration1 },
        OutputDerivative { output: "phi2", get: |m| m.two.clutch.rate2 },
        OutputDerivative { output: "w2", get: |m| m.two.clutch.acceleration2 },
    ];

    const HYBRID: Option<Hybrid<Self>> = Some(Self::CLUTCH_HYBRID);

    fn max_substep(&self) -> f64 {
        self.two.internal_step
    }

    fn initialize(&mut self) {
        self.two.start((self.torque1, self.torque2), self.capacity);
        let clutch = &mut self.two.clutch;
        (clutch.acceleration1, clutch.acceleration2) = clutch.accelerations(self.torque1, self.torque2, self.capacity);
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let (torques, slopes) = ((self.torque1, self.torque2), (self.slope1, self.slope2));
        self.two.step(torques, slopes, (self.capacity, self.capacity_slope), dt, on_transition);
    }

    #[inline]
    fn step_to_event(&mut self, dt: f64, earliest: f64, on_transition: &mut dyn FnMut(Transition)) -> Option<f64> {
        let (torques, slopes) = ((self.torque1, self.torque2), (self.slope1, self.slope2));
        self.two.step_to_event(torques, slopes, (self.capacity, self.capacity_slope), dt, earliest, on_transition)
    }

    /// Inputs set at an event (a torque or capacity that jumps) break the
    /// lock at once.
    fn settle(&mut self, on_transition: &mut dyn FnMut(Transition)) -> bool {
        self.two.settle((self.torque1, self.torque2), self.capacity, on_transition)
    }
}
