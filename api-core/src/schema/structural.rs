//! The structural-schema checker: what the apiserver's
//! `ValidateCustomResourceDefinition` says about an
//! `apiextensions.k8s.io/v1` CustomResourceDefinition and its OpenAPI v3
//! schemas, over plain [`serde_json::Value`]s.
//!
//! - [`check_schema`] checks one `openAPIV3Schema`: unsupported keywords,
//!   the structural invariants, junctors (with the IntOrString
//!   exceptions and completeness), `properties`/`additionalProperties`,
//!   map and list extensions, the basic `x-kubernetes-validations` checks
//!   (CEL is not compiled), `pattern` syntax, defaults (pruned and valid),
//!   and the root restrictions of the status subresource.
//! - [`check_crd`] checks a whole CRD: names, group, scope, versions,
//!   conversion, subresources, printer columns and selectable fields, and
//!   runs [`check_schema`] on every version's schema.
//! - [`prune`] drops the fields a schema does not specify, as the
//!   apiserver does before storing an object.
//!
//! Errors are [`FieldError`]s with the apiserver's field paths, types and
//! wording:
//!
//! ```
//! use api_core::schema::structural::{SchemaCheckOptions, check_schema};
//! use api_core::validation::ErrorType;
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {"spec": {"properties": {"size": {"minimum": 1}}}}
//! });
//! let errors = check_schema(&schema, &SchemaCheckOptions::default());
//! let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
//! assert_eq!(
//!     fields,
//!     [
//!         "openAPIV3Schema.properties[spec].properties[size].type",
//!         "openAPIV3Schema.properties[spec].type",
//!     ]
//! );
//! assert!(errors.iter().all(|e| e.error_type == ErrorType::Required));
//! assert_eq!(errors.as_slice()[1].detail, "must not be empty for specified object fields");
//! ```
//!
//! Where this checker differs from the apiserver on purpose:
//!
//! - completeness (every field named in `allOf`/`anyOf`/`oneOf`/`not` must
//!   be specified in the structural part) is checked for the junctors of
//!   every node, as the Kubernetes documentation states it; the apiserver
//!   only checks the junctors of the root;
//! - `deprecated`, `discriminator`, `readOnly`, `writeOnly` and `xml`, which
//!   the documentation lists as forbidden and the apiserver silently drops
//!   at decode, are reported as `Forbidden`;
//! - mistyped keywords (`"type": 5`), which would fail the apiserver's
//!   decoding, are reported as `FieldValueTypeInvalid` and otherwise
//!   ignored;
//! - schemas nested more than [`MAX_SCHEMA_DEPTH`] levels deep are
//!   reported as `Forbidden` rather than walked.

use serde_json::Value;

use crate::validation::{ErrorList, FieldError, FieldPath};

#[cfg(feature = "cel")]
pub(crate) mod cel;
mod crd;
mod node;
mod rules;
mod values;

/// How many schemas deep (each `properties`, `items`, `additionalProperties`
/// or junctor step is one level) the checker walks. Deeper schemas are
/// reported as `Forbidden` instead, so any input is checked without
/// exhausting the stack.
pub const MAX_SCHEMA_DEPTH: usize = 128;

/// How deeply nested a `default` value may be (in JSON levels); deeper
/// defaults are reported as `Invalid`. Bad values shown in errors are
/// replaced by a placeholder string beyond this depth.
pub const MAX_VALUE_DEPTH: usize = 512;

/// Options of [`check_schema`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchemaCheckOptions {
    /// The version has the status subresource (`subresources.status`), which
    /// restricts what the root schema may specify (`type: object`, no
    /// junctors, `additionalProperties`, `default`, `enum` or `nullable`).
    pub status_subresource: bool,
}

/// Checks one `openAPIV3Schema` (the root schema of a resource) as the
/// apiserver does for a v1 CRD version. Paths start at `openAPIV3Schema`;
/// see [`check_schema_at`] for another root path.
///
/// ```
/// use api_core::schema::structural::{SchemaCheckOptions, check_schema};
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"spec": {"type": "object"}}});
/// assert!(check_schema(&schema, &SchemaCheckOptions::default()).is_empty());
/// ```
pub fn check_schema(schema: &Value, options: &SchemaCheckOptions) -> ErrorList {
    check_schema_at(schema, options, &FieldPath::new("openAPIV3Schema"))
}

