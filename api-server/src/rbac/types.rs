//! The `rbac.authorization.k8s.io/v1` kinds (k8s.io/api `rbac/v1/types.go`),
//! with the JSON field names of that API, and the v1 defaulting of
//! `pkg/apis/rbac/v1/defaults.go`.

use api_core::meta::{LabelSelector, ObjectMeta};
use serde::{Deserialize, Serialize};

use super::{GROUP_NAME, GROUP_VERSION};

/// One permission: verbs on resources of API groups (optionally only some
/// names), or verbs on non-resource URL paths.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyRule {
    /// Verbs (`get`, `list`, `watch`, `create`, `update`, `patch`, `delete`,
    /// `deletecollection`, or `*` for all).
    #[serde(default)]
    pub verbs: Vec<String>,
    /// API groups; `""` is the core group and `*` all groups.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub api_groups: Vec<String>,
    /// Resources: `widgets`, `widgets/status`, `*/scale` or `*`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    /// If not empty, only these object names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_names: Vec<String>,
    /// Non-resource paths (`/healthz`, `/api/*`, `*`); ClusterRoles only.
    #[serde(
        default,
        rename = "nonResourceURLs",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub non_resource_urls: Vec<String>,
}

impl PolicyRule {
    /// A resource rule: `verbs` on `resources` of `api_groups`.
    pub fn resource(verbs: &[&str], api_groups: &[&str], resources: &[&str]) -> Self {
        PolicyRule {
            verbs: strings(verbs),
            api_groups: strings(api_groups),
            resources: strings(resources),
            ..PolicyRule::default()
        }
    }

    /// A non-resource rule: `verbs` on the paths `urls`.
    pub fn non_resource(verbs: &[&str], urls: &[&str]) -> Self {
        PolicyRule {
            verbs: strings(verbs),
            non_resource_urls: strings(urls),
            ..PolicyRule::default()
        }
    }

    /// This rule restricted to the object names `names`.
    pub fn with_names(mut self, names: &[&str]) -> Self {
        self.resource_names = strings(names);
        self
    }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_string()).collect()
}

/// A namespaced set of rules.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Role {
    /// `rbac.authorization.k8s.io/v1`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// `Role`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Name and namespace.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The permissions the role grants.
    #[serde(default)]
    pub rules: Vec<PolicyRule>,
}

impl Role {
    /// A Role `namespace/name` with `rules`.
    pub fn new(namespace: &str, name: &str, rules: Vec<PolicyRule>) -> Self {
        Role {
            api_version: GROUP_VERSION.to_string(),
            kind: "Role".to_string(),
            metadata: meta(namespace, name),
            rules,
        }
    }
}

/// Selectors whose matching ClusterRoles' rules a ClusterRole takes over.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AggregationRule {
    /// ClusterRoles matching any of these give their rules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cluster_role_selectors: Vec<LabelSelector>,
}

/// A cluster-wide set of rules, possibly aggregated from other ClusterRoles.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterRole {
    /// `rbac.authorization.k8s.io/v1`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// `ClusterRole`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Name and labels (the labels are what aggregation selects on).
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The permissions; replaced by the aggregated rules when
    /// `aggregation_rule` is set (see [`super::Authorizer`]).
    #[serde(default)]
    pub rules: Vec<PolicyRule>,
    /// Where the rules come from, for an aggregated role.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aggregation_rule: Option<AggregationRule>,
}

impl ClusterRole {
    /// A ClusterRole `name` with `rules`.
    pub fn new(name: &str, rules: Vec<PolicyRule>) -> Self {
        ClusterRole {
            api_version: GROUP_VERSION.to_string(),
            kind: "ClusterRole".to_string(),
            metadata: meta("", name),
            rules,
            aggregation_rule: None,
        }
    }
}

/// Who a binding grants its role to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subject {
    /// `User`, `Group` or `ServiceAccount`.
    #[serde(default)]
    pub kind: String,
    /// `rbac.authorization.k8s.io` for users and groups, `""` for service accounts.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_group: String,
    /// The user, group or service account name.
    #[serde(default)]
    pub name: String,
    /// The service account's namespace (defaults to the binding's for a RoleBinding).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
}

impl Subject {
    /// The user `name`.
    pub fn user(name: &str) -> Self {
        Subject::new(super::USER_KIND, GROUP_NAME, name, "")
    }

