//! Discovery documents: `/api`, `/api/v1`, `/apis`, `/apis/{group}`,
//! `/apis/{group}/{version}`, and the aggregated discovery
//! (`apidiscovery.k8s.io/v2` `APIGroupDiscoveryList`) for `/api` and `/apis`.
//!
//! What a custom resource contributes follows apiextensions-apiserver's
//! `pkg/apiserver/customresource_discovery_controller.go` (`sync`):
//!
//! - every *served* version of a CRD puts its group-version in the group's
//!   version list; the list is sorted by Kubernetes version order
//!   ([`compare_kube_aware_versions`](crate::version::compare_kube_aware_versions))
//!   and the preferred version is its
//!   first entry (`sortGroupDiscoveryByKubeAwareVersion`);
//! - the resource of a version lists the verbs `delete, deletecollection,
//!   get, list, patch, create, update, watch` (in that order), the short
//!   names and categories, and the `storageVersionHash` of the CRD's storage
//!   version (k8s.io/apiserver `pkg/endpoints/discovery/storageversionhash.go`:
//!   base64 of the first 8 bytes of SHA-256 of `group/version/kind`);
//! - `<plural>/status` (verbs `get, patch, update`, the CRD's kind) and
//!   `<plural>/scale` (group `autoscaling`, version `v1`, kind `Scale`)
//!   follow the resource in the legacy list, and are `subresources` of the
//!   resource in aggregated discovery;
//! - aggregated discovery sorts a version's resources by name, versions by
//!   priority then Kubernetes version order (CRDs all have version priority
//!   100), and groups by priority then name (CRD groups all have 1000)
//!   (k8s.io/apiserver `pkg/endpoints/discovery/aggregated/handler.go`);
//!   every version is `freshness: Current`.
//!
//! The core group (`/api/v1` and the aggregated `/api`) lists the kinds of
//! group `""` as kube-apiserver lists its built-in resources: the verbs
//! sorted ([`BUILTIN_VERBS`]), resources and subresources sorted by name
//! (`namespaces`, `namespaces/finalize`, `namespaces/status`), the
//! `storageVersionHash` of `/v1/<Kind>`; `namespaces` has the verbs and
//! subresources [`NamespaceDiscovery`] gives it.
//!
//! The CRDs given are taken as established, with their accepted names equal
//! to `spec.names` (this server has no name conflicts to resolve). The
//! legacy per-version list keeps the CRDs in plural order (upstream takes
//! the informer's order, which is unspecified).
//!
//! `apiVersion: v1` is written where kube-apiserver writes it: not on
//! `/api` nor `/api/v1` (k8s.io/apiserver `pkg/endpoints/discovery`
//! strips it for the core group, `keepUnversioned`), but on `/apis`
//! (served by kube-aggregator's codecs), `/apis/{group}` and
//! `/apis/{group}/{version}`.
//!
//! The JSON field names, their order and which fields are omitted when
//! empty are those of apimachinery `pkg/apis/meta/v1/types.go`
//! (`APIVersions`, `APIGroupList`, `APIGroup`, `APIResourceList`,
//! `APIResource`) and k8s.io/api `apidiscovery/v2/types.go`. Serialize the
//! typed documents directly (not through `serde_json::Value`, whose maps
//! sort keys) to keep Go's field order. (The types are defined in the
//! `types` submodule, and re-exported here.)

use std::sync::Arc;

use api_core::crd::{CustomResourceDefinition, CustomResourceDefinitionVersion};
#[cfg(test)]
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::version::sort_by_preference;

mod types;

use types::group_version;
pub use types::{
    ApiGroup, ApiGroupDiscovery, ApiGroupDiscoveryList, ApiGroupList, ApiResource,
    ApiResourceDiscovery, ApiResourceList, ApiSubresourceDiscovery, ApiVersionDiscovery,
    ApiVersions, GroupMeta, GroupVersionForDiscovery, GroupVersionKind, ServerAddressByClientCidr,
};

