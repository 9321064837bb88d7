//! The mechanical plants the laws act in: the papers' servos and drives
//! (antenna azimuth servo, CMG gimbal rate loop, flap actuator), the clutches
//! and clutch chains, and the motor and compliant drives that couple to a
//! friction body through a shaft.
//!
//! Kept apart from the laws because a plant is a whole system (loops,
//! actuators, several bodies) built around one friction law or clutch: it
//! uses the laws, and no law needs it.

pub mod antenna;
pub mod clutch;
pub mod clutch_chain;
pub mod cmg_gimbal;
pub mod compliant_drive;
pub mod flap_actuator;
pub mod motor_drive;
pub mod shaft_clutch;
