//! `CmgGimbalRateLoop`: Nurre's gimbal rate controller with Dahl pivot
//! friction (NASA TM X-64934, Eqs. 10-12, Fig. 4), and its experiments.

mod behaviour;

use crate::bibliography;
use crate::description::{field, variables, Experiment, ModelInfo, Variable};
use crate::equations::eq;
use crate::model::{Hybrid, Model, Transition};
use crate::model::states;
use crate::scenario::{Scenario, Signal, Trace};
use friction::{GimbalRateLoop, Motion};
use serde::{Deserialize, Serialize};

#[derive(Clone, Serialize, Deserialize)]
pub struct CmgGimbalRateLoop {
    rate_command: f64,
    rate_start: f64,
    internal_step: f64,
    gimbal: GimbalRateLoop,
    /// Sign of the gimbal rate, Model Exchange's discrete state: it changes
    /// only at an event, where Dahl's law has its kink.
    #[serde(default)]
    direction: Motion,
}

/// Nurre's defaults: I = 5 (the report's number, in the unit system of Tf0
/// and gamma: its periods 3.6 s and 0.138 s follow from I = 5 kg.m2, see
/// the papers' README), K_I = 1e4, K_p = 280 (Section IV), and the pivot
/// values fitted to CMG data, Tf0 = 0.27 N.m, gamma = 1.48e5 (Fig. 6):
/// the case where friction and loop frequencies meet (7.4 Hz and 7.1 Hz).
impl Default for CmgGimbalRateLoop {
    fn default() -> Self {
        Self {
            rate_command: 0.0,
            rate_start: 0.0,
            internal_step: 1e-4,
            gimbal: GimbalRateLoop::new(5.0, 280.0, 1e4, 0.27, 1.48e5, 0.0),
            direction: Motion::Stuck,
        }
    }
}

