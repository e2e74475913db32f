//! Attributes that real APIs need (issue 14): CRD annotations and labels,
//! integer enums, a default for the root's status and for `Conditions`,
//! and `#[kube(default = ...)]`, the spelling of `#[default(...)]` that
//! does not collide with std's `#[derive(Default)]`.

use api_core::prelude::*;
use api_core::validation::FieldPath;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// How a redirect answers (a `#[derive(Default)]` enum: std's own
/// `#[default]` on a variant, beside the library's defaults).
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub enum RedirectKind {
    /// A permanent redirect.
    #[default]
    Permanent,
    /// A temporary redirect.
    Temporary,
}

/// GatewaySpec is the desired state of a Gateway.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, Default)]
#[kube(
    group = "gateway.networking.k8s.io",
    version = "v1",
    kind = "Gateway",
    namespaced,
    status = "GatewayStatus",
    status_default = default_status(),
    annotation("api-approved.kubernetes.io", "https://github.com/kubernetes-sigs/gateway-api/pull/2466"),
    annotation("gateway.networking.k8s.io/bundle-version", "v1.4.0"),
    label("gateway.networking.k8s.io/policy", "Direct"),
    spec_doc = "Spec defines the desired state of Gateway.",
    status_doc = "Status defines the current state of Gateway."
)]
#[serde(rename_all = "camelCase")]
pub struct GatewaySpec {
    /// statusCode is the HTTP status code of a redirect.
    #[kube(enum = [301, 302], default = 302)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_code: Option<i32>,
    /// kind of redirect.
    #[kube(default = RedirectKind::default())]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect: Option<RedirectKind>,
    /// protocol, defaulted with a string.
    #[kube(default = "HTTP", max_length = 16)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// retries is a Go `int`: an integer with no format.
    #[kube(allow(integer_width), maximum = 100)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retries: Option<isize>,
}

/// GatewayStatus is the observed state of a Gateway.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GatewayStatus {
    /// conditions describe the current state of the Gateway.
    #[kube(default = Conditions::from_iter([pending("Accepted"), pending("Programmed")]))]
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions,
}

fn pending(condition_type: &str) -> Condition {
    Condition::new(
        condition_type,
        ConditionStatus::Unknown,
        "Pending",
        "Waiting for controller",
    )
    .with_last_transition_time(Time::from_unix_seconds(0).unwrap())
}

fn default_status() -> GatewayStatus {
    GatewayStatus::default()
}

fn crd() -> Value {
    Gateway::crd().to_json()
}

fn version_schema() -> Value {
    crd()["spec"]["versions"][0]["schema"]["openAPIV3Schema"].clone()
}

/// The CRD carries the annotations and labels, and a `*.k8s.io` group
/// with `api-approved.kubernetes.io` passes the structural checker.
#[test]
fn crd_annotations_and_labels() {
    let crd = crd();
    assert_eq!(
        crd["metadata"]["annotations"],
        json!({
            "api-approved.kubernetes.io": "https://github.com/kubernetes-sigs/gateway-api/pull/2466",
            "gateway.networking.k8s.io/bundle-version": "v1.4.0"
        })
    );
    assert_eq!(
        crd["metadata"]["labels"],
        json!({"gateway.networking.k8s.io/policy": "Direct"})
    );
    let errors = api_core::schema::structural::check_crd(&crd);
    assert!(errors.is_empty(), "{errors}");
}

/// `enum = [301, 302]`: an integer enum in the schema and at run time.
/// Go's `int` is `type: integer` with no `format` (controller-gen writes
/// none); `isize` is the Rust spelling, once `integer_width` is allowed.
#[test]
fn go_int_has_no_format() {
    let schema = version_schema();
    assert_eq!(
        schema["properties"]["spec"]["properties"]["retries"],
        json!({
            "description": "retries is a Go `int`: an integer with no format.",
            "type": "integer",
            "maximum": 100
        })
    );
    let mut errors = api_core::ErrorList::new();
    let bad = Gateway::new(
        "g",
        GatewaySpec {
            retries: Some(101),
            ..GatewaySpec::default()
        },
    );
    bad.validate(&FieldPath::new(""), &mut errors);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors.as_slice()[0]
            .to_string()
            .starts_with("spec.retries: Invalid value: 101"),
        "{errors:?}"
    );
}

