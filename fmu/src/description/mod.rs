//! Declarations a model makes about itself: units, variables, experiment.
//!
//! A model lists its variables once, as a `const` slice of [`Variable`]. The
//! value reference of a variable is its position in that slice, so lookups on
//! the get/set path are an index, and the XML, the accessors and the docs can
//! never disagree.
//!
//! # Declaring variables
//!
//! One line a variable, inside [`variables!`]; each entry is a constructor of
//! [`Variable`] (`input`, `output`, `parameter`, `choice_parameter`,
//! `internal_step`, ...) without the `Variable::<Self>::` prefix, then its
//! modifiers (`.min`, `.positive`, `.above`, `.max`, `.display`; what an
//! output depends on is measured, not declared). A quantity is named bare
//! (`Torque`, not `Quantity::Torque`): the macro brings [`Quantity`]'s variants into scope.
//! A variable stored in a field of the model names the field in place of its
//! name, `name = field.path` (or just `field.path` when the variable is
//! named as the field), and `variable!` derives the getter and the setter
//! from that path, so the name, the field and the access cannot drift apart;
//! Every FMU declares SI units (a test holds them to it), the papers' units
//! as display units (`.display("mdeg")`); `path * SCALE` exposes in SI a
//! field the physics keeps in another unit (the antenna's psi), and
//! `path / SCALE` the reverse.
//! Where the path is not a plain one (`law().x`, `inertia[0]`), the access
//! is `field!(path)` after the other arguments; an output computed by an
//! expression keeps its closure; a setter that does more than store keeps
//! its `(get, set)` pair.
//!
//! ```text
//! const VARIABLES: &'static [Variable<Self>] = variables! {
//!     input(tau1 = torque1, "External torque on inertia 1", Torque, 0.0),
//!     input(position_command = command, "Position command", Angle, 0.0).display("mdeg"),
//!     output(torque = servo.pressure * PSI, "Motor pressure", Pressure).display("psi"),
//!     parameter(design.gear_damping_ratio, "Damping ratio of the gear mode", Ratio, 0.05).min(0.0),
//!     parameter("tau_coulomb", "Coulomb friction torque f_c", Torque, 0.5, field!(law().coulomb_torque)).min(0.0),
//!     output(w1 = clutch.rate1, "Rate of inertia 1", AngularVelocity).display("rpm"),
//!     output("tau_net", "Drive torque minus the friction torque, a longer description that does not fit on the \
//!         first line", Torque, |m| m.drive - m.friction),
//!     choice_parameter("equation", "Which map", &STRIBECK_EQUATION, 4, choice_field!(law().shape)),
//!     internal_step(1e-3, field!(internal_step)),
//! };
//! ```
//!
//! A model's [`ModelInfo`] is `ModelInfo::new(identifier, experiment)
//! .description("...")`, the description last so that it runs on from the
//! first line.
//!
//! rustfmt leaves the brace macro alone, so the list stays one line a
//! variable; keep a line within 120 columns, a long description continuing
//! on a second line indented by four. Variables several models share are
//! constructors too, declared once beside the shared state (`clutch_w1()` in
//! `models/two_inertia.rs`; the one-inertia interface of `models/one_inertia.rs`
//! lists its own). An enumerated parameter's FMI Enumeration and its integer
//! codes come from one [`enumeration!`].

#![forbid(unsafe_code)]

/// FMI 2.0 causality.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Causality {
    Parameter,
    Input,
    Output,
}

/// FMI 2.0 variability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variability {
    /// Set before initialization only.
    Fixed,
    /// Changes only at communication points (Integer/Boolean signals).
    Discrete,
    Continuous,
}

mod declare;
mod quantity;

pub(crate) use declare::{choice_field, enumeration, field, last_field, variable, variables};
pub use declare::{Access, Choice};
pub use quantity::*;

