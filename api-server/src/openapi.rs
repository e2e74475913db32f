//! OpenAPI v3 for custom resources: the per group-version documents
//! (`/openapi/v3/apis/<group>/<version>`) and their index (`/openapi/v3`).
//!
//! A document is what apiextensions-apiserver builds for each served
//! version of each CRD (`pkg/controller/openapi/builder/builder.go`,
//! `BuildOpenAPIV3`, through kube-openapi's `builder3`), merged per
//! group-version:
//!
//! - `components.schemas` holds the kind under its model name, the group
//!   reversed (`com.example.v1.Widget`), and the list kind
//!   (`com.example.v1.WidgetList`); both carry
//!   `x-kubernetes-group-version-kind`. The kind's schema is the CRD's
//!   `openAPIV3Schema` with `metadata` replaced by a reference to
//!   `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` and `apiVersion`/
//!   `kind` set from TypeMeta; `x-kubernetes-embedded-resource` objects get
//!   the same three properties and require `apiVersion` and `kind`
//!   (`addEmbeddedProperties`); `x-kubernetes-int-or-string` without an
//!   `anyOf` gets `anyOf: [{type: integer}, {type: string}]` (structural
//!   `Unfold`). A reference with siblings is wrapped as
//!   `allOf: [{$ref}]` (kube-openapi `builder3/util.WrapRefs`). A version
//!   without a schema is `{type: object}`. A version with
//!   `selectableFields` lists them as `x-kubernetes-selectable-fields`
//!   on both schemas (`buildSelectableFields`).
//! - The meta types the document refers to (ObjectMeta, ListMeta, Time,
//!   ManagedFieldsEntry, OwnerReference, FieldsV1, Status, StatusDetails,
//!   StatusCause, Patch, DeleteOptions, Preconditions, and autoscaling/v1
//!   Scale for `/scale`) are included with upstream's descriptions, from
//!   `openapi_meta.json`. They are reduced, but correct for what they
//!   carry: no alpha fields, one `x-kubernetes-group-version-kind` entry
//!   where upstream lists several, no defaults beyond a few.
//! - `paths` are the routes `generateBuilder` registers: list (and list
//!   for all namespaces), create, deletecollection, read, replace, delete
//!   and patch of the resource, and read/replace/patch of `/status` and
//!   `/scale` when the version has them. Every operation has upstream's
//!   description, `operationId` and tag (k8s.io/apiserver
//!   `endpoints/openapi` `GetOperationIDAndTags`), query parameters of its
//!   options type (PATCH: `dryRun`, `fieldManager`, `fieldValidation`,
//!   `force`), request body, responses (`200`, `201`/`202` where
//!   upstream has them, `401`), `x-kubernetes-action` and
//!   `x-kubernetes-group-version-kind`. Parameters common to a path's
//!   operations (`name`, `namespace`, `pretty`) are the path's own, as
//!   builder3 hoists them; parameters are sorted by name.
//!
//! kubectl's field validation (cli-runtime `query_param_verifier_v3.go`)
//! looks for a PATCH operation whose `x-kubernetes-group-version-kind` is
//! the object's GVK and whose own `parameters` include `fieldValidation`;
//! `kubectl explain` walks `components.schemas` from the schema whose
//! `x-kubernetes-group-version-kind` matches, following `$ref`s.
//!
//! The index maps `apis/<group>/<version>` to
//! `{"serverRelativeURL": "/openapi/v3/apis/<group>/<version>?hash=<H>"}`
//! where `H` is the uppercase hex SHA-512 of the served document's bytes
//! (kube-openapi `handler3/handler.go`, `computeETag`).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use api_core::crd::{CustomResourceDefinition, CustomResourceDefinitionVersion};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha512};

/// The model name of ObjectMeta.
pub const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
/// The model name of ListMeta.
pub const LIST_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
/// The model name of Status.
pub const STATUS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
/// The model name of Patch (the body of PATCH requests).
pub const PATCH: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";
/// The model name of DeleteOptions.
pub const DELETE_OPTIONS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
/// The model name of autoscaling/v1 Scale.
pub const SCALE: &str = "io.k8s.api.autoscaling.v1.Scale";

