//! Translated from k8s.io/component-helpers
//! `auth/rbac/validation/policy_comparator_test.go` (every `TestCovers*`
//! and `TestNonResourceURLCovers`), k8s.io/kubernetes
//! `pkg/registry/rbac/validation/policy_compact_test.go` (`TestCompactRules`,
//! in part) and the guards of the `policybased` storages.

use super::*;
use crate::rbac::{AggregationRule, Subject};

fn r(groups: &[&str], verbs: &[&str], resources: &[&str]) -> PolicyRule {
    PolicyRule::resource(verbs, groups, resources)
}

fn u(urls: &[&str], verbs: &[&str]) -> PolicyRule {
    PolicyRule::non_resource(verbs, urls)
}

/// `escalationTest.test`: covered flag and the uncovered rules (as a set).
fn escalation(
    owner: &[PolicyRule],
    servant: &[PolicyRule],
    covered: bool,
    uncovered: &[PolicyRule],
) {
    let (got, missing) = covers(owner, servant);
    assert_eq!(got, covered, "{owner:?} covering {servant:?}");
    assert_eq!(missing.len(), uncovered.len(), "{missing:?}");
    for rule in uncovered {
        assert!(missing.contains(rule), "{rule:?} not in {missing:?}");
    }
}

#[test]
fn covers_table() {
    let v1 = &["v1"];
    // TestCoversExactMatch
    escalation(
        &[r(v1, &["get"], &["builds"])],
        &[r(v1, &["get"], &["builds"])],
        true,
        &[],
    );
    // TestCoversSubresourceWildcard
    escalation(
        &[r(v1, &["get"], &["*/scale"])],
        &[r(v1, &["get"], &["foo/scale"])],
        true,
        &[],
    );
    // TestCoversMultipleRulesCoveringSingleRule
    escalation(
        &[
            r(v1, &["delete"], &["deployments"]),
            r(v1, &["delete"], &["builds"]),
            r(v1, &["update"], &["builds", "deployments"]),
        ],
        &[r(v1, &["delete", "update"], &["builds", "deployments"])],
        true,
        &[],
    );
    // TestCoversMultipleAPIGroupsCoveringSingleRule
    let per_group: Vec<PolicyRule> = ["group1", "group2"]
        .iter()
        .flat_map(|g| {
            [
                r(&[g], &["delete"], &["deployments"]),
                r(&[g], &["delete"], &["builds"]),
                r(&[g], &["update"], &["builds", "deployments"]),
            ]
        })
        .collect();
    let both = r(
        &["group1", "group2"],
        &["delete", "update"],
        &["builds", "deployments"],
    );
    escalation(&per_group, std::slice::from_ref(&both), true, &[]);
    // TestCoversSingleAPIGroupsCoveringMultiple
    escalation(&[both], &per_group, true, &[]);
    // TestCoversMultipleRulesMissingSingleVerbResourceCombination
    escalation(
        &[
            r(v1, &["delete", "update"], &["builds", "deployments"]),
            r(v1, &["delete"], &["pods"]),
        ],
        &[r(
            v1,
            &["delete", "update"],
            &["builds", "deployments", "pods"],
        )],
        false,
        &[r(v1, &["update"], &["pods"])],
    );
    // TestCoversAPIGroupStarCoveringMultiple
    escalation(
        &[r(&["*"], &["get"], &["roles"])],
        &[r(&["group1", "group2"], &["get"], &["roles"])],
        true,
        &[],
    );
    // TestCoversEnumerationNotCoveringAPIGroupStar
    escalation(
        &[r(&["dummy-group"], &["get"], &["roles"])],
        &[r(&["*"], &["get"], &["roles"])],
        false,
        &[r(&["*"], &["get"], &["roles"])],
    );
    // TestCoversAPIGroupStarCoveringStar
    escalation(
        &[r(&["*"], &["get"], &["roles"])],
        &[r(&["*"], &["get"], &["roles"])],
        true,
        &[],
    );
    // TestCoversVerbStarCoveringMultiple
    escalation(
        &[r(v1, &["*"], &["roles"])],
        &[r(v1, &["watch", "list"], &["roles"])],
        true,
        &[],
    );
    // TestCoversEnumerationNotCoveringVerbStar
    escalation(
        &[r(
            v1,
            &["get", "list", "watch", "create", "update", "delete", "exec"],
            &["roles"],
        )],
        &[r(v1, &["*"], &["roles"])],
        false,
        &[r(v1, &["*"], &["roles"])],
    );
    // TestCoversVerbStarCoveringStar
    escalation(
        &[r(v1, &["*"], &["roles"])],
        &[r(v1, &["*"], &["roles"])],
        true,
        &[],
    );
    // TestCoversResourceStarCoveringMultiple
    escalation(
        &[r(v1, &["get"], &["*"])],
        &[r(v1, &["get"], &["resourcegroup:deployments"])],
        true,
        &[],
    );
    // TestCoversEnumerationNotCoveringResourceStar
    escalation(
        &[r(v1, &["get"], &["roles", "resourcegroup:deployments"])],
        &[r(v1, &["get"], &["*"])],
        false,
        &[r(v1, &["get"], &["*"])],
    );
    // TestCoversResourceStarCoveringStar
    escalation(
        &[r(v1, &["get"], &["*"])],
        &[r(v1, &["get"], &["*"])],
        true,
        &[],
    );
}