/// The verbs apiextensions-apiserver lists for a custom resource, in its
/// order (`customresource_discovery_controller.go`).
pub const CUSTOM_RESOURCE_VERBS: [&str; 8] = [
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "create",
    "update",
    "watch",
];

/// The verbs kube-apiserver lists for a built-in resource with the whole
/// REST storage (its installer lists them sorted): what a core-group kind
/// lists, as a real cluster's `/api/v1` shows for `configmaps`.
pub const BUILTIN_VERBS: [&str; 8] = [
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "update",
    "watch",
];

/// The verbs of the `status` and `scale` subresources.
pub const SUBRESOURCE_VERBS: [&str; 3] = ["get", "patch", "update"];

/// The verbs kube-apiserver lists for `namespaces` (the Namespace REST
/// storage has no `deletecollection`), as a real cluster's `/api/v1` shows.
pub const NAMESPACE_VERBS: [&str; 7] = [
    "create", "delete", "get", "list", "patch", "update", "watch",
];

/// The `apiVersion` of aggregated discovery documents.
pub const AGGREGATED_API_VERSION: &str = "apidiscovery.k8s.io/v2";

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// `StorageVersionHash` (k8s.io/apiserver
/// `pkg/endpoints/discovery/storageversionhash.go`): standard base64 of the
/// first 8 bytes of SHA-256 of `group/version/kind`.
///
/// ```
/// // A real cluster's `/api/v1` lists `namespaces` with this hash.
/// assert_eq!(api_server::discovery::storage_version_hash("", "v1", "Namespace"), "Q3oi5N2YM8M=");
/// ```
pub fn storage_version_hash(group: &str, version: &str, kind: &str) -> String {
    let digest = Sha256::digest(format!("{group}/{version}/{kind}").as_bytes());
    base64(&digest[..8])
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// How the core group (`/api/v1`) lists `namespaces`: its verbs and which
/// of its subresources to list (the Namespace kind's names, scope and
/// storage version hash come from its description,
/// [`namespaces::kind_info`](crate::namespaces::kind_info)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamespaceDiscovery {
    /// The verbs to list for `namespaces`; [`NAMESPACE_VERBS`] by default,
    /// as kube-apiserver lists them.
    pub verbs: Vec<String>,
    /// List `namespaces/finalize` (verb `update`), as kube-apiserver does.
    pub finalize: bool,
    /// List `namespaces/status` (`get, patch, update`), as kube-apiserver does.
    pub status: bool,
}

impl Default for NamespaceDiscovery {
    fn default() -> Self {
        NamespaceDiscovery {
            verbs: strings(&NAMESPACE_VERBS),
            finalize: true,
            status: true,
        }
    }
}

impl NamespaceDiscovery {
    /// Lists `entry` (the `namespaces` resource) with these verbs and
    /// subresources.
    fn apply(&self, entry: &mut Entry) {
        entry.verbs = self.verbs.clone();
        entry.subresources.clear();
        if self.finalize {
            entry.subresources.push(Subresource {
                name: "finalize",
                kind: entry.kind.clone(),
                other_group: false,
                verbs: strings(&["update"]),
            });
        }
        if self.status {
            entry.subresources.push(Subresource {
                name: "status",
                kind: entry.kind.clone(),
                other_group: false,
                verbs: strings(&SUBRESOURCE_VERBS),
            });
        }
    }
}

/// One resource of a group-version, as both the legacy
/// `APIResourceList` and aggregated discovery list it.
struct Entry {
    /// The kind served (`responseKind`).
    kind: GroupVersionKind,
    plural: String,
    singular: String,
    namespaced: bool,
    verbs: Vec<String>,
    short_names: Vec<String>,
    categories: Vec<String>,
    storage_version_hash: String,
    subresources: Vec<Subresource>,
}

