//! The shared two-inertia clutch interface: what `ClutchStickSlip` and
//! `TwoInertiaClutch` (any plant of two inertias and the exact clutch of
//! `friction::TwoInertiaClutch`) have in common: the clutch and its start
//! state, the lock/unlock event, and their variables, declared once here.
//!
//! A plant holds a [`TwoInertia`], implements [`HasTwoInertia`], and lists
//! the shared variables it exports in its own `variables!`, in its own order
//! (e.g. `clutch_w1()`, `clutch_j1()`), beside its inputs.

use crate::description::{Access, Quantity, Variable};
use crate::model::Transition;
use friction::TwoInertiaClutch as Clutch;
use serde::{Deserialize, Serialize};

/// The clutch between the two inertias and its start state.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct TwoInertia {
    pub rate1_start: f64,
    pub rate2_start: f64,
    pub internal_step: f64,
    /// `clutch.inertia1` and `clutch.inertia2` are the parameters `J1`, `J2`.
    pub clutch: Clutch,
}

impl TwoInertia {
    /// Both inertias at their start rates (the clutch locked if they are equal).
    pub fn start(&mut self) {
        let (j1, j2) = (self.clutch.inertia1, self.clutch.inertia2);
        self.clutch = Clutch::new(j1, j2, self.rate1_start, self.rate2_start);
    }

    /// The torques on inertia 1 and 2 and the clutch capacity linear over
    /// `dt` (`value + slope*t`); reports a lock or unlock.
    #[inline]
    pub fn step(
        &mut self,
        (torque1, torque2): (f64, f64),
        (slope1, slope2): (f64, f64),
        (capacity, capacity_slope): (f64, f64),
        dt: f64,
        on_transition: &mut dyn FnMut(Transition),
    ) {
        let before = self.clutch.locked;
        self.clutch.step_ramps(torque1, torque2, slope1, slope2, capacity, capacity_slope, dt);
        if let Some(t) = Transition::of_lock(before, self.clutch.locked) {
            on_transition(t);
        }
    }
}

/// A plant built on [`TwoInertia`].
pub trait HasTwoInertia {
    fn two(&self) -> &TwoInertia;
    fn two_mut(&mut self) -> &mut TwoInertia;
}

/// `(get, set)` of a [`TwoInertia`] field, e.g. `two!(clutch.inertia1)`.
macro_rules! two {
    ($($path:tt)+) => {
        (|m| m.two().$($path)+, |m, x| m.two_mut().$($path)+ = x)
    };
}

/// The shared variables, one constructor each (used inside `variables!`).
impl<M: HasTwoInertia> Variable<M> {
    pub const fn clutch_phi1() -> Self {
        Self::output("phi1", "Angle of inertia 1", Quantity::Angle, |m| m.two().clutch.angle1).display("deg")
    }
    pub const fn clutch_w1() -> Self {
        Self::output("w1", "Rate of inertia 1", Quantity::AngularVelocity, |m| m.two().clutch.rate1).display("rpm")
    }
    pub const fn clutch_phi2() -> Self {
        Self::output("phi2", "Angle of inertia 2", Quantity::Angle, |m| m.two().clutch.angle2).display("deg")
    }
    pub const fn clutch_w2() -> Self {
        let w2 = |m: &M| m.two().clutch.rate2;
        Self::output("w2", "Rate of inertia 2; equals w1 exactly while locked", Quantity::AngularVelocity, w2)
            .display("rpm")
    }
    pub const fn clutch_torque() -> Self {
        let description = "Clutch torque from inertia 1 to inertia 2, averaged over the last internal step";
        Self::output("tau_clutch", description, Quantity::Torque, |m| m.two().clutch.clutch_torque)
    }
    pub const fn clutch_locked() -> Self {
        Self::boolean_output("locked", "The clutch is locked (sticking)", |m| m.two().clutch.locked)
    }
    pub const fn clutch_j1() -> Self {
        Self::parameter("J1", "Moment of inertia 1", Quantity::Inertia, 1.0, two!(clutch.inertia1)).positive()
    }
    pub const fn clutch_j2() -> Self {
        Self::parameter("J2", "Moment of inertia 2", Quantity::Inertia, 1.0, two!(clutch.inertia2)).positive()
    }
    pub const fn clutch_w1_start(start: f64) -> Self {
        let access: Access<M, f64> = two!(rate1_start);
        Self::parameter("w1_start", "Rate of inertia 1 at the start time", Quantity::AngularVelocity, start, access)
    }
    pub const fn clutch_w2_start(start: f64) -> Self {
        let access: Access<M, f64> = two!(rate2_start);
        Self::parameter("w2_start", "Rate of inertia 2 at the start time", Quantity::AngularVelocity, start, access)
    }
    pub const fn clutch_internal_step(default: f64) -> Self {
        Self::internal_step(default, two!(internal_step))
    }
}
