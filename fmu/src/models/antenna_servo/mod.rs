//! `AntennaAzimuthServo`: the 70-m antenna azimuth position servo of Hill's
//! Section IV (see `friction::antenna` for the structure and the design
//! values), and Hill's Figs. 3-4 as scenarios.

mod behaviour;

use crate::bibliography;
use crate::description::{enumeration, field, variables, Experiment, ModelInfo, Variable, DEGREE, PSI};
use crate::equations::eq;
use crate::model::{Hybrid, Model, Transition};
use crate::model::states;
use crate::scenario::{Scenario, Signal, Trace};
use friction::{AntennaServo, AntennaServoDesign, AxisFriction, Motion, StickSlipContact};
use serde::{Deserialize, Serialize};

const MILLIDEGREE: f64 = 1e-3 * DEGREE;

#[derive(Clone, Serialize, Deserialize)]
pub struct AntennaAzimuthServo {
    /// Position command (rad).
    command: f64,
    position_start: f64,
    internal_step: f64,
    /// The design parameters, held here only: every step hands them to the servo.
    design: AntennaServoDesign,
    servo: AntennaServo,
    /// Model Exchange's discrete state, changed only at events: the axis
    /// contact, the pressure limit reached (-1, 0, +1) and the anti-windup
    /// hold of the rate integrator.
    #[serde(default)]
    contact: Motion,
    #[serde(default)]
    saturation: i8,
    #[serde(default)]
    hold: bool,
    /// The states' derivatives, in the order of `HYBRID.states`, as
    /// `evaluate` left them.
    #[serde(default)]
    derivatives: [f64; 8],
}

impl Default for AntennaAzimuthServo {
    fn default() -> Self {
        Self {
            command: 0.0,
            position_start: 0.0,
            internal_step: 0.01,
            design: AntennaServoDesign::default(),
            servo: AntennaServo::new(0.0),
            contact: Motion::Stuck,
            saturation: 0,
            hold: false,
            derivatives: [0.0; 8],
        }
    }
}

enumeration! {
    pub FRICTION_MODEL: AxisFriction = "FrictionModel", "Axis friction algorithm of the antenna servo" {
        Conventional = 0, "conventional", "Sign-function Coulomb model (Hill Fig. 1): chatters at fixed steps \
            (Co-Simulation only: a fixed-step algorithm has no Model Exchange form)";
        Hill = 1, "hill", "Hill's predictive static/Coulomb algorithm (Eqs. 1-6): exact stiction";
    }
}

