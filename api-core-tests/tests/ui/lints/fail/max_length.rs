use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// `max_length` is allowed by default; this type denies it.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(deny(max_length))]
pub struct Bounded {
    /// unbounded string.
    pub name: String,
    /// unbounded list of unbounded strings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
}

fn main() {}
