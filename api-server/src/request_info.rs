//! What a request is, parsed once as it arrives (the apiserver's
//! `RequestInfoFactory`, run by its `WithRequestInfo` filter) and handed to
//! every filter and handler after it in the request's extensions: the
//! verb, whether it names a resource and which (group, version,
//! namespace, resource, name, subresource), the query, who sent it from
//! where, and when it was received.

use std::fmt;
use std::ops::Deref;
use std::sync::OnceLock;
use std::time::Instant;

use api_core::meta::MicroTime;
use axum::body::Bytes;
use axum::http::{Method, Request, header};
use smallvec::SmallVec;

use crate::authn::User;
use crate::listen::Peer;
use crate::params::Query;

/// One request, parsed.
#[derive(Debug)]
pub(crate) struct RequestInfo {
    /// The path, as sent.
    pub(crate) path: PathText,
    /// The path and query, for logs.
    pub(crate) uri: String,
    /// The decoded query.
    pub(crate) query: Query,
    /// The Kubernetes verb (`get`, `list`, `watch`, `create`, `update`,
    /// `patch`, `delete`, `deletecollection`), or the lower-case HTTP
    /// method of a request that names no resource.
    pub(crate) verb: &'static str,
    /// What a resource request names; `None` for the others (discovery,
    /// health, OpenAPI, ...).
    pub(crate) resource: Option<ResourceInfo>,
    /// The client's `User-Agent`.
    pub(crate) user_agent: String,
    /// The connection's remote address and certificate user.
    pub(crate) peer: Peer,
    /// When the request arrived (`WithRequestReceivedTimestamp`).
    pub(crate) received: MicroTime,
    /// The same instant, for latencies.
    pub(crate) started: Instant,
    /// Who sent it, once the authentication filter knows (the filters
    /// before it, the log and the audit, read it after the response).
    user: OnceLock<User>,
}

/// What a resource request's path names (each a piece of the path's
/// one buffer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ResourceInfo {
    /// The API group (`""` for the core group, `/api/v1`).
    pub(crate) group: PathText,
    /// The API version.
    pub(crate) version: PathText,
    /// The namespace of `/namespaces/{ns}/...` paths (a namespace's own
    /// path included), `""` otherwise.
    pub(crate) namespace: PathText,
    /// The resource (plural).
    pub(crate) resource: PathText,
    /// The object's name, for requests of one object.
    pub(crate) name: Option<PathText>,
    /// The subresource (`status`, `scale`).
    pub(crate) subresource: Option<PathText>,
}

/// Text of a request's path: the path is copied once, and its segments
/// share that buffer (a `RequestInfo` costs one allocation for them, not
/// one per segment).
#[derive(Clone, Default, PartialEq, Eq)]
pub(crate) struct PathText(Bytes);

impl PathText {
    /// The text.
    pub(crate) fn as_str(&self) -> &str {
        // Made from a `&str` and cut only at `/` (ASCII): always UTF-8.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// `part` (a slice of this text) as a `PathText` sharing its buffer;
    /// a literal (`""`, `"v1"`) is copied.
    fn piece(&self, part: &str) -> PathText {
        let within = self.0.as_ptr_range();
        let range = part.as_bytes().as_ptr_range();
        if within.start <= range.start && range.end <= within.end && !part.is_empty() {
            PathText(self.0.slice_ref(part.as_bytes()))
        } else {
            PathText::from(part)
        }
    }
}

impl From<&str> for PathText {
    fn from(text: &str) -> Self {
        PathText(Bytes::copy_from_slice(text.as_bytes()))
    }
}

impl Deref for PathText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl serde::Serialize for PathText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl fmt::Debug for PathText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for PathText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A path's segments; no allocation for the eight of the longest
/// resource path (`apis/{g}/{v}/namespaces/{ns}/{r}/{name}/{sub}`).
pub(crate) type Segments<'a> = SmallVec<[&'a str; 8]>;

