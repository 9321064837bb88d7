//! The shared 1-DOF interface for laws with their own parameter sets, and the
//! friction-element interface (`w_rel` in, `tau_friction` out) for coupling
//! a smooth law to an existing plant.
//!
//! A model file only adds its parameters and INFO, through
//! `inertia_model!` and `element_model!`.

use crate::model::states;
use crate::model::{Hybrid, State, Transition};
use friction::{FrictionInertia, RigidBodyFriction, StickSlipContact};
use serde::{de::DeserializeOwned, Deserialize, Serialize};

/// What a law adds to the 1-DOF and element interfaces.
pub trait LawHooks: RigidBodyFriction + Clone + Default + Send + Serialize + DeserializeOwned + 'static {
    /// Derive internal quantities and reset the law's state for a body
    /// starting at `rate_start` (e.g. Majd-Simaan's sigma, Dahl's `Tf`).
    fn prepare(&mut self, rate_start: f64);
    /// Rules across the law's parameters.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
    /// Friction torque on the body at the start (before any step); for the
    /// smooth laws also the friction at `rate_start` in the law's current
    /// state, the right-hand side of their Model Exchange ODE.
    fn initial_friction(&self, rate_start: f64) -> f64;
    /// The law integrates exactly under an applied torque linear in time
    /// (see `friction::RigidBodyFriction::advance_interval`): its 1-DOF FMU
    /// then gives the derivatives of `phi` and `w`. (Every 1-DOF FMU takes
    /// the derivative of `tau`: exact laws integrate the ramp, the others
    /// apply its mean over each internal step.)
    const EXACT: bool = false;
    /// Acceleration of the body at the start (the derivative of `w` before
    /// the first step); only used by exact laws.
    fn initial_acceleration(&self, _applied: f64, _rate_start: f64, _inertia: f64) -> f64 {
        0.0
    }
    /// Rules that tie the law to the body and the internal step (e.g. a
    /// stability bound), checked when a Co-Simulation instance leaves
    /// initialization.
    fn check_step(&self, _inertia: f64, _internal_step: f64) -> Result<(), String> {
        Ok(())
    }
    /// Model Exchange: the law is a stick-slip contact (a static level the
    /// torque must pass to break away, a sliding friction while moving), and
    /// the 1-DOF FMU offers Model Exchange in the form of
    /// [`LawInertia::HYBRID_STICK_SLIP`].
    const STICK_SLIP: bool = false;
    /// The law chatters about zero where the body should rest (the
    /// conventional baseline): its `w` is not exactly 0 while "stuck".
    const CHATTERS: bool = false;
    /// The static level: the torque the contact holds while stuck (> it
    /// breaks away).
    fn breakaway_torque(&self) -> f64 {
        0.0
    }
    /// Magnitude of the friction torque while sliding at `speed` = |w| >= 0.
    fn sliding_torque(&self, _speed: f64) -> f64 {
        0.0
    }
    /// While sliding at `speed`: an indicator that changes sign where the
    /// sliding friction jumps (none: a constant).
    fn sliding_kink(&self, _speed: f64) -> f64 {
        1.0
    }
    /// Model Exchange of a smooth law (no stiction state: Majd-Simaan,
    /// Dahl): the 1-DOF FMU is the ODE `J*dw/dt = tau + initial_friction(w)`
    /// with these continuous states (phi, w and any the law carries), in the
    /// form of [`LawInertia::HYBRID_SMOOTH`]. Empty for the other laws.
    const SMOOTH_STATES: &'static [State<LawInertia<Self>>] = &[];
}

/// Laws that also work as a friction element driven by a relative speed.
pub trait ElementLaw: LawHooks {
    /// The relative speed `w_rel` held over `dt`; returns the friction torque
    /// on the body (opposing `w_rel`).
    fn element_step(&mut self, w_rel: f64, dt: f64) -> f64;
    /// The output for the current input and the torque stored by the last step.
    fn output(&self, _w_rel: f64, stored: f64) -> f64 {
        stored
    }
    /// Model Exchange: the element's continuous states (Dahl: its friction
    /// torque); none for a memoryless law, whose output follows `w_rel`.
    const ELEMENT_STATES: &'static [State<LawElement<Self>>] = &[];
}

