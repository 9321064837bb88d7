//! How a standard names what the core refers to: the few words of its
//! messages ([`Vocabulary`]) and the types of its get and set functions
//! ([`Types`], checked by [`super::typed`]).

#![forbid(unsafe_code)]

use super::erased::Kind;

/// How the binding's standard names what the core's messages refer to.
pub struct Vocabulary {
    /// How an instance was created for each interface, e.g. `fmuType fmi2CoSimulation`.
    pub co_simulation: &'static str,
    pub model_exchange: &'static str,
    /// The functions still allowed after an internal error.
    pub after_internal_error: &'static str,
    /// Where a stop time comes from.
    pub stop_time: &'static str,
    /// The types of its get and set functions.
    pub types: &'static Types,
}

/// A type of a standard's get and set functions, and the kinds of value it carries.
pub struct ValueType {
    /// As the standard names it: "Float64".
    pub name: &'static str,
    pub kinds: &'static [Kind],
}

/// How a standard types values by reference.
pub struct Types {
    /// The standard's type of a kind, with its article: "a Float64".
    pub of_kind: fn(Kind) -> &'static str,
    /// The event indicators and `time` are variables, with the value
    /// references that follow the derivatives ([`crate::model::Layout`]).
    pub time_and_indicators: bool,
    /// What sets the time instead of a set of `time`.
    pub time_is_set_by: &'static str,
    /// The arguments that count references and values, when a call has both.
    pub counts: (&'static str, &'static str),
}

/// The core's own types, FMI 2.0's: an Enumeration is got and set as an
/// Integer; `time` and the event indicators have no value reference.
pub static CORE_TYPES: Types = Types {
    of_kind: |kind| match kind {
        Kind::Real | Kind::Derivative | Kind::Time | Kind::Indicator => "a Real",
        Kind::Integer | Kind::Enumeration => "an Integer",
        Kind::Boolean => "a Boolean",
    },
    time_and_indicators: false,
    time_is_set_by: "",
    counts: ("nvr", "nvr"),
};
