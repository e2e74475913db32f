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
use api_core::decode::FieldValidation;
use api_core::meta::ListMeta;
use api_core::patch::PatchType;
use api_core::registry::{
    DeleteOptions, ListOptions, MemoryStorage, Registry, Served, Storage, Strategy,
};
use api_core::resource::CustomResourceExt;
use api_core::status::GroupResource;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::discovery::{Discovery, NamespaceDiscovery};
use crate::namespaces::{Namespaces, namespace_not_found};
use crate::negotiation::{Representation, negotiate};
use crate::openapi::OpenApiV3;
use crate::served::{RegistryKind, ServedKind, Written};
use crate::table::{IncludeObject, TableConvertor, TableOptions};

/// The apiserver's default `--max-request-bytes` (3 MiB).
pub const DEFAULT_MAX_REQUEST_BYTES: usize = 3 * 1024 * 1024;

/// Builds an [`ApiServer`]: one line per kind.
pub struct ServerBuilder {
    storage: Arc<dyn Storage>,
    kinds: Vec<Arc<dyn ServedKind>>,
    max_request_bytes: usize,
    namespaces: bool,
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

    /// The server.
    pub fn build(self) -> ApiServer {
        // One CRD per kind, however many versions are served.
        let mut crds: BTreeMap<String, _> = BTreeMap::new();
        for kind in &self.kinds {
            let crd = kind.crd();
            crds.entry(crd.name().to_string()).or_insert(crd);
        }
        let crds: Vec<_> = crds.into_values().collect();
        let mut openapi = OpenApiV3::new(&crds);
        let mut discovery = Discovery::new(crds);
        let namespaces = self.namespaces.then(|| {
            openapi = std::mem::take(&mut openapi).with_core_v1();
            discovery = std::mem::replace(&mut discovery, Discovery::new(Vec::new()))
                .with_namespaces(NamespaceDiscovery::default());
            Namespaces::new(self.storage.clone())
        });
        let mut by_path = BTreeMap::new();
        for kind in &self.kinds {
            let (g, v, plural) = kind.path();
            by_path.insert(
                (g.to_string(), v.to_string(), plural.to_string()),
                kind.clone(),
            );
        }
        ApiServer {
            inner: Arc::new(Inner {
                by_path,
                discovery,
                openapi,
                namespaces,
                system_namespaces: tokio::sync::OnceCell::new(),
                max_request_bytes: self.max_request_bytes,
            }),
        }
    }
}

struct Inner {
    by_path: BTreeMap<(String, String, String), Arc<dyn ServedKind>>,
    discovery: Discovery,
    openapi: OpenApiV3,
    namespaces: Option<Namespaces>,
    /// Set once the system namespaces exist.
    system_namespaces: tokio::sync::OnceCell<()>,
    max_request_bytes: usize,
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
        }
    }

    /// The server as an axum `Router` (a tower `Service`).
    pub fn router(&self) -> axum::Router {
        axum::Router::new()
            .fallback(handle)
            .with_state(self.inner.clone())
    }

    /// Serves plain HTTP on `listener` until the future is dropped.
    pub async fn serve(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
        axum::serve(listener, self.router()).await
    }

    /// Serves HTTPS (HTTP/1.1 and HTTP/2 by ALPN) on `listener` until the
    /// future is dropped. A client whose handshake fails is dropped alone;
    /// the server goes on.
    pub async fn serve_tls(
        self,
        listener: tokio::net::TcpListener,
        tls: &crate::tls::ServerTls,
    ) -> std::io::Result<()> {
        let acceptor = tls.acceptor();
        let router = self.router();
        loop {
            let (stream, _) = match listener.accept().await {
                Ok(accepted) => accepted,
                // Out of file descriptors and the like: wait, go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let acceptor = acceptor.clone();
            let router = router.clone();
            tokio::spawn(async move {
                let handshake =
                    tokio::time::timeout(Duration::from_secs(10), acceptor.accept(stream)).await;
                let Ok(Ok(stream)) = handshake else {
                    return;
                };
                let service = hyper_util::service::TowerToHyperService::new(router);
                let _ = hyper_util::server::conn::auto::Builder::new(
                    hyper_util::rt::TokioExecutor::new(),
                )
                .serve_connection_with_upgrades(hyper_util::rt::TokioIo::new(stream), service)
                .await;
            });
        }
    }
}

