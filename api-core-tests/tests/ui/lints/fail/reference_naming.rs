use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// `fooRef`, never `fooReference`.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Refs {
    /// secret.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_reference: Option<String>,
    /// config maps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config_map_references: Vec<String>,
}

fn main() {}
