//! `StribeckInertia` and `StribeckElement`: the classical static / Coulomb /
//! viscous / Stribeck maps (Majd & Simaan Eqs. 2, 3, 4).

use super::one_inertia::{map_torque, static_at_least_coulomb, HasLaw, LawElement, LawHooks, LawInertia};
use crate::description::{field, Enumeration, Experiment, Item, ModelInfo};
use friction::{ClassicalFriction, ClassicalShape};

impl LawHooks for ClassicalFriction {
    fn prepare(&mut self, _rate_start: f64) {}
    fn check(&self) -> Result<(), String> {
        static_at_least_coulomb("tau_static", self.static_torque, "tau_coulomb", self.coulomb_torque)?;
        Ok(())
    }
    fn initial_friction(&self, rate_start: f64) -> f64 {
        map_torque(self, rate_start)
    }
}

crate::map_element_law!(ClassicalFriction);

/// Which classical map (`equation`), valued by Majd & Simaan's equation number.
pub const STRIBECK_EQUATION: Enumeration = Enumeration {
    name: "StribeckEquation",
    description: "Classical friction map, valued by its equation number in Majd & Simaan",
    items: &[
        Item {
            name: "static_band",
            value: 2,
            description: "Eq. (2): static level f_s inside |w| < epsilon, Coulomb + viscous outside",
        },
        Item { name: "rational", value: 3, description: "Eq. (3): rational Stribeck curve" },
        Item { name: "exponential", value: 4, description: "Eq. (4): exponential Stribeck curve" },
    ],
};

fn equation_of(shape: ClassicalShape) -> i32 {
    match shape {
        ClassicalShape::StaticBand => 2,
        ClassicalShape::Rational => 3,
        ClassicalShape::Exponential => 4,
    }
}

fn shape_of(equation: i32) -> ClassicalShape {
    match equation {
        2 => ClassicalShape::StaticBand,
        3 => ClassicalShape::Rational,
        _ => ClassicalShape::Exponential,
    }
}

pub type StribeckInertia = LawInertia<ClassicalFriction>;
pub type StribeckElement = LawElement<ClassicalFriction>;

crate::law_models!(
    ClassicalFriction,
    inertia: ModelInfo {
        identifier: "StribeckInertia",
        description: "Inertia with classical friction, Majd & Simaan Eq. (2) (static band), (3) (rational Stribeck) or (4) \
                      (exponential Stribeck), chosen by `equation`; defaults: the paper's Eq. (14) values",
        default_experiment: Experiment { start_time: 0.0, stop_time: 0.5, step_size: 0.005 },
    },
    element: ModelInfo {
        identifier: "StribeckElement",
        description: "Classical static/Coulomb/viscous/Stribeck friction element (Majd & Simaan Eqs. 2-4): relative speed in, \
                      friction torque out",
        default_experiment: Experiment { start_time: 0.0, stop_time: 1.0, step_size: 0.01 },
    },
    default_step: 1e-3,
    j_start: 1.0,
    w_start: 0.05,
    [
        choice_parameter("equation", "Which map, by its equation number: static band (Eq. 2), rational (Eq. 3) or \
            exponential Stribeck (Eq. 4)",
            &STRIBECK_EQUATION, 4, (|m| equation_of(m.law().shape), |m, x| m.law_mut().shape = shape_of(x))),
        parameter("viscous", "Viscous friction coefficient f_w",
            RotationalDamping, 0.05, field!(law().viscous)).min(0.0),
        parameter("tau_coulomb", "Coulomb friction torque f_c", Torque, 0.5, field!(law().coulomb_torque)).min(0.0),
        parameter("tau_static", "Static friction torque f_s (>= tau_coulomb)",
            Torque, 0.95, field!(law().static_torque)).min(0.0),
        parameter("w_stribeck", "Stribeck (critical) velocity w_c of Eqs. (3)-(4)",
            AngularVelocity, 0.019, field!(law().stribeck_velocity)).positive(),
        parameter("exponent", "Stribeck exponent m of Eqs. (3)-(4) (Eq. 4 is m = 1)",
            Ratio, 1.0, field!(law().exponent)).positive(),
        parameter("w_band", "Velocity band epsilon of Eq. (2)", AngularVelocity, 1e-3, field!(law().band)).positive(),
    ]
);
