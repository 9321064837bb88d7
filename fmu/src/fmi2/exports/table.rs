//! The export table of FMI 2.0 (44 functions: 34 for Co-Simulation, 10 more for Model Exchange): the rows of
//! the binding's files, each file's in a macro of its own
//! (`fmi2_common!`, ...). A row is a C function's name, its signature, the
//! states it is allowed in and its core call ([`crate::ffi::export`]'s
//! `handle_exports!`, which writes the binding's function from it); a
//! function written out (`host fn`, `models fn`) is a row of its signature
//! and body. [`crate::export_model!`]
//! writes the `#[no_mangle]` function of every row into a model's binary,
//! forwarding to the binding's function of the same name; rows marked
//! `models` also get the models the binary offers, rows generic over `<K>`
//! the model's type (`crate::ffi::known`). No export is written outside a
//! row: `every_export_that_computes_does_it_in_the_default_float_environment`
//! fails on one.

#![forbid(unsafe_code)]

/// Calls `fmu::$callback! { $args rows }` with each group file's rows.
#[doc(hidden)]
#[macro_export]
macro_rules! fmi2_table {
    ($callback:ident { $($args:tt)* }) => {
        $crate::fmi2_common!($callback { $($args)* });
        $crate::fmi2_values!($callback { $($args)* });
        $crate::fmi2_fmu_state!($callback { $($args)* });
        $crate::fmi2_co_simulation!($callback { $($args)* });
        $crate::fmi2_model_exchange!($callback { $($args)* });
    };
}
