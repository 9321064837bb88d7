//! `cargo xtask fmu` also writes SSP 1.0 systems (System Structure and
//! Parameterization): our friction FMUs wired to a plant FMU as a user wires
//! them to a Modelica plant, for FMPy's `fmpy.ssp` and OMSimulator.
//!
//! An `.ssp` is a zip: `SystemStructure.ssd` (components, connectors,
//! connections), the FMUs under `resources/`, and the parameter set
//! (`resources/<System>.ssv`) the system binds. Connector kinds and types
//! come from the models' declarations, so a renamed variable fails here.

use crate::util::Result;
use fmu::description::{Causality, VariableInfo};
use std::io::Write;
use std::path::{Path, PathBuf};
use zip::write::SimpleFileOptions;

/// One FMU in a system.
struct Component {
    /// Name in the system (the prefix of its parameters and connectors).
    name: &'static str,
    /// The model identifier: `resources/<model>.fmu`.
    model: &'static str,
    /// The variables exposed as connectors (inputs are set by the master,
    /// outputs read and recorded).
    connectors: &'static [&'static str],
}

/// A system of components with its wiring and parameters. It has no
/// system inputs: importers set an unfed system input to 0 (fmpy.ssp
/// starts every connector at 0), so a shipped system's commands are its
/// components' start values and it runs the same everywhere.
struct System {
    name: &'static str,
    description: &'static str,
    components: &'static [Component],
    /// `(start element, start connector, end element, end connector)`.
    connections: &'static [(&'static str, &'static str, &'static str, &'static str)],
    /// `(component, parameter, value)`: the bound parameter set.
    parameters: &'static [(&'static str, &'static str, f64)],
    stop_time: f64,
    /// Communication step of the system's default experiment (s).
    step_size: f64,
}

/// The motor and compliant shaft of `CompliantDrive` turning a load with
/// Hill's friction, cut at the torque: a motor torque below both friction
/// levels breaks the load away through the shaft's overshoot, and the load
/// sticks again for good. No system input: the motor command keeps its
/// start value, so that every importer runs the physics as shipped.
const SHAFT_DRIVE_HILL_FRICTION: System = System {
    name: "ShaftDriveHillFriction",
    description: "CompliantDrive (motor, compliant shaft) turning a HillFrictionInertia load: shaft torque to the \
                  load's tau, the load's phi and w back to the shaft; the motor torque command tau_motor keeps its \
                  start value 0.9 N.m (no system input, so that any importer runs it as shipped). The shaft winds \
                  up and overshoots to 1.47 N.m: the load breaks away at 0.06 s although 0.9 N.m is below both \
                  the static (1.2 N.m) and the Coulomb (1.0 N.m) levels, slides 2.3 mrad at up to 0.026 rad/s and \
                  sticks again for good at 0.22 s, w exactly 0. The parameter set equals the start values, so an \
                  importer that does not apply the .ssv (fmpy.ssp.simulation.simulate_ssp of FMPy 0.3.32 without parameter_set) runs the same system. A torque \
                  cut: the load takes the shaft torque of the step's start, held, so its sticks come late and its \
                  sliding gains energy as h*sqrt(k_shaft/J) grows (here 1 ms*sqrt(10/1) = 0.003); for larger steps \
                  or a light load cut at the shaft instead (HillFrictionShaftLoad, MotorShaftLoadHillFriction.ssp)",
    components: &[
        Component {
            name: "Drive",
            model: "CompliantDrive",
            connectors: &["phi_load", "w_load", "tau_shaft", "phi_motor", "w_motor"],
        },
        Component {
            name: "Load",
            model: "HillFrictionInertia",
            connectors: &["tau", "phi", "w", "tau_friction", "mode"],
        },
    ],
    connections: &[
        ("Drive", "tau_shaft", "Load", "tau"),
        ("Load", "phi", "Drive", "phi_load"),
        ("Load", "w", "Drive", "w_load"),
    ],
    parameters: &[
        ("Drive", "J_motor", 0.01),
        ("Drive", "k_shaft", 10.0),
        ("Drive", "d_shaft", 0.1),
        ("Drive", "speed_gain", 0.0),
        ("Load", "J", 1.0),
        ("Load", "w_start", 0.0),
        ("Load", "tau_coulomb", 1.0),
        ("Load", "tau_static", 1.2),
    ],
    stop_time: 1.0,
    step_size: 1e-3,
};

