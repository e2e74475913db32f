#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Time fields are named `somethingTime`.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Times {
    /// when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_update: Option<Time>,
}

fn main() {}
