//! Errors of the attributes added for real APIs (issue 14): each says what
//! is accepted.
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Bad CRD metadata and a status default without a status.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    annotation("Not A Key", "v"),
    annotation("example.com/ok", "v"),
    annotation("example.com/ok", "again"),
    label("example.com/tier", "not a value!"),
    status_default = Default::default()
)]
pub struct WidgetSpec {
    /// Mixed enum values.
    #[kube(enum = ["a", 1])]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mixed: Option<String>,
    /// Not literals.
    #[kube(enum = [1.5])]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub float: Option<i32>,
    /// The default twice.
    #[kube(default = 1)]
    #[default(2)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twice: Option<i32>,
}

/// An annotation without its value.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Gadget", annotation("example.com/one"))]
pub struct GadgetSpec {
    /// x.
    pub x: i32,
}

/// Integers listed for a string, strings for an integer.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Codes {
    /// ints on a string.
    #[kube(enum = [301, 302])]
    pub name: String,
    /// strings on an int.
    #[kube(enum = ["a", "b"])]
    pub code: i32,
}

/// Resource-only keys on an ApiType.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[kube(annotation("example.com/a", "b"), label("example.com/a", "b"))]
pub struct Nested {
    /// x.
    pub x: i32,
}

fn main() {}