/// A subresource of an [`Entry`].
struct Subresource {
    name: &'static str,
    /// The kind it returns.
    kind: GroupVersionKind,
    /// Whether that kind is another group's (`autoscaling/v1` `Scale`):
    /// the legacy list then names its group and version.
    other_group: bool,
    verbs: Vec<String>,
}

impl Entry {
    /// The resource `crd` serves at `version`: a custom resource's verbs
    /// and subresources (`status`, then `scale`) for an API group, a
    /// built-in resource's ([`BUILTIN_VERBS`], subresources by name) for
    /// the core group.
    fn of(crd: &CustomResourceDefinition, version: &CustomResourceDefinitionVersion) -> Entry {
        let names = &crd.spec.names;
        let group = crd.spec.group.as_str();
        let core = group.is_empty();
        let kind = GroupVersionKind::new(group, &version.name, &names.kind);
        let hash = crd
            .spec
            .versions
            .iter()
            .find(|v| v.served && v.storage)
            .map(|s| storage_version_hash(group, &s.name, &names.kind))
            .unwrap_or_default();
        let mut subresources = Vec::new();
        let declared = version.subresources.as_ref();
        if declared.is_some_and(|s| s.status.is_some()) {
            subresources.push(Subresource {
                name: "status",
                kind: kind.clone(),
                other_group: false,
                verbs: strings(&SUBRESOURCE_VERBS),
            });
        }
        if declared.is_some_and(|s| s.scale.is_some()) {
            subresources.push(Subresource {
                name: "scale",
                kind: GroupVersionKind::new("autoscaling", "v1", "Scale"),
                other_group: true,
                verbs: strings(&SUBRESOURCE_VERBS),
            });
        }
        if core {
            subresources.sort_by_key(|s| s.name);
        }
        Entry {
            kind,
            plural: names.plural.clone(),
            singular: singular(crd),
            namespaced: crd.spec.scope == "Namespaced",
            verbs: strings(if core {
                &BUILTIN_VERBS
            } else {
                &CUSTOM_RESOURCE_VERBS
            }),
            short_names: names.short_names.clone(),
            categories: names.categories.clone(),
            storage_version_hash: hash,
            subresources,
        }
    }

    /// The resource then its subresources, as the legacy list has them.
    fn legacy(&self) -> impl Iterator<Item = ApiResource> + '_ {
        let resource = ApiResource {
            name: self.plural.clone(),
            singular_name: self.singular.clone(),
            namespaced: self.namespaced,
            group: String::new(),
            version: String::new(),
            kind: self.kind.kind.clone(),
            verbs: self.verbs.clone(),
            short_names: self.short_names.clone(),
            categories: self.categories.clone(),
            storage_version_hash: self.storage_version_hash.clone(),
        };
        let subresources = self.subresources.iter().map(|s| {
            let (group, version) = if s.other_group {
                (s.kind.group.clone(), s.kind.version.clone())
            } else {
                (String::new(), String::new())
            };
            ApiResource {
                name: format!("{}/{}", self.plural, s.name),
                singular_name: String::new(),
                namespaced: self.namespaced,
                group,
                version,
                kind: s.kind.kind.clone(),
                verbs: s.verbs.clone(),
                short_names: Vec::new(),
                categories: Vec::new(),
                storage_version_hash: String::new(),
            }
        });
        std::iter::once(resource).chain(subresources)
    }

    /// The resource with its subresources, as aggregated discovery has it.
    fn aggregated(&self) -> ApiResourceDiscovery {
        ApiResourceDiscovery {
            resource: self.plural.clone(),
            response_kind: Some(self.kind.clone()),
            scope: if self.namespaced {
                "Namespaced"
            } else {
                "Cluster"
            }
            .into(),
            singular_resource: self.singular.clone(),
            verbs: self.verbs.clone(),
            short_names: self.short_names.clone(),
            categories: self.categories.clone(),
            subresources: self
                .subresources
                .iter()
                .map(|s| ApiSubresourceDiscovery {
                    subresource: s.name.into(),
                    response_kind: Some(s.kind.clone()),
                    verbs: s.verbs.clone(),
                })
                .collect(),
        }
    }
}

