//! `Quantity`: a fixed-point number with an optional unit suffix
//! (`500m`, `1Gi`, `2.5e3`), with the semantics of apimachinery's
//! `resource.Quantity`.
//!
//! The value is exact: a signed 128-bit integer mantissa times a power of
//! ten, kept normalized (no trailing zeros in the mantissa), so that equal
//! values have equal representations. That holds up to 38 significant
//! digits at any power of ten, which covers every quantity Kubernetes
//! deals with (Go's own limit for `BinarySI` is 2^63 − 1, and parsing
//! rounds to nano precision); parsing a value that needs more digits is an
//! error, and so is arithmetic whose exact result would (the `checked_*`
//! methods return `None`, the operators panic).

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};
use std::str::FromStr;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Unexpected, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::api_type::ApiType;
use crate::facts::{Kind, TypeFacts};

/// How a [`Quantity`] is written: apimachinery's `resource.Format`.
///
/// Parsing remembers the format of the suffix; [`Display`](fmt::Display)
/// writes the value in it, in canonical form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum QuantityFormat {
    /// A power of ten written as an exponent: `12e6`, `1e-3`.
    DecimalExponent,
    /// Powers of 1024: `12Mi` (12 × 2^20). Values that are not whole
    /// numbers, or whose magnitude is below 1024, are written as
    /// [`DecimalSI`](QuantityFormat::DecimalSI).
    BinarySI,
    /// SI prefixes of powers of 1000: `12M` (12 × 10^6), `500m`.
    #[default]
    DecimalSI,
}

impl QuantityFormat {
    /// The name apimachinery gives the format: `DecimalExponent`,
    /// `BinarySI` or `DecimalSI`.
    pub const fn as_str(self) -> &'static str {
        match self {
            QuantityFormat::DecimalExponent => "DecimalExponent",
            QuantityFormat::BinarySI => "BinarySI",
            QuantityFormat::DecimalSI => "DecimalSI",
        }
    }
}

impl fmt::Display for QuantityFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a string is not a [`Quantity`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantityParseError {
    input: String,
    kind: ParseErrorKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ParseErrorKind {
    /// apimachinery's `ErrFormatWrong`.
    Format,
    /// apimachinery's `ErrSuffix`.
    Suffix,
    /// apimachinery's `ErrNumeric`.
    Numeric,
    /// More significant digits than the mantissa holds.
    TooPrecise,
    /// A power of ten beyond ±(2^62 − 1).
    OutOfRange,
}

impl QuantityParseError {
    /// The string that failed to parse.
    pub fn input(&self) -> &str {
        &self.input
    }

    fn new(input: &str, kind: ParseErrorKind) -> Self {
        QuantityParseError {
            input: input.to_owned(),
            kind,
        }
    }
}

impl fmt::Display for QuantityParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reason = match self.kind {
            ParseErrorKind::Format => {
                "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
            }
            ParseErrorKind::Suffix => "unable to parse quantity's suffix",
            ParseErrorKind::Numeric => "unable to parse numeric part of quantity",
            ParseErrorKind::TooPrecise => {
                "quantity has more significant digits than a Quantity holds (38)"
            }
            ParseErrorKind::OutOfRange => "quantity's exponent is out of range",
        };
        let shown: String = self.input.chars().take(64).collect();
        let more = if self.input.chars().count() > 64 {
            "..."
        } else {
            ""
        };
        write!(f, "{reason}: {shown:?}{more}")
    }
}

impl std::error::Error for QuantityParseError {}

/// The largest power of ten a quantity may carry, in magnitude; keeps all
/// exponent arithmetic far from overflow.
const MAX_EXPONENT: i64 = i64::MAX / 2;
/// Parsing rounds up to this power of ten (nano).
const NANO: i64 = -9;
/// `BinarySI` values are capped at this magnitude when parsed.
const MAX_BINARY: u128 = i64::MAX as u128;

