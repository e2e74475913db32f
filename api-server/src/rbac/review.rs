//! `authorization.k8s.io/v1` `SelfSubjectAccessReview` and
//! `SelfSubjectRulesReview`, answered from an [`Authorizer`]:
//! `pkg/registry/authorization/selfsubjectaccessreview/rest.go`,
//! `pkg/registry/authorization/selfsubjectrulesreview/rest.go`,
//! `pkg/registry/authorization/util/helpers.go` and
//! `pkg/apis/authorization/validation/validation.go`.

use api_core::meta::ObjectMeta;
use api_core::validation::{ErrorList, FieldError, FieldPath};
use api_core::{GroupKind, Status};
use serde::{Deserialize, Serialize};

use super::escalation::full_authority;
use super::{Attributes, Authorizer, UserInfo};

/// `authorization.k8s.io`.
pub const AUTHORIZATION_GROUP: &str = "authorization.k8s.io";
/// `authorization.k8s.io/v1`.
pub const AUTHORIZATION_VERSION: &str = "authorization.k8s.io/v1";

/// A resource request to review.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceAttributes {
    /// The namespace; empty for cluster scope (or all namespaces for lists).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// The verb; `*` for all.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub verb: String,
    /// The API group; `*` for all.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// The API version; `*` (the default) for all.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// The resource; `*` for all.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resource: String,
    /// The subresource.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub subresource: String,
    /// The object's name; empty for all.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
}

/// A non-resource request to review.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NonResourceAttributes {
    /// The URL path.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// The verb (lowercase HTTP method).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub verb: String,
}

/// Exactly one of the two attributes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SelfSubjectAccessReviewSpec {
    /// A resource request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_attributes: Option<ResourceAttributes>,
    /// A non-resource request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_resource_attributes: Option<NonResourceAttributes>,
}

/// The answer of an access review.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubjectAccessReviewStatus {
    /// Whether the request is allowed.
    #[serde(default)]
    pub allowed: bool,
    /// Whether it is explicitly denied (never, with RBAC).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub denied: bool,
    /// The authorizer's reason.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// An error met while evaluating.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub evaluation_error: String,
}

/// `SelfSubjectAccessReview`: may I do this? (`kubectl auth can-i`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SelfSubjectAccessReview {
    /// `authorization.k8s.io/v1`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// `SelfSubjectAccessReview`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Must be empty.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The question.
    #[serde(default)]
    pub spec: SelfSubjectAccessReviewSpec,
    /// The answer, filled by the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<SubjectAccessReviewStatus>,
}

/// The namespace whose rules to list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SelfSubjectRulesReviewSpec {
    /// Required.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
}

/// A resource rule of a rules review.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceRule {
    /// The verbs.
    #[serde(default)]
    pub verbs: Vec<String>,
    /// The API groups.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub api_groups: Vec<String>,
    /// The resources.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    /// The object names, if restricted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_names: Vec<String>,
}

/// A non-resource rule of a rules review.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NonResourceRule {
    /// The verbs.
    #[serde(default)]
    pub verbs: Vec<String>,
    /// The paths.
    #[serde(
        default,
        rename = "nonResourceURLs",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub non_resource_urls: Vec<String>,
}

/// The answer of a rules review.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubjectRulesReviewStatus {
    /// What the user may do to resources.
    #[serde(default)]
    pub resource_rules: Vec<ResourceRule>,
    /// What the user may do to non-resource paths.
    #[serde(default)]
    pub non_resource_rules: Vec<NonResourceRule>,
    /// Whether the lists may be incomplete (never, with RBAC alone).
    #[serde(default)]
    pub incomplete: bool,
    /// Errors met resolving the user's roles.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub evaluation_error: String,
}

/// `SelfSubjectRulesReview`: what may I do in this namespace?
/// (`kubectl auth can-i --list`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SelfSubjectRulesReview {
    /// `authorization.k8s.io/v1`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// `SelfSubjectRulesReview`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Ignored.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The question.
    #[serde(default)]
    pub spec: SelfSubjectRulesReviewSpec,
    /// The answer, filled by the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<SubjectRulesReviewStatus>,
}