/// The rule shared by every law with a static and a Coulomb level.
pub fn static_at_least_coulomb(
    static_name: &str,
    static_torque: f64,
    coulomb_name: &str,
    coulomb_torque: f64,
) -> Result<(), String> {
    if static_torque < coulomb_torque {
        return Err(format!(
            "{static_name} = {static_torque} N.m is below {coulomb_name} = {coulomb_torque} N.m: static friction must be >= Coulomb friction"
        ));
    }
    Ok(())
}

/// One inertia under an applied torque and the friction law `L`.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct LawInertia<L> {
    pub applied_torque: f64,
    /// d(tau)/dt set by fmi2SetRealInputDerivatives for the next step (exact laws).
    pub applied_slope: f64,
    pub rate_start: f64,
    pub angle_start: f64,
    pub internal_step: f64,
    /// `body.inertia` is the parameter `J`; `body.law` holds the law's parameters.
    pub body: FrictionInertia<L>,
    /// The contact's mode: the motion of the rate after a step
    /// (Co-Simulation); in Model Exchange the discrete state, changed only at
    /// events (sliding forward from a breakaway while w is still 0).
    pub contact: friction::Motion,
}

impl<L: LawHooks> LawInertia<L> {
    pub fn initialize_body(&mut self) {
        self.body.angle = self.angle_start;
        self.body.rate = self.rate_start;
        self.body.law.prepare(self.rate_start);
        self.body.friction_torque = self.body.law.initial_friction(self.rate_start);
        self.body.acceleration =
            self.body.law.initial_acceleration(self.applied_torque, self.rate_start, self.body.inertia);
        self.contact = self.body.motion();
    }

    #[inline]
    pub fn step_body(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let before = self.body.motion();
        let event = self.body.step_ramp(self.applied_torque, self.applied_slope, dt);
        self.contact = self.body.motion();
        if let Some(t) = Transition::of_motion(before, self.contact) {
            on_transition(t.at(event));
        }
    }
}

/// Model Exchange of a stick-slip law on one inertia, as Modelica's friction
/// elements do it (`friction::StickSlipContact`): a discrete contact mode,
/// stuck (w and its derivative exactly 0, the friction holding the applied
/// torque) or sliding forward or backward (the law's sliding friction);
/// breakaway when |tau| passes the static level, a stop when w crosses 0
/// (then w is set to exactly 0.0).
impl<L: LawHooks> LawInertia<L> {
    fn contact(law: &L) -> StickSlipContact {
        StickSlipContact { breakaway: law.breakaway_torque(), sliding_at_rest: law.sliding_torque(0.0) }
    }

    pub const HYBRID_STICK_SLIP: crate::model::Hybrid<Self> = crate::model::Hybrid {
        states: states! {
            state("phi", |m, x| m.body.angle = x,
                |m| if m.contact == friction::Motion::Stuck { 0.0 } else { m.body.rate }),
            state("w", |m, x| m.body.rate = x, |m| m.body.acceleration),
        },
        indicators: 2,
        evaluate: |m| {
            let speed = m.contact.sign() * m.body.rate;
            let sliding = m.body.law.sliding_torque(speed.max(0.0));
            let friction = StickSlipContact::friction(m.contact, m.applied_torque, sliding);
            m.body.friction_torque = friction;
            m.body.acceleration =
                if m.contact == friction::Motion::Stuck { 0.0 } else { (m.applied_torque + friction) / m.body.inertia };
        },
        event_indicators: |m, z| {
            let kink = m.body.law.sliding_kink(m.contact.sign() * m.body.rate);
            z.copy_from_slice(&Self::contact(&m.body.law).indicators(m.contact, m.applied_torque, m.body.rate, kink));
        },
        event: |m, on_transition| {
            let before = m.contact;
            m.contact = Self::contact(&m.body.law).settle(before, &mut m.body.rate, m.applied_torque);
            match Transition::of_motion(before, m.contact) {
                Some(t) => {
                    on_transition(t);
                    true
                }
                None => false,
            }
        },
    };
}

