//! `modelDescription.xml` and the GUID, derived from a model's declarations.
//!
//! Elements and attributes are written in the order of the FMI 2.0 schema
//! (fmi2ModelDescription.xsd): UnitDefinitions, TypeDefinitions,
//! LogCategories, DefaultExperiment, ModelVariables, ModelStructure.

#![forbid(unsafe_code)]

use crate::description::{
    value_reference, Causality, Enumeration, Quantity, Value, Variability, Variable, LOG_CATEGORIES,
};
use crate::model::Model;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, Event};
use quick_xml::Writer;

/// Name written into `generationTool`.
pub const GENERATION_TOOL: &str = concat!("friction-fmu ", env!("CARGO_PKG_VERSION"));

/// `author`, `copyright` and `license` of every FMU (the workspace's
/// `MIT OR Apache-2.0`; both texts ship in `documentation/licenses/`).
pub const AUTHOR: &str = "The friction-fmu authors";
pub const COPYRIGHT: &str = "Copyright (c) 2026 The friction-fmu authors";
pub const LICENSE: &str = "MIT OR Apache-2.0 (SPDX); see documentation/licenses/ in the FMU";

/// `DefaultExperiment tolerance` unless a model's experiment asks for a
/// tighter one (declared with the experiment, where the models use it).
pub use crate::description::DEFAULT_TOLERANCE;

/// `xml` with `generationDateAndTime` (ISO 8601, e.g.
/// `2026-11-23T14:00:00Z`) added to its root element. Kept out of the
/// GUID: the GUID names the declarations, not the build.
pub fn with_generation_date(xml: &str, date_and_time: &str) -> String {
    let anchor = " variableNamingConvention=";
    assert!(xml.contains(anchor), "not a model description of this writer");
    xml.replacen(anchor, &format!(" generationDateAndTime=\"{date_and_time}\"{anchor}"), 1)
}

/// The model description of `M`, with its GUID filled in.
pub fn model_description<M: Model>() -> String {
    write_description::<M>(&guid::<M>())
}

/// The GUID of `M`: a 128-bit FNV-1a hash of its model description written
/// with an empty GUID. Any change to a declaration changes the GUID, so an
/// XML and a binary from different builds of a model cannot be paired.
pub fn guid<M: Model>() -> String {
    let text = write_description::<M>("");
    let (a, b) = fnv1a_128(text.as_bytes());
    format!(
        "{{{:08x}-{:04x}-{:04x}-{:04x}-{:012x}}}",
        (a >> 32) as u32,
        (a >> 16) as u16,
        a as u16,
        (b >> 48) as u16,
        b & 0xffff_ffff_ffff
    )
}

/// Two independent 64-bit FNV-1a lanes (different offset bases).
fn fnv1a_128(bytes: &[u8]) -> (u64, u64) {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut a: u64 = 0xcbf2_9ce4_8422_2325;
    let mut b: u64 = 0x6c62_272e_07bb_0142;
    for &byte in bytes {
        a = (a ^ byte as u64).wrapping_mul(PRIME);
        b = (b ^ byte as u64).wrapping_mul(PRIME).rotate_left(29);
    }
    (a, b)
}

/// Round-trip formatting of a double in the XML (`1e-7`, `0.5`, `2.0`),
/// the same text in every floating-point environment: `{:?}` picks the
/// exponent form with float comparisons (`abs < 1e-4 && abs != 0`), which
/// a process that treats subnormals as zero answers otherwise for
/// `min="5e-324"`; here the choice is made on the bits. (The digits
/// themselves come from integer arithmetic in every mode.)
pub fn real(x: f64) -> String {
    let magnitude = x.to_bits() & !(1u64 << 63);
    let small = magnitude != 0 && magnitude < 1e-4f64.to_bits();
    let large = magnitude >= 1e16f64.to_bits() && magnitude < f64::INFINITY.to_bits();
    if small || large {
        format!("{x:e}")
    } else {
        format!("{x:?}")
    }
}

pub(crate) struct Xml(Writer<Vec<u8>>);

