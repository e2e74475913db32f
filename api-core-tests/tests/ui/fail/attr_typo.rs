use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Spec.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(grup = "example.com", version = "v1", kind = "Widget")]
pub struct WidgetSpec {
    /// a.
    pub a: String,
}

fn main() {}
