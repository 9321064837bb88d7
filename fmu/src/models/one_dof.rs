//! The interface every 1-DOF friction FMU shares: one inertia, an applied
//! torque, a friction law. An engineer swaps laws by swapping the FMU.

use crate::description::{Experiment, ModelInfo, Quantity, Variable};
use crate::model::{Model, Transition};
use friction::{sign, FrictionInertia, Motion, RigidBodyFriction};
use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// A friction law that fits the 1-DOF interface.
pub trait InertiaLaw: RigidBodyFriction + Clone + Default + Send + Serialize + DeserializeOwned + 'static {
    const INFO: ModelInfo;
    /// Default internal step (s).
    const DEFAULT_STEP: f64;
    fn configure(static_torque: f64, coulomb_torque: f64) -> Self;
}

/// Default experiment of the 1-DOF FMUs: coasting from `w_start` = 1 rad/s
/// to rest (at t = J*w_start/F_c = 1 s), then resting with no applied torque.
pub const COAST_EXPERIMENT: Experiment = Experiment { start_time: 0.0, stop_time: 2.0, step_size: 0.01 };

/// Inertia `J` with angle `phi`, rate `w` under applied torque `tau` and the
/// friction law `L`: `J*dw/dt = tau + tau_friction`.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct FrictionInertiaModel<L> {
    applied_torque: f64,
    inertia: f64,
    coulomb_torque: f64,
    static_torque: f64,
    rate_start: f64,
    angle_start: f64,
    internal_step: f64,
    body: FrictionInertia<L>,
}

impl<L: InertiaLaw> Model for FrictionInertiaModel<L> {
    const INFO: ModelInfo = L::INFO;
    const VARIABLES: &'static [Variable<Self>] = &[
        Variable::<Self>::real_input("tau", "Applied torque on the inertia", Quantity::Torque, 0.0, |m| m.applied_torque, |m, x| m.applied_torque = x),
        Variable::<Self>::real_output("phi", "Angle of the inertia", Quantity::Angle, |m| m.body.angle).display("deg"),
        Variable::<Self>::real_output("w", "Rate (angular velocity) of the inertia; exactly 0 while stuck", Quantity::AngularVelocity, |m| m.body.rate).display("deg/s"),
        Variable::<Self>::real_output(
            "tau_friction",
            "Effective friction torque on the inertia over the last internal step (Hill's T_f): J*dw/dt = tau + tau_friction",
            Quantity::Torque,
            |m| m.body.friction_torque,
        ),
        Variable::<Self>::integer_output("mode", "Motion: -1 sliding backward, 0 stuck, +1 sliding forward", -1, 1, |m| m.body.motion().as_i32()),
        Variable::<Self>::real_parameter("J", "Moment of inertia J (> 0)", Quantity::Inertia, 1.0, |m| m.inertia, |m, x| m.inertia = x).positive(),
        Variable::<Self>::real_parameter("tau_coulomb", "Coulomb (sliding) friction torque F_c", Quantity::Torque, 1.0, |m| m.coulomb_torque, |m, x| m.coulomb_torque = x).min(0.0),
        Variable::<Self>::real_parameter(
            "tau_static",
            "Static (breakaway) friction torque F_s, >= tau_coulomb; the conventional model ignores it",
            Quantity::Torque,
            1.2,
            |m| m.static_torque,
            |m, x| m.static_torque = x,
        )
        .min(0.0),
        Variable::<Self>::real_parameter("w_start", "Rate at the start time", Quantity::AngularVelocity, 1.0, |m| m.rate_start, |m, x| m.rate_start = x),
        Variable::<Self>::real_parameter("phi_start", "Angle at the start time", Quantity::Angle, 0.0, |m| m.angle_start, |m, x| m.angle_start = x),
        Variable::<Self>::real_parameter(
            "internal_step",
            "Longest internal integration step t_i; doStep splits a communication step into such steps and shortens the last",
            Quantity::Time,
            L::DEFAULT_STEP,
            |m| m.internal_step,
            |m, x| m.internal_step = x,
        )
        .positive(),
    ];

    fn max_substep(&self) -> f64 {
        self.internal_step
    }

    fn check(&self) -> Result<(), String> {
        if self.static_torque < self.coulomb_torque {
            return Err(format!(
                "tau_static = {} N.m is below tau_coulomb = {} N.m: static friction must be >= Coulomb friction",
                self.static_torque, self.coulomb_torque
            ));
        }
        Ok(())
    }

    fn initialize(&mut self) {
        let law = L::configure(self.static_torque, self.coulomb_torque);
        self.body = FrictionInertia::new(law, self.inertia, self.angle_start, self.rate_start);
        // Before the first step: sliding friction if moving, none at rest
        // (`0.0 -` gives +0.0 rather than -0.0 at rest).
        self.body.friction_torque = 0.0 - self.coulomb_torque * sign(self.rate_start);
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let before = self.body.motion();
        self.body.step(self.applied_torque, dt);
        let after = self.body.motion();
        if after != before {
            on_transition(Transition {
                what: "mode",
                from: before.as_i32(),
                to: after.as_i32(),
                meaning: match after {
                    Motion::Stuck => "stuck",
                    Motion::Forward => "sliding forward",
                    Motion::Backward => "sliding backward",
                },
            });
        }
    }
}
