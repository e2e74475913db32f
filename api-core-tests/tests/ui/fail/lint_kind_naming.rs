use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Group, version, kind and names follow the conventions.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "Example", version = "1.0", kind = "widgetList", shortname = "W")]
pub struct WidgetSpec {
    /// a.
    pub a: String,
}

fn main() {}
