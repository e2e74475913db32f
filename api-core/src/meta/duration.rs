//! `Duration`: meta/v1 `Duration`, a signed nanosecond count written as a
//! Go duration string (`"1h30m0s"`).

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::__private::Keywords;
use crate::api_type::ApiType;
use crate::checks;
use crate::facts::{self, Kind, TypeFacts};
use crate::validation::{ErrorList, FieldPath};

const NANOS_PER_MICRO: u64 = 1_000;
const NANOS_PER_MILLI: u64 = 1_000_000;
const NANOS_PER_SEC: u64 = 1_000_000_000;
/// 2^63: the magnitude of the most negative duration.
const TWO_POW_63: u64 = 1 << 63;

/// A span of time, meta/v1 `Duration`: a signed count of nanoseconds
/// (Go's `time.Duration`, ±292 years), written in JSON as Go writes it
/// (`"1h30m0s"`, `"1.5s"`, `"-2m0s"`, `"1.5µs"`, `"0s"`).
///
/// Parsing accepts everything Go's `time.ParseDuration` accepts: an
/// optional sign, then one or more decimal numbers (with an optional
/// fraction) each followed by a unit, `ns`, `us` (or `µs` U+00B5, `μs`
/// U+03BC), `ms`, `s`, `m` or `h` (`"2h45m"`, `"1.5h"`, `"-300ms"`,
/// `".5s"`), or `0` alone. A value beyond the `int64` range of nanoseconds
/// is an error. Errors carry Go's messages, which name the input
/// (`time: invalid duration "x"`, `time: unknown unit "d" in duration
/// "1d"`, `time: missing unit in duration "1"`).
///
/// The conventions prefer integers that name their unit
/// (`timeoutSeconds: 30`): the `no_durations` lint reports a field of this
/// type unless it is allowed (`#[kube(allow(no_durations))]`), as real APIs
/// that use `metav1.Duration` do.
///
/// ```
/// use api_core::Duration;
///
/// let d: Duration = "1h30m".parse().unwrap();
/// assert_eq!(d, Duration::from_secs(5400).unwrap());
/// assert_eq!(d.to_string(), "1h30m0s");
/// assert_eq!(serde_json::to_string(&Duration::from_millis(1500).unwrap()).unwrap(), r#""1.5s""#);
/// assert_eq!(
///     "1d".parse::<Duration>().unwrap_err().to_string(),
///     r#"time: unknown unit "d" in duration "1d""#
/// );
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration(i64);

impl Duration {
    /// No time (`"0s"`).
    pub const ZERO: Duration = Duration(0);
    /// The longest duration, `2562047h47m16.854775807s`.
    pub const MAX: Duration = Duration(i64::MAX);
    /// The most negative duration, `-2562047h47m16.854775808s`.
    pub const MIN: Duration = Duration(i64::MIN);
    /// One nanosecond.
    pub const NANOSECOND: Duration = Duration(1);
    /// One microsecond.
    pub const MICROSECOND: Duration = Duration(NANOS_PER_MICRO as i64);
    /// One millisecond.
    pub const MILLISECOND: Duration = Duration(NANOS_PER_MILLI as i64);
    /// One second.
    pub const SECOND: Duration = Duration(NANOS_PER_SEC as i64);
    /// One minute.
    pub const MINUTE: Duration = Duration(60 * NANOS_PER_SEC as i64);
    /// One hour.
    pub const HOUR: Duration = Duration(3600 * NANOS_PER_SEC as i64);

    /// `nanos` nanoseconds (negative for a negative duration).
    pub const fn from_nanos(nanos: i64) -> Self {
        Duration(nanos)
    }

    /// `millis` milliseconds, or `None` beyond ±292 years.
    pub const fn from_millis(millis: i64) -> Option<Self> {
        match millis.checked_mul(NANOS_PER_MILLI as i64) {
            Some(n) => Some(Duration(n)),
            None => None,
        }
    }

