#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Spec.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Widget", status = "WidgetStatus")]
pub struct WidgetSpec {
    /// size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

/// Status fields are optional.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct WidgetStatus {
    /// replicas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready_replicas: Option<i32>,
    /// a nested status-like type may have required fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<ContainerStatus>,
}

/// Not the resource's status: its fields may be required.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct ContainerStatus {
    /// name.
    pub name: String,
}

fn main() {}
