//! Translated from k8s.io/kubernetes
//! `plugin/pkg/auth/authorizer/rbac/rbac_test.go` (`TestAuthorizer`, its
//! four cases including the two subresource ones) and
//! `pkg/registry/rbac/validation/rule_test.go` (`TestDefaultRuleResolver`,
//! `TestAppliesTo`), plus aggregation, reasons and the reviews.

use api_core::meta::LabelSelector;

use super::*;
use crate::rbac::AggregationRule;

/// `newRule(verbs, apiGroups, resources, nonResourceURLs)` of the upstream
/// test: comma-separated lists, each always set (so `""` is one empty
/// string, as Go's `strings.Split` gives).
fn rule(verbs: &str, groups: &str, resources: &str, urls: &str) -> PolicyRule {
    let split = |s: &str| s.split(',').map(str::to_string).collect();
    PolicyRule {
        verbs: split(verbs),
        api_groups: split(groups),
        resources: split(resources),
        resource_names: Vec::new(),
        non_resource_urls: split(urls),
    }
}

/// `"User:name"` / `"Group:name"` / `"ServiceAccount:ns:name"`.
fn subjects(specs: &[&str]) -> Vec<Subject> {
    specs
        .iter()
        .map(|s| match s.split_once(':') {
            Some(("User", n)) => Subject::user(n),
            Some(("Group", n)) => Subject::group(n),
            Some(("ServiceAccount", rest)) => {
                let (ns, n) = rest.split_once(':').unwrap_or(("", rest));
                Subject::service_account(ns, n)
            }
            _ => panic!("bad subject {s}"),
        })
        .collect()
}

fn cluster_binding(role: &str, subs: &[&str]) -> ClusterRoleBinding {
    ClusterRoleBinding::new(&format!("{role}-binding"), role, subjects(subs))
}

fn binding(ns: &str, role_ref: RoleRef, subs: &[&str]) -> RoleBinding {
    RoleBinding::new(
        ns,
        &format!("{}-binding", role_ref.name),
        role_ref,
        subjects(subs),
    )
}

/// The upstream `defaultAttributes{user, groups, verb, resource,
/// subresource, namespace, apiGroup}` (groups comma-separated).
fn attrs(user: &str, groups: &str, verb: &str, resource: &str, sub: &str, ns: &str) -> Attributes {
    let groups: Vec<&str> = groups.split(',').collect();
    Attributes::resource(UserInfo::new(user, &groups), verb, "", resource)
        .with_subresource(sub)
        .in_namespace(ns)
}

fn path(user: &str, groups: &[&str], verb: &str, p: &str) -> Attributes {
    Attributes::non_resource(UserInfo::new(user, groups), verb, p)
}

fn check(authz: &Authorizer, pass: &[Attributes], fail: &[Attributes]) {
    for a in pass {
        assert!(authz.authorize(a).allowed, "incorrectly restricted {a:?}");
    }
    for a in fail {
        assert!(!authz.authorize(a).allowed, "incorrectly passed {a:?}");
    }
}

/// `TestAuthorizer` case 0: a ClusterRole bound by a RoleBinding applies
/// in that namespace only; verbs are case-sensitive.
#[test]
fn authorizer_role_binding_to_cluster_role() {
    let authz = Authorizer::new(
        vec![],
        vec![binding(
            "ns1",
            RoleRef::cluster_role("admin"),
            &["User:admin", "Group:admins"],
        )],
        vec![ClusterRole::new("admin", vec![rule("*", "*", "*", "*")])],
        vec![],
    );
    check(
        &authz,
        &[
            attrs("admin", "", "get", "Pods", "", "ns1"),
            attrs("admin", "", "watch", "Pods", "", "ns1"),
            attrs("admin", "group1", "watch", "Foobar", "", "ns1"),
            attrs("joe", "admins", "watch", "Foobar", "", "ns1"),
            attrs("joe", "group1,admins", "watch", "Foobar", "", "ns1"),
        ],
        &[
            attrs("admin", "", "GET", "Pods", "", "ns2"),
            attrs("admin", "", "GET", "Nodes", "", ""),
            attrs("admin", "admins", "GET", "Pods", "", "ns2"),
            attrs("admin", "admins", "GET", "Nodes", "", ""),
        ],
    );
}

