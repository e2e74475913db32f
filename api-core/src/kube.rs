//! kube-rs interop (feature `kube`): [`Kube<R>`] is a resource as kube 5
//! sees it, so that every `#[derive(KubeResource)]` kind works with
//! `kube::Api`, `kube::runtime::{watcher, reflector, Controller,
//! finalizer}` and `Patch::Apply`, with no glue code:
//!
//! ```
//! # use api_core::prelude::*;
//! # use serde::{Deserialize, Serialize};
//! # /// Spec.
//! # #[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
//! # #[kube(group = "cache.example.com", version = "v1alpha1", kind = "Memcached", namespaced)]
//! # pub struct MemcachedSpec {
//! #     /// size.
//! #     #[serde(default, skip_serializing_if = "Option::is_none")]
//! #     pub size: Option<i32>,
//! # }
//! use api_core::kube::Kube;
//! use kube_core::{Resource as _, ResourceExt as _};
//!
//! // What `kube::Api::<Kube<Memcached>>::namespaced(client, "default")`
//! // creates, lists, watches and reconciles.
//! let mc: Kube<Memcached> = Memcached::new("cache", MemcachedSpec { size: Some(2) }).into();
//! assert_eq!(mc.name_any(), "cache");
//! assert_eq!(mc.spec.size, Some(2));
//! assert_eq!(Kube::<Memcached>::plural(&()), "memcacheds");
//! // The same JSON as the root's, both ways.
//! let json = serde_json::to_value(&mc).unwrap();
//! assert_eq!(json, serde_json::to_value(mc.clone().into_inner()).unwrap());
//! assert_eq!(serde_json::from_value::<Kube<Memcached>>(json).unwrap(), mc);
//! ```
//!
//! Why a wrapper: kube's `Resource::meta()` returns a reference to
//! k8s-openapi's `ObjectMeta`, so the object kube holds must contain one,
//! while the roots hold api-core's (Go's shape, which the registry, the
//! server and every strategy read). A feature cannot change the root's
//! field type (features must stay additive: a crate that turns `kube` on
//! would change a type another crate compiles against), so the kube-rs
//! shape is a second type — one generic type here rather than one
//! generated per kind: `Kube<Memcached>` has `metadata` (k8s-openapi's),
//! `spec` and `status` (the root's), converts to and from the root
//! losslessly ([`Kube::into_inner`], `From`), and is written and read
//! through the root's own serde, so the JSON is the root's byte for byte
//! (its `apiVersion` and `kind` checks included).

use std::borrow::Cow;
use std::fmt;

use k8s_openapi::apimachinery::pkg::apis::meta::v1 as metav1;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::resource::{ClusterScope, NamespacedScope, Resource, ResourceParts};

/// A resource `R` as kube-rs sees it: k8s-openapi's `ObjectMeta`, `R`'s
/// spec and status. Use it wherever kube takes a resource type
/// (`Api<Kube<R>>`, `Controller<Kube<R>>`, `watcher::<Kube<R>>`); convert
/// with `Kube::from(r)` / `r.into()` and [`Kube::into_inner`].
pub struct Kube<R: ResourceParts> {
    /// Standard object metadata, as k8s-openapi holds it.
    pub metadata: metav1::ObjectMeta,
    /// The desired state.
    pub spec: R::Spec,
    /// The observed state (always `None` for a kind without a status).
    pub status: Option<R::Status>,
}

impl<R: ResourceParts> Kube<R> {
    /// `object` as kube-rs sees it.
    pub fn new(object: R) -> Self {
        let (metadata, spec, status) = object.into_parts();
        Kube {
            metadata: metadata.into(),
            spec,
            status,
        }
    }

    /// The object as api-core holds it (for the registry, `validate`,
    /// `decode`, ...).
    pub fn into_inner(self) -> R {
        R::from_parts(self.metadata.into(), self.spec, self.status)
    }
}

impl<R: ResourceParts> Kube<R>
where
    R::Spec: Clone,
    R::Status: Clone,
{
    /// A copy of the object as api-core holds it.
    pub fn to_inner(&self) -> R {
        R::from_parts(
            (&self.metadata).into(),
            self.spec.clone(),
            self.status.clone(),
        )
    }
}

impl<R: ResourceParts> From<R> for Kube<R> {
    fn from(object: R) -> Self {
        Kube::new(object)
    }
}

impl<R: ResourceParts> Clone for Kube<R>
where
    R::Spec: Clone,
    R::Status: Clone,
{
    fn clone(&self) -> Self {
        Kube {
            metadata: self.metadata.clone(),
            spec: self.spec.clone(),
            status: self.status.clone(),
        }
    }
}

impl<R: ResourceParts> fmt::Debug for Kube<R>
where
    R::Spec: fmt::Debug,
    R::Status: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(R::KIND)
            .field("metadata", &self.metadata)
            .field("spec", &self.spec)
            .field("status", &self.status)
            .finish()
    }
}

impl<R: ResourceParts> PartialEq for Kube<R>
where
    R::Spec: PartialEq,
    R::Status: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.metadata == other.metadata && self.spec == other.spec && self.status == other.status
    }
}

impl<R> Serialize for Kube<R>
where
    R: ResourceParts + Serialize,
    R::Spec: Clone,
    R::Status: Clone,
{
    /// Written as the root writes itself.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_inner().serialize(serializer)
    }
}

impl<'de, R> Deserialize<'de> for Kube<R>
where
    R: ResourceParts + Deserialize<'de>,
{
    /// Read as the root reads itself (its `apiVersion` and `kind` checked).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        R::deserialize(deserializer).map(Kube::new)
    }
}

/// kube-rs' scope type of api-core's scope types.
pub trait KubeScope {
    /// `k8s_openapi::NamespaceResourceScope` or
    /// `k8s_openapi::ClusterResourceScope`.
    type Scope;
}

impl KubeScope for NamespacedScope {
    type Scope = k8s_openapi::NamespaceResourceScope;
}

impl KubeScope for ClusterScope {
    type Scope = k8s_openapi::ClusterResourceScope;
}

impl<R> kube_core::Resource for Kube<R>
where
    R: ResourceParts,
    R::Scope: KubeScope,
{
    type DynamicType = ();
    type Scope = <R::Scope as KubeScope>::Scope;

    fn kind(_: &()) -> Cow<'_, str> {
        Cow::Borrowed(R::KIND)
    }

    fn group(_: &()) -> Cow<'_, str> {
        Cow::Borrowed(R::GROUP)
    }

    fn version(_: &()) -> Cow<'_, str> {
        Cow::Borrowed(R::VERSION)
    }

    fn api_version(_: &()) -> Cow<'_, str> {
        <R as Resource>::api_version()
    }

    fn plural(_: &()) -> Cow<'_, str> {
        Cow::Borrowed(R::PLURAL)
    }

    fn meta(&self) -> &metav1::ObjectMeta {
        &self.metadata
    }

    fn meta_mut(&mut self) -> &mut metav1::ObjectMeta {
        &mut self.metadata
    }
}
