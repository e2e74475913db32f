//! Decoding a JSON schema into a typed tree (`JSONSchemaProps`), with the
//! decode errors the apiserver would give for mistyped keywords and an
//! explicit nesting limit.

use serde_json::{Map, Value};

use crate::validation::{ErrorList, FieldError, FieldPath};

use super::{MAX_SCHEMA_DEPTH, bounded};

/// Keywords the Kubernetes documentation lists as forbidden that are not
/// fields of Go's `JSONSchemaProps` (they would be dropped at decode).
pub(super) const DOC_FORBIDDEN_KEYWORDS: [&str; 5] = [
    "deprecated",
    "discriminator",
    "readOnly",
    "writeOnly",
    "xml",
];

/// `items`: one schema, or the (forbidden) array form.
#[allow(
    clippy::vec_box,
    reason = "nodes are moved as pointers, keeping the decoder's frames small"
)]
pub(super) enum Items<'a> {
    One(Box<Node<'a>>),
    Many(Vec<Box<Node<'a>>>),
}

/// `additionalProperties` / `additionalItems`: a schema or a boolean.
pub(super) enum SchemaOrBool<'a> {
    Bool(bool),
    Schema(Box<Node<'a>>),
}

impl<'a> SchemaOrBool<'a> {
    pub(super) fn schema(&self) -> Option<&Node<'a>> {
        match self {
            SchemaOrBool::Schema(s) => Some(s),
            SchemaOrBool::Bool(_) => None,
        }
    }
}

/// One `x-kubernetes-validations` rule.
pub(super) struct Rule<'a> {
    pub rule: &'a str,
    pub message: Option<&'a str>,
    pub message_expression: Option<&'a str>,
    pub reason: Option<&'a str>,
    pub field_path: Option<&'a str>,
    #[cfg_attr(
        not(feature = "cel"),
        allow(dead_code, reason = "read by the CEL engine")
    )]
    pub optional_old_self: bool,
}

/// A decoded schema node. `None`/`false`/empty mean "absent" (Go's zero
/// value); a JSON `null` is absent too, as with Go's decoder.
#[derive(Default)]
#[allow(
    clippy::vec_box,
    reason = "nodes are moved as pointers, keeping the decoder's frames small"
)]
pub(super) struct Node<'a> {
    /// The node was not decoded: it lies beyond the nesting limit.
    pub truncated: bool,
    pub raw: Option<&'a Map<String, Value>>,
    pub id: Option<&'a str>,
    pub schema_uri: Option<&'a str>,
    pub reference: Option<&'a str>,
    pub description: Option<&'a str>,
    pub type_: Option<&'a str>,
    pub nullable: bool,
    pub format: Option<&'a str>,
    pub title: Option<&'a str>,
    pub default: Option<&'a Value>,
    pub maximum: Option<f64>,
    pub exclusive_maximum: bool,
    pub minimum: Option<f64>,
    pub exclusive_minimum: bool,
    pub max_length: Option<i64>,
    pub min_length: Option<i64>,
    pub pattern: Option<&'a str>,
    pub max_items: Option<i64>,
    pub min_items: Option<i64>,
    pub unique_items: bool,
    pub multiple_of: Option<f64>,
    pub enum_: Option<&'a Vec<Value>>,
    pub max_properties: Option<i64>,
    pub min_properties: Option<i64>,
    pub required: Option<Vec<&'a str>>,
    pub items: Option<Items<'a>>,
    pub all_of: Vec<Box<Node<'a>>>,
    pub all_of_set: bool,
    pub one_of: Vec<Box<Node<'a>>>,
    pub one_of_set: bool,
    pub any_of: Vec<Box<Node<'a>>>,
    pub any_of_set: bool,
    pub not: Option<Box<Node<'a>>>,
    pub properties: Vec<(&'a str, Box<Node<'a>>)>,
    pub properties_set: bool,
    pub additional_properties: Option<SchemaOrBool<'a>>,
    pub pattern_properties: Option<Vec<(&'a str, Box<Node<'a>>)>>,
    pub dependencies: Option<Dependencies<'a>>,
    pub additional_items: Option<SchemaOrBool<'a>>,
    pub definitions: Option<Vec<(&'a str, Box<Node<'a>>)>>,
    pub external_docs: Option<&'a Value>,
    pub example: Option<&'a Value>,
    pub preserve_unknown_fields: Option<bool>,
    pub embedded_resource: bool,
    pub int_or_string: bool,
    pub list_map_keys: Option<Vec<&'a str>>,
    pub list_type: Option<&'a str>,
    pub map_type: Option<&'a str>,
    pub validations: Vec<Rule<'a>>,
    pub validations_set: bool,
    /// Keywords from [`DOC_FORBIDDEN_KEYWORDS`] that are present.
    pub doc_forbidden: Vec<&'a str>,
}

