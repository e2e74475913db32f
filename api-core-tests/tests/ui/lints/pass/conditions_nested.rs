//! Conditions nested inside a status, required by design (Gateway API's
//! `RouteParentStatus.conditions`, `minItems: 1`, and
//! `ListenerStatus.conditions`): the "conditions are optional" convention
//! is about a resource's top-level status, so `conditions` does not ask for
//! them to be optional here. `allow(conditions)` on a top-level status'
//! field is honoured by the resource's check.
#![deny(warnings)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A route.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Route", status = "RouteStatus")]
#[serde(rename_all = "camelCase")]
pub struct RouteSpec {
    /// hostnames the route answers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hostnames: Vec<String>,
}

/// The status of a route.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase")]
pub struct RouteStatus {
    /// parents is the status of the route at each parent.
    #[kube(list_type = "atomic", max_items = 32)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parents: Vec<RouteParentStatus>,
    /// conditions of the route itself.
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions,
}

/// The status of a route at one parent.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct RouteParentStatus {
    /// controller_name is the controller that wrote this status.
    #[kube(max_length = 253)]
    pub controller_name: String,
    /// conditions describe the status of the route at this parent: at
    /// least one, always present.
    #[kube(min_items = 1, max_items = 8)]
    pub conditions: Conditions,
    /// listeners of the parent, each with its own conditions.
    #[kube(list_type = "atomic", max_items = 8)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub listeners: Vec<ListenerStatus>,
}

/// The status of one listener.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ListenerStatus {
    /// conditions of this listener, required (no `min_items`).
    #[kube(max_items = 8)]
    pub conditions: Conditions,
}

/// A resource whose status' conditions are required on purpose.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Policy", status = "PolicyStatus")]
pub struct PolicySpec {
    /// size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

/// The status of a policy.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[kube(allow(status_optional))]
pub struct PolicyStatus {
    /// conditions, always written.
    #[kube(allow(conditions))]
    pub conditions: Conditions,
}

fn main() {
    let crd = Route::crd().to_json();
    let parent = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["status"]["properties"]["parents"]["items"];
    assert_eq!(parent["properties"]["conditions"]["minItems"], 1);
    assert_eq!(parent["required"], serde_json::json!(["conditions", "controllerName"]));
}
