//! The layers of `ARCHITECTURE.md`, checked: no file of the `fmu`
//! crate reaches a module of a layer above its own (every `crate::`,
//! `$crate::` and `super::` path, in code and in macro bodies, resolved
//! against the file's module), `unsafe` and `#[no_mangle]` stay where the
//! document says, and the crates depend only downwards.
//!
//! Files are read as Rust tokens (proc-macro2), so comments and strings
//! never count as imports.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use std::path::{Path, PathBuf};

/// Layers of the `fmu` crate, bottom up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Layer {
    /// The model contract: declarations, the `Model` trait, a scenario as
    /// data, and the leaves they use (numbers and units as text, equations,
    /// sources).
    Contract,
    /// The models, listed once, and the list of the papers' scenarios.
    Models,
    /// The instance core: an instance of any model, knowing no FMI version.
    Core,
    /// The model description (XML, GUID) and the registry of every model.
    Registry,
    /// A standard's binding: its C types, logger, call-sequence rules.
    Binding,
    /// The exported `fmi2*` and `fmi3*` functions and what calls them in-process.
    Exported,
}

/// The layer of a module path (`["fmi2", "exports"]`); `None` for paths
/// that are not modules of this crate (`crate::Model` re-exports resolve
/// through their target's module, handled by the caller).
fn layer_of(module: &[String]) -> Option<Layer> {
    let first = module.first()?.as_str();
    Some(match first {
        "description" | "model" | "scenario" | "behaviour" | "system" | "bibliography" | "equations" | "text"
        | "Model" => Layer::Contract,
        "models" | "scenarios" => Layer::Models,
        "instance" => Layer::Core,
        "xml" | "xml3" | "registry" | "dependencies" => Layer::Registry,
        // What both bindings share at the C boundary sits with them; the
        // macro that writes every export from the bindings' tables is the
        // exported layer.
        "ffi" => match module.get(1).map(String::as_str) {
            Some("export") => Layer::Exported,
            _ => Layer::Binding,
        },
        "fmi2" | "fmi3" => match module.get(1).map(String::as_str) {
            Some("exports") | Some("in_process") => Layer::Exported,
            _ => Layer::Binding,
        },
        _ => return None,
    })
}

fn fmu_src() -> PathBuf {
    fmu_tests::workspace_root().join("fmu/src")
}

/// Every `.rs` file under `dir`, with its module path (`models/dahl.rs` ->
/// `["models", "dahl"]`, `fmi2/mod.rs` -> `["fmi2"]`, `lib.rs` -> `[]`).
fn rust_files(dir: &Path, module: &[String], out: &mut Vec<(PathBuf, Vec<String>)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.is_dir() {
            let mut sub = module.to_vec();
            sub.push(stem);
            rust_files(&path, &sub, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut m = module.to_vec();
            if stem != "mod" && stem != "lib" {
                m.push(stem);
            }
            out.push((path, m));
        }
    }
}

fn tokens(path: &Path) -> TokenStream {
    let text = std::fs::read_to_string(path).unwrap();
    text.parse().unwrap_or_else(|e| panic!("{}: not Rust tokens: {e:?}", path.display()))
}

/// A path found in a file: the module it was written in and its segments
/// (`crate`/`super`/`self` first).
struct Reference {
    module: Vec<String>,
    segments: Vec<String>,
}

