use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Conditions are `Conditions`, optional.
#[derive(ApiType, Serialize, Deserialize)]
pub struct WidgetStatus {
    /// a plain list of conditions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

/// Named `conditions` but something else.
#[derive(ApiType, Serialize, Deserialize)]
pub struct GadgetStatus {
    /// strings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<String>,
}

/// Required conditions.
#[derive(ApiType, Serialize, Deserialize)]
pub struct ThingStatus {
    /// required.
    #[kube(required)]
    pub conditions: Conditions,
}

fn main() {}