const REF_PREFIX: &str = "#/components/schemas/";

/// The meta schemas, parameter descriptions and TypeMeta descriptions.
fn meta() -> &'static Value {
    static META: OnceLock<Value> = OnceLock::new();
    META.get_or_init(|| {
        serde_json::from_str(include_str!("openapi_meta.json"))
            .expect("openapi_meta.json is valid JSON")
    })
}

fn reference(model: &str) -> Value {
    json!({ "$ref": format!("{REF_PREFIX}{model}") })
}

/// A reference with a description, as builder3 writes it (`allOf`).
fn described_reference(model: &str, description: &str) -> Value {
    json!({ "description": description, "allOf": [reference(model)] })
}

fn type_meta_property(name: &str) -> Value {
    json!({ "type": "string", "description": meta()["typeMeta"][name] })
}

/// apiextensions `gvkToModelName`: `com.example.v1.Widget` for
/// `example.com/v1`, kind `Widget`; for the core group (`""`), the name
/// kube-apiserver gives its kinds, `io.k8s.api.core.v1.ConfigMap`.
pub fn model_name(group: &str, version: &str, kind: &str) -> String {
    if group.is_empty() {
        return format!("io.k8s.api.core.{version}.{kind}");
    }
    let reversed: Vec<&str> = group.split('.').rev().collect();
    format!("{}.{version}.{kind}", reversed.join("."))
}

fn gvk_extension(group: &str, version: &str, kind: &str) -> Value {
    json!([{ "group": group, "version": version, "kind": kind }])
}

fn list_kind(crd: &CustomResourceDefinition) -> String {
    let names = &crd.spec.names;
    if names.list_kind.is_empty() {
        format!("{}List", names.kind)
    } else {
        names.list_kind.clone()
    }
}

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
fn unfold(schema: &mut Value) {
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

/// k8s.io/apiserver `ToValidOperationID`: drops characters that are not
/// letters, `_` or (after the first) digits, capitalizing the next kept
/// one.
fn to_valid_operation_id(s: &str, capitalize_first: bool) -> String {
    let mut out = String::new();
    let mut capitalize = capitalize_first;
    for (i, c) in s.chars().enumerate() {
        if c.is_alphabetic() || c == '_' || (i != 0 && c.is_numeric()) {
            if capitalize {
                out.extend(c.to_uppercase());
                capitalize = false;
            } else {
                out.push(c);
            }
        } else {
            capitalize = true;
        }
    }
    out
}

/// `GetOperationIDAndTags` for an `/apis/<group>/<version>/...` path and
/// an operation name starting with a verb.
fn operation_id_and_tag(verb: &str, rest: &str, group: &str, version: &str) -> (String, String) {
    let trimmed = group.strip_suffix(".k8s.io").unwrap_or(group);
    let id = format!(
        "{verb}{}{}{}",
        to_valid_operation_id(trimmed, true),
        to_valid_operation_id(version, true),
        to_valid_operation_id(rest, true)
    );
    let tag = format!(
        "{}_{}",
        to_valid_operation_id(trimmed, false),
        to_valid_operation_id(version, false)
    );
    (id, tag)
}

/// `GetArticleForNoun(noun, " ")`.
fn article_for(noun: &str) -> &'static str {
    if !noun.ends_with("ss") && noun.ends_with('s') {
        return " ";
    }
    match noun.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => " an ",
        _ => " a ",
    }
}

fn query_param(name: &str, description_key: &str) -> Value {
    let p = &meta()["params"][description_key];
    json!({
        "name": name,
        "in": "query",
        "description": p["description"],
        "schema": { "type": p["type"], "uniqueItems": true },
    })
}

fn path_param(name: &str, description: &str) -> Value {
    json!({
        "name": name,
        "in": "path",
        "description": description,
        "required": true,
        "schema": { "type": "string", "uniqueItems": true },
    })
}

