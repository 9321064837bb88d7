//! How the C functions are written. A standard's table (`fmi2/exports/table.rs`,
//! `fmi3/exports/table.rs`) is its export files' rows, each file's in a
//! macro of its own: [`handle_exports!`](crate::handle_exports) writes the
//! binding's function from each row in its file, and
//! [`export_model!`](crate::export_model) writes into a model's binary one
//! `#[no_mangle]` function per row that hands its arguments to the
//! binding's function of the same name. The call
//! environment, the panic guard and the checks are the binding's; the
//! forwarding function is inlined away. What the binary holds is then its
//! model's code only: the instantiate rows pass the one [`Exported`](crate::ffi::Exported)
//! model, and nothing in the call path reaches the registry.

/// The C functions of FMI 2.0 and FMI 3.0 for one model, in a `cdylib`
/// crate of their own: `fmu::export_model!(fmu::models::HillFrictionInertia, "{GUID}")`.
/// The GUID is its model description's (`cargo xtask fmu` writes these
/// lines; a test checks they are current).
#[macro_export]
macro_rules! export_model {
    ($model:ty, $guid:literal) => {
        /// The model this binary exports, and only it.
        static MODELS: [$crate::ffi::Exported; 1] = [$crate::ffi::Exported::of::<$model>($guid)];
        $crate::export_model!(@standard fmi2, fmi2_table, Fmi2Component, $model);
        $crate::export_model!(@standard fmi3, fmi3_table, Fmi3Instance, $model);
    };
    // One standard's rows as forwarding `#[no_mangle]` functions, in a
    // module named after the standard (the symbols are global whatever the module).
    (@standard $std:ident, $table:ident, $handle:ident, $model:ty) => {
        #[allow(non_snake_case, unused_imports, clippy::missing_safety_doc, clippy::too_many_arguments)]
        mod $std {
            use ::std::ffi::{c_char, c_int, c_void};
            use $crate::$std::types::*;
            $crate::$table!(forward_exports { forward($std, MODELS, $model, $handle) ; });
        }
    };
}

