//! Privilege-escalation prevention: a user may only create or change a
//! role, or bind one, when they already hold every permission it grants,
//! or hold the `escalate` (roles) or `bind` (bindings) verb.
//!
//! - [`covers`] follows k8s.io/component-helpers `auth/rbac/validation/policy_comparator.go`;
//! - [`compact_rules`], [`compact_string`] follow `pkg/registry/rbac/validation/policy_compact.go`
//!   and `pkg/apis/rbac/v1/evaluation_helpers.go`;
//! - [`confirm_no_escalation`] follows `pkg/registry/rbac/validation/rule.go`;
//! - [`escalation_allowed`], [`role_escalation_authorized`],
//!   [`binding_authorized`] follow `pkg/registry/rbac/escalation_check.go`;
//! - the `check_*` functions follow the `Create`/`Update` guards of
//!   `pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/policybased/storage.go`.

use api_core::{GroupResource, Status};

use super::forbidden::go_quote;
use super::{
    ALL, Attributes, Authorizer, ClusterRole, ClusterRoleBinding, GROUP_NAME, PolicyRule, Role,
    RoleBinding, RoleRef, UserInfo,
};

/// `Covers`: whether `owner` rules allow everything `servant` rules do,
/// and the servant rules broken down ([`breakdown_rule`]) that no single
/// owner rule covers.
pub fn covers(owner: &[PolicyRule], servant: &[PolicyRule]) -> (bool, Vec<PolicyRule>) {
    let uncovered: Vec<PolicyRule> = servant
        .iter()
        .flat_map(breakdown_rule)
        .filter(|sub| !owner.iter().any(|o| rule_covers(o, sub)))
        .collect();
    (uncovered.is_empty(), uncovered)
}

/// `BreakdownRule`: one rule per group × resource × verb (× resource name
/// when there are names), then one per non-resource URL × verb.
pub fn breakdown_rule(rule: &PolicyRule) -> Vec<PolicyRule> {
    let mut out = Vec::new();
    for group in &rule.api_groups {
        for resource in &rule.resources {
            for verb in &rule.verbs {
                let one = PolicyRule {
                    verbs: vec![verb.clone()],
                    api_groups: vec![group.clone()],
                    resources: vec![resource.clone()],
                    ..PolicyRule::default()
                };
                if rule.resource_names.is_empty() {
                    out.push(one);
                } else {
                    for name in &rule.resource_names {
                        out.push(PolicyRule {
                            resource_names: vec![name.clone()],
                            ..one.clone()
                        });
                    }
                }
            }
        }
    }
    for url in &rule.non_resource_urls {
        for verb in &rule.verbs {
            out.push(PolicyRule::non_resource(&[verb], &[url]));
        }
    }
    out
}

fn has(set: &[String], item: &str) -> bool {
    set.iter().any(|s| s == item)
}

fn has_all(set: &[String], items: &[String]) -> bool {
    items.iter().all(|i| has(set, i))
}

/// `resourceCoversAll`: `*`, every resource listed, or for a subresource
/// `*/<subresource>`.
fn resource_covers_all(set: &[String], covered: &[String]) -> bool {
    if has(set, ALL) || has_all(set, covered) {
        return true;
    }
    covered.iter().all(|path| {
        has(set, path)
            || path
                .split_once('/')
                .is_some_and(|(_, sub)| has(set, &format!("*/{sub}")))
    })
}

/// `nonResourceURLCovers`: the same path, or an owner ending in `*` whose
/// text before the trailing stars prefixes the path.
pub fn non_resource_url_covers(owner: &str, requested: &str) -> bool {
    owner == requested
        || (owner.ends_with('*') && requested.starts_with(owner.trim_end_matches('*')))
}

/// `ruleCovers`: whether one owner rule covers a broken-down rule.
fn rule_covers(owner: &PolicyRule, sub: &PolicyRule) -> bool {
    let verbs = has(&owner.verbs, ALL) || has_all(&owner.verbs, &sub.verbs);
    let groups = has(&owner.api_groups, ALL) || has_all(&owner.api_groups, &sub.api_groups);
    let resources = resource_covers_all(&owner.resources, &sub.resources);
    let urls = sub.non_resource_urls.iter().all(|path| {
        owner
            .non_resource_urls
            .iter()
            .any(|o| non_resource_url_covers(o, path))
    });
    let names = if sub.resource_names.is_empty() {
        owner.resource_names.is_empty()
    } else {
        owner.resource_names.is_empty() || has_all(&owner.resource_names, &sub.resource_names)
    };
    verbs && groups && resources && urls && names
}

