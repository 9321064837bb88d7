//! What ships, made from the models' declarations: the FMU archives of both
//! standards ([`archive`]), what makes each FMU explain itself (its
//! documentation page, icon and cross-check set: [`self_describing`]), the
//! SSP systems ([`ssp`]) and the figures of the docs and the pages
//! ([`plots`]).
//!
//! The xtask builds the binaries (cargo, zig, the platforms) from the
//! per-model sources of [`binaries`] and hands them to [`archive::write_fmus`]; everything else about the shipped artefacts
//! is here. Nothing here is written per model: it iterates
//! `fmu::registry::MODELS` and `fmu::scenarios::all()` and runs models
//! through `runner`. This crate is not linked into the FMU binary and has
//! no `unsafe`.

#![forbid(unsafe_code)]

pub mod archive;
pub mod binaries;
pub mod plots;
pub mod self_describing;
pub mod ssp;
mod util;
