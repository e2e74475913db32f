use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// List-map keys must be required (or defaulted) scalar fields of the item.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Lists {
    /// no such key.
    #[kube(list_type = "map", list_map_keys = ["nme"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub a: Vec<Port>,
    /// optional key.
    #[kube(list_type = "map", list_map_keys = ["protocol"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub b: Vec<Port>,
    /// object key.
    #[kube(list_type = "map", list_map_keys = ["tls"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub c: Vec<Port>,
    /// a map list of scalars.
    #[kube(list_type = "map", list_map_keys = ["x"])]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub d: Vec<String>,
}

/// A port.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Port {
    /// name.
    pub name: String,
    /// protocol.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// tls.
    pub tls: Tls,
}

/// TLS.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Tls {
    /// secret.
    pub secret: String,
}

fn main() {}
