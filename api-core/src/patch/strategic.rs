//! Strategic merge patch, driven by an OpenAPI v3 schema instead of Go
//! struct tags. The rules are in the documentation of the parent module.

use std::collections::{HashMap, HashSet};
use std::fmt::{self, Write as _};
use std::sync::LazyLock;

use serde_json::{Map, Value};

use super::json_kind;
use crate::status::Status;
use crate::validation::FieldPath;

/// How deeply [`strategic_merge`] descends into a patch (objects and lists
/// nested in each other) before it gives up with a 400 `BadRequest`. Patches
/// that come through [`apply`](super::apply) are limited to 128 levels by
/// the JSON parser already.
pub const MAX_DEPTH: usize = 256;

/// `$patch`: `replace`, `delete` or `merge` for the object or list it is in.
const DIRECTIVE_MARKER: &str = "$patch";
/// `$retainKeys`: the fields of the object to keep.
const RETAIN_KEYS: &str = "$retainKeys";
/// `$deleteFromPrimitiveList/<field>`: values to remove from a set.
const DELETE_FROM_PRIMITIVE_LIST: &str = "$deleteFromPrimitiveList";
/// `$setElementOrder/<field>`: the order of a set or list map.
const SET_ELEMENT_ORDER: &str = "$setElementOrder";

/// The parent of list items at the root, which cannot happen as the root of
/// a strategic merge patch is an object; it keeps the code total.
static ROOT: FieldPath<'static> = FieldPath::new("");

/// The patch metadata of ObjectMeta's Go type (`finalizers` has
/// `patchStrategy:"merge"`, `ownerReferences` also `patchMergeKey:"uid"`),
/// used for the `metadata` of a resource where its schema declares nothing
/// more, as in a CRD.
static OBJECT_META: LazyLock<Value> = LazyLock::new(|| {
    serde_json::json!({
        "finalizers": {
            "type": "array",
            "items": {"type": "string"},
            "x-kubernetes-list-type": "set"
        },
        "ownerReferences": {
            "type": "array",
            "items": {"type": "object", "properties": {"uid": {"type": "string"}}},
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["uid"]
        }
    })
});

/// Applies the strategic merge patch `patch` to `original` as the
/// OpenAPI v3 schema `schema` says (see the [module documentation](super)
/// for the rules and the directives) and returns the merged object.
///
/// `schema` is the schema of the whole object (a CRD version's
/// `schema.openAPIV3Schema`); `{}` or `null` merges objects and replaces
/// every list. Neither input is modified. The patch must be a JSON object;
/// a patch that does not fit the rules is a 400 `BadRequest` whose message
/// starts with the field path, and a schema that declares a list map
/// without keys is a 500 `InternalError`.
///
/// ```
/// use api_core::patch::strategic_merge;
/// use serde_json::json;
///
/// let schema = json!({"properties": {"spec": {"properties": {
///     "containers": {
///         "type": "array",
///         "x-kubernetes-list-type": "map",
///         "x-kubernetes-list-map-keys": ["name"],
///         "items": {"type": "object"}
///     },
///     "args": {"type": "array", "x-kubernetes-list-type": "set"}
/// }}}});
/// let pod = json!({"spec": {
///     "containers": [{"name": "nginx", "image": "nginx-1.0"}, {"name": "log-tailer", "image": "t"}],
///     "args": ["-v", "-x"]
/// }});
/// let patch = json!({"spec": {
///     "containers": [{"name": "nginx", "image": "nginx-1.1"}, {"$patch": "delete", "name": "log-tailer"}],
///     "$deleteFromPrimitiveList/args": ["-x"]
/// }});
/// assert_eq!(
///     strategic_merge(&pod, &patch, &schema).unwrap(),
///     json!({"spec": {"containers": [{"name": "nginx", "image": "nginx-1.1"}], "args": ["-v"]}})
/// );
/// ```
pub fn strategic_merge(original: &Value, patch: &Value, schema: &Value) -> Result<Value, Status> {
    let Value::Object(patch) = patch else {
        return Err(Status::bad_request(format!(
            "a strategic merge patch must be a JSON object, not {}",
            json_kind(patch)
        )));
    };
    let original = match original {
        Value::Object(map) => Some(map.clone()),
        _ => None,
    };
    merge_object(original, patch, Schema::root(schema), None, 0)
        .map(Value::Object)
        .map_err(|fail| *fail)
}

