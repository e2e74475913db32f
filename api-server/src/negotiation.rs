//! Which representation an `Accept` header asks for: plain JSON, a
//! `meta.k8s.io` [`Table`](crate::table::Table), or aggregated discovery.
//!
//! Clients list alternatives in preference order, e.g. kubectl get
//! (kubectl `get/get.go`):
//! `application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json`,
//! and client-go discovery (`discovery/discovery_client.go`):
//! `application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json`
//! (optionally preceded by the same with `profile=nopeer`). client-go takes
//! the response for aggregated discovery only when its `Content-Type` is
//! `application/json` with `g`, `v` and `as` naming `APIGroupDiscoveryList`
//! (`ContentTypeIsGVK`): serve [`AGGREGATED_DISCOVERY_V2`] as the content
//! type then.
//!
//! The choice follows k8s.io/apiserver `pkg/endpoints/handlers/negotiation`
//! in spirit: media ranges are tried by decreasing `q` (ties in header
//! order), `q=0` is refused, `application/json`, `application/*` and `*/*`
//! are JSON; an `as=` the endpoint does not offer is skipped. Only JSON is
//! offered (no YAML or protobuf).

use crate::table::TableVersion;

/// The `Content-Type` of an aggregated discovery response (v2).
pub const AGGREGATED_DISCOVERY_V2: &str =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// The `Content-Type` of a `meta.k8s.io/v1` Table response.
pub const TABLE_V1: &str = "application/json;as=Table;v=v1;g=meta.k8s.io";

/// The `Content-Type` of a `meta.k8s.io/v1beta1` Table response.
pub const TABLE_V1BETA1: &str = "application/json;as=Table;v=v1beta1;g=meta.k8s.io";

/// A representation a response can take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Representation {
    /// The object or list as it is.
    Json,
    /// A `Table` of the given version.
    Table(TableVersion),
    /// `APIGroupDiscoveryList` (`apidiscovery.k8s.io/v2`).
    AggregatedDiscovery,
}

impl Representation {
    /// The `Content-Type` to answer with.
    pub fn content_type(self) -> &'static str {
        match self {
            Representation::Json => "application/json",
            Representation::Table(TableVersion::V1) => TABLE_V1,
            Representation::Table(TableVersion::V1beta1) => TABLE_V1BETA1,
            Representation::AggregatedDiscovery => AGGREGATED_DISCOVERY_V2,
        }
    }
}

/// One media range of an `Accept` header.
#[derive(Clone, Debug, PartialEq)]
struct MediaRange {
    type_: String,
    subtype: String,
    params: Vec<(String, String)>,
    q: f32,
}

impl MediaRange {
    fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn is_json(&self) -> bool {
        matches!(
            (self.type_.as_str(), self.subtype.as_str()),
            ("application", "json") | ("application", "*") | ("*", "*")
        )
    }
}

fn parse_accept(header: &str) -> Vec<MediaRange> {
    let mut ranges = Vec::new();
    for part in header.split(',') {
        let mut pieces = part.split(';');
        let Some((type_, subtype)) = pieces.next().and_then(|m| m.trim().split_once('/')) else {
            continue;
        };
        let mut range = MediaRange {
            type_: type_.trim().to_ascii_lowercase(),
            subtype: subtype.trim().to_ascii_lowercase(),
            params: Vec::new(),
            q: 1.0,
        };
        for param in pieces {
            let Some((k, v)) = param.split_once('=') else {
                continue;
            };
            let k = k.trim().to_ascii_lowercase();
            let v = v.trim().trim_matches('"').to_string();
            if k == "q" {
                range.q = v.parse().unwrap_or(0.0);
            } else {
                range.params.push((k, v));
            }
        }
        if range.q > 0.0 {
            ranges.push(range);
        }
    }
    // Stable: equal q keeps header order.
    ranges.sort_by(|a, b| b.q.total_cmp(&a.q));
    ranges
}

