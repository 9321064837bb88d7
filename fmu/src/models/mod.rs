//! The models, and the registry the FMI layer and the xtask read.
//!
//! To add a model: write its file here (a struct implementing [`Model`]) and
//! add one `entry::<YourModel>()` line to [`MODELS`]. Nothing else changes.

mod coulomb_inertia;
mod hill_friction_inertia;
pub mod one_dof;

pub use coulomb_inertia::CoulombInertia;
pub use hill_friction_inertia::HillFrictionInertia;

use crate::description::ModelInfo;
use crate::fmi2::erased::{Erased, ModelBox};
use crate::model::Model;
use std::sync::OnceLock;

/// One exported model: what the xtask packages and fmi2Instantiate finds.
pub struct Entry {
    pub info: ModelInfo,
    pub model_description: fn() -> String,
    pub guid: fn() -> String,
    pub new_instance: fn() -> Box<dyn Erased>,
    /// Markdown table of the variables (for the docs).
    pub variables_table: fn() -> String,
}

fn boxed<M: Model>() -> Box<dyn Erased> {
    Box::new(ModelBox::<M>::new())
}

pub const fn entry<M: Model>() -> Entry {
    Entry {
        info: M::INFO,
        model_description: crate::xml::model_description::<M>,
        guid: crate::xml::guid::<M>,
        new_instance: boxed::<M>,
        variables_table: crate::xml::variables_table::<M>,
    }
}

/// Every model this binary exports, one FMU each.
pub static MODELS: &[Entry] = &[entry::<CoulombInertia>(), entry::<HillFrictionInertia>()];

/// GUID of `MODELS[index]`, computed once.
pub fn guid(index: usize) -> &'static str {
    static GUIDS: OnceLock<Vec<String>> = OnceLock::new();
    &GUIDS.get_or_init(|| MODELS.iter().map(|m| (m.guid)()).collect())[index]
}

/// GUID of the model named `identifier`.
pub fn guid_of(identifier: &str) -> Option<&'static str> {
    MODELS.iter().position(|m| m.info.identifier == identifier).map(guid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_and_guids_are_unique() {
        for (i, a) in MODELS.iter().enumerate() {
            for (j, b) in MODELS.iter().enumerate().skip(i + 1) {
                assert_ne!(a.info.identifier, b.info.identifier);
                assert_ne!(guid(i), guid(j));
            }
        }
    }

    #[test]
    fn variable_names_are_unique_and_described() {
        for m in MODELS {
            let xml = (m.model_description)();
            assert!(!xml.contains("description=\"\""), "{} has an empty description", m.info.identifier);
        }
    }
}
