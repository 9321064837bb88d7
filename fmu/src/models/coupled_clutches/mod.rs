//! `CoupledClutches`: four inertias in a chain coupled by three friction
//! clutches (the configuration of the Modelica Standard Library example the
//! 1-D blog's open question points to), locking and sliding in any combination.

mod behaviour;

use crate::bibliography;
use crate::description::{field, variables, Experiment, ModelInfo, Variable};
use crate::equations::eq;
use crate::model::{Hybrid, Model, State, Transition};
use crate::scenario::{Scenario, Signal, Trace};
use friction::{ClutchChain, ClutchMode};
use serde::{Deserialize, Serialize};

/// The Modelica `CoupledClutches` example's inputs: also the default
/// experiment's `CoupledClutches_in.csv`. The inputs' start values are their
/// values at t = 0 (drive 0, clutch 1 engaged, clutches 2 and 3 open).
const MODELICA_INPUTS: &[(&str, Signal)] = &[
        ("tau_drive", Signal::Sine { offset: 0.0, amplitude: 10.0, frequency: 5.0, phase: 0.0 }),
        (
            "f_normalized_1",
            Signal::Sine { offset: 0.0, amplitude: 1.0, frequency: 0.2, phase: std::f64::consts::FRAC_PI_2 },
        ),
        ("f_normalized_2", Signal::Points(&Signal::step(0.4, 0.0, 1.0))),
        ("f_normalized_3", Signal::Points(&Signal::step(0.9, 0.0, 1.0))),
];

/// The Modelica `CoupledClutches` example's configuration, 1.5 s.
pub const SCENARIOS: &[Scenario] = &[Scenario {
    name: "coupled_clutches_modelica",
    model: "CoupledClutches",
    figure: "coupled_clutches_modelica",
    title: "Modelica CoupledClutches configuration: J1..J4 = 1, w1(0) = 10 rad/s",
    parameters: &[],
    inputs: MODELICA_INPUTS,
    stop_time: 1.5,
    step_size: 1e-3,
    traces: &[
        Trace::new("w1", 1.0, "rate (rad/s)"),
        Trace::new("w2", 1.0, "rate (rad/s)"),
        Trace::new("w3", 1.0, "rate (rad/s)"),
        Trace::new("w4", 1.0, "rate (rad/s)"),
        Trace::new("mode_1", 1.0, "clutch mode (-1 back, 0 locked, 1 fwd, 2 free)"),
        Trace::new("mode_2", 1.0, "clutch mode (-1 back, 0 locked, 1 fwd, 2 free)"),
        Trace::new("mode_3", 1.0, "clutch mode (-1 back, 0 locked, 1 fwd, 2 free)"),
    ],
}];

#[derive(Clone, Serialize, Deserialize)]
pub struct CoupledClutches {
    drive_torque: f64,
    normal_force: [f64; 3],
    inertia: [f64; 4],
    rate_start: [f64; 4],
    friction_coefficient: f64,
    peak: f64,
    max_normal_force: f64,
    internal_step: f64,
    chain: ClutchChain,
    /// d(w)/dt of each body now (Model Exchange).
    #[serde(default)]
    acceleration: [f64; 4],
}

impl Default for CoupledClutches {
    fn default() -> Self {
        Self {
            drive_torque: 0.0,
            normal_force: [0.0; 3],
            inertia: [1.0; 4],
            rate_start: [0.0; 4],
            friction_coefficient: 0.0,
            peak: 1.0,
            max_normal_force: 0.0,
            internal_step: 1e-3,
            chain: ClutchChain::new(&[1.0; 4], &[0.0; 4]),
            acceleration: [0.0; 4],
        }
    }
}

