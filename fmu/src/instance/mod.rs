//! The instance core: one FMU instance as every standard sees it, knowing
//! no FMI version and no C. It holds the call-sequence state machine (which
//! call is allowed in which [`Phase`]), the time keeping, the value access
//! by reference, the FMU states, the event iteration and the logging of
//! transitions; a binding (`crate::fmi2`) turns C arguments into these
//! calls and says, per function of its standard, where it is allowed.
//!
//! [`machine`] holds the [`Instance`] and how a call is admitted; the calls
//! are grouped by interface: [`common`] what both share, [`co_simulation`]
//! the step, [`model_exchange`] the hybrid bookkeeping, [`fmu_state`]
//! saving, restoring and serializing; [`typed`] the values in a
//! standard's types, which it names in [`words`]. Below them, the model side behind one
//! object ([`erased`]): values ([`access`]), the step ([`step`]), the hybrid
//! form ([`hybrid`]), the model and its start values ([`model_box`]).

#![forbid(unsafe_code)]

#[macro_use]
pub mod access;
pub mod co_simulation;
pub mod common;
pub mod erased;
pub mod finite;
pub mod float_host;
pub mod fmu_state;
pub mod hybrid;
pub mod log;
pub mod machine;
pub mod model_box;
pub mod model_exchange;
pub mod phase;
pub mod snapshot;
pub mod step;
pub mod typed;
pub mod words;

pub use erased::{Erased, Kind};
pub use float_host::{FloatCheck, FloatHost, InHost};
pub use log::{Log, Sink, Status};
pub use machine::{CoSimulationEvents, Instance, Interface, Outcome, INSTANCE_MAGIC};
pub use model_box::ModelBox;
pub use phase::{Allowed, Phase};
pub use step::StepEnd;
pub use typed::Access;
pub use words::{Types, ValueType, Vocabulary, CORE_TYPES};
