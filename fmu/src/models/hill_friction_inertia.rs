//! `HillFrictionInertia`: an inertia with Hill's predictive static + Coulomb friction.

use super::one_dof::{FrictionInertiaModel, InertiaLaw, COAST_EXPERIMENT};
use crate::description::ModelInfo;
use friction::HillFriction;

impl InertiaLaw for HillFriction {
    const INFO: ModelInfo = ModelInfo {
        identifier: "HillFrictionInertia",
        description:
            "Inertia with Hill's predictive static + Coulomb friction for a fixed step (Hill, Eqs. 1-6, block Y22): \
                      exact zero rate while stuck, breakaway above F_s, stops within the step",
        default_experiment: COAST_EXPERIMENT,
    };
    /// Hill's algorithm is exact for stick/slip at any step; 10 ms is the
    /// step of the paper's antenna simulation.
    const DEFAULT_STEP: f64 = 1e-2;

    fn configure(static_torque: f64, coulomb_torque: f64) -> Self {
        HillFriction { static_torque, coulomb_torque }
    }
}

pub type HillFrictionInertia = FrictionInertiaModel<HillFriction>;
