//! What each output and each state derivative depends on (`<ModelStructure>`),
//! measured on the model itself rather than listed by hand.
//!
//! [`measure`] runs a model through the instance core in Co-Simulation (its
//! default experiment, every paper scenario of it, and the default
//! experiment with its zero parameters made positive) and, at the
//! communication points, perturbs every known alone and records which
//! unknowns move (any change of bits):
//!
//! - **Co-Simulation**: each input set on the instance between steps, every
//!   output read at once: a direct feedthrough, as an importer sees it;
//! - **Model Exchange**: on the hybrid form settled at that point (the
//!   discrete state held, as between events), each input and each
//!   continuous state set alone and the form evaluated: the outputs and
//!   the derivatives that move.
//!
//! One `<ModelStructure>` serves both interfaces, so an output declares the
//! union; what Model Exchange alone has is kept apart for the pages. It is
//! a measurement: a dependency that none of these runs shows is not
//! declared, so a test probes every FMU again through FMPy, at points of
//! the importer's own runs and with its own perturbations
//! (`tests/python/declarations_hold.py`).
//! Measuring at run time would make the GUID (a hash of the model
//! description) depend on the host's floating-point environment, so the
//! measurement is kept as generated source, [`measured`], written by
//! `cargo xtask docs` and checked current by a test.

#![forbid(unsafe_code)]

mod measured;
mod table;

pub use table::Table;

use crate::description::{Causality, Value};
use crate::instance::{Erased, Instance, Interface, Kind, Log, ModelBox, Vocabulary};
use crate::model::Model;
use crate::scenario::Signal;

/// The measured table of `identifier`; panics with what to run if the
/// model was added or changed since.
pub fn of(identifier: &str) -> &'static Table {
    kept(identifier).unwrap_or_else(|| {
        panic!("{identifier}: no measured dependencies: run `cargo xtask docs` (fmu/src/dependencies/measured.rs)")
    })
}

/// The measured table of `identifier` as this build holds it, if any.
pub fn kept(identifier: &str) -> Option<&'static Table> {
    measured::MEASURED.iter().find(|t| t.model == identifier)
}

/// A measurement, as [`Table`] with owned lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measured {
    pub model: &'static str,
    pub outputs: Vec<(&'static str, Vec<&'static str>, Vec<&'static str>)>,
    pub derivatives: Vec<(&'static str, Vec<&'static str>)>,
    /// The runs the model refused, and why (not part of the table).
    pub skipped: Vec<String>,
}

impl Measured {
    /// Whether `table` says exactly this.
    pub fn matches(&self, table: &Table) -> bool {
        let outputs = self.outputs.iter().map(|(n, c, m)| (*n, c.as_slice(), m.as_slice()));
        let derivatives = self.derivatives.iter().map(|(n, d)| (*n, d.as_slice()));
        self.model == table.model
            && outputs.eq(table.outputs.iter().copied())
            && derivatives.eq(table.derivatives.iter().copied())
    }
}

static WORDS: Vocabulary = Vocabulary {
    co_simulation: "Co-Simulation",
    model_exchange: "Model Exchange",
    after_internal_error: "none",
    stop_time: "the default experiment",
    types: &crate::instance::CORE_TYPES,
};

/// Probe at most this many communication points of a default run.
const MAX_POINTS: usize = 1000;

/// The perturbations of a known of value `x`: a small and a large one, in
/// opposite senses (a law flat on one side of a point, or a saturation,
/// still shows on the other), and 0 and -x (a threshold at 0, such as a
/// clutch's normal force, shows only across it). A value the model refuses
/// (below a `min`) measures nothing.
fn perturbations(x: f64) -> [f64; 4] {
    let scale = x.abs().max(1.0);
    [x + 1e-6 * scale, x - 1e-3 * scale, 0.0, -x - 1e-3]
}

/// Every output's value as bits, in declaration order.
fn outputs_of(model: &dyn Erased, outputs: &[u32]) -> Vec<u64> {
    outputs
        .iter()
        .map(|&vr| {
            let mut r = [0.0];
            if model.get_real(&[vr], &mut r).is_ok() {
                return r[0].to_bits();
            }
            let mut i = [0];
            if model.get_integer(&[vr], &mut i).is_ok() {
                return i[0] as u64;
            }
            let mut b = [false];
            model.get_boolean(&[vr], &mut b).expect("an output is a Real, an Integer or a Boolean");
            b[0] as u64
        })
        .collect()
}

