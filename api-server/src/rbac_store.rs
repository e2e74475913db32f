//! Serving `rbac.authorization.k8s.io/v1` `Role`, `ClusterRole`,
//! `RoleBinding` and `ClusterRoleBinding` from the server's storage, with
//! their validation and the RBAC registry's escalation checks (a user may
//! only grant what they hold, or bind what they may `bind`), and the
//! [`Authorizer`] built from what is stored.
//!
//! These are built-in kinds, not `KubeResource`s: each is served through
//! [`ServedKind`] over JSON with the generic store's semantics
//! (`resourceVersion` preconditions, unconditional updates allowed, as
//! the RBAC strategies do; dry runs; watches).

use std::sync::{Arc, Mutex};

use api_core::Status;
use api_core::crd::CustomResourceDefinition;
use api_core::decode::FieldValidation;
use api_core::meta::{ObjectMeta, Time};
use api_core::patch::PatchType;
use api_core::registry::{
    BoxFuture, DeleteOptions, DryRunStorage, EventType, KindInfo, ListOptions, Selection, Storage,
    StorageError, check_name, new_uid,
};
use api_core::status::{GroupKind, GroupResource};
use api_core::validation::ErrorList;
use futures_util::StreamExt;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::namespaces::with_revision;
use crate::rbac::escalation::{
    check_cluster_role, check_cluster_role_binding, check_role, check_role_binding,
};
use crate::rbac::types::{ClusterRole, ClusterRoleBinding, Role, RoleBinding};
use crate::rbac::validation::{
    validate_cluster_role, validate_cluster_role_binding, validate_cluster_role_binding_update,
    validate_cluster_role_update, validate_role, validate_role_binding,
    validate_role_binding_update, validate_role_update,
};
use crate::rbac::{Authorizer, GROUP_NAME, UserInfo};
use crate::served::{JsonWatch, ServedKind, WriteOptions, Written};

/// One of the four RBAC kinds.
pub trait RbacObject: Serialize + DeserializeOwned + Clone + Send + Sync + 'static {
    /// `Role`, ...
    const KIND: &'static str;
    /// `roles`, ...
    const PLURAL: &'static str;
    /// Whether objects live in namespaces.
    const NAMESPACED: bool;
    /// The object's metadata.
    fn meta(&self) -> &ObjectMeta;
    /// The object's metadata, to change.
    fn meta_mut(&mut self) -> &mut ObjectMeta;
    /// The v1 defaults.
    fn set_defaults(&mut self) {}
    /// Validation of a new object, or of an update against the old one.
    fn validate(&self, old: Option<&Self>) -> ErrorList;
    /// The escalation check of a write by `user`.
    fn check(
        &self,
        authorizer: &Authorizer,
        user: &UserInfo,
        old: Option<&Self>,
    ) -> Result<(), Status>;
}

macro_rules! meta_accessors {
    () => {
        fn meta(&self) -> &ObjectMeta {
            &self.metadata
        }
        fn meta_mut(&mut self) -> &mut ObjectMeta {
            &mut self.metadata
        }
    };
}

impl RbacObject for Role {
    const KIND: &'static str = "Role";
    const PLURAL: &'static str = "roles";
    const NAMESPACED: bool = true;
    meta_accessors!();
    fn validate(&self, old: Option<&Self>) -> ErrorList {
        old.map_or_else(
            || validate_role(self),
            |old| validate_role_update(self, old),
        )
    }
    fn check(&self, a: &Authorizer, user: &UserInfo, _: Option<&Self>) -> Result<(), Status> {
        check_role(a, user, &self.metadata.namespace, self)
    }
}

impl RbacObject for ClusterRole {
    const KIND: &'static str = "ClusterRole";
    const PLURAL: &'static str = "clusterroles";
    const NAMESPACED: bool = false;
    meta_accessors!();
    fn validate(&self, old: Option<&Self>) -> ErrorList {
        old.map_or_else(
            || validate_cluster_role(self),
            |old| validate_cluster_role_update(self, old),
        )
    }
    fn check(&self, a: &Authorizer, user: &UserInfo, old: Option<&Self>) -> Result<(), Status> {
        check_cluster_role(a, user, self, old)
    }
}