/// A fixed-point number: Kubernetes' resource quantity
/// (`k8s.io/apimachinery/pkg/api/resource.Quantity`), written `500m`,
/// `1Gi`, `2.5`, `1e3`.
///
/// [`Quantity::parse`] (and [`FromStr`]) accept the strings Go's
/// `ParseQuantity` accepts (within the limits below) and give the same
/// values and formats: an optional sign,
/// digits with an optional decimal point (`.5` and `5.` included), and a
/// suffix: binary `Ki Mi Gi Ti Pi Ei`, decimal `n u m k M G T P E` (or
/// none), or a decimal exponent `e3`/`E-3`. Values are rounded up (away
/// from zero) to nano precision; `BinarySI` values are capped at
/// 2^63 − 1 in magnitude, and a fractional `BinarySI` value below 1 in
/// magnitude becomes `DecimalSI`. The [`QuantityFormat`] of the suffix is
/// remembered.
///
/// [`Display`](fmt::Display) (and serialization) writes the canonical
/// form, as Go's `String()` does: the largest suffix that needs no
/// fractional digits (`1024Mi` → `1Gi`, `0.5` → `500m`,
/// `1.5Gi` → `1536Mi`).
///
/// Equality, ordering and hashing are by value and ignore the format:
/// `1Gi == 1024Mi`, although the two are written differently.
///
/// ```
/// use api_core::meta::{Quantity, QuantityFormat};
///
/// let q: Quantity = "1.5Gi".parse().unwrap();
/// assert_eq!(q.to_string(), "1536Mi");
/// assert_eq!(q.format(), QuantityFormat::BinarySI);
/// assert_eq!(q.value(), 1536 * 1024 * 1024);
/// assert_eq!("1024Mi".parse::<Quantity>().unwrap(), "1Gi".parse().unwrap());
/// let cpu = Quantity::new_milli(250, QuantityFormat::DecimalSI) + "1".parse().unwrap();
/// assert_eq!(cpu.to_string(), "1250m");
/// ```
///
/// # Differences from Go
///
/// - Go's `String()` echoes some non-canonical inputs it wrongly takes to
///   be canonical (`+1`, `01`, `1.500`); this type always writes the
///   canonical form (`1`, `1`, `1500m`).
/// - Where Go has no suffix for a power of ten (`DecimalSI` beyond `E` or
///   below `n`, as in `1000E`, which Go writes as `1`), this type writes
///   the exponent form (`1e21`), so that the value survives the round trip.
/// - Values hold at most 38 significant digits (any `i128` mantissa) and
///   a power of ten within ±(2^62 − 1); Go's are unbounded. Parsing more
///   is an error; arithmetic that needs more gives `None` from the
///   `checked_*` methods and panics in the operators. A `BinarySI` whole
///   number beyond 10^99, which only arithmetic can make, is written in
///   `DecimalSI`.
/// - Go reads exponents beyond `i32` wrapped (`1e4294967296` is 1); here
///   they are exact, and one below nano rounds up to `1n`.
/// - [`value`](Quantity::value) and friends round away from zero and
///   saturate. Go's overflow, and for negative values it keeps internally
///   as big decimals it truncates and then adds one (`-1.1Ki` gives -1125
///   there, -1127 here).
/// - Deserializing: a JSON number arrives as `u64`, `i64` or `f64`, not as
///   its text, so `1e3` gives `1k` in `DecimalSI` (Go: `1e3`,
///   `DecimalExponent`), and a number beyond the integers or with more
///   than 17 significant digits is rounded to `f64`. `null` is an error
///   (use `Option<Quantity>`), where Go reads it as zero.
#[derive(Clone, Copy)]
pub struct Quantity {
    /// No trailing decimal zeros, never `i128::MIN`; 0 has exponent 0.
    mantissa: i128,
    /// The power of ten, within ±[`MAX_EXPONENT`].
    exponent: i64,
    format: QuantityFormat,
}

/// The quantity `mantissa × 10^exponent` in its normalized form, or `None`
/// if it does not fit.
fn normalize(mantissa: i128, exponent: i64, format: QuantityFormat) -> Option<Quantity> {
    if mantissa == 0 {
        return Some(Quantity {
            mantissa: 0,
            exponent: 0,
            format,
        });
    }
    if mantissa == i128::MIN {
        return None;
    }
    let (mut m, mut e) = (mantissa, exponent);
    while m % 10 == 0 {
        m /= 10;
        e = e.checked_add(1)?;
    }
    (-MAX_EXPONENT..=MAX_EXPONENT)
        .contains(&e)
        .then_some(Quantity {
            mantissa: m,
            exponent: e,
            format,
        })
}

/// 10^k, if it fits.
fn pow10(k: i64) -> Option<i128> {
    10i128.checked_pow(u32::try_from(k).ok()?)
}

/// `m × 10^k` for `k ≥ 0`, if it fits.
fn scale_up(m: i128, k: i64) -> Option<i128> {
    if m == 0 {
        return Some(0);
    }
    m.checked_mul(pow10(k)?)
}

/// The number of decimal digits of `n > 0`.
fn digit_count(n: u128) -> i64 {
    i64::from(n.ilog10()) + 1
}

/// Compares `a × 10^ea` with `b × 10^eb` for `a, b > 0`.
fn cmp_magnitude(a: u128, ea: i64, b: u128, eb: i64) -> Ordering {
    // The position of the leading digit decides, unless it is the same.
    let order = (digit_count(a) + ea).cmp(&(digit_count(b) + eb));
    if order != Ordering::Equal {
        return order;
    }
    // Same leading position: the exponents differ by less than 40 digits.
    let widen = |x: u128, k: i64| {
        u32::try_from(k)
            .ok()
            .and_then(|k| 10u128.checked_pow(k))
            .and_then(|p| x.checked_mul(p))
    };
    match ea.cmp(&eb) {
        Ordering::Equal => a.cmp(&b),
        // A widened value that overflows is larger than any u128.
        Ordering::Greater => widen(a, ea - eb).map_or(Ordering::Greater, |x| x.cmp(&b)),
        Ordering::Less => widen(b, eb - ea).map_or(Ordering::Less, |y| a.cmp(&y)),
    }
}

/// The digits of a quantity's number, the integer digits followed by the
/// fraction digits, without copying them.
struct Digits<'a> {
    int: &'a [u8],
    frac: &'a [u8],
}

impl Digits<'_> {
    fn len(&self) -> usize {
        self.int.len() + self.frac.len()
    }

    fn get(&self, i: usize) -> u8 {
        if i < self.int.len() {
            self.int[i]
        } else {
            self.frac[i - self.int.len()]
        }
    }

    /// Digits `start..=end` as an integer, if it fits.
    fn to_i128(&self, start: usize, end: usize) -> Option<i128> {
        (start..=end).try_fold(0i128, |acc, i| {
            acc.checked_mul(10)?
                .checked_add(i128::from(self.get(i) - b'0'))
        })
    }
}

/// The suffix of a quantity string, interpreted.
enum Suffix {
    /// Times 10^e.
    Decimal(i64, QuantityFormat),
    /// Times 2^b, `BinarySI`.
    Binary(u32),
}

