//! Objects of kinds known only at run time: [`DynamicObject`] (Go's
//! `Unstructured`: typed metadata, everything else JSON) and
//! [`DynamicStrategy`], the storage hooks of apiextensions-apiserver's
//! custom resource strategy driven by a kind's [`KindInfo`]: its schema's
//! defaults and pruning, its validation (types, formats, list types and,
//! with feature `cel`, its rules), the spec/status split of its status
//! subresource and the generation bump.
//!
//! A [`Registry<DynamicObject>`](super::Registry) built with
//! [`Registry::with_kind`](super::Registry::with_kind) serves any kind a
//! CRD describes with the same pipeline, errors and storage as a Rust type.
//!
//! ```
//! use std::sync::Arc;
//! use api_core::registry::{DynamicObject, DynamicStrategy, KindInfo, MemoryStorage, Registry};
//! use api_core::resource::CustomResourceExt;
//! use serde_json::json;
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! // Any CRD: here the one of an example type.
//! let crd = examples_crd();
//! # fn examples_crd() -> api_core::crd::CustomResourceDefinition {
//! #   api_core::crd::CustomResourceDefinition::from_json(&json!({
//! #     "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
//! #     "metadata": {"name": "widgets.example.com"},
//! #     "spec": {"group": "example.com", "scope": "Namespaced",
//! #       "names": {"kind": "Widget", "plural": "widgets"},
//! #       "versions": [{"name": "v1", "served": true, "storage": true,
//! #         "subresources": {"status": {}},
//! #         "schema": {"openAPIV3Schema": {"type": "object", "properties": {
//! #           "spec": {"type": "object", "properties": {
//! #             "size": {"type": "integer", "minimum": 1, "default": 1}}}}}}}]}
//! #   }).to_string()).unwrap()
//! # }
//! let kind = KindInfo::from_crd(&crd, "v1").unwrap();
//! let widgets = Registry::with_kind(
//!     kind.clone(),
//!     DynamicStrategy::new(&kind),
//!     Arc::new(MemoryStorage::new()),
//! );
//! let w: DynamicObject = serde_json::from_value(json!({
//!     "apiVersion": "example.com/v1", "kind": "Widget",
//!     "metadata": {"name": "w"}, "spec": {"colour": "red"}
//! })).unwrap();
//! let created = widgets.create("default", w).await.unwrap().object;
//! assert_eq!(created.content["spec"], json!({"size": 1})); // defaulted, pruned
//! assert_eq!(created.metadata.generation, 1);
//!
//! let mut bad = created.clone();
//! bad.content["spec"]["size"] = json!(0);
//! let err = widgets.update("default", bad).await.unwrap_err();
//! assert_eq!(err.code, 422);
//! # });
//! ```

use std::borrow::Cow;
use std::sync::Arc;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::Error as _;
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::api_type::ApiType;
use crate::meta::ObjectMeta;
use crate::resource::{Resource, Scope, SpecStatus};
use crate::validation::{ErrorList, FieldPath};

use super::Registry;
use super::kind::KindInfo;
use super::strategy::Strategy;
use crate::decode::FieldValidation;
use crate::status::Status;

/// An object of a kind known only at run time (Go's `Unstructured`): its
/// `apiVersion`, `kind` and `metadata` typed, everything else (`spec`,
/// `status`, `data`, ...) as JSON in `content`. Serialized as the object
/// it is: `apiVersion`, `kind`, `metadata`, then `content`'s members.
///
/// Its [`Resource`] constants are placeholders (empty names): a registry
/// of `DynamicObject`s takes its kind from a [`KindInfo`]
/// ([`Registry::with_kind`](super::Registry::with_kind)).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DynamicObject {
    /// `apiVersion` (empty when the JSON had none).
    pub api_version: String,
    /// `kind` (empty when the JSON had none).
    pub kind: String,
    /// `metadata`.
    pub metadata: ObjectMeta,
    /// Every other member of the object.
    pub content: Map<String, Value>,
}

impl DynamicObject {
    /// An object of `kind` named `name`, with `content`'s members.
    pub fn new(kind: &KindInfo, name: impl Into<String>, content: Map<String, Value>) -> Self {
        DynamicObject {
            api_version: kind.api_version(),
            kind: kind.kind.clone(),
            metadata: ObjectMeta {
                name: name.into(),
                ..ObjectMeta::default()
            },
            content,
        }
    }

