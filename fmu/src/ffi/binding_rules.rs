//! Tests over a binding's source, shared by FMI 2.0's and FMI 3.0's: the
//! rules that no compiler checks (a new export that forgets the call's
//! floating-point environment, or its row in the export table).

#![cfg(test)]
#![forbid(unsafe_code)]

/// A binding's export files, one text.
pub struct Binding {
    /// `"fmi2"` or `"fmi3"`.
    pub prefix: &'static str,
    pub source: String,
}

impl Binding {
    /// The export files of the binding `prefix` (`fmu/src/<prefix>/exports/`), the same in both.
    pub fn of(prefix: &'static str) -> Binding {
        let files = ["common.rs", "values.rs", "fmu_state.rs", "co_simulation.rs", "model_exchange.rs"];
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(prefix).join("exports");
        let read = |file: &str| std::fs::read_to_string(dir.join(file)).expect("an export file");
        Binding { prefix, source: files.map(read).join("\n") }
    }
}

/// Every row in `b.source` names its environment, and a row written out
/// enters none itself: a `host` one computes nothing (what the hostile-host
/// check measures), a `models` one hands over to the shared instantiate,
/// which enters the default environment first
/// (`instantiate_enters_the_default_environment_first`). No export is
/// written out of a row. Returns how many rows it found.
pub fn every_export_that_computes_enters_the_default_environment(b: &Binding) -> usize {
    let by_hand =
        b.source.lines().map(str::trim).filter(|l| l.starts_with("pub") && l.contains(&format!("fn {}", b.prefix)));
    assert_eq!(by_hand.count(), 0, "every export a row of the table");
    let rows = handle_rows(b);
    for (name, env, body) in &rows {
        match *env {
            "host fn" | "models fn" => {
                assert!(!body.contains("CallEnv"), "{name}: written out, enters no environment");
                let hands_over = body.contains("instantiate(models,");
                assert_eq!(
                    hands_over,
                    *env == "models fn",
                    "{name}: an instantiate row (`models`) hands over to the shared one"
                );
            }
            _ => assert!(
                ["computes", "host", "computes_if", "steps", "checks_if"].contains(env),
                "{name}: `computes`, `host`, `computes_if`, `steps` or `checks_if`, not {env:?}"
            ),
        }
    }
    rows.len()
}

/// The rows of `handle_exports!` in `b.source`: (name, word, what follows
/// the arguments' closing parenthesis). The word is the one after that
/// parenthesis, or for a row written out `host fn` or `models fn`, with
/// its body, the block after `=>`, in place of what follows.
fn handle_rows(b: &Binding) -> Vec<(&str, &str, &str)> {
    let row = format!("fn {}", b.prefix);
    let mut rows = Vec::new();
    for (at, _) in b.source.match_indices(&row) {
        let line_start = b.source[..at].rfind('\n').map_or(0, |i| i + 1);
        let before = b.source[line_start..at].trim();
        if !["", "host", "models"].contains(&before) {
            continue; // not a row: `fn fmi..` in a comment or a test
        }
        let rest = &b.source[at + 3..];
        let open = rest.find('(').expect("a row's arguments");
        let name = rest[..open].trim_end_matches("<K>");
        let after = &rest[matching(rest, open, ('(', ')')) + 1..];
        if !before.is_empty() {
            let body = &after[after.find("=>").expect("a written row's body") + 2..];
            let body = &body[body.find('{').expect("a block")..];
            let word = if before == "host" { "host fn" } else { "models fn" };
            rows.push((name, word, &body[..=matching(body, 0, ('{', '}'))]));
            continue;
        }
        let mut words = after.split_whitespace();
        let mut word = words.next().unwrap_or("");
        if word == "[first" {
            // `[first <fast path>]`, then the environment's word.
            words.next();
            word = words.next().unwrap_or("");
        }
        rows.push((name, word, after));
    }
    rows
}

