//! The floating-point environment a step runs in, as the core sees it.
//!
//! Our physics is computed in IEEE 754's default environment, bit for bit,
//! whatever the host's (`crate::ffi::float_env`). A host that only flushes
//! subnormals (FTZ, DAZ) computes exactly as the default does unless a
//! subnormal is read (DAZ reads it as zero, silently) or a result would be
//! one (FTZ flushes it, and raises the underflow flag). So a step may run
//! in such a host's environment, sparing the two writes of the control
//! register that switching costs, when [`FloatHost::Flushing`] says so:
//! the core first looks for a subnormal in everything the step reads
//! ([`holds_subnormal`]; not again after a step that found none and flushed
//! nothing, until a call that can change the model, [`InHost::verified`]),
//! and after the step asks whether anything was flushed
//! ([`FloatCheck::underflowed`]); either way it puts the model back as it
//! was and takes the step again in the default environment
//! ([`FloatCheck::to_default`]).
//!
//! The models hold plain numbers and are `Serialize` (that is how an FMU
//! state is stored), so every field of every model is visited by one
//! serializer that only looks at floats: no list to keep beside the model,
//! and a field added to a model is covered with it.

#![forbid(unsafe_code)]

use serde::ser::{self, Serialize};

/// Where a call that computes runs, set by the binding when it enters.
#[derive(Clone, Copy, Debug, Default)]
pub enum FloatHost {
    /// IEEE 754's default environment (the host's, or switched to).
    #[default]
    Default,
    /// The host's, which flushes subnormals and whose underflow flag was
    /// clear when the call entered: results are the default's unless a
    /// subnormal is read or flushed, which the core checks.
    Flushing(FloatCheck),
}

/// What a step in a flushing host's environment is told.
#[derive(Clone, Copy, Debug)]
pub struct InHost {
    /// A result was flushed since the call entered ([`FloatCheck`]).
    pub underflowed: fn() -> bool,
    /// The model and the clock were found to hold no subnormal after the
    /// last step, and nothing but a subnormal-free one-value set came in
    /// since: the look at every field is not needed. (A step that flushes
    /// nothing writes no subnormal: its results would have been flushed,
    /// and its copies are of values that hold none.)
    pub verified: bool,
}

/// After a call that could not stay in a flushing host's environment (it
/// read or flushed a subnormal), the next ones switch at once for a while,
/// 1, 2, 4 ... up to 64 calls, so that a model that keeps meeting
/// subnormals (a state decaying towards zero, an `exp` that underflows)
/// pays the try seldom: the work done in vain, and the switch after it,
/// which waits for that work.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tries {
    wait: u8,
    misses: u8,
}

impl Tries {
    /// Whether to try the host's environment in this call.
    #[inline(always)]
    pub fn now(&mut self) -> bool {
        if self.wait == 0 {
            return true;
        }
        self.wait -= 1;
        false
    }

    /// The try stayed in the host's environment.
    #[inline(always)]
    pub fn stayed(&mut self) {
        self.misses = 0;
    }

    /// The try had to switch.
    #[cold]
    pub fn switched(&mut self) {
        self.misses = if self.misses == 0 { 1 } else { (self.misses * 2).min(64) };
        self.wait = self.misses;
    }
}

/// What the binding gives the core to check a step run in a flushing host.
#[derive(Clone, Copy, Debug)]
pub struct FloatCheck {
    /// A result was flushed since the call entered.
    pub underflowed: fn() -> bool,
    /// Switch to IEEE 754's default environment for the rest of the call
    /// (the binding gives the host its own back when the call returns).
    pub to_default: fn(),
}

/// True when `value` holds a subnormal `f64` or `f32` in any field.
#[inline]
pub fn holds_subnormal<T: Serialize + ?Sized>(value: &T) -> bool {
    let mut found = false;
    let _ = value.serialize(Scan(&mut found));
    found
}

/// `x` is subnormal (not zero, below the smallest normal magnitude). Read
/// from the bits: a comparison of floats would itself read a subnormal
/// as zero in a host that sets DAZ, where this is asked.
#[inline(always)]
pub fn subnormal(x: f64) -> bool {
    (x.to_bits() & !(1 << 63)).wrapping_sub(1) < f64::MIN_POSITIVE.to_bits() - 1
}

#[inline(always)]
fn subnormal_f32(x: f32) -> bool {
    (x.to_bits() & !(1 << 31)).wrapping_sub(1) < f32::MIN_POSITIVE.to_bits() - 1
}

/// The serializer: every float or'ed into the flag, without a branch per
/// field (the models are walked on every step in a flushing host).
struct Scan<'a>(&'a mut bool);

#[derive(Debug)]
struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("never raised")
    }
}

impl std::error::Error for Never {}

impl ser::Error for Never {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Never
    }
}

type Done = Result<(), Never>;

/// Methods of values that hold no float: nothing to look at.
macro_rules! nothing {
    ($($method:ident($($t:ty),*);)*) => {$(
        #[inline(always)]
        fn $method(self $(, _: $t)*) -> Done {
            Ok(())
        }
    )*};
}

