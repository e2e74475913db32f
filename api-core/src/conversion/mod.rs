//! Multi-version APIs: conversion through a hub, the merged CRD, the
//! conversion webhook and round-trip checks.
//!
//! One kind is defined once per version, each in its own module with its
//! own `#[derive(KubeResource)]` (`version`, `served`, `storage`,
//! `deprecated`). One version type is the **hub** (usually the storage
//! version); every other version (a spoke) converts to and from it with
//! plain `TryFrom` (or `From`) impls written by the user:
//!
//! ```text
//!   v1alpha1::CronTab ⇄ v1::CronTab (hub) ⇄ v1beta1::CronTab
//! ```
//!
//! [`Versions`] is the conversion graph built from those impls: it converts
//! any version to any other through the hub, builds the one CRD with every
//! version ([`Versions::crd`], with `spec.conversion` set when the schemas
//! differ), answers `ConversionReview`s ([`Versions::review`], for a
//! conversion webhook served from any HTTP framework), and lets a
//! [`Registry`](crate::registry::Registry) store objects in the storage
//! version while serving every served version
//! ([`Registry::with_versions`](crate::registry::Registry::with_versions)).
//!
//! # Fields a version cannot represent
//!
//! The conventions require that "all versions of the same resource must be
//! able to be converted back and forth between forms without losing
//! information". A field that an older version lacks is kept in an
//! annotation of the older form, as Kubernetes does: [`stash`] writes it
//! when converting from the hub, [`unstash`] takes it back (and removes the
//! annotation) when converting to the hub, under a key from
//! [`annotation_key`] (`conversion.<group>/<field path>`).
//! [`assert_lossless`] checks a pair of conversions on samples.
//!
//! ```
//! use api_core::conversion::{self, ConversionError, Versions};
//! use api_core::prelude::*;
//! use serde::{Deserialize, Serialize};
//!
//! mod v1 {
//!     # use api_core::prelude::*;
//!     # use serde::{Deserialize, Serialize};
//!     /// Spec.
//!     #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
//!     #[kube(group = "example.com", version = "v1", kind = "Widget", namespaced)]
//!     #[serde(rename_all = "camelCase")]
//!     pub struct WidgetSpec {
//!         /// The size (renamed from `count` in v1alpha1).
//!         pub size: i32,
//!         /// The color (new in v1).
//!         #[serde(default, skip_serializing_if = "Option::is_none")]
//!         pub color: Option<String>,
//!     }
//! }
//! mod v1alpha1 {
//!     # use api_core::prelude::*;
//!     # use serde::{Deserialize, Serialize};
//!     /// Spec.
//!     #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
//!     #[kube(group = "example.com", version = "v1alpha1", kind = "Widget", namespaced,
//!            storage = false)]
//!     pub struct WidgetSpec {
//!         /// The size.
//!         pub count: i32,
//!     }
//! }
//!
//! const COLOR: &str = "conversion.example.com/spec.color";
//!
//! impl TryFrom<v1alpha1::Widget> for v1::Widget {
//!     type Error = ConversionError;
//!     fn try_from(mut old: v1alpha1::Widget) -> Result<Self, ConversionError> {
//!         let color = conversion::unstash(&mut old.metadata, COLOR)?;
//!         Ok(v1::Widget {
//!             metadata: old.metadata,
//!             spec: v1::WidgetSpec { size: old.spec.count, color },
//!         })
//!     }
//! }
//!
//! impl TryFrom<v1::Widget> for v1alpha1::Widget {
//!     type Error = ConversionError;
//!     fn try_from(mut new: v1::Widget) -> Result<Self, ConversionError> {
//!         conversion::stash(&mut new.metadata, COLOR, &new.spec.color)?;
//!         Ok(v1alpha1::Widget {
//!             metadata: new.metadata,
//!             spec: v1alpha1::WidgetSpec { count: new.spec.size },
//!         })
//!     }
//! }
//!
//! let versions = Versions::<v1::Widget>::new()
//!     .version::<v1alpha1::Widget>()
//!     .webhook(api_core::crd::WebhookClientConfig::service("system", "widget-webhook"));
//! let crd = versions.crd().unwrap();
//! assert_eq!(crd.spec.versions.len(), 2);
//! assert_eq!(crd.spec.conversion.unwrap().strategy, "Webhook");
//!
//! let blue = v1::Widget::new("w", v1::WidgetSpec { size: 3, color: Some("blue".into()) });
//! // v1 -> v1alpha1 -> v1 keeps the color in an annotation on the way.
//! conversion::assert_lossless::<v1::Widget, v1alpha1::Widget>([blue.clone()]);
//! let old: v1alpha1::Widget = versions.convert_object(&blue).unwrap();
//! assert_eq!(old.spec.count, 3);
//! assert_eq!(old.metadata.annotations[COLOR], "\"blue\"");
//! ```

