//! Schema-driven defaulting: what the apiserver does to a custom resource
//! with the `default:` values of its structural schema
//! (`k8s.io/apiextensions-apiserver` `pkg/apiserver/schema/defaulting`),
//! over plain [`serde_json::Value`]s.
//!
//! The apiserver runs, in this order, on every object it decodes:
//!
//! 1. pruning of unknown fields ([`prune`](super::structural::prune));
//! 2. [`prune_non_nullable_nulls_without_defaults`]: drops the `null`
//!    values whose schema is not `nullable` and has no `default`;
//! 3. [`default`]: sets every absent property that has a `default`, and
//!    every `null` property, `additionalProperties` value or `items` element
//!    whose schema is not `nullable` and has a default.
//!
//! [`apply_schema_defaults`] runs steps 2 and 3.
//!
//! ```
//! use api_core::schema::defaulting::apply_schema_defaults;
//! use serde_json::json;
//!
//! let schema = json!({"type": "object", "properties": {
//!     "replicas": {"type": "integer", "default": 1},
//!     "image": {"type": "string"},
//!     "note": {"type": "string", "nullable": true}
//! }});
//! let mut value = json!({"image": null, "note": null});
//! apply_schema_defaults(&mut value, &schema);
//! assert_eq!(value, json!({"replicas": 1, "note": null}));
//! ```
//!
//! Like the apiserver, defaulting descends into the values it has just
//! set: a `default: {}` of an object whose properties have defaults ends up
//! with those defaults filled in. Only `properties`, `additionalProperties`
//! and `items` are followed; `default`s inside junctors (`allOf`, ...) are
//! ignored, as structural schemas forbid them.
//!
//! The schema is read leniently: keywords of the wrong JSON type are
//! ignored (`"nullable": "yes"` is not nullable, a boolean
//! `additionalProperties` or an array `items` has no schema) and
//! `"default": null` counts as no default, as in the apiserver. Both value
//! and schema may be nested arbitrarily deep: the walks use an explicit
//! stack, and default values are copied without recursion.

use serde_json::{Map, Value};

/// Removes, from every object in `value`, the `null` fields whose schema is
/// not `nullable: true` and has no `default` (`PruneNonNullableNullsWithoutDefaults`).
///
/// A field's schema is its entry in `properties`, else the
/// `additionalProperties` schema. Fields without a schema are kept, and so
/// are `null` elements of arrays. Nulls that have a default are left for
/// [`default`] to replace.
///
/// ```
/// use api_core::schema::defaulting::prune_non_nullable_nulls_without_defaults;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {
///     "a": {"type": "string"},
///     "b": {"type": "string", "nullable": true},
///     "c": {"type": "string", "default": "x"}
/// }});
/// let mut value = json!({"a": null, "b": null, "c": null, "d": null});
/// prune_non_nullable_nulls_without_defaults(&mut value, &schema);
/// assert_eq!(value, json!({"b": null, "c": null, "d": null}));
/// ```
pub fn prune_non_nullable_nulls_without_defaults(value: &mut Value, schema: &Value) {
    let mut stack: Vec<(&mut Value, &Value)> = vec![(value, schema)];
    while let Some((value, schema)) = stack.pop() {
        match value {
            Value::Object(map) => {
                map.retain(|key, v| {
                    !(v.is_null()
                        && field_schema(schema, key)
                            .is_some_and(|s| !is_nullable(s) && default_of(s).is_none()))
                });
                for (key, v) in map.iter_mut() {
                    if let Some(s) = field_schema(schema, key)
                        && is_container(v)
                    {
                        stack.push((v, s));
                    }
                }
            }
            Value::Array(items) => {
                if let Some(s) = items_schema(schema) {
                    stack.extend(items.iter_mut().filter(|v| is_container(v)).map(|v| (v, s)));
                }
            }
            _ => {}
        }
    }
}

