//! KAL `nofloats` passing cases (pkg/analysis/nofloats/testdata/src/a).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Floats.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Floats {
    /// f.
    pub valid_string: String, // KAL a/a.go:Floats.ValidString
    /// f.
    pub valid_map: BTreeMap<String, String>, // KAL a/a.go:Floats.ValidMap
    /// f.
    pub valid_int32: i32, // KAL a/a.go:Floats.ValidInt32
    /// f.
    pub valid_int64: i64, // KAL a/a.go:Floats.ValidInt64
}

fn main() {}
