use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Defaults on optional fields.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Defaults {
    /// replicas.
    #[default(1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// required with a default, allowed (controller-gen fixtures do this).
    #[default(2)]
    #[kube(allow(default_or_required))]
    pub shards: i32,
}

fn main() {}