mod review;

use std::any::TypeId;
use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::api_type::ApiType;
use crate::crd::{
    CompatibilityWarning, CustomResourceConversion, CustomResourceDefinition, MergeError,
    WebhookClientConfig, compatibility_warnings, merge,
};
use crate::meta::ObjectMeta;
use crate::resource::{CustomResourceExt, Resource};
use crate::status::Status;

pub use review::{ConversionRequest, ConversionResponse, ConversionReview};

/// A conversion that failed: a user's `TryFrom` error, an object that does
/// not decode as its version, or a version that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConversionError {
    message: String,
}

impl ConversionError {
    /// An error with `message`.
    pub fn new(message: impl Into<String>) -> Self {
        ConversionError {
            message: message.into(),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConversionError {}

impl From<std::convert::Infallible> for ConversionError {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

/// The annotation key under which a version keeps the value of a field it
/// cannot represent: `conversion.<group>/<field>`, for the kind `K`
/// (`field` is a JSON path such as `spec.color`).
///
/// ```
/// # use api_core::prelude::*;
/// # use serde::{Deserialize, Serialize};
/// # /// Spec.
/// # #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
/// # #[kube(group = "example.com", version = "v1", kind = "Widget", namespaced)]
/// # pub struct WidgetSpec {}
/// assert_eq!(
///     api_core::conversion::annotation_key::<Widget>("spec.color"),
///     "conversion.example.com/spec.color"
/// );
/// ```
pub fn annotation_key<K: Resource>(field: &str) -> String {
    format!("conversion.{}/{field}", K::GROUP)
}

/// Keeps `value` (as JSON) in the annotation `key` of `meta`, for a
/// conversion to a version without the field; a value that is JSON `null`
/// (a `None`) removes the annotation instead, as there is nothing to keep.
pub fn stash<T: Serialize + ?Sized>(
    meta: &mut ObjectMeta,
    key: &str,
    value: &T,
) -> Result<(), ConversionError> {
    let json = serde_json::to_value(value)
        .map_err(|e| ConversionError::new(format!("cannot keep {key}: {e}")))?;
    if json.is_null() {
        meta.annotations.remove(key);
    } else {
        meta.annotations.insert(key.to_string(), json.to_string());
    }
    Ok(())
}

/// Takes back a value [`stash`]ed under `key` and removes the annotation;
/// `None` when there is none. An annotation that does not decode as `T`
/// is an error naming the key.
pub fn unstash<T: DeserializeOwned>(
    meta: &mut ObjectMeta,
    key: &str,
) -> Result<Option<T>, ConversionError> {
    let Some(text) = meta.annotations.remove(key) else {
        return Ok(None);
    };
    serde_json::from_str(&text).map(Some).map_err(|e| {
        ConversionError::new(format!(
            "metadata.annotations[{key}] does not hold a valid value: {e}"
        ))
    })
}

/// The first place two JSON values differ (the first operation of
/// `json_patch::diff`), as a JSON pointer with both sides.
fn first_difference(before: &Value, after: &Value) -> Option<String> {
    let patch = json_patch::diff(before, after);
    let path = patch.0.first()?.path().as_str();
    let side = |v: &Value| v.pointer(path).map_or("absent".into(), Value::to_string);
    Some(format!(
        "{}: {} before, {} after",
        if path.is_empty() { "/" } else { path },
        side(before),
        side(after)
    ))
}

/// Converts `a` to `B` and back, and returns where the result differs from
/// `a` (compared as JSON), or the conversion error; `None` when the round
/// trip is lossless. [`assert_lossless`] panics with this message.
pub fn round_trip_difference<A, B>(a: A) -> Option<String>
where
    A: Serialize + TryFrom<B>,
    B: TryFrom<A>,
    <A as TryFrom<B>>::Error: fmt::Display,
    <B as TryFrom<A>>::Error: fmt::Display,
{
    let (from, to) = (std::any::type_name::<A>(), std::any::type_name::<B>());
    let before = match serde_json::to_value(&a) {
        Ok(v) => v,
        Err(e) => return Some(format!("{from} does not encode: {e}")),
    };
    let b = match B::try_from(a) {
        Ok(b) => b,
        Err(e) => return Some(format!("{from} -> {to} failed: {e}")),
    };
    let back = match A::try_from(b) {
        Ok(a) => a,
        Err(e) => return Some(format!("{to} -> {from} failed: {e}")),
    };
    let after = match serde_json::to_value(&back) {
        Ok(v) => v,
        Err(e) => return Some(format!("{from} does not encode: {e}")),
    };
    first_difference(&before, &after).map(|diff| {
        format!(
            "{from} -> {to} -> {from} is not lossless at {diff}\nbefore: {before}\nafter:  {after}"
        )
    })
}

/// Asserts that every sample survives `A -> B -> A` unchanged (compared as
/// JSON), with the user's `TryFrom`/`From` conversions. Check each spoke
/// against the hub both ways (`<Spoke, Hub>` on spoke samples and
/// `<Hub, Spoke>` on hub samples, as controller-runtime's conversion tests
/// do): that makes any path through the hub lossless. Works inside
/// proptest, whose runner reports the shrunk failing sample.
///
/// # Panics
///
/// On the first sample that changes or fails to convert, with the sample's
/// index, the first JSON pointer that differs, and both JSON forms.
pub fn assert_lossless<A, B>(samples: impl IntoIterator<Item = A>)
where
    A: Serialize + TryFrom<B>,
    B: TryFrom<A>,
    <A as TryFrom<B>>::Error: fmt::Display,
    <B as TryFrom<A>>::Error: fmt::Display,
{
    for (i, a) in samples.into_iter().enumerate() {
        if let Some(problem) = round_trip_difference::<A, B>(a) {
            panic!("sample {i}: {problem}");
        }
    }
}

type ToHub<H> = fn(Value, bool) -> Result<H, ConversionError>;
type FromHub<H> = fn(H) -> Result<Value, ConversionError>;
type Defaults = fn(Value) -> Result<Value, ConversionError>;

/// One version of the kind, type-erased.
struct Entry<H> {
    api_version: String,
    type_id: TypeId,
    crd: CustomResourceDefinition,
    to_hub: ToHub<H>,
    from_hub: FromHub<H>,
    defaults: Defaults,
}

/// The JSON object as the version `V`.
fn decode_as<V: DeserializeOwned + Resource>(value: Value) -> Result<V, ConversionError> {
    serde_json::from_value(value).map_err(|e| {
        ConversionError::new(format!(
            "the object is not a valid {} {}: {e}",
            V::api_version(),
            V::KIND
        ))
    })
}

/// The version `V` as JSON.
fn encode_as<V: Serialize + Resource>(obj: &V) -> Result<Value, ConversionError> {
    serde_json::to_value(obj)
        .map_err(|e| ConversionError::new(format!("{} does not encode: {e}", V::api_version())))
}

fn to_hub<V, H>(value: Value, defaults: bool) -> Result<H, ConversionError>
where
    V: DeserializeOwned + ApiType + Resource,
    H: TryFrom<V>,
    <H as TryFrom<V>>::Error: fmt::Display,
{
    let mut obj: V = decode_as(value)?;
    if defaults {
        obj.apply_defaults();
    }
    H::try_from(obj).map_err(|e| {
        ConversionError::new(format!("conversion from {} failed: {e}", V::api_version()))
    })
}

fn defaults<V>(value: Value) -> Result<Value, ConversionError>
where
    V: Serialize + DeserializeOwned + ApiType + Resource,
{
    let mut obj: V = decode_as(value)?;
    obj.apply_defaults();
    encode_as(&obj)
}

fn from_hub<V, H>(hub: H) -> Result<Value, ConversionError>
where
    V: Serialize + TryFrom<H> + Resource,
    <V as TryFrom<H>>::Error: fmt::Display,
{
    let obj = V::try_from(hub).map_err(|e| {
        ConversionError::new(format!("conversion to {} failed: {e}", V::api_version()))
    })?;
    encode_as(&obj)
}

/// The versions of one kind and the conversions between them, through
/// the hub `H` (see the [module docs](self)).
///
/// Build it once (`Versions::<Hub>::new().version::<Spoke>()...`) and share
/// it (`Arc`) between registries and a webhook handler; it is `Send +
/// Sync`.
pub struct Versions<H> {
    entries: Vec<Entry<H>>,
    conversion: Option<CustomResourceConversion>,
}

impl<H> fmt::Debug for Versions<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Versions")
            .field(
                "versions",
                &self
                    .entries
                    .iter()
                    .map(|e| e.api_version.as_str())
                    .collect::<Vec<_>>(),
            )
            .field("conversion", &self.conversion)
            .finish()
    }
}

impl<H> Versions<H>
where
    H: CustomResourceExt + ApiType + Serialize + DeserializeOwned + 'static,
{
    /// The graph with only the hub version.
    pub fn new() -> Self {
        Versions {
            entries: Vec::new(),
            conversion: None,
        }
        .version::<H>()
    }

    /// Adds the version `V`, converted to and from the hub with the
    /// user's `TryFrom` (or `From`) impls. A version added twice, or one of
    /// another kind, is reported by [`crd`](Self::crd) (and refused by the
    /// registry).
    pub fn version<V>(mut self) -> Self
    where
        V: CustomResourceExt + ApiType + Serialize + DeserializeOwned + TryFrom<H> + 'static,
        H: TryFrom<V>,
        <H as TryFrom<V>>::Error: fmt::Display,
        <V as TryFrom<H>>::Error: fmt::Display,
    {
        self.entries.push(Entry {
            api_version: V::api_version().into_owned(),
            type_id: TypeId::of::<V>(),
            crd: V::crd(),
            to_hub: to_hub::<V, H>,
            from_hub: from_hub::<V, H>,
            defaults: defaults::<V>,
        });
        self
    }

    /// Serves the conversion webhook at `client_config`: the CRD's
    /// `spec.conversion` becomes `Webhook`, speaking `ConversionReview`
    /// v1.
    pub fn webhook(mut self, client_config: WebhookClientConfig) -> Self {
        self.conversion = Some(CustomResourceConversion::webhook(client_config));
        self
    }

    /// Sets `spec.conversion` explicitly, whatever the schemas
    /// (`CustomResourceConversion::none()` when the versions differ only
    /// in ways the apiserver need not convert).
    pub fn conversion(mut self, conversion: CustomResourceConversion) -> Self {
        self.conversion = Some(conversion);
        self
    }

    fn entry(&self, api_version: &str) -> Option<&Entry<H>> {
        self.entries.iter().find(|e| e.api_version == api_version)
    }

    fn served(e: &Entry<H>) -> bool {
        e.crd.spec.versions.iter().all(|v| v.served)
    }

    /// The `apiVersion` of the hub (`group/version`).
    pub fn hub(&self) -> String {
        H::api_version().into_owned()
    }

    /// The `apiVersion`s of every version, in the order they were added
    /// (the hub first).
    pub fn api_versions(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.api_version.as_str())
    }

    /// The `apiVersion` of the storage version, when exactly one version
    /// is marked `storage`.
    pub fn storage_version(&self) -> Option<&str> {
        let mut storage = self
            .entries
            .iter()
            .filter(|e| e.crd.spec.versions.iter().any(|v| v.storage));
        match (storage.next(), storage.next()) {
            (Some(e), None) => Some(e.api_version.as_str()),
            _ => None,
        }
    }

    /// Whether `api_version` is one of the versions and is served.
    pub fn is_served(&self, api_version: &str) -> bool {
        self.entry(api_version).is_some_and(Self::served)
    }

    /// Whether the type `V` is the one registered for its version.
    pub(crate) fn has_type<V: Resource + 'static>(&self) -> bool {
        self.entry(&V::api_version())
            .is_some_and(|e| e.type_id == TypeId::of::<V>())
    }

