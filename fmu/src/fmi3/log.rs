//! The instance's log, sent to the importer's `fmi3LogMessageCallback`.

use super::types::{Fmi3InstanceEnvironment, LogMessage};
pub use crate::instance::log::*;
use std::ffi::{CStr, CString};

/// The category names as C strings, index-aligned with
/// [`crate::description::LOG_CATEGORIES`] (a test checks it).
const CATEGORY_NAMES: [&CStr; 6] =
    [c"logEvents", c"logStatusWarning", c"logStatusDiscard", c"logStatusError", c"logStatusFatal", c"logAll"];

/// The importer's callback and its environment: the sink of an instance's [`Log`].
struct Callback {
    log_message: LogMessage,
    environment: Fmi3InstanceEnvironment,
}

/// A log that sends to the importer's `fmi3LogMessageCallback`. FMI 3.0
/// passes no instance name to the callback (the environment identifies
/// the instance), so messages carry none either.
pub fn to_callback(log_message: LogMessage, environment: Fmi3InstanceEnvironment, logging_on: bool) -> Log {
    Log::new(Box::new(Callback { log_message, environment }), logging_on)
}

impl Sink for Callback {
    fn send(&self, status: Status, category: usize, message: &str) {
        // Interior NULs would truncate the message (FMI 3.0 has no format
        // string: '%' is passed as it is).
        let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
        // SAFETY: the callback was checked non-NULL at instantiation; both
        // strings are NUL-terminated and outlive the call.
        unsafe { (self.log_message)(self.environment, status, CATEGORY_NAMES[category].as_ptr(), text.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn category_names_match_the_declared_categories() {
        let declared = crate::description::LOG_CATEGORIES;
        assert_eq!(CATEGORY_NAMES.len(), declared.len());
        for (c, d) in CATEGORY_NAMES.iter().zip(declared) {
            assert_eq!(c.to_str().unwrap(), d.name);
        }
    }
}
