//! Cases after k8s.io/kubernetes `pkg/apis/rbac/validation/validation_test.go`
//! (`TestValidateRoleBinding*`, `TestValidateClusterRoleBinding`,
//! `TestValidateRoleNonResourceURL`, `TestValidateRoleNamespacedNonResourceURL`,
//! `TestValidateRoleNoVerbs`, `TestValidateRoleMixedNonResourceAndResource`,
//! `TestValidateRoleValidResource`, `TestValidateRoleNoAPIGroup`,
//! `TestValidateRoleNoResources`, `TestValidateRoleBindingSubjects` style
//! subject cases): which field fails, and how.

use api_core::ErrorType;
use api_core::meta::LabelSelector;

use super::*;
use crate::rbac::AggregationRule;

/// `(field, type)` of every error, for compact assertions.
fn fields(errs: &ErrorList) -> Vec<(String, ErrorType)> {
    errs.iter()
        .map(|e| (e.field.clone(), e.error_type))
        .collect()
}

fn one(errs: ErrorList, field: &str, ty: ErrorType) {
    assert_eq!(fields(&errs), vec![(field.to_string(), ty)], "{errs}");
}

fn role(rules: Vec<PolicyRule>) -> Role {
    Role::new("default", "r", rules)
}

fn cluster_role(rules: Vec<PolicyRule>) -> ClusterRole {
    ClusterRole::new("r", rules)
}

#[test]
fn rules() {
    let valid = PolicyRule::resource(&["get"], &[""], &["pods"]);
    assert!(validate_role(&role(vec![valid.clone()])).is_empty());
    assert!(validate_cluster_role(&cluster_role(vec![valid])).is_empty());
    let urls = PolicyRule::non_resource(&["get"], &["/api/*"]);
    assert!(validate_cluster_role(&cluster_role(vec![urls.clone()])).is_empty());
    one(
        validate_role(&role(vec![urls])),
        "rules[0].nonResourceURLs",
        ErrorType::Invalid,
    );
    let no_verbs = PolicyRule::resource(&[], &[""], &["pods"]);
    one(
        validate_role(&role(vec![no_verbs])),
        "rules[0].verbs",
        ErrorType::Required,
    );
    let mixed = PolicyRule {
        resources: vec!["pods".into()],
        ..PolicyRule::non_resource(&["get"], &["/x"])
    };
    one(
        validate_cluster_role(&cluster_role(vec![mixed])),
        "rules[0].nonResourceURLs",
        ErrorType::Invalid,
    );
    let no_group = PolicyRule::resource(&["get"], &[], &["pods"]);
    one(
        validate_role(&role(vec![no_group])),
        "rules[0].apiGroups",
        ErrorType::Required,
    );
    let no_resource = PolicyRule::resource(&["get"], &[""], &[]);
    one(
        validate_role(&role(vec![no_resource])),
        "rules[0].resources",
        ErrorType::Required,
    );
    let names = PolicyRule::resource(&["get"], &[""], &["pods", "secrets"]).with_names(&["a"]);
    one(
        validate_role(&role(vec![names])),
        "rules[0].resourceNames",
        ErrorType::Required,
    );
    let err = validate_role(&role(vec![PolicyRule::resource(&[], &[""], &["pods"])]));
    assert_eq!(
        err.to_string(),
        "rules[0].verbs: Required value: verbs must contain at least one value"
    );
}

#[test]
fn role_metadata() {
    let mut r = role(vec![]);
    r.metadata.namespace.clear();
    one(validate_role(&r), "metadata.namespace", ErrorType::Required);
    let mut c = cluster_role(vec![]);
    c.metadata.namespace = "x".into();
    one(
        validate_cluster_role(&c),
        "metadata.namespace",
        ErrorType::Forbidden,
    );
    for bad in ["..", ".", "a/b", "a%b"] {
        one(
            validate_role(&Role::new("default", bad, vec![])),
            "metadata.name",
            ErrorType::Invalid,
        );
    }
    assert!(validate_role(&Role::new("default", "system:Upper_Case", vec![])).is_empty());
}

#[test]
fn aggregation_rules() {
    let mut c = cluster_role(vec![]);
    c.aggregation_rule = Some(AggregationRule::default());
    one(
        validate_cluster_role(&c),
        "aggregationRule.clusterRoleSelectors",
        ErrorType::Required,
    );
    c.aggregation_rule = Some(AggregationRule {
        cluster_role_selectors: vec![LabelSelector {
            match_labels: [("a".to_string(), "b".to_string())].into(),
            ..LabelSelector::default()
        }],
    });
    assert!(validate_cluster_role(&c).is_empty());
}