    /// The CRD with every version (see [`merge`]): same group, kind, scope
    /// and names, unique version names, exactly one storage version.
    /// `spec.conversion` is the [`webhook`](Self::webhook) (or the
    /// explicit [`conversion`](Self::conversion)) when one is set; without
    /// one it is left out when every version has the same shape (as
    /// controller-gen does), and [`MergeError::ConversionRequired`] when
    /// they differ. The shape is the schema's fields and types
    /// (`properties`, `items`, `additionalProperties`, `type` and the
    /// `x-kubernetes-*` keywords that change what a value may be);
    /// descriptions, defaults and validations may differ between versions
    /// without a conversion, since the apiserver applies each version's
    /// own. (A webhook on identical schemas is kept: the meaning
    /// of a field can change between versions while its schema does not.)
    pub fn crd(&self) -> Result<CustomResourceDefinition, MergeError> {
        let mut crd = merge(self.entries.iter().map(|e| e.crd.clone()))?;
        let shapes: Vec<Value> = crd
            .spec
            .versions
            .iter()
            .map(|v| {
                v.schema
                    .as_ref()
                    .map_or(Value::Null, |s| shape(&s.open_api_v3_schema))
            })
            .collect();
        let same = shapes.windows(2).all(|w| w[0] == w[1]);
        crd.spec.conversion = match &self.conversion {
            Some(c) => Some(c.clone()),
            None if same => None,
            None => {
                return Err(MergeError::ConversionRequired(
                    crd.spec.versions.iter().map(|v| v.name.clone()).collect(),
                ));
            }
        };
        Ok(crd)
    }

