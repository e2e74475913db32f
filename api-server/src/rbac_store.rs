//! Serving `rbac.authorization.k8s.io/v1` `Role`, `ClusterRole`,
//! `RoleBinding` and `ClusterRoleBinding` from the server's storage, with
//! their validation and the RBAC registry's escalation checks (a user may
//! only grant what they hold, or bind what they may `bind`), and the
//! [`Authorizer`] built from what is stored.
//!
//! These are built-in kinds, not `KubeResource`s: each is served by the
//! one store, a [`Registry<DynamicObject>`] of its [`KindInfo`] with
//! [`RbacStrategy`] (the apiserver's RBAC strategies: defaults,
//! validation, unconditional updates, names any path segment), its bodies
//! read through its own type (with that type's unknown-field warnings),
//! and the escalation check run on each write's final object with the
//! request's user ([`Registry::with_admission`]), as the RBAC REST
//! storage wraps the generic store.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use api_core::Status;
use api_core::crd::CustomResourceDefinition;
use api_core::meta::ObjectMeta;
use api_core::registry::storage::Stored;
use api_core::registry::{
    Admission, BoxFuture, DynamicObject, KindInfo, Registry, Revision, Storage, StorageError,
    Strategy,
};
use api_core::validation::names::ValidateNameFn;
use api_core::validation::{ErrorList, FieldError, FieldPath};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

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
use crate::served::{AdmissionFor, RegistryKind, WriteOptions, decode_as};

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
///
/// "At once" holds on a storage whose watch delivers later than its
/// writes answer (etcd) too: the RBAC kinds write through a storage view
/// which keeps the revision of this server's latest RBAC write, and an
/// authorizer built before it is stale whether or not the watch has
/// delivered the change yet (a client that created a RoleBinding is
/// authorized by it on its next request, as on memory). Writes by other
/// servers on the same etcd take effect when the watch delivers them, as
/// with the apiserver's informers.
pub struct RbacState {
    storage: Arc<dyn Storage>,
    /// What the RBAC kinds write through.
    writes: Arc<dyn Storage>,
    /// The revision of this server's latest RBAC write.
    written: Arc<AtomicU64>,
    cached: Mutex<Option<Cached>>,
}

/// An authorizer, the revision it was read at, and the watch that tells
/// when it is stale.
struct Cached {
    authorizer: Arc<Authorizer>,
    revision: Revision,
    changes: api_core::registry::storage::Watch,
}

/// The RBAC kinds' storage: records the revision of each write.
struct Recorded {
    inner: Arc<dyn Storage>,
    written: Arc<AtomicU64>,
}

impl Recorded {
    fn record(&self, result: Result<Stored, StorageError>) -> Result<Stored, StorageError> {
        if let Ok(stored) = &result {
            self.written.fetch_max(stored.revision, Ordering::SeqCst);
        }
        result
    }
}

impl api_core::registry::Forwarding for Recorded {
    fn inner(&self) -> &dyn Storage {
        self.inner.as_ref()
    }
    fn create<'a>(
        &'a self,
        key: &'a str,
        value: Value,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(async move { self.record(self.inner.create(key, value).await) })
    }
    fn update<'a>(
        &'a self,
        key: &'a str,
        value: Value,
        expected: Revision,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(async move { self.record(self.inner.update(key, value, expected).await) })
    }
    fn delete<'a>(
        &'a self,
        key: &'a str,
        expected: Option<Revision>,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(async move {
            let deleted = self.inner.delete(key, expected).await?;
            // A delete answers the object's last state: the deletion's
            // own revision is the store's now, or before it.
            let now = self.inner.revision().await.unwrap_or(Revision::MAX);
            self.written.fetch_max(now, Ordering::SeqCst);
            Ok(deleted)
        })
    }
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
        let written = Arc::new(AtomicU64::new(0));
        Arc::new(RbacState {
            writes: Arc::new(Recorded {
                inner: storage.clone(),
                written: written.clone(),
            }),
            storage,
            written,
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
            // Any change (or an ended or broken watch) makes it stale, and
            // so does a write of this server's it was read before.
            if cached.revision >= self.written.load(Ordering::SeqCst)
                && cached.changes.try_next().is_none()
            {
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
            revision,
            changes,
        });
        Ok(authorizer)
    }
}