/// `TestAuthorizer` case 1: non-resource URLs, exact and prefixed.
#[test]
fn authorizer_non_resource_urls() {
    let authz = Authorizer::new(
        vec![],
        vec![],
        vec![
            ClusterRole::new(
                "non-resource-url-getter",
                vec![rule("get", "", "", "/apis")],
            ),
            ClusterRole::new("non-resource-url", vec![rule("*", "", "", "/apis")]),
            ClusterRole::new(
                "non-resource-url-prefix",
                vec![rule("get", "", "", "/apis/*")],
            ),
        ],
        vec![
            cluster_binding("non-resource-url-getter", &["User:foo", "Group:bar"]),
            cluster_binding("non-resource-url", &["User:admin", "Group:admin"]),
            cluster_binding(
                "non-resource-url-prefix",
                &["User:prefixed", "Group:prefixed"],
            ),
        ],
    );
    check(
        &authz,
        &[
            path("foo", &[], "get", "/apis"),
            path("", &["bar"], "get", "/apis"),
            path("admin", &[], "get", "/apis"),
            path("", &["admin"], "get", "/apis"),
            path("admin", &[], "watch", "/apis"),
            path("", &["admin"], "watch", "/apis"),
            path("prefixed", &[], "get", "/apis/v1"),
            path("", &["prefixed"], "get", "/apis/v1"),
            path("prefixed", &[], "get", "/apis/v1/foobar"),
            path("", &["prefixed"], "get", "/apis/v1/foorbar"),
        ],
        &[
            path("foo", &[], "watch", "/apis"),
            path("", &["bar"], "watch", "/apis"),
            path("foo", &[], "get", "/api/v1"),
            path("", &["bar"], "get", "/api/v1"),
            path("admin", &[], "get", "/api/v1"),
            path("", &["admin"], "get", "/api/v1"),
            path("prefixed", &[], "get", "/api/v1"),
            path("", &["prefixed"], "get", "/api/v1"),
        ],
    );
}

/// `TestAuthorizer` cases 2 and 3: `pods` does not grant `pods/status`,
/// and `pods/status` does not grant `pods`.
#[test]
fn authorizer_subresource_resolution() {
    for (resource, pass, fail) in [("pods", "", "status"), ("pods/status", "status", "")] {
        let authz = Authorizer::new(
            vec![],
            vec![binding(
                "ns1",
                RoleRef::cluster_role("admin"),
                &["User:admin", "Group:admins"],
            )],
            vec![ClusterRole::new(
                "admin",
                vec![rule("*", "*", resource, "*")],
            )],
            vec![],
        );
        check(
            &authz,
            &[attrs("admin", "", "get", "pods", pass, "ns1")],
            &[attrs("admin", "", "get", "pods", fail, "ns1")],
        );
    }
}

/// The snapshot of `TestDefaultRuleResolver`.
fn static_roles() -> (Authorizer, [PolicyRule; 4]) {
    let read_pods = PolicyRule::resource(&["GET", "WATCH"], &["v1"], &["pods"]);
    let read_services = PolicyRule::resource(&["GET", "WATCH"], &["v1"], &["services"]);
    let write_nodes = PolicyRule::resource(&["PUT", "CREATE", "UPDATE"], &["v1"], &["nodes"]);
    let admin = PolicyRule::resource(&["*"], &["*"], &["*"]);
    let authz = Authorizer::new(
        vec![Role::new(
            "namespace1",
            "readthings",
            vec![read_pods.clone(), read_services.clone()],
        )],
        vec![binding(
            "namespace1",
            RoleRef::role("readthings"),
            &["User:foobar", "Group:group1"],
        )],
        vec![
            ClusterRole::new("cluster-admin", vec![admin.clone()]),
            ClusterRole::new("write-nodes", vec![write_nodes.clone()]),
        ],
        vec![cluster_binding(
            "cluster-admin",
            &["User:admin", "Group:admin"],
        )],
    );
    (authz, [read_pods, read_services, write_nodes, admin])
}

