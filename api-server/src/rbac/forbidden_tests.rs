//! Translated from k8s.io/apiserver
//! `pkg/endpoints/handlers/responsewriters/errors_test.go` (`TestForbidden`:
//! messages, sanitising, details) and the issue's examples.

use api_core::StatusReason;

use crate::rbac::{Attributes, UserInfo, forbidden_message, forbidden_status};

fn name() -> UserInfo {
    UserInfo::new("NAME", &[])
}

/// `TestForbidden`'s five cases: message and details.
#[test]
fn forbidden_table() {
    let cases = [
        (
            Attributes::non_resource(name(), "GET", "/whatever"),
            r#"forbidden: User "NAME" cannot GET path "/whatever""#,
        ),
        (
            Attributes::non_resource(name(), "GET", "/<script>"),
            r#"forbidden: User "NAME" cannot GET path "/&lt;script&gt;""#,
        ),
        (
            Attributes::resource(name(), "get", "", "pod"),
            r#"pod is forbidden: User "NAME" cannot get resource "pod" in API group "" at the cluster scope"#,
        ),
        (
            Attributes::resource(name(), "get", "", "pod").with_name("mypod"),
            r#"pod "mypod" is forbidden: User "NAME" cannot get resource "pod" in API group "" at the cluster scope"#,
        ),
        (
            Attributes::resource(name(), "get", "v2", "pod")
                .in_namespace("test")
                .with_subresource("quota"),
            r#"pod.v2 is forbidden: User "NAME" cannot get resource "pod/quota" in API group "v2" in the namespace "test""#,
        ),
    ];
    for (attrs, message) in cases {
        let status = forbidden_status(&attrs, "");
        assert_eq!(status.message, message);
        assert_eq!(status.code(), 403);
        assert_eq!(*status.reason(), StatusReason::Forbidden);
    }
    let status = forbidden_status(
        &Attributes::resource(name(), "get", "v2", "pod").with_name("p"),
        "",
    );
    let details = status.details.expect("details");
    assert_eq!(
        (
            details.group.as_str(),
            details.kind.as_str(),
            details.name.as_str()
        ),
        ("v2", "pod", "p")
    );
}

/// The issue's example, and the reason suffix (`%s: %s`, unquoted).
#[test]
fn issue_example_and_reason() {
    let bob = UserInfo::new("bob", &["system:authenticated"]);
    let attrs = Attributes::resource(bob.clone(), "update", "example.com", "widgets")
        .with_subresource("status")
        .in_namespace("demo")
        .with_name("w");
    assert_eq!(
        forbidden_message(&attrs),
        r#"User "bob" cannot update resource "widgets/status" in API group "example.com" in the namespace "demo""#
    );
    assert_eq!(
        forbidden_status(&attrs, "").message,
        r#"widgets.example.com "w" is forbidden: User "bob" cannot update resource "widgets/status" in API group "example.com" in the namespace "demo""#
    );
    let reason = r#"RBAC: role.rbac.authorization.k8s.io "r" not found"#;
    assert_eq!(
        forbidden_status(&attrs, reason).message,
        format!("{}: {reason}", forbidden_status(&attrs, "").message)
    );
    let list = Attributes::resource(bob.clone(), "list", "example.com", "widgets");
    assert_eq!(
        forbidden_message(&list),
        r#"User "bob" cannot list resource "widgets" in API group "example.com" at the cluster scope"#
    );
    assert_eq!(
        forbidden_message(&Attributes::non_resource(bob, "get", "/healthz")),
        r#"User "bob" cannot get path "/healthz""#
    );
}

/// Names are Go-quoted: quotes and control characters escaped.
#[test]
fn quoting() {
    let odd = UserInfo::new("a\"b\n", &[]);
    assert_eq!(
        forbidden_message(&Attributes::non_resource(odd, "get", "/\u{7f}")),
        r#"User "a\"b\n" cannot get path "/\x7f""#
    );
}
