//! Core `v1` `Namespace`s: create, get, list, update, patch (server-side
//! apply included), delete (which deletes what is in the namespace), and the NamespaceLifecycle admission rule that a
//! namespaced object cannot be created in a namespace that does not exist
//! (kube-apiserver `plugin/pkg/admission/namespace/lifecycle`).
//!
//! Namespaces are stored as JSON in the server's storage under
//! `/namespaces/<name>`. Deletion is synchronous here (the namespace
//! controller's work done in the request): the content goes, then the
//! namespace; the answer is the namespace as `Terminating`.

use std::sync::Arc;

use api_core::Status;
use api_core::meta::{ObjectMeta, Time};
use api_core::patch::PatchType;
use api_core::registry::storage::Stored;
use api_core::registry::{
    DryRunStorage, RACE_ATTEMPTS, Storage, StorageError, lost_race, name_mismatch, new_uid,
};
use api_core::status::GroupResource;
use api_core::validation::names::{is_dns1123_label, validate_namespace_name};
use api_core::validation::object_meta::validate_object_meta;
use api_core::validation::{ErrorList, FieldError, FieldPath};
use serde_json::{Value, json};

/// The namespaces kube-apiserver creates at start.
pub const SYSTEM_NAMESPACES: [&str; 4] =
    ["default", "kube-system", "kube-public", "kube-node-lease"];

const PREFIX: &str = "/namespaces/";

fn resource() -> GroupResource {
    GroupResource::new("", "namespaces")
}

fn key(name: &str) -> String {
    format!("{PREFIX}{name}")
}

/// The namespaces of a server, in its storage.
#[derive(Clone)]
pub struct Namespaces {
    storage: Arc<dyn Storage>,
}

/// The stored value with its `resourceVersion` (none for revision 0, a
/// dry-run create's).
pub(crate) fn with_revision(stored: Stored) -> Value {
    let mut value = stored.value;
    // Revision 0 is a dry-run create's: nothing was stored.
    if stored.revision != 0 {
        value["metadata"]["resourceVersion"] = json!(stored.revision.to_string());
    }
    value
}

fn internal(e: StorageError) -> Status {
    Status::internal_error(e)
}

impl Namespaces {
    /// The namespaces in `storage`.
    pub fn new(storage: Arc<dyn Storage>) -> Self {
        Namespaces { storage }
    }

    /// The same namespaces, as a dry run (`dryRun=All`): writes are
    /// checked and answered, nothing is stored.
    pub fn dry_run(&self) -> Self {
        Namespaces {
            storage: Arc::new(DryRunStorage::new(self.storage.clone())),
        }
    }

    /// These namespaces, or their dry run when `dry_run`.
    pub fn for_dry_run(&self, dry_run: bool) -> Self {
        if dry_run {
            self.dry_run()
        } else {
            self.clone()
        }
    }

