use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// `fooable`, never `isFooable`.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Flags {
    /// enabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_enabled: Option<bool>,
}

fn main() {}
