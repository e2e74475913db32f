//! The [`ApiType`] trait: what every type that appears in an API provides
//! (static defaulting, validation, and its structural schema), and its
//! implementations for the standard types serde can carry.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

use crate::__private::Keywords;
use crate::checks;
use crate::facts::{self, FieldFacts, Kind, TypeFacts};
use crate::meta::{LabelSelector, ManagedFieldsEntry, MicroTime, OwnerReference, Time};
use crate::validation::{ErrorList, FieldPath};

/// A type that can appear in a Kubernetes API: its static defaults, its
/// validation and its structural OpenAPI schema.
///
/// Implement it with `#[derive(ApiType)]` (or `#[derive(KubeResource)]`
/// for a resource's spec). The library implements it for the scalar and
/// container types serde carries, including the ones the conventions
/// forbid (`u32`, `f64`, `HashMap`, `Duration`): those carry facts that the
/// derives turn into lint errors, so that `#[kube(allow(...))]` can still
/// let them through.
///
/// A type without an implementation is reported at the field that uses it.
///
/// # A type from another crate
///
/// A type of another crate cannot be derived here, and Rust's orphan rule
/// forbids implementing this trait for it. Wrap it in a newtype and
/// implement `JsonSchema` (the schema the CRD gets) and `ApiType` (with the
/// default methods: no defaults, no validation, facts that the checks do
/// not look into) for the newtype:
///
/// ```
/// use api_core::prelude::*;
/// use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
/// use serde::{Deserialize, Serialize};
///
/// # mod other_crate {
/// #     #[derive(serde::Serialize, serde::Deserialize, Clone, Debug)]
/// #     pub struct Endpoint { pub url: String }
/// # }
/// /// An endpoint, from another crate.
/// #[derive(Serialize, Deserialize, Clone, Debug)]
/// #[serde(transparent)]
/// pub struct Endpoint(pub other_crate::Endpoint);
///
/// impl JsonSchema for Endpoint {
///     fn schema_name() -> std::borrow::Cow<'static, str> {
///         "Endpoint".into()
///     }
///     fn json_schema(_: &mut SchemaGenerator) -> Schema {
///         json_schema!({
///             "type": "object",
///             "properties": {"url": {"type": "string", "maxLength": 2048}},
///             "required": ["url"]
///         })
///     }
/// }
///
/// impl ApiType for Endpoint {}
///
/// /// ProbeSpec.
/// #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
/// #[kube(group = "example.com", version = "v1", kind = "Probe")]
/// pub struct ProbeSpec {
///     /// endpoint is what to probe.
///     pub endpoint: Endpoint,
/// }
///
/// let crd = Probe::crd().to_json();
/// let spec = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"];
/// assert_eq!(spec["properties"]["endpoint"]["properties"]["url"]["maxLength"], 2048);
/// ```
///
/// (`#[kube(schema_with = path)]` replaces a field's schema, but the
/// field's type must still implement `ApiType`.)
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be used in a Kubernetes API type: it does not implement `ApiType`",
    label = "this type has no structural schema, defaulting or validation",
    note = "derive it: `#[derive(ApiType, Serialize, Deserialize)]` on structs and enums of your API",
    note = "for a type from another crate, wrap it in a newtype of your own and implement `JsonSchema` and `ApiType` for the newtype by hand (see the docs of `ApiType`)"
)]
pub trait ApiType: JsonSchema {
    /// What the derives know about the type, for compile-time convention
    /// checks through aliases and nested types. Not a public API.
    #[doc(hidden)]
    const FACTS: &'static TypeFacts = &TypeFacts::scalar(Kind::Any, 0);

    /// Sets every unset field that has a `#[default(...)]`, recursively.
    /// Values the user set are never changed; calling it twice changes
    /// nothing the second time.
    fn apply_defaults(&mut self) {}

    /// Checks the value against the validations declared on the type,
    /// pushing one error per problem, with paths below `path`.
    fn validate(&self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        let _ = (path, errors);
    }

