//! [`ServerBuilder`]: the kinds, storage, limits, authentication,
//! authorization and controllers an [`ApiServer`] is built with.

use super::*;

/// Builds an [`ApiServer`]: one line per kind.
pub struct ServerBuilder {
    storage: Arc<dyn Storage>,
    kinds: Vec<Arc<dyn ServedKind>>,
    max_request_bytes: usize,
    namespaces: bool,
    custom_resource_definitions: bool,
    bookmark_interval: Duration,
    authenticator: Option<Authenticator>,
    max_watches: (usize, usize),
    request_timeout: Duration,
    client_timeout: Duration,
    audit: Option<AuditLog>,
    rbac: bool,
    garbage_collector: bool,
    health_checks: Vec<(String, HealthCheck)>,
}

/// How requests are authorized (`--authorization-mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuthorizationMode {
    /// Every authenticated request is allowed.
    AlwaysAllow,
    /// `rbac.authorization.k8s.io/v1` objects are served and enforced;
    /// `system:masters` may do everything.
    Rbac,
}

impl ServerBuilder {
    /// A builder over a fresh in-memory storage ([`ApiServer::builder`]).
    pub(super) fn new() -> Self {
        ServerBuilder {
            storage: Arc::new(MemoryStorage::new()),
            kinds: Vec::new(),
            max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
            namespaces: false,
            custom_resource_definitions: false,
            bookmark_interval: DEFAULT_BOOKMARK_INTERVAL,
            authenticator: None,
            max_watches: (DEFAULT_MAX_WATCHES, DEFAULT_MAX_WATCHES_PER_USER),
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            client_timeout: crate::listen::HEADER_READ_TIMEOUT,
            audit: None,
            rbac: false,
            garbage_collector: false,
            health_checks: Vec::new(),
        }
    }
    /// Serves `K` with `strategy`, over the builder's storage.
    pub fn resource<K: Served + CustomResourceExt>(
        mut self,
        strategy: impl Strategy<K> + 'static,
    ) -> Self {
        let registry = Registry::<K>::with_storage(strategy, self.storage.clone());
        self.kinds
            .push(Arc::new(RegistryKind::new(Arc::new(registry))));
        self
    }

    /// Serves `K`, one version of the multi-version kind `versions`
    /// describes: objects are stored in its storage version, and every
    /// served version's registry shares the builder's storage (call it
    /// once per served version). Fails as
    /// [`Registry::with_versions`] does.
    pub fn version<K, H>(
        mut self,
        strategy: impl Strategy<K> + 'static,
        versions: Arc<Versions<H>>,
    ) -> Result<Self, Status>
    where
        K: Served + CustomResourceExt,
        H: CustomResourceExt + ApiType + Serialize + DeserializeOwned + 'static,
    {
        let crd = versions.crd().map_err(Status::internal_error)?;
        let registry = Registry::<K>::with_versions(strategy, self.storage.clone(), versions)?;
        self.kinds
            .push(Arc::new(RegistryKind::with_crd(Arc::new(registry), crd)));
        Ok(self)
    }

    /// Serves the kind `crd` defines, as apiextensions-apiserver serves a
    /// CustomResourceDefinition: objects are
    /// [`DynamicObject`](api_core::registry::DynamicObject)s in a
    /// registry of that kind ([`Registry::with_kind`]) over the builder's
    /// storage, defaulted, pruned and validated by its schema
    /// ([`DynamicStrategy`]), with its printer columns, subresources and
    /// selectable fields. Refused with a 422 when the CRD breaks the
    /// apiserver's rules (`check_crd`: names, versions, a structural
    /// schema, ...), and with a 400 when it serves more than one version
    /// (conversion between versions is not served yet).
    pub fn custom_resource(mut self, crd: &CustomResourceDefinition) -> Result<Self, Status> {
        let errors = api_core::schema::structural::check_crd(&crd.to_json());
        if !errors.is_empty() {
            return Err(Status::invalid(
                GroupKind::new("apiextensions.k8s.io", "CustomResourceDefinition"),
                crd.name(),
                &errors,
            ));
        }
        let served: Vec<&str> = crd
            .spec
            .versions
            .iter()
            .filter(|v| v.served)
            .map(|v| v.name.as_str())
            .collect();
        let [version] = served.as_slice() else {
            return Err(Status::bad_request(format!(
                "{}: serving {} versions of a CustomResourceDefinition needs conversion between them, which is not served yet; serve one",
                crd.name(),
                served.len()
            )));
        };
        let kind = KindInfo::from_crd(crd, version)
            .ok_or_else(|| Status::internal_error("a served version the CRD lacks"))?;
        let registry = Registry::with_kind(
            kind.clone(),
            DynamicStrategy::new(&kind),
            self.storage.clone(),
        );
        self.kinds
            .push(Arc::new(RegistryKind::dynamic(Arc::new(registry))));
        Ok(self)
    }

