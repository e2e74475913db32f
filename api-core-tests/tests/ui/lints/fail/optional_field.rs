use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Optional fields are `Option` (or lists/maps), default when absent and are skipped when unset.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Optionals {
    /// optional but a plain integer.
    #[serde(default)]
    pub replicas: i32,
    /// written as null when unset.
    #[serde(default)]
    pub image: Option<String>,
    /// an optional list that must be present on input.
    #[kube(optional)]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
}

fn main() {}