    /// Checks an update against the old value: fields marked
    /// `#[kube(immutable)]` may not change (the update strategy calls it,
    /// as the apiserver evaluates the `self == oldSelf` rules).
    fn validate_update(&self, old: &Self, path: &FieldPath<'_>, errors: &mut ErrorList)
    where
        Self: Sized,
    {
        let _ = (old, path, errors);
    }

    /// The JSON value of the field named `name` (for list-map keys). Not a
    /// public API: the derives implement it for structs.
    #[doc(hidden)]
    fn field_json(&self, name: &str) -> Option<serde_json::Value> {
        let _ = name;
        None
    }

    /// Checks the keywords an attribute declared on a field of this type
    /// (`minimum`, `max_length`, `pattern`, ...). Not a public API: the
    /// derives call it.
    #[doc(hidden)]
    fn check_keywords(&self, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
        let _ = (kw, path, errors);
    }

    /// The structural schema of the type as a CRD embeds it: inline (no
    /// `$ref`), typed, and never `nullable` (an `Option` is optional, not null).
    fn api_schema(generator: &mut SchemaGenerator) -> Schema
    where
        Self: Sized,
    {
        Self::json_schema(generator)
    }
}

macro_rules! scalar {
    ($($ty:ty => $kind:ident, $flags:expr, $schema:tt $(, check($v:ident, $kw:ident, $p:ident, $e:ident) $check:block)?;)*) => {$(
        impl ApiType for $ty {
            const FACTS: &'static TypeFacts = &TypeFacts::scalar(Kind::$kind, $flags);
            fn api_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!($schema)
            }
            $(
                fn check_keywords(&self, $kw: &Keywords, $p: &FieldPath<'_>, $e: &mut ErrorList) {
                    let $v = self;
                    $check
                }
            )?
        }
    )*};
}

scalar! {
    String => String, 0, { "type": "string" }, check(v, kw, p, e) { checks::string(v, kw, p, e) };
    bool => Boolean, facts::BOOL, { "type": "boolean" };
    i32 => Integer, 0, { "type": "integer", "format": "int32" }, check(v, kw, p, e) { checks::number(*v as f64, || serde_json::to_value(*v).unwrap_or_default(), kw, p, e) };
    i8 => Integer, facts::NARROW_INT, { "type": "integer" }, check(v, kw, p, e) { checks::number(*v as f64, || serde_json::to_value(*v).unwrap_or_default(), kw, p, e) };
    i16 => Integer, facts::NARROW_INT, { "type": "integer" }, check(v, kw, p, e) { checks::number(*v as f64, || serde_json::to_value(*v).unwrap_or_default(), kw, p, e) };
    i128 => Integer, facts::NARROW_INT, { "type": "integer" }, check(v, kw, p, e) { checks::number(*v as f64, || serde_json::to_value(*v).unwrap_or_default(), kw, p, e) };
    isize => Integer, facts::NARROW_INT, { "type": "integer" }, check(v, kw, p, e) { checks::number(*v as f64, || serde_json::to_value(*v).unwrap_or_default(), kw, p, e) };
    u8 => Integer, facts::UNSIGNED, { "type": "integer", "minimum": 0 }, check(v, kw, p, e) { checks::number(*v as f64, || serde_json::to_value(*v).unwrap_or_default(), kw, p, e) };
    u16 => Integer, facts::UNSIGNED, { "type": "integer", "minimum": 0 }, check(v, kw, p, e) { checks::number(*v as f64, || serde_json::to_value(*v).unwrap_or_default(), kw, p, e) };
    u32 => Integer, facts::UNSIGNED, { "type": "integer", "format": "int32", "minimum": 0 }, check(v, kw, p, e) { checks::number(*v as f64, || serde_json::to_value(*v).unwrap_or_default(), kw, p, e) };
    u64 => Integer, facts::UNSIGNED, { "type": "integer", "format": "int64", "minimum": 0 }, check(v, kw, p, e) { checks::number(*v as f64, || serde_json::to_value(*v).unwrap_or_default(), kw, p, e) };
    u128 => Integer, facts::UNSIGNED, { "type": "integer", "minimum": 0 }, check(v, kw, p, e) { checks::number(*v as f64, || serde_json::to_value(*v).unwrap_or_default(), kw, p, e) };
    usize => Integer, facts::UNSIGNED, { "type": "integer", "minimum": 0 }, check(v, kw, p, e) { checks::number(*v as f64, || serde_json::to_value(*v).unwrap_or_default(), kw, p, e) };
    f32 => Number, facts::FLOAT, { "type": "number" }, check(v, kw, p, e) { checks::number(*v as f64, || serde_json::to_value(*v).unwrap_or_default(), kw, p, e) };
    f64 => Number, facts::FLOAT, { "type": "number" }, check(v, kw, p, e) { checks::number(*v, || serde_json::to_value(*v).unwrap_or_default(), kw, p, e) };
    std::time::Duration => Object, facts::DURATION, {
        "type": "object",
        "properties": { "nanos": { "type": "integer", "format": "int32" }, "secs": { "type": "integer", "format": "int64" } },
        "required": ["nanos", "secs"]
    };
    serde_json::Value => Any, 0, { "x-kubernetes-preserve-unknown-fields": true };
    Time => String, facts::TIME, { "type": "string", "format": "date-time" };
    MicroTime => String, facts::TIME, { "type": "string", "format": "date-time" };
}