/// One table's rows (see [`handle_exports!`](crate::handle_exports)) as `#[no_mangle]` functions
/// of a model's binary, each handing its arguments to the binding's
/// function of the same name (`forward(..)`), or their names (`names(v)`:
/// pushed onto `v`, for the tests). `models fn`: the binding's function
/// also takes the binary's models.
#[doc(hidden)]
#[macro_export]
macro_rules! forward_exports {
    ($mode:ident $args:tt ;) => {};
    ($mode:ident $args:tt ; $(#[$meta:meta])* host fn $name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)? => $body:block; $($rest:tt)*) => {
        $crate::forward_exports!(@$mode $args plain $name ($($arg: $ty),*) $(-> $ret)?);
        $crate::forward_exports!($mode $args ; $($rest)*);
    };
    ($mode:ident $args:tt ; $(#[$meta:meta])* models fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty => $body:block; $($rest:tt)*) => {
        $crate::forward_exports!(@$mode $args models $name ($($arg: $ty),*) -> $ret);
        $crate::forward_exports!($mode $args ; $($rest)*);
    };
    ($mode:ident $args:tt ; $(#[$meta:meta])*
        fn $name:ident $(<$known:ident>)? ($($arg:ident: $t:ty),*) $([first $first:ident])? $env:ident $allowed:expr $(, when |$when:ident| $cond:expr)?
            => |$comp:pat_param $(, $p:ident = $conv:ident($($conv_arg:expr),*))*| $body:expr; $($rest:tt)*) => {
        $crate::forward_exports!(@$mode $args row [$($known)?] $name ($($arg: $t),*));
        $crate::forward_exports!($mode $args ; $($rest)*);
    };
    (@names ($names:ident) $form:ident $($row:tt)*) => {
        $crate::forward_exports!(@name $names $($row)*);
    };
    (@name $names:ident [$($known:ident)?] $name:ident $($signature:tt)*) => {
        $names.push(stringify!($name));
    };
    (@name $names:ident $name:ident $($signature:tt)*) => {
        $names.push(stringify!($name));
    };
    (@forward ($std:ident, $models:ident, $model:ty, $handle:ty) models $name:ident ($($arg:ident: $ty:ty),*) -> $ret:ty) => {
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $ret {
            // SAFETY: the importer's arguments, unchanged, to the binding's
            // function of the same name and contract (FMI's for this
            // function), which checks each of them.
            unsafe { $crate::$std::exports::$name(&super::$models, $($arg),*) }
        }
    };
    (@forward ($std:ident, $models:ident, $model:ty, $handle:ty) plain $name:ident ($($arg:ident: $ty:ty),*) $(-> $ret:ty)?) => {
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
            // SAFETY: as above: the arguments unchanged to the binding's
            // function of the same name and contract.
            unsafe { $crate::$std::exports::$name($($arg),*) }
        }
    };
    // A row: the handle first, the status returned.
    (@forward ($std:ident, $models:ident, $model:ty, $handle:ty) row [] $name:ident ($($arg:ident: $t:ty),*)) => {
        $crate::forward_exports!(@forward ($std, $models, $model, $handle) plain $name (c: $handle $(, $arg: $t)*) -> Status);
    };
    (@forward ($std:ident, $models:ident, $model:ty, $handle:ty) row [$known:ident] $name:ident ($($arg:ident: $t:ty),*)) => {
        #[no_mangle]
        pub unsafe extern "C" fn $name(c: $handle $(, $arg: $t)*) -> Status {
            // SAFETY: as above, to the binding's function that knows this
            // binary's model (`crate::ffi::known`).
            unsafe { $crate::$std::exports::$name::<$model>(c $(, $arg)*) }
        }
    };
}

/// The binding functions as rows: each the C name and its arguments but the
/// handle, then its floating-point environment. Two kinds of row are
/// written out, their signature and body as they are, after `=>`:
/// `host fn`, which does no floating-point work (the version strings,
/// freeing an instance, the instantiate functions of what is not offered),
/// and `models fn`, an instantiate function, which also takes the models
/// the library may instantiate as the name before `fn` and hands them to
/// [`instantiate`](crate::ffi::instantiate), which enters the default
/// environment first. The environments of the others:
///
/// - `computes`: the call enters IEEE 754's default floating-point
///   environment first ([`CallEnv`](crate::ffi::float_env::CallEnv));
/// - `host`: no floating-point work, the host's environment;
/// - `computes_if` (the states, then `, when |comp| condition`): the
///   default environment when the condition holds for the admitted
///   instance (read only), else the host's: for the hot calls of Model Exchange, which compute only when
///   something changed since the last evaluation, or to word a refusal.
///   With the condition false, the core call must copy values and compare
///   them only by their bits ([`crate::instance::finite`]);
/// - `checks_if` (with its condition, as `computes_if`): Model
///   Exchange's evaluation or states set by computing, in the default
///   environment or in a host's that only flushes subnormals, where the
///   core checks itself as a step does;
/// - before the word, `[first <function>]`: a fast path of [`crate::ffi::hot`]
///   tried first, in the host's environment, on a row that may compute
///   (`computes`, `computes_if`, `checks_if`): the row's environment is
///   entered only when the fast path leaves the call to it;
/// - `steps`: a step, in the default environment, or in a host's that
///   only flushes subnormals, which the step checks and takes again in the
///   default environment when a subnormal was read or flushed
///   ([`CallEnv::enter_checked`](crate::ffi::float_env::CallEnv::enter_checked),
///   [`FloatHost`](crate::instance::FloatHost)), entered once the instance
///   is admitted;
///
/// - after the name, `<K>`: the row is generic over the model its binary
///   exports ([`Known`](crate::ffi::known::Known)), which its fast path and
///   body may call as `K::..` without a call through the instance's vtable;
///   the export tables mark it `known`;
///
/// then the states it is allowed
/// in, and the core call as a closure over the instance and the row's
/// pointer arguments, each converted by the macro before the call:
///
/// - `x = slice(n, "name")`: the `n` values `x` points at, read
///   ([`slice`](crate::ffi::slice));
/// - `x = slice_mut(n, "name")`: the room for `n` values `x` points at,
///   written ([`slice_mut`](crate::ffi::slice_mut));
/// - `x = out("name")`: the one value `x` points at, written
///   ([`out`](crate::ffi::out));
/// - `x = strings(n, "name")`: the `n` C strings `x` points at, read
///   ([`strings`](crate::ffi::strings)).
///
/// Each refuses NULL (with a count above zero) in the name the standard
/// gives the argument, after the handle and state checks and before the
/// core call. The core call is safe code written outside any `unsafe`
/// block, so it can dereference no pointer: a pointer argument reaches it
/// converted or not at all. The `unsafe` blocks, their SAFETY arguments,
/// the pointer checks and the environment rule hold by construction; what
/// a row must get right is which count goes with which array, as the
/// standard's signature says.
#[doc(hidden)]
#[macro_export]
macro_rules! handle_exports {
    ($handle:ty =>) => {};
    // A row written out: its signature and body, as they are.
    ($handle:ty => $(#[$meta:meta])* host fn $name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)? => $body:block; $($rest:tt)*) => {
        $(#[$meta])*
        #[inline]
        #[allow(clippy::too_many_arguments)] // the standard's signature
        pub unsafe extern "C" fn $name($($arg: $ty),*) $(-> $ret)? $body
        $crate::handle_exports!($handle => $($rest)*);
    };
    // An instantiate row: its body also takes the models the library may instantiate.
    ($handle:ty => $(#[$meta:meta])* $models:ident fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty => $body:block; $($rest:tt)*) => {
        $(#[$meta])*
        #[inline]
        #[allow(clippy::too_many_arguments)] // the standard's signature and the models
        pub unsafe fn $name($models: &[$crate::ffi::Exported], $($arg: $ty),*) -> $ret $body
        $crate::handle_exports!($handle => $($rest)*);
    };
    ($handle:ty =>
        $(#[$meta:meta])*
        fn $name:ident $(<$known:ident>)? ($($arg:ident: $t:ty),*) $([first $first:ident])? $env:ident $allowed:expr $(, when |$when:ident| $cond:expr)?
            => |$comp:pat_param $(, $p:ident = $conv:ident($($conv_arg:expr),*))*| $body:expr;
        $($rest:tt)*
    ) => {
        $(#[$meta])*
        #[inline]
        pub unsafe extern "C" fn $name $(<$known: $crate::ffi::known::Known>)? (c: $handle $(, $arg: $t)*) -> Status {
            $crate::handle_exports!(@first [$($first)?] [$($known)?] $env c $allowed, ($($arg),*));
            $crate::handle_exports!(@rest [$($first)?] {
                $crate::handle_exports!(@env $env);
                let body = |instance: &mut Instance| -> $crate::instance::Outcome {
                    $crate::handle_exports!(@when $env instance $(|$when| $cond)?);
                    let $comp = instance;
                    $(
                        #[allow(unused_variables)] // checked, but not every row writes it
                        // SAFETY: as the standard says, the pointer is NULL or the importer's for the call with as many elements as the count the row gives it (FMI 2.0, 2.1.7; FMI 3.0, 2.2.6); the conversion refuses NULL.
                        let $p = unsafe { $crate::ffi::$conv($p, $($conv_arg),*) }?;
                    )*
                    $body
                };
                // SAFETY: `c` is checked by `with` (NULL, alignment, magic); `body` dereferences no pointer but through the row's conversions above.
                unsafe { $crate::handle_exports!(@with $env)(c, stringify!($name), $allowed, body) }
            })
        }
        $crate::handle_exports!($handle => $($rest)*);
    };
    // After a fast path, the row's general path in a function of its own, so
    // that the fast path's function saves no register it does not use.
    (@rest [] { $($rest:tt)* }) => {{ $($rest)* }};
    (@rest [$first:ident] { $($rest:tt)* }) => { $crate::ffi::export::general(move || { $($rest)* }) };
    // `[first hot_function]`: a `computes_if` row's fast path
    // ([`crate::ffi::hot`]), tried before anything else; `None` leaves the
    // call to the row.
    (@first [] [$($known:ident)?] $env:ident $c:ident $allowed:expr, ($($arg:ident),*)) => {};
    (@first [$first:ident] [$($known:ident)?] $env:ident $c:ident $allowed:expr, ($($arg:ident),*)) => {
        $crate::handle_exports!(@first_checked [$first] [$($known)?] $env $c $allowed, ($($arg),*));
    };
    (@first_checked [$first:ident] [$($known:ident)?] computes_if $($rest:tt)*) => {
        $crate::handle_exports!(@fast $first [$($known)?] $($rest)*);
    };
    (@first_checked [$first:ident] [$($known:ident)?] checks_if $($rest:tt)*) => {
        $crate::handle_exports!(@fast $first [$($known)?] $($rest)*);
    };
    (@first_checked [$first:ident] [$($known:ident)?] computes $($rest:tt)*) => {
        $crate::handle_exports!(@fast $first [$($known)?] $($rest)*);
    };
    (@first_checked [$first:ident] [$($known:ident)?] $env:ident $($rest:tt)*) => {
        compile_error!("`first` only on a row that computes: the fast path is what runs in the host's environment");
    };
    (@fast $first:ident [$($known:ident)?] $c:ident $allowed:expr, ($($arg:ident),*)) => {
        // SAFETY: the handle and the row's arguments, unchanged, as the
        // importer passed them: `hot`'s contract is the standard's (the
        // handle NULL or an instance; each array NULL or with as many
        // elements as its count), and each is checked before use.
        if let Some(status) = unsafe { $crate::ffi::hot::$first $(::<$known>)? ($c, $allowed, $($arg),*) } {
            return status;
        }
    };

    (@env computes) => {
        let _env = CallEnv::enter();
    };
    (@env host) => {};
    (@env computes_if) => {};
    (@env steps) => {};
    (@env checks_if) => {};
    // `computes_if`: the instance, checked and admitted, says whether the
    // call must compute; only then is the default environment entered,
    // before the row's conversions and core call.
    (@when computes_if $instance:ident |$when:ident| $cond:expr) => {
        let _env = {
            let $when: &Instance = &*$instance;
            $cond
        }
        .then(CallEnv::enter);
    };
    // `steps`: a step, which may run in a flushing host's own environment
    // and check itself (`CallEnv::enter_checked`, `FloatHost`).
    (@when steps $instance:ident) => {
        let (_env, host) = CallEnv::enter_checked();
        // The step takes it back to `Default` (a row refused before its
        // step leaves it: the next step then checks itself in the default
        // environment, where nothing is flushed, and gets the same results).
        if let $crate::instance::FloatHost::Flushing(_) = host {
            $instance.float = host;
        }
    };
    // `checks_if`: as `computes_if`, for a call whose computing is Model
    // Exchange's evaluation, which may run in a flushing host's own
    // environment and check itself (`CallEnv::enter_checked`, `FloatHost`).
    (@when checks_if $instance:ident |$when:ident| $cond:expr) => {
        let computes = (|$when: &Instance| $cond)(&*$instance);
        let _env = if computes { Some(CallEnv::enter_checked()) } else { None };
        // Without a computation the call runs in the host's environment,
        // with no guard to give it back: a checked state left by an earlier
        // call refused before its evaluation must not send it to the
        // default one (`FloatCheck::to_default`).
        $instance.float = match _env {
            Some((_, host)) => host,
            None => $crate::instance::FloatHost::Default,
        };
    };
    (@when checks_if $instance:ident) => {
        compile_error!("an `checks_if` row needs its condition: `checks_if <states>, when |comp| <condition>`");
    };
    (@when computes_if $instance:ident) => {
        compile_error!("a `computes_if` row needs its condition: `computes_if <states>, when |comp| <condition>`");
    };
    (@when $env:ident $instance:ident) => {};
    // A `host` row computes nothing and is never a hot path (refusals,
    // counts, status): all share one body of `with`, for size.
    (@with computes) => {
        $crate::ffi::with
    };
    (@with computes_if) => {
        $crate::ffi::with
    };
    (@with steps) => {
        $crate::ffi::with
    };
    (@with checks_if) => {
        $crate::ffi::with
    };
    (@with host) => {
        $crate::ffi::with_shared
    };
}

/// A row's general path after its fast path failed ([`handle_exports!`](crate::handle_exports)'s
/// `[first ..]`): out of line.
#[inline(never)]
pub fn general(path: impl FnOnce() -> crate::instance::Status) -> crate::instance::Status {
    path()
}
