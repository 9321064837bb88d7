//! The shared two-inertia clutch interface: what `ClutchStickSlip` and
//! `TwoInertiaClutch` (any plant of two inertias and the exact clutch of
//! `friction::TwoInertiaClutch`) have in common: the clutch and its start
//! state, the lock/unlock event, and their variables, declared once here.
//!
//! A plant holds a [`TwoInertia`], implements [`HasTwoInertia`], and lists
//! the shared variables it exports in its own `variables!`, in its own order
//! (e.g. `clutch_w1()`, `clutch_j1()`), beside its inputs.

use crate::description::{Access, Quantity, Variable};
use crate::model::{Hybrid, State, Transition};
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
    /// Model Exchange: the sense of the slip while unlocked (+1: w1 > w2),
    /// a discrete state changed only at events, as `clutch.locked` is.
    pub slip_sense: f64,
}

impl TwoInertia {
    /// Both inertias at their start rates under the torques and capacity
    /// at the start: locked if the rates are equal and the clutch can carry
    /// the sticking torque (what Model Exchange's initial event decides, so
    /// that both interfaces report it at t = 0).
    pub fn start(&mut self, (torque1, torque2): (f64, f64), capacity: f64) {
        let (j1, j2) = (self.clutch.inertia1, self.clutch.inertia2);
        self.clutch = Clutch::new(j1, j2, self.rate1_start, self.rate2_start);
        self.clutch.locked =
            self.rate1_start == self.rate2_start && self.clutch.sticking_torque(torque1, torque2).abs() <= capacity;
        self.slip_sense = 0.0;
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
        let event = self.clutch.step_ramps(torque1, torque2, slope1, slope2, capacity, capacity_slope, dt);
        if let Some(t) = Transition::of_lock(before, self.clutch.locked) {
            on_transition(t.at(event));
        }
    }
}

impl TwoInertia {
    /// A lock that the torques and capacity now break is released now (the
    /// rates stay equal; the next step slips from here): what the next
    /// step would find at its start. Whether it broke.
    pub fn settle(
        &mut self,
        (torque1, torque2): (f64, f64),
        capacity: f64,
        on_transition: &mut dyn FnMut(Transition),
    ) -> bool {
        let c = &mut self.clutch;
        if !(c.locked && c.sticking_torque(torque1, torque2).abs() > capacity) {
            return false;
        }
        c.locked = false;
        on_transition(Transition::of_lock(true, false).expect("a change"));
        true
    }

    /// [`TwoInertia::step`] that stops right after a lock or unlock at or
    /// after `earliest` (early return, see `Model::step_to_event`): where it
    /// stopped, `None` without a transition or with one only at the start.
    #[inline]
    pub fn step_to_event(
        &mut self,
        torques: (f64, f64),
        slopes: (f64, f64),
        capacity: (f64, f64),
        dt: f64,
        earliest: f64,
        on_transition: &mut dyn FnMut(Transition),
    ) -> Option<f64> {
        let before = self.clutch.locked;
        let (event, taken) = self.clutch.step_ramps_to_event(torques, slopes, capacity, dt, earliest, before);
        let transition = Transition::of_lock(before, self.clutch.locked);
        crate::model::report_stop(transition, (event, taken), dt, earliest, on_transition)
    }
}

/// A plant built on [`TwoInertia`].
pub trait HasTwoInertia {
    fn two(&self) -> &TwoInertia;
    fn two_mut(&mut self) -> &mut TwoInertia;
}