/// A `Status` as the apiserver writes it.
fn status_response(status: Status) -> Response {
    let code = StatusCode::from_u16(u16::try_from(status.code).unwrap_or(500))
        .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = serde_json::to_vec(&status).unwrap_or_default();
    (code, [(header::CONTENT_TYPE, "application/json")], body).into_response()
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

fn query_map(query: Option<&str>) -> BTreeMap<String, String> {
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

async fn handle(State(inner): State<Arc<Inner>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let path = parts.uri.path().to_string();
    let query = query_map(parts.uri.query());
    let body = match axum::body::to_bytes(body, inner.max_request_bytes).await {
        Ok(b) => b,
        Err(_) => {
            return status_response(Status::request_entity_too_large(format!(
                "limit is {}",
                inner.max_request_bytes
            )));
        }
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
        (Method::GET, ["api"]) => {
            let host = header_str(&parts.headers, header::HOST).unwrap_or("127.0.0.1");
            json_response(
                StatusCode::OK,
                &inner.discovery.api_versions(host),
                "application/json",
            )
        }
        (method, ["api", "v1", rest @ ..]) if inner.namespaces.is_some() => {
            core_request(&inner, method, rest, &query, &parts.headers, body).await
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
                &inner,
                method,
                group,
                version,
                rest,
                &query,
                &parts.headers,
                body,
            )
            .await
        }
        _ => status_response(not_found_path()),
    }
}

/// `/api/v1/...`: the core group's `namespaces`.
async fn core_request(
    inner: &Inner,
    method: Method,
    rest: &[&str],
    query: &BTreeMap<String, String>,
    headers: &HeaderMap,
    body: Bytes,
) -> Response {
    let Some(namespaces) = &inner.namespaces else {
        return status_response(not_found_path());
    };
    let result = match (&method, rest) {
        (&Method::GET, []) => {
            return json_response(
                StatusCode::OK,
                &inner.discovery.core_api_resource_list(),
                "application/json",
            );
        }
        (&Method::GET, ["namespaces"]) => match namespaces.list().await {
            Ok(list) => {
                return table_or_json(
                    || Some(TableConvertor::namespaces()),
                    headers,
                    query,
                    list,
                    true,
                );
            }
            Err(e) => Err(e),
        },
        (&Method::POST, ["namespaces"]) => match namespace_body(headers, &body) {
            Ok(value) => namespaces
                .create(&value)
                .await
                .map(|ns| json_response(StatusCode::CREATED, &ns, "application/json")),
            Err(e) => Err(e),
        },
        (&Method::GET, ["namespaces", name]) => namespaces
            .get(name)
            .await
            .map(|ns| json_response(StatusCode::OK, &ns, "application/json")),
        (&Method::DELETE, ["namespaces", name]) => match namespaces.get(name).await {
            // The namespace's content goes first, then the namespace.
            Ok(_) => match delete_namespace_content(inner, name).await {
                Ok(()) => namespaces
                    .remove(name)
                    .await
                    .map(|ns| json_response(StatusCode::OK, &ns, "application/json")),
                Err(e) => Err(e),
            },
            Err(e) => Err(e),
        },
        (_, ["namespaces", ..]) => Err(Status::method_not_supported(
            GroupResource::new("", "namespaces"),
            "this request",
        )),
        _ => Err(not_found_path()),
    };
    result.unwrap_or_else(status_response)
}

/// A namespace to create: JSON, YAML, or the protobuf kubectl sends for
/// built-in kinds.
fn namespace_body(headers: &HeaderMap, body: &Bytes) -> Result<Value, Status> {
    let content_type = header_str(headers, header::CONTENT_TYPE).unwrap_or_default();
    if content_type.split(';').next().unwrap_or("").trim() == crate::protobuf::PROTOBUF {
        return crate::protobuf::namespace(body);
    }
    let json = json_body(headers, body)?;
    serde_json::from_slice(&json).map_err(|e| Status::bad_request(e.to_string()))
}

/// Deletes every namespaced object in `namespace` (once per stored kind:
/// the versions of a multi-version kind share their objects).
async fn delete_namespace_content(inner: &Inner, namespace: &str) -> Result<(), Status> {
    for kind in inner.by_path.values().filter(|k| k.namespaced()) {
        delete_listed(
            kind.as_ref(),
            namespace,
            &ListOptions::default(),
            &DeleteOptions::default(),
        )
        .await?;
    }
    Ok(())
}

/// Deletes every object of `kind` that `options` lists (one already gone
/// is skipped); returns the list and the deleted objects.
async fn delete_listed(
    kind: &dyn ServedKind,
    namespace: &str,
    options: &ListOptions,
    delete: &DeleteOptions,
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
        match kind.delete(ns, name, delete).await {
            Ok((object, _)) => deleted.push(object),
            Err(e) if e.code == 404 => {}
            Err(e) => return Err(e),
        }
    }
    Ok((list, deleted))
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
struct Target<'p> {
    namespace: &'p str,
    plural: &'p str,
    name: Option<&'p str>,
    subresource: Option<&'p str>,
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

fn list_options(query: &BTreeMap<String, String>) -> Result<ListOptions, Status> {
    let limit = match query.get("limit").map(String::as_str) {
        None | Some("") => None,
        Some(l) => Some(
            l.parse::<i64>()
                .map_err(|_| Status::bad_request(format!("invalid limit {l:?}")))?,
        )
        .filter(|l| *l > 0)
        .map(|l| usize::try_from(l).unwrap_or(usize::MAX)),
    };
    Ok(ListOptions {
        label_selector: query
            .get("labelSelector")
            .filter(|s| !s.is_empty())
            .cloned(),
        field_selector: query
            .get("fieldSelector")
            .filter(|s| !s.is_empty())
            .cloned(),
        limit,
        continue_token: query.get("continue").filter(|s| !s.is_empty()).cloned(),
        resource_version: query
            .get("resourceVersion")
            .filter(|s| !s.is_empty())
            .cloned(),
    })
}

fn field_validation(query: &BTreeMap<String, String>) -> Result<FieldValidation, Status> {
    match query.get("fieldValidation").map(String::as_str) {
        None | Some("") | Some("Warn") => Ok(FieldValidation::Warn),
        Some("Ignore") => Ok(FieldValidation::Ignore),
        Some("Strict") => Ok(FieldValidation::Strict),
        Some(other) => Err(Status::bad_request(format!(
            "fieldValidation parameter unsupported: {other}"
        ))),
    }
}

fn is_true(query: &BTreeMap<String, String>, key: &str) -> bool {
    matches!(query.get(key).map(String::as_str), Some("true" | "1"))
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

fn written_response(written: Written) -> Response {
    let code = if written.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    with_warnings(
        json_response(code, &written.object, "application/json"),
        &written.warnings,
    )
}

#[allow(clippy::too_many_arguments)]
async fn resource_request(
    inner: &Inner,
    method: Method,
    group: &str,
    version: &str,
    rest: &[&str],
    query: &BTreeMap<String, String>,
    headers: &HeaderMap,
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
    let resource = GroupResource::new(group, target.plural);
    let namespace = if kind.namespaced() {
        target.namespace
    } else {
        ""
    };
    let result = match (&method, target.name, target.subresource) {
        (&Method::GET, None, None) => {
            let options = match list_options(query) {
                Ok(o) => o,
                Err(e) => return status_response(e),
            };
            if is_true(query, "watch") {
                return watch_response(kind.as_ref(), namespace, options, query).await;
            }
            match kind.list(namespace, &options).await {
                Ok(list) => return maybe_table(kind.as_ref(), version, headers, query, list, true),
                Err(e) => Err(e),
            }
        }
        (&Method::GET, Some(name), None) => match kind.get(namespace, name).await {
            Ok(object) => {
                return maybe_table(kind.as_ref(), version, headers, query, object, false);
            }
            Err(e) => Err(e),
        },
        (&Method::GET, Some(name), Some("status")) if kind.status_subresource() => kind
            .get(namespace, name)
            .await
            .map(|o| json_response(StatusCode::OK, &o, "application/json")),
        (&Method::POST, None, None) => {
            let missing = match (&inner.namespaces, kind.namespaced()) {
                (Some(ns), true) if !namespace.is_empty() => match ns.exists(namespace).await {
                    Ok(exists) => (!exists).then(|| namespace_not_found(namespace)),
                    Err(e) => Some(e),
                },
                _ => None,
            };
            if kind.namespaced() && namespace.is_empty() {
                Err(not_found_path())
            } else if let Some(status) = missing {
                Err(status)
            } else {
                match (json_body(headers, &body), field_validation(query)) {
                    (Ok(json), Ok(validation)) => kind
                        .create(namespace, &json, validation)
                        .await
                        .map(written_response),
                    (Err(e), _) | (_, Err(e)) => Err(e),
                }
            }
        }
        (&Method::PUT, Some(name), sub @ (None | Some("status"))) => {
            let status = sub.is_some();
            if status && !kind.status_subresource() {
                Err(not_found_path())
            } else {
                match (json_body(headers, &body), field_validation(query)) {
                    (Ok(json), Ok(validation)) => kind
                        .update(namespace, name, &json, validation, status)
                        .await
                        .map(written_response),
                    (Err(e), _) | (_, Err(e)) => Err(e),
                }
            }
        }
        (&Method::PATCH, Some(name), None) => {
            let content_type = header_str(headers, header::CONTENT_TYPE).unwrap_or("");
            match PatchType::parse_content_type(content_type) {
                Ok(patch_type) => kind
                    .patch(namespace, name, patch_type, &body)
                    .await
                    .map(written_response),
                Err(e) => Err(e),
            }
        }
        (&Method::DELETE, Some(name), None) => {
            let options = delete_options(query, &body);
            match options {
                Ok(options) => {
                    kind.delete(namespace, name, &options)
                        .await
                        .map(|(object, pending)| {
                            // A finished delete answers 200 with the object, one
                            // waiting for finalizers 202 with it.
                            let code = if pending {
                                StatusCode::ACCEPTED
                            } else {
                                StatusCode::OK
                            };
                            json_response(code, &object, "application/json")
                        })
                }
                Err(e) => Err(e),
            }
        }
        (&Method::DELETE, None, None) => {
            delete_collection(kind.as_ref(), namespace, query, &body).await
        }
        (_, _, Some(sub)) if sub != "status" => Err(not_found_path()),
        (method, name, _) => Err(Status::method_not_supported(
            resource,
            verb(method, name.is_some()),
        )),
    };
    match result {
        Ok(response) => response,
        Err(status) => status_response(status),
    }
}

fn verb(method: &Method, named: bool) -> &'static str {
    match (method.as_str(), named) {
        ("POST", true) => "create",
        ("PUT", false) => "update",
        ("PATCH", false) => "patch",
        _ => "this request",
    }
}

fn delete_options(query: &BTreeMap<String, String>, body: &Bytes) -> Result<DeleteOptions, Status> {
    let mut options = DeleteOptions::default();
    if !body.is_empty() {
        let v: Value = serde_json::from_slice(body)
            .map_err(|e| Status::bad_request(format!("invalid DeleteOptions: {e}")))?;
        options.grace_period_seconds = v.get("gracePeriodSeconds").and_then(Value::as_i64);
        if let Some(p) = v.get("preconditions") {
            options.uid = p.get("uid").and_then(Value::as_str).map(str::to_string);
            options.resource_version = p
                .get("resourceVersion")
                .and_then(Value::as_str)
                .map(str::to_string);
        }
    }
    if let Some(g) = query.get("gracePeriodSeconds") {
        options.grace_period_seconds = Some(
            g.parse()
                .map_err(|_| Status::bad_request(format!("invalid gracePeriodSeconds {g:?}")))?,
        );
    }
    Ok(options)
}

async fn delete_collection(
    kind: &dyn ServedKind,
    namespace: &str,
    query: &BTreeMap<String, String>,
    body: &Bytes,
) -> Result<Response, Status> {
    let options = list_options(query)?;
    let delete = delete_options(query, body)?;
    let (list, deleted) = delete_listed(kind, namespace, &options, &delete).await?;
    let mut out = list;
    out["items"] = Value::Array(deleted);
    Ok(json_response(StatusCode::OK, &out, "application/json"))
}

/// The object or list of `kind`, or its `Table` when the client asks.
fn maybe_table(
    kind: &dyn ServedKind,
    version: &str,
    headers: &HeaderMap,
    query: &BTreeMap<String, String>,
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
    query: &BTreeMap<String, String>,
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
        Some(_) => json_response(StatusCode::OK, &value, "application/json"),
        None => status_response(Status::not_acceptable(&[
            "application/json",
            crate::negotiation::TABLE_V1,
        ])),
    }
}

