use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// `group` belongs on the spec of a KubeResource.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", namespaced)]
pub struct Nested {
    /// a.
    pub a: String,
}

fn main() {}