impl Model for CmgGimbalRateLoop {
    const INFO: ModelInfo = ModelInfo::new("CmgGimbalRateLoop", Experiment::new(0.0, 0.8, 1e-3))
        .expects(behaviour::BEHAVIOUR)
        .sources(&[(&bibliography::NURRE, "the gimbal rate controller, Eqs. (10)-(12), Figs. 7-14")])
        .equations(&[
            eq("K_p*der(rate_filtered_command) = K_I*(rate_command - rate_filtered_command)", "K_p > 0", "command \
                filter, Nurre Eq. 11 as we read it (its dots were lost in the extraction: see the papers' README); \
                Co-Simulation: exact for a command held over the internal step"),
            eq("rate_filtered_command = rate_command", "K_p = 0", "without K_p the filter has no lag"),
            eq("der(angle_filtered_command) = rate_filtered_command", "", "theta1, the integral of the filtered \
                rate (Nurre Eqs. 10-11)"),
            eq("tau_control = K_p*(rate_filtered_command - rate) + K_I*(angle_filtered_command - angle)", "", "the \
                rate loop's control torque (Nurre Eq. 10); Co-Simulation: from the states at the start of each \
                internal step"),
            eq("der(angle) = rate", "", "gimbal kinematics"),
            eq("J*der(rate) = tau_control + tau_friction", "", "gimbal inertia I under control and pivot friction, \
                tau_friction = -Tf (Nurre Eq. 10); Co-Simulation: symplectic Euler at internal_step"),
            eq("der(tau_friction) = -gamma*(tau_running + tau_friction*sign(rate))^2*rate", "", "Dahl's square law \
                dTf/dtheta = gamma*(Tf*sign(theta') - Tf0)^2 (Nurre Eq. 2) in time (Eq. 4) for the pivot friction \
                of Eq. 12; Co-Simulation integrates it exactly in the angle, so |tau_friction| <= tau_running at any \
                step"),
            eq("rate = w_start, rate_filtered_command = w_start, rate_without_friction = w_start", "t = 0", "start: \
                angles 0, the command filter at the gimbal's rate, so no transient is commanded"),
            eq("tau_friction = -tau_running*sign(w_start)", "t = 0", "a gimbal set moving starts in steady \
                sliding (Nurre, Fig. 5: Tf = Tf0 until the rate changes sign)"),
            eq("der(angle_without_friction) = rate_without_friction", "", "kinematics of the frictionless copy"),
            eq("J*der(rate_without_friction) = K_p*(rate_filtered_command - rate_without_friction) + \
                K_I*(angle_filtered_command - angle_without_friction)", "", "the same loop without friction (Nurre \
                Eqs. 10-11 with Tf = 0), integrated alongside for comparison"),
        ])
        .description("CMG \
        gimbal rate loop (Nurre Eqs. 10-12): I*theta'' = K_p*(theta1' - theta') + K_I*(theta1 - theta) - Tf, command \
        filter K_p*theta1'' = K_I*(theta_c' - theta1'), Dahl pivot friction; a frictionless copy of the loop runs \
        alongside (rate_without_friction); defaults: I = 5, K_I = 1e4, K_p = 280, CMG pivot Tf0 = 0.27 N.m, gamma = \
        1.48e5. Default experiment: Nurre's Fig. 8 rate step of 5e-4 rad/s (the rate_command start value), 0.8 s: \
        friction slows the rise (3.16e-4 against the frictionless copy's 4.24e-4 rad/s at 0.05 s) and the rate \
        reaches 4.976e-4 rad/s at 0.8 s, while the frictionless copy settles at the command. Model Exchange: the same \
        equations as an ODE (Dahl's Eq. 4 in time, dTf/dt = gamma*(Tf*sign(theta') - Tf0)^2*theta', with tau_friction \
        = -Tf a state), an event where theta' changes sign; with K_p = 0 the filter has no lag and theta1' is \
        theta_c' itself (rate_filtered_command follows it at events and after each integrator step)");
    const VARIABLES: &'static [Variable<Self>] = variables! {
        input(rate_command, "Commanded gimbal rate theta_c' (Nurre Eq. 11). Start value 5e-4 rad/s: unconnected, the \
            default experiment is Nurre's Fig. 8 rate step; a connected input replaces it", AngularVelocity, 5e-4),
        output(gimbal.rate, "Gimbal rate theta'", AngularVelocity),
        output(gimbal.angle, "Gimbal angle theta", Angle),
        output("tau_friction", "Pivot friction torque on the gimbal, -Tf (Nurre Eq. 12)",
            Torque, |m| m.gimbal.friction_torque()),
        output(tau_control = gimbal.control_torque, "Control torque K_p*(theta1' - theta') + K_I*(theta1 - theta) over \
            the last internal step", Torque),
        output(rate_filtered_command = gimbal.command_rate, "Filtered command rate theta1' (Nurre Eq. 11)",
            AngularVelocity),
        output(rate_without_friction = gimbal.ideal_rate, "Gimbal rate of the same loop without friction (Tf = 0), \
            integrated alongside for comparison", AngularVelocity),
        output(angle_filtered_command = gimbal.command_angle, "Filtered command angle theta1, the integral of \
            theta1' (Nurre Eqs. 10-11)", Angle),
        output(angle_without_friction = gimbal.ideal_angle, "Gimbal angle of the same loop without friction", Angle),
        parameter(J = gimbal.inertia, "Gimbal inertia I (Nurre Eq. 10)", Inertia, 5.0).positive(),
        parameter(K_p = gimbal.rate_gain, "Rate gain K_p (Nurre Eqs. 10-11); 0 with K_I = 0 leaves the gimbal to \
            friction alone (Figs. 5-6)", RotationalDamping, 280.0).min(0.0),
        parameter(K_I = gimbal.angle_gain, "Angle gain K_I in N.m/rad (Nurre Eqs. 10-11): loop natural frequency \
            sqrt(K_I/I)", RotationalStiffness, 1e4).min(0.0),
        parameter(tau_running = gimbal.friction.running_torque, "Running (maximum) pivot friction torque Tf0 (Nurre \
            Eq. 2)", Torque, 0.27).positive(),
        parameter(gimbal.friction.gamma, "Dahl shape parameter gamma: presliding spring rate gamma*Tf0^2 (Nurre \
            Eqs. 2, 6); 0 = no friction", InverseTorqueAngle, 1.48e5).min(0.0),
        parameter(w_start = rate_start, "Gimbal rate at the start time (the free-decay runs of Figs. 5-6 start at \
            0.002 rad/s)", AngularVelocity, 0.0),
        internal_step(1e-4, field!(internal_step)),
    };

    // Model Exchange: Eqs. (10)-(12) as an ODE in the order of the loop: the
    // command filter, the gimbal with Dahl's friction torque as a state, the
    // frictionless copy. Dahl's dTf/dt has a kink where theta' changes
    // sign: the one event indicator, so that the solver restarts there.
    const HYBRID: Option<Hybrid<Self>> = Some(Hybrid {
        states: states! {
            state("angle_filtered_command", |m, x| m.gimbal.command_angle = x, |m| m.filtered_rate(), 1e-3),
            state("rate_filtered_command", |m, x| m.gimbal.command_rate = x, |m| m.filtered_acceleration(), 1e-3),
            state("angle", |m, x| m.gimbal.angle = x, |m| m.gimbal.rate, 1e-3),
            state("rate", |m, x| m.gimbal.rate = x,
                |m| (m.gimbal.control_torque - m.gimbal.friction.torque) / m.gimbal.inertia, 1e-3),
            state("tau_friction", |m, x| m.gimbal.friction.torque = 0.0 - x,
                |m| 0.0 - m.gimbal.friction.torque_rate(m.gimbal.rate), 0.1),
            state("angle_without_friction", |m, x| m.gimbal.ideal_angle = x, |m| m.gimbal.ideal_rate, 1e-3),
            state("rate_without_friction", |m, x| m.gimbal.ideal_rate = x,
                |m| m.control(m.gimbal.ideal_angle, m.gimbal.ideal_rate) / m.gimbal.inertia, 1e-3),
        },
        indicators: 1,
        evaluate: |m| m.gimbal.control_torque = m.control(m.gimbal.angle, m.gimbal.rate),
        event_indicators: |m, z| z[0] = m.gimbal.rate,
        event: |m, on_transition| {
            // K_p = 0: no filter lag, theta1' is theta_c' itself; the state
            // follows the command at every event (and, as a step event, after
            // every integrator step in which the command changed).
            let g = &mut m.gimbal;
            let follow = g.rate_gain == 0.0 && g.command_rate.to_bits() != m.rate_command.to_bits();
            if follow {
                g.command_rate = m.rate_command;
            }
            let before = m.direction;
            m.direction = Motion::of_rate(m.gimbal.rate);
            Transition::of_motion(before, m.direction).map(|t| on_transition(t)).is_some() || follow
        },
    });

    fn max_substep(&self) -> f64 {
        self.internal_step
    }

    /// Symplectic Euler on the gimbal is stable for `h*omega < 2` and keeps
    /// the period within ~0.1% for `h*omega <= 0.1`, with `omega` the
    /// stiffest spring on the gimbal (control `K_I` plus Dahl's presliding
    /// spring at its stiffest, `4*gamma*Tf0^2`); the explicit rate feedback
    /// `K_p` needs `h*K_p/I` small alike.
    fn check_internal_step(&self) -> Result<(), String> {
        let g = &self.gimbal;
        // Dahl's presliding spring is stiffest just after a reversal, where
        // dTf/dtheta = gamma*(2*Tf0)^2 (Nurre: it "jumps from zero to 4*gamma*Tf0^2").
        let stiffness = g.angle_gain + 4.0 * g.friction.gamma * g.friction.running_torque.powi(2);
        let omega = (stiffness / g.inertia).sqrt();
        let damping = g.rate_gain / g.inertia;
        let h = self.internal_step;
        if h * omega > 0.1 {
            return Err(format!(
                "internal_step = {h} s rejected: the springs on the gimbal (K_I + 4*gamma*Tf0^2 = {stiffness} N.m/rad, \
                 J = {} kg.m2) oscillate at {omega} rad/s; the integration needs internal_step <= 0.1/omega = {} s",
                g.inertia,
                0.1 / omega
            ));
        }
        if h * damping > 0.1 {
            return Err(format!(
                "internal_step = {h} s rejected: the rate gain K_p/J = {damping} 1/s needs internal_step <= {} s",
                0.1 / damping
            ));
        }
        Ok(())
    }

    fn initialize(&mut self) {
        let g = self.gimbal;
        self.gimbal = GimbalRateLoop::new(
            g.inertia,
            g.rate_gain,
            g.angle_gain,
            g.friction.running_torque,
            g.friction.gamma,
            self.rate_start,
        );
        self.direction = Motion::of_rate(self.rate_start);
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let before = Motion::of_rate(self.gimbal.rate);
        self.gimbal.step(self.rate_command, dt);
        if let Some(t) = Transition::of_motion(before, Motion::of_rate(self.gimbal.rate)) {
            on_transition(t);
        }
    }

    /// No early return: Dahl's friction is continuous through zero rate, and
    /// the sense of motion, logged as a transition, is no output (Model
    /// Exchange's sign state only).
    fn step_to_event(&mut self, dt: f64, _earliest: f64, on_transition: &mut dyn FnMut(Transition)) -> Option<f64> {
        self.step(dt, on_transition);
        None
    }
}