/// `?watch=true`: chunked JSON, one `{"type","object"}` per line, flushed
/// per event; ends after `timeoutSeconds` (default 30 minutes); an error
/// (410 for a too-old resourceVersion) is an `ERROR` event.
async fn watch_response(
    kind: &dyn ServedKind,
    namespace: &str,
    options: ListOptions,
    query: &BTreeMap<String, String>,
) -> Response {
    let timeout = query
        .get("timeoutSeconds")
        .and_then(|t| t.parse::<u64>().ok())
        .unwrap_or(1800);
    // Without a resourceVersion (or with "0") a watch starts with the
    // current state, as synthetic ADDED events, then follows the changes
    // after it; `sendInitialEvents=true` asks for the same explicitly and
    // ends the initial events with a BOOKMARK annotated
    // `k8s.io/initial-events-end` (watch-list, which kube-rs and client-go
    // use). apiserver `storage/cacher` semantics.
    let send_initial = match query.get("sendInitialEvents").map(String::as_str) {
        Some("true") => true,
        Some("false") => false,
        _ => matches!(options.resource_version.as_deref(), None | Some("0")),
    };
    let mut options = options;
    let mut initial: Vec<Vec<u8>> = Vec::new();
    if send_initial {
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
        if query.get("sendInitialEvents").map(String::as_str) == Some("true") {
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
    let lines = initial
        .chain(events.map(|event| {
            let line = match event {
                Ok((kind, object)) => event_line(kind, &object),
                Err(status) => error_line(&status),
            };
            Ok::<_, std::convert::Infallible>(Bytes::from(line))
        }))
        .take_until(deadline);
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
