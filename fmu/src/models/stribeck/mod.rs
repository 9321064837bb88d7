//! `StribeckInertia` and `StribeckElement`: the classical static / Coulomb /
//! viscous / Stribeck maps (Majd & Simaan Eqs. 2, 3, 4).

mod behaviour;

use crate::bibliography;
use crate::models::one_inertia::{ELEMENT_DEFAULT_INPUTS, map_torque, static_at_least_coulomb, HasLaw, LawElement, LawHooks, LawInertia};
use crate::models::{BREAKAWAY_EXPERIMENT, BREAKAWAY_TORQUE};
use crate::description::{choice_field, enumeration, field, Experiment, ModelInfo};
use crate::equations::eq;
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
    // w = 0 that holds up to f_s (Co-Simulation's step holds it as well:
    // friction::smooth::advance_map with the map's static level).
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
pub type StribeckShaftLoad = crate::models::shaft_port::LawShaftLoad<ClassicalFriction>;

/// `StribeckShaftLoad`'s equations: the port's (see `port_equations!`) around the law's.
const PORT_EQUATIONS: &[crate::equations::Equation] = crate::port_equations!(
        eq("tau_friction = -F(w)", "w != 0", "sliding: the map F chosen by `equation` (Majd & Simaan, Eqs. \
            2-4, written out on StribeckInertia's page) against the motion"),
        eq("tau_friction = -tau_on_load", "w = 0, abs(tau_on_load) <= tau_static", "stuck: w exactly 0 up to \
            tau_static (Model Exchange: a stiction state; Co-Simulation: a substep that would pass w through 0 under \
            such a torque stops the load there, as StribeckInertia)"),
        eq("tau_friction = -tau_static*sign(tau_on_load)", "w = 0, abs(tau_on_load) > tau_static", "breakaway in \
            the direction of the shaft torque, against the static level (Co-Simulation: the map at 0+)"),
        eq("mode = sign(w)", "", "-1 sliding backward, 0 stuck, +1 sliding forward"),
);

