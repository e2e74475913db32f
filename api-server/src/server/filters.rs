//! The filters every request passes before its handler, each a tower
//! layer, chained in [`chain`] in the order of the apiserver's
//! `DefaultBuildHandlerChain`:
//!
//! 1. [`request_info`]: the request parsed once (`WithRequestInfo`,
//!    `WithRequestReceivedTimestamp`) into a [`RequestInfo`] every later
//!    filter and the handler read from the request's extensions (and
//!    where [`authentication`] puts the user);
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
//! then the handler ([`super::dispatch`]). Each is a [`Filter`] (a tower
//! [`Layer`]) with its [`Step`]; its `call` does what it can at once (an
//! answer, or the request passed on unchanged: no allocation) and boxes
//! a future only when it has work around the rest of the chain (a
//! deadline, a log line after the response, a watch slot, an RBAC
//! lookup). A new filter is one more function here, a `Step` for it, a
//! match arm in `call`, and one line in [`chain`] at its place in that
//! order.

use std::convert::Infallible;
use std::task::{Context, Poll};

use futures_util::future::{BoxFuture, Either};
use tower::{Layer, Service};

use super::*;
use crate::request_info::{RequestInfo, ResourceInfo};

/// The handler wrapped in the filters, in the apiserver's order (the
/// outermost first, the reverse of how `DefaultBuildHandlerChain` lists
/// them), as the router's one service.
pub(super) fn chain(inner: &Arc<Inner>) -> axum::Router {
    let filter = |step| Filter {
        step,
        inner: inner.clone(),
    };
    // One concrete stack (tower's `ServiceBuilder`: outermost first) over
    // the handler as a plain service (BENCHMARKS.md §15 for what axum's
    // `from_fn` layers cost instead).
    let stack = tower::ServiceBuilder::new()
        .layer(filter(Step::RequestInfo))
        .layer(filter(Step::HttpLog))
        .layer(filter(Step::Audit))
        .layer(filter(Step::Pretty))
        .layer(filter(Step::RequestDeadline))
        .layer(filter(Step::Authentication))
        .layer(filter(Step::MaxInFlight))
        .layer(filter(Step::Authorization))
        .service(Handler(inner.clone()));
    axum::Router::new().fallback_service(stack)
}

/// The filters, one per step of the chain.
#[derive(Clone, Copy, Debug)]
enum Step {
    RequestInfo,
    HttpLog,
    Audit,
    Pretty,
    RequestDeadline,
    Authentication,
    MaxInFlight,
    Authorization,
}

/// One filter as a tower [`Layer`] (and, wrapped around the rest of the
/// chain, a [`Service`]).
#[derive(Clone)]
struct Filter {
    step: Step,
    inner: Arc<Inner>,
}

/// A filter around the rest of the chain, `next`.
#[derive(Clone)]
struct Filtered<S> {
    filter: Filter,
    next: S,
}

impl<S> Layer<S> for Filter {
    type Service = Filtered<S>;

    fn layer(&self, next: S) -> Filtered<S> {
        Filtered {
            filter: self.clone(),
            next,
        }
    }
}

/// The rest of the chain, as a filter calls it.
trait Chain:
    Service<Request, Response = Response, Error = Infallible, Future: Send> + Send + 'static
{
}

impl<S> Chain for S where
    S: Service<Request, Response = Response, Error = Infallible, Future: Send> + Send + 'static
{
}

/// The rest of the chain, held by a filter that works around it (after
/// the response, or while it runs).
struct Next<S>(S);

impl<S: Chain> Next<S> {
    /// The response of the rest of the chain.
    async fn run(mut self, request: Request) -> Response {
        match self.0.call(request).await {
            Ok(response) => response,
        }
    }
}

/// What a filter's `call` returns: the rest of the chain's own future
/// when the filter had nothing to do after it (no allocation), else the
/// filter's boxed future.
type FilterFuture<F> = Either<BoxFuture<'static, Result<Response, Infallible>>, F>;

impl<S: Chain + Clone> Filtered<S> {
    /// The request goes on down the chain; the filter is done with it.
    fn pass(&mut self, request: Request) -> FilterFuture<S::Future> {
        Either::Right(self.next.call(request))
    }

    /// The filter answers without the rest of the chain.
    fn answer(status: Status) -> FilterFuture<S::Future> {
        let response = status_response(status);
        Either::Left(Box::pin(async move { Ok(response) }))
    }

    /// The filter works around the rest of the chain: `around` gets the
    /// shared state, the request and the rest of the chain to run.
    fn around<F>(
        &mut self,
        request: Request,
        around: impl FnOnce(Arc<Inner>, Request, Next<S>) -> F,
    ) -> FilterFuture<S::Future>
    where
        F: Future<Output = Response> + Send + 'static,
    {
        // The service polled ready is the one to call (tower's rule); a
        // clone takes its place here.
        let clone = self.next.clone();
        let next = Next(std::mem::replace(&mut self.next, clone));
        let future = around(self.filter.inner.clone(), request, next);
        Either::Left(Box::pin(async move { Ok(future.await) }))
    }
}