impl Xml {
    pub(crate) fn new() -> Self {
        let mut x = Xml(Writer::new_with_indent(Vec::new(), b' ', 2));
        x.event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
        x
    }
    pub(crate) fn finish(self) -> String {
        let mut text = String::from_utf8(self.0.into_inner()).expect("the XML is built from UTF-8 strings");
        text.push('\n');
        text
    }
    fn event(&mut self, e: Event<'_>) {
        self.0.write_event(e).expect("writing XML into memory cannot fail");
    }
    pub(crate) fn open(&mut self, name: &str, attributes: &[(&str, &str)]) {
        self.event(Event::Start(element(name, attributes)));
    }
    pub(crate) fn empty(&mut self, name: &str, attributes: &[(&str, &str)]) {
        self.event(Event::Empty(element(name, attributes)));
    }
    pub(crate) fn close(&mut self, name: &str) {
        self.event(Event::End(BytesEnd::new(name)));
    }
}

fn element<'a>(name: &'a str, attributes: &[(&str, &str)]) -> BytesStart<'a> {
    let mut e = BytesStart::new(name);
    for &a in attributes {
        e.push_attribute(a); // escapes the value
    }
    e
}

fn quantities_used<M>(variables: &[Variable<M>]) -> Vec<Quantity> {
    let mut used: Vec<Quantity> = variables
        .iter()
        .filter_map(|v| match v.value {
            Value::Real { quantity, .. } => Some(quantity),
            _ => None,
        })
        .collect();
    used.sort();
    used.dedup();
    used
}

/// The Enumeration types of the choice parameters, once each, in order of use.
pub(crate) fn enumerations_used<M>(variables: &[Variable<M>]) -> Vec<&'static Enumeration> {
    let mut used: Vec<&'static Enumeration> = Vec::new();
    for e in variables.iter().filter_map(Variable::choices) {
        if !used.iter().any(|u| u.name == e.name) {
            used.push(e);
        }
    }
    used
}

/// The quantities of `M`'s Real variables and of its states' derivatives
/// (Model Exchange), once each, in order.
pub(crate) fn quantities_of<M: Model>() -> Vec<Quantity> {
    let variables = M::VARIABLES;
    let mut quantities = quantities_used(variables);
    for state in M::HYBRID.as_ref().map_or(&[][..], |h| h.states) {
        if let Some(Value::Real { quantity, .. }) =
            variables.iter().find(|v| v.name == state.variable).map(|v| &v.value)
        {
            quantities.extend(quantity.per_second());
        }
    }
    quantities.sort();
    quantities.dedup();
    quantities
}

/// `<UnitDefinitions>`: the same element in FMI 2.0 and 3.0.
pub(crate) fn write_units(x: &mut Xml, quantities: &[Quantity]) {
    x.open("UnitDefinitions", &[]);
    for q in quantities {
        x.open("Unit", &[("name", q.unit())]);
        let b = q.base_unit();
        let (kg, m, s, rad) = (b.kg.to_string(), b.m.to_string(), b.s.to_string(), b.rad.to_string());
        let mut base: Vec<(&str, &str)> = Vec::new();
        for (name, exponent, text) in [("kg", b.kg, &kg), ("m", b.m, &m), ("s", b.s, &s), ("rad", b.rad, &rad)] {
            if exponent != 0 {
                base.push((name, text));
            }
        }
        let factor = real(b.factor);
        if b.factor != 1.0 {
            base.push(("factor", &factor));
        }
        x.empty("BaseUnit", &base);
        for d in q.display_units() {
            let (factor, offset) = (real(d.factor), real(d.offset));
            x.empty("DisplayUnit", &[("name", d.name), ("factor", &factor), ("offset", &offset)]);
        }
        x.close("Unit");
    }
    x.close("UnitDefinitions");
}

/// `<LogCategories>` and `<DefaultExperiment>`: the same in FMI 2.0 and 3.0.
pub(crate) fn write_categories_and_experiment(x: &mut Xml, info: &crate::description::ModelInfo) {
    x.open("LogCategories", &[]);
    for c in LOG_CATEGORIES {
        x.empty("Category", &[("name", c.name), ("description", c.description)]);
    }
    x.close("LogCategories");
    let e = info.default_experiment;
    let (start, stop, step) = (real(e.start_time), real(e.stop_time), real(e.step_size));
    let tolerance = real(e.tolerance);
    x.empty(
        "DefaultExperiment",
        &[("startTime", &start), ("stopTime", &stop), ("tolerance", &tolerance), ("stepSize", &step)],
    );
}

