//! `CoulombInertia`: an inertia with the conventional Coulomb friction model.

use super::one_inertia::{static_at_least_coulomb, HasLaw, LawHooks, LawInertia};
use super::COAST_EXPERIMENT;
use crate::description::{field, ModelInfo};
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
}

pub type CoulombInertia = LawInertia<CoulombParameters>;

crate::inertia_model!(
    CoulombParameters,
    ModelInfo::new("CoulombInertia", COAST_EXPERIMENT).description("Inertia with conventional Coulomb friction tau_f = \
        -F_c*sign(w), sign(0) = 0, explicit Euler (Hill, Fig. 1): the baseline that chatters about a non-zero mean \
        rate when the applied torque is below the friction"),
    // The conventional model needs small steps to keep its chatter small.
    default_step: 1e-3,
    j_start: 1.0,
    w_start: 1.0,
    [
        parameter("tau_coulomb", "Coulomb (sliding) friction torque F_c",
            Torque, 1.0, field!(law().law.coulomb_torque)).min(0.0),
        parameter("tau_static", "Static friction torque F_s, >= tau_coulomb; the conventional model ignores it (kept \
            for interchangeability)", Torque, 1.2, field!(law().static_torque)).min(0.0),
    ]
);
