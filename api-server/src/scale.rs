//! The `/scale` subresource: an `autoscaling/v1` `Scale` read from and
//! written to the paths the CRD names, as apiextensions-apiserver's
//! `ScaleREST` does (`pkg/registry/customresource/etcd.go`:
//! `scaleFromCustomResource`, `scaleUpdatedObjectInfo`).
//!
//! A scale write is an update of the object through the main endpoint's
//! strategy (defaults, validation, generation), with only the spec
//! replicas changed; the `Scale`'s `resourceVersion`, when given, is the
//! update's precondition.

use api_core::Status;
use api_core::crd::CustomResourceDefinition;
use api_core::patch::{self, PatchType};
use api_core::registry::{DynamicObject, KindInfo};
use api_core::status::GroupKind;
use api_core::validation::{ErrorList, FieldError, FieldPath};
use serde_json::{Value, json};

use crate::served::{ServedKind, WriteOptions};

/// Where the replica counts and selector live in one version's objects.
#[derive(Clone, Debug)]
pub(crate) struct ScalePaths {
    spec_path: String,
    spec: Vec<String>,
    status: Vec<String>,
    selector: Option<Vec<String>>,
}

/// `.spec.replicas` as keys (`["spec", "replicas"]`).
fn keys(path: &str) -> Vec<String> {
    path.trim_start_matches('.')
        .split('.')
        .map(str::to_string)
        .collect()
}

impl ScalePaths {
    /// The scale subresource of `version` in `crd`, if it has one.
    pub(crate) fn of(crd: &CustomResourceDefinition, version: &str) -> Option<Self> {
        let scale = crd
            .spec
            .versions
            .iter()
            .find(|v| v.name == version)?
            .subresources
            .as_ref()?
            .scale
            .as_ref()?;
        Some(ScalePaths {
            spec_path: scale.spec_replicas_path.clone(),
            spec: keys(&scale.spec_replicas_path),
            status: keys(&scale.status_replicas_path),
            selector: scale.label_selector_path.as_deref().map(keys),
        })
    }
}

fn nested<'v>(value: &'v Value, path: &[String]) -> Option<&'v Value> {
    path.iter().try_fold(value, |v, k| v.get(k))
}