impl<S: Chain + Clone> Service<Request> for Filtered<S> {
    type Response = Response;
    type Error = Infallible;
    type Future = FilterFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.next.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        let inner = self.filter.inner.as_ref();
        match self.filter.step {
            Step::RequestInfo => {
                request_info(&mut request);
                if request.method() == Method::HEAD {
                    self.around(request, |_, r, next| without_body(r, next))
                } else {
                    self.pass(request)
                }
            }
            Step::HttpLog if http_logged() => self.around(request, |_, r, next| http_log(r, next)),
            Step::Audit if inner.audit.is_some() => self.around(request, audit),
            Step::Pretty if wants_pretty(&info(&request)) => {
                self.around(request, |_, r, next| pretty(r, next))
            }
            Step::RequestDeadline => match request_deadline(inner, &info(&request)) {
                Err(status) => Self::answer(status),
                Ok(None) => self.pass(request),
                Ok(Some(deadline)) => {
                    self.around(request, move |_, r, next| bounded(deadline, r, next))
                }
            },
            Step::Authentication => match authentication(inner, &request) {
                Err(status) => Self::answer(status),
                Ok(()) => self.pass(request),
            },
            Step::MaxInFlight => match max_in_flight(inner, &info(&request)) {
                Err(status) => Self::answer(status),
                Ok(None) => self.pass(request),
                Ok(Some(slot)) => self.around(request, |_, r, next| async move {
                    holding(next.run(r).await, slot)
                }),
            },
            Step::Authorization => match authorization(inner, &request) {
                Err(status) => Self::answer(status),
                Ok(None) => self.pass(request),
                Ok(Some(attributes)) => self.around(request, |inner, r, next| async move {
                    match rbac_allows(&inner, &attributes).await {
                        Ok(()) => next.run(r).await,
                        Err(status) => status_response(status),
                    }
                }),
            },
            Step::HttpLog | Step::Audit | Step::Pretty => self.pass(request),
        }
    }
}

/// The handler at the end of the chain, as a service.
#[derive(Clone)]
struct Handler(Arc<Inner>);

impl Service<Request> for Handler {
    type Response = Response;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let inner = self.0.clone();
        Box::pin(async move { Ok(dispatch(State(inner), request).await) })
    }
}

/// The request's [`RequestInfo`], as [`request_info`] set it.
fn info(request: &Request) -> Arc<RequestInfo> {
    request
        .extensions()
        .get::<Arc<RequestInfo>>()
        .cloned()
        .unwrap_or_else(|| Arc::new(RequestInfo::new(request)))
}

/// Parses the request once (`WithRequestInfo`).
fn request_info(request: &mut Request) {
    let info = Arc::new(RequestInfo::new(request));
    request.extensions_mut().insert(info);
}

/// The answer to a HEAD without its body, as Go's `net/http` writes it
/// (and HTTP wants): the `Content-Length` the body would have had is
/// kept. Hyper drops the body on the wire too, but the router is also
/// called as a tower service (the test environment, the fuzz targets),
/// where nothing else does.
async fn without_body(request: Request, next: Next<impl Chain>) -> Response {
    let mut response = next.run(request).await;
    if let Some(length) = axum::body::HttpBody::size_hint(response.body()).exact()
        && !response.headers().contains_key(header::CONTENT_LENGTH)
    {
        response
            .headers_mut()
            .insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    }
    *response.body_mut() = Body::empty();
    response
}

/// Whether the httplog's lines go anywhere (a subscriber takes them).
fn http_logged() -> bool {
    tracing::enabled!(target: "api_server::httplog", tracing::Level::INFO)
}

/// One line per request, as the apiserver's httplog: verb, URI, user,
/// code, latency, user agent, source.
async fn http_log(request: Request, next: Next<impl Chain>) -> Response {
    let info = info(&request);
    let response = next.run(request).await;
    tracing::info!(
        target: "api_server::httplog",
        verb = info.verb,
        uri = %info.uri,
        user = info.user().map(|u| u.name.as_str()).unwrap_or_default(),
        code = response.status().as_u16(),
        latency = ?info.started.elapsed(),
        user_agent = %info.user_agent,
        src = %info.peer.addr.map(|a| a.ip().to_string()).unwrap_or_default(),
        "HTTP"
    );
    response
}

