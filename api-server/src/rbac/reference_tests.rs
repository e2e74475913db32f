//! Differential property tests: [`crate::rbac::Authorizer::authorize`]
//! against the naive [`super::allows`] over random snapshots drawn from
//! small alphabets (so that names, namespaces, labels and rules collide
//! often), plus two consistency properties: the rules `policy_rules_for`
//! lists allow exactly what `authorize` allows, and `covers` is sound
//! (what covered rules allow, the owner's rules allow).

use api_core::meta::{LabelSelector, LabelSelectorRequirement};
use proptest::prelude::*;
use proptest::sample::select;

use super::*;
use crate::rbac::escalation::covers;
use crate::rbac::rules::rules_allow;
use crate::rbac::{AggregationRule, ClusterRoleBinding, GROUP_NAME, Role, RoleBinding, RoleRef};

fn one(options: &'static [&'static str]) -> impl Strategy<Value = String> {
    select(options).prop_map(String::from)
}

fn some(options: &'static [&'static str], max: usize) -> impl Strategy<Value = Vec<String>> {
    between(options, 0, max)
}

fn between(
    options: &'static [&'static str],
    min: usize,
    max: usize,
) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(one(options), min..=max)
}

const VERBS: &[&str] = &["get", "list", "update", "*", "escalate"];
const GROUPS: &[&str] = &["", "apps", "*"];
const RESOURCES: &[&str] = &[
    "pods",
    "pods/status",
    "*/status",
    "*",
    "widgets",
    "widgets/scale",
];
const NAMES: &[&str] = &["a", "b"];
const URLS: &[&str] = &["/healthz", "/api/*", "*", "/api", "/ap**", "/"];
const NAMESPACES: &[&str] = &["", "ns1", "ns2"];
const ROLE_NAMES: &[&str] = &["r1", "r2", "c1", "c2", "c3", "zz"];
const USERS: &[&str] = &[
    "alice",
    "bob",
    "system:serviceaccount:ns1:sa",
    "system:serviceaccount:ns2:sa",
    "",
];

fn rule() -> impl Strategy<Value = PolicyRule> {
    (
        between(VERBS, 1, 2),
        between(GROUPS, 1, 2),
        between(RESOURCES, 1, 2),
        prop_oneof![3 => Just(Vec::new()), 1 => some(NAMES, 1)],
        prop_oneof![2 => Just(Vec::new()), 1 => between(URLS, 1, 2)],
    )
        .prop_map(
            |(verbs, api_groups, resources, resource_names, non_resource_urls)| PolicyRule {
                verbs,
                api_groups,
                resources,
                resource_names,
                non_resource_urls,
            },
        )
}

fn rules() -> impl Strategy<Value = Vec<PolicyRule>> {
    prop::collection::vec(rule(), 0..=3)
}

fn subject() -> impl Strategy<Value = Subject> {
    (
        prop_oneof![
            3 => Just("User".to_string()),
            3 => Just("Group".to_string()),
            2 => Just("ServiceAccount".to_string()),
            1 => Just("Robot".to_string()),
        ],
        one(&["alice", "bob", "g1", "sa", "system:authenticated"]),
        one(NAMESPACES),
    )
        .prop_map(|(kind, name, namespace)| Subject {
            kind,
            name,
            namespace,
            api_group: String::new(),
        })
}

fn subjects() -> impl Strategy<Value = Vec<Subject>> {
    prop::collection::vec(subject(), 0..=2)
}

fn role_ref() -> impl Strategy<Value = RoleRef> {
    prop_oneof![
        4 => ("Role", one(&["r1", "r2", "zz"])),
        4 => ("ClusterRole", one(&["c1", "c2", "c3", "zz"])),
        1 => ("Bogus", one(ROLE_NAMES)),
    ]
    .prop_map(|(kind, name)| RoleRef {
        kind: kind.to_string(),
        name,
        api_group: GROUP_NAME.to_string(),
    })
}

