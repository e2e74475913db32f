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

/// How a body becomes a `K` for a registry: decoded with the request's
/// field validation, with its warnings.
pub type DecodeBody<K> =
    fn(&Registry<K>, &[u8], FieldValidation) -> Result<(K, Vec<String>), Status>;

/// A body read through the Rust type `T` of a built-in kind (JSON), as the
/// registry's [`DynamicObject`]: its `apiVersion` and `kind` checked
/// against the registry's kind (none given: the kind's), `T`'s unknown
/// fields warned about or refused per `validation`, and
/// `"managedFields": []` kept as the request to clear them.
pub fn decode_as<T: serde::de::DeserializeOwned + serde::Serialize>(
    registry: &Registry<DynamicObject>,
    body: &[u8],
    validation: FieldValidation,
) -> Result<(DynamicObject, Vec<String>), Status> {
    let kind = registry.kind_info();
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| Status::bad_request(format!("the request body is not JSON: {e}")))?;
    for (key, want) in [
        ("apiVersion", kind.api_version()),
        ("kind", kind.kind.clone()),
    ] {
        if let Some(got) = value.get(key).and_then(Value::as_str)
            && got != want
        {
            return Err(Status::bad_request(format!(
                "the {key} of the object ({got}) is not {want}"
            )));
        }
    }
    let mut unknown = Vec::new();
    let object: T = serde_ignored::deserialize(&value, |path| {
        if !matches!(path.to_string().as_str(), "apiVersion" | "kind") {
            unknown.push(format!("unknown field {:?}", path.to_string()));
        }
    })
    .map_err(|e| Status::bad_request(format!("the request body is not a {}: {e}", kind.kind)))?;
    let warnings = match validation {
        FieldValidation::Ignore => Vec::new(),
        FieldValidation::Warn => unknown,
        FieldValidation::Strict if unknown.is_empty() => unknown,
        FieldValidation::Strict => {
            return Err(Status::bad_request(format!(
                "strict decoding error: {}",
                unknown.join(", ")
            )));
        }
    };
    let mut typed = serde_json::to_value(&object).map_err(Status::internal_error)?;
    typed["apiVersion"] = Value::String(kind.api_version());
    typed["kind"] = Value::String(kind.kind.clone());
    let mut object: DynamicObject =
        serde_json::from_value(typed).map_err(Status::internal_error)?;
    // `"managedFields": []` clears them, which the typed object cannot
    // carry by itself.
    if api_core::apply::clears_managed_fields(&value) {
        object.metadata.managed_fields = api_core::apply::reset_marker();
    }
    Ok((object, warnings))
}

/// What a kind admits for one write, from the request's options (its
/// user): a check of the final object, or none.
pub type AdmissionFor<K> = Arc<
    dyn for<'a> Fn(&'a WriteOptions) -> BoxFuture<'a, Result<Option<Admission<K>>, Status>>
        + Send
        + Sync,
>;

/// A [`Registry<K>`] as a [`ServedKind`]: a Rust type's registry, or a
/// registry of [`DynamicObject`]s of a kind described by data.
pub struct RegistryKind<K: Served> {
    registry: Arc<Registry<K>>,
    info: KindInfo,
    decode: DecodeBody<K>,
    admission: Option<AdmissionFor<K>>,
    /// The server's admission plugins, set when the server is built.
    plugins: OnceLock<AdmissionPlugins>,
    /// Whether it is one of Kubernetes' own kinds (written `kind` first).
    builtin: bool,
    /// Subresources served as the object through another strategy.
    subresources: Vec<(&'static str, Arc<dyn ServedKind>)>,
    /// Whether a garbage collector runs (deletes then record the
    /// propagation policy as finalizers), set when the server is built.
    garbage_collection: AtomicBool,
    /// The patch types it takes besides server-side apply.
    patch_types: &'static [PatchType],
}

impl<K: Served + CustomResourceExt> RegistryKind<K> {
    /// Serves `registry`, described by `K::crd()`.
    pub fn new(registry: Arc<Registry<K>>) -> Self {
        RegistryKind {
            registry,
            info: KindInfo::of_crd_type::<K>(),
            decode: decode_body::<K>,
            admission: None,
            plugins: OnceLock::new(),
            builtin: false,
            subresources: Vec::new(),
            garbage_collection: AtomicBool::new(false),
            patch_types: &PatchType::ALL,
        }
    }