macro_rules! via_json_schema {
    ($($ty:ty => $kind:ident;)*) => {$(
        impl ApiType for $ty {
            const FACTS: &'static TypeFacts = &TypeFacts::scalar(Kind::$kind, 0);
        }
    )*};
}

via_json_schema! {
    crate::meta::ListMeta => Object;
    OwnerReference => Object;
    LabelSelector => Object;
    ManagedFieldsEntry => Object;
}

impl ApiType for i64 {
    const FACTS: &'static TypeFacts = &TypeFacts::scalar(Kind::Integer, 0);

    /// Integers beyond ±(2^53 − 1) do not survive JSON in every language,
    /// so the conventions keep `int64` values within them.
    fn validate(&self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        checks::safe_integer(*self, path, errors);
    }

    fn check_keywords(&self, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
        checks::number(*self as f64, || serde_json::json!(*self), kw, path, errors);
    }

    fn api_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "integer", "format": "int64" })
    }
}

/// The fields printer columns and selectable fields may name under
/// `.metadata`.
impl ApiType for crate::meta::ObjectMeta {
    const FACTS: &'static TypeFacts = {
        const STRING: &TypeFacts = <String as ApiType>::FACTS;
        const INT: &TypeFacts = <i64 as ApiType>::FACTS;
        const TIME: &TypeFacts = <Time as ApiType>::FACTS;
        const LABELS: &TypeFacts = <BTreeMap<String, String> as ApiType>::FACTS;
        const FIELDS: &[FieldFacts] = &[
            FieldFacts::new("name", STRING, false),
            FieldFacts::new("generateName", STRING, false),
            FieldFacts::new("namespace", STRING, false),
            FieldFacts::new("uid", STRING, false),
            FieldFacts::new("resourceVersion", STRING, false),
            FieldFacts::new("generation", INT, false),
            FieldFacts::new("creationTimestamp", TIME, false),
            FieldFacts::new("deletionTimestamp", TIME, false),
            FieldFacts::new("deletionGracePeriodSeconds", INT, false),
            FieldFacts::new("labels", LABELS, false),
            FieldFacts::new("annotations", LABELS, false),
            FieldFacts::new("finalizers", <Vec<String> as ApiType>::FACTS, false),
        ];
        &TypeFacts::object(FIELDS, 0)
    };
}

impl<T: ApiType> ApiType for Option<T> {
    const FACTS: &'static TypeFacts = T::FACTS;

    fn apply_defaults(&mut self) {
        if let Some(v) = self {
            v.apply_defaults();
        }
    }

    fn validate(&self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        if let Some(v) = self {
            v.validate(path, errors);
        }
    }

    fn check_keywords(&self, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
        if let Some(v) = self {
            v.check_keywords(kw, path, errors);
        }
    }

    fn validate_update(&self, old: &Self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        if let (Some(new), Some(old)) = (self, old) {
            new.validate_update(old, path, errors);
        }
    }

    fn api_schema(generator: &mut SchemaGenerator) -> Schema {
        T::api_schema(generator)
    }
}

