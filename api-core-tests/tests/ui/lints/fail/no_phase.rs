#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Phases are deprecated.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WidgetStatus {
    /// phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// another phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rollout_phase: Option<String>,
}

fn main() {}