/// `ValidateSelfSubjectAccessReview`: empty metadata, and exactly one of
/// `spec.resourceAttributes` and `spec.nonResourceAttributes`.
pub fn validate_self_subject_access_review(review: &SelfSubjectAccessReview) -> ErrorList {
    let mut errs = ErrorList::new();
    if review.metadata != ObjectMeta::default() {
        let value = serde_json::to_value(&review.metadata).unwrap_or_default();
        errs.push(FieldError::invalid(
            &FieldPath::new("metadata"),
            value,
            "must be empty",
        ));
    }
    let spec = FieldPath::new("spec");
    let spec_ref = &review.spec;
    let non_resource = serde_json::to_value(&spec_ref.non_resource_attributes).unwrap_or_default();
    match (
        &spec_ref.resource_attributes,
        &spec_ref.non_resource_attributes,
    ) {
        (Some(_), Some(_)) => errs.push(FieldError::invalid(
            &spec.child("nonResourceAttributes"),
            non_resource,
            "cannot be specified in combination with resourceAttributes",
        )),
        (None, None) => errs.push(FieldError::invalid(
            &spec.child("resourceAttributes"),
            non_resource,
            "exactly one of nonResourceAttributes or resourceAttributes must be specified",
        )),
        _ => {}
    }
    errs
}

/// `ResourceAttributesFrom` / `NonResourceAttributesFrom`: the request the
/// review asks about, for `user` (an empty version is `*`); `None` when the
/// spec has neither attributes.
pub fn access_review_attributes(
    user: &UserInfo,
    spec: &SelfSubjectAccessReviewSpec,
) -> Option<Attributes> {
    if let Some(r) = &spec.resource_attributes {
        let version = if r.version.is_empty() {
            "*"
        } else {
            &r.version
        };
        return Some(
            Attributes::resource(user.clone(), &r.verb, &r.group, &r.resource)
                .in_namespace(&r.namespace)
                .with_subresource(&r.subresource)
                .with_name(&r.name)
                .with_version(version),
        );
    }
    spec.non_resource_attributes
        .as_ref()
        .map(|n| Attributes::non_resource(user.clone(), &n.verb, &n.path))
}

impl Authorizer {
    /// Answers a `SelfSubjectAccessReview` for `user` from
    /// [`Authorizer::authorize`]: the review back with `status` set, or 422
    /// when it is invalid.
    pub fn self_subject_access_review(
        &self,
        user: &UserInfo,
        mut review: SelfSubjectAccessReview,
    ) -> Result<SelfSubjectAccessReview, Status> {
        let errs = validate_self_subject_access_review(&review);
        let Some(attrs) = access_review_attributes(user, &review.spec).filter(|_| errs.is_empty())
        else {
            let kind = GroupKind::new(AUTHORIZATION_GROUP, "SelfSubjectAccessReview");
            return Err(Status::invalid(kind, "", &errs));
        };
        let decision = self.authorize(&attrs);
        review.api_version = AUTHORIZATION_VERSION.to_string();
        review.kind = "SelfSubjectAccessReview".to_string();
        review.status = Some(SubjectAccessReviewStatus {
            allowed: decision.allowed,
            denied: false,
            reason: decision.reason,
            evaluation_error: String::new(),
        });
        Ok(review)
    }

    /// Answers a `SelfSubjectRulesReview` for `user`: the rules from
    /// [`Authorizer::rules_for`] in `spec.namespace` (400 `no namespace on
    /// request` without one), and the resolution errors as
    /// `evaluationError`. A `system:masters` user also gets `*` on
    /// everything, which a real cluster shows through its bootstrap
    /// `cluster-admin` binding of that group.
    pub fn self_subject_rules_review(
        &self,
        user: &UserInfo,
        mut review: SelfSubjectRulesReview,
    ) -> Result<SelfSubjectRulesReview, Status> {
        if review.spec.namespace.is_empty() {
            return Err(Status::bad_request("no namespace on request"));
        }
        let (mut rules, error) = self.policy_rules_for(user, &review.spec.namespace);
        if user.is_master() {
            rules.splice(0..0, full_authority());
        }
        let (resource_rules, non_resource_rules) = super::authorizer::split_rules(&rules);
        review.api_version = AUTHORIZATION_VERSION.to_string();
        review.kind = "SelfSubjectRulesReview".to_string();
        review.status = Some(SubjectRulesReviewStatus {
            resource_rules,
            non_resource_rules,
            incomplete: false,
            evaluation_error: error.unwrap_or_default(),
        });
        Ok(review)
    }
}
