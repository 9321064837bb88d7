//! Dry-friction laws and the mechanical plants they act in.
//!
//! Pure Rust: this crate knows nothing of FMI, FFI or XML. Each friction law
//! advances the rate of a body over one fixed integration interval, because
//! that is where the classic algorithms differ: the conventional sign-function
//! model (Hill, Fig. 1) sees only the rate at the start of the interval, while
//! Hill's predictive algorithm (Hill, Eqs. 1-6) looks ahead to a zero crossing
//! inside it.

#![forbid(unsafe_code)]

pub mod antenna;
pub mod clutch;
pub mod clutch_chain;
pub mod cmg_gimbal;
pub mod compliant_drive;
pub mod coulomb;
pub mod dahl;
pub mod exact;
pub mod flap_actuator;
pub mod hill;
pub mod inertia;
pub mod load_dependent;
pub mod majd_simaan;
pub mod motor_drive;
pub mod shaft_clutch;
pub mod shaft_load;
pub mod smooth;
pub mod stribeck;

pub use antenna::{AntennaServo, AntennaServoDesign, AxisFriction};
pub use clutch::TwoInertiaClutch;
pub use clutch_chain::{ClutchChain, ClutchMode};
pub use cmg_gimbal::GimbalRateLoop;
pub use compliant_drive::{CompliantDrive, DriveInputs};
pub use coulomb::ConventionalCoulomb;
pub use dahl::Dahl;
pub use exact::ExactStaticCoulomb;
pub use flap_actuator::FlapActuatorServo;
pub use hill::HillFriction;
pub use inertia::{FrictionInertia, Motion, StickSlipContact};
pub use load_dependent::{LoadDependentFriction, StepCondition, UnderLoad};
pub use majd_simaan::{MajdSimaan, SigmaMethod};
pub use motor_drive::{MotorDrive, ShaftCoupling};
pub use shaft_clutch::{step_between_shafts, ClutchImpulses};
pub use shaft_load::{substeps, DriveEnd, Shaft, ShaftLoad, ShaftStep, TorqueDriven, SUBSTEP_LIMIT};
pub use smooth::VelocityMap;
pub use stribeck::{ClassicalFriction, ClassicalShape};

/// Signum with `sign(0) = 0`, the non-linear block of Hill's Fig. 1
/// ("zero output for zero velocity"). `f64::signum` returns 1 for +0.0.
#[inline]
pub fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// What a friction law did to a body over one integration interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Advance {
    /// Rate at the end of the interval (rad/s). Exactly `0.0` when the body sticks.
    pub rate: f64,
    /// Effective friction torque (N.m): the friction averaged over the interval,
    /// so that `inertia * (rate - rate0) / dt == applied + friction`.
    pub friction: f64,
}

/// A friction law acting on one rigid body, advanced over a fixed interval.
///
/// Laws are evaluated once per interval with the applied torque held constant
/// (zero-order hold), as in Hill's external Euler integration.
pub trait RigidBodyFriction {
    /// Advance the rate of a body of `inertia` (kg.m2) under `applied` torque
    /// (N.m) from `rate` (rad/s) over `dt` seconds.
    fn advance(&mut self, applied: f64, rate: f64, inertia: f64, dt: f64) -> Advance;

    /// Advance under the applied torque `applied + slope*s` (`0 <= s <= dt`),
    /// also returning the angle travelled. Laws without a closed form see the
    /// mean torque held over the interval, and the angle follows the
    /// trapezoid rule (exact for a constant net torque); exact laws override.
    #[inline]
    fn advance_interval(&mut self, applied: f64, slope: f64, rate: f64, inertia: f64, dt: f64) -> Interval {
        let a = self.advance(applied + 0.5 * slope * dt, rate, inertia, dt);
        Interval {
            rate: a.rate,
            friction: a.friction,
            travel: 0.5 * dt * (rate + a.rate),
            acceleration: (a.rate - rate) / dt,
        }
    }
}

/// An interval integrated with its angle (see [`RigidBodyFriction::advance_interval`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Rate at the end (rad/s); exactly `0.0` when the body sticks.
    pub rate: f64,
    /// Effective friction torque (N.m): `inertia*(rate - rate0)/dt == mean applied + friction`.
    pub friction: f64,
    /// Angle travelled over the interval (rad).
    pub travel: f64,
    /// Acceleration at the end of the interval (rad/s^2): exact laws give
    /// the derivative of the exact solution (0 while stuck); others the
    /// interval's mean.
    pub acceleration: f64,
}
