//! Messages to the importer's logger, by category, through whatever sink
//! the binding supplies (FMI 2.0's callback, or a test's collector).

#![forbid(unsafe_code)]

use crate::description::LOG_CATEGORIES;

/// The status of a call, as FMI 2.0 and 3.0 both number it (`fmi2Status`
/// and `fmi3Status` agree on these five; FMI 2.0's `fmi2Pending` is never
/// returned: no step runs asynchronously).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ok = 0,
    Warning = 1,
    Discard = 2,
    Error = 3,
    Fatal = 4,
}

/// Indices into [`LOG_CATEGORIES`].
pub const EVENTS: usize = 0;
pub const WARNING: usize = 1;
pub const DISCARD: usize = 2;
pub const ERROR: usize = 3;
pub const FATAL: usize = 4;
pub const ALL: usize = 5;
const CATEGORIES: usize = ALL + 1;

/// Where an instance's messages go: the binding's logger callback.
pub trait Sink {
    /// Deliver `message` of `category` (an index into [`LOG_CATEGORIES`]).
    fn send(&self, status: Status, category: usize, message: &str);
}

/// The sink, and which categories are on.
pub struct Log {
    sink: Box<dyn Sink>,
    on: [bool; CATEGORIES],
}

impl Log {
    pub fn new(sink: Box<dyn Sink>, logging_on: bool) -> Self {
        Self { sink, on: [logging_on; CATEGORIES] }
    }

    /// A log that sends nothing: for work on a copy of the model that the
    /// importer does not see (errors come back as the call's message).
    pub fn silent() -> Self {
        Self { sink: Box::new(Silent), on: [false; CATEGORIES] }
    }

    /// Whether messages of `category` reach the logger. Errors and fatal
    /// errors always do: an importer must be told why a call failed even
    /// when debug logging is off.
    #[inline]
    pub fn enabled(&self, category: usize) -> bool {
        category == ERROR || category == FATAL || self.on[category]
    }

    /// Switch categories by name: none, or `logAll`, switches every
    /// category; otherwise each named one. Known names are applied even if
    /// others are unknown; the unknown ones come back as the error.
    pub fn set(&mut self, logging_on: bool, categories: &[&str]) -> Result<(), String> {
        if categories.is_empty() {
            self.on = [logging_on; CATEGORIES];
            return Ok(());
        }
        let mut unknown = Vec::new();
        for name in categories {
            match LOG_CATEGORIES.iter().position(|c| c.name == *name) {
                Some(ALL) => self.on = [logging_on; CATEGORIES],
                Some(i) => self.on[i] = logging_on,
                None => unknown.push(format!("\"{name}\"")),
            }
        }
        if unknown.is_empty() {
            return Ok(());
        }
        let known: Vec<&str> = LOG_CATEGORIES.iter().map(|c| c.name).collect();
        Err(format!("unknown log categories {} ignored (known: {})", unknown.join(", "), known.join(", ")))
    }

    /// Send `message` if its category is enabled.
    pub fn emit(&self, status: Status, category: usize, message: &str) {
        if self.enabled(category) {
            self.sink.send(status, category, message);
        }
    }
}

struct Silent;

impl Sink for Silent {
    fn send(&self, _: Status, _: usize, _: &str) {}
}

/// Category for a returned status.
pub fn category_of(status: Status) -> usize {
    match status {
        Status::Warning => WARNING,
        Status::Discard => DISCARD,
        Status::Fatal => FATAL,
        _ => ERROR,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_category_indices_name_the_declared_categories() {
        assert_eq!(CATEGORIES, LOG_CATEGORIES.len());
        let names: Vec<_> = LOG_CATEGORIES.iter().map(|c| c.name).collect();
        assert_eq!(
            [names[EVENTS], names[WARNING], names[DISCARD], names[ERROR], names[FATAL], names[ALL]],
            ["logEvents", "logStatusWarning", "logStatusDiscard", "logStatusError", "logStatusFatal", "logAll"]
        );
    }
}
