//! Unusual and malformed inputs: each gives a spanned error, never a
//! "proc macro panicked".
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A Rust union.
#[derive(ApiType)]
pub union Bits {
    /// a.
    pub a: i32,
    /// b.
    pub b: i64,
}

/// A unit struct.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Nothing;

/// A borrowed field.
#[derive(ApiType, Serialize)]
pub struct Borrowed<'a> {
    /// name.
    pub name: &'a str,
}

/// `#[default]` on the type, not a field.
#[derive(ApiType, Serialize, Deserialize)]
#[default(1)]
pub struct DefaultOnType {
    /// a.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a: Option<i32>,
}

/// `#[default]` without a value, and with two.
#[derive(ApiType, Serialize, Deserialize)]
pub struct DefaultShapes {
    /// a.
    #[default]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a: Option<i32>,
    /// b.
    #[default(1, 2)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b: Option<i32>,
}

/// The same key twice in one attribute.
#[derive(ApiType, Serialize, Deserialize)]
pub struct TwiceInOne {
    /// a.
    #[kube(maximum = 1, maximum = 2)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a: Option<i32>,
}

/// A `KubeResource` on an enum.
#[derive(KubeResource, Serialize, Deserialize)]
#[kube(group = "example.com", version = "v1", kind = "Choice")]
pub enum ChoiceSpec {
    /// a.
    A,
}

/// Garbage inside the attribute.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Garbage {
    /// a.
    #[kube(maximum = , = 3)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a: Option<i32>,
}

fn main() {}
