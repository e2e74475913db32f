//! KAL `conditions` cases that compile (src/a): the valid one, and one KAL
//! reports that we do not (conditions not first; see README).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Valid.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidConditions {
    /// f.
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions, // KAL a/a.go:ValidConditions.Conditions
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_field: Option<String>, // KAL a/a.go:ValidConditions.OtherField
}

/// Conditions after another field.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConditionsNotFirst {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_field: Option<String>, // KAL a/a.go:ConditionsNotFirst.OtherField
    /// f.
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions, // KAL a/a.go:ConditionsNotFirst.Conditions
}

fn main() {}
