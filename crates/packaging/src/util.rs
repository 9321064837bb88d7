//! What every part of the packaging uses: the workspace root (the sources
//! it reads, the folders it writes) and the error type (a message for the
//! person at the terminal).

use std::path::{Path, PathBuf};

pub type Result<T> = std::result::Result<T, String>;

/// The workspace root (this crate lives two levels below it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/packaging is inside the workspace")
        .to_path_buf()
}
