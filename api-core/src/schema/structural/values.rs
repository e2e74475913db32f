//! Values against schemas: pruning (`pruning/algorithm.go`), a validator
//! of values against a schema's basic keywords (kube-openapi's validator,
//! as `ValidateCustomResource` runs it), and `ValidateDefaults`.

use serde_json::{Map, Value};

use crate::go_regex;
use crate::meta::ObjectMeta;
use crate::validation::names::{is_dns1035_label, validate_path_segment_name};
use crate::validation::object_meta::validate_object_meta;
use crate::validation::{ErrorList, FieldError, FieldPath};

use super::node::{Node, SchemaOrBool};
use super::{MAX_VALUE_DEPTH, bounded, depth_exceeds, json_equal};

const META_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Prune,
    Skip,
}

/// Prunes `value` against `schema` as `pruning.Prune` does, without
/// recursion (the value may be nested arbitrarily deep).
pub(super) fn prune_value(value: &mut Value, schema: Option<&Node<'_>>, is_resource_root: bool) {
    let mut stack: Vec<(&mut Value, Option<&Node<'_>>, bool, Mode)> = Vec::new();
    let first_mode = match schema {
        Some(s) if s.preserves_unknown() => Mode::Skip,
        _ => Mode::Prune,
    };
    stack.push((value, schema, is_resource_root, first_mode));
    while let Some((x, s, root, mode)) = stack.pop() {
        if s.is_some_and(|s| s.truncated) {
            // Beyond the nesting limit the schema is unknown: keep the value.
            continue;
        }
        let embedded = root || s.is_some_and(|s| s.embedded_resource);
        let mode_for = |s: Option<&Node<'_>>| match s {
            Some(s) if s.preserves_unknown() => Mode::Skip,
            _ => Mode::Prune,
        };
        match (mode, x) {
            (Mode::Prune, Value::Object(m)) => {
                let Some(sch) = s else {
                    if embedded {
                        m.retain(|k, _| META_FIELDS.contains(&k.as_str()));
                    } else {
                        m.clear();
                    }
                    continue;
                };
                m.retain(|k, _| {
                    (embedded && META_FIELDS.contains(&k.as_str()))
                        || sch.property(k).is_some()
                        || sch.additional_properties.is_some()
                });
                for (k, v) in m {
                    if embedded && META_FIELDS.contains(&k.as_str()) {
                        continue;
                    }
                    let sub = match sch.property(k) {
                        Some(p) => Some(p),
                        None => sch
                            .additional_properties
                            .as_ref()
                            .and_then(SchemaOrBool::schema),
                    };
                    stack.push((v, sub, false, mode_for(sub)));
                }
            }
            (Mode::Prune, Value::Array(a)) => {
                let items = s.and_then(Node::items_schema);
                for v in a {
                    stack.push((v, items, false, mode_for(items)));
                }
            }
            (Mode::Skip, Value::Object(m)) => {
                let Some(sch) = s else { continue };
                for (k, v) in m {
                    if embedded && META_FIELDS.contains(&k.as_str()) {
                        continue;
                    }
                    if let Some(p) = sch.property(k) {
                        stack.push((v, Some(p), false, mode_for(Some(p))));
                    } else if let Some(ap) = &sch.additional_properties {
                        let sub = ap.schema();
                        stack.push((v, sub, false, mode_for(sub)));
                    }
                }
            }
            (Mode::Skip, Value::Array(a)) => {
                let Some(items) = s.and_then(Node::items_schema) else {
                    continue;
                };
                for v in a {
                    stack.push((v, Some(items), false, Mode::Skip));
                }
            }
            _ => {}
        }
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if is_integral(n) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn is_integral(n: &serde_json::Number) -> bool {
    n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
}

fn type_matches(v: &Value, t: &str) -> bool {
    match t {
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "integer" => matches!(v, Value::Number(n) if is_integral(n)),
        "number" => v.is_number(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => true,
    }
}

fn fmt_number(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        format!("{f}")
    }
}

/// The subject of a kube-openapi message: `spec.size in body`.
fn subject(name: &str) -> String {
    if name.is_empty() {
        "in body".to_string()
    } else {
        format!("{name} in body")
    }
}

fn join(name: &str, key: &str) -> String {
    if name.is_empty() {
        key.to_string()
    } else {
        format!("{name}.{key}")
    }
}

/// Validates `v` against `s` and the schemas below it, reporting errors
/// as `ValidateCustomResource` does: at `base` plus the dotted `name`.
pub(super) fn validate_value(
    v: &Value,
    s: &Node<'_>,
    name: &str,
    base: &FieldPath<'_>,
    errs: &mut ErrorList,
) {
    validate_ratcheted(v, None, s, name, base, errs);
}

/// [`validate_value`] of an update, with CRD validation ratcheting
/// (apiextensions-apiserver's `RatchetingSchemaValidator`, GA in
/// Kubernetes 1.33): `old` is the value the old object holds where `v`
/// is, when one correlates (an object's property of the same name; an
/// item of a `map` list with the same keys; of a list without a
/// `x-kubernetes-list-type`, the item at the same index; nothing for
/// `set` and `atomic` lists, or below `allOf`/`anyOf`/`oneOf`/`not`).
/// The errors a value and the values below it raise are dropped when it
/// equals its old value: an update may keep what a tightened schema no
/// longer allows, and is refused only for what it changes.
pub(super) fn validate_ratcheted(
    v: &Value,
    old: Option<&Value>,
    s: &Node<'_>,
    name: &str,
    base: &FieldPath<'_>,
    errs: &mut ErrorList,
) {
    if s.truncated {
        return;
    }
    let before = errs.len();
    // Only the recursion lives here (small frames for deep values); the
    // checks of one value are in helpers.
    let further = value_checks(v, s, name, base, errs);
    if further == Further::All {
        match v {
            Value::Array(a) => {
                if let Some(items) = s.items_schema() {
                    for (i, x) in a.iter().enumerate() {
                        // kube-openapi's validator writes list items `name[i]`.
                        let (item_name, item_base) = if name.is_empty() {
                            (String::new(), base.index(i))
                        } else {
                            (format!("{name}[{i}]"), *base)
                        };
                        // The old item is looked for only when this one has
                        // errors (a `map` list's lookup is a search).
                        let mark = errs.len();
                        validate_ratcheted(x, None, items, &item_name, &item_base, errs);
                        if errs.len() > mark
                            && let Some(o) = old.and_then(|o| correlated_item(o, a, i, s))
                        {
                            errs.truncate(mark);
                            validate_ratcheted(x, Some(o), items, &item_name, &item_base, errs);
                        }
                    }
                }
            }
            Value::Object(m) => {
                for (k, x) in m {
                    let child = join(name, k);
                    let o = old.and_then(|o| o.get(k));
                    if let Some(p) = s.property(k) {
                        validate_ratcheted(x, o, p, &child, base, errs);
                    } else if let Some(SchemaOrBool::Schema(ap)) = &s.additional_properties {
                        validate_ratcheted(x, o, ap, &child, base, errs);
                    }
                }
            }
            _ => {}
        }
    }
    if further != Further::Nothing {
        junctors(v, s, name, base, errs);
    }
    if errs.len() > before && old.is_some_and(|o| json_equal(o, v)) {
        errs.truncate(before);
    }
}

/// The item of the old list `old` that correlates with item `i` of the
/// new list `new` under the list schema `s` (see [`validate_ratcheted`]).
fn correlated_item<'o>(old: &'o Value, new: &[Value], i: usize, s: &Node<'_>) -> Option<&'o Value> {
    let old = old.as_array()?;
    match s.list_type {
        Some("map") => {
            let keys = s.list_map_keys.as_deref()?;
            let item = s.items_schema();
            // A missing key counts as its default, as for the list's
            // uniqueness.
            let key = |x: &Value, k: &str| -> Option<Value> {
                x.get(k).cloned().or_else(|| {
                    item.and_then(|n| n.property(k))
                        .and_then(|n| n.default)
                        .cloned()
                })
            };
            let want: Vec<Option<Value>> = keys.iter().map(|k| key(&new[i], k)).collect();
            old.iter().find(|o| {
                o.is_object()
                    && keys.iter().zip(&want).all(|(k, w)| match (key(o, k), w) {
                        (Some(a), Some(b)) => json_equal(&a, b),
                        (None, None) => true,
                        _ => false,
                    })
            })
        }
        Some(_) => None,
        None => old.get(i),
    }
}

/// What is left to check of a value after [`value_checks`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Further {
    /// Its items or properties, and the junctors.
    All,
    /// Only the junctors (`allOf`, `anyOf`, `oneOf`, `not`): the value has
    /// the wrong type, and kube-openapi's validator still runs those.
    Junctors,
    /// Nothing: `null` where it is allowed.
    Nothing,
}

/// The checks of one value against one schema, without its items,
/// properties and junctors; says which of those are to be checked.
#[inline(never)]
fn value_checks(
    v: &Value,
    s: &Node<'_>,
    name: &str,
    base: &FieldPath<'_>,
    errs: &mut ErrorList,
) -> Further {
    let named;
    let path = if name.is_empty() {
        base
    } else {
        named = base.child(name);
        &named
    };
    if v.is_null() && s.nullable {
        return Further::Nothing;
    }
    // `x-kubernetes-int-or-string` (which has no `type` of its own) is
    // validated as of the types `integer` and `string`, as apiextensions
    // converts it for kube-openapi's validator.
    let int_or_string = s.int_or_string && s.type_.is_none_or(str::is_empty);
    let wanted = if int_or_string {
        Some("integer,string")
    } else {
        s.type_.filter(|t| !t.is_empty())
    };
    let mistyped = wanted.filter(|t| {
        if int_or_string {
            !(type_matches(v, "integer") || type_matches(v, "string"))
        } else {
            !type_matches(v, t)
        }
    });
    if let Some(t) = mistyped {
        // The apiserver shows the value's type as the value
        // (`Invalid value: "string": ... must be of type integer: "string"`).
        errs.push(FieldError::type_invalid(
            path,
            type_name(v),
            format!(
                "{} must be of type {t}: \"{}\"",
                subject(name),
                type_name(v)
            ),
        ));
    }
    // kube-openapi's validator checks `enum` whatever the type (both
    // errors are reported for a wrongly typed value); the checks that
    // need the type do not run on a mismatch.
    if let Some(values) = s.enum_
        && !values.is_empty()
        && !values.iter().any(|e| json_equal(e, v))
    {
        let supported: Vec<String> = values
            .iter()
            .map(|e| match e {
                Value::String(s) => s.clone(),
                other => bounded(other).to_string(),
            })
            .collect();
        errs.push(FieldError::not_supported(path, bounded(v), &supported));
    }
    if mistyped.is_some() {
        return Further::Junctors;
    }
    match v {
        Value::String(st) => {
            let len = st.chars().count() as i64;
            if let Some(max) = s.max_length
                && len > max
            {
                // Counted in characters, worded as `TooLong` (bytes), as
                // the apiserver reports a schema's `maxLength`.
                errs.push(FieldError::too_long(path, max));
            }
            if let Some(min) = s.min_length
                && len < min
            {
                errs.push(FieldError::invalid(
                    path,
                    st.as_str(),
                    format!("{} should be at least {min} chars long", subject(name)),
                ));
            }
            if let Some(pattern) = s.pattern.filter(|p| !p.is_empty()) {
                match go_regex::compile(pattern) {
                    Ok(re) if !re.is_match(st) => errs.push(FieldError::invalid(
                        path,
                        st.as_str(),
                        format!("{} should match '{pattern}'", subject(name)),
                    )),
                    // A CRD cannot carry such a pattern (its validation
                    // compiles them), but a schema given here may.
                    Err(go_regex::Error::Invalid(e)) => errs.push(FieldError::invalid(
                        path,
                        st.as_str(),
                        format!(
                            "{} should match '{pattern}, but pattern is invalid: {e}'",
                            subject(name)
                        ),
                    )),
                    _ => {}
                }
            }
        }
        Value::Number(n) => {
            let f = n.as_f64().unwrap_or(0.0);
            if let Some(m) = s.multiple_of.filter(|m| *m > 0.0) {
                let q = f / m;
                if (q - q.round()).abs() > 1e-9 {
                    errs.push(FieldError::invalid(
                        path,
                        v.clone(),
                        format!(
                            "{} should be a multiple of {}",
                            subject(name),
                            fmt_number(m)
                        ),
                    ));
                }
            }
            if let Some(max) = s.maximum
                && ((s.exclusive_maximum && f >= max) || f > max)
            {
                let rel = if s.exclusive_maximum {
                    "less than"
                } else {
                    "less than or equal to"
                };
                errs.push(FieldError::invalid(
                    path,
                    v.clone(),
                    format!("{} should be {rel} {}", subject(name), fmt_number(max)),
                ));
            }
            if let Some(min) = s.minimum
                && ((s.exclusive_minimum && f <= min) || f < min)
            {
                let rel = if s.exclusive_minimum {
                    "greater than"
                } else {
                    "greater than or equal to"
                };
                errs.push(FieldError::invalid(
                    path,
                    v.clone(),
                    format!("{} should be {rel} {}", subject(name), fmt_number(min)),
                ));
            }
        }
        Value::Array(a) => {
            let len = a.len() as i64;
            if let Some(max) = s.max_items
                && len > max
            {
                errs.push(FieldError::too_many(path, len, max));
            }
            if let Some(min) = s.min_items
                && len < min
            {
                errs.push(FieldError::invalid(
                    path,
                    bounded(v),
                    format!("{} should have at least {min} items", subject(name)),
                ));
            }
            if s.unique_items
                && a.iter()
                    .enumerate()
                    .any(|(i, x)| a[..i].iter().any(|y| json_equal(x, y)))
            {
                errs.push(FieldError::invalid(
                    path,
                    bounded(v),
                    format!("{} shouldn't contain duplicates", subject(name)),
                ));
            }
        }
        Value::Object(m) => validate_object(m, v, s, name, path, errs),
        _ => {}
    }
    Further::All
}

/// `ValidateListSetsAndMaps` (apiextensions-apiserver `schema/listtype`),
/// which the apiserver runs on every custom resource after its schema
/// validation (so its errors come after the schema's): a `set` holds no
/// value twice, a `map` no key twice (a missing key counts as its
/// default), each a `Duplicate value` at the later item. Walks the
/// properties, additional properties and items the schema describes.
pub(super) fn validate_list_types(
    v: &Value,
    s: &Node<'_>,
    path: &FieldPath<'_>,
    errs: &mut ErrorList,
) {
    // The walk follows the schema, so it is as deep as the schema is.
    if s.truncated {
        return;
    }
    match v {
        Value::Array(a) => {
            list_sets_and_maps(a, s, path, errs);
            if let Some(item) = s.items_schema() {
                for (i, x) in a.iter().enumerate() {
                    validate_list_types(x, item, &path.index(i), errs);
                }
            }
        }
        Value::Object(m) => {
            for (k, x) in m {
                let child = s
                    .property(k)
                    .or_else(|| s.additional_properties.as_ref().and_then(|a| a.schema()));
                if let Some(child) = child {
                    validate_list_types(x, child, &path.child(k), errs);
                }
            }
        }
        _ => {}
    }
}

#[inline(never)]
fn list_sets_and_maps(a: &[Value], s: &Node<'_>, path: &FieldPath<'_>, errs: &mut ErrorList) {
    match (s.list_type, &s.list_map_keys) {
        (Some("set"), _) => crate::checks::list_set(a, path, errs),
        (Some("map"), Some(keys)) => {
            let item = s.items_schema();
            if let Some(i) = a.iter().position(|x| !x.is_object() && !x.is_null()) {
                errs.push(FieldError::invalid(
                    &path.index(i),
                    bounded(&a[i]),
                    "must be an object for an array of list-type map",
                ));
                return;
            }
            let key = |i: usize, k: &str| {
                a[i].get(k).cloned().or_else(|| {
                    item.and_then(|n| n.property(k))
                        .and_then(|n| n.default)
                        .cloned()
                })
            };
            crate::checks::list_map_by(a.len(), keys, &key, path, errs);
        }
        _ => {}
    }
}

#[inline(never)]
fn validate_object(
    m: &Map<String, Value>,
    v: &Value,
    s: &Node<'_>,
    name: &str,
    path: &FieldPath<'_>,
    errs: &mut ErrorList,
) {
    let len = m.len() as i64;
    if let Some(max) = s.max_properties
        && len > max
    {
        errs.push(FieldError::too_many(path, len, max));
    }
    if let Some(min) = s.min_properties
        && len < min
    {
        errs.push(FieldError::invalid(
            path,
            bounded(v),
            format!("{} should have at least {min} properties", subject(name)),
        ));
    }
    for r in s.required.as_deref().unwrap_or(&[]) {
        if !m.contains_key(*r) {
            errs.push(FieldError::required(&path.child(r), ""));
        }
    }
    if let Some(SchemaOrBool::Bool(false)) = &s.additional_properties {
        for k in m.keys() {
            if s.property(k).is_none() {
                errs.push(FieldError::invalid(
                    path,
                    "",
                    format!("{} is a forbidden property", subject(&join(name, k))),
                ));
            }
        }
    }
}

/// The errors `v` has against the schema `j` of a junctor.
fn branch_errors(v: &Value, j: &Node<'_>, name: &str, base: &FieldPath<'_>) -> ErrorList {
    let mut e = ErrorList::new();
    validate_value(v, j, name, base, &mut e);
    e
}

/// Of the failed branches of an `anyOf` or `oneOf`, the errors of the one
/// closest to passing (the fewest errors; the first of equals), which
/// kube-openapi's validator reports with the junctor's own error (it
/// picks the branch with the most passed checks).
fn closest(failures: Vec<ErrorList>) -> Option<ErrorList> {
    // `min_by_key` keeps the first of equals.
    failures.into_iter().min_by_key(ErrorList::len)
}

/// `allOf`, `anyOf`, `oneOf` and `not` as kube-openapi's validator checks
/// them, with its messages: the junctor's error names the value quoted
/// (`"spec.port" must validate at least one schema (anyOf)`) and stands at
/// the path validation started from, which for a whole object is Go's nil
/// path, written `<nil>`; the errors of the failed branches come with it
/// (every `allOf` branch's, the closest `anyOf` or `oneOf` branch's).
#[inline(never)]
fn junctors(v: &Value, s: &Node<'_>, name: &str, base: &FieldPath<'_>, errs: &mut ErrorList) {
    if s.all_of.is_empty() && s.any_of.is_empty() && s.one_of.is_empty() && s.not.is_none() {
        return;
    }
    let nil = FieldPath::new("<nil>");
    let path = if base.is_empty_root() { &nil } else { base };
    let who = crate::validation::go_quote(name);
    if !s.all_of.is_empty() {
        let mut valid = 0;
        for j in &s.all_of {
            let e = branch_errors(v, j, name, base);
            if e.is_empty() {
                valid += 1;
            }
            errs.extend(e);
        }
        if valid != s.all_of.len() {
            let extra = if valid == 0 { ". None validated" } else { "" };
            errs.push(FieldError::invalid(
                path,
                "",
                format!("{who} must validate all the schemas (allOf){extra}"),
            ));
        }
    }
    if !s.any_of.is_empty() {
        let mut failures = Vec::new();
        for j in &s.any_of {
            let e = branch_errors(v, j, name, base);
            if e.is_empty() {
                failures.clear();
                break;
            }
            failures.push(e);
        }
        if let Some(best) = closest(failures) {
            errs.push(FieldError::invalid(
                path,
                "",
                format!("{who} must validate at least one schema (anyOf)"),
            ));
            errs.extend(best);
        }
    }
    if !s.one_of.is_empty() {
        let mut failures = Vec::new();
        let mut valid = 0;
        for j in &s.one_of {
            let e = branch_errors(v, j, name, base);
            if e.is_empty() {
                valid += 1;
            } else if valid == 0 {
                failures.push(e);
            }
        }
        if valid != 1 {
            let extra = if valid == 0 { ". Found none valid" } else { "" };
            errs.push(FieldError::invalid(
                path,
                "",
                format!("{who} must validate one and only one schema (oneOf){extra}"),
            ));
            if valid == 0
                && let Some(best) = closest(failures)
            {
                errs.extend(best);
            }
        }
    }
    if let Some(not) = &s.not
        && branch_errors(v, not, name, base).is_empty()
    {
        errs.push(FieldError::invalid(
            path,
            "",
            format!("{who} must not validate the schema (not)"),
        ));
    }
}

/// `ValidateDefaults`: every default must be pruned and valid, with valid
/// TypeMeta and ObjectMeta wherever it holds or touches an embedded
/// resource (apiextensions-apiserver `schema/defaulting/validation.go`).
pub(super) fn validate_defaults(root: &Node<'_>, path: &FieldPath<'_>, errs: &mut ErrorList) {
    defaults(root, root, path, true, None, errs);
}

/// Where a node lies inside the TypeMeta/ObjectMeta of a resource: the
/// meta field, and the steps below it (a property, or `None` for a list
/// item).
#[derive(Clone)]
struct MetaPos<'a> {
    field: &'a str,
    below: Vec<Option<&'a str>>,
}

