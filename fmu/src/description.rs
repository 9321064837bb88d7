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
//! modifiers (`.min`, `.positive`, `.above`, `.max`, `.display`,
//! `.depends_on`). A quantity is named bare (`Torque`, not
//! `Quantity::Torque`): the macro brings [`Quantity`]'s variants into scope.
//! A variable stored in a field of the model names the field in place of its
//! name, `name = field.path` (or just `field.path` when the variable is
//! named as the field), and `variable!` derives the getter and the setter
//! from that path, so the name, the field and the access cannot drift apart;
//! `path / SCALE` exposes a field stored in SI in another unit (degrees).
//! Where the path is not a plain one (`law().x`, `inertia[0]`), the access
//! is `field!(path)` after the other arguments; an output computed by an
//! expression keeps its closure; a setter that does more than store keeps
//! its `(get, set)` pair.
//!
//! ```text
//! const VARIABLES: &'static [Variable<Self>] = variables! {
//!     input(tau1 = torque1, "External torque on inertia 1", Torque, 0.0),
//!     input(position_command = command / DEGREE, "Position command", AngleDegrees, 0.0),
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

/// One display unit: `display = factor * value + offset` (FMI 2.0, 2.2.2).
#[derive(Clone, Copy, Debug)]
pub struct DisplayUnit {
    pub name: &'static str,
    pub factor: f64,
    pub offset: f64,
}

/// SI base-unit exponents, in the order of FMI's BaseUnit attributes, and
/// the factor to SI (`si = factor * value`; 1 for SI units).
#[derive(Clone, Copy, Debug)]
pub struct BaseUnit {
    pub kg: i32,
    pub m: i32,
    pub s: i32,
    pub rad: i32,
    pub factor: f64,
}

impl Default for BaseUnit {
    fn default() -> Self {
        Self { kg: 0, m: 0, s: 0, rad: 0, factor: 1.0 }
    }
}

/// Degree in radians.
pub const DEGREE: f64 = std::f64::consts::PI / 180.0;
/// Pound-force per square inch in pascals.
pub const PSI: f64 = 6894.757293168361;

/// A physical quantity; each maps to one SimpleType and one Unit in the XML.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Quantity {
    Angle,
    AngularVelocity,
    Torque,
    /// Force (N), e.g. a clutch's normal force.
    Force,
    Inertia,
    Time,
    /// Viscous coefficient (N.m.s/rad).
    RotationalDamping,
    /// Torsional stiffness of a shaft (N.m/rad).
    RotationalStiffness,
    /// Dahl's gamma (1/(N.m.rad)).
    InverseTorqueAngle,
    /// Dimensionless.
    Ratio,
    /// Angle in degrees (the papers' command and position unit).
    AngleDegrees,
    /// Rate in degrees per second.
    AngularVelocityDegrees,
    /// Rate in millidegrees per second (Hill's Figs. 3-4).
    AngularVelocityMillidegrees,
    /// Angular acceleration (rad/s2), e.g. Hill's friction-to-inertia ratio.
    AngularAcceleration,
    /// Pressure (Pa).
    Pressure,
    /// Pressure in psi: Hill measures the antenna's drive torque as the
    /// hydraulic differential pressure.
    PressurePsi,
    /// Frequency (Hz).
    Frequency,
    /// Length (m), e.g. a servovalve's flapper and spool travel.
    Length,
    /// Linear velocity (m/s), e.g. a servovalve flapper's.
    Velocity,
    /// Servovalve pressure gain (Pa/m of spool travel).
    PressureGain,
    /// Servovalve flow gain (m3/s per m of spool travel).
    FlowGain,
    /// Leakage coefficient (m3/s per Pa).
    LeakageCoefficient,
    /// Rotary hydraulic displacement (m3/rad).
    Displacement,
    /// Rate of change of a torque (N.m/s): `der(tau_friction)` of Dahl's law.
    TorqueRate,
    /// Rate of change of a pressure (Pa/s).
    PressureRate,
    /// Rate of change of a pressure in psi (psi/s), for [`Quantity::PressurePsi`] states.
    PressureRatePsi,
    /// Angular acceleration in deg/s2, for [`Quantity::AngularVelocityDegrees`] states.
    AngularAccelerationDegrees,
    /// Angular acceleration in mdeg/s2, for [`Quantity::AngularVelocityMillidegrees`] states.
    AngularAccelerationMillidegrees,
    /// Linear acceleration (m/s2).
    Acceleration,
}

