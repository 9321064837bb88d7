//! `TwoInertiaClutch`: the 1-D blog's plant — a drive torque on inertia 1,
//! viscous damping on inertia 2, and the clutch between them.

mod behaviour;

use crate::bibliography;
use crate::models::two_inertia::{ClutchPlant, HasTwoInertia, TwoInertia};
use crate::description::{field, variables, Experiment, ModelInfo, Variable};
use crate::equations::eq;
use crate::model::{Hybrid, InputDerivative, Model, Transition};
use crate::scenario::{Scenario, Signal, Trace};
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
    /// d(tau_capacity)/dt for the next step.
    capacity_slope: f64,
    damping: f64,
    two: TwoInertia,
}

impl HasTwoInertia for TwoInertiaClutch {
    fn two(&self) -> &TwoInertia {
        &self.two
    }
    fn two_mut(&mut self) -> &mut TwoInertia {
        &mut self.two
    }
}

impl ClutchPlant for TwoInertiaClutch {
    fn torques(&self) -> (f64, f64) {
        (self.drive_torque, -self.damping * self.two.clutch.rate2)
    }
    fn capacity(&self) -> f64 {
        self.capacity
    }
}

impl Model for TwoInertiaClutch {
    const INFO: ModelInfo = ModelInfo::new("TwoInertiaClutch", Experiment::new(0.0, 3.0, 0.004))
        .expects(behaviour::BEHAVIOUR)
        .default_inputs(&[("tau_drive", Signal::Constant(20.0))])
        .sources(&[(&bibliography::FRICTION_BLOG, "the example: J1 = J2 = 1, T1 = 20, T2 = -10*w2, 50 N.m")])
        .equations(&[
            eq("der(phi1) = w1", "", "kinematics"),
            eq("der(phi2) = w2", "", "kinematics"),
            eq("J1*der(w1) = tau_drive - tau_clutch", "", "Newton's law for inertia 1, driven (blog: T1)"),
            eq("J2*der(w2) = -d2*w2 + tau_clutch", "", "Newton's law for inertia 2, damped (blog: T2 = -d2*w2; \
                Co-Simulation holds the damping torque over each internal step, Model Exchange takes it now)"),
            eq("tau_sticking = (tau_drive*J2 + d2*w2*J1)/(J1 + J2)", "", "the clutch torque that keeps both \
                inertias together, the blog's (T1*J2 - T2*J1)/(J1 + J2) with T1 = tau_drive, T2 = -d2*w2"),
            eq("tau_clutch = tau_sticking", "w1 = w2, abs(tau_sticking) <= tau_capacity", "locked: both turn as \
                one, (J1 + J2)*der(w1) = tau_drive - d2*w2, w1 = w2 exactly (blog, without its velocity band: the \
                lock is found inside the step)"),
            eq("tau_clutch = tau_capacity*sign(w1 - w2)", "w1 != w2", "slipping: the capacity, against the slip \
                (blog)"),
            eq("tau_clutch = tau_capacity*sign(tau_sticking)", "w1 = w2, abs(tau_sticking) > tau_capacity",
                "breaking loose: slips in the sense the sticking torque drives it (Modelica \
                Rotational.Components.Clutch's mode switching)"),
            eq("locked = (abs(tau_sticking) <= tau_capacity)", "w1 = w2", "the locked flag; false while the rates \
                differ"),
        ])
        .description("Two \
        inertias and a friction clutch (the 1-D blog's plant): drive torque on inertia 1, viscous damping on inertia 2 \
        (held over each internal step), exact lock-up; defaults: the blog's J1 = J2 = 1, damping 10 N.m.s; drive and \
        clutch capacity are inputs. Default experiment (TwoInertiaClutch_in.csv: drive 20 N.m; capacity 15 N.m, its \
        start value; from rest): \
        locked, both at 2*(1 - exp(-5*t)), until the torque the clutch must carry, (20 + 10*w)/2, passes 15 N.m at \
        ln(2)/5 = 0.139 s; then slipping at 15 N.m: w1 gains 5 rad/s each second (15.3 rad/s at 3 s), w2 settles \
        at 1.5 rad/s");
    const VARIABLES: &'static [Variable<Self>] = variables! {
        input(tau_drive = drive_torque, "Drive torque on inertia 1 (from your engine or motor; starts at 0, the default \
            experiment's TwoInertiaClutch_in.csv holds 20 N.m)", Torque, 0.0),
        input("tau_capacity", "Maximum torque the clutch transmits (>= 0; 0 = open). The start value 15 N.m makes the \
            default run show the clutch locked from rest and slipping once the torque it must carry passes 15 N.m",
            Torque, 15.0, field!(capacity)).min(0.0),
        clutch_w1(), clutch_w2(), clutch_phi1(), clutch_phi2(), clutch_torque(), clutch_locked(),
        clutch_j1(), clutch_j2(),
        parameter(d2 = damping, "Viscous damping on inertia 2 (torque -d2*w2)",
            RotationalDamping, 10.0).min(0.0),
        clutch_w1_start(0.0), clutch_w2_start(0.0), clutch_internal_step(1e-3),
    };

    // The drive torque and the capacity linear over a step; the damping
    // torque is taken at each internal step's start.
    const INPUT_DERIVATIVES: &'static [InputDerivative<Self>] = &[
        InputDerivative { input: "tau_drive", get: |m| m.drive_slope, set: |m, x| m.drive_slope = x },
        InputDerivative { input: "tau_capacity", get: |m| m.capacity_slope, set: |m, x| m.capacity_slope = x },
    ];

    // Model Exchange: the clutch of ClutchPlant, the damping now (not held).
    const HYBRID: Option<Hybrid<Self>> = Some(Self::CLUTCH_HYBRID);

    fn max_substep(&self) -> f64 {
        self.two.internal_step
    }

    fn initialize(&mut self) {
        let torques = (self.drive_torque, -self.damping * self.two.rate2_start);
        self.two.start(torques, self.capacity);
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let damping_torque = -self.damping * self.two.clutch.rate2;
        let torques = (self.drive_torque, damping_torque);
        self.two.step(torques, (self.drive_slope, 0.0), (self.capacity, self.capacity_slope), dt, on_transition);
    }

    #[inline]
    fn step_to_event(&mut self, dt: f64, earliest: f64, on_transition: &mut dyn FnMut(Transition)) -> Option<f64> {
        let damping_torque = -self.damping * self.two.clutch.rate2;
        let torques = (self.drive_torque, damping_torque);
        let (slopes, capacity) = ((self.drive_slope, 0.0), (self.capacity, self.capacity_slope));
        self.two.step_to_event(torques, slopes, capacity, dt, earliest, on_transition)
    }

    /// The damping torque held over the next internal step may take the
    /// sticking torque past the capacity: the lock breaks now.
    fn settle(&mut self, on_transition: &mut dyn FnMut(Transition)) -> bool {
        let torques = (self.drive_torque, -self.damping * self.two.clutch.rate2);
        self.two.settle(torques, self.capacity, on_transition)
    }
}
