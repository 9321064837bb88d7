//! The SSP system this model ships in (see [`crate::system`]).

use crate::system::{Component, System};

/// The motor and compliant shaft of `CompliantDrive` turning a load with
/// Hill's friction, cut at the torque: a motor torque below both friction
/// levels breaks the load away through the shaft's overshoot, and the load
/// sticks again for good. No system input: the motor command keeps its
/// start value, so that every importer runs the physics as shipped.
pub const SYSTEM: System = System {
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