fn interpret_suffix(suffix: &str) -> Option<Suffix> {
    use QuantityFormat::DecimalSI;
    Some(match suffix {
        "" => Suffix::Decimal(0, DecimalSI),
        "n" => Suffix::Decimal(-9, DecimalSI),
        "u" => Suffix::Decimal(-6, DecimalSI),
        "m" => Suffix::Decimal(-3, DecimalSI),
        "k" => Suffix::Decimal(3, DecimalSI),
        "M" => Suffix::Decimal(6, DecimalSI),
        "G" => Suffix::Decimal(9, DecimalSI),
        "T" => Suffix::Decimal(12, DecimalSI),
        "P" => Suffix::Decimal(15, DecimalSI),
        "E" => Suffix::Decimal(18, DecimalSI),
        "Ki" => Suffix::Binary(10),
        "Mi" => Suffix::Binary(20),
        "Gi" => Suffix::Binary(30),
        "Ti" => Suffix::Binary(40),
        "Pi" => Suffix::Binary(50),
        "Ei" => Suffix::Binary(60),
        _ if suffix.len() > 1 && suffix.starts_with(['e', 'E']) => {
            // Go's strconv.ParseInt(s, 10, 64): optional sign, digits.
            let e: i64 = suffix[1..].parse().ok()?;
            Suffix::Decimal(e, QuantityFormat::DecimalExponent)
        }
        _ => return None,
    })
}

impl Quantity {
    /// Parses a quantity as Go's `resource.ParseQuantity` does (see the
    /// type's documentation). Leading or trailing whitespace is an error.
    ///
    /// ```
    /// use api_core::meta::Quantity;
    ///
    /// assert_eq!(Quantity::parse("0.5").unwrap().to_string(), "500m");
    /// assert_eq!(Quantity::parse("3.001n").unwrap().to_string(), "4n");
    /// let err = Quantity::parse("1Kb").unwrap_err();
    /// assert!(err.to_string().ends_with(r#": "1Kb""#));
    /// ```
    pub fn parse(s: &str) -> Result<Quantity, QuantityParseError> {
        let err = |kind| QuantityParseError::new(s, kind);
        let b = s.as_bytes();
        if b.is_empty() {
            return Err(err(ParseErrorKind::Format));
        }
        // [+-]? [0-9]* (\. [0-9]*)? [eEinumkKMGTP]* [+-]? [0-9]*
        let mut i = 0;
        let negative = match b[0] {
            b'-' => {
                i = 1;
                true
            }
            b'+' => {
                i = 1;
                false
            }
            _ => false,
        };
        let run = |i: &mut usize, pred: fn(&u8) -> bool| {
            let start = *i;
            while *i < b.len() && pred(&b[*i]) {
                *i += 1;
            }
            &b[start..*i]
        };
        let int = run(&mut i, u8::is_ascii_digit);
        let mut frac: &[u8] = &[];
        if i < b.len() && b[i] == b'.' {
            i += 1;
            frac = run(&mut i, u8::is_ascii_digit);
        }
        let suffix_start = i;
        run(&mut i, |c| b"eEinumkKMGTP".contains(c));
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        run(&mut i, u8::is_ascii_digit);
        if i != b.len() {
            return Err(err(ParseErrorKind::Format));
        }
        let suffix =
            interpret_suffix(&s[suffix_start..]).ok_or_else(|| err(ParseErrorKind::Suffix))?;

        if int.is_empty() && frac.is_empty() {
            // A number without digits (`-`, `.`, `Ki`) is zero, except
            // where Go takes its exact path, which needs a digit.
            let (exact_path, format) = match suffix {
                Suffix::Decimal(e, format) => (e < NANO, format),
                Suffix::Binary(b) => (b >= 50, QuantityFormat::BinarySI),
            };
            if exact_path {
                return Err(err(ParseErrorKind::Numeric));
            }
            return Ok(Quantity::zero(format));
        }
        match suffix {
            Suffix::Decimal(e, format) => {
                parse_decimal(&Digits { int, frac }, e, negative, format).map_err(err)
            }
            Suffix::Binary(b) => Ok(parse_binary(int, frac, b, negative)),
        }
    }

    fn zero(format: QuantityFormat) -> Quantity {
        Quantity {
            mantissa: 0,
            exponent: 0,
            format,
        }
    }

    /// `value` in `format`: Go's `NewQuantity(value, format)`.
    ///
    /// ```
    /// use api_core::meta::{Quantity, QuantityFormat};
    ///
    /// assert_eq!(Quantity::new(5 << 30, QuantityFormat::BinarySI).to_string(), "5Gi");
    /// assert_eq!(Quantity::new(5_000_000_000, QuantityFormat::DecimalSI).to_string(), "5G");
    /// ```
    pub fn new(value: i64, format: QuantityFormat) -> Quantity {
        Quantity::from_scaled(i128::from(value), 0, format)
    }

    /// `value / 1000` in `format`: Go's `NewMilliQuantity(value, format)`.
    pub fn new_milli(value: i64, format: QuantityFormat) -> Quantity {
        Quantity::from_scaled(i128::from(value), -3, format)
    }

    /// `value × 10^scale` in `DecimalSI`: Go's
    /// `NewScaledQuantity(value, scale)`. Nothing is rounded: a scale below
    /// nano keeps its precision, as in Go.
    pub fn new_scaled(value: i64, scale: i32) -> Quantity {
        Quantity::from_scaled(
            i128::from(value),
            i64::from(scale),
            QuantityFormat::DecimalSI,
        )
    }

