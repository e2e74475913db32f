//! KAL `duplicatemarkers` (pkg/analysis/duplicatemarkers/testdata/src/a). A
//! Go marker is a `#[kube(..)]` key; a Go type's markers go on the Rust
//! newtype's field. A single-valued key given twice is rejected by the
//! attribute parser, whether the values are equal or not.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Go `type MaxLength` with `MaxLength=10` and `MaxLength=11` (KAL: not an
/// exact duplicate, so no report here; `uniquemarkers` reports it).
#[derive(ApiType, Serialize, Deserialize)]
pub struct MaxLength(#[kube(max_length = 10, max_length = 11)] pub String); // KAL a/a.go:type MaxLength

/// Go `type DuplicatedMaxLength` with `MaxLength=10` twice.
#[derive(ApiType, Serialize, Deserialize)]
pub struct DuplicatedMaxLength(#[kube(max_length = 10, max_length = 10)] pub String); // KAL a/a.go:type DuplicatedMaxLength

/// A string with `MaxLength=10` on its type (Go `StringFromAnotherFile`).
#[derive(ApiType, Serialize, Deserialize)]
pub struct StringFromAnotherFile(#[kube(max_length = 10)] pub String); // KAL a/b.go:type StringFromAnotherFile

/// A string type with `MaxLength=10` (the valid counterpart of Go `MaxLength`).
#[derive(ApiType, Serialize, Deserialize)]
pub struct MaxLength10(#[kube(max_length = 10)] pub String);

/// The spec. Go `int` is `i32`; MaxLength fields are strings here.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(allow(list_type))]
#[serde(rename_all = "camelCase")]
pub struct DuplicateMarkerSpec {
    /// f.
    #[kube(max_length = 11, max_length = 10)]
    pub maxlength: String, // KAL a/a.go:DuplicateMarkerSpec.Maxlength
    /// f.
    #[kube(required, required)]
    pub duplicated_required: String, // KAL a/a.go:DuplicateMarkerSpec.DuplicatedRequired
    /// f.
    #[kube(enum = ["foo", "bar", "baz"], enum = ["foo", "bar", "baz"])]
    pub duplicated_enum: String, // KAL a/a.go:DuplicateMarkerSpec.DuplicatedEnum
    /// f.
    #[kube(max_length = 10, max_length = 10)]
    pub duplicated_max_length: String, // KAL a/a.go:DuplicateMarkerSpec.DuplicatedMaxLength
    /// f.
    #[kube(max_length = 10)]
    pub duplicated_max_length_including_type_marker: MaxLength10, // KAL a/a.go:DuplicateMarkerSpec.DuplicatedMaxLengthIncludingTypeMarker
    /// f (Go puts the list markers on a struct field; a list here).
    #[kube(required, list_type = "map", list_map_keys = ["primaryKey", "secondaryKey"], list_type = "map")]
    pub duplicated_list_type_map: Vec<Map>, // KAL a/a.go:DuplicateMarkerSpec.DuplicatedListTypeMap
    /// f.
    #[kube(validation(rule = "self >= 1 && self <= 3", message = "must be 1 to 5"), validation(rule = "self == oldSelf", message = "replicas must be immutable"), validation(rule = "self >= 1 && self <= 3", message = "must be 1 to 5"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicated_replicas: Option<i32>, // KAL a/a.go:DuplicateMarkerSpec.DuplicatedReplicas
    /// f.
    #[kube(validation(rule = "self >= 1 && self <= 3", message = "must be 1 to 5"), validation(rule = "self == oldSelf", message = "replicas must be immutable"), validation(message = "must be 1 to 5", rule = "self >= 1 && self <= 3"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicated_unordered_validation_replicas: Option<i32>, // KAL a/a.go:DuplicateMarkerSpec.DuplicatedUnorderedValidationReplicas
    /// f.
    #[kube(max_length = 10)]
    pub string_from_another_file_with_max_length: StringFromAnotherFile, // KAL a/a.go:DuplicateMarkerSpec.StringFromAnotherFileWithMaxLength
}

/// Map.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Map {
    /// f.
    pub primary_key: String,
    /// f.
    pub secondary_key: String,
    /// f.
    pub value: String,
}

fn main() {}
