//! apiextensions-apiserver's `TestValidateCustomResourceDefinition`
//! (`pkg/apis/apiextensions/validation/validation_test.go`, kubernetes
//! staging @ 1aa2717a552e, Apache-2.0) translated case by case: each test
//! below names its upstream case, states the input as
//! `apiextensions.k8s.io/v1` JSON and expects exactly upstream's set of
//! (error type, field path) from `check_crd` (compared as multisets, as
//! upstream matches every expected error to a distinct actual one).
//!
//! Translation from upstream's internal types to v1:
//!
//! - `spec.validation`, `spec.subresources` and
//!   `spec.additionalPrinterColumns` become the same per-version field in
//!   every version, and errors upstream reports under
//!   `spec.validation.openAPIV3Schema` are expected under each version's
//!   `spec.versions[i].schema.openAPIV3Schema`. (The apiserver converts a
//!   v1 CRD whose versions all carry the same schema back to a top-level
//!   `validation` and so reports the top-level path; `check_crd` checks v1
//!   as written and reports the per-version one, by design.)
//! - `preserveUnknownFields: ptr.To(false)` and a nil pointer are both the
//!   v1 default, an absent field; the internal `spec.version` has no v1
//!   field and its errors are dropped.
//! - upstream's statuses without `storedVersions` are translated as
//!   `"storedVersions": []`: upstream validates the empty list (the
//!   apiserver fills it in before validation), `check_crd` checks the
//!   field when present.
//! - upstream's driver defaults a webhook's empty `conversionReviewVersions`
//!   to `["v1beta1"]` (v1beta1 defaulting); the JSON carries that value.
//!
//! Skipped (no v1 equivalent):
//!
//! - "per-version fields may not all be set to identical values (top-level
//!   field should be used instead)": v1 has only per-version fields; the
//!   identical-values rule exists for the internal/v1beta1 shape.
//!
//! Kept in a v1 form that differs from the internal input:
//!
//! - "webhook conversion without preserveUnknownFields=false": the nil
//!   pointer meant `true` in v1beta1; v1's equivalent is an explicit
//!   `preserveUnknownFields: true`, which also draws the
//!   `spec.preserveUnknownFields` error of "preserveUnknownFields: true".
//! - "bad names 01": the `spec.version` error (internal field) is dropped.
//!
//! The webhook cases (port, URL, conversionReviewVersions, caBundle) are
//! kept: `check_crd` implements those checks, so they are not "details
//! beyond refused".
//!
//! `TestSelectableFields`, which runs the same function, follows (its
//! spec-level case in the v1 form: the one version's selectable fields).
//!
//! `TestValidateCustomResourceDefinitionUpdate` is not translated: the API
//! has no update entry point for CRDs (`check_crd` validates one object, as
//! on create).

use api_core::schema::structural::check_crd;
use api_core::validation::ErrorType;
use serde_json::{Value, json};

// ---------------------------------------------------------------- helpers

/// Expected errors: `want![Invalid "spec.versions", Required s(0, ".type")]`.
macro_rules! want {
    ($($ty:ident $path:expr),* $(,)?) => {
        vec![$((ErrorType::$ty, String::from($path))),*]
    };
}

/// `spec.versions[i].schema.openAPIV3Schema` followed by `rest`.
fn s(i: usize, rest: &str) -> String {
    format!("spec.versions[{i}].schema.openAPIV3Schema{rest}")
}

/// `rest` below the schema of each of the first `n` versions (an error
/// upstream reports once under the top-level `spec.validation`).
fn each(n: usize, ty: ErrorType, rest: &str) -> Vec<(ErrorType, String)> {
    (0..n).map(|i| (ty, s(i, rest))).collect()
}

fn object() -> Value {
    json!({"type": "object"})
}

/// A served version with a schema.
fn version(name: &str, storage: bool, schema: Value) -> Value {
    json!({
        "name": name,
        "served": true,
        "storage": storage,
        "schema": {"openAPIV3Schema": schema}
    })
}

/// Upstream's usual CRD: `plural.group.com`, kind `Plural`.
fn crd(scope: &str, versions: Vec<Value>, stored: &[&str]) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "plural.group.com"},
        "spec": {
            "group": "group.com",
            "scope": scope,
            "names": {
                "plural": "plural",
                "singular": "singular",
                "kind": "Plural",
                "listKind": "PluralList"
            },
            "versions": versions
        },
        "status": {"storedVersions": stored}
    })
}

/// One storage version `version` with `schema`, namespaced.
fn single(schema: Value) -> Value {
    crd(
        "Namespaced",
        vec![version("version", true, schema)],
        &["version"],
    )
}

/// `value` set at a JSON pointer whose parent exists.
fn with(mut v: Value, pointer: &str, value: Value) -> Value {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    v.pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .unwrap_or_else(|| panic!("no object at {parent}"))
        .insert(key.to_string(), value);
    v
}

/// The conversion cases' CRD: cluster-scoped, `version` (storage) and
/// `version2`, both `{type: object}`, with `spec.conversion`.
fn with_conversion(conversion: Value) -> Value {
    let versions = vec![
        version("version", true, object()),
        version("version2", false, object()),
    ];
    with(
        crd("Cluster", versions, &["version"]),
        "/spec/conversion",
        conversion,
    )
}

fn webhook_url(review_versions: Value) -> Value {
    json!({
        "strategy": "Webhook",
        "webhook": {
            "clientConfig": {"url": "https://example.com/webhook"},
            "conversionReviewVersions": review_versions
        }
    })
}

fn webhook_service(port: i64) -> Value {
    json!({
        "strategy": "Webhook",
        "webhook": {
            "clientConfig": {"service": {"name": "n", "namespace": "ns", "port": port}},
            "conversionReviewVersions": ["v1beta1"]
        }
    })
}