/// `unstructured.NestedInt64`: absent is `None`, a non-integer an error.
fn nested_int(value: &Value, path: &[String]) -> Result<Option<i64>, Status> {
    match nested(value, path) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_i64().map(Some).ok_or_else(|| {
            Status::internal_error(format!(
                ".{} accessor error: {v} is of the type {}, expected int64",
                path.join("."),
                json_type(v)
            ))
        }),
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "nil",
        Value::Bool(_) => "bool",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// The scale paths of an object of a kind with a scale subresource,
/// checked on each write of the object as apiextensions' custom resource
/// validator does (`ValidateScaleSpec`, `ValidateScaleStatus`): spec and
/// status replicas, when there, integers from 0 to 2147483647; the
/// selector, when there, a string. 422 with every cause, the paths as the
/// CRD spells them (`.spec.replicas: Invalid value: -1: should be a
/// non-negative integer`). Upstream reports them with the schema's errors;
/// here they come after the schema passed (a registry admission step).
pub(crate) fn validate_object(
    paths: &ScalePaths,
    kind: &KindInfo,
    object: &DynamicObject,
) -> Result<(), Status> {
    let content = &object.content;
    let at = |path: &[String]| -> Option<&Value> {
        let (first, rest) = path.split_first()?;
        rest.iter()
            .try_fold(content.get(first)?, |v, k| v.get(k))
            .filter(|v| !v.is_null())
    };
    let dotted = |path: &[String]| format!(".{}", path.join("."));
    let mut errors = ErrorList::new();
    for path in [&paths.spec, &paths.status] {
        let text = dotted(path);
        let field = FieldPath::new(&text);
        match at(path) {
            None => {}
            Some(v) => match v.as_i64() {
                None => errors.push(FieldError::invalid(
                    &field,
                    0,
                    format!(
                        "{text} accessor error: {v} is of the type {}, expected int64",
                        json_type(v)
                    ),
                )),
                Some(n) if n < 0 => errors.push(FieldError::invalid(
                    &field,
                    n,
                    "should be a non-negative integer",
                )),
                Some(n) if n > i64::from(i32::MAX) => errors.push(FieldError::invalid(
                    &field,
                    n,
                    format!("should be less than or equal to {}", i32::MAX),
                )),
                Some(_) => {}
            },
        }
    }
    if let Some(path) = &paths.selector
        && let Some(v) = at(path).filter(|v| !v.is_string())
    {
        errors.push(FieldError::invalid(
            &FieldPath::new(&dotted(path)),
            "",
            format!(
                "{} accessor error: {v} is of the type {}, expected string",
                dotted(path),
                json_type(v)
            ),
        ));
    }
    if errors.is_empty() {
        return Ok(());
    }
    Err(Status::invalid(
        GroupKind::new(kind.group.clone(), kind.kind.clone()),
        object.metadata.name.clone(),
        &errors,
    ))
}

/// A selector as text: a string as it is (a CRD's `labelSelectorPath`), a
/// meta/v1 LabelSelector (the built-in kinds' `spec.selector`) as
/// `LabelSelectorAsSelector(...).String()`, a label set
/// (ReplicationController's) as `SelectorFromSet(...).String()`; `""`
/// for anything else.
pub(crate) fn selector_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Object(map)
            if !map.contains_key("matchLabels") && !map.contains_key("matchExpressions") =>
        {
            let set: std::collections::BTreeMap<&str, &str> = map
                .iter()
                .filter_map(|(k, v)| Some((k.as_str(), v.as_str()?)))
                .collect();
            let pairs: Vec<String> = set.iter().map(|(k, v)| format!("{k}={v}")).collect();
            pairs.join(",")
        }
        Value::Object(_) => label_selector_text(value).unwrap_or_default(),
        _ => String::new(),
    }
}

/// A meta/v1 LabelSelector as `LabelSelectorAsSelector(...).String()`
/// (`""` for an empty one, which selects everything); `None` when it does
/// not convert: not an object of a LabelSelector's fields, or a bad
/// operator, key or value (the printers' `FormatLabelSelector` shows
/// `<error>` then).
pub(crate) fn label_selector_text(value: &Value) -> Option<String> {
    let selector = serde_json::from_value::<api_core::LabelSelector>(value.clone()).ok()?;
    api_core::labels::Selector::from_label_selector(Some(&selector))
        .ok()
        .map(|s| s.to_string())
}

/// The `Scale` of `object`; `None` as spec replicas when the object has
/// none at the path.
fn scale_of(object: &Value, paths: &ScalePaths) -> Result<(Value, Option<i64>), Status> {
    let spec = nested_int(object, &paths.spec)?;
    let status = nested_int(object, &paths.status)?.unwrap_or(0);
    let selector = paths
        .selector
        .as_ref()
        .and_then(|p| nested(object, p))
        .map(selector_text)
        .unwrap_or_default();
    let meta = object.get("metadata").cloned().unwrap_or(json!({}));
    let mut metadata = serde_json::Map::new();
    for key in [
        "name",
        "namespace",
        "uid",
        "resourceVersion",
        "creationTimestamp",
    ] {
        if let Some(v) = meta.get(key).filter(|v| !v.is_null()) {
            metadata.insert(key.into(), v.clone());
        }
    }
    let mut status_json = json!({ "replicas": status });
    if !selector.is_empty() {
        status_json["selector"] = selector.into();
    }
    let scale = json!({
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": metadata,
        "spec": { "replicas": spec.unwrap_or(0) },
        "status": status_json,
    });
    Ok((scale, spec))
}