    /// The object as one JSON value (what it serializes to, built
    /// directly: the content is copied, not serialized again).
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        if !self.api_version.is_empty() {
            map.insert("apiVersion".into(), Value::String(self.api_version.clone()));
        }
        if !self.kind.is_empty() {
            map.insert("kind".into(), Value::String(self.kind.clone()));
        }
        map.insert(
            "metadata".into(),
            serde_json::to_value(&self.metadata).unwrap_or(Value::Null),
        );
        for (k, v) in &self.content {
            if !matches!(k.as_str(), "apiVersion" | "kind" | "metadata") {
                map.insert(k.clone(), v.clone());
            }
        }
        Value::Object(map)
    }

    /// An object read from its JSON (what [`Deserialize`] reads, taken
    /// apart directly: the content is moved, not deserialized again).
    pub fn from_value(value: Value) -> Result<Self, String> {
        match value {
            Value::Object(content) => Self::from_map(content),
            other => Err(format!("expected a JSON object, found {other}")),
        }
    }

    fn from_map(mut content: Map<String, Value>) -> Result<Self, String> {
        let text = |content: &mut Map<String, Value>, key: &str| match content.remove(key) {
            None | Some(Value::Null) => Ok(String::new()),
            Some(Value::String(s)) => Ok(s),
            Some(other) => Err(format!("{key}: expected a string, found {other}")),
        };
        let api_version = text(&mut content, "apiVersion")?;
        let kind = text(&mut content, "kind")?;
        let metadata = match content.remove("metadata") {
            None | Some(Value::Null) => ObjectMeta::default(),
            Some(m) => ObjectMeta::deserialize(m).map_err(|e| format!("metadata: {e}"))?,
        };
        Ok(DynamicObject {
            api_version,
            kind,
            metadata,
            content,
        })
    }

    /// The content without `status`: what a change of bumps
    /// `metadata.generation` when the status has a subresource.
    fn without_status(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.content.iter().filter(|(k, _)| k.as_str() != "status")
    }
}

impl Serialize for DynamicObject {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let typed = usize::from(!self.api_version.is_empty()) + usize::from(!self.kind.is_empty());
        let mut map = serializer.serialize_map(Some(typed + 1 + self.content.len()))?;
        if !self.api_version.is_empty() {
            map.serialize_entry("apiVersion", &self.api_version)?;
        }
        if !self.kind.is_empty() {
            map.serialize_entry("kind", &self.kind)?;
        }
        map.serialize_entry("metadata", &self.metadata)?;
        for (k, v) in &self.content {
            if !matches!(k.as_str(), "apiVersion" | "kind" | "metadata") {
                map.serialize_entry(k, v)?;
            }
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for DynamicObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let content = Map::deserialize(deserializer)?;
        Self::from_map(content).map_err(D::Error::custom)
    }
}

impl Resource for DynamicObject {
    const GROUP: &'static str = "";
    const VERSION: &'static str = "";
    const KIND: &'static str = "";
    const PLURAL: &'static str = "";
    const SINGULAR: &'static str = "";
    const SCOPE: Scope = Scope::Namespaced;

    fn metadata(&self) -> &ObjectMeta {
        &self.metadata
    }

    fn metadata_mut(&mut self) -> &mut ObjectMeta {
        &mut self.metadata
    }
}

impl SpecStatus for DynamicObject {
    /// A placeholder, as the names are: the registry and
    /// [`DynamicStrategy`] read the kind's [`KindInfo`].
    const STATUS_SUBRESOURCE: bool = true;

    fn spec_equal(&self, other: &Self) -> bool {
        self.without_status().eq(other.without_status())
    }

    fn status_equal(&self, other: &Self) -> bool {
        self.content.get("status") == other.content.get("status")
    }

    fn clear_status(&mut self) {
        self.content.remove("status");
    }

    fn copy_status(&mut self, from: &Self) {
        match from.content.get("status") {
            Some(status) => {
                self.content.insert("status".into(), status.clone());
            }
            None => {
                self.content.remove("status");
            }
        }
    }

    fn copy_spec(&mut self, from: &Self) {
        let status = self.content.remove("status");
        self.content = from
            .without_status()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if let Some(status) = status {
            self.content.insert("status".into(), status);
        }
    }
}

impl JsonSchema for DynamicObject {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("DynamicObject")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
    }
}

/// Defaults and validation come from the kind's schema
/// ([`DynamicStrategy`]), not from the type.
impl ApiType for DynamicObject {}

