//! Kinds described by data: [`KindInfo`] holds what the store and a server
//! need to know about one served version of a kind (its names, scope,
//! subresources and the CRD that carries its schema, printer columns,
//! scale paths and selectable fields), whether the kind comes from a Rust
//! type, from Kubernetes' built-in types or from a CustomResourceDefinition
//! given at run time; [`Kinds`] is the table of served kinds, looked up by
//! group/version/resource or by group/kind, that a server and controllers
//! (a garbage collector, a CRD controller) share.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use serde_json::Value;

use crate::crd::{
    CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceSubresourceScale,
};
use crate::resource::{CustomResourceExt, Scope, SpecStatus};
use crate::status::{GroupKind, GroupResource};

/// One served version of a kind, as data.
#[derive(Clone, Debug)]
pub struct KindInfo {
    /// The API group (`""` for the core group).
    pub group: String,
    /// The version served.
    pub version: String,
    /// The kind (`Memcached`).
    pub kind: String,
    /// The kind of its lists (`MemcachedList`).
    pub list_kind: String,
    /// The resource name in paths (`memcacheds`).
    pub plural: String,
    /// The singular name (`memcached`).
    pub singular: String,
    /// Short names (`mc`), for kubectl.
    pub short_names: Vec<String>,
    /// Categories (`all`), for kubectl.
    pub categories: Vec<String>,
    /// Whether objects live in namespaces.
    pub scope: Scope,
    /// Whether status is written through `/status` (and the main endpoint
    /// keeps the stored status).
    pub status_subresource: bool,
    /// The CRD that describes the kind (every version, the schemas,
    /// printer columns, scale paths and selectable fields), when known.
    /// Built-in kinds are described by one as well.
    pub crd: Option<Arc<CustomResourceDefinition>>,
}

impl KindInfo {
    /// The names and scope of the Rust type `K` (no CRD: see
    /// [`KindInfo::of_crd_type`] for one with its schema).
    pub fn of<K: SpecStatus>() -> Self {
        KindInfo {
            group: K::GROUP.to_string(),
            version: K::VERSION.to_string(),
            kind: K::KIND.to_string(),
            list_kind: format!("{}List", K::KIND),
            plural: K::PLURAL.to_string(),
            singular: K::SINGULAR.to_string(),
            short_names: K::SHORT_NAMES.iter().map(ToString::to_string).collect(),
            categories: K::CATEGORIES.iter().map(ToString::to_string).collect(),
            scope: K::SCOPE,
            status_subresource: K::STATUS_SUBRESOURCE,
            crd: None,
        }
    }

    /// [`KindInfo::of`] with the type's CRD.
    pub fn of_crd_type<K: SpecStatus + CustomResourceExt>() -> Self {
        KindInfo {
            crd: Some(Arc::new(K::crd())),
            ..Self::of::<K>()
        }
    }

    /// The served `version` of the kind `crd` defines; `None` when the CRD
    /// has no such version.
    pub fn from_crd(crd: &CustomResourceDefinition, version: &str) -> Option<Self> {
        let v = crd.spec.versions.iter().find(|v| v.name == version)?;
        let names = &crd.spec.names;
        Some(KindInfo {
            group: crd.spec.group.clone(),
            version: version.to_string(),
            kind: names.kind.clone(),
            list_kind: if names.list_kind.is_empty() {
                format!("{}List", names.kind)
            } else {
                names.list_kind.clone()
            },
            plural: names.plural.clone(),
            singular: if names.singular.is_empty() {
                names.kind.to_lowercase()
            } else {
                names.singular.clone()
            },
            short_names: names.short_names.clone(),
            categories: names.categories.clone(),
            scope: if crd.spec.scope == "Cluster" {
                Scope::Cluster
            } else {
                Scope::Namespaced
            },
            status_subresource: v.subresources.as_ref().is_some_and(|s| s.status.is_some()),
            crd: Some(Arc::new(crd.clone())),
        })
    }

