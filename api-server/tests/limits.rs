//! Limits: open watches per user and in total (429 with `Retry-After`),
//! request deadlines (504), hostile names that never reach a storage key.

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;

use std::sync::Arc;
use std::time::Duration;

use api_core::prelude::*;
use api_core::registry::storage::{Stored, Watch as StorageWatch};
use api_core::registry::{
    BoxFuture, DefaultStrategy, ListPage, ListRequest, MemoryStorage, Revision, Storage,
    StorageError,
};
use api_server::ApiServer;
use api_server::authn::{Authenticator, User};
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tower::ServiceExt;

/// GizmoSpec is the desired state of a Gizmo.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Gizmo", namespaced)]
pub struct GizmoSpec {
    /// size of the gizmo.
    pub size: i32,
}

const GIZMOS: &str = "/apis/example.com/v1/namespaces/demo/gizmos";

fn request(method: &str, uri: &str, token: &str) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(uri)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::empty())
        .unwrap()
}

async fn status_of(
    response: axum::response::Response,
) -> (StatusCode, axum::http::HeaderMap, Value) {
    let code = response.status();
    let headers = response.headers().clone();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (
        code,
        headers,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn watches_are_limited_per_user_and_in_total() {
    let app = storage::builder()
        .await
        .authenticator(
            Authenticator::new()
                .token("a", User::new("alice", &[]))
                .token("b", User::new("bob", &[]))
                .token("c", User::new("carol", &[])),
        )
        .max_watches(2, 1)
        .resource::<Gizmo>(DefaultStrategy)
        .build()
        .router();
    let watch = format!("{GIZMOS}?watch=true&timeoutSeconds=30");
    // Alice's first watch stays open (its body is not read to the end).
    let first = app
        .clone()
        .oneshot(request("GET", &watch, "a"))
        .await
        .unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    let (code, headers, body) = status_of(
        app.clone()
            .oneshot(request("GET", &watch, "a"))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(code, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(headers.get(header::RETRY_AFTER).unwrap(), "1");
    assert_eq!(body["reason"], "TooManyRequests");
    assert_eq!(
        body["message"],
        "Too many requests, please try again later."
    );
    // Other requests of hers are not limited.
    assert_eq!(
        app.clone()
            .oneshot(request("GET", GIZMOS, "a"))
            .await
            .unwrap()
            .status(),
        StatusCode::OK
    );
    // Bob takes the last slot in total; Carol gets none.
    let second = app
        .clone()
        .oneshot(request("GET", &watch, "b"))
        .await
        .unwrap();
    assert_eq!(second.status(), StatusCode::OK);
    let refused = app
        .clone()
        .oneshot(request("GET", &watch, "c"))
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    // Closing a watch frees its slot.
    drop(first);
    let again = app
        .clone()
        .oneshot(request("GET", &watch, "c"))
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::OK);
    drop((second, again));
}

/// A storage whose reads take `delay`.
struct Slow {
    inner: MemoryStorage,
    delay: Duration,
}

impl api_core::registry::Forwarding for Slow {
    fn inner(&self) -> &dyn Storage {
        &self.inner
    }
    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(async move {
            tokio::time::sleep(self.delay).await;
            self.inner.get(key).await
        })
    }
    fn list<'a>(
        &'a self,
        prefix: &'a str,
    ) -> BoxFuture<'a, Result<(Vec<Stored>, Revision), StorageError>> {
        Box::pin(async move {
            tokio::time::sleep(self.delay).await;
            self.inner.list(prefix).await
        })
    }
    fn list_page<'a>(
        &'a self,
        prefix: &'a str,
        request: &'a ListRequest,
    ) -> BoxFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(async move {
            tokio::time::sleep(self.delay).await;
            self.inner.list_page(prefix, request).await
        })
    }
}

#[tokio::test]
async fn requests_past_their_deadline_are_504() {
    let app = ApiServer::builder()
        .storage(Arc::new(Slow {
            inner: MemoryStorage::new(),
            delay: Duration::from_millis(300),
        }))
        .request_timeout(Duration::from_secs(5))
        .resource::<Gizmo>(DefaultStrategy)
        .build()
        .router();
    // The request's own `timeout` (a Go duration) shortens the deadline.
    let (code, _, body) = status_of(
        app.clone()
            .oneshot(request("GET", &format!("{GIZMOS}?timeout=100ms"), ""))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(code, StatusCode::GATEWAY_TIMEOUT);
    assert_eq!(body["reason"], "Timeout");
    assert_eq!(
        body["message"],
        "Timeout: request did not complete within requested timeout - context deadline exceeded"
    );
    // A longer one keeps the server's; a malformed one is the
    // apiserver's 400 (`WithRequestDeadline`).
    let response = app
        .clone()
        .oneshot(request("GET", &format!("{GIZMOS}?timeout=soon"), ""))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    for query in ["?timeout=32s", "?timeout=0s", ""] {
        let response = app
            .clone()
            .oneshot(request("GET", &format!("{GIZMOS}{query}"), ""))
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{query}");
    }
    // The server's own deadline.
    let short = ApiServer::builder()
        .storage(Arc::new(Slow {
            inner: MemoryStorage::new(),
            delay: Duration::from_millis(300),
        }))
        .request_timeout(Duration::from_millis(50))
        .resource::<Gizmo>(DefaultStrategy)
        .build()
        .router();
    let response = short
        .oneshot(request("GET", &format!("{GIZMOS}?timeout=10s"), ""))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::GATEWAY_TIMEOUT);
}