/// Model Exchange of a two-inertia clutch plant, in the form of Modelica's
/// clutch: locked (w1 == w2 exactly, one acceleration, the clutch carrying
/// the sticking torque T_s = (T1*J2 - T2*J1)/(J1 + J2)) or slipping in a
/// sense (the clutch carrying capacity*sense). Events: unlock when |T_s|
/// passes the capacity; lock (both rates set to the common one that
/// conserves momentum) or reverse when the slip speed crosses 0.
pub trait ClutchPlant: HasTwoInertia + Sized + 'static {
    /// External torques on inertia 1 and 2 now (from inputs and states).
    fn torques(&self) -> (f64, f64);
    /// The clutch capacity now (>= 0).
    fn capacity(&self) -> f64;

    const CLUTCH_HYBRID: Hybrid<Self> = Hybrid {
        // Plain stores: `two_mut()` is the plant's field `two`.
        states: &[
            State::plain("phi1", |m, x| m.two_mut().clutch.angle1 = x, |m| m.two().clutch.rate1, 1.0),
            State::plain("w1", |m, x| m.two_mut().clutch.rate1 = x, |m| m.two().clutch.acceleration1, 1.0),
            State::plain("phi2", |m, x| m.two_mut().clutch.angle2 = x, |m| m.two().clutch.rate2, 1.0),
            State::plain("w2", |m, x| m.two_mut().clutch.rate2 = x, |m| m.two().clutch.acceleration2, 1.0),
        ],
        indicators: 2,
        evaluate: |m| {
            let ((t1, t2), capacity) = (m.torques(), m.capacity());
            let two = m.two_mut();
            let c = &mut two.clutch;
            let (j1, j2) = (c.inertia1, c.inertia2);
            c.clutch_torque = if c.locked { c.sticking_torque(t1, t2) } else { capacity * two.slip_sense };
            (c.acceleration1, c.acceleration2) = if c.locked {
                let a = (t1 + t2) / (j1 + j2);
                (a, a)
            } else {
                ((t1 - c.clutch_torque) / j1, (t2 + c.clutch_torque) / j2)
            };
        },
        // Locked: the margins of the capacity over T_s both ways; slipping:
        // the slip speed in its sense.
        event_indicators: |m, z| {
            let ((t1, t2), capacity) = (m.torques(), m.capacity());
            let two = m.two();
            let c = &two.clutch;
            if c.locked {
                let sticking = c.sticking_torque(t1, t2);
                (z[0], z[1]) = (capacity - sticking, capacity + sticking);
            } else {
                (z[0], z[1]) = (two.slip_sense * (c.rate1 - c.rate2), 1.0);
            }
        },
        event: |m, on_transition| {
            let ((t1, t2), capacity) = (m.torques(), m.capacity());
            let two = m.two_mut();
            let (before, sense_before) = (two.clutch.locked, two.slip_sense);
            let c = &mut two.clutch;
            let slip = c.rate1 - c.rate2;
            let sticking = c.sticking_torque(t1, t2);
            let together = c.locked || slip == 0.0 || two.slip_sense * slip < 0.0;
            // The capacity holds T_s short of a tie: the solver locates the
            // root of the margin capacity - |T_s| where it is 0 to rounding,
            // and there the clutch must break loose, not wait for the next
            // step (at a true tie slipping and holding move the same).
            if !together {
                // Slipping (from the start: in the sense of the slip).
                two.slip_sense = friction::sign(slip);
            } else if sticking.abs() < capacity * (1.0 - 4.0 * f64::EPSILON) {
                // Lock; the slip speed just crossed 0: both take the common
                // rate that conserves momentum, exactly equal from here.
                if !c.locked {
                    let common = (c.inertia1 * c.rate1 + c.inertia2 * c.rate2) / (c.inertia1 + c.inertia2);
                    (c.rate1, c.rate2) = (common, common);
                }
                c.locked = true;
                two.slip_sense = 0.0;
            } else {
                // Break loose, or reverse, in the sense T_s drives the slip.
                c.locked = false;
                two.slip_sense = friction::sign(sticking);
            }
            if let Some(t) = Transition::of_lock(before, two.clutch.locked) {
                on_transition(t);
            }
            before != two.clutch.locked || sense_before != two.slip_sense
        },
    };
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
        let description = "Clutch torque from inertia 1 to inertia 2: Co-Simulation, averaged over the last internal \
            step; Model Exchange, now";
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