/// `check_crd` must report exactly `want` (type and field path, as a
/// multiset); the failure lists both sides.
#[track_caller]
fn check(case: &str, crd: &Value, want: Vec<(ErrorType, String)>) {
    let errors = check_crd(crd);
    let mut got: Vec<(&str, String)> = errors
        .iter()
        .map(|e| (e.error_type.as_str(), e.field.clone()))
        .collect();
    let mut want: Vec<(&str, String)> = want.into_iter().map(|(t, p)| (t.as_str(), p)).collect();
    got.sort();
    want.sort();
    if got != want {
        let missing = multiset_minus(&want, &got);
        let unexpected = multiset_minus(&got, &want);
        let show = |l: &[(&str, String)]| {
            l.iter()
                .map(|(t, p)| format!("    {t} at {p}"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let all = errors
            .iter()
            .map(|e| format!("    {e} [{}]", e.error_type.as_str()))
            .collect::<Vec<_>>()
            .join("\n");
        panic!(
            "upstream case {case:?}:\n  missing (upstream reports, we do not):\n{}\n  unexpected (we report, upstream does not):\n{}\n  all of ours:\n{all}",
            show(&missing),
            show(&unexpected),
        );
    }
}

fn multiset_minus<'a>(a: &[(&'a str, String)], b: &[(&'a str, String)]) -> Vec<(&'a str, String)> {
    let mut rest = b.to_vec();
    let mut out = Vec::new();
    for x in a {
        match rest.iter().position(|y| y == x) {
            Some(i) => {
                rest.remove(i);
            }
            None => out.push(x.clone()),
        }
    }
    out
}

// ------------------------------------------------------ types and webhooks

#[test]
fn invalid_types_disallowed() {
    let c = crd(
        "Cluster",
        vec![version(
            "version",
            true,
            json!({"type": "object", "properties": {"foo": {"type": "bogus"}}}),
        )],
        &["version"],
    );
    check(
        "invalid types disallowed",
        &c,
        want![NotSupported s(0, ".properties[foo].type")],
    );
}

#[test]
fn webhookconfig_invalid_port_0() {
    check(
        "webhookconfig: invalid port 0",
        &with_conversion(webhook_service(0)),
        want![Invalid "spec.conversion.webhookClientConfig.service.port"],
    );
}

#[test]
fn webhookconfig_invalid_port_65536() {
    check(
        "webhookconfig: invalid port 65536",
        &with_conversion(webhook_service(65536)),
        want![Invalid "spec.conversion.webhookClientConfig.service.port"],
    );
}

#[test]
fn webhookconfig_invalid_ca_bundle_allowed_on_create() {
    let mut conversion = webhook_service(443);
    // base64 of the bytes "Cg==": not a PEM bundle.
    conversion["webhook"]["clientConfig"]["caBundle"] = json!("Q2c9PQ==");
    check(
        "webhookconfig: invalid CABundle should be allowed on Create",
        &with_conversion(conversion),
        want![],
    );
}

#[test]
fn webhookconfig_valid_ca_bundle() {
    // Upstream's bundle is a self-signed certificate for example.com; on
    // create the bundle is not checked at all (allowInvalidCABundle), so
    // the established condition and the bundle's content change nothing.
    let mut conversion = webhook_service(443);
    conversion["webhook"]["clientConfig"]["caBundle"] =
        json!("LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==");
    let mut c = with_conversion(conversion);
    c["status"]["conditions"] = json!([{"type": "Established", "status": "True"}]);
    check("webhookconfig: valid CABundle", &c, want![]);
}

#[test]
fn webhookconfig_both_service_and_url() {
    let c = with_conversion(json!({
        "strategy": "Webhook",
        "webhook": {
            "clientConfig": {
                "url": "https://example.com/webhook",
                "service": {"name": "n", "namespace": "ns"}
            },
            "conversionReviewVersions": ["v1beta1"]
        }
    }));
    check(
        "webhookconfig: both service and URL provided",
        &c,
        want![Required "spec.conversion.webhookClientConfig"],
    );
}

#[test]
fn webhookconfig_blank_url() {
    let c = with_conversion(json!({
        "strategy": "Webhook",
        "webhook": {"clientConfig": {"url": ""}, "conversionReviewVersions": ["v1beta1"]}
    }));
    check(
        "webhookconfig: blank URL",
        &c,
        want![
            Invalid "spec.conversion.webhookClientConfig.url",
            Invalid "spec.conversion.webhookClientConfig.url",
        ],
    );
}

#[test]
fn webhookconfig_should_not_be_set() {
    let c = with_conversion(json!({
        "strategy": "None",
        "webhook": {"clientConfig": {"url": "https://example.com/webhook"}}
    }));
    check(
        "webhookconfig_should_not_be_set",
        &c,
        want![Forbidden "spec.conversion.webhookClientConfig"],
    );
}

#[test]
fn conversion_review_versions_should_not_be_set() {
    let c = with_conversion(json!({
        "strategy": "None",
        "webhook": {"conversionReviewVersions": ["v1beta1"]}
    }));
    check(
        "ConversionReviewVersions_should_not_be_set",
        &c,
        want![Forbidden "spec.conversion.conversionReviewVersions"],
    );
}

#[test]
fn webhookconfig_invalid_conversion_review_version() {
    check(
        "webhookconfig: invalid ConversionReviewVersion",
        &with_conversion(webhook_url(json!(["invalid-version"]))),
        want![Invalid "spec.conversion.conversionReviewVersions"],
    );
}

#[test]
fn webhookconfig_invalid_conversion_review_version_string() {
    check(
        "webhookconfig: invalid ConversionReviewVersion version string",
        &with_conversion(webhook_url(json!(["0v"]))),
        want![
            Invalid "spec.conversion.conversionReviewVersions[0]",
            Invalid "spec.conversion.conversionReviewVersions",
        ],
    );
}

#[test]
fn webhookconfig_at_least_one_valid_conversion_review_version() {
    check(
        "webhookconfig: at least one valid ConversionReviewVersion",
        &with_conversion(webhook_url(json!(["invalid-version", "v1beta1"]))),
        want![],
    );
}

#[test]
fn webhookconfig_duplicate_conversion_review_version() {
    check(
        "webhookconfig: duplicate ConversionReviewVersion",
        &with_conversion(webhook_url(json!(["v1beta1", "v1beta1"]))),
        want![Invalid "spec.conversion.conversionReviewVersions[1]"],
    );
}

#[test]
fn missing_webhookconfig() {
    let c = with_conversion(json!({
        "strategy": "Webhook",
        "webhook": {"conversionReviewVersions": ["v1beta1"]}
    }));
    check(
        "missing_webhookconfig",
        &c,
        want![Required "spec.conversion.webhookClientConfig"],
    );
}

#[test]
fn invalid_conversion_strategy() {
    check(
        "invalid_conversion_strategy",
        &with_conversion(json!({"strategy": "non_existing_conversion"})),
        want![NotSupported "spec.conversion.strategy"],
    );
}

/// Versions `version1` (storage) and `version2`.
fn with_conversion_v1(conversion: Value) -> Value {
    let versions = vec![
        version("version1", true, object()),
        version("version2", false, object()),
    ];
    with(
        crd("Cluster", versions, &["version1"]),
        "/spec/conversion",
        conversion,
    )
}

#[test]
fn none_conversion_without_preserve_unknown_fields_false() {
    check(
        "none conversion without preserveUnknownFields=false",
        &with_conversion_v1(json!({"strategy": "None"})),
        want![],
    );
}

#[test]
fn webhook_conversion_without_preserve_unknown_fields_false() {
    // v1beta1's unset preserveUnknownFields meant true; in v1 that is an
    // explicit true, refused on its own as well.
    let c = with(
        with_conversion_v1(webhook_url(json!(["v1beta1"]))),
        "/spec/preserveUnknownFields",
        json!(true),
    );
    check(
        "webhook conversion without preserveUnknownFields=false",
        &c,
        want![
            Invalid "spec.conversion.strategy",
            Invalid "spec.preserveUnknownFields",
        ],
    );
}

#[test]
fn webhook_conversion_with_review_versions_v1beta1() {
    check(
        "webhook conversion with preserveUnknownFields=false, conversionReviewVersions=[v1beta1]",
        &with_conversion_v1(webhook_url(json!(["v1beta1"]))),
        want![],
    );
}

#[test]
fn webhook_conversion_with_review_versions_v1() {
    check(
        "webhook conversion with preserveUnknownFields=false, conversionReviewVersions=[v1]",
        &with_conversion_v1(webhook_url(json!(["v1"]))),
        want![],
    );
}

// ---------------------------------------------------- versions and names

/// `version` and `version2` with the given storage flags, strategy None.
fn storage_flags(first: bool, second: bool, stored: &[&str]) -> Value {
    let versions = vec![
        version("version", first, object()),
        version("version2", second, object()),
    ];
    with(
        crd("Cluster", versions, stored),
        "/spec/conversion",
        json!({"strategy": "None"}),
    )
}

#[test]
fn no_storage_version() {
    check(
        "no_storage_version",
        &storage_flags(false, false, &["version"]),
        want![Invalid "spec.versions"],
    );
}

#[test]
fn multiple_storage_version() {
    check(
        "multiple_storage_version",
        &storage_flags(true, true, &["version"]),
        want![Invalid "spec.versions", Invalid "status.storedVersions"],
    );
}

#[test]
fn missing_storage_version_in_stored_versions() {
    check(
        "missing_storage_version_in_stored_versions",
        &storage_flags(false, true, &["version"]),
        want![Invalid "status.storedVersions"],
    );
}

#[test]
fn empty_stored_version() {
    let c = with(
        crd("Cluster", vec![version("version", true, object())], &[]),
        "/spec/conversion",
        json!({"strategy": "None"}),
    );
    check(
        "empty_stored_version",
        &c,
        want![Invalid "status.storedVersions"],
    );
}

#[test]
fn mismatched_name() {
    // Upstream's top-level schema has no version to live in.
    let c = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "plural.not.group.com"},
        "spec": {"group": "group.com", "names": {"plural": "plural"}},
        "status": {"storedVersions": []}
    });
    check(
        "mismatched name",
        &c,
        want![
            Invalid "status.storedVersions",
            Invalid "metadata.name",
            Invalid "spec.versions",
            Required "spec.scope",
            Required "spec.names.singular",
            Required "spec.names.kind",
            Required "spec.names.listKind",
        ],
    );
}

#[test]
fn missing_values() {
    let c = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "plural.group.com"},
        "spec": {},
        "status": {"storedVersions": []}
    });
    check(
        "missing values",
        &c,
        want![
            Invalid "status.storedVersions",
            Invalid "metadata.name",
            Invalid "spec.versions",
            Required "spec.group",
            Required "spec.scope",
            Required "spec.names.plural",
            Required "spec.names.singular",
            Required "spec.names.kind",
            Required "spec.names.listKind",
        ],
    );
}