/// Records every key and prefix the registry asks for.
#[derive(Default)]
struct Recording {
    inner: MemoryStorage,
    keys: std::sync::Mutex<Vec<String>>,
}

impl Recording {
    fn saw(&self, key: &str) {
        self.keys.lock().unwrap().push(key.to_string());
    }
}

impl api_core::registry::Forwarding for Recording {
    fn inner(&self) -> &dyn Storage {
        &self.inner
    }
    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Stored, StorageError>> {
        self.saw(key);
        self.inner.get(key)
    }
    fn list<'a>(
        &'a self,
        prefix: &'a str,
    ) -> BoxFuture<'a, Result<(Vec<Stored>, Revision), StorageError>> {
        self.saw(prefix);
        self.inner.list(prefix)
    }
    fn create<'a>(
        &'a self,
        key: &'a str,
        value: Value,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        self.saw(key);
        self.inner.create(key, value)
    }
    fn update<'a>(
        &'a self,
        key: &'a str,
        value: Value,
        expected: Revision,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        self.saw(key);
        self.inner.update(key, value, expected)
    }
    fn delete<'a>(
        &'a self,
        key: &'a str,
        expected: Option<Revision>,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        self.saw(key);
        self.inner.delete(key, expected)
    }
    fn watch<'a>(
        &'a self,
        prefix: &'a str,
        from: Revision,
    ) -> BoxFuture<'a, Result<StorageWatch, StorageError>> {
        self.saw(prefix);
        self.inner.watch(prefix, from)
    }
}

/// Names from the URL and the body are checked before a key is built:
/// no key ever holds `..`, `%` or NUL, nothing is stored, and each
/// request gets a 4xx `Status`.
#[tokio::test]
async fn hostile_names_never_reach_storage() {
    let storage = Arc::new(Recording::default());
    let app = ApiServer::builder()
        .storage(storage.clone())
        .resource::<Gizmo>(DefaultStrategy)
        .build()
        .router();
    let long = "a".repeat(300);
    let names = [
        "..",
        ".",
        "a/b",
        "%2e%2e",
        "a%2Fb",
        "%00",
        "UPPER",
        long.as_str(),
        "a\u{0}b",
        "..%2F..",
        "a b",
    ];
    for name in names {
        let body = json!({"apiVersion": "example.com/v1", "kind": "Gizmo", "metadata": {"name": name}, "spec": {"size": 1}});
        let create = Request::builder()
            .method("POST")
            .uri(GIZMOS)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        let (code, _, status) = status_of(app.clone().oneshot(create).await.unwrap()).await;
        assert!(code.is_client_error(), "{name:?}: {code}");
        assert_eq!(status["kind"], "Status", "{name:?}");
        let encoded: String = form_urlencoded::byte_serialize(name.as_bytes()).collect();
        for uri in [
            format!("{GIZMOS}/{encoded}"),
            format!("/apis/example.com/v1/namespaces/{encoded}/gizmos/x"),
        ] {
            let Ok(get) = Request::builder()
                .method("GET")
                .uri(&uri)
                .body(Body::empty())
            else {
                continue;
            };
            let (code, _, status) = status_of(app.clone().oneshot(get).await.unwrap()).await;
            assert!(code.is_client_error(), "{uri}: {code}");
            assert_eq!(status["kind"], "Status", "{uri}");
        }
    }
    assert_eq!(storage.revision().await.unwrap(), 0, "nothing was written");
    for key in storage.keys.lock().unwrap().iter() {
        let segments: Vec<&str> = key.trim_matches('/').split('/').collect();
        assert!(
            segments
                .iter()
                .all(|s| !s.is_empty() && *s != ".." && *s != "." && !s.contains(['%', '\0', ' '])),
            "a hostile key reached storage: {key:?}"
        );
    }
}