/// Model Exchange of a smooth law on one inertia: the plain ODE
/// `J*dw/dt = tau + tau_friction(w, law state)`; the one event indicator is
/// the rate, so that the discrete `mode` (the sign of w) changes only at an
/// event, where the solver restarts.
impl<L: LawHooks> LawInertia<L> {
    /// `phi`, integrating `w`.
    pub const ANGLE: State<Self> = State::plain("phi", |m, x| m.body.angle = x, |m| m.body.rate, 1.0);
    /// `w`, from the friction at the current rate (memoryless maps).
    pub const RATE_OF_MAP: State<Self> = State::plain("w", |m, x| m.body.rate = x, |m| m.body.acceleration, 1.0);

    pub const HYBRID_SMOOTH: Hybrid<Self> = Hybrid {
        states: L::SMOOTH_STATES,
        indicators: 1,
        evaluate: |m| {
            m.body.friction_torque = m.body.law.initial_friction(m.body.rate);
            m.body.acceleration = (m.applied_torque + m.body.friction_torque) / m.body.inertia;
        },
        event_indicators: |m, z| z[0] = m.body.rate,
        event: |m, on_transition| {
            let before = m.contact;
            m.contact = friction::Motion::of_rate(m.body.rate);
            Transition::of_motion(before, m.contact).map(|t| on_transition(t)).is_some()
        },
    };
}

/// Model Exchange of a friction element: the law's states (none for a map,
/// whose output follows `w_rel` at once), and event indicators where the
/// output jumps or kinks: `w_rel` crossing 0 (the sign of the friction) and
/// the law's sliding kink (Eq. 2's band edge).
impl<L: ElementLaw> LawElement<L> {
    pub const HYBRID_ELEMENT: Hybrid<Self> = Hybrid {
        states: L::ELEMENT_STATES,
        indicators: 2,
        evaluate: |_| {},
        event_indicators: |m, z| {
            z[0] = m.relative_speed;
            z[1] = m.law.sliding_kink(m.relative_speed.abs());
        },
        event: |_, _| false,
    };
}

/// The friction elements' default experiment input (`<Model>_in.csv`):
/// `w_rel = 0.05*sin(2*pi*t)` rad/s, one period in the 1 s run, so that
/// the run shows the law's curve (or Dahl's loop). Without it `w_rel` keeps
/// its start value 0.
pub const ELEMENT_DEFAULT_INPUTS: &[(&str, crate::scenario::Signal)] =
    &[("w_rel", crate::scenario::Signal::Sine { offset: 0.0, amplitude: 0.05, frequency: 1.0, phase: 0.0 })];

/// A friction element: relative speed in, friction torque out.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct LawElement<L> {
    pub relative_speed: f64,
    pub friction_torque: f64,
    pub internal_step: f64,
    pub law: L,
}

impl<L: ElementLaw> LawElement<L> {
    /// `tau_friction`: for the current input and the torque stored by the last step.
    pub fn friction_output(&self) -> f64 {
        self.law.output(self.relative_speed, self.friction_torque)
    }

    pub fn initialize_element(&mut self) {
        self.law.prepare(0.0);
        self.friction_torque = self.law.output(self.relative_speed, self.law.initial_friction(0.0));
    }

    #[inline]
    pub fn step_element(&mut self, dt: f64) {
        self.friction_torque = self.law.element_step(self.relative_speed, dt);
    }
}

/// `ElementLaw` for a memoryless velocity map: the output is `-F(w_rel)` at once.
#[macro_export]
macro_rules! map_element_law {
    ($law:ty) => {
        impl $crate::models::one_inertia::ElementLaw for $law {
            fn output(&self, w_rel: f64, _stored: f64) -> f64 {
                $crate::models::one_inertia::map_torque(self, w_rel)
            }
            #[inline]
            fn element_step(&mut self, w_rel: f64, _dt: f64) -> f64 {
                $crate::models::one_inertia::map_torque(self, w_rel)
            }
        }
    };
}