/// Walks the schema for defaults. `resource` is the nearest embedded
/// resource at or above `s` (the root counts as one): a default inside its
/// TypeMeta/ObjectMeta is checked in an object of that resource.
fn defaults<'n, 'a>(
    s: &'n Node<'a>,
    resource: &'n Node<'a>,
    path: &FieldPath<'_>,
    is_root: bool,
    meta: Option<MetaPos<'a>>,
    errs: &mut ErrorList,
) {
    if s.truncated {
        return;
    }
    let embedded = is_root || s.embedded_resource;
    let (meta, resource) = if embedded {
        (None, s)
    } else {
        (meta, resource)
    };
    if let Some(d) = s.default {
        check_default(s, d, path, embedded, resource, meta.as_ref(), errs);
    }
    // Defaults below additionalProperties are forbidden elsewhere: not
    // followed, as upstream does not.
    if let Some(items) = s.items_schema() {
        let pos = meta.clone().map(|mut p| {
            p.below.push(None);
            p
        });
        defaults(items, resource, &path.child("items"), false, pos, errs);
    }
    let props = path.child("properties");
    for (k, p) in &s.properties {
        let pos = match &meta {
            Some(m) => {
                let mut m = m.clone();
                m.below.push(Some(k));
                Some(m)
            }
            None if embedded && META_FIELDS.contains(k) => Some(MetaPos {
                field: k,
                below: Vec::new(),
            }),
            None => None,
        };
        defaults(p, resource, &props.key(k), false, pos, errs);
    }
}