    fn from_scaled(value: i128, scale: i64, format: QuantityFormat) -> Quantity {
        // An i64 times a power of ten within i32 always normalizes.
        normalize(value, scale, format).unwrap_or(Quantity::zero(format))
    }

    /// The format the quantity is written in.
    pub fn format(&self) -> QuantityFormat {
        self.format
    }

    /// Changes the format the quantity is written in (Go lets callers set
    /// `q.Format` at will); the value is unchanged.
    pub fn set_format(&mut self, format: QuantityFormat) {
        self.format = format;
    }

    /// The same value, written in `format`.
    pub fn with_format(mut self, format: QuantityFormat) -> Quantity {
        self.format = format;
        self
    }

    /// Whether the value is zero.
    pub fn is_zero(&self) -> bool {
        self.mantissa == 0
    }

    /// -1, 0 or 1 as the value is negative, zero or positive (Go's `Sign()`).
    pub fn sign(&self) -> i32 {
        self.mantissa.signum() as i32
    }

    /// The value rounded up, away from zero, to a whole number (Go's
    /// `Value()`: `2.1` gives 3, `-2.1` gives -3). Saturates at the bounds
    /// of `i64` (Go's result overflows).
    pub fn value(&self) -> i64 {
        self.scaled_value(0)
    }

    /// The value in thousandths, rounded up away from zero (Go's
    /// `MilliValue()`: `1.5` gives 1500, `1n` gives 1). Saturates at the
    /// bounds of `i64`.
    pub fn milli_value(&self) -> i64 {
        self.scaled_value(-3)
    }

    /// The value divided by `10^scale`, rounded up away from zero (Go's
    /// `ScaledValue(scale)`): `new(1, _).scaled_value(-3)` is 1000.
    /// Saturates at the bounds of `i64`.
    pub fn scaled_value(&self, scale: i32) -> i64 {
        let m = self.mantissa;
        if m == 0 {
            return 0;
        }
        let shift = self.exponent - i64::from(scale);
        let scaled = if shift >= 0 {
            scale_up(m, shift)
        } else {
            match pow10(-shift) {
                // |m| < 10^39 ≤ 10^-shift: a nonzero fraction rounds to ±1.
                None => Some(m.signum()),
                Some(p) => Some(m / p + if m % p != 0 { m.signum() } else { 0 }),
            }
        };
        match scaled {
            Some(v) => i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX }),
            None if m < 0 => i64::MIN,
            None => i64::MAX,
        }
    }

    /// The value as an `i64` when it is a whole number within range, else
    /// `None`. (Go's `AsInt64()` depends on the internal representation;
    /// this does not.)
    pub fn as_i64(&self) -> Option<i64> {
        if self.exponent < 0 {
            return None; // normalized: a negative exponent is a fraction
        }
        i64::try_from(scale_up(self.mantissa, self.exponent)?).ok()
    }

    /// Rounds the value up, away from zero, to a multiple of `10^scale`
    /// (Go's `RoundUp(scale)`: `9.01` at scale -1 gives `9.1`). Returns
    /// whether the value was already such a multiple (nothing was lost).
    pub fn round_up(&mut self, scale: i32) -> bool {
        let scale = i64::from(scale);
        if self.mantissa == 0 || self.exponent >= scale {
            return true;
        }
        let m = self.mantissa;
        let rounded = match pow10(scale - self.exponent) {
            Some(p) => m / p + m.signum(), // normalized: m % p != 0
            None => m.signum(),
        };
        // |rounded| ≤ |m|, and the exponent rises: this always fits.
        if let Some(q) = normalize(rounded, scale, self.format) {
            *self = q;
        }
        false
    }

    /// `self + rhs`, or `None` if the exact sum needs more than 38
    /// significant digits. The result has the format of `self`, or that
    /// of `rhs` if `self` is zero (Go's `Add`).
    pub fn checked_add(self, rhs: Quantity) -> Option<Quantity> {
        if self.is_zero() {
            return Some(rhs);
        }
        if rhs.is_zero() {
            return Some(self);
        }
        let e = self.exponent.min(rhs.exponent);
        let a = scale_up(self.mantissa, self.exponent - e)?;
        let b = scale_up(rhs.mantissa, rhs.exponent - e)?;
        normalize(a.checked_add(b)?, e, self.format)
    }

    /// `self - rhs`, or `None` if the exact difference needs more than 38
    /// significant digits. The result has the format of `self`, or that
    /// of `rhs` if `self` is zero (Go's `Sub`).
    pub fn checked_sub(self, rhs: Quantity) -> Option<Quantity> {
        self.checked_add(-rhs)
    }

    /// The canonical string into `out` (at most ~70 bytes).
    fn write_canonical(&self, out: &mut impl fmt::Write) -> fmt::Result {
        if self.mantissa == 0 {
            return out.write_char('0');
        }
        if self.format == QuantityFormat::BinarySI && self.exponent >= 0 {
            // A whole number (normalized: a negative exponent is a
            // fraction) of magnitude 1024 or more is written in powers of
            // 1024; anything else in DecimalSI.
            match scale_up(self.mantissa, self.exponent) {
                Some(n) if n.unsigned_abs() >= 1024 => {
                    let (mut n, mut power) = (n, 0);
                    while power < 6 && n % 1024 == 0 {
                        n /= 1024;
                        power += 1;
                    }
                    return write!(out, "{n}{}", BINARY_SUFFIXES[power]);
                }
                Some(_) => {}
                None if self.exponent <= MAX_BINARY_ZEROS => {
                    return write_big_binary(out, self.mantissa, self.exponent);
                }
                None => {}
            }
        }
        // The exponent rounded down to a multiple of 3, its remainder
        // written as zeros.
        let e3 = self.exponent.div_euclid(3) * 3;
        write!(out, "{}", self.mantissa)?;
        for _ in e3..self.exponent {
            out.write_char('0')?;
        }
        let suffix = match e3 {
            -9 => Some("n"),
            -6 => Some("u"),
            -3 => Some("m"),
            0 => Some(""),
            3 => Some("k"),
            6 => Some("M"),
            9 => Some("G"),
            12 => Some("T"),
            15 => Some("P"),
            18 => Some("E"),
            _ => None,
        };
        match suffix {
            Some(si) if self.format != QuantityFormat::DecimalExponent => out.write_str(si),
            _ if e3 == 0 => Ok(()),
            // DecimalExponent, or a power of ten Go has no SI suffix for.
            _ => write!(out, "e{e3}"),
        }
    }
}

