use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Rules are estimated as the apiserver estimates them (feature `cel`):
/// one whose cost is certainly over the limit of 10^7 per rule fails the
/// build at the rule, naming the estimate and the bounds to add. The same
/// rule over bounded data compiles.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Widget")]
#[kube(validation(rule = "self.spec.names.all(a, self.spec.names.exists_one(b, a == b))", message = "unique"))]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    /// Names: unbounded.
    pub names: Vec<String>,
    /// Labels: every value matched against a pattern, with no bound.
    #[kube(validation(rule = "self.all(k, self[k].matches('^[a-z]+(-[a-z]+)*$'))", message = "lower case"))]
    pub labels: std::collections::BTreeMap<String, String>,
    /// Bounded: the same rule fits.
    #[kube(max_items = 16, items(max_length = 63))]
    #[kube(validation(rule = "self.all(a, self.exists_one(b, a == b))", message = "unique"))]
    pub bounded: Vec<String>,
    /// A message expression is estimated too.
    #[kube(max_length = 16)]
    #[kube(validation(rule = "self != ''", message_expression = "lists.range(100000).map(i, self).join(',')"))]
    pub name: String,
}

fn main() {}