/// `GET .../scale`.
pub(crate) async fn get(
    kind: &dyn ServedKind,
    paths: &ScalePaths,
    namespace: &str,
    name: &str,
) -> Result<Value, Status> {
    let object = kind.get(namespace, name).await?;
    Ok(scale_of(&object, paths)?.0)
}

/// How a scale write changes the `Scale`.
pub(crate) enum ScaleChange<'b> {
    /// `PUT`: the body is the new `Scale` (JSON).
    Replace(&'b [u8]),
    /// `PATCH`: the body patches the current `Scale`.
    Patch(PatchType, &'b [u8]),
}

/// How often a scale write that names no resourceVersion is tried again
/// when another write gets in between.
const ATTEMPTS: usize = 5;

/// `PUT` or `PATCH .../scale`: the new `Scale`.
pub(crate) async fn write(
    kind: &dyn ServedKind,
    paths: &ScalePaths,
    namespace: &str,
    name: &str,
    change: ScaleChange<'_>,
    options: &WriteOptions,
) -> Result<Value, Status> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        let mut object = kind.get(namespace, name).await?;
        let (current, had_replicas) = scale_of(&object, paths)?;
        let scale = match change {
            ScaleChange::Replace(body) => serde_json::from_slice::<Value>(body)
                .map_err(|e| Status::bad_request(format!("the body is not a Scale: {e}")))?,
            ScaleChange::Patch(patch_type, body) => {
                let mut old = current.clone();
                if had_replicas.is_none() {
                    // Patching a value that is not there is refused below.
                    old["spec"]["replicas"] = Value::Null;
                }
                patch::apply(&old, body, patch_type, &Value::Null)?
            }
        };
        let replicas = replicas_of(&scale, name, &paths.spec_path)?;
        if replicas < 0 {
            let mut errors = ErrorList::new();
            errors.push(FieldError::invalid(
                &FieldPath::new(&paths.spec_path),
                replicas,
                "should be a non-negative integer",
            ));
            let crd = kind.crd();
            return Err(Status::invalid(
                GroupKind::new(crd.spec.group.clone(), crd.spec.names.kind.clone()),
                name,
                &errors,
            ));
        }
        let precondition = scale
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .filter(|rv| !rv.is_empty())
            .map(str::to_string);
        // A PUT names its precondition; a patch starts from the current
        // Scale, so it names one only when it changes the version.
        let current_rv = current
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let conditional = match change {
            ScaleChange::Replace(_) => precondition.is_some(),
            ScaleChange::Patch(..) => precondition.as_deref() != Some(current_rv),
        };
        set_nested(&mut object, &paths.spec, replicas.into());
        if let Some(rv) = precondition {
            object["metadata"]["resourceVersion"] = rv.into();
        }
        let body = serde_json::to_vec(&object).map_err(Status::internal_error)?;
        match kind.update(namespace, name, &body, options, false).await {
            Ok(written) => return Ok(scale_of(&written.object, paths)?.0),
            Err(e)
                if !conditional
                    && attempt < ATTEMPTS
                    && e.code == 409
                    && e.reason.as_str() == "Conflict" => {}
            Err(e) => return Err(e),
        }
    }
}

/// `spec.replicas` of a `Scale` body, after its kind and name are checked.
fn replicas_of(scale: &Value, name: &str, spec_path: &str) -> Result<i64, Status> {
    if let Some(kind) = scale.get("kind").and_then(Value::as_str)
        && kind != "Scale"
    {
        return Err(Status::bad_request(format!(
            "the body is a {kind}, not an autoscaling/v1 Scale"
        )));
    }
    if let Some(body_name) = scale.pointer("/metadata/name").and_then(Value::as_str)
        && body_name != name
    {
        return Err(api_core::registry::name_mismatch(body_name, name));
    }
    match scale.pointer("/spec/replicas") {
        Some(Value::Null) | None => Err(Status::bad_request(format!(
            "the spec replicas field {spec_path:?} cannot be empty"
        ))),
        Some(v) => v
            .as_i64()
            .filter(|r| i32::try_from(*r).is_ok())
            .ok_or_else(|| Status::bad_request(format!("spec.replicas: {v} is not an int32"))),
    }
}

