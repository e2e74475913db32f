//! The embedded registry: runs a [`Strategy`] over a [`Storage`] with the
//! semantics of k8s.io/apiserver's generic store, so an API's behaviour can
//! be tested without a cluster.
//!
//! ```
//! use api_core::registry::{DefaultStrategy, Registry};
//! # use api_core::prelude::*;
//! # use serde::{Deserialize, Serialize};
//! # /// Spec.
//! # #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! # #[kube(group = "example.com", version = "v1", kind = "Widget", namespaced, status = "WidgetStatus")]
//! # pub struct WidgetSpec {
//! #     /// size.
//! #     #[default(1)]
//! #     #[serde(default, skip_serializing_if = "Option::is_none")]
//! #     pub size: Option<i32>,
//! # }
//! # /// Status.
//! # #[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default)]
//! # pub struct WidgetStatus {
//! #     /// conditions.
//! #     #[serde(default, skip_serializing_if = "Conditions::is_empty")]
//! #     pub conditions: Conditions,
//! # }
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let widgets = Registry::<Widget>::new(DefaultStrategy);
//! let created = widgets.create("default", Widget::new("w", WidgetSpec { size: None })).await.unwrap().object;
//! assert_eq!(created.spec.size, Some(1)); // defaulted
//! assert_eq!(created.metadata.generation, 1);
//! assert!(!created.metadata.uid.is_empty());
//!
//! let again = widgets.create("default", Widget::new("w", WidgetSpec { size: None })).await.unwrap_err();
//! assert_eq!((again.code, again.reason.as_str()), (409, "AlreadyExists"));
//! # });
//! ```
//!
//! Every operation is `async` (a [`Storage`] may do I/O; [`MemoryStorage`]
//! answers at once), and the futures are `Send`, so a registry serves from
//! any tokio task. A [`Watch`] is a `futures_core::Stream`.

pub mod admission;
mod applying;
mod deleting;
mod dry_run;
mod dynamic;
mod forwarding;
pub mod kind;
mod listing;
mod options;
mod patching;
mod select;
pub mod storage;
pub mod strategy;
mod watch;
mod writing;

use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::api_type::ApiType;
use crate::conversion::{StorageCodec, Versions};
use crate::meta::{ObjectMeta, Time};
use crate::resource::{CustomResourceExt, List, Resource, SpecStatus};
use crate::status::{GroupKind, GroupResource, Status};
use crate::validation::names::{generate_name, is_valid_path_segment_name};
use crate::validation::object_meta::{validate_object_meta, validate_object_meta_update};
use crate::validation::{ErrorList, FieldError, FieldPath};

pub use admission::{AdmissionPlugin, AdmissionPlugins, Attributes, Operation};
pub use applying::{
    ApplyOptions, RACE_ATTEMPTS, applied_name, apply_config, lost_race, manager_required,
    name_mismatch,
};
pub use dry_run::DryRunStorage;
pub use dynamic::{DynamicObject, DynamicStrategy};
pub use forwarding::Forwarding;
pub use kind::{KindInfo, Kinds};
pub use listing::{EXPIRED, INCONSISTENT_CONTINUE, too_large};
use options::gc_finalizers;
pub use options::{
    DeleteOptions, FINALIZER_FOREGROUND, FINALIZER_ORPHAN, ListOptions, PropagationPolicy,
    ResourceVersionMatch,
};
pub use patching::PatchOptions;
pub use select::{Selection, encode_continue, next_key};
pub use storage::{
    BoxFuture, EventType, ListPage, ListRequest, MemoryStorage, ProgressRequester, Revision,
    Storage, StorageError,
};
pub use strategy::{DefaultStrategy, Strategy};
pub use watch::{Bookmark, Watch, WatchEvent};

/// The bounds a type needs to be served by a [`Registry`].
pub trait Served:
    SpecStatus + ApiType + Clone + Serialize + DeserializeOwned + Send + Sync + 'static
{
}

impl<K: SpecStatus + ApiType + Clone + Serialize + DeserializeOwned + Send + Sync + 'static> Served
    for K
{
}

/// The result of a write, with the warnings the apiserver would send as
/// `Warning` headers.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome<T> {
    /// The object as stored.
    pub object: T,
    /// Warnings from the strategy.
    pub warnings: Vec<String>,
    /// Whether the write created the object: a create, or an update of a
    /// missing object that the strategy lets create (the apiserver
    /// answers 201 rather than 200).
    pub created: bool,
}

