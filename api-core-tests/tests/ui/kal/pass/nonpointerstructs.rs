//! KAL `nonpointerstructs` cases that compile (src/a).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct A {
    /// f (unmarked; its struct has no required field).
    pub with_optional: WithOptionalField, // KAL a/a.go:A.WithOptional
    /// f (`+required`).
    #[kube(required)]
    pub with_required_field_correct: WithRequiredField, // KAL a/a.go:A.WithRequiredFieldCorrect
    /// f (`+kubebuilder:validation:Required`).
    #[kube(required)]
    pub with_required_and_optional_field_correct: WithRequiredAndOptionalField, // KAL a/a.go:A.WithRequiredAndOptionalFieldCorrect
    /// f (`+k8s:required`).
    #[kube(required)]
    pub with_optional_fields_and_min_properties_correct: WithOptionalFieldsAndMinProperties, // KAL a/a.go:A.WithOptionalFieldsAndMinPropertiesCorrect
    /// f (`+kubebuilder:validation:Required` on a struct with no required field).
    #[kube(required)]
    pub with_optional_field_incorrect: WithOptionalField, // KAL a/a.go:A.WithOptionalFieldIncorrect
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with_required_field_and_pointer: Option<WithRequiredField>, // KAL a/a.go:A.WithRequiredFieldAndPointer
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with_optional_field_and_pointer: Option<WithOptionalField>, // KAL a/a.go:A.WithOptionalFieldAndPointer
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with_required_and_optional_field_and_pointer: Option<WithRequiredAndOptionalField>, // KAL a/a.go:A.WithRequiredAndOptionalFieldAndPointer
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with_optional_fields_and_min_properties_and_pointer: Option<WithOptionalFieldsAndMinProperties>, // KAL a/a.go:A.WithOptionalFieldsAndMinPropertiesAndPointer
}

/// The four Go inline embeddings (separate structs: serde would see the
/// same JSON names twice in one).
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InlineRequired {
    /// f.
    #[serde(flatten)]
    pub with_required_field: WithRequiredField, // KAL a/a.go:A.WithRequiredField
}

/// Inline.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InlineOptional {
    /// f.
    #[serde(flatten)]
    pub with_optional_field: WithOptionalField, // KAL a/a.go:A.WithOptionalField
}

/// Inline.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InlineRequiredAndOptional {
    /// f.
    #[serde(flatten)]
    pub with_required_and_optional_field: WithRequiredAndOptionalField, // KAL a/a.go:A.WithRequiredAndOptionalField
}

/// Inline.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InlineMinProperties {
    /// f.
    #[serde(flatten)]
    pub with_optional_fields_and_min_properties: WithOptionalFieldsAndMinProperties, // KAL a/a.go:A.WithOptionalFieldsAndMinProperties
}

/// WithRequiredField.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WithRequiredField {
    /// f.
    #[kube(required)]
    pub required_field: String, // KAL a/a.go:WithRequiredField.RequiredField
}

/// WithOptionalField.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WithOptionalField {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional_field: Option<String>, // KAL a/a.go:WithOptionalField.OptionalField
}

/// WithRequiredAndOptionalField.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WithRequiredAndOptionalField {
    /// f.
    #[kube(required)]
    pub required_field: String, // KAL a/a.go:WithRequiredAndOptionalField.RequiredField
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional_field: Option<String>, // KAL a/a.go:WithRequiredAndOptionalField.OptionalField
}

/// WithOptionalFieldsAndMinProperties (Go: `MinProperties=1` on the type).
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WithOptionalFieldsAndMinProperties {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional_field: Option<String>, // KAL a/a.go:WithOptionalFieldsAndMinProperties.OptionalField
}

fn main() {}
