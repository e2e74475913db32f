//! `events.k8s.io/v1` Events stored as core `v1` Events, as kube-apiserver
//! stores both (one resource, `/registry/events`): an Event a controller
//! records through events.k8s.io (kube-rs' `Recorder`, client-go's new
//! recorder) is the one `kubectl get events` and `kubectl describe` show
//! through core `v1`, and the other way round.
//!
//! [`AsCoreEvents`] is the storage the events.k8s.io registry writes to:
//! it maps that registry's keys onto the core kind's and converts each
//! object both ways (`pkg/apis/events/v1/conversion.go`: `regarding` is
//! `involvedObject`, `note` is `message`, `reportingController` is
//! `reportingComponent`, the `deprecated*` fields are the core ones).

use std::sync::Arc;

use api_core::registry::storage::{Event, Stored, Watch};
use api_core::registry::{BoxFuture, ListPage, ListRequest, Revision, Storage, StorageError};
use futures_util::StreamExt;
use serde_json::{Map, Value};

/// The events.k8s.io registry's keys (`/events.k8s.io/events/...`).
const OUTER: &str = "/events.k8s.io/events/";
/// The core kind's (`/events/...`).
const INNER: &str = "/events/";

/// Field names of events.k8s.io/v1 and of core/v1 that hold the same.
const RENAMED: [(&str, &str); 7] = [
    ("regarding", "involvedObject"),
    ("note", "message"),
    ("reportingController", "reportingComponent"),
    ("deprecatedSource", "source"),
    ("deprecatedFirstTimestamp", "firstTimestamp"),
    ("deprecatedLastTimestamp", "lastTimestamp"),
    ("deprecatedCount", "count"),
];

/// The events.k8s.io view of a storage that holds core Events.
pub(super) struct AsCoreEvents {
    inner: Arc<dyn Storage>,
}

impl AsCoreEvents {
    pub(super) fn new(inner: Arc<dyn Storage>) -> Self {
        AsCoreEvents { inner }
    }
}

/// An events.k8s.io key as the core kind's (a key outside the kind's is
/// kept: nothing is stored there).
fn inner_key(key: &str) -> String {
    match key.strip_prefix(OUTER) {
        Some(rest) => format!("{INNER}{rest}"),
        None => key.to_string(),
    }
}

fn outer_key(key: &str) -> String {
    match key.strip_prefix(INNER) {
        Some(rest) => format!("{OUTER}{rest}"),
        None => key.to_string(),
    }
}

/// Renames `from` members to `to` ones, with `api_version`.
fn renamed(value: Value, api_version: &str, to_core: bool) -> Value {
    let Value::Object(members) = value else {
        return value;
    };
    let mut out = Map::new();
    for (key, field) in members {
        let key = RENAMED
            .iter()
            .find_map(|(events, core)| {
                let (from, to) = if to_core {
                    (events, core)
                } else {
                    (core, events)
                };
                (key == *from).then(|| to.to_string())
            })
            .unwrap_or(key);
        out.insert(key, field);
    }
    if out.contains_key("apiVersion") {
        out.insert("apiVersion".into(), Value::String(api_version.into()));
    }
    Value::Object(out)
}

/// An events.k8s.io/v1 Event as core/v1 stores it.
pub(super) fn to_core(value: Value) -> Value {
    renamed(value, "v1", true)
}

/// A stored core/v1 Event as events.k8s.io/v1 serves it.
pub(super) fn to_events(value: Value) -> Value {
    renamed(value, "events.k8s.io/v1", false)
}

fn outer(stored: Stored) -> Stored {
    Stored {
        key: outer_key(&stored.key),
        value: to_events(stored.value),
        revision: stored.revision,
    }
}

/// A result of the core kind's storage as the events.k8s.io view's.
fn out(result: Result<Stored, StorageError>) -> Result<Stored, StorageError> {
    result.map(outer).map_err(outer_error)
}

fn outer_error(e: StorageError) -> StorageError {
    match e {
        StorageError::NotFound(k) => StorageError::NotFound(outer_key(&k)),
        StorageError::AlreadyExists(k) => StorageError::AlreadyExists(outer_key(&k)),
        StorageError::Conflict {
            key,
            expected,
            actual,
        } => StorageError::Conflict {
            key: outer_key(&key),
            expected,
            actual,
        },
        other => other,
    }
}

