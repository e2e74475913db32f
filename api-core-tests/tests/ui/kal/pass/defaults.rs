//! KAL `defaults` passing cases (src/a, default config).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct A {
    /// f.
    #[default("default-value")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub good_default_field: Option<String>, // KAL a/a.go:A.GoodDefaultField
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_default_field: Option<String>, // KAL a/a.go:A.NoDefaultField
    /// f.
    #[kube(required)]
    pub required_field_no_default: String, // KAL a/a.go:A.RequiredFieldNoDefault
    /// f.
    #[kube(required)]
    pub required_field_no_omit_empty: String, // KAL a/a.go:A.RequiredFieldNoOmitEmpty
    /// f.
    #[default(NestedStruct::default())]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub struct_field_with_both_omit: Option<NestedStruct>, // KAL a/a.go:A.StructFieldWithBothOmit
    /// f.
    #[default(NestedStruct::default())]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer_to_struct_field: Option<NestedStruct>, // KAL a/a.go:A.PointerToStructField
}

/// NestedStruct.
#[derive(ApiType, Serialize, Deserialize, Default, Clone)]
#[serde(rename_all = "camelCase")]
pub struct NestedStruct {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>, // KAL a/a.go:NestedStruct.Field
}

fn main() {}