impl Model for CoupledClutches {
    const INFO: ModelInfo = ModelInfo::new("CoupledClutches", Experiment::new(0.0, 1.5, 0.002))
        .expects(behaviour::BEHAVIOUR)
        .default_inputs(MODELICA_INPUTS)
        .sources(&[
            (&bibliography::FRICTION_BLOG, "several masses locking and sliding in any combination"),
            (&bibliography::MODELICA, "Examples.CoupledClutches: the default experiment"),
        ])
        .equations(&[
            eq("der(phi1) = w1", "", "kinematics; likewise phi2, phi3, phi4 from w2, w3, w4"),
            eq("J1*der(w1) = tau_drive - tau_clutch_1", "", "Newton's law for J1, driven; clutch k passes \
                tau_clutch_k from body k to body k + 1 (Modelica Examples.CoupledClutches)"),
            eq("J2*der(w2) = tau_clutch_1 - tau_clutch_2", "", "Newton's law for J2"),
            eq("J3*der(w3) = tau_clutch_2 - tau_clutch_3", "", "Newton's law for J3"),
            eq("J4*der(w4) = tau_clutch_3", "", "Newton's law for J4"),
            eq("tau_capacity_1 = mu*fn_max*max(f_normalized_1, 0)", "", "sliding capacity of clutch 1 (Modelica \
                Rotational.Components.Clutch with the geometry constant cgeo = 1 m); likewise clutches 2 and 3 \
                from f_normalized_2 and f_normalized_3"),
            eq("tau_clutch_1 = 0", "f_normalized_1 <= 0", "free (mode_1 = 2): no normal force (Modelica Clutch); \
                likewise for clutches 2 and 3"),
            eq("tau_clutch_1 = tau_capacity_1*sign(w1 - w2)", "f_normalized_1 > 0, w1 != w2", "sliding (mode_1 = \
                sign(w1 - w2)): the capacity against the slip (Modelica Clutch); likewise for clutch 2 (w2, w3) \
                and 3 (w3, w4)"),
            eq("der(w1) = der(w2)", "f_normalized_1 > 0, w1 = w2, abs(tau_clutch_1) <= peak*tau_capacity_1",
                "locked (mode_1 = 0): J1 and J2 turn as one, w1 = w2 exactly, and tau_clutch_1 is the torque the \
                locked group needs, within the static capacity (Modelica Clutch). At equal speeds every \
                combination of locked clutches is tried and the consistent one with the most locks is taken (the \
                blog's several masses locking and sliding in any combination); likewise for clutches 2 and 3"),
            eq("tau_clutch_1 = tau_capacity_1*sign(der(w1) - der(w2))", "f_normalized_1 > 0, w1 = w2, mode_1 != 0",
                "breakaway: where holding would need more than peak*tau_capacity_1, the clutch slides in the sense \
                the bodies then separate (Modelica Clutch); likewise for clutches 2 and 3"),
            eq("mode_1 = 2", "f_normalized_1 <= 0", "free at once when the normal force vanishes; likewise mode_2, \
                mode_3"),
            eq("mode_1 = sign(w1 - w2)", "f_normalized_1 > 0", "-1 sliding backward, 0 locked, +1 sliding forward; \
                likewise mode_2 from w2 - w3 and mode_3 from w3 - w4"),
        ])
        .description("Four \
        inertias J1..J4 in a chain coupled by three friction clutches (the Modelica CoupledClutches configuration): \
        each fixed step solves which clutches stick over every combination, consistently and exactly (locked groups \
        move as one body, locked torques within static capacity, no velocity band); clutch k slides with \
        mu*fn_max*f_k (N.m: Modelica's geometry constant cgeo = 1 m), holds up to peak*mu*fn_max*f_k, and is free \
        when f_k <= 0. Default experiment: the Modelica example's inputs from CoupledClutches_in.csv (J1 at 10 rad/s, \
        the others at rest; drive 10*sin(2*pi*5*t) N.m on J1; f_1 = cos(0.4*pi*t), f_2 a step to 1 at 0.4 s, f_3 at \
        0.9 s), held over each 2 ms step: clutch 1 slides from the start, clutch 2 engages at 0.4 s and locks J2-J3 \
        at 0.71 s, clutch 1 locks at 0.79 s and slips again at 0.83 s with the drive, clutch 3 engages at 0.9 s and \
        locks J4 to J2-J3 at 1.15 s, clutch 1 is free from 1.25 s (f_1 <= 0) and J2-J4 coast locked at 2.464 rad/s. \
        Without the input file the inputs keep their start values (drive 0, clutch 1 engaged, 2 and 3 open): clutch 1 \
        alone slides J1 and J2 to a lock");
    const VARIABLES: &'static [Variable<Self>] = variables! {
        input(tau_drive = drive_torque, "Drive torque on J1", Torque, 0.0),
        input("f_normalized_1", "Normalized normal force of clutch 1 (J1-J2), 1 = fn_max. Start value 1 (engaged), its value at t = \
            0 in the default experiment", Ratio, 1.0, field!(normal_force[0])),
        input("f_normalized_2", "Normalized normal force of clutch 2 (J2-J3), 1 = fn_max. Start value 0 (open), its value at t = \
            0 in the default experiment", Ratio, 0.0, field!(normal_force[1])),
        input("f_normalized_3", "Normalized normal force of clutch 3 (J3-J4), 1 = fn_max. Start value 0 (open), its value at t = \
            0 in the default experiment", Ratio, 0.0, field!(normal_force[2])),
        output("w1", "Rate of J1", AngularVelocity, |m| m.chain.rate[0]),
        output("w2", "Rate of J2", AngularVelocity, |m| m.chain.rate[1]),
        output("w3", "Rate of J3", AngularVelocity, |m| m.chain.rate[2]),
        output("w4", "Rate of J4", AngularVelocity, |m| m.chain.rate[3]),
        output("phi1", "Angle of J1", Angle, |m| m.chain.angle[0]),
        output("phi2", "Angle of J2", Angle, |m| m.chain.angle[1]),
        output("phi3", "Angle of J3", Angle, |m| m.chain.angle[2]),
        output("phi4", "Angle of J4", Angle, |m| m.chain.angle[3]),
        output("tau_clutch_1", "Torque of clutch 1 from J1 to J2 (Co-Simulation: step average; Model Exchange: now)", Torque, |m| m.chain.clutch_torque[0]),
        output("tau_clutch_2", "Torque of clutch 2 from J2 to J3 (Co-Simulation: step average; Model Exchange: now)", Torque, |m| m.chain.clutch_torque[1]),
        output("tau_clutch_3", "Torque of clutch 3 from J3 to J4 (Co-Simulation: step average; Model Exchange: now)", Torque, |m| m.chain.clutch_torque[2]),
        integer_output("mode_1", "Clutch 1: -1 sliding backward, 0 locked, +1 sliding forward, 2 free",
            -1, 2, |m| m.mode_now(0).code()),
        integer_output("mode_2", "Clutch 2: -1 sliding backward, 0 locked, +1 sliding forward, 2 free",
            -1, 2, |m| m.mode_now(1).code()),
        integer_output("mode_3", "Clutch 3: -1 sliding backward, 0 locked, +1 sliding forward, 2 free",
            -1, 2, |m| m.mode_now(2).code()),
        parameter("J1", "Moment of inertia J1", Inertia, 1.0, field!(inertia[0])).positive(),
        parameter("J2", "Moment of inertia J2", Inertia, 1.0, field!(inertia[1])).positive(),
        parameter("J3", "Moment of inertia J3", Inertia, 1.0, field!(inertia[2])).positive(),
        parameter("J4", "Moment of inertia J4", Inertia, 1.0, field!(inertia[3])).positive(),
        parameter("w1_start", "Rate of J1 at the start time", AngularVelocity, 10.0, field!(rate_start[0])),
        parameter("w2_start", "Rate of J2 at the start time", AngularVelocity, 0.0, field!(rate_start[1])),
        parameter("w3_start", "Rate of J3 at the start time", AngularVelocity, 0.0, field!(rate_start[2])),
        parameter("w4_start", "Rate of J4 at the start time", AngularVelocity, 0.0, field!(rate_start[3])),
        parameter(mu = friction_coefficient, "Sliding friction coefficient of every clutch", Ratio, 0.5).min(0.0),
        parameter(peak, "Static over sliding friction (>= 1)", Ratio, 1.1).min(1.0),
        parameter(fn_max = max_normal_force, "Normal force at f_normalized = 1; with the effective radius 1 m of \
            the Modelica example the clutch carries mu*fn_max*f_normalized N.m", Force, 20.0).min(0.0),
        internal_step(1e-3, field!(internal_step)),
    };

    // Model Exchange: the four bodies as states, each clutch's mode a
    // discrete state (Modelica's clutch: locked, sliding forward or
    // backward, free). Three indicators per clutch: locked, the margins of
    // its static capacity over the torque it carries; sliding, its relative
    // speed in its sense; and its normal force (free at <= 0).
    const HYBRID: Option<Hybrid<Self>> = Some(Hybrid {
        states: &[
            body_angle!(0, "phi1", "w1"), body_rate!(0, "w1"),
            body_angle!(1, "phi2", "w2"), body_rate!(1, "w2"),
            body_angle!(2, "phi3", "w3"), body_rate!(2, "w3"),
            body_angle!(3, "phi4", "w4"), body_rate!(3, "w4"),
        ],
        indicators: 9,
        evaluate: |m| {
            let (sliding, _) = m.capacities();
            let (acceleration, torque) = m.chain.accelerations_in_modes(&m.external(), &sliding);
            m.acceleration.copy_from_slice(&acceleration[..4]);
            m.chain.clutch_torque[..3].copy_from_slice(&torque[..3]);
        },
        event_indicators: |m, z| {
            let (_, holding) = m.capacities();
            let c = &m.chain;
            for k in 0..3 {
                let v = c.rate[k] - c.rate[k + 1];
                (z[3 * k], z[3 * k + 1]) = match c.mode[k] {
                    ClutchMode::Locked => (holding[k] - c.clutch_torque[k], holding[k] + c.clutch_torque[k]),
                    ClutchMode::Forward => (v, 1.0),
                    ClutchMode::Backward => (-v, 1.0),
                    ClutchMode::Free => (1.0, 1.0),
                };
                // Engagement: a free clutch's indicator is never exactly 0
                // (f - 1 while f <= 0), so that an input stepping from 0 to
                // f > 0 is a sign change even for an importer whose solver
                // ignores a root function that starts at 0 (CVODE does) and
                // the enterEventMode of fmi2CompletedIntegratorStep
                // (OMSimulator 2.x's strongly coupled system does).
                let f = m.normal_force[k];
                z[3 * k + 2] = if c.mode[k] == ClutchMode::Free && f <= 0.0 { f - 1.0 } else { f };
            }
        },
        event: |m, on_transition| {
            let before = m.chain.mode;
            let (sliding, holding) = m.capacities();
            // Short of a tie, as in two_inertia: at the root of a margin the
            // solver puts the torque on the static capacity to rounding.
            let holding = holding.map(|h| h * (1.0 - 4.0 * f64::EPSILON));
            m.chain.settle(&m.external(), &sliding, &holding);
            m.report_modes(&before, on_transition);
            before != m.chain.mode
        },
    });

    fn max_substep(&self) -> f64 {
        self.internal_step
    }

    /// The chain always has four bodies; a restored (deserialized) state
    /// that says otherwise is refused.
    fn check(&self) -> Result<(), String> {
        let c = &self.chain;
        if c.bodies != 4 {
            return Err(format!("the chain state has {} bodies: the model has 4", c.bodies));
        }
        if c.inertia[..4].iter().any(|&j| !(j > 0.0 && j.is_finite())) {
            return Err(format!("chain inertias {:?}: each must be finite and > 0", &c.inertia[..4]));
        }
        Ok(())
    }

    fn initialize(&mut self) {
        self.chain = ClutchChain::new(&self.inertia, &self.rate_start);
        for k in 0..3 {
            self.chain.mode[k] = self.mode_now(k);
        }
    }

    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let before = self.chain.mode;
        let (sliding, holding) = self.capacities();
        self.chain.step(&self.external(), &sliding, &holding, dt);
        self.report_modes(&before, on_transition);
    }

    /// Early return at the first lock or reversal of a sliding clutch,
    /// located in closed form (breaking loose happens at a step's start).
    fn step_to_event(&mut self, dt: f64, earliest: f64, on_transition: &mut dyn FnMut(Transition)) -> Option<f64> {
        let before = self.chain.mode;
        let (sliding, holding) = self.capacities();
        let taken = self.chain.step_to_event(&self.external(), &sliding, &holding, dt, earliest);
        let stopped = taken < dt;
        let changed = self.report_modes_at(&before, stopped.then_some(taken), on_transition);
        (stopped || changed).then_some(taken)
    }

    /// A clutch the held torques from here break loose slides now.
    fn settle(&mut self, on_transition: &mut dyn FnMut(Transition)) -> bool {
        let before = self.chain.mode;
        let (sliding, holding) = self.capacities();
        self.chain.settle_modes(&self.external(), &sliding, &holding);
        self.report_modes_at(&before, None, on_transition)
    }
}

