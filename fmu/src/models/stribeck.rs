//! `StribeckInertia` and `StribeckElement`: the classical static / Coulomb /
//! viscous / Stribeck maps (Majd & Simaan Eqs. 2, 3, 4).

use crate::bibliography;
use super::one_inertia::{ELEMENT_DEFAULT_INPUTS, map_torque, static_at_least_coulomb, HasLaw, LawElement, LawHooks, LawInertia};
use super::{BREAKAWAY_EXPERIMENT, BREAKAWAY_TORQUE};
use crate::description::{choice_field, enumeration, field, Experiment, ModelInfo};
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
    // Model Exchange: the map while sliding, and a true stiction state at
    // w = 0 that holds up to f_s (where the map alone creeps).
    const STICK_SLIP: bool = true;
    fn breakaway_torque(&self) -> f64 {
        self.static_torque
    }
    fn sliding_torque(&self, speed: f64) -> f64 {
        // The map's limit from above at w = 0 (the map itself is 0 there).
        friction::VelocityMap::friction(self, speed.max(f64::MIN_POSITIVE))
    }
    fn sliding_kink(&self, speed: f64) -> f64 {
        match self.shape {
            // Eq. (2) jumps from f_s to f_c + f_w*epsilon at the band's edge.
            ClassicalShape::StaticBand => speed - self.band,
            _ => 1.0,
        }
    }
}

crate::map_element_law!(ClassicalFriction);

enumeration! {
    pub STRIBECK_EQUATION: ClassicalShape = "StribeckEquation",
        "Classical friction map, valued by its equation number in Majd & Simaan" {
        StaticBand = 2, "static_band", "Eq. (2): static level f_s inside |w| < epsilon, Coulomb + viscous outside";
        Rational = 3, "rational", "Eq. (3): rational Stribeck curve";
        Exponential = 4, "exponential", "Eq. (4): exponential Stribeck curve";
    }
}

pub type StribeckInertia = LawInertia<ClassicalFriction>;
pub type StribeckElement = LawElement<ClassicalFriction>;

crate::law_models!(
    ClassicalFriction,
    inertia: ModelInfo::new("StribeckInertia", BREAKAWAY_EXPERIMENT).default_inputs(BREAKAWAY_TORQUE)
        .sources(&[(&bibliography::MAJD_SIMAAN, "the classical maps, Eqs. (2)-(5)")])
        .description("Inertia with classical \
        friction, Majd & Simaan Eq. (2) (static band), (3) (rational Stribeck) or (4) (exponential Stribeck), chosen \
        by `equation`; defaults: the paper's Eq. (14) values. Default experiment (tau from StribeckInertia_in.csv: 0 \
        to 2 N.m over 2 s, then 0; J = 1, f_s = 0.95, f_c = 0.5 N.m, 10 ms steps): a map has no stiction state, so \
        below f_s the body creeps at rates under 1e-22 rad/s (mode +1, 1e-8 rad by 0.9 s); it breaks away as tau \
        passes f_s (|w| > 1 mrad/s from 1.0 s), slides to 0.947 rad/s at 2 s, and after the torque drops stops \
        exactly at 3.80 s (w = 0.0, mode 0 from there). Without the input file tau stays 0 and the body at rest"),
    element: ModelInfo::new("StribeckElement", Experiment::new(0.0, 1.0, 0.01))
        .default_inputs(ELEMENT_DEFAULT_INPUTS)
        .sources(&[(&bibliography::MAJD_SIMAAN, "the classical maps, Eqs. (2)-(5)")])
        .description("Classical static/Coulomb/viscous/Stribeck friction element (Majd & Simaan Eqs. 2-4): relative \
        speed in, friction torque out. Default experiment: w_rel = 0.05*sin(2*pi*t) rad/s from StribeckElement_in.csv, \
        one period, tracing the exponential map (Eq. 4); without an input w_rel stays 0 and so does the torque. On a \
        rigid inertia of the user's the held-input coupling chatters (see the README's Capabilities section): use \
        StribeckInertia or a compliant coupling"),
    default_step: 1e-3,
    j_start: 1.0,
    w_start: 0.0,
    [
        choice_parameter("equation", "Which map, by its equation number: static band (Eq. 2), rational (Eq. 3) or \
            exponential Stribeck (Eq. 4)",
            &STRIBECK_EQUATION, 4, choice_field!(law().shape)),
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