    /// Creates the [`SYSTEM_NAMESPACES`] that do not exist yet.
    pub async fn ensure_system(&self) -> Result<(), Status> {
        for name in SYSTEM_NAMESPACES {
            let body = json!({"metadata": {"name": name}});
            match self.create(&body, "kube-apiserver").await {
                Ok(_) => {}
                Err(e) if e.code == 409 => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// `POST /api/v1/namespaces`.
    pub async fn create(&self, body: &Value, manager: &str) -> Result<Value, Status> {
        self.insert(body, Some(manager)).await
    }

    /// A create, its managedFields recorded for `manager` (`None`: an
    /// apply computed them).
    async fn insert(&self, body: &Value, manager: Option<&str>) -> Result<Value, Status> {
        let name = body
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let problems = is_dns1123_label(&name);
        if name.is_empty() || !problems.is_empty() {
            let mut errors = ErrorList::new();
            let metadata = FieldPath::new("metadata");
            let path = metadata.child("name");
            if name.is_empty() {
                errors.push(FieldError::required(
                    &path,
                    "name or generateName is required",
                ));
            } else {
                for p in problems {
                    errors.push(FieldError::invalid(&path, name.as_str(), p));
                }
            }
            return Err(Status::invalid(
                api_core::status::GroupKind::new("", "Namespace"),
                name,
                &errors,
            ));
        }
        let mut metadata = body.get("metadata").cloned().unwrap_or_else(|| json!({}));
        metadata["uid"] = json!(new_uid());
        metadata["creationTimestamp"] = json!(Time::now());
        if let Some(m) = metadata.as_object_mut() {
            m.remove("deletionTimestamp");
        }
        let metadata = checked_metadata(&name, metadata)?;
        let mut value = json!({
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": metadata,
            "spec": {"finalizers": ["kubernetes"]},
            "status": {"phase": "Active"}
        });
        // managedFields, as for every create (the request's fields: not
        // the phase and finalizers the server sets).
        if let Some(manager) = manager {
            // What the request sent and the namespace keeps: its metadata.
            let mut requested = json!({"apiVersion": "v1", "kind": "Namespace"});
            if let Some(sent) = body.get("metadata") {
                requested["metadata"] = sent.clone();
            }
            api_core::apply::FieldManager::new(api_core::apply::untyped_schema(), Time::now())
                .update(
                    &Value::Null,
                    &mut requested,
                    &api_core::apply::Writer {
                        manager,
                        api_version: "v1",
                        subresource: "",
                    },
                );
            match requested.pointer("/metadata/managedFields") {
                Some(entries) => value["metadata"]["managedFields"] = entries.clone(),
                None => {
                    if let Some(m) = value["metadata"].as_object_mut() {
                        m.remove("managedFields");
                    }
                }
            }
        }
        match self.storage.create(&key(&name), value).await {
            Ok(stored) => Ok(with_revision(stored)),
            Err(StorageError::AlreadyExists(_)) => Err(Status::already_exists(resource(), name)),
            Err(e) => Err(internal(e)),
        }
    }

    /// `PUT /api/v1/namespaces/<name>`: labels, annotations and the other
    /// metadata a client owns; `spec` and `status` stay the server's
    /// (the namespace strategy's `PrepareForUpdate`), as do the uid, the
    /// creation time and the `kubernetes.io/metadata.name` label.
    pub async fn update(&self, name: &str, body: &Value, manager: &str) -> Result<Value, Status> {
        let current = self.stored(name).await?;
        self.write(name, &current, body.clone(), Some(manager))
            .await
    }

    /// `PATCH /api/v1/namespaces/<name>` with a JSON, merge or strategic
    /// merge patch (namespaces have no list a strategic merge patch
    /// merges by key).
    pub async fn patch(
        &self,
        name: &str,
        patch_type: PatchType,
        patch: &[u8],
        manager: &str,
    ) -> Result<Value, Status> {
        let current = self.stored(name).await?;
        let mut patched = api_core::patch::apply(&current.value, patch, patch_type, &Value::Null)?;
        if patched
            .pointer("/metadata/resourceVersion")
            .is_none_or(|rv| rv.as_str().is_none_or(str::is_empty))
        {
            patched["metadata"]["resourceVersion"] = json!(current.revision.to_string());
        }
        self.write(name, &current, patched, Some(manager)).await
    }

    /// Server-side apply of `body` (YAML or JSON) to the namespace `name`
    /// by `manager` (its schema deduced, as for kinds without one): the
    /// namespace, and whether the apply created it.
    pub async fn apply(
        &self,
        name: &str,
        body: &[u8],
        manager: &str,
        force: bool,
    ) -> Result<(Value, bool), Status> {
        let config = api_core::registry::apply_config(body, "v1", "Namespace", name, None)?;
        let writer = api_core::apply::Writer {
            manager,
            api_version: "v1",
            subresource: "",
        };
        let fm =
            || api_core::apply::FieldManager::new(api_core::apply::untyped_schema(), Time::now());
        let mut attempt = 0;
        loop {
            attempt += 1;
            let current = match self.stored(name).await {
                Ok(current) => Some(current),
                Err(e) if e.code == 404 => None,
                Err(e) => return Err(e),
            };
            let live = current.as_ref().map_or(Value::Null, |c| c.value.clone());
            let new = match (
                fm().apply(&live, &config, &writer, force)?,
                current.as_ref(),
            ) {
                (Some(new), _) => new,
                // Nothing changes: nothing is written.
                (None, Some(current)) => return Ok((with_revision(current.clone()), false)),
                (None, None) => {
                    return Err(Status::internal_error("an apply created nothing"));
                }
            };
            api_core::registry::applied_name(&new, name)?;
            let result = match &current {
                None => self.insert(&new, None).await.map(|ns| (ns, true)),
                Some(current) => {
                    let mut new = new;
                    new["metadata"]["resourceVersion"] = json!(current.revision.to_string());
                    self.write(name, current, new, None)
                        .await
                        .map(|ns| (ns, false))
                }
            };
            match result {
                // Lost a race with another write: apply to the new state.
                Err(e) if attempt < RACE_ATTEMPTS && lost_race(&e) => {}
                other => return other,
            }
        }
    }

    /// The stored namespace, without its resourceVersion in the value.
    async fn stored(&self, name: &str) -> Result<Stored, Status> {
        match self.storage.get(&key(name)).await {
            Ok(stored) => Ok(stored),
            Err(StorageError::NotFound(_)) => Err(Status::not_found(resource(), name)),
            Err(e) => Err(internal(e)),
        }
    }

    /// An update of `current` to `new`: checks, the server's fields kept,
    /// managedFields recorded for `manager` (`None`: an apply computed
    /// them).
    async fn write(
        &self,
        name: &str,
        current: &Stored,
        new: Value,
        manager: Option<&str>,
    ) -> Result<Value, Status> {
        if !new.is_object() || !new.get("metadata").is_none_or(Value::is_object) {
            return Err(Status::bad_request("the request body is not a Namespace"));
        }
        let body_name = new
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if body_name != name {
            return Err(name_mismatch(body_name, name));
        }
        let rv = new
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        // The namespace strategy allows unconditional updates.
        if !rv.is_empty() && rv != current.revision.to_string() {
            return Err(Status::conflict(
                resource(),
                name,
                "the object has been modified; please apply your changes to the latest version and try again",
            ));
        }
        let old = &current.value;
        // `"managedFields": []` clears them (ObjectMeta cannot carry it).
        let reset = api_core::apply::clears_managed_fields(&new);
        let mut meta = match new {
            Value::Object(mut body) => body.remove("metadata").unwrap_or_else(|| json!({})),
            _ => json!({}),
        };
        for field in ["uid", "creationTimestamp", "deletionTimestamp"] {
            match old["metadata"].get(field) {
                Some(v) => meta[field] = v.clone(),
                None => {
                    if let Some(m) = meta.as_object_mut() {
                        m.remove(field);
                    }
                }
            }
        }
        // Only what a Namespace has is kept (an update's other fields,
        // and metadata fields ObjectMeta does not have, are dropped).
        let mut new = json!({
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": checked_metadata(name, meta)?,
            "spec": old.get("spec").cloned().unwrap_or_else(|| json!({})),
            "status": old.get("status").cloned().unwrap_or_else(|| json!({})),
        });
        if reset {
            new["metadata"]["managedFields"] = json!([]);
        }
        if let Some(manager) = manager {
            api_core::apply::FieldManager::new(api_core::apply::untyped_schema(), Time::now())
                .update(
                    old,
                    &mut new,
                    &api_core::apply::Writer {
                        manager,
                        api_version: "v1",
                        subresource: "",
                    },
                );
        }
        match self.storage.update(&key(name), new, current.revision).await {
            Ok(stored) => Ok(with_revision(stored)),
            Err(StorageError::NotFound(_)) => Err(Status::not_found(resource(), name)),
            Err(StorageError::Conflict { .. }) => Err(Status::conflict(
                resource(),
                name,
                "the object has been modified; please apply your changes to the latest version and try again",
            )),
            Err(e) => Err(internal(e)),
        }
    }

    /// `GET /api/v1/namespaces/<name>`.
    pub async fn get(&self, name: &str) -> Result<Value, Status> {
        match self.storage.get(&key(name)).await {
            Ok(stored) => Ok(with_revision(stored)),
            Err(StorageError::NotFound(_)) => Err(Status::not_found(resource(), name)),
            Err(e) => Err(internal(e)),
        }
    }

    /// Whether `name` exists (and is not being deleted).
    pub async fn exists(&self, name: &str) -> Result<bool, Status> {
        match self.storage.get(&key(name)).await {
            Ok(_) => Ok(true),
            Err(StorageError::NotFound(_)) => Ok(false),
            Err(e) => Err(internal(e)),
        }
    }

    /// `GET /api/v1/namespaces`: a `NamespaceList`.
    pub async fn list(&self) -> Result<Value, Status> {
        let (items, revision) = self.storage.list(PREFIX).await.map_err(internal)?;
        let items: Vec<Value> = items.into_iter().map(with_revision).collect();
        Ok(json!({
            "kind": "NamespaceList",
            "apiVersion": "v1",
            "metadata": {"resourceVersion": revision.to_string()},
            "items": items
        }))
    }

    /// Removes the namespace object itself (its content is the caller's:
    /// [`crate::ApiServer`] deletes it first) and returns it as
    /// `Terminating`.
    pub async fn remove(&self, name: &str) -> Result<Value, Status> {
        match self.storage.delete(&key(name), None).await {
            Ok(stored) => {
                let mut value = with_revision(stored);
                value["status"]["phase"] = json!("Terminating");
                value["metadata"]["deletionTimestamp"] = json!(Time::now());
                Ok(value)
            }
            Err(StorageError::NotFound(_)) => Err(Status::not_found(resource(), name)),
            Err(e) => Err(internal(e)),
        }
    }
}

/// A namespace's `metadata` to store: labelled with its name, as
/// kube-apiserver labels every namespace; without a resourceVersion (the
/// storage's) or namespace (it has none); as ObjectMeta reads it (fields
/// it does not have dropped), validated as the apiserver validates a
/// cluster-scoped object's metadata (422 with every cause).
fn checked_metadata(name: &str, mut metadata: Value) -> Result<Value, Status> {
    if !metadata.get("labels").is_some_and(Value::is_object) {
        metadata["labels"] = json!({});
    }
    metadata["labels"]["kubernetes.io/metadata.name"] = json!(name);
    if let Some(m) = metadata.as_object_mut() {
        m.remove("resourceVersion");
        m.remove("namespace");
    }
    let parsed: ObjectMeta = serde_json::from_value(metadata)
        .map_err(|e| Status::bad_request(format!("the request body is not a Namespace: {e}")))?;
    let errors = validate_object_meta(
        &parsed,
        false,
        validate_namespace_name,
        &FieldPath::new("metadata"),
    );
    if !errors.is_empty() {
        return Err(Status::invalid(
            api_core::status::GroupKind::new("", "Namespace"),
            name,
            &errors,
        ));
    }
    serde_json::to_value(&parsed).map_err(Status::internal_error)
}

/// NamespaceLifecycle's answer for a create in a namespace that does not
/// exist: 404 for the namespace.
pub fn namespace_not_found(namespace: &str) -> Status {
    Status::not_found(resource(), namespace)
}