    /// Serves an already built kind (a registry of one version of a
    /// multi-version kind, or anything implementing [`ServedKind`]).
    pub fn kind(mut self, kind: Arc<dyn ServedKind>) -> Self {
        self.kinds.push(kind);
        self
    }

    /// Stores objects in `storage` (the default is a [`MemoryStorage`]);
    /// call it before [`ServerBuilder::resource`].
    pub fn storage(mut self, storage: Arc<dyn Storage>) -> Self {
        self.storage = storage;
        self
    }

    /// Serves core `v1` `Namespace`s (`/api/v1/namespaces`: create, get,
    /// list, delete with their content), creates `default`,
    /// `kube-system`, `kube-public` and `kube-node-lease`, and refuses to
    /// create namespaced objects in a namespace that does not exist (404,
    /// as NamespaceLifecycle does).
    pub fn with_namespaces(mut self) -> Self {
        self.namespaces = true;
        self
    }

    /// Serves `apiextensions.k8s.io/v1` `CustomResourceDefinition`s, as
    /// apiextensions-apiserver does: a CRD created (or updated) at run
    /// time has its names accepted, becomes `Established` and has its
    /// served versions served; deleting it deletes its objects first
    /// ([`crate::apiextensions`]). The CRD controller runs with
    /// [`ApiServer::start_controllers`].
    pub fn with_custom_resource_definitions(mut self) -> Self {
        self.custom_resource_definitions = true;
        self
    }

    /// The request body limit (413 above it).
    pub fn max_request_bytes(mut self, bytes: usize) -> Self {
        self.max_request_bytes = bytes;
        self
    }

    /// How often a watch with `allowWatchBookmarks` gets a BOOKMARK
    /// (default [`DEFAULT_BOOKMARK_INTERVAL`], the cacher's frequency).
    pub fn bookmark_interval(mut self, interval: Duration) -> Self {
        self.bookmark_interval = interval.max(Duration::from_millis(1));
        self
    }

    /// Authenticates every request with `authenticator` (401 when it
    /// finds no user). Without it, requests are not authenticated: each
    /// is served as `system:unsecured` in `system:masters`, the user of
    /// kube-apiserver's former insecure port — right for in-process
    /// tests, wrong for a socket anyone can reach.
    pub fn authenticator(mut self, authenticator: Authenticator) -> Self {
        self.authenticator = Some(authenticator);
        self
    }

    /// At most `total` watches open at once, and `per_user` for one user
    /// (429 `TooManyRequests` beyond; defaults
    /// [`DEFAULT_MAX_WATCHES`] and
    /// [`DEFAULT_MAX_WATCHES_PER_USER`]).
    pub fn max_watches(mut self, total: usize, per_user: usize) -> Self {
        self.max_watches = (total, per_user);
        self
    }

    /// The longest a request other than a watch may take (504 after it;
    /// a request's `timeout` parameter may only shorten it). Default
    /// [`DEFAULT_REQUEST_TIMEOUT`],
    /// as kube-apiserver's `--request-timeout`.
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// How long a client may take over each step before its request is
    /// read: the TLS handshake, the first bytes of a request (after the
    /// handshake, or on a new connection), and a request's headers; the
    /// connection is closed after it (slowloris, idle sockets holding file
    /// descriptors). Default [`HEADER_READ_TIMEOUT`](crate::listen::HEADER_READ_TIMEOUT),
    /// 10 s.
    pub fn client_timeout(mut self, timeout: Duration) -> Self {
        self.client_timeout = timeout;
        self
    }

    /// Authorizes requests by `mode` (default
    /// [`AuthorizationMode::AlwaysAllow`]). With RBAC, the four RBAC kinds
    /// are served from the builder's storage (set the storage first) and
    /// every request is checked against them, with the apiserver's 403;
    /// writes of roles and bindings are checked for escalation.
    pub fn authorization(mut self, mode: AuthorizationMode) -> Self {
        self.rbac = mode == AuthorizationMode::Rbac;
        self
    }

    /// Records every request in `audit` (`--audit-log-path`).
    pub fn audit_log(mut self, audit: AuditLog) -> Self {
        self.audit = Some(audit);
        self
    }

