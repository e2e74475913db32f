#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Names the conventions like.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Names {
    /// when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_update_time: Option<Time>,
    /// a reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_ref: Option<String>,
    /// references.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config_map_refs: Vec<String>,
    /// a boolean adjective.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// a timestamp named like ObjectMeta's, allowed explicitly.
    #[kube(allow(timestamp_naming, time_field_suffix))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<Time>,
}

fn main() {}
