//! A model behind the instance: its value, started from its declared start
//! values. The traits of [`super::erased`], [`super::step`] and
//! [`super::hybrid`] are implemented on it.

#![forbid(unsafe_code)]

use crate::description::Value;
use crate::model::Model;

/// A model and its start values.
#[derive(Clone)]
pub struct ModelBox<M: Model> {
    pub model: M,
}

/// The most continuous states, and the most event indicators, of a model
/// (each model's are checked against it when it is compiled: [`ModelBox::of`]),
/// what an instance holds of its last evaluation (`super::hybrid::Evaluated`).
pub const MAX_HYBRID: usize = 16;

impl<M: Model> ModelBox<M> {
    pub fn new() -> Self {
        Self::of(start_values::<M>())
    }

    /// `model` as it is.
    pub fn of(model: M) -> Self {
        const {
            if let Some(h) = &M::HYBRID {
                let most = MAX_HYBRID;
                assert!(h.states.len() <= most && h.indicators <= most, "raise MAX_HYBRID");
            }
        }
        Self { model }
    }
}

impl<M: Model> Default for ModelBox<M> {
    fn default() -> Self {
        Self::new()
    }
}

/// `M` with every input and parameter at its declared start value, initialized.
pub fn start_values<M: Model>() -> M {
    let mut m = M::default();
    for v in M::VARIABLES {
        match v.value {
            Value::Real { start, set: Some(set), .. } => set(&mut m, start),
            Value::Integer { start, set: Some(set), .. } => set(&mut m, start),
            Value::Boolean { start, set: Some(set), .. } => set(&mut m, start),
            _ => {}
        }
    }
    m.after_start_values();
    m.initialize();
    m
}
