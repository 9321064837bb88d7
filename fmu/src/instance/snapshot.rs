//! A saved FMU state: the instance's time keeping, phase and model, as a
//! value the instance keeps in a box and hands out by address.

#![forbid(unsafe_code)]

use super::erased::Erased;
use super::phase::Phase;
use super::step::Clock;

/// A saved FMU state; a binding hands out its address as the state's handle.
pub struct Snapshot {
    pub(super) phase: Phase,
    /// Time, stopTime and substeps taken.
    pub(super) clock: Clock,
    pub(super) start_time: f64,
    pub(super) stale: bool,
    pub(super) model: Box<dyn Erased>,
}

/// A state's handle: the address of its box, compared, never dereferenced.
pub type Handle = *mut Snapshot;
