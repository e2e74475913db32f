//! KAL `nonullable` (pkg/analysis/nonullable/testdata/src/a). There is no
//! `nullable` key: `#[kube(nullable)]` is rejected wherever it is written.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Go `+nullable type NullableMarkerType string`.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(nullable)] // KAL a/a.go:type NullableMarkerType
pub struct NullableMarkerType(pub String);

/// Test.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Test {
    /// f.
    #[kube(nullable)]
    pub nullable_marker_field: String, // KAL a/a.go:Test.NullableMarkerField
    /// f.
    pub nullable_marker_field_type_alias: NullableMarkerType, // KAL a/a.go:Test.NullableMarkerFieldTypeAlias
}

fn main() {}
