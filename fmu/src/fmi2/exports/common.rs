//! The functions of both interfaces: version, logging, instantiation,
//! setup, initialization, termination and reset.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::ffi::*;

/// This file's rows of the FMI 2.0 export table ([`crate::fmi2_table!`]),
/// written into the binding here and into a model's binary by
/// [`crate::export_model!`].
#[doc(hidden)]
#[macro_export]
macro_rules! fmi2_common {
    ($callback:ident { $($args:tt)* }) => {
        $crate::$callback! { $($args)*
            host fn fmi2GetTypesPlatform() -> *const c_char => { c"default".as_ptr() };
            host fn fmi2GetVersion() -> *const c_char => { c"2.0".as_ptr() };
            /// `models`: the models this library may instantiate (a model's binary:
            /// its own; in process: [`crate::ffi::registry_models`]); the rest are the
            /// C arguments, which `export_model!` passes on unchanged.
            models fn fmi2Instantiate(
                instance_name: Fmi2String, fmu_type: c_int, guid: Fmi2String, _resource_location: Fmi2String,
                functions: *const CallbackFunctions, _visible: Fmi2Boolean, logging_on: Fmi2Boolean
            ) -> Fmi2Component => {
                // No callbacks or no logger: NULL, with nobody to tell.
                // SAFETY: NULL or a valid `fmi2CallbackFunctions` (FMI 2.0, 2.1.5).
                let log = || match unsafe { functions.as_ref() } {
                    Some(CallbackFunctions { logger: Some(logger), component_environment, .. }) => {
                        // The logger names the instance, even one refused for its name.
                        let name = if instance_name.is_null() {
                            CString::from(c"(null)")
                        } else {
                            // SAFETY: non-NULL, hence NUL-terminated (FMI 2.0, 2.1.5).
                            unsafe { CStr::from_ptr(instance_name) }.to_owned()
                        };
                        Some(log::to_logger(*logger, *component_environment, name, logging_on != FMI2_FALSE))
                    }
                    _ => None,
                };
                let interface = match fmu_type {
                    FMI2_CO_SIMULATION => Ok(Interface::CoSimulation),
                    FMI2_MODEL_EXCHANGE => Ok(Interface::ModelExchange),
                    _ => Err(format!(
                        "fmuType = {fmu_type} rejected: must be fmi2ModelExchange ({FMI2_MODEL_EXCHANGE}) or fmi2CoSimulation \
                         ({FMI2_CO_SIMULATION})"
                    )),
                };
                let (events, token) = (Default::default(), (guid, "fmuGUID"));
                // SAFETY: the importer passes NULL or NUL-terminated strings (FMI 2.0, 2.1.5): `instantiate`'s contract.
                unsafe { instantiate(models, "fmi2Instantiate", log, &VOCABULARY, instance_name, interface, events, token) }
            };
            host fn fmi2FreeInstance(c: Fmi2Component) => {
                // SAFETY: `c` is NULL or from fmi2Instantiate (FMI 2.0, 2.1.5).
                if unsafe { component(c) }.is_some() {
                    // SAFETY: a live component, created by Box::into_raw in `instantiate`;
                    // the importer does not use `c` after fmi2FreeInstance.
                    let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(c as *mut Instance) })));
                }
            };
            fn fmi2SetDebugLogging(logging_on: Fmi2Boolean, n_categories: usize, categories: *const Fmi2String) host allowed::ANY_BUT_FATAL
                => |comp, categories = strings(n_categories, "categories")| match comp.log.set(logging_on != FMI2_FALSE, &categories) {
                    Ok(()) => Ok(Status::Ok),
                    // Unknown names are a warning: the known ones were applied.
                    Err(unknown) => Ok(comp.fail("fmi2SetDebugLogging", Status::Warning, &unknown)),
                };
            fn fmi2SetupExperiment(
                tolerance_defined: Fmi2Boolean,
                tolerance: Fmi2Real,
                start_time: Fmi2Real,
                stop_time_defined: Fmi2Boolean,
                stop_time: Fmi2Real
            ) computes allowed::INSTANTIATED => |comp| comp.setup_experiment(
                (tolerance_defined != FMI2_FALSE).then_some(tolerance),
                start_time,
                (stop_time_defined != FMI2_FALSE).then_some(stop_time),
            );
            fn fmi2EnterInitializationMode() computes allowed::INSTANTIATED => |comp| comp.enter_initialization_mode();
            fn fmi2ExitInitializationMode() computes allowed::INITIALIZATION => |comp| comp.exit_initialization_mode();
            fn fmi2Terminate() computes allowed::TERMINATE => |comp| comp.terminate();
            fn fmi2Reset() computes allowed::RESET => |comp| comp.reset();
        }
    };
}
crate::fmi2_common!(handle_exports { Fmi2Component => });
