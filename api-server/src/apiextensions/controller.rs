//! The CRD controller: apiextensions-apiserver's naming, establishing
//! and finalizing controllers and its handler installation, in one loop.
//!
//! For each CustomResourceDefinition (level-triggered: an event only
//! names the CRD, which is read again):
//!
//! - **names** (`NamingConditionController`): each requested name is
//!   accepted when it is the one already accepted or nobody else's in the
//!   group (the other CRDs' accepted names, and the kinds the server
//!   serves from Rust types or built in); otherwise `NamesAccepted` is
//!   `False` with `PluralConflict`, `SingularConflict`,
//!   `ShortNamesConflict`, `KindConflict` or `ListKindConflict` and the
//!   message `"<name>" is already in use`;
//! - **serving**: once the names are accepted, every served version is
//!   served ([`ApiServer::add_kind`]: a registry of the version's schema,
//!   conversion `None` to the storage version), versions no longer served
//!   are removed, and `Established` becomes `True`
//!   (`InitialNamesAccepted`);
//! - **API approval** (`KubernetesAPIApprovalPolicyConformantConditionController`)
//!   for the protected groups (`*.k8s.io`, `*.kubernetes.io`);
//! - **deletion** (`CRDFinalizer`): creates are refused (405), every
//!   object of the CRD is deleted (`Terminating`:
//!   `InstanceDeletionInProgress`), the versions stop being served and the
//!   cleanup finalizer is removed, so the CRD goes.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use api_core::Status;
use api_core::crd::CustomResourceDefinition;
use api_core::registry::{
    DeleteOptions, DynamicObject, DynamicStrategy, KindInfo, ListOptions, PropagationPolicy,
    Registry, Storage, WatchEvent,
};
use api_core::status::GroupResource;
use serde_json::Value;
use tokio_util::task::AbortOnDropHandle;

use super::{
    FINALIZER, MANAGER, NO_CONFLICTS, condition, set_condition, set_established, storage_version,
};
use crate::ApiServer;
use crate::scale::ScalePaths;
use crate::served::RegistryKind;

/// How long a failed reconcile waits before it is tried again.
const RETRY: Duration = Duration::from_millis(50);

/// The annotation a CRD in a protected group must carry.
const APPROVAL: &str = "api-approved.kubernetes.io";

/// A running CRD controller; it stops when dropped.
#[derive(Debug)]
pub struct CrdController {
    _task: AbortOnDropHandle<()>,
}

impl CrdController {
    /// Starts the controller for `server`, over its CRDs (`crds`) and
    /// the storage their objects live in, leaving alone those named in
    /// `typed` (the kinds served from Rust types). Call it in a Tokio
    /// runtime.
    pub(crate) fn start(
        server: ApiServer,
        crds: Arc<Registry<DynamicObject>>,
        storage: Arc<dyn Storage>,
        typed: Arc<BTreeSet<String>>,
    ) -> Self {
        let controller = Controller {
            server,
            crds: crds.field_manager(MANAGER),
            storage,
            installed: BTreeMap::new(),
            typed,
        };
        CrdController {
            _task: AbortOnDropHandle::new(tokio::spawn(controller.run())),
        }
    }
}

/// What is served for one CRD.
struct Installed {
    uid: String,
    generation: i64,
    group: String,
    plural: String,
    /// The versions served.
    versions: Vec<String>,
    /// Set once the CRD is being deleted: creates are refused.
    terminating: Arc<AtomicBool>,
}

struct Controller {
    server: ApiServer,
    crds: Registry<DynamicObject>,
    storage: Arc<dyn Storage>,
    /// By CRD name.
    installed: BTreeMap<String, Installed>,
    /// The CRDs of kinds served from Rust types: served already, left
    /// alone.
    typed: Arc<BTreeSet<String>>,
}