/// The same kind of plant cut at the shaft (the shaft port): `MotorDrive`
/// (motor with a stiff speed loop; torque in, motion out) winds the shaft of
/// `HillFrictionShaftLoad` (shaft + load with Hill's friction; motion in,
/// torque out) at 0.5 rad/s: the issue-20 system, whose exact sticks last
/// 0.199 s per cycle, kept exact by any fixed-step master at 20 ms. The
/// implicit coupling (issue 28): the motor holds the shaft from the port's
/// `k_coupling`, `d_coupling`, `phi`, `w`, so that the system also stays
/// stable with MotorDrive's own soft defaults (an importer without the .ssv).
const MOTOR_SHAFT_LOAD_HILL_FRICTION: System = System {
    name: "MotorShaftLoadHillFriction",
    description:
        "MotorDrive (motor, speed loop) driving a HillFrictionShaftLoad (shaft port: compliant shaft and load \
                  with Hill's friction), implicit coupling: the motor's phi and w to the shaft's drive end, the \
                  load's phi, w and the shaft's k_coupling, d_coupling to the motor, which holds the shaft itself \
                  (stable at any step under any master, whatever the motor's inertia); the motor's speed command \
                  w_command keeps its start value 0.5 rad/s (no system input, so that any importer runs it as \
                  shipped). With the parameter set (stiff speed loop): stick-slip, sticks of 0.199 s. An importer \
                  that does not apply the .ssv (fmpy.ssp.simulation.simulate_ssp of FMPy 0.3.32 without parameter_set) runs MotorDrive's defaults (speed_gain \
                  0.1: 0.05 N.m at most, below F_s): the load stays stuck, the motor settles at 5 mrad",
    components: &[
        Component {
            name: "Motor",
            model: "MotorDrive",
            connectors: &["phi_load", "w_load", "k_coupling", "d_coupling", "phi", "w"],
        },
        Component {
            name: "Load",
            model: "HillFrictionShaftLoad",
            connectors: &[
                "phi_drive",
                "w_drive",
                "tau_shaft",
                "phi",
                "w",
                "tau_friction",
                "mode",
                "k_coupling",
                "d_coupling",
            ],
        },
    ],
    connections: &[
        ("Motor", "phi", "Load", "phi_drive"),
        ("Motor", "w", "Load", "w_drive"),
        ("Load", "phi", "Motor", "phi_load"),
        ("Load", "w", "Motor", "w_load"),
        ("Load", "k_coupling", "Motor", "k_coupling"),
        ("Load", "d_coupling", "Motor", "d_coupling"),
    ],
    parameters: &[
        ("Motor", "J_motor", 0.01),
        ("Motor", "speed_gain", 1e4),
        ("Load", "k_shaft", 10.0),
        ("Load", "d_shaft", 0.0),
        ("Load", "J", 1.0),
        ("Load", "w_start", 0.0),
        ("Load", "tau_coulomb", 1.0),
        ("Load", "tau_static", 1.5),
    ],
    stop_time: 4.0,
    step_size: 0.02,
};

