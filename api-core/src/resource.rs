//! The [`Resource`] trait (what a kind is and where it lives), the spec and
//! status accessors, and [`List`], the `<Kind>List` of any resource.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::meta::{ListMeta, ObjectMeta};

/// Whether objects of a kind live in a namespace or in the whole cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Objects live in a namespace (`metadata.namespace` is required).
    Namespaced,
    /// Objects are cluster-wide (`metadata.namespace` is forbidden).
    Cluster,
}

impl Scope {
    /// `"Namespaced"` or `"Cluster"`, as a CRD's `spec.scope` spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::Namespaced => "Namespaced",
            Scope::Cluster => "Cluster",
        }
    }

    /// Whether objects need a namespace.
    pub const fn is_namespaced(self) -> bool {
        matches!(self, Scope::Namespaced)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A Kubernetes kind: its group, version, names and scope, and access to
/// the metadata of its objects. `#[derive(KubeResource)]` implements it for
/// the root struct it generates.
pub trait Resource {
    /// The API group (`cache.example.com`); empty for the core group.
    const GROUP: &'static str;
    /// The version (`v1alpha1`).
    const VERSION: &'static str;
    /// The kind, CamelCase (`Memcached`).
    const KIND: &'static str;
    /// The lowercase plural used in URLs (`memcacheds`).
    const PLURAL: &'static str;
    /// The lowercase singular (`memcached`).
    const SINGULAR: &'static str;
    /// Short names for the CLI (`mc`).
    const SHORT_NAMES: &'static [&'static str] = &[];
    /// Categories the resource belongs to (`all`).
    const CATEGORIES: &'static [&'static str] = &[];
    /// Namespaced or cluster-scoped.
    const SCOPE: Scope;

    /// `group/version`, or just `version` for the core group.
    fn api_version() -> Cow<'static, str> {
        if Self::GROUP.is_empty() {
            Cow::Borrowed(Self::VERSION)
        } else {
            Cow::Owned(format!("{}/{}", Self::GROUP, Self::VERSION))
        }
    }

    /// The object's metadata.
    fn metadata(&self) -> &ObjectMeta;

    /// The object's metadata, mutably.
    fn metadata_mut(&mut self) -> &mut ObjectMeta;

    /// Shorthand for `metadata().name`.
    fn name(&self) -> &str {
        &self.metadata().name
    }

    /// Shorthand for `metadata().namespace`; empty for cluster-scoped objects.
    fn namespace(&self) -> &str {
        &self.metadata().namespace
    }
}

/// A resource whose CustomResourceDefinition can be generated. Implemented
/// by `#[derive(KubeResource)]`; generic code (`crdgen`, `crd::merge`)
/// calls it through this trait.
pub trait CustomResourceExt: Resource {
    /// The single-version CRD of this version of the resource.
    fn crd() -> crate::crd::CustomResourceDefinition;

    /// The CRD's name: `<plural>.<group>`.
    fn crd_name() -> String {
        format!("{}.{}", Self::PLURAL, Self::GROUP)
    }
}

/// What the storage strategies need to know about a resource's spec/status
/// split, generically. `#[derive(KubeResource)]` implements it.
pub trait SpecStatus: Resource {
    /// Whether status is written through the `/status` subresource (and
    /// the main endpoint keeps the old status).
    const STATUS_SUBRESOURCE: bool;

    /// Whether the two objects have the same spec (what bumps
    /// `metadata.generation`).
    fn spec_equal(&self, other: &Self) -> bool;

    /// Whether the two objects have the same status (without a status
    /// subresource, a status change also bumps `metadata.generation`).
    fn status_equal(&self, other: &Self) -> bool;

    /// Drops the status (a create through the main endpoint).
    fn clear_status(&mut self);

    /// Takes `from`'s status (an update through the main endpoint).
    fn copy_status(&mut self, from: &Self);

    /// Takes `from`'s spec (an update through `/status`).
    fn copy_spec(&mut self, from: &Self);
}

/// A resource with a `spec`: the desired state.
pub trait HasSpec {
    /// The spec type.
    type Spec;
    /// The desired state.
    fn spec(&self) -> &Self::Spec;
    /// The desired state, mutably.
    fn spec_mut(&mut self) -> &mut Self::Spec;
}

/// A resource with a `status`: the observed state, absent until a
/// controller first writes it.
pub trait HasStatus {
    /// The status type.
    type Status;
    /// The observed state, if any.
    fn status(&self) -> Option<&Self::Status>;
    /// The observed state, mutably (set it to `Some` to write one).
    fn status_mut(&mut self) -> &mut Option<Self::Status>;
}

/// A root object taken apart into its metadata, spec and status, and put
/// back together: what generic code needs to hold the same object in
/// another shape (kube-rs' view of it, `api_core::kube::Kube` with feature
/// `kube`). `#[derive(KubeResource)]` implements it.
pub trait ResourceParts: Resource + Sized {
    /// The spec type.
    type Spec;
    /// The status type ([`NoStatus`] for a kind without one).
    type Status;
    /// Where objects live, as a type ([`NamespacedScope`] or
    /// [`ClusterScope`]), for APIs that check it at compile time (kube-rs'
    /// `Api::namespaced`).
    type Scope: ScopeMarker;

