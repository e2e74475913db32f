//! The namespace controller (kube-controller-manager's
//! `pkg/controller/namespace`, `deletion/namespaced_resources_deleter.go`):
//! for each namespace marked for deletion it deletes every object in it
//! (of every namespaced kind the server serves, propagation `Background`),
//! reports in the namespace's conditions what is left and which
//! finalizers hold it, and once nothing is left removes its `kubernetes`
//! finalizer through the `finalize` view, which deletes the namespace.
//!
//! Objects held by finalizers (a controller's, the garbage collector's
//! `foregroundDeletion`) keep the namespace `Terminating` until they go;
//! the controller looks again every [`RESYNC`] while a namespace waits.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use api_core::Status;
use api_core::meta::Time;
use api_core::registry::{
    DeleteOptions, DynamicObject, ListOptions, PropagationPolicy, Registry, WatchEvent,
};
use serde_json::{Value, json};
use tokio_util::task::AbortOnDropHandle;

use super::{Content, FINALIZER};
use crate::served::ServedKind;

/// The name the controller's writes are recorded under (`managedFields`),
/// as kube-controller-manager's.
pub const MANAGER: &str = "kube-controller-manager";

/// How often a namespace whose content is not gone yet is looked at again.
pub const RESYNC: Duration = Duration::from_millis(100);

/// A running namespace controller; it stops when dropped.
#[derive(Debug)]
pub struct NamespaceController {
    _task: AbortOnDropHandle<()>,
}

impl NamespaceController {
    /// Starts the controller over `namespaces` (and their `finalize`
    /// view), deleting the objects of the namespaced kinds of `content`
    /// (read again on every pass). Call it in a Tokio runtime.
    pub(crate) fn start(
        namespaces: Arc<Registry<DynamicObject>>,
        finalize: Arc<Registry<DynamicObject>>,
        content: Content,
    ) -> Self {
        let controller = Controller {
            namespaces: namespaces.field_manager(MANAGER),
            finalize: finalize.field_manager(MANAGER),
            content,
        };
        NamespaceController {
            _task: AbortOnDropHandle::new(tokio::spawn(controller.run())),
        }
    }
}

struct Controller {
    namespaces: Registry<DynamicObject>,
    finalize: Registry<DynamicObject>,
    content: Content,
}

/// What a pass over one namespace found.
#[derive(Debug, Default, PartialEq)]
struct Remaining {
    /// Objects left, by `resource.group`.
    by_resource: BTreeMap<String, usize>,
    /// Objects left, by the finalizers that hold them.
    by_finalizer: BTreeMap<String, usize>,
    /// The deletes that failed (other than for objects already gone).
    failures: Vec<String>,
}

impl Remaining {
    fn is_empty(&self) -> bool {
        self.by_resource.is_empty() && self.failures.is_empty()
    }
}

fn deleting(namespace: &DynamicObject) -> bool {
    namespace.metadata.deletion_timestamp.is_some()
}

impl Controller {
    async fn run(self) {
        loop {
            // Every pass starts from a list (a watch that ends is
            // restarted from a fresh one).
            let Ok(list) = self.namespaces.list("", &ListOptions::default()).await else {
                tokio::time::sleep(RESYNC).await;
                continue;
            };
            let mut pending: BTreeSet<String> = list
                .items
                .iter()
                .filter(|n| deleting(n))
                .map(|n| n.metadata.name.clone())
                .collect();
            let options = ListOptions {
                resource_version: Some(list.metadata.resource_version.clone()),
                ..Default::default()
            };
            let Ok(mut watch) = self.namespaces.watch("", &options).await else {
                continue;
            };
            loop {
                let next = pending.iter().next().cloned();
                if let Some(name) = next {
                    // Work through every waiting namespace, then wait.
                    let mut waiting = BTreeSet::new();
                    for name in std::iter::once(name).chain(pending.iter().skip(1).cloned()) {
                        if !self.sync(&name).await {
                            waiting.insert(name);
                        }
                    }
                    pending = waiting;
                }
                let event = if pending.is_empty() {
                    watch.next().await
                } else {
                    match tokio::time::timeout(RESYNC, watch.next()).await {
                        Ok(event) => event,
                        Err(_) => continue,
                    }
                };
                match event {
                    Some(Ok(WatchEvent::Added(n) | WatchEvent::Modified(n))) if deleting(&n) => {
                        pending.insert(n.metadata.name);
                    }
                    Some(Ok(WatchEvent::Deleted(n))) => {
                        pending.remove(&n.metadata.name);
                    }
                    Some(Ok(_)) => {}
                    Some(Err(_)) | None => break,
                }
            }
        }
    }

