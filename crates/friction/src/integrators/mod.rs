//! How a body with a friction law is stepped: one rigid inertia under an
//! applied torque ([`inertia`], with its contact state
//! [`Motion`](inertia::Motion)), and a body at the far end of a compliant
//! shaft whose drive end moves over the step ([`shaft_load`]: the shaft
//! port, its substep rule and the exact static + Coulomb load).
//!
//! Kept apart from the laws because stepping is a separate question from the
//! contact: any law plugs into these integrators through
//! [`RigidBodyFriction`](crate::vocabulary::RigidBodyFriction) or
//! [`TorqueDriven`](shaft_load::TorqueDriven).

pub mod inertia;
pub mod shaft_load;
