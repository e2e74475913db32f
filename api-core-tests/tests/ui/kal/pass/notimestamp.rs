//! KAL `notimestamp` passing case (src/a).
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// `fooTime`.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SerializedTimeStampTestStruct {
    /// f.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foo_time: Option<Time>, // KAL a/a.go:SerializedTimeStampTestStruct.FooTime
}

fn main() {}
