//! A model's equations, written once beside it in a small linear notation
//! that reads like Modelica (`J*der(w) = tau + tau_friction`) and shown on
//! its FMU's page as MathML (no script, no font, no network).
//!
//! The names in an equation are the model's own variable names, so the page
//! links each equation to the variable table, and a test checks that every
//! name is a variable of the model, `t`, `pi`, or defined by an earlier equation of
//! the same model (its left-hand side): an equation cannot drift away from
//! what the FMU exposes without the test failing.
//!
//! Notation: numbers, names (`tau_coulomb` shows as tau with the subscript
//! `coulomb`, `J_motor` as J with `motor`; a name whose base is a word
//! stays that word, `rate_command`), `+ - * / ^`, parentheses,
//! relations `= != < > <= >=`, conditions that hold together separated by
//! commas (`w = 0, abs(tau) <= tau_static`), text in double quotes, and the functions
//! `der(x)` (dx/dt), `abs(x)`, `sign(x)`, `sqrt(x)` and any other name
//! applied to arguments (`min`, `max`, `exp`, `tanh`, ...).

#![forbid(unsafe_code)]

/// One equation: its math, the condition under which it holds (math, empty
/// for always) and where it comes from (the paper's equation, or a word on
/// why it is here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Equation {
    pub math: &'static str,
    pub when: &'static str,
    pub source: &'static str,
}

/// `eq(math, when, source)`: see [`Equation`].
pub const fn eq(math: &'static str, when: &'static str, source: &'static str) -> Equation {
    Equation { math, when, source }
}

