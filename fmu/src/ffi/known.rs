//! The model a binary exports, known when its functions are compiled
//! ([`crate::export_model!`] names it): the calls an importer makes around
//! every step, the one-value read of an output and set of an input, reach
//! the model's field without a call through the instance's vtable, as a C
//! FMU reads and writes its own variables; so do Model Exchange's states
//! set as they are, and its event indicators are copied by a count known
//! when compiled. Anything else (the tests, a
//! library of every model) names [`AnyModel`] and goes through the vtable;
//! a known model's read or set of an instance that holds another (of
//! another binary, which the magic cannot tell apart) leaves the call to
//! the row's general path.
//!
//! The rows that take it are written `fn name<K>(..)` in the export tables
//! (`handle_exports!`). (Not the step: inlined into the export
//! the same way, `fmi2DoStep` + `fmi2GetReal` of ConventionalCoulombBaseline
//! took 25.1 ns per call against 18.5 through the vtable in one build, 19.5
//! against 18.7 in another, with fewer instructions.)

use crate::instance::hybrid::Hybrid;
use crate::instance::{Allowed, Erased, Instance, ModelBox};
use crate::model::Model;
use std::any::TypeId;

/// What a row needs of the model it knows.
pub trait Known: 'static {
    /// [`Instance::get_one_plain_real`].
    fn get_one_plain_real(comp: &Instance, vr: u32, allowed: Allowed) -> Option<f64>;
    /// [`Instance::set_one_plain_real`].
    fn set_one_plain_real(comp: &mut Instance, vr: u32, x: f64, allowed: Allowed) -> bool;
    /// [`Instance::set_plain_states_now`].
    fn set_plain_states(comp: &mut Instance, x: &[f64], allowed: Allowed) -> bool;
    /// [`Instance::copy_indicators_now`].
    fn copy_indicators(comp: &Instance, out: &mut [f64], allowed: Allowed) -> bool;
}

/// No model known: every call through the instance's vtable.
pub enum AnyModel {}

impl Known for AnyModel {
    #[inline(always)]
    fn get_one_plain_real(comp: &Instance, vr: u32, allowed: Allowed) -> Option<f64> {
        comp.get_one_plain_real(vr, allowed)
    }

    #[inline(always)]
    fn set_one_plain_real(comp: &mut Instance, vr: u32, x: f64, allowed: Allowed) -> bool {
        comp.set_one_plain_real(vr, x, allowed)
    }

    #[inline(always)]
    fn set_plain_states(comp: &mut Instance, x: &[f64], allowed: Allowed) -> bool {
        comp.set_plain_states_now(x, allowed)
    }

    #[inline(always)]
    fn copy_indicators(comp: &Instance, out: &mut [f64], allowed: Allowed) -> bool {
        comp.copy_indicators_now(out, allowed)
    }
}

impl<M: Model> Known for M {
    #[inline(always)]
    fn get_one_plain_real(comp: &Instance, vr: u32, allowed: Allowed) -> Option<f64> {
        if !comp.readable_now(vr, allowed) {
            return None;
        }
        // Another model: the row's general path reads it (no call here, so
        // that this path saves no register for one).
        let (model, model_type) = comp.model_and_type();
        downcast::<M>(model, model_type).and_then(|known| Erased::get_one_plain_real(known, vr))
    }

    #[inline(always)]
    fn set_one_plain_real(comp: &mut Instance, vr: u32, x: f64, allowed: Allowed) -> bool {
        comp.set_one_plain_real_by(vr, x, allowed, set_plain::<M>)
    }

    #[inline(always)]
    fn set_plain_states(comp: &mut Instance, x: &[f64], allowed: Allowed) -> bool {
        comp.set_plain_states_by(x, allowed, |model, model_type, x| {
            downcast_mut::<M>(model, model_type).is_some_and(|known| Hybrid::set_plain_states(known, x))
        })
    }

    /// The model's count of indicators is a constant here: another model's
    /// differs (or, the same, copies the same), and the copy unrolls.
    #[inline(always)]
    fn copy_indicators(comp: &Instance, out: &mut [f64], allowed: Allowed) -> bool {
        let count = M::HYBRID.as_ref().map_or(0, |h| h.indicators);
        comp.copy_indicators_of(count, out, allowed)
    }
}

/// The set of a known model's field: another model's is left to the row's
/// general path (false: nothing set).
#[inline(always)]
fn set_plain<M: Model>(model: &mut dyn Erased, model_type: TypeId, vr: u32, x: f64, initialized: bool) -> bool {
    downcast_mut::<M>(model, model_type).is_some_and(|known| Erased::set_one_plain_real(known, vr, x, initialized))
}

/// As [`downcast`], to write.
#[inline(always)]
fn downcast_mut<M: Model>(model: &mut dyn Erased, model_type: TypeId) -> Option<&mut ModelBox<M>> {
    if model_type != TypeId::of::<ModelBox<M>>() {
        return None;
    }
    // SAFETY: `model_type` is the concrete type of `model` (the instance's
    // `model_type`), a `ModelBox<M>`: the cast keeps the data pointer of the
    // `&mut` it came from and drops the vtable; nothing else refers to the
    // model meanwhile.
    Some(unsafe { &mut *(model as *mut dyn Erased).cast::<ModelBox<M>>() })
}

