//! The HTTP API server: one tower `Service` (an axum `Router`) over the
//! registries of any set of kinds, with the paths, verbs, status codes and
//! documents of k8s.io/apiserver.
//!
//! ```
//! # use api_core::prelude::*;
//! # use serde::{Deserialize, Serialize};
//! # /// Spec.
//! # #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! # #[kube(group = "example.com", version = "v1", kind = "Widget", namespaced)]
//! # pub struct WidgetSpec {
//! #     /// size.
//! #     #[serde(default, skip_serializing_if = "Option::is_none")]
//! #     pub size: Option<i32>,
//! # }
//! use api_core::registry::DefaultStrategy;
//! use api_server::ApiServer;
//!
//! let server = ApiServer::builder()
//!     .resource::<Widget>(DefaultStrategy) // one line per kind
//!     .build();
//! let app = server.router(); // a tower Service: serve it, or call it in-process
//! # let _ = app;
//! ```
//!
//! Requests are dispatched by parsing the path as the apiserver's
//! `RequestInfoFactory` does (not by a routing table), so that every
//! failure, a wrong path included, is the apiserver's `Status`.

use std::sync::Arc;
use std::time::Duration;

use api_core::ApiType;
use api_core::Status;
use api_core::conversion::Versions;
use api_core::crd::CustomResourceDefinition;
use api_core::meta::ListMeta;
use api_core::patch::PatchType;
use api_core::registry::{
    AdmissionPlugins, DeleteOptions, DynamicStrategy, KindInfo, Kinds, ListOptions, MemoryStorage,
    Registry, Served, Storage, Strategy,
};
use api_core::resource::CustomResourceExt;
use api_core::status::GroupKind;
use api_core::status::{GroupResource, StatusCause, StatusDetails, StatusReason};
use api_core::validation::names::is_valid_path_segment_name;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::audit::{AuditLog, AuditRecord};
use crate::authn::{ALL_AUTHENTICATED, Authenticator, SYSTEM_MASTERS, User};
use crate::catalog::{Catalog, Catalogs};
use crate::limits::{
    DEFAULT_MAX_WATCHES, DEFAULT_MAX_WATCHES_PER_USER, DEFAULT_REQUEST_TIMEOUT, WatchLimiter,
    WatchSlot, deadline_exceeded,
};
use crate::listen::Peer;
use crate::namespaces::NamespaceKind;
use crate::negotiation::{Representation, negotiate};
use crate::params::{
    ListParams, Query, check_list_revision, delete_options, list_params, write_options_for,
};
use crate::rbac::Attributes;
use crate::rbac::forbidden::forbidden_status;
use crate::rbac::types::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use crate::rbac_store::{RbacState, rbac_kind};
use crate::request_info::RequestInfo;
use crate::scale::{self, ScaleChange, ScalePaths};
use crate::served::{JsonEvent, RegistryKind, ServedKind, Written};
mod bootstrap;
mod builder;
mod filters;
mod handlers;
mod health;
mod responses;
mod reviews;

pub use builder::{AuthorizationMode, ServerBuilder};
pub use health::HealthCheck;
use responses::*;

pub(crate) use handlers::WrittenName;
use handlers::*;
use reviews::*;

use crate::table::{
    IncludeObject, TableConvertor, TableOptions, partial_object_metadata,
    partial_object_metadata_list,
};

/// The apiserver's default `--max-request-bytes` (3 MiB).
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 3 * 1024 * 1024;

/// How often a watch with `allowWatchBookmarks` gets a BOOKMARK (the
/// apiserver's watch cache sends one about every minute).
pub const DEFAULT_BOOKMARK_INTERVAL: Duration = Duration::from_secs(60);

struct Inner {
    /// What is served now: kinds by path, discovery, OpenAPI.
    catalogs: Catalogs,
    /// Where the objects are.
    storage: Arc<dyn Storage>,
    /// The CRDs' registry, when they are served.
    crds: Option<Arc<Registry<api_core::registry::DynamicObject>>>,
    /// The CRDs of the kinds served from Rust types (written at start).
    typed_crds: Vec<Value>,
    /// Their names (the CRD controller leaves them alone).
    typed_names: Arc<std::collections::BTreeSet<String>>,
    /// Whether a garbage collector runs over the kinds (and deletes record
    /// the propagation policy as finalizers).
    garbage_collector: bool,
    /// The admission chain every kind's store runs.
    plugins: AdmissionPlugins,
    kinds: Arc<Kinds>,
    namespaces: Option<Arc<NamespaceKind>>,
    /// Set once the system namespaces and the bootstrap objects exist.
    bootstrapped: tokio::sync::OnceCell<()>,
    max_request_bytes: usize,
    bookmark_interval: Duration,
    authenticator: Option<Authenticator>,
    watches: Arc<WatchLimiter>,
    request_timeout: Duration,
    client_timeout: Duration,
    audit: Option<AuditLog>,
    rbac: Option<Arc<RbacState>>,
    health_checks: Vec<(String, HealthCheck)>,
}

