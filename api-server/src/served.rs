//! Type erasure: a [`Registry<K>`] seen through JSON, so that one server
//! dispatches requests by path to registries of different Rust types.
//!
//! [`ServedKind`] is object safe;
//! [`ServerBuilder::resource`](crate::ServerBuilder::resource) wraps a
//! `Registry<K>` in it. Bodies
//! come in as JSON values and go out as JSON values; every failure is the
//! apiserver's [`Status`].

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use api_core::Status;
use api_core::crd::{
    CustomResourceDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionVersion,
    CustomResourceSubresourceStatus, CustomResourceSubresources,
};
use api_core::decode::{DecodeOptions, FieldValidation, decode};
use api_core::patch::PatchType;
use api_core::registry::{
    Admission, AdmissionPlugins, ApplyOptions, Bookmark, BoxFuture, DeleteOptions, DynamicObject,
    KindInfo, ListOptions, PatchOptions, ProgressRequester, Registry, Served, WatchEvent,
};
use api_core::resource::CustomResourceExt;
use futures_core::Stream;
use serde_json::Value;

mod registry_kind;
pub use registry_kind::{AdmissionFor, DecodeBody, RegistryKind, decode_as};

/// One watch event as JSON: `("ADDED" | "MODIFIED" | "DELETED" |
/// "BOOKMARK", object)`; a bookmark's object carries only `kind`,
/// `apiVersion` and `metadata.resourceVersion` (and the
/// `k8s.io/initial-events-end` annotation when it ends the initial
/// events), as the apiserver writes them.
pub type JsonEvent = Result<(&'static str, Value), Status>;

/// A watch as [`JsonEvent`]s (a `Stream`), and what asks its storage for
/// a progress notification, which comes back as a `BOOKMARK` when the
/// watch allows bookmarks.
pub struct JsonWatch {
    events: Pin<Box<dyn Stream<Item = JsonEvent> + Send>>,
    progress: Option<ProgressRequester>,
}

impl JsonWatch {
    /// A watch of `events`; `progress` asks for a bookmark, when the
    /// storage can deliver one.
    pub fn new(
        events: impl Stream<Item = JsonEvent> + Send + 'static,
        progress: Option<ProgressRequester>,
    ) -> Self {
        JsonWatch {
            events: Box::pin(events),
            progress,
        }
    }

    /// What asks the storage for a progress notification (a bookmark).
    pub fn progress_requester(&self) -> Option<ProgressRequester> {
        self.progress.clone()
    }
}

impl Stream for JsonWatch {
    type Item = JsonEvent;
    fn poll_next(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<JsonEvent>> {
        self.events.as_mut().poll_next(cx)
    }
}

impl std::fmt::Debug for JsonWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JsonWatch")
    }
}

/// A bookmark event's object for `kind` (the apiserver's: only the
/// type's `kind`, `apiVersion` and the revision reached).
pub fn bookmark_object(kind: &KindInfo, bookmark: &Bookmark) -> Value {
    let mut object = serde_json::json!({
        "kind": kind.kind,
        "apiVersion": kind.api_version(),
        "metadata": {"resourceVersion": bookmark.resource_version},
    });
    if bookmark.initial_events_end {
        object["metadata"]["annotations"] =
            serde_json::json!({"k8s.io/initial-events-end": "true"});
    }
    object
}

/// A write's result: the object and the strategy's warnings.
#[derive(Clone, Debug)]
pub struct Written {
    /// The object as stored.
    pub object: Value,
    /// Warnings for `Warning` headers.
    pub warnings: Vec<String>,
    /// Whether the write created the object (201 rather than 200).
    pub created: bool,
}

