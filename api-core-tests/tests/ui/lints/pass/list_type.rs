#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Lists done right.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Lists {
    /// ports by name and protocol (protocol defaulted).
    #[kube(list_type = "map", list_map_keys = ["name", "protocol"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<Port>,
    /// replaced as a whole.
    #[kube(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mirrors: Vec<Port>,
    /// a list of strings needs no list type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// a list of string enums is not a list of objects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modes: Vec<Mode>,
}

/// A port.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Port {
    /// name.
    pub name: String,
    /// protocol.
    #[default("TCP")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
}

/// A mode.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub enum Mode {
    /// fast.
    Fast,
}

fn main() {}
