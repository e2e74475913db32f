//! `apiextensions.k8s.io/v1` `CustomResourceDefinition`s served at run
//! time, as apiextensions-apiserver serves them
//! ([`ServerBuilder::with_custom_resource_definitions`]): the CRD kind
//! itself (validated by the apiserver's rules, `check_crd`), and a
//! controller ([`controller`]) that accepts a CRD's names, marks it
//! `Established` and serves each of its served versions (a
//! [`Registry`] of [`DynamicObject`]s with the CRD's schema, conversion
//! strategy `None` between versions), and that deletes a deleted CRD's
//! objects before the CRD goes.
//!
//! [`ServerBuilder::with_custom_resource_definitions`]: crate::server::ServerBuilder::with_custom_resource_definitions

pub mod controller;

use std::collections::BTreeSet;
use std::sync::Arc;

use api_core::FieldValidation;
use api_core::meta::Time;
use api_core::registry::{DynamicObject, KindInfo, Registry, Storage, Strategy};
use api_core::resource::{Scope, SpecStatus};
use api_core::schema::structural::check_crd;
use api_core::status::{GroupKind, Status};
use api_core::validation::{ErrorList, FieldError, FieldPath};
use serde_json::{Map, Value, json};

use crate::served::RegistryKind;

/// The group.
pub const GROUP: &str = "apiextensions.k8s.io";

/// The finalizer that holds a deleted CRD until its objects are gone
/// (`apiextensions.CustomResourceCleanupFinalizer`).
pub const FINALIZER: &str = "customresourcecleanup.apiextensions.k8s.io";

/// The field manager the CRD controller writes status as.
pub const MANAGER: &str = "kube-apiserver";

/// The `CustomResourceDefinition` kind as served.
pub fn kind_info() -> KindInfo {
    KindInfo {
        group: GROUP.into(),
        version: "v1".into(),
        kind: "CustomResourceDefinition".into(),
        list_kind: "CustomResourceDefinitionList".into(),
        plural: "customresourcedefinitions".into(),
        singular: "customresourcedefinition".into(),
        short_names: vec!["crd".into(), "crds".into()],
        categories: vec!["api-extensions".into()],
        scope: Scope::Cluster,
        status_subresource: true,
        crd: None,
    }
}

/// The CRDs' registry over `storage` and the kind as the server serves it;
/// `typed` names the CRDs of the kinds served from Rust types.
pub(crate) fn served(
    storage: Arc<dyn Storage>,
    typed: Arc<BTreeSet<String>>,
) -> (Arc<Registry<DynamicObject>>, RegistryKind<DynamicObject>) {
    let registry = Arc::new(Registry::with_kind(
        kind_info(),
        CrdStrategy { typed },
        storage,
    ));
    let served = RegistryKind::dynamic(registry.clone()).as_builtin();
    (registry, served)
}