/// A clutch between two shafts (issue 28): `MotorDrive` (speed loop) turns
/// the drive shaft of `ShaftClutch`, whose load shaft turns a second
/// `MotorDrive` standing for a heavy load with a weak speed loop of its own.
/// Both drives hold their shaft themselves (implicit coupling). The clutch
/// starts locked, slips once the torque it must carry passes its capacity,
/// and locks again when the load has caught up.
const MOTOR_CLUTCH_LOAD: System = System {
    name: "MotorClutchLoad",
    description: "MotorDrive (motor, stiff speed loop) -> ShaftClutch (drive shaft, two plates and a 1 N.m \
                  friction clutch, load shaft) -> MotorDrive as the load (J 1 kg.m2 with a weak speed loop of its \
                  own), both towards w_command = 0.5 rad/s, implicit coupling on both sides (each drive holds its \
                  shaft from the clutch's plate motion and k_coupling_*). With the parameter set: locked from rest, \
                  slipping from 0.552 s (the torque the clutch must carry passes 1 N.m) to 0.933 s (the plates \
                  meet again), then locked to the end, the drive line swinging on its shafts. An \
                  importer that does not apply the .ssv (fmpy.ssp.simulation.simulate_ssp of FMPy 0.3.32 without parameter_set) runs the FMUs' defaults (a \
                  weak motor loop): the clutch stays locked",
    components: &[
        Component {
            name: "Motor",
            model: "MotorDrive",
            connectors: &["phi_load", "w_load", "k_coupling", "d_coupling", "phi", "w"],
        },
        Component {
            name: "Clutch",
            model: "ShaftClutch",
            connectors: &[
                "phi_drive",
                "w_drive",
                "phi_load",
                "w_load",
                "phi1",
                "w1",
                "phi2",
                "w2",
                "tau_clutch",
                "locked",
                "k_coupling_drive",
                "d_coupling_drive",
                "k_coupling_load",
                "d_coupling_load",
            ],
        },
        Component {
            name: "Load",
            model: "MotorDrive",
            connectors: &["phi_load", "w_load", "k_coupling", "d_coupling", "phi", "w"],
        },
    ],
    connections: &[
        ("Motor", "phi", "Clutch", "phi_drive"),
        ("Motor", "w", "Clutch", "w_drive"),
        ("Clutch", "phi1", "Motor", "phi_load"),
        ("Clutch", "w1", "Motor", "w_load"),
        ("Clutch", "k_coupling_drive", "Motor", "k_coupling"),
        ("Clutch", "d_coupling_drive", "Motor", "d_coupling"),
        ("Load", "phi", "Clutch", "phi_load"),
        ("Load", "w", "Clutch", "w_load"),
        ("Clutch", "phi2", "Load", "phi_load"),
        ("Clutch", "w2", "Load", "w_load"),
        ("Clutch", "k_coupling_load", "Load", "k_coupling"),
        ("Clutch", "d_coupling_load", "Load", "d_coupling"),
    ],
    parameters: &[
        ("Motor", "J_motor", 0.01),
        ("Motor", "speed_gain", 10.0),
        ("Clutch", "J1", 0.25),
        ("Clutch", "J2", 0.25),
        ("Clutch", "k_drive", 10.0),
        ("Clutch", "k_load", 10.0),
        ("Load", "J_motor", 1.0),
        ("Load", "speed_gain", 0.1),
    ],
    stop_time: 3.0,
    step_size: 0.01,
};

/// Write every system as `<fmu_dir>/<System>.ssp`, from the FMUs already there.
pub fn write_systems(fmu_dir: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for system in [&SHAFT_DRIVE_HILL_FRICTION, &MOTOR_SHAFT_LOAD_HILL_FRICTION, &MOTOR_CLUTCH_LOAD] {
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

    #[test]
    fn the_shipped_system_is_consistent() {
        let ssd = system_structure(&SHAFT_DRIVE_HILL_FRICTION).unwrap();
        assert_eq!(ssd.matches("<ssd:Connection ").count(), 3);
        assert!(ssd.contains("<ssd:Connector name=\"mode\" kind=\"output\"><ssc:Integer/></ssd:Connector>"));
        let ssv = parameter_set(&SHAFT_DRIVE_HILL_FRICTION).unwrap();
        assert!(ssv.contains("<ssv:Parameter name=\"Load.tau_static\"><ssv:Real value=\"1.2\"/></ssv:Parameter>"));
        let ssd = system_structure(&MOTOR_SHAFT_LOAD_HILL_FRICTION).unwrap();
        // The implicit coupling: motion both ways and the shaft's impedance.
        assert_eq!(ssd.matches("<ssd:Connection ").count(), 6);
        assert!(ssd.contains("startElement=\"Load\" startConnector=\"k_coupling\""), "{ssd}");
        assert!(!ssd.contains("startConnector=\"tau_shaft\""), "{ssd}");
        parameter_set(&MOTOR_SHAFT_LOAD_HILL_FRICTION).unwrap();
    }

    /// The bound parameter set changes nothing an importer would not get
    /// from the FMUs' start values: fmpy.ssp.simulation.simulate_ssp (FMPy 0.3.32) without parameter_set ignores the
    /// .ssv, so a value that differs from its start value would make FMPy
    /// run another system (as the former load spinning at w_start = 1 did).
    #[test]
    fn the_parameter_set_equals_the_start_values() {
        for system in [&SHAFT_DRIVE_HILL_FRICTION] {
            for &(c, name, value) in system.parameters {
                let v = variable(component(system, c).unwrap().model, name).unwrap();
                assert_eq!(value, v.start, "{}: {c}.{name} = {value}, start value {}", system.name, v.start);
            }
        }
    }

    /// Wiring mistakes are refused with what is wrong, not written.
    #[test]
    fn miswired_systems_are_refused() {
        let base = SHAFT_DRIVE_HILL_FRICTION;
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