/// Every path starting with `crate`, `$crate` or `super`, with the module
/// (inline `mod name { }` blocks included) it appears in.
fn references(stream: TokenStream, module: &[String], out: &mut Vec<Reference>) {
    let trees: Vec<TokenTree> = stream.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            // `pub(crate)`, `pub(super)`: a visibility, not a path.
            TokenTree::Ident(id)
                if id == "pub"
                    && matches!(trees.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis) =>
            {
                i += 2;
                continue;
            }
            TokenTree::Ident(id) if id == "mod" => {
                if let (Some(TokenTree::Ident(name)), Some(TokenTree::Group(g))) = (trees.get(i + 1), trees.get(i + 2))
                {
                    if g.delimiter() == Delimiter::Brace {
                        let mut inner = module.to_vec();
                        inner.push(name.to_string());
                        references(g.stream(), &inner, out);
                        i += 3;
                        continue;
                    }
                }
            }
            TokenTree::Ident(id) if id == "crate" || id == "super" => {
                let preceded_by_path = i >= 1 && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == ':');
                if !preceded_by_path || id == "crate" {
                    let mut segments = vec![id.to_string()];
                    let mut j = i + 1;
                    // `seg :: seg :: ...` (a `::` is two ':' puncts).
                    while let (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) = (trees.get(j), trees.get(j + 1))
                    {
                        if a.as_char() != ':' || b.as_char() != ':' {
                            break;
                        }
                        match trees.get(j + 2) {
                            Some(TokenTree::Ident(s)) => segments.push(s.to_string()),
                            Some(TokenTree::Punct(p)) if p.as_char() == '*' => segments.push("*".into()),
                            // `use crate::{a, b}`: each branch.
                            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                                for branch in split_commas(g.stream()) {
                                    let mut s = segments.clone();
                                    s.extend(branch);
                                    out.push(Reference { module: module.to_vec(), segments: s });
                                }
                                segments.clear();
                                j += 3;
                                break;
                            }
                            _ => break,
                        }
                        j += 3;
                    }
                    if !segments.is_empty() {
                        out.push(Reference { module: module.to_vec(), segments });
                    }
                    i = j;
                    continue;
                }
            }
            TokenTree::Group(g) => references(g.stream(), module, out),
            _ => {}
        }
        i += 1;
    }
}

/// The leading identifiers of each comma-separated branch of a use group.
fn split_commas(stream: TokenStream) -> Vec<Vec<String>> {
    let mut branches = vec![Vec::new()];
    for t in stream {
        match t {
            TokenTree::Punct(p) if p.as_char() == ',' => branches.push(Vec::new()),
            TokenTree::Ident(id) => branches.last_mut().unwrap().push(id.to_string()),
            _ => {}
        }
    }
    branches.retain(|b| !b.is_empty());
    branches
}

/// The module path a reference names, from the crate root.
fn resolve(r: &Reference) -> Vec<String> {
    let mut module = r.module.clone();
    let mut segments = r.segments.iter().peekable();
    match segments.peek().map(|s| s.as_str()) {
        Some("crate") => {
            module.clear();
            segments.next();
        }
        _ => {
            while segments.peek().is_some_and(|s| *s == "super") {
                module.pop();
                segments.next();
            }
        }
    }
    module.extend(segments.cloned());
    module
}

/// Upward references of the crate's files, as "file: path (layer -> layer)".
fn upward_references() -> Vec<String> {
    let root = fmu_src();
    let mut files = Vec::new();
    rust_files(&root, &[], &mut files);
    let mut bad = Vec::new();
    for (path, module) in &files {
        let rel = path.strip_prefix(&root).unwrap().display().to_string();
        // lib.rs only declares the modules: the crate root is the top.
        let Some(own) = layer_of(module) else { continue };
        let mut refs = Vec::new();
        references(tokens(path), module, &mut refs);
        for r in &refs {
            let target = resolve(r);
            if let Some(to) = layer_of(&target) {
                if to > own {
                    bad.push(format!(
                        "fmu/src/{rel}: `{}` reaches {} ({to:?} layer) from the {own:?} layer",
                        r.segments.join("::"),
                        target.join("::")
                    ));
                }
            }
        }
    }
    bad
}

#[test]
fn no_file_imports_from_a_layer_above_its_own() {
    let bad = upward_references();
    assert!(bad.is_empty(), "upward imports (see ARCHITECTURE.md):\n{}", bad.join("\n"));
}

/// The check sees what it must: known references resolve to the right
/// layer (a `super::` from a nested module, a macro body's `$crate::`, a
/// use group), so an empty list above means something.
#[test]
fn the_layer_check_finds_the_references_it_must() {
    let src = fmu_src();
    let mut refs = Vec::new();
    references(tokens(&src.join("fmi2/allowed.rs")), &["fmi2".into(), "allowed".into()], &mut refs);
    assert!(refs.iter().any(|r| resolve(r) == ["instance", "phase", "Phase"]), "a use group");
    let mut refs = Vec::new();
    references(tokens(&src.join("instance/co_simulation.rs")), &["instance".into(), "co_simulation".into()], &mut refs);
    assert!(refs.iter().any(|r| resolve(r) == ["instance", "step", "StepError"]), "super:: in a use group");
    let mut refs = Vec::new();
    references(tokens(&src.join("registry.rs")), &["registry".into()], &mut refs);
    let targets: Vec<Vec<String>> = refs.iter().map(resolve).collect();
    let reaches = |prefix: [&str; 2]| targets.iter().any(|t| t.len() >= 2 && t[..2] == prefix);
    assert!(reaches(["instance", "Erased"]), "use crate::instance::{{..}}");
    assert!(reaches(["xml", "model_description"]), "crate::xml:: in an expression");
    // A made-up upward import is caught, with the file and the path.
    let upward: TokenStream = "fn f() { let _ = crate::fmi2::exports::fmi2GetVersion(); }".parse().unwrap();
    let mut refs = Vec::new();
    references(upward, &["models".into(), "dahl".into()], &mut refs);
    let to = layer_of(&resolve(&refs[0]));
    assert_eq!(to, Some(Layer::Exported));
    assert!(to > layer_of(&["models".into()]));
}

