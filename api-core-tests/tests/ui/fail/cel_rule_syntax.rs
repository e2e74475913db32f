use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A rule the apiserver could not compile fails the build at the rule,
/// with the CEL parser's message (feature `cel`).
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Widget")]
#[kube(validation(rule = "self.spec.min <=", message = "min must not exceed max"))]
pub struct WidgetSpec {
    /// Lower bound.
    pub min: i32,
    /// Upper bound.
    #[kube(validation(rule = "self > 0 &&", message = "positive"))]
    pub max: i32,
    /// A name.
    #[kube(validation(rule = "self != ''", message_expression = "'bad: ' +"))]
    pub name: String,
}

fn main() {}
