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
pub mod lugre;
pub mod majd_simaan;
pub mod motor_drive;
pub mod shaft_clutch;
pub mod shaft_load;
pub mod smooth;
pub mod stribeck;
pub mod vocabulary;

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
pub use shaft_load::{DriveEnd, Shaft, ShaftLoad, ShaftStep, TorqueDriven, SUBSTEP_LIMIT};
pub use smooth::VelocityMap;
pub use stribeck::{ClassicalFriction, ClassicalShape};
pub use vocabulary::{sign, substep_count, Advance, Interval, RigidBodyFriction};