/// [`check_schema`] with errors reported below `path` (for example
/// `spec.versions[0].schema.openAPIV3Schema`).
pub fn check_schema_at(
    schema: &Value,
    options: &SchemaCheckOptions,
    path: &FieldPath<'_>,
) -> ErrorList {
    check_schema_node(schema, options, path).0
}

/// [`check_schema_at`], also returning the decoded root for further checks.
fn check_schema_node<'a>(
    schema: &'a Value,
    options: &SchemaCheckOptions,
    path: &FieldPath<'_>,
) -> (ErrorList, Option<Box<node::Node<'a>>>) {
    let mut errs = ErrorList::new();
    let Some(root) = node::decode(schema, path, 0, &mut errs) else {
        return (errs, None);
    };
    if options.status_subresource {
        rules::status_root(&root, path, schema, &mut errs);
    }
    if root.nullable {
        errs.push(FieldError::forbidden(
            &path.child("nullable"),
            "nullable cannot be true at the root",
        ));
    }
    let not_structural = match rules::convertible(&root) {
        Ok(()) => {
            let structural = rules::structural(&root, path);
            if structural.is_empty() {
                values::validate_defaults(&root, path, &mut errs);
            } else {
                errs.extend(structural);
            }
            None
        }
        Err(msg) => Some(msg),
    };
    rules::openapi(&root, path, rules::Ssv::ROOT, true, &mut errs);
    if let Some(msg) = not_structural
        && errs.is_empty()
    {
        errs.push(FieldError::invalid(path, "", msg));
    }
    // The rules are compiled only for a schema without other errors, as
    // the apiserver does: their types come from it.
    #[cfg(feature = "cel")]
    if errs.is_empty() {
        cel::check_rules(&root, path, &mut errs);
    }
    (errs, Some(root))
}

/// Checks a whole `apiextensions.k8s.io/v1` CustomResourceDefinition as the
/// apiserver does on create: `metadata.name` (a DNS subdomain equal to
/// `<plural>.<group>`), the group (a domain with a dot; protected groups
/// need the `api-approved.kubernetes.io` annotation), scope, names (with
/// v1 defaulting of `singular` and `listKind`), versions (unique DNS-1035
/// names, exactly one storage version, a schema each, deprecation
/// warnings), conversion, the scale subresource, printer columns and
/// selectable fields, and [`check_schema`] on every version's schema with
/// that version's status subresource. `status.storedVersions` is checked
/// when present (the apiserver sets it on create).
///
/// ```
/// use api_core::schema::structural::check_crd;
/// use serde_json::json;
///
/// let crd = json!({
///     "apiVersion": "apiextensions.k8s.io/v1",
///     "kind": "CustomResourceDefinition",
///     "metadata": {"name": "widgets.example.com"},
///     "spec": {
///         "group": "example.com",
///         "names": {"kind": "Widget", "plural": "widgets"},
///         "scope": "Namespaced",
///         "versions": [{
///             "name": "v1", "served": true, "storage": true,
///             "schema": {"openAPIV3Schema": {"type": "object"}}
///         }]
///     }
/// });
/// assert!(check_crd(&crd).is_empty());
/// ```
pub fn check_crd(crd: &Value) -> ErrorList {
    crd::check(crd)
}

/// Removes from `value` every object field that `schema` does not specify,
/// as the apiserver's pruning does (`pruning.Prune`):
///
/// - fields not in `properties` are dropped unless there is
///   `additionalProperties`;
/// - below `x-kubernetes-preserve-unknown-fields: true` unknown fields are
///   kept, but known properties are still pruned;
/// - at the resource root (`is_resource_root`) and in embedded resources,
///   `apiVersion`, `kind` and `metadata` are never pruned.
///
/// The schema is read leniently (mistyped keywords are ignored); below
/// [`MAX_SCHEMA_DEPTH`] schema levels the value is kept as it is. The value
/// itself may be nested arbitrarily deep.
///
/// ```
/// use api_core::schema::structural::prune;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"spec": {
///     "type": "object", "properties": {"size": {"type": "integer"}}
/// }}});
/// let mut value = json!({"kind": "Widget", "spec": {"size": 1, "colour": "red"}, "extra": 1});
/// prune(&mut value, &schema, true);
/// assert_eq!(value, json!({"kind": "Widget", "spec": {"size": 1}}));
/// ```
pub fn prune(value: &mut Value, schema: &Value, is_resource_root: bool) {
    let mut ignored = ErrorList::new();
    let root = node::decode(schema, &FieldPath::new(""), 0, &mut ignored);
    values::prune_value(value, root.as_deref(), is_resource_root);
}