/// One node's default. Inside TypeMeta/ObjectMeta: put into an otherwise
/// empty object of the resource, which must have valid metadata (one
/// `Invalid` at the default saying why), then valid against the node.
/// Elsewhere: pruned, then the types of the TypeMeta/ObjectMeta of every
/// embedded resource in it (only the first wrongly typed field is
/// reported), then their values, then valid against the node; each step
/// only when the one before passed.
#[inline(never)]
fn check_default(
    s: &Node<'_>,
    d: &Value,
    path: &FieldPath<'_>,
    embedded: bool,
    resource: &Node<'_>,
    meta: Option<&MetaPos<'_>>,
    errs: &mut ErrorList,
) {
    let dp = path.child("default");
    if depth_exceeds(d, MAX_VALUE_DEPTH) {
        errs.push(FieldError::invalid(
            &dp,
            bounded(d),
            format!("must not be nested more than {MAX_VALUE_DEPTH} levels deep"),
        ));
        return;
    }
    if let Some(pos) = meta {
        let obj = surrounding_object(pos, d);
        // Errors inside the test object are rendered without a root, as
        // upstream's nil path renders them (`metadata.labels: ...`).
        let bare = FieldPath::new("");
        let problem = match coerce_meta(&obj, resource, &bare, true) {
            Some(e) => Some(e.to_string()),
            None => {
                let mut meta_errs = ErrorList::new();
                validate_meta(&obj, resource, &bare, true, &mut meta_errs);
                meta_errs.aggregate_message()
            }
        };
        match problem {
            Some(p) => errs.push(FieldError::invalid(
                &dp,
                d.clone(),
                format!("must result in valid metadata: {p}"),
            )),
            None => validate_value(d, s, "", &dp, errs),
        }
        return;
    }
    let mut pruned = d.clone();
    prune_value(&mut pruned, Some(s), embedded);
    if pruned != *d {
        errs.push(FieldError::invalid(
            &dp,
            d.clone(),
            "must not have unknown fields",
        ));
    }
    if let Some(e) = coerce_meta(d, s, &dp, embedded) {
        errs.push(e);
        return;
    }
    let before = errs.len();
    validate_meta(d, s, &dp, embedded, errs);
    if errs.len() == before {
        validate_value(d, s, "", &dp, errs);
    }
}

