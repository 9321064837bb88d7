//! `DahlInertia` and `DahlElement`: Dahl's square-law friction (Nurre Eqs. 2-4).

mod behaviour;

use crate::bibliography;
use crate::models::one_inertia::{ELEMENT_DEFAULT_INPUTS, ElementLaw, HasLaw, LawElement, LawHooks, LawInertia};
use crate::description::{field, Experiment, ModelInfo};
use crate::equations::eq;
use crate::model::State;
use crate::model::states;
use friction::Dahl;

impl LawHooks for Dahl {
    /// Nurre's Fig. 5: "for the first quarter of a second, until the rate
    /// changes sign, T_f = T_f0": a body set moving starts in steady sliding.
    fn prepare(&mut self, rate_start: f64) {
        self.torque = self.sliding(rate_start);
    }
    fn initial_friction(&self, _rate_start: f64) -> f64 {
        0.0 - self.torque
    }
    /// Presliding is a spring of rate gamma*Tf0^2 (Nurre Eqs. 5-6): with the
    /// body it oscillates at w = sqrt(gamma*Tf0^2/J). Symplectic Euler is
    /// stable below dt = 2/w; we ask dt <= 1/w, which keeps the period
    /// within about 4% and the decay the model's own.
    fn check_step(&self, inertia: f64, internal_step: f64) -> Result<(), String> {
        let stiffness = self.gamma * self.running_torque * self.running_torque;
        let omega = (stiffness / inertia).sqrt();
        if internal_step * omega > 1.0 {
            return Err(format!(
                "internal_step = {internal_step} s rejected: Dahl's presliding spring gamma*Tf0^2 = {stiffness} N.m/rad with \
                 J = {inertia} kg.m2 oscillates at {omega} rad/s; the integration needs internal_step <= 1/omega = {} s",
                1.0 / omega
            ));
        }
        Ok(())
    }
    // Model Exchange: Nurre's Eq. (4) in time, dTf/dt = gamma*(Tf*sign(w) -
    // Tf0)^2*w, with the friction torque on the body (-Tf) as the third state.
    const SMOOTH_STATES: &'static [State<LawInertia<Self>>] = &[
        LawInertia::ANGLE,
        State::plain(
            "w",
            |m, x| m.body.rate = x,
            |m| m.body.acceleration, 1.0),
        State::with_nominal(
            "tau_friction",
            |m, x| {
                m.body.law.torque = 0.0 - x;
                m.body.friction_torque = x;
            },
            |m| 0.0 - m.body.law.torque_rate(m.body.rate),
            0.01,
        ),
    ];
}

impl ElementLaw for Dahl {
    #[inline]
    fn element_step(&mut self, w_rel: f64, dt: f64) -> f64 {
        self.move_by(w_rel * dt);
        0.0 - self.torque
    }
    // Model Exchange: the presliding state as above, driven by w_rel.
    const ELEMENT_STATES: &'static [State<LawElement<Self>>] = states! {
        state(
            "tau_friction",
            |m, x| {
            m.law.torque = 0.0 - x;
            m.friction_torque = x;
        },
            |m| 0.0 - m.law.torque_rate(m.relative_speed),
            0.01,),
    };
}

pub type DahlInertia = LawInertia<Dahl>;
pub type DahlElement = LawElement<Dahl>;
pub type DahlShaftLoad = crate::models::shaft_port::LawShaftLoad<Dahl>;

/// `DahlShaftLoad`'s equations: the port's (see `port_equations!`) around the law's.
const PORT_EQUATIONS: &[crate::equations::Equation] = crate::port_equations!(
        eq("der(tau_friction) = -gamma*(tau_friction*sign(w) + tau_running)^2*w", "", "Dahl's square law \
            in time (Nurre, Eqs. 1, 2 and 4) for tau_friction = -Tf, integrated exactly in the angle as in \
            DahlInertia: a smooth law, the load never sticks exactly"),
        eq("tau_friction = -tau_running*sign(w_start)", "\"at the start\"", "a load set moving starts in steady \
            sliding; a load at rest starts with no friction"),
        eq("mode = sign(w)", "", "-1 backward, +1 forward; 0 only where w is exactly 0"),
);

