//! `int_or_string` where the value is not an integer or a string: the CRD
//! would fail the apiserver's structural checks, so it does not compile
//! (issue 14, bug 1).
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// An object.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Inner {
    /// a.
    pub a: String,
}

/// Marked at the type, but an object.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[kube(int_or_string)]
pub struct Object {
    /// a.
    pub a: String,
}

/// Externally tagged: serde writes objects.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
#[kube(int_or_string)]
pub enum Tagged {
    /// n.
    Number(i32),
    /// s.
    Name(String),
}

/// Untagged, but a variant is not a single value.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(untagged)]
#[kube(int_or_string)]
pub enum Wide {
    /// n.
    Number(i32),
    /// p.
    Pair {
        /// a.
        a: i32,
    },
}

/// Untagged, but a variant holds an object.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(untagged)]
#[kube(int_or_string)]
pub enum Nested {
    /// n.
    Number(i32),
    /// o.
    Inner(Inner),
}

/// Spec.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Widget")]
pub struct WidgetSpec {
    /// An object marked int-or-string.
    #[kube(int_or_string)]
    pub inner: Inner,
    /// A list marked int-or-string.
    #[kube(int_or_string)]
    pub list: Vec<i32>,
    /// Fine.
    #[kube(int_or_string)]
    pub port: i32,
}

fn main() {}