#[test]
fn bad_names_01() {
    let names = json!({
        "plural": "pl()*ural",
        "singular": "value()*a",
        "kind": "value()*a",
        "listKind": "value()*a"
    });
    let c = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "plural.group"},
        "spec": {"group": "group", "scope": "foo", "names": names},
        "status": {"acceptedNames": names, "storedVersions": []}
    });
    check(
        "bad names 01",
        &c,
        want![
            Invalid "status.storedVersions",
            Invalid "metadata.name",
            Invalid "spec.group",
            NotSupported "spec.scope",
            Invalid "spec.names.plural",
            Invalid "spec.names.singular",
            Invalid "spec.names.kind",
            Invalid "spec.names.listKind", // format
            Invalid "spec.names.listKind", // kind == listKind
            Invalid "status.acceptedNames.plural",
            Invalid "status.acceptedNames.singular",
            Invalid "status.acceptedNames.kind",
            Invalid "status.acceptedNames.listKind", // format
            Invalid "status.acceptedNames.listKind", // kind == listKind
            Invalid "spec.versions",
            // upstream's `invalid("spec", "version")` is of the internal
            // spec.version ("ve()*rsion"), which v1 does not have.
        ],
    );
}

#[test]
fn bad_names_02() {
    let names = json!({
        "plural": "plural",
        "singular": "singular",
        "kind": "matching",
        "listKind": "matching"
    });
    let c = json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "plural.group"},
        "spec": {
            "group": "group.c(*&om",
            "names": names,
            "versions": [version("version", true, object())],
            "conversion": {"strategy": "None"}
        },
        "status": {"acceptedNames": names, "storedVersions": ["version"]}
    });
    check(
        "bad names 02",
        &c,
        want![
            Invalid "metadata.name",
            Invalid "spec.group",
            Required "spec.scope",
            Invalid "spec.names.listKind",
            Invalid "status.acceptedNames.listKind",
        ],
    );
}

// ------------------------------------------------------------- schemas

#[test]
fn additional_properties_and_properties_forbidden() {
    let schema = json!({
        "type": "object",
        "properties": {
            "foo": {
                "type": "object",
                "properties": {"bar": {"type": "object"}},
                "additionalProperties": false
            }
        }
    });
    check(
        "additionalProperties and properties forbidden",
        &single(schema),
        want![Forbidden s(0, ".properties[foo].additionalProperties")],
    );
}

#[test]
fn additional_properties_without_properties_allowed() {
    let schema = json!({
        "type": "object",
        "properties": {"foo": {"type": "object", "additionalProperties": {"type": "string"}}}
    });
    check(
        "additionalProperties without properties allowed (map[string]string)",
        &single(schema),
        want![],
    );
}

#[test]
fn x_kubernetes_preserve_unknown_field_false() {
    check(
        "x-kubernetes-preserve-unknown-field: false",
        &single(json!({"x-kubernetes-preserve-unknown-fields": false})),
        want![Invalid s(0, ".x-kubernetes-preserve-unknown-fields")],
    );
}

/// Upstream's `validValidationSchema`: structural, every value validation.
fn valid_validation_schema() -> Value {
    json!({
        "description": "This is a description",
        "type": "object",
        "format": "date-time",
        "title": "This is a title",
        "maximum": 10.0,
        "exclusiveMaximum": true,
        "minimum": 5.0,
        "exclusiveMinimum": true,
        "maxLength": 10,
        "minLength": 5,
        "pattern": "^[a-z]$",
        "maxItems": 10,
        "minItems": 5,
        "multipleOf": 3.0,
        "required": ["spec", "status"],
        "properties": {
            "spec": {
                "type": "object",
                "items": {"description": "This is a schema nested under Items", "type": "string"}
            },
            "status": {"type": "object"}
        },
        "externalDocs": {"description": "This is an external documentation description"},
        "example": "This is an example"
    })
}

/// Upstream's `validUnstructuralValidationSchema`: types missing at
/// `properties[spec]`, `properties[status]` and `items`.
fn valid_unstructural_validation_schema() -> Value {
    let mut s = valid_validation_schema();
    s["items"] = json!({"description": "This is a schema nested under Items"});
    s["properties"] = json!({"spec": {}, "status": {}});
    s
}

#[test]
fn preserve_unknown_fields_with_unstructural_global_schema() {
    let schema = valid_unstructural_validation_schema();
    let c = crd(
        "Namespaced",
        vec![
            version("version", true, schema.clone()),
            version("version2", false, schema),
        ],
        &["version"],
    );
    let mut want = Vec::new();
    for rest in [
        ".properties[spec].type",
        ".properties[status].type",
        ".items.type",
    ] {
        want.extend(each(2, ErrorType::Required, rest));
    }
    check(
        "preserveUnknownFields with unstructural global schema",
        &c,
        want,
    );
}

#[test]
fn preserve_unknown_fields_with_unstructural_schema_in_one_version() {
    let c = crd(
        "Namespaced",
        vec![
            version("version", true, valid_validation_schema()),
            version("version2", false, valid_unstructural_validation_schema()),
        ],
        &["version"],
    );
    check(
        "preserveUnknownFields with unstructural schema in one version",
        &c,
        want![
            Required s(1, ".properties[spec].type"),
            Required s(1, ".properties[status].type"),
            Required s(1, ".items.type"),
        ],
    );
}

#[test]
fn preserve_unknown_fields_with_no_schema_in_one_version() {
    let mut second = version("version2", false, Value::Null);
    second["schema"] = json!({});
    let c = crd(
        "Namespaced",
        vec![version("version", true, valid_validation_schema()), second],
        &["version"],
    );
    check(
        "preserveUnknownFields with no schema in one version",
        &c,
        want![Required s(1, "")],
    );
}

/// `version` without `schema`, `version2` with an empty `schema`.
fn no_schema_at_all() -> Value {
    let versions = vec![
        json!({"name": "version", "served": true, "storage": true}),
        json!({"name": "version2", "served": true, "storage": false, "schema": {}}),
    ];
    crd("Namespaced", versions, &["version"])
}

#[test]
fn preserve_unknown_fields_with_no_schema_at_all() {
    check(
        "preserveUnknownFields with no schema at all",
        &no_schema_at_all(),
        want![Required s(0, ""), Required s(1, "")],
    );
}

#[test]
fn schema_is_required() {
    check(
        "schema is required",
        &no_schema_at_all(),
        want![Required s(0, ""), Required s(1, "")],
    );
}

#[test]
fn preserve_unknown_fields_true() {
    let c = with(single(object()), "/spec/preserveUnknownFields", json!(true));
    check(
        "preserveUnknownFields: true",
        &c,
        want![Invalid "spec.preserveUnknownFields"],
    );
}

#[test]
fn label_selector_path_outside_of_spec_and_status() {
    let scaled = |name: &str, storage: bool, selector: Option<&str>| {
        let mut v = version(name, storage, object());
        let mut scale =
            json!({"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"});
        if let Some(path) = selector {
            scale["labelSelectorPath"] = json!(path);
        }
        v["subresources"] = json!({"scale": scale});
        v
    };
    let c = crd(
        "Namespaced",
        vec![
            scaled("version0", true, None),
            scaled("version1", false, Some(".status.labelSelector")),
            scaled("version2", false, Some(".spec.labelSelector")),
            scaled("version3", false, Some(".labelSelector")),
        ],
        &["version0"],
    );
    check(
        "labelSelectorPath outside of .spec and .status",
        &c,
        want![Invalid "spec.versions[3].subresources.scale.labelSelectorPath"],
    );
}

#[test]
fn defaults_with_enabled_feature_gate() {
    let schema =
        json!({"type": "object", "properties": {"a": {"type": "number", "default": 42.0}}});
    check(
        "defaults with enabled feature gate",
        &single(schema),
        want![],
    );
}

#[test]
fn embedded_resource_with_pruning_and_empty_properties() {
    let schema = json!({
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": true,
        "properties": {
            "nil": {"type": "object", "x-kubernetes-embedded-resource": true},
            "empty": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {}}
        }
    });
    check(
        "x-kubernetes-embedded-resource with pruning and empty properties",
        &single(schema),
        want![
            Required s(0, ".properties[nil].properties"),
            Required s(0, ".properties[empty].properties"),
        ],
    );
}

