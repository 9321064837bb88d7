//! One model's measured dependencies as data: what `measured.rs` holds and
//! the XML, the pages and `docs/models.md` read.

#![forbid(unsafe_code)]

/// One model's measured dependencies, by variable name, in declaration order.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    pub model: &'static str,
    /// Each output: (name, inputs it follows at once in Co-Simulation,
    /// knowns (inputs, states) it follows in Model Exchange).
    pub outputs: &'static [(&'static str, &'static [&'static str], &'static [&'static str])],
    /// Each continuous state's derivative: (state, knowns).
    pub derivatives: &'static [(&'static str, &'static [&'static str])],
}

impl Table {
    /// The knowns an output declares: what either interface measured.
    pub fn output(&self, name: &str) -> Vec<&'static str> {
        let (_, co_simulation, model_exchange) = self
            .outputs
            .iter()
            .find(|o| o.0 == name)
            .unwrap_or_else(|| panic!("{}: output {name} was not measured: run `cargo xtask docs`", self.model));
        let mut union: Vec<&'static str> = co_simulation.to_vec();
        union.extend(model_exchange.iter().filter(|k| !co_simulation.contains(k)));
        union
    }

    /// The knowns of Model Exchange alone for an output (no feedthrough in
    /// Co-Simulation, where an input acts from the next step on).
    pub fn model_exchange_only(&self, name: &str) -> Vec<&'static str> {
        let (_, co_simulation, model_exchange) = self.outputs.iter().find(|o| o.0 == name).expect("measured");
        model_exchange.iter().copied().filter(|k| !co_simulation.contains(k)).collect()
    }

    /// "Dependencies" for `docs/models.md` and the pages: each output's and
    /// derivative's knowns, those of Model Exchange alone marked.
    pub fn markdown(&self) -> String {
        let mut out = String::from(
            "\nDependencies (`<ModelStructure>`, measured on the model): what each output and derivative follows \
             at once. *(ME)*: in Model Exchange only; in Co-Simulation an input set between steps acts from the \
             next step on, and the states are the FMU's own.\n\n| unknown | depends on |\n|---|---|\n",
        );
        let row = |name: String, knowns: Vec<String>| {
            let knowns = if knowns.is_empty() { "nothing".to_string() } else { knowns.join(", ") };
            format!("| {name} | {knowns} |\n")
        };
        for (name, co_simulation, _) in self.outputs {
            let only = self.model_exchange_only(name);
            let knowns = co_simulation
                .iter()
                .map(|k| format!("`{k}`"))
                .chain(only.iter().map(|k| format!("`{k}` *(ME)*")))
                .collect();
            out.push_str(&row(format!("`{name}`"), knowns));
        }
        for (state, knowns) in self.derivatives {
            out.push_str(&row(format!("`der({state})` *(ME)*"), knowns.iter().map(|k| format!("`{k}`")).collect()));
        }
        out
    }

    pub fn derivative(&self, state: &str) -> &'static [&'static str] {
        self.derivatives
            .iter()
            .find(|d| d.0 == state)
            .map(|d| d.1)
            .unwrap_or_else(|| panic!("{}: der({state}) was not measured: run `cargo xtask docs`", self.model))
    }
}
