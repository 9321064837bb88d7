//! `FirstOrder`: the model of the call-cost bench's C yardsticks
//! (`tests/harness/c_fmu.c` and `c_fmu_reference_kind.c`) behind our FMI
//! layer, exported as a model's binary is (`fmu::export_model!`). One state,
//! x' = (u - x) / T, explicit Euler at the internal step, a sign change of x
//! reported as a transition (the C FMUs' event indicator x); the same value
//! references (1 x, 2 u, 3 T, 4 internal_step) and start values (T = 0.5 s,
//! 1 ms), so that the bench feeds all three the same calls and they return
//! the same numbers. With the model the same, their times differ by the FMI
//! bookkeeping alone. For the bench only: not an FMU we ship, not in the
//! registry.

use fmu::description::{Experiment, ModelInfo, Quantity, Variable};
use fmu::model::Transition;

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct FirstOrder {
    x: f64,
    u: f64,
    time_constant: f64,
    internal_step: f64,
}

impl Default for FirstOrder {
    fn default() -> Self {
        FirstOrder { x: 0.0, u: 0.0, time_constant: 0.5, internal_step: 1e-3 }
    }
}

impl fmu::Model for FirstOrder {
    const INFO: ModelInfo = ModelInfo::new("FirstOrder", Experiment::new(0.0, 10.0, 1e-3));
    const VARIABLES: &'static [Variable<Self>] = &[
        Variable::output("x", "The state", Quantity::Ratio, |m: &Self| m.x).plain(),
        Variable::input("u", "The input", Quantity::Ratio, 0.0, (|m: &Self| m.u, |m: &mut Self, v| m.u = v)).plain(),
        Variable::parameter(
            "T",
            "Time constant",
            Quantity::Time,
            0.5,
            (|m: &Self| m.time_constant, |m: &mut Self, v| m.time_constant = v),
        )
        .plain(),
        Variable::internal_step(1e-3, (|m: &Self| m.internal_step, |m: &mut Self, v| m.internal_step = v)),
    ];

    fn max_substep(&self) -> f64 {
        self.internal_step
    }

    fn initialize(&mut self) {}

    fn step(&mut self, dt: f64, on_transition: &mut dyn FnMut(Transition)) {
        let before = self.x;
        self.x += dt * (self.u - self.x) / self.time_constant;
        if (before > 0.0) != (self.x > 0.0) {
            let to = i32::from(self.x > 0.0);
            on_transition(Transition { what: "sign of x", from: 1 - to, to, meaning: "", at: None });
        }
    }
}

fmu::export_model!(crate::FirstOrder, "{first-order}");

#[cfg(test)]
mod tests {
    use super::*;
    use fmu::Model;

    /// The C FMUs' Euler step, and their start values.
    #[test]
    fn the_step_is_the_c_yardsticks() {
        let mut m = FirstOrder { u: 1.0, ..FirstOrder::default() };
        let mut transitions = 0;
        m.step(1e-3, &mut |_| transitions += 1);
        assert_eq!(m.x, 1e-3 * (1.0 - 0.0) / 0.5);
        assert_eq!(transitions, 1, "x left 0 for a positive value");
        assert_eq!((FirstOrder::VARIABLES.len(), FirstOrder::VARIABLES[2].name), (4, "T"));
    }
}
