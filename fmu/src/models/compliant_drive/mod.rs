//! `CompliantDrive`: a frictionless plant to couple with a 1-DOF friction
//! FMU — a motor (torque command plus an optional speed loop) turning the
//! load through a compliant shaft; the load's angle and rate come in, the
//! shaft torque on the load goes out (see `friction::compliant_drive`).

mod behaviour;
mod system;

use crate::description::{field, variables, Experiment, ModelInfo, Variable};
use crate::equations::eq;
use crate::model::{Hybrid, Model, Transition};
use crate::model::states;
use friction::{CompliantDrive as Drive, DriveInputs};
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct CompliantDrive {
    inputs: DriveInputs,
    angle_start: f64,
    rate_start: f64,
    internal_step: f64,
    drive: Drive,
    /// d(w_motor)/dt now (Model Exchange).
    acceleration: f64,
}

impl Default for CompliantDrive {
    fn default() -> Self {
        Self {
            inputs: DriveInputs { motor_torque: 0.9, ..Default::default() },
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
            acceleration: 0.0,
        }
    }
}

impl Model for CompliantDrive {
    const INFO: ModelInfo = ModelInfo::new("CompliantDrive", Experiment::new(0.0, 2.0, 0.004))
        .expects(behaviour::BEHAVIOUR)
        .systems(&[system::SYSTEM])
        .equations(&[
            eq("der(phi_motor) = w_motor", "", "kinematics of the motor"),
            eq("tau_loop = speed_gain*(w_command - w_motor)", "", "proportional speed loop (speed_gain = 0: a pure \
                torque drive)"),
            eq("tau_shaft = k_shaft*(phi_motor - phi_load) + d_shaft*(w_motor - w_load)", "", "the compliant shaft, \
                a spring and damper: the torque it applies to the load (connect to the friction FMU's tau)"),
            eq("J_motor*der(w_motor) = tau_motor + tau_loop - tau_shaft", "", "Newton's law for the frictionless \
                motor; linear, solved exactly for inputs held over the step"),
        ])
        .description("\
        Frictionless motor and compliant shaft, to drive a 1-DOF friction FMU: J_motor*dw_motor/dt = tau_motor + \
        speed_gain*(w_command - w_motor) - tau_shaft, tau_shaft = k_shaft*(phi_motor - phi_load) + d_shaft*(w_motor - \
        w_load); connect tau_shaft to the friction FMU's tau and its phi, w to phi_load, w_load; solved exactly for \
        inputs held over the step (any step). Default experiment (tau_motor = 0.9 N.m on a still load): a damped 5 Hz \
        wind-up, tau_shaft peaking at 1.471 N.m and settling at 0.9 N.m, phi_motor at tau/k_shaft = 0.09 rad");
    const VARIABLES: &'static [Variable<Self>] = variables! {
        input(tau_motor = inputs.motor_torque, "Motor torque command (feed-forward); its start value 0.9 N.m is below \
            the static level of HillFrictionInertia's defaults (1.2 N.m) and its Coulomb level (1.0 N.m)", Torque, 0.9),
        input(w_command = inputs.speed_command, "Speed command of the proportional speed loop (no effect with \
            speed_gain = 0)", AngularVelocity, 0.0),
        input(phi_load = inputs.load_angle, "Angle of the load at the far end of the shaft (connect the friction FMU's \
            phi)", Angle, 0.0),
        input(w_load = inputs.load_rate, "Rate of the load (connect the friction FMU's w)", AngularVelocity, 0.0),
        output(tau_shaft = drive.shaft_torque, "Torque the shaft applies to the load (connect to the friction FMU's \
            tau): Co-Simulation, at the end of the step; Model Exchange, now", Torque),
        output(phi_motor = drive.motor_angle, "Motor angle", Angle).display("deg"),
        output(w_motor = drive.motor_rate, "Motor rate", AngularVelocity).display("rpm"),
        parameter(J_motor = drive.motor_inertia, "Motor (rotor) inertia", Inertia, 0.01).positive(),
        parameter(drive.speed_gain, "Proportional speed-loop gain K_v: motor torque K_v*(w_command - w_motor) added to \
            tau_motor; 0 = torque drive", RotationalDamping, 0.0).min(0.0),
        parameter(k_shaft = drive.shaft_stiffness, "Shaft torsional stiffness", RotationalStiffness, 10.0).positive(),
        parameter(d_shaft = drive.shaft_damping, "Shaft torsional damping", RotationalDamping, 0.1).min(0.0),
        parameter(phi_motor_start = angle_start, "Motor angle at the start time", Angle, 0.0),
        parameter(w_motor_start = rate_start, "Motor rate at the start time", AngularVelocity, 0.0),
        internal_step(0.01, field!(internal_step)),
    };

    // Model Exchange: the same linear motor and shaft as an ODE, no events.
    const HYBRID: Option<Hybrid<Self>> = Some(Hybrid {
        states: states! {
            state("phi_motor", |m, x| m.drive.motor_angle = x, |m| m.drive.motor_rate),
            state("w_motor", |m, x| m.drive.motor_rate = x, |m| m.acceleration),
        },
        indicators: 0,
        evaluate: |m| {
            let u = m.inputs;
            let d = &mut m.drive;
            d.shaft_torque = d.shaft_torque_for(u.load_angle, u.load_rate);
            m.acceleration =
                (u.motor_torque + d.speed_gain * (u.speed_command - d.motor_rate) - d.shaft_torque) / d.motor_inertia;
        },
        event_indicators: |_, _| {},
        event: |_, _| false,
    });

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