#[test]
fn embedded_resource_inside_resource_meta() {
    let embedded_preserved = json!({
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "x-kubernetes-preserve-unknown-fields": true
    });
    let schema = json!({
        "type": "object",
        "properties": {
            "embedded": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "properties": {
                    "metadata": embedded_preserved,
                    "apiVersion": {"type": "string", "properties": {"foo": embedded_preserved}},
                    "kind": {"type": "string", "properties": {"foo": embedded_preserved}}
                }
            }
        }
    });
    let e = ".properties[embedded]";
    check(
        "x-kubernetes-embedded-resource inside resource meta",
        &single(schema),
        want![
            Forbidden s(0, &format!("{e}.properties[metadata].x-kubernetes-embedded-resource")),
            Forbidden s(0, &format!("{e}.properties[apiVersion].properties[foo].x-kubernetes-embedded-resource")),
            Forbidden s(0, &format!("{e}.properties[kind].properties[foo].x-kubernetes-embedded-resource")),
        ],
    );
}

#[test]
fn x_kubernetes_validations_access_metadata_name() {
    let schema = json!({
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": true,
        "x-kubernetes-validations": [{"rule": "size(self.metadata.name) > 3"}],
        "properties": {"metadata": {"type": "object", "properties": {"name": {"type": "string"}}}}
    });
    let mut c = single(schema);
    c["spec"]["versions"][0]["subresources"] = json!({"status": {}});
    check("x-kubernetes-validations access metadata name", &c, want![]);
}

#[test]
fn defaults_unstructural_schema() {
    check(
        "defaults with enabled feature gate, unstructural schema",
        &single(json!({"properties": {"a": {"default": 42.0}}})),
        want![Required s(0, ".properties[a].type"), Required s(0, ".type")],
    );
}

#[test]
fn defaults_structural_schema() {
    let schema =
        json!({"type": "object", "properties": {"a": {"type": "number", "default": 42.0}}});
    check(
        "defaults with enabled feature gate, structural schema",
        &single(schema),
        want![],
    );
}

#[test]
fn defaults_in_value_validation() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {
                "type": "number",
                "not": {"default": 42.0},
                "anyOf": [{"default": 42.0}],
                "allOf": [{"default": 42.0}],
                "oneOf": [{"default": 42.0}]
            }
        }
    });
    check(
        "defaults in value validation with enabled feature gate, structural schema",
        &single(schema),
        want![
            Forbidden s(0, ".properties[a].not.default"),
            Forbidden s(0, ".properties[a].allOf[0].default"),
            Forbidden s(0, ".properties[a].anyOf[0].default"),
            Forbidden s(0, ".properties[a].oneOf[0].default"),
        ],
    );
}

#[test]
fn invalid_defaults() {
    let foo = json!({"foo": {"type": "string"}});
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": foo, "default": {"foo": "abc", "bar": 42}},
            "b": {"type": "object", "properties": foo, "default": {"foo": "abc"}},
            "c": {"type": "object", "properties": foo, "default": {"foo": 42}},
            "d": {
                "type": "object",
                "properties": {
                    "good": {"type": "string", "pattern": "a"},
                    "bad": {"type": "string", "pattern": "b"}
                },
                "default": {"good": "a", "bad": "a"}
            },
            "e": {
                "type": "object",
                "properties": {
                    "preserveUnknownFields": {
                        "type": "object",
                        // under x-kubernetes-preserve-unknown-fields
                        "default": {"foo": "abc", "bar": 42}
                    },
                    "nestedProperties": {
                        "type": "object",
                        "properties": foo,
                        "default": {"foo": "abc", "bar": 42}
                    }
                },
                "x-kubernetes-preserve-unknown-fields": true
            },
            "embedded-fine": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "properties": foo,
                "default": {
                    "foo": "abc",
                    "apiVersion": "foo/v1",
                    "kind": "v1",
                    "metadata": {"name": "foo"}
                }
            },
            "embedded-preserve": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "x-kubernetes-preserve-unknown-fields": true,
                "properties": foo,
                "default": {
                    "foo": "abc",
                    "apiVersion": "foo/v1",
                    "kind": "v1",
                    "metadata": {"name": "foo"},
                    "bar": 42
                }
            },
            "embedded-preserve-unpruned-objectmeta": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "x-kubernetes-preserve-unknown-fields": true,
                "properties": foo,
                "default": {
                    "foo": "abc",
                    "apiVersion": "foo/v1",
                    "kind": "v1",
                    // unknown metadata fields are pruned at storage, not refused here
                    "metadata": {"name": "foo", "unspecified": "bar"},
                    "bar": 42
                }
            }
        }
    });
    check(
        "invalid defaults with enabled feature gate, structural schema",
        &single(schema),
        want![
            Invalid s(0, ".properties[a].default"),
            TypeInvalid s(0, ".properties[c].default.foo"),
            Invalid s(0, ".properties[d].default.bad"),
            Invalid s(0, ".properties[e].properties[preserveUnknownFields].default"),
            Invalid s(0, ".properties[e].properties[nestedProperties].default"),
        ],
    );
}

#[test]
fn additional_properties_at_resource_root() {
    let schema = json!({
        "type": "object",
        "properties": {
            "embedded1": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "additionalProperties": {"type": "string"}
            },
            "embedded2": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "x-kubernetes-preserve-unknown-fields": true,
                "additionalProperties": {"type": "string"}
            }
        }
    });
    check(
        "additionalProperties at resource root",
        &single(schema),
        want![
            Forbidden s(0, ".properties[embedded1].additionalProperties"),
            Required s(0, ".properties[embedded1].properties"),
            Forbidden s(0, ".properties[embedded2].additionalProperties"),
        ],
    );
}

// ------------------------------------------------------ metadata defaults

#[test]
fn v1_15_era_metadata_defaults() {
    let v1 = json!({
        "type": "object",
        "properties": {
            // forbidden: a default for the top-level metadata
            "metadata": {"type": "object", "default": {"name": "foo"}},
            "embedded": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "properties": {
                    // allowed: unknown metadata fields are pruned at storage
                    "metadata": {"type": "object", "default": {"name": "foo", "unknown": 42}}
                }
            }
        }
    });
    let v2 = json!({
        "type": "object",
        "properties": {
            "metadata": {
                "type": "object",
                // forbidden: a default in the top-level metadata
                "properties": {"name": {"type": "string", "default": "foo"}}
            },
            "embedded": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "properties": {
                    "apiVersion": {"type": "string", "default": "v1"},
                    "kind": {"type": "string", "default": "Pod"},
                    "metadata": {
                        "type": "object",
                        "properties": {"name": {"type": "string", "default": "foo"}}
                    }
                }
            }
        }
    });
    let v3 = json!({
        "type": "object",
        "properties": {
            "embedded": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "properties": {
                    "apiVersion": {"type": "string", "default": "v1"},
                    // invalid: not a valid kind
                    "kind": {"type": "string", "default": "%"},
                    // invalid: not a valid label value
                    "metadata": {"type": "object", "default": {"labels": {"bar": "x y"}}}
                }
            }
        }
    });
    let v4 = json!({
        "type": "object",
        "properties": {
            "embedded": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "properties": {
                    "metadata": {
                        "type": "object",
                        "properties": {
                            // invalid: wrongly typed ObjectMeta fields
                            "name": {"type": "string", "default": 42},
                            "labels": {
                                "type": "object",
                                "properties": {"bar": {"type": "string", "default": 42}}
                            }
                        }
                    }
                }
            }
        }
    });
    let c = crd(
        "Namespaced",
        vec![
            version("v1", true, v1),
            version("v2", false, v2),
            version("v3", false, v3),
            version("v4", false, v4),
        ],
        &["v1"],
    );
    let em = ".properties[embedded].properties[metadata]";
    check(
        "v1.15 era tests for metadata defaults",
        &c,
        want![
            Forbidden s(0, ".properties[metadata].default"),
            Forbidden s(1, ".properties[metadata].properties[name].default"),
            Invalid s(2, ".properties[embedded].properties[kind].default"),
            // "x y" is no label value (ObjectMeta validation)
            Invalid s(2, ".properties[embedded].properties[metadata].default"),
            Invalid s(3, &format!("{em}.properties[labels].properties[bar].default")),
            Invalid s(3, &format!("{em}.properties[name].default")),
        ],
    );
}