impl Quantity {
    /// SimpleType name and `quantity` attribute.
    pub fn type_name(self) -> &'static str {
        match self {
            Quantity::Angle => "Angle",
            Quantity::AngularVelocity => "AngularVelocity",
            Quantity::Torque => "Torque",
            Quantity::Force => "Force",
            Quantity::Inertia => "Inertia",
            Quantity::Time => "Time",
            Quantity::RotationalDamping => "RotationalDampingConstant",
            Quantity::RotationalStiffness => "RotationalSpringConstant",
            Quantity::InverseTorqueAngle => "InverseTorqueAngle",
            Quantity::Ratio => "Ratio",
            Quantity::AngleDegrees => "AngleDegrees",
            Quantity::AngularVelocityDegrees => "AngularVelocityDegrees",
            Quantity::AngularVelocityMillidegrees => "AngularVelocityMillidegrees",
            Quantity::AngularAcceleration => "AngularAcceleration",
            Quantity::Pressure => "Pressure",
            Quantity::PressurePsi => "PressurePsi",
            Quantity::Frequency => "Frequency",
            Quantity::Length => "Length",
            Quantity::Velocity => "Velocity",
            Quantity::PressureGain => "PressureGain",
            Quantity::FlowGain => "FlowGain",
            Quantity::LeakageCoefficient => "LeakageCoefficient",
            Quantity::Displacement => "Displacement",
            Quantity::TorqueRate => "TorqueRate",
            Quantity::PressureRate => "PressureRate",
            Quantity::PressureRatePsi => "PressureRatePsi",
            Quantity::AngularAccelerationDegrees => "AngularAccelerationDegrees",
            Quantity::AngularAccelerationMillidegrees => "AngularAccelerationMillidegrees",
            Quantity::Acceleration => "Acceleration",
        }
    }

    /// The quantity of this one's time derivative, in the same units per
    /// second, where it is declared (every quantity a continuous state has:
    /// a test checks that every `der(x)` has a unit).
    pub fn per_second(self) -> Option<Quantity> {
        match self {
            Quantity::Angle => Some(Quantity::AngularVelocity),
            Quantity::AngularVelocity => Some(Quantity::AngularAcceleration),
            Quantity::AngleDegrees => Some(Quantity::AngularVelocityDegrees),
            Quantity::AngularVelocityDegrees => Some(Quantity::AngularAccelerationDegrees),
            Quantity::AngularVelocityMillidegrees => Some(Quantity::AngularAccelerationMillidegrees),
            Quantity::Length => Some(Quantity::Velocity),
            Quantity::Velocity => Some(Quantity::Acceleration),
            Quantity::Torque => Some(Quantity::TorqueRate),
            Quantity::Pressure => Some(Quantity::PressureRate),
            Quantity::PressurePsi => Some(Quantity::PressureRatePsi),
            _ => None,
        }
    }

    /// The `quantity` attribute: what is measured, whatever the unit.
    pub fn quantity_name(self) -> &'static str {
        match self {
            Quantity::AngleDegrees => "Angle",
            Quantity::AngularVelocityDegrees | Quantity::AngularVelocityMillidegrees => "AngularVelocity",
            Quantity::AngularAccelerationDegrees | Quantity::AngularAccelerationMillidegrees => "AngularAcceleration",
            Quantity::PressurePsi => "Pressure",
            Quantity::PressureRatePsi => "PressureRate",
            q => q.type_name(),
        }
    }

    /// Unit name (Modelica/FMI spelling).
    pub fn unit(self) -> &'static str {
        match self {
            Quantity::Angle => "rad",
            Quantity::AngularVelocity => "rad/s",
            Quantity::Torque => "N.m",
            Quantity::Force => "N",
            Quantity::Inertia => "kg.m2",
            Quantity::Time => "s",
            Quantity::RotationalDamping => "N.m.s/rad",
            Quantity::RotationalStiffness => "N.m/rad",
            Quantity::InverseTorqueAngle => "1/(N.m.rad)",
            Quantity::Ratio => "1",
            Quantity::AngleDegrees => "deg",
            Quantity::AngularVelocityDegrees => "deg/s",
            Quantity::AngularVelocityMillidegrees => "mdeg/s",
            Quantity::AngularAcceleration => "rad/s2",
            Quantity::Pressure => "Pa",
            Quantity::PressurePsi => "psi",
            Quantity::Frequency => "Hz",
            Quantity::Length => "m",
            Quantity::Velocity => "m/s",
            Quantity::PressureGain => "Pa/m",
            Quantity::FlowGain => "m2/s",
            Quantity::LeakageCoefficient => "m3/(s.Pa)",
            Quantity::Displacement => "m3/rad",
            Quantity::TorqueRate => "N.m/s",
            Quantity::PressureRate => "Pa/s",
            Quantity::PressureRatePsi => "psi/s",
            Quantity::AngularAccelerationDegrees => "deg/s2",
            Quantity::AngularAccelerationMillidegrees => "mdeg/s2",
            Quantity::Acceleration => "m/s2",
        }
    }

    pub fn base_unit(self) -> BaseUnit {
        let b = BaseUnit::default();
        match self {
            Quantity::Angle => BaseUnit { rad: 1, ..b },
            Quantity::AngularVelocity => BaseUnit { rad: 1, s: -1, ..b },
            Quantity::Torque => BaseUnit { kg: 1, m: 2, s: -2, ..b },
            Quantity::Force => BaseUnit { kg: 1, m: 1, s: -2, ..b },
            Quantity::Inertia => BaseUnit { kg: 1, m: 2, ..b },
            Quantity::Time => BaseUnit { s: 1, ..b },
            Quantity::RotationalDamping => BaseUnit { kg: 1, m: 2, s: -1, rad: -1, ..b },
            Quantity::RotationalStiffness => BaseUnit { kg: 1, m: 2, s: -2, rad: -1, ..b },
            Quantity::InverseTorqueAngle => BaseUnit { kg: -1, m: -2, s: 2, rad: -1, ..b },
            Quantity::Ratio => b,
            Quantity::AngleDegrees => BaseUnit { rad: 1, factor: DEGREE, ..b },
            Quantity::AngularVelocityDegrees => BaseUnit { rad: 1, s: -1, factor: DEGREE, ..b },
            Quantity::AngularVelocityMillidegrees => BaseUnit { rad: 1, s: -1, factor: 1e-3 * DEGREE, ..b },
            Quantity::AngularAcceleration => BaseUnit { rad: 1, s: -2, ..b },
            Quantity::Pressure => BaseUnit { kg: 1, m: -1, s: -2, ..b },
            Quantity::PressurePsi => BaseUnit { kg: 1, m: -1, s: -2, factor: PSI, ..b },
            Quantity::Frequency => BaseUnit { s: -1, ..b },
            Quantity::Length => BaseUnit { m: 1, ..b },
            Quantity::Velocity => BaseUnit { m: 1, s: -1, ..b },
            Quantity::PressureGain => BaseUnit { kg: 1, m: -2, s: -2, ..b },
            Quantity::FlowGain => BaseUnit { m: 2, s: -1, ..b },
            Quantity::LeakageCoefficient => BaseUnit { kg: -1, m: 4, s: 1, ..b },
            Quantity::Displacement => BaseUnit { m: 3, rad: -1, ..b },
            Quantity::TorqueRate => BaseUnit { kg: 1, m: 2, s: -3, ..b },
            Quantity::PressureRate => BaseUnit { kg: 1, m: -1, s: -3, ..b },
            Quantity::PressureRatePsi => BaseUnit { kg: 1, m: -1, s: -3, factor: PSI, ..b },
            Quantity::AngularAccelerationDegrees => BaseUnit { rad: 1, s: -2, factor: DEGREE, ..b },
            Quantity::AngularAccelerationMillidegrees => BaseUnit { rad: 1, s: -2, factor: 1e-3 * DEGREE, ..b },
            Quantity::Acceleration => BaseUnit { m: 1, s: -2, ..b },
        }
    }

    /// Display units an engineer reads this quantity in.
    pub fn display_units(self) -> &'static [DisplayUnit] {
        const DEG: f64 = 180.0 / std::f64::consts::PI;
        const RPM: f64 = 60.0 / (2.0 * std::f64::consts::PI);
        match self {
            Quantity::Angle => &[DisplayUnit { name: "deg", factor: DEG, offset: 0.0 }],
            Quantity::AngularVelocity => &[
                DisplayUnit { name: "deg/s", factor: DEG, offset: 0.0 },
                DisplayUnit { name: "rpm", factor: RPM, offset: 0.0 },
            ],
            Quantity::Time => &[DisplayUnit { name: "ms", factor: 1000.0, offset: 0.0 }],
            Quantity::Torque => &[
                DisplayUnit { name: "kN.m", factor: 1e-3, offset: 0.0 },
                DisplayUnit { name: "mN.m", factor: 1e3, offset: 0.0 },
            ],
            Quantity::Force => &[DisplayUnit { name: "kN", factor: 1e-3, offset: 0.0 }],
            Quantity::AngularAcceleration => &[DisplayUnit { name: "mdeg/s2", factor: 1e3 * DEG, offset: 0.0 }],
            Quantity::Pressure => &[
                DisplayUnit { name: "MPa", factor: 1e-6, offset: 0.0 },
                DisplayUnit { name: "bar", factor: 1e-5, offset: 0.0 },
            ],
            Quantity::Length => &[
                DisplayUnit { name: "mm", factor: 1e3, offset: 0.0 },
                DisplayUnit { name: "um", factor: 1e6, offset: 0.0 },
            ],
            Quantity::Velocity => &[DisplayUnit { name: "mm/s", factor: 1e3, offset: 0.0 }],
            _ => &[],
        }
    }
}

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

