//! KAL `optionalorrequired` passing cases (src/a).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Optional or required.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OptionalOrRequiredTestStruct {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optional_marker: Option<String>, // KAL a/a.go:OptionalOrRequiredTestStruct.OptionalMarker
    /// f.
    #[kube(required)]
    pub required_marker: String, // KAL a/a.go:OptionalOrRequiredTestStruct.RequiredMarker
    /// f (Go embedded `A` with `json:",inline"`).
    #[serde(flatten)]
    pub a: A, // KAL a/a.go:OptionalOrRequiredTestStruct.A
    /// f (Go embedded `C`, `+optional`, `json:"c,omitempty"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub c: Option<C>, // KAL a/a.go:OptionalOrRequiredTestStruct.C
}

/// A.
#[derive(ApiType, Serialize, Deserialize)]
pub struct A {}

/// C.
#[derive(ApiType, Serialize, Deserialize)]
pub struct C {}

fn main() {}