#[test]
fn covers_names_and_urls() {
    let v1 = &["v1"];
    // TestCoversResourceNameEmptyCoveringMultiple
    escalation(
        &[r(v1, &["get"], &["pods"])],
        &[r(v1, &["get"], &["pods"]).with_names(&["foo", "bar"])],
        true,
        &[],
    );
    // TestCoversEnumerationNotCoveringResourceNameEmpty
    escalation(
        &[r(v1, &["get"], &["pods"]).with_names(&["foo", "bar"])],
        &[r(v1, &["get"], &["pods"])],
        false,
        &[r(v1, &["get"], &["pods"])],
    );
    // TestCoversNonResourceURLs
    escalation(
        &[u(&["/apis"], &["*"])],
        &[u(&["/apis"], &["*"])],
        true,
        &[],
    );
    // TestCoversNonResourceURLsStar
    escalation(
        &[u(&["*"], &["*"])],
        &[u(&["/apis", "/apis/v1", "/"], &["*"])],
        true,
        &[],
    );
    // TestCoversNonResourceURLsStarAfterPrefixDoesntCover
    escalation(
        &[u(&["/apis/*"], &["*"])],
        &[u(&["/apis", "/apis/v1"], &["get"])],
        false,
        &[u(&["/apis"], &["get"])],
    );
    // TestCoversNonResourceURLsStarAfterPrefix
    escalation(
        &[u(&["/apis/*"], &["*"])],
        &[u(&["/apis/v1/foo", "/apis/v1"], &["get"])],
        true,
        &[],
    );
    // TestCoversNonResourceURLsWithOtherFields
    let mixed = PolicyRule {
        non_resource_urls: vec!["/apis".into()],
        ..r(v1, &["get"], &["builds"])
    };
    escalation(
        std::slice::from_ref(&mixed),
        std::slice::from_ref(&mixed),
        true,
        &[],
    );
    // TestCoversNonResourceURLsWithOtherFieldsFailure
    escalation(
        &[r(v1, &["get"], &["builds"])],
        &[mixed],
        false,
        &[u(&["/apis"], &["get"])],
    );
}

/// `TestNonResourceURLCovers`.
#[test]
fn non_resource_url_covers_table() {
    let cases = [
        ("*", "", true),
        ("*", "/", true),
        ("*", "/api", true),
        ("/*", "", false),
        ("/*", "/", true),
        ("/*", "/foo", true),
        ("/api", "/api", true),
        ("/apis", "/api", false),
        ("/api/v1", "/api", false),
        ("/api/v1", "/api/v1", true),
        ("/api/*", "/api/v1", true),
        ("/api/*", "/api", false),
        ("/api/*/*", "/api/v1", false),
        ("/*/v1/*", "/api/v1", false),
    ];
    for (owner, requested, want) in cases {
        assert_eq!(
            non_resource_url_covers(owner, requested),
            want,
            "{owner} {requested}"
        );
    }
}

