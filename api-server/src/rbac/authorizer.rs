//! The RBAC authorizer over a snapshot of roles and bindings:
//! `plugin/pkg/auth/authorizer/rbac/rbac.go` (`Authorize`, `RulesFor`) and
//! the rule resolution of `pkg/registry/rbac/validation/rule.go`
//! (`VisitRulesFor`, `GetRoleReferenceRules`, `appliesTo`).

use std::borrow::Cow;
use std::collections::VecDeque;
use std::fmt;

use api_core::labels::Selector;
use api_core::{GroupResource, Status};

use super::forbidden::go_quote;
use super::review::{NonResourceRule, ResourceRule};
use super::rules::rule_allows;
use super::{
    Attributes, ClusterRole, ClusterRoleBinding, Decision, GROUP_KIND, GROUP_NAME, PolicyRule,
    Role, RoleBinding, RoleRef, SERVICE_ACCOUNT_KIND, SERVICE_ACCOUNT_USER_PREFIX, Subject,
    USER_KIND, UserInfo,
};

/// A snapshot of the four RBAC kinds that answers authorization questions.
///
/// The caller rebuilds or updates the vectors when the stored objects
/// change; nothing is indexed, so building is free and every question scans
/// the bindings (upstream does the same over its informer caches).
///
/// A ClusterRole with an `aggregationRule` is evaluated with the rules the
/// aggregation controller would give it once settled
/// (`pkg/controller/clusterroleaggregation`): its own `rules` are ignored
/// and replaced by the rules, without duplicates, of every ClusterRole its
/// selectors match other than itself, taken in name order; a matched
/// aggregated role contributes what it aggregates in turn (so `admin`
/// aggregating `edit` aggregating `view` works), and a cycle of aggregated
/// roles contributes nothing by itself. A selector that does not parse
/// matches nothing (the controller gives up on such a role).
#[derive(Clone, Debug, Default)]
pub struct Authorizer {
    /// Every Role, in any namespace.
    pub roles: Vec<Role>,
    /// Every RoleBinding, in any namespace.
    pub role_bindings: Vec<RoleBinding>,
    /// Every ClusterRole.
    pub cluster_roles: Vec<ClusterRole>,
    /// Every ClusterRoleBinding.
    pub cluster_role_bindings: Vec<ClusterRoleBinding>,
}

/// A role reference that does not resolve (`GetRoleReferenceRules` errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoleRefError {
    /// No Role of that name in the binding's namespace.
    RoleNotFound {
        /// The binding's namespace (empty for a ClusterRoleBinding).
        namespace: String,
        /// The missing Role.
        name: String,
    },
    /// No ClusterRole of that name.
    ClusterRoleNotFound {
        /// The missing ClusterRole.
        name: String,
    },
    /// A `roleRef.kind` other than `Role` and `ClusterRole`.
    UnsupportedKind(String),
}

impl fmt::Display for RoleRefError {
    /// The messages the authorizer's listers give (`NewNotFound` of the
    /// singular `role` / `clusterrole`), as they appear in an RBAC reason:
    /// `clusterrole.rbac.authorization.k8s.io "x" not found`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoleRefError::RoleNotFound { name, .. } => {
                write!(f, "role.{GROUP_NAME} {} not found", go_quote(name))
            }
            RoleRefError::ClusterRoleNotFound { name } => {
                write!(f, "clusterrole.{GROUP_NAME} {} not found", go_quote(name))
            }
            RoleRefError::UnsupportedKind(kind) => {
                write!(f, "unsupported role reference kind: {}", go_quote(kind))
            }
        }
    }
}

impl std::error::Error for RoleRefError {}

impl RoleRefError {
    /// The Status the rbac registry answers when a binding's role does not
    /// resolve during its escalation check: 404 from the registry's getters
    /// (plural resource: `roles.rbac.authorization.k8s.io "x" not found`),
    /// 500 for an unsupported kind.
    pub fn to_status(&self) -> Status {
        match self {
            RoleRefError::RoleNotFound { name, .. } => {
                Status::not_found(GroupResource::new(GROUP_NAME, "roles"), name.as_str())
            }
            RoleRefError::ClusterRoleNotFound { name } => Status::not_found(
                GroupResource::new(GROUP_NAME, "clusterroles"),
                name.as_str(),
            ),
            RoleRefError::UnsupportedKind(_) => Status::internal_error(self),
        }
    }
}

