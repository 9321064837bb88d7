//! `ConventionalCoulombBaseline`: an inertia with the conventional Coulomb
//! friction model integrated by explicit Euler, Hill's Fig. 1: the chattering
//! baseline the exact laws are measured against, not friction to use.
//! Co-Simulation only: its chatter is a property of the discrete-time
//! algorithm; the same law under a variable-step solver is exact Coulomb
//! friction, which `HillFrictionInertia` with `tau_static = tau_coulomb`
//! already is (in both interfaces).

mod behaviour;

use crate::bibliography;
use crate::models::one_inertia::{static_at_least_coulomb, HasLaw, LawHooks, LawInertia};
use crate::models::{BREAKAWAY_EXPERIMENT, BREAKAWAY_TORQUE};
use crate::description::{field, ModelInfo};
use crate::equations::eq;
use friction::{sign, ConventionalCoulomb};

/// The conventional model has no static level; `tau_static` is kept (and
/// checked) so that the FMU is interchangeable with `HillFrictionInertia`.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct CoulombParameters {
    pub law: ConventionalCoulomb,
    pub static_torque: f64,
}

impl friction::RigidBodyFriction for CoulombParameters {
    #[inline]
    fn advance(&mut self, applied: f64, rate: f64, inertia: f64, dt: f64) -> friction::Advance {
        self.law.advance(applied, rate, inertia, dt)
    }
}

impl LawHooks for CoulombParameters {
    fn prepare(&mut self, _rate_start: f64) {}
    fn check(&self) -> Result<(), String> {
        static_at_least_coulomb("tau_static", self.static_torque, "tau_coulomb", self.law.coulomb_torque)
    }
    fn initial_friction(&self, rate_start: f64) -> f64 {
        0.0 - self.law.coulomb_torque * sign(rate_start)
    }
    const CHATTERS: bool = true;
}

pub type ConventionalCoulombBaseline = LawInertia<CoulombParameters>;

crate::inertia_model!(
    CoulombParameters,
    ModelInfo::new("ConventionalCoulombBaseline", BREAKAWAY_EXPERIMENT).default_inputs(BREAKAWAY_TORQUE)
        .expects(behaviour::BEHAVIOUR)
        .sources(&[(&bibliography::HILL, "the conventional model, Fig. 1")])
        .equations(&[
            eq("der(phi) = w", "", "kinematics; Co-Simulation: the trapezoid rule over each internal step"),
            eq("J*der(w) = tau + tau_friction", "", "the equation of motion (Hill, Eq. 2)"),
            eq("tau_friction = -tau_coulomb*sign(w)", "", "the conventional model (Hill, Fig. 1) \
                with sign(0) = 0, so no friction at all at rest, integrated by explicit Euler at internal_step (the \
                friction from the rate at the step's start): the chatter baseline, where the body should rest its rate \
                chatters about a non-zero mean (Hill, Section I)"),
            eq("mode = sign(w)", "", "-1 backward, 0 stuck, +1 forward; 0 only where w is exactly 0, which the \
                chattering rate seldom is"),
        ])
        .description("Hill's Fig. 1 baseline, not Coulomb friction to use (for that take HillFrictionInertia \
        with tau_static = tau_coulomb: stuck at exactly w = 0 while |tau| <= tau_coulomb); Co-Simulation only, since \
        its chatter is that of the discrete-time algorithm. Inertia with \
        conventional Coulomb friction tau_f = -F_c*sign(w), sign(0) = 0, explicit Euler (Hill, Fig. 1): the baseline \
        that chatters about a non-zero mean rate when the applied torque is below the friction. Default experiment \
        (tau from ConventionalCoulombBaseline_in.csv: 0 to 2 N.m over 2 s, then 0; J = 1, F_c = 1 N.m, 1 ms internal steps): \
        where the body should rest it chatters within F_c*dt/J = 1 mrad/s of zero and creeps, never reporting mode 0 after its first step: forward \
        at a mean 0.44 mrad/s while tau < F_c (0 to 1 s), backward at F_c*dt/(2J) = 0.5 mrad/s after the stop at \
        2.49 s; it slides from tau = F_c at 1 s to 0.495 rad/s at 2 s. Without the input file tau stays 0 and the body at rest"),
    // The conventional model needs small steps to keep its chatter small.
    default_step: 1e-3,
    j_start: 1.0,
    w_start: 0.0,
    [
        parameter("tau_coulomb", "Coulomb (sliding) friction torque F_c",
            Torque, 1.0, field!(law().law.coulomb_torque)).min(0.0),
        parameter("tau_static", "Static friction torque F_s, >= tau_coulomb; the conventional model ignores it (kept \
            for interchangeability)", Torque, 1.2, field!(law().static_torque)).min(0.0),
    ]
);
