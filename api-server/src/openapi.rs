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
//! The core group's kinds (CRDs of group `""`, such as the built-in
//! ConfigMap) are in one document, `api/v1`, as kube-apiserver serves
//! them: the same schemas and routes, below `/api/v1`, with model names
//! `io.k8s.api.core.v1.<Kind>` and operation ids `...CoreV1...`; with
//! namespaces, Namespace's as [`core_v1_document`] has them.
//!
//! The index maps `apis/<group>/<version>` (and `api/v1`) to
//! `{"serverRelativeURL": "/openapi/v3/apis/<group>/<version>?hash=<H>"}`
//! where `H` is the uppercase hex SHA-512 of the served document's bytes
//! (kube-openapi `handler3/handler.go`, `computeETag`).
//!
//! The kind and list schemas are built in `schema`, the routes in
//! `paths`; this module assembles the documents and their index.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use api_core::crd::CustomResourceDefinition;
#[cfg(test)]
use api_core::crd::CustomResourceDefinitionVersion;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha512};

mod paths;
mod schema;

use paths::namespace_paths;
pub use paths::paths;
#[cfg(test)]
use paths::{article_for, operation_id_and_tag, to_valid_operation_id};
#[cfg(test)]
use schema::unfold;
pub use schema::{kind_schema, list_schema};

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

/// The model name of the core Namespace.
pub const NAMESPACE: &str = "io.k8s.api.core.v1.Namespace";

/// The core group's document (`/openapi/v3/api/v1`, index key `api/v1`)
/// for a server that serves only `namespaces`: the Namespace and
/// NamespaceList schemas (k8s.io/api `core/v1`, reduced to their fields'
/// types and descriptions) and the routes kube-apiserver has for them
/// (no `deletecollection`; `/status` get, put, patch; `/finalize` put),
/// with kube-apiserver's operation ids (`patchCoreV1Namespace`).
pub fn core_v1_document() -> Value {
    let paths = namespace_paths();
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
pub fn group_version_document<C: Borrow<CustomResourceDefinition>>(
    crds: &[C],
    group: &str,
    version: &str,
) -> Option<Value> {
    let mut all_paths = Map::new();
    let mut schemas = Map::new();
    let mut scale = false;
    let mut found = false;
    for crd in crds
        .iter()
        .map(Borrow::borrow)
        .filter(|c: &&CustomResourceDefinition| c.spec.group == group)
    {
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
        Self::of(crds)
    }

    /// [`OpenApiV3::new`] of CRDs shared with their served kinds.
    pub fn shared(crds: &[Arc<CustomResourceDefinition>]) -> Self {
        Self::of(crds)
    }

    fn of<C: Borrow<CustomResourceDefinition>>(all: &[C]) -> Self {
        let mut documents = BTreeMap::new();
        let crds = || all.iter().map(Borrow::borrow);
        let core: Vec<CustomResourceDefinition> = crds()
            .filter(|c: &&CustomResourceDefinition| c.spec.group.is_empty())
            .cloned()
            .collect();
        if let Some(doc) = core_document(&core, false) {
            documents.insert("api/v1".to_string(), served(&doc));
        }
        for crd in crds().filter(|c| !c.spec.group.is_empty()) {
            for v in crd.spec.versions.iter().filter(|v| v.served) {
                let key = format!("apis/{}/{}", crd.spec.group, v.name);
                if documents.contains_key(&key) {
                    continue;
                }
                if let Some(doc) = group_version_document(all, &crd.spec.group, &v.name) {
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