// ---------------------------------------------------------------------------
// The schema

/// The kind of a list, from `x-kubernetes-list-type`.
enum ListType<'s> {
    /// `atomic`, or no list type: replaced as a whole.
    Atomic,
    /// `set`: a union without duplicates.
    Set,
    /// `map`: items merged by these keys.
    Map(Vec<&'s str>),
}

/// A node of the OpenAPI schema, or nothing when the schema does not
/// describe that part of the object.
#[derive(Clone, Copy)]
struct Schema<'s> {
    node: Option<&'s Map<String, Value>>,
    /// Whether this is a whole resource (the root, or an embedded resource),
    /// whose `metadata` is ObjectMeta.
    resource: bool,
    /// Properties to use for the children the node does not declare.
    fallback: Option<&'s Map<String, Value>>,
}

impl<'s> Schema<'s> {
    fn root(schema: &'s Value) -> Self {
        Schema {
            node: schema.as_object(),
            resource: true,
            fallback: None,
        }
    }

    fn of(schema: Option<&'s Value>) -> Self {
        let node = schema.and_then(Value::as_object);
        Schema {
            node,
            resource: node
                .and_then(|n| n.get("x-kubernetes-embedded-resource"))
                .and_then(Value::as_bool)
                .unwrap_or(false),
            fallback: None,
        }
    }

    fn get(&self, key: &str) -> Option<&'s Value> {
        self.node?.get(key)
    }

    fn declared(&self, name: &str) -> Option<&'s Value> {
        self.get("properties")
            .and_then(Value::as_object)
            .and_then(|p| p.get(name))
            .or_else(|| self.fallback?.get(name))
    }

    /// Whether `name` is a property of the schema (so a key that starts
    /// with `$` is a field, not a directive).
    fn declares(&self, name: &str) -> bool {
        self.declared(name).is_some()
    }

    /// The schema of the field `name`: the property, else
    /// `additionalProperties`.
    fn property(&self, name: &str) -> Schema<'s> {
        let child = self
            .declared(name)
            .or_else(|| self.get("additionalProperties").filter(|v| v.is_object()));
        let mut schema = Schema::of(child);
        if self.resource && name == "metadata" {
            schema.fallback = OBJECT_META.as_object();
        }
        schema
    }

    /// The schema of the items of a list.
    fn items(&self) -> Schema<'s> {
        Schema::of(self.get("items"))
    }

    /// The `default` of the property `name`, which stands for a missing
    /// list-map key.
    fn default_of(&self, name: &str) -> Option<&'s Value> {
        self.declared(name)?.get("default")
    }

    fn is_atomic_map(&self) -> bool {
        self.get("x-kubernetes-map-type").and_then(Value::as_str) == Some("atomic")
    }

    fn list_type(&self, path: Option<&FieldPath<'_>>) -> Result<ListType<'s>, Fail> {
        match self.get("x-kubernetes-list-type").and_then(Value::as_str) {
            Some("set") => Ok(ListType::Set),
            Some("map") => {
                let keys: Vec<&str> = self
                    .get("x-kubernetes-list-map-keys")
                    .and_then(Value::as_array)
                    .map(|keys| keys.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                if keys.is_empty() {
                    return Err(Box::new(Status::internal_error(at(
                        path,
                        &"the schema declares x-kubernetes-list-type: map without x-kubernetes-list-map-keys",
                    ))));
                }
                Ok(ListType::Map(keys))
            }
            _ => Ok(ListType::Atomic),
        }
    }
}

// ---------------------------------------------------------------------------
// Paths, messages and keys

fn child<'a>(path: Option<&'a FieldPath<'a>>, name: &'a str) -> FieldPath<'a> {
    match path {
        Some(path) => path.child(name),
        None => FieldPath::new(name),
    }
}

fn item<'a>(path: Option<&'a FieldPath<'a>>, index: usize) -> FieldPath<'a> {
    path.unwrap_or(&ROOT).index(index)
}

/// `message`, after the field path when there is one.
fn at(path: Option<&FieldPath<'_>>, message: &dyn fmt::Display) -> String {
    match path {
        Some(path) => format!("{path}: {message}"),
        None => message.to_string(),
    }
}

