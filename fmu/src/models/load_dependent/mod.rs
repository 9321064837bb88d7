//! `LoadDependentFrictionInertia`: Borello & Dalla Vedova's load-dependent
//! dry friction with efficiencies, viscous damping and hard stops (Table 1).

mod behaviour;

use crate::bibliography;
use crate::description::{field, variables, Experiment, ModelInfo, Variable};
use crate::equations::eq;
use crate::model::{Hybrid, Model, Transition};
use crate::model::states;
use friction::{LoadDependentFriction, Motion};
use serde::{Deserialize, Serialize};

/// The model's own variables (`$($head)*`) followed by the element's
/// parameters, declared once for `LoadDependentFrictionInertia` and its
/// shaft port `LoadDependentFrictionShaftLoad` (both keep the element in
/// `element`, the start values and the internal step under these names).
macro_rules! with_element_parameters {
    ($($head:tt)*) => {
        variables! {
            $($head)*
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
        }
    };
}

/// `phi_start` must lie within the hard stops.
fn within_stops(angle_start: f64, element: &LoadDependentFriction) -> Result<(), String> {
    if angle_start.abs() > element.stop {
        return Err(format!(
            "phi_start = {angle_start} rad rejected: it lies outside the stops +-stop_angle = +-{} rad",
            element.stop
        ));
    }
    Ok(())
}

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
        .expects(behaviour::INERTIA)
        .default_inputs(&[("tau_load", crate::scenario::Signal::Constant(5.0))])
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
            (LoadDependentFrictionInertia_in.csv: a 5 N.m load, no motor torque): a reversible transmission at rest, back-driven by its load: it moves backward from the \
            first step and comes to rest on the lower stop, phi = -1 rad, at 0.91 s (w exactly 0, mode 0 from \
            there)");
    const VARIABLES: &'static [Variable<Self>] = with_element_parameters! {
        input(tau_motor = motor_torque, "Motor (driving) torque TM", Torque, 0.0),
        input(tau_load = load_torque, "External load TLD; positive pushes towards negative angles \
            (Act = TM - TLD - CM*w); starts at 0, the default experiment's _in.csv holds 5 N.m", Torque, 0.0),
        output(phi = element.angle, "Angle XJ, within [-stop_angle, stop_angle]", Angle).display("deg"),
        output(w = element.rate, "Rate DXJ; exactly 0 while stuck or at a stop", AngularVelocity).display("deg/s"),
        output("tau_friction", "Friction torque on the element (-TFR): Co-Simulation, in the last internal step; \
            Model Exchange, its value now (holding the active torque while stuck)", Torque, |m| 0.0 - m.element.friction),
        integer_output("mode", "Motion: -1 backward, 0 stuck, +1 forward",
            -1, 1, |m| m.contact.as_i32()),
    };

    // Model Exchange: Table 1's law with its modes as discrete states. Stuck
    // (also held at a hard stop): w and its derivative exactly 0, the
    // friction holding Act within the static limits; sliding: FDO or FDA by
    // the sense of motion and load. Events: breakaway past a static limit,
    // a stop when w crosses 0, a hard stop (plastic: w set to 0.0, phi to
    // exactly +-XJM), and the load changing sign while sliding (FDO <-> FDA).
    const HYBRID: Option<Hybrid<Self>> = Some(Hybrid {
        states: states! {
            state("phi", |m, x| m.element.angle = x, |m| if m.contact == Motion::Stuck { 0.0 } else { m.element.rate }),
            state("w", |m, x| m.element.rate = x, |m| m.acceleration),
        },
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
        within_stops(self.angle_start, &self.element)
    }

    fn initialize(&mut self) {
        self.element.angle = self.angle_start;
        self.element.rate = self.rate_start;
        self.element.friction = 0.0;
        // At rest, the motion the inputs start (the mode Model Exchange's
        // initial event settles to), so both interfaces report it at t = 0.
        self.contact = if self.rate_start == 0.0 {
            self.element.motion_from_rest(self.motor_torque - self.load_torque, self.load_torque)
        } else {
            Motion::of_rate(self.rate_start)
        };
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        // The mode the outputs show (at rest at the start: the motion the
        // inputs start), so that a transition is one `mode` shows.
        let before = self.contact;
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

/// `LoadDependentFrictionShaftLoad`: the shaft port of Borello's element —
/// motion in, torque out. The shaft's torque is the element's motor torque
/// `TM`; the external load `TLD` stays an input. Co-Simulation: equal
/// substeps no longer than `internal_step` inside the step
/// (`friction::Shaft::step_body`), each Table 1's law integrated exactly
/// under the shaft torque at the element's predicted mid-substep angle.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct LoadDependentFrictionShaftLoad {
    drive: friction::DriveEnd,
    shaft: friction::Shaft,
    load_torque: f64,
    angle_start: f64,
    rate_start: f64,
    internal_step: f64,
    element: LoadDependentFriction,
    contact: Motion,
    acceleration: f64,
    /// Torque of the shaft on the drive: the mean over the last step (Co-Simulation), now (Model Exchange).
    drive_torque: f64,
    /// Friction torque on the element (-TFR): the mean over the last step (Co-Simulation), now (Model Exchange).
    friction_torque: f64,
}

impl LoadDependentFrictionShaftLoad {
    /// The shaft's torque on the element now (Model Exchange: the drive end where its inputs say).
    fn shaft_torque(&self) -> f64 {
        self.shaft.torque(&self.drive, 0.0, self.element.angle, self.element.rate)
    }
}

impl Model for LoadDependentFrictionShaftLoad {
    const INFO: ModelInfo = ModelInfo::new("LoadDependentFrictionShaftLoad", crate::models::shaft_port::PORT_EXPERIMENT)
        .expects(behaviour::SHAFT)
        .default_inputs(crate::models::shaft_port::PORT_DEFAULT_INPUTS)
        .sources(&[(&bibliography::BORELLO, "load-dependent friction and end stops, Table 1")])
        .equations(&[
            eq("tau_on_load = k_shaft*(phi_drive - phi) + d_shaft*(w_drive - w)", "", "torque of the shaft (spring \
                and damper) on the element, its motor torque TM; over a co-simulation step the drive end moves as \
                phi_drive + w_drive*(t - t0)"),
            eq("der(phi) = w", "", "kinematics"),
            eq("-stop_angle <= phi <= stop_angle", "", "hard stops at +-XJM (Borello & Dalla Vedova, Table 1, \
                statement 15)"),
            eq("tau_active = tau_on_load - tau_load - viscous*w", "", "the active torque Act (Borello & Dalla \
                Vedova, Eq. 6; Table 1, statement 01) with the shaft as the motor"),
            eq("J*der(w) = tau_active + tau_friction", "", "Newton's law (Eq. 5); Co-Simulation: substeps no longer \
                than internal_step, each Table 1's law integrated exactly under the shaft torque at the element's \
                predicted mid-substep angle, internal_step*max(sqrt(k_shaft/J), d_shaft/J) <= 0.5"),
            eq("tau_friction = -(tau_friction0 + (1/eta_opposing - 1)*abs(tau_load))*sign(w)", "w*tau_load >= 0, w \
                != 0", "sliding against the load, FDO (Eq. 3; the other cases as on LoadDependentFrictionInertia's \
                page: FDA with an aiding load, stuck within static_ratio times the level, plastic hard stops)"),
            eq("tau_shaft = -tau_on_load", "", "reaction of the shaft on the drive; Co-Simulation reports it and \
                tau_friction as means over the last step"),
            eq("mode = sign(w)", "", "-1 backward, 0 stuck or at a stop (w exactly 0), +1 forward"),
        ])
        .description("Shaft port of Borello & Dalla Vedova's load-dependent friction (motion in, torque out): the \
            element of LoadDependentFrictionInertia (Table 1: efficiencies, FSD, viscous CM, plastic hard stops) at \
            the end of a shaft k_shaft, d_shaft whose drive end moves as phi_drive + w_drive*(t - t0) over each step, \
            the shaft as its motor and tau_load the external load; substepped inside the step; tau_shaft is the \
            shaft's torque on the drive, mean over the step (connect to a torque-input plant such as MotorDrive's \
            tau_load). Default experiment (LoadDependentFrictionShaftLoad_in.csv: the drive end winds at 0.5 rad/s; \
            k_shaft = 10 N.m/rad, tau_load = 0, so the levels are TFR0 = 1 N.m sliding and FSD*TFR0 = 1.2 N.m \
            static): the element holds (w exactly 0) until the shaft torque reaches 1.2 N.m at 0.24 s, slides (up \
            to 0.98 rad/s; the viscous CM damps the swing, so it does not stick again) into the hard stop at +1 rad \
            at 2.32 s, and stays there (w exactly 0, mode 0), the shaft pulling with up to 10 N.m. Without the input \
            file the drive end stays at 0 and the element at rest");
    const VARIABLES: &'static [Variable<Self>] = with_element_parameters! {
        input(phi_drive = drive.angle, "Angle of the drive end of the shaft at the step's start (connect the drive's \
            phi)", Angle, 0.0),
        input(w_drive = drive.rate, "Rate of the drive end; it moves as phi_drive + w_drive*(t - t0) over the step \
            (connect the drive's w)", AngularVelocity, 0.0),
        input(tau_load = load_torque, "External load TLD; positive pushes towards negative angles (Act = tau_on_load \
            - TLD - CM*w)", Torque, 0.0),
        output(tau_shaft = drive_torque, "Torque the shaft applies to the drive: Co-Simulation, the mean over the last \
            step; Model Exchange, its value now (connect to the drive's tau_load); plain exchange: the drive takes it held \
            over the step, stable under a Jacobi master while h*sqrt(k_shaft/J_drive) <= 0.2 for a weakly damped drive \
            (step this FMU first, or let the drive hold the shaft: k_coupling)", Torque),
        output(phi = element.angle, "Angle XJ, within [-stop_angle, stop_angle]", Angle).display("deg"),
        output(w = element.rate, "Rate DXJ; exactly 0 while stuck or at a stop", AngularVelocity).display("deg/s"),
        output(tau_friction = friction_torque, "Friction torque on the element (-TFR): Co-Simulation, the mean over \
            the last step; Model Exchange, its value now", Torque),
        integer_output("mode", "Motion: -1 backward, 0 stuck or at a stop, +1 forward", -1, 1, |m| m.contact.as_i32()),
        parameter(k_shaft = shaft.stiffness, "Shaft torsional stiffness", RotationalStiffness, 10.0).positive(),
        parameter(d_shaft = shaft.damping, "Shaft torsional damping", RotationalDamping, 0.0).min(0.0),
        output(k_coupling = shaft.stiffness, "Shaft stiffness as the drive sees it, for a drive that holds \
            the shaft itself (implicit coupling, stable at any step: connect to MotorDrive's k_coupling, with phi and w \
            to its phi_load and w_load); equals k_shaft", RotationalStiffness),
        output(d_coupling = shaft.damping, "Shaft damping as the drive sees it (implicit coupling: connect to \
            MotorDrive's d_coupling); equals d_shaft", RotationalDamping),
    };

    // Model Exchange: LoadDependentFrictionInertia's contact with the shaft's
    // torque now as the motor torque.
    const HYBRID: Option<Hybrid<Self>> = Some(Hybrid {
        states: states! {
            state("phi", |m, x| m.element.angle = x, |m| if m.contact == Motion::Stuck { 0.0 } else { m.element.rate }),
            state("w", |m, x| m.element.rate = x, |m| m.acceleration),
        },
        indicators: 3,
        evaluate: |m| {
            let tau = m.shaft_torque();
            let act = tau - m.load_torque - m.element.viscous * m.element.rate; // 01
            m.acceleration = m.element.contact_acceleration(m.contact, act, m.load_torque);
            m.drive_torque = 0.0 - tau;
            m.friction_torque = 0.0 - m.element.friction;
        },
        event_indicators: |m, z| {
            m.element.contact_indicators(m.contact, m.shaft_torque() - m.load_torque, m.load_torque, z)
        },
        event: |m, on_transition| {
            let before = m.contact;
            if m.element.settle(before) {
                m.contact = m.element.motion_from_rest(m.shaft_torque() - m.load_torque, m.load_torque);
            }
            Transition::of_motion(before, m.contact).map(|t| on_transition(t)).is_some()
        },
    });

    // The port substeps itself: its drive end moves within the step.
    const SUBSTEPS_ITSELF: bool = true;
    fn max_substep(&self) -> f64 {
        self.internal_step
    }

    fn check(&self) -> Result<(), String> {
        within_stops(self.angle_start, &self.element)
    }

    fn check_internal_step(&self) -> Result<(), String> {
        crate::models::shaft_port::check_substep(&self.shaft, self.element.inertia, self.internal_step)
    }

    fn initialize(&mut self) {
        self.element.angle = self.angle_start;
        self.element.rate = self.rate_start;
        self.element.friction = 0.0;
        self.contact = Motion::of_rate(self.rate_start);
        self.drive_torque = 0.0 - self.shaft_torque();
        self.friction_torque = 0.0;
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        // The instance calls `step_in` with its count; a direct caller gets
        // the same rule.
        self.step_in(dt, friction::substep_count(dt, self.internal_step) as usize, on_transition);
    }

    #[inline]
    fn step_in(&mut self, dt: f64, n: usize, on_transition: &mut dyn FnMut(Transition)) {
        let before = Motion::of_rate(self.element.rate);
        let mut body = friction::UnderLoad { element: &mut self.element, load: self.load_torque };
        let (impulses, _) = self.shaft.step_body(&self.drive, dt, n, &mut body, None);
        self.drive_torque = 0.0 - impulses.shaft_impulse / dt;
        self.friction_torque = impulses.friction_impulse / dt;
        self.contact = Motion::of_rate(self.element.rate);
        if let Some(t) = Transition::of_motion(before, self.contact) {
            on_transition(t);
        }
    }
    /// Early return at the end of the substep in which the element sticks,
    /// breaks away or meets a stop (Table 1 integrates a substep as a
    /// whole); the drive end where the step's inputs moved it.
    fn step_in_to_event(
        &mut self,
        dt: f64,
        n: usize,
        earliest: f64,
        on_transition: &mut dyn FnMut(Transition),
    ) -> Option<f64> {
        let before = Motion::of_rate(self.element.rate);
        let mut body = friction::UnderLoad { element: &mut self.element, load: self.load_torque };
        let (impulses, taken) = self.shaft.step_body(&self.drive, dt, n, &mut body, Some(earliest));
        self.drive_torque = 0.0 - impulses.shaft_impulse / taken;
        self.friction_torque = impulses.friction_impulse / taken;
        self.contact = Motion::of_rate(self.element.rate);
        let stopped = taken < dt;
        if stopped {
            self.drive = self.drive.moved_by(taken);
        }
        let transition = Transition::of_motion(before, self.contact);
        crate::model::report_stop(transition, (None, taken), dt, earliest, on_transition)
    }
}