impl Registry<DynamicObject> {
    /// Reads a request body (JSON) as an object of this registry's kind,
    /// as the apiserver's decoder reads a custom resource: nesting past
    /// 10,000 levels is a 400; a missing `apiVersion` or `kind` is the
    /// kind's, another one a 400 naming both; duplicate and unknown fields
    /// (those the schema prunes) are warnings, dropped, or with
    /// `Strict` the apiserver's 400 `strict decoding error: ...`.
    pub fn decode(
        &self,
        bytes: &[u8],
        validation: FieldValidation,
    ) -> Result<(DynamicObject, Vec<String>), Status> {
        let kind = self.kind_info();
        if let Some(status) = crate::decode::nested_too_deep(bytes, &kind.kind) {
            return Err(status);
        }
        let mut value: Value = serde_json::from_slice(bytes).map_err(|e| {
            Status::bad_request(format!(
                "the request body could not be decoded as a {}: {e}",
                kind.kind
            ))
        })?;
        if !value.is_object() {
            return Err(Status::bad_request(format!(
                "the request body could not be decoded as a {}: not a JSON object",
                kind.kind
            )));
        }
        for (key, want) in [
            ("apiVersion", kind.api_version()),
            ("kind", kind.kind.clone()),
        ] {
            match value.get(key) {
                None | Some(Value::Null) => value[key] = Value::String(want),
                Some(Value::String(got)) if *got == want => {}
                Some(got) => {
                    let got = got.as_str().map_or_else(|| got.to_string(), str::to_string);
                    let what = if key == "kind" { "kind" } else { "API version" };
                    return Err(Status::bad_request(format!(
                        "the {what} in the data ({got}) does not match the expected {what} ({want})"
                    )));
                }
            }
        }
        let mut warnings = Vec::new();
        if validation != FieldValidation::Ignore {
            warnings.extend(
                crate::decode::duplicate_keys(bytes)
                    .into_iter()
                    .map(|p| format!("duplicate field {p:?}")),
            );
            if kind.schema().is_some() {
                warnings.extend(
                    self.apply_schema()
                        .unknown_fields(&value)
                        .into_iter()
                        .map(|p| format!("unknown field {p:?}")),
                );
            }
            if validation == FieldValidation::Strict && !warnings.is_empty() {
                return Err(crate::decode::strict_error(&warnings));
            }
        }
        // `"managedFields": []` clears them, which ObjectMeta alone cannot
        // tell from none.
        let reset = crate::apply::clears_managed_fields(&value);
        let mut object = DynamicObject::deserialize(value).map_err(|e| {
            Status::bad_request(format!(
                "the request body could not be decoded as a {}: {e}",
                kind.kind
            ))
        })?;
        if reset {
            object.metadata.managed_fields = crate::apply::reset_marker();
        }
        Ok((object, warnings))
    }
}

/// The storage hooks of a custom resource (apiextensions-apiserver's
/// `customResourceStrategy`), driven by its [`KindInfo`]:
///
/// * defaults: unknown fields pruned (and those of embedded resources'
///   `metadata`, read as ObjectMeta), the nulls that are neither
///   `nullable` nor defaulted dropped, then the schema's `default`s (the
///   apiserver's decoder, before anything else);
/// * create: no status when it has a subresource, `generation: 1`;
/// * update: the stored status kept when it has a subresource, and
///   `generation` bumped when anything but metadata (and that status)
///   changed;
/// * status update: everything but the status from the stored object;
/// * validation: the schema (types, bounds, formats, patterns, `required`,
///   list sets and maps), the `apiVersion`, `kind` and `metadata` of
///   embedded resources and, with feature `cel`, its
///   `x-kubernetes-validations` rules; on updates with validation
///   ratcheting (errors of values the update leaves as they were are
///   dropped, see [`validate_update`](crate::schema::structural::validate_update));
///   a status update validates the status against the schema of
///   `status` alone, as upstream's `ValidateStatusUpdate`.
pub struct DynamicStrategy {
    kind: Arc<KindInfo>,
    /// The schema, decoded once (`None`: nothing to check).
    schema: Option<crate::schema::structural::SchemaValidator>,
    #[cfg(feature = "cel")]
    rules: crate::cel::Validator,
}

impl DynamicStrategy {
    /// The strategy of `kind` (its schema, when it has one; without one
    /// nothing is defaulted, pruned or validated).
    pub fn new(kind: &KindInfo) -> Self {
        let schema = kind.schema().filter(|s| !s.is_null()).cloned();
        DynamicStrategy {
            kind: Arc::new(kind.clone()),
            #[cfg(feature = "cel")]
            rules: crate::cel::Validator::new(schema.as_ref().unwrap_or(&Value::Null)),
            schema: schema.map(crate::schema::structural::SchemaValidator::new),
        }
    }

    fn validate_against_schema(
        &self,
        new: &DynamicObject,
        old: Option<&DynamicObject>,
    ) -> ErrorList {
        let Some(schema) = &self.schema else {
            return ErrorList::new();
        };
        let value = new.to_value();
        let old = old.map(DynamicObject::to_value);
        let root = FieldPath::new("");
        let mut errors = match &old {
            None => schema.validate(&value, &root),
            Some(old) => schema.validate_update(&value, old, &root),
        };
        self.validate_whole(schema, &value, old.as_ref(), &mut errors);
        errors
    }