impl RbacObject for RoleBinding {
    const KIND: &'static str = "RoleBinding";
    const PLURAL: &'static str = "rolebindings";
    const NAMESPACED: bool = true;
    meta_accessors!();
    fn set_defaults(&mut self) {
        RoleBinding::set_defaults(self);
    }
    fn validate(&self, old: Option<&Self>) -> ErrorList {
        old.map_or_else(
            || validate_role_binding(self),
            |old| validate_role_binding_update(self, old),
        )
    }
    fn check(&self, a: &Authorizer, user: &UserInfo, _: Option<&Self>) -> Result<(), Status> {
        check_role_binding(a, user, &self.metadata.namespace, self)
    }
}

impl RbacObject for ClusterRoleBinding {
    const KIND: &'static str = "ClusterRoleBinding";
    const PLURAL: &'static str = "clusterrolebindings";
    const NAMESPACED: bool = false;
    meta_accessors!();
    fn set_defaults(&mut self) {
        ClusterRoleBinding::set_defaults(self);
    }
    fn validate(&self, old: Option<&Self>) -> ErrorList {
        old.map_or_else(
            || validate_cluster_role_binding(self),
            |old| validate_cluster_role_binding_update(self, old),
        )
    }
    fn check(&self, a: &Authorizer, user: &UserInfo, _: Option<&Self>) -> Result<(), Status> {
        check_cluster_role_binding(a, user, self)
    }
}

/// The stored RBAC objects as an [`Authorizer`], rebuilt only when an
/// RBAC object has changed: a write through this server invalidates it at
/// once, and a watch on the RBAC keys sees writes by others sharing the
/// storage (another server on the same etcd), as the apiserver's RBAC
/// informers do. Writes of other kinds leave it alone.
pub struct RbacState {
    storage: Arc<dyn Storage>,
    cached: Mutex<Option<Cached>>,
}

/// An authorizer and the watch that tells when it is stale.
struct Cached {
    authorizer: Arc<Authorizer>,
    changes: api_core::registry::storage::Watch,
}

fn key_prefix(plural: &str) -> String {
    format!("/{GROUP_NAME}/{plural}/")
}

async fn load<T: RbacObject>(storage: &dyn Storage) -> Result<Vec<T>, Status> {
    let (items, _) = storage
        .list(&key_prefix(T::PLURAL))
        .await
        .map_err(Status::internal_error)?;
    Ok(items
        .iter()
        .filter_map(|s| serde_json::from_value(s.value.clone()).ok())
        .collect())
}

impl RbacState {
    /// The RBAC objects of `storage`.
    pub fn new(storage: Arc<dyn Storage>) -> Arc<Self> {
        Arc::new(RbacState {
            storage,
            cached: Mutex::new(None),
        })
    }

    /// The authorizer over what is stored now.
    pub async fn authorizer(&self) -> Result<Arc<Authorizer>, Status> {
        if let Some(cached) = self
            .cached
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_mut()
        {
            // Any change (or an ended or broken watch) makes it stale.
            if cached.changes.try_next().is_none() {
                return Ok(cached.authorizer.clone());
            }
        }
        // Watch first, then read: a change in between is seen twice at
        // worst (one rebuild too many), never missed.
        let revision = self
            .storage
            .revision()
            .await
            .map_err(Status::internal_error)?;
        let changes = self
            .storage
            .watch(&format!("/{GROUP_NAME}/"), revision)
            .await
            .map_err(Status::internal_error)?;
        let storage = self.storage.as_ref();
        let authorizer = Arc::new(Authorizer::new(
            load(storage).await?,
            load(storage).await?,
            load(storage).await?,
            load(storage).await?,
        ));
        *self.cached.lock().unwrap_or_else(|p| p.into_inner()) = Some(Cached {
            authorizer: authorizer.clone(),
            changes,
        });
        Ok(authorizer)
    }

    /// Forgets the authorizer after a write through this server, so the
    /// next request sees it whatever the storage's watch latency.
    fn invalidate(&self) {
        *self.cached.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }
}

/// Whether a write records its managedFields (`Update`), or carries the
/// ones an apply computed (`Done`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tracking {
    Update,
    Done,
}

/// One RBAC kind served from storage.
pub struct RbacKind<T: RbacObject> {
    state: Arc<RbacState>,
    info: KindInfo,
    _kind: std::marker::PhantomData<fn() -> T>,
}

impl<T: RbacObject> RbacKind<T> {
    /// `T` served over `state`'s storage.
    pub fn new(state: Arc<RbacState>) -> Self {
        let info = KindInfo::from_crd(&Self::described(), "v1").expect("the RBAC CRD serves v1");
        RbacKind {
            state,
            info,
            _kind: std::marker::PhantomData,
        }
    }