/// The RBAC kind `T`, described as a CRD (its schema deduced, as the
/// apiserver serves these kinds to clients that read no OpenAPI).
fn described<T: RbacObject>() -> CustomResourceDefinition {
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

/// The object as its RBAC type.
fn typed<T: RbacObject>(obj: &DynamicObject) -> Result<T, String> {
    serde_json::from_value(obj.to_value()).map_err(|e| e.to_string())
}

/// `object` as the store's object, with its `apiVersion` and `kind`.
fn dynamic<T: RbacObject>(object: &T) -> Result<DynamicObject, Status> {
    let mut value = serde_json::to_value(object).map_err(Status::internal_error)?;
    value["apiVersion"] = json!("rbac.authorization.k8s.io/v1");
    value["kind"] = json!(T::KIND);
    serde_json::from_value(value).map_err(Status::internal_error)
}

/// The apiserver's RBAC strategies (`pkg/registry/rbac/*/strategy.go`)
/// for `T`, over the store's objects: `T`'s v1 defaults (what `T` does
/// not hold is dropped), `T`'s validation of a create and of an update
/// against the old object, names any path segment (`ValidateRBACName`),
/// unconditional updates, no generation.
pub struct RbacStrategy<T> {
    _kind: PhantomData<fn() -> T>,
}

impl<T> Default for RbacStrategy<T> {
    fn default() -> Self {
        RbacStrategy { _kind: PhantomData }
    }
}

/// `ValidateRBACName`: a name usable as a path segment.
fn rbac_name(name: &str, _prefix: bool) -> Vec<String> {
    api_core::validation::names::is_valid_path_segment_name(name)
}

fn not_a<T: RbacObject>(error: String) -> ErrorList {
    let mut errors = ErrorList::new();
    errors.push(FieldError::invalid(
        &FieldPath::new(""),
        Value::Null,
        format!("not a {}: {error}", T::KIND),
    ));
    errors
}

impl<T: RbacObject> Strategy<DynamicObject> for RbacStrategy<T> {
    fn apply_defaults(&self, obj: &mut DynamicObject) {
        if let Ok(mut object) = typed::<T>(obj) {
            object.set_defaults();
            if let Ok(mut defaulted) = dynamic(&object) {
                defaulted.metadata = std::mem::take(&mut obj.metadata);
                *obj = defaulted;
            }
        }
    }

    fn name_validation(&self) -> ValidateNameFn {
        rbac_name
    }

    fn prepare_for_create(&self, _: &mut DynamicObject) {}

    fn validate(&self, obj: &DynamicObject) -> ErrorList {
        match typed::<T>(obj) {
            Ok(object) => object.validate(None),
            Err(e) => not_a::<T>(e),
        }
    }

    fn allow_unconditional_update(&self) -> bool {
        true
    }

    fn prepare_for_update(&self, _: &mut DynamicObject, _: &DynamicObject) {}

    fn validate_update(&self, new: &DynamicObject, old: &DynamicObject) -> ErrorList {
        match (typed::<T>(new), typed::<T>(old)) {
            (Ok(new), Ok(old)) => new.validate(Some(&old)),
            (Err(e), _) | (_, Err(e)) => not_a::<T>(e),
        }
    }
}

/// The RBAC kind `T` served by the one store over `state`'s storage, its
/// writes checked for escalation with the request's user against the
/// stored RBAC objects (`state`'s authorizer).
pub fn rbac_kind<T: RbacObject>(state: Arc<RbacState>) -> RegistryKind<DynamicObject> {
    let info = KindInfo::from_crd(&described::<T>(), "v1").expect("the RBAC CRD serves v1");
    let registry = Registry::with_kind(info, RbacStrategy::<T>::default(), state.writes.clone());
    let admission: AdmissionFor<DynamicObject> = Arc::new(move |options: &WriteOptions| {
        let state = state.clone();
        let user = options.user.clone();
        Box::pin(async move {
            let Some(user) = user else {
                return Ok(None);
            };
            let authorizer = state.authorizer().await?;
            let check: Admission<DynamicObject> = Arc::new(move |new, old| {
                let bad = |e: String| Status::bad_request(format!("not a {}: {e}", T::KIND));
                let new = typed::<T>(new).map_err(bad)?;
                let old = old.map(typed::<T>).transpose().map_err(bad)?;
                new.check(&authorizer, &user, old.as_ref())
            });
            Ok(Some(check))
        })
    });
    RegistryKind::dynamic(Arc::new(registry))
        .as_builtin()
        .with_decode(decode_as::<T>)
        .with_admission(admission)
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

    /// A storage whose watches deliver nothing (etcd's, before its events
    /// arrive).
    struct SlowWatches(MemoryStorage);

    impl api_core::registry::Forwarding for SlowWatches {
        fn inner(&self) -> &dyn Storage {
            &self.0
        }
        fn watch<'a>(
            &'a self,
            prefix: &'a str,
            _from: Revision,
        ) -> BoxFuture<'a, Result<api_core::registry::storage::Watch, StorageError>> {
            // A watch from far ahead: nothing comes before the test ends.
            Box::pin(async move { self.0.watch(prefix, Revision::MAX / 2).await })
        }
    }

    /// A write through this server's RBAC kinds takes effect on the next
    /// request, before (here: without) the watch delivering it.
    #[tokio::test]
    async fn this_servers_rbac_writes_take_effect_before_the_watch_shows_them() {
        let storage: Arc<dyn Storage> = Arc::new(SlowWatches(MemoryStorage::new()));
        let state = RbacState::new(storage.clone());
        let bob =
            || Attributes::resource(User::new("bob", &[]), "get", "", "pods").in_namespace("demo");
        let first = state.authorizer().await.unwrap();
        assert!(!first.authorize(&bob()).allowed);
        let role = Role::new(
            "demo",
            "r",
            vec![PolicyRule::resource(&["get"], &[""], &["pods"])],
        );
        let binding = RoleBinding::new("demo", "r", RoleRef::role("r"), vec![Subject::user("bob")]);
        state
            .writes
            .create(
                "/rbac.authorization.k8s.io/roles/demo/r",
                serde_json::to_value(&role).unwrap(),
            )
            .await
            .unwrap();
        let stored = state
            .writes
            .create(
                "/rbac.authorization.k8s.io/rolebindings/demo/r",
                serde_json::to_value(&binding).unwrap(),
            )
            .await
            .unwrap();
        let after = state.authorizer().await.unwrap();
        assert!(
            after.authorize(&bob()).allowed,
            "the binding counts at once"
        );
        let cached = state.authorizer().await.unwrap();
        assert!(Arc::ptr_eq(&after, &cached), "nothing changed since");

        // A delete counts at once too.
        state.writes.delete(&stored.key, None).await.unwrap();
        let last = state.authorizer().await.unwrap();
        assert!(!last.authorize(&bob()).allowed, "the binding is gone");
    }
}
