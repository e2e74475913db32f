//! `SelfSubjectAccessReview` and `SelfSubjectRulesReview`
//! (`pkg/registry/authorization/selfsubject{access,rules}review/rest.go`,
//! `pkg/apis/authorization/validation/validation.go`).

use serde_json::json;

use crate::rbac::review::{SelfSubjectAccessReview, SelfSubjectRulesReview};
use crate::rbac::{Authorizer, ClusterRole, ClusterRoleBinding, PolicyRule, Subject, UserInfo};

fn authz() -> Authorizer {
    Authorizer::new(
        vec![],
        vec![],
        vec![ClusterRole::new(
            "reader",
            vec![
                PolicyRule::resource(&["get", "list"], &["example.com"], &["widgets"]),
                PolicyRule::non_resource(&["get"], &["/healthz"]),
            ],
        )],
        vec![ClusterRoleBinding::new(
            "r",
            "reader",
            vec![Subject::user("bob")],
        )],
    )
}

fn ssar(spec: serde_json::Value) -> SelfSubjectAccessReview {
    serde_json::from_value(json!({"apiVersion": "authorization.k8s.io/v1",
        "kind": "SelfSubjectAccessReview", "spec": spec}))
    .expect("a review")
}

/// `kubectl auth can-i list widgets.example.com` / `create` / `get /healthz`.
#[test]
fn access_review_answers() {
    let bob = UserInfo::new("bob", &[]);
    let ask = |spec| {
        let answer = authz()
            .self_subject_access_review(&bob, ssar(spec))
            .expect("valid");
        answer.status.expect("status")
    };
    let yes = ask(
        json!({"resourceAttributes": {"namespace": "demo", "verb": "list",
        "group": "example.com", "resource": "widgets"}}),
    );
    assert!(yes.allowed);
    assert_eq!(
        yes.reason,
        r#"RBAC: allowed by ClusterRoleBinding "r" of ClusterRole "reader" to User "bob""#
    );
    let no = ask(
        json!({"resourceAttributes": {"verb": "create", "group": "example.com",
        "resource": "widgets"}}),
    );
    assert!(!no.allowed && !no.denied);
    assert!(ask(json!({"nonResourceAttributes": {"path": "/healthz", "verb": "get"}})).allowed);
    let body = serde_json::to_value(
        authz()
            .self_subject_access_review(
                &bob,
                ssar(json!({"nonResourceAttributes": {"path": "/x", "verb": "get"}})),
            )
            .unwrap(),
    )
    .unwrap();
    assert_eq!(body["status"], json!({"allowed": false}));
}

/// Neither or both attributes, or metadata, are 422.
#[test]
fn access_review_validation() {
    let bob = UserInfo::new("bob", &[]);
    let err = authz()
        .self_subject_access_review(&bob, ssar(json!({})))
        .unwrap_err();
    assert_eq!(err.code(), 422);
    assert!(err.message.contains(
        "spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified"
    ), "{}", err.message);
    let both = ssar(json!({"resourceAttributes": {}, "nonResourceAttributes": {}}));
    let err = authz().self_subject_access_review(&bob, both).unwrap_err();
    assert!(
        err.message
            .contains("cannot be specified in combination with resourceAttributes")
    );
    let mut named = ssar(json!({"resourceAttributes": {}}));
    named.metadata.name = "x".into();
    let err = authz().self_subject_access_review(&bob, named).unwrap_err();
    assert!(
        err.message.contains("metadata: Invalid value"),
        "{}",
        err.message
    );
}

/// `kubectl auth can-i --list`: the rules, split; no namespace is 400;
/// masters see `*`; errors are `evaluationError`.
#[test]
fn rules_review() {
    let review = |ns: &str| -> SelfSubjectRulesReview {
        serde_json::from_value(json!({"spec": {"namespace": ns}})).unwrap()
    };
    let bob = UserInfo::new("bob", &[]);
    let answer = authz()
        .self_subject_rules_review(&bob, review("demo"))
        .unwrap();
    let body = serde_json::to_value(&answer).unwrap();
    assert_eq!(
        body["status"],
        json!({
            "resourceRules": [{"verbs": ["get", "list"], "apiGroups": ["example.com"], "resources": ["widgets"]}],
            "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["/healthz"]}],
            "incomplete": false
        })
    );
    assert_eq!(body["kind"], "SelfSubjectRulesReview");
    let err = authz()
        .self_subject_rules_review(&bob, review(""))
        .unwrap_err();
    assert_eq!(
        (err.code(), err.message.as_str()),
        (400, "no namespace on request")
    );
    let root = UserInfo::new("root", &["system:masters"]);
    let status = authz()
        .self_subject_rules_review(&root, review("demo"))
        .unwrap()
        .status
        .unwrap();
    assert_eq!(status.resource_rules[0].resources, vec!["*".to_string()]);
    assert_eq!(
        status.non_resource_rules[0].non_resource_urls,
        vec!["*".to_string()]
    );
    let mut broken = authz();
    broken.cluster_role_bindings.push(ClusterRoleBinding::new(
        "b",
        "gone",
        vec![Subject::user("bob")],
    ));
    let status = broken
        .self_subject_rules_review(&bob, review("demo"))
        .unwrap()
        .status
        .unwrap();
    assert_eq!(
        status.evaluation_error,
        r#"clusterrole.rbac.authorization.k8s.io "gone" not found"#
    );
}