/// Go documents the root's `Spec` and `Status` fields apart from their
/// types; `spec_doc`/`status_doc` are those fields' docs, and the types
/// keep theirs (for rustdoc, and wherever else they are used).
#[test]
fn spec_and_status_docs() {
    let schema = version_schema();
    assert_eq!(
        schema["properties"]["spec"]["description"],
        "Spec defines the desired state of Gateway."
    );
    assert_eq!(
        schema["properties"]["status"]["description"],
        "Status defines the current state of Gateway."
    );
    let own = <GatewayStatus as ApiType>::api_schema(&mut schemars::SchemaGenerator::default());
    assert_eq!(
        own.to_value()["description"],
        "GatewayStatus is the observed state of a Gateway."
    );
}

#[test]
fn integer_enums() {
    let schema = version_schema();
    let code = &schema["properties"]["spec"]["properties"]["statusCode"];
    assert_eq!(code["enum"], json!([301, 302]));
    assert_eq!(code["default"], json!(302));
    let mut errors = api_core::ErrorList::new();
    let bad = Gateway::new(
        "g",
        GatewaySpec {
            status_code: Some(303),
            ..GatewaySpec::default()
        },
    );
    bad.validate(&FieldPath::new(""), &mut errors);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        errors.as_slice()[0].to_string(),
        r#"spec.statusCode: Unsupported value: 303: supported values: "301", "302""#
    );
    let mut errors = api_core::ErrorList::new();
    let good = Gateway::new(
        "g",
        GatewaySpec {
            status_code: Some(301),
            ..GatewaySpec::default()
        },
    );
    good.validate(&FieldPath::new(""), &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
}

/// `#[kube(default = ...)]` works as `#[default(...)]` does, beside std's
/// `#[derive(Default)]` and its `#[default]` variant.
#[test]
fn kube_default_spelling() {
    let schema = version_schema();
    let props = &schema["properties"]["spec"]["properties"];
    assert_eq!(props["redirect"]["default"], json!("Permanent"));
    assert_eq!(props["protocol"]["default"], json!("HTTP"));
    let mut g = Gateway::new("g", GatewaySpec::default());
    g.apply_defaults();
    assert_eq!(g.spec.status_code, Some(302));
    assert_eq!(g.spec.redirect, Some(RedirectKind::Permanent));
    assert_eq!(g.spec.protocol.as_deref(), Some("HTTP"));
}

/// The root's status and a `Conditions` field take defaults: the status
/// defaults to `{}` and its conditions then to the pending pair, in the
/// schema (as Gateway API writes it) and in `apply_defaults()`.
#[test]
fn status_and_conditions_defaults() {
    let schema = version_schema();
    let status = &schema["properties"]["status"];
    assert_eq!(status["default"], json!({}));
    let conditions = &status["properties"]["conditions"]["default"];
    assert_eq!(
        conditions,
        &json!([
            {"lastTransitionTime": "1970-01-01T00:00:00Z", "message": "Waiting for controller", "reason": "Pending", "status": "Unknown", "type": "Accepted"},
            {"lastTransitionTime": "1970-01-01T00:00:00Z", "message": "Waiting for controller", "reason": "Pending", "status": "Unknown", "type": "Programmed"}
        ])
    );
    let mut g = Gateway::new("g", GatewaySpec::default());
    assert_eq!(g.status, None);
    g.apply_defaults();
    let status = g.status.as_ref().expect("status defaulted");
    let types: Vec<&str> = status.conditions.iter().map(|c| c.type_.as_str()).collect();
    assert_eq!(types, ["Accepted", "Programmed"]);
    // A status that is set is left alone, and so are its conditions.
    let mut set = GatewayStatus::default();
    set.conditions.set(Condition::new(
        "Accepted",
        ConditionStatus::True,
        "Accepted",
        "",
    ));
    let mut g = Gateway::new("g", GatewaySpec::default());
    g.status = Some(set.clone());
    g.apply_defaults();
    assert_eq!(g.status, Some(set));
}

