//! The FMU binary for every platform the FMUs ship, built on this Linux
//! machine: linux64 against glibc 2.17 (zig), win64 (mingw-w64), darwin64
//! as one universal Mach-O (x86_64 + arm64 slices, zig + llvm-lipo) and
//! aarch64 Linux against glibc 2.17 (zig). Every platform builds std from
//! Debian's Rust 1.96 sources (`-Z build-std`), as rustup cannot fetch the
//! other targets' prebuilt std here, and without std's backtrace
//! symbolizer (a third of each binary). A platform that cannot be built is skipped with
//! the reason and the command that fixes it; linux64 then falls back to the
//! host build. Each model has its own binary (`fmu/binaries`, written from
//! the registry first: `packaging::binaries`), all of a platform built in
//! one cargo call. `cargo xtask fmu` ([`build_fmus`]) hands them to
//! `packaging::archive`, which writes the FMUs.

use crate::cross_tools::{self, apt};
use crate::util::{cargo, root, run, Result};
use packaging::archive::{Binary, AARCH64_FOLDER};
use packaging::binaries::PACKAGE;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Where the FMUs go (named in the README).
pub fn fmu_dir() -> PathBuf {
    root().join("target/fmu")
}

/// Build the binary in release for every platform (`host_only`: linux64 for
/// this machine) and write every `<ModelIdentifier>.fmu` from them
/// (`packaging::archive::write_fmus`); also the aarch64 Linux set in
/// `aarch64-linux/` (see `packaging::archive::AARCH64_FOLDER`).
pub fn build_fmus(host_only: bool) -> Result<PathBuf> {
    let rewritten = packaging::binaries::write(&root())?;
    if !rewritten.is_empty() {
        println!("rewrote {} from the registry: {}", packaging::binaries::FOLDER, rewritten.join(", "));
    }
    let binaries = if host_only { host()? } else { all()? };
    let out = fmu_dir();
    packaging::archive::write_fmus(&out, &binaries)?;
    Ok(out)
}

/// `--host`: today's quick build, linux64 for this machine only.
pub fn host() -> Result<Vec<Binary>> {
    run(cargo().current_dir(root()).args(["build", "--release", "--locked", "-p", PACKAGE, "--examples"]))?;
    Ok(vec![Binary { folder: "linux64", extension: ".so", per_model: per_model(&host_binaries(), "lib", ".so")? }])
}

/// Where the host build puts the models' binaries (`lib<Model>.so`).
pub fn host_binaries() -> PathBuf {
    root().join("target/release/examples")
}

/// Every model's binary in `dir`, named `<prefix><Model><extension>`.
fn per_model(dir: &Path, prefix: &str, extension: &str) -> Result<BTreeMap<&'static str, Vec<u8>>> {
    fmu::registry::MODELS
        .iter()
        .map(|m| {
            let id = m.info.identifier;
            Ok((id, read(&dir.join(format!("{prefix}{id}{extension}")))?))
        })
        .collect()
}

/// Why a platform has no binaries.
enum Missing {
    /// Its tools cannot be had on this machine (not root, no apt, no
    /// network): the platform is left out, and the build says why.
    Tools(String),
    /// Its tools ran and failed: the build fails (a tool that crashes on
    /// one binary must not ship FMUs without that platform unnoticed).
    Failed(String),
}

impl From<String> for Missing {
    fn from(e: String) -> Self {
        Missing::Failed(e)
    }
}

/// A provisioning step: its failure leaves the platform out.
fn tools<T>(provided: Result<T>) -> std::result::Result<T, Missing> {
    provided.map_err(Missing::Tools)
}

