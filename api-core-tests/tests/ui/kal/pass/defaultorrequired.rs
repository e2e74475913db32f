//! KAL `defaultorrequired` passing cases (src/a).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Test.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Test {
    /// f.
    #[kube(required)]
    pub required_only_field: String, // KAL a/a.go:Test.RequiredOnlyField
    /// f.
    pub normal_field: String, // KAL a/a.go:Test.NormalField
    /// f.
    pub valid_field1: String, // KAL a/a.go:Test.ValidField1
    /// f.
    #[kube(required)]
    pub valid_field2: String, // KAL a/a.go:Test.ValidField2
}

fn main() {}
