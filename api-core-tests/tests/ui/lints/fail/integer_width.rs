use api_core::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// An alias is seen through by the type layer.
pub type Port = u16;

/// Integers are `i32` or `i64`.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Widths {
    /// unsigned.
    pub replicas: u32,
    /// narrow, inside containers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shards: Vec<i8>,
    /// platform-sized.
    pub count: usize,
    /// an alias of `u16`.
    pub port: Port,
    /// unsigned map values (labels-like maps are strings; this one is also a no_maps error).
    #[kube(allow(no_maps))]
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub limits: BTreeMap<String, u64>,
}

fn main() {}