    /// The object's metadata, spec and status.
    fn into_parts(self) -> (ObjectMeta, Self::Spec, Option<Self::Status>);

    /// The object of these parts (a kind without a status drops it).
    fn from_parts(metadata: ObjectMeta, spec: Self::Spec, status: Option<Self::Status>) -> Self;
}

/// The status of a kind that has none: no value of it exists, so an
/// `Option<NoStatus>` is always `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NoStatus {}

/// [`Scope`] as a type: implemented by [`NamespacedScope`] and
/// [`ClusterScope`].
pub trait ScopeMarker {
    /// The scope.
    const SCOPE: Scope;
}

/// Objects live in a namespace (the type of [`Scope::Namespaced`]).
#[derive(Clone, Copy, Debug)]
pub struct NamespacedScope;

/// Objects are cluster-wide (the type of [`Scope::Cluster`]).
#[derive(Clone, Copy, Debug)]
pub struct ClusterScope;

impl ScopeMarker for NamespacedScope {
    const SCOPE: Scope = Scope::Namespaced;
}

impl ScopeMarker for ClusterScope {
    const SCOPE: Scope = Scope::Cluster;
}

/// The list kind of a resource (`MemcachedList`): serialised as
/// `{"apiVersion", "kind": "<Kind>List", "metadata": ListMeta, "items": [...]}`.
///
/// Decoding accepts a missing `apiVersion` or `kind`; a wrong one is an
/// error that names what was expected and what was found.
#[derive(Clone, Debug, PartialEq)]
pub struct List<K> {
    /// The list's metadata (resourceVersion, continue token).
    pub metadata: ListMeta,
    /// The objects.
    pub items: Vec<K>,
}

impl<K> Default for List<K> {
    fn default() -> Self {
        List {
            metadata: ListMeta::default(),
            items: Vec::new(),
        }
    }
}

impl<K> List<K> {
    /// A list of `items` with empty metadata.
    pub fn new(items: Vec<K>) -> Self {
        List {
            metadata: ListMeta::default(),
            items,
        }
    }
}

impl<K: Resource> List<K> {
    /// The list's kind: `<Kind>List`.
    pub fn kind() -> String {
        format!("{}List", K::KIND)
    }
}

impl<K> FromIterator<K> for List<K> {
    fn from_iter<T: IntoIterator<Item = K>>(iter: T) -> Self {
        List::new(iter.into_iter().collect())
    }
}

impl<K> IntoIterator for List<K> {
    type Item = K;
    type IntoIter = std::vec::IntoIter<K>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

/// A list of objects whose kind is known only at run time (`K::KIND` is
/// empty, as for [`DynamicObject`](crate::registry::DynamicObject)) is
/// written without `apiVersion` and `kind`: they are its registry's
/// ([`KindInfo::list_kind`](crate::registry::KindInfo::list_kind)).
impl<K: Resource + Serialize> Serialize for List<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if K::KIND.is_empty() {
            let mut s = serializer.serialize_struct("List", 2)?;
            s.serialize_field("metadata", &self.metadata)?;
            s.serialize_field("items", &self.items)?;
            return s.end();
        }
        let mut s = serializer.serialize_struct("List", 4)?;
        s.serialize_field("apiVersion", &K::api_version())?;
        s.serialize_field("kind", &Self::kind())?;
        s.serialize_field("metadata", &self.metadata)?;
        s.serialize_field("items", &self.items)?;
        s.end()
    }
}

/// Checks a decoded `apiVersion`/`kind` against the expected ones; used by
/// the list and by generated root types.
#[doc(hidden)]
pub fn check_type_field<E: de::Error>(field: &str, expected: &str, found: &str) -> Result<(), E> {
    if found == expected {
        Ok(())
    } else {
        Err(E::custom(format_args!(
            "wrong {field}: expected {expected:?}, found {found:?}"
        )))
    }
}

impl<'de, K: Resource + DeserializeOwned> Deserialize<'de> for List<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ListVisitor<K>(PhantomData<K>);

        impl<'de, K: Resource + DeserializeOwned> Visitor<'de> for ListVisitor<K> {
            type Value = List<K>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a {}List object", K::KIND)
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<List<K>, A::Error> {
                let mut metadata = None;
                let mut items = None;
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    match key.as_ref() {
                        "apiVersion" => {
                            let v: Cow<'de, str> = map.next_value()?;
                            check_type_field("apiVersion", &K::api_version(), &v)?;
                        }
                        "kind" => {
                            let v: Cow<'de, str> = map.next_value()?;
                            check_type_field("kind", &List::<K>::kind(), &v)?;
                        }
                        "metadata" => {
                            if metadata.is_some() {
                                return Err(de::Error::duplicate_field("metadata"));
                            }
                            metadata =
                                Some(map.next_value::<Option<ListMeta>>()?.unwrap_or_default());
                        }
                        "items" => {
                            if items.is_some() {
                                return Err(de::Error::duplicate_field("items"));
                            }
                            items = Some(map.next_value::<Option<Vec<K>>>()?.unwrap_or_default());
                        }
                        _ => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(List {
                    metadata: metadata.unwrap_or_default(),
                    items: items.unwrap_or_default(),
                })
            }
        }

        deserializer.deserialize_map(ListVisitor(PhantomData))
    }
}
