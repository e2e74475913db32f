#![no_main]

//! The HTTP API server in-process on arbitrary requests: the examples'
//! kinds (Memcached, CronJob, Tenant, the two-version CronTab) and
//! Namespaces, served by one `ApiServer` built once and called through
//! `tower::ServiceExt::oneshot` on a current-thread runtime created once.
//!
//! The input is split at its first five `\n` into method, path, query,
//! `Content-Type`, `Accept`, and the rest is the body; a part that is not
//! a valid method, URI or header value is replaced or left out. So a seed
//! reads as a request:
//!
//! ```text
//! POST
//! /apis/cache.example.com/v1alpha1/namespaces/default/memcacheds
//! fieldValidation=Strict
//! application/json
//! application/json
//! {"apiVersion": ...}
//! ```
//!
//! What must hold: no panic and no hang (2 s per request); a non-2xx
//! JSON answer is a `Status` whose `code` is the HTTP status; a 2xx JSON
//! answer is JSON (for a watch, every line is). A watch is made to end at
//! once (`timeoutSeconds=0`) and read for at most 200 ms.

use std::sync::LazyLock;
use std::time::Duration;

use api_core::Status;
use api_core::registry::DefaultStrategy;
use api_server::ApiServer;
use axum::body::{Body, to_bytes};
use axum::http::{HeaderValue, Method, Request, header};
use examples::{cronjob, crontab, memcached, tenant};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tower::ServiceExt;

struct Fixture {
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
}

/// The examples' apiserver (examples/src/bin/apiserver.rs) with a 64 KiB
/// body limit, so the 413 path is reachable.
static FIXTURE: LazyLock<Fixture> = LazyLock::new(|| {
    let versions = std::sync::Arc::new(crontab::versions());
    let server = ApiServer::builder()
        .max_request_bytes(64 * 1024)
        .with_namespaces()
        .resource::<memcached::Memcached>(DefaultStrategy)
        .resource::<cronjob::CronJob>(DefaultStrategy)
        .resource::<tenant::Tenant>(DefaultStrategy)
        .version::<crontab::v1::CronTab, _>(DefaultStrategy, versions.clone())
        .expect("CronTab v1")
        .version::<crontab::v1alpha1::CronTab, _>(DefaultStrategy, versions)
        .expect("CronTab v1alpha1")
        .build();
    Fixture {
        runtime: tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a runtime"),
        router: server.router(),
    }
});

const METHODS: [Method; 7] = [
    Method::GET,
    Method::POST,
    Method::PUT,
    Method::PATCH,
    Method::DELETE,
    Method::HEAD,
    Method::OPTIONS,
];

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
        .filter(|(k, _)| k == "watch")
        .last()
        .is_some_and(|(_, v)| matches!(&*v, "1" | "t" | "T" | "true" | "TRUE" | "True"))
}

fuzz_target!(|data: &[u8]| {
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
    let Ok(uri) = format!("{path}?{query}").parse::<axum::http::Uri>() else {
        return;
    };
    if uri.path() != path {
        return; // a `?` or `#` in the path part: another split
    }
    let watch = method == Method::GET && is_watch(&query);
    // axum leaves out the body of an answer to HEAD (as HTTP wants).
    let head = method == Method::HEAD;
    let mut request = Request::builder().method(method).uri(uri);
    for (name, value) in [
        (header::CONTENT_TYPE, content_type),
        (header::ACCEPT, accept),
    ] {
        if let Ok(v) = HeaderValue::from_bytes(value)
            && !value.is_empty()
        {
            request = request.header(name, v);
        }
    }
    let Ok(request) = request.body(Body::from(body)) else {
        return;
    };

    let fixture = &*FIXTURE;
    fixture.runtime.block_on(async {
        let response = tokio::time::timeout(
            Duration::from_secs(2),
            fixture.router.clone().oneshot(request),
        )
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
                Err(_) => return, // still streaming: not judged
            }
        } else {
            tokio::time::timeout(Duration::from_secs(2), read)
                .await
                .expect("the body is read within 2 s")
                .expect("a body")
        };
        if head {
            assert!(bytes.is_empty(), "a body for HEAD");
            return;
        }
        if !content_type.starts_with("application/json") {
            return;
        }
        if code.is_success() {
            // One JSON document; or, for a watch of a collection, one
            // event per line (`watch=true` elsewhere is ignored).
            let whole = serde_json::from_slice::<Value>(&bytes);
            if let Err(e) = whole {
                assert!(
                    watch,
                    "a {code} body is not JSON ({e}): {}",
                    String::from_utf8_lossy(&bytes)
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
            let value: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
                panic!(
                    "a {code} body is not JSON ({e}): {}",
                    String::from_utf8_lossy(&bytes)
                )
            });
            assert_eq!(value["kind"], "Status", "{code}: {value}");
            assert_eq!(value["code"], code.as_u16(), "{code}: {value}");
            let status: Status = serde_json::from_value(value).expect("a Status");
            assert_eq!(status.status, Status::FAILURE);
        }
    });
});