/// How a variable's value is typed, bounded and reached in the model struct.
pub enum Value<M> {
    Real {
        quantity: Quantity,
        /// Preferred display unit (one of the quantity's), if any.
        display_unit: Option<&'static str>,
        start: f64,
        /// Bounds, declared in the XML and enforced on set. `min` is
        /// inclusive unless `exclusive_min` (e.g. an inertia must be > 0;
        /// the XML then declares the next double above `min`, which the
        /// FMU accepts).
        min: Option<f64>,
        exclusive_min: bool,
        max: Option<f64>,
        get: fn(&M) -> f64,
        set: Option<fn(&mut M, f64)>,
        /// The getter reads a stored `f64` (a field path, no scale): no
        /// floating-point operation, so a one-value read of it needs no
        /// floating-point environment of its own ([`Variable::plain`]).
        plain: bool,
    },
    Integer {
        start: i32,
        min: Option<i32>,
        max: Option<i32>,
        /// Named values (an FMI 2.0 Enumeration type); `min`/`max` are
        /// then its first and last item.
        choices: Option<&'static Enumeration>,
        get: fn(&M) -> i32,
        set: Option<fn(&mut M, i32)>,
    },
    Boolean {
        start: bool,
        get: fn(&M) -> bool,
        set: Option<fn(&mut M, bool)>,
    },
}

/// One named value of an [`Enumeration`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    /// Short identifier an importer shows, e.g. `hill`.
    pub name: &'static str,
    pub value: i32,
    pub description: &'static str,
}

/// A choice between laws or equations, declared once: it becomes an FMI 2.0
/// `Enumeration` SimpleType (importers show the item names), the range check
/// on set, and the list in the generated docs. Items are in increasing,
/// contiguous value order (a unit test checks), so the range check is a
/// `[first, last]` bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// SimpleType name, e.g. `FrictionModel`.
    pub name: &'static str,
    pub description: &'static str,
    pub items: &'static [Item],
}

impl Enumeration {
    /// `2 = static_band, 3 = rational, ...` for messages and docs.
    pub fn listing(&self) -> String {
        self.items.iter().map(|i| format!("{} = {}", i.value, i.name)).collect::<Vec<_>>().join(", ")
    }

    pub fn item(&self, value: i32) -> Option<&'static Item> {
        self.items.iter().find(|i| i.value == value)
    }
}

/// One scalar variable. Its value reference is its index in the model's list.
pub struct Variable<M> {
    pub name: &'static str,
    pub description: &'static str,
    pub causality: Causality,
    pub variability: Variability,
    pub value: Value<M>,
}

impl<M> Variable<M> {
    /// A Real input, continuous, with a start value (used until first set).
    pub const fn input(
        name: &'static str,
        description: &'static str,
        quantity: Quantity,
        start: f64,
        access: Access<M, f64>,
    ) -> Self {
        Self::real(
            name,
            description,
            Causality::Input,
            Variability::Continuous,
            quantity,
            start,
            access.0,
            Some(access.1),
        )
    }

    /// A Real output, continuous, calculated by the model.
    pub const fn output(name: &'static str, description: &'static str, quantity: Quantity, get: fn(&M) -> f64) -> Self {
        Self::real(name, description, Causality::Output, Variability::Continuous, quantity, 0.0, get, None)
    }

    /// A fixed Real parameter with a start value.
    pub const fn parameter(
        name: &'static str,
        description: &'static str,
        quantity: Quantity,
        start: f64,
        access: Access<M, f64>,
    ) -> Self {
        Self::real(
            name,
            description,
            Causality::Parameter,
            Variability::Fixed,
            quantity,
            start,
            access.0,
            Some(access.1),
        )
    }

    #[allow(clippy::too_many_arguments)]
    const fn real(
        name: &'static str,
        description: &'static str,
        causality: Causality,
        variability: Variability,
        quantity: Quantity,
        start: f64,
        get: fn(&M) -> f64,
        set: Option<fn(&mut M, f64)>,
    ) -> Self {
        Variable {
            name,
            description,
            causality,
            variability,
            value: Value::Real {
                quantity,
                display_unit: None,
                start,
                min: None,
                exclusive_min: false,
                max: None,
                get,
                set,
                plain: false,
            },
        }
    }

    /// [`Variable::input`] with the getter and setter apart (the earlier form).
    pub const fn real_input(
        name: &'static str,
        description: &'static str,
        quantity: Quantity,
        start: f64,
        get: fn(&M) -> f64,
        set: fn(&mut M, f64),
    ) -> Self {
        Self::input(name, description, quantity, start, (get, set))
    }

    /// A fixed Integer parameter (e.g. a variant selector) within `[min, max]`.
    pub const fn integer_parameter(
        name: &'static str,
        description: &'static str,
        start: i32,
        min: i32,
        max: i32,
        (get, set): Access<M, i32>,
    ) -> Self {
        Variable {
            name,
            description,
            causality: Causality::Parameter,
            variability: Variability::Fixed,
            value: Value::Integer { start, min: Some(min), max: Some(max), choices: None, get, set: Some(set) },
        }
    }