    /// `group/version`, or `version` for the core group.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// The group and resource, as errors name it.
    pub fn resource(&self) -> GroupResource {
        GroupResource::new(self.group.clone(), self.plural.clone())
    }

    /// The group and kind, as validation errors name it.
    pub fn group_kind(&self) -> GroupKind {
        GroupKind::new(self.group.clone(), self.kind.clone())
    }

    /// Whether objects live in namespaces.
    pub fn namespaced(&self) -> bool {
        self.scope.is_namespaced()
    }

    /// The storage key prefix of the kind's objects in `namespace` (all of
    /// them when cluster-scoped or `namespace` is empty), as the
    /// apiserver's etcd3 store lays keys out below its prefix:
    /// `/{group}/{plural}/{namespace}/`, and `/{plural}/{namespace}/` for
    /// the core group (`/registry/namespaces/...` on a cluster).
    pub fn key_prefix(&self, namespace: &str) -> String {
        let group = if self.group.is_empty() {
            String::new()
        } else {
            format!("/{}", self.group)
        };
        if self.namespaced() && !namespace.is_empty() {
            format!("{group}/{}/{namespace}/", self.plural)
        } else {
            format!("{group}/{}/", self.plural)
        }
    }

    /// The storage key of the object `name` in `namespace`.
    pub fn key(&self, namespace: &str, name: &str) -> String {
        format!("{}{name}", self.key_prefix(namespace))
    }

    /// The served version's entry of the CRD.
    fn crd_version(&self) -> Option<&crate::crd::CustomResourceDefinitionVersion> {
        self.crd
            .as_ref()?
            .spec
            .versions
            .iter()
            .find(|v| v.name == self.version)
    }

    /// The version's OpenAPI v3 schema (`openAPIV3Schema`), when known.
    pub fn schema(&self) -> Option<&Value> {
        self.crd_version()?
            .schema
            .as_ref()
            .map(|s| &s.open_api_v3_schema)
            .filter(|s| !s.is_null())
    }

    /// The version's printer columns (kubectl get).
    pub fn printer_columns(&self) -> &[CustomResourceColumnDefinition] {
        self.crd_version()
            .map(|v| v.additional_printer_columns.as_slice())
            .unwrap_or_default()
    }

    /// The version's scale subresource paths, when it has one.
    pub fn scale(&self) -> Option<&CustomResourceSubresourceScale> {
        self.crd_version()?.subresources.as_ref()?.scale.as_ref()
    }