/// State `k` of the Model Exchange form: a body's angle, integrating its rate.
macro_rules! body_angle {
    ($i:literal, $name:literal, $rate:literal) => {
        State::plain(
            $name,
            |m: &mut CoupledClutches, x| m.chain.angle[$i] = x,
            |m: &CoupledClutches| m.chain.rate[$i], 1.0)
    };
}

/// A body's rate, from the accelerations `evaluate` left.
macro_rules! body_rate {
    ($i:literal, $name:literal) => {
        State::plain(
            $name,
            |m: &mut CoupledClutches, x| m.chain.rate[$i] = x,
            |m: &CoupledClutches| m.acceleration[$i], 1.0)
    };
}
use {body_angle, body_rate};

impl CoupledClutches {
    /// Clutch `k`'s mode as the inputs set now decide it: free at once when
    /// its normal force is <= 0 (not one step later); engaged after being
    /// free, sliding in the sense of the relative speed (locked at equal
    /// speeds); otherwise as the last step left it.
    fn mode_now(&self, k: usize) -> ClutchMode {
        let (sliding, _) = self.capacities();
        let w = &self.chain.rate;
        match (sliding[k] > 0.0, self.chain.mode[k]) {
            (false, _) => ClutchMode::Free,
            (true, ClutchMode::Free) => match w[k].partial_cmp(&w[k + 1]) {
                Some(std::cmp::Ordering::Greater) => ClutchMode::Forward,
                Some(std::cmp::Ordering::Less) => ClutchMode::Backward,
                _ => ClutchMode::Locked,
            },
            (true, mode) => mode,
        }
    }

