use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Externally tagged: one optional member per variant.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub enum Source {
    /// git.
    Git(GitSource),
    /// inline.
    Inline {
        /// text.
        text: String,
    },
}

/// A git source.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct GitSource {
    /// url.
    pub url: String,
}

/// Untagged, allowed: it becomes schemaless.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(untagged)]
#[kube(allow(unions))]
pub enum Either {
    /// a.
    A(String),
    /// b.
    B(i32),
}

fn main() {
    let s = <Either as ApiType>::api_schema(&mut api_core::schemars::SchemaGenerator::default());
    assert_eq!(s.get("x-kubernetes-preserve-unknown-fields"), Some(&serde_json::json!(true)));
}
