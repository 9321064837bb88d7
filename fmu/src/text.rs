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
    if x.abs() < f64::MIN_POSITIVE {
        // Subnormal: where the doubles lie further apart than ten digits
        // resolve, the ten-digit rounding reads back as x itself, whose
        // shortest form has ten digits or fewer; else as for a normal x.
        let shortest = format!("{x:e}");
        if shortest.split('e').next().is_some_and(|m| m.chars().filter(char::is_ascii_digit).count() <= 10) {
            return shortest;
        }
    }
    // Rounded to ten significant digits, trailing zeros dropped: the
    // shortest form of that rounded value, found in the digits themselves
    // (parsing them back would carry std's float parser, 16 KB, into every
    // binary for its messages).
    let written = format!("{x:.9e}");
    let (mantissa, exponent) = written.split_once('e').unwrap_or((&written, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let sign = if x < 0.0 { "-" } else { "" };
    let all: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let digits = all.trim_end_matches('0');
    let (lead, rest) = digits.split_at(1);
    match exponent {
        -4..=-1 => format!("{sign}0.{}{digits}", "0".repeat((-exponent - 1) as usize)),
        0..=14 => {
            let whole = exponent as usize + 1;
            if digits.len() <= whole {
                format!("{sign}{digits}{}", "0".repeat(whole - digits.len()))
            } else {
                format!("{sign}{}.{}", &digits[..whole], &digits[whole..])
            }
        }
        _ if rest.is_empty() => format!("{sign}{lead}e{exponent}"),
        _ => format!("{sign}{lead}.{rest}e{exponent}"),
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
        assert_eq!(number(-2.5e-7), "-2.5e-7");
        assert_eq!(number(99999999999.99999), "100000000000");
        assert_eq!(number(9.99999999999e-5), "0.0001");
        assert_eq!(number(1.234e20), "1.234e20");
    }

    /// The digits written equal those of the ten-digit rounding read back
    /// and written in its shortest form (the definition, through std's
    /// parser), over numbers of every magnitude, subnormals included. (The
    /// definition overflows to `inf` for the largest doubles, whose ten
    /// digits round past f64::MAX: those are written as rounded.)
    #[test]
    fn the_digits_are_the_shortest_form_of_the_rounded_value() {
        let by_parsing = |x: f64| -> String {
            let rounded: f64 = format!("{x:.9e}").parse().unwrap();
            if (1e-4..1e15).contains(&rounded.abs()) {
                format!("{rounded}")
            } else {
                format!("{rounded:e}")
            }
        };
        let mut bits = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..200_000 {
            // xorshift: any bit pattern, so every exponent and sign.
            bits ^= bits << 13;
            bits ^= bits >> 7;
            bits ^= bits << 17;
            let x = f64::from_bits(bits);
            if x.is_finite() && x != 0.0 && x.abs() < 1.797693134e308 {
                assert_eq!(number(x), by_parsing(x), "{x:e}");
                let y = (x.abs().log10() % 20.0).exp2() * x.signum();
                assert_eq!(number(y), by_parsing(y), "{y:e}");
                // Subnormals of every size, from the same bits.
                let z = f64::from_bits(bits & 0x800f_ffff_ffff_ffff);
                if z != 0.0 {
                    assert_eq!(number(z), by_parsing(z), "{z:e}");
                }
            }
        }
        assert_eq!(number(f64::MAX), "1.797693135e308");
        assert_eq!(number(1.2345678901234e-310), "1.23456789e-310");
    }

    #[test]
    fn a_dimensionless_value_has_no_unit() {
        assert_eq!(with_unit(2.0, "1"), "2");
        assert_eq!(with_unit(2.5, "N.m"), "2.5 N.m");
        assert_eq!(with_unit(0.1 + 0.2, "s"), "0.3 s");
    }
}