crate::law_models!(
    Dahl,
    inertia: ModelInfo::new("DahlInertia", Experiment::new(0.0, 20.0, 0.025))
        .expects(behaviour::INERTIA)
        .sources(&[(&bibliography::NURRE, "Dahl's square law, Eqs. (2), (4); the free decay, Figs. 5-6")])
        .equations(&[
            eq("der(phi) = w", "", "kinematics"),
            eq("J*der(w) = tau + tau_friction", "", "Newton's law for the inertia (Nurre, Eq. 3, with the applied \
                torque tau); the friction torque on the body is tau_friction = -Tf"),
            eq("der(tau_friction) = -gamma*(tau_friction*sign(w) + tau_running)^2*w", "", "Dahl's square law in \
                time (Nurre, Eqs. 1, 2 and 4) written for tau_friction = -Tf; integrated exactly in the angle, so \
                abs(tau_friction) <= tau_running whatever the step. A smooth law: the body never sticks, w passes \
                through 0 and rings on the presliding spring gamma*tau_running^2 (Nurre, Eqs. 5-6)"),
            eq("tau_friction = -tau_running*sign(w_start)", "\"at the start\"", "a body set moving starts in \
                steady sliding (Nurre, Fig. 5); a body at rest starts with no friction"),
            eq("mode = sign(w)", "", "-1 backward, +1 forward; 0 only where w is exactly 0, which the smooth law \
                passes through"),
        ])
        .description("Inertia with Dahl friction \
        dTf/dtheta = gamma*(Tf*sign(w) - Tf0)^2 (Nurre Eqs. 2-4), integrated exactly in the angle so that |Tf| <= Tf0; \
        defaults: Nurre Fig. 5 (I = 5, Tf0 = 0.0424 N.m, gamma = 0.85e4). Default experiment: Nurre's Fig. 5 free \
        decay, the one 1-DOF FMU that starts moving (w_start = 0.002 rad/s; set 0 for a body at rest): sliding at \
        Tf0, the rate first reverses at 0.25 s, then the body rings on the presliding spring (reversals every \
        1.8 s), decaying; Dahl's law never sticks exactly: mode alternates -1/+1 and w is 3e-5 rad/s at 20 s"),
    element: ModelInfo::new("DahlElement", Experiment::new(0.0, 1.0, 0.01))
        .expects(behaviour::ELEMENT)
        .default_inputs(ELEMENT_DEFAULT_INPUTS)
        .sources(&[(&bibliography::NURRE, "Dahl's square law, Eqs. (2), (4)")])
        .equations(&[
            eq("der(tau_friction) = -gamma*(tau_friction*sign(w_rel) + tau_running)^2*w_rel", "", "Dahl's square \
                law (Nurre, Eqs. 2 and 4) driven by the relative speed, tau_friction = -Tf the torque on the body \
                moving at w_rel; integrated exactly in the angle for w_rel held over each internal step, so \
                abs(tau_friction) <= tau_running. A smooth law with state: no sticking, a hysteresis loop"),
            eq("tau_friction = 0", "\"at the start\"", "no presliding deflection at the start"),
        ])
        .description("Dahl friction element: relative speed in, friction torque out, presliding state inside (Nurre \
        Eqs. 2-4). Default experiment: w_rel = 0.05*sin(2*pi*t) rad/s from DahlElement_in.csv, one period: the \
        hysteresis loop, the torque saturating toward -+Tf0 = 0.0424 N.m; without an input w_rel stays 0 and so does \
        the torque"),
    shaft: ModelInfo::new("DahlShaftLoad", crate::models::shaft_port::PORT_EXPERIMENT)
        .expects(behaviour::SHAFT)
        .default_inputs(crate::models::shaft_port::PORT_DEFAULT_INPUTS)
        .sources(&[(&bibliography::NURRE, "Dahl's square law, Eqs. (2), (4)")])
        .equations(PORT_EQUATIONS)
        .description("Shaft port of Dahl's friction (motion in, torque out): a load J with the friction of DahlInertia \
        (Nurre Eqs. 2-4) at the end of a shaft k_shaft, d_shaft whose drive end moves as phi_drive + w_drive*(t - t0) \
        over each step; the load substeps inside the step; tau_shaft is the shaft's torque on the drive, mean over \
        the step (connect to a torque-input plant such as MotorDrive's tau_load). Default \
        experiment (DahlShaftLoad_in.csv: the drive end winds at 0.5 rad/s; k_shaft = 10 N.m/rad, J = 1, Nurre's \
        Tf0 = 0.0424 N.m): the friction is small beside the shaft's torque (up to 1.6 N.m), so the load swings behind \
        the drive end with the shaft's period 2*pi*sqrt(J/k_shaft) = 1.99 s, its rate between 0 and 0.99 rad/s (peak at \
        1.0 s, under 1e-2 rad/s from 1.96 to 2.03 s), the friction building up to -Tf0 over the first swing \
        (-0.04 N.m at 0.4 s) and staying there while the load moves. Without the input file the \
        drive end stays at 0 and the load at rest"),
    default_step: 1e-3,
    j_start: 5.0,
    w_start: 0.002,
    [
        parameter("tau_running", "Running (maximum) friction torque Tf0 (Nurre Eq. 2)",
            Torque, 0.0424, field!(law().running_torque)).positive().display("mN.m"),
        parameter("gamma", "Dahl shape parameter gamma: small-motion spring rate gamma*Tf0^2 (Nurre Eqs. 2, 6)",
            InverseTorqueAngle, 0.85e4, field!(law().gamma)).min(0.0),
    ]
);
