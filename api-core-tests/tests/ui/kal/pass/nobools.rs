//! KAL `nobools` passing cases (pkg/analysis/nobools/testdata/src/a).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Bools.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(deny(no_bools))]
#[serde(rename_all = "camelCase")]
pub struct Bools {
    /// f.
    pub valid_string: String, // KAL a/a.go:Bools.ValidString
    /// f.
    pub valid_map: BTreeMap<String, String>, // KAL a/a.go:Bools.ValidMap
    /// f.
    pub valid_int32: i32, // KAL a/a.go:Bools.ValidInt32
    /// f.
    pub valid_int64: i64, // KAL a/a.go:Bools.ValidInt64
}

fn main() {}