#[test]
fn default_inside_additional_schema() {
    let schema = json!({
        "type": "object",
        "properties": {
            "embedded": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "properties": {
                    "metadata": {
                        "type": "object",
                        "properties": {
                            "annotations": {
                                "type": "object",
                                "additionalProperties": {"type": "string", "default": "abc"}
                            }
                        }
                    }
                }
            }
        }
    });
    let c = crd("Namespaced", vec![version("v1", true, schema)], &["v1"]);
    check(
        "default inside additionalSchema",
        &c,
        want![Forbidden s(
            0,
            ".properties[embedded].properties[metadata].properties[annotations].additionalProperties.default"
        )],
    );
}

#[test]
fn top_level_metadata_default() {
    let schema = json!({
        "type": "object",
        "properties": {"metadata": {"type": "object", "default": {"name": "foo"}}}
    });
    let c = crd("Namespaced", vec![version("v1", true, schema)], &["v1"]);
    check(
        "top-level metadata default",
        &c,
        want![Forbidden s(0, ".properties[metadata].default")],
    );
}

/// Errors under properties of the root schema of version 0:
/// `at![Invalid "prop" ".default"]`.
macro_rules! at {
    ($($ty:ident $prop:literal $rest:literal),* $(,)?) => {
        vec![$((ErrorType::$ty, s(0, &format!(".properties[{}]{}", $prop, $rest)))),*]
    };
}

#[test]
fn embedded_metadata_defaults() {
    let schema: Value = serde_json::from_str(EMBEDDED_METADATA_DEFAULTS).unwrap();
    let c = crd("Namespaced", vec![version("v1", true, schema)], &["v1"]);
    let upstream = at![
        Invalid "unknown-field-object-defaults" ".default",
        Invalid "unknown-field-spanning-object-defaults" ".default",
        Invalid "x-preserve-unknown-fields-unknown-field-outside" ".default",

        Invalid "wrongly-typed-in-object-defaults" ".properties[kind].default",
        Invalid "wrongly-typed-in-object-defaults" ".properties[apiVersion].default",
        Invalid "wrongly-typed-in-object-defaults" ".properties[metadata].properties[name].default",
        Invalid "wrongly-typed-in-object-defaults" ".properties[metadata].properties[annotations].default",

        Invalid "wrongly-typed-object-defaults-metadata" ".default.metadata",
        Invalid "wrongly-typed-object-defaults-apiVersion" ".default.apiVersion",
        Invalid "wrongly-typed-object-defaults-kind" ".default.kind",
        Invalid "wrongly-typed-object-defaults-name" ".default.metadata",
        Invalid "wrongly-typed-object-defaults-labels" ".default.metadata",
        Invalid "wrongly-typed-object-defaults-annotations" ".default.metadata",

        Invalid "wrongly-typed-spanning-object-defaults-metadata" ".default.embedded.metadata",
        Invalid "wrongly-typed-spanning-object-defaults-apiVersion" ".default.embedded.apiVersion",
        Invalid "wrongly-typed-spanning-object-defaults-kind" ".default.embedded.kind",
        Invalid "wrongly-typed-spanning-object-defaults-name" ".default.embedded.metadata",
        Invalid "wrongly-typed-spanning-object-defaults-labels" ".default.embedded.metadata",
        Invalid "wrongly-typed-spanning-object-defaults-annotations" ".default.embedded.metadata",

        Invalid "invalid-in-object-defaults" ".properties[metadata].properties[name].default",
        Invalid "invalid-in-object-defaults" ".properties[metadata].properties[labels].default",
        Invalid "invalid-in-object-defaults" ".properties[kind].default",

        Invalid "invalid-object-defaults-kind" ".default.kind",
        Invalid "invalid-object-defaults-name" ".default.metadata.name",
        Invalid "invalid-object-defaults-labels" ".default.metadata.labels",

        Invalid "invalid-spanning-object-defaults-kind" ".default.embedded.kind",
        Invalid "invalid-spanning-object-defaults-name" ".default.embedded.metadata.name",
        Invalid "invalid-spanning-object-defaults-labels" ".default.embedded.metadata.labels",

        NotSupported "in-object-defaults-with-invalid-constraints" ".properties[apiVersion].default",
        NotSupported "in-object-defaults-with-invalid-constraints" ".properties[kind].default",
        NotSupported "in-object-defaults-with-invalid-constraints" ".properties[metadata].properties[name].default",
        NotSupported "in-object-defaults-with-invalid-constraints" ".properties[metadata].properties[labels].default.foo",

        NotSupported "metadata-defaults-with-invalid-constraints-name" ".properties[metadata].default.name",
        NotSupported "metadata-defaults-with-invalid-constraints-labels" ".properties[metadata].default.labels.foo",

        NotSupported "object-defaults-with-invalid-constraints-name" ".default.metadata.name",
        NotSupported "object-defaults-with-invalid-constraints-labels" ".default.metadata.labels.foo",
        NotSupported "object-defaults-with-invalid-constraints-apiVersion" ".default.apiVersion",
        NotSupported "object-defaults-with-invalid-constraints-kind" ".default.kind",

        NotSupported "spanning-defaults-with-invalid-constraints-kind" ".default.embedded.kind",
        NotSupported "spanning-defaults-with-invalid-constraints-labels" ".default.embedded.metadata.labels.foo",
        NotSupported "spanning-defaults-with-invalid-constraints-apiVersion" ".default.embedded.apiVersion",
        NotSupported "spanning-defaults-with-invalid-constraints-name" ".default.embedded.metadata.name",

        Required "object-defaults-with-missing-typemeta" ".default.apiVersion",
        Required "object-defaults-with-missing-typemeta" ".default.kind",

        Required "spanning-defaults-with-missing-typemeta" ".default.embedded.apiVersion",
        Required "spanning-defaults-with-missing-typemeta" ".default.embedded.kind",
    ];
    check("embedded metadata defaults", &c, upstream);
}

#[test]
fn contradicting_meta_field_types() {
    let object_meta = |generation: Value| {
        json!({
            "name": {"type": "string", "pattern": "abc"},
            "generateName": {"type": "string", "pattern": "abc"},
            "generation": generation
        })
    };
    // `minimum` on generation makes no sense, but nested ObjectMeta allows it.
    let generation_min = json!({"type": "integer", "minimum": 42.0});
    let invalid = json!({
        "type": "object",
        "x-kubernetes-embedded-resource": true,
        "properties": {
            "apiVersion": {"type": "number"},
            "kind": {"type": "number"},
            "metadata": {"type": "number", "properties": object_meta(generation_min.clone())}
        }
    });
    let schema = json!({
        "type": "object",
        "properties": {
            "apiVersion": {"type": "number"},
            "kind": {"type": "number"},
            "metadata": {"type": "number", "properties": object_meta(json!({"type": "integer"}))},
            "valid": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "properties": {
                    "apiVersion": {"type": "string"},
                    "kind": {"type": "string"},
                    "metadata": {"type": "object", "properties": object_meta(generation_min)}
                }
            },
            "invalid": invalid,
            "nested": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "properties": {"invalid": invalid}
            },
            "noEmbeddedObject": {
                "type": "object",
                "properties": {
                    "apiVersion": {"type": "number"},
                    "kind": {"type": "number"},
                    "metadata": {"type": "number"}
                }
            }
        }
    });
    check(
        "contradicting meta field types",
        &single(schema),
        want![
            Forbidden s(0, ".properties[metadata]"),
            Invalid s(0, ".properties[apiVersion].type"),
            Invalid s(0, ".properties[kind].type"),
            Invalid s(0, ".properties[metadata].type"),
            Invalid s(0, ".properties[invalid].properties[apiVersion].type"),
            Invalid s(0, ".properties[invalid].properties[kind].type"),
            Invalid s(0, ".properties[invalid].properties[metadata].type"),
            Invalid s(0, ".properties[nested].properties[invalid].properties[apiVersion].type"),
            Invalid s(0, ".properties[nested].properties[invalid].properties[kind].type"),
            Invalid s(0, ".properties[nested].properties[invalid].properties[metadata].type"),
        ],
    );
}