/// The controllers running beside a server ([`ApiServer::start_controllers`]);
/// they stop when this is dropped.
#[derive(Debug)]
pub struct Controllers {
    _garbage_collector: Option<crate::gc::GarbageCollector>,
    _namespaces: Option<crate::namespaces::controller::NamespaceController>,
    _aggregation: Option<crate::rbac::aggregation::AggregationController>,
    _crds: Option<crate::apiextensions::controller::CrdController>,
}

/// A Kubernetes-compatible API server over registries.
#[derive(Clone)]
pub struct ApiServer {
    inner: Arc<Inner>,
}

impl ApiServer {
    /// A builder over a fresh in-memory storage.
    pub fn builder() -> ServerBuilder {
        ServerBuilder::new()
    }

    /// The table of the kinds this server serves (by group, version and
    /// resource, and by group and kind), for controllers that act across
    /// kinds.
    pub fn kinds(&self) -> Arc<Kinds> {
        self.inner.kinds.clone()
    }

    /// Serves `kind` from now on, beside the kinds the server was built
    /// with: a kind known only at run time, as a CustomResourceDefinition's
    /// version is (usually [`RegistryKind::dynamic`] over this server's
    /// storage). A kind served at the same group, version and resource is
    /// replaced. Requests under way finish with the kinds they started
    /// with; discovery, OpenAPI, [`ApiServer::kinds`], the garbage
    /// collector and the namespace controller follow the change.
    pub fn add_kind(&self, kind: Arc<dyn ServedKind>) {
        kind.set_garbage_collection(self.inner.garbage_collector);
        kind.set_admission_plugins(self.inner.plugins.clone());
        let info = Arc::new(kind.info().clone());
        let catalog = self.inner.catalogs.change(|kinds| {
            kinds.retain(|k| k.path() != kind.path());
            kinds.push(kind);
        });
        self.inner.kinds.insert(info);
        self.kinds_changed(&catalog);
    }

    /// Stops serving `group`/`version`/`resource` (a kind added with
    /// [`ApiServer::add_kind`] or built in); the kind that was served
    /// there. Its objects stay in storage.
    pub fn remove_kind(
        &self,
        group: &str,
        version: &str,
        resource: &str,
    ) -> Option<Arc<dyn ServedKind>> {
        let mut removed = None;
        let catalog = self.inner.catalogs.change(|kinds| {
            if let Some(at) = kinds
                .iter()
                .position(|k| k.path() == (group, version, resource))
            {
                removed = Some(kinds.remove(at));
            }
        });
        if removed.is_some() {
            self.inner.kinds.remove(group, version, resource);
            self.kinds_changed(&catalog);
        }
        removed
    }

    /// Creates the CustomResourceDefinition `crd` (its JSON), or replaces
    /// the one of its name, as the server's own user (`system:apiserver`),
    /// validated as any CRD write is; the CRD as stored. It is served once
    /// the controllers (running with [`ApiServer::serve`] or
    /// [`ApiServer::start_controllers`]) establish it. A 404 when the
    /// server does not serve CRDs
    /// ([`ServerBuilder::with_custom_resource_definitions`]).
    pub async fn install_crd(&self, crd: &Value) -> Result<Value, Status> {
        let kind = self.crd_kind(crd["metadata"]["name"].as_str().unwrap_or_default())?;
        crate::apiextensions::install(kind.as_ref(), crd).await
    }

    /// The CustomResourceDefinition `name` as stored (with its status:
    /// its names accepted, `Established`, ...). A 404 when there is none,
    /// or when the server does not serve CRDs.
    pub async fn get_crd(&self, name: &str) -> Result<Value, Status> {
        self.crd_kind(name)?.get("", name).await
    }

    /// The served CRD kind; a 404 naming CRD `name` when CRDs are not
    /// served.
    fn crd_kind(&self, name: &str) -> Result<Arc<dyn ServedKind>, Status> {
        let resource = "customresourcedefinitions";
        self.inner
            .catalogs
            .current()
            .get(crate::apiextensions::GROUP, "v1", resource)
            .cloned()
            .ok_or_else(|| {
                Status::not_found(
                    GroupResource::new(crate::apiextensions::GROUP, resource),
                    name,
                )
            })
    }