/// Validates `value` against `schema` as the apiserver validates the
/// values of a custom resource (`ValidateCustomResource`): types, enums,
/// bounds, lengths, patterns, formats, `required`, junctors and the list
/// and map extensions, with the apiserver's wording (`spec.size in body
/// should be greater than or equal to 1`). Errors are reported at `path`
/// and below it. The schema is read leniently, as [`prune`] reads it.
///
/// ```
/// use api_core::schema::structural::validate;
/// use api_core::FieldPath;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "required": ["port"], "properties": {
///     "port": {"type": "integer", "minimum": 1}
/// }});
/// let errors = validate(&json!({"port": 0}), &schema, &FieldPath::new("spec"));
/// assert_eq!(errors.len(), 1);
/// assert_eq!(errors.as_slice()[0].field, "spec.port");
/// assert!(validate(&json!({}), &schema, &FieldPath::new("spec")).as_slice()[0].detail.is_empty());
/// ```
pub fn validate(value: &Value, schema: &Value, path: &FieldPath<'_>) -> ErrorList {
    CompiledSchema::new(schema).validate(value, path)
}

/// [`validate`] for an update from `old` to `value`, with the apiserver's
/// CRD validation ratcheting (`CRDValidationRatcheting`, GA in Kubernetes
/// 1.33): errors of a value that the update leaves as it was are dropped,
/// so that objects stored before a schema was tightened can still be
/// updated where they do not break it again.
///
/// A value correlates with the old object's value at the same property;
/// in a `x-kubernetes-list-type: map` list with the item of the same keys;
/// in a list without a list type with the item at the same index; `set`
/// and `atomic` items, and values below `allOf`/`anyOf`/`oneOf`/`not`,
/// correlate with nothing. The uniqueness of `set` and `map` lists is
/// checked only when `old` passes it (the apiserver's strategy does the
/// same).
///
/// ```
/// use api_core::schema::structural::validate_update;
/// use api_core::FieldPath;
/// use serde_json::json;
///
/// // The schema became stricter after the object was stored.
/// let schema = json!({"type": "object", "properties": {
///     "size": {"type": "integer", "maximum": 3},
///     "name": {"type": "string", "maxLength": 5}
/// }});
/// let old = json!({"size": 10, "name": "long-name"});
/// let path = FieldPath::new("spec");
/// // Unchanged values keep passing...
/// assert!(validate_update(&json!({"size": 10, "name": "long-name"}), &old, &schema, &path).is_empty());
/// // ... a changed one is checked.
/// let errors = validate_update(&json!({"size": 11, "name": "long-name"}), &old, &schema, &path);
/// assert_eq!(errors.len(), 1);
/// assert_eq!(errors.as_slice()[0].field, "spec.size");
/// ```
pub fn validate_update(
    value: &Value,
    old: &Value,
    schema: &Value,
    path: &FieldPath<'_>,
) -> ErrorList {
    CompiledSchema::new(schema).validate_update(value, old, path)
}

self_cell::self_cell!(
    struct OwnedSchema {
        owner: Value,
        #[covariant]
        dependent: CompiledSchema,
    }
);

/// A schema decoded once, for pruning and validating many values: what
/// [`prune`], [`validate`] and [`validate_update`] do, without decoding
/// the schema on every call (a custom resource's strategy holds one per
/// version).
///
/// ```
/// use api_core::schema::structural::SchemaValidator;
/// use api_core::FieldPath;
/// use serde_json::json;
///
/// let schema = SchemaValidator::new(json!({"type": "object", "properties": {
///     "size": {"type": "integer", "maximum": 3}
/// }}));
/// let mut value = json!({"size": 4, "extra": true});
/// schema.prune(&mut value, false);
/// assert_eq!(value, json!({"size": 4}));
/// let errors = schema.validate(&value, &FieldPath::new("spec"));
/// assert_eq!(errors.as_slice()[0].field, "spec.size");
/// ```
pub struct SchemaValidator(OwnedSchema);

