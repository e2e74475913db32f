//! Role-based access control, without HTTP: the `rbac.authorization.k8s.io/v1`
//! kinds and their validation, the RBAC authorizer, the apiserver's
//! Forbidden message, `SelfSubjectAccessReview` / `SelfSubjectRulesReview`,
//! and the escalation checks of the rbac registry.
//!
//! Sources (k8s.io/kubernetes unless named):
//!
//! - [`types`] follows k8s.io/api `rbac/v1/types.go`, `pkg/apis/rbac/v1/defaults.go`;
//! - [`validation`] follows `pkg/apis/rbac/validation/validation.go`;
//! - [`rules`] follows `plugin/pkg/auth/authorizer/rbac/rbac.go` (`RuleAllows`) and
//!   `pkg/apis/rbac/v1/evaluation_helpers.go` (`VerbMatches`, ...);
//! - [`Authorizer`] follows `rbac.go` (`Authorize`, `RulesFor`),
//!   `pkg/registry/rbac/validation/rule.go` (`VisitRulesFor`, `appliesTo`,
//!   `GetRoleReferenceRules`), aggregation as
//!   `pkg/controller/clusterroleaggregation` computes it, and
//!   k8s.io/apiserver's privileged-group authorizer for `system:masters`;
//! - [`forbidden`] follows k8s.io/apiserver
//!   `pkg/endpoints/handlers/responsewriters/errors.go` (`Forbidden`,
//!   `forbiddenMessage`) and apimachinery's `NewForbidden`;
//! - [`review`] follows `pkg/registry/authorization/selfsubject{access,rules}review`;
//! - [`escalation`] follows k8s.io/component-helpers `auth/rbac/validation/policy_comparator.go`
//!   (`Covers`), `pkg/registry/rbac/validation/{rule,policy_compact}.go`
//!   (`ConfirmNoEscalation`, `CompactRules`), `pkg/registry/rbac/escalation_check.go`
//!   and the `policybased` storages of roles, cluster roles and bindings.
//!
//! The [`Authorizer`] holds plain vectors of the four kinds, which the caller
//! replaces when they change; building one costs nothing beyond the vectors,
//! and every look-up is a scan (clusters have few roles).

pub mod aggregation;
mod authorizer;
pub mod escalation;
pub mod forbidden;
#[doc(hidden)]
pub mod reference;
pub mod review;
pub mod rules;
pub mod types;
pub mod validation;

pub use authorizer::{Authorizer, RoleRefError, RuleSource, Visit};
pub use forbidden::{forbidden_message, forbidden_status};
pub use types::{
    AggregationRule, ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef,
    Subject,
};

/// `rbac.authorization.k8s.io`.
pub const GROUP_NAME: &str = "rbac.authorization.k8s.io";
/// `rbac.authorization.k8s.io/v1`.
pub const GROUP_VERSION: &str = "rbac.authorization.k8s.io/v1";
/// The subject kind of users.
pub const USER_KIND: &str = "User";
/// The subject kind of groups.
pub const GROUP_KIND: &str = "Group";
/// The subject kind of service accounts.
pub const SERVICE_ACCOUNT_KIND: &str = "ServiceAccount";
/// `*` in `verbs`, `apiGroups`, `resources` and `nonResourceURLs`.
pub const ALL: &str = "*";
pub use crate::authn::SYSTEM_MASTERS;
/// The prefix of service account user names (`system:serviceaccount:NS:NAME`).
pub const SERVICE_ACCOUNT_USER_PREFIX: &str = "system:serviceaccount:";

/// An authenticated user (k8s.io/apiserver `user.DefaultInfo`): the
/// authenticator's [`User`](crate::authn::User).
pub use crate::authn::User as UserInfo;

/// What a request wants to do (k8s.io/apiserver `authorizer.AttributesRecord`).
///
/// A resource request has `resource_request` set and uses `namespace`,
/// `api_group`, `api_version`, `resource`, `subresource` and `name`; a
/// non-resource request uses `path`. The verb is the authorization verb
/// (`get`, `list`, `watch`, `create`, `update`, `patch`, `delete`,
/// `deletecollection`, ...) for resources and the lowercase HTTP method for
/// paths.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attributes {
    /// Who asks.
    pub user: UserInfo,
    /// The authorization verb.
    pub verb: String,
    /// The namespace; empty for cluster-scoped requests.
    pub namespace: String,
    /// The API group; empty for the core group.
    pub api_group: String,
    /// The API version (`v1`); not used by RBAC.
    pub api_version: String,
    /// The resource (`widgets`).
    pub resource: String,
    /// The subresource (`status`, `scale`), or empty.
    pub subresource: String,
    /// The object's name; empty for lists and creates without a name.
    pub name: String,
    /// Whether this is a resource request (else `path` is used).
    pub resource_request: bool,
    /// The URL path of a non-resource request.
    pub path: String,
}

impl Attributes {
    /// A cluster-scoped resource request for `verb` on `resource` of `api_group`.
    pub fn resource(user: UserInfo, verb: &str, api_group: &str, resource: &str) -> Self {
        Attributes {
            user,
            verb: verb.to_string(),
            api_group: api_group.to_string(),
            resource: resource.to_string(),
            resource_request: true,
            ..Attributes::default()
        }
    }

    /// A non-resource request for `verb` on `path`.
    pub fn non_resource(user: UserInfo, verb: &str, path: &str) -> Self {
        Attributes {
            user,
            verb: verb.to_string(),
            path: path.to_string(),
            ..Attributes::default()
        }
    }

    /// The same request in `namespace`.
    pub fn in_namespace(mut self, namespace: &str) -> Self {
        self.namespace = namespace.to_string();
        self
    }

    /// The same request on the subresource `subresource`.
    pub fn with_subresource(mut self, subresource: &str) -> Self {
        self.subresource = subresource.to_string();
        self
    }

    /// The same request on the object `name`.
    pub fn with_name(mut self, name: &str) -> Self {
        self.name = name.to_string();
        self
    }

    /// The same request in API version `version`.
    pub fn with_version(mut self, version: &str) -> Self {
        self.api_version = version.to_string();
        self
    }

    /// `get`, `list` and `watch` (`AttributesRecord.IsReadOnly`).
    pub fn is_read_only(&self) -> bool {
        matches!(self.verb.as_str(), "get" | "list" | "watch")
    }
}

/// An authorization decision. RBAC only allows or has no opinion, so a
/// request is denied exactly when `allowed` is false.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decision {
    /// Whether the request is allowed.
    pub allowed: bool,
    /// Why: `RBAC: allowed by ...` when allowed; when denied, empty or
    /// `RBAC: <errors resolving the user's roles>` (for example a binding
    /// to a missing role), which the Forbidden message appends.
    pub reason: String,
}

impl Decision {
    /// An allow with `reason`.
    pub fn allow(reason: impl Into<String>) -> Self {
        Decision {
            allowed: true,
            reason: reason.into(),
        }
    }

    /// No opinion (a denial) with `reason`.
    pub fn deny(reason: impl Into<String>) -> Self {
        Decision {
            allowed: false,
            reason: reason.into(),
        }
    }
}