    /// Tells what follows the kinds by hand (the namespace controller's
    /// content) about a new catalog.
    fn kinds_changed(&self, catalog: &Catalog) {
        if let Some(namespaces) = &self.inner.namespaces {
            namespaces.set_content(catalog.namespaced());
        }
    }

    /// How long a client may take before its request is read (see
    /// [`ServerBuilder::client_timeout`]).
    pub(crate) fn client_timeout(&self) -> Duration {
        self.inner.client_timeout
    }

    /// Starts the controllers that run beside the server, as
    /// kube-controller-manager's do beside kube-apiserver: the namespace
    /// controller when namespaces are served (a deleted namespace's
    /// content goes, then the namespace), the ClusterRole aggregation
    /// controller with RBAC, and the garbage collector when
    /// the server was built with one ([`ServerBuilder::garbage_collector`]).
    /// They run until the returned value is dropped. [`ApiServer::serve`]
    /// and [`ApiServer::serve_tls`] start them; a server used in process
    /// (its [`router`](ApiServer::router)) starts them with this. Call it
    /// in a Tokio runtime.
    pub fn start_controllers(&self) -> Controllers {
        Controllers {
            _garbage_collector: self
                .inner
                .garbage_collector
                .then(|| crate::gc::GarbageCollector::follow(self.inner.catalogs.subscribe())),
            _namespaces: self.inner.namespaces.as_ref().map(|n| n.start_controller()),
            _aggregation: self
                .inner
                .rbac
                .as_ref()
                .and_then(|_| {
                    self.inner
                        .catalogs
                        .current()
                        .get("rbac.authorization.k8s.io", "v1", "clusterroles")
                        .cloned()
                })
                .map(crate::rbac::aggregation::AggregationController::start),
            _crds: self.inner.crds.clone().map(|crds| {
                crate::apiextensions::controller::CrdController::start(
                    self.clone(),
                    crds,
                    self.inner.storage.clone(),
                    self.inner.typed_names.clone(),
                )
            }),
        }
    }

    /// The server as an axum `Router` (a tower `Service`).
    pub fn router(&self) -> axum::Router {
        filters::chain(&self.inner)
    }
}

/// The user of requests when no authenticator is set (kube-apiserver's
/// insecure-port user).
pub const UNSECURED: &str = "system:unsecured";

