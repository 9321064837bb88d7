//! Physical quantities: each one's FMI type name, unit, base unit and
//! display units, so that a variable names a quantity and never a unit.

#![forbid(unsafe_code)]

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
            Quantity::Angle => &[
                DisplayUnit { name: "deg", factor: DEG, offset: 0.0 },
                DisplayUnit { name: "mdeg", factor: 1e3 * DEG, offset: 0.0 },
            ],
            Quantity::AngularVelocity => &[
                DisplayUnit { name: "deg/s", factor: DEG, offset: 0.0 },
                DisplayUnit { name: "rpm", factor: RPM, offset: 0.0 },
                DisplayUnit { name: "mdeg/s", factor: 1e3 * DEG, offset: 0.0 },
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
                DisplayUnit { name: "psi", factor: 1.0 / PSI, offset: 0.0 },
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