/// A parsed expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Number(String),
    Name(String),
    Text(String),
    Negate(Box<Expr>),
    Binary(char, Box<Expr>, Box<Expr>),
    /// A chain of relations: `a <= b <= c` is `[a, b, c]` with `["<=", "<="]`.
    Relation(Vec<Expr>, Vec<&'static str>),
    Call(String, Vec<Expr>),
    Group(Box<Expr>),
    /// Conditions that hold together, written `a, b` at the top level.
    All(Vec<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(String),
    Name(String),
    Text(String),
    Op(&'static str),
}

fn tokens(s: &str) -> Result<Vec<Token>, String> {
    const OPS: [&str; 13] = ["<=", ">=", "!=", "=", "<", ">", "+", "-", "*", "/", "^", "(", ")"];
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || (c == '.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let start = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            // An exponent: 1e-3, 2.5E6.
            if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                let mut j = i + 1;
                if j < b.len() && (b[j] == b'-' || b[j] == b'+') {
                    j += 1;
                }
                if j < b.len() && b[j].is_ascii_digit() {
                    i = j;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            out.push(Token::Number(s[start..i].to_string()));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Token::Name(s[start..i].to_string()));
        } else if c == '"' {
            let end = s[i + 1..].find('"').ok_or_else(|| format!("unclosed text in `{s}`"))?;
            out.push(Token::Text(s[i + 1..i + 1 + end].to_string()));
            i += end + 2;
        } else if c == ',' {
            out.push(Token::Op(","));
            i += 1;
        } else if let Some(op) = OPS.iter().find(|op| s[i..].starts_with(**op)) {
            out.push(Token::Op(op));
            i += op.len();
        } else {
            return Err(format!("unexpected `{c}` in `{s}`"));
        }
    }
    Ok(out)
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }
    fn op(&mut self, ops: &[&'static str]) -> Option<&'static str> {
        match self.peek() {
            Some(Token::Op(o)) if ops.contains(o) => {
                let o = *o;
                self.at += 1;
                Some(o)
            }
            _ => None,
        }
    }
    fn relation(&mut self) -> Result<Expr, String> {
        let first = self.sum()?;
        let (mut terms, mut ops) = (vec![first], Vec::new());
        while let Some(o) = self.op(&["=", "!=", "<", ">", "<=", ">="]) {
            ops.push(o);
            terms.push(self.sum()?);
        }
        Ok(if ops.is_empty() { terms.pop().unwrap() } else { Expr::Relation(terms, ops) })
    }
    fn sum(&mut self) -> Result<Expr, String> {
        let mut left =
            if self.op(&["-"]).is_some() { Expr::Negate(Box::new(self.product()?)) } else { self.product()? };
        while let Some(o) = self.op(&["+", "-"]) {
            let right = self.product()?;
            left = Expr::Binary(o.chars().next().unwrap(), Box::new(left), Box::new(right));
        }
        Ok(left)
    }
    fn product(&mut self) -> Result<Expr, String> {
        let mut left = self.power()?;
        while let Some(o) = self.op(&["*", "/"]) {
            let right = self.power()?;
            left = Expr::Binary(o.chars().next().unwrap(), Box::new(left), Box::new(right));
        }
        Ok(left)
    }
    fn power(&mut self) -> Result<Expr, String> {
        let base = self.atom()?;
        if self.op(&["^"]).is_some() {
            // Right-associative; a minus in the exponent is allowed.
            let exponent =
                if self.op(&["-"]).is_some() { Expr::Negate(Box::new(self.power()?)) } else { self.power()? };
            return Ok(Expr::Binary('^', Box::new(base), Box::new(exponent)));
        }
        Ok(base)
    }
    fn atom(&mut self) -> Result<Expr, String> {
        let token = self.peek().cloned().ok_or("expression ends early")?;
        self.at += 1;
        match token {
            Token::Number(n) => Ok(Expr::Number(n)),
            Token::Text(t) => Ok(Expr::Text(t)),
            Token::Name(name) => {
                if self.op(&["("]).is_none() {
                    return Ok(Expr::Name(name));
                }
                let mut args = vec![self.relation()?];
                while self.op(&[","]).is_some() {
                    args.push(self.relation()?);
                }
                self.op(&[")"]).ok_or_else(|| format!("`{name}(` is not closed"))?;
                Ok(Expr::Call(name, args))
            }
            Token::Op("(") => {
                let inner = self.relation()?;
                self.op(&[")"]).ok_or("`(` is not closed")?;
                Ok(Expr::Group(Box::new(inner)))
            }
            Token::Op(o) => Err(format!("unexpected `{o}`")),
        }
    }
}

/// Parse one expression (or relation); an error names what is wrong.
pub fn parse(s: &str) -> Result<Expr, String> {
    let mut p = Parser { tokens: tokens(s)?, at: 0 };
    let mut all = vec![p.relation().map_err(|e| format!("{e} in `{s}`"))?];
    while p.op(&[","]).is_some() {
        all.push(p.relation().map_err(|e| format!("{e} in `{s}`"))?);
    }
    let e = if all.len() == 1 { all.pop().unwrap() } else { Expr::All(all) };
    if p.at != p.tokens.len() {
        return Err(format!("unexpected {:?} in `{s}`", p.tokens[p.at]));
    }
    Ok(e)
}

/// The functions the notation knows, by the names it shows them with.
pub const FUNCTIONS: &[&str] = &["der", "abs", "sign", "sqrt", "min", "max", "exp", "tanh", "sin", "cos", "pre"];

/// Every variable name an expression uses (not functions, not text).
pub fn names(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::Name(n) => {
            if !out.contains(n) {
                out.push(n.clone())
            }
        }
        Expr::Number(_) | Expr::Text(_) => {}
        Expr::Negate(x) | Expr::Group(x) => names(x, out),
        Expr::Binary(_, a, b) => {
            names(a, out);
            names(b, out);
        }
        Expr::Relation(terms, _) | Expr::All(terms) => terms.iter().for_each(|x| names(x, out)),
        Expr::Call(_, args) => args.iter().for_each(|x| names(x, out)),
    }
}

/// The names an equation defines: its left-hand side when that is a lone
/// name (`tau_shaft = ...`).
pub fn defines(e: &Expr) -> Option<&str> {
    match e {
        Expr::Relation(terms, ops) if ops[0] == "=" => match &terms[0] {
            Expr::Name(n) => Some(n),
            _ => None,
        },
        _ => None,
    }
}

const GREEK: &[(&str, &str)] = &[
    ("alpha", "α"),
    ("beta", "β"),
    ("gamma", "γ"),
    ("delta", "δ"),
    ("epsilon", "ε"),
    ("theta", "θ"),
    ("lambda", "λ"),
    ("mu", "μ"),
    ("sigma", "σ"),
    ("tau", "τ"),
    ("phi", "φ"),
    ("omega", "ω"),
    ("pi", "π"),
];

/// A name as a symbol with a subscript when its base is a letter or a
/// Greek name (`tau_coulomb`, `J_motor`, `w1`), else as the word it is
/// (`rate_command`, `motor_inertia_fraction`): the reader finds it in the
/// variable table as written.
fn split_name(n: &str) -> Option<(&str, &str)> {
    let (base, sub) = n.split_once('_')?;
    let symbol = base.len() == 1 || GREEK.iter().any(|(g, _)| *g == base);
    (symbol && !sub.is_empty() && base.chars().all(|c| c.is_ascii_alphabetic())).then_some((base, sub))
}

/// A one-letter (or Greek, or subscripted) symbol: a number before it
/// multiplies silently (2π, 2ω_gear), unlike before a word.
fn is_symbol(e: &Expr) -> bool {
    match e {
        Expr::Name(n) => n.len() == 1 || GREEK.iter().any(|(g, _)| g == n) || split_name(n).is_some(),
        _ => false,
    }
}

fn name_mathml(n: &str) -> String {
    let greek = |b: &str| GREEK.iter().find(|(g, _)| *g == b).map(|(_, l)| l.to_string());
    match split_name(n) {
        // `mode_2`-like subscripts are numbers, the others words.
        Some((base, sub)) => {
            let base = greek(base).unwrap_or_else(|| base.to_string());
            if sub.chars().all(|c| c.is_ascii_digit()) {
                format!("<msub><mi>{base}</mi><mn>{sub}</mn></msub>")
            } else {
                format!("<msub><mi>{base}</mi><mtext>{}</mtext></msub>", sub.replace('_', " "))
            }
        }
        None => format!("<mi>{}</mi>", greek(n).unwrap_or_else(|| n.to_string())),
    }
}

fn op(o: &str) -> String {
    let shown = match o {
        "*" => "⋅",
        "-" => "−",
        "<=" => "≤",
        ">=" => "≥",
        "!=" => "≠",
        "<" => "&lt;",
        ">" => "&gt;",
        other => other,
    };
    format!("<mo>{shown}</mo>")
}

fn fenced(inner: String) -> String {
    format!("<mrow><mo>(</mo>{inner}<mo>)</mo></mrow>")
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// MathML (the content of a `<math>` element) for an expression.
pub fn mathml(e: &Expr) -> String {
    match e {
        Expr::Number(n) => {
            // 1e-3 as 1·10^-3.
            match n.split_once(['e', 'E']) {
                Some((m, x)) => format!(
                    "<mrow><mn>{m}</mn><mo>⋅</mo><msup><mn>10</mn><mn>{}</mn></msup></mrow>",
                    x.trim_start_matches('+').replace('-', "−")
                ),
                None => format!("<mn>{n}</mn>"),
            }
        }
        Expr::Name(n) => name_mathml(n),
        Expr::Text(t) => format!("<mtext>{}</mtext>", escape(t)),
        Expr::Negate(x) => format!("<mrow><mo>−</mo>{}</mrow>", mathml(x)),
        Expr::Group(x) => fenced(mathml(x)),
        Expr::Binary('/', a, b) => format!("<mfrac><mrow>{}</mrow><mrow>{}</mrow></mfrac>", bare(a), bare(b)),
        Expr::Binary('^', a, b) => format!("<msup><mrow>{}</mrow><mrow>{}</mrow></msup>", mathml(a), bare(b)),
        Expr::Binary('*', a, b) => {
            // A number before a symbol multiplies silently (2 x).
            let silent = matches!(**a, Expr::Number(_)) && is_symbol(b);
            let times = if silent { "<mo>&#x2062;</mo>".to_string() } else { op("*") };
            format!("<mrow>{}{times}{}</mrow>", mathml(a), mathml(b))
        }
        Expr::Binary(o, a, b) => format!("<mrow>{}{}{}</mrow>", mathml(a), op(&o.to_string()), mathml(b)),
        Expr::All(terms) => {
            let parts: Vec<String> = terms.iter().map(mathml).collect();
            format!("<mrow>{}</mrow>", parts.join("<mo separator=\"true\">,</mo><mspace width=\"1em\"/>"))
        }
        Expr::Relation(terms, ops) => {
            let mut s = String::from("<mrow>");
            for (i, t) in terms.iter().enumerate() {
                if i > 0 {
                    s.push_str(&op(ops[i - 1]));
                }
                s.push_str(&mathml(t));
            }
            s.push_str("</mrow>");
            s
        }
        Expr::Call(f, args) => {
            let arg = |i: usize| bare(&args[i]);
            match (f.as_str(), args.len()) {
                ("der", 1) => format!(
                    "<mfrac><mrow><mi mathvariant=\"normal\">d</mi>{}</mrow><mrow><mi mathvariant=\"normal\">d</mi>\
                     <mi>t</mi></mrow></mfrac>",
                    mathml(&args[0])
                ),
                ("abs", 1) => format!("<mrow><mo>|</mo>{}<mo>|</mo></mrow>", arg(0)),
                ("sqrt", 1) => format!("<msqrt>{}</msqrt>", arg(0)),
                ("sign", 1) => format!("<mrow><mi>sgn</mi><mo>&#x2061;</mo>{}</mrow>", fenced(arg(0))),
                // pre(x): the value just before the event, as Modelica writes it.
                ("pre", 1) => format!("<msup><mrow>{}</mrow><mo>−</mo></msup>", mathml(&args[0])),
                _ => {
                    let list: Vec<String> = (0..args.len()).map(arg).collect();
                    format!("<mrow><mi>{f}</mi><mo>&#x2061;</mo>{}</mrow>", fenced(list.join("<mo>,</mo>")))
                }
            }
        }
    }
}

/// An expression without its outer parentheses (inside a fraction, a
/// function's argument list or an exponent they are redundant).
fn bare(e: &Expr) -> String {
    match e {
        Expr::Group(x) => mathml(x),
        other => mathml(other),
    }
}

/// `<math>` for an expression (inline; the page sets `math-style: normal`
/// so that fractions keep their full size).
pub fn math_element(e: &Expr) -> String {
    format!("<math>{}</math>", mathml(e))
}

/// LaTeX for an expression (GitHub's Markdown math in `docs/models.md`).
pub fn latex(e: &Expr) -> String {
    let name = |n: &str| {
        let greek = |b: &str| GREEK.iter().any(|(g, _)| *g == b);
        match split_name(n) {
            Some((base, sub)) => {
                let base = if greek(base) { format!("\\{base}") } else { base.to_string() };
                format!("{base}_{{\\mathrm{{{}}}}}", sub.replace('_', "\\_"))
            }
            None if greek(n) => format!("\\{n}"),
            None if n.len() > 1 => format!("\\mathrm{{{}}}", n.replace('_', "\\_")),
            None => n.to_string(),
        }
    };
    let bare = |e: &Expr| match e {
        Expr::Group(x) => latex(x),
        other => latex(other),
    };
    let rel = |o: &str| match o {
        "<=" => "\\le".to_string(),
        ">=" => "\\ge".to_string(),
        "!=" => "\\ne".to_string(),
        other => other.to_string(),
    };
    match e {
        Expr::Number(n) => match n.split_once(['e', 'E']) {
            Some((m, x)) => format!("{m}\\cdot 10^{{{}}}", x.trim_start_matches('+')),
            None => n.clone(),
        },
        Expr::Name(n) => name(n),
        Expr::Text(t) => format!("\\text{{{t}}}"),
        Expr::Negate(x) => format!("-{}", latex(x)),
        Expr::Group(x) => format!("\\left({}\\right)", latex(x)),
        Expr::Binary('/', a, b) => format!("\\frac{{{}}}{{{}}}", bare(a), bare(b)),
        Expr::Binary('^', a, b) => format!("{{{}}}^{{{}}}", latex(a), bare(b)),
        Expr::Binary('*', a, b) => {
            let silent = matches!(**a, Expr::Number(_)) && is_symbol(b);
            format!("{}{}{}", latex(a), if silent { " " } else { " \\cdot " }, latex(b))
        }
        Expr::Binary(o, a, b) => format!("{} {o} {}", latex(a), latex(b)),
        Expr::All(terms) => terms.iter().map(latex).collect::<Vec<_>>().join(",\\quad "),
        Expr::Relation(terms, ops) => {
            let mut s = latex(&terms[0]);
            for (t, o) in terms[1..].iter().zip(ops) {
                s.push_str(&format!(" {} {}", rel(o), latex(t)));
            }
            s
        }
        Expr::Call(f, args) => match (f.as_str(), args.len()) {
            ("der", 1) => format!("\\frac{{d{}}}{{dt}}", latex(&args[0])),
            ("abs", 1) => format!("\\left|{}\\right|", bare(&args[0])),
            ("sqrt", 1) => format!("\\sqrt{{{}}}", bare(&args[0])),
            ("pre", 1) => format!("{{{}}}^{{-}}", latex(&args[0])),
            ("sign", 1) => format!("\\operatorname{{sgn}}\\left({}\\right)", bare(&args[0])),
            _ => {
                let list: Vec<String> = args.iter().map(bare).collect();
                format!("\\operatorname{{{f}}}\\left({}\\right)", list.join(", "))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_renders_the_notation() {
        let e = parse("J*der(w) = tau + tau_friction").unwrap();
        let m = mathml(&e);
        assert!(m.contains("<mfrac><mrow><mi mathvariant=\"normal\">d</mi><mi>w</mi></mrow>"), "{m}");
        assert!(m.contains("<msub><mi>τ</mi><mtext>friction</mtext></msub>"), "{m}");
        assert_eq!(mathml(&parse("rate_command").unwrap()), "<mi>rate_command</mi>");
        assert_eq!(mathml(&parse("mode_2").unwrap()), "<mi>mode_2</mi>");
        assert_eq!(mathml(&parse("J_motor").unwrap()), "<msub><mi>J</mi><mtext>motor</mtext></msub>");
        assert_eq!(latex(&parse("rate_command").unwrap()), "\\mathrm{rate\\_command}");
        let mut n = Vec::new();
        names(&e, &mut n);
        assert_eq!(n, ["J", "w", "tau", "tau_friction"]);
        assert_eq!(defines(&parse("tau_shaft = k_shaft*(phi_drive - phi)").unwrap()), Some("tau_shaft"));
        assert_eq!(defines(&e), None);
        let chain = parse("-tau_static <= tau <= 1e-3").unwrap();
        assert!(matches!(&chain, Expr::Relation(t, o) if t.len() == 3 && o == &["<=", "<="]));
        assert!(mathml(&chain).contains("<msup><mn>10</mn><mn>−3</mn></msup>"));
        assert!(mathml(&parse("a/(b + c)").unwrap()).starts_with("<mfrac><mrow><mi>a</mi></mrow><mrow><mrow>"));
        assert!(mathml(&parse("2*x").unwrap()).contains("&#x2062;"));
        assert_eq!(mathml(&parse("\"stuck\"").unwrap()), "<mtext>stuck</mtext>");
        assert_eq!(latex(&e), "J \\cdot \\frac{dw}{dt} = \\tau + \\tau_{\\mathrm{friction}}");
        let both = parse("w = 0, abs(tau) <= tau_static").unwrap();
        assert_eq!(latex(&both), "w = 0,\\quad \\left|\\tau\\right| \\le \\tau_{\\mathrm{static}}");
        assert!(matches!(&both, Expr::All(c) if c.len() == 2));
    }

    #[test]
    fn refuses_malformed_equations_with_the_reason() {
        for (bad, why) in [
            ("J*der(w = tau", "not closed"),
            ("a + ", "ends early"),
            ("a $ b", "unexpected `$`"),
            ("a b", "unexpected"),
            // Text right after an expression is not an operand.
            ("w = 0 \"while stuck\"", "unexpected"),
            ("\"open", "unclosed text"),
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