/// `agg in (x)`-like selectors, sometimes with a bad operator (which
/// matches nothing) or empty (which matches everything).
fn selector() -> impl Strategy<Value = LabelSelector> {
    (
        prop::option::of(one(&["x", "y"])),
        prop::option::of(one(&["In", "Exists", "DoesNotExist", "Bad"])),
    )
        .prop_map(|(label, op)| {
            let mut s = LabelSelector::default();
            if let Some(v) = label {
                s.match_labels.insert("agg".into(), v);
            }
            if let Some(operator) = op {
                let values = if operator == "In" {
                    vec!["x".into()]
                } else {
                    vec![]
                };
                s.match_expressions.push(LabelSelectorRequirement {
                    key: "agg".into(),
                    operator,
                    values,
                });
            }
            s
        })
}

fn cluster_role() -> impl Strategy<Value = ClusterRole> {
    (
        one(&["c1", "c2", "c3"]),
        prop::option::of(one(&["x", "y"])),
        rules(),
        prop::option::of(prop::collection::vec(selector(), 0..=2)),
    )
        .prop_map(|(name, label, rules, selectors)| {
            let mut role = ClusterRole::new(&name, rules);
            if let Some(v) = label {
                role.metadata.labels.insert("agg".into(), v);
            }
            role.aggregation_rule = selectors.map(|cluster_role_selectors| AggregationRule {
                cluster_role_selectors,
            });
            role
        })
}

fn snapshot() -> impl Strategy<Value = Authorizer> {
    let role = (one(&["ns1", "ns2"]), one(&["r1", "r2"]), rules())
        .prop_map(|(ns, name, rules)| Role::new(&ns, &name, rules));
    let role_binding = (one(&["ns1", "ns2"]), role_ref(), subjects())
        .prop_map(|(ns, r, s)| RoleBinding::new(&ns, "rb", r, s));
    let cluster_binding =
        (role_ref(), subjects()).prop_map(|(role_ref, subjects)| ClusterRoleBinding {
            role_ref,
            ..ClusterRoleBinding::new("crb", "", subjects)
        });
    (
        prop::collection::vec(role, 0..=4),
        prop::collection::vec(role_binding, 0..=4),
        prop::collection::vec(cluster_role(), 0..=4),
        prop::collection::vec(cluster_binding, 0..=2),
    )
        .prop_map(|(r, rb, cr, crb)| Authorizer::new(r, rb, cr, crb))
}

/// A user a binding names, where, and a rule the binding's role (likely)
/// holds: what the generator aims requests at. Only a generator: whether
/// the request is allowed is for the two evaluators to say.
#[derive(Clone, Debug)]
struct Target {
    user: UserInfo,
    namespace: String,
    rule: PolicyRule,
}

fn user_named_by(subject: &Subject, namespace: &str) -> UserInfo {
    match subject.kind.as_str() {
        "Group" => UserInfo::new("someone", &[subject.name.as_str()]),
        "ServiceAccount" => {
            let ns = [subject.namespace.as_str(), namespace, "ns1"]
                .into_iter()
                .find(|n| !n.is_empty())
                .unwrap_or("ns1");
            UserInfo::new(format!("system:serviceaccount:{ns}:{}", subject.name), &[])
        }
        _ => UserInfo::new(&subject.name, &[]),
    }
}

/// Rules the role `role_ref` may hold (every cluster role's rules for an
/// aggregated one: an over-approximation is fine here).
fn rules_of(authz: &Authorizer, role_ref: &RoleRef, namespace: &str) -> Vec<PolicyRule> {
    let mut out = Vec::new();
    for r in &authz.roles {
        if role_ref.kind == "Role"
            && r.metadata.namespace == namespace
            && r.metadata.name == role_ref.name
        {
            out.extend(r.rules.iter().cloned());
        }
    }
    for c in &authz.cluster_roles {
        if role_ref.kind == "ClusterRole" && c.metadata.name == role_ref.name {
            out.extend(c.rules.iter().cloned());
            if c.aggregation_rule.is_some() {
                out.extend(
                    authz
                        .cluster_roles
                        .iter()
                        .flat_map(|o| o.rules.iter().cloned()),
                );
            }
        }
    }
    out
}

