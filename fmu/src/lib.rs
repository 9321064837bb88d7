//! The friction models as FMUs: FMI 2.0 and FMI 3.0, Co-Simulation and Model
//! Exchange, in one binary, in layers that only point down (see
//! `ARCHITECTURE.md`; `tests/tests/architecture.rs` checks them),
//! bottom up:
//!
//! - the model contract, on the physics crate `friction`: [`description`]
//!   (how a model declares its variables: the one source of truth for the
//!   XML, the getters and setters, the docs), [`model`] (the trait a model
//!   implements: declarations plus a step), [`scenario`] (an experiment as
//!   data), [`behaviour`] (what a model's runs must show, as checks), [`system`] (an SSP system as data), [`text`], [`equations`], [`bibliography`];
//! - the models: [`models`] (listed once in `models!`) and [`scenarios`];
//! - the instance core, [`instance`]: an instance of any model, the
//!   bookkeeping of every standard (call sequence, values, step, events,
//!   FMU states, logging), knowing no FMI version and no C;
//! - the registry: [`xml`] and [`xml3`] (`modelDescription.xml` of FMI 2.0
//!   and 3.0, and the GUID), [`dependencies`] (`<ModelStructure>` measured
//!   on the model) and [`registry`] (every model's entry);
//! - the bindings: [`fmi2`] and [`fmi3`], the FMI 2.0 and FMI 3.0 C ABIs
//!   over the core, grouped by interface, on what they share at the C
//!   boundary ([`ffi`]): the only `unsafe` of the crate.
//!
//! Adding a model: a folder in `models/` (its declarations in `mod.rs`, what
//! its runs must show in `behaviour.rs`) and one entry in `models!` (its
//! physics in the `friction` crate, a row in the README's model table, and
//! `cargo xtask docs` for `docs/models.md`, the measured dependencies and the
//! model's binary in `fmu/binaries/`:
//! `ARCHITECTURE.md`, "where to start"). Running models in-process (scenarios, cross-check references)
//! is the `runner` crate's job (`crates/runner`), outside the FMU binary.

pub mod behaviour;
pub mod bibliography;
pub mod dependencies;
pub mod description;
pub mod equations;
pub mod ffi;
pub mod fmi2;
pub mod fmi3;
pub mod instance;
pub mod model;
pub mod models;
pub mod registry;
pub mod scenario;
pub mod scenarios;
pub mod system;
pub mod text;
pub mod xml;
pub mod xml3;

pub use model::Model;