    /// The version's selectable fields (`.spec.color`), for field
    /// selectors.
    pub fn selectable_fields(&self) -> Vec<&str> {
        self.crd_version()
            .map(|v| {
                v.selectable_fields
                    .iter()
                    .map(|f| f.json_path.as_str())
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The table of served kinds: by group, version and resource (how
/// requests name them) and by group and kind (how owner references and
/// objects name them). Shared (`Arc`) between a server and the
/// controllers that act across kinds; cheap to read concurrently.
#[derive(Default)]
pub struct Kinds {
    inner: RwLock<Table>,
}

#[derive(Default)]
struct Table {
    by_resource: BTreeMap<(String, String, String), Arc<KindInfo>>,
    by_kind: BTreeMap<(String, String), Vec<Arc<KindInfo>>>,
}

impl Kinds {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) a served version of a kind.
    pub fn insert(&self, info: Arc<KindInfo>) {
        let mut table = self.inner.write().unwrap_or_else(|p| p.into_inner());
        let key = (
            info.group.clone(),
            info.version.clone(),
            info.plural.clone(),
        );
        if let Some(old) = table.by_resource.insert(key, info.clone()) {
            let versions = table
                .by_kind
                .entry((old.group.clone(), old.kind.clone()))
                .or_default();
            versions.retain(|v| !Arc::ptr_eq(v, &old));
        }
        table
            .by_kind
            .entry((info.group.clone(), info.kind.clone()))
            .or_default()
            .push(info);
    }

    /// Removes a served version; returns what was there.
    pub fn remove(&self, group: &str, version: &str, plural: &str) -> Option<Arc<KindInfo>> {
        let mut table = self.inner.write().unwrap_or_else(|p| p.into_inner());
        let key = (group.to_string(), version.to_string(), plural.to_string());
        let old = table.by_resource.remove(&key)?;
        if let Some(versions) = table
            .by_kind
            .get_mut(&(old.group.clone(), old.kind.clone()))
        {
            versions.retain(|v| !Arc::ptr_eq(v, &old));
            if versions.is_empty() {
                table.by_kind.remove(&(old.group.clone(), old.kind.clone()));
            }
        }
        Some(old)
    }

    /// The kind served at `/apis/{group}/{version}/{plural}`.
    pub fn by_resource(&self, group: &str, version: &str, plural: &str) -> Option<Arc<KindInfo>> {
        let table = self.inner.read().unwrap_or_else(|p| p.into_inner());
        table
            .by_resource
            .get(&(group.to_string(), version.to_string(), plural.to_string()))
            .cloned()
    }

    /// Every served version of the kind `group`/`kind`, in the order
    /// they were added.
    pub fn by_kind(&self, group: &str, kind: &str) -> Vec<Arc<KindInfo>> {
        let table = self.inner.read().unwrap_or_else(|p| p.into_inner());
        table
            .by_kind
            .get(&(group.to_string(), kind.to_string()))
            .cloned()
            .unwrap_or_default()
    }

    /// Every served kind version, by group, version and resource.
    pub fn all(&self) -> Vec<Arc<KindInfo>> {
        let table = self.inner.read().unwrap_or_else(|p| p.into_inner());
        table.by_resource.values().cloned().collect()
    }
}

impl std::fmt::Debug for Kinds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let table = self.inner.read().unwrap_or_else(|p| p.into_inner());
        f.debug_list().entries(table.by_resource.keys()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(group: &str, version: &str, kind: &str, plural: &str) -> Arc<KindInfo> {
        let crd = serde_json::json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": format!("{plural}.{group}")},
            "spec": {
                "group": group,
                "names": {"kind": kind, "plural": plural},
                "scope": "Namespaced",
                "versions": [{"name": version, "served": true, "storage": true,
                              "subresources": {"status": {}}}]
            }
        });
        let crd = CustomResourceDefinition::from_json(&crd.to_string()).unwrap();
        Arc::new(KindInfo::from_crd(&crd, version).unwrap())
    }

    #[test]
    fn kinds_by_resource_and_by_kind() {
        let kinds = Kinds::new();
        kinds.insert(info("example.com", "v1", "Widget", "widgets"));
        kinds.insert(info("example.com", "v2", "Widget", "widgets"));
        kinds.insert(info("", "v1", "ConfigMap", "configmaps"));
        let w = kinds.by_resource("example.com", "v1", "widgets").unwrap();
        assert_eq!(
            (w.kind.as_str(), w.list_kind.as_str(), w.singular.as_str()),
            ("Widget", "WidgetList", "widget")
        );
        assert!(w.status_subresource);
        assert_eq!(w.api_version(), "example.com/v1");
        assert_eq!(w.key("ns", "a"), "/example.com/widgets/ns/a");
        assert_eq!(kinds.by_kind("example.com", "Widget").len(), 2);
        let cm = kinds.by_resource("", "v1", "configmaps").unwrap();
        assert_eq!(cm.api_version(), "v1");
        assert_eq!(cm.key("ns", "a"), "/configmaps/ns/a");
        // Replacing a version keeps one entry per version.
        kinds.insert(info("example.com", "v1", "Widget", "widgets"));
        assert_eq!(kinds.by_kind("example.com", "Widget").len(), 2);
        assert!(kinds.remove("example.com", "v1", "widgets").is_some());
        assert_eq!(kinds.by_kind("example.com", "Widget").len(), 1);
        assert!(kinds.by_resource("example.com", "v1", "widgets").is_none());
        assert_eq!(kinds.all().len(), 2);
    }
}
