//! The schemas of a CRD version's kind and list kind in an OpenAPI v3
//! document (apiextensions' `BuildOpenAPIV3`): the CRD's schema with
//! TypeMeta and ObjectMeta, embedded resources and int-or-string spelled
//! out, and the selectable fields.

use api_core::crd::{CustomResourceDefinition, CustomResourceDefinitionVersion};
use serde_json::{Map, Value, json};

use super::{
    LIST_META, OBJECT_META, described_reference, gvk_extension, list_kind, meta, model_name,
    reference, type_meta_property,
};

/// The schema of the kind of `crd` at `version` (the `components.schemas`
/// entry named [`model_name`]).
pub fn kind_schema(
    crd: &CustomResourceDefinition,
    version: &CustomResourceDefinitionVersion,
) -> Value {
    let group = &crd.spec.group;
    let kind = &crd.spec.names.kind;
    let mut schema = match version.schema.as_ref().map(|s| &s.open_api_v3_schema) {
        Some(Value::Object(root)) => {
            let mut root = Value::Object(root.clone());
            unfold(&mut root);
            add_embedded_properties(&mut root);
            let props = properties(&mut root);
            props.insert(
                "metadata".into(),
                described_reference(
                    OBJECT_META,
                    meta()["objectMetaDescription"].as_str().unwrap_or_default(),
                ),
            );
            props.insert("apiVersion".into(), type_meta_property("apiVersion"));
            props.insert("kind".into(), type_meta_property("kind"));
            root
        }
        _ => json!({ "type": "object" }),
    };
    schema["x-kubernetes-group-version-kind"] = gvk_extension(group, &version.name, kind);
    if let Some(fields) = selectable_fields(version) {
        schema["x-kubernetes-selectable-fields"] = fields;
    }
    schema
}

/// `buildSelectableFields`: `[{"fieldPath": "spec.color"}]` (the JSON
/// path without its leading dot), or `None` without selectable fields.
/// The apiserver adds it to the kind and list schemas since field
/// selectors on custom resources are on by default (Kubernetes 1.31).
fn selectable_fields(version: &CustomResourceDefinitionVersion) -> Option<Value> {
    if version.selectable_fields.is_empty() {
        return None;
    }
    Some(Value::Array(
        version
            .selectable_fields
            .iter()
            .map(|f| json!({ "fieldPath": f.json_path.strip_prefix('.').unwrap_or(&f.json_path) }))
            .collect(),
    ))
}

/// The schema of the list kind (upstream `buildListSchema`).
pub fn list_schema(
    crd: &CustomResourceDefinition,
    version_def: &CustomResourceDefinitionVersion,
) -> Value {
    let version = version_def.name.as_str();
    let group = &crd.spec.group;
    let names = &crd.spec.names;
    let list_kind = list_kind(crd);
    let mut schema = json!({
        "type": "object",
        "description": format!("{list_kind} is a list of {}", names.kind),
        "required": ["items"],
        "properties": {
            "apiVersion": type_meta_property("apiVersion"),
            "items": {
                "type": "array",
                "description": format!(
                    "List of {}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md",
                    names.plural
                ),
                "items": reference(&model_name(group, version, &names.kind)),
            },
            "kind": type_meta_property("kind"),
            "metadata": described_reference(LIST_META, meta()["listMetaDescription"].as_str().unwrap_or_default()),
        },
        "x-kubernetes-group-version-kind": gvk_extension(group, version, &list_kind),
    });
    if let Some(fields) = selectable_fields(version_def) {
        schema["x-kubernetes-selectable-fields"] = fields;
    }
    schema
}

/// The `properties` map of a schema, created if absent.
fn properties(schema: &mut Value) -> &mut Map<String, Value> {
    let obj = schema.as_object_mut().expect("schemas here are objects");
    let props = obj
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if !props.is_object() {
        *props = Value::Object(Map::new());
    }
    props.as_object_mut().expect("just made an object")
}

/// The structural sub-schemas of a schema: properties, items,
/// additionalProperties.
fn for_each_child(schema: &mut Value, f: &mut dyn FnMut(&mut Value)) {
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Object(props)) = obj.get_mut("properties") {
        props.values_mut().for_each(&mut *f);
    }
    if let Some(items @ Value::Object(_)) = obj.get_mut("items") {
        f(items);
    }
    if let Some(additional @ Value::Object(_)) = obj.get_mut("additionalProperties") {
        f(additional);
    }
}

/// Structural `Unfold`: `x-kubernetes-int-or-string` becomes
/// `anyOf: [{type: integer}, {type: string}]` when the schema does not
/// already spell it out (an existing different `anyOf` is kept and the
/// pair is prepended as `allOf`).
pub(super) fn unfold(schema: &mut Value) {
    for_each_child(schema, &mut unfold);
    let Some(obj) = schema.as_object_mut() else {
        return;
    };
    if obj.get("x-kubernetes-int-or-string") != Some(&Value::Bool(true)) {
        return;
    }
    let pair = json!([{ "type": "integer" }, { "type": "string" }]);
    let is_pair = |v: Option<&Value>| v == Some(&pair);
    if is_pair(obj.get("anyOf")) {
        return;
    }
    if let Some(Value::Array(all_of)) = obj.get("allOf")
        && is_pair(all_of.first().and_then(|first| first.get("anyOf")))
    {
        return;
    }
    if obj.contains_key("anyOf") {
        let mut all_of = vec![json!({ "anyOf": pair })];
        if let Some(Value::Array(existing)) = obj.remove("allOf") {
            all_of.extend(existing);
        }
        obj.insert("allOf".into(), Value::Array(all_of));
    } else {
        obj.insert("anyOf".into(), pair);
    }
}

/// `addEmbeddedProperties`: an embedded resource gets `apiVersion`,
/// `kind`, `metadata` and requires `kind` and `apiVersion`.
fn add_embedded_properties(schema: &mut Value) {
    for_each_child(schema, &mut add_embedded_properties);
    if schema.get("x-kubernetes-embedded-resource") != Some(&Value::Bool(true)) {
        return;
    }
    let props = properties(schema);
    props.insert(
        "apiVersion".into(),
        json!({"type": "string", "description": "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"}),
    );
    props.insert(
        "kind".into(),
        json!({"type": "string", "description": "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"}),
    );
    props.insert(
        "metadata".into(),
        described_reference(
            OBJECT_META,
            meta()["objectMetaDescription"].as_str().unwrap_or_default(),
        ),
    );
    let obj = schema
        .as_object_mut()
        .expect("embedded resources are objects");
    let required = obj.entry("required").or_insert_with(|| json!([]));
    if let Value::Array(required) = required {
        for name in ["kind", "apiVersion"] {
            if !required.iter().any(|r| r == name) {
                required.push(json!(name));
            }
        }
    }
}
