//! Support code for what the derives generate. Not a public API: names and
//! signatures here may change in any release.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator};
use serde::de::{self, DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

pub use crate::checks;
pub use crate::facts::{self, FieldFacts, Kind, TypeFacts};
pub use regex::Regex;
pub use schemars;
pub use serde;
pub use serde_json;

use crate::crd::{
    CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionNames,
    CustomResourceDefinitionSpec, CustomResourceDefinitionVersion, CustomResourceSubresourceScale,
    CustomResourceSubresourceStatus, CustomResourceSubresources, CustomResourceValidation,
    SelectableField,
};
use crate::meta::ObjectMeta;
use crate::resource::{Resource, Scope, check_type_field};

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
    fn to_value(&self) -> Value {
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
        m.remove("type");
        m.remove("format");
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

/// Builds an object schema property by property.
#[derive(Default)]
pub struct ObjectSchema {
    properties: Map<String, Value>,
    required: Vec<String>,
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

    /// Inlines the properties of a flattened struct.
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

/// The generator the CRD builder uses: inline subschemas, no meta schema,
/// no transforms (the schemas are structural as built).
pub fn generator() -> SchemaGenerator {
    SchemaGenerator::new(SchemaSettings::openapi3().with(|s| {
        s.inline_subschemas = true;
        s.meta_schema = None;
        s.transforms.clear();
    }))
}

/// A printer column of a resource.
#[derive(Debug)]
pub struct PrintColumn {
    /// Column name.
    pub name: &'static str,
    /// Column type.
    pub type_: &'static str,
    /// JSON path.
    pub json_path: &'static str,
    /// Description.
    pub description: Option<&'static str>,
    /// Format.
    pub format: Option<&'static str>,
    /// Priority.
    pub priority: i32,
}

/// The scale subresource of a resource.
#[derive(Debug)]
pub struct ScaleInfo {
    /// `.spec.replicas`
    pub spec_replicas_path: &'static str,
    /// `.status.replicas`
    pub status_replicas_path: &'static str,
    /// `.status.selector`
    pub label_selector_path: Option<&'static str>,
}

/// What `#[kube(...)]` says about a resource, beyond the `Resource` consts.
#[derive(Debug)]
pub struct ResourceInfo {
    /// Whether the version is served.
    pub served: bool,
    /// Whether the version is the storage version.
    pub storage: bool,
    /// Whether the version is deprecated.
    pub deprecated: bool,
    /// The deprecation warning.
    pub deprecation_warning: Option<&'static str>,
    /// Printer columns.
    pub printcolumns: &'static [PrintColumn],
    /// The scale subresource.
    pub scale: Option<ScaleInfo>,
    /// Selectable fields.
    pub selectable: &'static [&'static str],
    /// Whether the status subresource is on.
    pub status_subresource: bool,
    /// The root object's description.
    pub description: Option<&'static str>,
    /// Whether `spec` is required.
    pub spec_required: bool,
    /// CEL rules on the root.
    pub validations: &'static [Rule],
}

const API_VERSION_DESCRIPTION: &str = "APIVersion defines the versioned schema of this representation of an object.\nServers should convert recognized schemas to the latest internal value, and\nmay reject unrecognized values.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
const KIND_DESCRIPTION: &str = "Kind is a string value representing the REST resource this object represents.\nServers may infer this from the endpoint the client submits requests to.\nCannot be updated.\nIn CamelCase.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";

/// The body of a root schema.
pub enum RootBody {
    /// `spec` and, when declared, `status`.
    SpecStatus {
        /// The spec's schema.
        spec: Schema,
        /// The status's schema.
        status: Option<Schema>,
    },
    /// `no_spec`: the struct's own properties at the top level.
    Flat(Schema),
}

/// The `openAPIV3Schema` of a resource, shaped like controller-gen's.
pub fn root_schema(info: &ResourceInfo, body: RootBody) -> Schema {
    let mut props = Map::new();
    props.insert(
        "apiVersion".into(),
        serde_json::json!({ "description": API_VERSION_DESCRIPTION, "type": "string" }),
    );
    props.insert(
        "kind".into(),
        serde_json::json!({ "description": KIND_DESCRIPTION, "type": "string" }),
    );
    props.insert("metadata".into(), serde_json::json!({ "type": "object" }));
    let mut required: Vec<Value> = Vec::new();
    match body {
        RootBody::SpecStatus { spec, status } => {
            props.insert("spec".into(), spec.to_value());
            if let Some(status) = status {
                props.insert("status".into(), status.to_value());
            }
            if info.spec_required {
                required.push("spec".into());
            }
        }
        RootBody::Flat(schema) => {
            if let Value::Object(mut m) = schema.to_value() {
                if let Some(Value::Object(p)) = m.remove("properties") {
                    props.extend(p);
                }
                if let Some(Value::Array(r)) = m.remove("required") {
                    required.extend(r);
                }
            }
        }
    }
    let mut m = Map::new();
    if let Some(d) = info.description {
        m.insert("description".into(), d.into());
    }
    m.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        m.insert("required".into(), Value::Array(required));
    }
    m.insert("type".into(), "object".into());
    if !info.validations.is_empty() {
        m.insert(
            "x-kubernetes-validations".into(),
            info.validations.iter().map(Rule::to_value).collect(),
        );
    }
    Schema::from(m)
}

/// The single-version CRD of a resource. Only this wrapper is generic (it
/// reads `R`'s constants); the body is compiled once for every resource.
pub fn build_crd<R: Resource>(info: &ResourceInfo, schema: Schema) -> CustomResourceDefinition {
    let names = Names {
        group: R::GROUP,
        version: R::VERSION,
        kind: R::KIND,
        plural: R::PLURAL,
        singular: R::SINGULAR,
        short_names: R::SHORT_NAMES,
        categories: R::CATEGORIES,
        scope: R::SCOPE,
    };
    build_crd_of(&names, info, schema)
}

/// The constants of a [`Resource`], for [`build_crd_of`].
struct Names {
    group: &'static str,
    version: &'static str,
    kind: &'static str,
    plural: &'static str,
    singular: &'static str,
    short_names: &'static [&'static str],
    categories: &'static [&'static str],
    scope: crate::resource::Scope,
}