impl<'a> Node<'a> {
    /// The property `name`, if specified.
    pub(super) fn property(&self, name: &str) -> Option<&Node<'a>> {
        self.properties
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| &**v)
    }

    /// The single `items` schema, if any.
    pub(super) fn items_schema(&self) -> Option<&Node<'a>> {
        match &self.items {
            Some(Items::One(s)) => Some(s),
            _ => None,
        }
    }

    /// The `type`, with an absent type as `""` (Go's zero value).
    pub(super) fn ty(&self) -> &'a str {
        self.type_.unwrap_or("")
    }

    /// `x-kubernetes-preserve-unknown-fields: true`.
    pub(super) fn preserves_unknown(&self) -> bool {
        self.preserve_unknown_fields == Some(true)
    }

    /// The additionalProperties schema, if it is a schema.
    pub(super) fn additional_schema(&self) -> Option<&Node<'a>> {
        self.additional_properties
            .as_ref()
            .and_then(SchemaOrBool::schema)
    }
}

/// Decodes `value` as a schema node at `path`, at nesting `depth` (the root
/// is 0). Mistyped keywords are reported and treated as absent.
pub(super) fn decode<'a>(
    value: &'a Value,
    path: &FieldPath<'_>,
    depth: usize,
    errs: &mut ErrorList,
) -> Option<Box<Node<'a>>> {
    // The recursive path keeps small frames (this matters in debug builds):
    // the per-node work is done in helpers that return before the recursion
    // continues, and nodes live on the heap.
    let Value::Object(map) = value else {
        not_an_object(value, path, errs);
        return None;
    };
    if depth > MAX_SCHEMA_DEPTH {
        return Some(too_deep(map, path, errs));
    }
    let mut n = scalars(map, path, errs);
    children(&mut n, map, path, depth + 1, errs);
    Some(n)
}

#[inline(never)]
fn not_an_object(value: &Value, path: &FieldPath<'_>, errs: &mut ErrorList) {
    errs.push(FieldError::type_invalid(
        path,
        bounded(value),
        "must be an object",
    ));
}

#[inline(never)]
fn wrong_type(value: &Value, path: &FieldPath<'_>, key: &str, detail: &str, errs: &mut ErrorList) {
    errs.push(FieldError::type_invalid(
        &path.child(key),
        bounded(value),
        detail,
    ));
}

#[inline(never)]
fn too_deep<'a>(
    map: &'a Map<String, Value>,
    path: &FieldPath<'_>,
    errs: &mut ErrorList,
) -> Box<Node<'a>> {
    errs.push(FieldError::forbidden(
        path,
        format!("must not be nested more than {MAX_SCHEMA_DEPTH} schemas deep"),
    ));
    Box::new(Node {
        truncated: true,
        raw: Some(map),
        ..Node::default()
    })
}

