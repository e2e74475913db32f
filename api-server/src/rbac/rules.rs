//! Whether one rule allows one request: `RuleAllows` of
//! `plugin/pkg/auth/authorizer/rbac/rbac.go` over the matchers of
//! `pkg/apis/rbac/v1/evaluation_helpers.go`.

use super::{ALL, Attributes, PolicyRule};

/// `VerbMatches`: the rule lists `*` or the verb.
pub fn verb_matches(rule: &PolicyRule, verb: &str) -> bool {
    rule.verbs.iter().any(|v| v == ALL || v == verb)
}

/// `APIGroupMatches`: the rule lists `*` or the group (`""` for core).
pub fn api_group_matches(rule: &PolicyRule, group: &str) -> bool {
    rule.api_groups.iter().any(|g| g == ALL || g == group)
}

/// `ResourceMatches`: the rule lists `*`, the combined resource
/// (`widgets` or `widgets/status`), or `*/<subresource>` when the request
/// has a subresource. `widgets` does not match `widgets/status`.
pub fn resource_matches(rule: &PolicyRule, combined: &str, subresource: &str) -> bool {
    rule.resources.iter().any(|r| {
        r == ALL
            || r == combined
            || (!subresource.is_empty()
                && r.strip_prefix("*/").is_some_and(|sub| sub == subresource))
    })
}

/// `ResourceNameMatches`: no names in the rule, or the request's name among
/// them (a request without a name, a list or a create, only matches rules
/// without names).
pub fn resource_name_matches(rule: &PolicyRule, name: &str) -> bool {
    rule.resource_names.is_empty() || rule.resource_names.iter().any(|n| n == name)
}

/// `NonResourceURLMatches`: `*`, the exact path, or a rule ending in `*`
/// whose text before the trailing stars is a prefix of the path
/// (`/apis/*` matches `/apis/v1` but not `/apis`).
pub fn non_resource_url_matches(rule: &PolicyRule, path: &str) -> bool {
    rule.non_resource_urls.iter().any(|u| {
        u == ALL || u == path || (u.ends_with('*') && path.starts_with(u.trim_end_matches('*')))
    })
}

/// `RuleAllows`: whether `rule` allows the request `attrs`.
pub fn rule_allows(attrs: &Attributes, rule: &PolicyRule) -> bool {
    if !attrs.resource_request {
        return verb_matches(rule, &attrs.verb) && non_resource_url_matches(rule, &attrs.path);
    }
    let combined;
    let resource = if attrs.subresource.is_empty() {
        attrs.resource.as_str()
    } else {
        combined = format!("{}/{}", attrs.resource, attrs.subresource);
        combined.as_str()
    };
    verb_matches(rule, &attrs.verb)
        && api_group_matches(rule, &attrs.api_group)
        && resource_matches(rule, resource, &attrs.subresource)
        && resource_name_matches(rule, &attrs.name)
}

/// `RulesAllow`: whether any of `rules` allows `attrs`.
pub fn rules_allow(attrs: &Attributes, rules: &[PolicyRule]) -> bool {
    rules.iter().any(|r| rule_allows(attrs, r))
}

#[cfg(test)]
#[path = "rules_tests.rs"]
mod tests;
