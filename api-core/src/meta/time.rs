//! `Time` and `MicroTime`: meta/v1 timestamps with Kubernetes' wire format.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, SecondsFormat, SubsecRound, Utc};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Why a timestamp could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeParseError {
    input: String,
    reason: &'static str,
}

impl fmt::Display for TimeParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown: String = self.input.chars().take(64).collect();
        let more = if self.input.chars().count() > 64 {
            "..."
        } else {
            ""
        };
        write!(
            f,
            "invalid timestamp {:?}{more}: {} (expected RFC 3339, e.g. \"2006-01-02T15:04:05Z\")",
            shown, self.reason
        )
    }
}

impl std::error::Error for TimeParseError {}

/// Parses RFC 3339 the way Go's `time.Parse(time.RFC3339, s)` does: an
/// upper-case `T` separator, `Z` or a `±hh:mm` offset, optional fractional
/// seconds, no leap second 60. The result is in UTC.
fn parse_rfc3339(s: &str) -> Result<DateTime<Utc>, TimeParseError> {
    let err = |reason| TimeParseError {
        input: s.to_string(),
        reason,
    };
    let b = s.as_bytes();
    if b.len() < 20 {
        return Err(err("too short"));
    }
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if !(digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
        && b[16] == b':'
        && digits(17..19))
    {
        return Err(err("not of the form YYYY-MM-DDThh:mm:ss"));
    }
    if &b[17..19] == b"60" {
        return Err(err("second out of range (leap seconds are not accepted)"));
    }
    let mut i = 19;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return Err(err("fractional seconds need at least one digit"));
        }
    }
    let zone = &b[i..];
    let zone_ok = zone == b"Z"
        || (zone.len() == 6
            && (zone[0] == b'+' || zone[0] == b'-')
            && zone[1..3].iter().all(u8::is_ascii_digit)
            && zone[3] == b':'
            && zone[4..6].iter().all(u8::is_ascii_digit));
    if !zone_ok {
        return Err(err("the time zone must be Z or +hh:mm / -hh:mm"));
    }
    let t = DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| err("a date or time field is out of range"))?;
    // An offset can carry 0000-01-01 or 9999-12-31 out of the years RFC 3339
    // can write in UTC, which is how the value is written back.
    if !(MIN_UNIX_SECONDS..=MAX_UNIX_SECONDS).contains(&t.timestamp()) {
        return Err(err("in UTC the time falls outside the years 0000 to 9999"));
    }
    Ok(t)
}

/// 0000-01-01T00:00:00Z, the earliest time RFC 3339 can write.
const MIN_UNIX_SECONDS: i64 = -62_167_219_200;
/// 9999-12-31T23:59:59Z, the latest time RFC 3339 can write.
const MAX_UNIX_SECONDS: i64 = 253_402_300_799;

macro_rules! timestamp_type {
    ($(#[$doc:meta])* $name:ident, $precision:expr, $format:expr, $schema_name:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(DateTime<Utc>);

        impl $name {
            /// The current time, at this type's precision.
            pub fn now() -> Self {
                Self::from_datetime(Utc::now())
            }

            /// The time `secs` seconds after the Unix epoch, or `None` outside
            /// the years 0000 to 9999 (which RFC 3339 cannot write).
            pub fn from_unix_seconds(secs: i64) -> Option<Self> {
                Self::in_range(DateTime::from_timestamp(secs, 0)?)
            }

            fn in_range(t: DateTime<Utc>) -> Option<Self> {
                (MIN_UNIX_SECONDS..=MAX_UNIX_SECONDS).contains(&t.timestamp()).then(|| Self::from_datetime(t))
            }

            /// Seconds since the Unix epoch.
            pub fn unix_seconds(&self) -> i64 {
                self.0.timestamp()
            }

            /// Parses an RFC 3339 timestamp as Go's `time.RFC3339` layout does:
            /// offsets are accepted and converted to UTC, finer precision
            /// than this type keeps is dropped, leap second 60 and any other
            /// shape are an error, and so is an offset that moves the
            /// instant out of the years 0000 to 9999 in UTC (it could not be
            /// written back).
            pub fn parse(s: &str) -> Result<Self, TimeParseError> {
                parse_rfc3339(s).map(Self::from_datetime)
            }

            fn from_datetime(t: DateTime<Utc>) -> Self {
                Self(t.trunc_subsecs($precision))
            }

            /// Seconds since the Unix epoch and the nanoseconds after them.
            #[cfg_attr(not(feature = "k8s-openapi"), allow(dead_code))]
            pub(crate) fn unix_parts(&self) -> (i64, u32) {
                (self.0.timestamp(), self.0.timestamp_subsec_nanos())
            }

            /// The instant `secs` and `nanos` after the Unix epoch (at this
            /// type's precision), clamped to the years 0000 to 9999.
            #[cfg_attr(not(feature = "k8s-openapi"), allow(dead_code))]
            pub(crate) fn from_unix_parts_clamped(secs: i64, nanos: u32) -> Self {
                let (secs, nanos) = if secs < MIN_UNIX_SECONDS {
                    (MIN_UNIX_SECONDS, 0)
                } else if secs > MAX_UNIX_SECONDS {
                    (MAX_UNIX_SECONDS, 0)
                } else {
                    (secs, nanos.min(999_999_999))
                };
                Self::from_datetime(DateTime::from_timestamp(secs, nanos).unwrap_or_default())
            }

            /// The same instant, `secs` seconds later (earlier when negative);
            /// `None` when out of range.
            pub fn checked_add_seconds(&self, secs: i64) -> Option<Self> {
                Self::in_range(self.0.checked_add_signed(chrono::TimeDelta::try_seconds(secs)?)?)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0.to_rfc3339_opts($format, true))
            }
        }

        impl FromStr for $name {
            type Err = TimeParseError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::parse(s)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct V;
                impl Visitor<'_> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("an RFC 3339 timestamp string")
                    }
                    fn visit_str<E: de::Error>(self, v: &str) -> Result<$name, E> {
                        $name::parse(v).map_err(E::custom)
                    }
                }
                deserializer.deserialize_str(V)
            }
        }

        impl JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed($schema_name)
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!({ "type": "string", "format": "date-time" })
            }
        }
    };
}