/// How a settable variable is read and written: `(get, set)`, usually from
/// [`field!`].
pub type Access<M, T> = (fn(&M) -> T, fn(&mut M, T));

/// The `(get, set)` pair of a variable stored in a field of the model, from
/// the field's path: `field!(clutch.inertia1)` reads `m.clutch.inertia1` and
/// sets it. `field!(law().viscous)` reaches a law's parameter through
/// `HasLaw` (`m.law().viscous`, set through `m.law_mut().viscous`), so that
/// one list serves both FMUs of a law. `field!(command / DEGREE)` exposes a
/// field stored in SI in another unit: it reads `m.command / DEGREE` and sets
/// `m.command = x * DEGREE`.
macro_rules! field {
    (law() . $($path:tt)+) => {
        (|m| m.law().$($path)+, |m, x| m.law_mut().$($path)+ = x)
    };
    ($($field:ident).+ / $scale:expr) => {
        (|m| m.$($field).+ / $scale, |m, x| m.$($field).+ = x * $scale)
    };
    ($($path:tt)+) => {
        (|m| m.$($path)+, |m, x| m.$($path)+ = x)
    };
}
pub(crate) use field;

/// The Integer `(get, set)` pair of an enumerated field (a type with
/// [`Choice`], declared by [`enumeration!`]): reads its code, and sets it
/// from a code (a code outside the enumeration is refused by the range check
/// before the setter runs; the setter then leaves the field as it is).
macro_rules! choice_field {
    (law() . $($path:tt)+) => {
        (
            |m| $crate::description::Choice::code(m.law().$($path)+),
            |m, x| {
                if let Some(v) = $crate::description::Choice::from_code(x) {
                    m.law_mut().$($path)+ = v;
                }
            },
        )
    };
    ($($path:tt)+) => {
        (
            |m| $crate::description::Choice::code(m.$($path)+),
            |m, x| {
                if let Some(v) = $crate::description::Choice::from_code(x) {
                    m.$($path)+ = v;
                }
            },
        )
    };
}
pub(crate) use choice_field;