    /// The kind, described as a CRD (its schema deduced, as the apiserver
    /// serves these kinds to clients that read no OpenAPI).
    fn described() -> CustomResourceDefinition {
        let scope = if T::NAMESPACED {
            "Namespaced"
        } else {
            "Cluster"
        };
        let singular = T::KIND.to_ascii_lowercase();
        serde_json::from_value(json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": format!("{}.{GROUP_NAME}", T::PLURAL)},
            "spec": {
                "group": GROUP_NAME,
                "names": {"kind": T::KIND, "listKind": format!("{}List", T::KIND),
                          "plural": T::PLURAL, "singular": singular},
                "scope": scope,
                "versions": [{
                    "name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {
                        "type": "object",
                        "description": format!("{} (rbac.authorization.k8s.io/v1).", T::KIND),
                        "x-kubernetes-preserve-unknown-fields": true
                    }}
                }]
            }
        }))
        .unwrap_or_default()
    }

    fn resource() -> GroupResource {
        GroupResource::new(GROUP_NAME, T::PLURAL)
    }

    fn prefix(namespace: &str) -> String {
        if T::NAMESPACED && !namespace.is_empty() {
            format!("{}{namespace}/", key_prefix(T::PLURAL))
        } else {
            key_prefix(T::PLURAL)
        }
    }

    fn key(namespace: &str, name: &str) -> String {
        format!(
            "{}{name}",
            Self::prefix(if T::NAMESPACED { namespace } else { "" })
        )
    }

    fn storage(&self, dry_run: bool) -> Arc<dyn Storage> {
        if dry_run {
            Arc::new(DryRunStorage::new(self.state.storage.clone()))
        } else {
            self.state.storage.clone()
        }
    }

    /// After a write: the next request authorizes with what it wrote.
    fn written(&self, dry_run: bool) {
        if !dry_run {
            self.state.invalidate();
        }
    }

    fn check_name(name: &str) -> Result<(), Status> {
        check_name(name)
    }

    fn storage_error(e: StorageError, name: &str) -> Status {
        e.into_status(Self::resource(), name)
    }

    /// `stored` as a list or watch item, if it is a `T` that `selection`
    /// matches.
    fn select(value: &Value, selection: &Selection) -> bool {
        value
            .get("metadata")
            .and_then(|m| ObjectMeta::deserialize(m).ok())
            .is_some_and(|meta| selection.matches(&meta))
    }

    /// The body as a `T`, with unknown fields per `validation`.
    fn decode(body: &[u8], validation: FieldValidation) -> Result<(T, Vec<String>), Status> {
        let value: Value = serde_json::from_slice(body)
            .map_err(|e| Status::bad_request(format!("the request body is not JSON: {e}")))?;
        for (key, want) in [
            ("apiVersion", "rbac.authorization.k8s.io/v1"),
            ("kind", T::KIND),
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
        .map_err(|e| Status::bad_request(format!("the request body is not a {}: {e}", T::KIND)))?;
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
        Ok((object, warnings))
    }

    fn encode(object: &T) -> Result<Value, Status> {
        let mut value = serde_json::to_value(object).map_err(Status::internal_error)?;
        value["apiVersion"] = json!("rbac.authorization.k8s.io/v1");
        value["kind"] = json!(T::KIND);
        if let Some(meta) = value.get_mut("metadata").and_then(Value::as_object_mut) {
            meta.remove("resourceVersion");
        }
        Ok(value)
    }

    /// `object` to store, with its managedFields after this write from
    /// `live` (null for a create), as for every kind.
    fn tracked(
        live: &Value,
        object: &T,
        options: &WriteOptions,
        tracking: Tracking,
    ) -> Result<Value, Status> {
        let mut value = Self::encode(object)?;
        if tracking == Tracking::Done {
            return Ok(value);
        }
        api_core::apply::FieldManager::new(api_core::apply::untyped_schema(), Time::now()).update(
            live,
            &mut value,
            &api_core::apply::Writer {
                manager: &options.manager,
                api_version: "rbac.authorization.k8s.io/v1",
                subresource: "",
            },
        );
        Ok(value)
    }

    fn invalid(name: &str, errors: &ErrorList) -> Status {
        Status::invalid(GroupKind::new(GROUP_NAME, T::KIND), name, errors)
    }

    async fn checked(
        &self,
        object: &T,
        old: Option<&T>,
        options: &WriteOptions,
    ) -> Result<(), Status> {
        let errors = object.validate(old);
        if !errors.is_empty() {
            return Err(Self::invalid(&object.meta().name, &errors));
        }
        let _ = options;
        match crate::server::current_user() {
            Some(user) => {
                let authorizer = self.state.authorizer().await?;
                object.check(&authorizer, &user, old)
            }
            None => Ok(()),
        }
    }

    /// A create of `object` in `namespace`.
    async fn insert(
        &self,
        namespace: &str,
        mut object: T,
        options: &WriteOptions,
        tracking: Tracking,
    ) -> Result<Written, Status> {
        let meta = object.meta_mut();
        if T::NAMESPACED {
            if !meta.namespace.is_empty() && meta.namespace != namespace {
                return Err(Status::bad_request(
                    "the namespace of the provided object does not match the namespace sent on the request",
                ));
            }
            meta.namespace = namespace.to_string();
        } else {
            meta.namespace.clear();
        }
        meta.resource_version.clear();
        meta.uid = new_uid();
        meta.creation_timestamp = Some(Time::now());
        let name = meta.name.clone();
        Self::check_name(&name)?;
        object.set_defaults();
        self.checked(&object, None, options).await?;
        let stored = self
            .storage(options.dry_run)
            .create(
                &Self::key(namespace, &name),
                Self::tracked(&Value::Null, &object, options, tracking)?,
            )
            .await
            .map_err(|e| Self::storage_error(e, &name))?;
        self.written(options.dry_run);
        Ok(Written {
            object: with_revision(stored),
            warnings: Vec::new(),
            created: true,
        })
    }

    /// Server-side apply of `body` (YAML or JSON) as the apiserver runs it
    /// for these kinds: their schema deduced (objects granular, lists
    /// atomic), the object created when missing, a no-op writing nothing,
    /// a lost race applied again to the new state.
    async fn apply_config(
        &self,
        namespace: &str,
        name: &str,
        body: &[u8],
        options: &WriteOptions,
    ) -> Result<Written, Status> {
        const RBAC_V1: &str = "rbac.authorization.k8s.io/v1";
        let config = api_core::registry::apply_config(
            body,
            RBAC_V1,
            T::KIND,
            name,
            T::NAMESPACED.then_some(namespace),
        )?;
        Self::check_name(name)?;
        let manager = options.field_manager.as_deref().unwrap_or_default();
        let writer = api_core::apply::Writer {
            manager,
            api_version: RBAC_V1,
            subresource: "",
        };
        let mut attempt = 0;
        loop {
            attempt += 1;
            let live = match self.get(namespace, name).await {
                Ok(live) => live,
                Err(e) if e.code == 404 => Value::Null,
                Err(e) => return Err(e),
            };
            let fm =
                api_core::apply::FieldManager::new(api_core::apply::untyped_schema(), Time::now());
            let Some(new) = fm.apply(&live, &config, &writer, options.force)? else {
                return Ok(Written {
                    object: live,
                    warnings: Vec::new(),
                    created: false,
                });
            };
            api_core::registry::applied_name(&new, name)?;
            let bytes = serde_json::to_vec(&new).map_err(Status::internal_error)?;
            let (object, warnings) = Self::decode(&bytes, options.field_validation)?;
            let result = if live.is_null() {
                self.insert(namespace, object, options, Tracking::Done)
                    .await
            } else {
                self.write_update(namespace, name, object, options, Tracking::Done)
                    .await
            };
            match result {
                Ok(mut written) => {
                    written.warnings = warnings;
                    return Ok(written);
                }
                // Lost a race with another write: apply to the new state.
                Err(e)
                    if attempt < api_core::registry::RACE_ATTEMPTS
                        && api_core::registry::lost_race(&e) => {}
                Err(e) => return Err(e),
            }
        }
    }

    async fn write_update(
        &self,
        namespace: &str,
        name: &str,
        mut object: T,
        options: &WriteOptions,
        tracking: Tracking,
    ) -> Result<Written, Status> {
        Self::check_name(name)?;
        if object.meta().name != name {
            return Err(api_core::registry::name_mismatch(&object.meta().name, name));
        }
        let key = Self::key(namespace, name);
        let current = self
            .state
            .storage
            .get(&key)
            .await
            .map_err(|e| Self::storage_error(e, name))?;
        let old: T =
            serde_json::from_value(current.value.clone()).map_err(Status::internal_error)?;
        let rv = object.meta().resource_version.clone();
        // The RBAC strategies allow unconditional updates.
        if !rv.is_empty() && rv != current.revision.to_string() {
            return Err(Self::storage_error(
                StorageError::Conflict {
                    key,
                    expected: 0,
                    actual: current.revision,
                },
                name,
            ));
        }
        object.set_defaults();
        {
            let (meta, old_meta) = (object.meta_mut(), old.meta());
            meta.namespace = old_meta.namespace.clone();
            meta.uid = old_meta.uid.clone();
            meta.creation_timestamp = old_meta.creation_timestamp;
            meta.generation = old_meta.generation;
        }
        self.checked(&object, Some(&old), options).await?;
        let value = Self::tracked(&current.value, &object, options, tracking)?;
        // A write that changes nothing writes nothing (issue 27).
        if value == current.value {
            return Ok(Written {
                object: with_revision(current),
                warnings: Vec::new(),
                created: false,
            });
        }
        let stored = self
            .storage(options.dry_run)
            .update(&key, value, current.revision)
            .await
            .map_err(|e| Self::storage_error(e, name))?;
        self.written(options.dry_run);
        Ok(Written {
            object: with_revision(stored),
            warnings: Vec::new(),
            created: false,
        })
    }
}