/// The keywords of a node that are not schemas.
#[inline(never)]
fn scalars<'a>(
    map: &'a Map<String, Value>,
    path: &FieldPath<'_>,
    errs: &mut ErrorList,
) -> Box<Node<'a>> {
    let mut d = Decoder { map, path, errs };
    let mut n = Box::new(Node {
        raw: Some(map),
        ..Node::default()
    });
    n.id = d.string("id");
    n.schema_uri = d.string("$schema");
    n.reference = d.string("$ref");
    n.description = d.string("description");
    n.type_ = d.string("type");
    n.nullable = d.boolean("nullable").unwrap_or(false);
    n.format = d.string("format");
    n.title = d.string("title");
    n.default = d.any("default");
    n.maximum = d.number("maximum");
    n.exclusive_maximum = d.boolean("exclusiveMaximum").unwrap_or(false);
    n.minimum = d.number("minimum");
    n.exclusive_minimum = d.boolean("exclusiveMinimum").unwrap_or(false);
    n.max_length = d.integer("maxLength");
    n.min_length = d.integer("minLength");
    n.pattern = d.string("pattern");
    n.max_items = d.integer("maxItems");
    n.min_items = d.integer("minItems");
    n.unique_items = d.boolean("uniqueItems").unwrap_or(false);
    n.multiple_of = d.number("multipleOf");
    n.enum_ = d.array("enum");
    n.max_properties = d.integer("maxProperties");
    n.min_properties = d.integer("minProperties");
    n.required = d.strings("required");
    n.external_docs = d.object_value("externalDocs");
    n.example = d.any("example");
    n.preserve_unknown_fields = d.boolean("x-kubernetes-preserve-unknown-fields");
    n.embedded_resource = d.boolean("x-kubernetes-embedded-resource").unwrap_or(false);
    n.int_or_string = d.boolean("x-kubernetes-int-or-string").unwrap_or(false);
    n.list_map_keys = d.strings("x-kubernetes-list-map-keys");
    n.list_type = d.string("x-kubernetes-list-type");
    n.map_type = d.string("x-kubernetes-map-type");
    for key in DOC_FORBIDDEN_KEYWORDS {
        if map.get(key).is_some_and(|v| !v.is_null()) {
            n.doc_forbidden.push(key);
        }
    }
    if let Some(rules) = d.array("x-kubernetes-validations") {
        n.validations_set = true;
        let vp = path.child("x-kubernetes-validations");
        for (i, r) in rules.iter().enumerate() {
            let ip = vp.index(i);
            if let Some(rule) = decode_rule(r, &ip, d.errs) {
                n.validations.push(rule);
            }
        }
    }
    n
}

/// The keywords of a node that are schemas, decoded at `next`.
#[inline(never)]
fn children<'a>(
    n: &mut Node<'a>,
    map: &'a Map<String, Value>,
    path: &FieldPath<'_>,
    next: usize,
    errs: &mut ErrorList,
) {
    n.items = items(map, path, next, errs);
    (n.all_of, n.all_of_set) = schema_list(map, "allOf", path, next, errs);
    (n.one_of, n.one_of_set) = schema_list(map, "oneOf", path, next, errs);
    (n.any_of, n.any_of_set) = schema_list(map, "anyOf", path, next, errs);
    n.not = not(map, path, next, errs);
    if let Some(props) = schema_map(map, "properties", path, next, errs) {
        n.properties_set = true;
        n.properties = props;
    }
    n.additional_properties = schema_or_bool(map, "additionalProperties", path, next, errs);
    n.pattern_properties = schema_map(map, "patternProperties", path, next, errs);
    n.additional_items = schema_or_bool(map, "additionalItems", path, next, errs);
    n.definitions = schema_map(map, "definitions", path, next, errs);
    n.dependencies = dependencies(map, path, next, errs);
}