/// The object a default inside TypeMeta/ObjectMeta is checked in: the
/// default at its place, and `apiVersion: validation/v1`, `kind:
/// Validation` where the default does not give them (upstream's
/// `NewRootObjectFunc().WithTypeMeta(...)` with `Child`/`Index`).
fn surrounding_object(pos: &MetaPos<'_>, d: &Value) -> Value {
    let mut v = d.clone();
    for step in pos.below.iter().rev() {
        v = match step {
            None => Value::Array(vec![v]),
            Some(k) => {
                let mut m = Map::new();
                m.insert((*k).to_string(), v);
                Value::Object(m)
            }
        };
    }
    let mut obj = Map::new();
    obj.insert(pos.field.to_string(), v);
    obj.entry("apiVersion")
        .or_insert_with(|| Value::String("validation/v1".to_string()));
    obj.entry("kind")
        .or_insert_with(|| Value::String("Validation".to_string()));
    Value::Object(obj)
}

/// `objectmeta.Coerce` without dropping fields: walks `x` along `s` and
/// returns the first wrongly typed `apiVersion`, `kind` or `metadata` of
/// an embedded resource (`resource_root`: `x` itself is one). The walk
/// follows the schema, so it is as deep as the schema at most.
fn coerce_meta(
    x: &Value,
    s: &Node<'_>,
    path: &FieldPath<'_>,
    resource_root: bool,
) -> Option<FieldError> {
    if s.truncated {
        return None;
    }
    match x {
        Value::Object(m) => {
            let embedded = resource_root || s.embedded_resource;
            for (k, v) in m {
                if embedded {
                    match k.as_str() {
                        "apiVersion" | "kind" if !v.is_string() => {
                            return Some(FieldError::invalid(
                                &path.child(k),
                                bounded(v),
                                "must be a string",
                            ));
                        }
                        "metadata" => {
                            if let Err(e) = object_meta_of(v) {
                                return Some(FieldError::invalid(
                                    &path.child("metadata"),
                                    bounded(v),
                                    e,
                                ));
                            }
                        }
                        _ => {}
                    }
                }
                let e = if let Some(p) = s.property(k) {
                    coerce_meta(v, p, &path.child(k), false)
                } else if let Some(ap) = s.additional_schema() {
                    coerce_meta(v, ap, &path.key(k), false)
                } else {
                    None
                };
                if e.is_some() {
                    return e;
                }
            }
            None
        }
        Value::Array(a) => {
            let items = s.items_schema()?;
            a.iter()
                .enumerate()
                .find_map(|(i, v)| coerce_meta(v, items, &path.index(i), false))
        }
        _ => None,
    }
}