impl<T: ApiType> ApiType for Box<T> {
    const FACTS: &'static TypeFacts = T::FACTS;

    fn apply_defaults(&mut self) {
        (**self).apply_defaults();
    }

    fn validate(&self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        (**self).validate(path, errors);
    }

    fn check_keywords(&self, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
        (**self).check_keywords(kw, path, errors);
    }

    fn validate_update(&self, old: &Self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        (**self).validate_update(old, path, errors);
    }

    fn api_schema(generator: &mut SchemaGenerator) -> Schema {
        T::api_schema(generator)
    }
}

/// Validates every item of a list or set at its index.
fn validate_items<'a, T: ApiType + 'a>(
    items: impl Iterator<Item = &'a T>,
    path: &FieldPath<'_>,
    errors: &mut ErrorList,
) {
    for (i, item) in items.enumerate() {
        item.validate(&path.index(i), errors);
    }
}

/// Checks a list's or set's own keywords, then its items' keywords.
fn check_item_keywords<'a, T: ApiType + 'a>(
    len: usize,
    items: impl Iterator<Item = &'a T>,
    kw: &Keywords,
    path: &FieldPath<'_>,
    errors: &mut ErrorList,
) {
    checks::items(len, kw, path, errors);
    if let Some(item_kw) = kw.items {
        for (i, item) in items.enumerate() {
            item.check_keywords(item_kw, &path.index(i), errors);
        }
    }
}

/// The schema of a set: an array with `x-kubernetes-list-type: set`.
fn set_schema<T: ApiType>(generator: &mut SchemaGenerator) -> Schema {
    let mut s = array_schema::<T>(generator);
    s.insert("x-kubernetes-list-type".into(), "set".into());
    s
}

fn array_schema<T: ApiType>(generator: &mut SchemaGenerator) -> Schema {
    // Moved in, not serialised: `json_schema!` would deep-copy the items.
    let mut s = json_schema!({ "type": "array" });
    s.insert("items".into(), T::api_schema(generator).to_value());
    s
}

impl<T: ApiType> ApiType for Vec<T> {
    const FACTS: &'static TypeFacts = &TypeFacts::array(T::FACTS, 0);

    fn apply_defaults(&mut self) {
        self.iter_mut().for_each(ApiType::apply_defaults);
    }

    fn validate(&self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        validate_items(self.iter(), path, errors);
    }

    fn check_keywords(&self, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
        check_item_keywords(self.len(), self.iter(), kw, path, errors);
    }

    fn api_schema(generator: &mut SchemaGenerator) -> Schema {
        array_schema::<T>(generator)
    }
}

impl<T: ApiType + Ord> ApiType for BTreeSet<T> {
    const FACTS: &'static TypeFacts = &TypeFacts::array(T::FACTS, facts::SET);

    fn validate(&self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        validate_items(self.iter(), path, errors);
    }

    fn check_keywords(&self, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
        check_item_keywords(self.len(), self.iter(), kw, path, errors);
    }

    fn api_schema(generator: &mut SchemaGenerator) -> Schema {
        set_schema::<T>(generator)
    }
}

impl<T: ApiType + Eq + std::hash::Hash, S: std::hash::BuildHasher + Default> ApiType
    for HashSet<T, S>
{
    const FACTS: &'static TypeFacts = &TypeFacts::array(T::FACTS, facts::SET | facts::HASH_MAP);

    fn validate(&self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        validate_items(self.iter(), path, errors);
    }

    fn check_keywords(&self, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
        check_item_keywords(self.len(), self.iter(), kw, path, errors);
    }

    fn api_schema(generator: &mut SchemaGenerator) -> Schema {
        set_schema::<T>(generator)
    }
}

