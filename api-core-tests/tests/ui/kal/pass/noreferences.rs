//! KAL `noreferences` passing cases (src/a).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// References.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TestWithPolicyPreferAbbreviatedReference {
    /// f.
    pub node_ref: String, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.NodeRef
    /// f.
    pub config_ref: String, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.ConfigRef
    /// f.
    pub node_refs: Vec<String>, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.NodeRefs
    /// f.
    pub config_refs: Vec<String>, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.ConfigRefs
    /// f.
    pub ref_count: i32, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.RefCount
    /// f.
    pub refs_data: Vec<String>, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.RefsData
    /// f.
    pub internal_ref_data: String, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.InternalRefData
    /// f.
    pub internal_refs_data: Vec<String>, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.InternalRefsData
    /// f.
    pub name: String, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.Name
    /// f.
    pub namespace: String, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.Namespace
    /// f.
    pub referral: String, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.Referral
    /// f.
    pub referee: String, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.Referee
    /// f.
    pub preference_type: String, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.PreferenceType
    /// f.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub preferences: BTreeMap<String, String>, // KAL a/a.go:TestWithPolicyPreferAbbreviatedReference.Preferences
}

fn main() {}
