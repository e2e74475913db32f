//! KAL `nophase` (pkg/analysis/nophase/testdata/src/a). `no_phase` warns, so
//! `#![deny(deprecated)]` makes it an error here.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Phase.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NoPhaseTestStruct {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>, // KAL a/a.go:NoPhaseTestStruct.Phase
}

/// Sub-phase.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NoSubPhaseTestStruct {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foo_phase: Option<String>, // KAL a/a.go:NoSubPhaseTestStruct.FooPhase
}

/// Serialized phase.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SerializedPhaseTeststruct {
    /// f.
    #[serde(rename = "fooPhase", default, skip_serializing_if = "Option::is_none")]
    pub foo_field: Option<String>, // KAL a/a.go:SerializedPhaseTeststruct.FooField
}

fn main() {}
