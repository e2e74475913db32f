use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Enum values are CamelCase.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// fast.
    Fast,
    /// slow.
    SlowAndSteady,
}

fn main() {}
