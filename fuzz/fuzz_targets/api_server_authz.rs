#![no_main]

//! The HTTP API server with authentication and RBAC on, on arbitrary
//! requests from arbitrary credentials: the request path a client on the
//! network reaches before any TLS detail matters.
//!
//! The input's first line is the `Authorization` header (left out when
//! empty); the rest is a request as the `api_server` target reads it
//! (method, path, query, `Content-Type`, `Accept`, body). The server
//! knows two bearer tokens: `reader-token` (user `reader`, who may get,
//! list and watch `memcacheds` in `default`) and `writer-token` (user
//! `writer`, who may get, update and patch `memcacheds/status` in
//! `default` and create `roles` there, which the escalation check bounds
//! by what the writer holds). Nobody the fuzzer can be may create
//! bindings, so the grants never change.
//!
//! What must hold, besides the `api_server` target's checks: without a
//! token the server knows (read as `bearertoken.go` reads the header) the
//! answer is 401, or 400 for a `timeout` that does not parse (checked
//! before authentication, as the apiserver's filter chain does); with one, a 2xx answer is for a request that a naive
//! reading of the grants above allows (the path read from its
//! percent-decoded form, as Go's `URL.Path` is).

mod http;

use std::sync::LazyLock;

use api_core::registry::DefaultStrategy;
use api_server::ApiServer;
use api_server::authn::{Authenticator, SYSTEM_MASTERS, User};
use api_server::server::AuthorizationMode;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use examples::memcached;
use libfuzzer_sys::fuzz_target;
use serde_json::json;
use tower::ServiceExt;

struct Fixture {
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
}

const RBAC: &str = "/apis/rbac.authorization.k8s.io/v1/namespaces/default";

/// A Role and its RoleBinding for `user`, created by the admin.
async fn grant(router: &axum::Router, user: &str, rules: serde_json::Value) {
    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
        "metadata": {"name": user}, "rules": rules});
    let binding = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
        "metadata": {"name": user},
        "subjects": [{"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": user}],
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": user}});
    for (plural, body) in [("roles", role), ("rolebindings", binding)] {
        let request = Request::post(format!("{RBAC}/{plural}"))
            .header(header::AUTHORIZATION, "Bearer admin-token")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .expect("a request");
        let response = router.clone().oneshot(request).await.expect("infallible");
        assert_eq!(
            response.status(),
            StatusCode::CREATED,
            "{plural} for {user}"
        );
    }
}

static FIXTURE: LazyLock<Fixture> = LazyLock::new(|| {
    let authenticator = Authenticator::new()
        .token("admin-token", User::new("admin", &[SYSTEM_MASTERS]))
        .token("reader-token", User::new("reader", &[]))
        .token("writer-token", User::new("writer", &["writers"]));
    let router = ApiServer::builder()
        .max_request_bytes(64 * 1024)
        .authenticator(authenticator)
        .authorization(AuthorizationMode::Rbac)
        .with_namespaces()
        .resource::<memcached::Memcached>(DefaultStrategy)
        .build()
        .router();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        grant(
            &router,
            "reader",
            json!([{"apiGroups": ["cache.example.com"], "resources": ["memcacheds"],
                    "verbs": ["get", "list", "watch"]}]),
        )
        .await;
        grant(
            &router,
            "writer",
            json!([{"apiGroups": ["cache.example.com"], "resources": ["memcacheds/status"],
                    "verbs": ["get", "update", "patch"]},
                   {"apiGroups": ["rbac.authorization.k8s.io"], "resources": ["roles"],
                    "verbs": ["create"]}]),
        )
        .await;
    });
    Fixture { runtime, router }
});

/// Who the `Authorization` header names, read as `bearertoken.go` does
/// (`Bearer` in any case, one space, the token up to the next space),
/// after HTTP's trimming of spaces and tabs around a field value.
fn who(authorization: &[u8]) -> Option<&'static str> {
    let text = std::str::from_utf8(authorization)
        .ok()?
        .trim_matches([' ', '\t']);
    let mut parts = text.splitn(3, ' ');
    let scheme = parts.next()?;
    let token = parts.next()?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    match token {
        "reader-token" => Some("reader"),
        "writer-token" => Some("writer"),
        _ => None,
    }
}