timestamp_type!(
    /// A timestamp with whole-second precision, meta/v1 `Time`.
    ///
    /// Written as RFC 3339 in UTC with a `Z` (`2024-05-01T10:00:00Z`), as
    /// Kubernetes writes it. Parsing accepts any offset and converts to UTC;
    /// fractional seconds are dropped, as Kubernetes drops them on output.
    ///
    /// ```
    /// use api_core::Time;
    /// let t: Time = "2024-05-01T12:00:00.75+02:00".parse().unwrap();
    /// assert_eq!(t.to_string(), "2024-05-01T10:00:00Z");
    /// assert!("2024-05-01T23:59:60Z".parse::<Time>().is_err());
    /// ```
    Time, 0, SecondsFormat::Secs, "Time"
);

timestamp_type!(
    /// A timestamp with microsecond precision, meta/v1 `MicroTime`
    /// (`2024-05-01T10:00:00.000000Z`, always 6 fractional digits).
    ///
    /// ```
    /// use api_core::MicroTime;
    /// let t: MicroTime = "2024-05-01T10:00:00.1234567Z".parse().unwrap();
    /// assert_eq!(t.to_string(), "2024-05-01T10:00:00.123456Z");
    /// ```
    MicroTime, 6, SecondsFormat::Micros, "MicroTime"
);

impl From<MicroTime> for Time {
    fn from(t: MicroTime) -> Self {
        Time::from_datetime(t.0)
    }
}

impl From<Time> for MicroTime {
    fn from(t: Time) -> Self {
        MicroTime(t.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_whole_seconds_utc() {
        let t = Time::parse("2024-02-29T23:30:00-01:30").unwrap();
        assert_eq!(t.to_string(), "2024-03-01T01:00:00Z");
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            "\"2024-03-01T01:00:00Z\""
        );
        let back: Time = serde_json::from_str("\"2024-03-01T01:00:00Z\"").unwrap();
        assert_eq!(back, t);
        assert_eq!(
            Time::parse("2024-01-01T00:00:00.999999999Z")
                .unwrap()
                .to_string(),
            "2024-01-01T00:00:00Z"
        );
    }

    #[test]
    fn micro_time_has_six_digits() {
        let t = MicroTime::parse("2024-01-01T00:00:00Z").unwrap();
        assert_eq!(t.to_string(), "2024-01-01T00:00:00.000000Z");
        assert_eq!(Time::from(t).to_string(), "2024-01-01T00:00:00Z");
    }

    #[test]
    fn rejects_what_go_rejects() {
        for bad in [
            "",
            "2024-01-01",
            "2024-01-01 00:00:00Z",
            "2024-01-01t00:00:00Z",
            "2024-01-01T00:00:00z",
            "2024-01-01T00:00:00",
            "2024-01-01T00:00:00+0100",
            "2024-01-01T00:00:60Z",
            "2024-13-01T00:00:00Z",
            "2024-02-30T00:00:00Z",
            "2024-01-01T24:00:00Z",
            "2024-01-01T00:00:00.Z",
            "2024-01-01T00:00:00ZZ",
            "２０２４-01-01T00:00:00Z",
            "garbage",
        ] {
            let e = Time::parse(bad).unwrap_err();
            assert!(e.to_string().contains("invalid timestamp"), "{bad}: {e}");
        }
        let err = serde_json::from_str::<Time>("\"2024-01-01T00:00:60Z\"").unwrap_err();
        assert!(err.to_string().contains("leap"), "{err}");
        assert!(serde_json::from_str::<Time>("12").is_err());
    }

    #[test]
    fn offsets_cannot_leave_the_four_digit_years() {
        for s in [
            "0000-01-01T00:00:00+00:01",
            "0000-01-01T00:00:01+04:01",
            "9999-12-31T23:59:59-00:01",
        ] {
            let e = Time::parse(s).unwrap_err().to_string();
            assert!(e.contains("outside the years 0000 to 9999"), "{e}");
            assert!(MicroTime::parse(s).is_err(), "{s}");
        }
        // At the edges, in range.
        let first = Time::parse("0000-01-01T00:01:00+00:01").unwrap();
        assert_eq!(first.to_string(), "0000-01-01T00:00:00Z");
        let last = Time::parse("9999-12-31T23:58:59-00:01").unwrap();
        assert_eq!(last.to_string(), "9999-12-31T23:59:59Z");
    }

    #[test]
    fn only_four_digit_years() {
        assert!(Time::from_unix_seconds(MAX_UNIX_SECONDS).is_some());
        assert!(Time::from_unix_seconds(MAX_UNIX_SECONDS + 1).is_none());
        assert!(Time::from_unix_seconds(MIN_UNIX_SECONDS - 1).is_none());
        assert!(Time::from_unix_seconds(i64::MAX).is_none());
        let last = Time::from_unix_seconds(MAX_UNIX_SECONDS).unwrap();
        assert!(last.checked_add_seconds(1).is_none());
        assert_eq!(last.to_string().parse::<Time>().unwrap(), last);
    }

    #[test]
    fn schema_is_date_time_string() {
        let s = schemars::SchemaGenerator::default().into_root_schema_for::<Time>();
        assert_eq!(s.get("type").unwrap(), "string");
        assert_eq!(s.get("format").unwrap(), "date-time");
    }
}