/// The result of a delete.
#[derive(Clone, Debug, Serialize)]
pub struct Deleted<K> {
    /// The object: its last state when removed, or as marked for deletion.
    pub object: K,
    /// Whether the object is still there, waiting for finalizers (or a
    /// grace period) before it goes.
    pub pending: bool,
}

pub(super) fn selected<K: Resource + Serialize + 'static>(
    obj: &K,
    namespaced: bool,
    namespace: &str,
    selection: &Selection,
) -> bool {
    let meta = obj.metadata();
    if namespaced && !namespace.is_empty() && meta.namespace != namespace {
        return false;
    }
    selection.matches(meta)
        && (!selection.selects_fields()
            || to_owned_value(obj).is_ok_and(|v| selection.matches_value(&v)))
}

/// The codec of a registry: `None` stores `K` as it is; a multi-version
/// registry converts to and from the storage version.
type Codec = Option<Arc<dyn StorageCodec>>;

/// A stored value as a `K` (converted from the storage version, with its
/// defaults, when the registry serves one version of several).
fn decode_value<K: DeserializeOwned + Resource + 'static>(
    value: &Value,
    key: &str,
    codec: &Codec,
) -> Result<K, Status> {
    let undecodable = |e: &dyn std::fmt::Display| {
        Status::internal_error(format!("stored object at {key} does not decode: {e}"))
    };
    match codec {
        // From the borrowed value: no deep copy of the stored object.
        None => K::deserialize(value).map_err(|e| undecodable(&e)),
        Some(codec) => {
            let converted = codec
                .read_stored(value.clone(), &K::api_version())
                .map_err(|e| undecodable(&e))?;
            from_owned_value(converted).map_err(|e| undecodable(&e))
        }
    }
}

/// `value` as a `K`; a [`DynamicObject`] is taken apart directly rather
/// than deserialized from the value (which would rebuild all of it).
fn from_owned_value<K: DeserializeOwned + 'static>(value: Value) -> Result<K, String> {
    let mut slot: Option<K> = None;
    if let Some(dynamic) =
        (&mut slot as &mut dyn std::any::Any).downcast_mut::<Option<DynamicObject>>()
    {
        *dynamic = Some(DynamicObject::from_value(value)?);
        return slot.ok_or_else(|| "not decoded".to_string());
    }
    serde_json::from_value(value).map_err(|e| e.to_string())
}

/// `obj` as a JSON value; a [`DynamicObject`] is copied directly rather
/// than serialized (which would rebuild all of it).
fn to_owned_value<K: Serialize + 'static>(obj: &K) -> Result<Value, String> {
    match (obj as &dyn std::any::Any).downcast_ref::<DynamicObject>() {
        Some(dynamic) => Ok(dynamic.to_value()),
        None => serde_json::to_value(obj).map_err(|e| e.to_string()),
    }
}

fn decode_stored<K: DeserializeOwned + Resource + 'static>(
    stored: &storage::Stored,
    codec: &Codec,
) -> Result<K, Status> {
    let mut obj: K = decode_value(&stored.value, &stored.key, codec)?;
    // Revision 0 is never a change's: it is a dry-run create's.
    obj.metadata_mut().resource_version = if stored.revision == 0 {
        String::new()
    } else {
        stored.revision.to_string()
    };
    Ok(obj)
}

fn encode<K: Serialize + Resource + Clone + 'static>(
    obj: &K,
    codec: &Codec,
) -> Result<Value, Status> {
    let mut value = to_owned_value(obj)
        .map_err(|e| Status::internal_error(format!("object does not encode: {e}")))?;
    // The storage revision is the resourceVersion; it is not stored.
    if let Some(meta) = value.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("resourceVersion");
    }
    match codec {
        None => Ok(value),
        // The request's content did not convert: the client's to fix.
        Some(codec) => codec.write_stored(value).map_err(|e| {
            Status::bad_request(format!(
                "{} {:?} cannot be stored: {e}",
                K::KIND,
                obj.metadata().name
            ))
        }),
    }
}