const BINARY_SUFFIXES: [&str; 7] = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];

/// The largest power of ten a `BinarySI` value beyond `i128` may carry and
/// still be written in powers of 1024 (Go has no limit); beyond it, it is
/// written as `DecimalSI`. Only arithmetic reaches such values: parsing
/// caps `BinarySI` at 2^63 − 1.
const MAX_BINARY_ZEROS: i64 = 60;

/// `m × 10^e` in powers of 1024, for a whole number too large for `i128`,
/// by long division of its decimal digits.
fn write_big_binary(out: &mut impl fmt::Write, m: i128, e: i64) -> fmt::Result {
    let mut digits = [0u8; 40 + MAX_BINARY_ZEROS as usize];
    let mut len = 0;
    for c in m.unsigned_abs().to_string().bytes() {
        digits[len] = c - b'0';
        len += 1;
    }
    len += e as usize; // zeros
    let mut power = 0;
    while power < 6 {
        // Divide by 1024 in place; stop at the first remainder.
        let mut quotient = digits;
        let mut rem = 0u32;
        for (q, &d) in quotient[..len].iter_mut().zip(&digits[..len]) {
            let cur = rem * 10 + u32::from(d);
            *q = (cur / 1024) as u8;
            rem = cur % 1024;
        }
        if rem != 0 {
            break;
        }
        let skip = quotient[..len].iter().take_while(|&&d| d == 0).count();
        digits[..len - skip].copy_from_slice(&quotient[skip..len]);
        len -= skip;
        power += 1;
    }
    if m < 0 {
        out.write_char('-')?;
    }
    for &d in &digits[..len] {
        out.write_char(char::from(b'0' + d))?;
    }
    out.write_str(BINARY_SUFFIXES[power])
}

/// The decimal suffixes: `digits × 10^e`, rounded up at nano precision.
fn parse_decimal(
    digits: &Digits<'_>,
    e: i64,
    negative: bool,
    format: QuantityFormat,
) -> Result<Quantity, ParseErrorKind> {
    let len = digits.len();
    let Some(first) = (0..len).find(|&i| digits.get(i) != b'0') else {
        return Ok(Quantity::zero(format));
    };
    let last = (first..len)
        .rev()
        .find(|&i| digits.get(i) != b'0')
        .unwrap_or(first);
    // The power of ten of the last nonzero digit (i128: no overflow).
    let last_exp = i128::from(e) - digits.frac.len() as i128 + (len - 1 - last) as i128;
    let (mantissa, exponent) = if last_exp < i128::from(NANO) {
        // Digits below nano are dropped, rounding up (the last is nonzero).
        let keep_end = last as i128 + last_exp - i128::from(NANO);
        let head = if keep_end < first as i128 {
            Some(0)
        } else {
            digits.to_i128(first, keep_end as usize)
        };
        let m = head
            .and_then(|h| h.checked_add(1))
            .ok_or(ParseErrorKind::TooPrecise)?;
        (m, NANO)
    } else {
        if last_exp > i128::from(MAX_EXPONENT) {
            return Err(ParseErrorKind::OutOfRange);
        }
        let m = digits
            .to_i128(first, last)
            .ok_or(ParseErrorKind::TooPrecise)?;
        (m, last_exp as i64)
    };
    let mantissa = if negative { -mantissa } else { mantissa };
    normalize(mantissa, exponent, format).ok_or(ParseErrorKind::OutOfRange)
}

/// The binary suffixes: `int.frac × 2^b`, rounded up at nano precision,
/// capped at 2^63 − 1; `DecimalSI` if its magnitude is below 1.
fn parse_binary(int: &[u8], frac: &[u8], b: u32, negative: bool) -> Quantity {
    let int = &int[int.iter().position(|&c| c != b'0').unwrap_or(int.len())..];
    let frac = &frac[..frac.iter().rposition(|&c| c != b'0').map_or(0, |i| i + 1)];
    const NANOS: u128 = 1_000_000_000;
    let cap = MAX_BINARY * NANOS;
    // The whole part times 2^b; at least 10^19 × 1024 means the cap.
    let whole = if int.len() > 19 {
        None
    } else {
        let i = int
            .iter()
            .fold(0u128, |acc, &c| acc * 10 + u128::from(c - b'0'));
        Some(i << b).filter(|&w| w <= MAX_BINARY)
    };
    let nanos = match whole {
        None => cap,
        Some(whole) => {
            // The fraction times 2^b, by doubling its decimal digits b times.
            // Digits beyond 9 + b places cannot change the rounded result
            // except by being nonzero (they add less than 1/5^b nano, while
            // a fraction of the kept part that is not whole is at least
            // that far below the next nano), so they are dropped.
            let keep = frac.len().min(9 + b as usize);
            let dropped = keep < frac.len();
            let mut f: Vec<u8> = frac[..keep].iter().map(|c| c - b'0').collect();
            let mut carried: u128 = 0;
            for _ in 0..b {
                let mut carry = 0;
                for d in f.iter_mut().rev() {
                    let x = *d * 2 + carry;
                    *d = x % 10;
                    carry = x / 10;
                }
                carried = carried * 2 + u128::from(carry);
            }
            let nano_digits = (0..9).fold(0u128, |acc, i| {
                acc * 10 + u128::from(f.get(i).copied().unwrap_or(0))
            });
            let below = dropped || f.iter().skip(9).any(|&d| d != 0);
            let n = (whole + carried) * NANOS + nano_digits + u128::from(below);
            n.min(cap)
        }
    };
    let format = if nanos > 0 && nanos < NANOS {
        QuantityFormat::DecimalSI
    } else {
        QuantityFormat::BinarySI
    };
    let m = nanos as i128; // ≤ (2^63 − 1) × 10^9
    normalize(if negative { -m } else { m }, NANO, format).unwrap_or(Quantity::zero(format))
}

