//! Validation of the four RBAC kinds: `pkg/apis/rbac/validation/validation.go`.
//! Names (of roles, bindings and referenced roles) need only be valid path
//! segments (`minimalNameRequirements`); service account subjects need a
//! DNS-1123 subdomain (`ValidateServiceAccountName`).

use api_core::labels::Selector;
use api_core::validation::names::{name_is_dns_subdomain, validate_path_segment_name};
use api_core::validation::object_meta::{validate_object_meta, validate_object_meta_update};
use api_core::validation::{ErrorList, FieldError, FieldPath};

use super::{
    ClusterRole, ClusterRoleBinding, GROUP_KIND, GROUP_NAME, PolicyRule, Role, RoleBinding,
    RoleRef, SERVICE_ACCOUNT_KIND, Subject, USER_KIND,
};

const METADATA: FieldPath<'static> = FieldPath::new("metadata");

/// `validatePolicyRule`: verbs are required; a non-resource rule is only
/// allowed outside namespaces and without groups, resources or names; a
/// resource rule needs groups and resources, and names only with one
/// resource.
pub fn validate_policy_rule(
    rule: &PolicyRule,
    namespaced: bool,
    path: &FieldPath<'_>,
) -> ErrorList {
    let mut errs = ErrorList::new();
    if rule.verbs.is_empty() {
        errs.push(FieldError::required(
            &path.child("verbs"),
            "verbs must contain at least one value",
        ));
    }
    if !rule.non_resource_urls.is_empty() {
        let urls = path.child("nonResourceURLs");
        if namespaced {
            errs.push(FieldError::invalid(
                &urls,
                rule.non_resource_urls.clone(),
                "namespaced rules cannot apply to non-resource URLs",
            ));
        }
        if !rule.api_groups.is_empty()
            || !rule.resources.is_empty()
            || !rule.resource_names.is_empty()
        {
            errs.push(FieldError::invalid(
                &urls,
                rule.non_resource_urls.clone(),
                "rules cannot apply to both regular resources and non-resource URLs",
            ));
        }
        return errs;
    }
    if rule.api_groups.is_empty() {
        errs.push(FieldError::required(
            &path.child("apiGroups"),
            "resource rules must supply at least one api group",
        ));
    }
    if rule.resources.is_empty() {
        errs.push(FieldError::required(
            &path.child("resources"),
            "resource rules must supply at least one resource",
        ));
    }
    if !rule.resource_names.is_empty() && rule.resources.len() > 1 {
        errs.push(FieldError::required(
            &path.child("resourceNames"),
            "resource names cannot apply to multiple resources",
        ));
    }
    errs
}

fn validate_rules(rules: &[PolicyRule], namespaced: bool) -> ErrorList {
    let path = FieldPath::new("rules");
    let mut errs = ErrorList::new();
    for (i, rule) in rules.iter().enumerate() {
        errs.extend(validate_policy_rule(rule, namespaced, &path.index(i)));
    }
    errs
}

/// `ValidateRole`: namespaced metadata with a path-segment name, and rules
/// without non-resource URLs.
pub fn validate_role(role: &Role) -> ErrorList {
    let mut errs =
        validate_object_meta(&role.metadata, true, validate_path_segment_name, &METADATA);
    errs.extend(validate_rules(&role.rules, true));
    errs
}

/// `ValidateRoleUpdate`: [`validate_role`] and the metadata update rules.
pub fn validate_role_update(role: &Role, old: &Role) -> ErrorList {
    let mut errs = validate_role(role);
    errs.extend(validate_object_meta_update(
        &role.metadata,
        &old.metadata,
        &METADATA,
    ));
    errs
}

/// `ValidateClusterRole`: cluster-scoped metadata, the rules, and an
/// aggregation rule with at least one selector, each a valid label selector.
pub fn validate_cluster_role(role: &ClusterRole) -> ErrorList {
    let mut errs =
        validate_object_meta(&role.metadata, false, validate_path_segment_name, &METADATA);
    errs.extend(validate_rules(&role.rules, false));
    if let Some(aggregation) = &role.aggregation_rule {
        let agg = FieldPath::new("aggregationRule");
        let selectors = agg.child("clusterRoleSelectors");
        if aggregation.cluster_role_selectors.is_empty() {
            errs.push(FieldError::required(
                &selectors,
                "at least one clusterRoleSelector required if aggregationRule is non-nil",
            ));
        }
        for (i, selector) in aggregation.cluster_role_selectors.iter().enumerate() {
            if let Err(err) = Selector::from_label_selector(Some(selector)) {
                let path = selectors.index(i);
                let value = serde_json::to_value(selector).unwrap_or_default();
                let fields = err.field_errors();
                if fields.is_empty() {
                    errs.push(FieldError::invalid(&path, value, "invalid label selector."));
                } else {
                    errs.extend(fields.iter().cloned());
                }
            }
        }
    }
    errs
}

/// `ValidateClusterRoleUpdate`: [`validate_cluster_role`] and the metadata
/// update rules.
pub fn validate_cluster_role_update(role: &ClusterRole, old: &ClusterRole) -> ErrorList {
    let mut errs = validate_cluster_role(role);
    errs.extend(validate_object_meta_update(
        &role.metadata,
        &old.metadata,
        &METADATA,
    ));
    errs
}