/// The binding a rule came through, for the `RBAC: allowed by ...` reason
/// (`clusterRoleBindingDescriber` / `roleBindingDescriber`).
#[derive(Clone, Copy, Debug)]
pub struct RuleSource<'a> {
    /// `ClusterRoleBinding` or `RoleBinding`.
    pub binding_kind: &'static str,
    /// The binding's name.
    pub binding_name: &'a str,
    /// The binding's namespace (empty for a ClusterRoleBinding).
    pub binding_namespace: &'a str,
    /// The role the binding grants.
    pub role_ref: &'a RoleRef,
    /// The first subject of the binding that applies to the user.
    pub subject: &'a Subject,
}

impl fmt::Display for RuleSource<'_> {
    /// `ClusterRoleBinding "b" of ClusterRole "r" to User "u"`, or
    /// `RoleBinding "b/ns" of Role "r" to ServiceAccount "sa/ns"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let binding = if self.binding_namespace.is_empty() {
            go_quote(self.binding_name)
        } else {
            go_quote(&format!("{}/{}", self.binding_name, self.binding_namespace))
        };
        let s = self.subject;
        let subject = if s.kind == SERVICE_ACCOUNT_KIND {
            let ns = if s.namespace.is_empty() {
                self.binding_namespace
            } else {
                s.namespace.as_str()
            };
            go_quote(&format!("{}/{}", s.name, ns))
        } else {
            go_quote(&s.name)
        };
        write!(
            f,
            "{} {binding} of {} {} to {} {subject}",
            self.binding_kind,
            self.role_ref.kind,
            go_quote(&self.role_ref.name),
            s.kind
        )
    }
}