/// Errors inside the merge are boxed: a `Status` is large, and every level
/// of a deep patch would otherwise carry room for one on the stack.
type Fail = Box<Status>;

#[cold]
#[inline(never)]
fn bad(path: Option<&FieldPath<'_>>, message: &dyn fmt::Display) -> Fail {
    Box::new(Status::bad_request(at(path, message)))
}

/// apimachinery's `ErrBadPatchType`.
fn unknown_patch_type(directive: &Value, container: &impl serde::Serialize) -> String {
    let container = serde_json::to_string(container).unwrap_or_default();
    format!("unknown patch type: {directive} in map: {container}")
}

fn too_deep(path: Option<&FieldPath<'_>>, depth: usize) -> Result<(), Fail> {
    if depth > MAX_DEPTH {
        return Err(bad(
            path,
            &format_args!("the patch is nested more than {MAX_DEPTH} levels deep"),
        ));
    }
    Ok(())
}

/// Writes a string that is equal for equal JSON values (numbers compared
/// by value, object keys in any order) and different otherwise, to find
/// set members and list-map keys through hashing.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push('n'),
        Value::Bool(b) => out.push(if *b { 't' } else { 'f' }),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                let _ = write!(out, "i{i};");
            } else if let Some(u) = n.as_u64() {
                let _ = write!(out, "i{u};");
            } else {
                let f = n.as_f64().unwrap_or(f64::NAN);
                if f.fract() == 0.0 && f.abs() < 9.0e18 {
                    let _ = write!(out, "i{};", f as i64);
                } else {
                    let _ = write!(out, "f{f};");
                }
            }
        }
        Value::String(s) => {
            let _ = write!(out, "s{}:{s}", s.len());
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by_key(|(k, _)| *k);
            out.push('{');
            for (k, v) in entries {
                let _ = write!(out, "{}:{k}", k.len());
                canonical(v, out);
            }
            out.push('}');
        }
    }
}

fn canonical_of(value: &Value) -> String {
    let mut out = String::new();
    canonical(value, &mut out);
    out
}

