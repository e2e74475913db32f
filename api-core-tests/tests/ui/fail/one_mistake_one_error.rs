//! One mistake, one error: a type whose derive fails does not make the
//! checks of the types that use it fail too (before, its stand-in facts
//! had no fields, so a list-map keyed by its `name` reported E0080 "not a
//! field" in the other type, and the other type's warning was lost)
//! (issue 14, bug 5).
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A port with a mistake: a JSON name that is not lowerCamelCase.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Port {
    /// name.
    pub name: String,
    /// The mistake.
    #[serde(rename = "Container_Port")]
    pub container_port: i32,
}

/// Spec.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Widget")]
pub struct WidgetSpec {
    /// ports by name.
    #[kube(list_type = "map", list_map_keys = ["name"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<Port>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undocumented: Option<i32>,
}

fn main() {}
