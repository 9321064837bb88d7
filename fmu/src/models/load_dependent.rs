//! `LoadDependentFrictionInertia`: Borello & Dalla Vedova's load-dependent
//! dry friction with efficiencies, viscous damping and hard stops (Table 1).

use crate::bibliography;
use crate::description::{field, variables, Experiment, ModelInfo, Variable};
use crate::model::{Model, Transition};
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
}

impl Model for LoadDependentFrictionInertia {
    const INFO: ModelInfo = ModelInfo::new("LoadDependentFrictionInertia", Experiment::new(0.0, 2.0, 0.01))
        .sources(&[(&bibliography::BORELLO, "load-dependent friction and end stops, Table 1")])
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
            -1, 1, |m| Motion::of_rate(m.element.rate).as_i32()),
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
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let before = Motion::of_rate(self.element.rate);
        // Table 1's law integrated exactly (its Euler step delays breakaways
        // and stops by up to a step; FlapActuatorServo keeps it, as the
        // paper's figures use it).
        self.element.step_exact(self.motor_torque, self.load_torque, dt);
        if let Some(t) = Transition::of_motion(before, Motion::of_rate(self.element.rate)) {
            on_transition(t);
        }
    }
}
