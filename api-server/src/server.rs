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

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use api_core::ApiType;
use api_core::Status;
use api_core::conversion::Versions;
use api_core::crd::CustomResourceDefinition;
use api_core::meta::{ListMeta, MicroTime};
use api_core::patch::PatchType;
use api_core::registry::{
    DeleteOptions, DynamicStrategy, KindInfo, Kinds, ListOptions, MemoryStorage, Registry, Served,
    Storage, Strategy,
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
use crate::discovery::{Discovery, NamespaceDiscovery};
use crate::limits::{
    DEFAULT_MAX_WATCHES, DEFAULT_MAX_WATCHES_PER_USER, DEFAULT_REQUEST_TIMEOUT, WatchLimiter,
    WatchSlot, deadline_exceeded, request_deadline,
};
use crate::listen::Peer;
use crate::namespaces::{NamespaceKind, namespace_not_found};
use crate::negotiation::{Representation, negotiate};
use crate::openapi::OpenApiV3;
use crate::params::{
    ListParams, Query, check_list_revision, delete_options, list_params, write_options_for,
};
use crate::rbac::Attributes;
use crate::rbac::forbidden::forbidden_status;
use crate::rbac::types::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use crate::rbac_store::{RbacState, rbac_kind};
use crate::scale::{self, ScaleChange, ScalePaths};
use crate::served::{JsonEvent, RegistryKind, ServedKind, Written};
use crate::table::{
    IncludeObject, TableConvertor, TableOptions, partial_object_metadata,
    partial_object_metadata_list,
};

/// The apiserver's default `--max-request-bytes` (3 MiB).
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 3 * 1024 * 1024;

/// How often a watch with `allowWatchBookmarks` gets a BOOKMARK (the
/// apiserver's watch cache sends one about every minute).
pub const DEFAULT_BOOKMARK_INTERVAL: Duration = Duration::from_secs(60);

/// Builds an [`ApiServer`]: one line per kind.
pub struct ServerBuilder {
    storage: Arc<dyn Storage>,
    kinds: Vec<Arc<dyn ServedKind>>,
    max_request_bytes: usize,
    namespaces: bool,
    bookmark_interval: Duration,
    authenticator: Option<Authenticator>,
    max_watches: (usize, usize),
    request_timeout: Duration,
    client_timeout: Duration,
    audit: Option<AuditLog>,
    rbac: bool,
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
        // One CRD per kind, however many versions are served (the core
        // group's kinds are in `/api/v1`, not among the groups).
        let mut crds: BTreeMap<String, _> = BTreeMap::new();
        for kind in self.kinds.iter().filter(|k| !k.info().group.is_empty()) {
            let crd = kind.crd();
            crds.entry(crd.name().to_string()).or_insert(crd);
        }
        let crds: Vec<_> = crds.into_values().collect();
        let mut openapi = OpenApiV3::new(&crds);
        let mut discovery = Discovery::new(crds);
        if let Some(namespaces) = &namespaces {
            openapi = std::mem::take(&mut openapi).with_core_v1();
            discovery = std::mem::replace(&mut discovery, Discovery::new(Vec::new()))
                .with_namespaces(NamespaceDiscovery::default());
            // A namespace's deletion deletes what is in it.
            namespaces.set_content(
                self.kinds
                    .iter()
                    .filter(|k| k.namespaced())
                    .cloned()
                    .collect(),
            );
            self.kinds.push(namespaces.served());
        }
        let kinds = Arc::new(Kinds::new());
        let mut by_path = BTreeMap::new();
        for kind in &self.kinds {
            let (g, v, plural) = kind.path();
            by_path.insert(
                (g.to_string(), v.to_string(), plural.to_string()),
                kind.clone(),
            );
            kinds.insert(Arc::new(kind.info().clone()));
        }
        ApiServer {
            inner: Arc::new(Inner {
                by_path,
                kinds,
                discovery,
                openapi,
                namespaces,
                system_namespaces: tokio::sync::OnceCell::new(),
                max_request_bytes: self.max_request_bytes,
                bookmark_interval: self.bookmark_interval,
                authenticator: self.authenticator,
                watches: WatchLimiter::new(self.max_watches.0, self.max_watches.1),
                request_timeout: self.request_timeout,
                client_timeout: self.client_timeout,
                audit: self.audit,
                rbac,
            }),
        }
    }
}

struct Inner {
    by_path: BTreeMap<(String, String, String), Arc<dyn ServedKind>>,
    kinds: Arc<Kinds>,
    discovery: Discovery,
    openapi: OpenApiV3,
    namespaces: Option<Arc<NamespaceKind>>,
    /// Set once the system namespaces exist.
    system_namespaces: tokio::sync::OnceCell<()>,
    max_request_bytes: usize,
    bookmark_interval: Duration,
    authenticator: Option<Authenticator>,
    watches: Arc<WatchLimiter>,
    request_timeout: Duration,
    client_timeout: Duration,
    audit: Option<AuditLog>,
    rbac: Option<Arc<RbacState>>,
}

/// A Kubernetes-compatible API server over registries.
#[derive(Clone)]
pub struct ApiServer {
    inner: Arc<Inner>,
}

impl ApiServer {
    /// A builder over a fresh in-memory storage.
    pub fn builder() -> ServerBuilder {
        ServerBuilder {
            storage: Arc::new(MemoryStorage::new()),
            kinds: Vec::new(),
            max_request_bytes: DEFAULT_MAX_REQUEST_BYTES,
            namespaces: false,
            bookmark_interval: DEFAULT_BOOKMARK_INTERVAL,
            authenticator: None,
            max_watches: (DEFAULT_MAX_WATCHES, DEFAULT_MAX_WATCHES_PER_USER),
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            client_timeout: crate::listen::HEADER_READ_TIMEOUT,
            audit: None,
            rbac: false,
        }
    }

    /// The table of the kinds this server serves (by group, version and
    /// resource, and by group and kind), for controllers that act across
    /// kinds.
    pub fn kinds(&self) -> Arc<Kinds> {
        self.inner.kinds.clone()
    }

