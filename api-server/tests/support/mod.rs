//! Shared by the loopback load test (`tests/load.rs`) and the benchmark
//! (`benches/http.rs`): a `Counter` kind, a server on a free loopback
//! port, and a small HTTP/1.1 keep-alive client (hyper-util's pooled
//! legacy client: one connection per concurrent request, reused); and
//! for the in-process tests, one request through a router (`oneshot`) and
//! polling until an answer reaches a state (`until`, `condition`).

#![allow(dead_code)] // each includer uses its part

use std::net::SocketAddr;
use std::time::Duration;

use api_core::prelude::*;
use api_core::registry::DefaultStrategy;
use api_server::{ApiServer, ServerBuilder};
use axum::body::Bytes;
use axum::http::{Method, Request, StatusCode, header};
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// CounterSpec is the desired state of a Counter.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Counter", namespaced)]
#[serde(rename_all = "camelCase")]
pub struct CounterSpec {
    /// value of the counter.
    pub value: i64,
    /// note about the counter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The collection path of `Counter`s in `default`.
pub const COUNTERS: &str = "/apis/example.com/v1/namespaces/default/counters";

/// A `Counter` named `name` with `value`.
pub fn counter(name: &str, value: i64) -> Value {
    json!({
        "apiVersion": "example.com/v1",
        "kind": "Counter",
        "metadata": {"name": name},
        "spec": {"value": value}
    })
}

/// A server over `Counter`s, in memory.
pub fn server() -> ApiServer {
    counters(ApiServer::builder())
}

/// `builder` serving `Counter`s.
pub fn counters(builder: ServerBuilder) -> ApiServer {
    builder.resource::<Counter>(DefaultStrategy).build()
}

/// `builder` serving `Counter`s and `Namespace`s.
pub fn counters_and_namespaces(builder: ServerBuilder) -> ApiServer {
    builder
        .resource::<Counter>(DefaultStrategy)
        .with_namespaces()
        .build()
}

/// Serves `server` over plain HTTP on a free loopback port, in a task.
pub async fn start(server: ApiServer) -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let addr = listener.local_addr().expect("its address");
    let task = tokio::spawn(async move {
        server.serve(listener).await.expect("serve");
    });
    (addr, task)
}

/// An HTTP/1.1 client whose pool keeps connections alive.
#[derive(Clone)]
pub struct Client {
    inner: HyperClient<HttpConnector, Full<Bytes>>,
    base: String,
    token: Option<String>,
}

/// A response read whole.
pub struct Answer {
    /// The status code.
    pub code: StatusCode,
    /// The body.
    pub body: Bytes,
}

impl Answer {
    /// The body as JSON (panics, naming the body, when it is not).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "{}: not JSON ({e}): {}",
                self.code,
                String::from_utf8_lossy(&self.body)
            )
        })
    }
}

impl Client {
    /// A client of the server at `addr`.
    pub fn new(addr: SocketAddr) -> Self {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        let inner = HyperClient::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(30))
            .build(connector);
        Client {
            inner,
            base: format!("http://{addr}"),
            token: None,
        }
    }

    /// The same client, sending `Authorization: Bearer <token>`.
    pub fn with_token(&self, token: &str) -> Self {
        Client {
            token: Some(token.to_string()),
            ..self.clone()
        }
    }

    fn request(&self, method: Method, path: &str, body: Option<Vec<u8>>) -> Request<Full<Bytes>> {
        let mut builder = Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.base));
        if let Some(token) = &self.token {
            builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
        }
        match body {
            Some(b) => builder
                .header(header::CONTENT_TYPE, "application/json")
                .body(Full::new(Bytes::from(b))),
            None => builder.body(Full::new(Bytes::new())),
        }
        .expect("a request")
    }

    /// Sends a request and reads the whole answer.
    pub async fn send(&self, method: Method, path: &str, body: Option<Vec<u8>>) -> Answer {
        self.exchange(self.request(method, path, body)).await
    }

    /// Sends `request` and reads the whole answer.
    async fn exchange(&self, request: Request<Full<Bytes>>) -> Answer {
        let response = self
            .inner
            .request(request)
            .await
            .expect("the server answers");
        let code = response.status();
        let body = response
            .into_body()
            .collect()
            .await
            .expect("a body")
            .to_bytes();
        Answer { code, body }
    }

    /// A request with a body of the given `Content-Type`.
    pub async fn send_with(
        &self,
        method: Method,
        path: &str,
        content_type: &str,
        body: Vec<u8>,
    ) -> Answer {
        let mut request = self.request(method, path, Some(body));
        request.headers_mut().insert(
            header::CONTENT_TYPE,
            content_type.parse().expect("a content type"),
        );
        self.exchange(request).await
    }

    /// `GET path`.
    pub async fn get(&self, path: &str) -> Answer {
        self.send(Method::GET, path, None).await
    }

    /// `POST path` with a JSON body.
    pub async fn post(&self, path: &str, body: &Value) -> Answer {
        self.send(Method::POST, path, Some(body.to_string().into_bytes()))
            .await
    }

    /// `PUT path` with a JSON body.
    pub async fn put(&self, path: &str, body: &Value) -> Answer {
        self.send(Method::PUT, path, Some(body.to_string().into_bytes()))
            .await
    }

    /// Starts a watch (`path` carries `?watch=true...`): returns once the
    /// server answered its headers, that is once the watch is registered.
    pub async fn watch(&self, path: &str) -> Watcher {
        self.watch_as(path, "application/json").await
    }

    /// Starts a watch asking for the representation `accept`
    /// (`PartialObjectMetadata`, ...).
    pub async fn watch_as(&self, path: &str, accept: &str) -> Watcher {
        let mut request = self.request(Method::GET, path, None);
        request
            .headers_mut()
            .insert(header::ACCEPT, accept.parse().expect("an accept header"));
        let response = self
            .inner
            .request(request)
            .await
            .expect("the server answers");
        assert_eq!(response.status(), StatusCode::OK, "watch {path}");
        let body = response
            .into_body()
            .map_err(|e| e.to_string())
            .boxed_unsync();
        Watcher {
            body,
            buffer: Vec::new(),
        }
    }
}

