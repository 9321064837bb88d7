//! `unsafe` stays in the FFI folders and every block there says why it holds.
//!
//! The compiler checks part of it (`#![forbid(unsafe_code)]` in the physics
//! crate, `unsafe_op_in_unsafe_fn` and clippy's `undocumented_unsafe_blocks`
//! in the FFI folders), but `cargo xtask test` runs no clippy and the other
//! product crates forbid nothing: this scan of the sources does it in the test
//! run. It fails on the word `unsafe` in code (not in comments or strings)
//! anywhere in `crates/`, `fmu/src` or `xtask/` outside the FFI folders
//! (`fmu/src/ffi/`, `fmu/src/fmi2/`, `fmu/src/fmi3/`), and on an
//! `unsafe { .. }` block there without a `// SAFETY:` comment in the
//! comment lines right above it.

use std::path::{Path, PathBuf};

/// Files outside the FFI folder that may still hold `unsafe`, and why.
/// None today: the scenario runner that called the C ABI in-process moved to
/// `crates/runner`, over the safe `fmu::fmi2::in_process::Instance`.
const EXCEPTIONS: &[&str] = &[];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source with comments, strings and character literals blanked out
/// (newlines kept, so line numbers stay).
fn code_only(source: &str) -> String {
    let s: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < s.len() && s[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && s.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(s[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&s, i) {
            // Raw string r#".."#: count the hashes.
            let mut j = i + 1;
            while s.get(j) == Some(&'#') {
                j += 1;
            }
            if s.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            let mut k = j + 1;
            while k < s.len() && !(s[k] == '"' && (0..hashes).all(|h| s.get(k + 1 + h) == Some(&'#'))) {
                k += 1;
            }
            let end = (k + 1 + hashes).min(s.len());
            out.extend(s[i..end].iter().map(|&c| blank(c)));
            i = end;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < s.len() && s[i] != '"' {
                if s[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < s.len() {
                    out.push(blank(s[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}'), else a lifetime.
            let close = if next == Some('\\') {
                (i + 2..s.len().min(i + 12)).find(|&k| s[k] == '\'')
            } else {
                (s.get(i + 2) == Some(&'\'')).then_some(i + 2)
            };
            match close {
                Some(k) => {
                    out.extend(s[i..=k].iter().map(|&c| blank(c)));
                    i = k + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(s: &[char], i: usize) -> bool {
    i > 0 && (s[i - 1].is_alphanumeric() || s[i - 1] == '_')
}

/// Each use of the keyword `unsafe` in code: (line index, is it a block).
fn unsafe_uses(code: &str) -> Vec<(usize, bool)> {
    let mut uses = Vec::new();
    for (n, line) in code.lines().enumerate() {
        let mut from = 0;
        while let Some(at) = line[from..].find("unsafe") {
            let start = from + at;
            let end = start + "unsafe".len();
            let word = |c: char| c.is_alphanumeric() || c == '_';
            let alone = !line[..start].ends_with(word) && !line[end..].starts_with(word);
            if alone {
                let rest: String = code.lines().skip(n).collect::<Vec<_>>().join("\n");
                let after = rest[end..].trim_start();
                uses.push((n, after.starts_with('{')));
            }
            from = end;
        }
    }
    uses
}

/// Whether the `//` comment lines right above `line` contain `SAFETY:`.
fn has_safety_note(source: &str, line: usize) -> bool {
    let lines: Vec<&str> = source.lines().collect();
    lines[..line]
        .iter()
        .rev()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with("//") && !l.starts_with("///"))
        .any(|l| l.contains("SAFETY:"))
}

/// Where `unsafe` may be: the two bindings and what they share at the C boundary.
const FFI_FOLDERS: [&str; 3] = ["fmu/src/ffi/", "fmu/src/fmi2/", "fmu/src/fmi3/"];

fn in_ffi_folder(relative: &str) -> bool {
    FFI_FOLDERS.iter().any(|f| relative.starts_with(f))
}

/// The rule broken by `source` (path relative to the workspace), if any.
fn violations(relative: &str, source: &str) -> Vec<String> {
    let ffi = in_ffi_folder(relative);
    let excepted = EXCEPTIONS.contains(&relative);
    let mut found = Vec::new();
    for (line, block) in unsafe_uses(&code_only(source)) {
        if !ffi && !excepted {
            found.push(format!("{relative}:{}: `unsafe` outside the FFI folders {FFI_FOLDERS:?}", line + 1));
        } else if ffi && block && !has_safety_note(source, line) {
            found.push(format!("{relative}:{}: unsafe block without a `// SAFETY:` comment right above", line + 1));
        }
    }
    found
}

#[test]
fn unsafe_is_only_in_the_ffi_folder_and_every_block_has_a_safety_note() {
    let root = workspace();
    let mut files = Vec::new();
    for dir in ["crates", "fmu/src", "xtask"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 20, "the scan found only {} files under {}", files.len(), root.display());
    let mut found = Vec::new();
    let mut blocks_in_ffi = 0;
    for path in &files {
        let relative = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        let source = std::fs::read_to_string(path).unwrap();
        if in_ffi_folder(&relative) {
            blocks_in_ffi += unsafe_uses(&code_only(&source)).iter().filter(|u| u.1).count();
        }
        found.extend(violations(&relative, &source));
    }
    assert!(blocks_in_ffi > 10, "the scan saw only {blocks_in_ffi} unsafe blocks in {FFI_FOLDERS:?}");
    assert!(found.is_empty(), "unsafe rules broken:\n{}", found.join("\n"));
}

#[test]
fn the_scan_sees_code_and_skips_comments_and_strings() {
    let text = "fn f() {\n    // SAFETY: a reason\n    unsafe { g() }\n}\nunsafe fn g() {}\n";
    assert_eq!(unsafe_uses(&code_only(text)), vec![(2, true), (4, false)]);
    assert!(violations("fmu/src/fmi2/x.rs", text).is_empty());
    assert_eq!(violations("crates/friction/src/x.rs", text).len(), 2);
    let missing = "fn f() {\n    // a comment without the note\n    unsafe { g() }\n}\n";
    assert_eq!(violations("fmu/src/fmi2/x.rs", missing).len(), 1);
    let hidden = "// unsafe { }\nconst A: &str = \"unsafe { }\";\nconst B: &str = r#\"unsafe\"#;\n/* unsafe */\nconst C: char = '\"';\nfn l<'a>(x: &'a u8) -> &'a u8 { x }\n";
    assert!(unsafe_uses(&code_only(hidden)).is_empty(), "{}", code_only(hidden));
    assert!(violations("xtask/src/x.rs", "#![forbid(unsafe_code)]\nfn unsafe_name() {}\n").is_empty());
}

/// Every module of the FMU crate that needs no `unsafe` says so to the
/// compiler (issue 31): `#![forbid(unsafe_code)]` in the module's own file
/// or in the file of a module it sits in (`models/mod.rs` covers every
/// model). Only the FFI folder's files that hold `unsafe`, or rows the
/// export macro writes it for, go without it.
#[test]
fn every_module_without_unsafe_forbids_it() {
    let src = workspace().join("fmu/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let forbids = |p: &Path| std::fs::read_to_string(p).unwrap().contains("#![forbid(unsafe_code)]");
    let mut missing = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(&src).unwrap();
        // The crate root and the FFI folder's root: a forbid there would bind
        // the files below that need `unsafe`; and the C types, whose only
        // `unsafe` is in function-pointer types.
        let roots = [
            "lib.rs",
            "ffi/mod.rs",
            "fmi2/mod.rs",
            "fmi2/types.rs",
            "fmi3/mod.rs",
            "fmi3/types.rs",
            "fmi3/exports/mod.rs",
        ];
        if roots.iter().any(|f| relative == Path::new(f)) {
            continue;
        }
        let code = code_only(&std::fs::read_to_string(path).unwrap());
        // A file whose rows it hands to `handle_exports!` holds the `unsafe`
        // the macro writes for each (`fmu/src/ffi/export.rs`), which a forbid refuses.
        if !unsafe_uses(&code).is_empty() || code.contains("(handle_exports {") {
            continue;
        }
        // This file, or the `mod.rs` of a folder it sits in.
        let covered =
            forbids(path) || path.ancestors().skip(1).take_while(|d| *d != src).any(|d| forbids(&d.join("mod.rs")));
        if !covered {
            missing.push(relative.display().to_string());
        }
    }
    assert!(files.len() > 30, "too few files: {}", files.len());
    assert!(missing.is_empty(), "files without unsafe that do not forbid it:\n{}", missing.join("\n"));
}