/// The representation to serve for `accept` (a missing or empty header is
/// JSON), given what the endpoint offers besides JSON; `None` when nothing
/// acceptable is offered (406 Not Acceptable).
///
/// ```
/// use api_server::negotiation::{negotiate, Representation};
/// use api_server::table::TableVersion;
///
/// let kubectl_get = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
/// assert_eq!(negotiate(Some(kubectl_get), true, false), Some(Representation::Table(TableVersion::V1)));
/// assert_eq!(negotiate(Some(kubectl_get), false, false), Some(Representation::Json));
/// assert_eq!(negotiate(Some("application/vnd.kubernetes.protobuf"), true, false), None);
/// ```
pub fn negotiate(
    accept: Option<&str>,
    offers_table: bool,
    offers_aggregated_discovery: bool,
) -> Option<Representation> {
    let header = accept.map(str::trim).unwrap_or_default();
    if header.is_empty() {
        return Some(Representation::Json);
    }
    for range in parse_accept(header) {
        if !range.is_json() {
            continue;
        }
        match range.param("as") {
            None => return Some(Representation::Json),
            Some("Table") if offers_table => {
                let group_ok = range.param("g") == Some("meta.k8s.io");
                match range.param("v") {
                    Some("v1") if group_ok => return Some(Representation::Table(TableVersion::V1)),
                    Some("v1beta1") if group_ok => {
                        return Some(Representation::Table(TableVersion::V1beta1));
                    }
                    _ => {}
                }
            }
            Some("APIGroupDiscoveryList")
                if offers_aggregated_discovery
                    && range.param("g") == Some("apidiscovery.k8s.io")
                    && range.param("v") == Some("v2") =>
            {
                return Some(Representation::AggregatedDiscovery);
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectl_get_tables() {
        let accept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
        assert_eq!(
            negotiate(Some(accept), true, false),
            Some(Representation::Table(TableVersion::V1))
        );
        let beta_only = "application/json;as=Table;v=v1beta1;g=meta.k8s.io, application/json";
        assert_eq!(
            negotiate(Some(beta_only), true, false),
            Some(Representation::Table(TableVersion::V1beta1))
        );
        assert_eq!(
            negotiate(Some(accept), false, false),
            Some(Representation::Json)
        );
        // A table of an unknown group or version is not offered.
        assert_eq!(
            negotiate(
                Some("application/json;as=Table;v=v2;g=meta.k8s.io"),
                true,
                false
            ),
            None
        );
    }

    #[test]
    fn client_go_discovery() {
        let v2 = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;profile=nopeer,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";
        assert_eq!(
            negotiate(Some(v2), false, true),
            Some(Representation::AggregatedDiscovery)
        );
        assert_eq!(
            negotiate(Some(v2), false, false),
            Some(Representation::Json)
        );
        let v2beta1 = "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
        assert_eq!(
            negotiate(Some(v2beta1), false, true),
            Some(Representation::Json)
        );
        assert_eq!(
            Representation::AggregatedDiscovery.content_type(),
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
        );
    }

    #[test]
    fn plain_and_wildcards() {
        assert_eq!(negotiate(None, true, true), Some(Representation::Json));
        assert_eq!(negotiate(Some(""), true, true), Some(Representation::Json));
        assert_eq!(
            negotiate(Some("*/*"), true, true),
            Some(Representation::Json)
        );
        assert_eq!(
            negotiate(Some("application/*"), true, true),
            Some(Representation::Json)
        );
        assert_eq!(negotiate(Some("application/yaml"), true, true), None);
        assert_eq!(
            negotiate(
                Some("application/vnd.kubernetes.protobuf, application/json"),
                true,
                true
            ),
            Some(Representation::Json)
        );
        assert_eq!(
            negotiate(Some("text/html;q=0.9, application/json;q=0"), true, true),
            None
        );
        // Higher q first, whatever the order.
        assert_eq!(
            negotiate(
                Some("application/json;q=0.5, application/json;as=Table;v=v1;g=meta.k8s.io"),
                true,
                false
            ),
            Some(Representation::Table(TableVersion::V1))
        );
        assert_eq!(negotiate(Some("garbage"), true, true), None);
    }
}
