//! Values by reference in a standard's types. A standard gets and sets
//! values through functions of its own types (FMI 2.0's Real, FMI 3.0's
//! Float64 and Int64, ...); each type carries some of the core's kinds
//! ([`ValueType`]), and a standard's [`Types`] name them and say whether the
//! event indicators and `time` are variables (FMI 3.0). Every value
//! reference of a call is checked here, in the standard's words, before
//! the core's access ([`super::access`]) checks causality and range.

#![forbid(unsafe_code)]

use super::erased::Kind;
use super::log::Status;
use super::machine::{Instance, Outcome};
use super::model_box::MAX_HYBRID;
use super::phase::Phase;
pub use super::words::{Types, ValueType, CORE_TYPES};
use crate::description::index_of;
use crate::model::Layout;

/// Whether a call reads or writes the values.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Get,
    Set,
}

impl Instance {
    /// Where the model's value references lie.
    pub fn layout(&self) -> Layout {
        let (states, indicators) = self.hybrid_sizes().unwrap_or((0, 0));
        Layout { variables: self.variable_count(), states, indicators }
    }

    /// What `vr` names in this instance's standard.
    pub fn named(&self, vr: u32) -> Result<Kind, String> {
        if let Some(kind) = self.model.kind(vr) {
            return Ok(kind);
        }
        let layout = self.layout();
        let last = if self.words.types.time_and_indicators {
            if vr == layout.time() {
                return Ok(Kind::Time);
            }
            if layout.indicator_of(vr).is_some() {
                return Ok(Kind::Indicator);
            }
            layout.time()
        } else {
            layout.indicator(0) - 1
        };
        Err(format!("value reference {vr} does not exist in this FMU (valid: 1..={last})"))
    }

    /// `vr`'s name and type in the standard's words, for a message.
    pub fn describe(&self, vr: u32) -> String {
        let kind = match self.named(vr) {
            Ok(kind) => kind,
            Err(e) => return e,
        };
        let layout = self.layout();
        let name = match kind {
            Kind::Time => {
                let type_name = (self.words.types.of_kind)(kind);
                return format!("time (value reference {vr}) is the independent variable, {type_name}");
            }
            Kind::Indicator => Layout::indicator_name(layout.indicator_of(vr).unwrap_or_default()),
            Kind::Derivative => format!("der(state {})", index_of(vr) - layout.variables + 1),
            _ => self.variable_name(vr).unwrap_or("?").to_string(),
        };
        format!("{name} (value reference {vr}) is {}", (self.words.types.of_kind)(kind))
    }