/// A writer the test reads back (the audit log writes from a thread).
#[derive(Clone, Default)]
struct Shared(Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    /// The audit events written so far, once there are `n` (waits up to
    /// five seconds for the log's thread).
    async fn events(&self, n: usize) -> Vec<Value> {
        for _ in 0..500 {
            let events: Vec<Value> = String::from_utf8_lossy(&self.0.lock().unwrap())
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            if events.len() >= n {
                return events;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("fewer than {n} audit events");
    }
}

/// The filters run in the order of the apiserver's
/// `DefaultBuildHandlerChain`: the request deadline before
/// authentication (a bad `timeout` is a 400 even to a stranger), the
/// watch limit before authorization (a full server is a 429 even to a
/// user who may not watch), and every refusal audited, with the user
/// when authentication found one.
#[tokio::test]
async fn filters_run_in_the_apiservers_order() {
    let audit = Shared::default();
    let app = rbac_with_root_and_alice()
        .await
        .audit_log(api_server::audit::AuditLog::to_writer(audit.clone()))
        .max_watches(1, 1)
        .resource::<Gizmo>(DefaultStrategy)
        .build()
        .router();
    let call = |method: &'static str, uri: String, token: &'static str| {
        let app = app.clone();
        async move { app.oneshot(request(method, &uri, token)).await.unwrap() }
    };
    // Deadline, then authentication.
    let (code, _, body) =
        status_of(call("GET", format!("{GIZMOS}?timeout=abc"), "nobody").await).await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{body}");
    let (code, _, _) = status_of(call("GET", GIZMOS.into(), "nobody").await).await;
    assert_eq!(code, StatusCode::UNAUTHORIZED);
    // Authentication, then authorization.
    let (code, _, _) = status_of(call("GET", GIZMOS.into(), "a").await).await;
    assert_eq!(code, StatusCode::FORBIDDEN);
    // The watch limit, then authorization: with root's watch holding the
    // one slot, Alice's watch is refused for the limit, not her rights.
    let held = call(
        "GET",
        format!("{GIZMOS}?watch=true&timeoutSeconds=30"),
        "root",
    )
    .await;
    assert_eq!(held.status(), StatusCode::OK);
    let (code, _, body) = status_of(call("GET", format!("{GIZMOS}?watch=true"), "a").await).await;
    assert_eq!(code, StatusCode::TOO_MANY_REQUESTS, "{body}");
    drop(held);
    let (code, _, _) = status_of(call("GET", format!("{GIZMOS}?watch=true"), "a").await).await;
    assert_eq!(code, StatusCode::FORBIDDEN);
    // Every request audited: the first two without a user.
    let events = audit.events(6).await;
    let seen: Vec<(u64, &str)> = events
        .iter()
        .map(|e| {
            (
                e["responseStatus"]["code"].as_u64().unwrap(),
                e["user"]["username"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (400, ""),
            (401, ""),
            (403, "alice"),
            (200, "root"),
            (429, "alice"),
            (403, "alice"),
        ]
    );
}

/// A server with RBAC and two users: `root` (token `root`, in
/// `system:masters`) and `alice` (token `a`, no rights).
async fn rbac_with_root_and_alice() -> api_server::ServerBuilder {
    storage::builder()
        .await
        .authenticator(
            Authenticator::new()
                .token("root", User::new("root", &["system:masters"]))
                .token("a", User::new("alice", &[])),
        )
        .authorization(api_server::server::AuthorizationMode::Rbac)
}

/// The httplog filter writes one line per request, with the user that
/// authentication found after it (none for a 401), when a subscriber
/// takes its lines; without one it is not in the request's way.
#[tokio::test]
async fn the_http_log_has_a_line_per_request() {
    let lines = Shared::default();
    let writer = lines.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_max_level(tracing::Level::INFO)
        .with_writer(move || writer.clone())
        .finish();
    let _default = tracing::subscriber::set_default(subscriber);
    let app = rbac_with_root_and_alice()
        .await
        .resource::<Gizmo>(DefaultStrategy)
        .build()
        .router();
    for (uri, token, code) in [
        (GIZMOS.to_string(), "root", StatusCode::OK),
        (
            format!("{GIZMOS}/x?pretty=1"),
            "root",
            StatusCode::NOT_FOUND,
        ),
        (GIZMOS.to_string(), "nobody", StatusCode::UNAUTHORIZED),
        (GIZMOS.to_string(), "a", StatusCode::FORBIDDEN),
    ] {
        let response = app
            .clone()
            .oneshot(request("GET", &uri, token))
            .await
            .unwrap();
        assert_eq!(response.status(), code, "{uri}");
    }
    let text = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
    let logged: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("api_server::httplog"))
        .collect();
    assert_eq!(logged.len(), 4, "{text}");
    for (line, expected) in logged.iter().zip([
        [
            r#"verb="list""#,
            &format!("uri={GIZMOS} "),
            r#"user="root""#,
            "code=200",
        ],
        [
            r#"verb="get""#,
            &format!("uri={GIZMOS}/x?pretty=1 "),
            r#"user="root""#,
            "code=404",
        ],
        [
            r#"verb="list""#,
            &format!("uri={GIZMOS} "),
            r#"user="""#,
            "code=401",
        ],
        [
            r#"verb="list""#,
            &format!("uri={GIZMOS} "),
            r#"user="alice""#,
            "code=403",
        ],
    ]) {
        for field in expected {
            assert!(line.contains(field), "{field} in {line}");
        }
    }
}
