//! `cargo xtask fmu` also writes SSP 1.0 systems (System Structure and
//! Parameterization): our friction FMUs wired to a plant FMU as a user wires
//! them to a Modelica plant, for FMPy's `fmpy.ssp` and OMSimulator. Each
//! system is data in the folder of the model it shows (`fmu::system`,
//! `ModelInfo::systems`); this file writes them.
//!
//! An `.ssp` is a zip: `SystemStructure.ssd` (components, connectors,
//! connections), the FMUs under `resources/`, and the parameter set
//! (`resources/<System>.ssv`) the system binds. Connector kinds and types
//! come from the models' declarations, so a renamed variable fails here.

use crate::util::Result;
use fmu::description::{Causality, VariableInfo};
use fmu::system::{Component, System};
use std::io::Write;
use std::path::{Path, PathBuf};
use zip::write::SimpleFileOptions;

/// Write every system as `<fmu_dir>/<System>.ssp`, from the FMUs already there.
pub fn write_systems(fmu_dir: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for system in fmu::registry::MODELS.iter().flat_map(|m| m.info.systems) {
        let path = fmu_dir.join(format!("{}.ssp", system.name));
        let ssd = system_structure(system)?;
        let ssv = parameter_set(system)?;
        let mut files = vec![
            ("SystemStructure.ssd".to_string(), ssd.into_bytes()),
            (format!("resources/{}.ssv", system.name), ssv.into_bytes()),
        ];
        for c in system.components {
            // One copy of an FMU that several components instantiate.
            let name = format!("resources/{}.fmu", c.model);
            if files.iter().any(|(n, _)| *n == name) {
                continue;
            }
            let fmu = fmu_dir.join(format!("{}.fmu", c.model));
            let bytes = std::fs::read(&fmu).map_err(|e| format!("{}: {e}", fmu.display()))?;
            files.push((name, bytes));
        }
        write_zip(&path, &files).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("built {} ({} components)", path.display(), system.components.len());
        written.push(path);
    }
    Ok(written)
}

fn variables(model: &str) -> Result<Vec<VariableInfo>> {
    fmu::registry::find(model).map(|m| (m.variables)()).ok_or_else(|| format!("no model {model}"))
}

fn variable(model: &str, name: &str) -> Result<VariableInfo> {
    variables(model)?.into_iter().find(|v| v.name == name).ok_or_else(|| format!("{model} has no variable {name}"))
}

fn component<'a>(system: &'a System, name: &str) -> Result<&'a Component> {
    system.components.iter().find(|c| c.name == name).ok_or_else(|| format!("{}: no component {name}", system.name))
}

/// `kind` and type element of a connector, from the model's declaration.
fn connector_xml(model: &str, name: &str) -> Result<String> {
    let v = variable(model, name)?;
    let kind = match v.causality {
        Causality::Input => "input",
        Causality::Output => "output",
        Causality::Parameter => return Err(format!("{model}.{name} is a parameter, not a connector")),
    };
    Ok(format!("<ssd:Connector name=\"{name}\" kind=\"{kind}\"><ssc:{}/></ssd:Connector>", v.type_name))
}

