use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Required fields are not `Option`, have no serde default and are never skipped.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Required {
    /// marked required but an Option.
    #[kube(required)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// required but skipped when empty.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// explicitly required but defaulted by serde.
    #[kube(required)]
    #[serde(default)]
    pub count: i32,
}

fn main() {}