/// The discovery documents of a server that serves a set of kinds, each
/// described by a CRD: those of an API group under `/apis`, those of the
/// core group (group `""`, such as the built-in ConfigMap) under `/api`,
/// and optionally the core group's `Namespace` as kube-apiserver lists it.
///
/// ```
/// use api_core::crd::{CustomResourceDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionVersion};
/// use api_server::discovery::Discovery;
///
/// let mut crd = CustomResourceDefinition::default();
/// crd.metadata.name = "widgets.example.com".into();
/// crd.spec.group = "example.com".into();
/// crd.spec.scope = "Namespaced".into();
/// crd.spec.names = CustomResourceDefinitionNames::for_kind("Widget", "widgets");
/// crd.spec.versions = vec![CustomResourceDefinitionVersion::new("v1", true, true)];
///
/// let discovery = Discovery::new(vec![crd]);
/// let group = discovery.api_group("example.com").unwrap();
/// assert_eq!(group.preferred_version.unwrap().group_version, "example.com/v1");
/// let list = discovery.api_resource_list("example.com", "v1").unwrap();
/// assert_eq!(list.resources[0].name, "widgets");
/// assert!(!discovery.serves_core());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Discovery {
    crds: Vec<Arc<CustomResourceDefinition>>,
    namespaces: Option<NamespaceDiscovery>,
}

impl Discovery {
    /// Discovery of the kinds these CRDs describe (taken as established):
    /// a CRD of group `""` is a core-group kind, listed in `/api/v1`
    /// (only its `v1`); the others are API groups' kinds.
    pub fn new(crds: Vec<CustomResourceDefinition>) -> Self {
        Self::shared(crds.into_iter().map(Arc::new).collect())
    }

    /// [`Discovery::new`] of CRDs shared with their served kinds (no copy
    /// of each: a server rebuilds its discovery whenever a kind is added).
    pub fn shared(crds: Vec<Arc<CustomResourceDefinition>>) -> Self {
        let mut discovery = Discovery {
            crds,
            namespaces: None,
        };
        discovery.sort();
        discovery
    }

    fn sort(&mut self) {
        self.crds.sort_by(|a, b| {
            (a.spec.group.as_str(), a.spec.names.plural.as_str())
                .cmp(&(b.spec.group.as_str(), b.spec.names.plural.as_str()))
        });
    }

    /// Also serve the core group's `namespaces` (in `/api/v1` and the
    /// aggregated `/api`), listed as `namespaces` says.
    pub fn with_namespaces(mut self, namespaces: NamespaceDiscovery) -> Self {
        let described = self
            .crds
            .iter()
            .any(|c| c.spec.group.is_empty() && c.spec.names.plural == "namespaces");
        if !described && let Some(crd) = crate::namespaces::kind_info().crd {
            self.crds.push(crd);
            self.sort();
        }
        self.namespaces = Some(namespaces);
        self
    }

    /// The CRDs, sorted by group then plural (the core group's first,
    /// Namespace's among them when namespaces are served).
    pub fn crds(&self) -> &[Arc<CustomResourceDefinition>] {
        &self.crds
    }

    /// Whether the core group serves a resource: `/api/v1` is served
    /// (a 404 otherwise, as a server without core kinds answers).
    pub fn serves_core(&self) -> bool {
        self.serving("", "v1").next().is_some()
    }

