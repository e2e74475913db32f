//! The root object's serde code: `apiVersion` and `kind` written first and
//! checked on input, `spec`/`status` split.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::meta::ObjectMeta;
use crate::resource::{Resource, check_type_field};

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