fn set_nested(object: &mut Value, path: &[String], value: Value) {
    let mut at = object;
    for key in path {
        if !at.is_object() {
            *at = json!({});
        }
        at = at
            .as_object_mut()
            .map(|m| m.entry(key.clone()).or_insert(Value::Null))
            .expect("made an object above");
    }
    *at = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> ScalePaths {
        ScalePaths {
            spec_path: ".spec.replicas".into(),
            spec: keys(".spec.replicas"),
            status: keys(".status.replicas"),
            selector: Some(keys(".status.labelSelector")),
        }
    }

    #[test]
    fn scale_of_an_object() {
        let object = json!({
            "metadata": {"name": "ct", "namespace": "ns", "uid": "u", "resourceVersion": "7",
                         "creationTimestamp": "2026-01-01T00:00:00Z", "labels": {"a": "b"}},
            "spec": {"replicas": 3},
            "status": {"replicas": 2, "labelSelector": "app=ct"}
        });
        let (scale, spec) = scale_of(&object, &paths()).unwrap();
        assert_eq!(spec, Some(3));
        assert_eq!(
            scale,
            json!({
                "kind": "Scale", "apiVersion": "autoscaling/v1",
                "metadata": {"name": "ct", "namespace": "ns", "uid": "u", "resourceVersion": "7",
                             "creationTimestamp": "2026-01-01T00:00:00Z"},
                "spec": {"replicas": 3},
                "status": {"replicas": 2, "selector": "app=ct"}
            })
        );
        // Absent counts are 0 (and the spec's is reported as absent).
        let (scale, spec) = scale_of(&json!({"metadata": {"name": "ct"}}), &paths()).unwrap();
        assert_eq!(spec, None);
        assert_eq!(scale["spec"]["replicas"], 0);
        assert_eq!(scale["status"], json!({"replicas": 0}));
        // A value of the wrong type is the apiserver's accessor error.
        let e = scale_of(&json!({"spec": {"replicas": "3"}}), &paths()).unwrap_err();
        assert_eq!(e.code, 500);
        assert!(
            e.message.contains(".spec.replicas accessor error"),
            "{}",
            e.message
        );
    }

    #[test]
    fn scale_bodies() {
        let ok = json!({"kind": "Scale", "metadata": {"name": "ct"}, "spec": {"replicas": 4}});
        assert_eq!(replicas_of(&ok, "ct", ".spec.replicas").unwrap(), 4);
        let e = replicas_of(&ok, "other", ".spec.replicas").unwrap_err();
        assert_eq!(
            e.message,
            "the name of the object (ct) does not match the name on the URL (other)"
        );
        let e = replicas_of(&json!({"spec": {}}), "ct", ".spec.replicas").unwrap_err();
        assert_eq!(
            e.message,
            r#"the spec replicas field ".spec.replicas" cannot be empty"#
        );
        let big = json!({"spec": {"replicas": 1u64 << 40}});
        assert_eq!(
            replicas_of(&big, "ct", ".spec.replicas").unwrap_err().code,
            400
        );
        let wrong = json!({"kind": "Deployment", "spec": {"replicas": 1}});
        assert_eq!(
            replicas_of(&wrong, "ct", ".spec.replicas")
                .unwrap_err()
                .code,
            400
        );
    }

    #[test]
    fn set_nested_makes_the_path() {
        let mut v = json!({"metadata": {}});
        set_nested(&mut v, &keys(".spec.replicas"), 3.into());
        assert_eq!(v, json!({"metadata": {}, "spec": {"replicas": 3}}));
        set_nested(&mut v, &keys(".spec.replicas"), 5.into());
        assert_eq!(v["spec"]["replicas"], 5);
    }
}
