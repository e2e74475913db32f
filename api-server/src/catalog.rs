//! What the server serves: its kinds by path, and the discovery and
//! OpenAPI documents written from them, as one value ([`Catalog`]) that
//! is replaced whole when a kind is added or removed at run time (a
//! CustomResourceDefinition's versions, as apiextensions-apiserver adds
//! and removes its handlers). A request reads the catalog current when
//! it starts and keeps it to its end; the controllers that act across
//! kinds (the garbage collector, the namespace controller) follow the
//! changes ([`Catalogs::subscribe`]).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use api_core::crd::CustomResourceDefinition;
use tokio::sync::watch;

use crate::discovery::{Discovery, NamespaceDiscovery};
use crate::openapi::OpenApiV3;
use crate::served::ServedKind;

/// The served kinds at one moment, with what is written from them.
pub(crate) struct Catalog {
    /// Every served kind but Namespace, in the order they were added.
    kinds: Vec<Arc<dyn ServedKind>>,
    /// Namespace, when served (discovery lists it in `/api/v1`).
    namespace_kind: Option<Arc<dyn ServedKind>>,
    by_path: ByPath,
    discovery: Discovery,
    /// One CRD per kind (however many versions are served), which
    /// discovery and OpenAPI are written from.
    crds: Vec<Arc<CustomResourceDefinition>>,
    /// The OpenAPI documents, written on their first request (with every
    /// built-in kind that takes longer than building the rest).
    openapi: OnceLock<OpenApiV3>,
}

impl Catalog {
    /// The catalog of `kinds` (and of Namespace, when `namespace_kind`).
    pub(crate) fn new(
        kinds: Vec<Arc<dyn ServedKind>>,
        namespace_kind: Option<Arc<dyn ServedKind>>,
    ) -> Catalog {
        // The core group's kinds (group `""`) go to `/api/v1`;
        // Namespace's entry is kube-apiserver's.
        let mut crds: BTreeMap<(String, String), Arc<CustomResourceDefinition>> = BTreeMap::new();
        for kind in &kinds {
            let crd = kind.crd();
            let key = (crd.spec.group.clone(), crd.spec.names.plural.clone());
            crds.entry(key).or_insert(crd);
        }
        let crds: Vec<_> = crds.into_values().collect();
        let mut discovery = Discovery::shared(crds.clone());
        if namespace_kind.is_some() {
            discovery = discovery.with_namespaces(NamespaceDiscovery::default());
        }
        let mut by_path = ByPath::default();
        for kind in kinds.iter().chain(&namespace_kind) {
            by_path.insert(kind.clone());
        }
        Catalog {
            kinds,
            namespace_kind,
            by_path,
            discovery,
            crds,
            openapi: OnceLock::new(),
        }
    }

    /// Every served kind (Namespace last, when served).
    pub(crate) fn all(&self) -> Vec<Arc<dyn ServedKind>> {
        self.kinds
            .iter()
            .chain(&self.namespace_kind)
            .cloned()
            .collect()
    }

    /// The namespaced kinds (what a namespace's deletion deletes).
    pub(crate) fn namespaced(&self) -> Vec<Arc<dyn ServedKind>> {
        self.kinds
            .iter()
            .filter(|k| k.namespaced())
            .cloned()
            .collect()
    }

    /// The kind served at `group`/`version`/`resource`.
    pub(crate) fn get(
        &self,
        group: &str,
        version: &str,
        resource: &str,
    ) -> Option<&Arc<dyn ServedKind>> {
        self.by_path.get(group, version, resource)
    }

    /// The served kind `kind` of `group`/`version`.
    pub(crate) fn of_kind(
        &self,
        group: &str,
        version: &str,
        kind: &str,
    ) -> Option<&Arc<dyn ServedKind>> {
        self.by_path.of_kind(group, version, kind)
    }

    /// The discovery documents.
    pub(crate) fn discovery(&self) -> &Discovery {
        &self.discovery
    }

    /// The OpenAPI v3 documents (written once, when first asked for).
    pub(crate) fn openapi(&self) -> &OpenApiV3 {
        self.openapi.get_or_init(|| {
            let openapi = OpenApiV3::shared(&self.crds);
            if self.namespace_kind.is_some() {
                openapi.with_core_v1()
            } else {
                openapi
            }
        })
    }
}

/// The served kinds by group, version and resource (nested, so that a
/// request's path finds its kind without a key allocated per request).
#[derive(Default)]
struct ByPath(Named<Named<Named<Arc<dyn ServedKind>>>>);

/// A map by a name (group, version or resource).
type Named<T> = BTreeMap<String, T>;

impl ByPath {
    fn insert(&mut self, kind: Arc<dyn ServedKind>) {
        let (group, version, plural) = kind.path();
        let (group, version, plural) = (group.to_string(), version.to_string(), plural.to_string());
        self.0
            .entry(group)
            .or_default()
            .entry(version)
            .or_default()
            .insert(plural, kind);
    }

    fn get(&self, group: &str, version: &str, resource: &str) -> Option<&Arc<dyn ServedKind>> {
        self.0.get(group)?.get(version)?.get(resource)
    }

    fn of_kind(&self, group: &str, version: &str, kind: &str) -> Option<&Arc<dyn ServedKind>> {
        self.0
            .get(group)?
            .get(version)?
            .values()
            .find(|k| k.info().kind == kind)
    }
}

/// The current catalog, replaced whole on every change and announced to
/// subscribers.
pub(crate) struct Catalogs {
    current: watch::Sender<Arc<Catalog>>,
    /// Serializes changes (readers never wait for one being built).
    changing: Mutex<()>,
}

impl Catalogs {
    /// Starting from `catalog`.
    pub(crate) fn new(catalog: Catalog) -> Catalogs {
        Catalogs {
            current: watch::Sender::new(Arc::new(catalog)),
            changing: Mutex::new(()),
        }
    }

    /// The catalog now.
    pub(crate) fn current(&self) -> Arc<Catalog> {
        self.current.borrow().clone()
    }

    /// The catalog now, and every later one as it comes.
    pub(crate) fn subscribe(&self) -> watch::Receiver<Arc<Catalog>> {
        self.current.subscribe()
    }

    /// Replaces the catalog with one of the kinds `change` leaves (it gets
    /// the kinds but Namespace), and announces it; the new catalog.
    pub(crate) fn change(
        &self,
        change: impl FnOnce(&mut Vec<Arc<dyn ServedKind>>),
    ) -> Arc<Catalog> {
        let _changing = self.changing.lock().unwrap_or_else(|p| p.into_inner());
        let old = self.current();
        let mut kinds = old.kinds.clone();
        change(&mut kinds);
        let new = Arc::new(Catalog::new(kinds, old.namespace_kind.clone()));
        self.current.send_replace(new.clone());
        new
    }
}