    /// Serves Kubernetes' built-in kinds `which` selects
    /// ([`crate::builtin::KINDS`]: Deployment, ConfigMap, Pod, ...) from
    /// k8s-openapi's types, over the builder's storage.
    #[cfg(feature = "k8s-openapi")]
    pub fn builtin_kinds(mut self, which: &crate::builtin::BuiltinKinds) -> Self {
        for kind in crate::builtin::kinds(which, &self.storage) {
            self.kinds.push(Arc::new(kind));
        }
        self
    }

    /// Adds the check `name` to `/healthz`, `/livez` and `/readyz` (and
    /// serves it alone at `/readyz/{name}`): a storage backend's, such as
    /// etcd's (`etcd`), so that the server reports not ready while its
    /// storage is unreachable.
    pub fn health_check(mut self, name: &str, check: HealthCheck) -> Self {
        self.health_checks.push((name.to_string(), check));
        self
    }

    /// Runs a garbage collector ([`crate::gc`]) beside the server: owners'
    /// deletes take their dependents along (`propagationPolicy`
    /// `Background`, `Foreground`, `Orphan`), as kube-controller-manager's
    /// collector does on a cluster. [`ApiServer::serve`] and
    /// [`ApiServer::serve_tls`] start it; in process,
    /// [`ApiServer::start_controllers`].
    pub fn garbage_collector(mut self) -> Self {
        self.garbage_collector = true;
        self
    }

    /// The server.
    pub fn build(mut self) -> ApiServer {
        let rbac = self.rbac.then(|| RbacState::new(self.storage.clone()));
        if let Some(state) = &rbac {
            self.kinds.push(Arc::new(rbac_kind::<Role>(state.clone())));
            self.kinds
                .push(Arc::new(rbac_kind::<ClusterRole>(state.clone())));
            self.kinds
                .push(Arc::new(rbac_kind::<RoleBinding>(state.clone())));
            self.kinds
                .push(Arc::new(rbac_kind::<ClusterRoleBinding>(state.clone())));
        }
        let namespaces = self
            .namespaces
            .then(|| Arc::new(NamespaceKind::new(self.storage.clone())));
        // The admission chain every kind's store runs: NamespaceLifecycle
        // when namespaces are served.
        // With CRDs served, those of the kinds served from Rust types are
        // shown too (written at start, read-only).
        let (typed_crds, typed_names) = if self.custom_resource_definitions {
            crate::apiextensions::of_kinds(&self.kinds)
        } else {
            Default::default()
        };
        let crds = self.custom_resource_definitions.then(|| {
            let (registry, served) =
                crate::apiextensions::served(self.storage.clone(), typed_names.clone());
            self.kinds.push(Arc::new(served));
            registry
        });
        let mut plugins: Vec<Arc<dyn api_core::registry::AdmissionPlugin>> = Vec::new();
        if let Some(namespaces) = &namespaces {
            plugins.push(namespaces.lifecycle());
        }
        if crds.is_some() {
            plugins.push(Arc::new(crate::apiextensions::ReadOnlyCrds(
                typed_names.clone(),
            )));
        }
        let plugins: AdmissionPlugins = plugins.into();
        let kinds = Arc::new(Kinds::new());
        let namespace_kind = namespaces.as_ref().map(|n| n.served());
        for kind in self.kinds.iter().chain(&namespace_kind) {
            kinds.insert(Arc::new(kind.info().clone()));
            kind.set_garbage_collection(self.garbage_collector);
            kind.set_admission_plugins(plugins.clone());
        }
        let catalog = Catalog::new(self.kinds, namespace_kind);
        if let Some(namespaces) = &namespaces {
            // A namespace's deletion deletes what is in it.
            namespaces.set_content(catalog.namespaced());
        }
        ApiServer {
            inner: Arc::new(Inner {
                catalogs: Catalogs::new(catalog),
                storage: self.storage,
                crds,
                typed_crds,
                typed_names,
                garbage_collector: self.garbage_collector,
                plugins,
                kinds,
                namespaces,
                bootstrapped: tokio::sync::OnceCell::new(),
                max_request_bytes: self.max_request_bytes,
                bookmark_interval: self.bookmark_interval,
                authenticator: self.authenticator,
                watches: WatchLimiter::new(self.max_watches.0, self.max_watches.1),
                request_timeout: self.request_timeout,
                client_timeout: self.client_timeout,
                audit: self.audit,
                rbac,
                health_checks: self.health_checks,
            }),
        }
    }
}
