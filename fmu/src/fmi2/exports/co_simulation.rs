//! The Co-Simulation functions: the step, its status, and the input and
//! output derivatives.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

/// This file's rows of the FMI 2.0 export table ([`crate::fmi2_table!`]),
/// written into the binding here and into a model's binary by
/// [`crate::export_model!`].
#[doc(hidden)]
#[macro_export]
macro_rules! fmi2_co_simulation {
    ($callback:ident { $($args:tt)* }) => {
        $crate::$callback! { $($args)*
            fn fmi2SetRealInputDerivatives(
                vr: *const Fmi2ValueReference,
                nvr: usize,
                order: *const Fmi2Integer,
                value: *const Fmi2Real
            ) computes allowed::INPUT_DERIVATIVES
                => |comp, vr = slice(nvr, "vr"), order = slice(nvr, "order"), value = slice(nvr, "value")| {
                    comp.set_input_derivatives(vr, order, value)
                };
            fn fmi2GetRealOutputDerivatives(
                vr: *const Fmi2ValueReference,
                nvr: usize,
                order: *const Fmi2Integer,
                value: *mut Fmi2Real
            ) computes allowed::OUTPUT_DERIVATIVES
                => |comp, vr = slice(nvr, "vr"), order = slice(nvr, "order"), value = slice_mut(nvr, "value")| {
                    comp.get_output_derivatives(vr, order, value)
                };
            fn fmi2DoStep(
                current_communication_point: Fmi2Real,
                communication_step_size: Fmi2Real,
                _no_set_fmu_state_prior_to_current_point: Fmi2Boolean
            ) steps allowed::STEP_COMPLETE => |comp| comp.do_step(current_communication_point, communication_step_size);
            fn fmi2CancelStep() host allowed::ANY_BUT_FATAL => |_| {
                Err("no step is pending: fmi2DoStep never returns fmi2Pending (canRunAsynchronuously=\"false\")".into())
            };
            // Status queries: only the ones an importer may ask after a synchronous
            // step are answered; the rest are fmi2Discard, as the standard says.
            fn fmi2GetStatus(kind: c_int, value: *mut Status) host allowed::STATUS => |comp, value = out("value")| {
                Ok(comp.fail("fmi2GetStatus", Status::Discard, &format!("status kind {kind} is not available: no step is pending")))
            };
            fn fmi2GetRealStatus(kind: c_int, value: *mut Fmi2Real) host allowed::STATUS => |comp, value = out("value")| {
                if kind == FMI2_LAST_SUCCESSFUL_TIME {
                    *value = comp.last_successful_time();
                    return Ok(Status::Ok);
                }
                Ok(comp.fail("fmi2GetRealStatus", Status::Discard, &format!("status kind {kind} is not a Real status")))
            };
            fn fmi2GetIntegerStatus(kind: c_int, value: *mut Fmi2Integer) host allowed::STATUS => |comp, value = out("value")| {
                Ok(comp.fail("fmi2GetIntegerStatus", Status::Discard, &format!("status kind {kind} is not an Integer status")))
            };
            fn fmi2GetBooleanStatus(kind: c_int, value: *mut Fmi2Boolean) host allowed::STATUS => |comp, value = out("value")| {
                if kind == FMI2_TERMINATED {
                    *value = FMI2_FALSE; // the FMU never asks to end the simulation
                    return Ok(Status::Ok);
                }
                Ok(comp.fail("fmi2GetBooleanStatus", Status::Discard, &format!("status kind {kind} is not a Boolean status")))
            };
            fn fmi2GetStringStatus(kind: c_int, value: *mut Fmi2String) host allowed::STATUS => |comp, value = out("value")| {
                Ok(comp.fail("fmi2GetStringStatus", Status::Discard, &format!("status kind {kind} is not available: no step is pending")))
            };
        }
    };
}
crate::fmi2_co_simulation!(handle_exports { Fmi2Component => });
