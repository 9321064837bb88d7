//! The instance's log, sent to the importer's `fmi2CallbackLogger`.

use super::types::{Fmi2ComponentEnvironment, Logger};
#[cfg(test)]
use crate::description::LOG_CATEGORIES;
pub use crate::instance::log::*;
use std::ffi::{CStr, CString};

/// The category names as C strings, index-aligned with [`LOG_CATEGORIES`]
/// (a test checks it), so that no category pointer is ever NULL.
const CATEGORY_NAMES: [&CStr; 6] =
    [c"logEvents", c"logStatusWarning", c"logStatusDiscard", c"logStatusError", c"logStatusFatal", c"logAll"];

/// The importer's logger callback, its environment and the instance name:
/// the sink of an instance's [`Log`].
struct Callback {
    logger: Logger,
    environment: Fmi2ComponentEnvironment,
    instance_name: CString,
}

/// A log that sends to the importer's `fmi2CallbackLogger`.
pub fn to_logger(
    logger: Logger,
    environment: Fmi2ComponentEnvironment,
    instance_name: CString,
    logging_on: bool,
) -> Log {
    Log::new(Box::new(Callback { logger, environment, instance_name }), logging_on)
}

impl Sink for Callback {
    fn send(&self, status: Status, category: usize, message: &str) {
        // Interior NULs would truncate the message; '%' is passed through a
        // "%s" format so that the environment's printf never interprets it.
        let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
        // SAFETY: the logger was checked non-NULL at instantiation; all
        // strings are NUL-terminated and outlive the call.
        unsafe {
            (self.logger)(
                self.environment,
                self.instance_name.as_ptr(),
                status,
                CATEGORY_NAMES[category].as_ptr(),
                c"%s".as_ptr(),
                text.as_ptr(),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn category_names_match_the_declared_categories() {
        assert_eq!(CATEGORY_NAMES.len(), LOG_CATEGORIES.len());
        for (c, d) in CATEGORY_NAMES.iter().zip(LOG_CATEGORIES) {
            assert_eq!(c.to_str().unwrap(), d.name);
        }
    }
}