    /// How long a client may take before its request is read (see
    /// [`ServerBuilder::client_timeout`]).
    pub(crate) fn client_timeout(&self) -> Duration {
        self.inner.client_timeout
    }

    /// The server as an axum `Router` (a tower `Service`).
    pub fn router(&self) -> axum::Router {
        axum::Router::new()
            .fallback(handle)
            .with_state(self.inner.clone())
    }
}

/// A `Status` as the apiserver writes it, with `Retry-After` when it
/// advises a delay.
fn status_response(status: Status) -> Response {
    let code = StatusCode::from_u16(u16::try_from(status.code).unwrap_or(500))
        .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = serde_json::to_vec(&status).unwrap_or_default();
    let mut response = (code, [(header::CONTENT_TYPE, "application/json")], body).into_response();
    if let Some(seconds) = status
        .details
        .as_ref()
        .map(|d| d.retry_after_seconds)
        .filter(|s| *s > 0)
    {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

fn json_response(code: StatusCode, value: &impl serde::Serialize, content_type: &str) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => (
            code,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_str(content_type)
                    .unwrap_or(HeaderValue::from_static("application/json")),
            )],
            body,
        )
            .into_response(),
        Err(e) => status_response(Status::internal_error(e)),
    }
}

/// `Warning: 299 - "..."` headers, as the apiserver sends warnings.
fn with_warnings(mut response: Response, warnings: &[String]) -> Response {
    for w in warnings {
        let escaped = w.replace('\\', "\\\\").replace('"', "\\\"");
        if let Ok(v) = HeaderValue::from_str(&format!("299 - \"{escaped}\"")) {
            response.headers_mut().append(header::WARNING, v);
        }
    }
    response
}

fn query_map(query: Option<&str>) -> Query {
    form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .into_owned()
        .collect()
}

fn header_str(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

fn not_found_path() -> Status {
    let mut status = Status::not_found(GroupResource::new("", ""), "");
    status.message = "the server could not find the requested resource".into();
    status.details = None;
    status
}

/// Every request: dispatched, logged as the apiserver's httplog does
/// (one line: verb, URI, user, code, latency, user agent), and indented
/// when the client asks for `pretty` output.
async fn handle(State(inner): State<Arc<Inner>>, request: Request) -> Response {
    let started = std::time::Instant::now();
    let received = inner.audit.as_ref().map(|_| MicroTime::now());
    let (parts, body) = request.into_parts();
    let query = query_map(parts.uri.query());
    let path = parts.uri.path().to_string();
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let verb = request_verb(&parts.method, &segments, &query);
    let user_agent = header_str(&parts.headers, header::USER_AGENT)
        .unwrap_or_default()
        .to_string();
    let pretty = pretty_print(&query, &user_agent) && verb != "watch";
    let uri = parts
        .uri
        .path_and_query()
        .map_or_else(|| path.clone(), |p| p.as_str().to_string());
    let peer = parts.extensions.get::<Peer>().cloned().unwrap_or_default();
    let user = match &inner.authenticator {
        None => Ok(User::new(UNSECURED, &[SYSTEM_MASTERS, ALL_AUTHENTICATED])),
        Some(authenticator) => {
            authenticator.authenticate(&parts.headers, peer.certificate.as_ref())
        }
    };
    let mut response = match &user {
        Err(status) => status_response(status.clone()),
        Ok(user) if user.is_anonymous() && !anonymous_may(&parts.method, &segments) => {
            status_response(forbidden_path(user, verb, &path))
        }
        Ok(user) if let Err(status) = authorize(&inner, user, verb, &segments, &path).await => {
            status_response(status)
        }
        Ok(user) if verb == "watch" => match inner.watches.acquire(&user.name) {
            // The slot is held as long as the stream is.
            Ok(slot) => holding(dispatch(&inner, user, parts, query, body).await, slot),
            Err(status) => status_response(status),
        },
        Ok(user) => match request_deadline(
            query.get("timeout").map(String::as_str),
            inner.request_timeout,
        ) {
            Err(status) => status_response(status),
            Ok(deadline) => {
                let dispatched = dispatch(&inner, user, parts, query, body);
                match tokio::time::timeout(deadline, dispatched).await {
                    Ok(response) => response,
                    Err(_) => status_response(deadline_exceeded()),
                }
            }
        },
    };
    if pretty {
        response = indented(response).await;
    }
    if let (Some(audit), Some(received)) = (&inner.audit, received) {
        audit.record(&AuditRecord {
            received,
            user: user.as_ref().ok(),
            verb,
            uri: &uri,
            segments: &segments,
            source_ip: peer.addr.map(|a| a.ip().to_string()),
            user_agent: &user_agent,
            code: response.status().as_u16(),
            started_only: verb == "watch",
            written_name: response
                .extensions()
                .get::<WrittenName>()
                .map(|n| n.0.as_str()),
        });
    }
    tracing::info!(
        target: "api_server::httplog",
        verb,
        uri = %uri,
        user = user.as_ref().map(|u| u.name.as_str()).unwrap_or_default(),
        code = response.status().as_u16(),
        latency = ?started.elapsed(),
        user_agent = %user_agent,
        src = %peer.addr.map(|a| a.ip().to_string()).unwrap_or_default(),
        "HTTP"
    );
    response
}

/// `response` with `slot` released only when its body is done.
fn holding(response: Response, slot: WatchSlot) -> Response {
    let (parts, body) = response.into_parts();
    let stream = body.into_data_stream().map(move |chunk| {
        let _held = &slot;
        chunk
    });
    Response::from_parts(parts, Body::from_stream(stream))
}

/// Whether `user` may make this request: always without RBAC; with it,
/// what every authenticated user may do by the apiserver's bootstrap
/// roles (`system:discovery`, `system:public-info-viewer`,
/// `system:basic-user`: discovery, health, version, OpenAPI, and reviews
/// of their own access), or what the stored RBAC objects grant.
async fn authorize(
    inner: &Inner,
    user: &User,
    verb: &str,
    segments: &[&str],
    path: &str,
) -> Result<(), Status> {
    let Some(rbac) = &inner.rbac else {
        return Ok(());
    };
    if user.is_anonymous() || user.is_master() {
        return Ok(());
    }
    let attributes = match segments {
        [
            "apis",
            "authentication.k8s.io" | "authorization.k8s.io",
            "v1",
            "selfsubjectreviews" | "selfsubjectaccessreviews" | "selfsubjectrulesreviews",
        ] => {
            return Ok(());
        }
        _ if resource_target(segments).is_some() => {
            let Some((group, version, target)) = resource_target(segments) else {
                return Ok(());
            };
            let mut a = Attributes::resource(user.clone(), verb, group, target.plural)
                .with_version(version)
                .in_namespace(target.namespace);
            if let Some(name) = target.name {
                a = a.with_name(name);
            }
            if let Some(sub) = target.subresource {
                a = a.with_subresource(sub);
            }
            a
        }
        ["healthz" | "livez" | "readyz" | "version"] | ["api" | "apis" | "openapi", ..] => {
            return Ok(());
        }
        _ => Attributes::non_resource(user.clone(), verb, path),
    };
    let authorizer = rbac.authorizer().await?;
    let decision = authorizer.authorize(&attributes);
    if decision.allowed {
        Ok(())
    } else {
        Err(forbidden_status(&attributes, &decision.reason))
    }
}

/// Group, version and target of a resource request's path.
pub(crate) fn resource_target<'p>(segments: &[&'p str]) -> Option<(&'p str, &'p str, Target<'p>)> {
    match segments {
        ["apis", group, version, rest @ ..] => Some((*group, *version, parse_target(rest)?)),
        ["api", "v1", rest @ ..] => Some(("", "v1", parse_target(rest)?)),
        _ => None,
    }
}

