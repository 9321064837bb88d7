//! The per-model half of an instance, behind one object-safe trait so that
//! the instance is written once for every model: [`Erased`] holds what both
//! interfaces use, [`Stepper`] Co-Simulation's step, [`Hybrid`] Model
//! Exchange's. [`ModelBox`] implements them for each model, monomorphized,
//! so that the substep loop inlines the model's step.

#![forbid(unsafe_code)]

use super::access::*;
use super::finite::{first_non_finite, non_finite};
use super::hybrid::Hybrid;
use super::model_box::{start_values, ModelBox};
use super::step::Stepper;
use crate::description::{index_of, Value};
use crate::model::Model;
use std::any::Any;

/// What a value reference names: a declared variable of one of the core's
/// types (FMI 2.0's), a state's derivative (Model Exchange), or where the
/// standard makes them variables (FMI 3.0, [`super::typed`]) the independent
/// variable and an event indicator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Real,
    Integer,
    Enumeration,
    Boolean,
    Derivative,
    Time,
    Indicator,
}

/// Everything the instance asks of a model.
pub trait Erased: Send + Stepper + Hybrid {
    fn variable_name(&self, vr: u32) -> Option<&'static str>;
    /// The number of declared variables (value references 1 to n).
    fn variable_count(&self) -> usize;
    /// What `vr` is: a binding checks it against the type of its call.
    fn kind(&self, vr: u32) -> Option<Kind>;
    /// `vr` is an output (calculated, no start value).
    fn is_output(&self, vr: u32) -> bool;
    fn set_real(&mut self, vrs: &[u32], values: &[f64], initialized: bool) -> Result<(), String>;
    /// Set one Real that is stored as it is (`plain`), settable now, with no
    /// range to check, to a finite `x`: a store that computes and compares
    /// no floating-point value (finiteness is read from the bits). False,
    /// changing nothing, for anything else ([`Erased::set_real`] then).
    fn set_one_plain_real(&mut self, vr: u32, x: f64, initialized: bool) -> bool;
    fn set_integer(&mut self, vrs: &[u32], values: &[i32], initialized: bool) -> Result<(), String>;
    fn set_boolean(&mut self, vrs: &[u32], values: &[bool], initialized: bool) -> Result<(), String>;
    fn get_real(&self, vrs: &[u32], out: &mut [f64]) -> Result<(), String>;
    fn get_integer(&self, vrs: &[u32], out: &mut [i32]) -> Result<(), String>;
    fn get_boolean(&self, vrs: &[u32], out: &mut [bool]) -> Result<(), String>;
    /// The model's rules, and in Co-Simulation its internal step's
    /// ([`Model::check_internal_step`]), in Model Exchange that interface's
    /// ([`Model::check_model_exchange`]).
    fn check(&self, co_simulation: bool) -> Result<(), String>;
    fn initialize(&mut self);
    /// `GetReal` of one value when `vr` is a Real variable whose getter
    /// copies a stored field (`plain`): the call's usual form, answered
    /// without building a `Result`; None for any other (then
    /// [`Erased::get_real`] reads it, or words the refusal).
    fn get_one_plain_real(&self, vr: u32) -> Option<f64>;
    /// First Real variable whose value is not finite, as an error message.
    fn check_finite(&self) -> Result<(), String>;
    /// Every input and parameter within its declared range, and the model's
    /// own rules: for states that come from outside (deserialization).
    fn check_all(&self, co_simulation: bool) -> Result<(), String>;
    fn reset_to_start(&mut self);
    fn boxed_clone(&self) -> Box<dyn Erased>;
    /// A subnormal number in any field of the model ([`super::float_host`]).
    fn holds_subnormal(&self) -> bool;
    /// Copy `other` into `self`; false if it is another model type.
    fn assign(&mut self, other: &dyn Erased) -> bool;
    fn to_bytes(&self) -> Vec<u8>;
    fn decode(&self, bytes: &[u8]) -> Result<Box<dyn Erased>, String>;
    fn as_any(&self) -> &dyn Any;
}