    /// `secs` seconds, or `None` beyond ±292 years.
    pub const fn from_secs(secs: i64) -> Option<Self> {
        match secs.checked_mul(NANOS_PER_SEC as i64) {
            Some(n) => Some(Duration(n)),
            None => None,
        }
    }

    /// The duration in nanoseconds.
    pub const fn as_nanos(&self) -> i64 {
        self.0
    }

    /// Whole milliseconds, truncated toward zero.
    pub const fn as_millis(&self) -> i64 {
        self.0 / NANOS_PER_MILLI as i64
    }

    /// Whole seconds, truncated toward zero (`-1.5s` is `-1`).
    pub const fn as_secs(&self) -> i64 {
        self.0 / NANOS_PER_SEC as i64
    }

    /// Seconds with the fraction, as Go's `Seconds()`.
    pub fn as_secs_f64(&self) -> f64 {
        let secs = self.0 / NANOS_PER_SEC as i64;
        let nanos = self.0 % NANOS_PER_SEC as i64;
        secs as f64 + nanos as f64 / 1e9
    }

    /// Whether the duration is below zero.
    pub const fn is_negative(&self) -> bool {
        self.0 < 0
    }

    /// Parses a Go duration string; see the type's documentation.
    pub fn parse(s: &str) -> Result<Self, DurationParseError> {
        parse_go_duration(s).map(Duration)
    }
}

/// Why a duration string could not be parsed. The message is Go's
/// `time.ParseDuration` error, naming the input (non-ASCII characters
/// escaped as Go escapes them: `"\xc2\xb5x"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DurationParseError {
    input: String,
    kind: ParseErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ParseErrorKind {
    Invalid,
    MissingUnit,
    UnknownUnit(String),
}

impl DurationParseError {
    /// The string that did not parse.
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl fmt::Display for DurationParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let input = quote(&self.input);
        match &self.kind {
            ParseErrorKind::Invalid => write!(f, "time: invalid duration {input}"),
            ParseErrorKind::MissingUnit => write!(f, "time: missing unit in duration {input}"),
            ParseErrorKind::UnknownUnit(unit) => {
                write!(f, "time: unknown unit {} in duration {input}", quote(unit))
            }
        }
    }
}

impl std::error::Error for DurationParseError {}

/// How Go's `time` package quotes a string in its errors: `"` and `\`
/// escaped with a backslash, every byte of a non-ASCII or control
/// character as `\xNN`.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c.is_ascii() && c >= ' ' {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        } else {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        }
    }
    out.push('"');
    out
}

/// The nanoseconds of a unit, or `None` for an unknown unit.
fn unit_nanos(unit: &str) -> Option<u64> {
    Some(match unit {
        "ns" => 1,
        "us" | "\u{b5}s" | "\u{3bc}s" => NANOS_PER_MICRO,
        "ms" => NANOS_PER_MILLI,
        "s" => NANOS_PER_SEC,
        "m" => 60 * NANOS_PER_SEC,
        "h" => 3600 * NANOS_PER_SEC,
        _ => return None,
    })
}

/// The number of leading ASCII digits of `b`.
fn digits(b: &[u8]) -> usize {
    b.iter().take_while(|c| c.is_ascii_digit()).count()
}