/// `SystemStructure.ssd`. Checks that every connection joins an output to an
/// input of matching type, and feeds every input once.
fn system_structure(s: &System) -> Result<String> {
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x += "<ssd:SystemStructureDescription xmlns:ssd=\"http://ssp-standard.org/SSP1/SystemStructureDescription\" \
          xmlns:ssc=\"http://ssp-standard.org/SSP1/SystemStructureCommon\" version=\"1.0\"";
    x += &format!(" name=\"{}\" generationTool=\"cargo xtask fmu\">\n", s.name);
    x += &format!("  <ssd:System name=\"{}\" description=\"{}\">\n", s.name, escape(s.description));
    x += "    <ssd:ParameterBindings>\n";
    x += &format!("      <ssd:ParameterBinding source=\"resources/{}.ssv\"/>\n", s.name);
    x += "    </ssd:ParameterBindings>\n    <ssd:Elements>\n";
    for c in s.components {
        x += &format!(
            "      <ssd:Component name=\"{}\" type=\"application/x-fmu-sharedlibrary\" source=\"resources/{}.fmu\">\n        <ssd:Connectors>\n",
            c.name, c.model
        );
        for name in c.connectors {
            x += &format!("          {}\n", connector_xml(c.model, name)?);
        }
        x += "        </ssd:Connectors>\n      </ssd:Component>\n";
    }
    x += "    </ssd:Elements>\n    <ssd:Connections>\n";
    let mut fed: Vec<(&str, &str)> = Vec::new();
    for &(start_element, start, end_element, end) in s.connections {
        let end_component = component(s, end_element)?;
        let target = variable(end_component.model, end)?;
        if target.causality != Causality::Input || !end_component.connectors.contains(&end) {
            return Err(format!("{}: {end_element}.{end} is not an input connector", s.name));
        }
        let c = component(s, start_element)?;
        let source = variable(c.model, start)?;
        if source.causality != Causality::Output || !c.connectors.contains(&start) {
            return Err(format!("{}: {start_element}.{start} is not an output connector", s.name));
        }
        let source_type = source.type_name;
        if source_type != target.type_name {
            return Err(format!("{}: {start_element}.{start} ({source_type}) -> {end_element}.{end}", s.name));
        }
        if fed.contains(&(end_element, end)) {
            return Err(format!("{}: {end_element}.{end} is fed twice", s.name));
        }
        fed.push((end_element, end));
        x += &format!(
            "      <ssd:Connection startElement=\"{start_element}\" startConnector=\"{start}\" endElement=\"{end_element}\" endConnector=\"{end}\"/>\n"
        );
    }
    // fmpy.ssp sets every declared input each step: an unconnected one would silently be 0.
    for c in s.components {
        for name in c.connectors {
            if variable(c.model, name)?.causality == Causality::Input && !fed.contains(&(c.name, *name)) {
                return Err(format!("{}: input {}.{name} is not connected", s.name, c.name));
            }
        }
    }
    x += "    </ssd:Connections>\n";
    x += &omsimulator_annotation(s);
    x += "  </ssd:System>\n";
    // OMSimulator reads its vendor annotation in the DefaultExperiment too and
    // warns "Wrong/deprecated content detected ... re-export the SSP file"
    // on every run when there is none (Model.cpp, importFromSnapshot); an
    // empty one keeps its defaults (result file, logging interval).
    x += &format!(
        "  <ssd:DefaultExperiment startTime=\"0\" stopTime=\"{}\">\n    <ssd:Annotations>\n      \
         <ssc:Annotation type=\"org.openmodelica\">\n        <oms:Annotations \
         xmlns:oms=\"https://raw.githubusercontent.com/OpenModelica/OMSimulator/master/schema/oms.xsd\"/>\n      \
         </ssc:Annotation>\n    </ssd:Annotations>\n  </ssd:DefaultExperiment>\n",
        s.stop_time
    );
    x += "</ssd:SystemStructureDescription>\n";
    Ok(x)
}

/// OMSimulator imports an SSD system only with its vendor annotation naming
/// the kind of system (without it: "[NewSystem] internal error"): a weakly
/// coupled system (Co-Simulation FMUs) stepped by its fixed-step master
/// `oms-ma` at the system's step. Other importers ignore the annotation
/// (SSP 1.0: a tool skips the annotations of a type it does not know).
fn omsimulator_annotation(s: &System) -> String {
    format!(
        "    <ssd:Annotations>\n      <ssc:Annotation type=\"org.openmodelica\">\n        <oms:Annotations \
         xmlns:oms=\"https://raw.githubusercontent.com/OpenModelica/OMSimulator/master/schema/oms.xsd\">\n          \
         <oms:SimulationInformation>\n            <oms:FixedStepMaster description=\"oms-ma\" stepSize=\"{:?}\" \
         relativeTolerance=\"1e-06\"/>\n          </oms:SimulationInformation>\n        </oms:Annotations>\n      \
         </ssc:Annotation>\n    </ssd:Annotations>\n",
        s.step_size
    )
}

