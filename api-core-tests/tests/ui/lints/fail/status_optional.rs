#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// The resource knows its status type, and warns when a top-level status
/// field is required.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Widget", status = "WidgetState")]
pub struct WidgetSpec {
    /// size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

/// Status fields are optional.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct WidgetState {
    /// replicas.
    pub ready_replicas: i32,
}

fn main() {}
