#![no_main]

//! The RBAC authorizer on arbitrary bytes: the bytes are split into roles,
//! bindings (with label selectors for aggregation) and requests drawn
//! mostly from small alphabets, with raw strings mixed in. Nothing may
//! panic, and `Authorizer::authorize` must agree with the naive
//! `api_server::rbac::reference::allows` (in particular: no allow the
//! reference denies). The same bytes, read as JSON, go through the serde
//! types and their validation.

use std::collections::BTreeMap;

use api_core::meta::{LabelSelector, LabelSelectorRequirement};
use api_server::rbac::escalation::covers;
use api_server::rbac::validation::{validate_cluster_role, validate_role_binding};
use api_server::rbac::{
    AggregationRule, Attributes, Authorizer, ClusterRole, ClusterRoleBinding, PolicyRule, Role,
    RoleBinding, RoleRef, Subject, UserInfo, forbidden_status, reference,
};
use libfuzzer_sys::fuzz_target;

/// Reads choices off the input; zeros once it is used up.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n.max(1)
    }

    /// One of `options` mostly, else a short raw (lossy UTF-8) string.
    fn text(&mut self, options: &[&str]) -> String {
        let b = self.byte();
        if b < 240 {
            return options[usize::from(b) % options.len()].to_string();
        }
        let len = self.below(8);
        let raw: Vec<u8> = (0..len).map(|_| self.byte()).collect();
        String::from_utf8_lossy(&raw).into_owned()
    }

    fn texts(&mut self, options: &[&str], max: usize) -> Vec<String> {
        let n = self.below(max + 1);
        (0..n).map(|_| self.text(options)).collect()
    }
}

const VERBS: &[&str] = &["get", "list", "update", "*", "bind", "escalate"];
const GROUPS: &[&str] = &["", "apps", "*", "example.com"];
const RESOURCES: &[&str] = &[
    "pods",
    "pods/status",
    "*/status",
    "*",
    "widgets",
    "widgets/scale",
    "*/",
];
const URLS: &[&str] = &["/healthz", "/api/*", "*", "/api", "/a**", "/", ""];
const NAMESPACES: &[&str] = &["", "ns1", "ns2"];
const SUBJECTS: &[&str] = &["alice", "bob", "g1", "sa", "system:masters", ""];
const USERS: &[&str] = &[
    "alice",
    "bob",
    "system:serviceaccount:ns1:sa",
    "system:serviceaccount:ns2:sa",
    "",
];

fn rule(b: &mut Bytes<'_>) -> PolicyRule {
    PolicyRule {
        verbs: b.texts(VERBS, 2),
        api_groups: b.texts(GROUPS, 2),
        resources: b.texts(RESOURCES, 2),
        resource_names: b.texts(&["a", "b", ""], 1),
        non_resource_urls: b.texts(URLS, 2),
    }
}

fn rules(b: &mut Bytes<'_>) -> Vec<PolicyRule> {
    let n = b.below(4);
    (0..n).map(|_| rule(b)).collect()
}

fn subjects(b: &mut Bytes<'_>) -> Vec<Subject> {
    let n = b.below(3);
    (0..n)
        .map(|_| Subject {
            kind: b.text(&["User", "Group", "ServiceAccount", "Robot"]),
            api_group: String::new(),
            name: b.text(SUBJECTS),
            namespace: b.text(NAMESPACES),
        })
        .collect()
}

fn role_ref(b: &mut Bytes<'_>) -> RoleRef {
    RoleRef {
        api_group: "rbac.authorization.k8s.io".into(),
        kind: b.text(&["Role", "ClusterRole", "Bogus"]),
        name: b.text(&["r1", "r2", "c1", "c2", "c3"]),
    }
}