/// Why a list-map item has no key tuple.
enum KeyError<'k, 'v> {
    /// The key is missing (or `null`) and has no default.
    Missing(&'k str),
    /// The key is an object or a list: list-map keys are scalars.
    NotScalar(&'k str, &'v Value),
}

/// The key tuple of a list-map item (a key that is missing or `null`
/// counts as its schema default).
fn map_key<'k, 'v>(
    item: &'v Map<String, Value>,
    keys: &[&'k str],
    items: Schema<'v>,
) -> Result<String, KeyError<'k, 'v>> {
    let mut out = String::new();
    for &key in keys {
        let value = item
            .get(key)
            .filter(|v| !v.is_null())
            .or_else(|| items.default_of(key))
            .ok_or(KeyError::Missing(key))?;
        if value.is_object() || value.is_array() {
            return Err(KeyError::NotScalar(key, value));
        }
        canonical(value, &mut out);
        out.push('|');
    }
    Ok(out)
}

/// [`map_key`] of a patch item, with apimachinery's `ErrNoMergeKey` message
/// for a missing key.
fn patch_map_key(
    item: &Map<String, Value>,
    keys: &[&str],
    items: Schema<'_>,
    path: &FieldPath<'_>,
) -> Result<String, Fail> {
    map_key(item, keys, items).map_err(|error| match error {
        KeyError::Missing(key) => {
            let map = serde_json::to_string(item).unwrap_or_default();
            bad(
                Some(path),
                &format_args!("map: {map} does not contain declared merge key: {key}"),
            )
        }
        KeyError::NotScalar(key, value) => bad(
            Some(path),
            &format_args!(
                "the merge key {key:?} must be a string, a number or a boolean, not {}",
                json_kind(value)
            ),
        ),
    })
}

/// The `$patch` of a list item, when it is an object with one.
fn list_directive<'p>(value: &'p Value, items: Schema<'_>) -> Option<&'p Value> {
    if items.declares(DIRECTIVE_MARKER) {
        return None;
    }
    value.as_object()?.get(DIRECTIVE_MARKER)
}

// ---------------------------------------------------------------------------
// Merging
//
// The recursion is merge_object -> merge_value -> merge_list -> ... ->
// merge_object. Everything that is not needed across the recursive call
// (directives, error messages) lives in separate functions, and errors are
// boxed, so that each level of a deep patch costs little stack.

fn merge_value(
    original: Option<Value>,
    patch: &Value,
    schema: Schema<'_>,
    path: Option<&FieldPath<'_>>,
    depth: usize,
) -> Result<Value, Fail> {
    match patch {
        Value::Object(patch) => {
            let original = match original {
                Some(Value::Object(map)) if !schema.is_atomic_map() => Some(map),
                _ => None,
            };
            merge_object(original, patch, schema, path, depth).map(Value::Object)
        }
        Value::Array(patch) => {
            let original = match original {
                Some(Value::Array(items)) => Some(items),
                _ => None,
            };
            merge_list(original, patch, schema, path, depth).map(Value::Array)
        }
        scalar => Ok(scalar.clone()),
    }
}

/// Whether the key `key` of an object with the schema `schema` is a field
/// (else it is a directive).
fn is_field(schema: Schema<'_>, key: &str) -> bool {
    !key.starts_with('$') || schema.declares(key)
}

fn merge_object(
    original: Option<Map<String, Value>>,
    patch: &Map<String, Value>,
    schema: Schema<'_>,
    path: Option<&FieldPath<'_>>,
    depth: usize,
) -> Result<Map<String, Value>, Fail> {
    too_deep(path, depth)?;
    let Some((mut out, after)) = object_directives(original, patch, schema, path)? else {
        // `$patch: delete`: as apimachinery, the object is emptied.
        return Ok(Map::new());
    };
    for (key, value) in patch {
        if !is_field(schema, key) {
            continue;
        }
        if value.is_null() {
            out.remove(key);
            continue;
        }
        let field_path = child(path, key);
        let current = out.get_mut(key).map(std::mem::take);
        let merged = merge_value(
            current,
            value,
            schema.property(key),
            Some(&field_path),
            depth + 1,
        )?;
        out.insert(key.clone(), merged);
    }
    if !after.is_empty() {
        after.apply(&mut out);
    }
    Ok(out)
}

/// How to find the items of a set or list map, for `$setElementOrder`.
enum ItemKey<'s> {
    Set,
    Map(Vec<&'s str>, Schema<'s>),
}

impl ItemKey<'_> {
    fn of(&self, value: &Value) -> Option<String> {
        match self {
            ItemKey::Set => Some(canonical_of(value)),
            ItemKey::Map(keys, items) => map_key(value.as_object()?, keys, *items).ok(),
        }
    }
}

/// A `$setElementOrder/<field>` directive, checked and ready to apply.
struct ElementOrder<'p, 's> {
    field: &'p str,
    key: ItemKey<'s>,
    /// The place of each listed item in the directive.
    rank: HashMap<String, usize>,
    /// The place of each item in the object before the patch.
    server: HashMap<String, usize>,
}

/// The directives of an object patch that apply after its fields are
/// merged, checked: `$deleteFromPrimitiveList` (so that a value the patch
/// both adds and deletes ends up deleted, whatever the order, and applying
/// a patch twice changes nothing more), then `$setElementOrder`.
struct After<'p, 's> {
    /// The sets and the values (as [`canonical`] strings) to remove.
    deletions: Vec<(&'p str, HashSet<String>)>,
    orders: Vec<ElementOrder<'p, 's>>,
}

impl After<'_, '_> {
    fn is_empty(&self) -> bool {
        self.deletions.is_empty() && self.orders.is_empty()
    }