    /// Fields that a served version has and the next newer served version
    /// lacks ([`compatibility_warnings`]); empty when the CRD does not
    /// merge (see [`crd`](Self::crd) for why).
    pub fn warnings(&self) -> Vec<CompatibilityWarning> {
        let crd = merge(self.entries.iter().map(|e| e.crd.clone()));
        crd.map(|crd| compatibility_warnings(&crd))
            .unwrap_or_default()
    }

    fn lookup(&self, api_version: &str) -> Result<&Entry<H>, ConversionError> {
        self.entry(api_version).ok_or_else(|| {
            ConversionError::new(format!(
                "{api_version:?} is not a version of {}; known: {}",
                H::KIND,
                self.api_versions().collect::<Vec<_>>().join(", ")
            ))
        })
    }

    /// Converts a JSON object (in any known version, named by its
    /// `apiVersion`) to the hub, without defaulting.
    pub fn to_hub(&self, obj: Value) -> Result<H, ConversionError> {
        self.to_hub_inner(obj, false)
    }

    fn to_hub_inner(&self, obj: Value, defaults: bool) -> Result<H, ConversionError> {
        let from = obj
            .get("apiVersion")
            .and_then(Value::as_str)
            .ok_or_else(|| ConversionError::new("the object has no apiVersion"))?;
        let entry = self.lookup(from)?;
        (entry.to_hub)(obj, defaults)
    }