impl RequestInfo {
    /// Parses a request's head.
    pub(crate) fn new<B>(request: &Request<B>) -> Self {
        let path = PathText::from(request.uri().path());
        // A repeated key keeps its first value, as Go's `url.Values.Get`
        // and the parameter codec's conversions (`(*in)[0]`) read it.
        let mut query = Query::new();
        for (key, value) in
            form_urlencoded::parse(request.uri().query().unwrap_or_default().as_bytes())
        {
            query
                .entry(key.into_owned())
                .or_insert_with(|| value.into_owned());
        }
        let resource = resource_in(&path, &segments(&path));
        let verb = request_verb(request.method(), resource.as_ref(), &query);
        let uri = request
            .uri()
            .path_and_query()
            .map_or_else(|| path.to_string(), |p| p.as_str().to_string());
        RequestInfo {
            path,
            uri,
            query,
            verb,
            resource,
            user_agent: request
                .headers()
                .get(header::USER_AGENT)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string(),
            peer: request
                .extensions()
                .get::<Peer>()
                .cloned()
                .unwrap_or_default(),
            received: MicroTime::now(),
            started: Instant::now(),
            user: OnceLock::new(),
        }
    }

    /// The authenticated user, once authentication has run.
    pub(crate) fn user(&self) -> Option<&User> {
        self.user.get()
    }

    /// Sets the authenticated user; `false` when one was set already.
    pub(crate) fn authenticated(&self, user: User) -> bool {
        self.user.set(user).is_ok()
    }

    /// The path's segments.
    pub(crate) fn parts(&self) -> Segments<'_> {
        segments(&self.path)
    }

    /// Whether this is a watch (the apiserver's one long-running kind of
    /// request here: no deadline, a watch slot instead).
    pub(crate) fn is_watch(&self) -> bool {
        self.verb == "watch"
    }
}

/// A path's segments (`/apis/g/v` is `["apis", "g", "v"]`).
pub(crate) fn segments(path: &str) -> Segments<'_> {
    // A one-char array, not `'/'`: for a few short segments its plain
    // loop beats the `memchr` search of a `char` pattern.
    path.trim_matches('/').split(['/']).collect()
}

/// [`resource_in`] of any segments (each copied), for tests.
#[cfg(test)]
pub(crate) fn resource_info(segments: &[&str]) -> Option<ResourceInfo> {
    resource_in(&PathText::default(), segments)
}

/// What a resource path names, or `None` when it names none:
/// `/apis/{group}/{version}/...` and `/api/v1/...` followed by
/// `[namespaces/{ns}/]{resource}[/{name}[/{subresource}]]`. The pieces
/// are `path`'s own when the segments are slices of it.
fn resource_in(path: &PathText, segments: &[&str]) -> Option<ResourceInfo> {
    let (group, version, rest) = match segments {
        ["apis", group, version, rest @ ..] => (*group, *version, rest),
        ["api", "v1", rest @ ..] => ("", "v1", rest),
        _ => return None,
    };
    // `namespaces/{ns}/...` is in a namespace, unless what follows is a
    // namespace's own subresource; a namespace itself is "in" itself, as
    // RBAC and the audit log see it.
    let (namespace, rest) = match rest {
        ["namespaces", ns, tail @ ..]
            if !tail.is_empty() && !matches!(tail[0], "status" | "finalize") =>
        {
            (*ns, tail)
        }
        ["namespaces", ns, ..] => (*ns, rest),
        _ => ("", rest),
    };
    let (resource, name, subresource) = match rest {
        [resource] => (*resource, None, None),
        [resource, name] => (*resource, Some(*name), None),
        [resource, name, sub] => (*resource, Some(*name), Some(*sub)),
        _ => return None,
    };
    Some(ResourceInfo {
        group: path.piece(group),
        version: path.piece(version),
        namespace: path.piece(namespace),
        resource: path.piece(resource),
        name: name.map(|n| path.piece(n)),
        subresource: subresource.map(|s| path.piece(s)),
    })
}