/// A custom resource's body read as apiextensions-apiserver reads it
/// ([`Registry::decode`](api_core::registry::Registry)), but for another
/// `kind` in the data: the decoder takes any kind for an unstructured
/// object, and the custom resource validator refuses it
/// (`ValidateTypeMeta`) with a 422 named by the kind the data gave:
/// `SomethingElse.example.com "name" is invalid: kind: Invalid value:
/// "SomethingElse": must be Widget`. Another `apiVersion` stays the
/// decoder's 400, checked first.
pub fn decode_custom_resource(
    registry: &Registry<DynamicObject>,
    body: &[u8],
    validation: FieldValidation,
) -> Result<(DynamicObject, Vec<String>), Status> {
    registry.decode(body, validation).map_err(|status| {
        if status.code != 400 {
            return status;
        }
        let kind = registry.kind_info();
        let Ok(Value::Object(value)) = serde_json::from_slice::<Value>(body) else {
            return status;
        };
        let api_version_matches = match value.get("apiVersion") {
            None | Some(Value::Null) => true,
            Some(v) => v.as_str() == Some(kind.api_version().as_str()),
        };
        let Some(got) = value.get("kind").and_then(Value::as_str) else {
            return status;
        };
        if !api_version_matches || got.is_empty() || got == kind.kind {
            return status;
        }
        let name = value
            .get("metadata")
            .and_then(|m| m.get("name"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        let mut errors = ErrorList::new();
        errors.push(FieldError::invalid(
            &FieldPath::new("kind"),
            got,
            format!("must be {}", kind.kind),
        ));
        Status::invalid(GroupKind::new(kind.group.clone(), got), name, &errors)
    })
}

/// The CRD's storage version (`storage: true`), if exactly one.
pub(crate) fn storage_version(crd: &Value) -> Option<&str> {
    let mut stored = versions(crd).filter(|v| v["storage"] == true);
    let version = stored.next()?;
    stored
        .next()
        .is_none()
        .then(|| version["name"].as_str())
        .flatten()
}

fn versions(crd: &Value) -> impl Iterator<Item = &Value> {
    crd.pointer("/spec/versions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// The storage hooks of CRDs (apiextensions-apiserver's `strategy`).
pub(crate) struct CrdStrategy {
    /// The CRDs of the kinds served from Rust types: their conversion is
    /// the server's own, whatever strategy they name.
    typed: Arc<BTreeSet<String>>,
}

impl CrdStrategy {
    fn check(&self, obj: &DynamicObject) -> ErrorList {
        let value = obj.to_value();
        let mut errors = check_crd(&value);
        if value.pointer("/spec/conversion/strategy") == Some(&json!("Webhook"))
            && !self.typed.contains(&obj.metadata.name)
        {
            errors.push(FieldError::forbidden(
                &FieldPath::new("spec").child("conversion").child("strategy"),
                "conversion webhooks are not served yet (they come with admission and \
                 conversion webhooks); use strategy None",
            ));
        }
        errors
    }
}

/// `status.storedVersions` with `crd`'s storage version added
/// (apiextensions' strategy keeps every version ever stored).
fn record_storage_version(obj: &mut DynamicObject) {
    let value = obj.to_value();
    let Some(storage) = storage_version(&value).map(str::to_string) else {
        return;
    };
    let status = obj
        .content
        .entry("status")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(status) = status.as_object_mut() else {
        return;
    };
    let stored = status
        .entry("storedVersions")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Some(stored) = stored.as_array_mut()
        && !stored.iter().any(|v| v == storage.as_str())
    {
        stored.push(Value::String(storage));
    }
}

impl Strategy<DynamicObject> for CrdStrategy {
    /// The v1 defaults (`SetDefaults_CustomResourceDefinition`): the
    /// singular name and the list kind from the kind, conversion `None`.
    fn apply_defaults(&self, obj: &mut DynamicObject) {
        let Some(spec) = obj.content.get_mut("spec").and_then(Value::as_object_mut) else {
            return;
        };
        if let Some(names) = spec.get_mut("names").and_then(Value::as_object_mut) {
            let kind = names
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if !kind.is_empty() {
                if names
                    .get("singular")
                    .and_then(Value::as_str)
                    .is_none_or(str::is_empty)
                {
                    names.insert("singular".into(), json!(kind.to_lowercase()));
                }
                if names
                    .get("listKind")
                    .and_then(Value::as_str)
                    .is_none_or(str::is_empty)
                {
                    names.insert("listKind".into(), json!(format!("{kind}List")));
                }
            }
        }
        spec.entry("conversion")
            .or_insert_with(|| json!({"strategy": "None"}));
    }

    fn prepare_for_create(&self, obj: &mut DynamicObject) {
        obj.clear_status();
        obj.metadata.generation = 1;
        record_storage_version(obj);
    }

    fn validate(&self, obj: &DynamicObject) -> ErrorList {
        self.check(obj)
    }

    fn prepare_for_update(&self, new: &mut DynamicObject, old: &DynamicObject) {
        new.copy_status(old);
        if !new.spec_equal(old) {
            new.metadata.generation = old.metadata.generation + 1;
        }
        record_storage_version(new);
    }

    fn validate_update(&self, new: &DynamicObject, old: &DynamicObject) -> ErrorList {
        let mut errors = self.check(new);
        // `ValidateCustomResourceDefinitionUpdate`: the scope, once objects
        // may exist, and the group stay.
        for field in ["scope", "group"] {
            let (now, before) = (
                new.content.get("spec").and_then(|s| s.get(field)),
                old.content.get("spec").and_then(|s| s.get(field)),
            );
            if now != before {
                errors.push(FieldError::invalid(
                    &FieldPath::new("spec").child(field),
                    now.cloned().unwrap_or(Value::Null),
                    "field is immutable",
                ));
            }
        }
        errors
    }

    fn prepare_for_status_update(&self, new: &mut DynamicObject, old: &DynamicObject) {
        let mut merged = old.clone();
        merged.copy_status(new);
        merged.metadata.managed_fields = std::mem::take(&mut new.metadata.managed_fields);
        *new = merged;
    }

    fn validate_status_update(&self, _: &DynamicObject, _: &DynamicObject) -> ErrorList {
        ErrorList::new()
    }

    /// A CRD not yet being deleted is held by the cleanup finalizer its
    /// first delete adds (apiextensions' `REST.Delete`).
    fn held_by_own_finalizers(&self, obj: &DynamicObject) -> bool {
        obj.metadata.deletion_timestamp.is_none()
    }

    fn prepare_for_delete(&self, obj: &mut DynamicObject) {
        if !obj.metadata.finalizers.iter().any(|f| f == FINALIZER) {
            obj.metadata.finalizers.push(FINALIZER.into());
        }
        set_condition(
            obj,
            "Terminating",
            "True",
            "InstanceDeletionPending",
            "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
        );
    }
}

/// `NamesAccepted`'s message when every name is accepted.
pub(crate) const NO_CONFLICTS: &str = "no conflicts found";

/// Marks `obj` `Established` (`InitialNamesAccepted`); whether it changed.
pub(crate) fn set_established(obj: &mut DynamicObject) -> bool {
    set_condition(
        obj,
        "Established",
        "True",
        "InitialNamesAccepted",
        "the initial names have been accepted",
    )
}

/// The CRD's condition of type `kind`, if any.
pub(crate) fn condition<'a>(crd: &'a Value, kind: &str) -> Option<&'a Value> {
    crd.pointer("/status/conditions")
        .and_then(Value::as_array)?
        .iter()
        .find(|c| c["type"] == kind)
}

/// Sets the condition `kind` of `obj`; its `lastTransitionTime` moves only
/// when its status does. Whether anything changed.
pub(crate) fn set_condition(
    obj: &mut DynamicObject,
    kind: &str,
    status: &str,
    reason: &str,
    message: &str,
) -> bool {
    let entry = obj
        .content
        .entry("status")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(entry) = entry.as_object_mut() else {
        return false;
    };
    let conditions = entry
        .entry("conditions")
        .or_insert_with(|| Value::Array(Vec::new()));
    let Some(conditions) = conditions.as_array_mut() else {
        return false;
    };
    let now = serde_json::to_value(Time::now()).unwrap_or(Value::Null);
    match conditions.iter_mut().find(|c| c["type"] == kind) {
        Some(old) => {
            if old["status"] == status && old["reason"] == reason && old["message"] == message {
                return false;
            }
            let time = if old["status"] == status {
                old["lastTransitionTime"].clone()
            } else {
                now
            };
            *old = json!({"type": kind, "status": status, "lastTransitionTime": time,
                          "reason": reason, "message": message});
        }
        None => conditions.push(
            json!({"type": kind, "status": status, "lastTransitionTime": now,
                                       "reason": reason, "message": message}),
        ),
    }
    true
}

/// Reads the CustomResourceDefinitions in the files of `dir`, as envtest's
/// `CRDDirectoryPaths` does: every `*.yaml`, `*.yml` and `*.json` file
/// (not recursing), in name order, every document of kind
/// `CustomResourceDefinition` (others are skipped). An error names the
/// file that does not read or parse.
pub fn read_crd_dir(dir: &std::path::Path) -> Result<Vec<Value>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files: Vec<std::path::PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| matches!(e, "yaml" | "yml" | "json"))
        })
        .collect();
    files.sort();
    let mut crds = Vec::new();
    for file in files {
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        // JSON is YAML.
        let docs =
            api_core::crd::yaml_to_json(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        crds.extend(
            docs.into_iter()
                .filter(|d| d["kind"] == "CustomResourceDefinition"),
        );
    }
    Ok(crds)
}

