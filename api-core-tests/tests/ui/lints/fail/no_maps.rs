use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A map alias.
pub type Scores = BTreeMap<String, i64>;

/// Maps are only string to string.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Maps {
    /// a map of objects.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub backends: BTreeMap<String, Backend>,
    /// a map of integers.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub weights: BTreeMap<String, i32>,
    /// an alias of a map of integers.
    pub scores: Scores,
}

/// A backend.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Backend {
    /// host.
    pub host: String,
}

fn main() {}