/// The Kubernetes verb of a request, as `RequestInfoFactory` names it:
/// from the method and whether the path names one object (and `watch` in
/// the query); the lower-case HTTP method for a non-resource path.
fn request_verb(method: &Method, resource: Option<&ResourceInfo>, query: &Query) -> &'static str {
    let Some(resource) = resource else {
        return match *method {
            Method::GET => "get",
            Method::HEAD => "head",
            Method::POST => "post",
            Method::PUT => "put",
            Method::PATCH => "patch",
            Method::DELETE => "delete",
            _ => "",
        };
    };
    let watch = query
        .get("watch")
        .and_then(|w| crate::params::parse_bool(w))
        == Some(true);
    match (method.as_str(), resource.name.is_some()) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn info(method: Method, uri: &str) -> RequestInfo {
        RequestInfo::new(&Request::builder().method(method).uri(uri).body(()).unwrap())
    }

    // Cases after k8s.io/apiserver's `TestGetAPIRequestInfo`
    // (pkg/endpoints/request/requestinfo_test.go), for the paths this
    // server serves (no `/watch/` prefix, no `/proxy`).
    #[test]
    fn resource_requests() {
        #[rustfmt::skip]
        let cases = [
            (Method::GET, "/api/v1/namespaces", "list", "", "", "namespaces", None, None),
            (Method::GET, "/api/v1/namespaces/other", "get", "", "other", "namespaces", Some("other"), None),
            (Method::PUT, "/api/v1/namespaces/other/status", "update", "", "other", "namespaces", Some("other"), Some("status")),
            (Method::PUT, "/api/v1/namespaces/other/finalize", "update", "", "other", "namespaces", Some("other"), Some("finalize")),
            (Method::GET, "/api/v1/namespaces/other/pods/foo", "get", "", "other", "pods", Some("foo"), None),
            (Method::GET, "/api/v1/namespaces/other/pods?watch=true", "watch", "", "other", "pods", None, None),
            (Method::GET, "/api/v1/namespaces/other/pods?watch=1", "watch", "", "other", "pods", None, None),
            (Method::GET, "/api/v1/namespaces/other/pods?watch=false", "list", "", "other", "pods", None, None),
            (Method::HEAD, "/api/v1/namespaces/other/pods/foo", "get", "", "other", "pods", Some("foo"), None),
            (Method::POST, "/apis/extensions/v1/namespaces/other/pods", "create", "extensions", "other", "pods", None, None),
            (Method::PUT, "/api/v1/namespaces/other/pods/foo/status", "update", "", "other", "pods", Some("foo"), Some("status")),
            (Method::PATCH, "/apis/g/v1/namespaces/other/ws/foo/scale", "patch", "g", "other", "ws", Some("foo"), Some("scale")),
            (Method::DELETE, "/api/v1/namespaces/other/pods/foo", "delete", "", "other", "pods", Some("foo"), None),
            (Method::DELETE, "/api/v1/namespaces/other/pods", "deletecollection", "", "other", "pods", None, None),
            (Method::GET, "/apis/g/v1/ws", "list", "g", "", "ws", None, None),
        ];
        for (method, uri, verb, group, namespace, resource, name, sub) in cases {
            let info = info(method, uri);
            assert_eq!(info.verb, verb, "{uri}");
            let r = info.resource.expect(uri);
            assert_eq!(
                (r.group.as_str(), r.namespace.as_str(), r.resource.as_str()),
                (group, namespace, resource),
                "{uri}"
            );
            assert_eq!(r.name.as_deref(), name, "{uri}");
            assert_eq!(r.subresource.as_deref(), sub, "{uri}");
        }
    }

    #[test]
    fn non_resource_requests() {
        for (method, uri, verb) in [
            (Method::GET, "/healthz", "get"),
            (Method::GET, "/api", "get"),
            (Method::GET, "/apis/g/v1", "get"),
            (Method::POST, "/logs", "post"),
            (Method::GET, "/api/v1/a/b/c/d", "get"),
        ] {
            let info = info(method, uri);
            assert!(info.resource.is_none(), "{uri}");
            assert_eq!(info.verb, verb, "{uri}");
        }
        let info = info(Method::GET, "/apis/g/v1/ws?limit=1&x=%2F");
        assert_eq!(info.uri, "/apis/g/v1/ws?limit=1&x=%2F");
        assert_eq!(info.query.get("x").map(String::as_str), Some("/"));
        assert_eq!(info.parts().as_slice(), ["apis", "g", "v1", "ws"]);
    }

    /// A repeated key keeps its first value, as Go's `url.Values.Get`
    /// and the parameter codec (`(*in)[0]`) read it: `watch=1&watch=0`
    /// is a watch.
    #[test]
    fn a_repeated_parameter_keeps_its_first_value() {
        let first = info(Method::GET, "/apis/g/v1/ws?watch=1&watch=0&limit=5&limit=7");
        assert_eq!(first.verb, "watch");
        assert_eq!(first.query.get("limit").map(String::as_str), Some("5"));
        assert_eq!(
            info(Method::GET, "/apis/g/v1/ws?watch=0&watch=1").verb,
            "list"
        );
    }
}
