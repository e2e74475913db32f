//! A status turns the subresource on by itself; a CRD reproduced as it is
//! (controller-gen's `+kubebuilder:subresource:status` on a type without a
//! status field) allows the lint.
#![deny(warnings)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// With a status.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Widget", status = "WidgetStatus")]
pub struct WidgetSpec {
    /// size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

/// The status.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default)]
pub struct WidgetStatus {
    /// ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready: Option<String>,
}

/// As controller-gen wrote it.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Gadget",
    status_subresource = true,
    allow(status_subresource)
)]
pub struct GadgetSpec {
    /// size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

fn main() {
    for crd in [Widget::crd().to_json(), Gadget::crd().to_json()] {
        assert!(crd["spec"]["versions"][0]["subresources"]["status"].is_object());
    }
}