    /// The group `name`.
    pub fn group(name: &str) -> Self {
        Subject::new(super::GROUP_KIND, GROUP_NAME, name, "")
    }

    /// The service account `namespace/name` (`namespace` may be empty in a
    /// RoleBinding: then it is the binding's).
    pub fn service_account(namespace: &str, name: &str) -> Self {
        Subject::new(super::SERVICE_ACCOUNT_KIND, "", name, namespace)
    }

    fn new(kind: &str, api_group: &str, name: &str, namespace: &str) -> Self {
        Subject {
            kind: kind.to_string(),
            api_group: api_group.to_string(),
            name: name.to_string(),
            namespace: namespace.to_string(),
        }
    }

    /// `SetDefaults_Subject`: an empty `apiGroup` becomes
    /// `rbac.authorization.k8s.io` for users and groups (and stays empty for
    /// service accounts).
    pub fn set_defaults(&mut self) {
        if self.api_group.is_empty()
            && (self.kind == super::USER_KIND || self.kind == super::GROUP_KIND)
        {
            self.api_group = GROUP_NAME.to_string();
        }
    }
}

/// The role a binding grants.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoleRef {
    /// `rbac.authorization.k8s.io`.
    #[serde(default)]
    pub api_group: String,
    /// `Role` or `ClusterRole`.
    #[serde(default)]
    pub kind: String,
    /// The role's name.
    #[serde(default)]
    pub name: String,
}

impl RoleRef {
    /// A reference to the Role `name` (in the binding's namespace).
    pub fn role(name: &str) -> Self {
        RoleRef::new("Role", name)
    }

    /// A reference to the ClusterRole `name`.
    pub fn cluster_role(name: &str) -> Self {
        RoleRef::new("ClusterRole", name)
    }

    fn new(kind: &str, name: &str) -> Self {
        RoleRef {
            api_group: GROUP_NAME.to_string(),
            kind: kind.to_string(),
            name: name.to_string(),
        }
    }

    /// `SetDefaults_*RoleBinding`: an empty `apiGroup` becomes
    /// `rbac.authorization.k8s.io`.
    pub fn set_defaults(&mut self) {
        if self.api_group.is_empty() {
            self.api_group = GROUP_NAME.to_string();
        }
    }
}

/// Grants a Role or ClusterRole to subjects within one namespace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RoleBinding {
    /// `rbac.authorization.k8s.io/v1`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// `RoleBinding`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Name and namespace.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Who gets the role.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subjects: Vec<Subject>,
    /// The role granted; immutable.
    #[serde(default)]
    pub role_ref: RoleRef,
}

impl RoleBinding {
    /// A RoleBinding `namespace/name` of `role_ref` to `subjects`.
    pub fn new(namespace: &str, name: &str, role_ref: RoleRef, subjects: Vec<Subject>) -> Self {
        RoleBinding {
            api_version: GROUP_VERSION.to_string(),
            kind: "RoleBinding".to_string(),
            metadata: meta(namespace, name),
            subjects,
            role_ref,
        }
    }

    /// The v1 defaults of the role reference and the subjects.
    pub fn set_defaults(&mut self) {
        self.role_ref.set_defaults();
        self.subjects.iter_mut().for_each(Subject::set_defaults);
    }
}

/// Grants a ClusterRole to subjects in every namespace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterRoleBinding {
    /// `rbac.authorization.k8s.io/v1`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// `ClusterRoleBinding`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Name.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Who gets the role.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subjects: Vec<Subject>,
    /// The ClusterRole granted; immutable.
    #[serde(default)]
    pub role_ref: RoleRef,
}

impl ClusterRoleBinding {
    /// A ClusterRoleBinding `name` of the ClusterRole `role` to `subjects`.
    pub fn new(name: &str, role: &str, subjects: Vec<Subject>) -> Self {
        ClusterRoleBinding {
            api_version: GROUP_VERSION.to_string(),
            kind: "ClusterRoleBinding".to_string(),
            metadata: meta("", name),
            subjects,
            role_ref: RoleRef::cluster_role(role),
        }
    }

    /// The v1 defaults of the role reference and the subjects.
    pub fn set_defaults(&mut self) {
        self.role_ref.set_defaults();
        self.subjects.iter_mut().for_each(Subject::set_defaults);
    }
}

fn meta(namespace: &str, name: &str) -> ObjectMeta {
    ObjectMeta {
        name: name.to_string(),
        namespace: namespace.to_string(),
        ..ObjectMeta::default()
    }
}
