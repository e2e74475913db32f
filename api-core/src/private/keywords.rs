//! The schema keywords an attribute declares (`Keywords`, `Rule`, `Num`)
//! and how they are written into a schema.

use schemars::Schema;
use serde::Serialize;
use serde_json::{Map, Value};

use super::Regex;

/// A number as written in an attribute: integers stay integers.
#[derive(Clone, Copy, Debug)]
pub enum Num {
    /// An integer.
    Int(i64),
    /// A number with a fraction.
    Float(f64),
}

impl Num {
    fn to_value(self) -> Value {
        match self {
            Num::Int(i) => Value::from(i),
            Num::Float(f) => serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number),
        }
    }
}

/// One `x-kubernetes-validations` rule.
#[derive(Debug)]
pub struct Rule {
    /// The CEL expression.
    pub rule: &'static str,
    /// The message when it fails.
    pub message: Option<&'static str>,
    /// A CEL expression that computes the message.
    pub message_expression: Option<&'static str>,
    /// The reason reported (`FieldValueInvalid`, ...).
    pub reason: Option<&'static str>,
    /// The field the error is reported at.
    pub field_path: Option<&'static str>,
    /// Whether the rule also runs on create / when the old value is absent.
    pub optional_old_self: Option<bool>,
}

impl Rule {
    pub(crate) fn to_value(&self) -> Value {
        let mut m = Map::new();
        if let Some(v) = self.field_path {
            m.insert("fieldPath".into(), v.into());
        }
        if let Some(v) = self.message {
            m.insert("message".into(), v.into());
        }
        if let Some(v) = self.message_expression {
            m.insert("messageExpression".into(), v.into());
        }
        if let Some(v) = self.optional_old_self {
            m.insert("optionalOldSelf".into(), v.into());
        }
        if let Some(v) = self.reason {
            m.insert("reason".into(), v.into());
        }
        m.insert("rule".into(), self.rule.into());
        Value::Object(m)
    }
}

/// Schema keywords that come from attributes and doc comments.
#[derive(Debug)]
pub struct Keywords {
    /// `description` (doc comment).
    pub description: Option<&'static str>,
    /// `title`.
    pub title: Option<&'static str>,
    /// `format`.
    pub format: Option<&'static str>,
    /// `pattern`.
    pub pattern: Option<&'static str>,
    /// The compiled `pattern` (compiled once, where it is declared).
    pub regex: Option<fn() -> Option<&'static Regex>>,
    /// `minimum`.
    pub minimum: Option<Num>,
    /// `maximum`.
    pub maximum: Option<Num>,
    /// `exclusiveMinimum: true`.
    pub exclusive_minimum: bool,
    /// `exclusiveMaximum: true`.
    pub exclusive_maximum: bool,
    /// `multipleOf`.
    pub multiple_of: Option<Num>,
    /// `minLength`.
    pub min_length: Option<i64>,
    /// `maxLength`.
    pub max_length: Option<i64>,
    /// `minItems`.
    pub min_items: Option<i64>,
    /// `maxItems`.
    pub max_items: Option<i64>,
    /// `minProperties`.
    pub min_properties: Option<i64>,
    /// `maxProperties`.
    pub max_properties: Option<i64>,
    /// `enum`.
    pub enum_values: &'static [&'static str],
    /// `enum` of integers.
    pub int_enum_values: &'static [i64],
    /// `x-kubernetes-list-type`.
    pub list_type: Option<&'static str>,
    /// `x-kubernetes-list-map-keys`.
    pub list_map_keys: &'static [&'static str],
    /// `x-kubernetes-map-type`.
    pub map_type: Option<&'static str>,
    /// `x-kubernetes-int-or-string`.
    pub int_or_string: bool,
    /// `x-kubernetes-preserve-unknown-fields`.
    pub preserve_unknown_fields: bool,
    /// `x-kubernetes-embedded-resource`.
    pub embedded_resource: bool,
    /// `externalDocs`: url and description.
    pub external_docs: Option<(&'static str, Option<&'static str>)>,
    /// `x-kubernetes-validations`.
    pub validations: &'static [Rule],
    /// Keywords for the items of a list.
    pub items: Option<&'static Keywords>,
}