/// What [`Authorizer::visit_rules_for`] hands its visitor.
#[derive(Debug)]
pub enum Visit<'a> {
    /// A rule that applies to the user, and the binding it came through.
    Rule(&'a RuleSource<'a>, &'a PolicyRule),
    /// A binding that applies to the user but whose role does not resolve.
    Error(&'a RoleRefError),
}

impl Authorizer {
    /// A snapshot of the four kinds.
    pub fn new(
        roles: Vec<Role>,
        role_bindings: Vec<RoleBinding>,
        cluster_roles: Vec<ClusterRole>,
        cluster_role_bindings: Vec<ClusterRoleBinding>,
    ) -> Self {
        Authorizer {
            roles,
            role_bindings,
            cluster_roles,
            cluster_role_bindings,
        }
    }

    /// Authorizes `attrs`: allowed when the user is in `system:masters`
    /// (the apiserver's privileged-group authorizer, reason empty) or some
    /// rule from [`Authorizer::visit_rules_for`] allows it (reason
    /// `RBAC: allowed by <binding>`). A denial's reason lists the errors
    /// met resolving the user's roles (`RBAC: <error>` or
    /// `RBAC: [<error>, <error>]`), or is empty.
    pub fn authorize(&self, attrs: &Attributes) -> Decision {
        if attrs.user.is_master() {
            return Decision::allow("");
        }
        let mut allowed_by = None;
        let mut errors = Vec::new();
        self.visit_rules_for(&attrs.user, &attrs.namespace, &mut |visit| match visit {
            Visit::Rule(source, rule) => {
                if rule_allows(attrs, rule) {
                    allowed_by = Some(source.to_string());
                    return false;
                }
                true
            }
            Visit::Error(err) => {
                errors.push(err.to_string());
                true
            }
        });
        match allowed_by {
            Some(source) => Decision::allow(format!("RBAC: allowed by {source}")),
            None if errors.is_empty() => Decision::deny(""),
            None => Decision::deny(format!("RBAC: {}", aggregate_errors(&errors))),
        }
    }

    /// `VisitRulesFor`: calls `visitor` with every rule that applies to
    /// `user` in `namespace`: those of the roles of every ClusterRoleBinding
    /// naming the user, then (when `namespace` is not empty) those of every
    /// RoleBinding of that namespace naming the user, whose role is a Role
    /// of that namespace or a ClusterRole. A binding whose role is missing
    /// gives a [`Visit::Error`]. Visiting stops when `visitor` returns false.
    pub fn visit_rules_for(
        &self,
        user: &UserInfo,
        namespace: &str,
        visitor: &mut dyn FnMut(Visit<'_>) -> bool,
    ) {
        for binding in &self.cluster_role_bindings {
            let Some(subject) = applies_to(user, &binding.subjects, "") else {
                continue;
            };
            let source = RuleSource {
                binding_kind: "ClusterRoleBinding",
                binding_name: &binding.metadata.name,
                binding_namespace: "",
                role_ref: &binding.role_ref,
                subject,
            };
            if !self.visit_binding(&source, "", visitor) {
                return;
            }
        }
        if namespace.is_empty() {
            return;
        }
        for binding in &self.role_bindings {
            if binding.metadata.namespace != namespace {
                continue;
            }
            let Some(subject) = applies_to(user, &binding.subjects, namespace) else {
                continue;
            };
            let source = RuleSource {
                binding_kind: "RoleBinding",
                binding_name: &binding.metadata.name,
                binding_namespace: &binding.metadata.namespace,
                role_ref: &binding.role_ref,
                subject,
            };
            if !self.visit_binding(&source, namespace, visitor) {
                return;
            }
        }
    }

    /// Visits the rules of one applying binding; false when the visitor
    /// asked to stop.
    fn visit_binding(
        &self,
        source: &RuleSource<'_>,
        namespace: &str,
        visitor: &mut dyn FnMut(Visit<'_>) -> bool,
    ) -> bool {
        match self.role_reference_rules(source.role_ref, namespace) {
            Err(err) => visitor(Visit::Error(&err)),
            Ok(rules) => rules.iter().all(|rule| visitor(Visit::Rule(source, rule))),
        }
    }

    /// The resolver's `RulesFor`: every rule that applies to `user` in
    /// `namespace` (empty: cluster-wide rules only), and the errors met
    /// resolving roles, aggregated as apimachinery's `NewAggregate` prints
    /// them (`None` when there were none).
    pub fn policy_rules_for(
        &self,
        user: &UserInfo,
        namespace: &str,
    ) -> (Vec<PolicyRule>, Option<String>) {
        let mut rules = Vec::new();
        let mut errors = Vec::new();
        self.visit_rules_for(user, namespace, &mut |visit| {
            match visit {
                Visit::Rule(_, rule) => rules.push(rule.clone()),
                Visit::Error(err) => errors.push(err.to_string()),
            }
            true
        });
        let error = (!errors.is_empty()).then(|| aggregate_errors(&errors));
        (rules, error)
    }

    /// The RBAC authorizer's `RulesFor`, for `SelfSubjectRulesReview`: the
    /// rules that apply to `user` in `namespace`, those with resources as
    /// resource rules and those with non-resource URLs as non-resource
    /// rules (a rule with both gives one of each).
    pub fn rules_for(
        &self,
        user: &UserInfo,
        namespace: &str,
    ) -> (Vec<ResourceRule>, Vec<NonResourceRule>) {
        let (rules, _) = self.policy_rules_for(user, namespace);
        split_rules(&rules)
    }

    /// `GetRoleReferenceRules`: the rules of the role `role_ref` names, a
    /// Role looked up in `binding_namespace` or a ClusterRole (aggregated
    /// when it has an aggregation rule).
    pub fn role_reference_rules(
        &self,
        role_ref: &RoleRef,
        binding_namespace: &str,
    ) -> Result<Cow<'_, [PolicyRule]>, RoleRefError> {
        match role_ref.kind.as_str() {
            "Role" => self
                .roles
                .iter()
                .find(|r| {
                    !binding_namespace.is_empty()
                        && r.metadata.namespace == binding_namespace
                        && r.metadata.name == role_ref.name
                })
                .map(|r| Cow::Borrowed(r.rules.as_slice()))
                .ok_or_else(|| RoleRefError::RoleNotFound {
                    namespace: binding_namespace.to_string(),
                    name: role_ref.name.clone(),
                }),
            "ClusterRole" => {
                let index = self
                    .cluster_roles
                    .iter()
                    .position(|r| r.metadata.name == role_ref.name)
                    .ok_or_else(|| RoleRefError::ClusterRoleNotFound {
                        name: role_ref.name.clone(),
                    })?;
                Ok(self.cluster_role_rules(index))
            }
            other => Err(RoleRefError::UnsupportedKind(other.to_string())),
        }
    }

    /// The effective rules of the ClusterRole at `index`: its own, or the
    /// aggregated ones.
    fn cluster_role_rules(&self, index: usize) -> Cow<'_, [PolicyRule]> {
        let Some(role) = self.cluster_roles.get(index) else {
            return Cow::Borrowed(&[]);
        };
        if role.aggregation_rule.is_none() {
            return Cow::Borrowed(role.rules.as_slice());
        }
        let mut seen = vec![false; self.cluster_roles.len()];
        seen[index] = true;
        let mut queue = VecDeque::from([index]);
        let mut rules: Vec<PolicyRule> = Vec::new();
        while let Some(i) = queue.pop_front() {
            let Some(current) = self.cluster_roles.get(i) else {
                continue;
            };
            let Some(aggregation) = &current.aggregation_rule else {
                for rule in &current.rules {
                    if !rules.contains(rule) {
                        rules.push(rule.clone());
                    }
                }
                continue;
            };
            for selector in &aggregation.cluster_role_selectors {
                let Ok(selector) = Selector::from_label_selector(Some(selector)) else {
                    continue;
                };
                let mut matched: Vec<usize> = (0..self.cluster_roles.len())
                    .filter(|&j| {
                        let m = &self.cluster_roles[j];
                        !seen[j]
                            && m.metadata.name != current.metadata.name
                            && selector.matches(&m.metadata.labels)
                    })
                    .collect();
                matched.sort_by(|&a, &b| {
                    self.cluster_roles[a]
                        .metadata
                        .name
                        .cmp(&self.cluster_roles[b].metadata.name)
                });
                for j in matched {
                    seen[j] = true;
                    queue.push_back(j);
                }
            }
        }
        Cow::Owned(rules)
    }
}

/// Splits policy rules as the RBAC authorizer's `RulesFor` does.
pub(crate) fn split_rules(rules: &[PolicyRule]) -> (Vec<ResourceRule>, Vec<NonResourceRule>) {
    let mut resource = Vec::new();
    let mut non_resource = Vec::new();
    for rule in rules {
        if !rule.resources.is_empty() {
            resource.push(ResourceRule {
                verbs: rule.verbs.clone(),
                api_groups: rule.api_groups.clone(),
                resources: rule.resources.clone(),
                resource_names: rule.resource_names.clone(),
            });
        }
        if !rule.non_resource_urls.is_empty() {
            non_resource.push(NonResourceRule {
                verbs: rule.verbs.clone(),
                non_resource_urls: rule.non_resource_urls.clone(),
            });
        }
    }
    (resource, non_resource)
}

/// `appliesTo`: the first of `subjects` naming `user`.
pub(crate) fn applies_to<'s>(
    user: &UserInfo,
    subjects: &'s [Subject],
    namespace: &str,
) -> Option<&'s Subject> {
    subjects
        .iter()
        .find(|s| applies_to_user(user, s, namespace))
}

