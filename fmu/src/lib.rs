//! FMI 2.0 export of the friction models (Co-Simulation and Model Exchange
//! in one binary), in layers that
//! only point down (see `docs/dev/architecture.md`):
//!
//! - model layer, on the physics crate `friction`:
//!   - [`description`]: how a model declares its variables (the one source
//!     of truth from which the XML, the getters/setters and the docs derive);
//!   - [`model`]: the trait a model implements: declarations plus a step;
//!   - [`models`]: the models, listed once in `models!`;
//!   - [`scenarios`]: the papers' experiments as data;
//!   - [`text`]: numbers and units as messages show them;
//! - FMI layer:
//!   - [`xml`]: `modelDescription.xml` and the GUID, generated from a declaration;
//!   - [`registry`]: every model's entry (XML, GUID, type-erased instance);
//!   - [`fmi2`]: the C ABI; all FMI bookkeeping lives there, once, and the
//!     only `unsafe` of the crate.
//!
//! Adding a model touches only `models/`: a new file and one entry in `models!`.
//! Running models in-process (scenarios, cross-check references) is the
//! `runner` crate's job, outside the FMU binary.

pub mod bibliography;
pub mod description;
pub mod equations;
pub mod fmi2;
pub mod instance;
pub mod model;
pub mod models;
pub mod registry;
pub mod scenario;
pub mod scenarios;
pub mod text;
pub mod xml;

pub use model::Model;
