//! Tests over a binding's source, shared by FMI 2.0's and FMI 3.0's: the
//! rules that no compiler checks (a new export that forgets the call's
//! floating-point environment, or its row in the export table).

#![cfg(test)]
#![forbid(unsafe_code)]

/// A binding's export files, one text, and what its rules name.
pub struct Binding {
    /// `"fmi2"` or `"fmi3"`.
    pub prefix: &'static str,
    pub source: String,
    /// The exports written out that do no floating-point work (see
    /// [`crate::ffi::float_env`]): they run in the host's environment (a
    /// row says it by its word).
    pub computes_nothing: &'static [&'static str],
}

/// Every export written out in `b.source` enters the default environment
/// as its first line, but those of `computes_nothing`, which never do, and
/// every row names its environment; returns how many exports it found.
pub fn every_export_that_computes_enters_the_default_environment(b: &Binding) -> usize {
    let lines: Vec<&str> = b.source.lines().collect();
    let mut exports = 0;
    let enters = |line: &str| line.trim() == "let _env = CallEnv::enter();";
    for (i, written) in lines.iter().enumerate() {
        let line = written.trim_start();
        if !(line.starts_with("pub extern \"C\" fn ")
            || line.starts_with("pub unsafe extern \"C\" fn ")
            || line.starts_with(&format!("pub unsafe fn {}", b.prefix)))
        {
            continue;
        }
        exports += 1;
        let name = line.split("fn ").nth(1).and_then(|r| r.split('(').next()).unwrap();
        let body = lines[i..].iter().position(|l| l.trim_end().ends_with('{')).expect("a body") + i + 1;
        // The closing brace at the signature's indentation.
        let close = format!("{}}}", &written[..written.len() - line.len()]);
        let end = lines[body..].iter().position(|l| l.trim_end() == close).expect("the closing brace") + body;
        let computes = !b.computes_nothing.contains(&name);
        // An instantiate function hands over to the shared one, which
        // enters the environment first (`instantiate_enters_the_default_environment_first`).
        let shared = lines[body..end].iter().any(|l| l.contains("instantiate(models,"));
        assert_eq!(enters(lines[body]) || shared, computes, "{name}: enters the default environment?");
        let elsewhere = lines[body + 1..end].iter().any(|l| l.contains("CallEnv"));
        assert!(!elsewhere, "{name}: CallEnv only as the first line");
    }
    for (name, env) in handle_rows(b) {
        assert!(
            ["computes", "host", "computes_if", "steps", "checks_if"].contains(&env),
            "{name}: `computes`, `host`, `computes_if`, `steps` or `checks_if`, not {env:?}"
        );
        assert!(!b.computes_nothing.contains(&name), "{name}: a row says it by its word, `host`");
        exports += 1;
    }
    exports
}

/// The rows of `handle_exports!` in `b.source`: (name, `computes` or `host`),
/// the word after the arguments' closing parenthesis; a row of a function
/// written out (its signature only: `->` or `;` there) is not one.
fn handle_rows(b: &Binding) -> Vec<(&str, &str)> {
    let row = format!("fn {}", b.prefix);
    let mut rows = Vec::new();
    for (at, _) in b.source.match_indices(&row) {
        let line_start = b.source[..at].rfind('\n').map_or(0, |i| i + 1);
        if !b.source[line_start..at].trim().is_empty() {
            continue; // `pub unsafe extern "C" fn ...`: written out
        }
        let rest = &b.source[at + 3..];
        let name = &rest[..rest.find('(').expect("a row's arguments")];
        let open = rest.find('(').expect("a row's arguments");
        let mut depth = 0;
        let close = rest[open..]
            .char_indices()
            .find_map(|(i, ch)| {
                depth += match ch {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                (depth == 0).then_some(open + i)
            })
            .expect("the arguments' end");
        let mut words = rest[close + 1..].split_whitespace();
        let mut word = words.next().unwrap_or("");
        if word == "[first" {
            // `[first <fast path>]`, then the environment's word.
            words.next();
            word = words.next().unwrap_or("");
        }
        if !(word.starts_with("->") || word.starts_with(';')) {
            rows.push((name, word));
        }
    }
    rows
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
    let mut function = template.lines().skip_while(|l| !l.contains("pub unsafe extern \"C\" fn $name")).skip(1);
    let mut next = || function.next().unwrap().trim();
    assert_eq!(next(), "$crate::handle_exports!(@first [$($first)?] [$($known)?] $env c $allowed, ($($arg),*));");
    assert_eq!(next(), "$crate::handle_exports!(@rest [$($first)?] {");
    assert_eq!(next(), "$crate::handle_exports!(@env $env);", "the environment first");
}

/// Every function of the binding has a row in its export table (`rows`),
/// once: the functions written out (a row of the table writes the others).
pub fn every_binding_function_has_a_row(b: &Binding, rows: &[&str]) {
    let unique: std::collections::BTreeSet<&str> = rows.iter().copied().collect();
    assert_eq!(unique.len(), rows.len(), "a function with two rows");
    fn name(s: &str) -> &str {
        s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or("")
    }
    let written = format!("fn {}", b.prefix);
    let mut defined = std::collections::BTreeSet::new();
    for line in b.source.lines().map(str::trim) {
        if let Some(at) = line.find(&written).filter(|_| line.starts_with("pub ")) {
            defined.insert(name(&line[at + 3..]));
        }
    }
    defined.remove("");
    let missing: Vec<&&str> = defined.iter().filter(|f| !unique.contains(**f)).collect();
    assert!(missing.is_empty(), "functions written out without a row in the table: {missing:?}");
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