/// A model's `VARIABLES`, one line a variable (see the module doc): each
/// entry `kind(args).modifier(args)...` becomes
/// `Variable::<Self>::kind(args).modifier(args)...` (through [`variable!`]),
/// with [`Quantity`]'s variants in scope.
macro_rules! variables {
    ($($kind:ident ( $($arg:tt)* ) $(. $modifier:ident ( $($modifier_arg:tt)* ))* ),* $(,)?) => {{
        #[allow(unused_imports)]
        use $crate::description::Quantity::*;
        &[$($crate::description::variable!($kind($($arg)*)) $(.$modifier($($modifier_arg)*))*),*]
    }};
}
pub(crate) use variables;

/// One entry of [`variables!`], `kind(args)`. A variable stored in a field
/// names it instead of its name and access: `kind(name = path, args)` is
/// `kind("name", args, access)`, and `kind(path, args)` is the same with the
/// field's own name, where `access` is [`field!`]`(path)` (the getter alone
/// for an `output`, [`choice_field!`] for a `choice_parameter`), `path`
/// being `a.b.c` or `a.b.c / SCALE`. Any other entry is passed on as it is.
macro_rules! variable {
    ($kind:ident ($name:ident = $($field:ident).+ $(/ $scale:expr)?, $($arg:tt)*)) => {
        $crate::description::variable!(@stored $kind, stringify!($name), [$($field).+ $(/ $scale)?], $($arg)*)
    };
    ($kind:ident ($($field:ident).+ $(/ $scale:expr)?, $($arg:tt)*)) => {
        $crate::description::variable!(
            @stored $kind, $crate::description::last_field!($($field).+), [$($field).+ $(/ $scale)?], $($arg)*
        )
    };
    (@stored output, $name:expr, [$($field:ident).+ $(/ $scale:expr)?], $($arg:tt)*) => {
        $crate::description::Variable::<Self>::output($name, $($arg)*, |m| m.$($field).+ $(/ $scale)?)
    };
    (@stored choice_parameter, $name:expr, [$($path:tt)+], $($arg:tt)*) => {
        $crate::description::Variable::<Self>::choice_parameter(
            $name, $($arg)*, $crate::description::choice_field!($($path)+)
        )
    };
    (@stored $kind:ident, $name:expr, [$($path:tt)+], $($arg:tt)*) => {
        $crate::description::Variable::<Self>::$kind($name, $($arg)*, $crate::description::field!($($path)+))
    };
    ($kind:ident ($($arg:tt)*)) => {
        $crate::description::Variable::<Self>::$kind($($arg)*)
    };
}
pub(crate) use variable;

