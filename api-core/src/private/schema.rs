//! Builders of the schemas of derived types: objects (with flattening),
//! string enums, unions; the schema generator; defaultable containers.

use std::collections::BTreeMap;

use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value};

use super::keywords::{Keywords, apply};

/// Builds an object schema property by property.
#[derive(Default)]
pub struct ObjectSchema {
    properties: Map<String, Value>,
    required: Vec<String>,
    /// The CEL rules of flattened types, written before the object's own.
    flattened_rules: Vec<Value>,
}

impl ObjectSchema {
    /// An empty object.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a property.
    pub fn field(&mut self, name: &str, required: bool, schema: Schema) {
        self.properties.insert(name.to_string(), schema.to_value());
        if required {
            self.required.push(name.to_string());
        }
    }

    /// Inlines a flattened struct: its properties, required fields and
    /// CEL rules (`x-kubernetes-validations`), as controller-gen inlines a
    /// Go `json:",inline"` field: its flattener puts each inlined type's
    /// rules before those gathered so far, and the object's own last.
    pub fn flatten(&mut self, schema: Schema) {
        let Value::Object(mut m) = schema.to_value() else {
            return;
        };
        if let Some(Value::Object(props)) = m.remove("properties") {
            self.properties.extend(props);
        }
        if let Some(Value::Array(req)) = m.remove("required") {
            self.required.extend(
                req.into_iter()
                    .filter_map(|v| v.as_str().map(str::to_string)),
            );
        }
        if let Some(Value::Array(mut rules)) = m.remove("x-kubernetes-validations") {
            rules.append(&mut self.flattened_rules);
            self.flattened_rules = rules;
        }
    }

    /// The finished schema: `type: object`, properties, sorted `required`.
    pub fn finish(mut self, kw: &Keywords) -> Schema {
        let mut m = Map::new();
        m.insert("type".into(), "object".into());
        if !self.properties.is_empty() {
            m.insert("properties".into(), Value::Object(self.properties));
        }
        if !self.required.is_empty() {
            self.required.sort();
            self.required.dedup();
            m.insert(
                "required".into(),
                self.required.into_iter().map(Value::from).collect(),
            );
        }
        if !self.flattened_rules.is_empty() {
            m.insert(
                "x-kubernetes-validations".into(),
                Value::Array(self.flattened_rules),
            );
        }
        let mut s = Schema::from(m);
        apply(&mut s, kw);
        s
    }
}

/// A string enum: `type: string` with its values.
pub fn string_enum(values: &'static [&'static str], kw: &Keywords) -> Schema {
    let mut m = Map::new();
    m.insert("type".into(), "string".into());
    m.insert(
        "enum".into(),
        values.iter().map(|v| Value::from(*v)).collect(),
    );
    let mut s = Schema::from(m);
    apply(&mut s, kw);
    s
}

/// An externally tagged union: one optional property per variant and a
/// `oneOf` that requires exactly one of them.
pub fn tagged_union(variants: Vec<(&'static str, Schema)>, kw: &Keywords) -> Schema {
    let mut props = Map::new();
    let mut one_of = Vec::new();
    for (name, schema) in variants {
        one_of.push(serde_json::json!({ "required": [name] }));
        props.insert(name.to_string(), schema.to_value());
    }
    let mut m = Map::new();
    m.insert("type".into(), "object".into());
    m.insert("properties".into(), Value::Object(props));
    m.insert("oneOf".into(), Value::Array(one_of));
    let mut s = Schema::from(m);
    apply(&mut s, kw);
    s
}

/// An internally tagged union (`#[serde(tag = "kind")]`): the tag is a
/// required string with the variant names as its values, and the members'
/// fields are optional properties of one object (the first schema of a
/// name wins).
pub fn discriminated_union(
    tag: &str,
    values: &[&str],
    members: Vec<Schema>,
    kw: &Keywords,
) -> Schema {
    let mut props = Map::new();
    props.insert(
        tag.to_string(),
        serde_json::json!({ "type": "string", "enum": values }),
    );
    for member in members {
        if let Value::Object(mut m) = member.to_value()
            && let Some(Value::Object(p)) = m.remove("properties")
        {
            for (k, v) in p {
                props.entry(k).or_insert(v);
            }
        }
    }
    let mut m = Map::new();
    m.insert("type".into(), "object".into());
    m.insert("properties".into(), Value::Object(props));
    m.insert("required".into(), serde_json::json!([tag]));
    let mut s = Schema::from(m);
    apply(&mut s, kw);
    s
}

/// Applies a static default to an unset optional field.
#[diagnostic::on_unimplemented(
    message = "`#[default(...)]` needs an optional field, and `{Self}` is not one",
    label = "a default applies when the field is unset",
    note = "make the field `Option<T>`, or a list or map with `#[serde(default, skip_serializing_if = \"...::is_empty\")]`"
)]
pub trait Defaultable {
    /// The type the default expression is converted into.
    type Value;
    /// Sets the field to `make()` when it is unset.
    fn default_if_unset(&mut self, make: impl FnOnce() -> Self::Value);
}

impl<T> Defaultable for Option<T> {
    type Value = T;
    fn default_if_unset(&mut self, make: impl FnOnce() -> T) {
        if self.is_none() {
            *self = Some(make());
        }
    }
}

impl<T> Defaultable for Vec<T> {
    type Value = Vec<T>;
    fn default_if_unset(&mut self, make: impl FnOnce() -> Vec<T>) {
        if self.is_empty() {
            *self = make();
        }
    }
}

impl<K: Ord, V> Defaultable for BTreeMap<K, V> {
    type Value = BTreeMap<K, V>;
    fn default_if_unset(&mut self, make: impl FnOnce() -> Self) {
        if self.is_empty() {
            *self = make();
        }
    }
}

/// Conditions are unset when empty, like the list they are written as.
impl Defaultable for crate::Conditions {
    type Value = crate::Conditions;
    fn default_if_unset(&mut self, make: impl FnOnce() -> Self) {
        if self.is_empty() {
            *self = make();
        }
    }
}

/// The generator the CRD builder uses: inline subschemas, no meta schema,
/// no transforms (the schemas are structural as built).
pub fn generator() -> SchemaGenerator {
    SchemaGenerator::new(SchemaSettings::openapi3().with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
        s.transforms.clear();
    }))
}