/// A type that can key an API map (`BTreeMap<K, V>`, `HashMap<K, V>`):
/// it is a string in JSON, as every map key is.
///
/// Implemented for `String`, and by the derive for a newtype of `String`
/// (Gateway API's `map[LabelKey]LabelValue` is `BTreeMap<LabelKey,
/// LabelValue>`) and for a string enum. The schema says nothing about keys
/// (controller-gen writes nothing for Go's key types either), so a key
/// type's keywords are not checked.
///
/// ```
/// use api_core::prelude::*;
/// use serde::{Deserialize, Serialize};
/// use std::collections::BTreeMap;
///
/// /// LabelKey is the key of a label.
/// #[derive(ApiType, Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
/// pub struct LabelKey(#[kube(max_length = 317)] pub String);
///
/// /// Labels to put on what is created.
/// #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default)]
/// pub struct Infrastructure {
///     /// labels to add.
///     #[kube(max_properties = 8)]
///     #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
///     pub labels: BTreeMap<LabelKey, String>,
/// }
/// assert_eq!(api_core::MapKey::as_key(&LabelKey("app".into())), "app");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot key a map of a Kubernetes API type: map keys are JSON strings",
    label = "not a string key",
    note = "use `String`, or a newtype of `String` or a string enum with `#[derive(ApiType)]` (which implements `MapKey`)"
)]
pub trait MapKey {
    /// The key as JSON writes it, for field paths (`spec.labels[app]`).
    fn as_key(&self) -> &str;
}

impl MapKey for String {
    fn as_key(&self) -> &str {
        self
    }
}

fn map_schema<V: ApiType>(generator: &mut SchemaGenerator) -> Schema {
    let mut s = json_schema!({ "type": "object" });
    s.insert(
        "additionalProperties".into(),
        V::api_schema(generator).to_value(),
    );
    s
}

impl<K: MapKey + JsonSchema + Ord, V: ApiType> ApiType for BTreeMap<K, V> {
    const FACTS: &'static TypeFacts = &TypeFacts::map(V::FACTS, 0);

    fn apply_defaults(&mut self) {
        self.values_mut().for_each(ApiType::apply_defaults);
    }

    fn validate(&self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        for (k, v) in self {
            v.validate(&path.key(k.as_key()), errors);
        }
    }

    fn check_keywords(&self, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
        checks::properties(self.len(), kw, path, errors);
    }

    fn api_schema(generator: &mut SchemaGenerator) -> Schema {
        map_schema::<V>(generator)
    }
}

impl<K: MapKey + JsonSchema + Eq + std::hash::Hash, V: ApiType, S: std::hash::BuildHasher + Default>
    ApiType for HashMap<K, V, S>
{
    const FACTS: &'static TypeFacts = &TypeFacts::map(V::FACTS, facts::HASH_MAP);

    fn apply_defaults(&mut self) {
        self.values_mut().for_each(ApiType::apply_defaults);
    }

    fn validate(&self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        // Sorted, so that errors come in a stable order.
        let mut entries: Vec<(&K, &V)> = self.iter().collect();
        entries.sort_by_key(|(k, _)| k.as_key());
        for (k, v) in entries {
            v.validate(&path.key(k.as_key()), errors);
        }
    }

    fn check_keywords(&self, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
        checks::properties(self.len(), kw, path, errors);
    }

    fn api_schema(generator: &mut SchemaGenerator) -> Schema {
        map_schema::<V>(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema<T: ApiType>() -> serde_json::Value {
        T::api_schema(&mut SchemaGenerator::default()).to_value()
    }

    #[test]
    fn options_are_not_nullable() {
        assert_eq!(
            schema::<Option<i32>>(),
            serde_json::json!({"type": "integer", "format": "int32"})
        );
        assert_eq!(
            schema::<Option<Vec<String>>>(),
            serde_json::json!({"type": "array", "items": {"type": "string"}})
        );
        assert_eq!(
            schema::<BTreeMap<String, Option<Time>>>(),
            serde_json::json!({"type": "object", "additionalProperties": {"type": "string", "format": "date-time"}})
        );
    }

    #[test]
    fn facts_see_through_containers() {
        let f = <Option<Vec<BTreeMap<String, f64>>> as ApiType>::FACTS;
        assert_eq!(f.kind, Kind::Array);
        assert!(f.deep_flags & facts::FLOAT != 0);
        assert_eq!(f.flags & facts::FLOAT, 0);
        assert_eq!(f.depth, 3);
        let h = <HashMap<String, u32> as ApiType>::FACTS;
        assert!(h.flags & facts::HASH_MAP != 0);
        assert!(h.deep_flags & facts::UNSIGNED != 0);
    }
}