/// Runs a [`Strategy`] for the kind `K` over a [`Storage`]: create, get,
/// list, update, status update, patch, delete and watch, with the
/// apiserver's semantics, every failure a [`Status`]. `Send + Sync`: share
/// it between threads behind an `Arc`.
pub struct Registry<K: Served> {
    kind: Arc<KindInfo>,
    admission: Option<Admission<K>>,
    plugins: AdmissionPlugins,
    storage: Arc<dyn Storage>,
    strategy: Arc<dyn Strategy<K>>,
    clock: Arc<dyn Fn() -> Time + Send + Sync>,
    garbage_collection: bool,
    schema: Arc<OnceLock<Value>>,
    apply_schema: Arc<OnceLock<crate::apply::Schema>>,
    codec: Codec,
    /// The codec when it is conversion `None` (to combine
    /// [`Registry::stored_as`] and [`Registry::read_with_schema`]).
    none_codec: Option<Arc<crate::conversion::NoneConversion>>,
    manager: Arc<str>,
}

/// A check of a write's final object (and the stored one, for an update)
/// after the strategy validated it and before it is stored: a validating
/// admission step of one request, such as the RBAC kinds' escalation
/// check, which needs the request's user (see
/// [`Registry::with_admission`]).
pub type Admission<K> = Arc<dyn Fn(&K, Option<&K>) -> Result<(), Status> + Send + Sync>;

/// How often a create with `generateName` retries a taken name
/// (`maxNameGenerationCreateAttempts`).
const NAME_GENERATION_ATTEMPTS: usize = 8;

impl<K: Served> Registry<K> {
    /// A registry over a fresh in-memory storage.
    pub fn new(strategy: impl Strategy<K> + 'static) -> Self {
        Self::with_storage(strategy, Arc::new(MemoryStorage::new()))
    }

    /// A registry over `storage` (which several registries may share).
    pub fn with_storage(strategy: impl Strategy<K> + 'static, storage: Arc<dyn Storage>) -> Self {
        Registry {
            kind: Arc::new(KindInfo::of::<K>()),
            admission: None,
            plugins: Arc::new([]),
            storage,
            strategy: Arc::new(strategy),
            clock: Arc::new(Time::now),
            garbage_collection: false,
            schema: Arc::new(OnceLock::new()),
            apply_schema: Arc::new(OnceLock::new()),
            codec: None,
            none_codec: None,
            manager: Arc::from(UNKNOWN_MANAGER),
        }
    }

    /// A registry serving `K`, one version of a multi-version kind: objects
    /// are stored in the storage version of `versions` (converted through
    /// its hub on the way in and out), so registries of every served
    /// version sharing `storage` see the same objects, each in its own
    /// version. As in the apiserver, a write is defaulted and validated in
    /// the request's version (`K`, by `strategy`), and a read applies the
    /// storage version's defaults before converting.
    ///
    /// Refused with 404 `NotFound` when `K`'s version is not served (as
    /// the apiserver answers for the endpoint of an unserved version), and
    /// with a 500 when `versions` does not hold `K` as that version or
    /// does not make a valid CRD (no single storage version, ...).
    pub fn with_versions<H>(
        strategy: impl Strategy<K> + 'static,
        storage: Arc<dyn Storage>,
        versions: Arc<Versions<H>>,
    ) -> Result<Self, Status>
    where
        H: CustomResourceExt + ApiType + Serialize + DeserializeOwned + 'static,
    {
        if let Err(e) = versions.crd() {
            return Err(Status::internal_error(e));
        }
        if !versions.has_type::<K>() {
            return Err(Status::internal_error(format!(
                "{} is not registered as version {} of {}",
                std::any::type_name::<K>(),
                K::api_version(),
                K::KIND
            )));
        }
        versions.check_served(&K::api_version())?;
        let mut registry = Self::with_storage(strategy, storage);
        registry.codec = Some(versions);
        Ok(registry)
    }

    /// A registry of the kind `kind` describes, over `storage`: a kind
    /// known as data rather than by `K`'s constants (a served version of
    /// a CustomResourceDefinition, a built-in kind), usually with
    /// [`DynamicObject`] as `K`. Keys, errors, scope, the status
    /// subresource, the schema (for patches and server-side apply) and
    /// the `apiVersion` of managed fields all come from `kind`.
    pub fn with_kind(
        kind: KindInfo,
        strategy: impl Strategy<K> + 'static,
        storage: Arc<dyn Storage>,
    ) -> Self {
        let mut registry = Self::with_storage(strategy, storage);
        registry.kind = Arc::new(kind);
        registry
    }

