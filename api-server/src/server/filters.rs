//! The filters every request passes before its handler, in the
//! apiserver's order (`DefaultBuildHandlerChain`): authentication,
//! anonymous access, authorization (RBAC), the watch limit and the request
//! deadline, then the handler; the answer pretty-printed when asked, the
//! request audited and logged (httplog).

use super::*;

/// Every request: dispatched, logged as the apiserver's httplog does
/// (one line: verb, URI, user, code, latency, user agent), and indented
/// when the client asks for `pretty` output.
pub(super) async fn handle(State(inner): State<Arc<Inner>>, request: Request) -> Response {
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