impl Model for AntennaAzimuthServo {
    const INFO: ModelInfo = ModelInfo::new("AntennaAzimuthServo", Experiment::new(0.0, 5.0, 0.01))
        .expects(behaviour::BEHAVIOUR)
        .sources(&[(&bibliography::HILL, "Section IV, the azimuth servo, Figs. 3-4; friction, Eqs. (1)-(6)")])
        .equations(&[
            eq("J_total = coulomb_pressure/friction_to_inertia", "", "total inertia, in Pa.s2/rad, from Hill's \
                friction-to-inertia ratio F_c/J (1.77 mrad/s2, Section IV)"),
            eq("J_motor = motor_inertia_fraction*J_total", "", "inertia on the motor side of the gear spring"),
            eq("J_antenna = (1 - motor_inertia_fraction)*J_total", "", "inertia on the antenna side, where the \
                axis friction acts"),
            eq("omega_gear = 2*pi*gear_mode_frequency", "", "the motor-gear-antenna mode (Hill: 7 Hz, the gear \
                actuator stiffness)"),
            eq("k_gear = omega_gear^2*J_motor*J_antenna/J_total", "", "gear stiffness that places the free mode \
                of the two inertias at omega_gear"),
            eq("d_gear = 2*gear_damping_ratio*omega_gear*J_motor*J_antenna/J_total", "", "gear damping for the \
                mode's damping ratio"),
            eq("K_position = 2*pi*position_loop_bandwidth", "", "position-loop gain from its crossover (our loop \
                design: Hill gives none)"),
            eq("K_rate = 2*pi*rate_loop_bandwidth*J_total", "", "rate-loop gain from its crossover on the total \
                inertia"),
            eq("rate_command = K_position*(position_command - position) + position_loop_integral", "", "PI \
                position loop"),
            eq("der(position_loop_integral) = K_position/position_integral_time*(position_command - position)", "",
                "integral part of the position loop; Co-Simulation: Euler at internal_step, like the rate loop's"),
            eq("rate_error = rate_command - motor_rate", "", "the rate loop closes on the motor tachometer"),
            eq("pressure_demand = K_rate*rate_error + rate_loop_integral", "", "PI rate loop: the pressure command \
                before its limit"),
            eq("der(rate_loop_integral) = 0", "abs(pressure_demand) > max_pressure, pressure_demand*rate_error > 0",
                "anti-windup: the integrator holds while the demand is beyond the limit and the error pushes \
                further"),
            eq("der(rate_loop_integral) = K_rate/rate_integral_time*rate_error", "\"otherwise\"", "integral part \
                of the rate loop"),
            eq("pressure_command = min(max(pressure_demand, -max_pressure), max_pressure)", "", "pressure command \
                limit (Hill: the friction is roughly 20% of the maximum control effort)"),
            eq("valve_time_constant*der(valve) = pressure_command - valve", "", "servovalve spool lag; \
                Co-Simulation: exact for the command held over the internal step"),
            eq("pressure_time_constant*der(motor_pressure) = valve - motor_pressure", "", "pressure build-up lag, the \
                differential pressure being Hill's measure of the motor torque; Co-Simulation: exact for the mean of \
                the valve output at the internal step's start and end, held over it"),
            eq("gear_pressure = k_gear*(motor_angle - position) + d_gear*(motor_rate - rate)", "", "gear spring and \
                damper: the torque on the antenna, the friction law's applied torque"),
            eq("der(motor_angle) = motor_rate", "", "motor kinematics"),
            eq("J_motor*der(motor_rate) = motor_pressure - gear_pressure", "", "motor inertia; Co-Simulation: symplectic Euler \
                (Hill integrates his eighth-order model by Euler at 10 ms), torques from the start of the internal \
                step"),
            eq("der(position) = rate", "", "axis kinematics"),
            eq("J_antenna*der(rate) = gear_pressure + friction_pressure", "", "antenna inertia under the gear torque and the \
                axis friction (Hill, Eq. 2); Co-Simulation: over each internal step the friction law predicts a stop \
                (Eq. 5) or a reversal (Eq. 6) within it and gives the mean friction"),
            eq("breakaway_limit = breakaway_pressure", "friction_model = 1", "Hill's algorithm: the static level F_s decides \
                breakaway"),
            eq("friction_pressure = -coulomb_pressure*sign(rate)", "rate != 0", "sliding: Coulomb friction against the motion \
                (Hill, Eq. 4)"),
            eq("friction_pressure = -gear_pressure", "rate = 0, abs(gear_pressure) <= breakaway_limit", "stuck: the friction carries \
                the gear torque and the axis stays exactly still (Hill, Section II)"),
            eq("friction_pressure = -coulomb_pressure*sign(gear_pressure)", "rate = 0, abs(gear_pressure) > breakaway_limit", "breakaway \
                in the direction of the gear torque (Hill, Eq. 1)"),
            eq("friction_pressure = -coulomb_pressure*sign(rate)", "friction_model = 0, \"Co-Simulation\"", "the \
                conventional sign-function model (Hill, Fig. 1) at each fixed step, no friction at rate exactly 0: \
                the axis chatters and creeps (Fig. 3)"),
            eq("mode = sign(rate)", "", "-1 backward, 0 stuck, +1 forward"),
        ])
        .description("70-m \
        antenna azimuth position servo (Hill Section IV), rigid-body equivalent, eighth order: PI position and rate \
        loops, valve and pressure lags, 7 Hz gear mode, axis friction 400 psi Coulomb / 425 psi static, F_c/J = 1.77 \
        mrad/s2; friction_model: conventional (0) or Hill's (1); torques are differential pressures, as Hill \
        measures them (he gives no displacement for N.m). Variables in SI (rad, rad/s, Pa) with Hill's units as \
        display units (mdeg, mdeg/s, psi). Default experiment, Hill's Fig. 4 (1 mdeg step, the \
        command's start value; 10 ms, 5 s): the axis stays exactly still (rate 0.0, mode 0) until its torque passes \
        425 psi (moving at 1.87 s), overshoots, and rests from 3.81 s at 1.538 mdeg, held 0.54 mdeg off the command \
        by static friction (the loop's torque, 372 psi at 5 s, stays below 425 psi): Hill's point, a servo at rest \
        off its command with exactly zero rate where the conventional model (Fig. 3) chatters and creeps. Model \
        Exchange: the continuous loop with the exact static/Coulomb contact of Hill's law (his fixed-step algorithm's \
        limit) and the pressure limit and anti-windup as events: moving at 1.843 s, at rest from 3.813 s at 1.5345 \
        mdeg. The conventional model (friction_model = 0) is Co-Simulation only: under a variable-step solver it \
        would be Coulomb's law, another physics than its chatter, so Model Exchange refuses it when \
        initialization mode ends");
    const VARIABLES: &'static [Variable<Self>] = variables! {
        input(position_command = command, "Azimuth position command. Start value 1 mdeg: unconnected, the default \
            experiment is Hill's 1 mdeg step (Figs. 3-4); a connected input replaces it", Angle, MILLIDEGREE)
            .display("mdeg"),
        output(position = servo.antenna_angle, "Azimuth (antenna) position", Angle).display("mdeg"),
        output(rate = servo.antenna_rate, "Azimuth (antenna) rate; exactly 0 while the axis sticks (Hill's \
            algorithm)", AngularVelocity).display("mdeg/s"),
        output(motor_pressure = servo.pressure * PSI, "Differential pressure of the hydraulic motors, Hill's measure of the \
            control torque (Figs. 3-4a, shown as psi)", Pressure).display("psi"),
        output(gear_pressure = servo.gear_torque * PSI, "Differential pressure (Hill's torque measure) the gear transmits \
            to the antenna over the last internal step: the friction law's applied torque", Pressure).display("psi"),
        output(friction_pressure = servo.friction_torque * PSI, "Differential pressure (Hill's torque measure) of the \
            axis friction over the last internal step", Pressure).display("psi"),
        output(servo.motor_rate, "Motor rate referred to the axis (the rate-loop tachometer)", AngularVelocity)
            .display("mdeg/s"),
        output(servo.motor_angle, "Motor angle referred to the axis (the gear spring's motor end)", Angle)
            .display("mdeg"),
        output(servo.valve * PSI, "Servovalve output, the pressure it demands (first-order lag of the limited \
            pressure command)", Pressure).display("psi"),
        output(rate_loop_integral = servo.rate_integral * PSI, "Integral part of the rate loop's pressure command \
            (held while the command is at its limit and the error pushes further)", Pressure).display("psi"),
        output(position_loop_integral = servo.position_integral, "Integral part of the position loop's rate \
            command", AngularVelocity).display("mdeg/s"),
        integer_output("mode", "Axis motion: -1 backward, 0 stuck, +1 forward (Model Exchange: the contact's \
            discrete state)", -1, 1, |m| m.contact.as_i32()),
        choice_parameter(friction_model = design.friction, "Axis friction algorithm: the conventional sign-function \
            Coulomb model (Hill Fig. 1) or Hill's predictive static/Coulomb algorithm (Eqs. 1-6)", &FRICTION_MODEL, 1),
        parameter(breakaway_pressure = design.static_torque * PSI, "Static (breakaway) friction F_s (Hill: 425 psi), >= \
            coulomb_pressure", Pressure, 425.0 * PSI).positive().display("psi"),
        parameter(coulomb_pressure = design.coulomb_torque * PSI, "Coulomb friction F_c (Hill: the 400 psi friction \
            threshold)", Pressure, 400.0 * PSI).positive().display("psi"),
        parameter(design.friction_to_inertia, "Deceleration F_c/J that Coulomb friction alone gives the axis (Hill: \
            1.77 mrad/s2 for azimuth); sets the inertia as F_c over it", AngularAcceleration, 1.77e-3).positive(),
        parameter(design.motor_inertia_fraction, "Share of the total inertia on the motor side of the gear spring (our \
            choice, 0.5)", Ratio, 0.5).positive().max(0.99),
        parameter(design.gear_mode_frequency, "Frequency of the motor-gear-antenna mode (Hill: the 7.0 Hz mode of the \
            gear actuator stiffness)", Frequency, 7.0).positive(),
        parameter(design.gear_damping_ratio, "Damping ratio of the gear mode (our choice, 0.05)", Ratio, 0.05).min(0.0),
        parameter(design.rate_loop_bandwidth, "Rate-loop crossover on the total inertia (our choice, 1 Hz)",
            Frequency, 1.0).positive(),
        parameter(design.rate_integral_time, "Rate-loop integral time (our choice, 0.3 s)", Time, 0.3).positive(),
        parameter(design.position_loop_bandwidth, "Position-loop crossover (our choice, 0.3 Hz)", Frequency, 0.3)
            .positive(),
        parameter(design.position_integral_time, "Position-loop integral time (our choice, 3 s)", Time, 3.0).positive(),
        parameter(design.valve_time_constant, "Servovalve spool lag (our choice, 5 ms)", Time, 0.005).positive(),
        parameter(design.pressure_time_constant, "Pressure build-up lag (our choice, 10 ms)", Time, 0.01).positive(),
        parameter(design.max_pressure * PSI, "Pressure command limit (Hill: friction is roughly 20% of the maximum \
            control effort: 2000 psi)", Pressure, 2000.0 * PSI).positive().display("psi"),
        parameter(position_start, "Azimuth position at the start time (at rest)", Angle, 0.0).display("mdeg"),
        internal_step(0.01, field!(internal_step)),
    };

    // Model Exchange: the same loop as an ODE (the lags without Hill's
    // mean-valve step, the bodies without Euler); the axis is the
    // stick-slip contact of HillFrictionInertia under the gear torque, the
    // pressure limit and the anti-windup hold discrete states. The states
    // are the outputs in their declared SI units (rad, rad/s, Pa).
    const HYBRID: Option<Hybrid<Self>> = Some(Hybrid {
        states: states! {
            state("position", |m, x| m.servo.antenna_angle = x, |m| m.derivatives[0], MILLIDEGREE),
            state("rate", |m, x| m.servo.antenna_rate = x, |m| m.derivatives[1], MILLIDEGREE),
            state("motor_angle", |m, x| m.servo.motor_angle = x, |m| m.derivatives[2], MILLIDEGREE),
            state("motor_rate", |m, x| m.servo.motor_rate = x, |m| m.derivatives[3], MILLIDEGREE),
            state("motor_pressure", |m, x| m.servo.pressure = x / PSI, |m| m.derivatives[4], 100.0 * PSI),
            state("valve", |m, x| m.servo.valve = x / PSI, |m| m.derivatives[5], 100.0 * PSI),
            state("rate_loop_integral", |m, x| m.servo.rate_integral = x / PSI, |m| m.derivatives[6], 100.0 * PSI),
            state("position_loop_integral", |m, x| m.servo.position_integral = x, |m| m.derivatives[7], MILLIDEGREE),
        },
        indicators: 5,
        evaluate: |m| {
            let (position_error, rate_error, demand) = m.loop_signals();
            let d = m.design;
            let s = &mut m.servo;
            s.pressure_command = if m.saturation == 0 { demand } else { f64::from(m.saturation) * d.max_pressure };
            let gear = m.gear_torque();
            let friction = StickSlipContact::friction(m.contact, gear, d.coulomb_torque);
            let s = &mut m.servo;
            s.gear_torque = gear;
            s.friction_torque = friction;
            let stuck = m.contact == Motion::Stuck;
            // In the states' SI units: the pressures (psi inside) times PSI.
            m.derivatives = [
                if stuck { 0.0 } else { s.antenna_rate },
                if stuck { 0.0 } else { (gear + friction) / d.antenna_inertia() },
                s.motor_rate,
                (s.pressure - gear) / d.motor_inertia(),
                (s.valve - s.pressure) / d.pressure_time_constant * PSI,
                (s.pressure_command - s.valve) / d.valve_time_constant * PSI,
                if m.hold { 0.0 } else { d.rate_gain() / d.rate_integral_time * rate_error * PSI },
                d.position_gain() / d.position_integral_time * position_error,
            ];
        },
        // The contact (stuck: the margins to breakaway; sliding: the rate in
        // the direction of motion), the demand's margins to the pressure
        // limit, and the rate error, whose sign decides the anti-windup hold.
        event_indicators: |m, z| {
            [z[0], z[1]] = m.axis_contact().indicators(m.contact, m.gear_torque(), m.servo.antenna_rate, 1.0);
            let (_, rate_error, demand) = m.loop_signals();
            z[2] = m.design.max_pressure - demand;
            z[3] = m.design.max_pressure + demand;
            z[4] = rate_error;
        },
        event: |m, on_transition| {
            let before = m.contact;
            // Breakaway above the static level, and at it where sliding
            // would accelerate, as in HillFrictionInertia.
            let gear = m.gear_torque();
            m.contact = m.axis_contact().settle(before, &mut m.servo.antenna_rate, gear);
            let (_, rate_error, demand) = m.loop_signals();
            let limit = m.design.max_pressure;
            let saturation = if demand > limit { 1 } else if demand < 0.0 - limit { -1 } else { 0 };
            let hold = saturation != 0 && demand * rate_error > 0.0;
            let loop_changed = (saturation, hold) != (m.saturation, m.hold);
            (m.saturation, m.hold) = (saturation, hold);
            let contact_changed = Transition::of_motion(before, m.contact).map(|t| on_transition(t)).is_some();
            contact_changed || loop_changed
        },
    });

    fn max_substep(&self) -> f64 {
        self.internal_step
    }

    /// Static friction at least the Coulomb level (Hill's algorithm assumes
    /// it).
    fn check(&self) -> Result<(), String> {
        let d = &self.design;
        if d.static_torque < d.coulomb_torque {
            return Err(format!(
                "breakaway_pressure = {} Pa ({} psi) < coulomb_pressure = {} Pa ({} psi): static friction must be >= Coulomb \
                 friction",
                crate::text::number(d.static_torque * PSI),
                crate::text::number(d.static_torque),
                crate::text::number(d.coulomb_torque * PSI),
                crate::text::number(d.coulomb_torque)
            ));
        }
        Ok(())
    }

    /// The conventional model is a fixed-step algorithm (Hill, Fig. 1: the
    /// sign function sampled at each step, whose chatter is its physics);
    /// under a variable-step solver it would be Coulomb's law, another story
    /// than its Co-Simulation (issue 29: one FMU, one physics).
    fn check_model_exchange(&self) -> Result<(), String> {
        match self.design.friction {
            AxisFriction::Hill => Ok(()),
            AxisFriction::Conventional => Err("friction_model = 0 (conventional) rejected in Model Exchange: the \
                sign-function model is a fixed-step algorithm (Hill, Fig. 1) whose chatter Co-Simulation shows; a \
                variable-step solver would make it Coulomb's law, another physics. Use friction_model = 1 (Hill's) \
                here, or Co-Simulation for the conventional model"
                .into()),
        }
    }

    /// An internal step under which the explicit (Euler) loop stays stable:
    /// symplectic Euler on the gear mode needs `h*omega < 2`, we ask
    /// `h*omega <= 1` (0.44 at Hill's 10 ms and 7 Hz).
    fn check_internal_step(&self) -> Result<(), String> {
        let d = &self.design;
        // The free motor-gear-antenna mode is the stiffest: with the axis
        // stuck the motor swings at omega*sqrt(1 - motor_inertia_fraction).
        let omega = 2.0 * std::f64::consts::PI * d.gear_mode_frequency;
        if self.internal_step * omega > 1.0 {
            return Err(format!(
                "internal_step = {} s rejected: the gear mode ({omega} rad/s) needs internal_step <= 1/omega = {} s",
                self.internal_step,
                1.0 / omega
            ));
        }
        Ok(())
    }

    fn initialize(&mut self) {
        self.servo = AntennaServo::new(self.position_start);
        (self.contact, self.saturation, self.hold) = (Motion::Stuck, 0, false);
    }

    #[inline]
    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let before = self.contact;
        // Hill's law places a stop inside the step (the loop is Euler at
        // the step's end): early return takes the step again to it.
        let stop = self.servo.stop_instant(&self.design, dt);
        self.servo.step(&self.design, self.command, dt);
        self.contact = Motion::of_rate(self.servo.antenna_rate);
        if let Some(t) = Transition::of_motion(before, self.contact) {
            on_transition(t.at(stop.filter(|_| self.contact == Motion::Stuck)));
        }
    }

    /// Hill's law: a stuck axis whose gear torque now passes the static
    /// level slides from here (w still exactly 0), as the next step finds.
    fn settle(&mut self, on_transition: &mut dyn FnMut(Transition)) -> bool {
        let gear = self.gear_torque();
        let breaks = self.design.friction == AxisFriction::Hill
            && self.contact == Motion::Stuck
            && self.servo.antenna_rate == 0.0
            && gear.abs() > self.design.static_torque;
        if breaks {
            let before = self.contact;
            self.contact = Motion::of_rate(gear);
            on_transition(Transition::of_motion(before, self.contact).expect("a change"));
        }
        breaks
    }
}