/// Whether the grants allow `user` this request: the naive reading.
fn allowed(user: &str, method: &Method, path: &str, query: &str) -> bool {
    let decoded: String = percent_decode(path);
    let segments: Vec<&str> = decoded.trim_matches('/').split('/').collect();
    // What every authenticated user may do (the bootstrap roles).
    let public = match segments.as_slice() {
        ["healthz" | "livez" | "readyz" | "version"] | ["api"] | ["api", "v1"] | ["apis"] => true,
        ["apis", _] | ["apis", _, _] => true,
        ["openapi", ..] => true,
        [
            "apis",
            "authentication.k8s.io" | "authorization.k8s.io",
            "v1",
            "selfsubjectreviews" | "selfsubjectaccessreviews" | "selfsubjectrulesreviews",
        ] => *method == Method::POST,
        _ => false,
    };
    if public {
        return true;
    }
    let (group, rest) = match segments.as_slice() {
        ["apis", group, _version, rest @ ..] => (*group, rest),
        _ => return false,
    };
    let (namespace, rest) = match rest {
        ["namespaces", ns, tail @ ..] if !tail.is_empty() => (*ns, tail),
        _ => return false, // nothing cluster-wide is granted
    };
    let (resource, named) = match rest {
        [plural] => (plural.to_string(), false),
        [plural, _name] => (plural.to_string(), true),
        [plural, _name, sub] => (format!("{plural}/{sub}"), true),
        _ => return false,
    };
    let watch = form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "watch")
        .is_some_and(|(_, v)| matches!(&*v, "1" | "t" | "T" | "true" | "TRUE" | "True"));
    let verb = match (method.as_str(), named) {
        ("GET" | "HEAD", false) if watch => "watch",
        ("GET" | "HEAD", false) => "list",
        ("GET" | "HEAD", true) => "get",
        ("POST", _) => "create",
        ("PUT", _) => "update",
        ("PATCH", _) => "patch",
        ("DELETE", false) => "deletecollection",
        ("DELETE", true) => "delete",
        _ => return false,
    };
    if namespace != "default" {
        return false;
    }
    match (user, group, resource.as_str()) {
        ("reader", "cache.example.com", "memcacheds") => matches!(verb, "get" | "list" | "watch"),
        ("writer", "cache.example.com", "memcacheds/status") => {
            matches!(verb, "get" | "update" | "patch")
        }
        ("writer", "rbac.authorization.k8s.io", "roles") => verb == "create",
        _ => false,
    }
}

/// `%XX` decoded (invalid escapes kept as they are).
fn percent_decode(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(hi), Some(lo)) = (
                bytes.get(i + 1).and_then(|b| hex(*b)),
                bytes.get(i + 2).and_then(|b| hex(*b)),
            )
        {
            out.push((hi * 16 + lo) as u8);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether the request's `timeout` (its first value, as Go's
/// `url.Values.Get` reads it) is there and does not parse as a Go
/// duration: the apiserver's `WithRequestDeadline` filter, which runs
/// before authentication, answers 400 for a request other than a watch.
fn bad_timeout(query: &str) -> bool {
    form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "timeout")
        .is_some_and(|(_, v)| !v.is_empty() && api_core::meta::Duration::parse(&v).is_err())
}

fuzz_target!(|data: &[u8]| {
    let (authorization, rest) = match data.iter().position(|b| *b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let Some(fuzzed) = http::request(rest, &[(header::AUTHORIZATION, authorization)]) else {
        return;
    };
    // The header as sent (an invalid value is left out: no credentials).
    let sent = fuzzed
        .request
        .headers()
        .get(header::AUTHORIZATION)
        .map(|v| v.as_bytes().to_vec());
    let early_400 = !fuzzed.watch && bad_timeout(fuzzed.request.uri().query().unwrap_or_default());
    let method = fuzzed.request.method().clone();
    let path = fuzzed.request.uri().path().to_string();
    let query = fuzzed.request.uri().query().unwrap_or_default().to_string();
    let fixture = &*FIXTURE;
    let Some(code) = fixture
        .runtime
        .block_on(http::send(&fixture.router, fuzzed))
    else {
        return;
    };
    match sent.as_deref().and_then(who) {
        None if early_400 => assert_eq!(
            code,
            StatusCode::BAD_REQUEST,
            "{method} {path}?{query} without a known token, with a timeout that does not parse"
        ),
        None => assert_eq!(
            code,
            StatusCode::UNAUTHORIZED,
            "{method} {path} without a known token"
        ),
        Some(user) => {
            if code.is_success() {
                assert!(
                    allowed(user, &method, &path, &query),
                    "{user} got {code} for {method} {path}?{query}, which the grants do not allow"
                );
            }
        }
    }
});