/// The role reference: group `rbac.authorization.k8s.io`, a kind among
/// `kinds`, a path-segment name.
fn validate_role_ref(role_ref: &RoleRef, kinds: &[&str]) -> ErrorList {
    let mut errs = ErrorList::new();
    let path = FieldPath::new("roleRef");
    if role_ref.api_group != GROUP_NAME {
        errs.push(FieldError::not_supported(
            &path.child("apiGroup"),
            role_ref.api_group.as_str(),
            &[GROUP_NAME],
        ));
    }
    if !kinds.contains(&role_ref.kind.as_str()) {
        errs.push(FieldError::not_supported(
            &path.child("kind"),
            role_ref.kind.as_str(),
            kinds,
        ));
    }
    let name = path.child("name");
    if role_ref.name.is_empty() {
        errs.push(FieldError::required(&name, ""));
    } else {
        for msg in validate_path_segment_name(&role_ref.name, false) {
            errs.push(FieldError::invalid(&name, role_ref.name.as_str(), msg));
        }
    }
    errs
}

/// `validateRoleBindingSubject`.
pub fn validate_subject(subject: &Subject, namespaced: bool, path: &FieldPath<'_>) -> ErrorList {
    let mut errs = ErrorList::new();
    let name = path.child("name");
    let api_group = path.child("apiGroup");
    if subject.name.is_empty() {
        errs.push(FieldError::required(&name, ""));
    }
    match subject.kind.as_str() {
        SERVICE_ACCOUNT_KIND => {
            if !subject.name.is_empty() {
                for msg in name_is_dns_subdomain(&subject.name, false) {
                    errs.push(FieldError::invalid(&name, subject.name.as_str(), msg));
                }
            }
            if !subject.api_group.is_empty() {
                errs.push(FieldError::not_supported(
                    &api_group,
                    subject.api_group.as_str(),
                    &[""],
                ));
            }
            if !namespaced && subject.namespace.is_empty() {
                errs.push(FieldError::required(&path.child("namespace"), ""));
            }
        }
        USER_KIND | GROUP_KIND => {
            if subject.name.is_empty() {
                let what = if subject.kind == USER_KIND {
                    "user"
                } else {
                    "group"
                };
                errs.push(FieldError::invalid(
                    &name,
                    "",
                    format!("{what} name cannot be empty"),
                ));
            }
            if subject.api_group != GROUP_NAME {
                errs.push(FieldError::not_supported(
                    &api_group,
                    subject.api_group.as_str(),
                    &[GROUP_NAME],
                ));
            }
        }
        other => errs.push(FieldError::not_supported(
            &path.child("kind"),
            other,
            &[SERVICE_ACCOUNT_KIND, USER_KIND, GROUP_KIND],
        )),
    }
    errs
}

fn validate_subjects(subjects: &[Subject], namespaced: bool) -> ErrorList {
    let path = FieldPath::new("subjects");
    let mut errs = ErrorList::new();
    for (i, s) in subjects.iter().enumerate() {
        errs.extend(validate_subject(s, namespaced, &path.index(i)));
    }
    errs
}

/// `ValidateRoleBinding`: namespaced metadata, a `Role` or `ClusterRole`
/// reference, valid subjects (a service account's namespace defaults to
/// the binding's).
pub fn validate_role_binding(binding: &RoleBinding) -> ErrorList {
    let mut errs = validate_object_meta(
        &binding.metadata,
        true,
        validate_path_segment_name,
        &METADATA,
    );
    errs.extend(validate_role_ref(
        &binding.role_ref,
        &["Role", "ClusterRole"],
    ));
    errs.extend(validate_subjects(&binding.subjects, true));
    errs
}

/// `ValidateClusterRoleBinding`: cluster-scoped metadata, a `ClusterRole`
/// reference, valid subjects (service accounts with a namespace).
pub fn validate_cluster_role_binding(binding: &ClusterRoleBinding) -> ErrorList {
    let mut errs = validate_object_meta(
        &binding.metadata,
        false,
        validate_path_segment_name,
        &METADATA,
    );
    errs.extend(validate_role_ref(&binding.role_ref, &["ClusterRole"]));
    errs.extend(validate_subjects(&binding.subjects, false));
    errs
}

fn role_ref_unchanged(new: &RoleRef, old: &RoleRef) -> ErrorList {
    let mut errs = ErrorList::new();
    if new != old {
        let value = serde_json::to_value(new).unwrap_or_default();
        errs.push(FieldError::invalid(
            &FieldPath::new("roleRef"),
            value,
            "cannot change roleRef",
        ));
    }
    errs
}

/// `ValidateRoleBindingUpdate`: as on create, plus the metadata update
/// rules, and `roleRef` may not change.
pub fn validate_role_binding_update(binding: &RoleBinding, old: &RoleBinding) -> ErrorList {
    let mut errs = validate_role_binding(binding);
    errs.extend(validate_object_meta_update(
        &binding.metadata,
        &old.metadata,
        &METADATA,
    ));
    errs.extend(role_ref_unchanged(&binding.role_ref, &old.role_ref));
    errs
}

/// `ValidateClusterRoleBindingUpdate`: as on create, plus the metadata
/// update rules, and `roleRef` may not change.
pub fn validate_cluster_role_binding_update(
    binding: &ClusterRoleBinding,
    old: &ClusterRoleBinding,
) -> ErrorList {
    let mut errs = validate_cluster_role_binding(binding);
    errs.extend(validate_object_meta_update(
        &binding.metadata,
        &old.metadata,
        &METADATA,
    ));
    errs.extend(role_ref_unchanged(&binding.role_ref, &old.role_ref));
    errs
}

#[cfg(test)]
#[path = "validation_tests.rs"]
mod tests;
