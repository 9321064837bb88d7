//! `MotorDrive`: a torque-driven plant for the shaft port — a motor inertia
//! with a proportional speed loop; the shaft's torque on it comes in, its
//! angle and rate go out (see `friction::motor_drive`). It stands for the
//! Modelica motor or gearbox a user exports with a flange-torque input.
//! With the shaft port's `k_coupling`, `d_coupling`, `phi`, `w` connected
//! it holds the shaft itself and is stable at any step (implicit coupling).

mod behaviour;

use crate::description::{variables, Experiment, ModelInfo, Variable};
use crate::equations::eq;
use crate::model::{Hybrid, Model, Transition};
use crate::model::states;
use friction::{MotorDrive as Motor, ShaftCoupling};
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct MotorDrive {
    motor_torque: f64,
    speed_command: f64,
    load_torque: f64,
    angle_start: f64,
    rate_start: f64,
    motor: Motor,
    /// The shaft to the load, when the motor holds it (implicit coupling).
    shaft: ShaftCoupling,
    /// dw/dt now (Model Exchange).
    acceleration: f64,
}

impl Default for MotorDrive {
    fn default() -> Self {
        Self {
            motor_torque: 0.0,
            speed_command: 0.5,
            load_torque: 0.0,
            angle_start: 0.0,
            rate_start: 0.0,
            motor: Motor { inertia: 0.01, speed_gain: 0.1, ..Default::default() },
            shaft: ShaftCoupling::default(),
            acceleration: 0.0,
        }
    }
}

impl Model for MotorDrive {
    const INFO: ModelInfo = ModelInfo::new("MotorDrive", Experiment::new(0.0, 1.0, 0.01))
        .expects(behaviour::BEHAVIOUR)
        .equations(&[
            eq("tau_drive = tau_motor + speed_gain*(w_command - w)", "", "motor torque: the feed-forward command \
                plus the proportional speed loop (gain K_v); speed_gain = 0 makes it a torque drive"),
            eq("der(phi) = w", "", "kinematics"),
            eq("tau_coupling = k_coupling*(phi_load - phi) + d_coupling*(w_load - w)", "", "the shaft to the load \
                when the motor holds it (implicit coupling: connect a shaft port's k_coupling, d_coupling, phi, w and \
                leave tau_load at 0); Co-Simulation: the load end moves as phi_load + w_load*(t - t0) over the step; \
                0 with k_coupling = d_coupling = 0 (default)"),
            eq("J_motor*der(w) = tau_drive + tau_load + tau_coupling", "", "rotor inertia under the motor torque and \
                the load's torque on it, positive along the rotation (plain exchange: connect a shaft port's \
                tau_shaft to tau_load); Co-Simulation: solved in closed form for inputs held over the step, exact at \
                any step"),
        ])
        .description("\
        Motor with a proportional speed loop, torque in, motion out, to drive a shaft-port friction FMU \
        (HillFrictionShaftLoad): J_motor*dw/dt = tau_motor + speed_gain*(w_command - w) + tau_load; connect phi, w \
        to the friction FMU's phi_drive, w_drive and its tau_shaft to tau_load; solved exactly for inputs held over \
        the step (any step). Under a Jacobi master the held tau_load acts explicitly: stable while \
        h*sqrt(k_shaft/J_motor) <= 0.2 for a weakly damped motor; connect the port's k_coupling, d_coupling, phi, w \
        instead (implicit coupling) and the motor holds the shaft itself, stable at any step. Default: no load, the motor spins up from rest towards w_command = 0.5 rad/s with the \
        time constant J_motor/speed_gain = 0.1 s (0.316 rad/s at 0.1 s)");
    const VARIABLES: &'static [Variable<Self>] = variables! {
        input(tau_motor = motor_torque, "Motor torque command (feed-forward)", Torque, 0.0),
        input(w_command = speed_command, "Speed command of the proportional speed loop (no effect with speed_gain = \
            0)", AngularVelocity, 0.5),
        input(tau_load = load_torque, "Torque of the load (the shaft) on the motor, positive along the rotation \
            (connect the friction FMU's tau_shaft)", Torque, 0.0),
        output(phi = motor.angle, "Motor angle (connect to the friction FMU's phi_drive)", Angle).display("deg"),
        output(w = motor.rate, "Motor rate (connect to the friction FMU's w_drive)", AngularVelocity).display("rpm"),
        parameter(J_motor = motor.inertia, "Motor (rotor) inertia", Inertia, 0.01).positive(),
        parameter(speed_gain = motor.speed_gain, "Proportional speed-loop gain K_v: motor torque K_v*(w_command - w) \
            added to tau_motor; 0 = torque drive", RotationalDamping, 0.1).min(0.0),
        parameter(phi_start = angle_start, "Motor angle at the start time", Angle, 0.0),
        parameter(w_start = rate_start, "Motor rate at the start time", AngularVelocity, 0.0),
        input(phi_load = shaft.far_angle, "Angle of the load end of the shaft, implicit coupling (connect a shaft \
            port's phi); it moves as phi_load + w_load*(t - t0) over the step", Angle, 0.0),
        input(w_load = shaft.far_rate, "Rate of the load end of the shaft, implicit coupling (connect a shaft port's \
            w)", AngularVelocity, 0.0),
        input(k_coupling = shaft.stiffness, "Stiffness of the shaft to the load, implicit coupling (connect a shaft \
            port's k_coupling); 0 with d_coupling = 0: no shaft here, the load acts through tau_load only",
            RotationalStiffness, 0.0).min(0.0),
        input(d_coupling = shaft.damping, "Damping of the shaft to the load, implicit coupling (connect a shaft \
            port's d_coupling)", RotationalDamping, 0.0).min(0.0),
    };

    // Model Exchange: the same motor as an ODE, no events.
    const HYBRID: Option<Hybrid<Self>> = Some(Hybrid {
        states: states! {
            state("phi", |m, x| m.motor.angle = x, |m| m.motor.rate),
            state("w", |m, x| m.motor.rate = x, |m| m.acceleration),
        },
        indicators: 0,
        evaluate: |m| {
            let drive = m.motor_torque
                + m.motor.speed_gain * (m.speed_command - m.motor.rate)
                + m.load_torque
                + m.shaft.torque(m.motor.angle, m.motor.rate, 0.0);
            m.acceleration = drive / m.motor.inertia;
        },
        event_indicators: |_, _| {},
        event: |_, _| false,
    });

    /// Exact for held inputs over any step: one internal step per communication step.
    fn max_substep(&self) -> f64 {
        f64::INFINITY
    }

    fn initialize(&mut self) {
        self.motor.angle = self.angle_start;
        self.motor.rate = self.rate_start;
    }

    #[inline]
    fn step(&mut self, dt: f64, _on_transition: &mut dyn FnMut(Transition)) {
        self.motor.step_coupled(self.motor_torque, self.speed_command, self.load_torque, &self.shaft, dt);
    }
}
