//! KAL `requiredfields` passing cases (src/a/strings.go), pointer dimension.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Strings.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TestStrings {
    /// f.
    #[kube(required, min_length = 1)]
    pub string_with_min_length_with_omit_empty: String, // KAL a/strings.go:TestStrings.StringWithMinLengthWithOmitEmpty
    /// f.
    #[kube(required, enum = ["a", "b", "c"])]
    pub enum_string_with_omit_empty: String, // KAL a/strings.go:TestStrings.EnumStringWithOmitEmpty
}

fn main() {}
