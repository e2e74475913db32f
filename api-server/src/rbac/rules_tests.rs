//! Translated from k8s.io/kubernetes
//! `plugin/pkg/auth/authorizer/rbac/rbac_test.go` (`TestRuleMatches`, every
//! rule and request of its table) plus the `*/subresource` and resource
//! name cases of `pkg/apis/rbac/v1/evaluation_helpers.go`.

use super::*;
use crate::rbac::UserInfo;

fn res(verb: &str, group: &str, resource: &str) -> Attributes {
    Attributes::resource(UserInfo::default(), verb, group, resource)
}

fn url(verb: &str, path: &str) -> Attributes {
    Attributes::non_resource(UserInfo::default(), verb, path)
}

/// Checks every `(request, expected)` pair of one table row.
fn check(name: &str, rule: &PolicyRule, cases: &[(Attributes, bool)]) {
    for (attrs, expected) in cases {
        assert_eq!(
            rule_allows(attrs, rule),
            *expected,
            "{name}: {attrs:?} against {rule:?}"
        );
    }
}

/// The eight verb × group × resource combinations of `verb1/2`,
/// `group1/2`, `resource1/2`, expected in that order.
fn grid(expected: [bool; 8]) -> Vec<(Attributes, bool)> {
    let mut cases = Vec::new();
    let mut i = 0;
    for verb in ["verb1", "verb2"] {
        for (group, resource) in [
            ("group1", "resource1"),
            ("group2", "resource1"),
            ("group1", "resource2"),
            ("group2", "resource2"),
        ] {
            cases.push((res(verb, group, resource), expected[i]));
            i += 1;
        }
    }
    cases
}

/// `TestRuleMatches` "star verb, exact match other".
#[test]
fn star_verb_exact_match_other() {
    let rule = PolicyRule::resource(&["*"], &["group1"], &["resource1"]);
    let t = true;
    let f = false;
    check("star verb", &rule, &grid([t, f, f, f, t, f, f, f]));
}

/// `TestRuleMatches` "star group, exact match other".
#[test]
fn star_group_exact_match_other() {
    let rule = PolicyRule::resource(&["verb1"], &["*"], &["resource1"]);
    let (t, f) = (true, false);
    check("star group", &rule, &grid([t, t, f, f, f, f, f, f]));
}

/// `TestRuleMatches` "star resource, exact match other".
#[test]
fn star_resource_exact_match_other() {
    let rule = PolicyRule::resource(&["verb1"], &["group1"], &["*"]);
    let (t, f) = (true, false);
    check("star resource", &rule, &grid([t, f, t, f, f, f, f, f]));
}

/// `TestRuleMatches` "tuple expansion".
#[test]
fn tuple_expansion() {
    let rule = PolicyRule::resource(
        &["verb1", "verb2"],
        &["group1", "group2"],
        &["resource1", "resource2"],
    );
    check("tuple expansion", &rule, &grid([true; 8]));
}

/// `TestRuleMatches` "subresource expansion".
#[test]
fn subresource_expansion() {
    let rule = PolicyRule::resource(&["*"], &["*"], &["resource1/subresource1"]);
    let mut cases = Vec::new();
    for verb in ["verb1", "verb2"] {
        for (group, resource, sub, expected) in [
            ("group1", "resource1", "subresource1", true),
            ("group2", "resource1", "subresource2", false),
            ("group1", "resource2", "subresource1", false),
            ("group2", "resource2", "subresource1", false),
        ] {
            cases.push((res(verb, group, resource).with_subresource(sub), expected));
        }
    }
    check("subresource expansion", &rule, &cases);
}

const PATHS: [&str; 5] = [
    "/foo",
    "/foo/bar",
    "/foo/baz",
    "/foo/bar/one",
    "/foo/baz/one",
];

/// `TestRuleMatches` "star nonresource, exact match other".
#[test]
fn star_nonresource_exact_match_other() {
    let rule = PolicyRule::non_resource(&["verb1"], &["*"]);
    let mut cases: Vec<_> = PATHS.iter().map(|p| (url("verb1", p), true)).collect();
    cases.extend(PATHS.iter().map(|p| (url("verb2", p), false)));
    check("star nonresource", &rule, &cases);
}

