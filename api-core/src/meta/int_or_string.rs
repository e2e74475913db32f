//! `IntOrString`: an `int32` or a string in one field (Go's
//! `k8s.io/apimachinery/pkg/util/intstr.IntOrString`), with the percentage
//! helper the workload controllers use (`maxUnavailable: "25%"`).

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Unexpected, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::__private::Keywords;
use crate::api_type::ApiType;
use crate::checks;
use crate::facts::{Kind, TypeFacts};
use crate::validation::{ErrorList, FieldPath, go_quote};

/// An `int32` or a string (intstr `IntOrString`): `port: 8080` or
/// `port: http`, `maxUnavailable: 1` or `maxUnavailable: "25%"`.
///
/// The JSON is the bare number or string. Decoding accepts an integer
/// that fits in `int32` or a string; a fraction (`1.5`), an integer out of
/// the `int32` range, `null`, a boolean, a list or an object is an error
/// that names what was found. A string is kept as a string even when it
/// holds digits (`"80"` stays [`IntOrString::String`]), as in Go.
///
/// The schema is the one controller-gen writes for Go's `IntOrString`:
/// `anyOf: [{type: integer}, {type: string}]` with
/// `x-kubernetes-int-or-string: true`.
///
/// Go's `ValueOrDefault(p, def)` is `p.unwrap_or(def)` on an
/// `Option<IntOrString>`.
///
/// ```
/// use api_core::IntOrString;
///
/// let v: IntOrString = serde_json::from_str(r#""25%""#).unwrap();
/// assert_eq!(v.get_scaled_value_from_int_or_percent(10, true), Ok(3));
/// assert_eq!(serde_json::to_string(&IntOrString::from(8080)).unwrap(), "8080");
/// assert!(serde_json::from_str::<IntOrString>("1.5").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntOrString {
    /// An integer (`8080`).
    Int(i32),
    /// A string (`"http"`, `"25%"`).
    String(String),
}

impl Default for IntOrString {
    /// `Int(0)`, Go's zero value.
    fn default() -> Self {
        IntOrString::Int(0)
    }
}

impl IntOrString {
    /// Go's `intstr.Parse`: an `Int` when `s` is a decimal integer (an
    /// optional sign and digits) that fits in `int32`, a `String` otherwise.
    ///
    /// ```
    /// use api_core::IntOrString;
    /// assert_eq!(IntOrString::parse("80"), IntOrString::Int(80));
    /// assert_eq!(IntOrString::parse("2147483648"), IntOrString::String("2147483648".into()));
    /// ```
    pub fn parse(s: &str) -> Self {
        match s.parse::<i32>() {
            Ok(i) => IntOrString::Int(i),
            Err(_) => IntOrString::String(s.to_string()),
        }
    }

    /// The integer, if this is an `Int`.
    pub fn as_int(&self) -> Option<i32> {
        match self {
            IntOrString::Int(i) => Some(*i),
            IntOrString::String(_) => None,
        }
    }

    /// The string, if this is a `String`.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            IntOrString::Int(_) => None,
            IntOrString::String(s) => Some(s),
        }
    }

    /// Go's `intstr.GetScaledValueFromIntOrPercent`: an `Int` is returned
    /// as it is (`total` is not used); a string must be a percentage, a
    /// decimal integer followed by one `%` (`"25%"`, `"-5%"`, `"+5%"`), and
    /// gives `percent * total / 100`, rounded up when `round_up` and down
    /// otherwise (`"50%"` of 11 is 6 rounded up, 5 rounded down). The
    /// arithmetic is Go's (`float64`), so the results are the same.
    ///
    /// Any other string is an error with Go's message:
    /// `invalid value for IntOrString: invalid type: string is not a
    /// percentage` for a string without `%`, `invalid value for
    /// IntOrString: invalid value "a%": strconv.Atoi: parsing "a": invalid
    /// syntax` for one whose number does not parse. Go returns an `int`
    /// (64 bits); a result that does not fit in `i32` is an error here.
    pub fn get_scaled_value_from_int_or_percent(
        &self,
        total: i32,
        round_up: bool,
    ) -> Result<i32, IntOrStringError> {
        let s = match self {
            IntOrString::Int(i) => return Ok(*i),
            IntOrString::String(s) => s,
        };
        let err = |kind| IntOrStringError {
            input: s.clone(),
            kind,
        };
        let Some(number) = s.strip_suffix('%') else {
            return Err(err(ErrorKind::NotAPercentage));
        };
        // Go's strconv.Atoi on a 64-bit platform: an optional sign, then
        // decimal digits, within int64.
        let percent: i64 = number.parse().map_err(|e: std::num::ParseIntError| {
            err(ErrorKind::Atoi {
                number: number.to_string(),
                out_of_range: matches!(
                    e.kind(),
                    std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow
                ),
            })
        })?;
        let scaled = percent as f64 * total as f64 / 100.0;
        let scaled = if round_up {
            scaled.ceil()
        } else {
            scaled.floor()
        };
        if scaled < i32::MIN as f64 || scaled > i32::MAX as f64 {
            return Err(err(ErrorKind::OutOfRange { total }));
        }
        Ok(scaled as i32)
    }
}

