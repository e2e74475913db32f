//! KAL `noreferences` (pkg/analysis/noreferences/testdata/src/a, default
//! policy PreferAbbreviatedReference). Our `reference_naming` is checked on the
//! JSON name.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// References.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TestWithPolicyPreferAbbreviatedReference {
    /// f.
    pub node_reference: String, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.NodeReference
    /// f.
    pub config_reference: String, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.ConfigReference
    /// f.
    pub node_references: Vec<String>, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.NodeReferences
    /// f.
    pub config_references: Vec<String>, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.ConfigReferences
    /// f.
    pub reference_count: i32, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.ReferenceCount
    /// f.
    pub reference_data: String, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.ReferenceData
    /// f.
    pub references_count: i32, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.ReferencesCount
    /// f.
    pub references_data: Vec<String>, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.ReferencesData
    /// f.
    #[serde(rename = "crossReferenceID")]
    pub cross_reference_id: String, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.CrossReferenceID
    /// f.
    pub cross_references_map: BTreeMap<String, String>, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.CrossReferencesMap
    /// f.
    pub referenced: bool, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.Referenced
}

fn main() {}