/// Refuses updates and deletes of the CRDs that describe kinds the server
/// serves from Rust types (they are written at start, as a cluster shows
/// every kind it serves, and stay as the types say).
pub(crate) struct ReadOnlyCrds(pub(crate) Arc<BTreeSet<String>>);

impl api_core::registry::AdmissionPlugin for ReadOnlyCrds {
    fn admit<'a>(
        &'a self,
        attributes: api_core::registry::Attributes<'a>,
    ) -> api_core::registry::BoxFuture<'a, Result<(), api_core::Status>> {
        use api_core::registry::Operation;
        Box::pin(async move {
            let kind = attributes.kind;
            if kind.group != GROUP
                || kind.plural != "customresourcedefinitions"
                || attributes.operation == Operation::Create
                || !self.0.contains(attributes.name)
            {
                return Ok(());
            }
            let verb = if attributes.operation == Operation::Delete {
                "delete"
            } else {
                "update"
            };
            let mut status = api_core::Status::method_not_supported(
                api_core::status::GroupResource::new(GROUP, "customresourcedefinitions"),
                verb,
            );
            status.message = format!(
                "customresourcedefinitions.apiextensions.k8s.io {:?} describes a kind this \
                 server serves from its Rust type: it cannot be {}",
                attributes.name,
                if verb == "delete" {
                    "deleted"
                } else {
                    "changed"
                }
            );
            Err(status)
        })
    }
}

