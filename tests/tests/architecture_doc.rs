//! `ARCHITECTURE.md` cannot go stale silently: every repository path it
//! names exists, and it names every folder of the FMU crate's sources and
//! every crate of the workspace.
//!
//! A path is a code span (`` `fmu/src/ffi/` ``) or a token of a plain fenced
//! block (the layer drawing) made of path characters that contains a `/`,
//! read from the repository root; or a bare file name of source kind
//! (`` `Cargo.toml` ``, `` `mod.rs` ``), which must be the name of some file of
//! the repository. Not repository paths, hence not checked: what the build
//! writes (`target/...`) and the inside of an FMU archive
//! (`documentation/...`, `binaries/...`, `resources/...`, `sources/...`).

use fmu_tests::workspace_root;
use std::path::Path;

/// Folders whose paths name build output or the inside of an FMU, not the
/// repository.
const NOT_IN_THE_REPOSITORY: [&str; 5] = ["target/", "documentation/", "binaries/", "resources/", "sources/"];

/// File kinds a bare name (no `/`) is taken as a repository file for.
const SOURCE_KINDS: [&str; 6] = [".rs", ".toml", ".md", ".py", ".c", ".h"];

fn path_chars(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c))
}

/// The paths of a Markdown text: code spans outside fenced blocks, and the
/// path tokens of fenced blocks without a language (drawings, not code).
fn named_paths(text: &str) -> Vec<String> {
    let mut prose = String::new();
    let mut drawn = Vec::new();
    let mut fence: Option<bool> = None; // Some(plain) inside a fenced block
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            fence = match fence {
                None => Some(info.trim().is_empty()),
                Some(_) => None,
            };
            continue;
        }
        match fence {
            None => {
                prose.push_str(line);
                prose.push('\n');
            }
            Some(true) => drawn.extend(
                line.split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
                    .filter(|t| t.contains('/') && path_chars(t))
                    .map(str::to_string),
            ),
            Some(false) => {}
        }
    }
    let spans = prose.split('`').skip(1).step_by(2).map(|s| s.trim().to_string());
    let mut paths: Vec<String> = spans
        .filter(|s| path_chars(s))
        .filter(|s| s.contains('/') || SOURCE_KINDS.iter().any(|k| s.ends_with(k) && s.len() > k.len()))
        .collect();
    paths.extend(drawn);
    paths.retain(|p| !NOT_IN_THE_REPOSITORY.iter().any(|f| p.starts_with(f)));
    paths
}

/// Every file name of the repository (build output and git's folder left out).
fn file_names(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "target" && name != ".git" {
                file_names(&path, out);
            }
        } else {
            out.push(name);
        }
    }
}

/// The paths of `text` that name nothing in the repository at `root`.
fn missing_paths(text: &str, root: &Path) -> Vec<String> {
    let mut names = Vec::new();
    file_names(root, &mut names);
    let mut missing: Vec<String> = named_paths(text)
        .into_iter()
        .filter(|p| if p.contains('/') { !root.join(p).exists() } else { !names.contains(p) })
        .collect();
    missing.sort();
    missing.dedup();
    missing
}

fn architecture() -> String {
    std::fs::read_to_string(workspace_root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md")
}

#[test]
fn every_path_architecture_md_names_exists() {
    let text = architecture();
    let paths = named_paths(&text);
    assert!(paths.len() > 40, "too few paths found: {paths:?}");
    println!("{} paths named in ARCHITECTURE.md", paths.len());
    let missing = missing_paths(&text, &workspace_root());
    assert!(missing.is_empty(), "ARCHITECTURE.md names paths that do not exist:\n{}", missing.join("\n"));
}

/// The map covers the house: every folder under `fmu/src/` and every crate
/// of the workspace is named (a new folder needs its place in the map).
#[test]
fn architecture_md_names_every_folder_of_the_fmu_crate_and_every_crate() {
    let text = architecture();
    let paths = named_paths(&text);
    let named = |p: &str| paths.iter().any(|n| n.trim_end_matches('/') == p);
    let root = workspace_root();
    let mut folders = Vec::new();
    let mut stack = vec![root.join("fmu/src")];
    // A model's folder is named by `fmu/src/models/` (what a folder holds is
    // said once there; the registry and the README's table list the models).
    let models = root.join("fmu/src/models");
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            if entry.path().is_dir() && dir != models {
                folders.push(entry.path().strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/"));
                stack.push(entry.path());
            }
        }
    }
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = manifest.lines().find(|l| l.trim_start().starts_with("members")).expect("workspace members");
    let crates: Vec<String> = members.split('"').skip(1).step_by(2).map(str::to_string).collect();
    assert!(folders.len() >= 5 && crates.len() >= 4, "{folders:?} {crates:?}");
    let unnamed: Vec<&String> = folders.iter().chain(&crates).filter(|f| !named(f)).collect();
    assert!(unnamed.is_empty(), "ARCHITECTURE.md does not name {unnamed:?}");
}

/// The check finds what it must and skips what is no repository path.
#[test]
fn the_check_finds_a_bogus_path() {
    let text = "See `fmu/src/models/` and `fmu/src/bogus.rs`, `Cargo.toml` and `nowhere.rs`,\n\
        `target/fmu/`, `documentation/index.html`, `fmu::registry::MODELS`, `cargo xtask docs`.\n\
        ```\n  models   fmu/src/models/, fmu/src/gone/\n```\n\
        ```rust\nlet x = a/b;\n```\n";
    assert_eq!(
        named_paths(text),
        ["fmu/src/models/", "fmu/src/bogus.rs", "Cargo.toml", "nowhere.rs", "fmu/src/models/", "fmu/src/gone/"]
    );
    assert_eq!(missing_paths(text, &workspace_root()), ["fmu/src/bogus.rs", "fmu/src/gone/", "nowhere.rs"]);
}