impl Default for Quantity {
    /// Zero, in `DecimalSI`.
    fn default() -> Self {
        Quantity::zero(QuantityFormat::DecimalSI)
    }
}

impl fmt::Display for Quantity {
    /// The canonical form, as Go's `String()` writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = StackBuf::default();
        self.write_canonical(&mut buf)?;
        f.pad(buf.as_str())
    }
}

impl fmt::Debug for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Quantity")
            .field(&format_args!("{self}"))
            .finish()
    }
}

/// A fixed buffer for the canonical string: the longest is a `BinarySI`
/// whole number of up to 99 digits with its sign and suffix, the longest
/// decimal one a 39-digit mantissa with its sign, two zeros and
/// `e-4611686018427387903`.
struct StackBuf {
    bytes: [u8; 112],
    len: usize,
}

impl Default for StackBuf {
    fn default() -> Self {
        StackBuf {
            bytes: [0; 112],
            len: 0,
        }
    }
}

impl StackBuf {
    fn as_str(&self) -> &str {
        // Only whole `&str`s are ever written.
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

impl fmt::Write for StackBuf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        self.bytes
            .get_mut(self.len..end)
            .ok_or(fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl FromStr for Quantity {
    type Err = QuantityParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Quantity::parse(s)
    }
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        // Normalized: one representation per value.
        self.mantissa == other.mantissa && self.exponent == other.exponent
    }
}

impl Eq for Quantity {}

impl Hash for Quantity {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.mantissa.hash(state);
        self.exponent.hash(state);
    }
}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Quantity {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.mantissa, other.mantissa);
        let by_sign = a.signum().cmp(&b.signum());
        if by_sign != Ordering::Equal || a == 0 {
            return by_sign;
        }
        let magnitude = cmp_magnitude(
            a.unsigned_abs(),
            self.exponent,
            b.unsigned_abs(),
            other.exponent,
        );
        if a < 0 {
            magnitude.reverse()
        } else {
            magnitude
        }
    }
}

impl Neg for Quantity {
    type Output = Quantity;

    /// The negated value, in the same format (Go's `Neg()`).
    fn neg(self) -> Quantity {
        // The mantissa is never i128::MIN.
        Quantity {
            mantissa: -self.mantissa,
            ..self
        }
    }
}

impl Add for Quantity {
    type Output = Quantity;

    /// The exact sum; its format is that of `self`, or that of `rhs` if
    /// `self` is zero (Go's `Add`).
    ///
    /// # Panics
    ///
    /// If the sum needs more than 38 significant digits (`1e30 + 1n`); use
    /// [`Quantity::checked_add`] where that can happen.
    fn add(self, rhs: Quantity) -> Quantity {
        self.checked_add(rhs).unwrap_or_else(|| {
            panic!("quantity overflow: {self} + {rhs} needs more than 38 significant digits")
        })
    }
}

impl Sub for Quantity {
    type Output = Quantity;

    /// The exact difference; its format is that of `self`, or that of
    /// `rhs` if `self` is zero (Go's `Sub`).
    ///
    /// # Panics
    ///
    /// If the difference needs more than 38 significant digits; use
    /// [`Quantity::checked_sub`] where that can happen.
    fn sub(self, rhs: Quantity) -> Quantity {
        self.checked_sub(rhs).unwrap_or_else(|| {
            panic!("quantity overflow: {self} - {rhs} needs more than 38 significant digits")
        })
    }
}

impl AddAssign for Quantity {
    fn add_assign(&mut self, rhs: Quantity) {
        *self = *self + rhs;
    }
}

impl SubAssign for Quantity {
    fn sub_assign(&mut self, rhs: Quantity) {
        *self = *self - rhs;
    }
}

impl Sum for Quantity {
    /// The sum, from zero; panics as [`Add`] does.
    fn sum<I: Iterator<Item = Quantity>>(iter: I) -> Quantity {
        iter.fold(Quantity::default(), Add::add)
    }
}

impl<'a> Sum<&'a Quantity> for Quantity {
    /// The sum, from zero; panics as [`Add`] does.
    fn sum<I: Iterator<Item = &'a Quantity>>(iter: I) -> Quantity {
        iter.copied().sum()
    }
}

impl Serialize for Quantity {
    /// The canonical string.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Quantity {
    /// A string (surrounding whitespace trimmed, as Go's `UnmarshalJSON`
    /// does) or a number (an integer exactly; a float from its shortest
    /// decimal form, in `DecimalSI`).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(QuantityVisitor)
    }
}

