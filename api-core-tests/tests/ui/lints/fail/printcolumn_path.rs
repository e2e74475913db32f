use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Paths resolve through the types, to fields of a fitting type.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    status = "WidgetStatus",
    printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replica"),
    printcolumn(name = "Image", type = "integer", json_path = ".spec.image"),
    printcolumn(name = "Port", type = "integer", json_path = ".spec.ports[0].number"),
    printcolumn(name = "Hosts", type = "integer", json_path = ".spec.hosts"),
    printcolumn(name = "Ports", type = "string", json_path = ".spec.ports"),
    scale(spec_replicas_path = ".spec.image", status_replicas_path = ".status.ready"),
    selectable = ".spec.ports"
)]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    /// replicas.
    pub replicas: i32,
    /// image.
    pub image: String,
    /// hosts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<String>,
    /// ports.
    #[kube(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<Port>,
}

/// A port.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Port {
    /// port.
    pub port: i32,
}

/// Status.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct WidgetStatus {
    /// replicas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
}

fn main() {}