/// The grammar is `[-+]?([0-9]*(\.[0-9]*)?[^0-9.]+)+` or `[-+]?0`. The
/// magnitude is summed as an unsigned count that may reach 2^63 (the
/// magnitude of the most negative duration); the sign is applied last.
fn parse_go_duration(s: &str) -> Result<i64, DurationParseError> {
    let err = |kind| DurationParseError {
        input: s.to_string(),
        kind,
    };
    let b = s.as_bytes();
    let mut i = 0;
    let negative = b.first() == Some(&b'-');
    if matches!(b.first(), Some(b'-' | b'+')) {
        i = 1;
    }
    if &b[i..] == b"0" {
        return Ok(0);
    }
    if i == b.len() {
        return Err(err(ParseErrorKind::Invalid));
    }
    let mut total: u64 = 0;
    while i < b.len() {
        if !(b[i] == b'.' || b[i].is_ascii_digit()) {
            return Err(err(ParseErrorKind::Invalid));
        }
        // The whole part: at most 2^63.
        let n = digits(&b[i..]);
        let mut whole: u64 = 0;
        for &c in &b[i..i + n] {
            whole = whole
                .checked_mul(10)
                .and_then(|w| w.checked_add(u64::from(c - b'0')))
                .filter(|&w| w <= TWO_POW_63)
                .ok_or_else(|| err(ParseErrorKind::Invalid))?;
        }
        i += n;
        // The fraction: digits are taken while the numerator stays within
        // 2^63 and ignored after that (they are below any precision).
        let mut fraction: u64 = 0;
        let mut scale: f64 = 1.0;
        let mut fraction_digits = 0;
        if b.get(i) == Some(&b'.') {
            i += 1;
            fraction_digits = digits(&b[i..]);
            for &c in &b[i..i + fraction_digits] {
                if fraction > (TWO_POW_63 - 1) / 10 {
                    break;
                }
                // At most 10 × 922337203685477580 + 9: no overflow.
                let next = fraction * 10 + u64::from(c - b'0');
                if next > TWO_POW_63 {
                    break;
                }
                fraction = next;
                scale *= 10.0;
            }
            i += fraction_digits;
        }
        if n == 0 && fraction_digits == 0 {
            // No digits at all: ".s", "-.".
            return Err(err(ParseErrorKind::Invalid));
        }
        // The unit: everything up to the next number.
        let unit_len = b[i..]
            .iter()
            .take_while(|&&c| c != b'.' && !c.is_ascii_digit())
            .count();
        if unit_len == 0 {
            return Err(err(ParseErrorKind::MissingUnit));
        }
        // The unit ends at an ASCII byte or at the end: a char boundary.
        let unit_str = &s[i..i + unit_len];
        i += unit_len;
        let unit = unit_nanos(unit_str)
            .ok_or_else(|| err(ParseErrorKind::UnknownUnit(unit_str.to_string())))?;
        if whole > TWO_POW_63 / unit {
            return Err(err(ParseErrorKind::Invalid));
        }
        let mut value = whole * unit;
        if fraction > 0 {
            // Go computes the fraction in float64 (nanosecond-accurate for
            // fractions of an hour), truncating; so does this, so that
            // "0.3333333333333333333h" is exactly 20m as in Go.
            value += (fraction as f64 * (unit as f64 / scale)) as u64;
            if value > TWO_POW_63 {
                return Err(err(ParseErrorKind::Invalid));
            }
        }
        total = total
            .checked_add(value)
            .filter(|&t| t <= TWO_POW_63)
            .ok_or_else(|| err(ParseErrorKind::Invalid))?;
    }
    if negative {
        Ok(0i64.wrapping_sub_unsigned(total))
    } else {
        i64::try_from(total).map_err(|_| err(ParseErrorKind::Invalid))
    }
}

/// Appends `.digits` for `value`, a fraction with `places` decimal places,
/// without trailing zeros; nothing when it is zero.
fn push_fraction(out: &mut String, value: u64, places: usize) {
    if value == 0 {
        return;
    }
    let digits = format!("{value:0places$}");
    out.push('.');
    out.push_str(digits.trim_end_matches('0'));
}