struct QuantityVisitor;

impl<'de> Visitor<'de> for QuantityVisitor {
    type Value = Quantity;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a quantity: a string such as \"500m\" or \"1Gi\", or a number")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Quantity, E> {
        Quantity::parse(v.trim()).map_err(E::custom)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Quantity, E> {
        Ok(Quantity::new(v, QuantityFormat::DecimalSI))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Quantity, E> {
        Ok(Quantity::from_scaled(
            i128::from(v),
            0,
            QuantityFormat::DecimalSI,
        ))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Quantity, E> {
        normalize(v, 0, QuantityFormat::DecimalSI)
            .ok_or_else(|| E::invalid_value(Unexpected::Other("integer out of range"), &self))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Quantity, E> {
        let v = i128::try_from(v)
            .map_err(|_| E::invalid_value(Unexpected::Other("integer out of range"), &self))?;
        self.visit_i128(v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Quantity, E> {
        if !v.is_finite() {
            return Err(E::invalid_value(Unexpected::Float(v), &self));
        }
        // Rust writes the shortest decimal that reads back as `v`, without
        // an exponent: a plain quantity string.
        Quantity::parse(&v.to_string()).map_err(E::custom)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Quantity, E> {
        Err(E::invalid_type(Unexpected::Other("null"), &self))
    }
}

impl JsonSchema for Quantity {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Quantity")
    }

    fn inline_schema() -> bool {
        true
    }

    /// What controller-gen writes for `resource.Quantity`.
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "anyOf": [{ "type": "integer" }, { "type": "string" }],
            "pattern": r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$",
            "x-kubernetes-int-or-string": true
        })
    }
}

impl ApiType for Quantity {
    const FACTS: &'static TypeFacts = &TypeFacts::scalar(Kind::IntOrString, 0);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Quantity {
        Quantity::parse(s).unwrap_or_else(|e| panic!("{e}"))
    }

    fn parts(s: &str) -> (i128, i64, QuantityFormat) {
        let q = q(s);
        (q.mantissa, q.exponent, q.format)
    }

    #[test]
    fn representation_is_normalized() {
        use QuantityFormat::*;
        assert_eq!(parts("1000"), (1, 3, DecimalSI));
        assert_eq!(parts("1.500"), (15, -1, DecimalSI));
        assert_eq!(parts("0.0"), (0, 0, DecimalSI));
        assert_eq!(parts("-0e7"), (0, 0, DecimalExponent));
        assert_eq!(parts("1Ki"), (1024, 0, BinarySI));
        assert_eq!(parts("0.5Ki"), (512, 0, BinarySI));
        assert_eq!(parts("1.1Ki"), (11264, -1, BinarySI));
        assert_eq!(Quantity::new(-1000, DecimalSI).mantissa, -1);
        assert_eq!(Quantity::new_scaled(0, 7).exponent, 0);
    }

    #[test]
    fn digitless_numbers_are_zero_unless_go_needs_a_digit() {
        for s in [
            "-", "+", ".", "-.", "Ki", "Ti", "k", "E", "n", "e5", "e-9", "-.Gi",
        ] {
            assert!(q(s).is_zero(), "{s}");
        }
        for s in ["Pi", "Ei", ".Ei", "e-10", "-e-20", ".e-20"] {
            let err = Quantity::parse(s).unwrap_err();
            assert_eq!(err.kind, ParseErrorKind::Numeric, "{s}");
        }
        assert_eq!(q("Ki").format(), QuantityFormat::BinarySI);
    }

    #[test]
    fn decimal_rounding_at_nano() {
        assert_eq!(parts("0.0000000001"), (1, -9, QuantityFormat::DecimalSI));
        assert_eq!(
            parts("1e-1000000"),
            (1, -9, QuantityFormat::DecimalExponent)
        );
        assert_eq!(
            parts("-1e-4611686018427387904"),
            (-1, -9, QuantityFormat::DecimalExponent)
        );
        assert_eq!(
            parts("0.0000000019999999999"),
            (2, -9, QuantityFormat::DecimalSI)
        );
        assert_eq!(
            parts("0.00000000999999999999"),
            (1, -8, QuantityFormat::DecimalSI)
        );
        assert_eq!(
            parts("1.0000000000000000000000000001"),
            (1_000_000_001, -9, QuantityFormat::DecimalSI)
        );
    }

    #[test]
    fn binary_rounding_keeps_enough_digits() {
        // 2^-60 Ei is exactly 1; a digit far beyond nano still rounds up.
        let one = "0.000000000000000000867361737988403547205962240695953369140625Ei";
        assert_eq!(q(one), q("1"));
        let just_above = format!("{}00000000001Ei", &one[..one.len() - 2]);
        assert_eq!(q(&just_above), q("1.000000001"));
        let just_below = "0.000000000000000000867361737988403547205962240695953369140624Ei";
        assert_eq!(q(just_below), q("1"));
        assert_eq!(q("0.000000000001Ki"), q("2n"));
        assert_eq!(q("0.000000000001Ki").format(), QuantityFormat::DecimalSI);
        // Capped at 2^63 - 1, however long the input.
        let huge = format!("{}Ki", "9".repeat(100));
        assert_eq!(q(&huge).as_i64(), Some(i64::MAX));
        assert_eq!(q("-8Ei").as_i64(), Some(i64::MIN + 1));
        assert_eq!(q("7.99999999999999999999Ei").value(), i64::MAX);
    }

    #[test]
    fn too_many_digits_and_huge_exponents_are_errors() {
        let digits = "2".repeat(39);
        assert_eq!(
            Quantity::parse(&digits).unwrap_err().kind,
            ParseErrorKind::TooPrecise
        );
        assert!(Quantity::parse(&"1".repeat(38)).is_ok());
        let zeros = format!("1{}", "0".repeat(1000));
        assert_eq!(parts(&zeros), (1, 1000, QuantityFormat::DecimalSI));
        assert_eq!(
            Quantity::parse("1e9223372036854775807").unwrap_err().kind,
            ParseErrorKind::OutOfRange
        );
        assert_eq!(
            Quantity::parse("1e9223372036854775808").unwrap_err().kind,
            ParseErrorKind::Suffix
        );
    }

    #[test]
    fn magnitude_comparison() {
        assert_eq!(cmp_magnitude(1, 3, 1000, 0), Ordering::Equal);
        assert_eq!(cmp_magnitude(999, 0, 1, 3), Ordering::Less);
        assert_eq!(cmp_magnitude(u128::MAX, 0, 1, 39), Ordering::Less);
        assert_eq!(cmp_magnitude(34, 37, u128::MAX, 0), Ordering::Less);
        assert_eq!(cmp_magnitude(35, 37, u128::MAX, 0), Ordering::Greater);
        assert_eq!(
            cmp_magnitude(1, i64::MAX / 4, 9, -(i64::MAX / 4)),
            Ordering::Greater
        );
    }

    #[test]
    fn arithmetic_overflow_is_none() {
        assert_eq!(q("1e30").checked_add(q("1n")), None);
        assert_eq!(
            q("1e20").checked_add(q("1n")),
            Some(q("100000000000000000000000000001n"))
        );
        let max = Quantity {
            mantissa: i128::MAX,
            exponent: 0,
            format: QuantityFormat::DecimalSI,
        };
        assert_eq!(max.checked_add(q("1")), None);
        assert_eq!((-max).checked_sub(q("1")), None);
        assert_eq!(max.checked_sub(max), Some(Quantity::default()));
    }

    #[test]
    fn canonical_edge_forms() {
        let write = |m: i128, e: i64, format| normalize(m, e, format).unwrap().to_string();
        assert_eq!(write(1, 21, QuantityFormat::DecimalSI), "1e21");
        assert_eq!(write(1, -12, QuantityFormat::DecimalSI), "1e-12");
        assert_eq!(write(1, 20, QuantityFormat::DecimalSI), "100E");
        assert_eq!(
            write(1, MAX_EXPONENT, QuantityFormat::DecimalExponent),
            "1e4611686018427387903"
        );
        assert_eq!(
            write(10, MAX_EXPONENT - 2, QuantityFormat::DecimalSI),
            "100e4611686018427387900"
        );
        let longest = write(-i128::MAX, 2 - MAX_EXPONENT, QuantityFormat::DecimalSI);
        assert_eq!(longest, format!("{}00e-4611686018427387903", -i128::MAX));
        // 2^70: beyond Ei, the mantissa takes the rest.
        assert_eq!(write(1 << 70, 0, QuantityFormat::BinarySI), "1024Ei");
        assert_eq!(write(-1024, 0, QuantityFormat::BinarySI), "-1Ki");
        assert_eq!(write(-1023, 0, QuantityFormat::BinarySI), "-1023");
        // Whole numbers beyond i128, by long division.
        assert_eq!(
            write(1, 50, QuantityFormat::BinarySI),
            format!("{}Pi", 5i128.pow(50))
        );
        assert_eq!(
            write(-i128::MAX, MAX_BINARY_ZEROS, QuantityFormat::BinarySI),
            "-147573952589676412927999999999999999999132638262011596452794037759304046630859375Ei"
        );
        assert_eq!(
            write(3, 39, QuantityFormat::BinarySI),
            "2793967723846435546875000000000Gi"
        );
        // Beyond MAX_BINARY_ZEROS, DecimalSI.
        assert_eq!(write(3, 70, QuantityFormat::BinarySI), "30e69");
        assert_eq!(format!("{:>6}|{:<4}|", q("1Ki"), q("5")), "   1Ki|5   |");
        assert_eq!(format!("{:?}", q("1.5Gi")), "Quantity(1536Mi)");
    }

    #[test]
    fn scaled_values_round_away_from_zero_and_saturate() {
        assert_eq!(q("-9.01").value(), -10);
        assert_eq!(q("-1n").value(), -1);
        assert_eq!(q("1n").milli_value(), 1);
        assert_eq!(q("1e-9").scaled_value(i32::MAX), 1);
        assert_eq!(q("12E").value(), i64::MAX);
        assert_eq!(q("-12E").value(), i64::MIN);
        assert_eq!(q("1e100").value(), i64::MAX);
        assert_eq!(q("9Ei").milli_value(), i64::MAX);
        assert_eq!(q("1.5").as_i64(), None);
        assert_eq!(q("1k").as_i64(), Some(1000));
        assert_eq!(q("1e19").as_i64(), None);
    }

    #[test]
    fn hash_follows_equality() {
        use std::collections::HashSet;
        let set: HashSet<Quantity> = ["1Gi", "1024Mi", "1073741824", "1073741824e0"]
            .into_iter()
            .map(q)
            .collect();
        assert_eq!(set.len(), 1);
    }

    #[test]
    fn facts_are_int_or_string() {
        assert_eq!(<Quantity as ApiType>::FACTS.kind, Kind::IntOrString);
        assert!(<Quantity as JsonSchema>::inline_schema());
    }
}