// ------------------------------------------------ x-kubernetes-validations

#[test]
fn x_kubernetes_validations_forbidden_under_junctors() {
    let rules = json!({"x-kubernetes-validations": [{"rule": "should be forbidden"}]});
    let schema = json!({
        "type": "object",
        "properties": {
            "a": {
                "type": "number",
                "not": rules,
                "anyOf": [rules],
                "allOf": [rules],
                "oneOf": [rules]
            }
        }
    });
    check(
        "x-kubernetes-validations should be forbidden under oneOf/anyOf/allOf/not, structural schema",
        &single(schema),
        want![
            Forbidden s(0, ".properties[a].not.x-kubernetes-validations"),
            Forbidden s(0, ".properties[a].allOf[0].x-kubernetes-validations"),
            Forbidden s(0, ".properties[a].anyOf[0].x-kubernetes-validations"),
            Forbidden s(0, ".properties[a].oneOf[0].x-kubernetes-validations"),
        ],
    );
}

#[test]
fn x_kubernetes_validations_reason_and_field_path() {
    let schema = json!({
        "type": "object",
        "x-kubernetes-validations": [
            {"rule": "self.a > 0", "reason": "InternalError", "fieldPath": ".a"}
        ],
        "properties": {
            "a": {
                "type": "number",
                "x-kubernetes-validations": [
                    {"rule": "true", "reason": "FieldValueRequired"},
                    {"rule": "true", "reason": "FieldValueInvalid"},
                    {"rule": "true", "reason": "FieldValueDuplicate"},
                    {"rule": "true", "reason": "FieldValueForbidden"}
                ]
            }
        }
    });
    check(
        "x-kubernetes-validations should have valid reason and fieldPath",
        &single(schema),
        want![NotSupported s(0, ".x-kubernetes-validations[0].reason")],
    );
}

#[test]
fn x_kubernetes_validations_field_path_for_array() {
    let rule = |path: &str| json!({"rule": "true", "fieldPath": path});
    let schema = json!({
        "type": "object",
        "x-kubernetes-validations": [
            // `\a` in a quoted segment is the escape of U+0007
            rule(".foo['b.c']['c\\a']"),
            rule("['a.c']"),
            rule(".a.c"),
            rule(".list[0]"),
            rule("   "),
            rule("."),
            rule(".."),
        ],
        "properties": {
            "a.c": {"type": "number"},
            "foo": {
                "type": "object",
                "properties": {
                    "b.c": {"type": "object", "properties": {"c\u{7}": {"type": "number"}}}
                }
            },
            "list": {
                "type": "array",
                "items": {"type": "object", "properties": {"a": {"type": "number"}}}
            }
        }
    });
    check(
        "x-kubernetes-validations should have valid fieldPath for array",
        &single(schema),
        want![
            Invalid s(0, ".x-kubernetes-validations[2].fieldPath"),
            Invalid s(0, ".x-kubernetes-validations[3].fieldPath"),
            Invalid s(0, ".x-kubernetes-validations[4].fieldPath"),
            Invalid s(0, ".x-kubernetes-validations[4].fieldPath"),
            Invalid s(0, ".x-kubernetes-validations[5].fieldPath"),
            Invalid s(0, ".x-kubernetes-validations[6].fieldPath"),
        ],
    );
}

#[test]
fn x_kubernetes_validations_invalid_field_path() {
    let rule = |path: &str| json!({"rule": "self.a.b.c > 0.0", "fieldPath": path});
    let schema = json!({
        "type": "object",
        "x-kubernetes-validations": [
            rule(".list[0].b"),
            rule(".list[0.b"),
            rule(".list0].b"),
            rule(".a.c"),
            rule(".a.b.d"),
        ],
        "properties": {
            "a": {
                "type": "object",
                "properties": {"b": {"type": "object", "properties": {"c": {"type": "number"}}}}
            },
            "list": {
                "type": "array",
                "items": {"type": "object", "properties": {"a": {"type": "number"}}}
            }
        }
    });
    check(
        "x-kubernetes-validations have invalid fieldPath",
        &single(schema),
        want![
            Invalid s(0, ".x-kubernetes-validations[0].fieldPath"),
            Invalid s(0, ".x-kubernetes-validations[1].fieldPath"),
            Invalid s(0, ".x-kubernetes-validations[2].fieldPath"),
            Invalid s(0, ".x-kubernetes-validations[3].fieldPath"),
            Invalid s(0, ".x-kubernetes-validations[4].fieldPath"),
        ],
    );
}

// -------------------------------------------------------- printer columns

#[test]
fn valid_name_printer_column_formats() {
    let schema = json!({
        "type": "object",
        "properties": {
            "shortName": {"type": "string", "format": "k8s-short-name"},
            "longName": {"type": "string", "format": "k8s-long-name"}
        }
    });
    let mut c = crd(
        "Cluster",
        vec![version("version", true, schema)],
        &["version"],
    );
    c["spec"]["versions"][0]["additionalPrinterColumns"] = json!([
        {"name": "primaryName", "type": "string", "jsonPath": ".metadata.name"},
        {"name": "shortName", "type": "string", "jsonPath": ".spec.shortName"},
        {"name": "longName", "type": "string", "jsonPath": ".spec.longName"}
    ]);
    check("valid name printer column formats", &c, want![]);
}

// ------------------------------------------------------ selectable fields
//
// Upstream's `TestSelectableFields` runs the same
// `ValidateCustomResourceDefinition` (feature gate on, as GA since 1.32).

/// A served version whose schema is an object with `props`, all required,
/// and the selectable fields at `paths`.
fn selectable(name: &str, storage: bool, props: Value, paths: &[&str]) -> Value {
    let required: Vec<&String> = props.as_object().unwrap().keys().collect();
    let schema = json!({"type": "object", "properties": props, "required": required});
    let mut v = version(name, storage, schema);
    let fields: Vec<Value> = paths.iter().map(|p| json!({"jsonPath": p})).collect();
    if !fields.is_empty() {
        v["selectableFields"] = Value::Array(fields);
    }
    v
}

fn two_selectable(first: Value, second: Value) -> Value {
    crd("Namespaced", vec![first, second], &["version"])
}

#[test]
fn selectable_fields_not_in_schema() {
    let c = two_selectable(
        selectable(
            "version",
            true,
            json!({"foo": {"type": "string"}}),
            &[".foo", ".xyz"],
        ),
        selectable(
            "version2",
            false,
            json!({"foo": {"type": "integer"}}),
            &[".xyz", ".foo", ".abc"],
        ),
    );
    check(
        "selectableFields with jsonPaths that do not refer to a field in the schema are invalid",
        &c,
        want![
            Invalid "spec.versions[0].selectableFields[1].jsonPath",
            Invalid "spec.versions[1].selectableFields[0].jsonPath",
            Invalid "spec.versions[1].selectableFields[2].jsonPath",
        ],
    );
}

#[test]
fn selectable_fields_not_in_top_level_schema() {
    // Upstream's spec-level selectableFields and schema are the one
    // version's in v1.
    let props = json!({
        "spec": {"type": "object", "properties": {"foo": {"type": "string"}}, "required": ["foo"]},
        "status": {"type": "object", "properties": {"phase": {"type": "string"}}, "required": ["phase"]}
    });
    let mut v = version(
        "version",
        true,
        json!({"type": "object", "properties": props}),
    );
    v["selectableFields"] = json!([{"jsonPath": ".spec.foo"}, {"jsonPath": ".spec.xyz"}, {"jsonPath": ".status.phase"}]);
    check(
        "in top level schema, selectableFields with jsonPaths that do not refer to a field in the schema are invalid",
        &crd("Namespaced", vec![v], &["version"]),
        want![Invalid "spec.versions[0].selectableFields[1].jsonPath"],
    );
}

#[test]
fn selectable_fields_of_wrong_types() {
    let c = two_selectable(
        selectable(
            "version",
            true,
            json!({"foo": {"type": "string"}, "obj": {"type": "object"}}),
            &[".foo", ".obj"],
        ),
        selectable(
            "version2",
            false,
            json!({"foo": {"type": "integer"}, "obj": {"type": "object"}, "bool": {"type": "boolean"}}),
            &[".obj", ".foo", ".bool"],
        ),
    );
    check(
        "selectableFields with jsonPaths that do not refer to fields that are not strings, booleans or integers are invalid",
        &c,
        want![
            Invalid "spec.versions[0].selectableFields[1].jsonPath",
            Invalid "spec.versions[1].selectableFields[0].jsonPath",
        ],
    );
}

