//! A `string` printer column may point at a list of strings: the apiserver
//! accepts it and kubectl prints the list.
#![deny(warnings)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A resource listing hostnames.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Route",
    printcolumn(name = "Hostnames", type = "string", json_path = ".spec.hostnames"),
    printcolumn(name = "Ports", type = "string", json_path = ".spec.ports"),
    printcolumn(name = "Tags", type = "string", json_path = ".spec.tags")
)]
#[serde(rename_all = "camelCase")]
pub struct RouteSpec {
    /// hostnames the route answers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hostnames: Vec<String>,
    /// ports the route listens on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<i32>,
    /// tags of the route.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub tags: std::collections::BTreeSet<String>,
}

fn main() {
    let crd = Route::crd().to_json();
    let cols = &crd["spec"]["versions"][0]["additionalPrinterColumns"];
    assert_eq!(cols[0]["jsonPath"], ".spec.hostnames");
    assert_eq!(cols[0]["type"], "string");
}
