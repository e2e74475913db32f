//! KAL `optionalfields` passing cases (src/a, default policy).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct A {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer_string: Option<String>, // KAL a/a.go:A.PointerString
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer_int: Option<i32>, // KAL a/a.go:A.PointerInt
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer_struct: Option<B>, // KAL a/a.go:A.PointerStruct
    /// f.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slice: Vec<String>, // KAL a/a.go:A.Slice
    /// f.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub map: BTreeMap<String, String>, // KAL a/a.go:A.Map
}

/// B.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct B {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer_string: Option<String>, // KAL a/a.go:B.PointerString
}

/// D.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct D {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub string: Option<String>, // KAL a/a.go:D.String
    /// f.
    #[kube(min_length = 1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub string_with_min_length1: Option<String>, // KAL a/a.go:D.StringWithMinLength1
}

fn main() {}