/// The query parameters of an action's options type, sorted by name.
fn action_params(action: &str) -> Vec<Value> {
    let names: &[(&str, &str)] = match action {
        "get" => &[("resourceVersion", "resourceVersion")],
        "list" | "deletecollection" => &[
            ("allowWatchBookmarks", "allowWatchBookmarks"),
            ("continue", "continue"),
            ("fieldSelector", "fieldSelector"),
            ("labelSelector", "labelSelector"),
            ("limit", "limit"),
            ("resourceVersion", "listResourceVersion"),
            ("resourceVersionMatch", "resourceVersionMatch"),
            ("sendInitialEvents", "sendInitialEvents"),
            ("timeoutSeconds", "timeoutSeconds"),
            ("watch", "watch"),
        ],
        "post" | "put" => &[
            ("dryRun", "dryRun"),
            ("fieldManager", "fieldManager"),
            ("fieldValidation", "fieldValidation"),
        ],
        "patch" => &[
            ("dryRun", "dryRun"),
            ("fieldManager", "fieldManager"),
            ("fieldValidation", "fieldValidation"),
            ("force", "force"),
        ],
        "delete" => &[
            ("dryRun", "dryRun"),
            ("gracePeriodSeconds", "gracePeriodSeconds"),
            (
                "ignoreStoreReadErrorWithClusterBreakingPotential",
                "ignoreStoreReadErrorWithClusterBreakingPotential",
            ),
            ("orphanDependents", "orphanDependents"),
            ("propagationPolicy", "propagationPolicy"),
        ],
        _ => &[],
    };
    names.iter().map(|(n, k)| query_param(n, k)).collect()
}

fn content(types: &[&str], model: &str) -> Value {
    let mut map = Map::new();
    for t in types {
        map.insert((*t).into(), json!({ "schema": reference(model) }));
    }
    Value::Object(map)
}

const PRODUCES: [&str; 2] = ["application/json", "application/yaml"];
const PATCH_TYPES: [&str; 3] = [
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/apply-patch+yaml",
];

/// One resource version's builder state.
struct Builder<'a> {
    /// The group in operation ids and tags (`core` for the core group).
    id_group: &'a str,
    group: &'a str,
    version: &'a str,
    kind: &'a str,
    namespaced: bool,
}

impl Builder<'_> {
    /// `descriptionFor`.
    fn description(&self, sub: &str, operation_verb: &str) -> String {
        let article = match operation_verb {
            "list" => " objects of kind ",
            "read" | "replace" | "patch" => " the specified ",
            "create" | "delete" => article_for(self.kind),
            _ => "",
        };
        let sub = if sub.is_empty() {
            String::new()
        } else {
            format!(" {sub} of")
        };
        match operation_verb {
            "patch" => format!("partially update{sub}{article}{}", self.kind),
            "deletecollection" => {
                let sub = if sub.is_empty() {
                    sub
                } else {
                    format!("{sub} a")
                };
                format!("delete collection of{sub} {}", self.kind)
            }
            _ => format!("{operation_verb}{sub}{article}{}", self.kind),
        }
    }

    /// One operation (`buildRoute`); `sub` is the subresource (`""`,
    /// `status`, `scale`), `response` the model returned.
    fn operation(
        &self,
        sub: &str,
        action: &str,
        operation_verb: &str,
        response: &str,
        all_namespaces: bool,
    ) -> Value {
        let mut title = String::new();
        let mut chars = sub.chars();
        if let Some(first) = chars.next() {
            title.extend(first.to_uppercase());
            title.push_str(chars.as_str());
        }
        let rest = if all_namespaces {
            format!("{}ForAllNamespaces", self.kind)
        } else {
            let namespaced = if self.namespaced { "Namespaced" } else { "" };
            format!("{namespaced}{}{title}", self.kind)
        };
        let (operation_id, tag) =
            operation_id_and_tag(operation_verb, &rest, self.id_group, self.version);
        let mut responses = Map::new();
        responses.insert(
            "200".into(),
            json!({ "description": "OK", "content": content(&PRODUCES, response) }),
        );
        match action {
            "post" => {
                responses.insert(
                    "201".into(),
                    json!({ "description": "Created", "content": content(&PRODUCES, response) }),
                );
                responses.insert(
                    "202".into(),
                    json!({ "description": "Accepted", "content": content(&PRODUCES, response) }),
                );
            }
            "delete" => {
                responses.insert(
                    "202".into(),
                    json!({ "description": "Accepted", "content": content(&PRODUCES, response) }),
                );
            }
            "put" => {
                responses.insert(
                    "201".into(),
                    json!({ "description": "Created", "content": content(&PRODUCES, response) }),
                );
            }
            _ => {}
        }
        responses.insert("401".into(), json!({ "description": "Unauthorized" }));
        let mut op = json!({
            "tags": [tag],
            "description": self.description(sub, operation_verb),
            "operationId": operation_id,
            "responses": responses,
            "x-kubernetes-action": action,
            "x-kubernetes-group-version-kind": { "group": self.group, "version": self.version, "kind": self.kind },
        });
        let body = match action {
            "post" | "put" => {
                Some(json!({ "content": content(&PRODUCES, response), "required": true }))
            }
            "patch" => Some(json!({ "content": content(&PATCH_TYPES, PATCH), "required": true })),
            "delete" => Some(json!({ "content": content(&PRODUCES, DELETE_OPTIONS) })),
            _ => None,
        };
        if let Some(body) = body {
            op["requestBody"] = body;
        }
        op
    }
}