/// The parameter set, names relative to the system (`Component.variable`);
/// each value checked against the variable's declared range.
fn parameter_set(s: &System) -> Result<String> {
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x += "<ssv:ParameterSet xmlns:ssv=\"http://ssp-standard.org/SSP1/SystemStructureParameterValues\" \
          xmlns:ssc=\"http://ssp-standard.org/SSP1/SystemStructureCommon\" version=\"1.0\"";
    x += &format!(" name=\"{}\">\n  <ssv:Parameters>\n", s.name);
    for &(c, name, value) in s.parameters {
        let v = variable(component(s, c)?.model, name)?;
        let below = v.min.is_some_and(|m| value < m || (v.exclusive_min && value == m));
        if v.causality != Causality::Parameter || below || v.max.is_some_and(|m| value > m) {
            return Err(format!("{}: {c}.{name} = {value} is not a parameter value in range", s.name));
        }
        let text = if v.type_name == "Real" { format!("{value:?}") } else { format!("{}", value as i64) };
        x += &format!(
            "    <ssv:Parameter name=\"{c}.{name}\"><ssv:{} value=\"{text}\"/></ssv:Parameter>\n",
            v.type_name
        );
    }
    x += "  </ssv:Parameters>\n</ssv:ParameterSet>\n";
    Ok(x)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn write_zip(path: &Path, files: &[(String, Vec<u8>)]) -> zip::result::ZipResult<()> {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path)?);
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .last_modified_time(zip::DateTime::default());
    for (name, bytes) in files {
        zip.start_file(name.as_str(), options)?;
        zip.write_all(bytes)?;
    }
    zip.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shipped system by name (each is declared in its model's folder).
    fn shipped(name: &str) -> &'static System {
        fmu::registry::MODELS.iter().flat_map(|m| m.info.systems).find(|s| s.name == name).expect(name)
    }

    #[test]
    fn every_shipped_system_writes() {
        let systems: Vec<_> = fmu::registry::MODELS.iter().flat_map(|m| m.info.systems).collect();
        assert!(systems.len() >= 3, "{systems:?}");
        for s in systems {
            system_structure(s).unwrap_or_else(|e| panic!("{}: {e}", s.name));
            parameter_set(s).unwrap_or_else(|e| panic!("{}: {e}", s.name));
        }
    }

    #[test]
    fn the_shipped_system_is_consistent() {
        let ssd = system_structure(shipped("ShaftDriveHillFriction")).unwrap();
        assert_eq!(ssd.matches("<ssd:Connection ").count(), 3);
        assert!(ssd.contains("<ssd:Connector name=\"mode\" kind=\"output\"><ssc:Integer/></ssd:Connector>"));
        let ssv = parameter_set(shipped("ShaftDriveHillFriction")).unwrap();
        assert!(ssv.contains("<ssv:Parameter name=\"Load.tau_static\"><ssv:Real value=\"1.2\"/></ssv:Parameter>"));
        let ssd = system_structure(shipped("MotorShaftLoadHillFriction")).unwrap();
        // The implicit coupling: motion both ways and the shaft's impedance.
        assert_eq!(ssd.matches("<ssd:Connection ").count(), 6);
        assert!(ssd.contains("startElement=\"Load\" startConnector=\"k_coupling\""), "{ssd}");
        assert!(!ssd.contains("startConnector=\"tau_shaft\""), "{ssd}");
        parameter_set(shipped("MotorShaftLoadHillFriction")).unwrap();
    }

    /// The bound parameter set changes nothing an importer would not get
    /// from the FMUs' start values: fmpy.ssp.simulation.simulate_ssp (FMPy 0.3.32) without parameter_set ignores the
    /// .ssv, so a value that differs from its start value would make FMPy
    /// run another system (as the former load spinning at w_start = 1 did).
    #[test]
    fn the_parameter_set_equals_the_start_values() {
        for system in [shipped("ShaftDriveHillFriction")] {
            for &(c, name, value) in system.parameters {
                let v = variable(component(system, c).unwrap().model, name).unwrap();
                assert_eq!(value, v.start, "{}: {c}.{name} = {value}, start value {}", system.name, v.start);
            }
        }
    }

    /// Wiring mistakes are refused with what is wrong, not written.
    #[test]
    fn miswired_systems_are_refused() {
        let base = *shipped("ShaftDriveHillFriction");
        let cases: &[(System, &str)] = &[
            (System { connections: &[("Load", "phi", "Drive", "tau_shaft")], ..base }, "not an input connector"),
            (System { connections: &[("Drive", "phi_load", "Load", "tau")], ..base }, "not an output connector"),
            (System { connections: &[("Load", "mode", "Drive", "phi_load")], ..base }, "(Integer)"),
            (System { connections: &base.connections[1..], ..base }, "Load.tau is not connected"),
            (
                System {
                    connections: &[("Drive", "tau_shaft", "Load", "tau"), ("Drive", "tau_shaft", "Load", "tau")],
                    ..base
                },
                "fed twice",
            ),
        ];
        for (system, words) in cases {
            let error = system_structure(system).unwrap_err();
            assert!(error.contains(words), "{error}");
        }
        let error = parameter_set(&System { parameters: &[("Load", "J", 0.0)], ..base }).unwrap_err();
        assert!(error.contains("Load.J = 0"), "{error}");
        let error = parameter_set(&System { parameters: &[("Load", "w", 1.0)], ..base }).unwrap_err();
        assert!(error.contains("not a parameter"), "{error}");
    }
}
