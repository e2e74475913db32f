use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Spec.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(version = "v1")]
pub struct WidgetSpec {
    /// a.
    pub a: String,
}

fn main() {}
