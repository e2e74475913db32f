use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Maps of strings, and of string enums, are fine.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Maps {
    /// labels.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    /// modes by name: the values are strings on the wire.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub modes: BTreeMap<String, Mode>,
    /// allowed for compatibility.
    #[kube(allow(no_maps))]
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub weights: BTreeMap<String, i32>,
}

/// A mode.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub enum Mode {
    /// fast.
    Fast,
    /// slow.
    Slow,
}

fn main() {}
