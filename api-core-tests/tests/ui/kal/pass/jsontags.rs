//! KAL `jsontags` passing cases (pkg/analysis/jsontags/testdata/src/a).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// JSON tags.
#[derive(ApiType, Serialize, Deserialize)]
pub struct JSONTagTestStruct {
    /// f.
    #[serde(rename = "validJsonTag")]
    pub valid_json_tag: String, // KAL a/a.go:JSONTagTestStruct.ValidJSONTag
    /// f.
    #[serde(rename = "validOptionalJsonTag", default, skip_serializing_if = "Option::is_none")]
    pub valid_optional_json_tag: Option<String>, // KAL a/a.go:JSONTagTestStruct.ValidOptionalJSONTag
    /// f.
    #[serde(rename = "jsonTagWithID")]
    pub json_tag_with_id: String, // KAL a/a.go:JSONTagTestStruct.JSONTagWithID
    /// f.
    #[serde(rename = "jsonTagWithTTL")]
    pub json_tag_with_ttl: String, // KAL a/a.go:JSONTagTestStruct.JSONTagWithTTL
    /// f.
    #[serde(rename = "jsonTagWithGiB")]
    pub json_tag_with_gib: String, // KAL a/a.go:JSONTagTestStruct.JSONTagWithGiB
    /// f.
    #[serde(skip)]
    pub ignored: String, // KAL a/a.go:JSONTagTestStruct.Ignored
    /// f (Go embedded `A` with `json:",inline"`).
    #[serde(flatten)]
    pub a: A, // KAL a/a.go:JSONTagTestStruct.A
    /// f (Go embedded `B` with `json:"bar,omitempty"`).
    #[serde(rename = "bar")]
    pub b: B, // KAL a/a.go:JSONTagTestStruct.B
}

/// A.
#[derive(ApiType, Serialize, Deserialize)]
pub struct A {}

/// B.
#[derive(ApiType, Serialize, Deserialize)]
pub struct B {}

fn main() {}
