//! `CoulombInertia`: an inertia with the conventional Coulomb friction model.

use super::one_dof::{FrictionInertiaModel, InertiaLaw, COAST_EXPERIMENT};
use crate::description::ModelInfo;
use friction::ConventionalCoulomb;

impl InertiaLaw for ConventionalCoulomb {
    const INFO: ModelInfo = ModelInfo {
        identifier: "CoulombInertia",
        description: "Inertia with conventional Coulomb friction tau_f = -F_c*sign(w), sign(0) = 0, explicit Euler (Hill, Fig. 1): \
                      the baseline that chatters about a non-zero mean rate when the applied torque is below the friction",
        default_experiment: COAST_EXPERIMENT,
    };
    /// The conventional model needs small steps to keep its chatter small.
    const DEFAULT_STEP: f64 = 1e-3;

    fn configure(_static_torque: f64, coulomb_torque: f64) -> Self {
        ConventionalCoulomb { coulomb_torque }
    }
}

pub type CoulombInertia = FrictionInertiaModel<ConventionalCoulomb>;
