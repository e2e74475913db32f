//! KAL `nodurations` passing cases (pkg/analysis/nodurations/testdata/src/a).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Durations.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Durations {
    /// f.
    pub valid_string: String, // KAL a/a.go:Durations.ValidString
    /// f.
    pub valid_map: BTreeMap<String, String>, // KAL a/a.go:Durations.ValidMap
    /// f.
    pub valid_int32: i32, // KAL a/a.go:Durations.ValidInt32
    /// f.
    pub valid_int64: i64, // KAL a/a.go:Durations.ValidInt64
}

/// DurationsWithMetaV1Package.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DurationsWithMetaV1Package {
    /// f.
    pub valid_string: String, // KAL a/a.go:DurationsWithMetaV1Package.ValidString
    /// f.
    pub valid_map: BTreeMap<String, String>, // KAL a/a.go:DurationsWithMetaV1Package.ValidMap
    /// f.
    pub valid_int32: i32, // KAL a/a.go:DurationsWithMetaV1Package.ValidInt32
    /// f.
    pub valid_int64: i64, // KAL a/a.go:DurationsWithMetaV1Package.ValidInt64
}

fn main() {}
