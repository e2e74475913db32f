//! The filters every request passes before its handler, each a tower
//! layer (axum's `from_fn` middleware), chained in [`chain`] in the order
//! of the apiserver's `DefaultBuildHandlerChain`:
//!
//! 1. [`request_info`]: the request parsed once (`WithRequestInfo`,
//!    `WithRequestReceivedTimestamp`) into a [`RequestInfo`] every later
//!    filter and the handler read from the request's extensions;
//! 2. [`http_log`]: one line per request (`WithHTTPLogging`);
//! 3. [`audit`]: one audit event per request (`WithAuditInit`,
//!    `WithAudit` and `WithFailedAuthenticationAudit` together: it stands
//!    outside the deadline and authentication so that their refusals are
//!    recorded too, with the user when authentication found one);
//! 4. [`pretty`]: JSON indented when asked (the serializer's `pretty`);
//! 5. [`request_deadline`]: the `timeout` parameter checked and the
//!    request bounded (`WithRequestDeadline`,
//!    `WithTimeoutForNonLongRunningRequests`; a watch is long-running);
//! 6. [`authentication`]: the user, or 401 (`WithAuthentication`);
//! 7. [`max_in_flight`]: a watch takes a slot, or 429
//!    (`WithMaxInFlightLimit`, for the long-running requests it bounds);
//! 8. [`authorization`]: anonymous access and RBAC, or 403
//!    (`WithAuthorization`);
//!
//! then the handler ([`super::dispatch`]). A new filter is one more
//! function here and one line in [`chain`] at its place in that order.

use super::*;
use crate::request_info::{Authenticated, RequestInfo, ResourceInfo};
use axum::middleware::{Next, from_fn, from_fn_with_state};

/// The handler wrapped in the filters, in the apiserver's order (the
/// outermost first, the reverse of how `DefaultBuildHandlerChain` lists
/// them).
pub(super) fn chain(inner: &Arc<Inner>) -> axum::Router {
    let state = || inner.clone();
    // One concrete stack (tower's `ServiceBuilder`: outermost first),
    // applied once: one `Router::layer` per filter would box each layer
    // again and clone every layer below it on every request.
    let filters = tower::ServiceBuilder::new()
        .layer(from_fn(request_info))
        .layer(from_fn(http_log))
        .layer(from_fn_with_state(state(), audit))
        .layer(from_fn(pretty))
        .layer(from_fn_with_state(state(), request_deadline))
        .layer(from_fn_with_state(state(), authentication))
        .layer(from_fn_with_state(state(), max_in_flight))
        .layer(from_fn_with_state(state(), authorization));
    axum::Router::new()
        .fallback(dispatch)
        .with_state(inner.clone())
        .layer(filters)
}

/// The request's [`RequestInfo`], as [`request_info`] set it.
fn info(request: &Request) -> Arc<RequestInfo> {
    request
        .extensions()
        .get::<Arc<RequestInfo>>()
        .cloned()
        .unwrap_or_else(|| Arc::new(RequestInfo::new(request)))
}

/// The user [`authentication`] found, from a request or a response.
fn user_of(extensions: &axum::http::Extensions) -> Option<Arc<User>> {
    extensions.get::<Authenticated>().map(|a| a.0.clone())
}

/// Parses the request once (`WithRequestInfo`).
async fn request_info(mut request: Request, next: Next) -> Response {
    let info = Arc::new(RequestInfo::new(&request));
    request.extensions_mut().insert(info);
    next.run(request).await
}

/// One line per request, as the apiserver's httplog: verb, URI, user,
/// code, latency, user agent, source.
async fn http_log(request: Request, next: Next) -> Response {
    let info = info(&request);
    let response = next.run(request).await;
    let user = user_of(response.extensions());
    tracing::info!(
        target: "api_server::httplog",
        verb = info.verb,
        uri = %info.uri,
        user = user.as_ref().map(|u| u.name.as_str()).unwrap_or_default(),
        code = response.status().as_u16(),
        latency = ?info.started.elapsed(),
        user_agent = %info.user_agent,
        src = %info.peer.addr.map(|a| a.ip().to_string()).unwrap_or_default(),
        "HTTP"
    );
    response
}

/// One `audit.k8s.io/v1` event per request when an audit log is set; a
/// watch's when its response starts.
async fn audit(State(inner): State<Arc<Inner>>, request: Request, next: Next) -> Response {
    let Some(log) = &inner.audit else {
        return next.run(request).await;
    };
    let info = info(&request);
    let response = next.run(request).await;
    let user = user_of(response.extensions());
    log.record(&AuditRecord {
        received: info.received,
        user: user.as_deref(),
        verb: info.verb,
        uri: &info.uri,
        resource: info.resource.as_ref(),
        source_ip: info.peer.addr.map(|a| a.ip().to_string()),
        user_agent: &info.user_agent,
        code: response.status().as_u16(),
        started_only: info.is_watch(),
        written_name: response
            .extensions()
            .get::<WrittenName>()
            .map(|n| n.0.as_str()),
    });
    response
}