/// A path item from its routes (method, operation, all the route's
/// parameters): parameters every route has move to the path (builder3
/// `findCommonParameters`), the others stay on their operation; both lists
/// sorted by name.
fn path_item(routes: Vec<(&str, Value, Vec<Value>)>) -> Value {
    let key = |p: &Value| (p["name"].clone(), p["in"].clone());
    let mut common: Vec<Value> = Vec::new();
    if let Some((_, _, first)) = routes.first() {
        for param in first {
            if routes
                .iter()
                .all(|(_, _, params)| params.iter().any(|q| key(q) == key(param)))
            {
                common.push(param.clone());
            }
        }
    }
    let by_name = |a: &Value, b: &Value| {
        (a["name"].as_str(), a["in"].as_str()).cmp(&(b["name"].as_str(), b["in"].as_str()))
    };
    common.sort_by(by_name);
    let mut item = Map::new();
    for (method, mut op, params) in routes {
        let mut own: Vec<Value> = params
            .into_iter()
            .filter(|p| !common.iter().any(|c| key(c) == key(p)))
            .collect();
        own.sort_by(by_name);
        if !own.is_empty() {
            op["parameters"] = Value::Array(own);
        }
        item.insert(method.into(), op);
    }
    if !common.is_empty() {
        item.insert("parameters".into(), Value::Array(common));
    }
    Value::Object(item)
}

/// A resource's routes: where it lives and what it serves.
struct Resource<'a> {
    /// `/apis/<group>/<version>` or `/api/v1`.
    prefix: String,
    builder: Builder<'a>,
    plural: &'a str,
    model: String,
    list_model: String,
    deletecollection: bool,
    /// Subresources: name, model returned, `(method, action, verb)`s.
    subresources: Vec<(&'static str, String, &'static [Route])>,
}

