//! Core `v1` `Namespace`s, served by the one store: a
//! [`Registry<DynamicObject>`] of the Namespace kind ([`kind_info`]) with
//! the apiserver's namespace strategy ([`NamespaceStrategy`]), so that
//! they answer every request as every other kind does (selectors, paging,
//! watch, tables, metadata-only representations, every patch type,
//! server-side apply, dry run). What the namespace controller does when a
//! namespace is deleted is [`NamespaceKind`]'s: the content goes, then
//! the namespace. The NamespaceLifecycle admission rule (no object in a
//! namespace that does not exist) is [`NamespaceKind::exists`]'s
//! (kube-apiserver `plugin/pkg/admission/namespace/lifecycle`).

use std::sync::{Arc, OnceLock};

use api_core::Status;
use api_core::crd::CustomResourceDefinition;
use api_core::meta::Time;
use api_core::registry::{
    BoxFuture, DeleteOptions, DynamicObject, DynamicStrategy, KindInfo, ListOptions, Registry,
    Storage, Strategy,
};
use api_core::status::GroupResource;
use api_core::validation::ErrorList;
use api_core::validation::names::{ValidateNameFn, validate_namespace_name};
use serde_json::{Value, json};

use crate::served::{OnDelete, RegistryKind, ServedKind};

/// The namespaces kube-apiserver creates at start.
pub const SYSTEM_NAMESPACES: [&str; 4] =
    ["default", "kube-system", "kube-public", "kube-node-lease"];

/// The label every namespace carries with its own name.
const NAME_LABEL: &str = "kubernetes.io/metadata.name";

fn resource() -> GroupResource {
    GroupResource::new("", "namespaces")
}

/// The Namespace kind (core `v1`, cluster-scoped, `ns`, its status
/// subresource), described as a CRD: the schema of `spec.finalizers` and
/// `status` (phase, conditions), and the `Status` column `kubectl get ns`
/// prints.
pub fn kind_info() -> KindInfo {
    let crd: CustomResourceDefinition = serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "namespaces"},
        "spec": {
            "group": "",
            "names": {"kind": "Namespace", "listKind": "NamespaceList",
                      "plural": "namespaces", "singular": "namespace", "shortNames": ["ns"]},
            "scope": "Cluster",
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "subresources": {"status": {}},
                "additionalPrinterColumns": [{
                    "name": "Status", "type": "string", "jsonPath": ".status.phase",
                    "description": "The status of the namespace"
                }, {
                    "name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp",
                    "description": crate::table::CREATION_TIMESTAMP_DESCRIPTION
                }],
                "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "description": "Namespace provides a scope for Names.",
                    "properties": {
                        "apiVersion": {"type": "string"},
                        "kind": {"type": "string"},
                        "metadata": {"type": "object"},
                        "spec": {"type": "object", "properties": {
                            "finalizers": {"type": "array", "items": {"type": "string"}}
                        }},
                        "status": {"type": "object", "properties": {
                            "phase": {"type": "string"},
                            "conditions": {"type": "array", "items": {
                                "type": "object",
                                "x-kubernetes-preserve-unknown-fields": true
                            }}
                        }}
                    }
                }}
            }]
        }
    }))
    .expect("the Namespace description is a CRD");
    KindInfo::from_crd(&crd, "v1").expect("it serves v1")
}

/// The apiserver's namespace strategy (`pkg/registry/core/namespace`):
/// names are DNS labels; a new namespace is `Active` with the
/// `kubernetes` finalizer; `spec` and `status` are the server's on an
/// update (the status subresource writes the status); every namespace is
/// labelled `kubernetes.io/metadata.name` with its name; updates need no
/// resourceVersion.
pub struct NamespaceStrategy {
    schema: DynamicStrategy,
}

impl NamespaceStrategy {
    /// The strategy of [`kind_info`]'s Namespace.
    pub fn new() -> Self {
        NamespaceStrategy {
            schema: DynamicStrategy::new(&kind_info()),
        }
    }
}

impl Default for NamespaceStrategy {
    fn default() -> Self {
        Self::new()
    }
}

fn label_with_name(obj: &mut DynamicObject) {
    let name = obj.metadata.name.clone();
    if !name.is_empty() {
        obj.metadata.labels.insert(NAME_LABEL.into(), name);
    }
}

impl Strategy<DynamicObject> for NamespaceStrategy {
    /// The schema's pruning, and the `kubernetes.io/metadata.name` label
    /// (`SetDefaults_Namespace`: a default, so the writer owns it in
    /// managedFields, as on a cluster).
    fn apply_defaults(&self, obj: &mut DynamicObject) {
        self.schema.apply_defaults(obj);
        label_with_name(obj);
    }

    fn name_validation(&self) -> ValidateNameFn {
        validate_namespace_name
    }