/// The user of requests when no authenticator is set (kube-apiserver's
/// insecure-port user).
pub const UNSECURED: &str = "system:unsecured";

/// What `system:anonymous` may reach (`--anonymous-auth`): the health
/// and version endpoints and discovery, as the apiserver's default
/// `system:public-info-viewer` and discovery roles allow; anything else
/// is 403.
fn anonymous_may(method: &Method, segments: &[&str]) -> bool {
    *method == Method::GET
        && matches!(
            segments,
            ["healthz" | "livez" | "readyz" | "version"]
                | ["api"]
                | ["api", "v1"]
                | ["apis"]
                | ["apis", _]
                | ["apis", _, _]
        )
}

/// 403 for a request the user may not make, in the apiserver's words
/// (`forbidden: User "x" cannot get path "/p"`).
fn forbidden_path(user: &User, verb: &str, path: &str) -> Status {
    let mut status = Status::forbidden(
        GroupResource::new("", ""),
        "",
        format!("User {:?} cannot {verb} path {path:?}", user.name),
    );
    status.details = Some(StatusDetails::default());
    status
}

/// The Kubernetes verb of a request (`get`, `list`, `watch`, `create`,
/// `update`, `patch`, `delete`, `deletecollection`), or the lower-case
/// HTTP method for a non-resource path, as the apiserver's
/// `RequestInfoFactory` names them.
fn request_verb(method: &Method, segments: &[&str], query: &Query) -> &'static str {
    let non_resource = || match *method {
        Method::GET => "get",
        Method::HEAD => "head",
        Method::POST => "post",
        Method::PUT => "put",
        Method::PATCH => "patch",
        Method::DELETE => "delete",
        _ => "",
    };
    let rest = match segments {
        ["apis", _, _, rest @ ..] | ["api", "v1", rest @ ..] => rest,
        _ => return non_resource(),
    };
    let Some(target) = parse_target(rest) else {
        return non_resource();
    };
    let watch = query
        .get("watch")
        .and_then(|w| crate::params::parse_bool(w))
        == Some(true);
    match (method.as_str(), target.name.is_some()) {
        ("GET" | "HEAD", false) if watch => "watch",
        ("GET" | "HEAD", false) => "list",
        ("GET" | "HEAD", true) => "get",
        ("POST", _) => "create",
        ("PUT", _) => "update",
        ("PATCH", _) => "patch",
        ("DELETE", false) => "deletecollection",
        ("DELETE", true) => "delete",
        _ => "",
    }
}

/// The apiserver's `isPrettyPrint`: the `pretty` parameter when given,
/// else whether the client is curl, Wget or a browser.
fn pretty_print(query: &Query, user_agent: &str) -> bool {
    if let Some(p) = query.get("pretty").filter(|p| !p.is_empty()) {
        return crate::params::parse_bool(p).unwrap_or(false);
    }
    ["curl", "Wget", "Mozilla/5.0"]
        .iter()
        .any(|prefix| user_agent.starts_with(prefix))
}

/// A JSON response indented (two spaces, as Go's `json.Indent`).
async fn indented(response: Response) -> Response {
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|c| c.starts_with("application/json"));
    if !is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
        return status_response(Status::internal_error("response body"));
    };
    let pretty = serde_json::from_slice::<Value>(&bytes)
        .ok()
        .and_then(|v| serde_json::to_vec_pretty(&v).ok());
    let body = match pretty {
        Some(mut p) => {
            p.push(b'\n');
            p
        }
        None => bytes.to_vec(),
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(body))
}