/// The options of a write (the query parameters of `CreateOptions`,
/// `UpdateOptions`, `PatchOptions` and, for `dry_run`, `DeleteOptions`).
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    /// `fieldValidation`: what to do with unknown or duplicate fields.
    pub field_validation: FieldValidation,
    /// `dryRun=All`: run everything, store nothing
    /// ([`Registry::dry_run`]).
    pub dry_run: bool,
    /// `fieldManager` as the query gives it (validated); an apply needs
    /// one.
    pub field_manager: Option<String>,
    /// The manager a create, update or patch is recorded under in
    /// `managedFields`: `fieldManager`, else the client's program name
    /// (the user agent up to its first `/`, as the apiserver's
    /// `managerOrUserAgent`).
    pub manager: String,
    /// `force` (apply only): take fields other managers own.
    pub force: bool,
    /// Who makes the request (none in process without authentication):
    /// what a kind's admission (the RBAC kinds' escalation check) reads.
    pub user: Option<crate::authn::User>,
}

/// A CRD of `info`'s names, scope and version (served and stored, with
/// the status subresource when it has one, no schema).
fn described(info: &KindInfo) -> CustomResourceDefinition {
    let mut crd = CustomResourceDefinition::default();
    crd.metadata.name = if info.group.is_empty() {
        info.plural.clone()
    } else {
        format!("{}.{}", info.plural, info.group)
    };
    crd.spec.group = info.group.clone();
    crd.spec.scope = info.scope.as_str().into();
    crd.spec.names = CustomResourceDefinitionNames {
        kind: info.kind.clone(),
        list_kind: info.list_kind.clone(),
        plural: info.plural.clone(),
        singular: info.singular.clone(),
        short_names: info.short_names.clone(),
        categories: info.categories.clone(),
    };
    let mut version = CustomResourceDefinitionVersion::new(&info.version, true, true);
    if info.status_subresource {
        version.subresources = Some(CustomResourceSubresources {
            status: Some(CustomResourceSubresourceStatus {}),
            scale: None,
        });
    }
    crd.spec.versions = vec![version];
    crd
}