impl SchemaValidator {
    /// Decodes `schema` (leniently, as [`validate`] reads it).
    pub fn new(schema: Value) -> Self {
        SchemaValidator(OwnedSchema::new(schema, |schema| {
            CompiledSchema::new(schema)
        }))
    }

    /// The schema as given.
    pub fn schema(&self) -> &Value {
        self.0.borrow_owner()
    }

    /// [`prune`] with this schema.
    pub fn prune(&self, value: &mut Value, is_resource_root: bool) {
        values::prune_value(
            value,
            self.0.borrow_dependent().root.as_deref(),
            is_resource_root,
        );
    }

    /// `objectmeta.Coerce`, as the apiserver's decoders run it after
    /// pruning: the `metadata` of every `x-kubernetes-embedded-resource`
    /// in `value` is read as ObjectMeta and written back as Go writes it,
    /// so its unknown fields go (`metadata` itself is never pruned). A
    /// `metadata` that is not ObjectMeta is left for
    /// [`validate_embedded_resources`](Self::validate_embedded_resources)
    /// to report.
    ///
    /// ```
    /// use api_core::schema::structural::SchemaValidator;
    /// use serde_json::json;
    ///
    /// let schema = SchemaValidator::new(json!({"type": "object", "properties": {
    ///     "template": {"type": "object", "x-kubernetes-embedded-resource": true,
    ///                  "x-kubernetes-preserve-unknown-fields": true}
    /// }}));
    /// let mut value = json!({"template": {"apiVersion": "v1", "kind": "Pod",
    ///     "metadata": {"name": "p", "colour": "red", "labels": {}}}});
    /// schema.coerce_embedded_metadata(&mut value, false);
    /// assert_eq!(value["template"]["metadata"], json!({"name": "p"}));
    /// ```
    pub fn coerce_embedded_metadata(&self, value: &mut Value, is_resource_root: bool) {
        let compiled = self.0.borrow_dependent();
        if let Some(root) = &compiled.root
            && (compiled.embedded || is_resource_root)
        {
            values::coerce_embedded_meta(value, root, is_resource_root);
        }
    }

    /// `objectmeta.Validate`, which the apiserver runs on every write of a
    /// custom resource: every `x-kubernetes-embedded-resource` in `value`
    /// has a valid `apiVersion` and `kind` and, when it has one, a valid
    /// `metadata` (a name is not required).
    ///
    /// ```
    /// use api_core::schema::structural::SchemaValidator;
    /// use api_core::FieldPath;
    /// use serde_json::json;
    ///
    /// let schema = SchemaValidator::new(json!({"type": "object", "properties": {
    ///     "template": {"type": "object", "x-kubernetes-embedded-resource": true,
    ///                  "x-kubernetes-preserve-unknown-fields": true}
    /// }}));
    /// let errors = schema.validate_embedded_resources(
    ///     &json!({"template": {"apiVersion": "v1"}}), &FieldPath::new("spec"));
    /// assert_eq!(errors.as_slice()[0].to_string(), "spec.template.kind: Required value");
    /// ```
    pub fn validate_embedded_resources(&self, value: &Value, path: &FieldPath<'_>) -> ErrorList {
        let mut errors = ErrorList::new();
        let compiled = self.0.borrow_dependent();
        if let Some(root) = &compiled.root
            && compiled.embedded
        {
            values::validate_meta(value, root, path, false, &mut errors);
        }
        errors
    }

    /// `value` against the schema of the root's property `property` alone,
    /// at `path`, ratcheted against `old` when given (as [`validate`] and
    /// [`validate_update`] with that schema): how the apiserver validates
    /// a status update (`ValidateStatusUpdate`, with the schema of
    /// `status`), whose messages are relative to the property (`num in
    /// body`, not `status.num in body`). Nothing is checked when the
    /// schema does not declare the property.
    ///
    /// ```
    /// use api_core::schema::structural::SchemaValidator;
    /// use api_core::FieldPath;
    /// use serde_json::json;
    ///
    /// let schema = SchemaValidator::new(json!({"type": "object", "properties": {
    ///     "status": {"type": "object", "properties": {"num": {"type": "integer", "maximum": 10}}}
    /// }}));
    /// let errors = schema.validate_property("status", &json!({"num": 15}), None, &FieldPath::new("status"));
    /// assert_eq!(errors.as_slice()[0].to_string(),
    ///            "status.num: Invalid value: 15: num in body should be less than or equal to 10");
    /// ```
    pub fn validate_property(
        &self,
        property: &str,
        value: &Value,
        old: Option<&Value>,
        path: &FieldPath<'_>,
    ) -> ErrorList {
        let node = self.0.borrow_dependent().root.as_deref();
        CompiledSchema::validate_at(node.and_then(|n| n.property(property)), value, old, path)
    }