/// One `audit.k8s.io/v1` event per request (the filter runs when an
/// audit log is set); a watch's when its response starts.
async fn audit(inner: Arc<Inner>, request: Request, next: Next<impl Chain>) -> Response {
    let info = info(&request);
    let response = next.run(request).await;
    if let Some(log) = &inner.audit {
        log.record(&AuditRecord {
            received: info.received,
            user: info.user(),
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
    }
    response
}

/// Whether the client asks for `pretty` output (or is curl, Wget or a
/// browser: the apiserver's `isPrettyPrint`); never a watch.
fn wants_pretty(info: &RequestInfo) -> bool {
    !info.is_watch() && pretty_print(&info.query, &info.user_agent)
}

/// A JSON answer indented (the filter runs when [`wants_pretty`]).
async fn pretty(request: Request, next: Next<impl Chain>) -> Response {
    indented(next.run(request).await).await
}

/// The deadline of a request other than a watch: the server's request
/// timeout, or the shorter `timeout` it asks for (400 for one that does
/// not parse); `None` for a watch.
fn request_deadline(inner: &Inner, info: &RequestInfo) -> Result<Option<Duration>, Status> {
    if info.is_watch() {
        return Ok(None);
    }
    let timeout = info.query.get("timeout").map(String::as_str);
    crate::limits::request_deadline(timeout, inner.request_timeout).map(Some)
}

/// The rest of the chain bounded by `deadline` (504 when it passes).
async fn bounded(deadline: Duration, request: Request, next: Next<impl Chain>) -> Response {
    match tokio::time::timeout(deadline, next.run(request)).await {
        Ok(response) => response,
        Err(_) => status_response(deadline_exceeded()),
    }
}

/// The request's user (client certificate, bearer token, or anonymous),
/// or 401. Without an authenticator every request is `system:unsecured`
/// in `system:masters`. The user goes into the request's
/// [`RequestInfo`], where the filters before this one find it too.
fn authentication(inner: &Inner, request: &Request) -> Result<(), Status> {
    let user = match &inner.authenticator {
        None => User::new(UNSECURED, &[SYSTEM_MASTERS, ALL_AUTHENTICATED]),
        Some(authenticator) => {
            let certificate = request
                .extensions()
                .get::<Peer>()
                .and_then(|p| p.certificate.as_ref());
            authenticator.authenticate(request.headers(), certificate)?
        }
    };
    if info(request).authenticated(user) {
        Ok(())
    } else {
        Err(Status::internal_error("a request authenticated twice"))
    }
}

/// A watch holds one of the server's watch slots as long as its stream
/// lasts (429 when the user's or the server's are all taken); `None` for
/// other requests.
fn max_in_flight(inner: &Inner, info: &RequestInfo) -> Result<Option<WatchSlot>, Status> {
    if !info.is_watch() {
        return Ok(None);
    }
    let name = info.user().map_or("", |u| u.name.as_str());
    inner.watches.acquire(name).map(Some)
}

/// What the user may do: anonymous requests only reach health, version
/// and discovery (403 otherwise); without RBAC everything else; with it,
/// what every authenticated user may do by the apiserver's bootstrap
/// roles (`system:discovery`, `system:public-info-viewer`,
/// `system:basic-user`: discovery, health, version, OpenAPI, and reviews
/// of their own access), and otherwise what the stored RBAC objects
/// grant: `Some` with the attributes for [`rbac_allows`] to decide.
fn authorization(inner: &Inner, request: &Request) -> Result<Option<Attributes>, Status> {
    let info = info(request);
    let Some(user) = info.user() else {
        return Err(Status::internal_error("a request without a user"));
    };
    let parts = info.parts();
    if user.is_anonymous() && !anonymous_may(request.method(), &parts) {
        return Err(forbidden_path(user, info.verb, &info.path));
    }
    if inner.rbac.is_none() || user.is_anonymous() || user.is_master() {
        return Ok(None);
    }
    Ok(match (parts.as_slice(), &info.resource) {
        (
            [
                "apis",
                "authentication.k8s.io" | "authorization.k8s.io",
                "v1",
                "selfsubjectreviews" | "selfsubjectaccessreviews" | "selfsubjectrulesreviews",
            ],
            _,
        ) => None,
        (_, Some(resource)) => Some(resource_attributes(user, info.verb, resource)),
        (["healthz" | "livez" | "readyz" | "version"] | ["api" | "apis" | "openapi", ..], None) => {
            None
        }
        _ => Some(Attributes::non_resource(
            user.clone(),
            info.verb,
            &info.path,
        )),
    })
}

/// What the stored RBAC objects decide (403 when they do not grant it).
async fn rbac_allows(inner: &Inner, attributes: &Attributes) -> Result<(), Status> {
    let Some(rbac) = &inner.rbac else {
        return Ok(());
    };
    let decision = rbac.authorizer().await?.authorize(attributes);
    if decision.allowed {
        Ok(())
    } else {
        Err(forbidden_status(attributes, &decision.reason))
    }
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