impl Storage for AsCoreEvents {
    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(async move { out(self.inner.get(&inner_key(key)).await) })
    }

    fn list<'a>(
        &'a self,
        prefix: &'a str,
    ) -> BoxFuture<'a, Result<(Vec<Stored>, Revision), StorageError>> {
        Box::pin(async move {
            let (items, revision) = self.inner.list(&inner_key(prefix)).await?;
            Ok((items.into_iter().map(outer).collect(), revision))
        })
    }

    fn list_page<'a>(
        &'a self,
        prefix: &'a str,
        request: &'a ListRequest,
    ) -> BoxFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(async move {
            let request = ListRequest {
                from_key: request.from_key.as_deref().map(inner_key),
                ..request.clone()
            };
            let page = self.inner.list_page(&inner_key(prefix), &request).await?;
            Ok(ListPage {
                items: page.items.into_iter().map(outer).collect(),
                ..page
            })
        })
    }

    fn create<'a>(
        &'a self,
        key: &'a str,
        value: Value,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(async move { out(self.inner.create(&inner_key(key), to_core(value)).await) })
    }

    fn update<'a>(
        &'a self,
        key: &'a str,
        value: Value,
        expected: Revision,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(async move {
            out(self
                .inner
                .update(&inner_key(key), to_core(value), expected)
                .await)
        })
    }

    fn delete<'a>(
        &'a self,
        key: &'a str,
        expected: Option<Revision>,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(async move { out(self.inner.delete(&inner_key(key), expected).await) })
    }

    fn watch<'a>(
        &'a self,
        prefix: &'a str,
        from: Revision,
    ) -> BoxFuture<'a, Result<Watch, StorageError>> {
        Box::pin(async move {
            let watch = self.inner.watch(&inner_key(prefix), from).await?;
            let progress = watch.progress_requester();
            let events = watch.map(|event| {
                event.map(|e| Event {
                    kind: e.kind,
                    object: if e.object.key.is_empty() {
                        e.object
                    } else {
                        outer(e.object)
                    },
                    previous: e.previous.map(to_events),
                })
            });
            let watch = Watch::new(events);
            Ok(match progress {
                Some(progress) => watch.with_progress(progress),
                None => watch,
            })
        })
    }

    fn revision(&self) -> BoxFuture<'_, Result<Revision, StorageError>> {
        self.inner.revision()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use api_core::registry::MemoryStorage;
    use serde_json::json;

    /// `Convert_v1_Event_To_core_Event` and back: every renamed field
    /// maps, the rest is kept, `apiVersion` follows the group.
    #[test]
    fn events_convert_both_ways() {
        let events = json!({
            "apiVersion": "events.k8s.io/v1", "kind": "Event",
            "metadata": {"name": "e", "namespace": "default"},
            "eventTime": "2026-06-01T12:00:00.000000Z",
            "regarding": {"kind": "Pod", "name": "web"},
            "note": "pulled", "reason": "Pulled", "type": "Normal", "action": "Pull",
            "reportingController": "kubelet", "reportingInstance": "node-1",
            "deprecatedSource": {"component": "kubelet"},
            "deprecatedFirstTimestamp": "2026-06-01T12:00:00Z",
            "deprecatedLastTimestamp": "2026-06-01T12:00:00Z",
            "deprecatedCount": 2
        });
        let core = to_core(events.clone());
        assert_eq!(
            core,
            json!({
                "apiVersion": "v1", "kind": "Event",
                "metadata": {"name": "e", "namespace": "default"},
                "eventTime": "2026-06-01T12:00:00.000000Z",
                "involvedObject": {"kind": "Pod", "name": "web"},
                "message": "pulled", "reason": "Pulled", "type": "Normal", "action": "Pull",
                "reportingComponent": "kubelet", "reportingInstance": "node-1",
                "source": {"component": "kubelet"},
                "firstTimestamp": "2026-06-01T12:00:00Z",
                "lastTimestamp": "2026-06-01T12:00:00Z",
                "count": 2
            })
        );
        assert_eq!(to_events(core), events);
    }

    /// What one view writes, the other reads, lists and watches.
    #[tokio::test]
    async fn both_views_share_the_objects() {
        let memory: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
        let events = AsCoreEvents::new(memory.clone());
        let mut watch = memory.watch("/events/", 0).await.unwrap();
        let written = events
            .create(
                "/events.k8s.io/events/default/e",
                json!({"apiVersion": "events.k8s.io/v1", "kind": "Event", "note": "hi"}),
            )
            .await
            .unwrap();
        assert_eq!(written.key, "/events.k8s.io/events/default/e");
        assert_eq!(written.value["note"], "hi");
        let core = memory.get("/events/default/e").await.unwrap();
        assert_eq!(core.value["message"], "hi");
        assert_eq!(core.value["apiVersion"], "v1");
        let seen = watch.next().await.unwrap().unwrap();
        assert_eq!(seen.object.key, "/events/default/e");

        let (listed, _) = events.list("/events.k8s.io/events/").await.unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].value["note"], "hi");
        let missing = events
            .get("/events.k8s.io/events/default/nope")
            .await
            .unwrap_err();
        assert_eq!(
            missing,
            StorageError::NotFound("/events.k8s.io/events/default/nope".into())
        );
    }
}
