use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Bounded everywhere.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[kube(deny(max_length))]
pub struct Bounded {
    /// bounded string.
    #[kube(max_length = 63)]
    pub name: String,
    /// bounded list of bounded strings.
    #[kube(max_items = 16, items(max_length = 256))]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
}

fn main() {}