    #[inline(never)]
    fn apply(self, out: &mut Map<String, Value>) {
        for (field, doomed) in self.deletions {
            if let Some(Value::Array(items)) = out.get_mut(field) {
                items.retain(|item| !doomed.contains(&canonical_of(item)));
            }
        }
        for order in self.orders {
            if let Some(Value::Array(list)) = out.get_mut(order.field) {
                reorder(list, &order);
            }
        }
    }
}

/// An object with its `$patch` and `$retainKeys` applied, and the
/// directives still to apply; `None` for `$patch: delete`.
type Prepared<'p, 's> = Option<(Map<String, Value>, After<'p, 's>)>;

/// The object-level directives of `patch`: `$patch` (`None` for
/// `delete`) and `$retainKeys`, applied to `original`; and the others,
/// checked, to apply after the fields are merged.
#[inline(never)]
fn object_directives<'p, 's>(
    original: Option<Map<String, Value>>,
    patch: &'p Map<String, Value>,
    schema: Schema<'s>,
    path: Option<&FieldPath<'_>>,
) -> Result<Prepared<'p, 's>, Fail> {
    let mut original = original;
    if let Some(directive) = patch.get(DIRECTIVE_MARKER)
        && !is_field(schema, DIRECTIVE_MARKER)
    {
        match directive.as_str() {
            Some("replace") => original = None,
            Some("delete") => return Ok(None),
            Some("merge") => {}
            _ => return Err(bad(path, &unknown_patch_type(directive, patch))),
        }
    }
    let mut out = original.unwrap_or_default();

    let mut retain_keys = None;
    let mut deletions: Vec<(&str, &Value)> = Vec::new();
    let mut orders: Vec<(&str, &Value)> = Vec::new();
    for (key, value) in patch {
        if is_field(schema, key) || key == DIRECTIVE_MARKER {
            continue;
        }
        if key == RETAIN_KEYS {
            retain_keys = Some(value);
        } else if let Some(rest) = key.strip_prefix(DELETE_FROM_PRIMITIVE_LIST) {
            let Some(field) = rest.strip_prefix('/') else {
                return Err(bad(
                    path,
                    &format_args!(
                        "invalid patch format of primitive list: {key:?} is not {DELETE_FROM_PRIMITIVE_LIST}/<field>"
                    ),
                ));
            };
            deletions.push((field, value));
        } else if let Some(rest) = key.strip_prefix(SET_ELEMENT_ORDER) {
            let Some(field) = rest.strip_prefix('/') else {
                return Err(bad(
                    path,
                    &format_args!(
                        "invalid patch format of setElementOrder list: {key:?} is not {SET_ELEMENT_ORDER}/<field>"
                    ),
                ));
            };
            orders.push((field, value));
        } else {
            return Err(bad(
                path,
                &format_args!("unknown strategic merge patch directive {key:?}"),
            ));
        }
    }

    if let Some(retain_keys) = retain_keys {
        retain(&mut out, retain_keys, patch, schema, path)?;
    }
    let mut after = After {
        deletions: Vec::with_capacity(deletions.len()),
        orders: Vec::with_capacity(orders.len()),
    };
    for (field, values) in deletions {
        after
            .deletions
            .push((field, deletion_list(field, values, schema, path)?));
    }
    for (field, order) in orders {
        after
            .orders
            .push(element_order(&out, field, order, patch, schema, path)?);
    }
    Ok(Some((out, after)))
}

/// `$retainKeys`: checks the patch against the list, then clears the
/// fields of the object it does not list.
fn retain(
    out: &mut Map<String, Value>,
    retain_keys: &Value,
    patch: &Map<String, Value>,
    schema: Schema<'_>,
    path: Option<&FieldPath<'_>>,
) -> Result<(), Fail> {
    let Some(list) = retain_keys.as_array() else {
        return Err(bad(
            path,
            &format_args!(
                "invalid patch format of retainKeys: {RETAIN_KEYS} must be a list of field names, not {}",
                json_kind(retain_keys)
            ),
        ));
    };
    let keep: HashSet<&str> = list.iter().filter_map(Value::as_str).collect();
    for (key, value) in patch {
        if !value.is_null() && is_field(schema, key) && !keep.contains(key.as_str()) {
            return Err(bad(
                path,
                &format_args!(
                    "invalid patch format of retainKeys: the patch sets {key:?}, which {RETAIN_KEYS} does not list"
                ),
            ));
        }
    }
    out.retain(|key, _| keep.contains(key.as_str()));
    Ok(())
}

/// Checks `$deleteFromPrimitiveList/<field>`: a list of values to remove
/// from the set `<field>`.
fn deletion_list(
    field: &str,
    values: &Value,
    schema: Schema<'_>,
    path: Option<&FieldPath<'_>>,
) -> Result<HashSet<String>, Fail> {
    let field_path = child(path, field);
    let Some(values) = values.as_array() else {
        return Err(bad(
            Some(&field_path),
            &format_args!(
                "invalid patch format of primitive list: {DELETE_FROM_PRIMITIVE_LIST}/{field} must be a list, not {}",
                json_kind(values)
            ),
        ));
    };
    if !matches!(
        schema.property(field).list_type(Some(&field_path))?,
        ListType::Set
    ) {
        return Err(bad(
            Some(&field_path),
            &format_args!(
                "{DELETE_FROM_PRIMITIVE_LIST} needs a list of type set (x-kubernetes-list-type: set)"
            ),
        ));
    }
    Ok(values.iter().map(canonical_of).collect())
}

/// Checks `$setElementOrder/<field>` (a list of the set's values, or of
/// objects with the list map's keys) against the schema and the patch.
fn element_order<'p, 's>(
    out: &Map<String, Value>,
    field: &'p str,
    order: &Value,
    patch: &Map<String, Value>,
    schema: Schema<'s>,
    path: Option<&FieldPath<'_>>,
) -> Result<ElementOrder<'p, 's>, Fail> {
    let field_path = child(path, field);
    let field_schema = schema.property(field);
    let items = field_schema.items();
    let Some(order) = order.as_array() else {
        return Err(bad(
            Some(&field_path),
            &format_args!(
                "invalid patch format of setElementOrder list: {SET_ELEMENT_ORDER}/{field} must be a list, not {}",
                json_kind(order)
            ),
        ));
    };
    let key = match field_schema.list_type(Some(&field_path))? {
        ListType::Set => ItemKey::Set,
        ListType::Map(keys) => ItemKey::Map(keys, items),
        ListType::Atomic => {
            return Err(bad(
                Some(&field_path),
                &format_args!(
                    "{SET_ELEMENT_ORDER} needs a list of type set or map (x-kubernetes-list-type)"
                ),
            ));
        }
    };
    let mut rank = HashMap::with_capacity(order.len());
    for (i, entry) in order.iter().enumerate() {
        let entry_key = match &key {
            ItemKey::Set => canonical_of(entry),
            ItemKey::Map(keys, items) => {
                let Some(entry) = entry.as_object() else {
                    return Err(bad(
                        Some(&field_path),
                        &format_args!(
                            "invalid patch format of setElementOrder list: item {i} of {SET_ELEMENT_ORDER}/{field} must be an object, not {}",
                            json_kind(entry)
                        ),
                    ));
                };
                patch_map_key(entry, keys, *items, &field_path)?
            }
        };
        rank.entry(entry_key).or_insert(i);
    }
    // As apimachinery: the patch's own items must come in that order.
    if let Some(Value::Array(patch_list)) = patch.get(field) {
        let mut next = 0;
        for entry in patch_list {
            if list_directive(entry, items).is_some() {
                continue;
            }
            let Some(entry_key) = key.of(entry) else {
                continue; // the merge reports it
            };
            match rank.get(&entry_key) {
                Some(&r) if r >= next => next = r + 1,
                _ => {
                    return Err(bad(
                        Some(&field_path),
                        &format_args!(
                            "the order of the patch list does not match {SET_ELEMENT_ORDER}/{field}"
                        ),
                    ));
                }
            }
        }
    }
    let mut server = HashMap::new();
    if let Some(Value::Array(current)) = out.get(field) {
        for (i, entry) in current.iter().enumerate() {
            if let Some(entry_key) = key.of(entry) {
                server.entry(entry_key).or_insert(i);
            }
        }
    }
    Ok(ElementOrder {
        field,
        key,
        rank,
        server,
    })
}

/// apimachinery's `normalizeElementOrder` and `mergeSortedSlice`: the
/// items `$setElementOrder` lists, in its order, merged with the others
/// (in their order) by the places they had in the object before the patch.
fn reorder(list: &mut Vec<Value>, order: &ElementOrder<'_, '_>) {
    let mut listed: Vec<(usize, Option<usize>, Value)> = Vec::new();
    let mut unlisted: Vec<(Option<usize>, Value)> = Vec::new();
    for value in list.drain(..) {
        let entry_key = order.key.of(&value);
        let server = entry_key
            .as_ref()
            .and_then(|k| order.server.get(k))
            .copied();
        match entry_key.as_ref().and_then(|k| order.rank.get(k)) {
            Some(&rank) => listed.push((rank, server, value)),
            None => unlisted.push((server, value)),
        }
    }
    listed.sort_by_key(|(rank, _, _)| *rank);
    let mut listed = listed.into_iter().peekable();
    let mut unlisted = unlisted.into_iter().peekable();
    loop {
        let take_unlisted = match (unlisted.peek(), listed.peek()) {
            (Some((u, _)), Some((_, l, _))) => matches!((u, l), (Some(u), Some(l)) if u < l),
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        if take_unlisted {
            list.extend(unlisted.next().map(|(_, v)| v));
        } else {
            list.extend(listed.next().map(|(_, _, v)| v));
        }
    }
}

fn merge_list(
    original: Option<Vec<Value>>,
    patch: &[Value],
    schema: Schema<'_>,
    path: Option<&FieldPath<'_>>,
    depth: usize,
) -> Result<Vec<Value>, Fail> {
    too_deep(path, depth)?;
    let list_type = schema.list_type(path)?;
    let items = schema.items();
    let replace = list_directives(patch, items, &list_type, path)?;
    match list_type {
        _ if replace => fresh_items(patch, items, path, depth),
        ListType::Atomic => fresh_items(patch, items, path, depth),
        ListType::Set => {
            let mut seen = HashSet::new();
            let mut out = Vec::new();
            for value in original.into_iter().flatten() {
                if seen.insert(canonical_of(&value)) {
                    out.push(value);
                }
            }
            for value in fresh_items(patch, items, path, depth)? {
                if seen.insert(canonical_of(&value)) {
                    out.push(value);
                }
            }
            Ok(out)
        }
        ListType::Map(keys) => merge_list_map(
            original.unwrap_or_default(),
            patch,
            &keys,
            items,
            path,
            depth,
        ),
    }
}

/// Checks the `$patch` items of a list patch; whether one says `replace`.
#[inline(never)]
fn list_directives(
    patch: &[Value],
    items: Schema<'_>,
    list_type: &ListType<'_>,
    path: Option<&FieldPath<'_>>,
) -> Result<bool, Fail> {
    let is_map = matches!(list_type, ListType::Map(_));
    let mut replace = false;
    for (i, entry) in patch.iter().enumerate() {
        let Some(directive) = list_directive(entry, items) else {
            continue;
        };
        let alone = entry.as_object().is_some_and(|m| m.len() == 1);
        match directive.as_str() {
            Some("replace") => replace = true,
            Some("delete") if is_map => {}
            Some("merge") if is_map || alone => {}
            Some("delete") => {
                return Err(bad(
                    Some(&item(path, i)),
                    &format_args!(
                        "$patch: delete needs a list of type map (x-kubernetes-list-type: map); remove values from a set with {DELETE_FROM_PRIMITIVE_LIST}/<field>"
                    ),
                ));
            }
            Some("merge") => {
                return Err(bad(
                    Some(&item(path, i)),
                    &"$patch: merge with other fields needs a list of type map (x-kubernetes-list-type: map)",
                ));
            }
            _ => {
                return Err(bad(
                    Some(&item(path, i)),
                    &unknown_patch_type(directive, entry),
                ));
            }
        }
    }
    Ok(replace)
}

/// The items of a list patch that are not directives, each merged into
/// nothing: what replaces a list.
fn fresh_items(
    patch: &[Value],
    items: Schema<'_>,
    path: Option<&FieldPath<'_>>,
    depth: usize,
) -> Result<Vec<Value>, Fail> {
    let mut out = Vec::with_capacity(patch.len());
    for (i, entry) in patch.iter().enumerate() {
        if list_directive(entry, items).is_some() {
            continue;
        }
        out.push(merge_value(
            None,
            entry,
            items,
            Some(&item(path, i)),
            depth + 1,
        )?);
    }
    Ok(out)
}

fn merge_list_map(
    out: Vec<Value>,
    patch: &[Value],
    keys: &[&str],
    items: Schema<'_>,
    path: Option<&FieldPath<'_>>,
    depth: usize,
) -> Result<Vec<Value>, Fail> {
    // A slot is `None` once its item is deleted.
    let mut slots: Vec<Option<Value>> = out.into_iter().map(Some).collect();
    let (mut index, mut vacated) = list_map_index(&mut slots, patch, keys, items, path)?;
    for (i, entry) in patch.iter().enumerate() {
        let entry_path = item(path, i);
        let Some(map) = entry.as_object() else {
            return Err(not_an_object(&entry_path, entry));
        };
        match list_directive(entry, items).and_then(Value::as_str) {
            Some("delete") | Some("replace") => continue,
            Some("merge") if map.len() == 1 => continue,
            _ => {}
        }
        let entry_key = patch_map_key(map, keys, items, &entry_path)?;
        match index.get(&entry_key) {
            Some(&j) => {
                let current = match slots[j].take() {
                    Some(Value::Object(current)) if !items.is_atomic_map() => Some(current),
                    _ => None,
                };
                let merged = merge_object(current, map, items, Some(&entry_path), depth + 1)?;
                slots[j] = Some(Value::Object(merged));
            }
            None => {
                let added = merge_object(None, map, items, Some(&entry_path), depth + 1)?;
                // An item deleted and added again by the same patch is
                // replaced where it was; a new one goes at the end.
                let j = vacated.remove(&entry_key).unwrap_or_else(|| {
                    slots.push(None);
                    slots.len() - 1
                });
                slots[j] = Some(Value::Object(added));
                index.insert(entry_key, j);
            }
        }
    }
    Ok(slots.into_iter().flatten().collect())
}

/// Where the items of a list map are, by [`map_key`].
type KeyIndex = HashMap<String, usize>;

/// Deletes the items the patch deletes (first, as apimachinery does) and
/// indexes the others by key; also returns where the first deleted item
/// of each key was.
#[inline(never)]
fn list_map_index(
    slots: &mut [Option<Value>],
    patch: &[Value],
    keys: &[&str],
    items: Schema<'_>,
    path: Option<&FieldPath<'_>>,
) -> Result<(KeyIndex, KeyIndex), Fail> {
    let mut doomed = HashSet::new();
    for (i, entry) in patch.iter().enumerate() {
        if let Some(map) = entry.as_object()
            && list_directive(entry, items).and_then(Value::as_str) == Some("delete")
        {
            doomed.insert(patch_map_key(map, keys, items, &item(path, i))?);
        }
    }
    let mut index = HashMap::with_capacity(slots.len());
    let mut vacated = HashMap::new();
    for (i, slot) in slots.iter_mut().enumerate() {
        let Some(k) = slot
            .as_ref()
            .and_then(Value::as_object)
            .and_then(|m| map_key(m, keys, items).ok())
        else {
            continue;
        };
        if doomed.contains(&k) {
            *slot = None;
            vacated.entry(k).or_insert(i);
        } else {
            index.entry(k).or_insert(i);
        }
    }
    Ok((index, vacated))
}

#[cold]
#[inline(never)]
fn not_an_object(path: &FieldPath<'_>, entry: &Value) -> Fail {
    bad(
        Some(path),
        &format_args!(
            "expected an object in a list of type map, but received {}",
            json_kind(entry)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn canonical_compares_numbers_by_value_and_objects_by_content() {
        assert_eq!(canonical_of(&json!(1)), canonical_of(&json!(1.0)));
        assert_ne!(canonical_of(&json!(1)), canonical_of(&json!("1")));
        assert_ne!(canonical_of(&json!(1.5)), canonical_of(&json!(1)));
        assert_eq!(
            canonical_of(&json!({"a": 1, "b": [true, null]})),
            canonical_of(&json!({"b": [true, null], "a": 1}))
        );
        assert_ne!(
            canonical_of(&json!(["a", "b"])),
            canonical_of(&json!(["ab"]))
        );
        assert_ne!(
            canonical_of(&json!({"a:": ""})),
            canonical_of(&json!({"a": ":"}))
        );
    }

    #[test]
    fn deep_patches_are_refused_without_overflowing() {
        let handle = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(|| {
                let mut patch = json!(1);
                for _ in 0..(MAX_DEPTH + 10) {
                    patch = json!({ "a": patch });
                }
                let err = strategic_merge(&json!({}), &patch, &json!({})).unwrap_err();
                assert_eq!(err.code, 400);
                assert!(err.message.contains("nested more than"), "{}", err.message);

                let mut patch = json!(1);
                for _ in 0..MAX_DEPTH - 1 {
                    patch = json!({ "a": patch });
                }
                strategic_merge(&json!({}), &patch, &json!({})).unwrap();
            })
            .unwrap();
        handle.join().unwrap();
    }
}