    /// Serves `registry`, one version of the multi-version kind `crd`
    /// describes (discovery and tables read every served version there).
    pub fn with_crd(registry: Arc<Registry<K>>, crd: CustomResourceDefinition) -> Self {
        RegistryKind {
            registry,
            info: KindInfo {
                crd: Some(Arc::new(crd)),
                ..KindInfo::of::<K>()
            },
            decode: decode_body::<K>,
            admission: None,
            plugins: OnceLock::new(),
            builtin: false,
            subresources: Vec::new(),
            garbage_collection: AtomicBool::new(false),
            patch_types: &PatchType::ALL,
        }
    }
}

impl RegistryKind<DynamicObject> {
    /// Serves a registry of a kind described by data
    /// ([`Registry::with_kind`]): bodies are read as that kind's objects
    /// (their `apiVersion` and `kind` checked against it).
    pub fn dynamic(registry: Arc<Registry<DynamicObject>>) -> Self {
        let info = KindInfo::clone(registry.kind_info());
        RegistryKind {
            registry,
            info,
            decode: Registry::<DynamicObject>::decode,
            admission: None,
            plugins: OnceLock::new(),
            builtin: false,
            subresources: Vec::new(),
            garbage_collection: AtomicBool::new(false),
            patch_types: &PatchType::ALL,
        }
    }

    /// Marks the kind as one of Kubernetes' own (built-in) kinds, which
    /// kube-apiserver writes from Go structs: `kind` before `apiVersion`
    /// ([`ServedKind::builtin`]).
    pub fn as_builtin(mut self) -> Self {
        self.builtin = true;
        self
    }

    /// Serves `/NAME` under each object as `kind` serves the object: the
    /// same stored objects read whole and written through `kind`'s
    /// strategy, which keeps all but the part the subresource writes (a
    /// Pod's `ephemeralcontainers`), as the apiserver registers another
    /// store over the same storage for such a subresource.
    pub fn with_subresource(mut self, name: &'static str, kind: Arc<dyn ServedKind>) -> Self {
        self.subresources.push((name, kind));
        self
    }

    /// Takes JSON and merge patches only (and server-side apply): a
    /// strategic merge patch is a 415, as apiextensions-apiserver answers
    /// it for custom resources, which have no Go type to merge by.
    pub fn without_strategic_merge(mut self) -> Self {
        self.patch_types = &[PatchType::Json, PatchType::Merge];
        self
    }

    /// Reads bodies with `decode` instead (a built-in kind read through its
    /// own type, with that type's unknown-field warnings).
    pub fn with_decode(mut self, decode: DecodeBody<DynamicObject>) -> Self {
        self.decode = decode;
        self
    }
}

impl<K: Served> RegistryKind<K> {
    /// Runs `admission`'s check, for each write, on the final object
    /// (`Registry::with_admission`).
    pub fn with_admission(mut self, admission: AdmissionFor<K>) -> Self {
        self.admission = Some(admission);
        self
    }
}

impl<K: Served> RegistryKind<K> {
    /// `registry` running the server's admission plugins.
    fn with_plugins(&self, registry: Registry<K>) -> Registry<K> {
        match self.plugins.get() {
            Some(plugins) => registry.with_admission_plugins(plugins.clone()),
            None => registry,
        }
    }

