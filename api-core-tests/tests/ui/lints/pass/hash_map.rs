#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// BTreeMap, or an explicit allow.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Maps {
    /// labels.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// annotations, order does not matter to us.
    #[kube(allow(hash_map))]
    #[serde(default, skip_serializing_if = "HashMap::is_empty")]
    pub annotations: HashMap<String, String>,
}

fn main() {}
