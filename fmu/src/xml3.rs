//! FMI 3.0's `modelDescription.xml`, from the same declarations as FMI
//! 2.0's ([`crate::xml`]) and with the same instantiation token (the GUID:
//! one binary answers both standards, and a change of any declaration
//! changes it).
//!
//! What FMI 3.0 asks beyond FMI 2.0: variables typed by their element
//! (`Float64`, `Int32`, `Boolean`, `Enumeration`), an independent variable
//! (`time`), event indicators declared as variables, and a model
//! structure by value reference. [`Layout`] places the value references
//! both the writer and the binding use: each variable's is its position in
//! `<ModelVariables>` plus one (the declared variables and the states'
//! derivatives as in FMI 2.0, then the event indicators and `time`).
//! That the two agree is what OMSimulator 2.x relies on: it reads a
//! dependency's value reference as the 1-based position of the variable.

#![forbid(unsafe_code)]

use crate::description::{Causality, Quantity, Value, Variability, Variable};
use crate::model::Model;
use crate::xml::{
    enumerations_used, quantities_of, real, write_categories_and_experiment, write_units, Xml, AUTHOR, COPYRIGHT,
    GENERATION_TOOL, LICENSE,
};

use crate::model::Layout;

/// The FMI 3.0 model description of `M`. Its texts are the model's own,
/// written for neither standard (they name no standard's function), and
/// the elements FMI 3.0's: nothing is rewritten from FMI 2.0's.
pub fn model_description<M: Model>() -> String {
    write::<M>(&crate::xml::guid::<M>())
}