/// Friction torque on the body for a memoryless map law.
#[inline]
pub fn map_torque<M: friction::VelocityMap>(map: &M, w_rel: f64) -> f64 {
    0.0 - map.friction(w_rel)
}

/// Access to the law's parameters, so one list of law variables serves
/// both the inertia and the element model.
pub trait HasLaw<L> {
    fn law(&self) -> &L;
    fn law_mut(&mut self) -> &mut L;
}

impl<L> HasLaw<L> for LawInertia<L> {
    fn law(&self) -> &L {
        &self.body.law
    }
    fn law_mut(&mut self) -> &mut L {
        &mut self.body.law
    }
}

impl<L> HasLaw<L> for LawElement<L> {
    fn law(&self) -> &L {
        &self.law
    }
    fn law_mut(&mut self) -> &mut L {
        &mut self.law
    }
}

/// The FMUs of a law: `<Law>Inertia`, `<Law>Element` and, with `shaft:`,
/// `<Law>ShaftLoad` (see [`crate::models::shaft_port`]), with the law's
/// parameters (written against [`HasLaw`]) declared once.
#[macro_export]
macro_rules! law_models {
    (
        $law:ty,
        inertia: $inertia_info:expr,
        element: $element_info:expr,
        $(shaft: $shaft_info:expr,)?
        default_step: $step:expr,
        j_start: $j:expr,
        w_start: $w:expr,
        $extra:tt
    ) => {
        $crate::inertia_model!($law, $inertia_info, default_step: $step, j_start: $j, w_start: $w, $extra);
        $crate::element_model!($law, $element_info, default_step: $step, $extra);
        $($crate::shaft_model!($law, $shaft_info, default_step: $step, $extra);)?
    };
}