crate::law_models!(
    ClassicalFriction,
    inertia: ModelInfo::new("StribeckInertia", BREAKAWAY_EXPERIMENT).default_inputs(BREAKAWAY_TORQUE)
        .expects(behaviour::INERTIA)
        .sources(&[(&bibliography::MAJD_SIMAAN, "the classical maps, Eqs. (2)-(5)")])
        .equations(&[
            eq("der(phi) = w", "", "kinematics; Co-Simulation: the trapezoid rule over each internal step"),
            eq("J*der(w) = tau + tau_friction", "", "Newton's law for the inertia; Co-Simulation: one linearly \
                implicit Euler step per internal step (the map's tangent slope, its secant where the tangent would \
                carry w past 0), tau_friction the step's effective friction"),
            eq("F = tau_static*sign(w)", "equation = 2, abs(w) < w_band", "the friction magnitude F(w) of the \
                static-band map inside the band (Majd & Simaan, Eq. 2)"),
            eq("F = viscous*w + tau_coulomb*sign(w)", "equation = 2, abs(w) >= w_band", "outside the band: Coulomb \
                + viscous (Majd & Simaan, Eqs. 2 and 5)"),
            eq("F = viscous*w + (tau_coulomb + (tau_static - tau_coulomb)/(1 + abs(w/w_stribeck)^exponent))*sign(w)",
                "equation = 3", "the rational Stribeck curve (Majd & Simaan, Eq. 3), its Stribeck term taken with \
                the sign of w so that the friction is odd in w (the paper writes it without)"),
            eq("F = viscous*w + (tau_coulomb + (tau_static - tau_coulomb)*exp(-abs(w/w_stribeck)^exponent))*sign(w)",
                "equation = 4", "the exponential Stribeck curve (Majd & Simaan, Eq. 4), generalised with the \
                exponent m: Eq. 4 itself is exponent = 1"),
            eq("tau_friction = -F", "w != 0", "sliding: the map against the motion; every map starts at tau_static \
                as w leaves 0"),
            eq("tau_friction = -tau", "w = 0, abs(tau) <= tau_static", "stuck: w exactly 0 up to tau_static, the \
                level every map has as w leaves 0 (Model Exchange: a stiction state; Co-Simulation: a step that \
                would pass w through 0 under such a torque stops the body there)"),
            eq("tau_friction = -tau_static*sign(tau)", "w = 0, abs(tau) > tau_static", "breakaway in the direction \
                of tau, at the level every map has as w leaves 0 (Majd & Simaan, Eqs. 2-4; Co-Simulation: the map \
                at 0+)"),
            eq("mode = sign(w)", "", "-1 backward, 0 stuck, +1 forward"),
        ])
        .description("Inertia with classical \
        friction, Majd & Simaan Eq. (2) (static band), (3) (rational Stribeck) or (4) (exponential Stribeck), chosen \
        by `equation`; defaults: the paper's Eq. (14) values. Default experiment (tau from StribeckInertia_in.csv: 0 \
        to 2 N.m over 2 s, then 0; J = 1, f_s = 0.95, f_c = 0.5 N.m, 10 ms steps): the static level holds the body \
        exactly at rest (w = 0.0, mode 0) until tau passes f_s (moving from 0.96 s); it slides to 0.947 rad/s at 2 s, \
        and after the torque drops stops exactly at 3.79 s (w = 0.0, mode 0 from there). Without the input file tau stays 0 and the body at rest"),
    element: ModelInfo::new("StribeckElement", Experiment::new(0.0, 1.0, 0.01))
        .expects(behaviour::ELEMENT)
        .default_inputs(ELEMENT_DEFAULT_INPUTS)
        .sources(&[(&bibliography::MAJD_SIMAAN, "the classical maps, Eqs. (2)-(5)")])
        .equations(&[
            eq("F = tau_static*sign(w_rel)", "equation = 2, abs(w_rel) < w_band", "the friction magnitude F(w_rel) \
                of the static-band map inside the band (Majd & Simaan, Eq. 2)"),
            eq("F = viscous*w_rel + tau_coulomb*sign(w_rel)", "equation = 2, abs(w_rel) >= w_band", "outside the \
                band: Coulomb + viscous (Majd & Simaan, Eqs. 2 and 5)"),
            eq("F = viscous*w_rel + (tau_coulomb + (tau_static - tau_coulomb)/(1 + abs(w_rel/w_stribeck)^exponent))\
                *sign(w_rel)", "equation = 3", "the rational Stribeck curve (Majd & Simaan, Eq. 3), its Stribeck \
                term taken with the sign of w_rel so that the friction is odd (the paper writes it without)"),
            eq("F = viscous*w_rel + (tau_coulomb + (tau_static - tau_coulomb)*exp(-abs(w_rel/w_stribeck)^exponent))\
                *sign(w_rel)", "equation = 4", "the exponential Stribeck curve (Majd & Simaan, Eq. 4), generalised \
                with the exponent m: Eq. 4 itself is exponent = 1"),
            eq("tau_friction = -F", "", "the torque on the body moving at w_rel, at once (a memoryless map, direct \
                feedthrough); 0 at w_rel = 0 (sign(0) = 0): no stiction state"),
        ])
        .description("Classical static/Coulomb/viscous/Stribeck friction element (Majd & Simaan Eqs. 2-4): relative \
        speed in, friction torque out. Default experiment: w_rel = 0.05*sin(2*pi*t) rad/s from StribeckElement_in.csv, \
        one period, tracing the exponential map (Eq. 4); without an input w_rel stays 0 and so does the torque. On a \
        rigid inertia of the user's the held-input coupling chatters (docs/coupling.md, capabilities and their limits): use \
        StribeckInertia or a compliant coupling"),
    shaft: ModelInfo::new("StribeckShaftLoad", crate::models::shaft_port::PORT_EXPERIMENT)
        .expects(behaviour::SHAFT)
        .default_inputs(crate::models::shaft_port::PORT_DEFAULT_INPUTS)
        .sources(&[(&bibliography::MAJD_SIMAAN, "the classical maps, Eqs. (2)-(5)")])
        .equations(PORT_EQUATIONS)
        .description("Shaft port of the classical Stribeck maps (motion in, torque out): a load J with the friction \
        of StribeckInertia (Majd & Simaan Eqs. 2-4, chosen by `equation`) at the end of a shaft k_shaft, d_shaft whose \
        drive end moves as phi_drive + w_drive*(t - t0) over each step; the load substeps inside the step, so its \
        stick-slip follows the present step's shaft torque; tau_shaft is the shaft's torque on the drive, mean over \
        the step (connect to a torque-input plant such as MotorDrive's tau_load). Default experiment \
        (StribeckShaftLoad_in.csv: the drive end winds at 0.5 rad/s; k_shaft = 10 N.m/rad, J = 1, the Eq. 4 map with \
        f_s = 0.95 and f_c = 0.5 N.m): the load holds exactly (w = 0.0) until the shaft torque reaches f_s near \
        0.2 s, slips up to 1.03 rad/s, sticks from 1.99 to 2.19 s, slips again and sticks at 3.99 s: the stick-slip \
        cycle, twice in 4 s. Without the input file the drive end stays at 0 and the load at rest"),
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
