//! Core `v1` `Namespace`s: create, get, list, delete (which deletes what
//! is in the namespace), and the NamespaceLifecycle admission rule that a
//! namespaced object cannot be created in a namespace that does not exist
//! (kube-apiserver `plugin/pkg/admission/namespace/lifecycle`).
//!
//! Namespaces are stored as JSON in the server's storage under
//! `/namespaces/<name>`. Deletion is synchronous here (the namespace
//! controller's work done in the request): the content goes, then the
//! namespace; the answer is the namespace as `Terminating`.

use std::sync::Arc;

use api_core::Status;
use api_core::meta::Time;
use api_core::registry::storage::Stored;
use api_core::registry::{DryRunStorage, Storage, StorageError, new_uid};
use api_core::status::GroupResource;
use api_core::validation::names::is_dns1123_label;
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
        let mut labels = body
            .pointer("/metadata/labels")
            .cloned()
            .filter(Value::is_object)
            .unwrap_or_else(|| json!({}));
        // kube-apiserver labels every namespace with its name.
        labels["kubernetes.io/metadata.name"] = json!(name);
        let mut metadata = body.get("metadata").cloned().unwrap_or_else(|| json!({}));
        metadata["labels"] = labels;
        metadata["uid"] = json!(new_uid());
        metadata["creationTimestamp"] = json!(Time::now());
        if let Some(m) = metadata.as_object_mut() {
            m.remove("resourceVersion");
            m.remove("deletionTimestamp");
        }
        let mut value = json!({
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": metadata,
            "spec": {"finalizers": ["kubernetes"]},
            "status": {"phase": "Active"}
        });
        // managedFields, as for every create (the request's fields: not
        // the phase and finalizers the server sets).
        let mut requested = body.clone();
        requested["apiVersion"] = json!("v1");
        requested["kind"] = json!("Namespace");
        api_core::apply::FieldManager::new(api_core::apply::untyped_schema(), Time::now()).update(
            &Value::Null,
            &mut requested,
            &api_core::apply::Writer {
                manager,
                api_version: "v1",
                subresource: "",
            },
        );
        if let Some(entries) = requested.pointer("/metadata/managedFields") {
            value["metadata"]["managedFields"] = entries.clone();
        }
        match self.storage.create(&key(&name), value).await {
            Ok(stored) => Ok(with_revision(stored)),
            Err(StorageError::AlreadyExists(_)) => Err(Status::already_exists(resource(), name)),
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

/// NamespaceLifecycle's answer for a create in a namespace that does not
/// exist: 404 for the namespace.
pub fn namespace_not_found(namespace: &str) -> Status {
    Status::not_found(resource(), namespace)
}
