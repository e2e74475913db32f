//! Numeric literal defaults take the field's type (issue 27): `default =
//! 302` on `Option<isize>` (Go's `int`) or on any other integer width, and
//! `default = 1`, `-1` or `1.5` on `Option<f32>`/`Option<f64>`, compile;
//! `apply_defaults()` sets those values and the schema's `default:` is
//! written as the value's type writes it (`302`, `1.0`).

use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Every integer width, with a literal default (and the defaults' other
/// spellings: `#[default(...)]`, a negative literal, a hex literal).
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
#[kube(allow(integer_width))]
pub struct Integers {
    /// i8.
    #[kube(default = -12)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_i8: Option<i8>,
    /// i16.
    #[kube(default = 302)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_i16: Option<i16>,
    /// i32.
    #[kube(default = 302)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_i32: Option<i32>,
    /// i64, beyond `i32`.
    #[kube(default = 5_000_000_000)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_i64: Option<i64>,
    /// i128.
    #[kube(default = 302)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_i128: Option<i128>,
    /// isize (Go's `int`).
    #[kube(default = 302)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_isize: Option<isize>,
    /// isize, negative, with `#[default(...)]`.
    #[default(-302)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_negative_isize: Option<isize>,
    /// u8, in hex.
    #[kube(default = 0xff)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_u8: Option<u8>,
    /// u16.
    #[kube(default = 302)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_u16: Option<u16>,
    /// u32.
    #[kube(default = 302)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_u32: Option<u32>,
    /// u64, beyond `i64`.
    #[kube(default = 18_000_000_000_000_000_000)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_u64: Option<u64>,
    /// u128.
    #[kube(default = 302)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_u128: Option<u128>,
    /// usize.
    #[kube(default = 302)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_usize: Option<usize>,
    /// A required `isize`: the default only goes into the schema.
    #[kube(default = 302, allow(default_or_required))]
    pub required_isize: isize,
    /// A suffixed literal still converts with `Into` (`u8` into `isize`).
    #[kube(default = 30u8)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suffixed: Option<isize>,
}

/// Floats, with integer and float literals.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
#[kube(allow(no_floats))]
pub struct Floats {
    /// f64 from an integer literal.
    #[kube(default = 1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_f64: Option<f64>,
    /// f64 from a negative integer literal.
    #[kube(default = -1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minus_one_f64: Option<f64>,
    /// f64 from a float literal, as it always worked.
    #[kube(default = 1.0)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_point_zero_f64: Option<f64>,
    /// f64 from a fraction.
    #[default(1.5)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half_f64: Option<f64>,
    /// f32 from an integer literal.
    #[kube(default = 1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub one_f32: Option<f32>,
    /// f32 from a negative integer literal.
    #[kube(default = -1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minus_one_f32: Option<f32>,
    /// f32 from a fraction (an unsuffixed float literal is an `f64` to `Into`).
    #[kube(default = 1.5)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half_f32: Option<f32>,
    /// f32 from a negative fraction.
    #[kube(default = -1.5)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minus_half_f32: Option<f32>,
    /// A required `f64`: the default only goes into the schema.
    #[kube(default = 2, allow(default_or_required))]
    pub required_f64: f64,
}

/// Nothing set (`#[default(...)]` rules out `#[derive(Default)]`).
fn unset_integers() -> Integers {
    Integers {
        a_i8: None,
        a_i16: None,
        a_i32: None,
        a_i64: None,
        a_i128: None,
        a_isize: None,
        a_negative_isize: None,
        a_u8: None,
        a_u16: None,
        a_u32: None,
        a_u64: None,
        a_u128: None,
        a_usize: None,
        required_isize: 0,
        suffixed: None,
    }
}

fn unset_floats() -> Floats {
    Floats {
        one_f64: None,
        minus_one_f64: None,
        one_point_zero_f64: None,
        half_f64: None,
        one_f32: None,
        minus_one_f32: None,
        half_f32: None,
        minus_half_f32: None,
        required_f64: 0.0,
    }
}

fn properties<T: ApiType>() -> Value {
    let schema = T::api_schema(&mut schemars::SchemaGenerator::default());
    schema.to_value()["properties"].clone()
}

#[test]
fn integer_literals_take_the_field_type() {
    let mut v = unset_integers();
    v.apply_defaults();
    assert_eq!(
        v,
        Integers {
            a_i8: Some(-12),
            a_i16: Some(302),
            a_i32: Some(302),
            a_i64: Some(5_000_000_000),
            a_i128: Some(302),
            a_isize: Some(302),
            a_negative_isize: Some(-302),
            a_u8: Some(255),
            a_u16: Some(302),
            a_u32: Some(302),
            a_u64: Some(18_000_000_000_000_000_000),
            a_u128: Some(302),
            a_usize: Some(302),
            required_isize: 0,
            suffixed: Some(30),
        }
    );
    let props = properties::<Integers>();
    let expected = [
        ("aI8", json!(-12)),
        ("aI16", json!(302)),
        ("aI32", json!(302)),
        ("aI64", json!(5_000_000_000_i64)),
        ("aI128", json!(302)),
        ("aIsize", json!(302)),
        ("aNegativeIsize", json!(-302)),
        ("aU8", json!(255)),
        ("aU16", json!(302)),
        ("aU32", json!(302)),
        ("aU64", json!(18_000_000_000_000_000_000_u64)),
        ("aU128", json!(302)),
        ("aUsize", json!(302)),
        ("requiredIsize", json!(302)),
        ("suffixed", json!(30)),
    ];
    for (name, default) in expected {
        assert_eq!(props[name]["default"], default, "{name}");
        assert!(props[name]["default"].is_i64() || props[name]["default"].is_u64());
        assert_eq!(props[name]["type"], "integer", "{name}");
    }
}

#[test]
fn float_fields_take_integer_and_float_literals() {
    let mut v = unset_floats();
    v.apply_defaults();
    assert_eq!(
        v,
        Floats {
            one_f64: Some(1.0),
            minus_one_f64: Some(-1.0),
            one_point_zero_f64: Some(1.0),
            half_f64: Some(1.5),
            one_f32: Some(1.0),
            minus_one_f32: Some(-1.0),
            half_f32: Some(1.5),
            minus_half_f32: Some(-1.5),
            required_f64: 0.0,
        }
    );
    let props = properties::<Floats>();
    // An integer literal on a float field is written as `default = 1.0`
    // does: a float.
    assert_eq!(
        props["oneF64"]["default"],
        props["onePointZeroF64"]["default"]
    );
    let expected = [
        ("oneF64", 1.0),
        ("minusOneF64", -1.0),
        ("onePointZeroF64", 1.0),
        ("halfF64", 1.5),
        ("oneF32", 1.0),
        ("minusOneF32", -1.0),
        ("halfF32", 1.5),
        ("minusHalfF32", -1.5),
        ("requiredF64", 2.0),
    ];
    for (name, default) in expected {
        assert_eq!(props[name]["default"], json!(default), "{name}");
        assert!(props[name]["default"].is_f64(), "{name}");
        assert_eq!(props[name]["type"], "number", "{name}");
    }
    let yaml = serde_json::to_string(&props["oneF64"]["default"]).unwrap();
    assert_eq!(yaml, "1.0");
}