    /// External torques on the bodies: the drive on J1.
    fn external(&self) -> [f64; 4] {
        [self.drive_torque, 0.0, 0.0, 0.0]
    }

    /// Report each clutch whose mode changed since `before`.
    fn report_modes(&self, before: &[ClutchMode], on_transition: &mut dyn FnMut(Transition)) {
        self.report_modes_at(before, None, on_transition);
    }

    /// [`Self::report_modes`], each `at` the instant given (`None`: the
    /// step's end); whether any changed.
    fn report_modes_at(&self, before: &[ClutchMode], at: Option<f64>, on_transition: &mut dyn FnMut(Transition)) -> bool {
        let mut changed = false;
        for (k, (b, a)) in before.iter().zip(&self.chain.mode).take(3).enumerate() {
            if b != a {
                let meaning = match a {
                    ClutchMode::Locked => "locked",
                    ClutchMode::Forward => "sliding forward",
                    ClutchMode::Backward => "sliding backward",
                    ClutchMode::Free => "free",
                };
                let what = ["clutch 1", "clutch 2", "clutch 3"][k];
                on_transition(Transition { what, from: b.code(), to: a.code(), meaning, at });
                changed = true;
            }
        }
        changed
    }

    /// Sliding and static capacities of the three clutches (free when f <= 0).
    fn capacities(&self) -> ([f64; 3], [f64; 3]) {
        let sliding =
            self.normal_force
                .map(|f| if f > 0.0 { self.friction_coefficient * self.max_normal_force * f } else { 0.0 });
        (sliding, sliding.map(|c| self.peak * c))
    }
}