    /// `/api`: `APIVersions` with `v1`, and `server_address` (`host:port`)
    /// for every client (`0.0.0.0/0`), as kube-apiserver writes it.
    pub fn api_versions(&self, server_address: &str) -> ApiVersions {
        ApiVersions {
            kind: "APIVersions".into(),
            versions: vec!["v1".into()],
            server_address_by_client_cidrs: vec![ServerAddressByClientCidr {
                client_cidr: "0.0.0.0/0".into(),
                server_address: server_address.into(),
            }],
        }
    }

    /// The core group's resources, by name.
    fn core_entries(&self) -> Vec<Entry> {
        let mut entries: Vec<Entry> = self
            .serving("", "v1")
            .map(|(crd, v)| {
                let mut entry = Entry::of(crd, v);
                if let Some(ns) = &self.namespaces
                    && entry.plural == "namespaces"
                {
                    ns.apply(&mut entry);
                }
                entry
            })
            .collect();
        entries.sort_by(|a, b| a.plural.cmp(&b.plural));
        entries
    }

    /// `/api/v1`: the core group's resources and their subresources (every
    /// core-group kind served, `namespaces` as [`NamespaceDiscovery`]
    /// says), sorted by name as kube-apiserver lists them; an empty list
    /// when the core group serves nothing.
    pub fn core_api_resource_list(&self) -> ApiResourceList {
        let mut resources: Vec<ApiResource> =
            self.core_entries().iter().flat_map(Entry::legacy).collect();
        resources.sort_by(|a, b| a.name.cmp(&b.name));
        ApiResourceList {
            kind: "APIResourceList".into(),
            api_version: None,
            group_version: "v1".into(),
            resources,
        }
    }

    /// The served versions of the API group `group`, preferred first
    /// (empty for an unknown group, and for the core group `""`).
    pub fn group_versions(&self, group: &str) -> Vec<String> {
        let mut versions: Vec<String> = Vec::new();
        if group.is_empty() {
            return versions;
        }
        for crd in self.crds.iter().filter(|c| c.spec.group == group) {
            for v in crd.spec.versions.iter().filter(|v| v.served) {
                if !versions.contains(&v.name) {
                    versions.push(v.name.clone());
                }
            }
        }
        sort_by_preference(&mut versions, |v| v.as_str());
        versions
    }

    /// The API groups with at least one served version, sorted by name
    /// (not the core group).
    pub fn groups(&self) -> Vec<String> {
        let mut groups: Vec<String> = Vec::new();
        for crd in self.crds.iter().filter(|c| !c.spec.group.is_empty()) {
            if crd.spec.versions.iter().any(|v| v.served) && !groups.contains(&crd.spec.group) {
                groups.push(crd.spec.group.clone());
            }
        }
        groups.sort();
        groups
    }

    fn group_entry(&self, group: &str) -> Option<ApiGroup> {
        let versions: Vec<_> = self
            .group_versions(group)
            .iter()
            .map(|v| GroupVersionForDiscovery::new(group, v))
            .collect();
        let preferred = versions.first()?.clone();
        Some(ApiGroup {
            kind: None,
            api_version: None,
            name: group.into(),
            versions,
            preferred_version: Some(preferred),
        })
    }

    /// `/apis`: every group, by name.
    pub fn api_group_list(&self) -> ApiGroupList {
        ApiGroupList {
            kind: "APIGroupList".into(),
            api_version: "v1".into(),
            groups: self
                .groups()
                .iter()
                .filter_map(|g| self.group_entry(g))
                .collect(),
        }
    }

    /// `/apis/{group}`, or `None` (404) when no CRD serves the group.
    pub fn api_group(&self, group: &str) -> Option<ApiGroup> {
        let mut entry = self.group_entry(group)?;
        entry.kind = Some("APIGroup".into());
        entry.api_version = Some("v1".into());
        Some(entry)
    }

