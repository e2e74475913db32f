//! KAL `nonpointerstructs` (pkg/analysis/nonpointerstructs/testdata/src/a).
//! A Go non-pointer struct field is a plain struct field in Rust; the markers
//! are `#[kube(optional)]`/`#[kube(required)]`; a Go pointer is `Option`.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct A {
    /// f (`+optional`).
    #[kube(optional)]
    #[serde(default)]
    pub with_optional_field_correct: WithOptionalField, // KAL a/a.go:A.WithOptionalFieldCorrect
    /// f (`+kubebuilder:validation:Optional`).
    #[kube(optional)]
    #[serde(default)]
    pub with_required_field_incorrect: WithRequiredField, // KAL a/a.go:A.WithRequiredFieldIncorrect
    /// f (`+kubebuilder:validation:Optional`).
    #[kube(optional)]
    #[serde(default)]
    pub with_required_and_optional_field_incorrect: WithRequiredAndOptionalField, // KAL a/a.go:A.WithRequiredAndOptionalFieldIncorrect
    /// f (`+kubebuilder:validation:Optional`).
    #[kube(optional)]
    #[serde(default)]
    pub with_optional_fields_and_min_properties_incorrect: WithOptionalFieldsAndMinProperties, // KAL a/a.go:A.WithOptionalFieldsAndMinPropertiesIncorrect
}

/// WithRequiredField.
#[derive(ApiType, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct WithRequiredField {
    /// f.
    #[kube(required)]
    pub required_field: String,
}

/// WithOptionalField.
#[derive(ApiType, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct WithOptionalField {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional_field: Option<String>,
}

/// WithRequiredAndOptionalField.
#[derive(ApiType, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct WithRequiredAndOptionalField {
    /// f.
    #[kube(required)]
    pub required_field: String,
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional_field: Option<String>,
}

/// WithOptionalFieldsAndMinProperties (Go: `MinProperties=1` on the type).
#[derive(ApiType, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct WithOptionalFieldsAndMinProperties {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional_field: Option<String>,
}

fn main() {}
