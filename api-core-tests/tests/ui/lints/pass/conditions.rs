#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Spec.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    status = "WidgetStatus",
    printcolumn(name = "Ready", type = "string", json_path = ".status.conditions[?(@.type==\"Ready\")].status"),
    printcolumn(name = "Since", type = "date", json_path = ".status.conditions[?(@.type==\"Ready\")].lastTransitionTime")
)]
pub struct WidgetSpec {
    /// size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

/// Conditions done right.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default)]
pub struct WidgetStatus {
    /// conditions.
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions,
}

fn main() {
    let crd = Widget::crd().to_json();
    let conds = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["status"]["properties"]["conditions"];
    assert_eq!(conds["x-kubernetes-list-type"], "map");
    assert_eq!(conds["x-kubernetes-list-map-keys"], serde_json::json!(["type"]));
}