async fn dispatch(
    inner: &Inner,
    user: &User,
    parts: axum::http::request::Parts,
    query: Query,
    body: Body,
) -> Response {
    let path = parts.uri.path().to_string();
    // A write negotiates its response before it reads the body, as the
    // apiserver's handlers do: an `Accept` it cannot honour is a 406 and
    // nothing is written.
    if matches!(
        parts.method,
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    ) && resource_target(&path.trim_matches('/').split('/').collect::<Vec<_>>()).is_some()
        && negotiate(header_str(&parts.headers, header::ACCEPT), true, false).is_none()
    {
        return status_response(Status::not_acceptable(&["application/json"]));
    }
    let body = match axum::body::to_bytes(body, inner.max_request_bytes).await {
        Ok(b) => b,
        Err(e) => return status_response(body_error(e, inner.max_request_bytes)),
    };
    if let Some(namespaces) = &inner.namespaces
        && let Err(status) = inner
            .system_namespaces
            .get_or_try_init(|| namespaces.ensure_system())
            .await
    {
        return status_response(status);
    }
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    match (parts.method.clone(), segments.as_slice()) {
        (Method::GET, ["healthz" | "livez" | "readyz"]) => {
            (StatusCode::OK, [(header::CONTENT_TYPE, "text/plain")], "ok").into_response()
        }
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
                    &inner.discovery.aggregated_api(),
                    Representation::AggregatedDiscovery.content_type(),
                ),
                Some(_) => {
                    let host = header_str(&parts.headers, header::HOST).unwrap_or("127.0.0.1");
                    json_response(
                        StatusCode::OK,
                        &inner.discovery.api_versions(host),
                        "application/json",
                    )
                }
                None => status_response(Status::not_acceptable(&["application/json"])),
            }
        }
        (Method::GET, ["api", "v1"]) if inner.namespaces.is_some() => json_response(
            StatusCode::OK,
            &inner.discovery.core_api_resource_list(),
            "application/json",
        ),
        (method, ["api", "v1", rest @ ..]) => {
            resource_request(
                inner,
                method,
                "",
                "v1",
                rest,
                &query,
                &parts.headers,
                Some(user),
                body,
            )
            .await
        }
        (Method::GET, ["apis"]) => {
            let accept = header_str(&parts.headers, header::ACCEPT);
            match negotiate(accept, false, true) {
                Some(Representation::AggregatedDiscovery) => json_response(
                    StatusCode::OK,
                    &inner.discovery.aggregated_apis(),
                    Representation::AggregatedDiscovery.content_type(),
                ),
                Some(_) => json_response(
                    StatusCode::OK,
                    &inner.discovery.api_group_list(),
                    "application/json",
                ),
                None => status_response(Status::not_acceptable(&["application/json"])),
            }
        }
        (Method::GET, ["apis", group]) => match inner.discovery.api_group(group) {
            Some(g) => json_response(StatusCode::OK, &g, "application/json"),
            None => status_response(not_found_path()),
        },
        (Method::GET, ["apis", group, version]) => {
            match inner.discovery.api_resource_list(group, version) {
                Some(l) => json_response(StatusCode::OK, &l, "application/json"),
                None => status_response(not_found_path()),
            }
        }
        (Method::GET, ["openapi", "v3"]) => {
            json_response(StatusCode::OK, &inner.openapi.index(), "application/json")
        }
        (Method::GET, ["openapi", "v3", rest @ ..]) => {
            // `apis/<g>/<v>` (or `api/v1`); the `hash` query makes the URL
            // immutable, so clients may cache it for good.
            match inner.openapi.document(&rest.join("/")) {
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
        (method, ["apis", group, version, rest @ ..]) => {
            resource_request(
                inner,
                method,
                group,
                version,
                rest,
                &query,
                &parts.headers,
                Some(user),
                body,
            )
            .await
        }
        _ => status_response(not_found_path()),
    }
}

/// The answer to a body that could not be read: 413 when it is over the
/// limit, 400 when it is broken (shorter than its `Content-Length`, a
/// malformed chunk, a connection gone mid-body).
fn body_error(error: axum::Error, limit: usize) -> Status {
    let error = error.into_inner();
    if error.is::<http_body_util::LengthLimitError>() {
        return Status::request_entity_too_large(format!("limit is {limit}"));
    }
    Status::bad_request(format!("error reading the request body: {error}"))
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

/// `SelfSubjectAccessReview` and `SelfSubjectRulesReview`
/// (authorization.k8s.io/v1, `kubectl auth can-i` and `can-i --list`),
/// answered by the RBAC authorizer, or by one that allows everything
/// under `AlwaysAllow`.
async fn self_review(
    inner: &Inner,
    user: &User,
    which: &str,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<Value, Status> {
    let authorizer = match &inner.rbac {
        Some(rbac) => rbac.authorizer().await?,
        None => Arc::new(allow_all()),
    };
    let json = if is_protobuf(headers) {
        // kubectl sends these built-in kinds as protobuf.
        serde_json::to_vec(&crate::protobuf::self_review(body)?).map_err(Status::internal_error)?
    } else {
        json_body(headers, body)?
    };
    let bad = |e: serde_json::Error| Status::bad_request(format!("the body is not a review: {e}"));
    let review = if which == "selfsubjectaccessreviews" {
        let review = serde_json::from_slice(&json).map_err(bad)?;
        serde_json::to_value(authorizer.self_subject_access_review(user, review)?)
    } else {
        let review = serde_json::from_slice(&json).map_err(bad)?;
        serde_json::to_value(authorizer.self_subject_rules_review(user, review)?)
    };
    review.map_err(Status::internal_error)
}

/// An authorizer that allows every user everything (`AlwaysAllow`).
fn allow_all() -> crate::rbac::Authorizer {
    let role: ClusterRole = serde_json::from_value(json!({
        "metadata": {"name": "always-allow"},
        "rules": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]},
                  {"nonResourceURLs": ["*"], "verbs": ["*"]}]
    }))
    .unwrap_or_default();
    let binding: ClusterRoleBinding = serde_json::from_value(json!({
        "metadata": {"name": "always-allow"},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "always-allow"},
        "subjects": [
            {"kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": ALL_AUTHENTICATED},
            {"kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": "system:unauthenticated"}
        ]
    }))
    .unwrap_or_default();
    crate::rbac::Authorizer::new(Vec::new(), Vec::new(), vec![role], vec![binding])
}

/// `SelfSubjectReview` (authentication.k8s.io/v1, `kubectl auth
/// whoami`): the request's user, as authenticated.
fn self_subject_review(user: &User) -> Value {
    let mut info = json!({"username": user.name, "groups": user.groups});
    if !user.uid.is_empty() {
        info["uid"] = json!(user.uid);
    }
    if !user.extra.is_empty() {
        info["extra"] = json!(user.extra);
    }
    json!({
        "kind": "SelfSubjectReview",
        "apiVersion": "authentication.k8s.io/v1",
        "metadata": {"creationTimestamp": null},
        "status": {"userInfo": info}
    })
}

