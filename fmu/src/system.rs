//! An SSP system a model ships with, as data: the FMUs it wires, their
//! connections and the parameter set it binds. A model's folder declares
//! its systems (`ModelInfo::systems`); `crates/packaging` writes each as
//! `<System>.ssp` (SSP 1.0: `SystemStructure.ssd`, the FMUs, the `.ssv`),
//! checking every connector against the models' declarations.

#![forbid(unsafe_code)]

/// One FMU in a system.
#[derive(Clone, Copy, Debug)]
pub struct Component {
    /// Name in the system (the prefix of its parameters and connectors).
    pub name: &'static str,
    /// The model identifier: `resources/<model>.fmu`.
    pub model: &'static str,
    /// The variables exposed as connectors (inputs are set by the master,
    /// outputs read and recorded).
    pub connectors: &'static [&'static str],
}

/// A system of components with its wiring and parameters. It has no
/// system inputs: importers set an unfed system input to 0 (fmpy.ssp
/// starts every connector at 0), so a shipped system's commands are its
/// components' start values and it runs the same everywhere.
#[derive(Clone, Copy, Debug)]
pub struct System {
    pub name: &'static str,
    pub description: &'static str,
    pub components: &'static [Component],
    /// `(start element, start connector, end element, end connector)`.
    pub connections: &'static [(&'static str, &'static str, &'static str, &'static str)],
    /// `(component, parameter, value)`: the bound parameter set.
    pub parameters: &'static [(&'static str, &'static str, f64)],
    pub stop_time: f64,
    /// Communication step of the system's default experiment (s).
    pub step_size: f64,
}
