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

/// The `Content-Type` of a `meta.k8s.io/v1` PartialObjectMetadata.
pub const PARTIAL_V1: &str = "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io";

/// The `Content-Type` of a `meta.k8s.io/v1` PartialObjectMetadataList.
pub const PARTIAL_LIST_V1: &str =
    "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io";

/// A representation a response can take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Representation {
    /// The object or list as it is.
    Json,
    /// A `Table` of the given version.
    Table(TableVersion),
    /// The object's metadata only: a `PartialObjectMetadata` of the
    /// given `meta.k8s.io` version (kube-rs' `get_metadata`,
    /// `patch_metadata`, the events of `metadata_watcher`).
    PartialObjectMetadata(TableVersion),
    /// A list's metadata only: a `PartialObjectMetadataList` (kube-rs'
    /// `list_metadata`; for a watch, each event's object is a
    /// `PartialObjectMetadata`).
    PartialObjectMetadataList(TableVersion),
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
            Representation::PartialObjectMetadata(TableVersion::V1) => PARTIAL_V1,
            Representation::PartialObjectMetadata(TableVersion::V1beta1) => {
                "application/json;as=PartialObjectMetadata;v=v1beta1;g=meta.k8s.io"
            }
            Representation::PartialObjectMetadataList(TableVersion::V1) => PARTIAL_LIST_V1,
            Representation::PartialObjectMetadataList(TableVersion::V1beta1) => {
                "application/json;as=PartialObjectMetadataList;v=v1beta1;g=meta.k8s.io"
            }
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
/// acceptable is offered (406 Not Acceptable). A resource endpoint
/// (`offers_table`) offers what the apiserver's `AllowsMediaTypeTransform`
/// allows: `Table`, `PartialObjectMetadata` and
/// `PartialObjectMetadataList` of `meta.k8s.io` `v1` and `v1beta1`
/// (whether the object is a list is checked when it is transformed).
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
        let meta_version = || match (range.param("g"), range.param("v")) {
            (Some("meta.k8s.io"), Some("v1")) => Some(TableVersion::V1),
            (Some("meta.k8s.io"), Some("v1beta1")) => Some(TableVersion::V1beta1),
            _ => None,
        };
        match range.param("as") {
            None => return Some(Representation::Json),
            Some(kind @ ("Table" | "PartialObjectMetadata" | "PartialObjectMetadataList"))
                if offers_table =>
            {
                if let Some(version) = meta_version() {
                    return Some(match kind {
                        "Table" => Representation::Table(version),
                        "PartialObjectMetadata" => Representation::PartialObjectMetadata(version),
                        _ => Representation::PartialObjectMetadataList(version),
                    });
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
    fn metadata_only() {
        let kube_rs = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
        assert_eq!(
            negotiate(Some(kube_rs), true, false),
            Some(Representation::PartialObjectMetadata(TableVersion::V1))
        );
        let client_go = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
        assert_eq!(
            negotiate(Some(client_go), true, false),
            Some(Representation::PartialObjectMetadataList(TableVersion::V1))
        );
        // Not offered outside resource endpoints, nor of another group.
        assert_eq!(negotiate(Some(kube_rs), false, false), None);
        assert_eq!(
            negotiate(
                Some("application/json;as=PartialObjectMetadata;g=example.com;v=v1"),
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
