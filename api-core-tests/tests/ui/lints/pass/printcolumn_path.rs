use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Paths that resolve.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    status = "WidgetStatus",
    printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replicas"),
    printcolumn(name = "Port", type = "integer", json_path = ".spec.ports[0].port"),
    printcolumn(name = "Mode", type = "string", json_path = ".spec.mode"),
    printcolumn(name = "Age", type = "date", json_path = ".metadata.creationTimestamp"),
    printcolumn(name = "Since", type = "date", json_path = ".status.sinceTime"),
    scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas", label_selector_path = ".status.selector"),
    selectable = ".spec.mode"
)]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    /// replicas.
    pub replicas: i32,
    /// mode.
    pub mode: Mode,
    /// ports.
    #[kube(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<Port>,
}

/// A mode.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub enum Mode {
    /// fast.
    Fast,
}

/// A port.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Port {
    /// port.
    pub port: i32,
}

/// Status.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct WidgetStatus {
    /// replicas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// selector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// since when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since_time: Option<Time>,
}

fn main() {}