fn rb(role_ref: RoleRef, subjects: Vec<Subject>) -> RoleBinding {
    RoleBinding::new("default", "b", role_ref, subjects)
}

#[test]
fn role_refs() {
    assert!(validate_role_binding(&rb(RoleRef::role("r"), vec![])).is_empty());
    assert!(validate_role_binding(&rb(RoleRef::cluster_role("r"), vec![])).is_empty());
    let bad_group = RoleRef {
        api_group: "rbac".into(),
        ..RoleRef::role("r")
    };
    one(
        validate_role_binding(&rb(bad_group, vec![])),
        "roleRef.apiGroup",
        ErrorType::NotSupported,
    );
    let bad_kind = RoleRef {
        kind: "Type".into(),
        ..RoleRef::role("r")
    };
    one(
        validate_role_binding(&rb(bad_kind, vec![])),
        "roleRef.kind",
        ErrorType::NotSupported,
    );
    one(
        validate_role_binding(&rb(RoleRef::role(""), vec![])),
        "roleRef.name",
        ErrorType::Required,
    );
    one(
        validate_role_binding(&rb(RoleRef::role("a/b"), vec![])),
        "roleRef.name",
        ErrorType::Invalid,
    );
    let mut crb = ClusterRoleBinding::new("b", "r", vec![]);
    assert!(validate_cluster_role_binding(&crb).is_empty());
    crb.role_ref.kind = "Role".into();
    let errs = validate_cluster_role_binding(&crb);
    one(errs.clone(), "roleRef.kind", ErrorType::NotSupported);
    assert_eq!(
        errs.to_string(),
        r#"roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole""#
    );
}

#[test]
fn subjects() {
    let ok = vec![
        Subject::user("u"),
        Subject::group("g"),
        Subject::service_account("", "sa"),
    ];
    assert!(validate_role_binding(&rb(RoleRef::role("r"), ok)).is_empty());
    let no_ns = vec![Subject::service_account("", "sa")];
    one(
        validate_cluster_role_binding(&ClusterRoleBinding::new("b", "r", no_ns)),
        "subjects[0].namespace",
        ErrorType::Required,
    );
    let check = |s: Subject, field: &str, ty: ErrorType| {
        one(
            validate_role_binding(&rb(RoleRef::role("r"), vec![s])),
            field,
            ty,
        )
    };
    check(
        Subject {
            kind: "Robot".into(),
            ..Subject::user("u")
        },
        "subjects[0].kind",
        ErrorType::NotSupported,
    );
    check(
        Subject {
            api_group: String::new(),
            ..Subject::user("u")
        },
        "subjects[0].apiGroup",
        ErrorType::NotSupported,
    );
    check(
        Subject {
            api_group: "x".into(),
            ..Subject::service_account("", "sa")
        },
        "subjects[0].apiGroup",
        ErrorType::NotSupported,
    );
    check(
        Subject::service_account("", "Not_Valid"),
        "subjects[0].name",
        ErrorType::Invalid,
    );
    let errs = validate_role_binding(&rb(RoleRef::role("r"), vec![Subject::group("")]));
    assert_eq!(
        fields(&errs),
        vec![
            ("subjects[0].name".to_string(), ErrorType::Required),
            ("subjects[0].name".to_string(), ErrorType::Invalid)
        ]
    );
}

#[test]
fn updates_keep_the_role_ref() {
    let mut old = rb(RoleRef::role("r"), vec![]);
    old.metadata.resource_version = "1".into();
    let mut new = old.clone();
    new.role_ref = RoleRef::role("other");
    let errs = validate_role_binding_update(&new, &old);
    assert_eq!(
        fields(&errs),
        vec![("roleRef".to_string(), ErrorType::Invalid)]
    );
    assert!(errs.to_string().contains("cannot change roleRef"));
    new.role_ref = old.role_ref.clone();
    new.subjects.push(Subject::user("u"));
    assert!(validate_role_binding_update(&new, &old).is_empty());
}

/// The v1 defaults fill `apiGroup`s left out of JSON.
#[test]
fn defaults() {
    let mut b: RoleBinding = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "b", "namespace": "default"},
        "roleRef": {"kind": "Role", "name": "r"},
        "subjects": [{"kind": "User", "name": "u"}, {"kind": "ServiceAccount", "name": "sa"}]
    }))
    .unwrap();
    assert_eq!(fields(&validate_role_binding(&b)).len(), 2);
    b.set_defaults();
    assert!(validate_role_binding(&b).is_empty());
}
