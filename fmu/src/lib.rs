//! FMI 2.0 Co-Simulation export of the friction models.
//!
//! - [`description`]: how a model declares its variables (the one source of
//!   truth from which the XML, the getters/setters and the docs derive);
//! - [`model`]: the trait a model implements: declarations plus a step;
//! - [`xml`]: `modelDescription.xml` and the GUID, generated from a declaration;
//! - [`fmi2`]: the C ABI; all FMI bookkeeping lives there, once;
//! - [`models`]: the models and the registry that lists them.
//!
//! Adding a model touches only `models/`: a new file and one registry line.

pub mod cross_check;
pub mod description;
pub mod fmi2;
pub mod model;
pub mod models;
pub mod scenarios;
pub mod xml;

pub use model::Model;