    /// Stores objects as `api_version` (a CustomResourceDefinition's
    /// storage version) and reads them as this registry's version,
    /// changing nothing but `apiVersion`: apiextensions' conversion
    /// strategy `None`, by which every served version of a CRD reads and
    /// writes the same stored objects. A registry of the storage version
    /// itself needs none.
    pub fn stored_as(self, api_version: impl Into<String>) -> Self {
        let schema = self.none_conversion().and_then(|c| c.schema.clone());
        self.with_none_conversion(Some(api_version.into()), schema)
    }

    /// Decodes every object read from storage with `schema` (a CRD's
    /// storage version's), as apiextensions-apiserver's storage decoder
    /// does: unknown fields pruned (an object stored under a wider schema,
    /// or written to storage by another hand, reads without them), the
    /// `metadata` of embedded resources read as ObjectMeta, and the
    /// defaults applied (a default added to a CRD shows on the objects
    /// stored before it, and a defaulted field the status subresource
    /// dropped on create shows on every read). Combines with
    /// [`Registry::stored_as`].
    pub fn read_with_schema(self, schema: Value) -> Self {
        let storage = self.none_conversion().and_then(|c| c.storage.clone());
        let schema = Arc::new(crate::schema::structural::SchemaValidator::new(schema));
        self.with_none_conversion(storage, Some(schema))
    }

    fn none_conversion(&self) -> Option<&crate::conversion::NoneConversion> {
        self.none_codec.as_deref()
    }

    fn with_none_conversion(
        mut self,
        storage: Option<String>,
        schema: Option<Arc<crate::schema::structural::SchemaValidator>>,
    ) -> Self {
        let codec = Arc::new(crate::conversion::NoneConversion {
            storage,
            served: self.kind.api_version(),
            // Most schemas have no default: nothing to walk for them.
            defaults: schema
                .as_ref()
                .is_some_and(|s| crate::schema::defaulting::has_defaults(s.schema())),
            schema,
        });
        self.none_codec = Some(codec.clone());
        self.codec = Some(codec);
        self
    }

    /// Deletes as under a garbage collector (the apiserver store's
    /// `EnableGarbageCollection`): a delete's `propagationPolicy` becomes
    /// the `orphan` or `foregroundDeletion` finalizer, which keeps the
    /// object until a garbage collector has dealt with its dependents and
    /// removed the finalizer. Off by default: without a garbage collector
    /// running, those finalizers would never go, so the policy is carried
    /// in [`DeleteOptions`] and the object deleted at once.
    pub fn with_garbage_collection(mut self) -> Self {
        self.garbage_collection = true;
        self
    }

    /// Replaces the clock (for tests that need fixed timestamps).
    pub fn with_clock(mut self, clock: impl Fn() -> Time + Send + Sync + 'static) -> Self {
        self.clock = Arc::new(clock);
        self
    }

    /// The registry writing as `manager` (the request's `fieldManager`,
    /// or the client's program name as the apiserver derives it from the
    /// user agent): the name its writes record in `metadata.managedFields`
    /// and that a server-side apply owns fields under. Unset, writes are
    /// recorded as `unknown`, as the apiserver records a client that
    /// gives neither.
    pub fn field_manager(&self, manager: &str) -> Self {
        let mut out = self.view();
        out.manager = Arc::from(if manager.is_empty() {
            UNKNOWN_MANAGER
        } else {
            manager
        });
        out
    }

    /// The registry with `check` run on every write's final object, after
    /// validation and before storage (a 4xx from it refuses the write,
    /// nothing stored): what one request admits, such as an escalation
    /// check by the request's user. Cheap: a view sharing everything else.
    pub fn with_admission(&self, check: Admission<K>) -> Self {
        let mut out = self.view();
        out.admission = Some(check);
        out
    }

    /// The manager this registry writes as (see [`Registry::field_manager`]).
    pub fn manager(&self) -> &str {
        &self.manager
    }

    /// The same registry (a cheap view sharing storage, strategy, clock,
    /// schemas and manager).
    pub fn clone_view(&self) -> Self {
        self.view()
    }