    /// A fixed parameter choosing between named alternatives (a law, an
    /// equation): an FMI 2.0 Enumeration, accessed as an Integer, whose
    /// value must be one of the items (contiguous values, see [`Enumeration`]).
    pub const fn choice_parameter(
        name: &'static str,
        description: &'static str,
        choices: &'static Enumeration,
        start: i32,
        (get, set): Access<M, i32>,
    ) -> Self {
        let items = choices.items;
        Variable {
            name,
            description,
            causality: Causality::Parameter,
            variability: Variability::Fixed,
            value: Value::Integer {
                start,
                min: Some(items[0].value),
                max: Some(items[items.len() - 1].value),
                choices: Some(choices),
                get,
                set: Some(set),
            },
        }
    }

    /// The `internal_step` parameter every model has: the longest internal
    /// integration step (s), > 0.
    pub const fn internal_step(default: f64, access: Access<M, f64>) -> Self {
        Self::parameter(
            "internal_step",
            "Longest internal integration step; doStep splits a communication step into equal substeps no longer than this",
            Quantity::Time,
            default,
            access,
        )
        .positive()
    }

    /// A discrete Integer output.
    pub const fn integer_output(
        name: &'static str,
        description: &'static str,
        min: i32,
        max: i32,
        get: fn(&M) -> i32,
    ) -> Self {
        Variable {
            name,
            description,
            causality: Causality::Output,
            variability: Variability::Discrete,
            value: Value::Integer { start: 0, min: Some(min), max: Some(max), choices: None, get, set: None },
        }
    }

    /// A discrete Boolean output.
    pub const fn boolean_output(name: &'static str, description: &'static str, get: fn(&M) -> bool) -> Self {
        Variable {
            name,
            description,
            causality: Causality::Output,
            variability: Variability::Discrete,
            value: Value::Boolean { start: false, get, set: None },
        }
    }

    /// Inclusive lower bound (Real variables only).
    pub const fn min(mut self, bound: f64) -> Self {
        if let Value::Real { ref mut min, .. } = self.value {
            *min = Some(bound);
        }
        self
    }

    /// Strictly positive (Real variables only): 0 is refused, and the XML
    /// declares `min` = the smallest positive double (5e-324), the least
    /// value accepted (FMI 2.0 has no exclusive minimum).
    pub const fn positive(self) -> Self {
        self.above(0.0)
    }

    /// Strictly above `bound` (Real variables only): `bound` itself is
    /// refused, and the XML declares `min` = the next double above it.
    pub const fn above(mut self, bound: f64) -> Self {
        if let Value::Real { ref mut min, ref mut exclusive_min, .. } = self.value {
            *min = Some(bound);
            *exclusive_min = true;
        }
        self
    }

    /// Inclusive upper bound (Real variables only).
    pub const fn max(mut self, bound: f64) -> Self {
        if let Value::Real { ref mut max, .. } = self.value {
            *max = Some(bound);
        }
        self
    }

    /// The Real variable is read as a stored field: its getter copies an
    /// `f64` and computes nothing (`variables!` marks a variable declared by
    /// a plain field path so). A no-op for other types.
    pub const fn plain(mut self) -> Self {
        if let Value::Real { ref mut plain, .. } = self.value {
            *plain = true;
        }
        self
    }

    /// Preferred display unit (Real variables only).
    pub const fn display(mut self, unit: &'static str) -> Self {
        if let Value::Real { ref mut display_unit, .. } = self.value {
            *display_unit = Some(unit);
        }
        self
    }

    /// The Enumeration type of a choice parameter.
    pub fn choices(&self) -> Option<&'static Enumeration> {
        match self.value {
            Value::Integer { choices, .. } => choices,
            _ => None,
        }
    }

    /// FMI access type: "Real", "Integer" (also for Enumerations, which are
    /// set and read with fmi2SetInteger/fmi2GetInteger) or "Boolean".
    pub fn type_name(&self) -> &'static str {
        match self.value {
            Value::Real { .. } => "Real",
            Value::Integer { .. } => "Integer",
            Value::Boolean { .. } => "Boolean",
        }
    }

    /// Whether the environment may set this variable in the given phase.
    pub fn settable(&self, initialized: bool) -> bool {
        match self.causality {
            Causality::Input => true,
            Causality::Parameter => !initialized && self.variability == Variability::Fixed,
            Causality::Output => false,
        }
    }
}