/// `CompactRules`: merges the verbs of rules with one group, one resource
/// and nothing else (the shape [`covers`] leaves), keeping the others.
pub fn compact_rules(rules: &[PolicyRule]) -> Vec<PolicyRule> {
    let mut compacted = Vec::with_capacity(rules.len());
    let mut simple: Vec<PolicyRule> = Vec::new();
    for rule in rules {
        let is_simple = rule.resource_names.is_empty()
            && rule.non_resource_urls.is_empty()
            && rule.api_groups.len() == 1
            && rule.resources.len() == 1;
        if !is_simple {
            compacted.push(rule.clone());
            continue;
        }
        match simple
            .iter_mut()
            .find(|s| s.api_groups == rule.api_groups && s.resources == rule.resources)
        {
            Some(existing) => existing.verbs.extend(rule.verbs.iter().cloned()),
            None => simple.push(rule.clone()),
        }
    }
    compacted.extend(simple);
    compacted
}

/// `CompactString`: `{APIGroups:["g"], Resources:["r"], Verbs:["get"]}`,
/// with only the non-empty fields, in the order APIGroups, Resources,
/// NonResourceURLs, ResourceNames, Verbs.
pub fn compact_string(rule: &PolicyRule) -> String {
    let fields = [
        ("APIGroups", &rule.api_groups),
        ("Resources", &rule.resources),
        ("NonResourceURLs", &rule.non_resource_urls),
        ("ResourceNames", &rule.resource_names),
        ("Verbs", &rule.verbs),
    ];
    let parts: Vec<String> = fields
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(name, v)| format!("{name}:{}", go_quote_list(v)))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

/// `EscalationAllowed`: members of `system:masters` may grant anything.
pub fn escalation_allowed(user: &UserInfo) -> bool {
    user.is_master()
}

/// `ConfirmNoEscalation`: `Ok` when the rules `user` holds in `namespace`
/// (empty: cluster-wide only) cover `rules`; otherwise the message
/// `user "u" (groups=["g"]) is attempting to grant RBAC permissions not
/// currently held:` followed by one compacted missing rule a line (sorted),
/// and `; resolution errors: [...]` when some of the user's roles did not
/// resolve.
pub fn confirm_no_escalation(
    authorizer: &Authorizer,
    user: &UserInfo,
    namespace: &str,
    rules: &[PolicyRule],
) -> Result<(), String> {
    let (owner, error) = authorizer.policy_rules_for(user, namespace);
    let (covered, missing) = covers(&owner, rules);
    if covered {
        return Ok(());
    }
    let mut descriptions: Vec<String> =
        compact_rules(&missing).iter().map(compact_string).collect();
    descriptions.sort();
    descriptions.dedup();
    let mut msg = format!(
        "user {} (groups={}) is attempting to grant RBAC permissions not currently held:\n{}",
        go_quote(&user.name),
        go_quote_list(&user.groups),
        descriptions.join("\n")
    );
    if let Some(error) = error {
        msg.push_str(&format!("; resolution errors: [{error}]"));
    }
    Err(msg)
}

/// `RoleEscalationAuthorized`: whether `user` holds the `escalate` verb on
/// the `resource` (`roles` or `clusterroles`) being written, named `name`
/// in `namespace`.
pub fn role_escalation_authorized(
    authorizer: &Authorizer,
    user: &UserInfo,
    resource: &str,
    namespace: &str,
    name: &str,
) -> bool {
    if resource != "roles" && resource != "clusterroles" {
        return false;
    }
    let attrs = Attributes::resource(user.clone(), "escalate", GROUP_NAME, resource)
        .in_namespace(namespace)
        .with_name(name)
        .with_version("v1");
    authorizer.authorize(&attrs).allowed
}

/// `BindingAuthorized`: whether `user` holds the `bind` verb on the role
/// `role_ref` names, checked in the binding's namespace (empty for a
/// ClusterRoleBinding).
pub fn binding_authorized(
    authorizer: &Authorizer,
    user: &UserInfo,
    role_ref: &RoleRef,
    binding_namespace: &str,
) -> bool {
    let resource = match role_ref.kind.as_str() {
        "ClusterRole" => "clusterroles",
        "Role" => "roles",
        _ => return false,
    };
    let attrs = Attributes::resource(user.clone(), "bind", &role_ref.api_group, resource)
        .in_namespace(binding_namespace)
        .with_name(&role_ref.name);
    authorizer.authorize(&attrs).allowed
}