/// `items`: a schema or an array of schemas.
fn items<'a>(
    map: &'a Map<String, Value>,
    path: &FieldPath<'_>,
    next: usize,
    errs: &mut ErrorList,
) -> Option<Items<'a>> {
    match map.get("items") {
        None | Some(Value::Null) => None,
        Some(v @ Value::Object(_)) => {
            let p = path.child("items");
            decode(v, &p, next, errs).map(Items::One)
        }
        Some(Value::Array(a)) => {
            let p = path.child("items");
            let mut out = Vec::new();
            for (i, v) in a.iter().enumerate() {
                let ip = p.index(i);
                if let Some(s) = decode(v, &ip, next, errs) {
                    out.push(s);
                }
            }
            Some(Items::Many(out))
        }
        Some(other) => {
            wrong_type(other, path, "items", "must be an object or an array", errs);
            None
        }
    }
}

fn not<'a>(
    map: &'a Map<String, Value>,
    path: &FieldPath<'_>,
    next: usize,
    errs: &mut ErrorList,
) -> Option<Box<Node<'a>>> {
    match map.get("not") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let p = path.child("not");
            decode(v, &p, next, errs)
        }
    }
}

type Dependencies<'a> = Vec<(&'a str, Option<Box<Node<'a>>>)>;

fn dependencies<'a>(
    map: &'a Map<String, Value>,
    path: &FieldPath<'_>,
    next: usize,
    errs: &mut ErrorList,
) -> Option<Dependencies<'a>> {
    match map.get("dependencies") {
        None | Some(Value::Null) => None,
        Some(Value::Object(deps)) => {
            let p = path.child("dependencies");
            let mut out = Vec::new();
            for (k, v) in deps {
                let kp = p.key(k);
                match v {
                    Value::Object(_) => out.push((k.as_str(), decode(v, &kp, next, errs))),
                    Value::Array(a) if a.iter().all(Value::is_string) => {
                        out.push((k.as_str(), None))
                    }
                    other => not_a_dependency(other, &kp, errs),
                }
            }
            Some(out)
        }
        Some(other) => {
            wrong_type(other, path, "dependencies", "must be an object", errs);
            None
        }
    }
}

#[inline(never)]
fn not_a_dependency(value: &Value, path: &FieldPath<'_>, errs: &mut ErrorList) {
    errs.push(FieldError::type_invalid(
        path,
        bounded(value),
        "must be an object or an array of strings",
    ));
}

fn decode_rule<'a>(
    value: &'a Value,
    path: &FieldPath<'_>,
    errs: &mut ErrorList,
) -> Option<Rule<'a>> {
    let Value::Object(map) = value else {
        errs.push(FieldError::type_invalid(
            path,
            bounded(value),
            "must be an object",
        ));
        return None;
    };
    let mut d = Decoder { map, path, errs };
    let rule = Rule {
        rule: d.string("rule").unwrap_or(""),
        message: d.string("message"),
        message_expression: d.string("messageExpression"),
        reason: d.string("reason"),
        field_path: d.string("fieldPath"),
        optional_old_self: d.boolean("optionalOldSelf").unwrap_or(false),
    };
    Some(rule)
}

fn schema_list<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    path: &FieldPath<'_>,
    depth: usize,
    errs: &mut ErrorList,
) -> (Vec<Box<Node<'a>>>, bool) {
    match map.get(key) {
        None | Some(Value::Null) => (Vec::new(), false),
        Some(Value::Array(a)) => {
            let p = path.child(key);
            let mut out = Vec::new();
            for (i, v) in a.iter().enumerate() {
                let ip = p.index(i);
                if let Some(s) = decode(v, &ip, depth, errs) {
                    out.push(s);
                }
            }
            (out, true)
        }
        Some(other) => {
            errs.push(FieldError::type_invalid(
                &path.child(key),
                bounded(other),
                "must be an array",
            ));
            (Vec::new(), false)
        }
    }
}