impl CmgGimbalRateLoop {

    /// d(theta1')/dt of the command filter: (K_I/K_p)*(theta_c' - theta1'),
    /// none without a filter (K_p = 0).
    fn filtered_acceleration(&self) -> f64 {
        let g = &self.gimbal;
        if g.rate_gain > 0.0 { g.angle_gain / g.rate_gain * (self.rate_command - g.command_rate) } else { 0.0 }
    }

    /// theta1' as Eq. (10) uses it: the filter's state, or with K_p = 0 (no
    /// lag) the command itself (Model Exchange).
    fn filtered_rate(&self) -> f64 {
        if self.gimbal.rate_gain > 0.0 { self.gimbal.command_rate } else { self.rate_command }
    }

    /// Eq. (10)'s control torque K_p*(theta1' - theta') + K_I*(theta1 - theta)
    /// for a gimbal at `angle`, `rate` (Model Exchange).
    fn control(&self, angle: f64, rate: f64) -> f64 {
        let g = &self.gimbal;
        g.rate_gain * (self.filtered_rate() - rate) + g.angle_gain * (g.command_angle - angle)
    }
}

/// Dahl's bearing values (Nurre Fig. 5): Tf0 = 0.0424 N.m, gamma = 0.85e4.
const DAHL_BEARING: [(&str, f64); 2] = [("tau_running", 0.0424), ("gamma", 0.85e4)];
const FREE: [(&str, f64); 2] = [("K_p", 0.0), ("K_I", 0.0)];
/// The loop natural frequency doubled at the same damping: K_I x 4, K_p x 2.
const DOUBLED: [(&str, f64); 2] = [("K_p", 560.0), ("K_I", 4e4)];

