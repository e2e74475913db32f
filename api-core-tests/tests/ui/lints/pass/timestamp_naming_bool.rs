//! `timestamp_naming` is about time fields: a boolean or a string that
//! merely mentions timestamps (Prometheus' `honorTimestamps`) is not one.
#![deny(warnings)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A scrape configuration, as prometheus-operator writes it.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    /// honor_timestamps keeps the timestamps of the scraped data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub honor_timestamps: Option<bool>,
    /// track_timestamps_staleness tracks the staleness of timestamps.
    pub track_timestamps_staleness: bool,
    /// timestamp_format is how timestamps are written (`RFC3339`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp_format: Option<String>,
    /// max_timestamps caps how many samples are kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_timestamps: Option<i32>,
}

fn main() {}
