//! A deliberately naive RBAC evaluator, for differential tests and the
//! `rbac` fuzz target only: it answers the same question as
//! [`super::Authorizer::authorize`] by brute force (collect every
//! applicable rule, compute aggregated ClusterRoles as a fixed point over
//! all roles), sharing nothing with the authorizer but the data types and
//! label-selector matching.

use api_core::labels::Selector;

use super::{Attributes, Authorizer, ClusterRole, PolicyRule, Subject, UserInfo};

/// Whether the reference evaluator allows `attrs` under the snapshot `snapshot`.
pub fn allows(snapshot: &Authorizer, attrs: &Attributes) -> bool {
    if attrs.user.groups.iter().any(|g| g == "system:masters") {
        return true;
    }
    let effective = effective_cluster_rules(&snapshot.cluster_roles);
    let mut rules: Vec<&PolicyRule> = Vec::new();
    for crb in &snapshot.cluster_role_bindings {
        if !crb.subjects.iter().any(|s| names_user(s, &attrs.user, "")) {
            continue;
        }
        let role = first_cluster_role(&snapshot.cluster_roles, &crb.role_ref.name);
        if let (true, Some(i)) = (crb.role_ref.kind == "ClusterRole", role) {
            rules.extend(effective[i].iter());
        }
    }
    let ns = attrs.namespace.as_str();
    for rb in &snapshot.role_bindings {
        if ns.is_empty() || rb.metadata.namespace != ns {
            continue;
        }
        if !rb.subjects.iter().any(|s| names_user(s, &attrs.user, ns)) {
            continue;
        }
        if rb.role_ref.kind == "ClusterRole" {
            if let Some(i) = first_cluster_role(&snapshot.cluster_roles, &rb.role_ref.name) {
                rules.extend(effective[i].iter());
            }
        } else if rb.role_ref.kind == "Role" {
            let role = snapshot
                .roles
                .iter()
                .find(|r| r.metadata.namespace == ns && r.metadata.name == rb.role_ref.name);
            if let Some(role) = role {
                rules.extend(role.rules.iter());
            }
        }
    }
    rules.into_iter().any(|r| rule_grants(r, attrs))
}

fn first_cluster_role(roles: &[ClusterRole], name: &str) -> Option<usize> {
    roles.iter().position(|r| r.metadata.name == name)
}

/// Whether `subject` names `user`, the service account namespace
/// defaulting to `namespace`.
fn names_user(subject: &Subject, user: &UserInfo, namespace: &str) -> bool {
    match subject.kind.as_str() {
        "User" => subject.name == user.name,
        "Group" => user.groups.contains(&subject.name),
        "ServiceAccount" => {
            let ns = if subject.namespace.is_empty() {
                namespace
            } else {
                &subject.namespace
            };
            !ns.is_empty() && user.name == format!("system:serviceaccount:{ns}:{}", subject.name)
        }
        _ => false,
    }
}

/// The rules of every ClusterRole, aggregated ones as the least fixed
/// point of "the union of the effective rules of the other roles my
/// selectors match" (an aggregated role's own rules never count).
fn effective_cluster_rules(roles: &[ClusterRole]) -> Vec<Vec<PolicyRule>> {
    let mut effective: Vec<Vec<PolicyRule>> = roles
        .iter()
        .map(|r| match r.aggregation_rule {
            None => r.rules.clone(),
            Some(_) => Vec::new(),
        })
        .collect();
    loop {
        let mut changed = false;
        for (i, role) in roles.iter().enumerate() {
            let Some(agg) = &role.aggregation_rule else {
                continue;
            };
            for (j, other) in roles.iter().enumerate() {
                if other.metadata.name == role.metadata.name {
                    continue;
                }
                let selected = agg.cluster_role_selectors.iter().any(|sel| {
                    Selector::from_label_selector(Some(sel))
                        .map(|s| s.matches(&other.metadata.labels))
                        .unwrap_or(false)
                });
                if !selected {
                    continue;
                }
                let add = effective[j].clone();
                for rule in add {
                    if !effective[i].contains(&rule) {
                        effective[i].push(rule);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return effective;
        }
    }
}

/// Whether `rule` grants the request, spelled out case by case.
fn rule_grants(rule: &PolicyRule, attrs: &Attributes) -> bool {
    let verb_ok = rule.verbs.iter().any(|v| v == "*") || rule.verbs.contains(&attrs.verb);
    if !verb_ok {
        return false;
    }
    if !attrs.resource_request {
        for url in &rule.non_resource_urls {
            if url == "*" || *url == attrs.path {
                return true;
            }
            if let Some(stem) = url.strip_suffix('*') {
                let stem = stem.trim_end_matches('*');
                if attrs.path.starts_with(stem) {
                    return true;
                }
            }
        }
        return false;
    }
    let group_ok =
        rule.api_groups.iter().any(|g| g == "*") || rule.api_groups.contains(&attrs.api_group);
    let mut accepted = vec!["*".to_string()];
    if attrs.subresource.is_empty() {
        accepted.push(attrs.resource.clone());
    } else {
        accepted.push(format!("{}/{}", attrs.resource, attrs.subresource));
        accepted.push(format!("*/{}", attrs.subresource));
    }
    let resource_ok = rule.resources.iter().any(|r| accepted.contains(r));
    let name_ok = rule.resource_names.is_empty() || rule.resource_names.contains(&attrs.name);
    group_ok && resource_ok && name_ok
}

#[cfg(test)]
#[path = "reference_tests.rs"]
mod tests;
