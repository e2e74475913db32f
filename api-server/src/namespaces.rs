//! Core `v1` `Namespace`s, served by the one store: a
//! [`Registry<DynamicObject>`] of the Namespace kind ([`kind_info`]) with
//! the apiserver's namespace strategy ([`NamespaceStrategy`]), so that
//! they answer every request as every other kind does (selectors, paging,
//! watch, tables, metadata-only representations, every patch type,
//! server-side apply, dry run).
//!
//! Their lifecycle is upstream's: a delete marks the namespace
//! (`deletionTimestamp`, phase `Terminating`), which its `kubernetes`
//! finalizer (in `spec.finalizers`) keeps; the namespace controller
//! ([`controller::NamespaceController`], `pkg/controller/namespace`)
//! deletes its content, reports what remains in the namespace's
//! conditions, and once nothing remains removes the finalizer, which
//! deletes the namespace. The NamespaceLifecycle admission plugin
//! ([`NamespaceLifecycle`], `plugin/pkg/admission/namespace/lifecycle`)
//! refuses writes in a namespace that does not exist (404), creates in
//! one that is terminating (403), and the deletion of `default`,
//! `kube-system` and `kube-public`.

use std::sync::Arc;

pub mod controller;

use api_core::Status;
use api_core::crd::CustomResourceDefinition;
use api_core::registry::{
    AdmissionPlugin, Attributes, BoxFuture, DynamicObject, DynamicStrategy, KindInfo, Operation,
    Registry, Storage, Strategy,
};
use api_core::status::{GroupResource, StatusCause};
use api_core::validation::ErrorList;
use api_core::validation::names::{ValidateNameFn, validate_namespace_name};
use serde_json::{Value, json};

use crate::served::{RegistryKind, ServedKind};

/// The namespaces kube-apiserver creates at start.
pub const SYSTEM_NAMESPACES: [&str; 4] =
    ["default", "kube-system", "kube-public", "kube-node-lease"];

/// The namespaces NamespaceLifecycle never lets go (`immortalNamespaces`).
pub const IMMORTAL_NAMESPACES: [&str; 3] = ["default", "kube-system", "kube-public"];

/// The finalizer a new namespace gets in `spec.finalizers`
/// (`FinalizerKubernetes`): the namespace controller's.
pub const FINALIZER: &str = "kubernetes";

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

    /// `spec.finalizers` hold a deleted namespace until the namespace
    /// controller has emptied it and removed its `kubernetes` finalizer.
    fn held_by_own_finalizers(&self, obj: &DynamicObject) -> bool {
        spec_finalizers(obj).next().is_some()
    }

    /// A deleted namespace is `Terminating`.
    fn prepare_for_delete(&self, obj: &mut DynamicObject) {
        set_phase(obj, "Terminating");
    }
}

