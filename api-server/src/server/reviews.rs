//! The endpoints that answer about the requester and the server rather
//! than store anything: `SelfSubjectAccessReview`, `SelfSubjectRulesReview`
//! and `SelfSubjectReview` (authorization.k8s.io, authentication.k8s.io),
//! and `/version`.

use super::*;

/// `SelfSubjectAccessReview` and `SelfSubjectRulesReview`
/// (authorization.k8s.io/v1, `kubectl auth can-i` and `can-i --list`),
/// answered by the RBAC authorizer, or by one that allows everything
/// under `AlwaysAllow`.
pub(super) async fn self_review(
    inner: &Inner,
    user: &User,
    which: &str,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<Value, Status> {
    let authorizer = match &inner.rbac {
        Some(rbac) => rbac.authorizer().await?,
        None => Arc::new(allow_all()),
    };
    let json = if is_protobuf(headers) {
        // kubectl sends these built-in kinds as protobuf.
        serde_json::to_vec(&crate::protobuf::self_review(body)?).map_err(Status::internal_error)?
    } else {
        json_body(headers, body)?
    };
    let bad = |e: serde_json::Error| Status::bad_request(format!("the body is not a review: {e}"));
    let review = if which == "selfsubjectaccessreviews" {
        let review = serde_json::from_slice(&json).map_err(bad)?;
        serde_json::to_value(authorizer.self_subject_access_review(user, review)?)
    } else {
        let review = serde_json::from_slice(&json).map_err(bad)?;
        serde_json::to_value(authorizer.self_subject_rules_review(user, review)?)
    };
    review.map_err(Status::internal_error)
}

/// An authorizer that allows every user everything (`AlwaysAllow`).
fn allow_all() -> crate::rbac::Authorizer {
    let role: ClusterRole = serde_json::from_value(json!({
        "metadata": {"name": "always-allow"},
        "rules": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]},
                  {"nonResourceURLs": ["*"], "verbs": ["*"]}]
    }))
    .unwrap_or_default();
    let binding: ClusterRoleBinding = serde_json::from_value(json!({
        "metadata": {"name": "always-allow"},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "always-allow"},
        "subjects": [
            {"kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": ALL_AUTHENTICATED},
            {"kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": "system:unauthenticated"}
        ]
    }))
    .unwrap_or_default();
    crate::rbac::Authorizer::new(Vec::new(), Vec::new(), vec![role], vec![binding])
}

/// `SelfSubjectReview` (authentication.k8s.io/v1, `kubectl auth
/// whoami`): the request's user, as authenticated.
pub(super) fn self_subject_review(user: &User) -> Value {
    let mut info = json!({"username": user.name, "groups": user.groups});
    if !user.uid.is_empty() {
        info["uid"] = json!(user.uid);
    }
    if !user.extra.is_empty() {
        info["extra"] = json!(user.extra);
    }
    json!({
        "kind": "SelfSubjectReview",
        "apiVersion": "authentication.k8s.io/v1",
        "metadata": {"creationTimestamp": null},
        "status": {"userInfo": info}
    })
}

/// `/version`: the Kubernetes version this server's behaviour follows.
pub(super) fn version() -> Value {
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
