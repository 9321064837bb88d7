//! `LuGreInertia`, `LuGreElement` and `LuGreShaftLoad`: the LuGre law
//! (Canudas de Wit, Olsson, Åström, Lischinsky 1995, Eqs. 2-4), its bristle
//! deflection `z` a state beside the body's (physics:
//! `friction::lugre`). Everything the three FMUs are lives in this folder:
//! the declarations here, what their runs must show in `behaviour.rs`.

mod behaviour;

use crate::bibliography::Source;
use crate::description::{field, Experiment, ModelInfo};
use crate::equations::eq;
use crate::model::State;
use crate::model::states;
use crate::models::one_inertia::{
    static_at_least_coulomb, ElementLaw, HasLaw, LawElement, LawHooks, LawInertia, ELEMENT_DEFAULT_INPUTS,
};
use crate::models::shaft_port::{LawShaftLoad, PORT_DEFAULT_INPUTS, PORT_EXPERIMENT};
use crate::models::{BREAKAWAY_EXPERIMENT, BREAKAWAY_TORQUE};
use friction::lugre::LuGre;

/// The paper (not among `../shared/papers`: the model users ask for first).
pub const CANUDAS_DE_WIT: Source = Source {
    authors: "C. Canudas de Wit, H. Olsson, K. J. Åström, P. Lischinsky",
    title: "A New Model for Control of Systems with Friction",
    venue: "IEEE Transactions on Automatic Control 40(3), pp. 419-425",
    year: "1995",
};

impl LawHooks for LuGre {
    /// A body set moving starts in steady sliding (z on the curve of
    /// Eq. 7); a body at rest with undeflected bristles.
    fn prepare(&mut self, rate_start: f64) {
        self.deflection = if rate_start == 0.0 {
            0.0
        } else {
            self.stribeck_level(rate_start) * friction::sign(rate_start) / self.bristle_stiffness
        };
    }
    fn check(&self) -> Result<(), String> {
        static_at_least_coulomb("tau_static", self.static_torque, "tau_coulomb", self.coulomb_torque)
    }
    /// The torque on the body: -F(w, z) (Eq. 2), the right-hand side of
    /// Model Exchange's `J*der(w)`.
    fn initial_friction(&self, rate: f64) -> f64 {
        0.0 - self.friction(rate, self.deflection)
    }
    // No check_step: Co-Simulation steps the body and its bristles by
    // backward Euler (friction::lugre), stable at any internal step.

    // Model Exchange: phi, w and the bristle deflection z (Eq. 3). z is
    // stiff (time constant g/(sigma0*|w|)): the importer's solver must be
    // implicit (CVode's BDF in FMPy) or take small steps.
    const SMOOTH_STATES: &'static [State<LawInertia<Self>>] = &[
        LawInertia::ANGLE,
        LawInertia::RATE_OF_MAP,
        State::plain(
            "z",
            |m, x| m.body.law.deflection = x,
            |m| m.body.law.deflection_rate(m.body.rate, m.body.law.deflection),
            1e-5,
        ),
    ];
}

impl ElementLaw for LuGre {
    /// The bristles under `w_rel` held over `dt`, exactly (Eq. 3 is linear
    /// in z at a constant rate); the torque at the step's end.
    #[inline]
    fn element_step(&mut self, w_rel: f64, dt: f64) -> f64 {
        self.deflection = self.deflection_after(w_rel, self.deflection, dt);
        0.0 - self.friction(w_rel, self.deflection)
    }
    /// -F(w_rel, z): the damping and viscous terms follow the input at once.
    fn output(&self, w_rel: f64, _stored: f64) -> f64 {
        0.0 - self.friction(w_rel, self.deflection)
    }
    // z's nominal is 1e-4 rad here, not the 1e-5 of its range F_s/sigma0:
    // FMPy sets an interpolated w_rel only when it evaluates the event
    // indicators, so CVode's derivative calls see w_rel jump between
    // them, and an absolute tolerance of rtol*1e-5 rad sits below that
    // noise (its default run then fails with mxstep at 0.507 s).
    const ELEMENT_STATES: &'static [State<LawElement<Self>>] = states! {
        state("z", |m, x| m.law.deflection = x, |m| m.law.deflection_rate(m.relative_speed, m.law.deflection), 1e-4),
    };
}

pub type LuGreInertia = LawInertia<LuGre>;
pub type LuGreElement = LawElement<LuGre>;
pub type LuGreShaftLoad = LawShaftLoad<LuGre>;