    fn prepare_for_create(&self, obj: &mut DynamicObject) {
        obj.content
            .insert("status".into(), json!({"phase": "Active"}));
        let spec = obj.content.entry("spec").or_insert_with(|| json!({}));
        if !spec.is_object() {
            *spec = json!({});
        }
        let finalizers = &mut spec["finalizers"];
        if !finalizers.is_array() {
            *finalizers = json!([]);
        }
        if let Some(list) = finalizers.as_array_mut()
            && !list.iter().any(|f| f == "kubernetes")
        {
            list.push(json!("kubernetes"));
        }
    }

    fn validate(&self, obj: &DynamicObject) -> ErrorList {
        self.schema.validate(obj)
    }

    /// A name generated from `generateName` gets its label too.
    fn canonicalize(&self, obj: &mut DynamicObject) {
        label_with_name(obj);
    }

    fn allow_unconditional_update(&self) -> bool {
        true
    }

    fn prepare_for_update(&self, new: &mut DynamicObject, old: &DynamicObject) {
        for part in ["spec", "status"] {
            match old.content.get(part) {
                Some(v) => {
                    new.content.insert(part.into(), v.clone());
                }
                None => {
                    new.content.remove(part);
                }
            }
        }
        label_with_name(new);
    }

    fn validate_update(&self, new: &DynamicObject, old: &DynamicObject) -> ErrorList {
        self.schema.validate_update(new, old)
    }

    fn prepare_for_status_update(&self, new: &mut DynamicObject, old: &DynamicObject) {
        self.schema.prepare_for_status_update(new, old);
    }
}

/// The namespaces of a server: the Namespace kind served by the store
/// ([`NamespaceKind::served`]), with what the namespace controller does
/// when one is deleted (every namespaced object in it is deleted, then
/// the namespace; the answer is the namespace as `Terminating`), the
/// system namespaces, and the NamespaceLifecycle check.
pub struct NamespaceKind {
    served: Arc<RegistryKind<DynamicObject>>,
    registry: Arc<Registry<DynamicObject>>,
    content: Arc<OnceLock<Vec<Arc<dyn ServedKind>>>>,
}

/// The namespace controller's part of a namespace's deletion.
struct Controller {
    registry: Arc<Registry<DynamicObject>>,
    content: Arc<OnceLock<Vec<Arc<dyn ServedKind>>>>,
}

impl OnDelete for Controller {
    /// The content goes first (not in a dry run); a missing namespace is
    /// the 404 of its own delete.
    fn before<'a>(
        &'a self,
        _: &'a str,
        name: &'a str,
        dry_run: bool,
    ) -> BoxFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            if dry_run {
                return Ok(());
            }
            self.registry.get("", name).await?;
            for kind in self.content.get().into_iter().flatten() {
                crate::server::delete_listed(
                    kind.as_ref(),
                    name,
                    &ListOptions::default(),
                    &DeleteOptions::default(),
                    false,
                )
                .await?;
            }
            Ok(())
        })
    }

    fn answer(&self, object: &mut Value) {
        object["status"]["phase"] = json!("Terminating");
        object["metadata"]["deletionTimestamp"] = json!(Time::now());
    }
}

impl NamespaceKind {
    /// Namespaces over `storage`.
    pub fn new(storage: Arc<dyn Storage>) -> Self {
        let registry = Arc::new(Registry::with_kind(
            kind_info(),
            NamespaceStrategy::new(),
            storage,
        ));
        let content = Arc::new(OnceLock::new());
        let controller = Arc::new(Controller {
            registry: registry.clone(),
            content: content.clone(),
        });
        NamespaceKind {
            served: Arc::new(RegistryKind::dynamic(registry.clone()).with_on_delete(controller)),
            registry,
            content,
        }
    }

    /// The kind as the server serves it.
    pub fn served(&self) -> Arc<dyn ServedKind> {
        self.served.clone()
    }

    /// The kinds whose objects a namespace's deletion deletes (the
    /// server's namespaced kinds), set once when the server is built.
    pub(crate) fn set_content(&self, kinds: Vec<Arc<dyn ServedKind>>) {
        let _ = self.content.set(kinds);
    }

    /// Creates the [`SYSTEM_NAMESPACES`] that do not exist yet, as
    /// `kube-apiserver` (their managedFields' manager).
    pub async fn ensure_system(&self) -> Result<(), Status> {
        let registry = self.registry.field_manager("kube-apiserver");
        for name in SYSTEM_NAMESPACES {
            let namespace = DynamicObject::new(&kind_info(), name, Default::default());
            match registry.create("", namespace).await {
                Ok(_) => {}
                Err(e) if e.code == 409 => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Whether the namespace `name` exists.
    pub async fn exists(&self, name: &str) -> Result<bool, Status> {
        match self.registry.get("", name).await {
            Ok(_) => Ok(true),
            Err(e) if e.code == 404 => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// NamespaceLifecycle's answer for a create in a namespace that does not
/// exist: 404 for the namespace.
pub fn namespace_not_found(namespace: &str) -> Status {
    Status::not_found(resource(), namespace)
}