/// `TestRuleMatches` "star nonresource subpath".
#[test]
fn star_nonresource_subpath() {
    let rule = PolicyRule::non_resource(&["verb1"], &["/foo/*"]);
    let mut cases = vec![(url("verb1", "/foo"), false)];
    cases.extend(PATHS[1..].iter().map(|p| (url("verb1", p), true)));
    for p in [
        "/notfoo",
        "/notfoo/bar",
        "/notfoo/baz",
        "/notfoo/bar/one",
        "/notfoo/baz/one",
    ] {
        cases.push((url("verb1", p), false));
    }
    check("star nonresource subpath", &rule, &cases);
}

/// `TestRuleMatches` "star verb, exact nonresource".
#[test]
fn star_verb_exact_nonresource() {
    let rule = PolicyRule::non_resource(&["*"], &["/foo", "/foo/bar/one"]);
    let mut cases = Vec::new();
    for verb in ["verb1", "verb2"] {
        for (p, expected) in PATHS.iter().zip([true, false, false, true, false]) {
            cases.push((url(verb, p), expected));
        }
    }
    check("star verb exact nonresource", &rule, &cases);
}

/// `ResourceMatches`: `*/status` matches any resource's status, never the
/// main resource, and `widgets` never matches `widgets/status`.
#[test]
fn star_slash_subresource() {
    let rule = PolicyRule::resource(&["update"], &["example.com"], &["*/status"]);
    check(
        "*/status",
        &rule,
        &[
            (
                res("update", "example.com", "widgets").with_subresource("status"),
                true,
            ),
            (
                res("update", "example.com", "gadgets").with_subresource("status"),
                true,
            ),
            (res("update", "example.com", "widgets"), false),
            (
                res("update", "example.com", "widgets").with_subresource("scale"),
                false,
            ),
            (
                res("update", "example.com", "widgets").with_subresource("statuses"),
                false,
            ),
        ],
    );
    let main_only = PolicyRule::resource(&["update"], &["example.com"], &["widgets"]);
    check(
        "main resource only",
        &main_only,
        &[
            (res("update", "example.com", "widgets"), true),
            (
                res("update", "example.com", "widgets").with_subresource("status"),
                false,
            ),
        ],
    );
}

/// `ResourceNameMatches`: names restrict; a request without a name (list,
/// create) does not match a rule with names.
#[test]
fn resource_names() {
    let rule = PolicyRule::resource(&["get"], &[""], &["pods"]).with_names(&["a", "b"]);
    check(
        "resource names",
        &rule,
        &[
            (res("get", "", "pods").with_name("a"), true),
            (res("get", "", "pods").with_name("b"), true),
            (res("get", "", "pods").with_name("c"), false),
            (res("get", "", "pods"), false),
        ],
    );
}

/// Non-resource rules never match resource requests and resource rules
/// never match paths; an empty rule matches nothing.
#[test]
fn kinds_do_not_mix() {
    let urls = PolicyRule::non_resource(&["*"], &["*"]);
    assert!(!rule_allows(&res("get", "", "pods"), &urls));
    let resources = PolicyRule::resource(&["*"], &["*"], &["*"]);
    assert!(!rule_allows(&url("get", "/healthz"), &resources));
    assert!(!rules_allow(
        &res("get", "", "pods"),
        &[PolicyRule::default()]
    ));
    assert!(rules_allow(&res("get", "", "pods"), &[urls, resources]));
}

/// `NonResourceURLMatches` trims every trailing star (`strings.TrimRight`).
#[test]
fn trailing_stars() {
    let rule = PolicyRule::non_resource(&["get"], &["/api**"]);
    assert!(rule_allows(&url("get", "/api"), &rule));
    assert!(rule_allows(&url("get", "/apis/x"), &rule));
    assert!(!rule_allows(&url("get", "/ap"), &rule));
}