impl<T: RbacObject> ServedKind for RbacKind<T> {
    fn info(&self) -> &KindInfo {
        &self.info
    }

    fn get<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
    ) -> BoxFuture<'a, Result<Value, Status>> {
        Box::pin(async move {
            Self::check_name(name)?;
            let stored = self
                .state
                .storage
                .get(&Self::key(namespace, name))
                .await
                .map_err(|e| Self::storage_error(e, name))?;
            Ok(with_revision(stored))
        })
    }

    fn list<'a>(
        &'a self,
        namespace: &'a str,
        options: &'a ListOptions,
    ) -> BoxFuture<'a, Result<Value, Status>> {
        Box::pin(async move {
            let selection = Selection::new(options)?;
            let prefix = Self::prefix(namespace);
            let (items, revision) = self
                .state
                .storage
                .list(&prefix)
                .await
                .map_err(Status::internal_error)?;
            let selected = items
                .into_iter()
                .filter(|s| {
                    selection.continues_after(&prefix, &s.key) && Self::select(&s.value, &selection)
                })
                .map(|s| (s.key.clone(), with_revision(s)))
                .collect();
            let (items, metadata) = selection.page(selected, revision, &prefix);
            Ok(json!({
                "apiVersion": "rbac.authorization.k8s.io/v1",
                "kind": format!("{}List", T::KIND),
                "metadata": metadata,
                "items": items,
            }))
        })
    }

    fn create<'a>(
        &'a self,
        namespace: &'a str,
        body: &'a [u8],
        options: &'a WriteOptions,
    ) -> BoxFuture<'a, Result<Written, Status>> {
        Box::pin(async move {
            let (object, warnings) = Self::decode(body, options.field_validation)?;
            let mut written = self
                .insert(namespace, object, options, Tracking::Update)
                .await?;
            written.warnings = warnings;
            Ok(written)
        })
    }

    fn update<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        body: &'a [u8],
        options: &'a WriteOptions,
        _status: bool,
    ) -> BoxFuture<'a, Result<Written, Status>> {
        Box::pin(async move {
            let (object, warnings) = Self::decode(body, options.field_validation)?;
            let mut written = self
                .write_update(namespace, name, object, options, Tracking::Update)
                .await?;
            written.warnings = warnings;
            Ok(written)
        })
    }

    fn patch<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        patch_type: PatchType,
        body: &'a [u8],
        options: &'a WriteOptions,
        _status: bool,
    ) -> BoxFuture<'a, Result<Written, Status>> {
        Box::pin(async move {
            let current = self.get(namespace, name).await?;
            // No list in these kinds merges by key: every list is atomic,
            // which an empty schema says.
            let patched = api_core::patch::apply(&current, body, patch_type, &Value::Null)?;
            let bytes = serde_json::to_vec(&patched).map_err(Status::internal_error)?;
            let (object, warnings) = Self::decode(&bytes, options.field_validation)?;
            let mut written = self
                .write_update(namespace, name, object, options, Tracking::Update)
                .await?;
            written.warnings = warnings;
            Ok(written)
        })
    }

    fn apply<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        body: &'a [u8],
        options: &'a WriteOptions,
        _status: bool,
    ) -> BoxFuture<'a, Result<Written, Status>> {
        Box::pin(self.apply_config(namespace, name, body, options))
    }

    fn delete<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        options: &'a DeleteOptions,
        dry_run: bool,
    ) -> BoxFuture<'a, Result<(Value, bool), Status>> {
        Box::pin(async move {
            let current = self.get(namespace, name).await?;
            if let Some(uid) = &options.uid
                && current.pointer("/metadata/uid").and_then(Value::as_str) != Some(uid)
            {
                return Err(Status::conflict(
                    Self::resource(),
                    name,
                    format!(
                        "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                        current
                            .pointer("/metadata/uid")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                    ),
                ));
            }
            let expected = options
                .resource_version
                .as_deref()
                .and_then(|rv| rv.parse().ok());
            let stored = self
                .storage(dry_run)
                .delete(&Self::key(namespace, name), expected)
                .await
                .map_err(|e| Self::storage_error(e, name))?;
            self.written(dry_run);
            Ok((with_revision(stored), false))
        })
    }

    fn watch<'a>(
        &'a self,
        namespace: &'a str,
        options: &'a ListOptions,
    ) -> BoxFuture<'a, Result<JsonWatch, Status>> {
        Box::pin(async move {
            let selection = Selection::new(options)?;
            let from = match options.resource_version.as_deref() {
                None | Some("" | "0") => self
                    .state
                    .storage
                    .revision()
                    .await
                    .map_err(Status::internal_error)?,
                Some(rv) => rv
                    .parse()
                    .map_err(|_| Status::bad_request(format!("invalid resource version {rv:?}")))?,
            };
            let watch = self
                .state
                .storage
                .watch(&Self::prefix(namespace), from)
                .await
                .map_err(|e| Self::storage_error(e, ""))?;
            // As the watch cache reports them: an object entering the
            // selection is ADDED, one leaving it DELETED.
            let events = watch.filter_map(move |event| {
                let item = match event {
                    Err(e) => Some(Err(Self::storage_error(e, ""))),
                    Ok(event) => {
                        let now = Self::select(&event.object.value, &selection);
                        let before = event
                            .previous
                            .as_ref()
                            .is_some_and(|v| Self::select(v, &selection));
                        let kind = match (event.kind, before, now) {
                            (EventType::Added, _, true) => Some("ADDED"),
                            (EventType::Deleted, _, true) => Some("DELETED"),
                            (EventType::Modified, true, true) => Some("MODIFIED"),
                            (EventType::Modified, false, true) => Some("ADDED"),
                            (EventType::Modified, true, false) => Some("DELETED"),
                            _ => None,
                        };
                        kind.map(|kind| Ok((kind, with_revision(event.object))))
                    }
                };
                std::future::ready(item)
            });
            Ok(Box::pin(events) as JsonWatch)
        })
    }
}