fn build_crd_of(r: &Names, info: &ResourceInfo, schema: Schema) -> CustomResourceDefinition {
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let subresources =
        (info.status_subresource || info.scale.is_some()).then(|| CustomResourceSubresources {
            status: info
                .status_subresource
                .then(CustomResourceSubresourceStatus::default),
            scale: info.scale.as_ref().map(|s| CustomResourceSubresourceScale {
                spec_replicas_path: s.spec_replicas_path.to_string(),
                status_replicas_path: s.status_replicas_path.to_string(),
                label_selector_path: s.label_selector_path.map(str::to_string),
            }),
        });
    CustomResourceDefinition {
        metadata: ObjectMeta {
            name: format!("{}.{}", r.plural, r.group),
            ..Default::default()
        },
        spec: CustomResourceDefinitionSpec {
            group: r.group.to_string(),
            names: CustomResourceDefinitionNames {
                kind: r.kind.to_string(),
                list_kind: format!("{}List", r.kind),
                plural: r.plural.to_string(),
                singular: r.singular.to_string(),
                short_names: strings(r.short_names),
                categories: strings(r.categories),
            },
            scope: r.scope.as_str().to_string(),
            versions: vec![CustomResourceDefinitionVersion {
                name: r.version.to_string(),
                served: info.served,
                storage: info.storage,
                deprecated: info.deprecated,
                deprecation_warning: info.deprecation_warning.map(str::to_string),
                schema: Some(CustomResourceValidation {
                    open_api_v3_schema: schema.to_value(),
                }),
                subresources,
                additional_printer_columns: info
                    .printcolumns
                    .iter()
                    .map(|c| CustomResourceColumnDefinition {
                        name: c.name.to_string(),
                        type_: c.type_.to_string(),
                        format: c.format.map(str::to_string),
                        description: c.description.map(str::to_string),
                        priority: c.priority,
                        json_path: c.json_path.to_string(),
                    })
                    .collect(),
                selectable_fields: info
                    .selectable
                    .iter()
                    .map(|p| SelectableField {
                        json_path: p.to_string(),
                    })
                    .collect(),
            }],
            conversion: None,
            preserve_unknown_fields: None,
        },
    }
}

/// Access to the parts of a generated root object, for the shared
/// serialisation code.
pub trait RootParts: Resource + Sized {
    /// The spec type.
    type Spec: Serialize + DeserializeOwned;
    /// The status type (`Unit` when the resource has none).
    type Status: Serialize + DeserializeOwned;
    /// Whether the resource declares a status.
    const HAS_STATUS: bool;
    /// Whether `spec` may be omitted on input.
    const SPEC_OPTIONAL: bool;
    /// The `apiVersion` string.
    const API_VERSION: &'static str;
    /// Borrows the parts.
    fn parts(&self) -> (&ObjectMeta, &Self::Spec, Option<&Self::Status>);
    /// Builds the object from its parts.
    fn from_parts(metadata: ObjectMeta, spec: Self::Spec, status: Option<Self::Status>) -> Self;
}

/// Writes `apiVersion`, `kind`, `metadata`, `spec` and `status` (when set).
pub fn serialize_root<R: RootParts, S: Serializer>(
    root: &R,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let (metadata, spec, status) = root.parts();
    let mut s = serializer.serialize_struct(R::KIND, 4 + usize::from(status.is_some()))?;
    s.serialize_field("apiVersion", R::API_VERSION)?;
    s.serialize_field("kind", R::KIND)?;
    s.serialize_field("metadata", metadata)?;
    s.serialize_field("spec", spec)?;
    match status {
        Some(st) => s.serialize_field("status", st)?,
        None => s.skip_field("status")?,
    }
    s.end()
}

enum RootKey {
    ApiVersion,
    Kind,
    Metadata,
    Spec,
    Status,
    Other,
}