/// `/version`: the Kubernetes version this server's behaviour follows.
fn version() -> Value {
    json!({
        "major": "1",
        "minor": "36",
        "gitVersion": concat!("v1.36.0-api-server.", env!("CARGO_PKG_VERSION")),
        "gitCommit": "",
        "gitTreeState": "clean",
        "buildDate": "1970-01-01T00:00:00Z",
        "goVersion": "n/a (Rust)",
        "compiler": "rustc",
        "platform": format!("{}/{}", std::env::consts::OS, std::env::consts::ARCH),
    })
}

/// What a resource path names: namespace, plural, name, subresource.
pub(crate) struct Target<'p> {
    pub(crate) namespace: &'p str,
    pub(crate) plural: &'p str,
    pub(crate) name: Option<&'p str>,
    pub(crate) subresource: Option<&'p str>,
}

fn parse_target<'p>(rest: &[&'p str]) -> Option<Target<'p>> {
    let (namespace, rest) = match rest {
        ["namespaces", ns, tail @ ..] if !tail.is_empty() => (*ns, tail),
        _ => ("", rest),
    };
    match rest {
        [plural] => Some(Target {
            namespace,
            plural,
            name: None,
            subresource: None,
        }),
        [plural, name] => Some(Target {
            namespace,
            plural,
            name: Some(name),
            subresource: None,
        }),
        [plural, name, sub] => Some(Target {
            namespace,
            plural,
            name: Some(name),
            subresource: Some(sub),
        }),
        _ => None,
    }
}

/// A body as JSON bytes: JSON as it is, YAML converted.
fn json_body(headers: &HeaderMap, body: &Bytes) -> Result<Vec<u8>, Status> {
    let content_type = header_str(headers, header::CONTENT_TYPE).unwrap_or("application/json");
    let media = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match media.as_str() {
        "application/json" | "" => Ok(body.to_vec()),
        "application/yaml" | "application/x-yaml" | "text/yaml" => {
            let text = std::str::from_utf8(body)
                .map_err(|_| Status::bad_request("the YAML body is not UTF-8"))?;
            let value: Value = serde_saphyr::from_str(text)
                .map_err(|e| Status::bad_request(format!("error converting YAML to JSON: {e}")))?;
            serde_json::to_vec(&value).map_err(Status::internal_error)
        }
        _ => Err(Status::unsupported_media_type(&[
            "application/json",
            "application/yaml",
        ])),
    }
}

/// The answer to a write: the object as JSON, or as its
/// `PartialObjectMetadata` when the client asked for metadata only
/// (kube-rs' `patch_metadata`).
fn written_response(written: Written, headers: &HeaderMap) -> Response {
    let code = if written.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    let body = match negotiate(header_str(headers, header::ACCEPT), true, false) {
        Some(
            representation @ (Representation::PartialObjectMetadata(_)
            | Representation::PartialObjectMetadataList(_)),
        ) => match metadata_only(&written.object, representation, false) {
            Ok(body) => json_response(code, &body, representation.content_type()),
            Err(status) => return status_response(status),
        },
        _ => json_response(code, &written.object, "application/json"),
    };
    let mut response = with_warnings(body, &written.warnings);
    // The audit log names a created object, whose name the URL lacks.
    if let Some(name) = written
        .object
        .pointer("/metadata/name")
        .and_then(Value::as_str)
    {
        response
            .extensions_mut()
            .insert(WrittenName(name.to_string()));
    }
    response
}

/// The name of the object a write answered with.
#[derive(Clone, Debug)]
pub(crate) struct WrittenName(pub String);

#[allow(clippy::too_many_arguments)]
async fn resource_request(
    inner: &Inner,
    method: Method,
    group: &str,
    version: &str,
    rest: &[&str],
    query: &Query,
    headers: &HeaderMap,
    user: Option<&User>,
    body: Bytes,
) -> Response {
    let Some(target) = parse_target(rest) else {
        return status_response(not_found_path());
    };
    let key = (
        group.to_string(),
        version.to_string(),
        target.plural.to_string(),
    );
    let Some(kind) = inner.by_path.get(&key) else {
        return status_response(not_found_path());
    };
    let kind = kind.as_ref();
    let namespace = if kind.namespaced() {
        target.namespace
    } else {
        ""
    };
    // Checked before any storage key is built from it (names are checked
    // by the registry).
    let problems = is_valid_path_segment_name(namespace);
    if !problems.is_empty() {
        return status_response(Status::bad_request(format!(
            "invalid namespace {namespace:?}: {}",
            problems.join(", ")
        )));
    }
    let result = match (target.name, target.subresource) {
        (None, None) => {
            collection_request(
                inner, kind, &method, version, namespace, query, headers, user, body,
            )
            .await
        }
        (Some(name), None) => {
            object_request(
                kind, &method, version, namespace, name, query, headers, user, body,
            )
            .await
        }
        (Some(name), Some("status")) if kind.status_subresource() => {
            status_request(kind, &method, namespace, name, query, headers, user, body).await
        }
        (Some(name), Some("scale")) => match ScalePaths::of(&kind.crd(), version) {
            Some(paths) => {
                scale_request(
                    kind, &paths, &method, namespace, name, query, headers, user, body,
                )
                .await
            }
            None => Err(not_found_path()),
        },
        _ => Err(not_found_path()),
    };
    result.unwrap_or_else(status_response)
}