/// The file-level import graph of the crate: for each file, the files it
/// names (`crate::`/`super::` paths resolved to the longest file module
/// that prefixes them; the crate root's re-exports left out).
fn file_graph() -> Vec<(String, Vec<String>)> {
    let root = fmu_src();
    let mut files = Vec::new();
    rust_files(&root, &[], &mut files);
    let modules: Vec<Vec<String>> = files.iter().map(|(_, m)| m.clone()).collect();
    let owner = |target: &[String]| -> Option<String> {
        (1..=target.len()).rev().map(|n| &target[..n]).find(|p| modules.iter().any(|m| m == p)).map(|p| p.join("::"))
    };
    files
        .iter()
        .filter(|(_, module)| !module.is_empty())
        .map(|(path, module)| {
            let mut refs = Vec::new();
            references(tokens(path), module, &mut refs);
            let me = module.join("::");
            let mut to: Vec<String> = refs.iter().filter_map(|r| owner(&resolve(r))).filter(|t| *t != me).collect();
            to.sort();
            to.dedup();
            (me, to)
        })
        .collect()
}

/// A circle of `graph`, as the files around it, if there is one.
fn circle(graph: &[(String, Vec<String>)]) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &[(String, Vec<String>)],
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(k) = path.iter().position(|p| p == node) {
            return Some(path[k..].to_vec());
        }
        if done.iter().any(|d| d == node) {
            return None;
        }
        path.push(node.to_string());
        let next = graph.iter().find(|(n, _)| n == node).map(|(_, to)| to.clone()).unwrap_or_default();
        for to in &next {
            if let Some(c) = visit(to, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.push(node.to_string());
        None
    }
    let mut done = Vec::new();
    graph.iter().find_map(|(n, _)| visit(n, graph, &mut Vec::new(), &mut done))
}

/// No circle of files inside the crate (issue 31): the layers above hold
/// between groups of files; this holds between any two files, so that each
/// file can be read knowing only what it imports.
#[test]
fn no_files_import_each_other_in_a_circle() {
    let graph = file_graph();
    assert!(graph.len() > 30, "the graph has too few files: {}", graph.len());
    // The check sees edges it must, and finds a circle where there is one.
    let edges = |from: &str| graph.iter().find(|(n, _)| n == from).map(|(_, t)| t.clone()).unwrap_or_default();
    assert!(edges("models::dahl").contains(&"description".to_string()), "{:?}", edges("models::dahl"));
    let mut looped = graph.clone();
    looped.iter_mut().find(|(n, _)| n == "description").unwrap().1.push("models::dahl".into());
    assert!(circle(&looped).is_some(), "a made-up circle is not found");
    if let Some(c) = circle(&graph) {
        panic!("files of fmu/src import each other in a circle: {} -> {}", c.join(" -> "), c[0]);
    }
}

/// `#[macro_export]` macros of the files under `dir` (they live at the crate
/// root, so `crate::name!` reaches them there without an arrow back up).
fn exported_macros(files: &[(PathBuf, Vec<String>)]) -> Vec<String> {
    let mut names = Vec::new();
    for (path, _) in files {
        let text = std::fs::read_to_string(path).unwrap();
        for part in text.split("#[macro_export]").skip(1) {
            if let Some(rest) = part.trim_start().strip_prefix("macro_rules!") {
                names.push(
                    rest.trim_start().split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap().to_string(),
                );
            }
        }
    }
    names
}