    /// The registry (or its dry-run view) writing as `manager`, with what
    /// the kind admits for this request.
    async fn registry_for(
        &self,
        options: &WriteOptions,
        manager: &str,
    ) -> Result<Registry<K>, Status> {
        let registry = self.with_plugins(if options.dry_run {
            self.registry.dry_run().field_manager(manager)
        } else {
            self.registry.field_manager(manager)
        });
        Ok(match &self.admission {
            Some(admission) => match admission(options).await? {
                Some(check) => registry.with_admission(check),
                None => registry,
            },
            None => registry,
        })
    }
}

/// A list of a kind known at run time, written with its table's
/// `apiVersion` and `kind` (as [`RegistryKind::typed_list`] adds them).
#[derive(serde::Serialize)]
struct KindList<'a, K> {
    #[serde(rename = "apiVersion")]
    api_version: String,
    kind: &'a str,
    metadata: &'a api_core::meta::ListMeta,
    items: &'a [K],
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<Value, Status> {
    serde_json::to_value(value)
        .map_err(|e| Status::internal_error(format!("object does not encode: {e}")))
}

/// The body as a `K`: the registry defaults and validates it (with the
/// strategy), so decoding only reads it, with the request's field
/// validation.
fn decode_body<K: Served + CustomResourceExt>(
    _: &Registry<K>,
    body: &[u8],
    validation: FieldValidation,
) -> Result<(K, Vec<String>), Status> {
    let options = DecodeOptions {
        field_validation: validation,
        apply_defaults: false,
        validate: false,
    };
    let mut decoded = decode::<K>(body, &options)?;
    // `"managedFields": []` clears them, which the typed object cannot
    // carry by itself.
    let names_managed_fields = body.windows(15).any(|w| w == b"\"managedFields\"");
    if names_managed_fields
        && serde_json::from_slice::<serde_json::Value>(body)
            .is_ok_and(|v| api_core::apply::clears_managed_fields(&v))
    {
        decoded.object.metadata_mut().managed_fields = api_core::apply::reset_marker();
    }
    Ok((decoded.object, decoded.warnings))
}

impl<K: Served> RegistryKind<K> {
    /// A list as JSON with the kind's `apiVersion` and list `kind` (which
    /// a list of [`DynamicObject`]s does not carry), first as the
    /// apiserver writes them.
    fn typed_list(&self, list: Value) -> Value {
        let Value::Object(mut members) = list else {
            return list;
        };
        if members.contains_key("kind") {
            return Value::Object(members);
        }
        let mut out = serde_json::Map::new();
        out.insert("apiVersion".into(), Value::String(self.info.api_version()));
        out.insert("kind".into(), Value::String(self.info.list_kind.clone()));
        out.append(&mut members);
        Value::Object(out)
    }
}

impl<K: Served> ServedKind for RegistryKind<K> {
    fn info(&self) -> &KindInfo {
        &self.info
    }