/// `TestDefaultRuleResolver`: the effective rules of four users/namespaces.
#[test]
fn default_rule_resolver() {
    let (authz, [read_pods, read_services, _, admin]) = static_roles();
    let cases = [
        (
            UserInfo::new("foobar", &[]),
            "namespace1",
            vec![read_pods, read_services],
        ),
        (UserInfo::new("foobar", &[]), "namespace2", vec![]),
        (UserInfo::new("foobar", &["admin"]), "", vec![admin]),
        (UserInfo::default(), "", vec![]),
    ];
    for (i, (user, ns, expected)) in cases.into_iter().enumerate() {
        let (rules, error) = authz.policy_rules_for(&user, ns);
        assert_eq!(rules, expected, "case {i}");
        assert_eq!(error, None, "case {i}");
    }
}

/// `TestAppliesTo`: the nine subject lists.
#[test]
fn applies_to_table() {
    let anon = UserInfo::new("system:anonymous", &["system:unauthenticated"]);
    let cases: Vec<(&[&str], UserInfo, &str, bool, &str)> = vec![
        (
            &["User:foobar"],
            UserInfo::new("foobar", &[]),
            "",
            true,
            "single subject that matches username",
        ),
        (
            &["User:barfoo", "User:foobar"],
            UserInfo::new("foobar", &[]),
            "",
            true,
            "multiple subjects, one that matches username",
        ),
        (
            &["User:barfoo", "User:foobar"],
            UserInfo::new("zimzam", &[]),
            "",
            false,
            "multiple subjects, none that match username",
        ),
        (
            &["User:barfoo", "Group:foobar"],
            UserInfo::new("zimzam", &["foobar"]),
            "",
            true,
            "multiple subjects, one that match group",
        ),
        (
            &["User:barfoo", "Group:foobar"],
            UserInfo::new("zimzam", &["foobar"]),
            "namespace1",
            true,
            "one that match group, should ignore namespace",
        ),
        (
            &[
                "User:barfoo",
                "Group:foobar",
                "ServiceAccount:kube-system:default",
            ],
            UserInfo::new("system:serviceaccount:kube-system:default", &[]),
            "default",
            true,
            "multiple subjects with a service account that matches",
        ),
        (
            &["User:*"],
            UserInfo::new("foobar", &[]),
            "default",
            false,
            "* user subject name doesn't match all users",
        ),
        (
            &["Group:system:authenticated", "Group:system:unauthenticated"],
            UserInfo::new("foobar", &["system:authenticated"]),
            "default",
            true,
            "all authenticated and unauthenticated matches authenticated user",
        ),
        (
            &["Group:system:authenticated", "Group:system:unauthenticated"],
            anon,
            "default",
            true,
            "all authenticated and unauthenticated matches anonymous user",
        ),
    ];
    for (subs, user, ns, expected, name) in cases {
        let subs = subjects(subs);
        assert_eq!(applies_to(&user, &subs, ns).is_some(), expected, "{name}");
    }
}

/// Service accounts: the namespace defaults to the binding's, so a
/// ClusterRoleBinding needs it; a prefix of the name is not enough.
#[test]
fn service_account_subjects() {
    let sa = UserInfo::new("system:serviceaccount:ns1:robot", &[]);
    assert!(applies_to(&sa, &subjects(&["ServiceAccount::robot"]), "ns1").is_some());
    assert!(applies_to(&sa, &subjects(&["ServiceAccount::robot"]), "ns2").is_none());
    assert!(applies_to(&sa, &subjects(&["ServiceAccount::robot"]), "").is_none());
    assert!(applies_to(&sa, &subjects(&["ServiceAccount:ns1:rob"]), "").is_none());
    assert!(applies_to(&sa, &subjects(&["ServiceAccount:ns:robot"]), "").is_none());
    let weird = Subject {
        kind: "Robot".into(),
        ..Subject::user("system:serviceaccount:ns1:robot")
    };
    assert!(applies_to(&sa, &[weird], "ns1").is_none());
}