/// A JSON answer indented when the client asks for `pretty` output (or
/// is curl, Wget or a browser: the apiserver's `isPrettyPrint`); never a
/// watch's.
async fn pretty(request: Request, next: Next) -> Response {
    let info = info(&request);
    let pretty = !info.is_watch() && pretty_print(&info.query, &info.user_agent);
    let response = next.run(request).await;
    if pretty {
        indented(response).await
    } else {
        response
    }
}

/// A request other than a watch is bounded by the server's request
/// timeout, or the shorter `timeout` it asks for (400 for one that does
/// not parse, 504 when it passes).
async fn request_deadline(
    State(inner): State<Arc<Inner>>,
    request: Request,
    next: Next,
) -> Response {
    let info = info(&request);
    if info.is_watch() {
        return next.run(request).await;
    }
    let timeout = info.query.get("timeout").map(String::as_str);
    match crate::limits::request_deadline(timeout, inner.request_timeout) {
        Err(status) => status_response(status),
        Ok(deadline) => match tokio::time::timeout(deadline, next.run(request)).await {
            Ok(response) => response,
            Err(_) => status_response(deadline_exceeded()),
        },
    }
}

/// The request's user (client certificate, bearer token, or anonymous),
/// or 401. Without an authenticator every request is `system:unsecured`
/// in `system:masters`.
async fn authentication(
    State(inner): State<Arc<Inner>>,
    mut request: Request,
    next: Next,
) -> Response {
    let user = match &inner.authenticator {
        None => User::new(UNSECURED, &[SYSTEM_MASTERS, ALL_AUTHENTICATED]),
        Some(authenticator) => {
            let certificate = request
                .extensions()
                .get::<Peer>()
                .and_then(|p| p.certificate.as_ref());
            match authenticator.authenticate(request.headers(), certificate) {
                Ok(user) => user,
                Err(status) => return status_response(status),
            }
        }
    };
    let user = Authenticated(Arc::new(user));
    request.extensions_mut().insert(user.clone());
    let mut response = next.run(request).await;
    response.extensions_mut().insert(user);
    response
}

/// A watch holds one of the server's watch slots as long as its stream
/// lasts (429 when the user's or the server's are all taken).
async fn max_in_flight(State(inner): State<Arc<Inner>>, request: Request, next: Next) -> Response {
    if !info(&request).is_watch() {
        return next.run(request).await;
    }
    let name = user_of(request.extensions()).map_or_else(String::new, |u| u.name.clone());
    match inner.watches.acquire(&name) {
        Ok(slot) => holding(next.run(request).await, slot),
        Err(status) => status_response(status),
    }
}

/// What the user may do: anonymous requests only reach health, version
/// and discovery; with RBAC, the stored roles decide (403 otherwise).
async fn authorization(State(inner): State<Arc<Inner>>, request: Request, next: Next) -> Response {
    let info = info(&request);
    let Some(user) = user_of(request.extensions()) else {
        return status_response(Status::internal_error("a request without a user"));
    };
    let parts = info.parts();
    if user.is_anonymous() && !anonymous_may(request.method(), &parts) {
        return status_response(forbidden_path(&user, info.verb, &info.path));
    }
    if let Err(status) = authorize(&inner, &user, &info, &parts).await {
        return status_response(status);
    }
    next.run(request).await
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
    info: &RequestInfo,
    parts: &[&str],
) -> Result<(), Status> {
    let Some(rbac) = &inner.rbac else {
        return Ok(());
    };
    if user.is_anonymous() || user.is_master() {
        return Ok(());
    }
    let attributes = match (parts, &info.resource) {
        (
            [
                "apis",
                "authentication.k8s.io" | "authorization.k8s.io",
                "v1",
                "selfsubjectreviews" | "selfsubjectaccessreviews" | "selfsubjectrulesreviews",
            ],
            _,
        ) => {
            return Ok(());
        }
        (_, Some(resource)) => resource_attributes(user, info.verb, resource),
        (["healthz" | "livez" | "readyz" | "version"] | ["api" | "apis" | "openapi", ..], None) => {
            return Ok(());
        }
        _ => Attributes::non_resource(user.clone(), info.verb, &info.path),
    };
    let authorizer = rbac.authorizer().await?;
    let decision = authorizer.authorize(&attributes);
    if decision.allowed {
        Ok(())
    } else {
        Err(forbidden_status(&attributes, &decision.reason))
    }
}

/// The authorization attributes of a resource request.
fn resource_attributes(user: &User, verb: &str, r: &ResourceInfo) -> Attributes {
    let mut a = Attributes::resource(user.clone(), verb, &r.group, &r.resource)
        .with_version(&r.version)
        .in_namespace(&r.namespace);
    if let Some(name) = &r.name {
        a = a.with_name(name);
    }
    if let Some(sub) = &r.subresource {
        a = a.with_subresource(sub);
    }
    a
}

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