    fn get<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
    ) -> BoxFuture<'a, Result<Value, Status>> {
        Box::pin(async move { to_json(&self.registry.get(namespace, name).await?) })
    }

    fn get_json<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
    ) -> BoxFuture<'a, Result<Vec<u8>, Status>> {
        Box::pin(async move {
            let object = self.registry.get(namespace, name).await?;
            serde_json::to_vec(&object)
                .map_err(|e| Status::internal_error(format!("object does not encode: {e}")))
        })
    }

    fn list<'a>(
        &'a self,
        namespace: &'a str,
        options: &'a ListOptions,
    ) -> BoxFuture<'a, Result<Value, Status>> {
        Box::pin(async move {
            let list = to_json(&self.registry.list(namespace, options).await?)?;
            Ok(self.typed_list(list))
        })
    }

    fn list_json<'a>(
        &'a self,
        namespace: &'a str,
        options: &'a ListOptions,
    ) -> BoxFuture<'a, Result<(Vec<u8>, String), Status>> {
        Box::pin(async move {
            let list = self.registry.list(namespace, options).await?;
            let revision = list.metadata.resource_version.clone();
            let json = if K::KIND.is_empty() {
                // A kind known at run time: its list kind is the table's.
                serde_json::to_vec(&KindList {
                    api_version: self.info.api_version(),
                    kind: &self.info.list_kind,
                    metadata: &list.metadata,
                    items: &list.items,
                })
            } else {
                serde_json::to_vec(&list)
            }
            .map_err(|e| Status::internal_error(format!("list does not encode: {e}")))?;
            Ok((json, revision))
        })
    }

    fn create<'a>(
        &'a self,
        namespace: &'a str,
        body: &'a [u8],
        options: &'a WriteOptions,
    ) -> BoxFuture<'a, Result<Written, Status>> {
        Box::pin(async move {
            let (object, mut warnings) =
                (self.decode)(&self.registry, body, options.field_validation)?;
            let registry = self.registry_for(options, &options.manager).await?;
            let outcome = registry.create(namespace, object).await?;
            warnings.extend(outcome.warnings);
            Ok(Written {
                object: to_json(&outcome.object)?,
                warnings,
                created: true,
            })
        })
    }

    fn update<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        body: &'a [u8],
        options: &'a WriteOptions,
        status: bool,
    ) -> BoxFuture<'a, Result<Written, Status>> {
        Box::pin(async move {
            let (object, mut warnings) =
                (self.decode)(&self.registry, body, options.field_validation)?;
            if object.metadata().name != name {
                return Err(api_core::registry::name_mismatch(
                    &object.metadata().name,
                    name,
                ));
            }
            let registry = self.registry_for(options, &options.manager).await?;
            let outcome = if status {
                registry.update_status(namespace, object).await?
            } else {
                registry.update(namespace, object).await?
            };
            warnings.extend(outcome.warnings);
            Ok(Written {
                object: to_json(&outcome.object)?,
                warnings,
                created: outcome.created,
            })
        })
    }

    fn patch<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        patch_type: PatchType,
        body: &'a [u8],
        options: &'a WriteOptions,
        status: bool,
    ) -> BoxFuture<'a, Result<Written, Status>> {
        Box::pin(async move {
            let registry = self.registry_for(options, &options.manager).await?;
            let patch_options = PatchOptions {
                field_validation: options.field_validation,
                status,
            };
            let outcome = registry
                .patch_with(namespace, name, patch_type, body, patch_options)
                .await?;
            Ok(Written {
                object: to_json(&outcome.object)?,
                warnings: outcome.warnings,
                created: false,
            })
        })
    }

    fn apply<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        body: &'a [u8],
        options: &'a WriteOptions,
        status: bool,
    ) -> BoxFuture<'a, Result<Written, Status>> {
        Box::pin(async move {
            let manager = options.field_manager.as_deref().unwrap_or("");
            let registry = self.registry_for(options, manager).await?;
            let apply_options = ApplyOptions {
                force: options.force,
                status,
                field_validation: options.field_validation,
            };
            let outcome = registry.apply(namespace, name, body, apply_options).await?;
            Ok(Written {
                object: to_json(&outcome.object)?,
                warnings: outcome.warnings,
                created: outcome.created,
            })
        })
    }

    fn delete<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        options: &'a DeleteOptions,
        dry_run: bool,
    ) -> BoxFuture<'a, Result<(Value, bool), Status>> {
        Box::pin(async move {
            let mut registry = self.with_plugins(if dry_run {
                self.registry.dry_run()
            } else {
                Registry::clone_view(&self.registry)
            });
            if self.garbage_collection.load(Ordering::Relaxed) {
                registry = registry.with_garbage_collection();
            }
            let deleted = registry.delete(namespace, name, options).await?;
            Ok((to_json(&deleted.object)?, deleted.pending))
        })
    }

    fn watch<'a>(
        &'a self,
        namespace: &'a str,
        options: &'a ListOptions,
    ) -> BoxFuture<'a, Result<JsonWatch, Status>> {
        Box::pin(async move {
            let watch = self.registry.watch(namespace, options).await?;
            let progress = watch.progress_requester();
            let kind = self.registry.kind_info().clone();
            let events = futures_util::stream::unfold(watch, move |mut watch| {
                let kind = kind.clone();
                async move {
                    let event = watch.next().await?;
                    let json = event.and_then(|e| {
                        Ok(match &e {
                            WatchEvent::Added(o) => ("ADDED", to_json(o)?),
                            WatchEvent::Modified(o) => ("MODIFIED", to_json(o)?),
                            WatchEvent::Deleted(o) => ("DELETED", to_json(o)?),
                            WatchEvent::Bookmark(b) => ("BOOKMARK", bookmark_object(&kind, b)),
                        })
                    });
                    Some((json, watch))
                }
            });
            Ok(JsonWatch::new(events, progress))
        })
    }

    fn set_garbage_collection(&self, on: bool) {
        self.garbage_collection.store(on, Ordering::Relaxed);
    }

    fn set_admission_plugins(&self, plugins: AdmissionPlugins) {
        for (_, kind) in &self.subresources {
            kind.set_admission_plugins(plugins.clone());
        }
        let _ = self.plugins.set(plugins);
    }

    fn builtin(&self) -> bool {
        self.builtin
    }

    fn patch_types(&self) -> &'static [PatchType] {
        self.patch_types
    }

    fn subresource(&self, name: &str) -> Option<&dyn ServedKind> {
        self.subresources
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, kind)| kind.as_ref())
    }
}

#[cfg(test)]
#[path = "served_tests.rs"]
mod tests;