/// `model` as the `ModelBox<M>` it is, when `model_type` (its concrete
/// type) says so.
#[inline(always)]
fn downcast<M: Model>(model: &dyn Erased, model_type: TypeId) -> Option<&ModelBox<M>> {
    if model_type != TypeId::of::<ModelBox<M>>() {
        return None;
    }
    // SAFETY: `model_type` is the concrete type of `model`
    // (`Instance::model_and_type`), a `ModelBox<M>`: the cast keeps the data
    // pointer of the shared reference it came from and drops the vtable.
    Some(unsafe { &*(model as *const dyn Erased).cast::<ModelBox<M>>() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{Interface, Log};
    use crate::models::HillFrictionInertia;

    /// A known model's read answers in place what the read through the
    /// vtable answers, and the general read too, and its set sets in place;
    /// of an instance that holds another model, neither does anything (the
    /// general path answers).
    #[test]
    fn a_known_model_is_read_in_place_and_another_left_to_the_general_path() {
        for (id, known) in [("HillFrictionInertia", true), ("StribeckInertia", false)] {
            let entry = crate::registry::get(id);
            let model = (entry.new_instance)();
            let mut comp = Instance::new(Log::silent(), &crate::fmi2::VOCABULARY, "", model, Interface::CoSimulation);
            comp.enter_initialization_mode().unwrap();
            comp.exit_initialization_mode().unwrap();
            let allowed = crate::fmi2::allowed::GET;
            let mut read_in_place = 0;
            for v in (entry.variables)() {
                let vr = v.value_reference;
                let through_vtable = <AnyModel as Known>::get_one_plain_real(&comp, vr, allowed).map(f64::to_bits);
                let in_place = <HillFrictionInertia as Known>::get_one_plain_real(&comp, vr, allowed).map(f64::to_bits);
                assert_eq!(in_place, through_vtable.filter(|_| known), "{id}: {}", v.name);
                if let Some(bits) = through_vtable {
                    let mut out = [0.0];
                    comp.get_real(&[vr], &mut out).unwrap();
                    assert_eq!(bits, out[0].to_bits(), "{id}: {}", v.name);
                }
                read_in_place += usize::from(in_place.is_some());
            }
            assert_eq!(read_in_place > 0, known, "{id}: {read_in_place} variables read in place");
            // The input torque, stored as it is: set in place, or left to the
            // general path (nothing changed), which the vtable's set takes.
            let tau = (entry.variables)().iter().find(|v| v.name == "tau").unwrap().value_reference;
            let set = crate::fmi2::allowed::SET;
            assert_eq!(<HillFrictionInertia as Known>::set_one_plain_real(&mut comp, tau, 0.75, set), known, "{id}");
            let read = |comp: &Instance| <AnyModel as Known>::get_one_plain_real(comp, tau, allowed);
            assert_eq!(read(&comp), Some(if known { 0.75 } else { 0.0 }), "{id}: tau after the known set");
            assert!(<AnyModel as Known>::set_one_plain_real(&mut comp, tau, -0.5, set), "{id}");
            assert_eq!(read(&comp), Some(-0.5), "{id}: tau after the set through the vtable");
        }
    }

    /// Model Exchange's hot calls by a known model answer as through the
    /// vtable; of an instance that holds another model (another count of
    /// indicators, states of another model) they do nothing.
    #[test]
    fn a_known_model_sets_states_and_copies_indicators_as_the_vtable_does() {
        let allowed = (crate::fmi2::allowed::SET_STATES, crate::fmi2::allowed::GET_STATES);
        let ready = |id: &str| {
            let model = (crate::registry::get(id).new_instance)();
            let mut comp = Instance::new(Log::silent(), &crate::fmi2::VOCABULARY, "", model, Interface::ModelExchange);
            comp.enter_initialization_mode().unwrap();
            comp.exit_initialization_mode().unwrap();
            comp.new_discrete_states().unwrap();
            comp.enter_continuous_time_mode().unwrap();
            comp
        };
        for (id, known) in [("HillFrictionInertia", true), ("MajdSimaanInertia", false)] {
            let (mut by_vtable, mut in_place) = (ready(id), ready(id));
            let (states, indicators) = by_vtable.hybrid_sizes().unwrap();
            let x: Vec<f64> = (0..states).map(|i| 0.25 * (i as f64 + 1.0)).collect();
            assert!(
                <AnyModel as Known>::set_plain_states(&mut by_vtable, &x, allowed.0),
                "{id}: states stored as they are"
            );
            assert_eq!(<HillFrictionInertia as Known>::set_plain_states(&mut in_place, &x, allowed.0), known, "{id}");
            let mut read = vec![0.0; states];
            in_place.get_continuous_states(&mut read).unwrap();
            if known {
                assert_eq!(read, x, "{id}: the states set in place");
            } else {
                let mut fresh = vec![0.0; states];
                ready(id).get_continuous_states(&mut fresh).unwrap();
                assert_eq!(read, fresh, "{id}: nothing set");
            }
            // Evaluated at the same states, the indicators copied in place
            // are those through the vtable.
            let mut derivatives = vec![0.0; states];
            for comp in [&mut by_vtable, &mut in_place] {
                comp.set_continuous_states(&x).unwrap();
                comp.get_derivatives(&mut derivatives).unwrap();
            }
            let (mut through, mut copied) = (vec![0.0; indicators], vec![f64::NAN; indicators]);
            assert!(<AnyModel as Known>::copy_indicators(&by_vtable, &mut through, allowed.1), "{id}");
            let answered = <HillFrictionInertia as Known>::copy_indicators(&in_place, &mut copied, allowed.1);
            assert_eq!(answered, known, "{id}: {indicators} indicators");
            // Another model's are left to the general path even when asked
            // for as many as the known model has (2).
            let mut as_known = [0.0; 2];
            let as_many = <HillFrictionInertia as Known>::copy_indicators(&in_place, &mut as_known, allowed.1);
            assert_eq!(as_many, known, "{id}: 2 indicators asked");
            if known {
                assert_eq!(
                    through.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    copied.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
                );
            }
        }
    }
}
