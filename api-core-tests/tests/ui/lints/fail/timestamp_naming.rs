use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A newtype of a time.
#[derive(ApiType, Serialize, Deserialize)]
pub struct Since(pub Time);

/// `fooTime`, never `fooTimestamp`.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Times {
    /// when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_update_timestamp: Option<Time>,
    /// a date-time string.
    #[kube(format = "date-time", max_length = 64)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe_timestamp: Option<String>,
    /// times.
    #[kube(list_type = "atomic")]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub event_timestamps: Vec<MicroTime>,
    /// through a newtype.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_timestamp: Option<Since>,
}

fn main() {}
