//! k8s-openapi's types as fields of API types (feature `k8s-openapi`).
//!
//! Every type of k8s-openapi's `api` and `apimachinery` modules
//! (`PodTemplateSpec`, `ResourceRequirements`, `SecretKeySelector`,
//! `Toleration`, `Condition`, ...) implements [`ApiType`],
//! so it can be the type of a field of a `#[derive(ApiType)]` or
//! `#[derive(KubeResource)]` struct:
//!
//! ```ignore
//! use k8s_openapi::api::batch::v1::JobTemplateSpec;
//!
//! /// CronJobSpec is the desired state of a CronJob.
//! #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! #[kube(group = "batch.example.com", version = "v1", kind = "CronJob", namespaced)]
//! #[serde(rename_all = "camelCase")]
//! pub struct CronJobSpec {
//!     /// jobTemplate is the job to run.
//!     pub job_template: JobTemplateSpec,
//! }
//! ```
//!
//! - **The schema is controller-gen's.** Each type's structural schema is
//!   the one controller-gen (v0.21) writes for the same Go type of
//!   k8s.io/api: required fields, list types and map keys, map types,
//!   `+default` values, formats and descriptions as k8s.io/api declares
//!   them; an embedded `metadata` (`ObjectMeta`) is `type: object`;
//!   quantities and int-or-strings are `x-kubernetes-int-or-string` (a
//!   quantity with its pattern). The schemas are generated from the Go
//!   sources of each Kubernetes version k8s-openapi supports
//!   (`api-core/k8s-schemas/generate.py`), and the one of the version your
//!   application enables on k8s-openapi (`v1_33` ... `v1_37`) is used.
//! - **Values are validated against it** by `validate()`: the registry and
//!   `decode` reject a `PodTemplateSpec` without containers, or with a
//!   container without a name, with field paths below the field
//!   (`spec.jobTemplate.spec.template.spec.containers: Required value`),
//!   as the apiserver's schema validation would.
//! - **Defaults** of the schema (`protocol: TCP`, ...) are applied by
//!   `apply_defaults()`, as the apiserver applies them.
//! - **No convention lint runs inside them**: they are reviewed upstream
//!   APIs. Printer-column and scale paths cannot go through them (their
//!   facts carry no fields): point columns at your own fields.
//!
//! As k8s-openapi asks of libraries, api-core enables no `v1_*` feature of
//! k8s-openapi: the application picks the Kubernetes version.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use schemars::{Schema, SchemaGenerator};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::api_type::ApiType;
use crate::facts::{self, Kind, TypeFacts};
use crate::schema::structural::CompiledSchema;
use crate::validation::{ErrorList, FieldError, FieldPath};

pub mod convert;

k8s_openapi::k8s_if_1_33! {
    const SCHEMAS: &str = include_str!("schemas/v1_33.json");
}
k8s_openapi::k8s_if_1_34! {
    const SCHEMAS: &str = include_str!("schemas/v1_34.json");
}
k8s_openapi::k8s_if_1_35! {
    const SCHEMAS: &str = include_str!("schemas/v1_35.json");
}
k8s_openapi::k8s_if_1_36! {
    const SCHEMAS: &str = include_str!("schemas/v1_36.json");
}
k8s_openapi::k8s_if_1_37! {
    const SCHEMAS: &str = include_str!("schemas/v1_37.json");
}

/// How deeply definitions may reference each other before the resolver
/// stops (k8s.io/api has no recursive type; this only bounds a bad file).
const MAX_DEPTH: usize = 64;

/// The definitions of the enabled Kubernetes version, parsed on first use.
static DEFINITIONS: LazyLock<Map<String, Value>> = LazyLock::new(|| {
    serde_json::from_str(SCHEMAS).expect("the generated k8s-openapi schemas are a JSON object")
});

/// A definition with its references resolved, decoded for validation.
struct Resolved {
    schema: &'static Value,
    compiled: CompiledSchema<'static>,
    has_defaults: bool,
}

/// Resolved definitions, built once each. They live for the rest of the
/// program (there are a few hundred at most), so validation borrows them
/// without locking.
static RESOLVED: LazyLock<Mutex<HashMap<&'static str, &'static Resolved>>> =
    LazyLock::new(Default::default);

fn resolved(definition: &'static str) -> &'static Resolved {
    let mut cache = RESOLVED.lock().unwrap_or_else(|e| e.into_inner());
    let found: &'static Resolved = cache.entry(definition).or_insert_with(|| {
        let schema = resolve_definition(definition, 0);
        let has_defaults = has_defaults(&schema);
        let schema: &'static Value = Box::leak(Box::new(schema));
        Box::leak(Box::new(Resolved {
            schema,
            compiled: CompiledSchema::new(schema),
            has_defaults,
        }))
    });
    found
}

/// The schema of `definition` with every `$ref` replaced by the
/// referenced definition; the keywords next to a `$ref` (the field's
/// description, list type, default, ...) win over the definition's, as
/// controller-gen's flattening has it.
fn resolve_definition(definition: &str, depth: usize) -> Value {
    match DEFINITIONS.get(definition) {
        Some(schema) if depth < MAX_DEPTH => resolve(schema, depth + 1),
        // A definition the generator did not write, or a cycle: keep the
        // value as it is rather than fail.
        _ => serde_json::json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}),
    }
}

