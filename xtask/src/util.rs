//! What every task uses: the workspace root, cargo, running a command, and
//! the error type (a message for the person at the terminal).

use std::path::{Path, PathBuf};
use std::process::Command;

pub type Result<T> = std::result::Result<T, String>;

/// The workspace root (xtask lives one level below it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask is inside the workspace").to_path_buf()
}

pub fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

pub fn run(cmd: &mut Command) -> Result<()> {
    let status = cmd.status().map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed: {status}"))
    }
}

/// Say so before the work when the disk of `dir` has less than `needed_gb`
/// GB free (`df`; where there is no `df`, nothing is said): a build that
/// runs out of space fails deep inside rustc or the linker, with a message
/// that names neither the disk nor the cure.
pub fn warn_if_disk_low(dir: &Path, needed_gb: u64, what: &str) {
    let Ok(out) = Command::new("df").arg("-Pk").arg(dir).output() else { return };
    let Some(free_gb) = free_gb(&String::from_utf8_lossy(&out.stdout)) else { return };
    if free_gb < needed_gb {
        println!(
            "warning: {free_gb} GB free on the disk of {} ({what} needs about {needed_gb} GB from a fresh clone): \
             a build may fail with \"No space left on device\": free space there first",
            dir.display()
        );
    }
}

/// The free space `df -Pk` reports (POSIX format: a header, then one line
/// whose fourth field is the available 1024-byte blocks), in whole GB.
fn free_gb(df_output: &str) -> Option<u64> {
    let line = df_output.lines().nth(1)?;
    let free_kb: u64 = line.split_whitespace().nth(3)?.parse().ok()?;
    Some(free_kb / (1024 * 1024))
}

#[cfg(test)]
mod tests {
    #[test]
    fn free_gb_reads_the_available_column_of_df() {
        let df = "Filesystem     1024-blocks      Used Available Capacity Mounted on\n\
                  /dev/vda         263174212  95158612 436608    100% /\n";
        assert_eq!(super::free_gb(df), Some(0));
        let roomy = "Filesystem 1024-blocks Used Available Capacity Mounted on\n/dev/x 9 9 53477376 40% /\n";
        assert_eq!(super::free_gb(roomy), Some(51));
        assert_eq!(super::free_gb("df: no such file\n"), None);
    }
}