impl<'a> ser::Serializer for Scan<'a> {
    type Ok = ();
    type Error = Never;
    type SerializeSeq = Scan<'a>;
    type SerializeTuple = Scan<'a>;
    type SerializeTupleStruct = Scan<'a>;
    type SerializeTupleVariant = Scan<'a>;
    type SerializeMap = Scan<'a>;
    type SerializeStruct = Scan<'a>;
    type SerializeStructVariant = Scan<'a>;

    #[inline(always)]
    fn serialize_f64(self, x: f64) -> Done {
        *self.0 |= subnormal(x);
        Ok(())
    }
    #[inline(always)]
    fn serialize_f32(self, x: f32) -> Done {
        *self.0 |= subnormal_f32(x);
        Ok(())
    }
    nothing! {
        serialize_bool(bool); serialize_i8(i8); serialize_i16(i16); serialize_i32(i32); serialize_i64(i64);
        serialize_u8(u8); serialize_u16(u16); serialize_u32(u32); serialize_u64(u64); serialize_char(char);
        serialize_str(&str); serialize_bytes(&[u8]); serialize_none(); serialize_unit();
        serialize_unit_struct(&'static str); serialize_unit_variant(&'static str, u32, &'static str);
    }
    #[inline(always)]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Done {
        value.serialize(self)
    }
    #[inline(always)]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Done {
        value.serialize(self)
    }
    #[inline(always)]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        value: &T,
    ) -> Done {
        value.serialize(self)
    }
    #[inline(always)]
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, Never> {
        Ok(self)
    }
    #[inline(always)]
    fn serialize_tuple(self, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    #[inline(always)]
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    #[inline(always)]
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    #[inline(always)]
    fn serialize_map(self, _: Option<usize>) -> Result<Self, Never> {
        Ok(self)
    }
    #[inline(always)]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
    #[inline(always)]
    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self, Never> {
        Ok(self)
    }
}

/// The compound values: each element or field scanned in turn.
macro_rules! compound {
    ($($trait:ident :: $method:ident($($key:ty),*);)*) => {$(
        impl ser::$trait for Scan<'_> {
            type Ok = ();
            type Error = Never;
            #[inline(always)]
            fn $method<T: Serialize + ?Sized>(&mut self $(, _: $key)*, value: &T) -> Done {
                value.serialize(Scan(&mut *self.0))
            }
            #[inline(always)]
            fn end(self) -> Done {
                Ok(())
            }
        }
    )*};
}

compound! {
    SerializeSeq::serialize_element();
    SerializeTuple::serialize_element();
    SerializeTupleStruct::serialize_field();
    SerializeTupleVariant::serialize_field();
    SerializeStruct::serialize_field(&'static str);
    SerializeStructVariant::serialize_field(&'static str);
}

impl ser::SerializeMap for Scan<'_> {
    type Ok = ();
    type Error = Never;
    #[inline(always)]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Done {
        key.serialize(Scan(&mut *self.0))
    }
    #[inline(always)]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Done {
        value.serialize(Scan(&mut *self.0))
    }
    #[inline(always)]
    fn end(self) -> Done {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    #[derive(Serialize, Default)]
    struct Inner {
        x: f64,
        list: Vec<f64>,
        pair: (u64, f64),
    }

    #[derive(Serialize, Default)]
    enum Mode {
        #[default]
        Idle,
        Holding(f64),
    }

    #[derive(Serialize, Default)]
    struct Outer {
        flag: bool,
        count: u64,
        inner: Inner,
        mode: Mode,
        maybe: Option<f64>,
        small: f32,
    }

    #[test]
    fn a_subnormal_is_found_in_any_field_and_nothing_else_counts() {
        let tiny = f64::MIN_POSITIVE / 4.0;
        assert!(subnormal(tiny) && subnormal(-tiny) && subnormal(f64::from_bits(1)));
        for normal in [0.0, -0.0, f64::MIN_POSITIVE, -f64::MIN_POSITIVE, 1.0, f64::INFINITY, f64::NAN, f64::MAX] {
            assert!(!subnormal(normal), "{normal:e}");
        }
        // Integers whose bits would read as subnormal doubles are integers.
        let clean = Outer { count: 5, inner: Inner { pair: (1, 1.0), ..Inner::default() }, ..Outer::default() };
        assert!(!holds_subnormal(&clean));
        let cases: [fn(&mut Outer, f64); 7] = [
            |o, x| o.inner.x = x,
            |o, x| o.inner.list = vec![1.0, x],
            |o, x| o.inner.pair.1 = x,
            |o, x| o.mode = Mode::Holding(x),
            |o, x| o.maybe = Some(x),
            |o, _| o.small = f32::MIN_POSITIVE / 2.0,
            |o, x| o.inner.list = vec![f64::NAN, -x],
        ];
        for (k, set) in cases.iter().enumerate() {
            let mut o = Outer::default();
            set(&mut o, tiny);
            assert!(holds_subnormal(&o), "case {k}");
        }
    }
}
