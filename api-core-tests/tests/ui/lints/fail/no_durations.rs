use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A duration alias.
pub type Timeout = std::time::Duration;

/// No Duration types.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Durations {
    /// direct.
    pub timeout_seconds: std::time::Duration,
    /// an alias.
    pub grace_seconds: Timeout,
}

fn main() {}
