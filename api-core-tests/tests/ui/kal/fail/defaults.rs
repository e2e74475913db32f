//! KAL `defaults` (pkg/analysis/defaults/testdata/src/a, default config).
//! `+default=..` is `#[default(..)]`, `+optional` an `Option` (or
//! `#[kube(optional)]`), `omitempty` is `skip_serializing_if`.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct A {
    /// f.
    #[default("value")]
    #[serde(skip_serializing_if = "String::is_empty")]
    pub missing_optional_field: String, // KAL a/a.go:A.MissingOptionalField
    /// f.
    #[default("value")]
    #[serde(default)]
    pub missing_omit_empty_field: Option<String>, // KAL a/a.go:A.MissingOmitEmptyField
    /// f.
    #[default("value")]
    pub both_issues_field: String, // KAL a/a.go:A.BothIssuesField
    /// f.
    #[kube(required)]
    #[default("value")]
    #[serde(skip_serializing_if = "String::is_empty")]
    pub required_field_with_default: String, // KAL a/a.go:A.RequiredFieldWithDefault
    /// f.
    #[default(NestedStruct::default())]
    #[serde(flatten)]
    pub inline_field: NestedStruct, // KAL a/a.go:A.InlineField
    /// f.
    #[default("ignored")]
    #[serde(skip)]
    pub ignored_field: String, // KAL a/a.go:A.IgnoredField
    /// f.
    #[default(NestedStruct::default())]
    #[serde(default)]
    pub pointer_to_struct_missing_omit_empty: Option<NestedStruct>, // KAL a/a.go:A.PointerToStructMissingOmitEmpty
}

/// NestedStruct.
#[derive(ApiType, Serialize, Deserialize, Default, Clone)]
#[serde(rename_all = "camelCase")]
pub struct NestedStruct {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

fn main() {}
