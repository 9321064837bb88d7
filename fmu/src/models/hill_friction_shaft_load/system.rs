//! The SSP system this model ships in (see [`crate::system`]).

use crate::system::{Component, System};

/// The same kind of plant cut at the shaft (the shaft port): `MotorDrive`
/// (motor with a stiff speed loop; torque in, motion out) winds the shaft of
/// `HillFrictionShaftLoad` (shaft + load with Hill's friction; motion in,
/// torque out) at 0.5 rad/s: the issue-20 system, whose exact sticks last
/// 0.199 s per cycle, kept exact by any fixed-step master at 20 ms. The
/// implicit coupling (issue 28): the motor holds the shaft from the port's
/// `k_coupling`, `d_coupling`, `phi`, `w`, so that the system also stays
/// stable with MotorDrive's own soft defaults (an importer without the .ssv).
pub const SYSTEM: System = System {
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