/// Circles and arrows back up in one crate's source folder: a circle of files
/// that import each other, or a file that reaches an item through the crate
/// root (`crate::Name`, re-exported by `lib.rs`/`main.rs`, which stands
/// above every file it declares), as "file: what".
fn crate_problems(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &[], &mut files);
    let modules: Vec<Vec<String>> = files.iter().map(|(_, m)| m.clone()).collect();
    let macros = exported_macros(&files);
    let owner = |target: &[String]| -> Option<String> {
        (1..=target.len()).rev().map(|n| &target[..n]).find(|p| modules.iter().any(|m| m == p)).map(|p| p.join("::"))
    };
    let mut problems = Vec::new();
    let mut graph = Vec::new();
    for (path, module) in &files {
        if module.is_empty() || module == &["main".to_string()] {
            continue; // the crate root declares the modules: it is the top
        }
        let mut refs = Vec::new();
        references(tokens(path), module, &mut refs);
        let me = module.join("::");
        let mut to = Vec::new();
        for r in &refs {
            let target = resolve(r);
            match owner(&target) {
                Some(t) if t != me => to.push(t),
                Some(_) => {}
                None if target.first().is_some_and(|n| !macros.contains(n) && n != "*") => problems.push(format!(
                    "{}: `{}` reaches the crate root (an arrow back up; import it from its own module)",
                    path.strip_prefix(src).unwrap().display(),
                    r.segments.join("::")
                )),
                None => {}
            }
        }
        to.sort();
        to.dedup();
        graph.push((me, to));
    }
    if let Some(c) = circle(&graph) {
        problems.push(format!("a circle of files: {} -> {}", c.join(" -> "), c[0]));
    }
    problems
}

/// No circle and no arrow back up anywhere in the house (issue 31): the FMU
/// crate (the layers above check its order), the physics crate, the runner
/// and the xtask, file by file.
#[test]
fn no_crate_has_a_circle_or_an_arrow_back_up_through_its_root() {
    let ws = fmu_tests::workspace_root();
    let mut all = Vec::new();
    for dir in ["fmu/src", "crates/friction/src", "crates/runner/src", "crates/packaging/src", "xtask/src"] {
        all.extend(crate_problems(&ws.join(dir)).into_iter().map(|p| format!("{dir}/{p}")));
    }
    // The check finds both where they are: a made-up crate whose `a.rs`
    // imports through the root and whose `b.rs` and `c.rs` import each other
    // (`pub(super)` is a visibility, not an import).
    let probe = std::env::temp_dir().join(format!("architecture-probe-{}", std::process::id()));
    std::fs::create_dir_all(&probe).unwrap();
    for (file, text) in [
        ("lib.rs", "mod a; mod b; mod c; pub use a::Thing;"),
        ("a.rs", "pub struct Thing; pub(super) fn f() { let _ = crate::Thing; }"),
        ("b.rs", "pub(super) use crate::c::g; pub fn h() {}"),
        ("c.rs", "pub fn g() { crate::b::h() }"),
    ] {
        std::fs::write(probe.join(file), text).unwrap();
    }
    let found = crate_problems(&probe);
    std::fs::remove_dir_all(&probe).ok();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("a.rs: `crate::Thing` reaches the crate root"), "{found:?}");
    assert!(found[1].starts_with("a circle of files: b -> c"), "{found:?}");
    assert!(all.is_empty(), "{}", all.join("\n"));
}

/// Every file of the crate is in a layer (a new top-level module must be
/// placed in one, here and in the document).
#[test]
fn every_file_has_a_layer() {
    let root = fmu_src();
    let mut files = Vec::new();
    rust_files(&root, &[], &mut files);
    for (path, module) in &files {
        if !module.is_empty() {
            assert!(layer_of(module).is_some(), "{}: in no layer of ARCHITECTURE.md", path.display());
        }
    }
}

/// Lines of a file before its test module (`#[cfg(test)] mod ...`).
fn lines_outside_tests(text: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .windows(2)
        .position(|w| w[0].trim() == "#[cfg(test)]" && w[1].trim_start().starts_with("mod "))
        .unwrap_or(lines.len())
}