fn schema_map<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    path: &FieldPath<'_>,
    depth: usize,
    errs: &mut ErrorList,
) -> Option<Vec<(&'a str, Box<Node<'a>>)>> {
    match map.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => {
            let p = path.child(key);
            let mut out = Vec::new();
            for (k, v) in m {
                let kp = p.key(k);
                if let Some(s) = decode(v, &kp, depth, errs) {
                    out.push((k.as_str(), s));
                }
            }
            Some(out)
        }
        Some(other) => {
            errs.push(FieldError::type_invalid(
                &path.child(key),
                bounded(other),
                "must be an object",
            ));
            None
        }
    }
}

fn schema_or_bool<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    path: &FieldPath<'_>,
    depth: usize,
    errs: &mut ErrorList,
) -> Option<SchemaOrBool<'a>> {
    match map.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(SchemaOrBool::Bool(*b)),
        Some(v @ Value::Object(_)) => {
            let p = path.child(key);
            decode(v, &p, depth, errs).map(SchemaOrBool::Schema)
        }
        Some(other) => {
            errs.push(FieldError::type_invalid(
                &path.child(key),
                bounded(other),
                "must be an object or a boolean",
            ));
            None
        }
    }
}

/// Typed access to the keys of one JSON object, reporting mistyped values.
pub(super) struct Decoder<'a, 'p, 'e> {
    pub map: &'a Map<String, Value>,
    pub path: &'p FieldPath<'p>,
    pub errs: &'e mut ErrorList,
}

impl<'a> Decoder<'a, '_, '_> {
    fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    fn wrong(&mut self, key: &str, v: &Value, detail: &str) {
        self.errs.push(FieldError::type_invalid(
            &self.path.child(key),
            bounded(v),
            detail,
        ));
    }

    pub(super) fn any(&mut self, key: &str) -> Option<&'a Value> {
        self.get(key)
    }

    pub(super) fn string(&mut self, key: &str) -> Option<&'a str> {
        let v = self.get(key)?;
        match v {
            Value::String(s) => Some(s),
            other => {
                self.wrong(key, other, "must be a string");
                None
            }
        }
    }

    pub(super) fn boolean(&mut self, key: &str) -> Option<bool> {
        let v = self.get(key)?;
        match v {
            Value::Bool(b) => Some(*b),
            other => {
                self.wrong(key, other, "must be a boolean");
                None
            }
        }
    }

    pub(super) fn number(&mut self, key: &str) -> Option<f64> {
        let v = self.get(key)?;
        match v.as_f64() {
            Some(f) => Some(f),
            None => {
                self.wrong(key, v, "must be a number");
                None
            }
        }
    }

    pub(super) fn integer(&mut self, key: &str) -> Option<i64> {
        let v = self.get(key)?;
        match v.as_i64() {
            Some(i) => Some(i),
            None => {
                self.wrong(key, v, "must be an integer");
                None
            }
        }
    }

    pub(super) fn array(&mut self, key: &str) -> Option<&'a Vec<Value>> {
        let v = self.get(key)?;
        match v {
            Value::Array(a) => Some(a),
            other => {
                self.wrong(key, other, "must be an array");
                None
            }
        }
    }

    pub(super) fn object(&mut self, key: &str) -> Option<&'a Map<String, Value>> {
        let v = self.get(key)?;
        match v {
            Value::Object(m) => Some(m),
            other => {
                self.wrong(key, other, "must be an object");
                None
            }
        }
    }

    pub(super) fn object_value(&mut self, key: &str) -> Option<&'a Value> {
        self.object(key)?;
        self.get(key)
    }

    pub(super) fn strings(&mut self, key: &str) -> Option<Vec<&'a str>> {
        let v = self.get(key)?;
        match v {
            Value::Array(a) if a.iter().all(Value::is_string) => {
                Some(a.iter().filter_map(Value::as_str).collect())
            }
            other => {
                self.wrong(key, other, "must be an array of strings");
                None
            }
        }
    }
}
