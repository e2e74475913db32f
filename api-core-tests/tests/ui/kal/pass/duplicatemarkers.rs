//! KAL `duplicatemarkers` passing cases (src/a).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A string with `MaxLength=10` on its type (Go `StringFromAnotherFile`).
#[derive(ApiType, Serialize, Deserialize)]
pub struct StringFromAnotherFile(#[kube(max_length = 10)] pub String);

/// The spec.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DuplicateMarkerSpec {
    /// f.
    #[kube(required)]
    pub required: String, // KAL a/a.go:DuplicateMarkerSpec.Required
    /// f (Go puts the list markers on a struct field; a list here).
    #[kube(required, list_type = "map", list_map_keys = ["primaryKey", "secondaryKey"])]
    pub map: Vec<Map>, // KAL a/a.go:DuplicateMarkerSpec.Map
    /// f.
    #[kube(validation(rule = "self >= 1 && self <= 3", message = "must be 1 to 5"), validation(rule = "self == oldSelf", message = "replicas must be immutable"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>, // KAL a/a.go:DuplicateMarkerSpec.Replicas
    /// f.
    pub string_from_another_file: StringFromAnotherFile, // KAL a/a.go:DuplicateMarkerSpec.StringFromAnotherFile
}

/// Map.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Map {
    /// f.
    pub primary_key: String, // KAL a/a.go:Map.PrimaryKey
    /// f.
    pub secondary_key: String, // KAL a/a.go:Map.SecondaryKey
    /// f.
    pub value: String, // KAL a/a.go:Map.Value
}

fn main() {}
