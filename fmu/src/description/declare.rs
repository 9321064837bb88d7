//! The declaration macros a model file uses: one line a variable
//! ([`variables!`] and [`variable!`]), field access from a path
//! ([`field!`], [`choice_field!`]), enumerations ([`enumeration!`]).

#![forbid(unsafe_code)]

/// How a settable variable is read and written: `(get, set)`, usually from
/// [`field!`].
pub type Access<M, T> = (fn(&M) -> T, fn(&mut M, T));

/// The `(get, set)` pair of a variable stored in a field of the model, from
/// the field's path: `field!(clutch.inertia1)` reads `m.clutch.inertia1` and
/// sets it. `field!(law().viscous)` reaches a law's parameter through
/// `HasLaw` (`m.law().viscous`, set through `m.law_mut().viscous`), so that
/// one list serves both FMUs of a law. `field!(command / DEGREE)` exposes a
/// field stored in SI in another unit: it reads `m.command / DEGREE` and sets
/// `m.command = x * DEGREE`; `field!(servo.pressure * PSI)` exposes in SI a
/// field stored in another unit (psi): it reads `m.servo.pressure * PSI` and
/// sets `m.servo.pressure = x / PSI`.
macro_rules! field {
    (law() . $($path:tt)+) => {
        (|m| m.law().$($path)+, |m, x| m.law_mut().$($path)+ = x)
    };
    ($($field:ident).+ / $scale:expr) => {
        (|m| m.$($field).+ / $scale, |m, x| m.$($field).+ = x * $scale)
    };
    ($($field:ident).+ * $scale:expr) => {
        (|m| m.$($field).+ * $scale, |m, x| m.$($field).+ = x / $scale)
    };
    ($($path:tt)+) => {
        (|m| m.$($path)+, |m, x| m.$($path)+ = x)
    };
}
pub(crate) use field;

/// The Integer `(get, set)` pair of an enumerated field (a type with
/// [`Choice`], declared by [`enumeration!`]): reads its code, and sets it
/// from a code (a code outside the enumeration is refused by the range check
/// before the setter runs; the setter then leaves the field as it is).
macro_rules! choice_field {
    (law() . $($path:tt)+) => {
        (
            |m| $crate::description::Choice::code(m.law().$($path)+),
            |m, x| {
                if let Some(v) = $crate::description::Choice::from_code(x) {
                    m.law_mut().$($path)+ = v;
                }
            },
        )
    };
    ($($path:tt)+) => {
        (
            |m| $crate::description::Choice::code(m.$($path)+),
            |m, x| {
                if let Some(v) = $crate::description::Choice::from_code(x) {
                    m.$($path)+ = v;
                }
            },
        )
    };
}
pub(crate) use choice_field;

/// A model's `VARIABLES`, one line a variable (see the module doc): each
/// entry `kind(args).modifier(args)...` becomes
/// `Variable::<Self>::kind(args).modifier(args)...` (through [`variable!`]),
/// with [`Quantity`]'s variants in scope.
macro_rules! variables {
    ($($kind:ident ( $($arg:tt)* ) $(. $modifier:ident ( $($modifier_arg:tt)* ))* ),* $(,)?) => {{
        #[allow(unused_imports)]
        use $crate::description::Quantity::*;
        &[$($crate::description::variable!($kind($($arg)*)) $(.$modifier($($modifier_arg)*))*),*]
    }};
}
pub(crate) use variables;

