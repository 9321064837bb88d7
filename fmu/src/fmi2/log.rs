//! Messages to the environment's logger, by category.

use super::types::{Fmi2ComponentEnvironment, Logger, Status};
use crate::description::LOG_CATEGORIES;
use std::ffi::{CStr, CString};

pub const EVENTS: usize = 0;
pub const WARNING: usize = 1;
pub const DISCARD: usize = 2;
pub const ERROR: usize = 3;
pub const FATAL: usize = 4;
pub const ALL: usize = 5;

/// The category names as C strings, index-aligned with [`LOG_CATEGORIES`]
/// (a test checks it), so that no category pointer is ever NULL.
const CATEGORY_NAMES: [&CStr; 6] =
    [c"logEvents", c"logStatusWarning", c"logStatusDiscard", c"logStatusError", c"logStatusFatal", c"logAll"];

/// The logger callback, its environment, and which categories are on.
pub struct Log {
    logger: Logger,
    environment: Fmi2ComponentEnvironment,
    instance_name: CString,
    on: [bool; CATEGORY_NAMES.len()],
}

impl Log {
    pub fn new(
        logger: Logger,
        environment: Fmi2ComponentEnvironment,
        instance_name: CString,
        logging_on: bool,
    ) -> Self {
        Self { logger, environment, instance_name, on: [logging_on; CATEGORY_NAMES.len()] }
    }

    /// Whether messages of `category` reach the logger. Errors and fatal
    /// errors always do: an importer must be told why a call failed even
    /// when debug logging is off.
    #[inline]
    pub fn enabled(&self, category: usize) -> bool {
        category == ERROR || category == FATAL || self.on[category]
    }

    /// `fmi2SetDebugLogging`: no categories, or `logAll`, switches every
    /// category; otherwise each named one. Known names are applied even if
    /// others are unknown; the unknown ones come back as the error.
    pub fn set(&mut self, logging_on: bool, categories: &[&str]) -> Result<(), String> {
        if categories.is_empty() {
            self.on = [logging_on; CATEGORY_NAMES.len()];
            return Ok(());
        }
        let mut unknown = Vec::new();
        for name in categories {
            match LOG_CATEGORIES.iter().position(|c| c.name == *name) {
                Some(ALL) => self.on = [logging_on; CATEGORY_NAMES.len()],
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
            self.send(status, category, message);
        }
    }

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
    fn category_names_match_the_declared_categories() {
        assert_eq!(CATEGORY_NAMES.len(), LOG_CATEGORIES.len());
        for (c, d) in CATEGORY_NAMES.iter().zip(LOG_CATEGORIES) {
            assert_eq!(c.to_str().unwrap(), d.name);
        }
    }
}
