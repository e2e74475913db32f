//! KAL `optionalfields` (pkg/analysis/optionalfields/testdata/src/a, default
//! policy: pointers Always). Go `+optional` is `#[kube(optional)]`, a Go
//! pointer is `Option`, Go `omitempty` is `skip_serializing_if`. Go `int` is
//! translated as `i32` (widths are the `integers` linter's business).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct A {
    /// f.
    #[kube(optional)]
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub string: String, // KAL a/a.go:A.String
    /// f.
    #[kube(optional)]
    #[serde(default)]
    pub non_omitted_string: String, // KAL a/a.go:A.NonOmittedString
    /// f.
    #[kube(optional)]
    #[serde(default, skip_serializing_if = "is_zero")]
    pub int: i32, // KAL a/a.go:A.Int
    /// f.
    #[kube(optional)]
    #[serde(default)]
    pub non_omitted_int: i32, // KAL a/a.go:A.NonOmittedInt
    /// f (Go `omitempty` never omits a struct).
    #[kube(optional)]
    #[serde(default)]
    pub r#struct: B, // KAL a/a.go:A.Struct
    /// f.
    #[kube(optional)]
    #[serde(default)]
    pub non_omitted_struct: B, // KAL a/a.go:A.NonOmittedStruct
    /// f.
    #[kube(optional, min_properties = 1)]
    #[serde(default)]
    pub struct_with_min_properties: B, // KAL a/a.go:A.StructWithMinProperties
    /// f.
    #[kube(optional)]
    #[serde(default)]
    pub struct_with_min_properties_on_struct: D, // KAL a/a.go:A.StructWithMinPropertiesOnStruct
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer_slice: Option<Vec<String>>, // KAL a/a.go:A.PointerSlice
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer_map: Option<BTreeMap<String, String>>, // KAL a/a.go:A.PointerMap
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub double_pointer_string: Option<Option<String>>, // KAL a/a.go:A.DoublePointerString
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// B.
#[derive(ApiType, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct B {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer_string: Option<String>,
}

/// D (Go: `+kubebuilder:validation:MinProperties=1` on the type).
#[derive(ApiType, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct D {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub string: Option<String>,
}

fn main() {}