/// `DefaultExperiment tolerance` unless a model's experiment asks for a
/// tighter one ([`Experiment::with_tolerance`]); the steppers are
/// fixed-step and do not use it.
pub const DEFAULT_TOLERANCE: f64 = 1e-6;

/// The experiment a model runs by default (`DefaultExperiment`).
#[derive(Clone, Copy, Debug)]
pub struct Experiment {
    pub start_time: f64,
    pub stop_time: f64,
    pub step_size: f64,
    /// `DefaultExperiment tolerance`: the relative tolerance a variable-step
    /// importer should use for this run (Model Exchange, and the `RelTol` of
    /// the cross-check `_ref.opt`). The steppers are fixed-step and ignore it.
    pub tolerance: f64,
}

impl Experiment {
    pub const fn new(start_time: f64, stop_time: f64, step_size: f64) -> Self {
        Self { start_time, stop_time, step_size, tolerance: DEFAULT_TOLERANCE }
    }

    /// The same run with a tighter tolerance, for a model whose default run
    /// an importer's solver only resolves below [`DEFAULT_TOLERANCE`].
    pub const fn with_tolerance(self, tolerance: f64) -> Self {
        Self { tolerance, ..self }
    }
}

/// What a model says about itself besides its variables.
#[derive(Clone, Copy, Debug)]
pub struct ModelInfo {
    /// modelIdentifier, modelName and the binary's file name.
    pub identifier: &'static str,
    pub description: &'static str,
    pub default_experiment: Experiment,
    /// Input signals of the default experiment, by input name (shipped as
    /// `<Model>_in.csv`); inputs not named keep their start values. A model
    /// has no hidden signal: an input that is not set has its start value.
    pub default_inputs: &'static [(&'static str, crate::scenario::Signal)],
    /// The papers the model implements, each with the equations and figures
    /// it takes from it (see [`crate::bibliography`]); empty for the
    /// project's own coupling plants.
    pub sources: &'static [(&'static crate::bibliography::Source, &'static str)],
    /// The model's equations in the notation of [`crate::equations`], in
    /// its own variable names; its FMU's page shows them as MathML.
    pub equations: &'static [crate::equations::Equation],
    /// What the model's runs must show and the values it refuses (see
    /// [`crate::behaviour`]), kept with the model in its folder.
    pub behaviour: crate::behaviour::Behaviour,
    /// The SSP systems the model ships in (see [`crate::system`]), declared
    /// in its folder; `crates/packaging` writes them.
    pub systems: &'static [crate::system::System],
}

impl ModelInfo {
    /// `ModelInfo::new(identifier, experiment).description("...")`: the
    /// description comes last so that its text starts on the first line and
    /// runs on (rustfmt lets a last string argument overflow).
    pub const fn new(identifier: &'static str, default_experiment: Experiment) -> Self {
        Self {
            identifier,
            description: "",
            default_experiment,
            default_inputs: &[],
            sources: &[],
            equations: &[],
            behaviour: crate::behaviour::Behaviour::UNSTATED,
            systems: &[],
        }
    }

    /// The default experiment's input signals (see [`ModelInfo::default_inputs`]).
    pub const fn default_inputs(self, default_inputs: &'static [(&'static str, crate::scenario::Signal)]) -> Self {
        Self { default_inputs, ..self }
    }

    /// The papers the model implements, with what it takes from each
    /// (see [`ModelInfo::sources`]).
    pub const fn sources(self, sources: &'static [(&'static crate::bibliography::Source, &'static str)]) -> Self {
        Self { sources, ..self }
    }

    /// The model's equations (see [`ModelInfo::equations`]).
    pub const fn equations(self, equations: &'static [crate::equations::Equation]) -> Self {
        Self { equations, ..self }
    }

    /// The model's expected behaviour (see [`ModelInfo::behaviour`]).
    pub const fn expects(self, behaviour: crate::behaviour::Behaviour) -> Self {
        Self { behaviour, ..self }
    }

    /// The SSP systems it ships in (see [`ModelInfo::systems`]).
    pub const fn systems(self, systems: &'static [crate::system::System]) -> Self {
        Self { systems, ..self }
    }

    pub const fn description(self, description: &'static str) -> Self {
        Self { description, ..self }
    }
}

/// A log category the FMU declares and the environment can switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogCategory {
    pub name: &'static str,
    pub description: &'static str,
}