fn forbidden(resource: &str, name: &str, error: impl std::fmt::Display) -> Status {
    Status::forbidden(GroupResource::new(GROUP_NAME, resource), name, error)
}

/// The guard of creating or updating the Role `role` in `namespace`:
/// allowed for `system:masters`, for holders of `escalate` on it, and for
/// users who already hold all its rules; else 403 with the
/// [`confirm_no_escalation`] message.
pub fn check_role(
    authorizer: &Authorizer,
    user: &UserInfo,
    namespace: &str,
    role: &Role,
) -> Result<(), Status> {
    let name = role.metadata.name.as_str();
    if escalation_allowed(user)
        || role_escalation_authorized(authorizer, user, "roles", namespace, name)
    {
        return Ok(());
    }
    confirm_no_escalation(authorizer, user, namespace, &role.rules)
        .map_err(|msg| forbidden("roles", name, msg))
}

/// The guard of creating (`old` = `None`) or updating a ClusterRole: as
/// [`check_role`] with the cluster-wide rules, and setting or having had an
/// aggregation rule needs `*` on everything (`must have cluster-admin
/// privileges to use the aggregationRule`).
pub fn check_cluster_role(
    authorizer: &Authorizer,
    user: &UserInfo,
    role: &ClusterRole,
    old: Option<&ClusterRole>,
) -> Result<(), Status> {
    let name = role.metadata.name.as_str();
    if escalation_allowed(user)
        || role_escalation_authorized(authorizer, user, "clusterroles", "", name)
    {
        return Ok(());
    }
    confirm_no_escalation(authorizer, user, "", &role.rules)
        .map_err(|msg| forbidden("clusterroles", name, msg))?;
    let aggregates = |r: &ClusterRole| {
        r.aggregation_rule
            .as_ref()
            .is_some_and(|a| !a.cluster_role_selectors.is_empty())
    };
    if aggregates(role) || old.is_some_and(aggregates) {
        confirm_no_escalation(authorizer, user, "", &full_authority()).map_err(|_| {
            forbidden(
                "clusterroles",
                name,
                "must have cluster-admin privileges to use the aggregationRule",
            )
        })?;
    }
    Ok(())
}

/// `*` on every resource and every non-resource URL.
pub fn full_authority() -> Vec<PolicyRule> {
    vec![
        PolicyRule::resource(&[ALL], &[ALL], &[ALL]),
        PolicyRule::non_resource(&[ALL], &[ALL]),
    ]
}

/// The guard of creating or updating a RoleBinding in `namespace`: allowed
/// for `system:masters`, for holders of `bind` on the role, and for users
/// who already hold all the role's rules in `namespace`. A role that does
/// not exist is 404 (for non-masters without `bind`), an escalation 403.
pub fn check_role_binding(
    authorizer: &Authorizer,
    user: &UserInfo,
    namespace: &str,
    binding: &RoleBinding,
) -> Result<(), Status> {
    check_binding(
        authorizer,
        user,
        namespace,
        &binding.role_ref,
        ("rolebindings", &binding.metadata.name),
    )
}

/// The guard of creating or updating a ClusterRoleBinding: as
/// [`check_role_binding`] with the cluster-wide rules.
pub fn check_cluster_role_binding(
    authorizer: &Authorizer,
    user: &UserInfo,
    binding: &ClusterRoleBinding,
) -> Result<(), Status> {
    check_binding(
        authorizer,
        user,
        "",
        &binding.role_ref,
        ("clusterrolebindings", &binding.metadata.name),
    )
}

fn check_binding(
    authorizer: &Authorizer,
    user: &UserInfo,
    namespace: &str,
    role_ref: &RoleRef,
    (resource, name): (&str, &str),
) -> Result<(), Status> {
    if escalation_allowed(user) || binding_authorized(authorizer, user, role_ref, namespace) {
        return Ok(());
    }
    let rules = authorizer
        .role_reference_rules(role_ref, namespace)
        .map_err(|e| e.to_status())?;
    confirm_no_escalation(authorizer, user, namespace, &rules)
        .map_err(|msg| forbidden(resource, name, msg))
}

/// Go's `%q` of a `[]string`: `["a" "b"]`.
fn go_quote_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| go_quote(s)).collect();
    format!("[{}]", quoted.join(" "))
}

#[cfg(test)]
#[path = "escalation_tests.rs"]
mod tests;
