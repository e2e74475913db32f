//! A string newtype named `Duration` carries its unit in the value (as
//! Gateway API's and Prometheus' `Duration` do, with a pattern): the
//! conventions allow units in the value, so `no_durations` does not fire.
#![deny(warnings)]
use api_core::prelude::*;
use serde::{Deserialize, Serialize};

/// A duration string with its unit (`1h`, `500ms`), Gateway API's form.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Duration(#[kube(pattern = "^([0-9]{1,5}(h|m|s|ms)){1,4}$", max_length = 20)] pub String);

/// The same, in another module and used by path.
pub mod prometheus {
    use super::*;

    /// A Prometheus duration (`30s`, `1d`).
    #[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
    pub struct Duration(
        #[kube(pattern = "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$")]
        pub String,
    );
}

/// Timeouts, as Gateway API writes them.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct HttpRouteTimeouts {
    /// request is the timeout of a request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<Duration>,
    /// backend_request is the timeout of one request to a backend.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend_request: Option<Duration>,
    /// scrape_interval is how often to scrape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scrape_interval: Option<prometheus::Duration>,
    /// intervals, one per target.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub intervals: Vec<prometheus::Duration>,
}

fn main() {}
