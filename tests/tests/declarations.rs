//! Declarations' share of every model file: a plant model file must read as
//! its physics wiring, not as a list of variables (issue 14).
//!
//! A *declaration line* is any line (blank lines and comments included) of a
//! declaration block, plus the comment lines directly above the block. A
//! declaration block starts at a line that, after indentation and an optional
//! `pub`/`pub(crate)`, begins with
//! - `const INFO`, `const VARIABLES`, `const INPUT_DERIVATIVES` or
//!   `const OUTPUT_DERIVATIVES` (the [`fmu::model::Model`] items),
//! - `const <NAME>: Enumeration` (a hand-written FMI Enumeration),
//! - `fn <name>(<x>: <Type>) -> i32` or `fn <name>(<x>: i32) -> <Type>` (a
//!   hand-written enum <-> integer code conversion),
//! - an invocation of `enumeration!`, `law_models!` or `inertia_model!` (with or
//!   without `crate::`),
//! - `impl<...> Variable<` (variables shared by several models),
//!
//! and ends at the first line after which every `(`, `[` and `{` it opened is
//! closed (brackets inside string literals, which may span lines, and inside
//! `//` comments do not count) and which ends in `;` or `}` or `)`.
//! The total is every line of the file. The test prints the table for every
//! file in `fmu/src/models/` and fails if a plant model file (the list below)
//! reaches one third.
//!
//! Run: `cargo test -p fmu-tests --test declarations -- --nocapture`.

use std::path::Path;

/// Plant models: the share must stay under a third.
const PLANTS: &[&str] = &[
    "two_inertia_clutch/mod.rs",
    "coupled_clutches/mod.rs",
    "antenna_servo/mod.rs",
    "cmg_gimbal/mod.rs",
    "flap_actuator/mod.rs",
    "compliant_drive/mod.rs",
];

fn starts_block(line: &str) -> bool {
    let t = line.trim_start();
    let t = t.strip_prefix("pub(crate) ").or_else(|| t.strip_prefix("pub ")).unwrap_or(t);
    let model_item = ["const INFO", "const VARIABLES", "const INPUT_DERIVATIVES", "const OUTPUT_DERIVATIVES"]
        .iter()
        .any(|p| t.starts_with(p));
    let enumeration = t.starts_with("const ") && t.contains(": Enumeration");
    let t_macro = t.strip_prefix("crate::").unwrap_or(t);
    let macro_call = ["enumeration!", "law_models!", "inertia_model!"].iter().any(|p| t_macro.starts_with(p));
    let shared = t.starts_with("impl<") && t.contains("Variable<");
    enumeration || model_item || macro_call || shared || is_code_conversion(t)
}

/// `fn name(x: Type) -> i32` or `fn name(x: i32) -> Type`.
fn is_code_conversion(t: &str) -> bool {
    let Some(rest) = t.strip_prefix("fn ") else { return false };
    let (Some(open), Some(close)) = (rest.find('('), rest.find(')')) else { return false };
    let args = &rest[open + 1..close];
    let ret = rest[close + 1..].trim().trim_end_matches('{').trim();
    let one_arg = args.split(',').count() == 1 && args.contains(':');
    one_arg && (ret == "-> i32" || args.trim_end().ends_with(": i32") && ret.starts_with("-> "))
}

/// Bracket depth change of a line, tracking string literals across lines.
fn depth_change(line: &str, in_string: &mut bool) -> i32 {
    let mut depth = 0;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if *in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => *in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => *in_string = true,
            '\'' => {
                // A char literal such as '(' (lifetimes have no closing quote nearby).
                let rest: String = chars.clone().take(3).collect();
                if rest.len() >= 2 && rest.chars().nth(1) == Some('\'') {
                    chars.next();
                    chars.next();
                }
            }
            '/' if chars.peek() == Some(&'/') => break,
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// (declaration lines, total lines) of one file.
pub fn count(source: &str) -> (usize, usize) {
    let lines: Vec<&str> = source.lines().collect();
    let mut declaration = vec![false; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        if !starts_block(lines[i]) {
            i += 1;
            continue;
        }
        // Comments directly above belong to the declaration.
        let mut j = i;
        while j > 0 && lines[j - 1].trim_start().starts_with("//") {
            j -= 1;
            declaration[j] = true;
        }
        let (mut depth, mut in_string) = (0, false);
        while i < lines.len() {
            declaration[i] = true;
            depth += depth_change(lines[i], &mut in_string);
            let end = lines[i].trim_end();
            i += 1;
            if depth <= 0 && !in_string && (end.ends_with(';') || end.ends_with('}') || end.ends_with(')')) {
                break;
            }
        }
    }
    (declaration.iter().filter(|d| **d).count(), lines.len())
}

#[test]
fn declarations_are_under_a_third_of_every_plant_model_file() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fmu/src/models");
    // The shared kinds (files) and each model's declarations (its folder's mod.rs).
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| if p.is_dir() { p.join("mod.rs") } else { p })
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "rs") && p.exists());
    files.sort();
    let mut failures = Vec::new();
    println!("| file | declaration lines | total lines | share |\n|---|---:|---:|---:|");
    for path in &files {
        let name = path.strip_prefix(&dir).unwrap().to_str().unwrap();
        let (declared, total) = count(&std::fs::read_to_string(path).unwrap());
        let share = declared as f64 / total as f64;
        println!("| {name} | {declared} | {total} | {:.0} % |", 100.0 * share);
        if PLANTS.contains(&name) && 3 * declared >= total {
            failures.push(format!("{name}: {declared} of {total} lines are declarations"));
        }
    }
    for plant in PLANTS {
        assert!(files.iter().any(|p| p.ends_with(plant)), "{plant} is gone: update PLANTS");
    }
    assert!(failures.is_empty(), "declarations' share: {failures:#?}");
}

#[test]
fn the_counter_counts_blocks_and_their_comments() {
    let source = "use x;\n\
                  // Why the inputs.\n\
                  const VARIABLES: &[V] = &[\n    a(\"(\", 1),\n    b(\"]\\\n    \"),\n];\n\
                  fn step() {}\n\
                  fn code_of(s: Shape) -> i32 {\n    match s {\n        A => 0,\n    }\n}\n";
    // 5 of VARIABLES + its comment + 5 of code_of, out of 13.
    assert_eq!(count(source), (11, 13));
}