/// `GET` (list or watch), `POST` and `DELETE` (deletecollection) of a
/// collection.
#[allow(clippy::too_many_arguments)]
async fn collection_request(
    inner: &Inner,
    kind: &dyn ServedKind,
    method: &Method,
    version: &str,
    namespace: &str,
    query: &Query,
    headers: &HeaderMap,
    user: Option<&User>,
    body: Bytes,
) -> Result<Response, Status> {
    match *method {
        Method::GET => {
            let params = list_params(query)?;
            if params.watch {
                let metadata_only =
                    match negotiate(header_str(headers, header::ACCEPT), true, false) {
                        Some(
                            Representation::PartialObjectMetadata(v)
                            | Representation::PartialObjectMetadataList(v),
                        ) => Some(v),
                        _ => None,
                    };
                let watch = WatchShape {
                    bookmark_interval: inner.bookmark_interval,
                    metadata_only,
                };
                return Ok(watch_response(kind, namespace, params, watch).await);
            }
            let list = kind.list(namespace, &params.options).await?;
            let revision = list
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .unwrap_or_default();
            check_list_revision(&params, revision)?;
            Ok(maybe_table(kind, version, headers, query, list, true))
        }
        Method::POST => {
            if kind.namespaced() && namespace.is_empty() {
                return Err(not_found_path());
            }
            if let (Some(ns), true) = (&inner.namespaces, kind.namespaced())
                && !ns.exists(namespace).await?
            {
                return Err(namespace_not_found(namespace));
            }
            let json = if is_protobuf(headers) {
                // kubectl create namespace/role/rolebinding/... send
                // built-in kinds as protobuf.
                serde_json::to_vec(&crate::protobuf::object(kind.info(), &body)?)
                    .map_err(Status::internal_error)?
            } else {
                json_body(headers, &body)?
            };
            let options = write_options_for(query, "CreateOptions", headers, user)?;
            let written = kind.create(namespace, &json, &options).await?;
            Ok(written_response(written, headers))
        }
        Method::DELETE => delete_collection(kind, namespace, query, &body).await,
        _ => Err(method_not_allowed()),
    }
}

/// `GET`, `PUT`, `PATCH` and `DELETE` of one object.
#[allow(clippy::too_many_arguments)]
async fn object_request(
    kind: &dyn ServedKind,
    method: &Method,
    version: &str,
    namespace: &str,
    name: &str,
    query: &Query,
    headers: &HeaderMap,
    user: Option<&User>,
    body: Bytes,
) -> Result<Response, Status> {
    match *method {
        Method::GET => {
            let accept = header_str(headers, header::ACCEPT);
            if negotiate(accept, true, false) == Some(Representation::Json) {
                // The common case, without a detour through a JSON value.
                let json = kind.get_json(namespace, name).await?;
                return Ok((
                    StatusCode::OK,
                    [(header::CONTENT_TYPE, "application/json")],
                    json,
                )
                    .into_response());
            }
            let object = kind.get(namespace, name).await?;
            Ok(maybe_table(kind, version, headers, query, object, false))
        }
        Method::PUT => {
            let json = json_body(headers, &body)?;
            let options = write_options_for(query, "UpdateOptions", headers, user)?;
            let written = kind.update(namespace, name, &json, &options, false).await?;
            Ok(written_response(written, headers))
        }
        Method::PATCH => {
            let written =
                patch_request(kind, namespace, name, query, headers, user, &body, false).await?;
            Ok(written_response(written, headers))
        }
        Method::DELETE => {
            let (options, dry_run) = delete_options(query, &body)?;
            let (object, pending) = kind.delete(namespace, name, &options, dry_run).await?;
            // A finished delete answers 200 with the object, one waiting
            // for finalizers 202 with it.
            let code = if pending {
                StatusCode::ACCEPTED
            } else {
                StatusCode::OK
            };
            Ok(json_response(code, &object, "application/json"))
        }
        _ => Err(method_not_allowed()),
    }
}

/// `GET`, `PUT` and `PATCH` of the status subresource.
#[allow(clippy::too_many_arguments)]
async fn status_request(
    kind: &dyn ServedKind,
    method: &Method,
    namespace: &str,
    name: &str,
    query: &Query,
    headers: &HeaderMap,
    user: Option<&User>,
    body: Bytes,
) -> Result<Response, Status> {
    let written = match *method {
        Method::GET => {
            let object = kind.get(namespace, name).await?;
            return Ok(json_response(StatusCode::OK, &object, "application/json"));
        }
        Method::PUT => {
            let json = json_body(headers, &body)?;
            let options = write_options_for(query, "UpdateOptions", headers, user)?;
            kind.update(namespace, name, &json, &options, true).await?
        }
        Method::PATCH => {
            patch_request(kind, namespace, name, query, headers, user, &body, true).await?
        }
        _ => return Err(method_not_allowed()),
    };
    Ok(written_response(written, headers))
}

/// `GET`, `PUT` and `PATCH` of the scale subresource.
#[allow(clippy::too_many_arguments)]
async fn scale_request(
    kind: &dyn ServedKind,
    paths: &ScalePaths,
    method: &Method,
    namespace: &str,
    name: &str,
    query: &Query,
    headers: &HeaderMap,
    user: Option<&User>,
    body: Bytes,
) -> Result<Response, Status> {
    let scale = match *method {
        Method::GET => scale::get(kind, paths, namespace, name).await?,
        Method::PUT => {
            let json = json_body(headers, &body)?;
            let options = write_options_for(query, "UpdateOptions", headers, user)?;
            let change = ScaleChange::Replace(&json);
            scale::write(kind, paths, namespace, name, change, &options).await?
        }
        Method::PATCH => {
            let change = ScaleChange::Patch(patch_type(headers)?, &body);
            let options = write_options_for(query, "PatchOptions", headers, user)?;
            scale::write(kind, paths, namespace, name, change, &options).await?
        }
        _ => return Err(method_not_allowed()),
    };
    Ok(json_response(StatusCode::OK, &scale, "application/json"))
}

/// Whether the body is protobuf.
fn is_protobuf(headers: &HeaderMap) -> bool {
    let content_type = header_str(headers, header::CONTENT_TYPE).unwrap_or_default();
    content_type.split(';').next().unwrap_or("").trim() == crate::protobuf::PROTOBUF
}

/// The media type of server-side apply patches.
const APPLY_PATCH: &str = "application/apply-patch+yaml";

/// A `PATCH` of an object or its status: server-side apply for
/// `application/apply-patch+yaml`, else a JSON, merge or strategic merge
/// patch.
#[allow(clippy::too_many_arguments)]
async fn patch_request(
    kind: &dyn ServedKind,
    namespace: &str,
    name: &str,
    query: &Query,
    headers: &HeaderMap,
    user: Option<&User>,
    body: &Bytes,
    status: bool,
) -> Result<Written, Status> {
    let options = write_options_for(query, "PatchOptions", headers, user)?;
    match patch_kind(query, headers, &options)? {
        None => kind.apply(namespace, name, body, &options, status).await,
        Some(patch_type) => {
            kind.patch(namespace, name, patch_type, body, &options, status)
                .await
        }
    }
}