/// `CompactRules` merges verbs of simple rules; `CompactString` prints
/// Go's `%q` lists in a fixed field order.
#[test]
fn compact() {
    let rules = [
        r(&["g"], &["get"], &["pods"]),
        r(&["g"], &["list"], &["pods"]),
        r(&["g"], &["get"], &["pods"]).with_names(&["a"]),
        u(&["/x"], &["get"]),
    ];
    let compacted = compact_rules(&rules);
    assert_eq!(compacted.len(), 3);
    assert!(compacted.contains(&r(&["g"], &["get", "list"], &["pods"])));
    assert_eq!(
        compact_string(&rules[2]),
        r#"{APIGroups:["g"], Resources:["pods"], ResourceNames:["a"], Verbs:["get"]}"#
    );
    assert_eq!(
        compact_string(&rules[3]),
        r#"{NonResourceURLs:["/x"], Verbs:["get"]}"#
    );
}

/// bob may get and create widgets in `demo` and bind `reader`; carol holds
/// `escalate` on roles in `demo`.
fn world() -> Authorizer {
    let reader = PolicyRule::resource(&["get"], &["example.com"], &["widgets"]);
    let writer = PolicyRule::resource(&["get", "create"], &["example.com"], &["widgets"]);
    Authorizer::new(
        vec![
            Role::new("demo", "writer", vec![writer]),
            Role::new(
                "demo",
                "escalator",
                vec![PolicyRule::resource(
                    &["escalate"],
                    &[GROUP_NAME],
                    &["roles"],
                )],
            ),
            Role::new(
                "demo",
                "binder",
                vec![
                    PolicyRule::resource(&["bind"], &[GROUP_NAME], &["clusterroles"])
                        .with_names(&["admin"]),
                ],
            ),
        ],
        vec![
            RoleBinding::new(
                "demo",
                "w",
                RoleRef::role("writer"),
                vec![Subject::user("bob")],
            ),
            RoleBinding::new(
                "demo",
                "e",
                RoleRef::role("escalator"),
                vec![Subject::user("carol")],
            ),
            RoleBinding::new(
                "demo",
                "b",
                RoleRef::role("binder"),
                vec![Subject::user("bob")],
            ),
        ],
        vec![
            ClusterRole::new("reader", vec![reader]),
            ClusterRole::new("admin", full_authority()),
        ],
        vec![],
    )
}

fn user(name: &str) -> UserInfo {
    UserInfo::new(name, &["system:authenticated"])
}

/// Creating a Role: covered rules pass, more is 403 with the upstream
/// message, `escalate` and `system:masters` bypass the check.
#[test]
fn role_guard() {
    let authz = world();
    let ok = Role::new(
        "demo",
        "r",
        vec![PolicyRule::resource(
            &["create"],
            &["example.com"],
            &["widgets"],
        )],
    );
    assert!(check_role(&authz, &user("bob"), "demo", &ok).is_ok());
    let more = Role::new(
        "demo",
        "r",
        vec![PolicyRule::resource(
            &["create", "delete", "update"],
            &["example.com"],
            &["widgets", "gadgets"],
        )],
    );
    let err = check_role(&authz, &user("bob"), "demo", &more).unwrap_err();
    assert_eq!(err.code(), 403);
    assert_eq!(
        err.message,
        "roles.rbac.authorization.k8s.io \"r\" is forbidden: user \"bob\" (groups=[\"system:authenticated\"]) \
         is attempting to grant RBAC permissions not currently held:\n\
         {APIGroups:[\"example.com\"], Resources:[\"gadgets\"], Verbs:[\"create\" \"delete\" \"update\"]}\n\
         {APIGroups:[\"example.com\"], Resources:[\"widgets\"], Verbs:[\"delete\" \"update\"]}"
    );
    assert!(check_role(&authz, &user("bob"), "other", &ok).is_err());
    assert!(check_role(&authz, &user("carol"), "demo", &more).is_ok());
    assert!(check_role(&authz, &user("carol"), "other", &more).is_err());
    assert!(
        check_role(
            &authz,
            &UserInfo::new("root", &["system:masters"]),
            "x",
            &more
        )
        .is_ok()
    );
}

