use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Tuple structs have no field names.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Pair(String, String);

/// Generic API types are not supported.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Wrapper<T> {
    /// value.
    pub value: T,
}

/// Untagged unions are not structural.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Either {
    /// a.
    A(String),
    /// b.
    B(i32),
}

/// Unit variants next to data variants cannot be structural.
#[derive(ApiType, Serialize, Deserialize)]
pub enum Mixed {
    /// none.
    Nothing,
    /// some.
    Something(String),
}

/// A type that contains itself.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Node {
    /// children.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<Node>,
}

/// Serde attributes that would make the schema lie.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Liar {
    /// read, never written.
    #[serde(skip_serializing)]
    pub a: String,
    /// two names.
    #[serde(rename(serialize = "b", deserialize = "bee"))]
    pub b: String,
}

fn main() {}
