//! Numbers and units as messages show them: the digits that matter, and no
//! unit for a dimensionless quantity. (The model description writes every
//! number exactly, with [`crate::xml`]; a message is read by a person.)

#![forbid(unsafe_code)]

/// `x` with at most ten significant digits, trailing zeros dropped:
/// `2.0999999999999996` reads `2.1`, `3.0400000123e-4` reads
/// `0.0003040000012`. Exponent form below 1e-4 and from 1e15 on; `NaN`,
/// `inf` and `-inf` as Rust writes them.
pub fn number(x: f64) -> String {
    if !x.is_finite() || x == 0.0 {
        return if x == 0.0 { "0".into() } else { format!("{x}") };
    }
    // Rounded to ten significant digits, then written in the shortest form
    // that reads back as that rounded value.
    let rounded: f64 = format!("{x:.9e}").parse().unwrap_or(x);
    let magnitude = rounded.abs();
    if (1e-4..1e15).contains(&magnitude) {
        format!("{rounded}")
    } else {
        format!("{rounded:e}")
    }
}

/// `x` followed by its unit, the unit left out when it is dimensionless
/// (`"1"`) or empty: `2.5 N.m`, `0.8`.
pub fn with_unit(x: f64, unit: &str) -> String {
    match unit {
        "" | "1" => number(x),
        unit => format!("{} {unit}", number(x)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_the_digits_that_matter() {
        assert_eq!(number(2.0999999999999996), "2.1");
        assert_eq!(number(0.30000000000000004), "0.3");
        assert_eq!(number(1.0), "1");
        assert_eq!(number(-1.0), "-1");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(1e-6), "1e-6");
        assert_eq!(number(0.000304), "0.000304");
        assert_eq!(number(3.0400000123e-4), "0.0003040000012");
        assert_eq!(number(1e308 + 1e308), "inf");
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(123456789.123), "123456789.1");
        assert_eq!(number(5e-324), "5e-324");
        assert_eq!(number(1e16), "1e16");
    }

    #[test]
    fn a_dimensionless_value_has_no_unit() {
        assert_eq!(with_unit(2.0, "1"), "2");
        assert_eq!(with_unit(2.5, "N.m"), "2.5 N.m");
        assert_eq!(with_unit(0.1 + 0.2, "s"), "0.3 s");
    }
}
