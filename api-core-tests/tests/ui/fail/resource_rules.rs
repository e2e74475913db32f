use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Scale needs the status subresource; printcolumn types are checked.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas"),
    printcolumn(name = "Replicas", type = "int", json_path = "spec.replicas")
)]
pub struct WidgetSpec {
    /// replicas.
    pub replicas: i32,
}

/// The kind names the root struct, so the spec needs another name.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Gadget")]
pub struct Gadget {
    /// a.
    pub a: String,
}

fn main() {}