fn selector(b: &mut Bytes<'_>) -> LabelSelector {
    let mut s = LabelSelector::default();
    if b.byte() % 2 == 0 {
        s.match_labels.insert("agg".into(), b.text(&["x", "y"]));
    }
    if b.byte() % 3 == 0 {
        s.match_expressions.push(LabelSelectorRequirement {
            key: b.text(&["agg", "other"]),
            operator: b.text(&["In", "NotIn", "Exists", "DoesNotExist", "Bad"]),
            values: b.texts(&["x", "y"], 2),
        });
    }
    s
}

fn cluster_role(b: &mut Bytes<'_>) -> ClusterRole {
    let mut role = ClusterRole::new(&b.text(&["c1", "c2", "c3"]), rules(b));
    if b.byte() % 2 == 0 {
        role.metadata.labels = BTreeMap::from([("agg".to_string(), b.text(&["x", "y"]))]);
    }
    if b.byte() % 3 == 0 {
        let n = b.below(3);
        role.aggregation_rule = Some(AggregationRule {
            cluster_role_selectors: (0..n).map(|_| selector(b)).collect(),
        });
    }
    role
}

fn snapshot(b: &mut Bytes<'_>) -> Authorizer {
    let mut authz = Authorizer::default();
    for _ in 0..b.below(4) {
        authz.roles.push(Role::new(
            &b.text(NAMESPACES),
            &b.text(&["r1", "r2"]),
            rules(b),
        ));
    }
    for _ in 0..b.below(4) {
        let ns = b.text(NAMESPACES);
        let r = role_ref(b);
        authz
            .role_bindings
            .push(RoleBinding::new(&ns, "rb", r, subjects(b)));
    }
    for _ in 0..b.below(5) {
        authz.cluster_roles.push(cluster_role(b));
    }
    for _ in 0..b.below(3) {
        let mut crb = ClusterRoleBinding::new("crb", "", subjects(b));
        crb.role_ref = role_ref(b);
        authz.cluster_role_bindings.push(crb);
    }
    authz
}

fn request(b: &mut Bytes<'_>) -> Attributes {
    let groups = b.texts(&["g1", "g2", "system:masters"], 2);
    let user = UserInfo {
        name: b.text(USERS),
        groups,
        ..UserInfo::default()
    };
    let verb = b.text(&["get", "list", "update", "escalate"]);
    if b.byte() % 2 == 0 {
        Attributes::non_resource(
            user,
            &verb,
            &b.text(&["/healthz", "/api", "/api/v1", "/a", "/"]),
        )
    } else {
        Attributes::resource(
            user,
            &verb,
            &b.text(GROUPS),
            &b.text(&["pods", "widgets", "*"]),
        )
        .in_namespace(&b.text(NAMESPACES))
        .with_subresource(&b.text(&["", "status", "scale"]))
        .with_name(&b.text(&["", "a", "b"]))
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(role) = serde_json::from_slice::<ClusterRole>(data) {
        let _ = validate_cluster_role(&role);
        let _ = serde_json::to_vec(&role);
    }
    if let Ok(binding) = serde_json::from_slice::<RoleBinding>(data) {
        let _ = validate_role_binding(&binding);
    }

    let mut b = Bytes(data);
    let authz = snapshot(&mut b);
    for _ in 0..1 + b.below(8) {
        let attrs = request(&mut b);
        let decision = authz.authorize(&attrs);
        let expected = reference::allows(&authz, &attrs);
        assert!(
            !decision.allowed || expected,
            "allowed what the reference denies: {attrs:?} ({})",
            decision.reason
        );
        assert_eq!(
            decision.allowed, expected,
            "denied what the reference allows: {attrs:?}"
        );
        if !decision.allowed {
            let _ = forbidden_status(&attrs, &decision.reason);
        }
        let _ = authz.rules_for(&attrs.user, &attrs.namespace);
    }
    let (owner, servant) = (rules(&mut b), rules(&mut b));
    let (covered, uncovered) = covers(&owner, &servant);
    assert_eq!(covered, uncovered.is_empty());
});