/// The law in the inertia's names (`w` the body's rate).
const LAW: [crate::equations::Equation; 4] = [
    eq("g = tau_coulomb + (tau_static - tau_coulomb)*exp(-(w/w_stribeck)^2)", "", "the Stribeck level (Eq. 4)"),
    eq("der(z) = w - bristle_stiffness*abs(w)*z/g", "", "the bristles' mean deflection (Canudas de Wit et al., \
        Eq. 3): a spring that yields when its force passes the Stribeck level g"),
    eq("tau_friction = -(bristle_stiffness*z + bristle_damping*der(z) + viscous*w)", "", "the friction (Eq. 2) \
        against the motion; at a constant rate it settles on g*sign(w) + viscous*w (Eq. 7)"),
    eq("mode = sign(w)", "", "-1 backward, +1 forward; 0 where w is exactly 0: a smooth law, no stiction state; \
        at rest the bristles' ringing decays; Co-Simulation reports a rate under 1e-12 rad/s as 0.0 (its sign is \
        round-off there)"),
];

const SOURCE: &[(&Source, &str)] = &[(&CANUDAS_DE_WIT, "the LuGre law, Eqs. (2)-(4), its steady state Eq. (7) and \
    the parameters of its simulations, in rotational units")];

const PORT_EQUATIONS: &[crate::equations::Equation] = crate::port_equations!(
    eq("g = tau_coulomb + (tau_static - tau_coulomb)*exp(-(w/w_stribeck)^2)", "", "the Stribeck level (Eq. 4)"),
    eq("der(z) = w - bristle_stiffness*abs(w)*z/g", "", "the bristles (Eq. 3); Co-Simulation: each substep \
        backward Euler in the load's rate and z together, stable at any substep"),
    eq("tau_friction = -(bristle_stiffness*z + bristle_damping*der(z) + viscous*w)", "", "the friction (Eq. 2)"),
    eq("mode = sign(w)", "", "-1 backward, +1 forward; 0 where w is exactly 0: a smooth law, no stiction state"),
);

/// The descriptions quote the numbers their `behaviour.rs` checks, from the
/// same constants.
const INERTIA_DESCRIPTION: &str = {
    use behaviour::inertia_quotes::*;
    const_format::concatcp!(
        "Inertia with LuGre friction (Canudas de Wit, Olsson, Åström, Lischinsky 1995, Eqs. 2-4): bristles of \
        stiffness sigma0 that deflect before the body slides (presliding) and yield at the Stribeck level; defaults: \
        the paper's values in rotational units (sigma0 = 1e5 N.m/rad, sigma1 = 316.2 N.m.s/rad, sigma2 = 0.4 \
        N.m.s/rad, F_c = 1, F_s = 1.5 N.m, w_s = 1e-3 rad/s). Co-Simulation steps the body and its bristles by \
        backward Euler: stable at any internal step although the bristles relax in g/(sigma0*|w|) (10 us at 1 \
        rad/s). Default experiment (tau from LuGreInertia_in.csv: 0 to 2 N.m over 2 s, then 0; J = 1, 10 ms steps): \
        the bristles carry the torque while the body presslides (", PRESLIDING_ANGLE, " rad at 0.99 N.m: \
        -(F_s/sigma0)*ln(1 - tau/F_s)) and creeps under 1e-3 rad/s; it breaks away at ", BREAKAWAY, " s under \
        ", BREAKAWAY_TORQUE, " N.m, below F_s (LuGre's break-away level falls when the force rises slowly), slides on \
        the steady-state curve F_c + sigma2*w to ", RATE_AT_2S, " rad/s at 2 s and after the torque drops stops near \
        ", STOP, " s (2 + ln(1 + sigma2*w(2)/F_c)/sigma2), then rings down on its bristles: under 1e-6 rad/s within \
        0.1 s, and w = 0.0, mode 0 from ", REST, " s: a step reports a rate under 1e-12 rad/s as rest (its sign \
        there is round-off). Without the input file tau stays 0 and the body at rest"
    )
};

const SHAFT_DESCRIPTION: &str = {
    use behaviour::shaft_quotes::*;
    const_format::concatcp!(
        "Shaft port of the LuGre law (motion in, torque out): a load J with the friction of LuGreInertia at the end \
        of a shaft k_shaft, d_shaft whose drive end moves as phi_drive + w_drive*(t - t0) over each step; the load \
        substeps inside the step (backward Euler in its rate and bristles, stable however stiff the bristles); \
        tau_shaft is the shaft's torque on the drive, mean over the step (connect to a torque-input plant such as \
        MotorDrive's tau_load). Default experiment (LuGreShaftLoad_in.csv: the drive end winds at 0.5 rad/s; \
        k_shaft = 10 N.m/rad, J = 1, the paper's law): the belt experiment. The load presslides and breaks away at \
        ", BREAKAWAY, " s, under ", BREAKAWAY_TORQUE, " N.m from the shaft (below F_s, as LuGreInertia's), then \
        swings about the drive's rate, damped by sigma2: w at ", PEAK_1, ", ", TROUGH, " and ", PEAK_2, " rad/s at \
        ", PEAK_1_AT, ", ", TROUGH_AT, " and ", PEAK_2_AT, " s, each excursion from 0.5 rad/s \
        exp(-sigma2/(2*J)*pi/omega_d) = ", DECAY, " of the last; at this speed the viscous term damps the stick-slip \
        out (with viscous = 0 the load sticks and slips in the static law's cycle). Without the input file the \
        drive end stays at 0 and the load at rest"
    )
};