/// The free decays (Figs. 5-6) run without a command (the input's start
/// value is the default experiment's step).
const NO_COMMAND: &[(&str, Signal)] = &[("rate_command", Signal::Constant(0.0))];
const STEP_LARGE: &[(&str, Signal)] = &[("rate_command", Signal::Constant(5e-4))];
const STEP_SMALL: &[(&str, Signal)] = &[("rate_command", Signal::Constant(5e-5))];

const RATE_TRACES: &[Trace] = &[
    Trace::new("rate", 1e3, "gimbal rate (mrad/s)"),
    Trace::new("rate_without_friction", 1e3, "gimbal rate (mrad/s)"),
    Trace::new("tau_friction", 1.0, "friction torque (N.m)"),
];

const fn step_response(
    name: &'static str,
    title: &'static str,
    parameters: &'static [(&'static str, f64)],
    inputs: &'static [(&'static str, Signal)],
) -> Scenario {
    Scenario {
        name,
        model: "CmgGimbalRateLoop",
        figure: "nurre_figs_7_11",
        title,
        parameters,
        inputs,
        stop_time: 1.0,
        step_size: 1e-3,
        traces: RATE_TRACES,
    }
}

const fn sinusoid(name: &'static str, title: &'static str, inputs: &'static [(&'static str, Signal)]) -> Scenario {
    Scenario {
        name,
        model: "CmgGimbalRateLoop",
        figure: "nurre_figs_12_14",
        title,
        parameters: &[],
        inputs,
        stop_time: 3.0,
        step_size: 1e-3,
        traces: SINE_TRACES,
    }
}