/// Sets defaults from `schema` in `value` (`Default`):
///
/// - in an object, every property of `properties` that has a `default` is
///   set to it when the key is absent, or when its value is `null` and the
///   property is not `nullable`;
/// - a `null` value of an object field covered only by
///   `additionalProperties`, or a `null` array element, is set to the
///   `additionalProperties` / `items` default when that schema is not
///   `nullable` (and stays `null` when it has no default);
/// - then every field and element is defaulted with its own schema,
///   including the values just set.
///
/// Values the object already has (other than such nulls) are never
/// changed. Defaults are deep copies of the schema's values. Run
/// [`prune_non_nullable_nulls_without_defaults`] first, as the apiserver
/// does, or use [`apply_schema_defaults`].
///
/// ```
/// use api_core::schema::defaulting::default;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {
///     "ports": {"type": "array", "items": {"type": "object", "properties": {
///         "protocol": {"type": "string", "default": "TCP"}
///     }}}
/// }});
/// let mut value = json!({"ports": [{"port": 80}, {"protocol": "UDP"}]});
/// default(&mut value, &schema);
/// assert_eq!(value, json!({"ports": [{"port": 80, "protocol": "TCP"}, {"protocol": "UDP"}]}));
/// ```
pub fn default(value: &mut Value, schema: &Value) {
    let mut stack: Vec<(&mut Value, &Value)> = vec![(value, schema)];
    while let Some((value, schema)) = stack.pop() {
        match value {
            Value::Object(map) => {
                let properties = schema.get("properties").and_then(Value::as_object);
                for (key, prop) in properties.into_iter().flatten() {
                    let Some(d) = default_of(prop) else { continue };
                    match map.get_mut(key) {
                        None => {
                            map.insert(key.clone(), deep_copy(d));
                        }
                        Some(v) if v.is_null() && !is_nullable(prop) => *v = deep_copy(d),
                        Some(_) => {}
                    }
                }
                let additional = additional_properties_schema(schema);
                for (key, v) in map.iter_mut() {
                    let s = match properties.and_then(|p| p.get(key)) {
                        Some(prop) => prop,
                        None => {
                            let Some(ap) = additional else { continue };
                            default_null(v, ap);
                            ap
                        }
                    };
                    if is_container(v) {
                        stack.push((v, s));
                    }
                }
            }
            Value::Array(items) => {
                if let Some(s) = items_schema(schema) {
                    for v in items.iter_mut() {
                        default_null(v, s);
                        if is_container(v) {
                            stack.push((v, s));
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// Runs [`prune_non_nullable_nulls_without_defaults`] and then [`default`],
/// the apiserver's defaulting of a decoded object (after pruning unknown
/// fields, which is [`prune`](super::structural::prune)).
///
/// ```
/// use api_core::schema::defaulting::apply_schema_defaults;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {
///     "labels": {"type": "object", "additionalProperties": {"type": "string"}},
///     "tags": {"type": "array", "items": {"type": "string", "default": "none"}}
/// }});
/// let mut value = json!({"labels": {"a": null, "b": "x"}, "tags": [null, "t"]});
/// apply_schema_defaults(&mut value, &schema);
/// assert_eq!(value, json!({"labels": {"b": "x"}, "tags": ["none", "t"]}));
/// ```
pub fn apply_schema_defaults(value: &mut Value, schema: &Value) {
    prune_non_nullable_nulls_without_defaults(value, schema);
    default(value, schema);
}

/// Replaces a `null` whose schema is not nullable with the schema's default
/// (or leaves it `null` when there is none).
fn default_null(v: &mut Value, schema: &Value) {
    if v.is_null()
        && !is_nullable(schema)
        && let Some(d) = default_of(schema)
    {
        *v = deep_copy(d);
    }
}

/// The schema of field `key` of an object: `properties[key]`, else the
/// `additionalProperties` schema.
fn field_schema<'s>(schema: &'s Value, key: &str) -> Option<&'s Value> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .and_then(|p| p.get(key))
        .or_else(|| additional_properties_schema(schema))
}

/// The `additionalProperties` schema; a boolean has none.
fn additional_properties_schema(schema: &Value) -> Option<&Value> {
    schema.get("additionalProperties").filter(|s| s.is_object())
}

/// The `items` schema; the (non-structural) array form has none.
fn items_schema(schema: &Value) -> Option<&Value> {
    schema.get("items").filter(|s| s.is_object())
}

/// Whether the schema says `nullable: true`.
fn is_nullable(schema: &Value) -> bool {
    schema.get("nullable") == Some(&Value::Bool(true))
}

/// The schema's default; `default: null` is no default.
/// Whether [`default`] can change anything: some schema that it follows
/// (`properties`, `additionalProperties`, `items`, from the root) has a
/// `default`. A schema without one need not be walked for every object.
///
/// ```
/// use api_core::schema::defaulting::has_defaults;
/// use serde_json::json;
///
/// assert!(!has_defaults(&json!({"type": "object", "properties": {"a": {"type": "string"}}})));
/// assert!(has_defaults(&json!({"type": "object", "properties": {
///     "a": {"type": "array", "items": {"type": "string", "default": "x"}}}})));
/// ```
pub fn has_defaults(schema: &Value) -> bool {
    let mut stack = vec![schema];
    while let Some(s) = stack.pop() {
        if default_of(s).is_some() {
            return true;
        }
        if let Some(properties) = s.get("properties").and_then(Value::as_object) {
            stack.extend(properties.values());
        }
        for key in ["additionalProperties", "items"] {
            if let Some(sub) = s.get(key).filter(|v| v.is_object()) {
                stack.push(sub);
            }
        }
    }
    false
}

fn default_of(schema: &Value) -> Option<&Value> {
    schema.get("default").filter(|d| !d.is_null())
}

/// Whether defaulting can have anything to do below `v`.
fn is_container(v: &Value) -> bool {
    matches!(v, Value::Object(_) | Value::Array(_))
}

/// A container being copied by [`deep_copy`].
enum Frame<'a> {
    /// The remaining elements and the copies made so far.
    Array(std::slice::Iter<'a, Value>, Vec<Value>),
    /// The remaining entries, the copies made so far, and the key of the
    /// entry being copied.
    Object(serde_json::map::Iter<'a>, Map<String, Value>, String),
}

/// A deep copy of `v`, made without recursion so that any nesting depth is
/// copied without exhausting the stack.
fn deep_copy(v: &Value) -> Value {
    let mut stack: Vec<Frame<'_>> = Vec::new();
    let mut next = Some(v);
    loop {
        // Start copying `next`: a scalar is done at once, a container is
        // pushed and filled below.
        let mut done = match next.take() {
            Some(Value::Array(a)) => {
                stack.push(Frame::Array(a.iter(), Vec::with_capacity(a.len())));
                None
            }
            Some(Value::Object(m)) => {
                stack.push(Frame::Object(m.iter(), Map::new(), String::new()));
                None
            }
            Some(scalar) => Some(scalar.clone()),
            None => None,
        };
        // Hand finished copies to their parents until a container has
        // another child to copy.
        while next.is_none() {
            let Some(mut frame) = stack.pop() else {
                return done.unwrap_or(Value::Null);
            };
            match &mut frame {
                Frame::Array(rest, out) => {
                    out.extend(done.take());
                    next = rest.next();
                }
                Frame::Object(rest, out, key) => {
                    if let Some(d) = done.take() {
                        out.insert(std::mem::take(key), d);
                    }
                    if let Some((k, child)) = rest.next() {
                        key.clone_from(k);
                        next = Some(child);
                    }
                }
            }
            if next.is_some() {
                stack.push(frame);
            } else {
                done = Some(match frame {
                    Frame::Array(_, out) => Value::Array(out),
                    Frame::Object(_, out, _) => Value::Object(out),
                });
            }
        }
    }
}
