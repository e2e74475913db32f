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

/// A resource whose status has required conditions: the resource reports
/// them, at `status = ".."`.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Thing", status = "ThingStatus")]
pub struct ThingSpec {
    /// size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

/// Required conditions at the top of a resource's status.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[kube(allow(status_optional))]
pub struct ThingStatus {
    /// required.
    #[kube(required)]
    pub conditions: Conditions,
}

/// `Option<Conditions>`: empty and absent would be two ways to say none
/// (it slipped past `conditions` and `optional_field`, issue 14).
#[derive(ApiType, Serialize, Deserialize)]
pub struct GizmoStatus {
    /// optional twice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Conditions>,
}

fn main() {}
