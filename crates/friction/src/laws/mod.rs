//! The friction laws: what a dry-friction contact does to a body's rate over
//! one integration interval. Each law implements
//! [`RigidBodyFriction`](crate::vocabulary::RigidBodyFriction) (the velocity
//! maps of [`smooth`] through its linearly implicit step); they differ in how
//! they treat the stop and the breakaway, which is what the papers compare.
//!
//! Kept apart from the plants and the integrators so that the laws can be
//! read, tested and compared on their own, the one thing that changes
//! between the conventional model, Hill's algorithm and the later models.
//! Two laws carry more than the contact: [`load_dependent`] holds its
//! element (inertia, end stops), as Borello's Table 1 does, and [`exact`]
//! also holds the closed-form root the plants and integrators share.

pub mod coulomb;
pub mod dahl;
pub mod exact;
pub mod hill;
pub mod load_dependent;
pub mod lugre;
pub mod majd_simaan;
pub mod smooth;
pub mod stribeck;
