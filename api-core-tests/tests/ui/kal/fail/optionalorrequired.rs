//! KAL `optionalorrequired` (pkg/analysis/optionalorrequired/testdata/src/a).
//! Rust fields are never unmarked: `Option`/serde default make a field
//! optional, anything else is required; `#[kube(optional)]`/`#[kube(required)]`
//! are the explicit markers.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Optional or required.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OptionalOrRequiredTestStruct {
    /// f.
    #[kube(optional, required)]
    pub marked_opitonal_and_required: String, // KAL a/a.go:OptionalOrRequiredTestStruct.MarkedOpitonalAndRequired
}

fn main() {}
