//! `CompliantDrive`: a frictionless plant to couple with a 1-DOF friction
//! FMU — a motor (torque command plus an optional speed loop) turning the
//! load through a compliant shaft; the load's angle and rate come in, the
//! shaft torque on the load goes out (see `friction::compliant_drive`).

use crate::description::{Experiment, ModelInfo, Quantity, Variable};
use crate::model::{Model, Transition};
use friction::{CompliantDrive as Drive, DriveInputs};
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct CompliantDrive {
    inputs: DriveInputs,
    angle_start: f64,
    rate_start: f64,
    internal_step: f64,
    drive: Drive,
}

impl Default for CompliantDrive {
    fn default() -> Self {
        Self {
            inputs: DriveInputs { motor_torque: 1.0, ..Default::default() },
            angle_start: 0.0,
            rate_start: 0.0,
            internal_step: 0.01,
            drive: Drive {
                motor_inertia: 0.01,
                speed_gain: 0.0,
                shaft_stiffness: 10.0,
                shaft_damping: 0.1,
                ..Default::default()
            },
        }
    }
}

impl Model for CompliantDrive {
    const INFO: ModelInfo = ModelInfo {
        identifier: "CompliantDrive",
        description: "Frictionless motor and compliant shaft, to drive a 1-DOF friction FMU: J_motor*dw_motor/dt = \
                      tau_motor + speed_gain*(w_command - w_motor) - tau_shaft, tau_shaft = k_shaft*(phi_motor - \
                      phi_load) + d_shaft*(w_motor - w_load); connect tau_shaft to the friction FMU's tau and its phi, \
                      w to phi_load, w_load; solved exactly for inputs held over the step (any step); default: 1 N.m \
                      against a still load, a damped 5 Hz wind-up",
        default_experiment: Experiment { start_time: 0.0, stop_time: 2.0, step_size: 0.004 },
    };
    const VARIABLES: &'static [Variable<Self>] = &[
        Variable::<Self>::real_input(
            "tau_motor",
            "Motor torque command (feed-forward)",
            Quantity::Torque,
            1.0,
            |m| m.inputs.motor_torque,
            |m, x| m.inputs.motor_torque = x,
        ),
        Variable::<Self>::real_input(
            "w_command",
            "Speed command of the proportional speed loop (no effect with speed_gain = 0)",
            Quantity::AngularVelocity,
            0.0,
            |m| m.inputs.speed_command,
            |m, x| m.inputs.speed_command = x,
        ),
        Variable::<Self>::real_input(
            "phi_load",
            "Angle of the load at the far end of the shaft (connect the friction FMU's phi)",
            Quantity::Angle,
            0.0,
            |m| m.inputs.load_angle,
            |m, x| m.inputs.load_angle = x,
        ),
        Variable::<Self>::real_input(
            "w_load",
            "Rate of the load (connect the friction FMU's w)",
            Quantity::AngularVelocity,
            0.0,
            |m| m.inputs.load_rate,
            |m, x| m.inputs.load_rate = x,
        ),
        Variable::<Self>::real_output(
            "tau_shaft",
            "Torque the shaft applies to the load at the end of the step (connect to the friction FMU's tau)",
            Quantity::Torque,
            |m| m.drive.shaft_torque,
        ),
        Variable::<Self>::real_output("phi_motor", "Motor angle", Quantity::Angle, |m| m.drive.motor_angle)
            .display("deg"),
        Variable::<Self>::real_output("w_motor", "Motor rate", Quantity::AngularVelocity, |m| m.drive.motor_rate)
            .display("rpm"),
        Variable::<Self>::real_parameter(
            "J_motor",
            "Motor (rotor) inertia",
            Quantity::Inertia,
            0.01,
            |m| m.drive.motor_inertia,
            |m, x| m.drive.motor_inertia = x,
        )
        .positive(),
        Variable::<Self>::real_parameter(
            "speed_gain",
            "Proportional speed-loop gain K_v: motor torque K_v*(w_command - w_motor) added to tau_motor; 0 = torque drive",
            Quantity::RotationalDamping,
            0.0,
            |m| m.drive.speed_gain,
            |m, x| m.drive.speed_gain = x,
        )
        .min(0.0),
        Variable::<Self>::real_parameter(
            "k_shaft",
            "Shaft torsional stiffness",
            Quantity::RotationalStiffness,
            10.0,
            |m| m.drive.shaft_stiffness,
            |m, x| m.drive.shaft_stiffness = x,
        )
        .positive(),
        Variable::<Self>::real_parameter(
            "d_shaft",
            "Shaft torsional damping",
            Quantity::RotationalDamping,
            0.1,
            |m| m.drive.shaft_damping,
            |m, x| m.drive.shaft_damping = x,
        )
        .min(0.0),
        Variable::<Self>::real_parameter(
            "phi_motor_start",
            "Motor angle at the start time",
            Quantity::Angle,
            0.0,
            |m| m.angle_start,
            |m, x| m.angle_start = x,
        ),
        Variable::<Self>::real_parameter(
            "w_motor_start",
            "Motor rate at the start time",
            Quantity::AngularVelocity,
            0.0,
            |m| m.rate_start,
            |m, x| m.rate_start = x,
        ),
        Variable::<Self>::internal_step(0.01, |m| m.internal_step, |m, x| m.internal_step = x),
    ];

    fn max_substep(&self) -> f64 {
        self.internal_step
    }

    fn initialize(&mut self) {
        self.drive.motor_angle = self.angle_start;
        self.drive.motor_rate = self.rate_start;
        self.drive.shaft_torque = self.drive.shaft_torque_for(self.inputs.load_angle, self.inputs.load_rate);
    }

    #[inline]
    fn step(&mut self, dt: f64, _on_transition: &mut dyn FnMut(Transition)) {
        self.drive.step(self.inputs, dt);
    }
}