impl<M: Model> Erased for ModelBox<M> {
    fn variable_name(&self, vr: u32) -> Option<&'static str> {
        M::VARIABLES.get(index_of(vr)).map(|v| v.name)
    }

    fn variable_count(&self) -> usize {
        M::VARIABLES.len()
    }

    fn is_output(&self, vr: u32) -> bool {
        M::VARIABLES.get(index_of(vr)).is_some_and(|v| v.causality == crate::description::Causality::Output)
    }

    fn kind(&self, vr: u32) -> Option<Kind> {
        let Some(v) = M::VARIABLES.get(index_of(vr)) else {
            let states = M::HYBRID.as_ref().map_or(0, |h| h.states.len());
            return (index_of(vr) < M::VARIABLES.len() + states).then_some(Kind::Derivative);
        };
        Some(match v.value {
            Value::Real { .. } => Kind::Real,
            Value::Integer { choices: Some(_), .. } => Kind::Enumeration,
            Value::Integer { .. } => Kind::Integer,
            Value::Boolean { .. } => Kind::Boolean,
        })
    }

    fn set_real(&mut self, vrs: &[u32], values: &[f64], initialized: bool) -> Result<(), String> {
        set_values!(self, vrs, values, initialized, Real, "Real", check_real::<M>)
    }

    // Inlined into a binding that knows the model (`crate::ffi::known`).
    #[inline(always)]
    fn set_one_plain_real(&mut self, vr: u32, x: f64, initialized: bool) -> bool {
        // Exponent all ones: infinite or NaN, told by the bits alone.
        const EXPONENT: u64 = 0x7FF0_0000_0000_0000;
        let finite = x.to_bits() & EXPONENT != EXPONENT;
        match M::VARIABLES.get(index_of(vr)) {
            Some(
                v @ crate::description::Variable {
                    value: Value::Real { set: Some(set), plain: true, min: None, max: None, .. },
                    ..
                },
            ) if finite && v.settable(initialized) => {
                set(&mut self.model, x);
                true
            }
            _ => false,
        }
    }

    fn set_integer(&mut self, vrs: &[u32], values: &[i32], initialized: bool) -> Result<(), String> {
        set_values!(self, vrs, values, initialized, Integer, "Integer", check_integer::<M>)
    }

    fn set_boolean(&mut self, vrs: &[u32], values: &[bool], initialized: bool) -> Result<(), String> {
        set_values!(self, vrs, values, initialized, Boolean, "Boolean", |_, _| Ok::<(), String>(()))
    }

    fn get_real(&self, vrs: &[u32], out: &mut [f64]) -> Result<(), String> {
        // One value, the commonest request: without the loop, so that
        // few registers are live across the getter (a short entry and exit).
        if let ([vr], [slot]) = (vrs, &mut *out) {
            if let Some(Value::Real { get, .. }) = M::VARIABLES.get(index_of(*vr)).map(|v| &v.value) {
                *slot = get(&self.model);
                return Ok(());
            }
        }
        get_reals(self, vrs, out)
    }

    fn get_integer(&self, vrs: &[u32], out: &mut [i32]) -> Result<(), String> {
        get_values!(self, vrs, out, Integer, "Integer")
    }

    fn get_boolean(&self, vrs: &[u32], out: &mut [bool]) -> Result<(), String> {
        get_values!(self, vrs, out, Boolean, "Boolean")
    }

    fn check(&self, co_simulation: bool) -> Result<(), String> {
        self.model.check()?;
        if co_simulation {
            self.model.check_internal_step()?;
        } else {
            self.model.check_model_exchange()?;
        }
        Ok(())
    }

    fn initialize(&mut self) {
        self.model.initialize();
    }

    #[inline(always)]
    fn get_one_plain_real(&self, vr: u32) -> Option<f64> {
        plain_real_value(&self.model, vr)
    }

    fn check_all(&self, co_simulation: bool) -> Result<(), String> {
        for v in M::VARIABLES {
            match v.value {
                Value::Real { get, set: Some(_), .. } => check_real(v, get(&self.model))?,
                Value::Integer { get, set: Some(_), .. } => check_integer(v, get(&self.model))?,
                _ => {}
            }
        }
        self.check(co_simulation)
    }

    fn check_finite(&self) -> Result<(), String> {
        match first_non_finite(&self.model) {
            Some(vr) => Err(non_finite::<M>(&self.model, vr)),
            None => Ok(()),
        }
    }

    fn reset_to_start(&mut self) {
        self.model = start_values::<M>();
    }

    fn holds_subnormal(&self) -> bool {
        super::float_host::holds_subnormal(&self.model)
    }

    fn boxed_clone(&self) -> Box<dyn Erased> {
        Box::new(self.clone())
    }

    fn assign(&mut self, other: &dyn Erased) -> bool {
        match other.as_any().downcast_ref::<Self>() {
            Some(o) => {
                self.model.clone_from(&o.model);
                true
            }
            None => false,
        }
    }

    fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(&self.model).expect("serializing plain numeric state cannot fail")
    }

    fn decode(&self, bytes: &[u8]) -> Result<Box<dyn Erased>, String> {
        let (model, rest): (M, &[u8]) =
            postcard::take_from_bytes(bytes).map_err(|e| format!("model state does not decode: {e}"))?;
        if !rest.is_empty() {
            return Err(format!("{} trailing bytes after the model state", rest.len()));
        }
        Ok(Box::new(ModelBox::of(model)))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
