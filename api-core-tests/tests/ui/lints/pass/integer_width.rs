use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A signed 32-bit alias is fine.
pub type Port = i32;

/// Only `i32` and `i64`; other widths only where allowed.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Widths {
    /// replicas.
    pub replicas: i32,
    /// bytes.
    pub size_bytes: i64,
    /// port.
    pub port: Port,
    /// kept for compatibility with an older API.
    #[kube(allow(integer_width))]
    pub legacy: u32,
    /// a nested type that allows it inside.
    pub nested: Nested,
}

/// Allowing in a nested type is enough for its users.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Nested {
    /// checksum.
    #[kube(allow(integer_width))]
    pub checksum: u64,
}

fn main() {}