    /// What is validated of the whole object on every write, the status
    /// subresource's included: the embedded resources (not ratcheted, as
    /// upstream: "we don't make a difference between update and create
    /// for those") and, with feature `cel`, the `x-kubernetes-validations`
    /// rules.
    fn validate_whole(
        &self,
        schema: &crate::schema::structural::SchemaValidator,
        value: &Value,
        old: Option<&Value>,
        errors: &mut ErrorList,
    ) {
        errors.extend(schema.validate_embedded_resources(value, &FieldPath::new("")));
        #[cfg(feature = "cel")]
        self.rules
            .validate_into(value, old, &FieldPath::new(""), errors);
        #[cfg(not(feature = "cel"))]
        let _ = old;
    }
}

impl std::fmt::Debug for DynamicStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DynamicStrategy")
            .field("kind", &self.kind.kind)
            .finish_non_exhaustive()
    }
}

impl Strategy<DynamicObject> for DynamicStrategy {
    fn apply_defaults(&self, obj: &mut DynamicObject) {
        let Some(schema) = &self.schema else {
            return;
        };
        // The apiserver's order on every object it decodes: unknown fields
        // pruned, then the nulls that are neither nullable nor defaulted
        // dropped (`PruneNonNullableNullsWithoutDefaults`: a server-side
        // apply that empties `spec` leaves it null), then the defaults.
        let mut value = Value::Object(std::mem::take(&mut obj.content));
        schema.prune(&mut value, true);
        crate::schema::defaulting::apply_schema_defaults(&mut value, schema.schema());
        // Then the metadata of embedded resources read as ObjectMeta
        // (`objectmeta.Coerce`, which the apiserver runs again when it
        // converts the defaulted object): its unknown fields go, a
        // default's too.
        schema.coerce_embedded_metadata(&mut value, false);
        if let Value::Object(content) = value {
            obj.content = content;
        }
    }

    fn prepare_for_create(&self, obj: &mut DynamicObject) {
        if self.kind.status_subresource {
            obj.clear_status();
        }
        obj.metadata.generation = 1;
    }

    fn validate(&self, obj: &DynamicObject) -> ErrorList {
        self.validate_against_schema(obj, None)
    }

    fn prepare_for_update(&self, new: &mut DynamicObject, old: &DynamicObject) {
        let changed = if self.kind.status_subresource {
            new.copy_status(old);
            !new.spec_equal(old)
        } else {
            new.content != old.content
        };
        if changed {
            new.metadata.generation = old.metadata.generation + 1;
        }
    }

    fn validate_update(&self, new: &DynamicObject, old: &DynamicObject) -> ErrorList {
        self.validate_against_schema(new, Some(old))
    }

    fn prepare_for_status_update(&self, new: &mut DynamicObject, old: &DynamicObject) {
        let mut merged = old.clone();
        merged.copy_status(new);
        merged.metadata.managed_fields = std::mem::take(&mut new.metadata.managed_fields);
        *new = merged;
    }

    /// The status alone against the status schema, at `status` (as
    /// `ValidateStatusUpdate`: a message reads `num in body ...`, not
    /// `status.num in body ...`), ratcheted against the old status; then
    /// the whole object's embedded resources and rules.
    fn validate_status_update(&self, new: &DynamicObject, old: &DynamicObject) -> ErrorList {
        let Some(schema) = &self.schema else {
            return ErrorList::new();
        };
        let mut errors = match new.content.get("status") {
            Some(status) => schema.validate_property(
                "status",
                status,
                old.content.get("status"),
                &FieldPath::new("status"),
            ),
            None => ErrorList::new(),
        };
        self.validate_whole(schema, &new.to_value(), Some(&old.to_value()), &mut errors);
        errors
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// `to_value` and `from_value` (the registry's direct paths) agree with
    /// the `Serialize` and `Deserialize` impls.
    #[test]
    fn direct_conversions_agree_with_serde() {
        let value = json!({
            "apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "w", "labels": {"a": "b"}, "resourceVersion": "7"},
            "spec": {"size": 1, "list": [1, {"x": null}]}, "status": {"ok": true}
        });
        let direct = DynamicObject::from_value(value.clone()).unwrap();
        let serde: DynamicObject = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(direct, serde);
        assert_eq!(direct.to_value(), serde_json::to_value(&serde).unwrap());
        assert_eq!(direct.to_value(), value);
        // No apiVersion or kind: empty, and left out again.
        let bare = DynamicObject::from_value(json!({"spec": {}})).unwrap();
        assert_eq!(bare.to_value(), json!({"metadata": {}, "spec": {}}));
        assert!(DynamicObject::from_value(json!([])).is_err());
        assert!(DynamicObject::from_value(json!({"kind": 1})).is_err());
    }
}
