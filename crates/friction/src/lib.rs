//! Dry-friction laws and the mechanical plants they act in.
//!
//! Pure Rust: this crate knows nothing of FMI, FFI or XML. Each friction law
//! advances the rate of a body over one fixed integration interval, because
//! that is where the classic algorithms differ: the conventional sign-function
//! model (Hill, Fig. 1) sees only the rate at the start of the interval, while
//! Hill's predictive algorithm (Hill, Eqs. 1-6) looks ahead to a zero crossing
//! inside it.
//!
//! The sources are in three folders around the shared [`vocabulary`]:
//! - [`laws`]: the friction laws (Coulomb, Hill, exact static + Coulomb,
//!   Stribeck's maps, Majd-Simaan, Dahl, LuGre, Borello's load-dependent law);
//! - [`plants`]: the mechanical plants they act in (servos, clutches, drives);
//! - [`integrators`]: how a body is stepped (one inertia, a body on a shaft).
//!
//! Every module is also reachable at the root (`friction::hill`,
//! `friction::shaft_load`, ...), and the main types are re-exported here.

#![forbid(unsafe_code)]

pub mod integrators;
pub mod laws;
pub mod plants;
pub mod vocabulary;

pub use integrators::{inertia, shaft_load};
pub use laws::{coulomb, dahl, exact, hill, load_dependent, lugre, majd_simaan, smooth, stribeck};
pub use plants::{
    antenna, clutch, clutch_chain, cmg_gimbal, compliant_drive, flap_actuator, motor_drive, shaft_clutch,
};

pub use integrators::inertia::{FrictionInertia, Motion, StickSlipContact};
pub use integrators::shaft_load::{DriveEnd, Shaft, ShaftLoad, ShaftStep, TorqueDriven, SUBSTEP_LIMIT};
pub use laws::coulomb::ConventionalCoulomb;
pub use laws::dahl::Dahl;
pub use laws::exact::ExactStaticCoulomb;
pub use laws::hill::HillFriction;
pub use laws::load_dependent::{LoadDependentFriction, StepCondition, UnderLoad};
pub use laws::majd_simaan::{MajdSimaan, SigmaMethod};
pub use laws::smooth::VelocityMap;
pub use laws::stribeck::{ClassicalFriction, ClassicalShape};
pub use plants::antenna::{AntennaServo, AntennaServoDesign, AxisFriction};
pub use plants::clutch::TwoInertiaClutch;
pub use plants::clutch_chain::{ClutchChain, ClutchMode};
pub use plants::cmg_gimbal::GimbalRateLoop;
pub use plants::compliant_drive::{CompliantDrive, DriveInputs};
pub use plants::flap_actuator::FlapActuatorServo;
pub use plants::motor_drive::{MotorDrive, ShaftCoupling};
pub use plants::shaft_clutch::{settle_lock, step_between_shafts, ClutchImpulses};
pub use vocabulary::{sign, substep_count, Advance, Interval, RigidBodyFriction};
