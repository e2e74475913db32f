//! The common types users embed: `IntOrString`, `Duration`,
//! `ObjectReference`, `LocalObjectReference`, `TypedLocalObjectReference`
//! and `RawExtension`. Their JSON, their errors, their schemas (compared
//! with what controller-gen writes), the upstream test tables translated
//! (each cited with its source and row count), properties, and all of them
//! inside a derived resource whose CRD must pass the structural checker.
//!
//! Sources of the translated tables:
//!
//! - kubernetes/apimachinery v0.36.0 `pkg/util/intstr/intstr_test.go` and
//!   `pkg/apis/meta/v1/duration_test.go`;
//! - golang/go @ f7396aaea0297a2e95b502a4075b0aed6efda89f
//!   `src/time/time_test.go` (`parseDurationTests`,
//!   `parseDurationErrorTests`, `durationTests`).

use api_core::prelude::*;
use api_core::validation::{ErrorType, FieldPath};
use api_core::{DurationParseError, IntOrStringError};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[path = "common/shared.rs"]
mod shared;

fn schema<T: ApiType>() -> Value {
    T::api_schema(&mut schemars::SchemaGenerator::default()).to_value()
}

fn validate<T: ApiType>(value: &T) -> api_core::ErrorList {
    let mut errors = api_core::ErrorList::new();
    value.validate(&FieldPath::new("spec").child("x"), &mut errors);
    errors
}

// ------------------------------------------------------------- IntOrString

/// `IntOrStringHolder` of intstr_test.go.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct IntOrStringHolder {
    val: IntOrString,
}

#[test]
fn int_or_string_constructors() {
    // intstr_test.go TestFromInt, TestFromInt32, TestFromString (1 check each).
    assert_eq!(IntOrString::from(93), IntOrString::Int(93));
    assert_eq!(IntOrString::from(93i32).as_int(), Some(93));
    assert_eq!(IntOrString::from("76"), IntOrString::String("76".into()));
    assert_eq!(IntOrString::from(String::from("76")).as_str(), Some("76"));
    assert_eq!(IntOrString::default(), IntOrString::Int(0));
    assert_eq!(IntOrString::Int(-5).to_string(), "-5");
    assert_eq!(IntOrString::from("25%").to_string(), "25%");
}

#[test]
fn int_or_string_json_tables() {
    // intstr_test.go TestIntOrStringUnmarshalJSON: 2 rows, both translated.
    let unmarshal = [
        ("{\"val\": 123}", IntOrString::Int(123)),
        ("{\"val\": \"123\"}", IntOrString::String("123".into())),
    ];
    for (input, want) in unmarshal {
        let got: IntOrStringHolder = serde_json::from_str(input).unwrap();
        assert_eq!(got.val, want, "{input}");
    }
    // intstr_test.go TestIntOrStringMarshalJSON: 2 rows, both translated.
    let marshal = [
        (IntOrString::Int(123), "{\"val\":123}"),
        (IntOrString::String("123".into()), "{\"val\":\"123\"}"),
    ];
    for (input, want) in marshal {
        let got = serde_json::to_string(&IntOrStringHolder { val: input }).unwrap();
        assert_eq!(got, want);
    }
    // intstr_test.go TestIntOrStringMarshalJSONUnmarshalYAML: 2 rows, both
    // translated (JSON read back as YAML).
    for input in [IntOrString::Int(123), IntOrString::String("123".into())] {
        let holder = IntOrStringHolder { val: input };
        let json = serde_json::to_string(&holder).unwrap();
        let back: IntOrStringHolder = serde_saphyr::from_str(&json).unwrap();
        assert_eq!(back, holder);
    }
}

#[test]
fn int_or_string_json_bounds_and_errors() {
    for (input, want) in [
        ("2147483647", IntOrString::Int(i32::MAX)),
        ("-2147483648", IntOrString::Int(i32::MIN)),
        ("0", IntOrString::Int(0)),
        ("\"\"", IntOrString::String(String::new())),
        ("\"25%\"", IntOrString::String("25%".into())),
    ] {
        assert_eq!(
            serde_json::from_str::<IntOrString>(input).unwrap(),
            want,
            "{input}"
        );
    }
    // Anything else is an error naming what was found.
    for (input, found) in [
        ("1.5", "floating point `1.5`"),
        ("1e3", "floating point `1000.0`"),
        // serde_json reads `-0` as a float, so it is refused like `0.0`
        // (Go's encoding/json reads `-0` into an int32 as 0).
        ("-0", "floating point `-0.0`"),
        ("2147483648", "integer `2147483648`"),
        ("-2147483649", "integer `-2147483649`"),
        ("18446744073709551615", "integer `18446744073709551615`"),
        ("true", "boolean `true`"),
        ("null", "null"),
        ("[1]", "sequence"),
        ("{\"a\": 1}", "map"),
    ] {
        let e = serde_json::from_str::<IntOrString>(input)
            .unwrap_err()
            .to_string();
        assert!(e.contains(found), "{input}: {e}");
        assert!(
            e.contains("expected an integer that fits in int32 or a string"),
            "{input}: {e}"
        );
    }
}

#[test]
fn int_or_string_parse() {
    // intstr_test.go TestParse: 9 rows, all translated.
    let s = |v: &str| IntOrString::String(v.into());
    let rows = [
        ("0", IntOrString::Int(0)),
        ("2147483647", IntOrString::Int(2147483647)),
        ("-2147483648", IntOrString::Int(-2147483648)),
        ("2147483648", s("2147483648")),
        ("-2147483649", s("-2147483649")),
        ("9223372036854775807", s("9223372036854775807")),
        ("-9223372036854775808", s("-9223372036854775808")),
        ("9223372036854775808", s("9223372036854775808")),
        ("-9223372036854775809", s("-9223372036854775809")),
    ];
    assert_eq!(rows.len(), 9);
    for (input, want) in rows {
        assert_eq!(IntOrString::parse(input), want, "{input}");
    }
    assert_eq!(IntOrString::parse("+7"), IntOrString::Int(7));
    assert_eq!(IntOrString::parse("http"), s("http"));
}

