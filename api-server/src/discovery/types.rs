//! The discovery documents' wire types, with apimachinery's JSON field
//! names, order and omissions (`meta/v1/types.go`: `APIVersions`,
//! `APIGroupList`, `APIGroup`, `APIResourceList`, `APIResource`; k8s.io/api
//! `apidiscovery/v2/types.go`).

use serde::{Deserialize, Serialize};

/// `/api`: the core group's versions (`APIVersions`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiVersions {
    /// Always `APIVersions`.
    pub kind: String,
    /// The core versions: `["v1"]`.
    pub versions: Vec<String>,
    /// Where clients reach the server; kube-apiserver always writes it.
    #[serde(rename = "serverAddressByClientCIDRs")]
    pub server_address_by_client_cidrs: Vec<ServerAddressByClientCidr>,
}

/// One entry of `serverAddressByClientCIDRs`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerAddressByClientCidr {
    /// The client network (`0.0.0.0/0`).
    #[serde(rename = "clientCIDR")]
    pub client_cidr: String,
    /// `host:port` of the server for those clients.
    #[serde(rename = "serverAddress")]
    pub server_address: String,
}

/// `/apis`: every API group (`APIGroupList`, `apiVersion: v1`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiGroupList {
    /// Always `APIGroupList`.
    pub kind: String,
    /// Always `v1`.
    #[serde(rename = "apiVersion")]
    pub api_version: String,
    /// The groups, in priority then name order.
    pub groups: Vec<ApiGroup>,
}

/// `/apis/{group}` (with `kind`/`apiVersion`), or an item of
/// [`ApiGroupList`] (without them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiGroup {
    /// `APIGroup` on `/apis/{group}`; absent in a list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// `v1` on `/apis/{group}`; absent in a list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// The group name.
    pub name: String,
    /// The served versions, preferred first.
    pub versions: Vec<GroupVersionForDiscovery>,
    /// The version clients should use: the first of `versions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_version: Option<GroupVersionForDiscovery>,
}

/// A version of a group (`{"groupVersion": "g/v", "version": "v"}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupVersionForDiscovery {
    /// `group/version`.
    pub group_version: String,
    /// `version`.
    pub version: String,
}

impl GroupVersionForDiscovery {
    pub(super) fn new(group: &str, version: &str) -> Self {
        GroupVersionForDiscovery {
            group_version: group_version(group, version),
            version: version.to_string(),
        }
    }
}

pub(super) fn group_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_string()
    } else {
        format!("{group}/{version}")
    }
}

/// `/apis/{group}/{version}` or `/api/v1` (`APIResourceList`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiResourceList {
    /// Always `APIResourceList`.
    pub kind: String,
    /// `v1` for API groups; absent on the core group's `/api/v1`, as
    /// kube-apiserver writes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// `group/version`, or `v1` for the core group.
    pub group_version: String,
    /// The resources and subresources.
    pub resources: Vec<ApiResource>,
}

/// One resource or subresource of an [`ApiResourceList`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiResource {
    /// `widgets`, or `widgets/status` for a subresource.
    pub name: String,
    /// `widget`; empty (and still written) for subresources.
    #[serde(default)]
    pub singular_name: String,
    /// Whether the resource lives in namespaces.
    pub namespaced: bool,
    /// Set when the kind is in another group (`autoscaling` for `scale`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// Set when the kind is in another version (`v1` for `scale`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// The kind served.
    pub kind: String,
    /// The verbs supported.
    pub verbs: Vec<String>,
    /// Short names (`kubectl get wd`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    /// Categories (`kubectl get all`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// [`storage_version_hash`](super::storage_version_hash) of the storage version's kind.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub storage_version_hash: String,
}

/// `group/version/kind` of a response (`responseKind`); every field is
/// always written (`"group": ""` for the core group).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupVersionKind {
    /// The group, empty for core.
    pub group: String,
    /// The version.
    pub version: String,
    /// The kind.
    pub kind: String,
}

impl GroupVersionKind {
    /// A GVK from its parts.
    pub fn new(group: &str, version: &str, kind: &str) -> Self {
        GroupVersionKind {
            group: group.into(),
            version: version.into(),
            kind: kind.into(),
        }
    }
}

/// Aggregated discovery (`apidiscovery.k8s.io/v2`, `APIGroupDiscoveryList`),
/// served on `/api` and `/apis` for `Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiGroupDiscoveryList {
    /// Always `APIGroupDiscoveryList`.
    pub kind: String,
    /// Always `apidiscovery.k8s.io/v2`.
    pub api_version: String,
    /// The list's metadata; empty (`{}`).
    pub metadata: serde_json::Map<String, serde_json::Value>,
    /// The groups.
    pub items: Vec<ApiGroupDiscovery>,
}

/// One group of aggregated discovery.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiGroupDiscovery {
    /// `{"name": group}`; `{}` for the core group.
    pub metadata: GroupMeta,
    /// Versions, preferred first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<ApiVersionDiscovery>,
}

/// The `metadata` of an [`ApiGroupDiscovery`]: only its name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupMeta {
    /// The group name; absent for the core group.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
}

/// One version of a group in aggregated discovery.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiVersionDiscovery {
    /// The version name.
    pub version: String,
    /// The resources, sorted by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<ApiResourceDiscovery>,
    /// `Current`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub freshness: String,
}

/// One resource in aggregated discovery.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiResourceDiscovery {
    /// The plural (`widgets`).
    pub resource: String,
    /// The kind returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_kind: Option<GroupVersionKind>,
    /// `Namespaced` or `Cluster`.
    pub scope: String,
    /// The singular (`widget`).
    pub singular_resource: String,
    /// The verbs supported.
    pub verbs: Vec<String>,
    /// Short names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    /// Categories.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// `status`, `scale`, ...
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subresources: Vec<ApiSubresourceDiscovery>,
}

/// A subresource in aggregated discovery.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiSubresourceDiscovery {
    /// `status` or `scale`.
    pub subresource: String,
    /// The kind returned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_kind: Option<GroupVersionKind>,
    /// The verbs supported.
    pub verbs: Vec<String>,
}
