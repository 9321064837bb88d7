//! `MajdSimaanInertia` and `MajdSimaanElement`: the continuous model with
//! stiction (Majd & Simaan Eq. 6).

mod behaviour;

use crate::bibliography;
use crate::models::one_inertia::{ELEMENT_DEFAULT_INPUTS, map_torque, static_at_least_coulomb, HasLaw, LawElement, LawHooks, LawInertia};
use crate::models::{BREAKAWAY_EXPERIMENT, BREAKAWAY_TORQUE};
use crate::description::{choice_field, enumeration, field, Experiment, ModelInfo};
use crate::equations::eq;
use crate::model::State;
use friction::{MajdSimaan, SigmaMethod};

impl LawHooks for MajdSimaan {
    fn prepare(&mut self, _rate_start: f64) {
        MajdSimaan::prepare(self);
    }
    fn check(&self) -> Result<(), String> {
        // n > 1 (Eq. 11 divides by n - 1) is the declared range of `n`.
        static_at_least_coulomb("tau_static", self.static_torque, "tau_coulomb", self.coulomb_torque)
    }
    fn initial_friction(&self, rate_start: f64) -> f64 {
        map_torque(self, rate_start)
    }
    // Model Exchange: Eq. (6) as it stands, a smooth ODE (stiff near w = 0,
    // which the importer's implicit solver handles).
    const SMOOTH_STATES: &'static [State<LawInertia<Self>>] = &[LawInertia::ANGLE, LawInertia::RATE_OF_MAP];
}

crate::map_element_law!(MajdSimaan);

enumeration! {
    pub SIGMA_METHOD: SigmaMethod = "SigmaMethod", "How Majd & Simaan's sigma follows from the static friction f_s" {
        Exact = 0, "eq7_with_viscous", "Eq. (7) maximum with the viscous term f_w (the paper's 0.6858)";
        Eq13 = 1, "eq13", "Eq. (13), without the viscous term";
        Approximate = 2, "eq19_approximate", "Eq. (19) closed-form approximation";
    }
}

pub type MajdSimaanInertia = LawInertia<MajdSimaan>;
pub type MajdSimaanElement = LawElement<MajdSimaan>;
pub type MajdSimaanShaftLoad = crate::models::shaft_port::LawShaftLoad<MajdSimaan>;

/// `MajdSimaanShaftLoad`'s equations: the port's (see `port_equations!`) around the law's.
const PORT_EQUATIONS: &[crate::equations::Equation] = crate::port_equations!(
        eq("tau_friction = -F(w)", "", "Majd & Simaan's continuous law (Eq. 6, written out on \
            MajdSimaanInertia's page) against the motion: no stiction state, the load never sticks exactly"),
        eq("mode = sign(w)", "", "-1 sliding backward, 0 only where w is exactly 0, +1 sliding forward"),
);