fn write_description<M: Model>(guid: &str) -> String {
    let info = M::INFO;
    let variables = M::VARIABLES;
    let mut x = Xml::new();
    let hybrid = M::HYBRID.as_ref();
    let n_event_indicators = hybrid.map_or(0, |h| h.indicators).to_string();
    x.open(
        "fmiModelDescription",
        &[
            ("fmiVersion", "2.0"),
            ("modelName", info.identifier),
            ("guid", guid),
            ("description", info.description),
            ("author", AUTHOR),
            ("version", env!("CARGO_PKG_VERSION")),
            ("copyright", COPYRIGHT),
            ("license", LICENSE),
            ("generationTool", GENERATION_TOOL),
            ("variableNamingConvention", "flat"),
            ("numberOfEventIndicators", &n_event_indicators),
        ],
    );
    if hybrid.is_some() {
        x.empty(
            "ModelExchange",
            &[
                ("modelIdentifier", info.identifier),
                ("needsExecutionTool", "false"),
                // Needed: it reports a mode an input set between steps invalidated.
                ("completedIntegratorStepNotNeeded", "false"),
                ("canBeInstantiatedOnlyOncePerProcess", "false"),
                ("canNotUseMemoryManagementFunctions", "true"),
                ("canGetAndSetFMUstate", "true"),
                ("canSerializeFMUstate", "true"),
                ("providesDirectionalDerivative", "false"),
            ],
        );
    }
    x.empty(
        "CoSimulation",
        &[
            ("modelIdentifier", info.identifier),
            ("needsExecutionTool", "false"),
            ("canHandleVariableCommunicationStepSize", "true"),
            ("canInterpolateInputs", if M::INPUT_DERIVATIVES.is_empty() { "false" } else { "true" }),
            ("maxOutputDerivativeOrder", if M::OUTPUT_DERIVATIVES.is_empty() { "0" } else { "1" }),
            ("canRunAsynchronuously", "false"),
            ("canBeInstantiatedOnlyOncePerProcess", "false"),
            ("canNotUseMemoryManagementFunctions", "true"),
            ("canGetAndSetFMUstate", "true"),
            ("canSerializeFMUstate", "true"),
            ("providesDirectionalDerivative", "false"),
        ],
    );

    let quantities = quantities_of::<M>();
    write_units(&mut x, &quantities);

    x.open("TypeDefinitions", &[]);
    for q in &quantities {
        x.open("SimpleType", &[("name", q.type_name())]);
        x.empty("Real", &[("quantity", q.quantity_name()), ("unit", q.unit())]);
        x.close("SimpleType");
    }
    for e in enumerations_used(variables) {
        x.open("SimpleType", &[("name", e.name), ("description", e.description)]);
        x.open("Enumeration", &[]);
        for item in e.items {
            let value = item.value.to_string();
            x.empty("Item", &[("name", item.name), ("value", &value), ("description", item.description)]);
        }
        x.close("Enumeration");
        x.close("SimpleType");
    }
    x.close("TypeDefinitions");

    write_categories_and_experiment(&mut x, &info);

    x.open("ModelVariables", &[]);
    for (index, v) in variables.iter().enumerate() {
        write_variable(&mut x, value_reference(index), v, state_nominal::<M>(v.name));
    }
    let states = hybrid.map_or(&[][..], |h| h.states);
    let position = |name: &str| {
        variables.iter().position(|v| v.name == name).unwrap_or_else(|| {
            panic!("{}: \"{name}\" is named as a state or a dependency but is not a variable", info.identifier)
        })
    };
    for (k, state) in states.iter().enumerate() {
        let vr = value_reference(variables.len() + k);
        write_derivative(&mut x, vr, &variables[position(state.variable)], position(state.variable));
    }
    x.close("ModelVariables");

    x.open("ModelStructure", &[]);
    // Measured on the model, the union of both interfaces (crate::dependencies).
    let measured = crate::dependencies::of(info.identifier);
    let index_of = |name: &str| (position(name) + 1).to_string();
    let outputs: Vec<(String, String)> = variables
        .iter()
        .enumerate()
        .filter(|(_, v)| v.causality == Causality::Output)
        .map(|(i, v)| {
            ((i + 1).to_string(), measured.output(v.name).iter().map(|n| index_of(n)).collect::<Vec<_>>().join(" "))
        })
        .collect();
    if !outputs.is_empty() {
        // What either interface shows: an input an output follows at once
        // (Co-Simulation's feedthrough, Model Exchange's equations) and, in
        // Model Exchange, the states it is computed from (a state that is
        // an output depends on itself).
        x.open("Outputs", &[]);
        for (index, dependencies) in &outputs {
            x.empty("Unknown", &[("index", index), ("dependencies", dependencies)]);
        }
        x.close("Outputs");
    }
    // Derivatives: what each state's derivative depends on (states, inputs).
    let derivatives: Vec<(String, String)> = states
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let deps: Vec<String> = measured.derivative(s.variable).iter().map(|n| index_of(n)).collect();
            ((variables.len() + k + 1).to_string(), deps.join(" "))
        })
        .collect();
    if !derivatives.is_empty() {
        x.open("Derivatives", &[]);
        for (index, dependencies) in &derivatives {
            x.empty("Unknown", &[("index", index), ("dependencies", dependencies)]);
        }
        x.close("Derivatives");
    }
    // Every output and derivative is initial="calculated" (FMI 2.0, 3.3.2):
    // all of them are initial unknowns. At initialization they depend on the
    // parameters (start values included) and on the inputs they follow at
    // once; a state's value is itself an initial unknown, so a derivative's
    // dependency on it is one on the parameters.
    let parameters: Vec<String> = variables
        .iter()
        .enumerate()
        .filter(|(_, v)| v.causality == Causality::Parameter)
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    let initial = |inputs: &[&str]| {
        let mut deps: Vec<usize> = inputs
            .iter()
            .map(|n| position(n))
            .filter(|&i| variables[i].causality == Causality::Input)
            .map(|i| i + 1)
            .chain(parameters.iter().map(|p| p.parse().unwrap()))
            .collect();
        deps.sort();
        deps.dedup();
        deps.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(" ")
    };
    let mut unknowns: Vec<(String, String)> = variables
        .iter()
        .enumerate()
        .filter(|(_, v)| v.causality == Causality::Output)
        .map(|(i, v)| ((i + 1).to_string(), initial(&measured.output(v.name))))
        .collect();
    unknowns.extend(
        states
            .iter()
            .enumerate()
            .map(|(k, s)| ((variables.len() + k + 1).to_string(), initial(measured.derivative(s.variable)))),
    );
    if !unknowns.is_empty() {
        x.open("InitialUnknowns", &[]);
        for (index, dependencies) in &unknowns {
            x.empty("Unknown", &[("index", index), ("dependencies", dependencies)]);
        }
        x.close("InitialUnknowns");
    }
    x.close("ModelStructure");
    x.close("fmiModelDescription");
    x.finish()
}