impl Controller {
    async fn run(mut self) {
        let mut pending: BTreeSet<String> = BTreeSet::new();
        loop {
            // Every pass starts from a list (a broken watch lists again).
            let Ok(list) = self.crds.list("", &ListOptions::default()).await else {
                tokio::time::sleep(RETRY).await;
                continue;
            };
            pending.extend(list.items.iter().map(|c| c.metadata.name.clone()));
            // CRDs gone while nobody watched.
            let listed: BTreeSet<&str> = list
                .items
                .iter()
                .map(|c| c.metadata.name.as_str())
                .collect();
            for gone in self
                .installed
                .keys()
                .filter(|n| !listed.contains(n.as_str()))
                .cloned()
                .collect::<Vec<_>>()
            {
                self.uninstall(&gone);
            }
            let options = ListOptions {
                resource_version: Some(list.metadata.resource_version.clone()),
                ..ListOptions::default()
            };
            let Ok(mut watch) = self.crds.watch("", &options).await else {
                continue;
            };
            loop {
                let mut failed = BTreeSet::new();
                for name in std::mem::take(&mut pending) {
                    if self.reconcile(&name).await.is_err() {
                        failed.insert(name);
                    }
                }
                let retry = !failed.is_empty();
                pending = failed;
                let wait = if retry {
                    RETRY
                } else {
                    Duration::from_secs(3600)
                };
                tokio::select! {
                    event = watch.next() => match event {
                        Some(Ok(WatchEvent::Added(crd) | WatchEvent::Modified(crd) | WatchEvent::Deleted(crd))) => {
                            pending.insert(crd.metadata.name.clone());
                        }
                        Some(Ok(_)) => {}
                        Some(Err(_)) | None => break,
                    },
                    () = tokio::time::sleep(wait) => {}
                }
            }
        }
    }