    /// One pass over the namespace `name`: whether it is done with (gone,
    /// not being deleted, or finalized now).
    async fn sync(&self, name: &str) -> bool {
        let namespace = match self.namespaces.get("", name).await {
            Ok(n) => n,
            Err(e) => return e.code == 404,
        };
        if !deleting(&namespace) {
            return true;
        }
        let remaining = self.delete_content(name).await;
        if self.report(&namespace, &remaining).await.is_err() {
            return false;
        }
        if !remaining.is_empty() {
            return false;
        }
        self.remove_finalizer(name).await.is_ok()
    }

    /// Deletes every object in `namespace` not being deleted yet, and
    /// counts what is still there.
    async fn delete_content(&self, namespace: &str) -> Remaining {
        let mut remaining = Remaining::default();
        let background = DeleteOptions {
            propagation_policy: Some(PropagationPolicy::Background),
            ..Default::default()
        };
        let kinds: Vec<Arc<dyn ServedKind>> = self
            .content
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .filter(|k| k.namespaced())
            .cloned()
            .collect();
        for kind in &kinds {
            let info = kind.info();
            let resource = format!("{}.{}", info.plural, info.group);
            let list = match kind.list(namespace, &ListOptions::default()).await {
                Ok(list) => list,
                Err(e) => {
                    remaining
                        .failures
                        .push(format!("{resource}: {}", e.message));
                    continue;
                }
            };
            for item in list["items"].as_array().into_iter().flatten() {
                let meta = &item["metadata"];
                let object = meta["name"].as_str().unwrap_or_default();
                let held = if meta["deletionTimestamp"].is_null() {
                    match kind.delete(namespace, object, &background, false).await {
                        Ok((object, pending)) => pending.then_some(object),
                        Err(e) if e.code == 404 => None,
                        Err(e) => {
                            remaining
                                .failures
                                .push(format!("{resource}: {}", e.message));
                            continue;
                        }
                    }
                } else {
                    Some(item.clone())
                };
                if let Some(object) = held {
                    *remaining.by_resource.entry(resource.clone()).or_default() += 1;
                    for finalizer in object["metadata"]["finalizers"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                    {
                        *remaining
                            .by_finalizer
                            .entry(finalizer.to_string())
                            .or_default() += 1;
                    }
                }
            }
        }
        remaining
    }

    /// Writes the deletion conditions (`namespaceConditionUpdater`) when
    /// they changed.
    async fn report(&self, namespace: &DynamicObject, remaining: &Remaining) -> Result<(), Status> {
        let old = namespace
            .content
            .get("status")
            .and_then(|s| s.get("conditions"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let conditions = conditions(remaining, &old, Time::now());
        if conditions == old {
            return Ok(());
        }
        let mut updated = namespace.clone();
        let status = updated.content.entry("status").or_insert_with(|| json!({}));
        if !status.is_object() {
            *status = json!({});
        }
        status["conditions"] = Value::Array(conditions);
        self.namespaces.update_status("", updated).await.map(|_| ())
    }

    /// Removes the `kubernetes` finalizer (the `finalize` subresource);
    /// with no other finalizer left the store deletes the namespace.
    async fn remove_finalizer(&self, name: &str) -> Result<(), Status> {
        let mut namespace = self.finalize.get("", name).await?;
        if let Some(list) = namespace
            .content
            .get_mut("spec")
            .and_then(|s| s.get_mut("finalizers"))
            .and_then(Value::as_array_mut)
        {
            list.retain(|f| f != FINALIZER);
        }
        namespace.metadata.resource_version.clear();
        self.finalize.update("", namespace).await.map(|_| ())
    }
}

/// The deletion conditions kube-controller-manager writes
/// (`namespaceConditionUpdater`): each of its five types, with the reason
/// and message upstream gives for what `remaining` holds; a condition
/// whose status does not change keeps its `lastTransitionTime` from `old`.
fn conditions(remaining: &Remaining, old: &[Value], now: Time) -> Vec<Value> {
    let content_failure = (!remaining.failures.is_empty()).then(|| {
        (
            "ContentDeletionFailed",
            format!(
                "Failed to delete all resource types, {} remaining: {}",
                remaining.failures.len(),
                remaining.failures.join(", ")
            ),
        )
    });
    let resources = (!remaining.by_resource.is_empty()).then(|| {
        let list: Vec<String> = remaining
            .by_resource
            .iter()
            .map(|(resource, n)| format!("{resource} has {n} resource instances"))
            .collect();
        (
            "SomeResourcesRemain",
            format!("Some resources are remaining: {}", list.join(", ")),
        )
    });
    let finalizers = (!remaining.by_finalizer.is_empty()).then(|| {
        let list: Vec<String> = remaining
            .by_finalizer
            .iter()
            .map(|(finalizer, n)| format!("{finalizer} in {n} resource instances"))
            .collect();
        (
            "SomeFinalizersRemain",
            format!(
                "Some content in the namespace has finalizers remaining: {}",
                list.join(", ")
            ),
        )
    });
    let table = [
        (
            "NamespaceDeletionDiscoveryFailure",
            None,
            "ResourcesDiscovered",
            "All resources successfully discovered",
        ),
        (
            "NamespaceDeletionGroupVersionParsingFailure",
            None,
            "ParsedGroupVersions",
            "All legacy kube types successfully parsed",
        ),
        (
            "NamespaceDeletionContentFailure",
            content_failure,
            "ContentDeleted",
            "All content successfully deleted, may be waiting on finalization",
        ),
        (
            "NamespaceContentRemaining",
            resources,
            "ContentRemoved",
            "All content successfully removed",
        ),
        (
            "NamespaceFinalizersRemaining",
            finalizers,
            "ContentHasNoFinalizers",
            "All content-preserving finalizers finished",
        ),
    ];
    table
        .into_iter()
        .map(|(type_, problem, ok_reason, ok_message)| {
            let (status, reason, message) = match problem {
                Some((reason, message)) => ("True", reason, message),
                None => ("False", ok_reason, ok_message.to_string()),
            };
            let previous = old.iter().find(|c| c["type"] == type_);
            let since = match previous {
                Some(c) if c["status"] == status => c["lastTransitionTime"].clone(),
                _ => json!(now),
            };
            json!({
                "type": type_,
                "status": status,
                "lastTransitionTime": since,
                "reason": reason,
                "message": message,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Time {
        serde_json::from_value(json!(text)).expect("a time")
    }

    /// The messages of `namespaceConditionUpdater.ProcessContentTotals`
    /// (namespaced_resources_deleter.go): resources as `resource.group`,
    /// sorted, and the finalizers holding them.
    #[test]
    fn conditions_say_what_remains() {
        let mut remaining = Remaining::default();
        remaining.by_resource.insert("pods.".into(), 2);
        remaining
            .by_resource
            .insert("memcacheds.cache.example.com".into(), 1);
        remaining.by_finalizer.insert("example.com/keep".into(), 3);
        let now = at("2026-06-01T12:00:00Z");
        let out = conditions(&remaining, &[], now);
        let by_type = |t: &str| out.iter().find(|c| c["type"] == t).unwrap().clone();
        assert_eq!(out.len(), 5);
        assert_eq!(
            by_type("NamespaceContentRemaining"),
            json!({"type": "NamespaceContentRemaining", "status": "True",
                   "lastTransitionTime": "2026-06-01T12:00:00Z", "reason": "SomeResourcesRemain",
                   "message": "Some resources are remaining: memcacheds.cache.example.com has 1 resource instances, pods. has 2 resource instances"})
        );
        assert_eq!(
            by_type("NamespaceFinalizersRemaining")["message"],
            "Some content in the namespace has finalizers remaining: example.com/keep in 3 resource instances"
        );
        assert_eq!(
            by_type("NamespaceDeletionContentFailure")["status"],
            "False"
        );
        assert_eq!(
            by_type("NamespaceDeletionDiscoveryFailure")["reason"],
            "ResourcesDiscovered"
        );

        // Nothing left: every condition False with upstream's ok reasons;
        // a condition whose status did not change keeps its time.
        let later = at("2026-06-01T12:05:00Z");
        let done = conditions(&Remaining::default(), &out, later);
        let by_type = |t: &str| done.iter().find(|c| c["type"] == t).unwrap().clone();
        assert_eq!(
            by_type("NamespaceContentRemaining"),
            json!({"type": "NamespaceContentRemaining", "status": "False",
                   "lastTransitionTime": "2026-06-01T12:05:00Z", "reason": "ContentRemoved",
                   "message": "All content successfully removed"})
        );
        assert_eq!(
            by_type("NamespaceDeletionDiscoveryFailure")["lastTransitionTime"],
            "2026-06-01T12:00:00Z"
        );
        assert_eq!(conditions(&Remaining::default(), &done, later), done);
    }
}