/// `FromIterator` keeps one condition per type, the later one in the
/// earlier's place.
#[test]
fn conditions_from_iter_keys_by_type() {
    let c = Conditions::from_iter([
        pending("Accepted"),
        pending("Programmed"),
        Condition::new("Accepted", ConditionStatus::True, "Ok", ""),
    ]);
    let got: Vec<(&str, ConditionStatus)> =
        c.iter().map(|c| (c.type_.as_str(), c.status)).collect();
    assert_eq!(
        got,
        [
            ("Accepted", ConditionStatus::True),
            ("Programmed", ConditionStatus::Unknown)
        ]
    );
}

/// Lint lists may repeat in one attribute, as `printcolumn` may: before,
/// a second `allow(...)` was "Duplicate field `allow`".
#[test]
fn repeated_lint_lists_merge() {
    /// Two allow lists.
    #[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
    #[kube(allow(no_floats), allow(integer_width))]
    pub struct Legacy {
        /// ratio.
        pub ratio: f64,
        /// count.
        pub count: u32,
    }
    let schema = Legacy::api_schema(&mut api_core::__private::generator()).to_value();
    assert_eq!(schema["properties"]["ratio"]["type"], "number");
}

/// LabelKey is the key of a label (Gateway API's `map[LabelKey]LabelValue`).
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LabelKey(#[kube(max_length = 317)] pub String);

/// Tier is a string enum, usable as a key.
#[derive(
    ApiType, Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
)]
pub enum Tier {
    /// gold.
    Gold,
    /// silver.
    Silver,
}

/// Maps keyed by typed strings.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Infrastructure {
    /// labels to add.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub labels: std::collections::BTreeMap<LabelKey, String>,
    /// replicas per tier.
    #[kube(allow(no_maps, hash_map))]
    #[serde(default, skip_serializing_if = "std::collections::HashMap::is_empty")]
    pub replicas: std::collections::HashMap<Tier, RedirectKindHolder>,
}

/// Holds a redirect kind, to have something to validate in a map value.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct RedirectKindHolder {
    /// count of things.
    #[kube(maximum = 3)]
    pub count: i32,
}

/// Go's `map[LabelKey]LabelValue`: string newtypes and string enums key
/// maps; the schema is a map's, JSON keys are the strings, and errors in
/// values are reported under the key.
#[test]
fn typed_map_keys() {
    let schema = <Infrastructure as ApiType>::api_schema(&mut schemars::SchemaGenerator::default())
        .to_value();
    assert_eq!(
        schema["properties"]["labels"],
        json!({
            "description": "labels to add.",
            "type": "object",
            "additionalProperties": {"type": "string"}
        })
    );
    let infra: Infrastructure = serde_json::from_value(json!({
        "labels": {"app": "web"},
        "replicas": {"Gold": {"count": 9}, "Silver": {"count": 1}}
    }))
    .unwrap();
    assert_eq!(infra.labels[&LabelKey("app".into())], "web");
    let mut errors = api_core::ErrorList::new();
    infra.validate(&FieldPath::new("spec"), &mut errors);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors.as_slice()[0]
            .to_string()
            .starts_with("spec.replicas[Gold].count: Invalid value: 9"),
        "{errors:?}"
    );
    assert_eq!(api_core::MapKey::as_key(&Tier::Silver), "Silver");
}
