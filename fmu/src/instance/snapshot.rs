//! A saved FMU state: the instance's time keeping, phase and model, as a
//! value the instance keeps in a box and hands out by address.

#![forbid(unsafe_code)]

use super::erased::Erased;
use super::phase::Phase;

/// A saved FMU state; a binding hands out its address as the state's handle.
pub struct Snapshot {
    pub(super) phase: Phase,
    pub(super) time: f64,
    pub(super) start_time: f64,
    pub(super) substeps: u64,
    pub(super) stale: bool,
    pub(super) model: Box<dyn Erased>,
}

/// A state's handle: the address of its box, compared, never dereferenced.
pub type Handle = *mut Snapshot;