    /// [`validate`] with this schema.
    pub fn validate(&self, value: &Value, path: &FieldPath<'_>) -> ErrorList {
        self.0.borrow_dependent().validate(value, path)
    }

    /// [`validate_update`] with this schema.
    pub fn validate_update(&self, value: &Value, old: &Value, path: &FieldPath<'_>) -> ErrorList {
        self.0.borrow_dependent().validate_update(value, old, path)
    }
}

impl std::fmt::Debug for SchemaValidator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("SchemaValidator")
            .field(self.schema())
            .finish()
    }
}

/// A schema decoded once for validating many values ([`validate`] decodes
/// it on every call).
pub(crate) struct CompiledSchema<'a> {
    root: Option<Box<node::Node<'a>>>,
    /// Whether any node is an `x-kubernetes-embedded-resource` (most
    /// schemas have none: their values need no walk for one).
    embedded: bool,
}

impl<'a> CompiledSchema<'a> {
    /// Decodes `schema` (leniently: mistyped keywords are ignored).
    pub(crate) fn new(schema: &'a Value) -> Self {
        let mut ignored = ErrorList::new();
        let root = node::decode(schema, &FieldPath::new(""), 0, &mut ignored);
        CompiledSchema {
            embedded: root.as_deref().is_some_and(values::has_embedded_resource),
            root,
        }
    }

    /// [`validate`] against this schema.
    pub(crate) fn validate(&self, value: &Value, path: &FieldPath<'_>) -> ErrorList {
        Self::validate_at(self.root.as_deref(), value, None, path)
    }

    /// [`validate_update`] against this schema.
    pub(crate) fn validate_update(
        &self,
        value: &Value,
        old: &Value,
        path: &FieldPath<'_>,
    ) -> ErrorList {
        Self::validate_at(self.root.as_deref(), value, Some(old), path)
    }

    /// `value` against `node` (nothing to check without one), ratcheted
    /// against `old` when there is one.
    fn validate_at(
        node: Option<&node::Node<'_>>,
        value: &Value,
        old: Option<&Value>,
        path: &FieldPath<'_>,
    ) -> ErrorList {
        let mut errors = ErrorList::new();
        let Some(node) = node else {
            return errors;
        };
        values::validate_ratcheted(value, old, node, "", path, &mut errors);
        // The uniqueness of set and map lists is checked on an update only
        // when the old value passes it (the strategy's rule).
        let old_passes = old.is_none_or(|old| {
            let mut old_errors = ErrorList::new();
            values::validate_list_types(old, node, path, &mut old_errors);
            old_errors.is_empty()
        });
        if old_passes {
            values::validate_list_types(value, node, path, &mut errors);
        }
        errors
    }
}

/// Whether `v` is nested more than `limit` levels deep (iteratively).
fn depth_exceeds(v: &Value, limit: usize) -> bool {
    let mut stack = vec![(v, 1usize)];
    while let Some((v, d)) = stack.pop() {
        if d > limit {
            return true;
        }
        match v {
            Value::Array(a) => stack.extend(a.iter().map(|x| (x, d + 1))),
            Value::Object(m) => stack.extend(m.values().map(|x| (x, d + 1))),
            _ => {}
        }
    }
    false
}

/// A copy of `v` to show in an error, or a placeholder when `v` is too
/// deeply nested to copy and render safely.
fn bounded(v: &Value) -> Value {
    if matches!(v, Value::Array(_) | Value::Object(_)) && depth_exceeds(v, MAX_VALUE_DEPTH) {
        Value::String(format!("<nested more than {MAX_VALUE_DEPTH} levels deep>"))
    } else {
        v.clone()
    }
}

/// JSON equality with numbers compared by value (`1` equals `1.0`), as Go
/// compares decoded JSON.
fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(i), Some(j)) => i == j,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k).is_some_and(|b| json_equal(a, b)))
        }
        _ => a == b,
    }
}