impl<'de> Deserialize<'de> for RootKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = RootKey;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RootKey, E> {
                Ok(match v {
                    "apiVersion" => RootKey::ApiVersion,
                    "kind" => RootKey::Kind,
                    "metadata" => RootKey::Metadata,
                    "spec" => RootKey::Spec,
                    "status" => RootKey::Status,
                    _ => RootKey::Other,
                })
            }
        }
        d.deserialize_identifier(V)
    }
}

/// Reads `apiVersion` or `kind` and compares it with the expected value
/// without allocating it.
struct TypeField {
    field: &'static str,
    expected: &'static str,
}

impl<'de> de::DeserializeSeed<'de> for TypeField {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for TypeField {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the {} {:?}", self.field, self.expected)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        check_type_field(self.field, self.expected, v)
    }
}

/// Reads a root object: checks `apiVersion`/`kind` when present, ignores
/// unknown fields (the API server prunes them), requires `spec` unless it
/// is optional.
pub fn deserialize_root<'de, R: RootParts, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<R, D::Error> {
    struct RootVisitor<R>(PhantomData<R>);

    impl<'de, R: RootParts> Visitor<'de> for RootVisitor<R> {
        type Value = R;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "a {} object", R::KIND)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<R, A::Error> {
            let mut metadata: Option<ObjectMeta> = None;
            let mut spec: Option<R::Spec> = None;
            let mut status: Option<R::Status> = None;
            while let Some(key) = map.next_key::<RootKey>()? {
                match key {
                    RootKey::ApiVersion => map.next_value_seed(TypeField {
                        field: "apiVersion",
                        expected: R::API_VERSION,
                    })?,
                    RootKey::Kind => map.next_value_seed(TypeField {
                        field: "kind",
                        expected: R::KIND,
                    })?,
                    RootKey::Metadata => {
                        if metadata.is_some() {
                            return Err(de::Error::duplicate_field("metadata"));
                        }
                        metadata =
                            Some(map.next_value::<Option<ObjectMeta>>()?.unwrap_or_default());
                    }
                    RootKey::Spec => {
                        if spec.is_some() {
                            return Err(de::Error::duplicate_field("spec"));
                        }
                        spec = map.next_value()?;
                    }
                    RootKey::Status if R::HAS_STATUS => {
                        if status.is_some() {
                            return Err(de::Error::duplicate_field("status"));
                        }
                        status = map.next_value()?;
                    }
                    RootKey::Status | RootKey::Other => {
                        map.next_value::<de::IgnoredAny>()?;
                    }
                }
            }
            let spec = match spec {
                Some(spec) => spec,
                None if R::SPEC_OPTIONAL => from_empty_object::<R::Spec>().map_err(|e| {
                    de::Error::custom(format_args!(
                        "spec is omitted, and an empty spec is not valid: {e}"
                    ))
                })?,
                None => return Err(de::Error::missing_field("spec")),
            };
            Ok(R::from_parts(metadata.unwrap_or_default(), spec, status))
        }
    }

    deserializer.deserialize_map(RootVisitor(PhantomData))
}

/// The value a type reads from `{}`: what an omitted optional spec is.
pub fn from_empty_object<T: DeserializeOwned>() -> Result<T, de::value::Error> {
    T::deserialize(de::value::MapDeserializer::<_, de::value::Error>::new(
        std::iter::empty::<(&str, ())>(),
    ))
}

/// Checks the `apiVersion`/`kind` of a flattened (`no_spec`) root.
pub fn check_flat_type<E: de::Error>(
    api_version: Option<&str>,
    kind: Option<&str>,
    expected_api_version: &str,
    expected_kind: &str,
) -> Result<(), E> {
    if let Some(v) = api_version {
        check_type_field("apiVersion", expected_api_version, v)?;
    }
    if let Some(k) = kind {
        check_type_field("kind", expected_kind, k)?;
    }
    Ok(())
}

/// Whether two values serialize to the same JSON (spec comparison without
/// requiring `PartialEq` of every API type).
pub fn json_eq<T: Serialize>(a: &T, b: &T) -> bool {
    match (serde_json::to_value(a), serde_json::to_value(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// `#[kube(immutable)]`: the value may not change once set (and an
/// optional one may not be removed).
pub fn immutable<T: Serialize>(
    new: &T,
    old: &T,
    path: &crate::validation::FieldPath<'_>,
    errors: &mut crate::validation::ErrorList,
) {
    let (Ok(n), Ok(o)) = (serde_json::to_value(new), serde_json::to_value(old)) else {
        return;
    };
    if n == o || o.is_null() {
        return;
    }
    if n.is_null() {
        errors.push(crate::validation::FieldError::invalid(
            path,
            n,
            "field is immutable once set",
        ));
    } else {
        errors.push(crate::validation::FieldError::invalid(
            path,
            n,
            "field is immutable",
        ));
    }
}

/// The scope as a `Scope`.
pub const fn scope(namespaced: bool) -> Scope {
    if namespaced {
        Scope::Namespaced
    } else {
        Scope::Cluster
    }
}