#[test]
fn selectable_fields_duplicated() {
    let c = two_selectable(
        selectable(
            "version",
            true,
            json!({"foo": {"type": "string"}}),
            &[".foo", ".foo"],
        ),
        selectable(
            "version2",
            false,
            json!({"foo": {"type": "integer"}}),
            &[".foo", ".foo"],
        ),
    );
    check(
        "selectableFields with duplicate jsonPaths are invalid",
        &c,
        want![
            Duplicate "spec.versions[0].selectableFields[1].jsonPath",
            Duplicate "spec.versions[1].selectableFields[1].jsonPath",
        ],
    );
}

#[test]
fn selectable_fields_too_many() {
    let names: Vec<String> = (1..=9).map(|i| format!("a{i}")).collect();
    let props: serde_json::Map<String, Value> = names
        .iter()
        .map(|n| (n.clone(), json!({"type": "string"})))
        .collect();
    let paths: Vec<String> = names.iter().map(|n| format!(".{n}")).collect();
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let second = version(
        "version2",
        false,
        json!({"type": "object", "properties": {"foo": {"type": "integer"}}}),
    );
    let c = two_selectable(
        selectable("version", true, Value::Object(props), &paths),
        second,
    );
    check(
        "too many selectableFields are not allowed",
        &c,
        want![TooMany "spec.versions[0].selectableFields"],
    );
}

// ------------------------------------------------------------------ data

