//! The apiserver's 403 for a denied request: k8s.io/apiserver
//! `pkg/endpoints/handlers/responsewriters/errors.go` (`Forbidden`,
//! `forbiddenMessage`) wrapped in apimachinery's `NewForbidden`.

use api_core::{GroupResource, Status};

use super::Attributes;

/// `forbiddenMessage`:
///
/// - non-resource: `User "bob" cannot get path "/healthz"`;
/// - namespaced: `User "bob" cannot update resource "widgets/status" in API
///   group "example.com" in the namespace "demo"`;
/// - otherwise: `... in API group "" at the cluster scope`.
pub fn forbidden_message(attrs: &Attributes) -> String {
    let user = go_quote(&attrs.user.name);
    if !attrs.resource_request {
        return format!(
            "User {user} cannot {} path {}",
            attrs.verb,
            go_quote(&attrs.path)
        );
    }
    let resource = if attrs.subresource.is_empty() {
        attrs.resource.clone()
    } else {
        format!("{}/{}", attrs.resource, attrs.subresource)
    };
    let scope = if attrs.namespace.is_empty() {
        "at the cluster scope".to_string()
    } else {
        format!("in the namespace {}", go_quote(&attrs.namespace))
    };
    format!(
        "User {user} cannot {} resource {} in API group {} {scope}",
        attrs.verb,
        go_quote(&resource),
        go_quote(&attrs.api_group)
    )
}

/// `Forbidden`'s Status: the message with `&`, `<` and `>` escaped as HTML
/// entities, followed by `: <reason>` when `reason` is not empty, as the
/// error of `NewForbidden` for the request's group and resource and name:
/// `widgets.example.com "w" is forbidden: User "bob" cannot ...`, or
/// `forbidden: User "bob" cannot get path "/x"` for non-resource requests.
/// Pass the [`super::Decision`]'s reason.
pub fn forbidden_status(attrs: &Attributes, reason: &str) -> Status {
    let message = sanitize(&forbidden_message(attrs));
    let error = if reason.is_empty() {
        message
    } else {
        format!("{message}: {reason}")
    };
    Status::forbidden(
        GroupResource::new(attrs.api_group.as_str(), attrs.resource.as_str()),
        attrs.name.as_str(),
        error,
    )
}

/// `strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")`.
fn sanitize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

pub(crate) use api_core::validation::go_quote;