/// A kind served over JSON: what the HTTP layer calls.
pub trait ServedKind: Send + Sync {
    /// The kind, as data: names, scope, subresources, and the CRD that
    /// describes its versions, schema, columns and scale paths.
    fn info(&self) -> &KindInfo;
    /// The kind's CRD (its names, scope, versions, schema, columns); for
    /// a kind without one, a CRD of its names, scope and served version
    /// (discovery and OpenAPI are written from it).
    fn crd(&self) -> Arc<CustomResourceDefinition> {
        match &self.info().crd {
            Some(crd) => Arc::clone(crd),
            None => Arc::new(described(self.info())),
        }
    }
    /// `group`, `version`, `plural`.
    fn path(&self) -> (&str, &str, &str) {
        let info = self.info();
        (&info.group, &info.version, &info.plural)
    }
    /// Whether objects live in namespaces.
    fn namespaced(&self) -> bool {
        self.info().namespaced()
    }
    /// Whether the status subresource is on.
    fn status_subresource(&self) -> bool {
        self.info().status_subresource
    }
    /// `GET` one object.
    fn get<'a>(&'a self, namespace: &'a str, name: &'a str)
    -> BoxFuture<'a, Result<Value, Status>>;
    /// `GET` one object as JSON bytes (what a JSON client gets): the
    /// default encodes [`ServedKind::get`]'s value; a typed kind may
    /// encode its object directly.
    fn get_json<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
    ) -> BoxFuture<'a, Result<Vec<u8>, Status>> {
        Box::pin(async move {
            let value = self.get(namespace, name).await?;
            serde_json::to_vec(&value).map_err(Status::internal_error)
        })
    }
    /// `GET` the collection (a `...List`).
    fn list<'a>(
        &'a self,
        namespace: &'a str,
        options: &'a ListOptions,
    ) -> BoxFuture<'a, Result<Value, Status>>;
    /// `GET` the collection as JSON bytes (what a JSON client gets), and
    /// its resourceVersion: the default encodes [`ServedKind::list`]'s
    /// value; a typed kind may encode its objects directly.
    fn list_json<'a>(
        &'a self,
        namespace: &'a str,
        options: &'a ListOptions,
    ) -> BoxFuture<'a, Result<(Vec<u8>, String), Status>> {
        Box::pin(async move {
            let list = self.list(namespace, options).await?;
            let revision = list
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let json = serde_json::to_vec(&list).map_err(Status::internal_error)?;
            Ok((json, revision))
        })
    }
    /// `POST`: decode the JSON `body` (strictness from
    /// `options.field_validation`), create.
    fn create<'a>(
        &'a self,
        namespace: &'a str,
        body: &'a [u8],
        options: &'a WriteOptions,
    ) -> BoxFuture<'a, Result<Written, Status>>;
    /// `PUT` of the object (`status`: of its status subresource).
    fn update<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        body: &'a [u8],
        options: &'a WriteOptions,
        status: bool,
    ) -> BoxFuture<'a, Result<Written, Status>>;
    /// `PATCH` (`status`: of its status subresource).
    fn patch<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        patch_type: PatchType,
        body: &'a [u8],
        options: &'a WriteOptions,
        status: bool,
    ) -> BoxFuture<'a, Result<Written, Status>>;
    /// `PATCH` with `application/apply-patch+yaml`: server-side apply of
    /// `body` (YAML or JSON) as `options.field_manager` (`status`: to the
    /// status subresource). Kinds that do not implement it answer 415, as
    /// the apiserver answers a patch type a resource does not accept.
    fn apply<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        body: &'a [u8],
        options: &'a WriteOptions,
        status: bool,
    ) -> BoxFuture<'a, Result<Written, Status>> {
        let _ = (namespace, name, body, options, status);
        Box::pin(async move {
            Err(Status::unsupported_media_type(
                &PatchType::ALL.map(PatchType::content_type),
            ))
        })
    }
    /// `DELETE`: the object (its last state, or as marked for deletion)
    /// and whether it is still there (finalizers, grace period).
    fn delete<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        options: &'a DeleteOptions,
        dry_run: bool,
    ) -> BoxFuture<'a, Result<(Value, bool), Status>>;
    /// `GET ...?watch=true`.
    fn watch<'a>(
        &'a self,
        namespace: &'a str,
        options: &'a ListOptions,
    ) -> BoxFuture<'a, Result<JsonWatch, Status>>;
    /// Tells the kind that a garbage collector runs: its deletes then
    /// record the propagation policy as the `orphan` and
    /// `foregroundDeletion` finalizers for the collector to act on
    /// ([`Registry::with_garbage_collection`]). The server calls it when
    /// it is built, before any request; a kind without finalizers for
    /// the collector ignores it.
    fn set_garbage_collection(&self, on: bool) {
        let _ = on;
    }
    /// Gives the kind the server's admission plugins (NamespaceLifecycle),
    /// run by its store before every write
    /// ([`Registry::with_admission_plugins`]). The server calls it once,
    /// when it is built; a kind that is not a registry ignores it.
    fn set_admission_plugins(&self, plugins: AdmissionPlugins) {
        let _ = plugins;
    }
    /// Whether this is one of Kubernetes' own kinds (Namespace, the RBAC
    /// kinds, the `builtin` module's (feature `k8s-openapi`)), whose objects kube-apiserver writes
    /// from Go structs, `kind` before `apiVersion` (custom resources are
    /// written `apiVersion` first). Column numbers in clients' decoding
    /// errors count from there. Default: `false`.
    fn builtin(&self) -> bool {
        false
    }
    /// The patch types a `PATCH` of the kind (and of its status and
    /// scale) may use besides server-side apply: all three for built-in
    /// kinds and kinds served from Rust types, JSON and merge patches for
    /// the kinds of CRDs created at run time
    /// ([`RegistryKind::without_strategic_merge`]).
    fn patch_types(&self) -> &'static [PatchType] {
        &PatchType::ALL
    }
    /// The subresource `name` of the kind's objects when it is served as
    /// the object is, through another strategy
    /// ([`RegistryKind::with_subresource`]): `GET`, `PUT` and `PATCH` of
    /// `.../NAME/{name}`. Status and scale are not among them.
    fn subresource(&self, name: &str) -> Option<&dyn ServedKind> {
        let _ = name;
        None
    }
}

#[cfg(test)]
#[path = "served_tests.rs"]
mod tests;