impl Keywords {
    /// No keywords.
    pub const NONE: Keywords = Keywords {
        description: None,
        title: None,
        format: None,
        pattern: None,
        regex: None,
        minimum: None,
        maximum: None,
        exclusive_minimum: false,
        exclusive_maximum: false,
        multiple_of: None,
        min_length: None,
        max_length: None,
        min_items: None,
        max_items: None,
        min_properties: None,
        max_properties: None,
        enum_values: &[],
        int_enum_values: &[],
        list_type: None,
        list_map_keys: &[],
        map_type: None,
        int_or_string: false,
        preserve_unknown_fields: false,
        embedded_resource: false,
        external_docs: None,
        validations: &[],
        items: None,
    };
}

/// Writes the keywords into a schema (a field's doc replaces its type's).
pub fn apply(schema: &mut Schema, kw: &Keywords) {
    let m = schema.ensure_object();
    let mut set = |k: &str, v: Value| {
        m.insert(k.to_string(), v);
    };
    if let Some(v) = kw.description {
        set("description", v.into());
    }
    if let Some(v) = kw.title {
        set("title", v.into());
    }
    if let Some(v) = kw.format {
        set("format", v.into());
    }
    if let Some(v) = kw.pattern {
        set("pattern", v.into());
    }
    if let Some(v) = kw.minimum {
        set("minimum", v.to_value());
    }
    if let Some(v) = kw.maximum {
        set("maximum", v.to_value());
    }
    if kw.exclusive_minimum {
        set("exclusiveMinimum", true.into());
    }
    if kw.exclusive_maximum {
        set("exclusiveMaximum", true.into());
    }
    if let Some(v) = kw.multiple_of {
        set("multipleOf", v.to_value());
    }
    for (k, v) in [
        ("minLength", kw.min_length),
        ("maxLength", kw.max_length),
        ("minItems", kw.min_items),
        ("maxItems", kw.max_items),
        ("minProperties", kw.min_properties),
        ("maxProperties", kw.max_properties),
    ] {
        if let Some(v) = v {
            set(k, v.into());
        }
    }
    if !kw.enum_values.is_empty() {
        set(
            "enum",
            kw.enum_values.iter().map(|v| Value::from(*v)).collect(),
        );
    }
    if !kw.int_enum_values.is_empty() {
        set(
            "enum",
            kw.int_enum_values.iter().map(|v| Value::from(*v)).collect(),
        );
    }
    if let Some(v) = kw.list_type {
        set("x-kubernetes-list-type", v.into());
    }
    if !kw.list_map_keys.is_empty() {
        set(
            "x-kubernetes-list-map-keys",
            kw.list_map_keys.iter().map(|v| Value::from(*v)).collect(),
        );
    }
    if let Some(v) = kw.map_type {
        set("x-kubernetes-map-type", v.into());
    }
    if kw.int_or_string {
        // The int-or-string schema replaces the type's (a schemaless enum's
        // preserve-unknown-fields included: the two exclude each other).
        m.remove("type");
        m.remove("format");
        m.remove("x-kubernetes-preserve-unknown-fields");
        m.insert("x-kubernetes-int-or-string".into(), true.into());
        m.insert(
            "anyOf".into(),
            serde_json::json!([{ "type": "integer" }, { "type": "string" }]),
        );
    }
    if kw.preserve_unknown_fields {
        m.insert("x-kubernetes-preserve-unknown-fields".into(), true.into());
    }
    if kw.embedded_resource {
        m.insert("x-kubernetes-embedded-resource".into(), true.into());
    }
    if let Some((url, description)) = kw.external_docs {
        let mut d = Map::new();
        if let Some(desc) = description {
            d.insert("description".into(), desc.into());
        }
        d.insert("url".into(), url.into());
        m.insert("externalDocs".into(), Value::Object(d));
    }
    if !kw.validations.is_empty() {
        let rules = m
            .entry("x-kubernetes-validations")
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = rules {
            list.extend(kw.validations.iter().map(Rule::to_value));
        }
    }
    if let Some(items) = kw.items
        && let Some(item) = m.get_mut("items")
    {
        let mut s = Schema::try_from(std::mem::take(item)).unwrap_or_default();
        apply(&mut s, items);
        *item = s.to_value();
    }
}

/// Sets `default:` to the serialised value.
pub fn set_default<T: Serialize>(schema: &mut Schema, value: &T) {
    if let Ok(v) = serde_json::to_value(value) {
        schema.insert("default".into(), v);
    }
}

/// Sets `example:` to the serialised value.
pub fn set_example<T: Serialize + ?Sized>(schema: &mut Schema, value: &T) {
    if let Ok(v) = serde_json::to_value(value) {
        schema.insert("example".into(), v);
    }
}