/// What a `PATCH` asks for: a server-side apply (`None`) or a patch type,
/// checked as `ValidatePatchOptions` checks them: an apply needs a
/// `fieldManager`, and only an apply may say `force` (422 `PatchOptions`
/// otherwise); another media type is a 415 listing the four.
fn patch_kind(
    query: &Query,
    headers: &HeaderMap,
    options: &crate::served::WriteOptions,
) -> Result<Option<PatchType>, Status> {
    let content_type = header_str(headers, header::CONTENT_TYPE).unwrap_or("");
    let media = content_type.split(';').next().unwrap_or("").trim();
    if media.eq_ignore_ascii_case(APPLY_PATCH) {
        if options.field_manager.is_none() {
            return Err(api_core::registry::manager_required());
        }
        return Ok(None);
    }
    if query.contains_key("force") {
        use api_core::validation::{ErrorList, FieldError, FieldPath};
        let mut errors = ErrorList::new();
        errors.push(FieldError::forbidden(
            &FieldPath::new("force"),
            "may not be specified for non-apply patch",
        ));
        return Err(Status::invalid(
            api_core::status::GroupKind::new("meta.k8s.io", "PatchOptions"),
            "",
            &errors,
        ));
    }
    let patch_type = PatchType::from_content_type(content_type).ok_or_else(|| {
        let mut types: Vec<&str> = PatchType::ALL.map(PatchType::content_type).to_vec();
        types.push(APPLY_PATCH);
        Status::unsupported_media_type(&types)
    })?;
    Ok(Some(patch_type))
}

/// The patch type of a `PATCH`'s `Content-Type` (415 listing the
/// supported ones otherwise).
fn patch_type(headers: &HeaderMap) -> Result<PatchType, Status> {
    PatchType::parse_content_type(header_str(headers, header::CONTENT_TYPE).unwrap_or(""))
}

/// 405, as the apiserver's router answers a method a path does not
/// serve (`NewGenericServerResponse(405, ...)` over go-restful's
/// `405: Method Not Allowed`).
fn method_not_allowed() -> Status {
    let mut status = Status::failure(
        StatusReason::MethodNotAllowed,
        "the server does not allow this method on the requested resource",
    );
    status.code = 405;
    status.details = Some(StatusDetails {
        causes: vec![StatusCause {
            reason: "UnexpectedServerResponse".into(),
            message: "405: Method Not Allowed".into(),
            field: String::new(),
        }],
        ..StatusDetails::default()
    });
    status
}

async fn delete_collection(
    kind: &dyn ServedKind,
    namespace: &str,
    query: &Query,
    body: &Bytes,
) -> Result<Response, Status> {
    let params = list_params(query)?;
    let (delete, dry_run) = delete_options(query, body)?;
    let (list, deleted) = delete_listed(kind, namespace, &params.options, &delete, dry_run).await?;
    let mut out = list;
    out["items"] = Value::Array(deleted);
    Ok(json_response(StatusCode::OK, &out, "application/json"))
}

/// The object or list of `kind`, or its `Table` when the client asks.
fn maybe_table(
    kind: &dyn ServedKind,
    version: &str,
    headers: &HeaderMap,
    query: &Query,
    value: Value,
    is_list: bool,
) -> Response {
    let convertor = || TableConvertor::for_version(&kind.crd(), version).map(|(c, _)| c);
    table_or_json(convertor, headers, query, value, is_list)
}

/// `value` as JSON, or as a `Table` by `convertor` when the `Accept`
/// header asks for one (kubectl get).
fn table_or_json(
    convertor: impl FnOnce() -> Option<TableConvertor>,
    headers: &HeaderMap,
    query: &Query,
    value: Value,
    is_list: bool,
) -> Response {
    let accept = header_str(headers, header::ACCEPT);
    match negotiate(accept, true, false) {
        Some(Representation::Table(table_version)) => {
            let Some(convertor) = convertor() else {
                return status_response(not_found_path());
            };
            let options = TableOptions {
                no_headers: false,
                include_object: query
                    .get("includeObject")
                    .and_then(|v| IncludeObject::from_query(v))
                    .unwrap_or_default(),
                version: table_version,
            };
            let now = chrono::Utc::now();
            let table = if is_list {
                let meta: ListMeta = value
                    .get("metadata")
                    .cloned()
                    .and_then(|m| serde_json::from_value(m).ok())
                    .unwrap_or_default();
                let items = value
                    .get("items")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                convertor.convert_list(&items, meta, &options, now)
            } else {
                convertor.convert_object(&value, &options, now)
            };
            json_response(
                StatusCode::OK,
                &table,
                Representation::Table(table_version).content_type(),
            )
        }
        Some(
            representation @ (Representation::PartialObjectMetadata(_)
            | Representation::PartialObjectMetadataList(_)),
        ) => match metadata_only(&value, representation, is_list) {
            Ok(body) => json_response(StatusCode::OK, &body, representation.content_type()),
            Err(status) => status_response(status),
        },
        Some(_) => json_response(StatusCode::OK, &value, "application/json"),
        None => status_response(Status::not_acceptable(&[
            "application/json",
            crate::negotiation::TABLE_V1,
        ])),
    }
}

/// `value` (an object, or a list when `is_list`) as the metadata-only
/// `representation` asks (`asPartialObjectMetadata(List)`); the wrong
/// shape is the apiserver's 406. `value` unchanged for other
/// representations.
fn metadata_only(
    value: &Value,
    representation: Representation,
    is_list: bool,
) -> Result<Value, Status> {
    match (representation, is_list) {
        (Representation::PartialObjectMetadata(version), false) => {
            Ok(partial_object_metadata(value, version))
        }
        (Representation::PartialObjectMetadataList(version), true) => {
            Ok(partial_object_metadata_list(value, version))
        }
        (Representation::PartialObjectMetadata(_), true) => Err(not_a(
            "you requested PartialObjectMetadata, but the requested object is a list",
        )),
        (Representation::PartialObjectMetadataList(_), false) => Err(not_a(
            "you requested PartialObjectMetadataList, but the requested object is not a list",
        )),
        _ => Ok(value.clone()),
    }
}