fn targets(authz: &Authorizer) -> Vec<Target> {
    let mut out = Vec::new();
    let bindings = authz
        .cluster_role_bindings
        .iter()
        .map(|b| (&b.subjects, &b.role_ref, ""))
        .chain(
            authz
                .role_bindings
                .iter()
                .map(|b| (&b.subjects, &b.role_ref, b.metadata.namespace.as_str())),
        );
    for (subjects, role_ref, ns) in bindings {
        for rule in rules_of(authz, role_ref, ns) {
            for s in subjects {
                out.push(Target {
                    user: user_named_by(s, ns),
                    namespace: ns.to_string(),
                    rule: rule.clone(),
                });
            }
        }
    }
    out
}

fn pick(items: &[String], index: usize, star: &str) -> String {
    match items.get(index % items.len().max(1)) {
        Some(s) if s == "*" => star.to_string(),
        Some(s) => s.clone(),
        None => star.to_string(),
    }
}

/// A request the target's rule allows, then with each field replaced by
/// the one of `noise` with probability 1/4 (by `dice`).
fn aim(target: &Target, noise: Attributes, dice: [u8; 9]) -> Attributes {
    let rule = &target.rule;
    let keep = |i: usize| !dice[i].is_multiple_of(4);
    let mut a = noise.clone();
    if keep(0) {
        a.user = target.user.clone();
    }
    if keep(1) {
        a.namespace = if target.namespace.is_empty() {
            noise.namespace.clone()
        } else {
            target.namespace.clone()
        };
    }
    if keep(2) {
        a.verb = pick(&rule.verbs, dice[2].into(), "get");
    }
    a.resource_request = if rule.non_resource_urls.is_empty() || rule.resources.is_empty() {
        !rule.resources.is_empty()
    } else {
        dice[3].is_multiple_of(2)
    };
    if !keep(3) {
        a.resource_request = noise.resource_request;
    }
    if keep(4) {
        a.api_group = pick(&rule.api_groups, dice[4].into(), "apps");
    }
    if keep(5) {
        let r = pick(&rule.resources, dice[5].into(), "pods");
        let (res, sub) = r.split_once('/').unwrap_or((&r, ""));
        a.resource = if res == "*" {
            "widgets".to_string()
        } else {
            res.to_string()
        };
        a.subresource = sub.to_string();
    }
    if keep(6) && !rule.resource_names.is_empty() {
        a.name = pick(&rule.resource_names, dice[6].into(), "a");
    }
    if keep(7) {
        let u = pick(&rule.non_resource_urls, dice[7].into(), "/x");
        let stem = u.trim_end_matches('*');
        a.path = if u.ends_with('*') && keep(8) {
            format!("{stem}v1")
        } else {
            stem.to_string()
        };
    }
    a
}

fn request() -> impl Strategy<Value = Attributes> {
    (
        (
            one(USERS),
            some(&["g1", "g2", "system:authenticated"], 2),
            any::<u8>(),
        ),
        any::<bool>(),
        one(&["get", "list", "update", "escalate"]),
        one(NAMESPACES),
        one(&["", "apps", "x"]),
        one(&["pods", "widgets", "secrets"]),
        one(&["", "status", "scale"]),
        one(&["", "a", "b"]),
        one(&["/healthz", "/api", "/api/v1", "/apis", "/ap", "/"]),
    )
        .prop_map(
            |(
                (name, mut groups, dice),
                resource_request,
                verb,
                ns,
                group,
                resource,
                sub,
                obj,
                path,
            )| {
                if dice == 0 {
                    groups.push("system:masters".into());
                }
                let user = UserInfo {
                    name,
                    groups,
                    ..UserInfo::default()
                };
                if resource_request {
                    Attributes::resource(user, &verb, &group, &resource)
                        .in_namespace(&ns)
                        .with_subresource(&sub)
                        .with_name(&obj)
                } else {
                    Attributes::non_resource(user, &verb, &path)
                }
            },
        )
}