crate::law_models!(
    MajdSimaan,
    inertia: ModelInfo::new("MajdSimaanInertia", BREAKAWAY_EXPERIMENT).default_inputs(BREAKAWAY_TORQUE)
        .expects(behaviour::INERTIA)
        .sources(&[(&bibliography::MAJD_SIMAAN, "Eq. (6); sigma by Eqs. (7)-(8), (13), (19); Eq. (11)")])
        .equations(&[
            eq("der(phi) = w", "", "kinematics; Co-Simulation: the trapezoid rule over each internal step"),
            eq("J*der(w) = tau + tau_friction", "", "Newton's law for the inertia; Co-Simulation: one linearly \
                implicit Euler step per internal step (the tangent slope of F, its secant where the tangent would \
                carry w past 0), so the steep slope at w = 0 stays stable for small inertias, tau_friction the step's \
                effective friction; Model Exchange: the plain ODE, stiff near w = 0"),
            eq("sigma = (2*sharpness^sharpness)^(1/(sharpness - 1))/(sharpness - 1)*(tau_static - tau_coulomb)",
                "sigma_method = 2", "the closed-form approximation of sigma (Majd & Simaan, Eq. 19)"),
            eq("F = viscous*w + (tau_coulomb + sigma*exp(-abs(w/w_critical)) - (sigma + tau_coulomb)\
                *exp(-abs(sharpness*w/w_critical)))*sign(w)", "", "the friction magnitude F(w) (Majd & Simaan, \
                Eq. 6): continuous, 0 at w = 0, rising steeply to its peak tau_static and falling to Coulomb + \
                viscous; with tau_static = tau_coulomb, sigma = 0 and it is the reduced model (Eq. 24)"),
            eq("max(F) = tau_static", "sigma_method = 0", "sigma such that the peak of F over 0 < w < w_critical, \
                viscous term included, is exactly tau_static (Majd & Simaan, Eqs. 7-8), solved numerically: the \
                paper's 0.6858 (Eq. 15, which the paper attributes to Eq. 13)"),
            eq("tau_static = tau_coulomb + sigma*(sharpness - 1)*sharpness^(-sharpness/(sharpness - 1))\
                *(1 + tau_coulomb/sigma)^(-1/(sharpness - 1))", "sigma_method = 1", "the same peak condition \
                with the viscous term dropped (Majd & Simaan, Eq. 13), solved numerically for sigma"),
            eq("tau_friction = -F", "", "the friction against the motion at every rate. A smooth law that never \
                sticks exactly: below tau_static the body creeps on the steep rising branch, and a coasting body's \
                rate decays exponentially toward 0 instead of stopping"),
            eq("mode = sign(w)", "", "-1 backward, 0 only where w is exactly 0, +1 forward; Model Exchange \
                changes it at the event where w crosses 0"),
        ])
        .description("Inertia with Majd & \
        Simaan's continuous friction with stiction, Eq. (6), stepped linearly implicitly so the steep slope at zero \
        speed stays stable for small inertias; defaults: the paper's example Eq. (14). Default experiment (tau from \
        MajdSimaanInertia_in.csv: 0 to 2 N.m over 2 s, then 0; J = 1, f_s = 0.95, f_c = 0.5 N.m, 10 ms steps): the \
        continuous law holds a sub-static torque on its steep rising branch, so the body creeps (a few mrad/s, mode \
        +1) until tau passes f_s near 0.95 s, slides to 0.937 rad/s at 2 s, and after the torque drops decays \
        toward rest. This smooth law never sticks exactly: w falls below 1e-50 rad/s by 4 s but is never 0.0, and \
        mode stays +1 (in Model Exchange a variable-step solver may carry w through 0 at roundoff, FMPy's CVode at \
        3.8 s at -3e-17 rad/s, and mode then reads -1). Without the input file tau stays 0 and the body at rest"),
    element: ModelInfo::new("MajdSimaanElement", Experiment::new(0.0, 1.0, 0.01))
        .expects(behaviour::ELEMENT)
        .default_inputs(ELEMENT_DEFAULT_INPUTS)
        .sources(&[(&bibliography::MAJD_SIMAAN, "Eq. (6); sigma by Eqs. (7)-(8), (13), (19)")])
        .equations(&[
            eq("sigma = (2*sharpness^sharpness)^(1/(sharpness - 1))/(sharpness - 1)*(tau_static - tau_coulomb)",
                "sigma_method = 2", "the closed-form approximation of sigma (Majd & Simaan, Eq. 19)"),
            eq("F = viscous*w_rel + (tau_coulomb + sigma*exp(-abs(w_rel/w_critical)) - (sigma + tau_coulomb)\
                *exp(-abs(sharpness*w_rel/w_critical)))*sign(w_rel)", "", "the friction magnitude F(w_rel) (Majd & \
                Simaan, Eq. 6): continuous, 0 at w_rel = 0, rising steeply to its peak tau_static and falling to \
                Coulomb + viscous; with tau_static = tau_coulomb, sigma = 0 and it is the reduced model (Eq. 24)"),
            eq("max(F) = tau_static", "sigma_method = 0", "sigma such that the peak of F over 0 < w_rel < w_critical, \
                viscous term included, is exactly tau_static (Majd & Simaan, Eqs. 7-8), solved numerically: the \
                paper's 0.6858 (Eq. 15, which the paper attributes to Eq. 13)"),
            eq("tau_static = tau_coulomb + sigma*(sharpness - 1)*sharpness^(-sharpness/(sharpness - 1))\
                *(1 + tau_coulomb/sigma)^(-1/(sharpness - 1))", "sigma_method = 1", "the same peak condition \
                with the viscous term dropped (Majd & Simaan, Eq. 13), solved numerically for sigma"),
            eq("tau_friction = -F", "", "the torque on the body moving at w_rel, at once (a memoryless map, direct \
                feedthrough). A smooth law that never sticks exactly"),
        ])
        .description("Majd & Simaan friction element, Eq. (6): relative speed in, friction torque out. Default \
        experiment: w_rel = 0.05*sin(2*pi*t) rad/s from MajdSimaanElement_in.csv, one period, tracing Eq. (6) up to \
        its static peak; without an input w_rel stays 0 and so does the torque. On a rigid inertia of the user's the \
        held-input coupling chatters (docs/coupling.md, capabilities and their limits): use MajdSimaanInertia or a compliant \
        coupling"),
    // Tolerance 1e-8: the load's last swing through 0 (at 3.99-4.0 s, under
    // 1e-4 rad/s) is lost by a Model Exchange solver at 1e-6 (FMPy's CVode).
    shaft: ModelInfo::new("MajdSimaanShaftLoad", crate::models::shaft_port::PORT_EXPERIMENT.with_tolerance(1e-8))
        .expects(behaviour::SHAFT)
        .default_inputs(crate::models::shaft_port::PORT_DEFAULT_INPUTS)
        .sources(&[(&bibliography::MAJD_SIMAAN, "Eq. (6); sigma by Eqs. (7)-(8), (13), (19)")])
        .equations(PORT_EQUATIONS)
        .description("Shaft port of Majd & Simaan's continuous friction with stiction (motion in, torque out): a load J \
        with the friction of MajdSimaanInertia (Eq. 6) at the end of a shaft k_shaft, d_shaft whose drive end moves \
        as phi_drive + w_drive*(t - t0) over each step; the load substeps inside the step; tau_shaft is the shaft's \
        torque on the drive, mean over the step (connect to a torque-input plant such as MotorDrive's tau_load). \
        Default \
        experiment (MajdSimaanShaftLoad_in.csv: the drive end winds at 0.5 rad/s; k_shaft = 10 N.m/rad, J = 1, f_s = \
        0.95, f_c = 0.5 N.m): the continuous law lets the load creep (3 mrad/s at 0.18 s) before the shaft torque \
        passes f_s near 0.2 s; it slips up to 1.03 rad/s, slows under 1e-2 rad/s from 1.98 to 2.23 s without ever \
        sticking exactly (w never exactly 0 after the start), and slips again; the same swing back near 4 s. mode \
        changes 0, +1, -1, +1, -1, +1. Model Exchange needs the experiment's tolerance 1e-8 to resolve the last swing \
        (under 1e-4 rad/s). Without the input file the drive end stays at 0 and the load at rest"),
    default_step: 1e-3,
    j_start: 1.0,
    w_start: 0.0,
    [
        parameter("viscous", "Viscous friction coefficient f_w",
            RotationalDamping, 0.05, field!(law().viscous)).min(0.0),
        parameter("tau_coulomb", "Coulomb friction torque f_c", Torque, 0.5, field!(law().coulomb_torque)).min(0.0),
        parameter("tau_static", "Static friction torque f_s (>= tau_coulomb): the peak of F(w)",
            Torque, 0.95, field!(law().static_torque)).min(0.0),
        parameter("sharpness", "Sharpness index n (> 1): slope at zero speed grows with n",
            Ratio, 10.0, field!(law().sharpness)).above(1.0),
        parameter("w_critical", "Critical angular velocity w_c",
            AngularVelocity, 0.019, field!(law().critical_velocity)).positive(),
        choice_parameter("sigma_method", "How sigma follows from f_s: Eq. (7) with f_w (the paper's 0.6858), Eq. \
            (13), or the Eq. (19) approximation",
            &SIGMA_METHOD, 0, choice_field!(law().sigma_method)),
    ]
);