/// `impl Model for LawInertia<$law>`: the 1-DOF interface (vr 0-8) plus the
/// law's parameters (vr 9 on). Use through [`law_models!`].
#[macro_export]
macro_rules! inertia_model {
    ($law:ty, $info:expr, default_step: $step:expr, j_start: $j:expr, w_start: $w:expr, [$($extra:tt)*]) => {
        impl $crate::model::Model for $crate::models::one_inertia::LawInertia<$law> {
            const INFO: $crate::description::ModelInfo = $info;
            const VARIABLES: &'static [$crate::description::Variable<Self>] = $crate::description::variables! {
                input(tau = applied_torque, "Applied torque on the inertia, held over each communication step \
                    unless the importer sends its derivative (FMI 2.0's input derivatives: exact laws integrate the \
                    ramp, the others apply its mean over each internal step); fmpy.simulate_fmu holds it", Torque, 0.0),
                output(phi = body.angle, "Angle of the inertia", Angle).display("deg"),
                output(w = body.rate, if <$law as $crate::models::one_inertia::LawHooks>::CHATTERS {
                    "Rate (angular velocity) of the inertia; where the body should rest it chatters about 0 (the \
                    explicit Euler baseline), exactly 0 only where a step lands there"
                } else {
                    "Rate (angular velocity) of the inertia; exactly 0 while stuck"
                }, AngularVelocity).display("deg/s"),
                output(tau_friction = body.friction_torque, if <Self as $crate::model::Model>::HYBRID.is_some() {
                    "Friction torque on the inertia: Co-Simulation, its effective value over the last internal step \
                    (J*dw/dt = tau + tau_friction); Model Exchange, its value now (-tau while stuck)"
                } else {
                    "Friction torque on the inertia: its effective value over the last internal step (J*dw/dt = tau + \
                    tau_friction)"
                }, Torque),
                integer_output("mode", "Motion: -1 sliding backward, 0 stuck (w exactly 0), +1 sliding forward", -1, 1,
                    |m| m.contact.as_i32()),
                parameter(J = body.inertia, "Moment of inertia J (> 0)", Inertia, $j).positive(),
                parameter(w_start = rate_start, "Rate at the start time", AngularVelocity, $w),
                parameter(phi_start = angle_start, "Angle at the start time", Angle, 0.0),
                internal_step($step, $crate::description::field!(internal_step)),
                $($extra)*
            };
            // Exact laws integrate the ramp exactly; the others apply its mean
            // over each internal step (the exact impulse).
            const INPUT_DERIVATIVES: &'static [$crate::model::InputDerivative<Self>] =
                &[$crate::model::InputDerivative { input: "tau", get: |m| m.applied_slope, set: |m, x| m.applied_slope = x }];
            // d(phi)/dt = w; d(w)/dt at the end of the step from the exact solution (0 while stuck).
            const OUTPUT_DERIVATIVES: &'static [$crate::model::OutputDerivative<Self>] =
                if <$law as $crate::models::one_inertia::LawHooks>::EXACT {
                    &[
                        $crate::model::OutputDerivative { output: "phi", get: |m| m.body.rate },
                        $crate::model::OutputDerivative { output: "w", get: |m| m.body.acceleration },
                    ]
                } else {
                    &[]
                };
            const HYBRID: Option<$crate::model::Hybrid<Self>> =
                if <$law as $crate::models::one_inertia::LawHooks>::STICK_SLIP {
                    Some(Self::HYBRID_STICK_SLIP)
                } else if !<$law as $crate::models::one_inertia::LawHooks>::SMOOTH_STATES.is_empty() {
                    Some(Self::HYBRID_SMOOTH)
                } else {
                    None
                };
            fn max_substep(&self) -> f64 {
                self.internal_step
            }
            fn check(&self) -> Result<(), String> {
                $crate::models::one_inertia::LawHooks::check(&self.body.law)
            }
            fn check_internal_step(&self) -> Result<(), String> {
                $crate::models::one_inertia::LawHooks::check_step(&self.body.law, self.body.inertia, self.internal_step)
            }
            fn initialize(&mut self) {
                self.initialize_body();
            }
            #[inline]
            fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut($crate::model::Transition)) {
                self.step_body(dt, on_transition);
            }
        }
    };
}

/// `impl Model for LawElement<$law>`: `w_rel` in, `tau_friction` out (vr 0-2),
/// plus the law's parameters (vr 3 on).
#[macro_export]
macro_rules! element_model {
    ($law:ty, $info:expr, default_step: $step:expr, [$($extra:tt)*]) => {
        impl $crate::model::Model for $crate::models::one_inertia::LawElement<$law> {
            const INFO: $crate::description::ModelInfo = $info;
            const VARIABLES: &'static [$crate::description::Variable<Self>] = $crate::description::variables! {
                input(w_rel = relative_speed, "Relative speed of the sliding surfaces; its start value 0 holds \
                    until the environment sets it (the default experiment drives it through <Model>_in.csv). Fed \
                    from a rigid inertia through a held input the friction chatters (docs/coupling.md, capabilities and their limits): couple \
                    through a compliance or use the law's inertia FMU",
                    AngularVelocity, 0.0),
                output("tau_friction", "Friction torque on the body moving at w_rel (opposes w_rel): F(w_rel) at once \
                    for memoryless laws, the state after the last step for Dahl", Torque, |m| m.friction_output()),
                internal_step($step, $crate::description::field!(internal_step)),
                $($extra)*
            };
            const HYBRID: Option<$crate::model::Hybrid<Self>> = Some(Self::HYBRID_ELEMENT);
            fn max_substep(&self) -> f64 {
                self.internal_step
            }
            fn check(&self) -> Result<(), String> {
                $crate::models::one_inertia::LawHooks::check(&self.law)
            }
            fn initialize(&mut self) {
                self.initialize_element();
            }
            #[inline]
            fn step(&mut self, dt: f64, _on_transition: &mut dyn FnMut($crate::model::Transition)) {
                self.step_element(dt);
            }
        }
    };
}