/// Writes the CRDs of the kinds served from Rust types (`crds`, their
/// JSON) into `registry`, `Established`, as a cluster lists every kind it
/// serves: created when missing, replaced when the type changed.
pub(crate) async fn publish(
    registry: &Registry<DynamicObject>,
    crds: &[Value],
) -> Result<(), api_core::Status> {
    let registry = registry.field_manager(MANAGER);
    for crd in crds {
        let name = crd["metadata"]["name"].as_str().unwrap_or_default();
        let object: DynamicObject =
            serde_json::from_value(crd.clone()).map_err(api_core::Status::internal_error)?;
        let stored = match registry.get("", name).await {
            Ok(mut current) => {
                if current.content.get("spec") != object.content.get("spec") {
                    current.content.insert("spec".into(), crd["spec"].clone());
                    registry.update("", current).await?.object
                } else {
                    current
                }
            }
            Err(e) if e.code == 404 => registry.create("", object).await?.object,
            Err(e) => return Err(e),
        };
        let mut updated = stored.clone();
        let value = stored.to_value();
        let names = value["spec"]["names"].clone();
        if let Some(status) = updated
            .content
            .entry("status")
            .or_insert_with(|| Value::Object(Map::new()))
            .as_object_mut()
        {
            status.insert("acceptedNames".into(), names);
        }
        set_condition(
            &mut updated,
            "NamesAccepted",
            "True",
            "NoConflicts",
            NO_CONFLICTS,
        );
        set_established(&mut updated);
        if updated.content.get("status") != stored.content.get("status") {
            registry.update_status("", updated).await?;
        }
    }
    Ok(())
}

/// The CRDs of the kinds in `kinds` served from Rust types (not built in),
/// one per CRD name, and their names.
pub(crate) fn of_kinds(
    kinds: &[Arc<dyn crate::served::ServedKind>],
) -> (Vec<Value>, Arc<BTreeSet<String>>) {
    let mut by_name = std::collections::BTreeMap::new();
    for kind in kinds.iter().filter(|k| !k.builtin()) {
        let crd = kind.crd().to_json();
        let name = crd["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        by_name.entry(name).or_insert(crd);
    }
    let names = by_name.keys().cloned().collect();
    (by_name.into_values().collect(), Arc::new(names))
}

/// Creates `crd` through the CRD kind `kind` as the server's own user, or
/// replaces the one of its name ([`crate::ApiServer::install_crd`]).
pub(crate) async fn install(
    kind: &dyn crate::served::ServedKind,
    crd: &Value,
) -> Result<Value, api_core::Status> {
    use crate::authn::{SYSTEM_MASTERS, User};
    let options = crate::served::WriteOptions {
        manager: "kube-apiserver".into(),
        user: Some(User::new("system:apiserver", &[SYSTEM_MASTERS])),
        ..Default::default()
    };
    let body = serde_json::to_vec(crd).map_err(api_core::Status::internal_error)?;
    match kind.create("", &body, &options).await {
        Ok(written) => Ok(written.object),
        Err(e) if e.code == 409 => {
            let name = crd["metadata"]["name"].as_str().unwrap_or_default();
            let current = kind.get("", name).await?;
            let mut replacement = crd.clone();
            replacement["metadata"]["resourceVersion"] =
                current["metadata"]["resourceVersion"].clone();
            let body =
                serde_json::to_vec(&replacement).map_err(api_core::Status::internal_error)?;
            Ok(kind.update("", name, &body, &options, false).await?.object)
        }
        Err(e) => Err(e),
    }
}
