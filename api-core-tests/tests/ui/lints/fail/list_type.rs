#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Lists of objects declare their list type (a warning, through the type layer).
#[derive(ApiType, Serialize, Deserialize)]
pub struct Lists {
    /// ports.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<Port>,
}

/// A port.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Port {
    /// name.
    pub name: String,
    /// number.
    pub port: i32,
}

fn main() {}