/// A route of a subresource: HTTP method, action, operation verb.
type Route = (&'static str, &'static str, &'static str);

const GET_PUT_PATCH: &[Route] = &[
    ("get", "get", "read"),
    ("put", "put", "replace"),
    ("patch", "patch", "patch"),
];

fn resource_paths(r: &Resource<'_>) -> Map<String, Value> {
    let b = &r.builder;
    let name_param = path_param("name", &format!("name of the {}", b.kind));
    let namespace_param = path_param(
        "namespace",
        "object name and auth scope, such as for teams and projects",
    );
    let pretty = query_param("pretty", "pretty");
    // Every route's parameters: `pretty`, the path's, its options'.
    let route = |method: &'static str,
                 sub: &str,
                 action: &str,
                 verb: &str,
                 response: &str,
                 all: bool,
                 with_name: bool| {
        let mut params = vec![pretty.clone()];
        if with_name {
            params.push(name_param.clone());
        }
        if b.namespaced && !all {
            params.push(namespace_param.clone());
        }
        params.extend(action_params(action));
        (
            method,
            b.operation(sub, action, verb, response, all),
            params,
        )
    };
    let mut out = Map::new();
    let mut root = format!("{}/{}", r.prefix, r.plural);
    if b.namespaced {
        let list_all = route("get", "", "list", "list", &r.list_model, true, false);
        out.insert(root.clone(), path_item(vec![list_all]));
        root = format!("{}/namespaces/{{namespace}}/{}", r.prefix, r.plural);
    }
    let mut collection = vec![
        route("get", "", "list", "list", &r.list_model, false, false),
        route("post", "", "post", "create", &r.model, false, false),
    ];
    if r.deletecollection {
        collection.push(route(
            "delete",
            "",
            "deletecollection",
            "deletecollection",
            STATUS,
            false,
            false,
        ));
    }
    out.insert(root.clone(), path_item(collection));
    out.insert(
        format!("{root}/{{name}}"),
        path_item(vec![
            route("get", "", "get", "read", &r.model, false, true),
            route("put", "", "put", "replace", &r.model, false, true),
            route("delete", "", "delete", "delete", STATUS, false, true),
            route("patch", "", "patch", "patch", &r.model, false, true),
        ]),
    );
    for (sub, response, methods) in &r.subresources {
        let routes = methods
            .iter()
            .map(|(method, action, verb)| route(method, sub, action, verb, response, false, true))
            .collect();
        out.insert(format!("{root}/{{name}}/{sub}"), path_item(routes));
    }
    out
}

/// The `paths` of one CRD version (upstream `generateBuilder`'s routes);
/// a core-group CRD's (group `""`) are below `/api/<version>`, with
/// kube-apiserver's operation ids (`listCoreV1NamespacedConfigMap`).
pub fn paths(
    crd: &CustomResourceDefinition,
    version: &CustomResourceDefinitionVersion,
) -> Map<String, Value> {
    let names = &crd.spec.names;
    let group = crd.spec.group.as_str();
    let model = model_name(group, &version.name, &names.kind);
    let mut subresources = Vec::new();
    let declared = version.subresources.as_ref();
    if declared.is_some_and(|s| s.status.is_some()) {
        subresources.push(("status", model.clone(), GET_PUT_PATCH));
    }
    if declared.is_some_and(|s| s.scale.is_some()) {
        subresources.push(("scale", SCALE.to_string(), GET_PUT_PATCH));
    }
    let (prefix, id_group) = if group.is_empty() {
        (format!("/api/{}", version.name), "core")
    } else {
        (format!("/apis/{group}/{}", version.name), group)
    };
    resource_paths(&Resource {
        prefix,
        builder: Builder {
            id_group,
            group,
            version: &version.name,
            kind: &names.kind,
            namespaced: crd.spec.scope == "Namespaced",
        },
        plural: &names.plural,
        list_model: model_name(group, &version.name, &list_kind(crd)),
        model,
        deletecollection: true,
        subresources,
    })
}

/// The model name of the core Namespace.
pub const NAMESPACE: &str = "io.k8s.api.core.v1.Namespace";

/// The core group's document (`/openapi/v3/api/v1`, index key `api/v1`)
/// for a server that serves only `namespaces`: the Namespace and
/// NamespaceList schemas (k8s.io/api `core/v1`, reduced to their fields'
/// types and descriptions) and the routes kube-apiserver has for them
/// (no `deletecollection`; `/status` get, put, patch; `/finalize` put),
/// with kube-apiserver's operation ids (`patchCoreV1Namespace`).
pub fn core_v1_document() -> Value {
    const FINALIZE: &[Route] = &[("put", "put", "replace")];
    let paths = resource_paths(&Resource {
        prefix: "/api/v1".into(),
        builder: Builder {
            id_group: "core",
            group: "",
            version: "v1",
            kind: "Namespace",
            namespaced: false,
        },
        plural: "namespaces",
        model: NAMESPACE.into(),
        list_model: "io.k8s.api.core.v1.NamespaceList".into(),
        deletecollection: false,
        subresources: vec![
            ("finalize", NAMESPACE.into(), FINALIZE),
            ("status", NAMESPACE.into(), GET_PUT_PATCH),
        ],
    });
    let mut schemas = meta_schemas(false);
    if let Some(Value::Object(core)) = meta().get("coreSchemas") {
        schemas.extend(core.clone());
    }
    json!({
        "openapi": "3.0.0",
        "info": { "title": "Kubernetes", "version": "v1" },
        "paths": paths,
        "components": { "schemas": schemas },
    })
}

/// The meta schemas a document refers to, plus Scale's when `scale`.
fn meta_schemas(scale: bool) -> Map<String, Value> {
    let mut out = Map::new();
    if let Some(Value::Object(all)) = meta().get("schemas") {
        for (name, schema) in all {
            if scale || !name.starts_with("io.k8s.api.autoscaling.") {
                out.insert(name.clone(), schema.clone());
            }
        }
    }
    out
}

/// The core group's document (`/openapi/v3/api/v1`, index key `api/v1`):
/// the paths and schemas of every core-group CRD (group `""`) serving
/// `v1`, and with `namespaces` Namespace's as [`core_v1_document`] has
/// them (a CRD of `namespaces` then adds nothing). `None` when it would
/// describe nothing.
pub fn core_document(crds: &[CustomResourceDefinition], namespaces: bool) -> Option<Value> {
    if !namespaces {
        return group_version_document(crds, "", "v1");
    }
    let mut document = core_v1_document();
    let others: Vec<CustomResourceDefinition> = crds
        .iter()
        .filter(|c| c.spec.group.is_empty() && c.spec.names.plural != "namespaces")
        .cloned()
        .collect();
    let Some(kinds) = group_version_document(&others, "", "v1") else {
        return Some(document);
    };
    for pointer in ["/paths", "/components/schemas"] {
        if let (Some(Value::Object(into)), Some(Value::Object(from))) =
            (document.pointer_mut(pointer), kinds.pointer(pointer))
        {
            for (key, value) in from {
                into.entry(key.clone()).or_insert_with(|| value.clone());
            }
        }
    }
    Some(document)
}

/// The OpenAPI v3 document of `group/version`: every CRD of the group
/// serving that version, merged. `None` when none serves it. For the core
/// group (`""`), the document is titled as kube-apiserver titles it
/// (`Kubernetes`, the version).
pub fn group_version_document(
    crds: &[CustomResourceDefinition],
    group: &str,
    version: &str,
) -> Option<Value> {
    let mut all_paths = Map::new();
    let mut schemas = Map::new();
    let mut scale = false;
    let mut found = false;
    for crd in crds.iter().filter(|c| c.spec.group == group) {
        let Some(v) = crd
            .spec
            .versions
            .iter()
            .find(|v| v.served && v.name == version)
        else {
            continue;
        };
        found = true;
        scale |= v.subresources.as_ref().is_some_and(|s| s.scale.is_some());
        all_paths.extend(paths(crd, v));
        schemas.insert(
            model_name(group, version, &crd.spec.names.kind),
            kind_schema(crd, v),
        );
        schemas.insert(
            model_name(group, version, &list_kind(crd)),
            list_schema(crd, v),
        );
    }
    if !found {
        return None;
    }
    schemas.extend(meta_schemas(scale));
    let info = if group.is_empty() {
        json!({ "title": "Kubernetes", "version": version })
    } else {
        json!({ "title": "Kubernetes CRD Swagger", "version": "v0.1.0" })
    };
    Some(json!({
        "openapi": "3.0.0",
        "info": info,
        "paths": all_paths,
        "components": { "schemas": schemas },
    }))
}

/// kube-openapi's `computeETag`: uppercase hex SHA-512 of the document.
pub fn document_hash(document: &[u8]) -> String {
    let digest = Sha512::digest(document);
    let mut out = String::with_capacity(128);
    for byte in digest.iter() {
        out.push_str(&format!("{byte:02X}"));
    }
    out
}

/// `document` serialized, with its hash.
fn served(document: &Value) -> ServedDocument {
    let json = serde_json::to_vec(document).unwrap_or_default();
    let hash = document_hash(&json);
    ServedDocument { json, hash }
}

/// A served document: its bytes and their hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServedDocument {
    /// The JSON bytes served.
    pub json: Vec<u8>,
    /// [`document_hash`] of `json`.
    pub hash: String,
}