/// A RoleBinding's Role is looked up in the request namespace; a Role
/// elsewhere or a binding elsewhere grants nothing; cluster-scoped requests
/// see only ClusterRoleBindings.
#[test]
fn role_bindings_stay_in_their_namespace() {
    let authz = Authorizer::new(
        vec![
            Role::new(
                "ns1",
                "reader",
                vec![PolicyRule::resource(&["get"], &[""], &["pods"])],
            ),
            Role::new(
                "ns2",
                "writer",
                vec![PolicyRule::resource(&["*"], &["*"], &["*"])],
            ),
        ],
        vec![
            binding("ns1", RoleRef::role("reader"), &["User:bob"]),
            binding("ns1", RoleRef::role("writer"), &["User:bob"]),
        ],
        vec![],
        vec![],
    );
    let bob = || UserInfo::new("bob", &[]);
    let get = |ns: &str| Attributes::resource(bob(), "get", "", "pods").in_namespace(ns);
    assert!(authz.authorize(&get("ns1")).allowed);
    assert!(!authz.authorize(&get("ns2")).allowed);
    assert!(!authz.authorize(&get("")).allowed);
    let delete = Attributes::resource(bob(), "delete", "", "pods").in_namespace("ns1");
    let decision = authz.authorize(&delete);
    assert!(!decision.allowed);
    assert_eq!(
        decision.reason,
        r#"RBAC: role.rbac.authorization.k8s.io "writer" not found"#
    );
}

/// `system:masters` may do anything, with no reason (the privileged-group
/// authorizer); allowed decisions name the binding.
#[test]
fn masters_and_allow_reasons() {
    let empty = Authorizer::default();
    let root = UserInfo::new("root", &["system:masters"]);
    let d = empty.authorize(&Attributes::resource(root.clone(), "delete", "x", "y"));
    assert_eq!(d, Decision::allow(""));
    assert!(
        empty
            .authorize(&Attributes::non_resource(root, "get", "/x"))
            .allowed
    );

    let (authz, _) = static_roles();
    let admin = UserInfo::new("admin", &[]);
    let d = authz.authorize(&Attributes::resource(admin, "get", "", "pods"));
    assert_eq!(
        d.reason,
        r#"RBAC: allowed by ClusterRoleBinding "cluster-admin-binding" of ClusterRole "cluster-admin" to User "admin""#
    );
    let foobar = UserInfo::new("foobar", &[]);
    let d = authz
        .authorize(&Attributes::resource(foobar, "GET", "v1", "pods").in_namespace("namespace1"));
    assert_eq!(
        d.reason,
        r#"RBAC: allowed by RoleBinding "readthings-binding/namespace1" of Role "readthings" to User "foobar""#
    );
    let sa = UserInfo::new("system:serviceaccount:namespace1:robot", &[]);
    let authz = Authorizer::new(
        vec![],
        vec![binding(
            "namespace1",
            RoleRef::cluster_role("cluster-admin"),
            &["ServiceAccount::robot"],
        )],
        static_roles().0.cluster_roles,
        vec![],
    );
    let d =
        authz.authorize(&Attributes::resource(sa, "get", "", "pods").in_namespace("namespace1"));
    assert_eq!(
        d.reason,
        r#"RBAC: allowed by RoleBinding "cluster-admin-binding/namespace1" of ClusterRole "cluster-admin" to ServiceAccount "robot/namespace1""#
    );
}

/// Denial reasons aggregate resolution errors as apimachinery does:
/// duplicates once, several in brackets.
#[test]
fn denial_reasons() {
    let authz = Authorizer::new(
        vec![],
        vec![],
        vec![],
        vec![
            cluster_binding("missing", &["User:bob"]),
            cluster_binding("missing", &["Group:g"]),
            ClusterRoleBinding {
                role_ref: RoleRef {
                    kind: "Nope".into(),
                    ..RoleRef::cluster_role("x")
                },
                ..cluster_binding("x", &["User:bob"])
            },
        ],
    );
    let get = |user: UserInfo| authz.authorize(&Attributes::resource(user, "get", "", "pods"));
    assert_eq!(
        get(UserInfo::new("carol", &["g"])).reason,
        r#"RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found"#
    );
    assert_eq!(
        get(UserInfo::new("bob", &["g"])).reason,
        r#"RBAC: [clusterrole.rbac.authorization.k8s.io "missing" not found, unsupported role reference kind: "Nope"]"#
    );
    assert_eq!(get(UserInfo::new("dave", &[])), Decision::deny(""));
    assert_eq!(aggregate_errors(&["a".into(), "a".into()]), "a");
}