fn write<M: Model>(token: &str) -> String {
    let info = M::INFO;
    let variables = M::VARIABLES;
    let hybrid = M::HYBRID.as_ref();
    let layout = Layout::of::<M>();
    let mut x = Xml::new();
    x.open(
        "fmiModelDescription",
        &[
            ("fmiVersion", "3.0"),
            ("modelName", info.identifier),
            ("instantiationToken", token),
            ("description", info.description),
            ("author", AUTHOR),
            ("version", env!("CARGO_PKG_VERSION")),
            ("copyright", COPYRIGHT),
            ("license", LICENSE),
            ("generationTool", GENERATION_TOOL),
            ("variableNamingConvention", "flat"),
        ],
    );
    let common = [
        ("modelIdentifier", info.identifier),
        ("needsExecutionTool", "false"),
        ("canBeInstantiatedOnlyOncePerProcess", "false"),
        ("canGetAndSetFMUState", "true"),
        ("canSerializeFMUState", "true"),
        ("providesDirectionalDerivatives", "false"),
        ("providesAdjointDerivatives", "false"),
        ("providesPerElementDependencies", "false"),
    ];
    if hybrid.is_some() {
        let mut a = common.to_vec();
        // Needed: it reports a mode an input set between steps invalidated.
        a.extend([("needsCompletedIntegratorStep", "true"), ("providesEvaluateDiscreteStates", "false")]);
        x.empty("ModelExchange", &a);
    }
    let mut a = common.to_vec();
    a.extend([
        ("canHandleVariableCommunicationStepSize", "true"),
        ("maxOutputDerivativeOrder", if M::OUTPUT_DERIVATIVES.is_empty() { "0" } else { "1" }),
        ("providesIntermediateUpdate", "false"),
        // At a stick, slip, lock or unlock inside a step (fmu::instance::StepEnd).
        ("mightReturnEarlyFromDoStep", "true"),
        ("canReturnEarlyAfterIntermediateUpdate", "false"),
        ("hasEventMode", "true"),
        ("providesEvaluateDiscreteStates", "false"),
    ]);
    x.empty("CoSimulation", &a);

    // `time` is declared with the Time type.
    let mut quantities = quantities_of::<M>();
    quantities.push(Quantity::Time);
    quantities.sort();
    quantities.dedup();
    write_units(&mut x, &quantities);
    x.open("TypeDefinitions", &[]);
    for q in &quantities {
        x.empty("Float64Type", &[("name", q.type_name()), ("quantity", q.quantity_name()), ("unit", q.unit())]);
    }
    // A variable shown in another unit than its type's gets a type that
    // says so (see `write_variable`).
    for (q, d) in shown_types(variables) {
        x.empty(
            "Float64Type",
            &[
                ("name", &shown_type_name(q, d)),
                ("quantity", q.quantity_name()),
                ("unit", q.unit()),
                ("displayUnit", d),
            ],
        );
    }
    for e in enumerations_used(variables) {
        x.open("EnumerationType", &[("name", e.name), ("description", e.description)]);
        for item in e.items {
            let value = item.value.to_string();
            x.empty("Item", &[("name", item.name), ("value", &value), ("description", item.description)]);
        }
        x.close("EnumerationType");
    }
    x.close("TypeDefinitions");
    write_categories_and_experiment(&mut x, &info);

    let position = |name: &str| {
        variables.iter().position(|v| v.name == name).unwrap_or_else(|| {
            panic!("{}: \"{name}\" is named as a state or a dependency but is not a variable", info.identifier)
        })
    };
    let states = hybrid.map_or(&[][..], |h| h.states);
    x.open("ModelVariables", &[]);
    for (k, v) in variables.iter().enumerate() {
        write_variable(&mut x, layout.variable(k), v);
    }
    for (k, state) in states.iter().enumerate() {
        let v = &variables[position(state.variable)];
        let (name, vr) = (format!("der({})", v.name), layout.derivative(k).to_string());
        let description = format!("Derivative of {} with respect to time (Model Exchange)", v.name);
        let of = layout.variable(position(state.variable)).to_string();
        let rate = match v.value {
            Value::Real { quantity, .. } => quantity.per_second(),
            _ => None,
        };
        let mut a = vec![
            ("name", name.as_str()),
            ("valueReference", vr.as_str()),
            ("description", description.as_str()),
            ("causality", "local"),
            ("variability", "continuous"),
            ("initial", "calculated"),
        ];
        if let Some(q) = rate {
            a.push(("declaredType", q.type_name()));
        }
        a.push(("derivative", &of));
        x.empty("Float64", &a);
    }
    for k in 0..layout.indicators {
        let (name, vr) = (Layout::indicator_name(k), layout.indicator(k).to_string());
        let description = format!(
            "Event indicator {} of {} (Model Exchange): the discrete state changes where it crosses 0",
            k + 1,
            layout.indicators
        );
        x.empty(
            "Float64",
            &[
                ("name", &name),
                ("valueReference", &vr),
                ("description", &description),
                ("causality", "local"),
                ("variability", "continuous"),
                ("initial", "calculated"),
            ],
        );
    }
    let time = layout.time().to_string();
    x.empty(
        "Float64",
        &[
            ("name", "time"),
            ("valueReference", &time),
            ("description", "Simulation time"),
            ("causality", "independent"),
            ("variability", "continuous"),
            ("declaredType", "Time"),
        ],
    );
    x.close("ModelVariables");

    // The model structure of FMI 2.0 ([`crate::xml`]), by value reference.
    x.open("ModelStructure", &[]);
    // Measured on the model, the union of both interfaces (crate::dependencies).
    let measured = crate::dependencies::of(info.identifier);
    let vrs =
        |names: &[&str]| names.iter().map(|n| layout.variable(position(n)).to_string()).collect::<Vec<_>>().join(" ");
    let outputs: Vec<(usize, &Variable<M>)> =
        variables.iter().enumerate().filter(|(_, v)| v.causality == Causality::Output).collect();
    for (k, v) in &outputs {
        x.empty(
            "Output",
            &[("valueReference", &layout.variable(*k).to_string()), ("dependencies", &vrs(&measured.output(v.name)))],
        );
    }
    for (k, s) in states.iter().enumerate() {
        x.empty(
            "ContinuousStateDerivative",
            &[
                ("valueReference", &layout.derivative(k).to_string()),
                ("dependencies", &vrs(measured.derivative(s.variable))),
            ],
        );
    }
    let parameters: Vec<usize> =
        variables.iter().enumerate().filter(|(_, v)| v.causality == Causality::Parameter).map(|(i, _)| i).collect();
    let initial = |inputs: &[&str]| {
        let mut deps: Vec<usize> = inputs
            .iter()
            .map(|n| position(n))
            .filter(|&i| variables[i].causality == Causality::Input)
            .chain(parameters.iter().copied())
            .collect();
        deps.sort();
        deps.dedup();
        deps.iter().map(|&d| layout.variable(d).to_string()).collect::<Vec<_>>().join(" ")
    };
    for (k, v) in &outputs {
        x.empty(
            "InitialUnknown",
            &[
                ("valueReference", &layout.variable(*k).to_string()),
                ("dependencies", &initial(&measured.output(v.name))),
            ],
        );
    }
    for (k, s) in states.iter().enumerate() {
        x.empty(
            "InitialUnknown",
            &[
                ("valueReference", &layout.derivative(k).to_string()),
                ("dependencies", &initial(measured.derivative(s.variable))),
            ],
        );
    }
    for k in 0..layout.indicators {
        x.empty("EventIndicator", &[("valueReference", &layout.indicator(k).to_string())]);
    }
    x.close("ModelStructure");
    x.close("fmiModelDescription");
    x.finish()
}