/// Where the bracket open at `open` in `text` closes.
fn matching(text: &str, open: usize, (opening, closing): (char, char)) -> usize {
    let mut depth = 0;
    let found = text[open..].char_indices().find_map(|(i, ch)| {
        depth += (ch == opening) as i32 - (ch == closing) as i32;
        (depth == 0).then_some(open + i)
    });
    found.expect("the closing bracket")
}

/// `handle_exports!` (`fmu/src/ffi/export.rs`) enters the default
/// environment for a `computes` row as its first statement, for a
/// `computes_if` row first in its body when the row's condition holds, and
/// for a `host` row does nothing.
#[test]
fn the_handle_rows_template_enters_the_environment_of_its_word() {
    let source = include_str!("export.rs");
    let template = &source[source.find("macro_rules! handle_exports").unwrap()..];
    let arm = |word: &str| {
        let at = source.find(&format!("(@env {word}) => {{")).unwrap_or_else(|| panic!("no arm for {word}"));
        let body = &source[at..];
        body[body.find('{').unwrap() + 1..body.find('}').unwrap()].trim().to_string()
    };
    assert_eq!(arm("computes"), "let _env = CallEnv::enter();");
    assert_eq!(arm("host"), "");
    assert_eq!(arm("computes_if"), "", "entered in the body, once the instance is admitted");
    let when = &source[source.find("(@when computes_if").expect("the condition's arm")..];
    let when = &when[..when.find("};").unwrap()];
    assert!(when.contains(".then(CallEnv::enter);"), "the condition enters the default environment: {when}");
    let evaluates = &source[source.find("(@when checks_if").expect("the evaluation's arm")..];
    let evaluates = &evaluates[..evaluates.find("};").unwrap()];
    assert!(
        evaluates.contains("CallEnv::enter_checked()"),
        "the condition enters the checked environment: {evaluates}"
    );
    let steps = &source[source.find("(@when steps").expect("the step's arm")..];
    let steps = &steps[..steps.find("};").unwrap()];
    assert!(steps.contains("CallEnv::enter_checked()"), "a step enters the checked environment: {steps}");
    let body = template.lines().skip_while(|l| !l.contains("let body = |instance")).nth(1).unwrap();
    assert_eq!(
        body.trim(),
        "$crate::handle_exports!(@when $env instance $(|$when| $cond)?);",
        "the condition first in the body, before the conversions and the core call"
    );
    // The fast path of a `[first ..]` row first (in the host's environment,
    // `crate::ffi::hot`), then the row's environment first in its general path.
    let mut function =
        template.lines().skip_while(|l| !l.contains("pub unsafe extern \"C\" fn $name $(<$known")).skip(1);
    let mut next = || function.next().unwrap().trim();
    assert_eq!(next(), "$crate::handle_exports!(@first [$($first)?] [$($known)?] $env c $allowed, ($($arg),*));");
    assert_eq!(next(), "$crate::handle_exports!(@rest [$($first)?] {");
    assert_eq!(next(), "$crate::handle_exports!(@env $env);", "the environment first");
}

/// Every function of the binding has one row in its export table (`rows`),
/// and every row of its files is there.
pub fn every_binding_function_has_a_row(b: &Binding, rows: &[&str]) {
    let unique: std::collections::BTreeSet<&str> = rows.iter().copied().collect();
    assert_eq!(unique.len(), rows.len(), "a function with two rows");
    let in_files: std::collections::BTreeSet<&str> = handle_rows(b).into_iter().map(|(name, ..)| name).collect();
    assert_eq!(in_files, unique, "the rows of the binding's files are the table's");
}

/// The instantiate function both standards hand over to
/// (`crate::ffi::instantiate`) enters the default environment as its first
/// statement, before the panic guard and the standard's logger.
#[test]
fn instantiate_enters_the_default_environment_first() {
    let source = include_str!("mod.rs");
    let function = &source[source.find("pub unsafe fn instantiate(").expect("the shared instantiate")..];
    let body = &function[function.find(") -> *mut c_void {").expect("its body") + 18..];
    let first = body.lines().map(str::trim).find(|l| !l.is_empty()).expect("a statement");
    assert_eq!(first, "let _env = float_env::CallEnv::enter();");
}