/// Go's `Duration.String()`: `72h3m0.5s`, `1.5µs`, `100ns`, `0s`.
/// Sub-second durations use the largest of `ns`, `µs` and `ms` below them;
/// longer ones are hours, minutes and seconds, starting at the largest
/// non-zero unit, with the seconds' fraction.
impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("0s");
        }
        let mut out = String::with_capacity(25);
        if self.0 < 0 {
            out.push('-');
        }
        let u = self.0.unsigned_abs();
        if u < NANOS_PER_SEC {
            let (unit, per, places) = if u < NANOS_PER_MICRO {
                ("ns", 1, 0)
            } else if u < NANOS_PER_MILLI {
                ("\u{b5}s", NANOS_PER_MICRO, 3)
            } else {
                ("ms", NANOS_PER_MILLI, 6)
            };
            out.push_str(&(u / per).to_string());
            push_fraction(&mut out, u % per, places);
            out.push_str(unit);
        } else {
            let secs = u / NANOS_PER_SEC;
            let (hours, minutes, seconds) = (secs / 3600, secs / 60 % 60, secs % 60);
            if hours > 0 {
                out.push_str(&format!("{hours}h"));
            }
            if secs >= 60 {
                out.push_str(&format!("{minutes}m"));
            }
            out.push_str(&seconds.to_string());
            push_fraction(&mut out, u % NANOS_PER_SEC, 9);
            out.push('s');
        }
        f.write_str(&out)
    }
}

impl FromStr for Duration {
    type Err = DurationParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Duration::parse(s)
    }
}

/// Why a duration does not convert to or from `std::time::Duration`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DurationRangeError {
    negative: bool,
}

impl fmt::Display for DurationRangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative {
            f.write_str("a negative duration cannot be a std::time::Duration")
        } else {
            f.write_str(
                "the duration exceeds the longest meta/v1 Duration (2562047h47m16.854775807s)",
            )
        }
    }
}

impl std::error::Error for DurationRangeError {}

/// Fails for a negative duration.
impl TryFrom<Duration> for std::time::Duration {
    type Error = DurationRangeError;
    fn try_from(d: Duration) -> Result<Self, Self::Error> {
        u64::try_from(d.0)
            .map(std::time::Duration::from_nanos)
            .map_err(|_| DurationRangeError { negative: true })
    }
}

/// Fails beyond 2^63 − 1 nanoseconds (about 292 years).
impl TryFrom<std::time::Duration> for Duration {
    type Error = DurationRangeError;
    fn try_from(d: std::time::Duration) -> Result<Self, Self::Error> {
        i64::try_from(d.as_nanos())
            .map(Duration)
            .map_err(|_| DurationRangeError { negative: false })
    }
}

impl Serialize for Duration {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Duration;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a duration string such as \"1h30m\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Duration, E> {
                Duration::parse(v).map_err(E::custom)
            }
        }
        deserializer.deserialize_str(V)
    }
}

impl JsonSchema for Duration {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Duration")
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string" })
    }
}

impl ApiType for Duration {
    /// A string flagged as a duration, so that `no_durations` reports it
    /// through aliases and nested types as well.
    const FACTS: &'static TypeFacts = &TypeFacts::scalar(Kind::String, facts::DURATION);

    /// String keywords (`pattern`, `max_length`, ...) apply to the string
    /// the value is written as.
    fn check_keywords(&self, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
        checks::string(&self.to_string(), kw, path, errors);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_escapes_bytes_like_go() {
        assert_eq!(quote("1\u{b5}x"), r#""1\xc2\xb5x""#);
        assert_eq!(quote("a\"b\\"), r#""a\"b\\""#);
        assert_eq!(quote("\t"), r#""\x09""#);
    }

    #[test]
    fn extremes_format_and_parse() {
        assert_eq!(Duration::MAX.to_string(), "2562047h47m16.854775807s");
        assert_eq!(Duration::MIN.to_string(), "-2562047h47m16.854775808s");
        assert_eq!(
            Duration::parse("-2562047h47m16.854775808s"),
            Ok(Duration::MIN)
        );
        assert_eq!(
            Duration::parse("2562047h47m16.854775807s"),
            Ok(Duration::MAX)
        );
        assert!(Duration::parse("2562047h47m16.854775808s").is_err());
    }

    #[test]
    fn facts_flag_durations() {
        let f = <Duration as ApiType>::FACTS;
        assert_eq!(f.kind, Kind::String);
        assert_ne!(f.flags & facts::DURATION, 0);
    }
}