/// No source file of the FMU crate is longer than 700 lines outside its
/// test module (issue 31): a file is one concern, read in one sitting.
#[test]
fn no_file_of_the_fmu_crate_is_longer_than_700_lines() {
    let root = fmu_src();
    let mut files = Vec::new();
    rust_files(&root, &[], &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|(path, _)| {
            let n = lines_outside_tests(&std::fs::read_to_string(path).unwrap());
            (n > 700).then(|| format!("{}: {n} lines", path.strip_prefix(&root).unwrap().display()))
        })
        .collect();
    assert!(files.len() > 30, "too few files: {}", files.len());
    assert_eq!(lines_outside_tests("a\nb\n#[cfg(test)]\nmod tests {\n}\n"), 2);
    assert!(long.is_empty(), "files past 700 lines outside their tests:\n{}", long.join("\n"));
}

fn contains_ident(stream: TokenStream, word: &str) -> bool {
    stream.into_iter().any(|t| match t {
        TokenTree::Ident(id) => id == word,
        TokenTree::Group(g) => contains_ident(g.stream(), word),
        _ => false,
    })
}

/// No `#[no_mangle]` written by hand: the one place is `fmu/src/ffi/export.rs`,
/// whose `export_model!` writes every export of a model's binary from the
/// bindings' tables (issue 40). No other file adds to the C ABI.
/// (Where `unsafe` may appear, and its SAFETY notes, is checked by
/// `fmu/tests/unsafe_contained.rs`.)
#[test]
fn exports_are_written_only_by_the_export_macro() {
    let ws = fmu_tests::workspace_root();
    let mut files = Vec::new();
    rust_files(&ws.join("fmu/src"), &[], &mut files);
    rust_files(&ws.join("fmu/binaries"), &[], &mut files);
    let mut physics = Vec::new();
    rust_files(&ws.join("crates/friction/src"), &[], &mut physics);
    let mut runner = Vec::new();
    rust_files(&ws.join("crates/runner/src"), &[], &mut runner);
    let mut bad = Vec::new();
    let the_macro = ws.join("fmu/src/ffi/export.rs");
    for (path, _) in files.iter().chain(&physics).chain(&runner) {
        if *path != the_macro && contains_ident(tokens(path), "no_mangle") {
            bad.push(format!("{}: `#[no_mangle]` outside fmu/src/ffi/export.rs", path.display()));
        }
    }
    let text = std::fs::read_to_string(&the_macro).unwrap();
    let attributes = text.lines().filter(|l| l.trim() == "#[no_mangle]").count();
    assert_eq!(attributes, 3, "export.rs: one forwarding template per kind of row (`models`, `known`, plain)");
    assert!(files.len() > 40 && !physics.is_empty() && !runner.is_empty(), "the scan found too few files");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The names under `[dependencies]` of a manifest.
fn dependencies(manifest: &str) -> Vec<String> {
    let text = std::fs::read_to_string(fmu_tests::workspace_root().join(manifest)).unwrap();
    let mut in_deps = false;
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
        } else if in_deps && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.']).next().unwrap().trim().to_string();
            out.push(name);
        }
    }
    out
}

/// Crates point down: the physics crate uses nothing of ours and nothing of
/// FFI or XML; the FMU library does not link the runner, the xtask or the
/// tests, and a model's binary links only it.
#[test]
fn crates_depend_only_downwards() {
    let ours = ["friction", "fmu", "runner", "packaging", "xtask", "fmu-tests"];
    let friction = dependencies("crates/friction/Cargo.toml");
    for d in &friction {
        assert!(!ours.contains(&d.as_str()), "crates/friction depends on {d}");
        assert!(!["libc", "quick-xml", "fmi", "serde_xml"].contains(&d.as_str()), "crates/friction depends on {d}");
    }
    let fmu = dependencies("fmu/Cargo.toml");
    assert!(fmu.contains(&"friction".to_string()), "{fmu:?}");
    for d in &fmu {
        assert!(
            !["runner", "packaging", "xtask", "fmu-tests"].contains(&d.as_str()),
            "fmu (the FMU binary) depends on {d}"
        );
    }
    // A model's binary is its model and the FMU library, nothing else.
    assert_eq!(dependencies("fmu/binaries/Cargo.toml"), ["fmu"], "fmu/binaries");
    let above = [("runner", vec!["packaging", "xtask", "fmu-tests"]), ("packaging", vec!["xtask", "fmu-tests"])];
    for (krate, above) in above {
        for d in &dependencies(&format!("crates/{krate}/Cargo.toml")) {
            assert!(!above.contains(&d.as_str()), "{krate} depends on {d}");
        }
    }
}

