use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A duration alias.
pub type Timeout = std::time::Duration;

/// No Duration types.
#[derive(ApiType, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Durations {
    /// direct.
    pub timeout_seconds: std::time::Duration,
    /// an alias.
    pub grace_seconds: Timeout,
    /// meta/v1 `Duration` (api-core's, from the prelude): a Go duration
    /// string that clients in other languages must parse.
    pub interval: Duration,
    /// an integer duration: a number whose unit nothing says.
    pub delay: plain::Duration,
}

/// `std::time::Duration` by its short name.
pub mod imported {
    use super::*;
    use std::time::Duration;

    /// Imported.
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct Imported {
        /// std's, imported.
        pub period: Duration,
    }
}

/// A number named `Duration`.
pub mod plain {
    use super::*;

    /// An integer duration (nanoseconds, as Go's `time.Duration`).
    #[derive(ApiType, Serialize, Deserialize)]
    pub struct Duration(pub i64);
}

fn main() {}