#[test]
fn int_or_percent_safely_table() {
    // intstr_test.go TestGetIntFromIntOrString: 9 rows, all translated. Go
    // tests the private getIntOrPercentValueSafely (value, isPercent, err);
    // through the public function, a total of 100 gives the value itself
    // and a total of 0 tells a percentage (scaled to 0) from an integer.
    struct Row {
        input: IntOrString,
        expect_err: bool,
        expect_val: i32,
        expect_perc: bool,
    }
    let row = |input: IntOrString, expect_err, expect_val, expect_perc| Row {
        input,
        expect_err,
        expect_val,
        expect_perc,
    };
    let s = |v: &str| IntOrString::String(v.into());
    let rows = [
        row(IntOrString::Int(200), false, 200, false),
        row(s("200"), true, 0, false),
        row(s("30%0"), true, 0, false),
        row(s("40%"), false, 40, true),
        row(s("%"), true, 0, false),
        row(s("a%"), true, 0, false),
        row(s("a"), true, 0, false),
        row(s("40#"), true, 0, false),
        row(s("40%%"), true, 0, false),
    ];
    assert_eq!(rows.len(), 9);
    for r in rows {
        let at_100 = r.input.get_scaled_value_from_int_or_percent(100, false);
        let at_0 = r.input.get_scaled_value_from_int_or_percent(0, false);
        assert_eq!(at_100.is_err(), r.expect_err, "{:?}", r.input);
        if !r.expect_err {
            assert_eq!(at_100, Ok(r.expect_val), "{:?}", r.input);
            let zero_if_percent = if r.expect_perc { 0 } else { r.expect_val };
            assert_eq!(at_0, Ok(zero_if_percent), "{:?}", r.input);
        }
    }
}

#[test]
fn int_or_percent_scaled_table() {
    // intstr_test.go TestGetIntFromIntOrPercent: 8 rows, all translated.
    // TestGetValueFromIntOrPercentNil (a nil pointer) has no Rust
    // counterpart: the method takes `&self`.
    let s = |v: &str| IntOrString::String(v.into());
    let rows: [(IntOrString, i32, bool, Option<i32>); 8] = [
        (IntOrString::Int(123), 0, false, Some(123)),
        (s("90%"), 100, true, Some(90)),
        (s("90%"), 95, true, Some(86)),
        (s("90%"), 95, false, Some(85)),
        (s("%"), 0, false, None),
        (s("90#"), 0, false, None),
        (s("#%"), 0, false, None),
        (s("90"), 0, false, None),
    ];
    for (input, total, round_up, want) in rows {
        let got = input.get_scaled_value_from_int_or_percent(total, round_up);
        assert_eq!(got.ok(), want, "{input:?} of {total}, round_up {round_up}");
    }
    // The brief's anchor: 50% of 11.
    assert_eq!(
        s("50%").get_scaled_value_from_int_or_percent(11, true),
        Ok(6)
    );
    assert_eq!(
        s("50%").get_scaled_value_from_int_or_percent(11, false),
        Ok(5)
    );
    assert_eq!(
        s("-5%").get_scaled_value_from_int_or_percent(10, false),
        Ok(-1)
    );
    assert_eq!(
        s("+5%").get_scaled_value_from_int_or_percent(100, false),
        Ok(5)
    );
}

#[test]
fn int_or_percent_errors_have_go_messages() {
    let err = |v: &str| -> IntOrStringError {
        IntOrString::from(v)
            .get_scaled_value_from_int_or_percent(10, true)
            .unwrap_err()
    };
    assert_eq!(
        err("x").to_string(),
        "invalid value for IntOrString: invalid type: string is not a percentage"
    );
    assert_eq!(
        err("a%").to_string(),
        r#"invalid value for IntOrString: invalid value "a%": strconv.Atoi: parsing "a": invalid syntax"#
    );
    assert_eq!(
        err("%").to_string(),
        r#"invalid value for IntOrString: invalid value "%": strconv.Atoi: parsing "": invalid syntax"#
    );
    assert_eq!(
        err("99999999999999999999%").to_string(),
        r#"invalid value for IntOrString: invalid value "99999999999999999999%": strconv.Atoi: parsing "99999999999999999999": value out of range"#
    );
    assert_eq!(err("a%").input(), "a%");
    // Go returns a 64-bit int; a result beyond i32 is an error here.
    let e = IntOrString::from("300%")
        .get_scaled_value_from_int_or_percent(i32::MAX, false)
        .unwrap_err();
    assert!(e.to_string().contains("does not fit in int32"), "{e}");
    // A huge percentage of zero is zero, as in Go.
    assert_eq!(
        IntOrString::from("9000000000%").get_scaled_value_from_int_or_percent(0, true),
        Ok(0)
    );
}