/// The README's model table (section "Models", first column: the FMUs in
/// backticks, one or more per row) lists exactly the registry's models,
/// each once.
#[test]
fn readme_model_table_lists_exactly_the_registry() {
    let readme = std::fs::read_to_string(fmu_tests::workspace_root().join("README.md")).unwrap();
    let section = readme.split("\n## Models\n").nth(1).expect("a \"## Models\" section").split("\n## ").next().unwrap();
    let rows: Vec<&str> =
        section.lines().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|')).collect();
    assert!(rows.len() > 2, "no table under \"## Models\"");
    let mut listed: Vec<&str> = rows[2..]
        .iter()
        .flat_map(|row| {
            let first = row.split('|').nth(1).unwrap();
            first.split('`').skip(1).step_by(2).collect::<Vec<_>>()
        })
        .collect();
    let mut registered = fmu_tests::identifiers();
    listed.sort_unstable();
    registered.sort_unstable();
    let mut unique = listed.clone();
    unique.dedup();
    assert_eq!(unique, listed, "the README lists a model twice");
    let missing: Vec<_> = registered.iter().filter(|id| !listed.contains(id)).collect();
    let extra: Vec<_> = listed.iter().filter(|id| !registered.contains(id)).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "README model table vs the registry (fmu/src/models/mod.rs): missing {missing:?}, not registered {extra:?}"
    );
    // The counts the README gives in its first lines and its pick table.
    let n = registered.len();
    assert!(readme.contains(&format!("as {n} FMI 2.0 FMUs")), "the README's first paragraph does not say {n} FMUs");
    assert!(readme.contains(&format!("lists all {n}")), "the README's pick table does not say {n} FMUs");
}

/// The comparisons of `text` (Rust or Python) that branch on one of `ids`:
/// `== "Id"`, `!= "Id"`, a match arm `"Id" =>` or an alternative `"Id" |`
/// (either quote).
fn branches_on_model_names(text: &str, ids: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let compact: String = line.split_whitespace().collect();
        for id in ids {
            for q in ['"', '\''] {
                let quoted = format!("{q}{id}{q}");
                let forms = [
                    format!("=={quoted}"),
                    format!("!={quoted}"),
                    format!("{quoted}=>"),
                    format!("{quoted}|"),
                    format!("|{quoted}"),
                ];
                if forms.iter().any(|f| compact.contains(f.as_str())) {
                    found.push(format!("line {}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    found
}

/// Issue 39: what a model must show lives in its folder
/// (`fmu/src/models/<model>/behaviour.rs`); the tests walk the registry and
/// hold each model to its own data. So no test, script, runner or xtask
/// file branches on a model's name (a test about one model may load it by
/// name; none may ask "which model is this?" to know what to expect).
#[test]
fn no_test_branches_on_a_model_name() {
    let ids: Vec<&str> = fmu::registry::MODELS.iter().map(|m| m.info.identifier).collect();
    let root = fmu_tests::workspace_root();
    let mut offending = Vec::new();
    for dir in ["tests/tests", "tests/src", "tests/python", "crates/runner/src", "crates/packaging/src", "xtask/src"] {
        let mut stack = vec![root.join(dir)];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs" || e == "py") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for hit in branches_on_model_names(&text, &ids) {
                        offending.push(format!("{}: {hit}", path.strip_prefix(&root).unwrap().display()));
                    }
                }
            }
        }
    }
    // This file's own self-test below spells the forms in a string.
    offending.retain(|o| !o.starts_with("tests/tests/architecture.rs"));
    assert!(
        offending.is_empty(),
        "branches on a model's name (state it in the model's folder):\n{}",
        offending.join("\n")
    );
}

#[test]
fn the_name_check_finds_every_form() {
    let ids = ["HillFrictionInertia"];
    for text in [
        "if id == \"HillFrictionInertia\" {",
        "match id { \"HillFrictionInertia\" => 1, _ => 0 }",
        "\"Other\" | \"HillFrictionInertia\" => {}",
        "x if name != 'HillFrictionInertia' else y",
    ] {
        assert_eq!(branches_on_model_names(text, &ids).len(), 1, "{text}");
    }
    assert!(branches_on_model_names("let fmu = RawFmu::load(\"HillFrictionInertia\");", &ids).is_empty());
}