/// Why [`IntOrString::get_scaled_value_from_int_or_percent`] failed. The
/// message is Go's (`invalid value for IntOrString: ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntOrStringError {
    input: String,
    kind: ErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ErrorKind {
    NotAPercentage,
    Atoi { number: String, out_of_range: bool },
    OutOfRange { total: i32 },
}

impl IntOrStringError {
    /// The string that was not a usable percentage.
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl fmt::Display for IntOrStringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid value for IntOrString: ")?;
        match &self.kind {
            ErrorKind::NotAPercentage => f.write_str("invalid type: string is not a percentage"),
            ErrorKind::Atoi {
                number,
                out_of_range,
            } => write!(
                f,
                "invalid value {}: strconv.Atoi: parsing {}: {}",
                go_quote(&self.input),
                go_quote(number),
                if *out_of_range {
                    "value out of range"
                } else {
                    "invalid syntax"
                }
            ),
            ErrorKind::OutOfRange { total } => write!(
                f,
                "invalid value {}: the value scaled to a total of {total} does not fit in int32",
                go_quote(&self.input)
            ),
        }
    }
}

impl std::error::Error for IntOrStringError {}

impl From<i32> for IntOrString {
    fn from(i: i32) -> Self {
        IntOrString::Int(i)
    }
}

impl From<&str> for IntOrString {
    fn from(s: &str) -> Self {
        IntOrString::String(s.to_string())
    }
}

impl From<String> for IntOrString {
    fn from(s: String) -> Self {
        IntOrString::String(s)
    }
}

/// The integer in decimal, or the string as it is (Go's `String()`).
impl fmt::Display for IntOrString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IntOrString::Int(i) => write!(f, "{i}"),
            IntOrString::String(s) => f.write_str(s),
        }
    }
}

impl Serialize for IntOrString {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            IntOrString::Int(i) => serializer.serialize_i32(*i),
            IntOrString::String(s) => serializer.serialize_str(s),
        }
    }
}

impl<'de> Deserialize<'de> for IntOrString {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = IntOrString;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer that fits in int32 or a string")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<IntOrString, E> {
                i32::try_from(v)
                    .map(IntOrString::Int)
                    .map_err(|_| E::invalid_value(Unexpected::Signed(v), &self))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<IntOrString, E> {
                i32::try_from(v)
                    .map(IntOrString::Int)
                    .map_err(|_| E::invalid_value(Unexpected::Unsigned(v), &self))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<IntOrString, E> {
                Err(E::invalid_type(Unexpected::Float(v), &self))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<IntOrString, E> {
                Ok(IntOrString::String(v.to_string()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<IntOrString, E> {
                Ok(IntOrString::String(v))
            }
        }
        deserializer.deserialize_any(V)
    }
}

impl JsonSchema for IntOrString {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("IntOrString")
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "anyOf": [{ "type": "integer" }, { "type": "string" }],
            "x-kubernetes-int-or-string": true
        })
    }
}

impl ApiType for IntOrString {
    const FACTS: &'static TypeFacts = &TypeFacts::scalar(Kind::IntOrString, 0);

    /// Number keywords (`minimum`, ...) apply to an `Int`, string keywords
    /// (`pattern`, `max_length`, ...) to a `String`, as the apiserver
    /// applies them to an int-or-string value.
    fn check_keywords(&self, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
        match self {
            IntOrString::Int(i) => {
                checks::number(*i as f64, || serde_json::json!(*i), kw, path, errors)
            }
            IntOrString::String(s) => checks::string(s, kw, path, errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_are_int_or_string() {
        assert_eq!(<IntOrString as ApiType>::FACTS.kind, Kind::IntOrString);
    }
}
