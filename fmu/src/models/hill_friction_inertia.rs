//! `HillFrictionInertia`: an inertia with Hill's predictive static + Coulomb friction.

use super::law_inertia::{static_at_least_coulomb, HasLaw, LawHooks, LawInertia};
use super::COAST_EXPERIMENT;
use crate::description::ModelInfo;
use friction::{sign, HillFriction};

impl LawHooks for HillFriction {
    fn prepare(&mut self, _rate_start: f64) {}
    fn check(&self) -> Result<(), String> {
        static_at_least_coulomb("tau_static", self.static_torque, "tau_coulomb", self.coulomb_torque)
    }
    /// Before the first step: sliding friction if moving, none at rest.
    fn initial_friction(&self, rate_start: f64) -> f64 {
        0.0 - self.coulomb_torque * sign(rate_start)
    }
}

pub type HillFrictionInertia = LawInertia<HillFriction>;

crate::inertia_model!(
    HillFriction,
    ModelInfo {
        identifier: "HillFrictionInertia",
        description: "Inertia with Hill's predictive static + Coulomb friction for a fixed step (Hill, Eqs. 1-6, block Y22): \
                      exact zero rate while stuck, breakaway above F_s, stops within the step",
        default_experiment: COAST_EXPERIMENT,
    },
    // Exact for stick/slip at any step; 10 ms is the paper's antenna step.
    default_step: 1e-2,
    j_start: 1.0,
    w_start: 1.0,
    [
        Variable::<Self>::real_parameter("tau_coulomb", "Coulomb (sliding) friction torque F_c", Quantity::Torque, 1.0, |m| m.law().coulomb_torque, |m, x| m.law_mut().coulomb_torque = x).min(0.0),
        Variable::<Self>::real_parameter("tau_static", "Static (breakaway) friction torque F_s, >= tau_coulomb", Quantity::Torque, 1.2, |m| m.law().static_torque, |m, x| m.law_mut().static_torque = x).min(0.0),
    ]
);
