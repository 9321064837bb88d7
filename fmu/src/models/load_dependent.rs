//! `LoadDependentFrictionInertia`: Borello & Dalla Vedova's load-dependent
//! dry friction with efficiencies, viscous damping and hard stops (Table 1).

use crate::bibliography;
use crate::description::{field, variables, Experiment, ModelInfo, Variable};
use crate::equations::eq;
use crate::model::{Hybrid, Model, State, Transition};
use friction::{LoadDependentFriction, Motion};
use serde::{Deserialize, Serialize};

#[derive(Clone, Default, Serialize, Deserialize)]
pub struct LoadDependentFrictionInertia {
    motor_torque: f64,
    load_torque: f64,
    angle_start: f64,
    rate_start: f64,
    internal_step: f64,
    element: LoadDependentFriction,
    /// The motion: after each step (Co-Simulation); in Model Exchange the
    /// discrete state, changed only at events.
    contact: Motion,
    /// d(w)/dt now (Model Exchange).
    acceleration: f64,
}

impl Model for LoadDependentFrictionInertia {
    const INFO: ModelInfo = ModelInfo::new("LoadDependentFrictionInertia", Experiment::new(0.0, 2.0, 0.01))
        .sources(&[(&bibliography::BORELLO, "load-dependent friction and end stops, Table 1")])
        .equations(&[
            eq("der(phi) = w", "", "kinematics"),
            eq("-stop_angle <= phi <= stop_angle", "", "hard stops at +-XJM (Borello & Dalla Vedova, Table 1, \
                statement 15)"),
            eq("tau_active = tau_motor - tau_load - viscous*w", "", "the active torque Act (Borello & Dalla \
                Vedova, Eq. 6; Table 1, statement 01)"),
            eq("J*der(w) = tau_active + tau_friction", "", "Newton's law, tau_friction = -TFR (Borello & Dalla \
                Vedova, Eq. 5; Table 1, statement 11), integrated exactly event by event instead of Table 1's \
                Euler step"),
            eq("tau_opposing = tau_friction0 + (1/eta_opposing - 1)*abs(tau_load)", "", "dynamic friction FDO with \
                the load opposing the motion (Borello & Dalla Vedova, Eq. 3; Table 1, statement 02)"),
            eq("tau_aiding = tau_friction0 + (1 - eta_aiding)*abs(tau_load)", "", "dynamic friction FDA with the \
                load aiding the motion (Borello & Dalla Vedova, Eq. 4; Table 1, statement 03)"),
            eq("tau_friction = -tau_opposing*sign(w)", "w != 0, w*tau_load >= 0", "sliding against the load \
                (Table 1, statements 04-05)"),
            eq("tau_friction = -tau_aiding*sign(w)", "w*tau_load < 0", "sliding with the load aiding it (Table 1, \
                statement 06, read as DXJ*TLD < 0)"),
            eq("tau_static = static_ratio*tau_opposing", "tau_active*tau_load >= 0", "static limit where the \
                active torque works against the load, FSD*FDO (Table 1, statements 08-09)"),
            eq("tau_static = static_ratio*tau_aiding", "tau_active*tau_load < 0", "static limit where the load \
                aids the active torque, FSD*FDA (Table 1, statements 08-09)"),
            eq("tau_friction = -tau_active", "w = 0, abs(tau_active) <= tau_static", "stuck: the friction holds \
                the active torque, w stays exactly 0 (Table 1, statements 07-09)"),
            eq("tau_friction = -tau_opposing*sign(tau_active)", "w = 0, abs(tau_active) > tau_static, \
                tau_active*tau_load >= 0", "breakaway against the load, in the sense of the active torque \
                (Section 4, condition b)"),
            eq("tau_friction = -tau_aiding*sign(tau_active)", "w = 0, abs(tau_active) > tau_static, \
                tau_active*tau_load < 0", "breakaway with the load aiding it (Section 4, condition b)"),
            eq("w = 0", "abs(phi) = stop_angle, phi*tau_active > 0", "at a hard stop, pressed into it: plastic \
                impact, the rate is zeroed on arrival and stays 0 (Table 1, statements 16-17)"),
            eq("tau_friction = -sign(tau_active)*min(abs(tau_active), tau_static)", "abs(phi) = stop_angle, \
                phi*tau_active > 0", "pressed into a stop: the friction up to its static limit, the stop takes \
                the rest"),
            eq("mode = sign(w)", "", "-1 backward, 0 stuck or at a stop (w exactly 0), +1 forward"),
        ])
        .description("Rigid element with load-dependent dry friction (Borello & Dalla Vedova, Eqs. 3-4 and Table 1): \
            friction TFR0 + (1/EtO - 1)|TLD| with opposing load, TFR0 + (1 - EtA)|TLD| with aiding load (EtA <= 0: \
            irreversible), static/dynamic ratio FSD, viscous CM, plastic hard stops at +-XJM. Default experiment \
            (start values): a reversible transmission at rest, back-driven by its load: it moves backward from the \
            first step and comes to rest on the lower stop, phi = -1 rad, at 0.91 s (w exactly 0, mode 0 from \
            there)");
    const VARIABLES: &'static [Variable<Self>] = variables! {
        input(tau_motor = motor_torque, "Motor (driving) torque TM", Torque, 0.0),
        input(tau_load = load_torque, "External load TLD; positive pushes towards negative angles \
            (Act = TM - TLD - CM*w)", Torque, 5.0),
        output(phi = element.angle, "Angle XJ, within [-stop_angle, stop_angle]", Angle).display("deg"),
        output(w = element.rate, "Rate DXJ; exactly 0 while stuck or at a stop", AngularVelocity).display("deg/s"),
        output("tau_friction", "Friction torque on the element in the last internal step (-TFR)",
            Torque, |m| 0.0 - m.element.friction),
        integer_output("mode", "Motion: -1 backward, 0 stuck, +1 forward",
            -1, 1, |m| m.contact.as_i32()),
        parameter(J = element.inertia, "Moment of inertia JM", Inertia, 1.0).positive(),
        parameter(tau_friction0 = element.base_friction, "Load-independent friction TFR0", Torque, 1.0).min(0.0),
        parameter(element.eta_opposing, "Efficiency with opposing load EtO, in (0, 1]", Ratio, 0.8).positive().max(1.0),
        parameter(element.eta_aiding, "Efficiency with aiding load EtA, <= 1: 0..1 reversible, <= 0 irreversible (the \
            paper uses -0.2 and -0.4)", Ratio, 0.7).max(1.0),
        parameter(element.static_ratio, "Static to dynamic friction ratio FSD, >= 1", Ratio, 1.2).min(1.0),
        parameter(element.viscous, "Viscous coefficient CM", RotationalDamping, 0.1).min(0.0),
        parameter(stop_angle = element.stop, "Hard stops at +-XJM", Angle, 1.0).positive(),
        parameter(phi_start = angle_start, "Angle at the start time", Angle, 0.0),
        parameter(w_start = rate_start, "Rate at the start time", AngularVelocity, 0.0),
        internal_step(1e-3, field!(internal_step)),
    };

    // Model Exchange: Table 1's law with its modes as discrete states. Stuck
    // (also held at a hard stop): w and its derivative exactly 0, the
    // friction holding Act within the static limits; sliding: FDO or FDA by
    // the sense of motion and load. Events: breakaway past a static limit,
    // a stop when w crosses 0, a hard stop (plastic: w set to 0.0, phi to
    // exactly +-XJM), and the load changing sign while sliding (FDO <-> FDA).
    const HYBRID: Option<Hybrid<Self>> = Some(Hybrid {
        states: &[
            State {
                variable: "phi",
                set: |m, x| m.element.angle = x,
                derivative: |m| if m.contact == Motion::Stuck { 0.0 } else { m.element.rate },
                depends_on: &["w"],
                nominal: 1.0,
            },
            State {
                variable: "w",
                set: |m, x| m.element.rate = x,
                derivative: |m| m.acceleration,
                depends_on: &["w", "tau_motor", "tau_load"],
                nominal: 1.0,
            },
        ],
        indicators: 3,
        evaluate: |m| {
            let e = &mut m.element;
            let act = m.motor_torque - m.load_torque - e.viscous * e.rate; // 01
            m.acceleration = e.contact_acceleration(m.contact, act, m.load_torque);
        },
        event_indicators: |m, z| {
            m.element.contact_indicators(m.contact, m.motor_torque - m.load_torque, m.load_torque, z)
        },
        event: |m, on_transition| {
            let before = m.contact;
            if m.element.settle(before) {
                m.contact = m.element.motion_from_rest(m.motor_torque - m.load_torque, m.load_torque);
            }
            Transition::of_motion(before, m.contact).map(|t| on_transition(t)).is_some()
        },
    });

    fn max_substep(&self) -> f64 {
        self.internal_step
    }

    fn check(&self) -> Result<(), String> {
        if self.angle_start.abs() > self.element.stop {
            return Err(format!(
                "phi_start = {} rad rejected: it lies outside the stops +-stop_angle = +-{} rad",
                self.angle_start, self.element.stop
            ));
        }
        Ok(())
    }

    fn initialize(&mut self) {
        self.element.angle = self.angle_start;
        self.element.rate = self.rate_start;
        self.element.friction = 0.0;
        self.contact = Motion::of_rate(self.rate_start);
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let before = Motion::of_rate(self.element.rate);
        // Table 1's law integrated exactly (its Euler step delays breakaways
        // and stops by up to a step; FlapActuatorServo keeps it, as the
        // paper's figures use it).
        self.element.step_exact(self.motor_torque, self.load_torque, dt);
        self.contact = Motion::of_rate(self.element.rate);
        if let Some(t) = Transition::of_motion(before, self.contact) {
            on_transition(t);
        }
    }
}