#[cfg(test)]
mod tests {
    use api_core::registry::MemoryStorage;

    use super::*;
    use crate::authn::User;
    use crate::rbac::{Attributes, PolicyRule, RoleRef, Subject};

    /// The authorizer is rebuilt when an RBAC object changes, even when
    /// another writer of the storage changed it, and not for other kinds.
    #[tokio::test]
    async fn the_authorizer_is_rebuilt_for_rbac_changes_only() {
        let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
        let state = RbacState::new(storage.clone());
        let bob =
            || Attributes::resource(User::new("bob", &[]), "get", "", "pods").in_namespace("demo");
        let first = state.authorizer().await.unwrap();
        assert!(!first.authorize(&bob()).allowed);

        storage
            .create(
                "/example.com/widgets/demo/w",
                json!({"metadata": {"name": "w"}}),
            )
            .await
            .unwrap();
        let again = state.authorizer().await.unwrap();
        assert!(Arc::ptr_eq(&first, &again), "a widget write rebuilt it");

        // Another server on the same storage grants bob pods.
        let role = Role::new(
            "demo",
            "r",
            vec![PolicyRule::resource(&["get"], &[""], &["pods"])],
        );
        let binding = RoleBinding::new("demo", "r", RoleRef::role("r"), vec![Subject::user("bob")]);
        for (key, value) in [
            (
                "/rbac.authorization.k8s.io/roles/demo/r",
                serde_json::to_value(&role).unwrap(),
            ),
            (
                "/rbac.authorization.k8s.io/rolebindings/demo/r",
                serde_json::to_value(&binding).unwrap(),
            ),
        ] {
            storage.create(key, value).await.unwrap();
        }
        let after = state.authorizer().await.unwrap();
        assert!(!Arc::ptr_eq(&first, &after));
        assert!(after.authorize(&bob()).allowed);
        let cached = state.authorizer().await.unwrap();
        assert!(Arc::ptr_eq(&after, &cached), "nothing changed since");
    }
}