fn labelled(name: &str, labels: &[(&str, &str)], rules: Vec<PolicyRule>) -> ClusterRole {
    let mut role = ClusterRole::new(name, rules);
    for (k, v) in labels {
        role.metadata.labels.insert((*k).into(), (*v).into());
    }
    role
}

fn aggregating(name: &str, labels: &[(&str, &str)], selects: &[(&str, &str)]) -> ClusterRole {
    let mut role = labelled(
        name,
        labels,
        vec![PolicyRule::resource(&["*"], &["*"], &["*"])],
    );
    role.aggregation_rule = Some(AggregationRule {
        cluster_role_selectors: selects
            .iter()
            .map(|(k, v)| LabelSelector {
                match_labels: [((*k).to_string(), (*v).to_string())].into(),
                ..LabelSelector::default()
            })
            .collect(),
    });
    role
}

/// Aggregation: `admin` ← `edit` ← `view`, the aggregated roles' own rules
/// ignored, duplicates dropped, cycles harmless, an empty selector list
/// giving nothing.
#[test]
fn aggregated_cluster_roles() {
    let get_pods = PolicyRule::resource(&["get"], &[""], &["pods"]);
    let edit_pods = PolicyRule::resource(&["update"], &[""], &["pods"]);
    let authz = Authorizer::new(
        vec![],
        vec![],
        vec![
            aggregating("admin", &[], &[("to-admin", "true")]),
            aggregating("edit", &[("to-admin", "true")], &[("to-edit", "true")]),
            labelled("view-pods", &[("to-edit", "true")], vec![get_pods.clone()]),
            labelled(
                "edit-pods",
                &[("to-edit", "true")],
                vec![edit_pods.clone(), get_pods.clone()],
            ),
            aggregating("loop-a", &[("loop", "b")], &[("loop", "a")]),
            aggregating("loop-b", &[("loop", "a")], &[("loop", "b")]),
            ClusterRole {
                aggregation_rule: Some(AggregationRule::default()),
                ..labelled("empty", &[], vec![get_pods.clone()])
            },
        ],
        vec![],
    );
    let rules = |name: &str| authz.role_reference_rules(&RoleRef::cluster_role(name), "");
    assert_eq!(
        rules("admin").unwrap().to_vec(),
        vec![edit_pods.clone(), get_pods.clone()]
    );
    assert_eq!(rules("edit").unwrap().to_vec(), vec![edit_pods, get_pods]);
    assert!(rules("loop-a").unwrap().is_empty());
    assert!(rules("empty").unwrap().is_empty());
    assert_eq!(
        rules("gone").unwrap_err(),
        RoleRefError::ClusterRoleNotFound {
            name: "gone".into()
        }
    );
}

/// `RulesFor` splits rules into resource and non-resource rules.
#[test]
fn rules_for_splits() {
    let authz = Authorizer::new(
        vec![],
        vec![],
        vec![ClusterRole::new(
            "both",
            vec![
                PolicyRule::resource(&["get"], &[""], &["pods"]).with_names(&["p"]),
                PolicyRule::non_resource(&["get"], &["/healthz"]),
            ],
        )],
        vec![cluster_binding("both", &["User:bob"])],
    );
    let (resource, non_resource) = authz.rules_for(&UserInfo::new("bob", &[]), "ns");
    assert_eq!(resource.len(), 1);
    assert_eq!(resource[0].resource_names, vec!["p".to_string()]);
    assert_eq!(non_resource.len(), 1);
    assert_eq!(
        non_resource[0].non_resource_urls,
        vec!["/healthz".to_string()]
    );
}

#[path = "forbidden_tests.rs"]
mod forbidden_tests;
#[path = "review_tests.rs"]
mod review_tests;
