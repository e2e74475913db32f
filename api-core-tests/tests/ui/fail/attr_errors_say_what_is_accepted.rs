//! darling's attribute errors, reworded: each says what is accepted where
//! it was written, with an example (issue 14: "Unexpected type `int`" and
//! "Duplicate field" said neither). A misspelt required key is one error.
use api_core::KubeResource;
use serde::{Deserialize, Serialize};

#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[kube(group = "example.com", version = "v1", kind = "Probe")]
#[serde(rename_all = "camelCase")]
pub struct ProbeSpec {
    #[kube(minimum = "5")]
    a: i32,
    #[kube(enum = [1.5, 2.5])]
    b: i32,
    #[kube(maximum = 5, maximum = 6)]
    c: i32,
    #[kube(max_length = -1)]
    d: String,
    #[kube(optional = 3)]
    #[serde(skip_serializing_if = "Option::is_none")]
    e: Option<String>,
    #[kube(list_type)]
    f: Vec<String>,
    #[kube(items(nope = 1))]
    g: Vec<String>,
    #[kube(pattern = 5)]
    h: String,
    #[kube(validation(rul = "self > 0"))]
    i: i32,
    #[kube(enum = "a")]
    j: String,
    #[kube(enum = [true])]
    k: String,
    #[kube(validation(message = "no rule"))]
    l: String,
    #[kube(blah)]
    m: String,
    #[kube(allow(optional_field), minimun = 1)]
    n: i32,
}
fn main() {}