/// ClusterRoles are checked against cluster-wide rules only, and an
/// aggregation rule needs `*` on everything.
#[test]
fn cluster_role_guard() {
    let mut authz = world();
    let role = ClusterRole::new(
        "c",
        vec![PolicyRule::resource(
            &["get"],
            &["example.com"],
            &["widgets"],
        )],
    );
    assert!(check_cluster_role(&authz, &user("bob"), &role, None).is_err());
    authz.cluster_role_bindings.push(ClusterRoleBinding::new(
        "r",
        "reader",
        vec![Subject::user("bob")],
    ));
    assert!(check_cluster_role(&authz, &user("bob"), &role, None).is_ok());
    let mut aggregated = role.clone();
    aggregated.aggregation_rule = Some(AggregationRule {
        cluster_role_selectors: vec![Default::default()],
    });
    let err = check_cluster_role(&authz, &user("bob"), &aggregated, None).unwrap_err();
    assert_eq!(
        err.message,
        "clusterroles.rbac.authorization.k8s.io \"c\" is forbidden: must have cluster-admin privileges to use the aggregationRule"
    );
    let err = check_cluster_role(&authz, &user("bob"), &role, Some(&aggregated)).unwrap_err();
    assert_eq!(err.code(), 403);
    authz.cluster_role_bindings.push(ClusterRoleBinding::new(
        "a",
        "admin",
        vec![Subject::user("bob")],
    ));
    assert!(check_cluster_role(&authz, &user("bob"), &aggregated, None).is_ok());
}

/// Bindings: holding the role's rules or `bind` on it is enough; a
/// missing role is 404; binding more is 403.
#[test]
fn binding_guard() {
    let authz = world();
    let bob = user("bob");
    let to =
        |role_ref: RoleRef| RoleBinding::new("demo", "x", role_ref, vec![Subject::user("eve")]);
    assert!(check_role_binding(&authz, &bob, "demo", &to(RoleRef::cluster_role("reader"))).is_ok());
    assert!(check_role_binding(&authz, &bob, "demo", &to(RoleRef::role("writer"))).is_ok());
    assert!(binding_authorized(
        &authz,
        &bob,
        &RoleRef::cluster_role("admin"),
        "demo"
    ));
    assert!(check_role_binding(&authz, &bob, "demo", &to(RoleRef::cluster_role("admin"))).is_ok());
    let err =
        check_role_binding(&authz, &bob, "demo", &to(RoleRef::role("escalator"))).unwrap_err();
    assert_eq!(err.code(), 403);
    assert!(
        err.message
            .starts_with("rolebindings.rbac.authorization.k8s.io \"x\" is forbidden: user \"bob\"")
    );
    assert!(err.message.ends_with(
        "{APIGroups:[\"rbac.authorization.k8s.io\"], Resources:[\"roles\"], Verbs:[\"escalate\"]}"
    ));
    let err = check_role_binding(&authz, &bob, "demo", &to(RoleRef::role("gone"))).unwrap_err();
    assert_eq!(
        (err.code(), err.message.as_str()),
        (404, "roles.rbac.authorization.k8s.io \"gone\" not found")
    );
    let crb = ClusterRoleBinding::new("x", "admin", vec![Subject::user("eve")]);
    let err = check_cluster_role_binding(&authz, &bob, &crb).unwrap_err();
    assert!(
        err.message
            .starts_with("clusterrolebindings.rbac.authorization.k8s.io \"x\" is forbidden")
    );
    let root = UserInfo::new("root", &["system:masters"]);
    assert!(check_cluster_role_binding(&authz, &root, &crb).is_ok());
}

/// Resolution errors are appended to the escalation message.
#[test]
fn escalation_with_resolution_errors() {
    let mut authz = world();
    authz.role_bindings.push(RoleBinding::new(
        "demo",
        "g",
        RoleRef::role("gone"),
        vec![Subject::user("bob")],
    ));
    let msg =
        confirm_no_escalation(&authz, &user("bob"), "demo", &[u(&["/x"], &["get"])]).unwrap_err();
    assert!(
        msg.ends_with("{NonResourceURLs:[\"/x\"], Verbs:[\"get\"]}; resolution errors: [role.rbac.authorization.k8s.io \"gone\" not found]"),
        "{msg}"
    );
}