/// `der(<state>)`: the derivative of a continuous state (Model Exchange),
/// value reference `vr` past the declared variables.
fn write_derivative<M>(x: &mut Xml, vr: u32, state: &Variable<M>, state_index: usize) {
    let name = format!("der({})", state.name);
    let description = format!("Derivative of {} with respect to time (Model Exchange)", state.name);
    let vr = vr.to_string();
    x.open(
        "ScalarVariable",
        &[
            ("name", &name),
            ("valueReference", &vr),
            ("description", &description),
            ("causality", "local"),
            ("variability", "continuous"),
            ("initial", "calculated"),
        ],
    );
    let derivative = (state_index + 1).to_string();
    let rate = match state.value {
        Value::Real { quantity, .. } => quantity.per_second(),
        _ => None,
    };
    match rate {
        Some(q) => x.empty("Real", &[("declaredType", q.type_name()), ("unit", q.unit()), ("derivative", &derivative)]),
        None => x.empty("Real", &[("derivative", &derivative)]),
    }
    x.close("ScalarVariable");
}

/// The nominal value of the Model Exchange state `name` where it is not 1
/// (the attribute's default): what `fmi2GetNominalsOfContinuousStates`
/// returns, declared, so that an importer that scales its tolerances before
/// instantiating reads the same.
pub(crate) fn state_nominal<M: Model>(name: &str) -> Option<String> {
    let state = M::HYBRID.as_ref()?.states.iter().find(|s| s.variable == name)?;
    (state.nominal != 1.0).then(|| real(state.nominal))
}