    fn view(&self) -> Self {
        Registry {
            kind: self.kind.clone(),
            admission: self.admission.clone(),
            plugins: self.plugins.clone(),
            storage: self.storage.clone(),
            strategy: self.strategy.clone(),
            clock: self.clock.clone(),
            garbage_collection: self.garbage_collection,
            schema: self.schema.clone(),
            apply_schema: self.apply_schema.clone(),
            codec: self.codec.clone(),
            none_codec: self.none_codec.clone(),
            manager: self.manager.clone(),
        }
    }

    /// The kind's schema for server-side apply (its structural schema,
    /// `metadata` typed as ObjectMeta), compiled once.
    pub(crate) fn apply_schema(&self) -> &crate::apply::Schema {
        self.apply_schema
            .get_or_init(|| crate::apply::resource_schema(self.schema()))
    }

    /// Records the write of `new` over `live` (none for a create) in
    /// `new`'s managedFields, as the apiserver's field manager does for
    /// every create, update and patch.
    fn track(&self, live: Option<&mut K>, new: &mut K, subresource: &str) -> Result<(), Status> {
        let schema = self.apply_schema();
        let reset = crate::apply::reset_fields(self.kind.status_subresource, subresource);
        let manager = crate::apply::FieldManager::new(schema, (self.clock)()).with_reset(&reset);
        // The objects' JSON without their managedFields, which stay typed
        // (taken out for the conversion and put back).
        let request = std::mem::take(&mut new.metadata_mut().managed_fields);
        let value = to_owned_value(&*new).map_err(Status::internal_error);
        let (live, live_entries) = match live {
            Some(l) => {
                let entries = std::mem::take(&mut l.metadata_mut().managed_fields);
                let value = to_owned_value(&*l);
                l.metadata_mut().managed_fields = entries;
                (
                    value.map_err(Status::internal_error)?,
                    l.metadata().managed_fields.as_slice(),
                )
            }
            None => (Value::Null, &[][..]),
        };
        let version = self.kind.api_version();
        new.metadata_mut().managed_fields = manager.update_entries(
            &live,
            live_entries,
            &value?,
            (!request.is_empty()).then_some(request.as_slice()),
            &crate::apply::Writer {
                manager: &self.manager,
                api_version: &version,
                subresource,
            },
        );
        Ok(())
    }

    /// This registry as a dry run (`dryRun=All`): every default, hook,
    /// validation and precondition of a write runs, and nothing is
    /// stored (its storage is a [`DryRunStorage`] over this one's). A
    /// created object comes back without a `resourceVersion`, an updated
    /// one with the version it had, as the apiserver answers. Cheap: it
    /// shares the strategy, clock, schema and conversions.
    pub fn dry_run(&self) -> Self {
        Registry {
            kind: self.kind.clone(),
            admission: self.admission.clone(),
            plugins: self.plugins.clone(),
            storage: Arc::new(DryRunStorage::new(self.storage.clone())),
            strategy: self.strategy.clone(),
            clock: self.clock.clone(),
            garbage_collection: self.garbage_collection,
            schema: self.schema.clone(),
            apply_schema: self.apply_schema.clone(),
            codec: self.codec.clone(),
            none_codec: self.none_codec.clone(),
            manager: self.manager.clone(),
        }
    }

    /// The storage behind the registry.
    pub fn storage(&self) -> &Arc<dyn Storage> {
        &self.storage
    }

    /// The kind this registry serves, as data.
    pub fn kind_info(&self) -> &Arc<KindInfo> {
        &self.kind
    }

    fn resource(&self) -> GroupResource {
        self.kind.resource()
    }

    fn group_kind(&self) -> GroupKind {
        self.kind.group_kind()
    }

    fn prefix(&self, namespace: &str) -> String {
        self.kind.key_prefix(namespace)
    }

    fn key(&self, namespace: &str, name: &str) -> String {
        self.kind.key(namespace, name)
    }

    fn check_name(name: &str) -> Result<(), Status> {
        check_name(name)
    }