impl AntennaAzimuthServo {
    /// The loops' signals from the states (Model Exchange): the position
    /// error (rad), the rate error (rad/s) and the unlimited pressure demand
    /// (psi), as `AntennaServo::step_with` forms them.
    fn loop_signals(&self) -> (f64, f64, f64) {
        let (d, s) = (&self.design, &self.servo);
        let position_error = self.command - s.antenna_angle;
        let rate_error = d.position_gain() * position_error + s.position_integral - s.motor_rate;
        (position_error, rate_error, d.rate_gain() * rate_error + s.rate_integral)
    }

    /// Gear torque on the antenna (psi).
    fn gear_torque(&self) -> f64 {
        let (d, s) = (&self.design, &self.servo);
        d.gear_stiffness() * (s.motor_angle - s.antenna_angle) + d.gear_damping() * (s.motor_rate - s.antenna_rate)
    }

    /// Model Exchange: the axis's stick-slip contact, Hill's law (the only
    /// choice Model Exchange accepts, see `check_model_exchange`).
    fn axis_contact(&self) -> StickSlipContact {
        StickSlipContact { breakaway: self.design.static_torque, sliding_at_rest: self.design.coulomb_torque }
    }
}

/// Hill's figures' units: psi and mdeg (the variables are SI).
const STEP_TRACES: &[Trace] = &[
    Trace::new("motor_pressure", 1.0 / PSI, "torque (psi)"),
    Trace::new("rate", 1.0 / MILLIDEGREE, "rate (mdeg/s)"),
    Trace::new("position", 1.0 / MILLIDEGREE, "position (mdeg)"),
];

/// Hill's 1.0 mdeg position step at t = 0, 10 ms, 5 s.
const STEP: &[(&str, Signal)] = &[("position_command", Signal::Constant(MILLIDEGREE))];

/// Hill's Section IV run with each friction model (Figs. 3 and 4 side by side).
pub const SCENARIOS: &[Scenario] = &[
    Scenario {
        name: "hill_fig3_conventional",
        model: "AntennaAzimuthServo",
        figure: "hill_figs_3_4",
        title: "Fig. 3: conventional friction model, 1 mdeg step, 10 ms",
        parameters: &[("friction_model", 0.0)],
        inputs: STEP,
        stop_time: 5.0,
        step_size: 0.01,
        traces: STEP_TRACES,
    },
    Scenario {
        name: "hill_fig4_predictive",
        model: "AntennaAzimuthServo",
        figure: "hill_figs_3_4",
        title: "Fig. 4: Hill's algorithm, 1 mdeg step, 10 ms",
        parameters: &[("friction_model", 1.0)],
        inputs: STEP,
        stop_time: 5.0,
        step_size: 0.01,
        traces: STEP_TRACES,
    },
];
