use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// JSON names are lowerCamelCase.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Thing {
    /// snake_case on the wire.
    pub max_replicas: i32,
    /// renamed badly.
    #[serde(rename = "Min-Replicas")]
    pub min_replicas: i32,
}

fn main() {}
