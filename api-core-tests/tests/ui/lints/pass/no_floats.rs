#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Floats only where explicitly allowed.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Scaler")]
#[serde(rename_all = "camelCase")]
pub struct ScalerSpec {
    /// target in thousandths.
    pub target_millis: i64,
    /// a nested type that allows its float.
    pub policy: Policy,
}

/// Allowed where it is defined, so users are fine.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Policy {
    /// weight.
    #[kube(allow(no_floats))]
    pub weight: f32,
}

fn main() {}