crate::law_models!(
    LuGre,
    inertia: ModelInfo::new("LuGreInertia", BREAKAWAY_EXPERIMENT)
        .default_inputs(BREAKAWAY_TORQUE)
        .sources(SOURCE)
        .expects(behaviour::INERTIA)
        .equations(&[
            eq("der(phi) = w", "", "kinematics"),
            eq("J*der(w) = tau + tau_friction", "", "Newton's law for the inertia; Co-Simulation: one backward \
                Euler step of w and z together per internal step (z in closed form, w by bisection of a monotone \
                equation), stable at any internal step however stiff the bristles"),
            LAW[0], LAW[1], LAW[2], LAW[3],
            eq("z = (g*sign(w)/bristle_stiffness)", "\"at the start\"", "a body set moving starts in steady \
                sliding; a body at rest with undeflected bristles (z = 0)"),
        ])
        .description(INERTIA_DESCRIPTION),
    element: ModelInfo::new("LuGreElement", Experiment::new(0.0, 1.0, 0.01))
        .default_inputs(ELEMENT_DEFAULT_INPUTS)
        .sources(SOURCE)
        .expects(behaviour::ELEMENT)
        .equations(&[
            eq("g = tau_coulomb + (tau_static - tau_coulomb)*exp(-(w_rel/w_stribeck)^2)", "", "the Stribeck level \
                (Eq. 4)"),
            eq("der(z) = w_rel - bristle_stiffness*abs(w_rel)*z/g", "", "the bristles (Eq. 3), driven by the \
                relative speed; Co-Simulation integrates it exactly for w_rel held over each internal step"),
            eq("tau_friction = -(bristle_stiffness*z + bristle_damping*der(z) + viscous*w_rel)", "", "the friction \
                on the body moving at w_rel (Eq. 2): its damping and viscous terms follow w_rel at once (direct \
                feedthrough)"),
            eq("z = 0", "\"at the start\"", "undeflected bristles"),
        ])
        .description("LuGre friction element (Canudas de Wit et al. 1995, Eqs. 2-4): relative speed in, friction \
        torque out, the bristle deflection z inside. Default experiment: w_rel = 0.05*sin(2*pi*t) rad/s from \
        LuGreElement_in.csv, one period: the torque saturates within a few ms on the steady-state curve \
        F_c + sigma2*|w_rel| against w_rel, passing through the bristles' spring where w_rel reverses; without an \
        input w_rel stays 0 and so does the torque"),
    shaft: ModelInfo::new("LuGreShaftLoad", PORT_EXPERIMENT)
        .default_inputs(PORT_DEFAULT_INPUTS)
        .sources(SOURCE)
        .expects(behaviour::SHAFT)
        .equations(PORT_EQUATIONS)
        .description(SHAFT_DESCRIPTION),
    default_step: 1e-3,
    j_start: 1.0,
    w_start: 0.0,
    [
        parameter("tau_coulomb", "Coulomb friction torque F_c (Eq. 4)", Torque, 1.0, field!(law().coulomb_torque))
            .positive(),
        parameter("tau_static", "Static friction torque F_s (Eq. 4), >= tau_coulomb", Torque, 1.5,
            field!(law().static_torque)).positive(),
        parameter("w_stribeck", "Stribeck rate v_s (Eq. 4)", AngularVelocity, 1e-3, field!(law().stribeck_rate))
            .positive(),
        parameter("bristle_stiffness", "Bristle stiffness sigma0 (Eqs. 2-3)", RotationalStiffness, 1e5,
            field!(law().bristle_stiffness)).positive(),
        parameter("bristle_damping", "Bristle damping sigma1 (Eq. 2); the paper's sqrt(1e5)", RotationalDamping,
            316.22776601683796, field!(law().bristle_damping)).min(0.0),
        parameter("viscous", "Viscous friction sigma2 (Eq. 2)", RotationalDamping, 0.4, field!(law().viscous))
            .min(0.0),
        output("z", "Bristle deflection z (Eq. 3): the friction's state, sigma0*z the bristles' spring torque",
            Angle, |m| m.law().deflection),
    ]
);