/// The last field of a path, as a string: `last_field!(servo.design.gain)`
/// is `"gain"`.
macro_rules! last_field {
    ($last:ident) => {
        stringify!($last)
    };
    ($first:ident . $($rest:ident).+) => {
        $crate::description::last_field!($($rest).+)
    };
}
pub(crate) use last_field;

/// A Rust enum chosen by an enumerated parameter: its integer code in the FMU.
pub trait Choice: Sized {
    fn code(self) -> i32;
    /// `None` for a code that is no item.
    fn from_code(code: i32) -> Option<Self>;
}

/// An enumerated parameter declared once: the FMI [`Enumeration`] (a
/// `const`), and [`Choice`] for the Rust enum it chooses, from one list of
/// `Variant = code, "item_name", "item description";`. Codes are contiguous
/// and increasing (the range check is `[first, last]`; a test checks). The
/// enum is usually the physics crate's (which knows nothing of FMI); write
/// `NAME: enum Type = ...` to declare it here as well, with the codes as its
/// discriminants (so `Type::Variant as i32` is a start value) and the first
/// item as its default. The `const`'s doc comment is the Enumeration's name
/// and description; a `///` line above `NAME` adds to it.
///
/// ```text
/// enumeration! {
///     pub STRIBECK_EQUATION: ClassicalShape = "StribeckEquation", "Classical friction map" {
///         StaticBand = 2, "static_band", "Eq. (2): static band";
///         Rational = 3, "rational", "Eq. (3): rational Stribeck curve";
///     }
/// }
/// ```
macro_rules! enumeration {
    // The model owns the enum: declare it too (the first item is the default).
    (
        $(#[$doc:meta])*
        $vis:vis $name:ident : enum $rust:ident = $fmi_name:literal, $description:literal {
            $first:ident = $first_code:literal, $first_item:literal, $first_description:literal;
            $($variant:ident = $code:literal, $item:literal, $item_description:literal;)*
        }
    ) => {
        #[doc = $description]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        $vis enum $rust {
            #[doc = $first_description]
            #[default]
            $first = $first_code,
            $(#[doc = $item_description] $variant = $code,)*
        }

        $crate::description::enumeration! {
            $(#[$doc])*
            $vis $name: $rust = $fmi_name, $description {
                $first = $first_code, $first_item, $first_description;
                $($variant = $code, $item, $item_description;)*
            }
        }
    };
    (
        $(#[$doc:meta])*
        $vis:vis $name:ident : $rust:ident = $fmi_name:literal, $description:literal {
            $($variant:ident = $code:literal, $item:literal, $item_description:literal;)+
        }
    ) => {
        #[doc = concat!("FMI Enumeration `", $fmi_name, "`: ", $description, ".")]
        $(#[$doc])*
        $vis const $name: $crate::description::Enumeration = $crate::description::Enumeration {
            name: $fmi_name,
            description: $description,
            items: &[$($crate::description::Item { name: $item, value: $code, description: $item_description }),+],
        };

        impl $crate::description::Choice for $rust {
            fn code(self) -> i32 {
                match self {
                    $($rust::$variant => $code,)+
                }
            }
            fn from_code(code: i32) -> Option<Self> {
                match code {
                    $($code => Some($rust::$variant),)+
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use enumeration;

/// One scalar variable. Its value reference is its index in the model's list.
pub struct Variable<M> {
    pub name: &'static str,
    pub description: &'static str,
    pub causality: Causality,
    pub variability: Variability,
    pub value: Value<M>,
    /// Outputs only: the inputs it depends on directly (feedthrough), by
    /// name; empty for outputs that change only in doStep.
    pub depends_on: &'static [&'static str],
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
            },
            depends_on: &[],
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
            depends_on: &[],
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
            depends_on: &[],
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
            depends_on: &[],
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
            depends_on: &[],
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

    /// Direct dependencies of an output on inputs, by name.
    pub const fn depends_on(mut self, inputs: &'static [&'static str]) -> Self {
        self.depends_on = inputs;
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

/// The experiment a model runs by default (`DefaultExperiment`).
#[derive(Clone, Copy, Debug)]
pub struct Experiment {
    pub start_time: f64,
    pub stop_time: f64,
    pub step_size: f64,
}

impl Experiment {
    pub const fn new(start_time: f64, stop_time: f64, step_size: f64) -> Self {
        Self { start_time, stop_time, step_size }
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
}

impl ModelInfo {
    /// `ModelInfo::new(identifier, experiment).description("...")`: the
    /// description comes last so that its text starts on the first line and
    /// runs on (rustfmt lets a last string argument overflow).
    pub const fn new(identifier: &'static str, default_experiment: Experiment) -> Self {
        Self { identifier, description: "", default_experiment, default_inputs: &[], sources: &[], equations: &[] }
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
    LogCategory { name: "logStatusWarning", description: "Calls that returned fmi2Warning" },
    LogCategory { name: "logStatusDiscard", description: "Calls that returned fmi2Discard" },
    LogCategory {
        name: "logStatusError",
        description: "Calls that returned fmi2Error: the value and the rule it broke",
    },
    LogCategory { name: "logStatusFatal", description: "Calls that returned fmi2Fatal" },
    LogCategory { name: "logAll", description: "All of the above" },
];

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