    /// `EnsureObjectNamespaceMatchesRequestNamespace` for the kind's scope.
    fn match_namespace(&self, meta: &mut ObjectMeta, request: &str) -> Result<(), Status> {
        if !self.kind.namespaced() {
            meta.namespace.clear();
            return Ok(());
        }
        if request.is_empty() || meta.namespace == request {
            return Ok(());
        }
        if meta.namespace.is_empty() {
            meta.namespace = request.to_string();
            return Ok(());
        }
        Err(Status::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        ))
    }

    async fn stored(&self, namespace: &str, name: &str) -> Result<(K, Revision), Status> {
        self.stored_raw(namespace, name)
            .await
            .map(|(object, stored)| (object, stored.revision))
    }

    /// The stored object, decoded and as stored.
    async fn stored_raw(
        &self,
        namespace: &str,
        name: &str,
    ) -> Result<(K, storage::Stored), Status> {
        Self::check_name(name)?;
        match self.storage.get(&self.key(namespace, name)).await {
            Ok(s) => Ok((decode_stored(&s, &self.codec)?, s)),
            Err(StorageError::NotFound(_)) => Err(Status::not_found(self.resource(), name)),
            Err(e) => Err(self.storage_error(e, name)),
        }
    }

    /// The object `name` in `namespace`.
    pub async fn get(&self, namespace: &str, name: &str) -> Result<K, Status> {
        self.stored(namespace, name).await.map(|(o, _)| o)
    }

    /// The objects in `namespace` (all namespaces when empty) that match
    /// the selectors, a page at a time when `limit` is set. Every page of
    /// a list reads the revision of its first page (the `continue` token
    /// carries it); once the storage no longer keeps that revision the
    /// continuation is a 410 `Expired` whose token continues at the
    /// current one, as the apiserver answers.
    pub async fn list(&self, namespace: &str, options: &ListOptions) -> Result<List<K>, Status> {
        let selection = Selection::with_selectable_fields(options, &self.kind.selectable_fields())?;
        let prefix = self.prefix(namespace);
        let (items, metadata) = listing::list_page(
            self.storage.as_ref(),
            &self.resource(),
            &prefix,
            &selection,
            options,
            |stored| {
                let obj: K = decode_stored(stored, &self.codec)?;
                Ok(selected(&obj, self.kind.namespaced(), namespace, &selection).then_some(obj))
            },
        )
        .await?;
        Ok(List { metadata, items })
    }

    fn storage_error(&self, e: StorageError, name: &str) -> Status {
        e.into_status(self.resource(), name)
    }

    /// The root schema of the kind (for strategic merge patches).
    pub fn schema(&self) -> &Value {
        self.schema.get_or_init(|| match self.kind.schema() {
            // A kind described by data: its CRD's schema.
            Some(schema) => schema.clone(),
            None => {
                let mut generator = crate::__private::generator();
                <K as schemars::JsonSchema>::json_schema(&mut generator).to_value()
            }
        })
    }
}

/// Checks a name from a request path: it must be usable as a URL path
/// segment (not empty, not `.` or `..`, no `/` or `%`), else 400
/// `BadRequest` naming the problem. Run before any storage key is built.
///
/// ```
/// use api_core::registry::check_name;
///
/// assert!(check_name("web-1").is_ok());
/// assert_eq!(check_name("..").unwrap_err().code, 400);
/// assert!(check_name("a/b").unwrap_err().message.contains("a/b"));
/// ```
pub fn check_name(name: &str) -> Result<(), Status> {
    let problems = is_valid_path_segment_name(name);
    if name.is_empty() || !problems.is_empty() {
        let why = if name.is_empty() {
            "name is required".to_string()
        } else {
            problems.join(", ")
        };
        return Err(Status::bad_request(format!(
            "invalid resource name {name:?}: {why}"
        )));
    }
    Ok(())
}

/// The manager of writes that name none (the apiserver's name for a
/// client without a `fieldManager` or user agent).
pub const UNKNOWN_MANAGER: &str = "unknown";

/// How a write records its managers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tracking {
    /// As an update by the registry's manager (of this subresource).
    Update(&'static str),
    /// Already recorded (by a server-side apply).
    Done,
}

/// A random RFC 4122 version-4 UUID, as the apiserver gives every object.
/// (Written here rather than with the `uuid` crate, whose WebAssembly
/// dependencies break offline builds such as trybuild's; uniqueness, not
/// secrecy, is what a uid needs.)
pub fn new_uid() -> String {
    let mut b: [u8; 16] = fastrand::u128(..).to_le_bytes();
    b[6] = (b[6] & 0x0f) | 0x40; // version 4
    b[8] = (b[8] & 0x3f) | 0x80; // RFC 4122 variant
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}
