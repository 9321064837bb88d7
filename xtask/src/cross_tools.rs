//! The tools that build and run the non-host binaries, installed by the
//! commands themselves on a fresh Debian 12 machine:
//!
//! - zig (PyPI `ziglang`, in its own venv `target/cross/venv`) as the linker
//!   for glibc 2.17, aarch64 Linux and macOS, driven by `cargo-zigbuild`
//!   (its PyPI wheel, in the same venv: a prebuilt binary installs in
//!   seconds where `cargo install` compiles for minutes on two cores);
//! - Debian's `rustc-web`/`cargo-web`/`rust-web-src` (Rust 1.96 with its
//!   library sources) to build std for the targets rustup cannot fetch here
//!   (`-Z build-std`), `gcc-mingw-w64-x86-64` to link win64, `llvm` for
//!   `llvm-lipo` (universal darwin64);
//! - to run them in the tests: `wine64`, `qemu-user-static` and
//!   `libc6-arm64-cross` (aarch64 glibc for qemu).
//!
//! Nothing is fetched outside the package registries. When a tool cannot be
//! had (not root, no apt), the caller is told why and the command that
//! fixes it.

use crate::util::{root, Result};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// Pinned: a new release must not change what ships.
pub const ZIGLANG: &str = "ziglang==0.17.1";
pub const CARGO_ZIGBUILD: &str = "cargo-zigbuild==0.24.0";

/// Debian's Rust with library sources (build-std for non-host targets).
pub const DEBIAN_RUST: &[&str] = &["rustc-web", "cargo-web", "rust-web-src"];

pub fn dir() -> PathBuf {
    root().join("target/cross")
}

fn quiet_ok(cmd: &mut Command) -> bool {
    cmd.stdout(Stdio::null()).stderr(Stdio::null()).status().map(|s| s.success()).unwrap_or(false)
}

pub fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0").unwrap_or(false)
}

fn installed(package: &str) -> bool {
    Command::new("dpkg-query")
        .args(["-W", "-f=${Status}", package])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("install ok installed"))
        .unwrap_or(false)
}

/// Install the Debian packages that are missing; Err says why not and the
/// command that would do it.
pub fn apt(packages: &[&str]) -> Result<()> {
    let missing: Vec<&str> = packages.iter().copied().filter(|p| !installed(p)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let fix = format!("apt-get update && apt-get install -y --no-install-recommends {}", missing.join(" "));
    if !is_root() {
        return Err(format!(
            "needs Debian packages {} and we are not root: run `sudo sh -c '{fix}'`",
            missing.join(" ")
        ));
    }
    if !quiet_ok(Command::new("apt-get").arg("--version")) {
        return Err(format!("needs Debian packages {} and there is no apt-get here: {fix}", missing.join(" ")));
    }
    static UPDATED: OnceLock<bool> = OnceLock::new();
    let updated = *UPDATED.get_or_init(|| {
        println!("apt-get update (for {})", missing.join(" "));
        quiet_ok(Command::new("apt-get").args(["update", "-q"]))
    });
    if !updated {
        return Err(format!("apt-get update failed; then: {fix}"));
    }
    println!("installing Debian packages: {}", missing.join(" "));
    let ok = Command::new("apt-get")
        .args(["install", "-y", "-q", "--no-install-recommends"])
        .args(&missing)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .stdout(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if ok {
        Ok(())
    } else {
        Err(format!("apt-get install {} failed: {fix}", missing.join(" ")))
    }
}

/// zig and cargo-zigbuild from PyPI in `target/cross/venv`; the path of the `zig` binary.
pub fn zig() -> Result<PathBuf> {
    static ZIG: OnceLock<std::result::Result<PathBuf, String>> = OnceLock::new();
    ZIG.get_or_init(|| {
        let venv = dir().join("venv");
        let python = venv.join("bin/python");
        let marker = venv.join(".provisioned");
        let fix = format!("python3 -m venv {0} && {0}/bin/pip install {ZIGLANG} {CARGO_ZIGBUILD}", venv.display());
        let wanted = format!("{ZIGLANG} {CARGO_ZIGBUILD}");
        if std::fs::read_to_string(&marker).ok().as_deref() != Some(wanted.as_str()) {
            println!("installing {ZIGLANG} {CARGO_ZIGBUILD} into {}", venv.display());
            let system_python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
            let ok = quiet_ok(Command::new(&system_python).args(["-m", "venv", "--clear"]).arg(&venv))
                && Command::new(&python)
                    .args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ZIGLANG, CARGO_ZIGBUILD])
                    .status()
                    .map(|s| s.success())
                    .unwrap_or(false);
            if !ok {
                return Err(format!("cannot install zig: {fix}"));
            }
            std::fs::write(&marker, &wanted).map_err(|e| e.to_string())?;
        }
        let out = Command::new(&python)
            .args(["-c", "import ziglang, os; print(os.path.join(os.path.dirname(ziglang.__file__), 'zig'))"])
            .output()
            .map_err(|e| format!("cannot run {}: {e}; {fix}", python.display()))?;
        let zig = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if out.status.success() && quiet_ok(Command::new(&zig).arg("version")) {
            Ok(zig)
        } else {
            Err(format!("zig from {ZIGLANG} does not run: {fix}"))
        }
    })
    .clone()
}

/// cargo-zigbuild from its PyPI wheel, installed beside zig by [`zig`].
pub fn cargo_zigbuild() -> Result<PathBuf> {
    zig()?;
    let bin = dir().join("venv/bin/cargo-zigbuild");
    if quiet_ok(Command::new(&bin).arg("--version")) {
        Ok(bin)
    } else {
        Err(format!("{} does not run: {}/venv/bin/pip install {CARGO_ZIGBUILD}", bin.display(), dir().display()))
    }
}

/// Debian's cargo/rustc 1.96 (rustc-web), which carry the library sources
/// for `-Z build-std`: rustup cannot download other targets' std here.
pub fn debian_rust() -> Result<(PathBuf, PathBuf)> {
    apt(DEBIAN_RUST)?;
    let (cargo, rustc) = (PathBuf::from("/usr/bin/cargo"), PathBuf::from("/usr/bin/rustc"));
    let src = Path::new("/usr/lib/rustlib/src/rust/library/Cargo.lock");
    if cargo.exists() && rustc.exists() && src.exists() {
        Ok((cargo, rustc))
    } else {
        Err("Debian's rustc-web did not install /usr/bin/cargo, /usr/bin/rustc and the library sources".into())
    }
}

/// `llvm-lipo` or `llvm-strip` (Debian's llvm): join and strip the macOS
/// slices.
pub fn llvm_tool(name: &str) -> Result<PathBuf> {
    let find = || {
        ["", "-19", "-16", "-15", "-14"]
            .into_iter()
            .map(|suffix| PathBuf::from(format!("{name}{suffix}")))
            .find(|p| quiet_ok(Command::new(p).arg("--version")))
    };
    if let Some(p) = find() {
        return Ok(p);
    }
    apt(&["llvm"])?;
    find().ok_or_else(|| format!("Debian's llvm installed no {name}"))
}