/// The log categories of every FMU, in declaration order; the FMI layer keeps
/// one on/off flag per entry.
pub const LOG_CATEGORIES: &[LogCategory] = &[
    LogCategory {
        name: "logEvents",
        description: "Discrete events: stick/slip and lock/unlock transitions, with their time",
    },
    LogCategory { name: "logStatusWarning", description: "Calls that returned the status Warning" },
    LogCategory { name: "logStatusDiscard", description: "Calls that returned the status Discard" },
    LogCategory {
        name: "logStatusError",
        description: "Calls that returned the status Error: the value and the rule it broke",
    },
    LogCategory { name: "logStatusFatal", description: "Calls that returned the status Fatal" },
    LogCategory { name: "logAll", description: "All of the above" },
];

/// The value reference of the declared variable at `index` of
/// `VARIABLES`: one past its position, in FMI 2.0 as in FMI 3.0 (issue 40:
/// one numbering for both standards; [`crate::model::Layout`] puts
/// the states' derivatives after the variables, then the event indicators
/// and `time`, and FMI 2.0 has the derivatives where FMI 3.0 has them).
pub const fn value_reference(index: usize) -> u32 {
    index as u32 + 1
}

/// The position in `VARIABLES` (or past it: a state's derivative) that value
/// reference `vr` names; 0 names nothing (`usize::MAX`, past every list).
#[inline(always)]
pub const fn index_of(vr: u32) -> usize {
    (vr as usize).wrapping_sub(1)
}

/// A variable as plain data, for tools and tests that do not know the model type.
#[derive(Clone, Debug, PartialEq)]
pub struct VariableInfo {
    pub name: &'static str,
    pub value_reference: u32,
    pub causality: Causality,
    pub variability: Variability,
    /// "Real", "Integer" or "Boolean".
    pub type_name: &'static str,
    /// Start value as a double (Integer and Boolean converted).
    pub start: f64,
    pub min: Option<f64>,
    pub exclusive_min: bool,
    pub max: Option<f64>,
    /// The named values of a choice parameter.
    pub choices: Option<&'static Enumeration>,
    pub description: &'static str,
}

impl<M> Variable<M> {
    pub fn info(&self, value_reference: u32) -> VariableInfo {
        let (start, min, exclusive_min, max) = match self.value {
            Value::Real { start, min, exclusive_min, max, .. } => (start, min, exclusive_min, max),
            Value::Integer { start, min, max, .. } => (start as f64, min.map(f64::from), false, max.map(f64::from)),
            Value::Boolean { start, .. } => (start as u8 as f64, None, false, None),
        };
        VariableInfo {
            name: self.name,
            value_reference,
            causality: self.causality,
            variability: self.variability,
            type_name: self.type_name(),
            start,
            min,
            exclusive_min,
            max,
            choices: self.choices(),
            description: self.description,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Toy {
        command: f64,
        inner: Inner,
    }

    struct Inner {
        gain: f64,
    }

    impl Toy {
        const VARIABLES: &'static [Variable<Self>] = variables! {
            input(position_command = command / DEGREE, "Command in degrees, stored in radians", AngleDegrees, 1.0),
            parameter(inner.gain, "Named as its field", Ratio, 2.0),
            output(gain_out = inner.gain / 4.0, "Getter only", Ratio),
        };
    }

    type Getter = fn(&Toy) -> f64;
    type Setter = fn(&mut Toy, f64);

    fn real(v: &Variable<Toy>) -> (Getter, Option<Setter>) {
        match v.value {
            Value::Real { get, set, .. } => (get, set),
            _ => panic!("{} is not Real", v.name),
        }
    }

    #[test]
    fn a_stored_variable_is_named_and_reached_through_its_field() {
        let names: Vec<_> = Toy::VARIABLES.iter().map(|v| v.name).collect();
        assert_eq!(names, ["position_command", "gain", "gain_out"]);
        let mut m = Toy { command: 0.0, inner: Inner { gain: 0.0 } };

        let (get, set) = real(&Toy::VARIABLES[0]);
        set.unwrap()(&mut m, 90.0);
        assert_eq!(m.command, 90.0 * DEGREE, "stored in SI");
        assert!((get(&m) - 90.0).abs() < 1e-12, "read back in degrees");

        let (get, set) = real(&Toy::VARIABLES[1]);
        set.unwrap()(&mut m, 3.0);
        assert_eq!((m.inner.gain, get(&m)), (3.0, 3.0));

        let (get, set) = real(&Toy::VARIABLES[2]);
        assert!(set.is_none(), "an output has no setter");
        assert_eq!(get(&m), 0.75);
    }
}