/// Whether `s` or a schema below it (properties, `additionalProperties`,
/// items; junctors hold no structure) is an `x-kubernetes-embedded-resource`.
pub(super) fn has_embedded_resource(s: &Node<'_>) -> bool {
    s.embedded_resource
        || s.properties.iter().any(|(_, p)| has_embedded_resource(p))
        || s.additional_schema().is_some_and(has_embedded_resource)
        || s.items_schema().is_some_and(has_embedded_resource)
}

/// `objectmeta.Coerce` as the apiserver's decoders run it: the `metadata`
/// of every embedded resource in `x` (`resource_root`: `x` itself is one)
/// is read as ObjectMeta and written back as Go writes it, which drops its
/// unknown fields (and its empty ones). A `metadata` that does not read as
/// ObjectMeta is left as it is, for validation to report. The walk follows
/// the schema, so it is as deep as the schema at most.
pub(super) fn coerce_embedded_meta(x: &mut Value, s: &Node<'_>, resource_root: bool) {
    if s.truncated {
        return;
    }
    match x {
        Value::Object(m) => {
            let embedded = resource_root || s.embedded_resource;
            if embedded
                && let Some(meta) = m.get_mut("metadata")
                && meta.is_object()
                && let Ok(typed) = object_meta_of(meta)
                && let Ok(written) = serde_json::to_value(&typed)
            {
                *meta = written;
            }
            for (k, v) in m.iter_mut() {
                if embedded && k == "metadata" {
                    continue;
                }
                if let Some(p) = s.property(k) {
                    coerce_embedded_meta(v, p, false);
                } else if let Some(ap) = s.additional_schema() {
                    coerce_embedded_meta(v, ap, false);
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = s.items_schema() {
                for v in a {
                    coerce_embedded_meta(v, items, false);
                }
            }
        }
        _ => {}
    }
}

/// `objectmeta.Validate`: walks `x` along `s` and validates the TypeMeta
/// and ObjectMeta of every embedded resource in it (`resource_root`: `x`
/// itself is one). Expects [`coerce_meta`] to have passed.
pub(super) fn validate_meta(
    x: &Value,
    s: &Node<'_>,
    path: &FieldPath<'_>,
    resource_root: bool,
    errs: &mut ErrorList,
) {
    if s.truncated {
        return;
    }
    match x {
        Value::Object(m) => {
            if resource_root || s.embedded_resource {
                embedded_resource(m, path, errs);
            }
            for (k, v) in m {
                if let Some(p) = s.property(k) {
                    validate_meta(v, p, &path.child(k), false, errs);
                } else if let Some(ap) = s.additional_schema() {
                    validate_meta(v, ap, &path.key(k), false, errs);
                }
            }
        }
        Value::Array(a) => {
            if let Some(items) = s.items_schema() {
                for (i, v) in a.iter().enumerate() {
                    validate_meta(v, items, &path.index(i), false, errs);
                }
            }
        }
        _ => {}
    }
}

/// `validateEmbeddedResource`: `apiVersion` and `kind` are required and
/// valid, `metadata` (when given) is valid ObjectMeta with names that are
/// path segments (a missing name is fine).
fn embedded_resource(obj: &Map<String, Value>, path: &FieldPath<'_>, errs: &mut ErrorList) {
    for key in ["apiVersion", "kind"] {
        if !obj.contains_key(key) {
            errs.push(FieldError::required(&path.child(key), ""));
        }
    }
    for (k, v) in obj {
        match k.as_str() {
            "apiVersion" => {
                let p = path.child("apiVersion");
                match v {
                    Value::String(s) if s.is_empty() => errs.push(FieldError::required(&p, "")),
                    Value::String(s) => {
                        if let Err(e) = parse_group_version(s) {
                            errs.push(FieldError::invalid(&p, s.as_str(), e));
                        }
                    }
                    other => errs.push(FieldError::invalid(&p, bounded(other), "must be a string")),
                }
            }
            "kind" => {
                let p = path.child("kind");
                match v {
                    Value::String(s) if s.is_empty() => errs.push(FieldError::required(&p, "")),
                    Value::String(s) => {
                        let e = is_dns1035_label(&s.to_lowercase());
                        if !e.is_empty() {
                            errs.push(FieldError::invalid(
                                &p,
                                s.as_str(),
                                format!(
                                    "may have mixed case, but should otherwise match: {}",
                                    e.join(",")
                                ),
                            ));
                        }
                    }
                    other => errs.push(FieldError::invalid(&p, bounded(other), "must be a string")),
                }
            }
            "metadata" => {
                let p = path.child("metadata");
                match object_meta_of(v) {
                    Err(e) => errs.push(FieldError::invalid(&p, bounded(v), e)),
                    Ok(mut meta) => {
                        if meta.name.is_empty() {
                            // A name is not required here; upstream fills
                            // one in to pass ValidateObjectMeta.
                            meta.name = "fakename".to_string();
                        }
                        let namespaced = !meta.namespace.is_empty();
                        errs.extend(validate_object_meta(
                            &meta,
                            namespaced,
                            validate_path_segment_name,
                            &p,
                        ));
                    }
                }
            }
            _ => {}
        }
    }
}

fn parse_group_version(s: &str) -> Result<(), String> {
    if s.matches('/').count() > 1 {
        Err(format!("unexpected GroupVersion string: {s}"))
    } else {
        Ok(())
    }
}

/// The fields of ObjectMeta, as JSON spells them (case-sensitive, as
/// upstream's decoder is).
const OBJECT_META_FIELDS: [&str; 15] = [
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
];

/// A metadata value as ObjectMeta (upstream's `GetObjectMeta` without
/// dropping malformed fields): unknown fields are ignored, a `null` is an
/// absent field, a wrongly typed field is an error.
fn object_meta_of(m: &Value) -> Result<ObjectMeta, String> {
    coerce_object_meta(m)?;
    let Value::Object(m) = m else {
        return Err("must be an object".to_string());
    };
    let mut known = Map::new();
    for (k, v) in m {
        if v.is_null() || !OBJECT_META_FIELDS.contains(&k.as_str()) {
            continue;
        }
        let mut v = v.clone();
        if k == "ownerReferences"
            && let Value::Array(refs) = &mut v
        {
            // Go's decoder leaves missing strings empty; ValidateObjectMeta
            // then reports them.
            for r in refs.iter_mut() {
                if let Value::Object(r) = r {
                    for f in ["apiVersion", "kind", "name", "uid"] {
                        let e = r.entry(f).or_insert(Value::Null);
                        if e.is_null() {
                            *e = Value::String(String::new());
                        }
                    }
                }
            }
        }
        known.insert(k.clone(), v);
    }
    serde_json::from_value(Value::Object(known)).map_err(|e| format!("metadata: {e}"))
}

/// The type check of an ObjectMeta value (`objectmeta.Coerce`), with a
/// message naming the wrongly typed field.
fn coerce_object_meta(m: &Value) -> Result<(), String> {
    let Value::Object(m) = m else {
        return Err("must be an object".to_string());
    };
    for (k, v) in m {
        let ok = match k.as_str() {
            "name" | "generateName" | "namespace" | "uid" | "resourceVersion" | "selfLink" => {
                v.is_string() || v.is_null()
            }
            "generation" => v.as_i64().is_some() || v.is_null(),
            "labels" | "annotations" => match v {
                Value::Object(o) => o.values().all(Value::is_string),
                Value::Null => true,
                _ => false,
            },
            "finalizers" => match v {
                Value::Array(a) => a.iter().all(Value::is_string),
                Value::Null => true,
                _ => false,
            },
            _ => true,
        };
        if !ok {
            return Err(format!("metadata.{k} has the wrong type"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::schema::structural::validate;
    use crate::validation::FieldPath;

    /// Whether `value` matches `pattern` by [`validate`].
    fn matches(pattern: &str, value: &str) -> bool {
        let schema = json!({"type": "string", "pattern": pattern});
        validate(&json!(value), &schema, &FieldPath::new("spec")).is_empty()
    }

    /// `ValidateListSetsAndMaps`' cases (apiextensions-apiserver
    /// `listtype/validation_test.go`): duplicates of a set, duplicate keys
    /// of a map (a missing key takes its default), non-objects in a map.
    #[test]
    fn list_sets_and_maps() {
        let errors = |schema: serde_json::Value, value: serde_json::Value| -> Vec<String> {
            validate(&value, &schema, &FieldPath::new("spec"))
                .as_slice()
                .iter()
                .map(ToString::to_string)
                .collect()
        };
        let set =
            json!({"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}});
        assert_eq!(
            errors(set.clone(), json!(["a", "b", "a", "a"])),
            [
                r#"spec[2]: Duplicate value: "a""#,
                r#"spec[3]: Duplicate value: "a""#
            ]
        );
        assert!(errors(set, json!(["a", "b"])).is_empty());
        let map = json!({
            "type": "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name", "port"],
            "items": {"type": "object", "properties": {
                "name": {"type": "string"},
                "port": {"type": "integer", "default": 80}
            }}
        });
        assert_eq!(
            errors(
                map.clone(),
                json!([{"name": "a", "port": 80}, {"name": "a"}, {"name": "a", "port": 81}])
            ),
            [r#"spec[1]: Duplicate value: {"name":"a","port":80}"#]
        );
        // The schema's errors first, then the list types'.
        assert_eq!(
            errors(map, json!([{"name": "a"}, 1])),
            [
                r#"spec[1]: Invalid value: "integer": in body must be of type object: "integer""#,
                "spec[1]: Invalid value: 1: must be an object for an array of list-type map"
            ]
        );
    }

    /// `pattern` values are matched as Go's `regexp` matches them: the
    /// Perl classes and word boundaries are ASCII (issue 28).
    #[test]
    fn perl_classes_are_go_s() {
        assert!(matches(r"^\d+$", "0123456789"));
        // Arabic-Indic and fullwidth digits are not Go's `\d`.
        assert!(!matches(r"^\d+$", "١٢٣"));
        assert!(!matches(r"^\d+$", "１２"));
        assert!(!matches(r"^[\d]+$", "١٢٣"));
        assert!(matches(r"^\D+$", "١٢٣"));
        // `\w` is `[0-9A-Za-z_]`.
        assert!(matches(r"^\w+$", "a_Z9"));
        assert!(!matches(r"^\w+$", "é"));
        assert!(!matches(r"^[\w]+$", "é"));
        // `\s` is `[\t\n\f\r ]`: no U+00A0, no `\v`.
        assert!(matches(r"^a\sb$", "a b"));
        assert!(!matches(r"^a\sb$", "a\u{a0}b"));
        assert!(!matches(r"^a\sb$", "a\u{b}b"));
        // `\b` is between an ASCII word character and anything else.
        assert!(matches(r"\bx", "éx"));
        assert!(!matches(r"\bx", "ax"));
        // `é` is no word character: no boundary after it.
        assert!(!matches(r"^é\b", "é"));
    }
}