/// A snapshot and requests aimed at what it grants (or pure noise when it
/// grants nothing).
fn scenario() -> impl Strategy<Value = (Authorizer, Vec<Attributes>)> {
    snapshot().prop_flat_map(|authz| {
        let targets = targets(&authz);
        let aimed = (any::<prop::sample::Index>(), request(), any::<[u8; 9]>()).prop_map(
            move |(index, noise, dice)| {
                if targets.is_empty() {
                    noise
                } else {
                    aim(&targets[index.index(targets.len())], noise, dice)
                }
            },
        );
        (Just(authz), prop::collection::vec(aimed, 1..8))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// `authorize` and the naive evaluator agree on every request.
    #[test]
    fn authorize_agrees_with_reference((authz, requests) in scenario()) {
        for attrs in &requests {
            let decision = authz.authorize(attrs);
            prop_assert_eq!(decision.allowed, allows(&authz, attrs), "{:?}", attrs);
            prop_assert_eq!(decision.allowed, decision.reason.starts_with("RBAC: allowed by ")
                || attrs.user.is_master());
        }
    }

    /// The rules a user is told they hold (`RulesFor`) allow exactly what
    /// `authorize` allows them (`system:masters` aside).
    #[test]
    fn rules_for_matches_authorize((authz, requests) in scenario()) {
        for attrs in requests.iter().filter(|a| !a.user.is_master()) {
            let (rules, _) = authz.policy_rules_for(&attrs.user, &attrs.namespace);
            prop_assert_eq!(rules_allow(attrs, &rules), authz.authorize(attrs).allowed);
        }
    }

    /// `covers` is sound: when the owner's rules cover the servant's,
    /// every request the servant's rules allow, the owner's allow.
    #[test]
    fn covers_is_sound(owner in rules(), servant in rules(), attrs in request()) {
        let (covered, uncovered) = covers(&owner, &servant);
        prop_assert_eq!(covered, uncovered.is_empty());
        if covered && rules_allow(&attrs, &servant) {
            prop_assert!(rules_allow(&attrs, &owner), "{:?} {:?}", owner, servant);
        }
        // A role covers itself, unless a rule mixes resource names with
        // non-resource URLs (which validation rejects): upstream's
        // `ruleCovers` then wants an owner without names for the URL part.
        if servant.iter().all(|r| r.resource_names.is_empty() || r.non_resource_urls.is_empty()) {
            prop_assert!(covers(&servant, &servant).0);
        }
    }
}

/// Aggregation cycles and chains agree too (a fixed case the random
/// snapshots reach only rarely).
#[test]
fn aggregation_chain_agrees() {
    let agg = |name: &str, label: &str, selects: &str| {
        let mut r = ClusterRole::new(name, vec![PolicyRule::resource(&["*"], &["*"], &["*"])]);
        r.metadata.labels.insert("l".into(), label.into());
        r.aggregation_rule = Some(AggregationRule {
            cluster_role_selectors: vec![LabelSelector {
                match_labels: [("l".to_string(), selects.to_string())].into(),
                ..LabelSelector::default()
            }],
        });
        r
    };
    let mut leaf = ClusterRole::new(
        "leaf",
        vec![PolicyRule::resource(&["get"], &[""], &["pods"])],
    );
    leaf.metadata.labels.insert("l".into(), "3".into());
    let authz = Authorizer::new(
        vec![],
        vec![],
        vec![
            agg("top", "1", "2"),
            agg("mid", "2", "3"),
            agg("cyc", "3", "2"),
            leaf,
        ],
        vec![ClusterRoleBinding::new(
            "b",
            "top",
            vec![Subject::user("u")],
        )],
    );
    let get = Attributes::resource(UserInfo::new("u", &[]), "get", "", "pods");
    let delete = Attributes::resource(UserInfo::new("u", &[]), "delete", "", "pods");
    assert!(authz.authorize(&get).allowed && allows(&authz, &get));
    assert!(!authz.authorize(&delete).allowed && !allows(&authz, &delete));
}

/// The generators reach allowed requests often enough for the
/// differential test to mean something, through both kinds of binding.
#[test]
fn scenarios_reach_allows() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut total, mut allowed, mut by_role_binding) = (0, 0, 0);
    for _ in 0..500 {
        let Ok(tree) = scenario().new_tree(&mut runner) else {
            continue;
        };
        let (authz, requests) = tree.current();
        for attrs in requests.iter().filter(|a| !a.user.is_master()) {
            total += 1;
            let d = authz.authorize(attrs);
            allowed += usize::from(d.allowed);
            by_role_binding += usize::from(d.reason.contains("by RoleBinding"));
        }
    }
    assert!(allowed * 20 > total, "{allowed} of {total} allowed");
    assert!(
        by_role_binding * 40 > total,
        "{by_role_binding} of {total} by RoleBindings"
    );
}
