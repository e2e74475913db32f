//! KAL `defaultorrequired` (pkg/analysis/defaultorrequired/testdata/src/a).
//! Go `+kubebuilder:default` / `+default` is `#[default(..)]`; the required
//! markers are `#[kube(required)]`. An unmarked Rust field that is not an
//! `Option` is required.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Test.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Test {
    /// f.
    #[kube(required)]
    #[default("testValue")]
    pub conflicted_field: String, // KAL a/a.go:Test.ConflictedField
    /// f.
    #[default("defaultValue")]
    pub default_only_field: String, // KAL a/a.go:Test.DefaultOnlyField
    /// f.
    #[default("value")]
    pub valid_field3: String, // KAL a/a.go:Test.ValidField3
}

fn main() {}
