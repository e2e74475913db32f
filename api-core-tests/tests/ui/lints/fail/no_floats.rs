#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A ratio alias.
pub type Ratio = f64;

/// Floats are errors anywhere under spec.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Scaler", status = "ScalerStatus")]
#[serde(rename_all = "camelCase")]
pub struct ScalerSpec {
    /// direct.
    pub target: f64,
    /// an alias.
    pub ratio: Ratio,
    /// a nested type with a float (a warning there, an error here).
    pub policy: Policy,
}

/// A nested type: on its own a float is a warning.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Policy {
    /// weight.
    pub weight: f32,
}

/// In status a float is a warning.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct ScalerStatus {
    /// observed load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<f64>,
}

fn main() {}
