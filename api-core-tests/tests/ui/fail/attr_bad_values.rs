use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// All problems of a type are reported in one build.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Thing {
    /// minimum must be a number.
    #[kube(minimum = "one")]
    pub count: i32,
    /// the pattern must compile.
    #[kube(pattern = "([a-z]+")]
    pub name: String,
    /// list types are atomic, set or map.
    #[kube(list_type = "bag")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<String>,
    /// lengths must be ordered.
    #[kube(min_length = 5, max_length = 2)]
    pub code: String,
}

fn main() {}
