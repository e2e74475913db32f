//! KAL `notimestamp` (pkg/analysis/notimestamp/testdata/src/a). Go `time.Time`
//! and `metav1.Time` are both `api_core::Time`. `time_field_suffix` (a warning
//! about `Time` fields not ending in `Time`) is allowed: KAL runs one linter.
#![deny(deprecated)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// Timestamps.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(allow(time_field_suffix))]
pub struct NoTimeStampTestStruct {
    /// f.
    #[serde(rename = "timeStamp", default, skip_serializing_if = "Option::is_none")]
    pub time_stamp: Option<Time>, // KAL a/a.go:NoTimeStampTestStruct.TimeStamp
    /// f.
    #[serde(rename = "timestamp", default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<Time>, // KAL a/a.go:NoTimeStampTestStruct.Timestamp
    /// f.
    #[serde(rename = "fooTimeStamp", default, skip_serializing_if = "Option::is_none")]
    pub foo_time_stamp: Option<Time>, // KAL a/a.go:NoTimeStampTestStruct.FooTimeStamp
    /// f.
    #[serde(rename = "footimeStamp", default, skip_serializing_if = "Option::is_none")]
    pub footime_stamp: Option<Time>, // KAL a/a.go:NoTimeStampTestStruct.FootimeStamp
    /// f.
    #[serde(rename = "barTimestamp", default, skip_serializing_if = "Option::is_none")]
    pub bar_timestamp: Option<Time>, // KAL a/a.go:NoTimeStampTestStruct.BarTimestamp
    /// f.
    #[serde(rename = "fooTimestampBar", default, skip_serializing_if = "Option::is_none")]
    pub footimestamp_bar: Option<Time>, // KAL a/a.go:NoTimeStampTestStruct.FootimestampBar
    /// f.
    #[serde(rename = "fooTimestampBarTimeStamp", default, skip_serializing_if = "Option::is_none")]
    pub foo_timestamp_bar_time_stamp: Option<Time>, // KAL a/a.go:NoTimeStampTestStruct.FooTimestampBarTimeStamp
    /// f.
    #[serde(rename = "metaTimeStamp", default, skip_serializing_if = "Option::is_none")]
    pub meta_time_stamp: Option<Time>, // KAL a/a.go:NoTimeStampTestStruct.MetaTimeStamp
}

/// Sub-timestamp.
#[derive(ApiType, Serialize, Deserialize)]
#[kube(allow(time_field_suffix))]
pub struct NoSubTimeStampTestStruct {
    /// f.
    #[serde(rename = "fooTimeStamp", default, skip_serializing_if = "Option::is_none")]
    pub foo_time_stamp: Option<Time>, // KAL a/a.go:NoSubTimeStampTestStruct.FooTimeStamp
}

fn main() {}