/// The events of a watch, one JSON object per line.
pub struct Watcher {
    body: http_body_util::combinators::UnsyncBoxBody<Bytes, String>,
    buffer: Vec<u8>,
}

impl Watcher {
    /// The next event; `None` when the stream ended.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.buffer.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                let line = &line[..line.len() - 1];
                if line.is_empty() {
                    continue;
                }
                return Some(serde_json::from_slice(line).unwrap_or_else(|e| {
                    panic!("event not JSON ({e}): {}", String::from_utf8_lossy(line))
                }));
            }
            let frame = self.body.frame().await?.expect("the watch body reads");
            if let Ok(data) = frame.into_data() {
                self.buffer.extend_from_slice(&data);
            }
        }
    }
}

/// `metadata.resourceVersion` as a number.
pub fn revision(object: &Value) -> u64 {
    object["metadata"]["resourceVersion"]
        .as_str()
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("no numeric resourceVersion: {object}"))
}

/// One request to `router` in process: `body` as JSON (none when null; a
/// `PATCH` as a JSON merge patch); the status and the answer as JSON
/// (null when it is not JSON).
pub async fn oneshot(
    router: &axum::Router,
    method: &str,
    uri: &str,
    body: Value,
) -> (StatusCode, Value) {
    use tower::ServiceExt;
    let content_type = if method == "PATCH" {
        "application/merge-patch+json"
    } else {
        "application/json"
    };
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, content_type)
        .body(if body.is_null() {
            axum::body::Body::empty()
        } else {
            axum::body::Body::from(body.to_string())
        })
        .expect("a request");
    let response = router.clone().oneshot(request).await.expect("infallible");
    let code = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("a body");
    (code, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// Polls `GET uri` on `router` (every 10 ms, for up to ten seconds) until
/// `done` holds of the answer, which it returns; panics with the last
/// answer otherwise.
pub async fn until(
    router: &axum::Router,
    uri: &str,
    done: impl Fn(StatusCode, &Value) -> bool,
) -> Value {
    let start = std::time::Instant::now();
    loop {
        let (code, body) = oneshot(router, "GET", uri, Value::Null).await;
        if done(code, &body) {
            return body;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{uri}: never reached the state; last {code} {body}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The condition of type `kind` in an object's `status.conditions`
/// (`null` when there is none).
pub fn condition<'a>(object: &'a Value, kind: &str) -> &'a Value {
    object["status"]["conditions"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["type"] == kind))
        .unwrap_or(&Value::Null)
}

/// One request to `router` in process with a JSON body (the benchmarks'
/// request): the status code and the body's bytes.
pub async fn oneshot_bytes(
    router: &axum::Router,
    method: Method,
    path: &str,
    body: Vec<u8>,
) -> (u16, Bytes) {
    use tower::ServiceExt;
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::CONTENT_TYPE, "application/json")
        .body(axum::body::Body::from(body))
        .expect("a request");
    let response = router.clone().oneshot(request).await.expect("infallible");
    let code = response.status().as_u16();
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("a body");
    (code, body)
}
