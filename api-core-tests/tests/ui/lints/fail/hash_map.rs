#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// HashMap serializes in random order: a warning.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Hashes {
    /// labels.
    #[serde(default, skip_serializing_if = "HashMap::is_empty")]
    pub labels: HashMap<String, String>,
    /// tags.
    #[kube(list_type = "set")]
    #[serde(default, skip_serializing_if = "HashSet::is_empty")]
    pub tags: HashSet<String>,
}

fn main() {}