fn resolve(schema: &Value, depth: usize) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = match map.get("$ref").and_then(Value::as_str) {
        Some(reference) => match resolve_definition(reference, depth) {
            Value::Object(base) => base,
            _ => Map::new(),
        },
        None => Map::new(),
    };
    for (key, value) in map {
        let value = match key.as_str() {
            "$ref" => continue,
            "properties" => match value {
                Value::Object(props) => Value::Object(
                    props
                        .iter()
                        .map(|(k, v)| (k.clone(), resolve(v, depth)))
                        .collect(),
                ),
                other => other.clone(),
            },
            "items" | "additionalProperties" | "not" => resolve(value, depth),
            "allOf" | "anyOf" | "oneOf" => match value {
                Value::Array(items) => items.iter().map(|v| resolve(v, depth)).collect(),
                other => other.clone(),
            },
            _ => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    Value::Object(out)
}

/// Whether a schema declares a `default` anywhere.
fn has_defaults(schema: &Value) -> bool {
    let Value::Object(map) = schema else {
        return false;
    };
    map.iter().any(|(key, value)| match key.as_str() {
        "default" => true,
        "properties" => value
            .as_object()
            .is_some_and(|props| props.values().any(has_defaults)),
        "items" | "additionalProperties" => has_defaults(value),
        _ => false,
    })
}

/// The resolved schema of `definition`.
fn schema(definition: &'static str) -> Schema {
    Schema::try_from(resolved(definition).schema.clone()).unwrap_or_else(|_| Schema::from(true))
}

/// Validates `value` against the schema of `definition`, below `path`.
#[inline]
fn validate<T: Serialize>(
    value: &T,
    definition: &'static str,
    path: &FieldPath<'_>,
    errors: &mut ErrorList,
) {
    match serde_json::to_value(value) {
        Ok(json) => errors.extend(resolved(definition).compiled.validate(&json, path)),
        Err(e) => errors.push(FieldError::internal(path, e)),
    }
}

/// Applies the defaults of the schema of `definition` to `value`, as the
/// apiserver's structural defaulting does.
#[inline]
fn apply_defaults<T: Serialize + DeserializeOwned>(value: &mut T, definition: &'static str) {
    let resolved = resolved(definition);
    if !resolved.has_defaults {
        return;
    }
    let Ok(mut json) = serde_json::to_value(&*value) else {
        return;
    };
    let before = json.clone();
    crate::schema::defaulting::default(&mut json, resolved.schema);
    if json != before
        && let Ok(defaulted) = serde_json::from_value(json)
    {
        *value = defaulted;
    }
}

/// `impl ApiType` for one k8s-openapi type.
macro_rules! impl_api_type {
    ($ty:path, $definition:literal, $kind:ident, $flags:expr) => {
        impl ApiType for $ty {
            const FACTS: &'static TypeFacts =
                &TypeFacts::scalar(Kind::$kind, $flags | facts::LENIENT_DECODE);

            #[inline]
            fn apply_defaults(&mut self) {
                apply_defaults(self, $definition);
            }

            #[inline]
            fn validate(&self, path: &FieldPath<'_>, errors: &mut ErrorList) {
                validate(self, $definition, path, errors);
            }

            #[inline]
            fn api_schema(_: &mut SchemaGenerator) -> Schema {
                schema($definition)
            }
        }
    };
}

/// Items kept only for the Kubernetes versions that have them
/// (k8s-openapi's version macros).
macro_rules! gated {
    ([all] $($item:tt)*) => { $($item)* };
    ([ge_1_34] $($item:tt)*) => { k8s_openapi::k8s_if_ge_1_34! { $($item)* } };
    ([ge_1_35] $($item:tt)*) => { k8s_openapi::k8s_if_ge_1_35! { $($item)* } };
    ([ge_1_36] $($item:tt)*) => { k8s_openapi::k8s_if_ge_1_36! { $($item)* } };
    ([ge_1_37] $($item:tt)*) => { k8s_openapi::k8s_if_ge_1_37! { $($item)* } };
    ([le_1_33] $($item:tt)*) => { k8s_openapi::k8s_if_le_1_33! { $($item)* } };
    ([le_1_34] $($item:tt)*) => { k8s_openapi::k8s_if_le_1_34! { $($item)* } };
    ([le_1_35] $($item:tt)*) => { k8s_openapi::k8s_if_le_1_35! { $($item)* } };
    ([le_1_36] $($item:tt)*) => { k8s_openapi::k8s_if_le_1_36! { $($item)* } };
    ([$from:ident $until:ident] $($item:tt)*) => { gated!([$from] gated!([$until] $($item)*);); };
}

/// The list of `types.rs`.
macro_rules! k8s_types {
    ($([$($gate:ident)*] $($segment:ident)::+ => $definition:literal, $kind:ident, $flags:expr;)*) => {$(
        gated!([$($gate)*] impl_api_type!(k8s_openapi::$($segment)::+, $definition, $kind, $flags););
    )*};
}

include!("types.rs");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reference_resolves() {
        fn refs(v: &Value, out: &mut Vec<String>) {
            match v {
                Value::Object(m) => {
                    if let Some(Value::String(r)) = m.get("$ref") {
                        out.push(r.clone());
                    }
                    m.values().for_each(|v| refs(v, out));
                }
                Value::Array(a) => a.iter().for_each(|v| refs(v, out)),
                _ => {}
            }
        }
        let mut all = Vec::new();
        DEFINITIONS.values().for_each(|v| refs(v, &mut all));
        for r in all {
            assert!(
                DEFINITIONS.contains_key(&r),
                "{r} is referenced but not defined"
            );
        }
    }

    /// Every schema of the enabled version, as a field of a spec, passes
    /// the structural-schema checker, but for the types whose k8s.io/api
    /// declaration makes an optional, undefaulted field a list-map key
    /// (`ServiceAccount.secrets` keyed by `ObjectReference.name`, ...):
    /// controller-gen writes the same schema, and the apiserver refuses a
    /// CRD that embeds them ("this property is in x-kubernetes-list-map-keys,
    /// so it must have a default or be a required property").
    #[test]
    fn every_schema_is_structural() {
        use crate::schema::structural::{SchemaCheckOptions, check_schema};
        const NOT_EMBEDDABLE: [&str; 11] = [
            "io.k8s.api.core.v1.ServiceAccount",
            "io.k8s.api.flowcontrol.v1.FlowSchema",
            "io.k8s.api.flowcontrol.v1.FlowSchemaStatus",
            "io.k8s.api.flowcontrol.v1.PriorityLevelConfiguration",
            "io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationStatus",
            "io.k8s.api.resource.v1.ResourceClaim",
            "io.k8s.api.resource.v1.ResourceClaimStatus",
            "io.k8s.api.resource.v1beta1.ResourceClaim",
            "io.k8s.api.resource.v1beta1.ResourceClaimStatus",
            "io.k8s.api.resource.v1beta2.ResourceClaim",
            "io.k8s.api.resource.v1beta2.ResourceClaimStatus",
        ];
        // With feature `cel` the rules' estimated costs are checked too:
        // scheduling.k8s.io/v1alpha2's `resourceClaims` (a list without
        // `maxItems`, in up to 8 templates) carries `self == oldSelf`,
        // which the estimator puts over the CRD budget. Built-in kinds are
        // not held to that budget; a CRD embedding these types would be.
        // Whether Go's estimator agrees is not checked yet (the only two).
        #[cfg(feature = "cel")]
        const OVER_CEL_BUDGET: [&str; 2] = [
            "io.k8s.api.scheduling.v1alpha2.Workload",
            "io.k8s.api.scheduling.v1alpha2.WorkloadSpec",
        ];
        #[cfg(not(feature = "cel"))]
        const OVER_CEL_BUDGET: [&str; 0] = [];
        let mut failures = Vec::new();
        for name in DEFINITIONS.keys().filter(|n| {
            !NOT_EMBEDDABLE.contains(&n.as_str()) && !OVER_CEL_BUDGET.contains(&n.as_str())
        }) {
            let field = resolve_definition(name, 0);
            let root = serde_json::json!({"type": "object", "properties": {"spec": {
                "type": "object", "properties": {"field": field}
            }}});
            let errors = check_schema(&root, &SchemaCheckOptions::default());
            if !errors.is_empty() {
                failures.push(format!("{name}: {errors:?}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        for name in OVER_CEL_BUDGET {
            let field = resolve_definition(name, 0);
            let root = serde_json::json!({"type": "object", "properties": {"field": field}});
            let errors = check_schema(&root, &SchemaCheckOptions::default());
            assert!(
                format!("{errors:?}").contains("estimated rule cost"),
                "{name} is within the CEL budget now: take it off the list"
            );
        }
        for name in NOT_EMBEDDABLE {
            let field = resolve_definition(name, 0);
            let root = serde_json::json!({"type": "object", "properties": {"field": field}});
            let errors = check_schema(&root, &SchemaCheckOptions::default());
            assert!(
                errors
                    .iter()
                    .all(|e| e.detail.contains("x-kubernetes-list-map-keys")),
                "{name}: {errors:?}"
            );
            assert!(
                !errors.is_empty(),
                "{name} is embeddable now: update the list"
            );
        }
    }

    #[test]
    fn resolution_keeps_the_field_keywords() {
        let schema = resolve_definition("io.k8s.api.core.v1.Container", 0);
        let ports = &schema["properties"]["ports"];
        assert_eq!(ports["x-kubernetes-list-type"], "map");
        assert_eq!(ports["items"]["properties"]["protocol"]["default"], "TCP");
        assert!(has_defaults(&schema));
        assert!(!has_defaults(&resolve_definition(
            "io.k8s.api.core.v1.ObjectReference",
            0
        )));
    }
}