/// One entry of [`variables!`], `kind(args)`. A variable stored in a field
/// names it instead of its name and access: `kind(name = path, args)` is
/// `kind("name", args, access)`, and `kind(path, args)` is the same with the
/// field's own name, where `access` is [`field!`]`(path)` (the getter alone
/// for an `output`, [`choice_field!`] for a `choice_parameter`), `path`
/// being `a.b.c`, `a.b.c / SCALE` (a field in SI shown in another unit) or
/// `a.b.c * SCALE` (a field in another unit shown in SI). Any other entry is
/// passed on as it is.
macro_rules! variable {
    ($kind:ident ($name:ident = $($field:ident).+ * $scale:expr, $($arg:tt)*)) => {
        $crate::description::variable!(@stored $kind, stringify!($name), [$($field).+ * $scale], $($arg)*)
    };
    ($kind:ident ($($field:ident).+ * $scale:expr, $($arg:tt)*)) => {
        $crate::description::variable!(
            @stored $kind, $crate::description::last_field!($($field).+), [$($field).+ * $scale], $($arg)*
        )
    };
    ($kind:ident ($name:ident = $($field:ident).+ $(/ $scale:expr)?, $($arg:tt)*)) => {
        $crate::description::variable!(@stored $kind, stringify!($name), [$($field).+ $(/ $scale)?], $($arg)*)
    };
    ($kind:ident ($($field:ident).+ $(/ $scale:expr)?, $($arg:tt)*)) => {
        $crate::description::variable!(
            @stored $kind, $crate::description::last_field!($($field).+), [$($field).+ $(/ $scale)?], $($arg)*
        )
    };
    // A field path without a scale: the getter copies the field (plain).
    (@stored output, $name:expr, [$($field:ident).+], $($arg:tt)*) => {
        $crate::description::Variable::<Self>::output($name, $($arg)*, |m| m.$($field).+).plain()
    };
    (@stored output, $name:expr, [$($field:ident).+ * $scale:expr], $($arg:tt)*) => {
        $crate::description::Variable::<Self>::output($name, $($arg)*, |m| m.$($field).+ * $scale)
    };
    (@stored output, $name:expr, [$($field:ident).+ $(/ $scale:expr)?], $($arg:tt)*) => {
        $crate::description::Variable::<Self>::output($name, $($arg)*, |m| m.$($field).+ $(/ $scale)?)
    };
    (@stored choice_parameter, $name:expr, [$($path:tt)+], $($arg:tt)*) => {
        $crate::description::Variable::<Self>::choice_parameter(
            $name, $($arg)*, $crate::description::choice_field!($($path)+)
        )
    };
    (@stored $kind:ident, $name:expr, [$($field:ident).+], $($arg:tt)*) => {
        $crate::description::Variable::<Self>::$kind($name, $($arg)*, $crate::description::field!($($field).+)).plain()
    };
    (@stored $kind:ident, $name:expr, [$($path:tt)+], $($arg:tt)*) => {
        $crate::description::Variable::<Self>::$kind($name, $($arg)*, $crate::description::field!($($path)+))
    };
    ($kind:ident ($($arg:tt)*)) => {
        $crate::description::Variable::<Self>::$kind($($arg)*)
    };
}
pub(crate) use variable;

/// The last field of a path, as a string: `last_field!(servo.design.gain)`
/// is `"gain"`.
macro_rules! last_field {
    ($last:ident) => {
        stringify!($last)
    };
    ($first:ident . $($rest:ident).+) => {
        $crate::description::last_field!($($rest).+)
    };
}
pub(crate) use last_field;

/// A Rust enum chosen by an enumerated parameter: its integer code in the FMU.
pub trait Choice: Sized {
    fn code(self) -> i32;
    /// `None` for a code that is no item.
    fn from_code(code: i32) -> Option<Self>;
}

/// An enumerated parameter declared once: the FMI [`Enumeration`] (a
/// `const`), and [`Choice`] for the Rust enum it chooses, from one list of
/// `Variant = code, "item_name", "item description";`. Codes are contiguous
/// and increasing (the range check is `[first, last]`; a test checks). The
/// enum is usually the physics crate's (which knows nothing of FMI); write
/// `NAME: enum Type = ...` to declare it here as well, with the codes as its
/// discriminants (so `Type::Variant as i32` is a start value) and the first
/// item as its default. The `const`'s doc comment is the Enumeration's name
/// and description; a `///` line above `NAME` adds to it.
///
/// ```text
/// enumeration! {
///     pub STRIBECK_EQUATION: ClassicalShape = "StribeckEquation", "Classical friction map" {
///         StaticBand = 2, "static_band", "Eq. (2): static band";
///         Rational = 3, "rational", "Eq. (3): rational Stribeck curve";
///     }
/// }
/// ```
macro_rules! enumeration {
    // The model owns the enum: declare it too (the first item is the default).
    (
        $(#[$doc:meta])*
        $vis:vis $name:ident : enum $rust:ident = $fmi_name:literal, $description:literal {
            $first:ident = $first_code:literal, $first_item:literal, $first_description:literal;
            $($variant:ident = $code:literal, $item:literal, $item_description:literal;)*
        }
    ) => {
        #[doc = $description]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        $vis enum $rust {
            #[doc = $first_description]
            #[default]
            $first = $first_code,
            $(#[doc = $item_description] $variant = $code,)*
        }

        $crate::description::enumeration! {
            $(#[$doc])*
            $vis $name: $rust = $fmi_name, $description {
                $first = $first_code, $first_item, $first_description;
                $($variant = $code, $item, $item_description;)*
            }
        }
    };
    (
        $(#[$doc:meta])*
        $vis:vis $name:ident : $rust:ident = $fmi_name:literal, $description:literal {
            $($variant:ident = $code:literal, $item:literal, $item_description:literal;)+
        }
    ) => {
        #[doc = concat!("FMI Enumeration `", $fmi_name, "`: ", $description, ".")]
        $(#[$doc])*
        $vis const $name: $crate::description::Enumeration = $crate::description::Enumeration {
            name: $fmi_name,
            description: $description,
            items: &[$($crate::description::Item { name: $item, value: $code, description: $item_description }),+],
        };

        impl $crate::description::Choice for $rust {
            fn code(self) -> i32 {
                match self {
                    $($rust::$variant => $code,)+
                }
            }
            fn from_code(code: i32) -> Option<Self> {
                match code {
                    $($code => Some($rust::$variant),)+
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use enumeration;