    /// Converts the hub object to `api_version`, as JSON.
    pub fn from_hub(&self, hub: H, api_version: &str) -> Result<Value, ConversionError> {
        (self.lookup(api_version)?.from_hub)(hub)
    }

    /// Converts a JSON object to `api_version` through the hub, without
    /// defaulting (what a conversion webhook does). An object already in
    /// that version is returned as it is.
    pub fn convert(&self, obj: Value, api_version: &str) -> Result<Value, ConversionError> {
        self.convert_inner(obj, api_version, false)
    }

    /// [`convert`](Self::convert), optionally applying the source
    /// version's defaults first (what the apiserver does to an object it
    /// reads from storage).
    pub(crate) fn convert_inner(
        &self,
        obj: Value,
        api_version: &str,
        defaults: bool,
    ) -> Result<Value, ConversionError> {
        let target = self.lookup(api_version)?;
        if obj.get("apiVersion").and_then(Value::as_str) == Some(api_version) {
            return if defaults {
                (target.defaults)(obj)
            } else {
                Ok(obj)
            };
        }
        let hub = self.to_hub_inner(obj, defaults)?;
        (target.from_hub)(hub)
    }

    /// Converts a typed object of one version to another (`A` and `B`
    /// must be versions of this kind).
    pub fn convert_object<A, B>(&self, obj: &A) -> Result<B, ConversionError>
    where
        A: Serialize + Resource,
        B: DeserializeOwned + Resource,
    {
        let value = serde_json::to_value(obj)
            .map_err(|e| ConversionError::new(format!("{} does not encode: {e}", A::KIND)))?;
        let converted = self.convert(value, &B::api_version())?;
        serde_json::from_value(converted)
            .map_err(|e| ConversionError::new(format!("{} does not decode: {e}", B::KIND)))
    }

    /// Checks that `api_version` is served, with the apiserver's answer
    /// when it is not: 404 `NotFound`, as for any unknown endpoint.
    pub fn check_served(&self, api_version: &str) -> Result<(), Status> {
        if self.is_served(api_version) {
            Ok(())
        } else {
            Err(Status::failure(
                crate::status::StatusReason::NotFound,
                "the server could not find the requested resource",
            ))
        }
    }
}

