//! What the two HTTP fuzz targets (`api_server`, `api_server_authz`)
//! share: reading a request out of the input's lines, and judging the
//! answer (no hang; a failure is a `Status` whose `code` is the HTTP
//! status; a success is JSON, or a watch's JSON lines).

use std::time::Duration;

use api_core::Status;
use axum::body::{Body, to_bytes};
use axum::http::{HeaderName, HeaderValue, Method, Request, StatusCode, Uri, header};
use serde_json::Value;
use tower::ServiceExt;

const METHODS: [Method; 7] = [
    Method::GET,
    Method::POST,
    Method::PUT,
    Method::PATCH,
    Method::DELETE,
    Method::HEAD,
    Method::OPTIONS,
];

/// A request read from the input, and what judging its answer needs.
pub struct Fuzzed {
    /// The request, ready to send.
    pub request: Request<Body>,
    /// Whether the server reads it as a watch.
    pub watch: bool,
    /// Whether it is a HEAD (answered without a body).
    pub head: bool,
}

fn method(part: &[u8]) -> Method {
    Method::from_bytes(part)
        .ok()
        .filter(|m| !part.is_empty() && part.len() <= 8 && METHODS.contains(m))
        .unwrap_or_else(|| METHODS[part.first().map_or(0, |b| *b as usize) % METHODS.len()].clone())
}

/// The query with `timeoutSeconds=0` in place of any `timeoutSeconds`, so
/// that a watch ends at once.
fn query(part: &[u8]) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (k, v) in form_urlencoded::parse(part) {
        if k != "timeoutSeconds" {
            out.append_pair(&k, &v);
        }
    }
    out.append_pair("timeoutSeconds", "0");
    out.finish()
}

/// `watch` set to a true value as the server reads it (Go's
/// `strconv.ParseBool`: `1`, `t`, `T`, `true`, `TRUE`, `True`).
fn is_watch(query: &str) -> bool {
    form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "watch")
        .is_some_and(|(_, v)| matches!(&*v, "1" | "t" | "T" | "true" | "TRUE" | "True"))
}

/// The request in `data`, split at its first five `\n` into method, path,
/// query, `Content-Type`, `Accept`, and the body; a part that is not a
/// valid method, URI or header value is replaced or left out. `extra`
/// headers are added as given. `None` when the path and query do not
/// make one URI.
pub fn request(data: &[u8], extra: &[(HeaderName, &[u8])]) -> Option<Fuzzed> {
    let mut parts = data.splitn(6, |b| *b == b'\n');
    let mut next = || parts.next().unwrap_or_default();
    let method = method(next());
    let path = String::from_utf8_lossy(next()).into_owned();
    let query = query(next());
    let content_type = next();
    let accept = next();
    let body = next().to_vec();

    let path = if path.starts_with('/') {
        path
    } else {
        format!("/{path}")
    };
    let uri = format!("{path}?{query}").parse::<Uri>().ok()?;
    if uri.path() != path {
        return None; // a `?` or `#` in the path part: another split
    }
    let watch = method == Method::GET && is_watch(&query);
    // axum leaves out the body of an answer to HEAD (as HTTP wants).
    let head = method == Method::HEAD;
    let mut request = Request::builder().method(method).uri(uri);
    let headers = [
        (header::CONTENT_TYPE, content_type),
        (header::ACCEPT, accept),
    ];
    for (name, value) in headers.iter().chain(extra) {
        if let Ok(v) = HeaderValue::from_bytes(value)
            && !value.is_empty()
        {
            request = request.header(name, v);
        }
    }
    let request = request.body(Body::from(body)).ok()?;
    Some(Fuzzed {
        request,
        watch,
        head,
    })
}

/// Sends `fuzzed` to `router` and judges the answer; returns its status
/// code, or `None` for a watch still streaming after 200 ms (not judged).
pub async fn send(router: &axum::Router, fuzzed: Fuzzed) -> Option<StatusCode> {
    let Fuzzed {
        request,
        watch,
        head,
    } = fuzzed;
    let response = tokio::time::timeout(Duration::from_secs(2), router.clone().oneshot(request))
        .await
        .expect("the server answers within 2 s")
        .expect("the router is infallible");
    let code = response.status();
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let read = to_bytes(response.into_body(), usize::MAX);
    let bytes = if watch && code.is_success() {
        match tokio::time::timeout(Duration::from_millis(200), read).await {
            Ok(bytes) => bytes.expect("a body"),
            Err(_) => return None, // still streaming: not judged
        }
    } else {
        tokio::time::timeout(Duration::from_secs(2), read)
            .await
            .expect("the body is read within 2 s")
            .expect("a body")
    };
    if head {
        assert!(bytes.is_empty(), "a body for HEAD");
    } else if content_type.starts_with("application/json") {
        judge_json(code, watch, &bytes);
    }
    Some(code)
}

fn judge_json(code: StatusCode, watch: bool, bytes: &[u8]) {
    if code.is_success() {
        // One JSON document; or, for a watch of a collection, one event
        // per line (`watch=true` elsewhere is ignored).
        let whole = serde_json::from_slice::<Value>(bytes);
        if let Err(e) = whole {
            assert!(
                watch,
                "a {code} body is not JSON ({e}): {}",
                String::from_utf8_lossy(bytes)
            );
            for line in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
                let event: Value = serde_json::from_slice(line).unwrap_or_else(|e| {
                    panic!(
                        "a watch line is not JSON ({e}): {}",
                        String::from_utf8_lossy(line)
                    )
                });
                assert!(event["type"].is_string(), "{event}");
            }
        }
    } else {
        let value: Value = serde_json::from_slice(bytes).unwrap_or_else(|e| {
            panic!(
                "a {code} body is not JSON ({e}): {}",
                String::from_utf8_lossy(bytes)
            )
        });
        assert_eq!(value["kind"], "Status", "{code}: {value}");
        assert_eq!(value["code"], code.as_u16(), "{code}: {value}");
        let status: Status = serde_json::from_value(value).expect("a Status");
        assert_eq!(status.status, Status::FAILURE);
    }
}
