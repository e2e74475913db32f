//! KAL `nonullable` passing cases (src/a): another marker (`+allowed`) has no
//! Rust counterpart, so these are plain fields.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Go `+allowed type AllowedMarkerType string`.
#[derive(ApiType, Serialize, Deserialize)]
pub struct AllowedMarkerType(pub String); // KAL a/a.go:type AllowedMarkerType

/// Test.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Test {
    /// f.
    pub allowed_marker_field: String, // KAL a/a.go:Test.AllowedMarkerField
    /// f.
    #[serde(rename = "allowedMarkerFieldTypeAlias")]
    pub allowed_marker_field_type_alias: AllowedMarkerType, // KAL a/a.go:Test.AllowedMarkerFieldTypeAlias
}

fn main() {}