/// The names in a namespace's `spec.finalizers`.
fn spec_finalizers(obj: &DynamicObject) -> impl Iterator<Item = &str> {
    obj.content
        .get("spec")
        .and_then(|s| s.get("finalizers"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

fn set_phase(obj: &mut DynamicObject, phase: &str) {
    let status = obj.content.entry("status").or_insert_with(|| json!({}));
    if !status.is_object() {
        *status = json!({});
    }
    status["phase"] = json!(phase);
}

/// The strategy of the `finalize` subresource
/// (`namespaceFinalizeStrategy`): an update writes `spec` (its
/// finalizers) and metadata, never the status.
struct FinalizeStrategy(NamespaceStrategy);

impl Strategy<DynamicObject> for FinalizeStrategy {
    fn name_validation(&self) -> ValidateNameFn {
        validate_namespace_name
    }

    fn allow_unconditional_update(&self) -> bool {
        true
    }

    fn prepare_for_update(&self, new: &mut DynamicObject, old: &DynamicObject) {
        match old.content.get("status") {
            Some(v) => {
                new.content.insert("status".into(), v.clone());
            }
            None => {
                new.content.remove("status");
            }
        }
        label_with_name(new);
    }

    fn validate_update(&self, new: &DynamicObject, old: &DynamicObject) -> ErrorList {
        self.0.validate_update(new, old)
    }

    fn held_by_own_finalizers(&self, obj: &DynamicObject) -> bool {
        self.0.held_by_own_finalizers(obj)
    }
}

/// The namespaces of a server: the Namespace kind served by the store
/// ([`NamespaceKind::served`]), the system namespaces, the
/// NamespaceLifecycle plugin ([`NamespaceKind::lifecycle`]) and what the
/// namespace controller works with.
pub struct NamespaceKind {
    served: Arc<RegistryKind<DynamicObject>>,
    registry: Arc<Registry<DynamicObject>>,
    /// The `finalize` subresource's view of the same objects.
    finalize: Arc<Registry<DynamicObject>>,
    content: Content,
}

/// The kinds whose objects a namespace's deletion deletes: the server's
/// namespaced kinds, which change when kinds are added at run time.
pub(crate) type Content = Arc<std::sync::RwLock<Vec<Arc<dyn ServedKind>>>>;

impl NamespaceKind {
    /// Namespaces over `storage`.
    pub fn new(storage: Arc<dyn Storage>) -> Self {
        let registry = Arc::new(Registry::with_kind(
            kind_info(),
            NamespaceStrategy::new(),
            storage.clone(),
        ));
        let finalize = Arc::new(Registry::with_kind(
            kind_info(),
            FinalizeStrategy(NamespaceStrategy::new()),
            storage,
        ));
        NamespaceKind {
            served: Arc::new(
                RegistryKind::dynamic(registry.clone())
                    .as_builtin()
                    .with_subresource(
                        "finalize",
                        Arc::new(RegistryKind::dynamic(finalize.clone()).as_builtin()),
                    ),
            ),
            registry,
            finalize,
            content: Content::default(),
        }
    }

    /// The kind as the server serves it.
    pub fn served(&self) -> Arc<dyn ServedKind> {
        self.served.clone()
    }

    /// The kinds whose objects a namespace's deletion deletes (the
    /// server's namespaced kinds), set when the server is built and
    /// whenever its kinds change.
    pub(crate) fn set_content(&self, kinds: Vec<Arc<dyn ServedKind>>) {
        *self.content.write().unwrap_or_else(|p| p.into_inner()) = kinds;
    }

    /// Starts the namespace controller over this server's namespaces and
    /// their content (see [`controller`]); it stops when dropped.
    pub fn start_controller(&self) -> controller::NamespaceController {
        controller::NamespaceController::start(
            self.registry.clone(),
            self.finalize.clone(),
            self.content.clone(),
        )
    }

    /// The NamespaceLifecycle admission plugin over these namespaces.
    pub fn lifecycle(&self) -> Arc<dyn AdmissionPlugin> {
        Arc::new(NamespaceLifecycle {
            namespaces: self.registry.clone(),
        })
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
}

/// The NamespaceLifecycle admission plugin
/// (`plugin/pkg/admission/namespace/lifecycle`), run by the store before
/// every write of every kind: `default`, `kube-system` and `kube-public`
/// may not be deleted (403); a write of a namespaced object (other than a
/// delete) needs its namespace (404 for the namespace); a create in a
/// `Terminating` namespace is refused (403, with a `NamespaceTerminating`
/// cause). Namespaces are read from the store itself, never from a cache,
/// so a create right after the namespace's delete is refused.
pub struct NamespaceLifecycle {
    namespaces: Arc<Registry<DynamicObject>>,
}

impl AdmissionPlugin for NamespaceLifecycle {
    fn admit<'a>(&'a self, request: Attributes<'a>) -> BoxFuture<'a, Result<(), Status>> {
        Box::pin(async move {
            let kind = request.kind;
            if kind.group.is_empty() && kind.kind == "Namespace" {
                if request.operation == Operation::Delete
                    && IMMORTAL_NAMESPACES.contains(&request.name)
                {
                    return Err(Status::forbidden(
                        resource(),
                        request.name,
                        "this namespace may not be deleted",
                    ));
                }
                return Ok(());
            }
            if request.namespace.is_empty() || request.operation == Operation::Delete {
                return Ok(());
            }
            let namespace = match self.namespaces.get("", request.namespace).await {
                Ok(namespace) => namespace,
                Err(e) if e.code == 404 => return Err(namespace_not_found(request.namespace)),
                Err(e) => return Err(e),
            };
            let phase = namespace
                .content
                .get("status")
                .and_then(|s| s.get("phase"))
                .and_then(Value::as_str);
            if request.operation == Operation::Create && phase == Some("Terminating") {
                let mut refused = Status::forbidden(
                    GroupResource::new(&kind.group, &kind.plural),
                    request.name,
                    format!(
                        "unable to create new content in namespace {} because it is being terminated",
                        request.namespace
                    ),
                );
                if let Some(details) = refused.details.as_mut() {
                    details.causes.push(StatusCause::new(
                        "NamespaceTerminating",
                        format!("namespace {} is being terminated", request.namespace),
                        "metadata.namespace",
                    ));
                }
                return Err(refused);
            }
            Ok(())
        })
    }
}

/// NamespaceLifecycle's answer for a write in a namespace that does not
/// exist: 404 for the namespace.
pub fn namespace_not_found(namespace: &str) -> Status {
    Status::not_found(resource(), namespace)
}