    /// The CRDs serving `group/version`.
    fn serving<'a>(
        &'a self,
        group: &'a str,
        version: &'a str,
    ) -> impl Iterator<
        Item = (
            &'a CustomResourceDefinition,
            &'a CustomResourceDefinitionVersion,
        ),
    > + 'a {
        self.crds
            .iter()
            .filter(move |c| c.spec.group == group)
            .filter_map(move |c| {
                c.spec
                    .versions
                    .iter()
                    .find(|v| v.served && v.name == version)
                    .map(|v| (c.as_ref(), v))
            })
    }

    /// `/apis/{group}/{version}`, or `None` (404) when nothing serves it
    /// (the core group's list is [`Discovery::core_api_resource_list`]).
    pub fn api_resource_list(&self, group: &str, version: &str) -> Option<ApiResourceList> {
        if group.is_empty() {
            return None;
        }
        let resources: Vec<ApiResource> = self
            .serving(group, version)
            .flat_map(|(crd, v)| Entry::of(crd, v).legacy().collect::<Vec<_>>())
            .collect();
        if resources.is_empty() {
            return None;
        }
        Some(ApiResourceList {
            kind: "APIResourceList".into(),
            api_version: Some("v1".into()),
            group_version: group_version(group, version),
            resources,
        })
    }

    fn version_discovery(&self, group: &str, version: &str) -> ApiVersionDiscovery {
        let mut resources: Vec<ApiResourceDiscovery> = self
            .serving(group, version)
            .map(|(crd, v)| Entry::of(crd, v).aggregated())
            .collect();
        resources.sort_by(|a, b| a.resource.cmp(&b.resource));
        ApiVersionDiscovery {
            version: version.into(),
            resources,
            freshness: "Current".into(),
        }
    }

    /// Aggregated discovery of `/apis`: every group, its versions preferred
    /// first, each version's resources by name.
    pub fn aggregated_apis(&self) -> ApiGroupDiscoveryList {
        let items = self
            .groups()
            .iter()
            .map(|group| ApiGroupDiscovery {
                metadata: GroupMeta {
                    name: group.clone(),
                },
                versions: self
                    .group_versions(group)
                    .iter()
                    .map(|v| self.version_discovery(group, v))
                    .collect(),
            })
            .collect();
        aggregated_list(items)
    }

    /// Aggregated discovery of `/api`: the core group (`metadata: {}`) with
    /// `v1` and its resources by name (none when the core group serves
    /// nothing).
    pub fn aggregated_api(&self) -> ApiGroupDiscoveryList {
        let resources = self.core_entries().iter().map(Entry::aggregated).collect();
        aggregated_list(vec![ApiGroupDiscovery {
            metadata: GroupMeta {
                name: String::new(),
            },
            versions: vec![ApiVersionDiscovery {
                version: "v1".into(),
                resources,
                freshness: "Current".into(),
            }],
        }])
    }

    /// The preferred version of `group`, if served.
    pub fn preferred_version(&self, group: &str) -> Option<String> {
        self.group_versions(group).into_iter().next()
    }

    /// Every `(group, version)` served, groups by name, versions preferred first.
    pub fn group_version_pairs(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for g in self.groups() {
            for v in self.group_versions(&g) {
                out.push((g.clone(), v));
            }
        }
        out
    }
}

fn aggregated_list(items: Vec<ApiGroupDiscovery>) -> ApiGroupDiscoveryList {
    ApiGroupDiscoveryList {
        kind: "APIGroupDiscoveryList".into(),
        api_version: AGGREGATED_API_VERSION.into(),
        metadata: serde_json::Map::new(),
        items,
    }
}

/// The singular name; the apiserver defaults an empty one to
/// `lower(kind)` (apiextensions `v1/defaults.go`, `SetDefaults_CustomResourceDefinitionSpec`).
fn singular(crd: &CustomResourceDefinition) -> String {
    let names = &crd.spec.names;
    if names.singular.is_empty() {
        names.kind.to_lowercase()
    } else {
        names.singular.clone()
    }
}

#[cfg(test)]
#[path = "discovery_tests.rs"]
mod tests;
