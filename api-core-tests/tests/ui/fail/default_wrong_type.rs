use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A default must convert into the field's type.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Thing {
    /// replicas.
    #[default("three")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
}

fn main() {}
