//! `HillFrictionInertia`: an inertia with static + Coulomb friction, integrated
//! exactly (default) or with Hill's published predictive algorithm.

mod behaviour;

use crate::bibliography;
use crate::models::one_inertia::{static_at_least_coulomb, HasLaw, LawHooks, LawInertia};
use crate::models::{BREAKAWAY_EXPERIMENT, BREAKAWAY_TORQUE};
use crate::description::{choice_field, enumeration, field, ModelInfo};
use crate::equations::eq;
use friction::{sign, Advance, ExactStaticCoulomb, HillFriction, Interval, RigidBodyFriction};
use serde::{Deserialize, Serialize};

enumeration! {
    pub INTEGRATION: enum Integration = "HillIntegration",
        "How the static + Coulomb law is integrated over an internal step" {
        Exact = 0, "exact", "exact event-located integration: stops, reversals and breakaways found inside the step, \
            rate and angle exact";
        HillPublished = 1, "hill_published", "Hill's published predictive algorithm (Eqs. 1-6, block Y22): the stop \
            spreads over the step";
    }
}

/// Hill's static and Coulomb levels and the integration that applies them.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
pub struct HillParameters {
    pub law: HillFriction,
    pub integration: Integration,
}

impl HillParameters {
    fn exact(&self) -> ExactStaticCoulomb {
        ExactStaticCoulomb { static_torque: self.law.static_torque, coulomb_torque: self.law.coulomb_torque }
    }
}

impl RigidBodyFriction for HillParameters {
    #[inline]
    fn advance(&mut self, applied: f64, rate: f64, inertia: f64, dt: f64) -> Advance {
        match self.integration {
            Integration::HillPublished => self.law.advance(applied, rate, inertia, dt),
            Integration::Exact => self.exact().advance(applied, rate, inertia, dt),
        }
    }

    #[inline]
    fn advance_interval(&mut self, applied: f64, slope: f64, rate: f64, inertia: f64, dt: f64) -> Interval {
        match self.integration {
            // The paper's algorithm sees the mean torque over the interval.
            Integration::HillPublished => self.law.advance_interval(applied, slope, rate, inertia, dt),
            Integration::Exact => self.exact().integrate(applied, slope, rate, inertia, dt),
        }
    }
}

impl LawHooks for HillParameters {
    const EXACT: bool = true;
    fn prepare(&mut self, _rate_start: f64) {}
    fn check(&self) -> Result<(), String> {
        static_at_least_coulomb("tau_static", self.law.static_torque, "tau_coulomb", self.law.coulomb_torque)
    }
    /// Before the first step: sliding friction if moving, none at rest.
    fn initial_friction(&self, rate_start: f64) -> f64 {
        0.0 - self.law.coulomb_torque * sign(rate_start)
    }
    fn initial_acceleration(&self, applied: f64, rate_start: f64, inertia: f64) -> f64 {
        self.exact().acceleration(applied, rate_start, inertia)
    }
    // Model Exchange integrates the exact law (Eqs. 1-2); Hill's predictive
    // algorithm is a fixed-step method and has no place there.
    const STICK_SLIP: bool = true;
    fn breakaway_torque(&self) -> f64 {
        self.law.static_torque
    }
    fn sliding_torque(&self, _speed: f64) -> f64 {
        self.law.coulomb_torque
    }
}

pub type HillFrictionInertia = LawInertia<HillParameters>;

/// The description quotes the numbers `behaviour.rs` checks, from the same
/// constants.
const DESCRIPTION: &str = {
    use behaviour::quotes::*;
    const_format::concatcp!(
        "Inertia with static + Coulomb friction (Hill, Eqs. 1-2): exact zero rate while stuck, breakaway above F_s; \
        integration 0 = exact event-located (stops, reversals and breakaways found inside the step, rate and angle \
        exact for a torque constant or linear in time), 1 = Hill's published predictive algorithm (Eqs. 1-6, block \
        Y22). Default experiment (tau from HillFrictionInertia_in.csv: 0 to 2 N.m over 2 s, then 0; J = 1, \
        F_s = 1.2, F_c = 1 N.m, 10 ms steps): at rest with w exactly 0 and mode 0 while tau < F_s; FMPy holds tau \
        over each step, so the body breaks away in the step from ", BREAKAWAY_STEP, " s (at 1.20 s exactly when the \
        importer sends the ramp's derivative, FMI 2.0's input derivatives); slides to w = ", RATE_AT_2S, " rad/s at \
        2 s; with tau = 0 it stops at ", STOP, " s, inside a step, and rests from there with w exactly 0 and mode 0. \
        Without the input file tau stays 0 and the body at rest"
    )
};

crate::inertia_model!(
    HillParameters,
    ModelInfo::new("HillFrictionInertia", BREAKAWAY_EXPERIMENT).default_inputs(BREAKAWAY_TORQUE)
        .expects(behaviour::BEHAVIOUR)
        .sources(&[(&bibliography::HILL, "the predictive algorithm, Eqs. (1)-(6), the Y22 block")])
        .equations(&[
            eq("der(phi) = w", "", "kinematics"),
            eq("J*der(w) = tau + tau_friction", "", "the equation of motion (Hill, Eq. 2)"),
            eq("tau_friction = -tau_coulomb*sign(w)", "w != 0", "sliding: Coulomb friction against the rate \
                (Hill, Eq. 4)"),
            eq("tau_friction = -tau", "w = 0, abs(tau) <= tau_static", "stuck: the friction equals the applied \
                torque, so w stays exactly 0 (Hill, text after Eq. 6)"),
            eq("tau_friction = -tau_coulomb*sign(tau)", "w = 0, abs(tau) > tau_static", "breakaway: the body \
                leaves rest in the direction of tau (Hill, Eq. 1)"),
            eq("mode = sign(w)", "", "-1 backward, 0 stuck, +1 forward"),
        ])
        .description(DESCRIPTION),
    // Exact for stick/slip at any step; 10 ms is the paper's antenna step.
    default_step: 1e-2,
    j_start: 1.0,
    w_start: 0.0,
    [
        parameter("tau_coulomb", "Coulomb (sliding) friction torque F_c",
            Torque, 1.0, field!(law().law.coulomb_torque)).min(0.0),
        parameter("tau_static", "Static (breakaway) friction torque F_s, >= tau_coulomb",
            Torque, 1.2, field!(law().law.static_torque)).min(0.0),
        choice_parameter("integration", "0 = exact event-located integration (angle exact through stops; uses the \
            input derivative of tau), 1 = Hill's published algorithm (Eqs. 1-6: the stop spreads over the step, the \
            angle overshoots by up to F_c*dt^2/(8J))", &INTEGRATION, Integration::Exact as i32,
            choice_field!(law().integration)),
    ]
);