/// 406 for a metadata-only representation of the wrong shape (the
/// apiserver's `newNotAcceptableError`).
fn not_a(message: &str) -> Status {
    let mut status = Status::not_acceptable(&["application/json"]);
    status.message = message.to_string();
    status
}

/// `?watch=true`: chunked JSON, one `{"type","object"}` per line, flushed
/// per event; ends after `timeoutSeconds` (default 30 minutes); an error
/// (410 for a too-old resourceVersion) is an `ERROR` event.
/// How a watch's events are written.
struct WatchShape {
    /// How often a BOOKMARK goes out (with `allowWatchBookmarks`).
    bookmark_interval: Duration,
    /// Each event's object as a `PartialObjectMetadata` of this version
    /// (a metadata-only watch).
    metadata_only: Option<crate::table::TableVersion>,
}

async fn watch_response(
    kind: &dyn ServedKind,
    namespace: &str,
    params: ListParams,
    shape: WatchShape,
) -> Response {
    let WatchShape {
        bookmark_interval,
        metadata_only,
    } = shape;
    let event_line = move |event: &str, object: &Value| match metadata_only {
        Some(version) => event_line(event, &partial_object_metadata(object, version)),
        None => event_line(event, object),
    };
    let timeout = params.timeout_seconds.unwrap_or(1800);
    // With `sendInitialEvents` (the default of a watch without a
    // resourceVersion, or at "0") a watch starts with the current state
    // as synthetic ADDED events, then follows the changes after it; with
    // `allowWatchBookmarks` the initial events end with a BOOKMARK
    // annotated `k8s.io/initial-events-end` (watch-list, which kube-rs and
    // client-go use). apiserver `storage/cacher` semantics.
    let mut options = params.options;
    let mut initial: Vec<Vec<u8>> = Vec::new();
    if params.send_initial_events == Some(true) {
        let list_options = ListOptions {
            limit: None,
            continue_token: None,
            resource_version: None,
            ..options.clone()
        };
        let list = match kind.list(namespace, &list_options).await {
            Ok(list) => list,
            Err(status) => return status_response(status),
        };
        let revision = list
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        for item in list
            .get("items")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            initial.push(event_line("ADDED", item));
        }
        if params.allow_bookmarks {
            let (group, version, _) = kind.path();
            let crd = kind.crd();
            let bookmark = json!({
                "kind": crd.spec.names.kind,
                "apiVersion": format!("{group}/{version}"),
                "metadata": {
                    "resourceVersion": revision,
                    "annotations": {"k8s.io/initial-events-end": "true"}
                }
            });
            initial.push(event_line("BOOKMARK", &bookmark));
        }
        options.resource_version = Some(revision);
    }
    let events = match kind.watch(namespace, &options).await {
        Ok(events) => events,
        Err(status) => {
            // A watch that cannot start from the requested revision
            // answers 200 with one ERROR event, as the apiserver does.
            if status.code == 410 {
                let line = error_line(&status);
                return (
                    StatusCode::OK,
                    [(header::CONTENT_TYPE, "application/json")],
                    line,
                )
                    .into_response();
            }
            return status_response(status);
        }
    };
    let deadline = tokio::time::sleep(Duration::from_secs(timeout));
    let initial = futures_util::stream::iter(
        initial
            .into_iter()
            .map(|l| Ok::<_, std::convert::Infallible>(Bytes::from(l))),
    );
    // With `allowWatchBookmarks`, a BOOKMARK carrying the latest revision
    // seen goes out every `bookmark_interval` (the cacher's bookmark
    // frequency is a minute), so a client can resume from it.
    // Each item is moved once through the stream: boxing the large
    // variant would only add an allocation per event.
    #[allow(clippy::large_enum_variant)]
    enum Item {
        Event(JsonEvent),
        Tick,
        End,
    }
    let events = events
        .map(Item::Event)
        .chain(futures_util::stream::iter([Item::End]));
    let ticks = futures_util::stream::unfold(
        tokio::time::interval_at(
            tokio::time::Instant::now() + bookmark_interval,
            bookmark_interval,
        ),
        |mut interval| async move {
            interval.tick().await;
            Some((Item::Tick, interval))
        },
    )
    .filter(move |_| std::future::ready(params.allow_bookmarks));
    let (group, version, _) = kind.path();
    let api_version = format!("{group}/{version}");
    let kind_name = kind.crd().spec.names.kind;
    let mut last_revision = options.resource_version.clone();
    let lines = futures_util::stream::select(events, ticks)
        .take_while(|item| std::future::ready(!matches!(item, Item::End)))
        .filter_map(move |item| {
            let line = match item {
                Item::Event(Ok((event, object))) => {
                    if let Some(rv) = object
                        .pointer("/metadata/resourceVersion")
                        .and_then(Value::as_str)
                    {
                        last_revision = Some(rv.to_string());
                    }
                    Some(event_line(event, &object))
                }
                Item::Event(Err(status)) => Some(error_line(&status)),
                Item::Tick => last_revision.as_ref().map(|rv| {
                    let bookmark = json!({
                        "kind": kind_name,
                        "apiVersion": api_version,
                        "metadata": {"resourceVersion": rv}
                    });
                    event_line("BOOKMARK", &bookmark)
                }),
                Item::End => None,
            };
            std::future::ready(line.map(|l| Ok::<_, std::convert::Infallible>(Bytes::from(l))))
        });
    let lines = initial.chain(lines).take_until(deadline);
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::TRANSFER_ENCODING, "chunked")
        .body(Body::from_stream(lines))
        .unwrap_or_else(|_| status_response(Status::internal_error("watch response")))
}

fn event_line(kind: &str, object: &Value) -> Vec<u8> {
    let mut line = serde_json::to_vec(&json!({"type": kind, "object": object})).unwrap_or_default();
    line.push(b'\n');
    line
}

fn error_line(status: &Status) -> Vec<u8> {
    let mut line =
        serde_json::to_vec(&json!({"type": "ERROR", "object": status})).unwrap_or_default();
    line.push(b'\n');
    line
}
