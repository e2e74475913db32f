use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Bools are allowed by default.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Flags {
    /// suspend.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,
}

fn main() {}