const SINE_TRACES: &[Trace] = &[
    Trace::new("rate_command", 1e3, "rate (mrad/s)"),
    Trace::new("rate", 1e3, "rate (mrad/s)"),
    Trace::new("tau_friction", 1.0, "friction torque (N.m)"),
];

const fn sine(amplitude: f64) -> Signal {
    Signal::Sine { offset: 0.0, amplitude, frequency: 1.0, phase: 0.0 }
}

/// Nurre's runs. Figure numbers: the report's text says Figs. 8-9 use the
/// CMG pivot values at 5e-4 and 5e-5 rad/s and Figs. 10-11 the doubled loop
/// frequency; the remaining step-response figure with Dahl's bearing values
/// ("with and without friction very nearly identical", printed as "Figure
/// 11" in the extraction, which clashes with "Figures 10 and 11") is Fig. 7.
/// The sinusoid amplitudes of Figs. 12-14 are not in the text; we take
/// 5e-4, 1.5e-4 and 5e-5 rad/s, spanning the step commands.
pub const SCENARIOS: &[Scenario] = &[
    Scenario {
        name: "nurre_fig5_free_decay",
        model: "CmgGimbalRateLoop",
        figure: "nurre_figs_5_6",
        title: "Fig. 5: free decay, Dahl's bearing (Tf0 = 0.0424 N.m, gamma = 0.85e4), w0 = 0.002 rad/s",
        parameters: &[FREE[0], FREE[1], DAHL_BEARING[0], DAHL_BEARING[1], ("w_start", 0.002)],
        inputs: NO_COMMAND,
        stop_time: 20.0,
        step_size: 0.01,
        traces: &[
            Trace::new("rate", 1e3, "gimbal rate (mrad/s)"),
            Trace::new("tau_friction", 1.0, "friction torque (N.m)"),
        ],
    },
    Scenario {
        name: "nurre_fig6_free_decay",
        model: "CmgGimbalRateLoop",
        figure: "nurre_figs_5_6",
        title: "Fig. 6: free decay, CMG pivot (Tf0 = 0.27 N.m, gamma = 1.48e5), w0 = 0.002 rad/s",
        parameters: &[FREE[0], FREE[1], ("w_start", 0.002)],
        inputs: NO_COMMAND,
        stop_time: 1.0,
        step_size: 1e-3,
        traces: &[
            Trace::new("rate", 1e3, "gimbal rate (mrad/s)"),
            Trace::new("tau_friction", 1.0, "friction torque (N.m)"),
        ],
    },
    step_response(
        "nurre_fig7_step_dahl_bearing",
        "Fig. 7: step 5e-5 rad/s, Dahl's bearing values",
        &DAHL_BEARING,
        STEP_SMALL,
    ),
    step_response("nurre_fig8_step_5e-4", "Fig. 8: step 5e-4 rad/s, CMG pivot", &[], STEP_LARGE),
    step_response("nurre_fig9_step_5e-5", "Fig. 9: step 5e-5 rad/s, CMG pivot", &[], STEP_SMALL),
    step_response(
        "nurre_fig10_step_5e-4_doubled",
        "Fig. 10: step 5e-4 rad/s, loop frequency doubled",
        &DOUBLED,
        STEP_LARGE,
    ),
    step_response(
        "nurre_fig11_step_5e-5_doubled",
        "Fig. 11: step 5e-5 rad/s, loop frequency doubled",
        &DOUBLED,
        STEP_SMALL,
    ),
    sinusoid("nurre_fig12_sine_5e-4", "Fig. 12: 1 Hz sine, 5e-4 rad/s, CMG pivot", &[("rate_command", sine(5e-4))]),
    sinusoid("nurre_fig13_sine_1.5e-4", "Fig. 13: 1 Hz sine, 1.5e-4 rad/s", &[("rate_command", sine(1.5e-4))]),
    sinusoid("nurre_fig14_sine_5e-5", "Fig. 14: 1 Hz sine, 5e-5 rad/s", &[("rate_command", sine(5e-5))]),
];