fn write_variable<M>(x: &mut Xml, vr: u32, v: &Variable<M>, nominal: Option<String>) {
    let vr = vr.to_string();
    let causality = match v.causality {
        Causality::Parameter => "parameter",
        Causality::Input => "input",
        Causality::Output => "output",
    };
    let variability = match v.variability {
        Variability::Fixed => "fixed",
        Variability::Discrete => "discrete",
        Variability::Continuous => "continuous",
    };
    let mut attributes = vec![
        ("name", v.name),
        ("valueReference", vr.as_str()),
        ("description", v.description),
        ("causality", causality),
        ("variability", variability),
    ];
    // FMI 2.0 Table 3.3.2: parameters are exact, outputs here calculated,
    // inputs take no `initial` attribute.
    match v.causality {
        Causality::Parameter => attributes.push(("initial", "exact")),
        Causality::Output => attributes.push(("initial", "calculated")),
        Causality::Input => {}
    }
    let has_start = v.causality != Causality::Output;
    x.open("ScalarVariable", &attributes);
    match v.value {
        Value::Real { quantity, display_unit, start, min, exclusive_min, max, .. } => {
            // FMI 2.0 has no exclusive minimum: a bound the FMU refuses
            // itself (J > 0) is declared as the smallest double above it,
            // the least value the FMU accepts, so that `min` is always valid.
            let min = min.map(|m| if exclusive_min { m.next_up() } else { m });
            let (start, min, max) = (real(start), min.map(real), max.map(real));
            let mut a = vec![("declaredType", quantity.type_name()), ("unit", quantity.unit())];
            if let Some(d) = display_unit {
                a.push(("displayUnit", d));
            }
            if let Some(min) = &min {
                a.push(("min", min));
            }
            if let Some(max) = &max {
                a.push(("max", max));
            }
            if let Some(nominal) = &nominal {
                a.push(("nominal", nominal));
            }
            if has_start {
                a.push(("start", &start));
            }
            x.empty("Real", &a);
        }
        Value::Integer { start, choices: Some(e), .. } => {
            let start = start.to_string();
            let mut a = vec![("declaredType", e.name)];
            if has_start {
                a.push(("start", &start));
            }
            x.empty("Enumeration", &a);
        }
        Value::Integer { start, min, max, .. } => {
            let (start, min, max) = (start.to_string(), min.map(|m| m.to_string()), max.map(|m| m.to_string()));
            let mut a = Vec::new();
            if let Some(min) = &min {
                a.push(("min", min.as_str()));
            }
            if let Some(max) = &max {
                a.push(("max", max.as_str()));
            }
            if has_start {
                a.push(("start", &start));
            }
            x.empty("Integer", &a);
        }
        Value::Boolean { start, .. } => {
            let start = [("start", if start { "true" } else { "false" })];
            x.empty("Boolean", if has_start { &start[..] } else { &[] });
        }
    }
    x.close("ScalarVariable");
}

/// The variables of `M` as a Markdown table (name, causality, type, unit,
/// start, range, description), for the generated docs.
pub fn variables_table<M: Model>() -> String {
    let mut out = String::from(
        "| vr | name | causality | type | unit | start | range | description |\n|---|---|---|---|---|---|---|---|\n",
    );
    for (index, v) in M::VARIABLES.iter().enumerate() {
        let vr = value_reference(index);
        let causality = match v.causality {
            Causality::Parameter => "parameter",
            Causality::Input => "input",
            Causality::Output => "output",
        };
        let (unit, start, range) = match v.value {
            Value::Real { quantity, start, min, exclusive_min, max, display_unit, .. } => {
                let lo = match min {
                    Some(m) if exclusive_min => format!("> {}", real(m)),
                    Some(m) => format!(">= {}", real(m)),
                    None => String::new(),
                };
                let hi = max.map(|m| format!("<= {}", real(m))).unwrap_or_default();
                let range = [lo, hi].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(", ");
                // A display unit shown beside the unit, the start in it too.
                let shown = display_unit.and_then(|d| quantity.display_units().iter().find(|u| u.name == d));
                match shown {
                    Some(d) => (
                        format!("{} (shown in {})", quantity.unit(), d.name),
                        format!("{} ({} {})", real(start), crate::text::number(start * d.factor + d.offset), d.name),
                        range,
                    ),
                    None => (quantity.unit().to_string(), real(start), range),
                }
            }
            Value::Integer { start, choices: Some(e), .. } => (String::new(), start.to_string(), e.listing()),
            Value::Integer { start, min, max, .. } => {
                let range = match (min, max) {
                    (Some(a), Some(b)) => format!("{a}..={b}"),
                    _ => String::new(),
                };
                (String::new(), start.to_string(), range)
            }
            Value::Boolean { start, .. } => (String::new(), start.to_string(), String::new()),
        };
        let start = if v.causality == Causality::Output { String::new() } else { start };
        out.push_str(&format!(
            "| {vr} | `{}` | {causality} | {} | {unit} | {start} | {range} | {} |\n",
            v.name,
            v.choices().map_or(v.type_name(), |e| e.name),
            v.description
        ));
    }
    out
}
