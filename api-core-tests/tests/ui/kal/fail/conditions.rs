//! KAL `conditions` (pkg/analysis/conditions/testdata/src/a). A conditions
//! field is `api_core::Conditions` (a list-map keyed by `type`, optional);
//! the Go markers and tags are built into that type.
#![deny(deprecated)]
#![allow(non_snake_case)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Wrong type: a map.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(allow(no_maps))]
#[serde(rename_all = "camelCase")]
pub struct ConditionsIncorrectType {
    /// f.
    pub conditions: BTreeMap<String, Condition>, // KAL a/a.go:ConditionsIncorrectType.Conditions
}

/// Wrong item type: strings.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionsIncorrectSliceElement {
    /// f.
    pub conditions: Vec<String>, // KAL a/a.go:ConditionsIncorrectSliceElement.Conditions
}

/// Wrong item type: times.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionsIncorrectImportedSliceElement {
    /// f.
    pub conditions: Vec<Time>, // KAL a/a.go:ConditionsIncorrectImportedSliceElement.Conditions
}

/// Wrong item type: some other struct.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(allow(list_type))]
#[serde(rename_all = "camelCase")]
pub struct ConditionsIncorrectImportedPackage {
    /// f.
    pub conditions: Vec<Node>, // KAL a/a.go:ConditionsIncorrectImportedPackage.Conditions
}

/// Some other struct (Go `ast.Node`).
#[derive(ApiType, Serialize, Deserialize)]
pub struct Node {}

/// A plain list of conditions (no list-map markers).
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissingAllMarkers {
    /// f.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>, // KAL a/a.go:MissingAllMarkers.Conditions
}

/// A plain list of conditions (no list markers).
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MissingListMarkers {
    /// f.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>, // KAL a/a.go:MissingListMarkers.Conditions
}

/// A root whose status is `MissingOptionalMarker`: required conditions are
/// reported for a resource's status, at `status = ".."`.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "kal.example.com", version = "v1", kind = "MissingOptional", status = "MissingOptionalMarker", allow(status_optional))] // ANCHOR missingoptional
pub struct MissingOptionalSpec {
    /// f.
    pub name: String,
}

/// Not optional.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct MissingOptionalMarker {
    /// f.
    pub conditions: Conditions, // KAL a/a.go:MissingOptionalMarker.Conditions
}

/// No JSON name of its own (Go: no json tag, so the JSON name is `Conditions`).
#[derive(ApiType, Serialize, Deserialize)]
pub struct MissingFieldTag {
    /// f.
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub Conditions: Conditions, // KAL a/a.go:MissingFieldTag.Conditions
}

/// `json:"conditions"` without omitempty: always written.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IncorrectFieldTag {
    /// f.
    #[serde(default)]
    pub conditions: Conditions, // KAL a/a.go:IncorrectFieldTag.Conditions
}

fn main() {}