/// The schema of upstream's "embedded metadata defaults": 46 properties,
/// each a variant of defaults in and around embedded resources' TypeMeta
/// and ObjectMeta (the names say what each tries).
const EMBEDDED_METADATA_DEFAULTS: &str = r#"
{
    "type": "object",
    "properties": {
        "embedded": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"metadata": {"type": "object", "default": {"name": "foo"}}}
        },
        "allowed-in-object-defaults": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "apiVersion": {"type": "string", "default": "v1"},
                "kind": {"type": "string", "default": "Pod"},
                "metadata": {
                    "type": "object",
                    "properties": {"name": {"type": "string", "default": "foo"}},
                    "default": {"unknown": 42}
                }
            }
        },
        "allowed-object-defaults": {
            "type": "object",
            "properties": {"something": {"type": "string"}},
            "x-kubernetes-embedded-resource": true,
            "default": {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": "foo", "unknown": 42}
            }
        },
        "allowed-spanning-object-defaults": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {"something": {"type": "string"}}
                }
            },
            "default": {
                "embedded": {
                    "apiVersion": "v1",
                    "kind": "Pod",
                    "metadata": {"name": "foo", "unknown": 42}
                }
            }
        },
        "unknown-field-object-defaults": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"something": {"type": "string"}},
            "default": {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": "foo", "unknown": 42},
                "unknown": 42
            }
        },
        "unknown-field-spanning-object-defaults": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {"something": {"type": "string"}}
                }
            },
            "default": {
                "embedded": {
                    "apiVersion": "v1",
                    "kind": "Pod",
                    "metadata": {"name": "foo", "unknown": 42},
                    "unknown": 42
                },
                "unknown": 42
            }
        },
        "x-preserve-unknown-fields-unknown-field-object-defaults": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true,
            "properties": {},
            "default": {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": "foo", "unknown": 42},
                "unknown": 42
            }
        },
        "x-preserve-unknown-fields-unknown-field-spanning-object-defaults": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "x-kubernetes-preserve-unknown-fields": true,
                    "properties": {}
                }
            },
            "default": {
                "embedded": {
                    "apiVersion": "v1",
                    "kind": "Pod",
                    "metadata": {"name": "foo", "unknown": 42},
                    "unknown": 42
                }
            }
        },
        "x-preserve-unknown-fields-unknown-field-outside": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "x-kubernetes-preserve-unknown-fields": true,
                    "properties": {}
                }
            },
            "default": {
                "embedded": {
                    "apiVersion": "v1",
                    "kind": "Pod",
                    "metadata": {"name": "foo", "unknown": 42},
                    "unknown": 42
                },
                "unknown": 42
            }
        },
        "wrongly-typed-in-object-defaults": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "apiVersion": {"type": "string", "default": 42},
                "kind": {"type": "string", "default": 42},
                "metadata": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "default": 42},
                        "annotations": {
                            "type": "object",
                            "additionalProperties": {"type": "string"},
                            "default": 42
                        }
                    }
                }
            }
        },
        "wrongly-typed-object-defaults-apiVersion": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"something": {"type": "string"}},
            "default": {"apiVersion": 42}
        },
        "wrongly-typed-object-defaults-kind": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"something": {"type": "string"}},
            "default": {"kind": 42}
        },
        "wrongly-typed-object-defaults-name": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"something": {"type": "string"}},
            "default": {"metadata": {"name": 42}}
        },
        "wrongly-typed-object-defaults-labels": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"something": {"type": "string"}},
            "default": {"metadata": {"labels": {"foo": 42}}}
        },
        "wrongly-typed-object-defaults-annotations": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"something": {"type": "string"}},
            "default": {"metadata": {"annotations": 42}}
        },
        "wrongly-typed-object-defaults-metadata": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"something": {"type": "string"}},
            "default": {"metadata": 42}
        },
        "wrongly-typed-spanning-object-defaults-apiVersion": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {"something": {"type": "string"}}
                }
            },
            "default": {"embedded": {"apiVersion": 42}}
        },
        "wrongly-typed-spanning-object-defaults-kind": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {"something": {"type": "string"}}
                }
            },
            "default": {"embedded": {"kind": 42}}
        },
        "wrongly-typed-spanning-object-defaults-name": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {"something": {"type": "string"}}
                }
            },
            "default": {"embedded": {"metadata": {"name": 42}}}
        },
        "wrongly-typed-spanning-object-defaults-labels": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {"something": {"type": "string"}}
                }
            },
            "default": {"embedded": {"metadata": {"labels": {"foo": 42}}}}
        },
        "wrongly-typed-spanning-object-defaults-annotations": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {"something": {"type": "string"}}
                }
            },
            "default": {"embedded": {"metadata": {"annotations": 42}}}
        },
        "wrongly-typed-spanning-object-defaults-metadata": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {"something": {"type": "string"}}
                }
            },
            "default": {"embedded": {"metadata": 42}}
        },
        "invalid-in-object-defaults": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "kind": {"type": "string", "default": "%"},
                "metadata": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "default": "%"},
                        "labels": {
                            "type": "object",
                            "additionalProperties": {"type": "string"},
                            "default": {"foo": "x y"}
                        }
                    }
                }
            }
        },
        "invalid-object-defaults-kind": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"something": {"type": "string"}},
            "default": {"apiVersion": "foo/v1", "kind": "%"}
        },
        "invalid-object-defaults-name": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"something": {"type": "string"}},
            "default": {"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"name": "%"}}
        },
        "invalid-object-defaults-labels": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"something": {"type": "string"}},
            "default": {
                "apiVersion": "foo/v1",
                "kind": "Foo",
                "metadata": {"labels": {"foo": "x y"}}
            }
        },
        "invalid-spanning-object-defaults-kind": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {"something": {"type": "string"}}
                }
            },
            "default": {"embedded": {"apiVersion": "foo/v1", "kind": "%"}}
        },
        "invalid-spanning-object-defaults-name": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {"something": {"type": "string"}}
                }
            },
            "default": {
                "embedded": {"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"name": "%"}}
            }
        },
        "invalid-spanning-object-defaults-labels": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {"something": {"type": "string"}}
                }
            },
            "default": {
                "embedded": {
                    "apiVersion": "foo/v1",
                    "kind": "Foo",
                    "metadata": {"labels": {"foo": "x y"}}
                }
            }
        },
        "in-object-defaults-with-valid-constraints": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "apiVersion": {"type": "string", "default": "foo/v1", "enum": ["foo/v1"]},
                "kind": {"type": "string", "default": "Foo", "enum": ["Foo"]},
                "metadata": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "default": "foo", "enum": ["foo"]},
                        "labels": {
                            "type": "object",
                            "additionalProperties": {"type": "string", "enum": ["foo"]},
                            "default": {"foo": "foo"}
                        }
                    }
                }
            }
        },
        "metadata-defaults-with-valid-constraints": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "metadata": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "enum": ["foo"]},
                        "labels": {
                            "type": "object",
                            "additionalProperties": {"type": "string", "enum": ["foo"]}
                        }
                    },
                    "default": {"name": "foo", "labels": {"foo": "foo"}}
                }
            }
        },
        "object-defaults-with-valid-constraints": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "apiVersion": {"type": "string", "enum": ["foo/v1"]},
                "kind": {"type": "string", "enum": ["Foo"]},
                "metadata": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "enum": ["foo"]},
                        "labels": {
                            "type": "object",
                            "additionalProperties": {"type": "string", "enum": ["foo"]}
                        }
                    }
                }
            },
            "default": {
                "apiVersion": "foo/v1",
                "kind": "Foo",
                "metadata": {"name": "foo", "labels": {"foo": "foo"}}
            }
        },
        "spanning-defaults-with-valid-constraints": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {
                        "apiVersion": {"type": "string", "enum": ["foo/v1"]},
                        "kind": {"type": "string", "enum": ["Foo"]},
                        "metadata": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string", "enum": ["foo"]},
                                "labels": {
                                    "type": "object",
                                    "additionalProperties": {"type": "string", "enum": ["foo"]}
                                }
                            }
                        }
                    }
                }
            },
            "default": {
                "embedded": {
                    "apiVersion": "foo/v1",
                    "kind": "Foo",
                    "metadata": {"name": "foo", "labels": {"foo": "foo"}}
                }
            }
        },
        "in-object-defaults-with-invalid-constraints": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "apiVersion": {
                    "type": "string",
                    "description": "BREAK",
                    "default": "bar/v1",
                    "enum": ["foo/v1"]
                },
                "kind": {"type": "string", "default": "Bar", "enum": ["Foo"]},
                "metadata": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "default": "bar", "enum": ["foo"]},
                        "labels": {
                            "type": "object",
                            "additionalProperties": {"type": "string", "enum": ["foo"]},
                            "default": {"foo": "bar"}
                        }
                    }
                }
            }
        },
        "metadata-defaults-with-invalid-constraints-name": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "metadata": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "enum": ["foo"]},
                        "labels": {
                            "type": "object",
                            "additionalProperties": {"type": "string", "enum": ["foo"]}
                        }
                    },
                    "default": {"name": "bar"}
                }
            }
        },
        "metadata-defaults-with-invalid-constraints-labels": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "metadata": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "enum": ["foo"]},
                        "labels": {
                            "type": "object",
                            "additionalProperties": {"type": "string", "enum": ["foo"]}
                        }
                    },
                    "default": {"name": "foo", "labels": {"foo": "bar"}}
                }
            }
        },
        "object-defaults-with-invalid-constraints-name": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "apiVersion": {"type": "string", "enum": ["foo/v1"]},
                "kind": {"type": "string", "enum": ["Foo"]},
                "metadata": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "enum": ["foo"]},
                        "labels": {
                            "type": "object",
                            "additionalProperties": {"type": "string", "enum": ["foo"]}
                        }
                    }
                }
            },
            "default": {"apiVersion": "foo/v1", "kind": "Foo", "metadata": {"name": "bar"}}
        },
        "object-defaults-with-invalid-constraints-labels": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "apiVersion": {"type": "string", "enum": ["foo/v1"]},
                "kind": {"type": "string", "enum": ["Foo"]},
                "metadata": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "enum": ["foo"]},
                        "labels": {
                            "type": "object",
                            "additionalProperties": {"type": "string", "enum": ["foo"]}
                        }
                    }
                }
            },
            "default": {
                "apiVersion": "foo/v1",
                "kind": "Foo",
                "metadata": {"name": "foo", "labels": {"foo": "bar"}}
            }
        },
        "object-defaults-with-invalid-constraints-apiVersion": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "apiVersion": {"type": "string", "enum": ["foo/v1"]},
                "kind": {"type": "string", "enum": ["Foo"]},
                "metadata": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "enum": ["foo"]},
                        "labels": {
                            "type": "object",
                            "additionalProperties": {"type": "string", "enum": ["foo"]}
                        }
                    }
                }
            },
            "default": {"apiVersion": "bar/v1", "kind": "Foo", "metadata": {"name": "foo"}}
        },
        "object-defaults-with-invalid-constraints-kind": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "apiVersion": {"type": "string", "enum": ["foo/v1"]},
                "kind": {"type": "string", "enum": ["Foo"]},
                "metadata": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "enum": ["foo"]},
                        "labels": {
                            "type": "object",
                            "additionalProperties": {"type": "string", "enum": ["foo"]}
                        }
                    }
                }
            },
            "default": {"apiVersion": "foo/v1", "kind": "Bar", "metadata": {"name": "foo"}}
        },
        "spanning-defaults-with-invalid-constraints-name": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {
                        "apiVersion": {"type": "string", "enum": ["foo/v1"]},
                        "kind": {"type": "string", "enum": ["Foo"]},
                        "metadata": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string", "enum": ["foo"]},
                                "labels": {
                                    "type": "object",
                                    "additionalProperties": {"type": "string", "enum": ["foo"]}
                                }
                            }
                        }
                    }
                }
            },
            "default": {
                "embedded": {
                    "apiVersion": "foo/v1",
                    "kind": "Foo",
                    "metadata": {"name": "bar", "labels": {"foo": "foo"}}
                }
            }
        },
        "spanning-defaults-with-invalid-constraints-labels": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {
                        "apiVersion": {"type": "string", "enum": ["foo/v1"]},
                        "kind": {"type": "string", "enum": ["Foo"]},
                        "metadata": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string", "enum": ["foo"]},
                                "labels": {
                                    "type": "object",
                                    "additionalProperties": {"type": "string", "enum": ["foo"]}
                                }
                            }
                        }
                    }
                }
            },
            "default": {
                "embedded": {
                    "apiVersion": "foo/v1",
                    "kind": "Foo",
                    "metadata": {"name": "foo", "labels": {"foo": "bar"}}
                }
            }
        },
        "spanning-defaults-with-invalid-constraints-apiVersion": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {
                        "apiVersion": {"type": "string", "enum": ["foo/v1"]},
                        "kind": {"type": "string", "enum": ["Foo"]},
                        "metadata": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string", "enum": ["foo"]},
                                "labels": {
                                    "type": "object",
                                    "additionalProperties": {"type": "string", "enum": ["foo"]}
                                }
                            }
                        }
                    }
                }
            },
            "default": {
                "embedded": {
                    "apiVersion": "bar/v1",
                    "kind": "Foo",
                    "metadata": {"name": "foo", "labels": {"foo": "foo"}}
                }
            }
        },
        "spanning-defaults-with-invalid-constraints-kind": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {
                        "apiVersion": {"type": "string", "enum": ["foo/v1"]},
                        "kind": {"type": "string", "enum": ["Foo"]},
                        "metadata": {
                            "type": "object",
                            "properties": {
                                "name": {"type": "string", "enum": ["foo"]},
                                "labels": {
                                    "type": "object",
                                    "additionalProperties": {"type": "string", "enum": ["foo"]}
                                }
                            }
                        }
                    }
                }
            },
            "default": {
                "embedded": {
                    "apiVersion": "foo/v1",
                    "kind": "Bar",
                    "metadata": {"name": "foo", "labels": {"foo": "foo"}}
                }
            }
        },
        "object-defaults-with-missing-typemeta": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {
                "apiVersion": {"type": "string", "enum": ["foo/v1"]},
                "kind": {"type": "string", "enum": ["Foo"]}
            },
            "default": {"metadata": {"name": "bar"}}
        },
        "spanning-defaults-with-missing-typemeta": {
            "type": "object",
            "properties": {
                "embedded": {
                    "type": "object",
                    "x-kubernetes-embedded-resource": true,
                    "properties": {
                        "apiVersion": {"type": "string", "enum": ["foo/v1"]},
                        "kind": {"type": "string", "enum": ["Foo"]}
                    }
                }
            },
            "default": {"embedded": {"metadata": {"name": "bar"}}}
        }
    }
}
"#;
