use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// `fooTime`, never `fooTimestamp`.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Times {
    /// when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_update_timestamp: Option<Time>,
}

fn main() {}