    /// Every one of `vrs` a variable of `wanted`'s kinds, with one of
    /// `n_values` for each (every variable is a scalar); one to set is not
    /// calculated by the FMU, one to read in Instantiated has a start value
    /// (only start values can be read before initialization, FMI 3.0,
    /// 2.3.2). Else refused, with the first reference that breaks a rule.
    pub fn check_type(&self, vrs: &[u32], n_values: usize, wanted: &ValueType, access: Access) -> Result<(), String> {
        self.check_counts(vrs.len(), n_values)?;
        for &vr in vrs {
            let kind = self.named(vr)?;
            if !wanted.kinds.contains(&kind) {
                return Err(format!("{}, not {}", self.describe(vr), with_article(wanted.name)));
            }
            let calculated = matches!(kind, Kind::Derivative | Kind::Indicator);
            match access {
                Access::Set if kind == Kind::Time => {
                    return Err(format!(
                        "time (value reference {vr}) rejected: the independent variable cannot be set ({})",
                        self.words.types.time_is_set_by
                    ))
                }
                Access::Set if calculated => {
                    return Err(format!("{}: calculated by the FMU, it cannot be set", self.describe(vr)))
                }
                Access::Get if (calculated || self.is_output(vr)) && self.phase == Phase::Instantiated => {
                    return Err(format!(
                        "{} rejected in state instantiated: calculated by the FMU, it has a value only from \
                         initialization mode on (only start values can be read before)",
                        self.describe(vr)
                    ))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// One value per reference: every variable is a scalar.
    pub fn check_counts(&self, n_vrs: usize, n_values: usize) -> Result<(), String> {
        if n_values == n_vrs {
            return Ok(());
        }
        let (references, values) = self.words.types.counts;
        Err(format!("{values} = {n_values} rejected: must equal {references} = {n_vrs} (every variable is a scalar)"))
    }

    /// Reals as [`Instance::get_real`] reads them, and `time` and the
    /// event indicators (evaluated once if any is asked) where they are
    /// variables; `vrs` checked by [`Instance::check_type`] first.
    pub fn get_float(&mut self, vrs: &[u32], out: &mut [f64]) -> Outcome {
        let layout = self.layout();
        if vrs.iter().all(|&vr| layout.is_core(vr)) {
            return self.get_real(vrs, out);
        }
        let mut indicators = [0.0; MAX_HYBRID];
        if vrs.iter().any(|&vr| layout.indicator_of(vr).is_some()) {
            self.get_event_indicators(&mut indicators[..layout.indicators])?;
        }
        for (&vr, slot) in vrs.iter().zip(out.iter_mut()) {
            match layout.indicator_of(vr) {
                Some(k) => *slot = indicators[k],
                None if vr == layout.time() => *slot = self.time(),
                None => {
                    self.get_real(std::slice::from_ref(&vr), std::slice::from_mut(slot))?;
                }
            }
        }
        Ok(Status::Ok)
    }

    /// A type the FMU declares no variable of (FMI 2.0's String, FMI 3.0's
    /// Float32, Binary, Clock, ...): every value reference refused, with
    /// what it is; a call without any is fine.
    pub fn none_of_type(&self, vrs: &[u32], type_name: &str) -> Outcome {
        match vrs.first() {
            Some(&vr) => {
                Err(format!("{}, not {}: no variable of this FMU is one", self.describe(vr), with_article(type_name)))
            }
            None => Ok(Status::Ok),
        }
    }
}

/// "a Float32", "an Int8".
fn with_article(type_name: &str) -> String {
    let vowel = type_name.starts_with(['A', 'E', 'I', 'O', 'U']);
    format!("{} {type_name}", if vowel { "an" } else { "a" })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{Interface, Log, ModelBox, Vocabulary};
    use crate::model::Model;
    use crate::models::HillFrictionInertia;

    /// A standard whose `time` and event indicators are variables, its
    /// Integers apart from its Enumerations (as FMI 3.0's).
    static WITH_TIME: Types = Types {
        of_kind: |kind| match kind {
            Kind::Integer => "an Int32",
            Kind::Enumeration => "an Enumeration",
            Kind::Boolean => "a Boolean",
            _ => "a Float64",
        },
        time_and_indicators: true,
        time_is_set_by: "the start time",
        counts: ("nValueReferences", "nValues"),
    };
    const FLOAT: ValueType =
        ValueType { name: "Float64", kinds: &[Kind::Real, Kind::Derivative, Kind::Time, Kind::Indicator] };
    const INT: ValueType = ValueType { name: "Int32", kinds: &[Kind::Integer] };

    fn instance(types: &'static Types) -> Instance {
        let words = Box::leak(Box::new(Vocabulary {
            co_simulation: "",
            model_exchange: "",
            after_internal_error: "",
            stop_time: "",
            types,
        }));
        let model = Box::new(ModelBox::<HillFrictionInertia>::new());
        Instance::new(Log::silent(), words, "", model, Interface::ModelExchange)
    }

    fn vr(name: &str) -> u32 {
        let k = HillFrictionInertia::VARIABLES.iter().position(|v| v.name == name).expect(name);
        crate::description::value_reference(k)
    }

    #[test]
    fn each_reference_is_checked_against_the_standards_type_in_its_words() {
        let mut comp = instance(&WITH_TIME);
        let layout = Layout::of::<HillFrictionInertia>();
        assert!(layout.states > 0 && layout.indicators > 0, "a model with a hybrid form");
        let (time, indicator, derivative) = (layout.time(), layout.indicator(0), layout.derivative(0));
        let refused = |comp: &Instance, vrs: &[u32], ty: &ValueType, access: Access| {
            comp.check_type(vrs, vrs.len(), ty, access).expect_err("refused")
        };
        assert_eq!(comp.named(time), Ok(Kind::Time));
        assert_eq!(comp.named(indicator), Ok(Kind::Indicator));
        assert_eq!(comp.named(derivative), Ok(Kind::Derivative));
        let beyond = refused(&comp, &[time + 1], &FLOAT, Access::Get);
        assert!(beyond.contains(&format!("does not exist in this FMU (valid: 1..={time})")), "{beyond}");
        // A read of any Float64 kind passes; a set of what the FMU calculates does not.
        comp.phase = Phase::InitializationMode;
        assert!(comp.check_type(&[vr("tau"), time, indicator, derivative], 4, &FLOAT, Access::Get).is_ok());
        assert!(refused(&comp, &[time], &FLOAT, Access::Set)
            .contains("independent variable cannot be set (the start time)"));
        let set_indicator = refused(&comp, &[indicator], &FLOAT, Access::Set);
        assert!(
            set_indicator.starts_with("event_indicator_1 (value reference") && set_indicator.contains("calculated")
        );
        assert!(refused(&comp, &[derivative], &FLOAT, Access::Set).contains("calculated by the FMU"));
        // Another type, in the standard's names; counts that differ.
        assert!(refused(&comp, &[vr("tau")], &INT, Access::Get).ends_with("is a Float64, not an Int32"));
        let counts = comp.check_type(&[vr("tau")], 2, &FLOAT, Access::Get).expect_err("refused");
        assert!(counts.starts_with("nValues = 2 rejected: must equal nValueReferences = 1"), "{counts}");
        // Before initialization: start values only.
        comp.phase = Phase::Instantiated;
        assert!(comp.check_type(&[vr("tau"), time], 2, &FLOAT, Access::Get).is_ok());
        for calculated in [vr("w"), indicator, derivative] {
            assert!(refused(&comp, &[calculated], &FLOAT, Access::Get).contains("only start values"));
        }
        // The values: `time` and an indicator beside a variable.
        comp.phase = Phase::InitializationMode;
        let mut out = [f64::NAN; 3];
        comp.get_float(&[time, vr("tau"), indicator], &mut out).expect("read");
        let mut indicators = [f64::NAN; crate::instance::model_box::MAX_HYBRID];
        comp.get_event_indicators(&mut indicators[..layout.indicators]).expect("indicators");
        assert_eq!(out.map(f64::to_bits), [comp.time(), 0.0, indicators[0]].map(f64::to_bits));
    }

    #[test]
    fn without_time_and_indicators_their_references_do_not_exist() {
        let comp = instance(&CORE_TYPES);
        let layout = Layout::of::<HillFrictionInertia>();
        let last = layout.derivative(layout.states - 1);
        assert_eq!(comp.named(last), Ok(Kind::Derivative));
        for vr in [layout.indicator(0), layout.time()] {
            let e = comp.named(vr).expect_err("no such reference");
            assert!(e.ends_with(&format!("(valid: 1..={last})")), "{e}");
        }
        let e = comp.none_of_type(&[vr("tau")], "String").expect_err("refused");
        assert!(
            e.starts_with("tau (value reference")
                && e.ends_with("is a Real, not a String: no variable of this FMU is one")
        );
        assert!(comp.none_of_type(&[], "String").is_ok());
        assert!(comp.check_counts(2, 2).is_ok() && comp.check_counts(2, 1).is_err());
    }
}