    /// Brings what is served for CRD `name` in line with it.
    async fn reconcile(&mut self, name: &str) -> Result<(), Status> {
        if self.typed.contains(name) {
            return Ok(());
        }
        let crd = match self.crds.get("", name).await {
            Ok(crd) => crd,
            Err(e) if e.code == 404 => {
                self.uninstall(name);
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        if self
            .installed
            .get(name)
            .is_some_and(|i| i.uid != crd.metadata.uid)
        {
            // Another CRD of that name: start over.
            self.uninstall(name);
        }
        if crd.metadata.deletion_timestamp.is_some() {
            return self.finalize(crd).await;
        }
        let value = crd.to_value();
        let mut updated = crd.clone();
        let accepted = self.accept_names(&value, &mut updated);
        approval(&value, &mut updated);
        if accepted {
            self.install(&value)?;
            set_established(&mut updated);
        } else if condition(&value, "Established").is_none_or(|c| c["status"] != "True") {
            set_condition(
                &mut updated,
                "Established",
                "False",
                "NotAccepted",
                "not all names are accepted",
            );
        }
        if updated.content.get("status") != crd.content.get("status") {
            self.crds.update_status("", updated).await?;
        }
        Ok(())
    }

    /// The names `crd` asks for, checked against the names in use in its
    /// group; writes `status.acceptedNames` and `NamesAccepted` into
    /// `updated`. Whether every name is accepted.
    fn accept_names(&self, crd: &Value, updated: &mut DynamicObject) -> bool {
        let group = crd
            .pointer("/spec/group")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let own = crd
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let (resources, kinds) = self.names_in_use(group, own);
        let requested = &crd["spec"]["names"];
        let accepted = &crd["status"]["acceptedNames"];
        let mut names = accepted.as_object().cloned().unwrap_or_default();
        let mut problem: Option<(&str, String)> = None;
        let mut check = |field: &str, used: &BTreeSet<String>, reason: &'static str| {
            let want = requested[field].as_str().unwrap_or_default();
            match fresh(want, accepted[field].as_str().unwrap_or_default(), used) {
                Ok(()) => {
                    names.insert(field.into(), Value::String(want.into()));
                }
                Err(message) => problem = Some((reason, message)),
            }
        };
        check("plural", &resources, "PluralConflict");
        check("singular", &resources, "SingularConflict");
        check("kind", &kinds, "KindConflict");
        check("listKind", &kinds, "ListKindConflict");
        let short = |v: &Value| -> Vec<String> {
            v.as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        };
        let (wanted, held) = (
            short(&requested["shortNames"]),
            short(&accepted["shortNames"]),
        );
        if wanted != held {
            let errors: Vec<String> = wanted
                .iter()
                .filter(|s| !held.contains(s))
                .filter_map(|s| fresh(s, "", &resources).err())
                .collect();
            if errors.is_empty() {
                names.insert("shortNames".into(), requested["shortNames"].clone());
            } else {
                problem = Some(("ShortNamesConflict", aggregate(&errors)));
            }
        }
        if let Some(categories) = requested.get("categories") {
            names.insert("categories".into(), categories.clone());
        }
        let status = updated
            .content
            .entry("status")
            .or_insert_with(|| Value::Object(Default::default()));
        if let Some(status) = status.as_object_mut() {
            status.insert("acceptedNames".into(), Value::Object(names));
        }
        match problem {
            Some((reason, message)) => {
                set_condition(updated, "NamesAccepted", "False", reason, &message);
                false
            }
            None => {
                set_condition(
                    updated,
                    "NamesAccepted",
                    "True",
                    "NoConflicts",
                    NO_CONFLICTS,
                );
                true
            }
        }
    }

    /// The resource names (plural, singular, short names) and the kinds
    /// (kind, list kind) in use in `group` by everything but CRD `own`:
    /// the other CRDs' accepted names, and the kinds served otherwise.
    fn names_in_use(&self, group: &str, own: &str) -> (BTreeSet<String>, BTreeSet<String>) {
        let mut resources = BTreeSet::new();
        let mut kinds = BTreeSet::new();
        let ours: BTreeSet<(&str, &str)> = self
            .installed
            .values()
            .map(|i| (i.group.as_str(), i.plural.as_str()))
            .collect();
        for info in self.server.kinds().all() {
            if info.group != group || ours.contains(&(info.group.as_str(), info.plural.as_str())) {
                continue;
            }
            add_names(&info, &mut resources, &mut kinds);
        }
        for (name, installed) in &self.installed {
            if name == own || installed.group != group {
                continue;
            }
            if let Some(info) = self.server.kinds().by_resource(
                &installed.group,
                installed.versions.first().map_or("", String::as_str),
                &installed.plural,
            ) {
                add_names(&info, &mut resources, &mut kinds);
            }
        }
        (resources, kinds)
    }

    /// Serves `crd`'s served versions (again when its generation moved),
    /// and stops serving those it no longer serves.
    fn install(&mut self, crd: &Value) -> Result<(), Status> {
        let name = crd
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let generation = crd
            .pointer("/metadata/generation")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        let uid = crd
            .pointer("/metadata/uid")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if self
            .installed
            .get(name)
            .is_some_and(|i| i.generation == generation && i.uid == uid)
        {
            return Ok(());
        }
        let typed: CustomResourceDefinition =
            serde_json::from_value(crd.clone()).map_err(Status::internal_error)?;
        let storage = storage_version(crd)
            .ok_or_else(|| Status::internal_error("a CRD without one storage version"))?
            .to_string();
        let terminating = self.installed.get(name).map_or_else(
            || Arc::new(AtomicBool::new(false)),
            |i| i.terminating.clone(),
        );
        let served: Vec<String> = typed
            .spec
            .versions
            .iter()
            .filter(|v| v.served)
            .map(|v| v.name.clone())
            .collect();
        let storage_schema =
            KindInfo::from_crd(&typed, &storage).and_then(|info| info.schema().cloned());
        for version in &served {
            let info = KindInfo::from_crd(&typed, version)
                .ok_or_else(|| Status::internal_error("a served version the CRD lacks"))?;
            let registry = Registry::with_kind(
                info.clone(),
                DynamicStrategy::new(&info),
                self.storage.clone(),
            );
            let registry = if *version == storage {
                registry
            } else {
                registry.stored_as(format!("{}/{storage}", typed.spec.group))
            };
            // Reads are pruned and defaulted by the storage version's schema.
            let registry = match &storage_schema {
                Some(schema) => registry.read_with_schema(schema.clone()),
                None => registry,
            };
            let refuse = terminating.clone();
            let resource = GroupResource::new(&info.group, &info.plural);
            let scale = ScalePaths::of(&typed, version);
            let kind = info.clone();
            let registry = registry.with_admission(Arc::new(move |new, old| {
                if old.is_none() && refuse.load(Ordering::SeqCst) {
                    let mut status = Status::method_not_supported(resource.clone(), "create");
                    status.message =
                        "create not allowed while custom resource definition is terminating".into();
                    return Err(status);
                }
                match &scale {
                    Some(paths) => crate::scale::validate_object(paths, &kind, new),
                    None => Ok(()),
                }
            }));
            // As apiextensions-apiserver serves custom resources: no
            // strategic merge patches, and another `kind` in a body is
            // the validator's 422.
            let served = RegistryKind::dynamic(Arc::new(registry))
                .without_strategic_merge()
                .with_decode(super::decode_custom_resource);
            self.server.add_kind(Arc::new(served));
        }
        if let Some(old) = self.installed.get(name) {
            for version in old.versions.iter().filter(|v| !served.contains(v)) {
                self.server.remove_kind(&old.group, version, &old.plural);
            }
        }
        self.installed.insert(
            name.to_string(),
            Installed {
                uid: uid.to_string(),
                generation,
                group: typed.spec.group.clone(),
                plural: typed.spec.names.plural.clone(),
                versions: served,
                terminating,
            },
        );
        Ok(())
    }

    /// Stops serving what was served for CRD `name`.
    fn uninstall(&mut self, name: &str) {
        if let Some(old) = self.installed.remove(name) {
            for version in &old.versions {
                self.server.remove_kind(&old.group, version, &old.plural);
            }
        }
    }

    /// A CRD being deleted: its objects go, then its cleanup finalizer.
    async fn finalize(&mut self, crd: DynamicObject) -> Result<(), Status> {
        if !crd.metadata.finalizers.iter().any(|f| f == FINALIZER) {
            // Held by others' finalizers only: nothing of ours to do.
            self.uninstall(&crd.metadata.name);
            return Ok(());
        }
        let name = crd.metadata.name.clone();
        if let Some(installed) = self.installed.get(&name) {
            installed.terminating.store(true, Ordering::SeqCst);
        }
        let value = crd.to_value();
        let mut updated = crd.clone();
        if set_condition(
            &mut updated,
            "Terminating",
            "True",
            "InstanceDeletionInProgress",
            "CustomResource deletion is in progress",
        ) {
            updated = self.crds.update_status("", updated).await?.object;
        }
        let remaining = self.delete_instances(&value).await?;
        if remaining > 0 {
            return Err(Status::conflict(
                GroupResource::new(super::GROUP, "customresourcedefinitions"),
                &name,
                format!("{remaining} objects left"),
            ));
        }
        set_condition(
            &mut updated,
            "Terminating",
            "False",
            "InstanceDeletionCompleted",
            "removed all instances",
        );
        updated = self.crds.update_status("", updated).await?.object;
        self.uninstall(&name);
        updated.metadata.finalizers.retain(|f| f != FINALIZER);
        self.crds.update("", updated).await?;
        Ok(())
    }

    /// Deletes every object of `crd` (through its storage version); how
    /// many are still there (held by their finalizers).
    async fn delete_instances(&self, crd: &Value) -> Result<usize, Status> {
        let typed: CustomResourceDefinition =
            serde_json::from_value(crd.clone()).map_err(Status::internal_error)?;
        let Some(storage) = storage_version(crd) else {
            return Ok(0);
        };
        let Some(info) = KindInfo::from_crd(&typed, storage) else {
            return Ok(0);
        };
        let registry = Registry::<DynamicObject>::with_kind(
            info.clone(),
            DynamicStrategy::new(&info),
            self.storage.clone(),
        )
        .field_manager(MANAGER);
        let options = DeleteOptions {
            propagation_policy: Some(PropagationPolicy::Background),
            ..DeleteOptions::default()
        };
        let list = registry.list("", &ListOptions::default()).await?;
        let mut remaining = 0;
        for object in list.items {
            if object.metadata.deletion_timestamp.is_some() {
                remaining += 1;
                continue;
            }
            let namespace = object.metadata.namespace.clone();
            match registry
                .delete(&namespace, &object.metadata.name, &options)
                .await
            {
                Ok(deleted) if deleted.pending => remaining += 1,
                Ok(_) => {}
                Err(e) if e.code == 404 => {}
                Err(e) => return Err(e),
            }
        }
        Ok(remaining)
    }
}

fn add_names(info: &KindInfo, resources: &mut BTreeSet<String>, kinds: &mut BTreeSet<String>) {
    resources.insert(info.plural.clone());
    resources.insert(info.singular.clone());
    resources.extend(info.short_names.iter().cloned());
    kinds.insert(info.kind.clone());
    kinds.insert(info.list_kind.clone());
}

/// `equalToAcceptedOrFresh`.
fn fresh(requested: &str, accepted: &str, used: &BTreeSet<String>) -> Result<(), String> {
    if requested == accepted || !used.contains(requested) {
        Ok(())
    } else {
        Err(format!("{requested:?} is already in use"))
    }
}

/// Several errors as Go's `utilerrors.NewAggregate` prints them.
fn aggregate(errors: &[String]) -> String {
    match errors {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// Whether `group` is one of Kubernetes' own (`k8s.io`, `kubernetes.io`
/// and their subdomains), where a CRD needs API approval.
fn protected(group: &str) -> bool {
    ["k8s.io", "kubernetes.io"]
        .iter()
        .any(|p| group == *p || group.ends_with(&format!(".{p}")))
}

/// Whether `value` is a URL with a scheme and a host (what Go's
/// `url.ParseRequestURI` with a non-empty scheme and host accepts).
fn is_url(value: &str) -> bool {
    let Some((scheme, rest)) = value.split_once("://") else {
        return false;
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !host.is_empty()
        && !value.contains(char::is_whitespace)
}

/// `KubernetesAPIApprovalPolicyConformant`, for CRDs of protected groups.
fn approval(crd: &Value, updated: &mut DynamicObject) {
    let group = crd
        .pointer("/spec/group")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !protected(group) {
        return;
    }
    let annotation = crd
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(APPROVAL))
        .and_then(Value::as_str);
    let see = "see https://github.com/kubernetes/enhancements/pull/1111";
    let (status, reason, message) = match annotation {
        None => (
            "False",
            "MissingAnnotation",
            format!("protected groups must have approval annotation {APPROVAL:?}, {see}"),
        ),
        Some(value) if value.starts_with("unapproved") => (
            "False",
            "UnapprovedAnnotation",
            format!("not approved: {value:?}"),
        ),
        Some(value) if is_url(value) => {
            ("True", "ApprovedAnnotation", format!("approved in {value}"))
        }
        Some(_) => (
            "False",
            "InvalidAnnotation",
            format!(
                "protected groups must have approval annotation {APPROVAL:?} with either a URL or a reason starting with \"unapproved\", {see}"
            ),
        ),
    };
    set_condition(
        updated,
        "KubernetesAPIApprovalPolicyConformant",
        status,
        reason,
        &message,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The naming controller's `equalToAcceptedOrFresh`.
    #[test]
    fn a_name_is_accepted_when_it_is_already_ours_or_nobody_s() {
        let used: BTreeSet<String> = ["widgets".to_string()].into();
        assert_eq!(fresh("widgets", "widgets", &used), Ok(()));
        assert_eq!(fresh("gadgets", "", &used), Ok(()));
        assert_eq!(
            fresh("widgets", "", &used),
            Err("\"widgets\" is already in use".to_string())
        );
        assert_eq!(aggregate(&["a".into()]), "a");
        assert_eq!(aggregate(&["a".into(), "b".into()]), "[a, b]");
    }

    /// `TestCondition` of upstream's `apiapproval_controller_test.go`.
    #[test]
    fn api_approval_conditions() {
        let reason = |group: &str, annotation: Option<&str>| {
            let mut crd = json!({"apiVersion": "apiextensions.k8s.io/v1",
                "kind": "CustomResourceDefinition",
                "metadata": {"name": "x"}, "spec": {"group": group}});
            if let Some(a) = annotation {
                crd["metadata"]["annotations"] = json!({APPROVAL: a});
            }
            let mut object: DynamicObject = serde_json::from_value(crd.clone()).unwrap();
            approval(&crd, &mut object);
            let value = object.to_value();
            condition(&value, "KubernetesAPIApprovalPolicyConformant").map(|c| {
                (
                    c["status"].as_str().unwrap().to_string(),
                    c["message"].as_str().unwrap().to_string(),
                )
            })
        };
        assert_eq!(reason("other.io", None), None);
        assert_eq!(
            reason("sigs.k8s.io", None),
            Some(("False".into(), "protected groups must have approval annotation \"api-approved.kubernetes.io\", see https://github.com/kubernetes/enhancements/pull/1111".into()))
        );
        assert_eq!(
            reason("sigs.k8s.io", Some("bad value")),
            Some(("False".into(), "protected groups must have approval annotation \"api-approved.kubernetes.io\" with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111".into()))
        );
        assert_eq!(
            reason(
                "sigs.k8s.io",
                Some("https://github.com/kubernetes/kubernetes/pull/79724")
            ),
            Some((
                "True".into(),
                "approved in https://github.com/kubernetes/kubernetes/pull/79724".into()
            ))
        );
        assert_eq!(
            reason("sigs.k8s.io", Some("unapproved, experimental-only")),
            Some((
                "False".into(),
                "not approved: \"unapproved, experimental-only\"".into()
            ))
        );
        assert!(protected("k8s.io") && protected("x.kubernetes.io"));
        assert!(!protected("notk8s.io") && !protected("example.com"));
    }
}
