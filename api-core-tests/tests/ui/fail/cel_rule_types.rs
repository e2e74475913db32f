use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Rules are type-checked against the fields they read (feature `cel`):
/// a misspelt field, a comparison of an int with a string, a rule that is
/// not a bool, and a message expression that is not a string fail the
/// build at the rule, with the CEL checker's message.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Widget")]
#[kube(validation(rule = "self.spec.replicsa <= 10", message = "at most ten"))]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    /// Replicas.
    #[kube(validation(rule = "self == 'three'", message = "three"))]
    pub replicas: i32,
    /// Tags.
    #[kube(validation(rule = "self.size()", message = "some"))]
    pub tags: Vec<String>,
    /// A name.
    #[kube(validation(rule = "self != ''", message_expression = "self.size()"))]
    pub name: String,
    /// Fields of other types are `dyn` to the derive: anything goes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inner: Option<Inner>,
}

/// Inner.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[kube(validation(rule = "self.limit > self.floor", message = "above the floor"))]
pub struct Inner {
    /// Limit.
    pub limit: i64,
}

fn main() {}