impl<H> Default for Versions<H>
where
    H: CustomResourceExt + ApiType + Serialize + DeserializeOwned + 'static,
{
    fn default() -> Self {
        Self::new()
    }
}

/// The fields and types of a schema, without what may differ between
/// versions that the `None` conversion serves alike (descriptions,
/// defaults, validations).
fn shape(schema: &Value) -> Value {
    let Some(object) = schema.as_object() else {
        return schema.clone();
    };
    let mut out = serde_json::Map::new();
    for (key, value) in object {
        match key.as_str() {
            "properties" => {
                let properties = value.as_object().map(|p| {
                    p.iter()
                        .map(|(name, s)| (name.clone(), shape(s)))
                        .collect::<serde_json::Map<_, _>>()
                });
                out.insert(key.clone(), properties.map_or(Value::Null, Value::Object));
            }
            "items" | "additionalProperties" => {
                out.insert(key.clone(), shape(value));
            }
            "type"
            | "x-kubernetes-preserve-unknown-fields"
            | "x-kubernetes-int-or-string"
            | "x-kubernetes-embedded-resource" => {
                out.insert(key.clone(), value.clone());
            }
            _ => {}
        }
    }
    Value::Object(out)
}

/// How a [`Registry`](crate::registry::Registry) of one version reads and
/// writes the storage version.
pub(crate) trait StorageCodec: Send + Sync {
    /// An object in its own version to the storage version.
    fn write_stored(&self, obj: Value) -> Result<Value, ConversionError>;
    /// A stored object to `api_version`, with the storage version's
    /// defaults applied first.
    fn read_stored(&self, stored: Value, api_version: &str) -> Result<Value, ConversionError>;
}

/// Conversion strategy `None` (apiextensions' `nopConverter`): versions
/// differ only in `apiVersion`; and what is read decoded as the
/// apiserver's storage decoder does, with the storage version's schema:
/// unknown fields pruned, the metadata of embedded resources read as
/// ObjectMeta, nulls that are neither nullable nor defaulted dropped, and
/// the defaults applied (apiextensions defaults "when reading from etcd
/// using the storage version defaults").
pub(crate) struct NoneConversion {
    /// The storage version's `apiVersion`, when it is another version's.
    pub(crate) storage: Option<String>,
    /// The registry's own (a kind known at run time has no
    /// `K::api_version()` to read it as).
    pub(crate) served: String,
    /// The storage version's schema, which reads are decoded with.
    pub(crate) schema: Option<std::sync::Arc<crate::schema::structural::SchemaValidator>>,
    /// Whether that schema has defaults (most have none: no walk for them).
    pub(crate) defaults: bool,
}

impl StorageCodec for NoneConversion {
    fn write_stored(&self, mut obj: Value) -> Result<Value, ConversionError> {
        if let (Some(storage), Some(members)) = (&self.storage, obj.as_object_mut()) {
            members.insert("apiVersion".into(), Value::String(storage.clone()));
        }
        Ok(obj)
    }

    fn read_stored(&self, mut stored: Value, _: &str) -> Result<Value, ConversionError> {
        if let Some(schema) = &self.schema {
            schema.prune(&mut stored, true);
            crate::schema::defaulting::prune_non_nullable_nulls_without_defaults(
                &mut stored,
                schema.schema(),
            );
            if self.defaults {
                crate::schema::defaulting::default(&mut stored, schema.schema());
            }
            schema.coerce_embedded_metadata(&mut stored, false);
        }
        if let Some(members) = stored.as_object_mut() {
            members.insert("apiVersion".into(), Value::String(self.served.clone()));
        }
        Ok(stored)
    }
}

impl<H> StorageCodec for Versions<H>
where
    H: CustomResourceExt + ApiType + Serialize + DeserializeOwned + 'static,
{
    fn write_stored(&self, obj: Value) -> Result<Value, ConversionError> {
        let storage = self
            .storage_version()
            .ok_or_else(|| ConversionError::new("no single storage version"))?
            .to_string();
        self.convert(obj, &storage)
    }

    fn read_stored(&self, stored: Value, api_version: &str) -> Result<Value, ConversionError> {
        self.convert_inner(stored, api_version, true)
    }
}