/// The (quantity, display unit) pairs of the variables shown in a unit of
/// their own, once each, in order of use.
fn shown_types<M>(variables: &[Variable<M>]) -> Vec<(Quantity, &'static str)> {
    let mut out: Vec<(Quantity, &'static str)> = Vec::new();
    for v in variables {
        if let Value::Real { quantity, display_unit: Some(d), .. } = v.value {
            if !out.contains(&(quantity, d)) {
                out.push((quantity, d));
            }
        }
    }
    out
}

/// The type of a quantity shown in `display_unit`, e.g. `Angle.deg`.
fn shown_type_name(quantity: Quantity, display_unit: &str) -> String {
    format!("{}.{display_unit}", quantity.type_name())
}

fn write_variable<M>(x: &mut Xml, vr: u32, v: &Variable<M>) {
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
    let mut a: Vec<(&str, String)> = vec![
        ("name", v.name.into()),
        ("valueReference", vr),
        ("description", v.description.into()),
        ("causality", causality.into()),
        ("variability", variability.into()),
    ];
    // As in FMI 2.0: parameters exact, outputs calculated, inputs without.
    match v.causality {
        Causality::Parameter => a.push(("initial", "exact".into())),
        Causality::Output => a.push(("initial", "calculated".into())),
        Causality::Input => {}
    }
    let has_start = v.causality != Causality::Output;
    let element = match v.value {
        Value::Real { quantity, display_unit, start, min, exclusive_min, max, .. } => {
            // The unit (and display unit) through the declared type alone:
            // valid FMI 3.0 either way, and what the Rust fmi crate's
            // schema (fmi-schema 0.8) reads, which takes no `unit` or
            // `displayUnit` on a variable.
            a.push((
                "declaredType",
                match display_unit {
                    Some(d) => shown_type_name(quantity, d),
                    None => quantity.type_name().into(),
                },
            ));
            // No exclusive minimum in FMI 3.0 either: the least value the
            // FMU accepts (see crate::xml).
            if let Some(m) = min {
                a.push(("min", real(if exclusive_min { m.next_up() } else { m })));
            }
            if let Some(m) = max {
                a.push(("max", real(m)));
            }
            // No `nominal` (FMI 2.0 declares a state's): the Rust fmi crate's
            // schema (fmi-schema 0.8) refuses the attribute on a Float64, so
            // fmi3GetNominalsOfContinuousStates alone gives it.
            if has_start {
                a.push(("start", real(start)));
            }
            "Float64"
        }
        Value::Integer { start, choices: Some(e), .. } => {
            a.push(("declaredType", e.name.into()));
            if has_start {
                a.push(("start", start.to_string()));
            }
            "Enumeration"
        }
        Value::Integer { start, min, max, .. } => {
            if let Some(m) = min {
                a.push(("min", m.to_string()));
            }
            if let Some(m) = max {
                a.push(("max", m.to_string()));
            }
            if has_start {
                a.push(("start", start.to_string()));
            }
            "Int32"
        }
        Value::Boolean { start, .. } => {
            if has_start {
                a.push(("start", start.to_string()));
            }
            "Boolean"
        }
    };
    let a: Vec<(&str, &str)> = a.iter().map(|(k, v)| (*k, v.as_str())).collect();
    x.empty(element, &a);
}
