//! `LoadDependentFrictionInertia`: Borello & Dalla Vedova's load-dependent
//! dry friction with efficiencies, viscous damping and hard stops (Table 1).

use crate::description::{Experiment, ModelInfo, Quantity, Variable};
use crate::model::{Model, Transition};
use friction::{LoadDependentFriction, Motion};
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct LoadDependentFrictionInertia {
    motor_torque: f64,
    load_torque: f64,
    angle_start: f64,
    rate_start: f64,
    internal_step: f64,
    element: LoadDependentFriction,
}

impl Model for LoadDependentFrictionInertia {
    const INFO: ModelInfo = ModelInfo {
        identifier: "LoadDependentFrictionInertia",
        description:
            "Rigid element with load-dependent dry friction (Borello & Dalla Vedova, Eqs. 3-4 and Table 1): friction \
                      TFR0 + (1/EtO - 1)|TLD| with opposing load, TFR0 + (1 - EtA)|TLD| with aiding load (EtA <= 0: \
                      irreversible), static/dynamic ratio FSD, viscous CM, plastic hard stops at +-XJM; default: a \
                      reversible transmission back-driven by its load into the lower stop",
        default_experiment: Experiment { start_time: 0.0, stop_time: 2.0, step_size: 0.01 },
    };
    const VARIABLES: &'static [Variable<Self>] = &[
        Variable::<Self>::real_input(
            "tau_motor",
            "Motor (driving) torque TM",
            Quantity::Torque,
            0.0,
            |m| m.motor_torque,
            |m, x| m.motor_torque = x,
        ),
        Variable::<Self>::real_input(
            "tau_load",
            "External load TLD; positive pushes towards negative angles (Act = TM - TLD - CM*w)",
            Quantity::Torque,
            5.0,
            |m| m.load_torque,
            |m, x| m.load_torque = x,
        ),
        Variable::<Self>::real_output("phi", "Angle XJ, within [-stop_angle, stop_angle]", Quantity::Angle, |m| {
            m.element.angle
        })
        .display("deg"),
        Variable::<Self>::real_output(
            "w",
            "Rate DXJ; exactly 0 while stuck or at a stop",
            Quantity::AngularVelocity,
            |m| m.element.rate,
        )
        .display("deg/s"),
        Variable::<Self>::real_output(
            "tau_friction",
            "Friction torque on the element in the last internal step (-TFR)",
            Quantity::Torque,
            |m| 0.0 - m.element.friction,
        ),
        Variable::<Self>::integer_output("mode", "Motion: -1 backward, 0 stuck, +1 forward", -1, 1, |m| {
            Motion::of_rate(m.element.rate).as_i32()
        }),
        Variable::<Self>::real_parameter(
            "J",
            "Moment of inertia JM",
            Quantity::Inertia,
            1.0,
            |m| m.element.inertia,
            |m, x| m.element.inertia = x,
        )
        .positive(),
        Variable::<Self>::real_parameter(
            "tau_friction0",
            "Load-independent friction TFR0",
            Quantity::Torque,
            1.0,
            |m| m.element.base_friction,
            |m, x| m.element.base_friction = x,
        )
        .min(0.0),
        Variable::<Self>::real_parameter(
            "eta_opposing",
            "Efficiency with opposing load EtO, in (0, 1]",
            Quantity::Ratio,
            0.8,
            |m| m.element.eta_opposing,
            |m, x| m.element.eta_opposing = x,
        )
        .positive()
        .max(1.0),
        Variable::<Self>::real_parameter(
            "eta_aiding",
            "Efficiency with aiding load EtA, <= 1: 0..1 reversible, <= 0 irreversible (the paper uses -0.2 and -0.4)",
            Quantity::Ratio,
            0.7,
            |m| m.element.eta_aiding,
            |m, x| m.element.eta_aiding = x,
        )
        .max(1.0),
        Variable::<Self>::real_parameter(
            "static_ratio",
            "Static to dynamic friction ratio FSD, >= 1",
            Quantity::Ratio,
            1.2,
            |m| m.element.static_ratio,
            |m, x| m.element.static_ratio = x,
        )
        .min(1.0),
        Variable::<Self>::real_parameter(
            "viscous",
            "Viscous coefficient CM",
            Quantity::RotationalDamping,
            0.1,
            |m| m.element.viscous,
            |m, x| m.element.viscous = x,
        )
        .min(0.0),
        Variable::<Self>::real_parameter(
            "stop_angle",
            "Hard stops at +-XJM",
            Quantity::Angle,
            1.0,
            |m| m.element.stop,
            |m, x| m.element.stop = x,
        )
        .positive(),
        Variable::<Self>::real_parameter(
            "phi_start",
            "Angle at the start time",
            Quantity::Angle,
            0.0,
            |m| m.angle_start,
            |m, x| m.angle_start = x,
        ),
        Variable::<Self>::real_parameter(
            "w_start",
            "Rate at the start time",
            Quantity::AngularVelocity,
            0.0,
            |m| m.rate_start,
            |m, x| m.rate_start = x,
        ),
        Variable::<Self>::internal_step(1e-3, |m| m.internal_step, |m, x| m.internal_step = x),
    ];

    fn max_substep(&self) -> f64 {
        self.internal_step
    }

    fn check(&self) -> Result<(), String> {
        if self.angle_start.abs() > self.element.stop {
            return Err(format!(
                "phi_start = {} rad rejected: it lies outside the stops +-stop_angle = +-{} rad",
                self.angle_start, self.element.stop
            ));
        }
        Ok(())
    }

    fn initialize(&mut self) {
        self.element.angle = self.angle_start;
        self.element.rate = self.rate_start;
        self.element.friction = 0.0;
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let before = Motion::of_rate(self.element.rate);
        // Table 1's law integrated exactly (its Euler step delays breakaways
        // and stops by up to a step; FlapActuatorServo keeps it, as the
        // paper's figures use it).
        self.element.step_exact(self.motor_torque, self.load_torque, dt);
        if let Some(t) = Transition::of_motion(before, Motion::of_rate(self.element.rate)) {
            on_transition(t);
        }
    }
}