/// Every platform; one whose tools cannot be had is reported and left out,
/// one whose tools fail fails the build.
pub fn all() -> Result<Vec<Binary>> {
    let mut binaries = Vec::new();
    let mut skipped = Vec::new();
    let mut failed = Vec::new();
    let mut timed = |name: &str, build: &dyn Fn() -> std::result::Result<Binary, Missing>| {
        let start = Instant::now();
        match build() {
            Ok(b) => {
                let sizes = b.per_model.values().map(Vec::len);
                println!(
                    "platform {name}: built in {:.0} s, {} binaries of {} to {} bytes (binaries/{}/)",
                    start.elapsed().as_secs_f64(),
                    b.per_model.len(),
                    sizes.clone().min().unwrap_or(0),
                    sizes.max().unwrap_or(0),
                    b.folder
                );
                binaries.push(b);
            }
            Err(Missing::Tools(e)) => {
                println!("platform {name}: SKIPPED (its tools cannot be had here): {e}");
                skipped.push(name.to_string());
            }
            Err(Missing::Failed(e)) => {
                println!("platform {name}: FAILED: {e}");
                failed.push(format!("{name}: {e}"));
            }
        }
    };
    timed("linux64 (x86_64, glibc 2.17)", &linux64);
    timed("win64", &win64);
    timed("darwin64 (universal x86_64 + arm64)", &darwin64);
    timed("aarch64 Linux (glibc 2.17)", &aarch64_linux);
    if !failed.is_empty() {
        return Err(format!("the build of a platform failed: {}", failed.join("; ")));
    }
    if !binaries.iter().any(|b| b.folder == "linux64") {
        println!("platform linux64: falling back to the host build (needs this machine's glibc or newer)");
        binaries.extend(host()?);
    }
    if !skipped.is_empty() {
        println!(
            "FMUs built without: {} (see above; `cargo xtask fmu --host` builds linux64 only)",
            skipped.join(", ")
        );
    }
    Ok(binaries)
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn target_dir(name: &str) -> PathBuf {
    cross_tools::dir().join(name)
}

/// A release build of the models' cdylibs, stripped.
fn build_command(program: &Path) -> Command {
    let mut cmd = Command::new(program);
    cmd.current_dir(root()).env("CARGO_PROFILE_RELEASE_STRIP", "symbols");
    cmd
}

/// Debian's cargo and rustc (`rust`, from [`cross_tools::debian_rust`])
/// with std built from source for `target`.
fn debian_build(program: &Path, rust: &(PathBuf, PathBuf), target: &str) -> Command {
    let (cargo, rustc) = rust;
    let mut cmd = build_command(program);
    cmd.env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC_WRAPPER")
        .env("CARGO", &cargo)
        .env("RUSTC", &rustc)
        .env("RUSTDOC", "/usr/bin/rustdoc")
        // build-std is unstable; Debian's stable rustc allows it this way.
        .env("RUSTC_BOOTSTRAP", "1");
    if program == cargo {
        cmd.arg("build");
    } else {
        cmd.arg("zigbuild");
    }
    cmd.args([
        "--release",
        "--locked",
        "-p",
        PACKAGE,
        "--examples",
        "--target",
        target,
        "-Z",
        "build-std=std,panic_unwind",
    ]);
    // std without its `backtrace` feature: a panic's message still reaches
    // the importer's logger (the bindings catch it), but std's default hook
    // no longer carries a DWARF symbolizer (gimli, addr2line, miniz_oxide:
    // 180 KB of each model's 600 KB).
    cmd.arg("-Zbuild-std-features=panic-unwind");
    cmd
}

fn zigbuild() -> Result<PathBuf> {
    let zig = cross_tools::zig()?;
    let zigbuild = cross_tools::cargo_zigbuild()?;
    // cargo-zigbuild finds zig through this variable.
    std::env::set_var("CARGO_ZIGBUILD_ZIG_PATH", &zig);
    Ok(zigbuild)
}

fn linux64() -> std::result::Result<Binary, Missing> {
    let (zigbuild, rust) = (tools(zigbuild())?, tools(cross_tools::debian_rust())?);
    let dir = target_dir("linux64");
    // Against glibc 2.17 through zig, std built from source as for the
    // other platforms (without its backtrace symbolizer).
    run(debian_build(&zigbuild, &rust, "x86_64-unknown-linux-gnu.2.17").arg("--target-dir").arg(&dir))?;
    let built = dir.join("x86_64-unknown-linux-gnu/release/examples");
    Ok(Binary { folder: "linux64", extension: ".so", per_model: per_model(&built, "lib", ".so")? })
}

fn win64() -> std::result::Result<Binary, Missing> {
    tools(apt(&["gcc-mingw-w64-x86-64"]))?;
    let rust = tools(cross_tools::debian_rust())?;
    let dir = target_dir("win64");
    run(debian_build(&rust.0, &rust, "x86_64-pc-windows-gnu")
        .env("CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER", "x86_64-w64-mingw32-gcc")
        .arg("--target-dir")
        .arg(&dir))?;
    let built = dir.join("x86_64-pc-windows-gnu/release/examples");
    Ok(Binary { folder: "win64", extension: ".dll", per_model: per_model(&built, "", ".dll")? })
}

fn aarch64_linux() -> std::result::Result<Binary, Missing> {
    let (zigbuild, rust) = (tools(zigbuild())?, tools(cross_tools::debian_rust())?);
    let dir = target_dir("aarch64-linux");
    run(debian_build(&zigbuild, &rust, "aarch64-unknown-linux-gnu.2.17").arg("--target-dir").arg(&dir))?;
    let built = dir.join("aarch64-unknown-linux-gnu/release/examples");
    Ok(Binary { folder: AARCH64_FOLDER, extension: ".so", per_model: per_model(&built, "lib", ".so")? })
}

/// Oldest macOS each slice supports: Rust's own minimum for x86_64; the
/// first arm64 release. Without it zig stamps the newest SDK (macOS 15).
pub const DARWIN_SLICES: [(&str, &str); 2] = [("x86_64-apple-darwin", "10.12"), ("aarch64-apple-darwin", "11.0")];

fn darwin64() -> std::result::Result<Binary, Missing> {
    let (zigbuild, rust) = (tools(zigbuild())?, tools(cross_tools::debian_rust())?);
    let lipo = tools(cross_tools::llvm_tool("llvm-lipo"))?;
    let strip = tools(cross_tools::llvm_tool("llvm-strip"))?;
    let install_name_tool = tools(cross_tools::llvm_tool("llvm-install-name-tool"))?;
    let dir = target_dir("darwin");
    for (target, min_os) in DARWIN_SLICES {
        run(debian_build(&zigbuild, &rust, target)
            .env("MACOSX_DEPLOYMENT_TARGET", min_os)
            // rustc strips Mach-O with `rust-objcopy`, which Debian's Rust
            // lacks: llvm-strip does it after the link, keeping the global
            // symbols.
            .env("CARGO_PROFILE_RELEASE_STRIP", "none")
            // zig's Mach-O linker ignores rustc's -exported_symbols_list
            // (~1,900 Rust symbols exported): hide every symbol that is not
            // C-exported, in std too (build-std compiles it with these flags).
            .env("RUSTFLAGS", "-Zdefault-visibility=hidden")
            .arg("--target-dir")
            .arg(&dir))?;
    }
    let mut universal = BTreeMap::new();
    for m in fmu::registry::MODELS {
        let id = m.info.identifier;
        let mut slices = Vec::new();
        for (target, _) in DARWIN_SLICES {
            let stripped = dir.join(format!("{id}-{target}.dylib"));
            // The install name would be this machine's build path. Named
            // before stripping: Debian's llvm-install-name-tool-14 crashes
            // (SIGSEGV) on some llvm-strip outputs (ConventionalCoulombBaseline's
            // x86_64 slice as built by 008887d), never on the linker's.
            let named = dir.join(format!("{id}-{target}.named.dylib"));
            std::fs::copy(dir.join(target).join(format!("release/examples/lib{id}.dylib")), &named)
                .map_err(|e| format!("{}: {e}", named.display()))?;
            run(Command::new(&install_name_tool).args(["-id", &format!("@rpath/{id}.dylib")]).arg(&named))?;
            run(Command::new(&strip).arg("-x").arg(&named).arg("-o").arg(&stripped))?;
            slices.push(stripped);
        }
        // FMI 2.0 has one darwin64 folder; importers on Apple silicon (FMPy:
        // `darwin` + `64` on arm64) load it too, so it holds both slices.
        let fat = dir.join(format!("{id}-universal.dylib"));
        run(Command::new(&lipo).arg("-create").args(&slices).arg("-output").arg(&fat))?;
        universal.insert(id, read(&fat)?);
    }
    Ok(Binary { folder: "darwin64", extension: ".dylib", per_model: universal })
}
