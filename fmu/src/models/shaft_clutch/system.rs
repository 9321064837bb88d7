//! The SSP system this model ships in (see [`crate::system`]).

use crate::system::{Component, System};

/// A clutch between two shafts (issue 28): `MotorDrive` (speed loop) turns
/// the drive shaft of `ShaftClutch`, whose load shaft turns a second
/// `MotorDrive` standing for a heavy load with a weak speed loop of its own.
/// Both drives hold their shaft themselves (implicit coupling). The clutch
/// starts locked, slips once the torque it must carry passes its capacity,
/// and locks again when the load has caught up.
pub const SYSTEM: System = System {
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
