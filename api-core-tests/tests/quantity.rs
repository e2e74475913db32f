//! `Quantity`: apimachinery's own test tables translated row by row, the
//! places this type knowingly differs from Go, serde, the schema, and
//! properties (canonical round trips, order against exact values, exact
//! arithmetic, JSON round trips).
//!
//! Sources of the translated tables, all k8s.io/apimachinery v0.36.0
//! `pkg/api/resource/`: `quantity_test.go`, `amount_test.go`,
//! `scale_int_test.go` and `quantity_example_test.go`. Go builds expected
//! values as `decQuantity(m, e, format)` / `intQuantity(m, e, format)`
//! (m × 10^e); here that is [`dec`].

use api_core::ApiType;
use api_core::meta::QuantityFormat::{self, BinarySI, DecimalExponent, DecimalSI};
use api_core::meta::{Quantity, QuantityParseError};
use proptest::prelude::*;
use serde_json::json;

fn q(s: &str) -> Quantity {
    Quantity::parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

/// Go's `decQuantity(m, e, format)`: m × 10^e, exactly.
fn dec(m: i64, e: i32, format: QuantityFormat) -> Quantity {
    Quantity::new_scaled(m, e).with_format(format)
}

/// Go's `int64Amount{value, scale}`: value × 10^scale.
type Scaled = (i64, i32);

const FORMATS: [QuantityFormat; 3] = [DecimalSI, BinarySI, DecimalExponent];

// ------------------------------------------------------------------ parsing

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestQuantityParse
// (the valid table: 96 rows translated, 0 skipped; Go's duplicate rows
// "1e3" and "0.5e0" are kept as they are).
#[rustfmt::skip]
const PARSE: &[(&str, i64, i32, QuantityFormat)] = &[
    ("0", 0, 0, DecimalSI),
    ("0n", 0, 0, DecimalSI),
    ("0u", 0, 0, DecimalSI),
    ("0m", 0, 0, DecimalSI),
    ("0Ki", 0, 0, BinarySI),
    ("0k", 0, 0, DecimalSI),
    ("0Mi", 0, 0, BinarySI),
    ("0M", 0, 0, DecimalSI),
    ("0Gi", 0, 0, BinarySI),
    ("0G", 0, 0, DecimalSI),
    ("0Ti", 0, 0, BinarySI),
    ("0T", 0, 0, DecimalSI),
    // Quantity less numbers are allowed
    ("1", 1, 0, DecimalSI),
    // Binary suffixes
    ("1Ki", 1024, 0, BinarySI),
    ("8Ki", 8 * 1024, 0, BinarySI),
    ("7Mi", 7 * 1024 * 1024, 0, BinarySI),
    ("6Gi", 6 * 1024 * 1024 * 1024, 0, BinarySI),
    ("5Ti", 5 * 1024 * 1024 * 1024 * 1024, 0, BinarySI),
    ("4Pi", 4 * 1024 * 1024 * 1024 * 1024 * 1024, 0, BinarySI),
    ("3Ei", 3 * 1024 * 1024 * 1024 * 1024 * 1024 * 1024, 0, BinarySI),
    ("10Ti", 10 * 1024 * 1024 * 1024 * 1024, 0, BinarySI),
    ("100Ti", 100 * 1024 * 1024 * 1024 * 1024, 0, BinarySI),
    // Decimal suffixes
    ("5n", 5, -9, DecimalSI),
    ("4u", 4, -6, DecimalSI),
    ("3m", 3, -3, DecimalSI),
    ("9", 9, 0, DecimalSI),
    ("8k", 8, 3, DecimalSI),
    ("50k", 5, 4, DecimalSI),
    ("7M", 7, 6, DecimalSI),
    ("6G", 6, 9, DecimalSI),
    ("5T", 5, 12, DecimalSI),
    ("40T", 4, 13, DecimalSI),
    ("300T", 3, 14, DecimalSI),
    ("2P", 2, 15, DecimalSI),
    ("1E", 1, 18, DecimalSI),
    // Decimal exponents
    ("1E-3", 1, -3, DecimalExponent),
    ("1e3", 1, 3, DecimalExponent),
    ("1E6", 1, 6, DecimalExponent),
    ("1e9", 1, 9, DecimalExponent),
    ("1E12", 1, 12, DecimalExponent),
    ("1e15", 1, 15, DecimalExponent),
    ("1E18", 1, 18, DecimalExponent),
    // Nonstandard but still parsable
    ("1e14", 1, 14, DecimalExponent),
    ("1e13", 1, 13, DecimalExponent),
    ("1e3", 1, 3, DecimalExponent),
    ("100.035k", 100035, 0, DecimalSI),
    // Things that look like floating point
    ("0.001", 1, -3, DecimalSI),
    ("0.0005k", 5, -1, DecimalSI),
    ("0.005", 5, -3, DecimalSI),
    ("0.05", 5, -2, DecimalSI),
    ("0.5", 5, -1, DecimalSI),
    ("0.00050k", 5, -1, DecimalSI),
    ("0.00500", 5, -3, DecimalSI),
    ("0.05000", 5, -2, DecimalSI),
    ("0.50000", 5, -1, DecimalSI),
    ("0.5e0", 5, -1, DecimalExponent),
    ("0.5e-1", 5, -2, DecimalExponent),
    ("0.5e-2", 5, -3, DecimalExponent),
    ("0.5e0", 5, -1, DecimalExponent),
    ("10.035M", 10035, 3, DecimalSI),
    ("1.2e3", 12, 2, DecimalExponent),
    ("1.3E+6", 13, 5, DecimalExponent),
    ("1.40e9", 14, 8, DecimalExponent),
    ("1.53E12", 153, 10, DecimalExponent),
    ("1.6e15", 16, 14, DecimalExponent),
    ("1.7E18", 17, 17, DecimalExponent),
    ("9.01", 901, -2, DecimalSI),
    ("8.1k", 81, 2, DecimalSI),
    ("7.123456M", 7123456, 0, DecimalSI),
    ("6.987654321G", 6987654321, 0, DecimalSI),
    ("5.444T", 5444, 9, DecimalSI),
    ("40.1T", 401, 11, DecimalSI),
    ("300.2T", 3002, 11, DecimalSI),
    ("2.5P", 25, 14, DecimalSI),
    ("1.01E", 101, 16, DecimalSI),
    // Things that saturate/round
    ("3.001n", 4, -9, DecimalSI),
    ("1.1E-9", 2, -9, DecimalExponent),
    ("0.0000000001", 1, -9, DecimalSI),
    ("0.0000000005", 1, -9, DecimalSI),
    ("0.00000000050", 1, -9, DecimalSI),
    ("0.5e-9", 1, -9, DecimalExponent),
    ("0.9n", 1, -9, DecimalSI),
    ("0.00000012345", 124, -9, DecimalSI),
    ("0.00000012354", 124, -9, DecimalSI),
    ("9Ei", i64::MAX, 0, BinarySI), // Go: Quantity{d: maxAllowed, Format: BinarySI}
    ("9223372036854775807Ki", i64::MAX, 0, BinarySI), // maxAllowed
    ("12E", 12, 18, DecimalSI),
    // We'll accept fractional binary stuff, too.
    ("100.035Ki", 10243584, -2, BinarySI),
    ("0.5Mi", 524288, 0, BinarySI), // Go: .5*1024*1024
    ("0.05Gi", 536870912, -1, BinarySI),
    ("0.025Ti", 274877906944, -1, BinarySI),
    // Things written by trolls
    ("0.000000000001Ki", 2, -9, DecimalSI), // rounds up, changes format
    (".001", 1, -3, DecimalSI),
    (".0001k", 100, -3, DecimalSI),
    ("1.", 1, 0, DecimalSI),
    ("1.G", 1, 9, DecimalSI),
];

/// Go's `parseQuantityString` split, put back together as Go's test does:
/// sign, the integer digits without leading zeros (or `0`), the fraction
/// digits, the suffix.
fn recompose(input: &str) -> String {
    let (sign, rest) = match input.as_bytes().first() {
        Some(b'-') => ("-", &input[1..]),
        Some(b'+') => ("", &input[1..]),
        _ => ("", input),
    };
    let number_end = rest
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(rest.len());
    let (number, suffix) = rest.split_at(number_end);
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    let frac = if frac.is_empty() {
        String::new()
    } else {
        format!(".{frac}")
    };
    format!("{sign}{int}{frac}{suffix}")
}

#[test]
fn parse_table() {
    assert_eq!(PARSE.len(), 96);
    for &(input, m, e, format) in PARSE {
        let want = dec(m, e, format);
        let got = q(input);
        assert_eq!(got, want, "{input}: got {got}, want {want}");
        assert_eq!(got.format(), format, "{input}");

        // A quantity built from the same value in any format compares equal.
        for f in FORMATS {
            assert_eq!(got.with_format(f), got, "{input} as {f}");
        }
        // Decomposing the input and building it up again gives the same.
        let recomposed = recompose(input);
        assert_eq!(q(&recomposed), got, "{input} recomposed as {recomposed}");

        // The negative version of everything, and an explicit +.
        let neg = q(&format!("-{input}"));
        assert_eq!(neg, -want, "-{input}");
        assert_eq!(neg.format(), format, "-{input}");
        let plus = q(&format!("+{input}"));
        assert_eq!(plus, want, "+{input}");
        assert_eq!(plus.format(), format, "+{input}");
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestQuantityParse
// (the invalid table: 11 rows, plus the empty string checked before it;
// 12 translated, 0 skipped).
const INVALID: &[&str] = &[
    "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-",
    // trailing whitespace is forbidden
    " 1", "1 ",
];

#[test]
fn invalid_table() {
    assert!(Quantity::parse("").is_err(), "empty string");
    assert_eq!(INVALID.len(), 11);
    for input in INVALID {
        let err = Quantity::parse(input).expect_err(input);
        assert_eq!(err.input(), *input);
        assert!(
            err.to_string().ends_with(&format!(": {input:?}")),
            "{input}: {err}"
        );
    }
}

#[test]
fn errors_use_apimachinery_wording_and_name_the_input() {
    let message = |s: &str| Quantity::parse(s).unwrap_err().to_string();
    let regex = "quantities must match the regular expression \
                 '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    assert_eq!(message(""), format!("{regex}: \"\""));
    assert_eq!(message("1Kb"), format!("{regex}: \"1Kb\""));
    assert_eq!(message("1.0.0"), format!("{regex}: \"1.0.0\""));
    assert_eq!(message("1 Ki"), format!("{regex}: \"1 Ki\""));
    assert_eq!(message("--1"), "unable to parse quantity's suffix: \"--1\"");
    assert_eq!(message("1e"), "unable to parse quantity's suffix: \"1e\"");
    // Go needs a digit where it takes its exact (inf.Dec) path.
    assert_eq!(
        message(".e-20"),
        "unable to parse numeric part of quantity: \".e-20\""
    );
    // Limits of this type (Go's values are unbounded).
    assert!(message(&"9".repeat(40)).starts_with("quantity has more significant digits"));
    assert!(message("1e9000000000000000000").starts_with("quantity's exponent is out of range"));
    // Long inputs are shortened in the message.
    let long = format!("{}x", "1".repeat(100));
    let m = message(&long);
    assert!(m.ends_with(&format!("\"{}\"...", "1".repeat(64))), "{m}");
    let e: Box<dyn std::error::Error> = Box::new(Quantity::parse("x").unwrap_err());
    assert!(e.to_string().contains("\"x\""));
}

#[test]
fn forms_go_accepts_that_look_odd() {
    // Go's scanner takes a missing number as zero ...
    for s in ["-", "+", ".", "-.", "+.", "Ki", "k", "e5", "00", "-0"] {
        assert!(q(s).is_zero(), "{s}");
    }
    // ... except where it takes its exact path, which needs a digit.
    for s in ["Pi", "Ei", "e-10"] {
        assert!(Quantity::parse(s).is_err(), "{s}");
    }
    assert_eq!(q("5.").to_string(), "5");
    assert_eq!(q(".5").to_string(), "500m");
    assert_eq!(q("1e-0").format(), DecimalExponent);
    assert_eq!(q("1e007").to_string(), "10e6");
    assert_eq!(q("1E").to_string(), "1E");
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestParseQuantityString
// (6 rows translated, 0 skipped: the split itself is Go-internal, so each
// row checks that the input equals the number put back together from
// Go's expected parts).
#[test]
fn parse_quantity_string_table() {
    #[rustfmt::skip]
    let table: &[(&str, bool, &str, &str, &str)] = &[
        // input, positive, num, denom, suffix
        ("0.025Ti", true, "0", "025", "Ti"),
        ("1.025Ti", true, "1", "025", "Ti"),
        ("-1.025Ti", false, "1", "025", "Ti"),
        (".", true, "0", "", ""),
        ("-.", false, "0", "", ""),
        ("1E-3", true, "1", "", "E-3"),
    ];
    for &(input, positive, num, denom, suffix) in table {
        let sign = if positive { "" } else { "-" };
        let point = if denom.is_empty() { "" } else { "." };
        let rebuilt = format!("{sign}{num}{point}{denom}{suffix}");
        assert_eq!(q(input), q(&rebuilt), "{input}");
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go,
// TestQuantityParseZero (1 row) and TestQuantityParseNonNumericPanic (1 row:
// MustParse panics, here parse is an error).
#[test]
fn parse_zero_and_non_numeric() {
    assert_eq!(q("0").to_string(), "0");
    assert!(Quantity::parse("Non-Numeric").is_err());
}

// --------------------------------------------------------- canonical form

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestQuantityString
// (42 rows translated, 0 skipped; Go's check that parsing copies the
// canonical string into its cache is internal and replaced by checking
// that the canonical string reads back as itself).
#[rustfmt::skip]
const STRING: &[(i64, i32, QuantityFormat, &str, &str)] = &[
    (1024 * 1024 * 1024, 0, BinarySI, "1Gi", "1024Mi"),
    (300 * 1024 * 1024, 0, BinarySI, "300Mi", "307200Ki"),
    (6 * 1024, 0, BinarySI, "6Ki", ""),
    (1001 * 1024 * 1024 * 1024, 0, BinarySI, "1001Gi", "1025024Mi"),
    (1024 * 1024 * 1024 * 1024, 0, BinarySI, "1Ti", "1024Gi"),
    (5, 0, BinarySI, "5", "5000m"),
    (500, -3, BinarySI, "500m", "0.5"),
    (1, 9, DecimalSI, "1G", "1000M"),
    (1000, 6, DecimalSI, "1G", "0.001T"),
    (1000000, 3, DecimalSI, "1G", ""),
    (1000000000, 0, DecimalSI, "1G", ""),
    (1, -3, DecimalSI, "1m", "1000u"),
    (80, -3, DecimalSI, "80m", ""),
    (1080, -3, DecimalSI, "1080m", "1.08"),
    (108, -2, DecimalSI, "1080m", "1080000000n"),
    (10800, -4, DecimalSI, "1080m", ""),
    (300, 6, DecimalSI, "300M", ""),
    (1, 12, DecimalSI, "1T", ""),
    (1234567, 6, DecimalSI, "1234567M", ""),
    (1234567, -3, BinarySI, "1234567m", ""),
    (3, 3, DecimalSI, "3k", ""),
    (1025, 0, BinarySI, "1025", ""),
    (0, 0, DecimalSI, "0", ""),
    (0, 0, BinarySI, "0", ""),
    (1, 9, DecimalExponent, "1e9", ".001e12"),
    (1, -3, DecimalExponent, "1e-3", "0.001e0"),
    (1, -9, DecimalExponent, "1e-9", "1000e-12"),
    (80, -3, DecimalExponent, "80e-3", ""),
    (300, 6, DecimalExponent, "300e6", ""),
    (1, 12, DecimalExponent, "1e12", ""),
    (1, 3, DecimalExponent, "1e3", ""),
    (3, 3, DecimalExponent, "3e3", ""),
    (3, 3, DecimalSI, "3k", ""),
    (0, 0, DecimalExponent, "0", "00"),
    (1, -9, DecimalSI, "1n", ""),
    (80, -9, DecimalSI, "80n", ""),
    (1080, -9, DecimalSI, "1080n", ""),
    (108, -8, DecimalSI, "1080n", ""),
    (10800, -10, DecimalSI, "1080n", ""),
    (1, -6, DecimalSI, "1u", ""),
    (80, -6, DecimalSI, "80u", ""),
    (1080, -6, DecimalSI, "1080u", ""),
];

#[test]
fn string_table() {
    assert_eq!(STRING.len(), 42);
    for &(m, e, format, expect, alternate) in STRING {
        let value = dec(m, e, format);
        assert_eq!(value.to_string(), expect, "{m}e{e} {format}");
        assert_eq!(q(expect).to_string(), expect);
        assert_eq!(q(expect), value, "{expect}");
        if !alternate.is_empty() {
            assert_eq!(q(alternate).to_string(), expect, "alternate {alternate}");
        }
        // Never "-0".
        if !value.is_zero() {
            assert_eq!((-value).to_string(), format!("-{expect}"));
        }
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestQuantityParseEmit
// (9 rows translated, with their negatives, 0 skipped).
#[test]
fn parse_emit_table() {
    #[rustfmt::skip]
    let table = [
        ("1Ki", "1Ki"),
        ("1Mi", "1Mi"),
        ("1Gi", "1Gi"),
        ("1024Mi", "1Gi"),
        ("1000M", "1G"),
        (".001Ki", "1024m"),
        (".000001Ki", "1024u"),
        (".000000001Ki", "1024n"),
        (".000000000001Ki", "2n"),
    ];
    for (input, expect) in table {
        assert_eq!(q(input).to_string(), expect, "{input}");
        assert_eq!(q(&format!("-{input}")).to_string(), format!("-{expect}"));
    }
}

#[test]
fn canonical_examples_and_deliberate_differences_from_go() {
    assert_eq!(q("1024Mi").to_string(), "1Gi");
    assert_eq!(q("0.5").to_string(), "500m");
    assert_eq!(q("1.5Gi").to_string(), "1536Mi");
    assert_eq!(q("-1.5Gi").to_string(), "-1536Mi");
    assert_eq!(q("1.1Ki").to_string(), "1126400m"); // not whole: DecimalSI
    assert_eq!(q("-0").to_string(), "0");
    // Go writes `1` for 1000E (it has no suffix for 10^21 and drops the
    // exponent); the exponent form keeps the value.
    assert_eq!(q("1000E").to_string(), "1e21");
    assert_eq!(q("1e21").to_string(), "1e21");
    assert_eq!(Quantity::new_scaled(1, -12).to_string(), "1e-12");
    // Go's String() echoes these inputs, taking them for canonical.
    assert_eq!(q("+1Ki").to_string(), "1Ki");
    assert_eq!(q("01").to_string(), "1");
    assert_eq!(q("1.500").to_string(), "1500m");
    assert_eq!(q("1.500k").to_string(), "1500");
    // Beyond Ei the mantissa takes the rest.
    // (8Ei itself is capped at 2^63 - 1 when parsed.)
    assert_eq!(q("8Ei").to_string(), "9223372036854775807");
    let big = q("4Ei") + q("4Ei") + q("4Ei");
    assert_eq!(big.format(), BinarySI);
    assert_eq!(big.to_string(), "12Ei");
    let beyond = (0..256).map(|_| q("4Ei")).sum::<Quantity>();
    assert_eq!(beyond.to_string(), "1024Ei");
    // Formatter padding applies to the whole string.
    assert_eq!(format!("[{:>5}]", q("1Ki")), "[  1Ki]");
}

// ------------------------------------------------------------- comparison

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestQuantityCmp
// (both tables: 4 + 8 rows translated, 0 skipped; the second table's nil
// inf.Dec is Go's zero value, here zero).
#[test]
fn cmp_table() {
    for (x, y, expect) in [
        ("0", "0", 0),
        ("100m", "50m", 1),
        ("50m", "100m", -1),
        ("10000T", "100Gi", 1),
    ] {
        assert_eq!(q(x).cmp(&q(y)) as i8, expect, "{x} vs {y}");
    }
    let zero = Quantity::default;
    for (x, y, expect) in [
        (dec(0, 0, DecimalSI), dec(0, 0, DecimalSI), 0),
        (zero(), dec(0, 0, DecimalSI), 0),
        (dec(0, 0, DecimalSI), zero(), 0),
        (zero(), zero(), 0),
        (zero(), dec(10, 0, DecimalSI), -1),
        (zero(), dec(-10, 0, DecimalSI), 1),
        (dec(10, 0, DecimalSI), zero(), 1),
        (dec(-10, 0, DecimalSI), zero(), -1),
    ] {
        assert_eq!(x.cmp(&y) as i8, expect, "{x} vs {y}");
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestQuantityCmpInt64AndDec
// (22 rows translated, each both ways; 0 skipped. Go runs the table four
// times over its two internal representations, which this type does not
// have.)
#[test]
fn cmp_int64_and_dec_table() {
    const MOST_POSITIVE: i64 = i64::MAX;
    const MOST_NEGATIVE: i64 = i64::MIN;
    #[rustfmt::skip]
    let table: [(Scaled, Scaled, i8); 22] = [
        ((901, -2), (901, -2), 0),
        ((90, -1), (901, -2), -1),
        ((901, -2), (900, -2), 1),
        ((0, 0), (0, 0), 0),
        ((0, 1), (0, -1), 0),
        ((0, -1), (0, 1), 0),
        ((800, -3), (1, 0), -1),
        ((800, -3), (79, -2), 1),
        ((MOST_POSITIVE, 0), (1, -1), 1),
        ((MOST_POSITIVE, 1), (1, 0), 1),
        ((MOST_POSITIVE, 1), (1, 1), 1),
        ((MOST_POSITIVE, 1), (0, 1), 1),
        ((MOST_POSITIVE, -16), (1, 3), -1),
        ((MOST_NEGATIVE, 0), (0, 0), -1),
        ((MOST_NEGATIVE, -18), (-1, 0), -1),
        ((MOST_NEGATIVE, -19), (-1, 0), 1),
        ((1_000_000_000_000_000_000, -17), (1, 1), 0),
        ((1_000_000_000_000_000_000, -17), (-10, 0), 1),
        ((-1_000_000_000_000_000_000, -17), (-10, 0), 0),
        ((1_000_000_000_000_000_000, -17), (1, 0), 1),
        ((1_000_000_000_000_000_000 + 1, -17), (1, 1), 1),
        ((1_000_000_000_000_000_000 - 1, -17), (1, 1), -1),
    ];
    for ((am, ae), (bm, be), expect) in table {
        let (a, b) = (dec(am, ae, DecimalSI), dec(bm, be, DecimalSI));
        assert_eq!(a.cmp(&b) as i8, expect, "{a} vs {b}");
        assert_eq!(b.cmp(&a) as i8, -expect, "{b} vs {a}");
        assert_eq!(a == b, expect == 0);
    }
}

#[test]
fn equality_and_hash_ignore_the_format() {
    use std::collections::HashSet;
    let same = [
        "1Gi",
        "1024Mi",
        "1073741824",
        "1.073741824G",
        "1073741824e0",
    ];
    let set: HashSet<Quantity> = same.iter().map(|s| q(s)).collect();
    assert_eq!(set.len(), 1);
    assert_eq!(q("1Gi"), q("1073741824"));
    assert_ne!(q("1Gi").to_string(), q("1073741824").to_string());
    let mut sorted: Vec<Quantity> = ["1Ki", "-1", "999", "1e3", "0", "1n", "-2Mi"]
        .iter()
        .map(|s| q(s))
        .collect();
    sorted.sort();
    let shown: Vec<String> = sorted.iter().map(Quantity::to_string).collect();
    assert_eq!(shown, ["-2Mi", "-1", "0", "1n", "999", "1e3", "1Ki"]);
}

// --------------------------------------------------------------- values

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestQuantityRoundUp
// (12 rows translated, 0 skipped; Go repeats them over its two internal
// representations).
#[test]
fn round_up_table() {
    #[rustfmt::skip]
    let table: [(&str, i32, (i64, i32), bool); 12] = [
        ("9.01", -3, (901, -2), true),
        ("9.01", -2, (901, -2), true),
        ("9.01", -1, (91, -1), false),
        ("9.01", 0, (10, 0), false),
        ("9.01", 1, (10, 0), false),
        ("9.01", 2, (100, 0), false),
        ("-9.01", -3, (-901, -2), true),
        ("-9.01", -2, (-901, -2), true),
        ("-9.01", -1, (-91, -1), false),
        ("-9.01", 0, (-10, 0), false),
        ("-9.01", 1, (-10, 0), false),
        ("-9.01", 2, (-100, 0), false),
    ];
    for (input, scale, (m, e), exact) in table {
        let mut got = q(input);
        assert_eq!(got.round_up(scale), exact, "{input} at {scale}");
        assert_eq!(got, dec(m, e, DecimalSI), "{input} at {scale}");
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestMilliNewSet
// (6 rows translated, 0 skipped; Go's invalid format string, which it
// writes as DecimalExponent, is DecimalExponent here since the enum has no
// invalid value; SetMilli is new_milli).
#[test]
fn milli_new_set_table() {
    #[rustfmt::skip]
    let table = [
        (1, DecimalSI, "1m", true),
        (1000, DecimalSI, "1", true),
        (1234000, DecimalSI, "1234", true),
        (1024, BinarySI, "1024m", false), // Format changes
        (1000000, DecimalExponent, "1e3", true), // Go: "invalidFormatDefaultsToExponent"
        (1024 * 1024, BinarySI, "1048576m", false), // Format changes
    ];
    for (value, format, expect, exact) in table {
        let got = Quantity::new_milli(value, format);
        assert_eq!(got.to_string(), expect);
        if exact {
            assert_eq!(q(&got.to_string()).milli_value(), value);
        }
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestNewSet
// (6 rows translated, 0 skipped; Set is `new`, and the invalid format as
// in TestMilliNewSet).
#[test]
fn new_set_table() {
    #[rustfmt::skip]
    let table = [
        (1, DecimalSI, "1"),
        (1000, DecimalSI, "1k"),
        (1234000, DecimalSI, "1234k"),
        (1024, BinarySI, "1Ki"),
        (1000000, DecimalExponent, "1e6"), // Go: "invalidFormatDefaultsToExponent"
        (1024 * 1024, BinarySI, "1Mi"),
    ];
    for (value, format, expect) in table {
        let got = Quantity::new(value, format);
        assert_eq!(got.to_string(), expect);
        assert_eq!(q(&got.to_string()).value(), value);
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestNewScaledSet
// (11 rows translated, 0 skipped; SetScaled is new_scaled).
#[test]
fn new_scaled_set_table() {
    #[rustfmt::skip]
    let table = [
        (1, -9, "1n"),
        (1000, -9, "1u"),
        (1, -6, "1u"),
        (1000, -6, "1m"),
        (1, -3, "1m"),
        (1000, -3, "1"),
        (1, 0, "1"),
        (0, -9, "0"),
        (0, -6, "0"),
        (0, -3, "0"),
        (0, 0, "0"),
    ];
    for (value, scale, expect) in table {
        let got = Quantity::new_scaled(value, scale);
        assert_eq!(got.to_string(), expect);
        assert_eq!(q(expect).scaled_value(scale), value, "{expect} at {scale}");
        assert_eq!(got.format(), DecimalSI);
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestScaledValue
// (17 rows translated, 0 skipped).
#[test]
fn scaled_value_table() {
    let (nano, micro, milli) = (-9, -6, -3);
    #[rustfmt::skip]
    let table = [
        (nano, nano, 1),
        (nano, micro, 1),
        (nano, milli, 1),
        (nano, 0, 1),
        (micro, nano, 1000),
        (micro, micro, 1),
        (micro, milli, 1),
        (micro, 0, 1),
        (milli, nano, 1000 * 1000),
        (milli, micro, 1000),
        (milli, milli, 1),
        (milli, 0, 1),
        (0, nano, 1000 * 1000 * 1000),
        (0, micro, 1000 * 1000),
        (0, milli, 1000),
        (0, 0, 1),
        (2, -2, 100 * 100),
    ];
    for (from, to, expect) in table {
        assert_eq!(
            Quantity::new_scaled(1, from).scaled_value(to),
            expect,
            "{from} to {to}"
        );
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/scale_int_test.go, TestScaledValueInternal
// (15 rows translated, 0 skipped: Go's internal scaledValue(unscaled,
// scale, newScale) is `unscaled × 10^-scale` read with
// scaled_value(-newScale)).
#[test]
fn scaled_value_internal_table() {
    let big = |unscaled: &str, scale: i32| q(&format!("{unscaled}e{}", -scale));
    #[rustfmt::skip]
    let table = [
        // remain scale
        (big("1000", 0), 0, 1000),
        // scale down
        (big("1000", 0), -3, 1),
        (big("1000", 3), 0, 1),
        (big("0", 3), 0, 0),
        // always round up
        (big("999", 3), 0, 1),
        (big("500", 3), 0, 1),
        (big("499", 3), 0, 1),
        (big("1", 3), 0, 1),
        // large scaled value does not lose precision
        (big(&(i64::MAX - 1).to_string(), 1), 0, (i64::MAX - 1) / 10 + 1),
        // large intermediate result.
        (big(&format!("1{}", "0".repeat(100)), 100), 0, 1),
        // scale up
        (big("0", 0), 3, 0),
        (big("1", 0), 3, 1000),
        (big("1", -3), 0, 1000),
        (big("1000", -3), 2, 100000000),
        (big(&(i64::MAX / 1000).to_string(), 0), 3, (i64::MAX / 1000) * 1000),
    ];
    for (value, new_scale, expect) in table {
        assert_eq!(
            value.scaled_value(-new_scale),
            expect,
            "{value} at {new_scale}"
        );
    }
}

#[test]
fn value_and_milli_value_round_away_from_zero_and_saturate() {
    assert_eq!(q("2.1").value(), 3);
    assert_eq!(q("-2.1").value(), -3);
    assert_eq!(q("1n").value(), 1);
    assert_eq!(q("-1n").value(), -1);
    assert_eq!(q("1.5").milli_value(), 1500);
    assert_eq!(q("1n").milli_value(), 1);
    assert_eq!(q("-1n").milli_value(), -1);
    assert_eq!(q("1Gi").value(), 1 << 30);
    assert_eq!(q("9Ei").value(), i64::MAX);
    // Go's results overflow here; these saturate.
    assert_eq!(q("9Ei").milli_value(), i64::MAX);
    assert_eq!(q("12E").value(), i64::MAX);
    assert_eq!(q("-12E").value(), i64::MIN);
    assert_eq!(q("1e30").value(), i64::MAX);
    assert_eq!(q("1.5").as_i64(), None);
    assert_eq!(q("1e3").as_i64(), Some(1000));
    assert_eq!(q("1e19").as_i64(), None);
    assert_eq!(q("0.5").sign(), 1);
    assert_eq!(q("-0.5").sign(), -1);
    assert_eq!(q("0").sign(), 0);
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_example_test.go,
// ExampleFormat (3 lines) and ExampleMustParse (4 lines): 7 translated.
#[test]
fn examples() {
    assert_eq!(
        Quantity::new(5 * 1024 * 1024 * 1024, BinarySI).to_string(),
        "5Gi"
    );
    assert_eq!(
        Quantity::new(5 * 1000 * 1000 * 1000, DecimalSI).to_string(),
        "5G"
    );
    assert_eq!(Quantity::new_milli(5300, DecimalSI).to_string(), "5300m");

    let memory = q("5Gi");
    assert_eq!((memory.value(), memory.format()), (5368709120, BinarySI));
    let disk = q("5G");
    assert_eq!((disk.value(), disk.format()), (5000000000, DecimalSI));
    let cores = q("5300m");
    assert_eq!((cores.milli_value(), cores.format()), (5300, DecimalSI));
    let cores2 = q("5.4");
    assert_eq!((cores2.milli_value(), cores2.format()), (5400, DecimalSI));
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestQuantityValueSet
// (1 case translated as values: pflag's QuantityValue itself is Go-only).
#[test]
fn quantity_value_set() {
    assert!(Quantity::parse("invalid").is_err());
    let value = q("1Mi");
    assert_eq!(value.value(), 1024 * 1024);
    assert_eq!(serde_json::to_string(&value).unwrap(), r#""1Mi""#);
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestUninitializedNoCrash
// (1 case translated: Go's zero Quantity is Quantity::default()).
#[test]
fn uninitialized_no_crash() {
    let q = Quantity::default();
    assert_eq!(q.value(), 0);
    assert_eq!(q.milli_value(), 0);
    assert_eq!(q.to_string(), "0");
    assert_eq!(serde_json::to_string(&q).unwrap(), r#""0""#);
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/amount_test.go, TestAmountSign
// (9 rows translated on the public sign(), 0 skipped).
#[test]
fn amount_sign_table() {
    #[rustfmt::skip]
    let table = [
        ((-50, 1), -1), ((0, 1), 0), ((300, 1), 1),
        ((-50, -8), -1), ((50, -8), 1), ((0, -8), 0),
        ((-50, 0), -1), ((50, 0), 1), ((0, 0), 0),
    ];
    for ((m, e), expect) in table {
        assert_eq!(dec(m, e, DecimalSI).sign(), expect, "{m}e{e}");
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/amount_test.go, TestInt64AsCanonicalString
// (4 rows translated as the canonical DecimalSI string of mantissa and
// exponent: "100",0 → 100; "1",3 → 1k; "10",0 → 10; "1080",-9 → 1080n).
#[test]
fn int64_as_canonical_string_table() {
    for ((m, e), expect) in [
        ((100, 0), "100"),
        ((100, 1), "1k"),
        ((100, -1), "10"),
        ((10800, -10), "1080n"),
    ] {
        assert_eq!(dec(m, e, DecimalSI).to_string(), expect);
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/amount_test.go, TestInt64AmountAsInt64
// (4 rows translated on as_i64, which is exact: "ok" is whether the value
// is a whole number within i64).
#[test]
fn int64_amount_as_int64_table() {
    for ((m, e), expect) in [
        ((100, 0), Some(100)),
        ((100, 1), Some(1000)),
        ((100, -5), None),
        ((100, 100), None),
    ] {
        assert_eq!(dec(m, e, DecimalSI).as_i64(), expect, "{m}e{e}");
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/amount_test.go, TestInt64AmountAsScaledInt64
// (8 rows translated on scaled_value; 1 row differs on purpose: Go returns
// 0 for 876e30 at scale 4, which overflows i64; this saturates).
#[test]
fn int64_amount_as_scaled_int64_table() {
    #[rustfmt::skip]
    let table = [
        ("test when i.scale < scaled", (100, 0), 5, 1),
        ("test when i.scale = scaled", (100, 1), 1, 100),
        ("test when i.scale > scaled and result doesn't overflow", (100, 5), 2, 100000),
        ("test when i.scale > scaled and result overflows", (876, 30), 4, i64::MAX), // Go: 0
        ("test when i.scale < 0 and fraction exists", (93, -1), 0, 10),
        ("test when i.scale < 0 and fraction doesn't exist", (100, -1), 0, 10),
        ("test when i.value < 0 and fraction exists", (-1932, 2), 4, -20),
        ("test when i.value < 0 and fraction doesn't exists", (-1900, 2), 4, -19),
    ];
    for (name, (m, e), scale, expect) in table {
        assert_eq!(dec(m, e, DecimalSI).scaled_value(scale), expect, "{name}");
    }
}

// ------------------------------------------------------------ arithmetic

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestAdd
// (6 rows translated, 0 skipped; the result's format is checked too, as
// Go sets it: the left operand's, or the right one's when the left is 0).
#[test]
fn add_table() {
    let zero = Quantity::default();
    #[rustfmt::skip]
    let table = [
        (dec(10, 0, DecimalSI), dec(1, 1, DecimalSI), dec(20, 0, DecimalSI)),
        (dec(10, 0, DecimalSI), dec(1, 0, BinarySI), dec(11, 0, DecimalSI)),
        (dec(10, 0, BinarySI), dec(1, 0, DecimalSI), dec(11, 0, BinarySI)),
        (zero, dec(50, 0, DecimalSI), dec(50, 0, DecimalSI)),
        (dec(50, 0, DecimalSI), zero, dec(50, 0, DecimalSI)),
        (zero, zero, dec(0, 0, DecimalSI)),
    ];
    for (i, (a, b, expect)) in table.into_iter().enumerate() {
        let sum = a + b;
        assert_eq!(sum, expect, "[{i}]");
        assert_eq!(sum.format(), expect.format(), "[{i}]");
        let mut assigned = a;
        assigned += b;
        assert_eq!(assigned, expect, "[{i}]");
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestSub
// (6 rows translated, 0 skipped; formats checked as in TestAdd).
#[test]
fn sub_table() {
    let zero = Quantity::default();
    #[rustfmt::skip]
    let table = [
        (dec(10, 0, DecimalSI), dec(1, 1, DecimalSI), dec(0, 0, DecimalSI)),
        (dec(10, 0, DecimalSI), dec(1, 0, BinarySI), dec(9, 0, DecimalSI)),
        (dec(10, 0, BinarySI), dec(1, 0, DecimalSI), dec(9, 0, BinarySI)),
        (zero, dec(50, 0, DecimalSI), dec(-50, 0, DecimalSI)),
        (dec(50, 0, DecimalSI), zero, dec(50, 0, DecimalSI)),
        (zero, zero, dec(0, 0, DecimalSI)),
    ];
    for (i, (a, b, expect)) in table.into_iter().enumerate() {
        let difference = a - b;
        assert_eq!(difference, expect, "[{i}]");
        assert_eq!(difference.format(), expect.format(), "[{i}]");
        let mut assigned = a;
        assigned -= b;
        assert_eq!(assigned, expect, "[{i}]");
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestNeg
// (7 rows translated, 0 skipped; Go's int64 and inf.Dec forms of the same
// value are the same value here).
#[test]
fn neg_table() {
    #[rustfmt::skip]
    let table = [
        (dec(0, 0, DecimalSI), dec(0, 0, DecimalSI)),
        (Quantity::default(), Quantity::default()),
        (dec(10, 0, BinarySI), dec(-10, 0, BinarySI)),
        (dec(-10, 0, BinarySI), dec(10, 0, BinarySI)),
        (dec(0, 0, DecimalSI), dec(0, 0, DecimalSI)),
        (dec(10, 0, BinarySI), dec(-10, 0, BinarySI)),
        (dec(-10, 0, BinarySI), dec(10, 0, BinarySI)),
    ];
    for (i, (a, expect)) in table.into_iter().enumerate() {
        assert_eq!(-a, expect, "[{i}]");
        assert_eq!((-a).format(), a.format(), "[{i}]");
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestQuantityNeg
// (2 rows translated, 0 skipped).
#[test]
fn quantity_neg_table() {
    for a in [dec(901, -2, DecimalSI), dec(901, -2, DecimalSI)] {
        let out = -a;
        assert_ne!(out, a, "negating must not give the source back");
        assert_eq!(out.to_string(), "-9010m");
    }
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go,
// TestQuantityAddZeroPreservesSuffix and TestQuantitySubZeroPreservesSuffix
// (2 values each, translated), and TestQuantityCanocicalizeZero (1 case:
// 1000m minus 1 is written "0").
#[test]
fn zero_preserves_suffix() {
    let zero = q("0");
    for value in ["100m", "1Gi"] {
        let v = q(value);
        assert_eq!((v + zero).to_string(), value);
        assert_eq!((zero + v).to_string(), value);
        assert_eq!((v - zero).to_string(), value);
        assert_eq!((zero - v).to_string(), (-v).to_string());
    }
    assert_eq!((q("1000m") - Quantity::new(1, DecimalSI)).to_string(), "0");
}

// k8s.io/apimachinery v0.36.0 pkg/api/resource/amount_test.go, TestInt64AmountAdd
// (8 rows translated as exact sums, both orders; Go's "ok" is whether its
// int64 fast path sufficed. 1 row, 100e1 + 1e100, needs 98 significant
// digits: this type reports it with checked_add returning None).
#[test]
fn int64_amount_add_table() {
    let mp = i64::MAX;
    #[rustfmt::skip]
    let table: [(Scaled, Scaled, Option<Quantity>); 8] = [
        ((100, 1), (10, 2), Some(dec(200, 1, DecimalSI))),
        ((100, 1), (1, 2), Some(dec(110, 1, DecimalSI))),
        ((100, 1), (1, 100), None), // Go: exact in inf.Dec
        ((-5, 2), (50, 1), Some(dec(0, 1, DecimalSI))),
        ((-5, 2), (5, 2), Some(dec(0, 2, DecimalSI))),
        ((mp, -1), (1, -1), Some(q("922337203685477580.8"))), // Go: beyond its int64 path
        ((mp, -1), (0, -1), Some(dec(mp, -1, DecimalSI))),
        ((mp / 10, 1), (10, 0), Some(q("9223372036854775810"))), // Go: beyond its int64 path
    ];
    for ((am, ae), (bm, be), expect) in table {
        let (a, b) = (dec(am, ae, DecimalSI), dec(bm, be, DecimalSI));
        assert_eq!(a.checked_add(b), expect, "{a} + {b}");
        assert_eq!(b.checked_add(a), expect, "{b} + {a}");
    }
}

#[test]
fn overflowing_arithmetic() {
    assert_eq!(q("1e30").checked_add(q("1n")), None);
    assert_eq!(q("1e30").checked_sub(q("1n")), None);
    assert_eq!(
        q("1e20").checked_add(q("1n")).map(|s| s.to_string()),
        Some("100000000000000000000000000001e-9".to_string()) // the format of 1e20, as in Go
    );
    let result = std::panic::catch_unwind(|| q("1e30") + q("1n"));
    let message = *result.unwrap_err().downcast::<String>().unwrap();
    assert!(message.contains("1e30 + 1n"), "{message}");
}

// ------------------------------------------------------------------ serde

// k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestJSONWhitespace
// (8 rows translated, 0 skipped).
#[test]
fn json_whitespace_table() {
    #[rustfmt::skip]
    let table = [
        (r#"" 1""#, "1"),
        (r#""1 ""#, "1"),
        ("1", "1"),
        (" 1", "1"),
        ("1 ", "1"),
        ("10", "10"),
        ("-1", "-1"),
        (" -1", "-1"),
    ];
    for (input, expect) in table {
        let got: Quantity = serde_json::from_str(input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(got.to_string(), expect, "{input}");
    }
}

#[test]
fn serializes_the_canonical_string() {
    assert_eq!(serde_json::to_value(q("1024Mi")).unwrap(), json!("1Gi"));
    assert_eq!(serde_json::to_value(q("0.5")).unwrap(), json!("500m"));
    assert_eq!(serde_json::to_value(q("-1e3")).unwrap(), json!("-1e3"));
    assert_eq!(
        serde_json::to_value(Quantity::default()).unwrap(),
        json!("0")
    );
}

#[test]
fn deserializes_strings_and_numbers() {
    let from = |s: &str| serde_json::from_str::<Quantity>(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    assert_eq!(from(r#""  500m\n""#).to_string(), "500m");
    assert_eq!(from(r#""1Gi""#).format(), BinarySI);
    assert_eq!(from("1").to_string(), "1");
    assert_eq!(from("1").format(), DecimalSI);
    assert_eq!(from("1.5").to_string(), "1500m");
    assert_eq!(from("-2").to_string(), "-2");
    assert_eq!(from("0.1").to_string(), "100m");
    assert_eq!(
        from("18446744073709551615").to_string(),
        "18446744073709551615"
    );
    // Go keeps the literal's exponent (DecimalExponent, "1e3"); serde_json
    // hands over only the float, so the value is kept, in DecimalSI.
    assert_eq!(from("1e3"), q("1e3"));
    assert_eq!(from("1e3").to_string(), "1k");
    assert_eq!(from("2.5e-3").to_string(), "2500u");
    assert_eq!(from("1e-12").to_string(), "1n");

    #[derive(serde::Deserialize, Debug)]
    struct Holder {
        q: Option<Quantity>,
    }
    let h: Holder = serde_json::from_str(r#"{"q": null}"#).unwrap();
    assert!(h.q.is_none());
    let h: Holder = serde_json::from_str(r#"{"q": "250m"}"#).unwrap();
    assert_eq!(h.q, Some(q("250m")));
}

#[test]
fn deserialize_errors_name_what_was_found() {
    let err = |s: &str| serde_json::from_str::<Quantity>(s).unwrap_err().to_string();
    assert!(
        err("true").starts_with("invalid type: boolean `true`, expected a quantity"),
        "{}",
        err("true")
    );
    assert!(
        err("null").starts_with("invalid type: null, expected a quantity"),
        "{}",
        err("null")
    );
    assert!(
        err("{}").starts_with("invalid type: map, expected a quantity"),
        "{}",
        err("{}")
    );
    assert!(
        err("[]").starts_with("invalid type: sequence, expected a quantity"),
        "{}",
        err("[]")
    );
    let bad = err(r#""1Kb""#);
    assert!(
        bad.starts_with(
            "quantities must match the regular expression \
             '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': \"1Kb\""
        ),
        "{bad}"
    );
    assert!(err(r#""""#).contains(": \"\""), "{}", err(r#""""#));
}

// ----------------------------------------------------------------- schema

#[test]
fn schema_is_controller_gens() {
    let schema = <Quantity as ApiType>::api_schema(&mut schemars::SchemaGenerator::default());
    assert_eq!(
        schema.to_value(),
        json!({
            "anyOf": [{"type": "integer"}, {"type": "string"}],
            "pattern": "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
            "x-kubernetes-int-or-string": true
        })
    );
    assert!(<Quantity as schemars::JsonSchema>::inline_schema());
}

// ------------------------------------------------------------- properties

/// Quantity strings whose exact value needs no rounding, with that value
/// in nanos computed independently of the parser.
fn exact_quantity() -> impl Strategy<Value = (String, i128)> {
    // (suffix, power of ten, power of two)
    const SUFFIXES: &[(&str, i32, u32)] = &[
        ("", 0, 0),
        ("n", -9, 0),
        ("u", -6, 0),
        ("m", -3, 0),
        ("k", 3, 0),
        ("M", 6, 0),
        ("G", 9, 0),
        ("T", 12, 0),
        ("P", 15, 0),
        ("E", 18, 0),
        ("e-9", -9, 0),
        ("E-4", -4, 0),
        ("e0", 0, 0),
        ("e3", 3, 0),
        ("E+7", 7, 0),
        ("e18", 18, 0),
        ("Ki", 0, 10),
        ("Mi", 0, 20),
        ("Gi", 0, 30),
        ("Ti", 0, 40),
    ];
    (
        prop_oneof![Just(""), Just("-"), Just("+")],
        0u64..10_000_000,
        0u32..=3,
        0u32..1000,
        0..SUFFIXES.len(),
    )
        .prop_map(|(sign, int, frac_len, frac, i)| {
            let (suffix, ten, two) = SUFFIXES[i];
            // Binary values stay below Go's cap of 2^63 - 1.
            let int = if two > 0 { int % 1_000_000 } else { int };
            // No digit below nano, so that parsing rounds nothing.
            let frac_len = frac_len.min((ten + 9) as u32);
            let frac = frac % 10u32.pow(frac_len);
            let digits = i128::from(int) * 10i128.pow(frac_len) + i128::from(frac);
            let nanos = if two > 0 {
                digits * (1i128 << two) * 10i128.pow(9 - frac_len)
            } else {
                digits * 10i128.pow((ten + 9) as u32 - frac_len)
            };
            let fraction = if frac_len > 0 {
                format!(".{frac:0width$}", width = frac_len as usize)
            } else {
                String::new()
            };
            let nanos = if sign == "-" { -nanos } else { nanos };
            (format!("{sign}{int}{fraction}{suffix}"), nanos)
        })
}

/// Quantities of any format with values parsing can give back.
fn any_quantity() -> impl Strategy<Value = Quantity> {
    prop_oneof![
        exact_quantity().prop_map(|(s, _)| q(&s)),
        (
            any::<i64>(),
            -9i32..40,
            prop::sample::select(FORMATS.to_vec())
        )
            .prop_map(|(m, e, format)| {
                // BinarySI parses capped at 2^63 - 1: stay below.
                let e = if format == BinarySI { e.min(0) } else { e };
                dec(m, e, format)
            }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// parse ∘ display keeps the value, and is the identity on the string
    /// from the first re-parse on. Not always at once, as in Go: a BinarySI
    /// value that is no whole multiple of 1024 (`552864000`) is written
    /// without a suffix, which parses as DecimalSI (`552864k`).
    #[test]
    fn canonical_strings_round_trip(value in any_quantity()) {
        let shown = value.to_string();
        let back = q(&shown);
        prop_assert_eq!(back, value);
        let canonical = back.to_string();
        if back.format() == value.format() {
            prop_assert_eq!(&canonical, &shown);
        }
        prop_assert_eq!(q(&canonical).to_string(), canonical);
    }

    #[test]
    fn parsing_is_exact(((s, nanos), (t, other)) in (exact_quantity(), exact_quantity())) {
        let (a, b) = (q(&s), q(&t));
        prop_assert_eq!(a.cmp(&b), nanos.cmp(&other), "{} vs {}", s, t);
        prop_assert_eq!(a == b, nanos == other);
        prop_assert_eq!(a, dec_nanos(nanos));
        // Exact arithmetic.
        prop_assert_eq!(a + b, dec_nanos(nanos + other));
        prop_assert_eq!(a - b, dec_nanos(nanos - other));
    }

    #[test]
    fn hash_agrees_with_eq(a in any_quantity(), b in any_quantity()) {
        use std::hash::{BuildHasher, RandomState};
        let state = RandomState::new();
        if a == b {
            prop_assert_eq!(state.hash_one(a), state.hash_one(b));
        }
        let reformatted = a.with_format(b.format());
        prop_assert_eq!(state.hash_one(a), state.hash_one(reformatted));
    }

    #[test]
    fn json_round_trips(value in any_quantity()) {
        let text = serde_json::to_string(&value).unwrap();
        prop_assert_eq!(&text, &format!("\"{value}\""));
        let back: Quantity = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(back, value);
        if back.format() == value.format() {
            prop_assert_eq!(back.to_string(), value.to_string());
        }
    }

    #[test]
    fn display_never_panics_and_parse_never_panics(s in "[-+]?[0-9.]{0,45}[eEinumkKMGTP]{0,3}[-+]?[0-9]{0,22}") {
        if let Ok(value) = Quantity::parse(&s) {
            let shown = value.to_string();
            prop_assert_eq!(q(&shown).to_string(), shown);
        }
    }

    // k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestAddSubRoundTrip
    // (its random loop over scales -10..=10, as a property).
    #[test]
    fn add_sub_round_trip(k in -10i32..=10, values in prop::collection::vec(0..=i64::MAX, 100)) {
        let mut sum = Quantity::default();
        for &j in &values {
            sum += Quantity::new_scaled(j, k);
        }
        for &j in &values {
            sum -= Quantity::new_scaled(j, k);
        }
        prop_assert!(sum.is_zero());
    }

    // k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestAddSubRoundTripAcrossScales
    // (as a property, with values below 2^40 instead of any int63: a sum
    // of 100 values across scales 10^-10..10^9 at full int63 width needs
    // about 40 significant digits, beyond this type's 38).
    #[test]
    fn add_sub_round_trip_across_scales(values in prop::collection::vec(0i64..(1 << 40), 100)) {
        let scaled = |j: i64| Quantity::new_scaled(j, (j % 20 - 10) as i32);
        let mut sum = Quantity::default();
        for &j in &values {
            sum += scaled(j);
        }
        for &j in &values {
            sum -= scaled(j);
        }
        prop_assert!(sum.is_zero());
    }

    // k8s.io/apimachinery v0.36.0 pkg/api/resource/quantity_test.go, TestNegateRoundTrip
    // (its random loop over scales -10..=10, as a property).
    #[test]
    fn negate_round_trip(k in -10i32..=10, j in 0..=i64::MAX) {
        let value = Quantity::new_scaled(j, k);
        prop_assert_eq!(-(-value), value);
        prop_assert_eq!((-value).sign(), -value.sign());
    }
}

/// `nanos × 10^-9`, exactly, built from parts that fit an i64.
fn dec_nanos(nanos: i128) -> Quantity {
    const E18: i128 = 1_000_000_000_000_000_000;
    let (high, rest) = (nanos / (E18 * E18), nanos % (E18 * E18));
    let (middle, low) = (rest / E18, rest % E18);
    Quantity::new_scaled(high as i64, 27)
        + Quantity::new_scaled(middle as i64, 9)
        + Quantity::new_scaled(low as i64, -9)
}

#[test]
fn parse_error_type_is_public() {
    fn takes(_: &QuantityParseError) {}
    takes(&Quantity::parse("x").unwrap_err());
}

// ------------------------------------------------------- in a resource

mod pools {
    use std::collections::BTreeMap;

    use api_core::prelude::*;
    use serde::{Deserialize, Serialize};

    /// PoolSpec is the desired state of a Pool.
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(group = "example.com", version = "v1", kind = "Pool", namespaced)]
    #[serde(rename_all = "camelCase")]
    pub struct PoolSpec {
        /// cpu is the CPU the pool may use.
        pub cpu: Quantity,
        /// memory is the memory limit, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub memory: Option<Quantity>,
        /// limits are the limits by resource name (a core/v1 ResourceList).
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        pub limits: BTreeMap<String, Quantity>,
    }
}

#[test]
fn quantities_in_a_resource() {
    use api_core::Resource;
    let crd = pools::Pool::crd().to_json();
    let errors = api_core::schema::structural::check_crd(&crd);
    assert!(errors.is_empty(), "{errors}");
    let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
    let quantity =
        <Quantity as ApiType>::api_schema(&mut schemars::SchemaGenerator::default()).to_value();
    let without_description = |v: &serde_json::Value| {
        let mut v = v.clone();
        v.as_object_mut().unwrap().remove("description");
        v
    };
    assert_eq!(without_description(&spec["properties"]["cpu"]), quantity);
    assert_eq!(without_description(&spec["properties"]["memory"]), quantity);
    assert_eq!(
        spec["properties"]["limits"]["additionalProperties"],
        quantity
    );
    assert_eq!(
        spec["properties"]["cpu"]["description"],
        "cpu is the CPU the pool may use."
    );
    assert_eq!(spec["required"], json!(["cpu"]));

    let pool: pools::Pool = serde_json::from_value(json!({
        "apiVersion": "example.com/v1", "kind": "Pool", "metadata": {"name": "p"},
        "spec": {"cpu": 0.5, "memory": "1024Mi", "limits": {"cpu": 2, "memory": " 2Gi "}}
    }))
    .unwrap();
    assert_eq!(pool.metadata().name, "p");
    assert_eq!(
        serde_json::to_value(&pool.spec).unwrap(),
        json!({"cpu": "500m", "memory": "1Gi", "limits": {"cpu": "2", "memory": "2Gi"}})
    );
}