/// `appliesToUser`: users by name, groups by membership, service accounts
/// by the user name `system:serviceaccount:<ns>:<name>`, the namespace
/// defaulting to the binding's; other kinds never.
fn applies_to_user(user: &UserInfo, subject: &Subject, namespace: &str) -> bool {
    match subject.kind.as_str() {
        USER_KIND => user.name == subject.name,
        GROUP_KIND => user.in_group(&subject.name),
        SERVICE_ACCOUNT_KIND => {
            let sa_namespace = if subject.namespace.is_empty() {
                namespace
            } else {
                subject.namespace.as_str()
            };
            !sa_namespace.is_empty()
                && user
                    .name
                    .strip_prefix(SERVICE_ACCOUNT_USER_PREFIX)
                    .and_then(|rest| rest.strip_prefix(sa_namespace))
                    .and_then(|rest| rest.strip_prefix(':'))
                    == Some(subject.name.as_str())
        }
        _ => false,
    }
}

/// apimachinery's `aggregate.Error()`: one message as is, several without
/// duplicates, in brackets and comma-separated.
pub(crate) fn aggregate_errors(errors: &[String]) -> String {
    if let [only] = errors {
        return only.clone();
    }
    let mut unique: Vec<&str> = Vec::new();
    for e in errors {
        if !unique.contains(&e.as_str()) {
            unique.push(e);
        }
    }
    if let [only] = unique.as_slice() {
        return (*only).to_string();
    }
    format!("[{}]", unique.join(", "))
}

#[cfg(test)]
#[path = "authorizer_tests.rs"]
mod tests;