/// Outputs then derivatives of a Model Exchange view, as bits.
fn unknowns_of(view: &dyn Erased, outputs: &[u32], states: usize) -> Vec<u64> {
    let mut bits = outputs_of(view, outputs);
    let mut d = vec![0.0; states];
    // A non-finite derivative at a perturbed point reads as a change.
    match view.derivatives(&mut d) {
        Ok(()) => bits.extend(d.iter().map(|x| x.to_bits())),
        Err(_) => bits.extend(std::iter::repeat(u64::MAX).take(states)),
    }
    bits
}

/// Record in `seen[unknown][known]` each unknown whose bits differ.
fn mark(seen: &mut [Vec<bool>], known: usize, base: &[u64], now: &[u64]) {
    for (u, (a, b)) in base.iter().zip(now).enumerate() {
        if a != b {
            seen[u][known] = true;
        }
    }
}

/// One run the probe rides: parameter values by name (over the start
/// values), input signals by name, and a grid.
struct Run {
    what: String,
    parameters: Vec<(&'static str, f64)>,
    inputs: Vec<(&'static str, Signal)>,
    start: f64,
    stop: f64,
    step: f64,
}

/// The runs that measure `M`: its default experiment, every paper scenario
/// of it, and the default experiment again with every Real parameter whose
/// start value is 0 made slightly positive (a damping or a viscous
/// coefficient that is 0 by default hides the dependency it makes).
fn runs<M: Model>() -> Vec<Run> {
    let e = M::INFO.default_experiment;
    let default = Run {
        what: "the default experiment".into(),
        parameters: Vec::new(),
        inputs: M::INFO.default_inputs.to_vec(),
        start: e.start_time,
        stop: e.stop_time,
        step: e.step_size,
    };
    let lifted: Vec<(&'static str, f64)> = M::VARIABLES
        .iter()
        .filter(|v| v.causality == Causality::Parameter)
        .filter_map(|v| match v.value {
            Value::Real { start, .. } if start == 0.0 => Some((v.name, 1e-3)),
            _ => None,
        })
        .collect();
    let lifted = Run {
        what: "the default experiment with zero parameters at 1e-3".into(),
        parameters: lifted,
        inputs: default.inputs.clone(),
        ..default
    };
    let mut runs = vec![default, lifted];
    runs.extend(crate::scenarios::all().into_iter().filter(|s| s.model == M::INFO.identifier).map(|s| Run {
        what: format!("scenario {}", s.name),
        parameters: s.parameters.to_vec(),
        inputs: s.inputs.to_vec(),
        start: 0.0,
        stop: s.stop_time,
        step: s.step_size,
    }));
    runs
}

/// Measure `M`'s dependencies (see the module) over [`runs`]. The default
/// experiment must run; a variant the model refuses (a parameter rule) is
/// left out.
pub fn measure<M: Model>() -> Measured {
    let variables = M::VARIABLES;
    let value_references = || (0..variables.len()).map(crate::description::value_reference);
    let variable = |vr: u32| &variables[crate::description::index_of(vr)];
    let inputs: Vec<u32> = value_references()
        .filter(|&vr| variable(vr).causality == Causality::Input)
        .inspect(|&vr| {
            assert!(
                matches!(variable(vr).value, Value::Real { .. }),
                "{}: input {} is not a Real: the probe perturbs Reals only",
                M::INFO.identifier,
                variable(vr).name
            )
        })
        .collect();
    let outputs: Vec<u32> = value_references().filter(|&vr| variable(vr).causality == Causality::Output).collect();
    let states: Vec<&'static str> =
        M::HYBRID.as_ref().map_or(Vec::new(), |h| h.states.iter().map(|s| s.variable).collect());
    // [output][input] for Co-Simulation; [output or derivative][input or state] for Model Exchange.
    let mut seen = Seen {
        co_simulation: vec![vec![false; inputs.len()]; outputs.len()],
        model_exchange: vec![vec![false; inputs.len() + states.len()]; outputs.len() + states.len()],
    };
    let mut skipped = Vec::new();
    for (k, run) in runs::<M>().iter().enumerate() {
        if let Err(e) = probe_run::<M>(run, &inputs, &outputs, states.len(), &mut seen) {
            assert!(k > 0, "{}: {} failed while measuring dependencies: {e}", M::INFO.identifier, run.what);
            skipped.push(format!("{}: {}", run.what, e));
        }
    }
    let name = |vr: &u32| variable(*vr).name;
    let input_names: Vec<&'static str> = inputs.iter().map(name).collect();
    let knowns: Vec<&'static str> = input_names.iter().copied().chain(states.iter().copied()).collect();
    let pick = |row: &[bool], from: &[&'static str]| -> Vec<&'static str> {
        from.iter().zip(row).filter(|(_, &on)| on).map(|(k, _)| *k).collect()
    };
    Measured {
        model: M::INFO.identifier,
        outputs: outputs
            .iter()
            .enumerate()
            .map(|(o, vr)| {
                (name(vr), pick(&seen.co_simulation[o], &input_names), pick(&seen.model_exchange[o], &knowns))
            })
            .collect(),
        derivatives: states
            .iter()
            .enumerate()
            .map(|(k, s)| (*s, pick(&seen.model_exchange[outputs.len() + k], &knowns)))
            .collect(),
        skipped,
    }
}

struct Seen {
    co_simulation: Vec<Vec<bool>>,
    model_exchange: Vec<Vec<bool>>,
}

/// One run through the instance core in Co-Simulation, probing at (at most
/// [`MAX_POINTS`]) communication points, after the inputs of the step are set.
fn probe_run<M: Model>(
    run: &Run,
    inputs: &[u32],
    outputs: &[u32],
    states: usize,
    seen: &mut Seen,
) -> Result<(), String> {
    let variables = M::VARIABLES;
    let vr_of = |name: &str| variables.iter().position(|v| v.name == name).map(crate::description::value_reference);
    let mut cs = Instance::new(Log::silent(), &WORDS, "", Box::new(ModelBox::<M>::new()), Interface::CoSimulation);
    let set_inputs = |cs: &mut Instance, t: f64| -> Result<(), String> {
        for (name, signal) in &run.inputs {
            let vr = vr_of(name).ok_or_else(|| format!("no input {name}"))?;
            cs.set_real(&[vr], &[signal.hold_value(t, run.step)])?;
        }
        Ok(())
    };
    cs.setup_experiment(None, run.start, Some(run.stop))?;
    for &(name, value) in &run.parameters {
        let vr = vr_of(name).ok_or_else(|| format!("no parameter {name}"))?;
        match cs.kind(vr) {
            Some(Kind::Real) => cs.set_real(&[vr], &[value]),
            Some(Kind::Boolean) => cs.set_boolean(&[vr], &[value != 0.0]),
            _ => cs.set_integer(&[vr], &[value as i32]),
        }?;
    }
    cs.enter_initialization_mode()?;
    set_inputs(&mut cs, run.start)?;
    cs.exit_initialization_mode()?;
    let n = ((run.stop - run.start) / run.step).round() as usize;
    let stride = n.div_ceil(MAX_POINTS).max(1);
    for k in 0..=n {
        let t = run.start + k as f64 * run.step;
        set_inputs(&mut cs, t)?;
        if k % stride == 0 || k == n {
            probe_co_simulation(&mut cs, inputs, outputs, &mut seen.co_simulation);
            if M::HYBRID.is_some() {
                let view = cs.hybrid_view()?;
                probe_model_exchange(view.as_ref(), inputs, outputs, states, &mut seen.model_exchange);
            }
        }
        if k < n {
            cs.do_step(t, run.step).map_err(|e| format!("the step from {t} s: {e}"))?;
        }
    }
    Ok(())
}

/// Each input set alone on the instance, every output read.
fn probe_co_simulation(cs: &mut Instance, inputs: &[u32], outputs: &[u32], seen: &mut [Vec<bool>]) {
    // As an importer reads them: through the instance.
    let read = |cs: &mut Instance| -> Vec<u64> {
        outputs
            .iter()
            .map(|&vr| {
                let (mut r, mut i, mut b) = ([0.0], [0], [false]);
                match cs.kind(vr) {
                    Some(Kind::Real) => cs.get_real(&[vr], &mut r).map(|_| r[0].to_bits()),
                    Some(Kind::Boolean) => cs.get_boolean(&[vr], &mut b).map(|_| b[0] as u64),
                    _ => cs.get_integer(&[vr], &mut i).map(|_| i[0] as u64),
                }
                .expect("an output reads")
            })
            .collect()
    };
    let base = read(cs);
    for (i, &u) in inputs.iter().enumerate() {
        let mut x = [0.0];
        cs.get_real(&[u], &mut x).expect("an input reads");
        for value in perturbations(x[0]) {
            let saved = cs.get_state(std::ptr::null_mut()).expect("a state saves");
            if cs.set_real(&[u], &[value]).is_ok() {
                let now = read(cs);
                mark(seen, i, &base, &now);
            }
            cs.set_state(saved).expect("the saved state restores");
            cs.free_state(saved).expect("the saved state frees");
        }
    }
}

/// Each input and each state set alone on the settled hybrid form, the
/// form evaluated, outputs and derivatives read.
fn probe_model_exchange(view: &dyn Erased, inputs: &[u32], outputs: &[u32], states: usize, seen: &mut [Vec<bool>]) {
    let base = unknowns_of(view, outputs, states);
    for (i, &u) in inputs.iter().enumerate() {
        let mut x = [0.0];
        view.get_real(&[u], &mut x).expect("an input reads");
        for value in perturbations(x[0]) {
            let mut v = view.boxed_clone();
            if v.set_real(&[u], &[value], true).is_ok() {
                v.evaluate();
                mark(seen, i, &base, &unknowns_of(v.as_ref(), outputs, states));
            }
        }
    }
    let mut x = vec![0.0; states];
    view.continuous_states(&mut x).expect("the states read");
    for k in 0..states {
        for value in perturbations(x[k]) {
            let mut moved = x.clone();
            moved[k] = value;
            let mut v = view.boxed_clone();
            v.set_continuous_states(&moved).expect("finite states");
            v.evaluate();
            mark(seen, inputs.len() + k, &base, &unknowns_of(v.as_ref(), outputs, states));
        }
    }
}

/// `measured.rs` for `all` the models' measurements.
pub fn rust_source(all: &[Measured]) -> String {
    let list = |names: &[&str]| format!("&[{}]", names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", "));
    let mut out = String::from(
        "//! Generated by `cargo xtask docs` from the models (`super::measure`): do not edit\n\
         //! by hand; a test checks it is current.\n\n\
         use super::table::Table;\n\n\
         #[rustfmt::skip]\n\
         pub const MEASURED: &[Table] = &[\n",
    );
    for m in all {
        out.push_str(&format!("    Table {{\n        model: {:?},\n        outputs: &[\n", m.model));
        for (name, co_simulation, model_exchange) in &m.outputs {
            out.push_str(&format!("            ({name:?}, {}, {}),\n", list(co_simulation), list(model_exchange)));
        }
        out.push_str("        ],\n        derivatives: &[\n");
        for (state, knowns) in &m.derivatives {
            out.push_str(&format!("            ({state:?}, {}),\n", list(knowns)));
        }
        out.push_str("        ],\n    },\n");
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    /// A state that is an output depends on itself in Model Exchange; an
    /// element's output follows its input at once (its feedthrough). (That
    /// `measured.rs` is current is a registry test: it walks the models.)
    #[test]
    fn the_probe_sees_what_the_equations_say() {
        let hill = super::of("HillFrictionInertia");
        assert_eq!(hill.output("w"), ["w"]);
        assert_eq!(hill.derivative("phi"), ["w"]);
        let element = super::of("StribeckElement");
        assert_eq!(element.outputs, &[("tau_friction", &["w_rel"][..], &["w_rel"][..])]);
        let clutch = super::of("ClutchStickSlip");
        assert_eq!(clutch.model_exchange_only("tau_clutch"), ["tau1", "tau2", "tau_capacity"]);
    }
}