#[test]
fn int_or_string_schema_is_controller_gens() {
    assert_eq!(
        schema::<IntOrString>(),
        json!({"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true})
    );
}

mod untagged_int_or_string {
    use api_core::prelude::*;
    use serde::{Deserialize, Serialize};

    /// A port by number or by name.
    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[serde(untagged)]
    #[kube(int_or_string)]
    pub enum PortRef {
        /// The number.
        Number(i32),
        /// The name.
        Name(String),
    }

    /// The same enum, marked at the field instead.
    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[serde(untagged)]
    #[kube(allow(unions))]
    pub enum Unmarked {
        /// The number.
        Number(i64),
        /// The name.
        Name(String),
    }

    /// ServiceSpec.
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(group = "example.com", version = "v1", kind = "Service")]
    #[serde(rename_all = "camelCase")]
    pub struct ServiceSpec {
        /// targetPort is the port on the pods.
        pub target_port: PortRef,
        /// otherPort is another port.
        #[kube(int_or_string)]
        pub other_port: Unmarked,
    }
}

/// `int_or_string` on an untagged enum (on the type or at the field) is the
/// int-or-string schema and nothing else: before, the schemaless enum's
/// `x-kubernetes-preserve-unknown-fields` stayed beside it and the CRD
/// failed the structural checker (issue 14, bug 1).
#[test]
fn int_or_string_untagged_enums_are_structural() {
    use untagged_int_or_string::{PortRef, Service, Unmarked};
    let int_or_string = json!({"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true});
    let mut port = int_or_string.clone();
    port["description"] = json!("A port by number or by name.");
    assert_eq!(schema::<PortRef>(), port);
    let crd = Service::crd().to_json();
    let errors = api_core::schema::structural::check_crd(&crd);
    assert!(errors.is_empty(), "{errors}");
    let props = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"];
    let mut target = int_or_string.clone();
    target["description"] = json!("targetPort is the port on the pods.");
    assert_eq!(props["targetPort"], target);
    let mut other = int_or_string;
    other["description"] = json!("otherPort is another port.");
    assert_eq!(props["otherPort"], other);
    // The values still round-trip as bare integers and strings.
    let spec: untagged_int_or_string::ServiceSpec =
        serde_json::from_value(json!({"targetPort": 8080, "otherPort": "http"})).unwrap();
    assert_eq!(spec.target_port, PortRef::Number(8080));
    assert_eq!(spec.other_port, Unmarked::Name("http".into()));
}

// ---------------------------------------------------------------- Duration

const NS: i64 = 1;
const US: i64 = 1_000;
const MS: i64 = 1_000_000;
const SEC: i64 = 1_000_000_000;
const MIN: i64 = 60 * SEC;
const HOUR: i64 = 60 * MIN;

#[test]
fn go_parse_duration_table() {
    // time_test.go parseDurationTests: 43 rows, all translated.
    let rows: &[(&str, i64)] = &[
        // simple
        ("0", 0),
        ("5s", 5 * SEC),
        ("30s", 30 * SEC),
        ("1478s", 1478 * SEC),
        // sign
        ("-5s", -5 * SEC),
        ("+5s", 5 * SEC),
        ("-0", 0),
        ("+0", 0),
        // decimal
        ("5.0s", 5 * SEC),
        ("5.6s", 5 * SEC + 600 * MS),
        ("5.s", 5 * SEC),
        (".5s", 500 * MS),
        ("1.0s", SEC),
        ("1.00s", SEC),
        ("1.004s", SEC + 4 * MS),
        ("1.0040s", SEC + 4 * MS),
        ("100.00100s", 100 * SEC + MS),
        // different units
        ("10ns", 10 * NS),
        ("11us", 11 * US),
        ("12\u{b5}s", 12 * US),  // U+00B5
        ("12\u{3bc}s", 12 * US), // U+03BC
        ("13ms", 13 * MS),
        ("14s", 14 * SEC),
        ("15m", 15 * MIN),
        ("16h", 16 * HOUR),
        // composite durations
        ("3h30m", 3 * HOUR + 30 * MIN),
        ("10.5s4m", 4 * MIN + 10 * SEC + 500 * MS),
        ("-2m3.4s", -(2 * MIN + 3 * SEC + 400 * MS)),
        (
            "1h2m3s4ms5us6ns",
            HOUR + 2 * MIN + 3 * SEC + 4 * MS + 5 * US + 6 * NS,
        ),
        ("39h9m14.425s", 39 * HOUR + 9 * MIN + 14 * SEC + 425 * MS),
        // large value
        ("52763797000ns", 52763797000 * NS),
        // more than 9 digits after decimal point, see https://golang.org/issue/6617
        ("0.3333333333333333333h", 20 * MIN),
        // 9007199254740993 = 1<<53+1 cannot be stored precisely in a float64
        ("9007199254740993ns", (1 << 53) + 1),
        // largest duration that can be represented by int64 in nanoseconds
        ("9223372036854775807ns", i64::MAX),
        ("9223372036854775.807us", i64::MAX),
        ("9223372036s854ms775us807ns", i64::MAX),
        ("-9223372036854775808ns", i64::MIN),
        ("-9223372036854775.808us", i64::MIN),
        ("-9223372036s854ms775us808ns", i64::MIN),
        // largest negative value
        ("-9223372036854775808ns", i64::MIN),
        // largest negative round trip value, see https://golang.org/issue/48629
        ("-2562047h47m16.854775808s", i64::MIN),
        // huge string; issue 15011.
        ("0.100000000000000000000h", 6 * MIN),
        // This value tests the first overflow check in leadingFraction.
        (
            "0.830103483285477580700h",
            49 * MIN + 48 * SEC + 372539827 * NS,
        ),
    ];
    assert_eq!(rows.len(), 43);
    for &(input, want) in rows {
        assert_eq!(
            Duration::parse(input),
            Ok(Duration::from_nanos(want)),
            "{input}"
        );
    }
}

#[test]
fn go_parse_duration_error_table() {
    // time_test.go parseDurationErrorTests: 21 rows; 18 translated. The 3
    // rows whose input is not UTF-8 ("\x85\x85", "\xffff", "hello \xffff
    // world") cannot be a Rust `&str` (nor a JSON string) and are skipped.
    let rows: &[(&str, &str)] = &[
        // invalid
        ("", r#""""#),
        ("3", r#""3""#),
        ("-", r#""-""#),
        ("s", r#""s""#),
        (".", r#"".""#),
        ("-.", r#""-.""#),
        (".s", r#"".s""#),
        ("+.s", r#""+.s""#),
        ("1d", r#""1d""#),
        ("\u{fffd}", r#""\xef\xbf\xbd""#), // utf8.RuneError
        (
            "\u{fffd} hello \u{fffd} world",
            r#""\xef\xbf\xbd hello \xef\xbf\xbd world""#,
        ),
        // overflow
        ("9223372036854775810ns", r#""9223372036854775810ns""#),
        ("9223372036854775808ns", r#""9223372036854775808ns""#),
        ("-9223372036854775809ns", r#""-9223372036854775809ns""#),
        ("9223372036854776us", r#""9223372036854776us""#),
        ("3000000h", r#""3000000h""#),
        ("9223372036854775.808us", r#""9223372036854775.808us""#),
        (
            "9223372036854ms775us808ns",
            r#""9223372036854ms775us808ns""#,
        ),
    ];
    assert_eq!(rows.len(), 18);
    for &(input, expect) in rows {
        let e: DurationParseError = Duration::parse(input).unwrap_err();
        assert!(
            e.to_string().contains(expect),
            "{input:?}: {e} does not contain {expect}"
        );
        assert_eq!(e.input(), input);
    }
}

#[test]
fn duration_errors_are_gos() {
    let msg = |s: &str| Duration::parse(s).unwrap_err().to_string();
    assert_eq!(msg("x"), r#"time: invalid duration "x""#);
    assert_eq!(msg(""), r#"time: invalid duration """#);
    assert_eq!(msg("1x"), r#"time: unknown unit "x" in duration "1x""#);
    assert_eq!(msg("1"), r#"time: missing unit in duration "1""#);
    assert_eq!(msg("1h2"), r#"time: missing unit in duration "1h2""#);
    assert_eq!(msg("00"), r#"time: missing unit in duration "00""#);
    assert_eq!(msg("1d"), r#"time: unknown unit "d" in duration "1d""#);
    assert_eq!(
        msg("1h-2m"),
        r#"time: unknown unit "h-" in duration "1h-2m""#
    );
    assert_eq!(msg("1 s"), r#"time: unknown unit " s" in duration "1 s""#);
    assert_eq!(
        msg("1\u{b5}x"),
        r#"time: unknown unit "\xc2\xb5x" in duration "1\xc2\xb5x""#
    );
    assert_eq!(msg("\"1s"), r#"time: invalid duration "\"1s""#);
    assert_eq!(msg("-1.5"), r#"time: missing unit in duration "-1.5""#);
    // Go wraps the unsigned sum when two components of 2^63 ns add up to
    // 2^64 and returns 0; that is an overflow here.
    assert_eq!(
        msg("9223372036854775808ns9223372036854775808ns"),
        r#"time: invalid duration "9223372036854775808ns9223372036854775808ns""#
    );
}

#[test]
fn go_duration_string_table() {
    // time_test.go durationTests (TestDurationString): 11 rows, all
    // translated, with the negated check of each positive row.
    let rows: &[(&str, i64)] = &[
        ("0s", 0),
        ("1ns", NS),
        ("1.1\u{b5}s", 1100 * NS),
        ("2.2ms", 2200 * US),
        ("3.3s", 3300 * MS),
        ("4m5s", 4 * MIN + 5 * SEC),
        ("4m5.001s", 4 * MIN + 5001 * MS),
        ("5h6m7.001s", 5 * HOUR + 6 * MIN + 7001 * MS),
        ("8m0.000000001s", 8 * MIN + NS),
        ("2562047h47m16.854775807s", i64::MAX),
        ("-2562047h47m16.854775808s", i64::MIN),
    ];
    assert_eq!(rows.len(), 11);
    for &(want, nanos) in rows {
        assert_eq!(Duration::from_nanos(nanos).to_string(), want);
        if nanos > 0 {
            assert_eq!(Duration::from_nanos(-nanos).to_string(), format!("-{want}"));
        }
    }
    // The brief's anchors.
    for (nanos, want) in [
        (HOUR + 30 * MIN, "1h30m0s"),
        (1500 * MS, "1.5s"),
        (-2 * MIN, "-2m0s"),
        (MS, "1ms"),
        (1500, "1.5\u{b5}s"),
        (100, "100ns"),
        (HOUR, "1h0m0s"),
        (MIN + 500 * MS, "1m0.5s"),
    ] {
        assert_eq!(Duration::from_nanos(nanos).to_string(), want);
    }
}

/// `DurationHolder` of duration_test.go.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct DurationHolder {
    d: Duration,
}

#[test]
fn apimachinery_duration_json_tables() {
    let d = |nanos| DurationHolder {
        d: Duration::from_nanos(nanos),
    };
    // duration_test.go TestDurationMarshalJSON: 3 rows, all translated.
    for (input, want) in [
        (d(5 * SEC), r#"{"d":"5s"}"#),
        (d(2 * MIN), r#"{"d":"2m0s"}"#),
        (d(HOUR + 3 * MS), r#"{"d":"1h0m0.003s"}"#),
    ] {
        assert_eq!(serde_json::to_string(&input).unwrap(), want);
    }
    // duration_test.go TestDurationUnmarshalJSON: 6 rows, all translated.
    let unmarshal = [
        (r#"{"d":"0s"}"#, d(0)),
        (r#"{"d":"5s"}"#, d(5 * SEC)),
        (r#"{"d":"2m0s"}"#, d(2 * MIN)),
        (r#"{"d":"1h0m0.003s"}"#, d(HOUR + 3 * MS)),
        // Units with zero values can optionally be dropped
        (r#"{"d":"2m"}"#, d(2 * MIN)),
        (r#"{"d":"1h0.003s"}"#, d(HOUR + 3 * MS)),
    ];
    for (input, want) in unmarshal {
        assert_eq!(
            serde_json::from_str::<DurationHolder>(input).unwrap(),
            want,
            "{input}"
        );
    }
    // duration_test.go TestDurationUnmarshalYAML: 6 rows, all translated.
    let unmarshal_yaml = [
        ("d: 0s\n", d(0)),
        ("d: 5s\n", d(5 * SEC)),
        ("d: 2m0s\n", d(2 * MIN)),
        ("d: 1h0m0.003s\n", d(HOUR + 3 * MS)),
        ("d: 2m\n", d(2 * MIN)),
        ("d: 1h0.003s\n", d(HOUR + 3 * MS)),
    ];
    for (input, want) in unmarshal_yaml {
        assert_eq!(
            serde_saphyr::from_str::<DurationHolder>(input).unwrap(),
            want,
            "{input}"
        );
    }
    // duration_test.go TestDurationMarshalYAML: 3 rows, all translated.
    for (input, want) in [
        (d(5 * SEC), "d: 5s\n"),
        (d(2 * MIN), "d: 2m0s\n"),
        (d(HOUR + 3 * MS), "d: 1h0m0.003s\n"),
    ] {
        assert_eq!(serde_saphyr::to_string(&input).unwrap(), want);
    }
    // duration_test.go TestDurationMarshalJSONUnmarshalYAML: 4 rows, all
    // translated.
    for input in [d(0), d(5 * SEC), d(2 * MIN), d(HOUR + 3 * MS)] {
        let json = serde_json::to_string(&input).unwrap();
        let back: DurationHolder = serde_saphyr::from_str(&json).unwrap();
        assert_eq!(back, input);
    }
}

#[test]
fn duration_json_errors_name_the_input() {
    for (input, want) in [
        (
            r#"{"d":"1x"}"#,
            r#"time: unknown unit "x" in duration "1x""#,
        ),
        (r#"{"d":"5"}"#, r#"time: missing unit in duration "5""#),
        (r#"{"d":""}"#, r#"time: invalid duration """#),
        (r#"{"d":5}"#, "invalid type: integer `5`"),
        (r#"{"d":null}"#, "invalid type: null"),
        (r#"{"d":{}}"#, "invalid type: map"),
    ] {
        let e = serde_json::from_str::<DurationHolder>(input)
            .unwrap_err()
            .to_string();
        assert!(e.contains(want), "{input}: {e}");
    }
}

#[test]
fn duration_conversions() {
    let d = Duration::from_secs(90).unwrap();
    assert_eq!(d.as_secs(), 90);
    assert_eq!(d.as_millis(), 90_000);
    assert_eq!(d.as_nanos(), 90 * SEC);
    assert_eq!(Duration::from_millis(1500).unwrap().as_secs_f64(), 1.5);
    assert_eq!(Duration::from_nanos(-1500 * MS).as_secs(), -1);
    assert!(Duration::from_nanos(-1).is_negative());
    assert_eq!(Duration::from_secs(i64::MAX), None);
    assert_eq!(Duration::from_millis(i64::MIN), None);
    assert_eq!(Duration::HOUR.to_string(), "1h0m0s");
    assert_eq!(Duration::MICROSECOND.to_string(), "1\u{b5}s");

    let std = std::time::Duration::try_from(d).unwrap();
    assert_eq!(std, std::time::Duration::from_secs(90));
    assert_eq!(Duration::try_from(std).unwrap(), d);
    assert!(std::time::Duration::try_from(Duration::from_nanos(-1)).is_err());
    assert_eq!(
        Duration::try_from(std::time::Duration::from_nanos(i64::MAX as u64)).unwrap(),
        Duration::MAX
    );
    let too_long = Duration::try_from(std::time::Duration::from_secs(u64::MAX)).unwrap_err();
    assert!(too_long.to_string().contains("exceeds"), "{too_long}");
    assert_eq!("1h".parse::<Duration>().unwrap(), Duration::HOUR);
}

#[test]
fn duration_schema_and_facts() {
    assert_eq!(schema::<Duration>(), json!({"type": "string"}));
    let facts = <Duration as ApiType>::FACTS;
    assert_eq!(facts.kind, api_core::facts::Kind::String);
    assert_ne!(facts.flags & api_core::facts::DURATION, 0);
}

proptest! {
    /// Go's TestParseDurationRoundTrip, for every int64: formatting then
    /// parsing gives the value back, and formatting is stable.
    #[test]
    fn duration_format_parse_round_trip(nanos in any::<i64>()) {
        let d = Duration::from_nanos(nanos);
        let text = d.to_string();
        let back = Duration::parse(&text);
        prop_assert_eq!(back.clone(), Ok(d), "{}", text);
        prop_assert_eq!(back.unwrap().to_string(), text);
        let json = serde_json::to_string(&d).unwrap();
        prop_assert_eq!(serde_json::from_str::<Duration>(&json).unwrap(), d);
    }

    /// Any string parses or fails without a panic; what parses formats to
    /// a string that parses to the same value.
    #[test]
    fn duration_parse_never_panics(s in "[-+0-9.a-z \u{b5}\u{3bc}]{0,40}") {
        if let Ok(d) = Duration::parse(&s) {
            prop_assert_eq!(Duration::parse(&d.to_string()), Ok(d));
        }
    }

    /// Near the edges of the range too.
    #[test]
    fn duration_long_numbers_never_panic(
        whole in "[0-9]{0,25}",
        frac in "[0-9]{0,30}",
        unit in "(ns|us|ms|s|m|h)",
    ) {
        let s = format!("{whole}.{frac}{unit}");
        let _ = Duration::parse(&s);
        let _ = Duration::parse(&format!("-{s}{s}"));
    }

    #[test]
    fn int_or_string_json_round_trip(v in prop_oneof![
        any::<i32>().prop_map(IntOrString::Int),
        ".*".prop_map(IntOrString::String),
    ]) {
        let json = serde_json::to_value(&v).unwrap();
        match &v {
            IntOrString::Int(i) => prop_assert_eq!(&json, &json!(i)),
            IntOrString::String(s) => prop_assert_eq!(&json, &json!(s)),
        }
        prop_assert_eq!(serde_json::from_value::<IntOrString>(json).unwrap(), v);
    }

    #[test]
    fn int_or_percent_never_panics(s in "[-+0-9%a]{0,25}", total in any::<i32>(), up in any::<bool>()) {
        let _ = IntOrString::String(s).get_scaled_value_from_int_or_percent(total, up);
    }
}

// -------------------------------------------------------------- references

#[test]
fn object_reference_json() {
    let r = ObjectReference {
        kind: "Pod".into(),
        namespace: "default".into(),
        name: "web-0".into(),
        uid: "8f1c".into(),
        api_version: "v1".into(),
        resource_version: "42".into(),
        field_path: "spec.containers{web}".into(),
    };
    // Go's field order.
    let text = r#"{"kind":"Pod","namespace":"default","name":"web-0","uid":"8f1c","apiVersion":"v1","resourceVersion":"42","fieldPath":"spec.containers{web}"}"#;
    assert_eq!(serde_json::to_string(&r).unwrap(), text);
    assert_eq!(serde_json::from_str::<ObjectReference>(text).unwrap(), r);
    // Every field is omitempty.
    assert_eq!(
        serde_json::to_string(&ObjectReference::default()).unwrap(),
        "{}"
    );
    assert_eq!(
        serde_json::from_str::<ObjectReference>("{}").unwrap(),
        ObjectReference::default()
    );
    let e = serde_json::from_str::<ObjectReference>(r#"{"name": 1}"#).unwrap_err();
    assert!(e.to_string().contains("invalid type: integer `1`"), "{e}");
}

#[test]
fn local_object_reference_json() {
    let r = LocalObjectReference::new("pull-secret");
    assert_eq!(
        serde_json::to_string(&r).unwrap(),
        r#"{"name":"pull-secret"}"#
    );
    assert_eq!(
        serde_json::from_str::<LocalObjectReference>(r#"{"name":"pull-secret"}"#).unwrap(),
        r
    );
    assert_eq!(
        serde_json::to_string(&LocalObjectReference::default()).unwrap(),
        "{}"
    );
    assert_eq!(
        serde_json::from_str::<LocalObjectReference>("{}").unwrap(),
        LocalObjectReference::default()
    );
}

#[test]
fn typed_local_object_reference_json() {
    let r = TypedLocalObjectReference::new(None, "PersistentVolumeClaim", "data");
    assert_eq!(
        serde_json::to_string(&r).unwrap(),
        r#"{"kind":"PersistentVolumeClaim","name":"data"}"#
    );
    // Go writes `"apiGroup": null` for the core group: accepted.
    assert_eq!(
        serde_json::from_str::<TypedLocalObjectReference>(
            r#"{"apiGroup":null,"kind":"PersistentVolumeClaim","name":"data"}"#
        )
        .unwrap(),
        r
    );
    let g = TypedLocalObjectReference::new(Some("snapshot.storage.k8s.io"), "VolumeSnapshot", "s");
    let text = r#"{"apiGroup":"snapshot.storage.k8s.io","kind":"VolumeSnapshot","name":"s"}"#;
    assert_eq!(serde_json::to_string(&g).unwrap(), text);
    assert_eq!(
        serde_json::from_str::<TypedLocalObjectReference>(text).unwrap(),
        g
    );
    // `kind` and `name` are required (and written even when empty).
    let e = serde_json::from_str::<TypedLocalObjectReference>(r#"{"name":"data"}"#).unwrap_err();
    assert!(e.to_string().contains("missing field `kind`"), "{e}");
    assert_eq!(
        serde_json::to_string(&TypedLocalObjectReference::default()).unwrap(),
        r#"{"kind":"","name":""}"#
    );
}

mod widgets {
    use api_core::prelude::*;
    use serde::{Deserialize, Serialize};

    /// WidgetSpec is a widget.
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(group = "example.com", version = "v1", kind = "Widget", namespaced)]
    pub struct WidgetSpec {}

    /// ThingSpec is a kind of the core group.
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(
        group = "",
        version = "v1",
        kind = "Thing",
        namespaced,
        allow(kind_naming)
    )]
    pub struct ThingSpec {}
}

#[test]
fn references_for_objects() {
    let mut w = widgets::Widget::new("w1", widgets::WidgetSpec {});
    w.metadata.namespace = "ns".into();
    w.metadata.uid = "u-1".into();
    w.metadata.resource_version = "7".into();
    assert_eq!(
        ObjectReference::for_object(&w),
        ObjectReference {
            kind: "Widget".into(),
            namespace: "ns".into(),
            name: "w1".into(),
            uid: "u-1".into(),
            api_version: "example.com/v1".into(),
            resource_version: "7".into(),
            field_path: String::new(),
        }
    );
    assert_eq!(
        TypedLocalObjectReference::for_object(&w),
        TypedLocalObjectReference::new(Some("example.com"), "Widget", "w1")
    );
    let t = widgets::Thing::new("t1", widgets::ThingSpec {});
    assert_eq!(
        TypedLocalObjectReference::for_object(&t),
        TypedLocalObjectReference::new(None, "Thing", "t1")
    );
    assert_eq!(ObjectReference::for_object(&t).api_version, "v1");
}

/// The Go declarations of k8s.io/api v0.36.0 `core/v1/types.go` the
/// reference schemas come from (doc comments, tags, markers), kept
/// verbatim so that the descriptions can be derived here the way
/// controller-gen derives them and compared with the library's.
const GO_TYPES: &str = r#"
// ObjectReference contains enough information to let you inspect or modify the referred object.
// ---
// New uses of this type are discouraged because of difficulty describing its usage when embedded in APIs.
//  1. Ignored fields.  It includes many fields which are not generally honored.  For instance, ResourceVersion and FieldPath are both very rarely valid in actual usage.
//
// Instead of using this type, create a locally provided and used type that is well-focused on your reference.
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +structType=atomic
type ObjectReference struct {
	// Kind of the referent.
	// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
	// +optional
	Kind string `json:"kind,omitempty" protobuf:"bytes,1,opt,name=kind"`
	// Namespace of the referent.
	// More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces/
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,2,opt,name=namespace"`
	// Name of the referent.
	// More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,3,opt,name=name"`
	// UID of the referent.
	// More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#uids
	// +optional
	UID types.UID `json:"uid,omitempty" protobuf:"bytes,4,opt,name=uid,casttype=k8s.io/apimachinery/pkg/types.UID"`
	// API version of the referent.
	// +optional
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,5,opt,name=apiVersion"`
	// Specific resourceVersion to which this reference is made, if any.
	// More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency
	// +optional
	ResourceVersion string `json:"resourceVersion,omitempty" protobuf:"bytes,6,opt,name=resourceVersion"`

	// If referring to a piece of an object instead of an entire object, this string
	// should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].
	// For example, if the object reference is to a container within a pod, this would take on a value like:
	// "spec.containers{name}" (where "name" refers to the name of the container that triggered
	// the event) or if no container name is specified "spec.containers[2]" (container with
	// index 2 in this pod). This syntax is chosen only to have some well-defined way of
	// referencing a part of an object.
	// TODO: this design is not final and this field is subject to change in the future.
	// +optional
	FieldPath string `json:"fieldPath,omitempty" protobuf:"bytes,7,opt,name=fieldPath"`
}

// LocalObjectReference contains enough information to let you locate the
// referenced object inside the same namespace.
// ---
// New uses of this type are discouraged because of difficulty describing its usage when embedded in APIs.
// +structType=atomic
type LocalObjectReference struct {
	// Name of the referent.
	// This field is effectively required, but due to backwards compatibility is
	// allowed to be empty. Instances of this type with an empty value here are
	// almost certainly wrong.
	// More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names
	// +optional
	// +default=""
	// +kubebuilder:default=""
	// TODO: Drop `kubebuilder:default` when controller-gen doesn't need it https://github.com/kubernetes-sigs/kubebuilder/issues/3896.
	Name string `json:"name,omitempty" protobuf:"bytes,1,opt,name=name"`
}

// TypedLocalObjectReference contains enough information to let you locate the
// typed referenced object inside the same namespace.
// ---
// New uses of this type are discouraged because of difficulty describing its usage when embedded in APIs.
// +structType=atomic
type TypedLocalObjectReference struct {
	// APIGroup is the group for the resource being referenced.
	// If APIGroup is not specified, the specified Kind must be in the core API group.
	// For any other third-party types, APIGroup is required.
	// +optional
	APIGroup *string `json:"apiGroup" protobuf:"bytes,1,opt,name=apiGroup"`
	// Kind is the type of resource being referenced
	Kind string `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	// Name is the name of resource being referenced
	Name string `json:"name" protobuf:"bytes,3,opt,name=name"`
}
"#;

/// controller-tools `pkg/markers/zip.go` `extractDoc`: marker lines
/// (`+...`) removed, then lines kept up to one starting with `---`,
/// `TODO` lines dropped, joined with `\n`.
fn controller_gen_doc(comment_lines: &[&str]) -> String {
    let mut out = Vec::new();
    for line in comment_lines {
        if line.trim_start().starts_with('+') {
            continue;
        }
        if line.starts_with("---") {
            break;
        }
        if line.starts_with("TODO") {
            continue;
        }
        out.push(*line);
    }
    out.join("\n")
}

/// `(type name, type description, [(JSON name, description)])` for each
/// struct of `GO_TYPES`: the doc comment of a declaration is the run of
/// `//` lines right above it.
type GoDocs = (String, String, Vec<(String, String)>);

fn go_docs() -> Vec<GoDocs> {
    let mut types: Vec<GoDocs> = Vec::new();
    let mut comment: Vec<&str> = Vec::new();
    for raw in GO_TYPES.lines() {
        let line = raw.trim_start();
        if let Some(text) = line.strip_prefix("//") {
            comment.push(text.strip_prefix(' ').unwrap_or(text));
            continue;
        }
        if let Some(rest) = line.strip_prefix("type ") {
            let name = rest.split_whitespace().next().unwrap().to_string();
            types.push((name, controller_gen_doc(&comment), Vec::new()));
        } else if let Some(tag) = line.split("`json:\"").nth(1) {
            let json = tag.split(['"', ',']).next().unwrap().to_string();
            let doc = controller_gen_doc(&comment);
            types.last_mut().unwrap().2.push((json, doc));
        }
        comment.clear();
    }
    types
}

#[test]
fn reference_descriptions_are_controller_gens() {
    let docs = go_docs();
    assert_eq!(docs.len(), 3);
    for (name, type_doc, fields) in docs {
        let s = match name.as_str() {
            "ObjectReference" => schema::<ObjectReference>(),
            "LocalObjectReference" => schema::<LocalObjectReference>(),
            "TypedLocalObjectReference" => schema::<TypedLocalObjectReference>(),
            other => panic!("unexpected type {other}"),
        };
        assert_eq!(s["description"], type_doc, "{name}");
        let properties = s["properties"].as_object().unwrap();
        assert_eq!(properties.len(), fields.len(), "{name}");
        for (json, doc) in fields {
            assert_eq!(properties[&json]["description"], doc, "{name}.{json}");
        }
    }
}

/// A schema without its `description`s, as the kubebuilder corpus CRD
/// (generated with `crd:maxDescLen=0`) shows it.
fn without_descriptions(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| *k != "description")
                .map(|(k, v)| (k.clone(), without_descriptions(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_descriptions).collect()),
        other => other.clone(),
    }
}

#[test]
fn reference_schemas_are_controller_gens() {
    assert_eq!(
        without_descriptions(&schema::<ObjectReference>()),
        json!({
            "type": "object",
            "properties": {
                "apiVersion": {"type": "string"},
                "fieldPath": {"type": "string"},
                "kind": {"type": "string"},
                "name": {"type": "string"},
                "namespace": {"type": "string"},
                "resourceVersion": {"type": "string"},
                "uid": {"type": "string"}
            },
            "x-kubernetes-map-type": "atomic"
        })
    );
    assert_eq!(
        without_descriptions(&schema::<LocalObjectReference>()),
        json!({
            "type": "object",
            "properties": {"name": {"default": "", "type": "string"}},
            "x-kubernetes-map-type": "atomic"
        })
    );
    assert_eq!(
        without_descriptions(&schema::<TypedLocalObjectReference>()),
        json!({
            "type": "object",
            "properties": {
                "apiGroup": {"type": "string"},
                "kind": {"type": "string"},
                "name": {"type": "string"}
            },
            "required": ["kind", "name"],
            "x-kubernetes-map-type": "atomic"
        })
    );
}

/// The kubebuilder book's CronJob CRD (controller-gen v0.21.0, k8s.io/api
/// v0.36.0) embeds all three references and int-or-string ports: the
/// schemas here must be the ones it shows.
#[test]
fn corpus_cronjob_shows_the_same_schemas() {
    let Some(text) = shared::corpus_file("kubebuilder/batch.tutorial.kubebuilder.io_cronjobs.yaml")
    else {
        return;
    };
    let crd = api_core::crd::yaml_to_json(&text).unwrap().remove(0);
    let root = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"];
    let pod = &root["spec"]["properties"]["jobTemplate"]["properties"]["spec"]["properties"]["template"]
        ["properties"]["spec"]["properties"];
    assert_eq!(
        root["status"]["properties"]["active"]["items"],
        without_descriptions(&schema::<ObjectReference>())
    );
    assert_eq!(
        pod["imagePullSecrets"]["items"],
        without_descriptions(&schema::<LocalObjectReference>())
    );
    let claim = &pod["volumes"]["items"]["properties"]["ephemeral"]["properties"]["volumeClaimTemplate"]
        ["properties"]["spec"]["properties"];
    assert_eq!(
        claim["dataSource"],
        without_descriptions(&schema::<TypedLocalObjectReference>())
    );
    let probe = &pod["containers"]["items"]["properties"]["livenessProbe"]["properties"];
    assert_eq!(
        probe["httpGet"]["properties"]["port"],
        schema::<IntOrString>()
    );
}

// ------------------------------------------------------------ RawExtension

#[test]
fn raw_extension_json() {
    let text = r#"{"kind":"PluginA","aOption":"foo","nested":{"list":[1,2.5,null]}}"#;
    let raw: RawExtension = serde_json::from_str(text).unwrap();
    assert_eq!(raw.as_value()["nested"]["list"][1], json!(2.5));
    assert_eq!(
        serde_json::to_value(&raw).unwrap(),
        serde_json::from_str::<Value>(text).unwrap()
    );

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct PluginA {
        kind: String,
        a_option: String,
    }
    let typed = PluginA {
        kind: "PluginA".into(),
        a_option: "foo".into(),
    };
    let raw = RawExtension::from_object(&typed).unwrap();
    assert_eq!(raw.to_object::<PluginA>().unwrap(), typed);
    assert!(raw.to_object::<Vec<i32>>().is_err());
    assert_eq!(Value::from(raw.clone()), raw.clone().into_value());
    assert_eq!(RawExtension::from(json!({})), RawExtension::new(json!({})));

    // Non-objects decode and encode unchanged (Go's RawExtension holds any
    // JSON), but validation reports them as the apiserver would.
    for (text, found) in [
        (r#""text""#, "string"),
        ("7", "integer"),
        ("7.5", "number"),
        ("true", "boolean"),
        ("[1, 2]", "array"),
    ] {
        let raw: RawExtension = serde_json::from_str(text).unwrap();
        assert_eq!(
            serde_json::to_value(&raw).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
        let errors = validate(&raw);
        assert_eq!(errors.len(), 1, "{text}");
        let e = &errors.as_slice()[0];
        assert_eq!(e.error_type, ErrorType::TypeInvalid);
        assert_eq!(e.field, "spec.x");
        assert_eq!(e.bad_value, Some(Value::from(found)));
        assert_eq!(
            e.detail,
            format!("spec.x in body must be of type object: \"{found}\"")
        );
    }
    // `null` is Go's empty RawExtension; in an Option it is `None`.
    let raw: RawExtension = serde_json::from_str("null").unwrap();
    assert_eq!(raw, RawExtension::default());
    assert_eq!(serde_json::to_string(&raw).unwrap(), "null");
    assert!(validate(&raw).is_empty());
    assert_eq!(
        serde_json::from_str::<Option<RawExtension>>("null").unwrap(),
        None
    );
    assert!(validate(&RawExtension::new(json!({"a": 1}))).is_empty());
}

#[test]
fn raw_extension_schema_and_facts() {
    assert_eq!(
        schema::<RawExtension>(),
        json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
    );
    // The kind `serde_json::Value` has: paths may go anywhere below it.
    assert_eq!(
        <RawExtension as ApiType>::FACTS.kind,
        <Value as ApiType>::FACTS.kind
    );
}

// ------------------------------------------------------- all in a resource

mod rollouts {
    use api_core::prelude::*;
    use serde::{Deserialize, Serialize};

    /// RolloutSpec is the desired state of a Rollout.
    #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
    #[kube(
        group = "apps.example.com",
        version = "v1",
        kind = "Rollout",
        namespaced,
        printcolumn(
            name = "Target",
            type = "string",
            json_path = ".spec.template.targetRef.name"
        ),
        printcolumn(
            name = "MaxUnavailable",
            type = "string",
            json_path = ".spec.template.maxUnavailable"
        ),
        printcolumn(
            name = "Deadline",
            type = "string",
            json_path = ".spec.template.progressDeadline"
        ),
        printcolumn(
            name = "Plugin",
            type = "string",
            json_path = ".spec.template.pluginConfig.kind"
        ),
        printcolumn(
            name = "Secret",
            type = "string",
            json_path = ".spec.template.imagePullSecrets[0].name"
        )
    )]
    #[allow(clippy::duplicated_attributes)]
    #[serde(rename_all = "camelCase")]
    pub struct RolloutSpec {
        /// template holds every common type.
        pub template: Template,
    }

    /// Template uses every common type once.
    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[serde(rename_all = "camelCase")]
    pub struct Template {
        /// maxUnavailable is a number of pods or a percentage.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub max_unavailable: Option<IntOrString>,

        /// progressDeadline is how long a rollout may take.
        #[kube(allow(no_durations))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub progress_deadline: Option<Duration>,

        /// targetRef is the object rolled out.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub target_ref: Option<ObjectReference>,

        /// watchedRefs are objects whose changes restart the rollout.
        #[kube(list_type = "set")]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub watched_refs: Vec<ObjectReference>,

        /// imagePullSecrets name the secrets to pull images with.
        #[kube(list_type = "map", list_map_keys = ["name"])]
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub image_pull_secrets: Vec<LocalObjectReference>,

        /// dataSourceRef is the volume to start from.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub data_source_ref: Option<TypedLocalObjectReference>,

        /// pluginConfig is the configuration of the rollout plugin.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub plugin_config: Option<RawExtension>,
    }
}

/// The schema of `T` with its description replaced by a field's doc.
fn described<T: ApiType>(doc: &str) -> Value {
    let mut s = schema::<T>();
    s["description"] = json!(doc);
    s
}

#[test]
fn every_common_type_in_a_crd() {
    let crd = rollouts::Rollout::crd().to_json();
    let errors = api_core::schema::structural::check_crd(&crd);
    assert!(errors.is_empty(), "{errors}");

    let version = &crd["spec"]["versions"][0];
    let template =
        &version["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["template"];
    let mut image_pull_secrets = json!({
        "description": "imagePullSecrets name the secrets to pull images with.",
        "type": "array",
        "items": schema::<LocalObjectReference>(),
        "x-kubernetes-list-map-keys": ["name"],
        "x-kubernetes-list-type": "map"
    });
    let mut watched = json!({
        "description": "watchedRefs are objects whose changes restart the rollout.",
        "type": "array",
        "items": schema::<ObjectReference>(),
        "x-kubernetes-list-type": "set"
    });
    assert_eq!(
        template["properties"],
        json!({
            "maxUnavailable": described::<IntOrString>("maxUnavailable is a number of pods or a percentage."),
            "progressDeadline": {"description": "progressDeadline is how long a rollout may take.", "type": "string"},
            "targetRef": described::<ObjectReference>("targetRef is the object rolled out."),
            "watchedRefs": watched.take(),
            "imagePullSecrets": image_pull_secrets.take(),
            "dataSourceRef": described::<TypedLocalObjectReference>("dataSourceRef is the volume to start from."),
            "pluginConfig": described::<RawExtension>("pluginConfig is the configuration of the rollout plugin.")
        })
    );
    assert_eq!(template.get("required"), None);

    let columns: Vec<&str> = version["additionalPrinterColumns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["jsonPath"].as_str().unwrap())
        .collect();
    assert_eq!(columns.len(), 5);

    // Objects of the resource: JSON round trip and validation.
    let text = json!({
        "apiVersion": "apps.example.com/v1",
        "kind": "Rollout",
        "metadata": {"name": "r", "namespace": "default"},
        "spec": {"template": {
            "maxUnavailable": "25%",
            "progressDeadline": "10m0s",
            "targetRef": {"kind": "Deployment", "name": "web", "apiVersion": "apps/v1"},
            "watchedRefs": [{"kind": "ConfigMap", "name": "a"}, {"kind": "ConfigMap", "name": "b"}],
            "imagePullSecrets": [{"name": "one"}, {"name": "two"}],
            "dataSourceRef": {"apiGroup": "snapshot.storage.k8s.io", "kind": "VolumeSnapshot", "name": "s"},
            "pluginConfig": {"kind": "Canary", "steps": [{"weight": 10}]}
        }}
    });
    let r: rollouts::Rollout = serde_json::from_value(text.clone()).unwrap();
    assert_eq!(
        r.spec.template.progress_deadline,
        Some(Duration::from_secs(600).unwrap())
    );
    assert_eq!(serde_json::to_value(&r).unwrap(), text);
    assert!(api_core::registry::strategy::validate(&r).is_empty());

    // A repeated list-map key, a repeated set item and a non-object
    // extension are reported where they are.
    let mut bad = r.clone();
    bad.spec.template.image_pull_secrets[1].name = "one".into();
    bad.spec.template.watched_refs[1].name = "a".into();
    bad.spec.template.plugin_config = Some(RawExtension::new(json!("text")));
    let errors = api_core::registry::strategy::validate(&bad);
    let found: Vec<(ErrorType, &str)> = errors
        .iter()
        .map(|e| (e.error_type, e.field.as_str()))
        .collect();
    for want in [
        (ErrorType::Duplicate, "spec.template.imagePullSecrets[1]"),
        (ErrorType::Duplicate, "spec.template.watchedRefs[1]"),
        (ErrorType::TypeInvalid, "spec.template.pluginConfig"),
    ] {
        assert!(found.contains(&want), "{want:?} not in {errors}");
    }

    // A wrong duration in an object names the input.
    let mut wrong = text;
    wrong["spec"]["template"]["progressDeadline"] = json!("10 minutes");
    let e = serde_json::from_value::<rollouts::Rollout>(wrong).unwrap_err();
    assert!(
        e.to_string()
            .contains(r#"time: unknown unit " minutes" in duration "10 minutes""#),
        "{e}"
    );
}