/// The handler behind the filters: health, version, discovery, OpenAPI,
/// the review endpoints, and every kind's resources.
async fn dispatch(State(inner): State<Arc<Inner>>, request: Request) -> Response {
    let inner = inner.as_ref();
    let (parts, body) = request.into_parts();
    let Some((info, user)) = parts
        .extensions
        .get::<Arc<RequestInfo>>()
        .and_then(|info| Some((info, info.user()?)))
    else {
        return status_response(Status::internal_error("a request past no filters"));
    };
    let query = &info.query;
    // A write negotiates its response before it reads the body, as the
    // apiserver's handlers do: an `Accept` it cannot honour is a 406 and
    // nothing is written.
    if matches!(
        parts.method,
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    ) && info.resource.is_some()
        && negotiate(header_str(&parts.headers, header::ACCEPT), true, false).is_none()
    {
        return status_response(Status::not_acceptable(&["application/json"]));
    }
    let body = match axum::body::to_bytes(body, inner.max_request_bytes).await {
        Ok(b) => b,
        Err(e) => return status_response(body_error(e, inner.max_request_bytes)),
    };
    let segments = info.parts();
    // Health first: it reports a storage that cannot bootstrap.
    if parts.method == Method::GET
        && let [endpoint @ ("healthz" | "livez" | "readyz"), rest @ ..] = segments.as_slice()
        && rest.len() <= 1
    {
        return health::health(&inner.health_checks, endpoint, rest.first().copied(), query).await;
    }
    if let Err(status) = inner
        .bootstrapped
        .get_or_try_init(|| bootstrap::bootstrap(inner))
        .await
    {
        return status_response(status);
    }
    let req = Req {
        query,
        headers: &parts.headers,
        user: Some(user),
    };
    match (parts.method.clone(), segments.as_slice()) {
        (Method::GET, ["version"]) => json_response(StatusCode::OK, &version(), "application/json"),
        (
            Method::POST,
            [
                "apis",
                "authorization.k8s.io",
                "v1",
                which @ ("selfsubjectaccessreviews" | "selfsubjectrulesreviews"),
            ],
        ) => match self_review(inner, user, which, &parts.headers, &body).await {
            Ok(review) => json_response(StatusCode::CREATED, &review, "application/json"),
            Err(status) => status_response(status),
        },
        (Method::POST, ["apis", "authentication.k8s.io", "v1", "selfsubjectreviews"]) => {
            json_response(
                StatusCode::CREATED,
                &self_subject_review(user),
                "application/json",
            )
        }
        // The legacy `APIVersions`, or the core group's aggregated
        // discovery (`apidiscovery.k8s.io/v2`) when the client asks for
        // it, as kube-apiserver serves both on `/api`.
        (Method::GET, ["api"]) => {
            let accept = header_str(&parts.headers, header::ACCEPT);
            match negotiate(accept, false, true) {
                Some(Representation::AggregatedDiscovery) => json_response(
                    StatusCode::OK,
                    &inner.catalogs.current().discovery().aggregated_api(),
                    Representation::AggregatedDiscovery.content_type(),
                ),
                Some(_) => {
                    let host = header_str(&parts.headers, header::HOST).unwrap_or("127.0.0.1");
                    json_response(
                        StatusCode::OK,
                        &inner.catalogs.current().discovery().api_versions(host),
                        "application/json",
                    )
                }
                None => status_response(Status::not_acceptable(&["application/json"])),
            }
        }
        (Method::GET, ["api", "v1"]) if inner.catalogs.current().discovery().serves_core() => {
            json_response(
                StatusCode::OK,
                &inner
                    .catalogs
                    .current()
                    .discovery()
                    .core_api_resource_list(),
                "application/json",
            )
        }
        (method, ["api", "v1", ..]) => match &info.resource {
            Some(resource) => resource_request(inner, method, resource, req, body).await,
            None => status_response(not_found_path()),
        },
        (Method::GET, ["apis"]) => {
            let accept = header_str(&parts.headers, header::ACCEPT);
            match negotiate(accept, false, true) {
                Some(Representation::AggregatedDiscovery) => json_response(
                    StatusCode::OK,
                    &inner.catalogs.current().discovery().aggregated_apis(),
                    Representation::AggregatedDiscovery.content_type(),
                ),
                Some(_) => json_response(
                    StatusCode::OK,
                    &inner.catalogs.current().discovery().api_group_list(),
                    "application/json",
                ),
                None => status_response(Status::not_acceptable(&["application/json"])),
            }
        }
        (Method::GET, ["apis", group]) => {
            match inner.catalogs.current().discovery().api_group(group) {
                Some(g) => json_response(StatusCode::OK, &g, "application/json"),
                None => status_response(not_found_path()),
            }
        }
        (Method::GET, ["apis", group, version]) => {
            match inner
                .catalogs
                .current()
                .discovery()
                .api_resource_list(group, version)
            {
                Some(l) => json_response(StatusCode::OK, &l, "application/json"),
                None => status_response(not_found_path()),
            }
        }
        (Method::GET, ["openapi", "v3"]) => json_response(
            StatusCode::OK,
            &inner.catalogs.current().openapi().index(),
            "application/json",
        ),
        (Method::GET, ["openapi", "v3", rest @ ..]) => {
            // `apis/<g>/<v>` (or `api/v1`); the `hash` query makes the URL
            // immutable, so clients may cache it for good.
            match inner.catalogs.current().openapi().document(&rest.join("/")) {
                Some(doc) => {
                    let cache = if query.get("hash") == Some(&doc.hash) {
                        "public, immutable"
                    } else {
                        "no-cache, private"
                    };
                    (
                        StatusCode::OK,
                        [
                            (header::CONTENT_TYPE, "application/json"),
                            (header::CACHE_CONTROL, cache),
                        ],
                        doc.json.clone(),
                    )
                        .into_response()
                }
                None => status_response(not_found_path()),
            }
        }
        (method, ["apis", _, _, ..]) => match &info.resource {
            Some(resource) => resource_request(inner, method, resource, req, body).await,
            None => status_response(not_found_path()),
        },
        _ => status_response(not_found_path()),
    }
}

/// Deletes every object of `kind` that `options` lists (one already gone
/// is skipped); returns the list and the deleted objects.
pub(crate) async fn delete_listed(
    kind: &dyn ServedKind,
    namespace: &str,
    options: &ListOptions,
    delete: &DeleteOptions,
    dry_run: bool,
) -> Result<(Value, Vec<Value>), Status> {
    let list = kind.list(namespace, options).await?;
    let mut deleted = Vec::new();
    for item in list["items"].as_array().into_iter().flatten() {
        let ns = item
            .pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or("");
        let name = item
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        match kind.delete(ns, name, delete, dry_run).await {
            Ok((object, _)) => deleted.push(object),
            Err(e) if e.code == 404 => {}
            Err(e) => return Err(e),
        }
    }
    Ok((list, deleted))
}
