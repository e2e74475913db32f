//! `allow(status_optional)` works where the docs say it goes: on the status
//! type and on the field, not only on the spec struct (issue 14, bug 4).
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

/// Allowed on the type: every field may be required.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
#[kube(allow(status_optional))]
pub struct WidgetStatus {
    /// replicas.
    pub ready_replicas: i32,
}

/// Spec.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Gadget", status = "GadgetStatus")]
pub struct GadgetSpec {
    /// size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

/// Allowed on the one required field, and on a flattened one.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct GadgetStatus {
    /// readyCount is required by design.
    #[kube(allow(status_optional))]
    pub ready_count: i32,
    /// optional.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed: Option<i32>,
    /// common carries required fields.
    #[serde(flatten)]
    #[kube(allow(status_optional))]
    pub common: Common,
}

/// Fields shared by statuses.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Common {
    /// generation is required.
    pub generation: i64,
}

fn main() {}
