#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Every field has a doc comment.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Undocumented {
    pub name: String,
    pub item: Item,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<Label>,
}

#[derive(ApiType, Serialize, Deserialize)]
#[kube(allow(field_docs))]
pub struct Item {
    pub name: String,
}

/// A label: its doc describes each item of a list, not the list.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Label {
    /// key.
    pub key: String,
}

fn main() {}
