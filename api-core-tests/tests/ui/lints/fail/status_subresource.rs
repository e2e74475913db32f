#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// The status subresource with no status to serve.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Widget", status_subresource = true)]
pub struct WidgetSpec {
    /// size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

fn main() {}