/// Every OpenAPI v3 document of a set of CRDs, serialized once, and the
/// `/openapi/v3` index over them: `apis/<group>/<version>` for the API
/// groups' CRDs, `api/v1` for the core group's (group `""`) and Namespace.
///
/// ```
/// use api_core::crd::{CustomResourceDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionVersion};
/// use api_server::openapi::OpenApiV3;
///
/// let mut crd = CustomResourceDefinition::default();
/// crd.spec.group = "example.com".into();
/// crd.spec.scope = "Namespaced".into();
/// crd.spec.names = CustomResourceDefinitionNames::for_kind("Widget", "widgets");
/// crd.spec.versions = vec![CustomResourceDefinitionVersion::new("v1", true, true)];
///
/// let docs = OpenApiV3::new(&[crd]);
/// let index = docs.index();
/// let url = index["paths"]["apis/example.com/v1"]["serverRelativeURL"].as_str().unwrap();
/// assert!(url.starts_with("/openapi/v3/apis/example.com/v1?hash="));
/// assert!(docs.document("apis/example.com/v1").is_some());
/// ```
#[derive(Clone, Debug, Default)]
pub struct OpenApiV3 {
    documents: BTreeMap<String, ServedDocument>,
    /// The core group's CRDs, which `api/v1` is written from.
    core: Vec<CustomResourceDefinition>,
}

