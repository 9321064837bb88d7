//! The models: one folder per model (or per law, for its inertia, element
//! and shaft port), listed once in `models!` below; the files beside the
//! folders are the kinds several models share.
//!
//! This is the model layer: it knows the physics crate, the declarations
//! ([`crate::description`]), the [`Model`] trait and the scenarios, and
//! nothing of FMI. The registry ([`crate::registry`]) builds its entries
//! (XML, GUID, type-erased instances) from the same list through
//! [`for_each_model!`].
//!
//! To add a model: its folder here (`mod.rs`: a struct implementing
//! [`Model`]; `behaviour.rs`: what its runs must show, given to
//! `ModelInfo::expects`), one `folder::Type` entry in `models!`, a row in
//! the README's model table, and `cargo xtask docs` (`docs/models.md`, the
//! measured dependencies, the model's binary in `fmu/binaries/`);
//! `ARCHITECTURE.md` says what else a model may need.

#![forbid(unsafe_code)]

pub mod one_inertia;
pub mod shaft_port;
pub mod two_inertia;

use crate::description::{Experiment, VariableInfo};
use crate::model::Model;
use crate::scenario::Scenario;

/// Declares the model files and what they export, once: `file::Type` (or
/// `file::{TypeA, TypeB}` for a file with several models), followed by
/// `+ SCENARIOS` when the file declares the papers' experiments. Expands to
/// the `mod` and `pub use` lines, [`SCENARIOS`], [`variables_of`] and
/// `for_each_model!` (the flat list of model types, in this order, for the
/// layers above).
macro_rules! models {
    // Normalise each entry to `(file [Type ...] [SCENARIOS?])`.
    (@munch ($d:tt) [$($done:tt)*] $file:ident :: { $($model:ident),+ $(,)? } $(+ $scenarios:ident)? $(, $($rest:tt)*)?) => {
        models!(@munch ($d) [$($done)* ($file [$($model)+] [$($scenarios)?])] $($($rest)*)?);
    };
    (@munch ($d:tt) [$($done:tt)*] $file:ident :: $model:ident $(+ $scenarios:ident)? $(, $($rest:tt)*)?) => {
        models!(@munch ($d) [$($done)* ($file [$model] [$($scenarios)?])] $($($rest)*)?);
    };
    (@munch ($d:tt) [$( ($file:ident [$($model:ident)+] [$($scenarios:ident)?]) )*]) => {
        $(
            mod $file;
            pub use $file::{$($model),+};
        )*

        /// The papers' experiments, per plant (see [`crate::scenarios`]).
        pub static SCENARIOS: &[&[Scenario]] = &[$($($file::$scenarios,)?)*];

        /// The declared variables of the model named `identifier`.
        pub fn variables_of(identifier: &str) -> Option<Vec<VariableInfo>> {
            $($(
                if identifier == <$model as Model>::INFO.identifier {
                    return Some(variables::<$model>());
                }
            )+)*
            None
        }

        /// Calls `$callback! { Type, ... }` with every model type (full
        /// paths), in declaration order: how the registry builds its
        /// registry from this list without this layer knowing it.
        macro_rules! for_each_model {
            ($d callback:ident) => {
                $d callback! { $($($crate::models::$model),+),* }
            };
        }
        pub(crate) use for_each_model;
    };
    ($($list:tt)*) => {
        models!(@munch ($) [] $($list)*);
    };
}

models! {
    conventional_coulomb_baseline::ConventionalCoulombBaseline,
    hill_friction_inertia::HillFrictionInertia,
    stribeck::{StribeckInertia, StribeckElement, StribeckShaftLoad},
    majd_simaan::{MajdSimaanInertia, MajdSimaanElement, MajdSimaanShaftLoad},
    dahl::{DahlInertia, DahlElement, DahlShaftLoad},
    clutch::ClutchStickSlip,
    load_dependent::{LoadDependentFrictionInertia, LoadDependentFrictionShaftLoad},
    two_inertia_clutch::TwoInertiaClutch + SCENARIOS,
    coupled_clutches::CoupledClutches + SCENARIOS,
    antenna_servo::AntennaAzimuthServo + SCENARIOS,
    cmg_gimbal::CmgGimbalRateLoop + SCENARIOS,
    flap_actuator::FlapActuatorServo + SCENARIOS,
    compliant_drive::CompliantDrive,
    hill_friction_shaft_load::HillFrictionShaftLoad,
    motor_drive::MotorDrive,
    shaft_clutch::ShaftClutch,
    lugre::{LuGreInertia, LuGreElement, LuGreShaftLoad},
}

/// Default experiment of the swappable 1-DOF FMUs (Coulomb, Hill, Stribeck,
/// Majd-Simaan): the body starts at rest; the applied torque of
/// [`BREAKAWAY_TORQUE`] ramps up through breakaway, then drops to zero and the
/// body slides to a stop (or, for Majd-Simaan's continuous law, decays).
pub const BREAKAWAY_EXPERIMENT: Experiment = Experiment::new(0.0, 5.0, 0.01);

/// The default experiment's `tau` (`<Model>_in.csv`): 0 to 2 N.m in 2 s, then
/// 0 N.m from 2 s on. Without the file `tau` keeps its start value 0 and the
/// body stays at rest.
pub const BREAKAWAY_TORQUE: &[(&str, crate::scenario::Signal)] =
    &[("tau", crate::scenario::Signal::Points(&[(0.0, 0.0), (2.0, 2.0), (2.0, 0.0)]))];

/// The variables of `M` as plain data, value reference = index in `VARIABLES`.
pub fn variables<M: Model>() -> Vec<VariableInfo> {
    M::VARIABLES.iter().enumerate().map(|(i, v)| v.info(crate::description::value_reference(i))).collect()
}