impl OpenApiV3 {
    /// The documents of every served group-version of `crds`, keyed
    /// `apis/<group>/<version>`, and `api/v1` ([`core_document`]) when
    /// core-group CRDs (group `""`) serve `v1`.
    pub fn new(crds: &[CustomResourceDefinition]) -> Self {
        let mut documents = BTreeMap::new();
        let core: Vec<CustomResourceDefinition> = crds
            .iter()
            .filter(|c| c.spec.group.is_empty())
            .cloned()
            .collect();
        if let Some(doc) = core_document(&core, false) {
            documents.insert("api/v1".to_string(), served(&doc));
        }
        for crd in crds.iter().filter(|c| !c.spec.group.is_empty()) {
            for v in crd.spec.versions.iter().filter(|v| v.served) {
                let key = format!("apis/{}/{}", crd.spec.group, v.name);
                if documents.contains_key(&key) {
                    continue;
                }
                if let Some(doc) = group_version_document(crds, &crd.spec.group, &v.name) {
                    documents.insert(key, served(&doc));
                }
            }
        }
        OpenApiV3 { documents, core }
    }

    /// Adds (or replaces) a document under `key` (`api/v1`, ...).
    pub fn insert(&mut self, key: impl Into<String>, document: &Value) {
        self.documents.insert(key.into(), served(document));
    }

    /// Also serve Namespace's paths and schemas ([`core_v1_document`]) in
    /// `api/v1`, with those of the core-group CRDs given to
    /// [`OpenApiV3::new`] (a server that serves namespaces:
    /// `kubectl explain namespaces`, and field validation on
    /// `kubectl apply` of a Namespace).
    pub fn with_core_v1(mut self) -> Self {
        let document = core_document(&self.core, true).unwrap_or_else(core_v1_document);
        self.insert("api/v1", &document);
        self
    }

    /// `/openapi/v3`: `{"paths": {"apis/g/v": {"serverRelativeURL": "/openapi/v3/apis/g/v?hash=H"}}}`.
    pub fn index(&self) -> Value {
        let paths: Map<String, Value> = self
            .documents
            .iter()
            .map(|(key, doc)| {
                (
                    key.clone(),
                    json!({ "serverRelativeURL": format!("/openapi/v3/{key}?hash={}", doc.hash) }),
                )
            })
            .collect();
        json!({ "paths": paths })
    }

    /// The served bytes of `/openapi/v3/<key>` (`key` like `apis/g/v`).
    pub fn document(&self, key: &str) -> Option<&ServedDocument> {
        self.documents.get(key)
    }
}

#[cfg(test)]
#[path = "openapi_tests.rs"]
mod tests;
