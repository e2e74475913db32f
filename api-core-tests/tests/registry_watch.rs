//! The store's watch sends what the apiserver's etcd3 watcher and cacher
//! send around the changes themselves: the initial state as ADDED events
//! (`sendInitialEvents`, the etcd3 watcher's initial sync), the bookmark
//! that ends them (`k8s.io/initial-events-end`), and bookmarks from the
//! storage's progress notifications (etcd's `RequestProgress`; the
//! cacher's periodic bookmarks), each at the revision every change before
//! it was delivered up to.

use std::sync::Arc;
use std::time::Duration;

use api_core::registry::storage::EventType;
use api_core::registry::{
    Bookmark, DefaultStrategy, ListOptions, MemoryStorage, Registry, Storage, WatchEvent,
};
use examples::memcached::{Memcached, MemcachedSpec};

fn mc(name: &str, app: &str) -> Memcached {
    let mut obj = Memcached::new(name, MemcachedSpec { size: None });
    obj.metadata.labels.insert("app".into(), app.into());
    obj
}

/// What a watch delivered, as `ADDED a`, `BOOKMARK 7 end`, ...
fn describe(event: &WatchEvent<Memcached>) -> String {
    match event {
        WatchEvent::Added(o) => format!("ADDED {}", o.metadata.name),
        WatchEvent::Modified(o) => format!("MODIFIED {}", o.metadata.name),
        WatchEvent::Deleted(o) => format!("DELETED {}", o.metadata.name),
        WatchEvent::Bookmark(Bookmark {
            resource_version,
            initial_events_end,
        }) => format!(
            "BOOKMARK {resource_version}{}",
            if *initial_events_end { " end" } else { "" }
        ),
    }
}

/// What a new watch of `default` has ready at once.
async fn pending(registry: &Registry<Memcached>, options: &ListOptions) -> Vec<String> {
    let mut watch = registry.watch("default", options).await.unwrap();
    watch.pending().iter().map(describe).collect()
}

async fn next(watch: &mut api_core::registry::Watch<Memcached>) -> String {
    let event = tokio::time::timeout(Duration::from_secs(5), watch.next())
        .await
        .expect("an event within 5 s")
        .expect("the watch goes on")
        .expect("not an error");
    describe(&event)
}

#[tokio::test]
async fn initial_events_then_their_bookmark_then_the_changes() {
    let registry = Registry::<Memcached>::with_storage(DefaultStrategy, shared());
    registry.create("default", mc("a", "web")).await.unwrap();
    registry.create("default", mc("b", "db")).await.unwrap();
    let c = registry.create("default", mc("c", "web")).await.unwrap();
    let rv = c.object.metadata.resource_version.clone();
    let options = ListOptions {
        label_selector: Some("app=web".into()),
        send_initial_events: true,
        allow_watch_bookmarks: true,
        // Not read when the initial events are sent.
        resource_version: Some("1".into()),
        ..ListOptions::default()
    };
    let mut watch = registry.watch("default", &options).await.unwrap();
    assert_eq!(next(&mut watch).await, "ADDED a");
    assert_eq!(next(&mut watch).await, "ADDED c");
    assert_eq!(next(&mut watch).await, format!("BOOKMARK {rv} end"));
    registry.create("default", mc("d", "web")).await.unwrap();
    registry.create("default", mc("e", "db")).await.unwrap();
    registry
        .delete("default", "a", &Default::default())
        .await
        .unwrap();
    assert_eq!(next(&mut watch).await, "ADDED d");
    assert_eq!(next(&mut watch).await, "DELETED a");

    // Without bookmarks the initial events end with no marker; without
    // initial events the watch starts at `resource_version`.
    let plain = ListOptions {
        send_initial_events: true,
        ..ListOptions::default()
    };
    assert_eq!(
        pending(&registry, &plain).await,
        ["ADDED b", "ADDED c", "ADDED d", "ADDED e"]
    );
    let from_c = ListOptions {
        resource_version: Some(rv),
        ..ListOptions::default()
    };
    assert_eq!(
        pending(&registry, &from_c).await,
        ["ADDED d", "ADDED e", "DELETED a"]
    );
}

#[tokio::test]
async fn progress_requests_become_bookmarks_after_every_change_before_them() {
    let storage = shared();
    let registry = Registry::<Memcached>::with_storage(DefaultStrategy, storage.clone());
    let options = ListOptions {
        allow_watch_bookmarks: true,
        ..ListOptions::default()
    };
    let mut watch = registry.watch("default", &options).await.unwrap();
    let progress = watch.progress_requester().expect("MemoryStorage answers");
    // Changes elsewhere still move the revision a bookmark reports.
    registry.create("other", mc("x", "web")).await.unwrap();
    let y = registry.create("default", mc("y", "web")).await.unwrap();
    registry.create("other", mc("z", "web")).await.unwrap();
    progress.request();
    let now = storage.revision().await.unwrap();
    assert_eq!(next(&mut watch).await, "ADDED y");
    assert_eq!(next(&mut watch).await, format!("BOOKMARK {now}"));
    assert!(now > y.object.metadata.resource_version.parse().unwrap());

    // A watch without bookmarks drops the notifications.
    let mut quiet = registry
        .watch("default", &ListOptions::default())
        .await
        .unwrap();
    quiet.progress_requester().unwrap().request();
    registry.create("default", mc("w", "web")).await.unwrap();
    assert_eq!(next(&mut quiet).await, "ADDED w");
    assert!(quiet.pending().is_empty());
}

#[tokio::test]
async fn a_storage_watch_ends_with_its_storage_whoever_holds_its_requester() {
    let storage = shared();
    let mut watch = storage.watch("/k/", 0).await.unwrap();
    let progress = watch.progress_requester().unwrap();
    storage.create("/k/a", serde_json::json!({})).await.unwrap();
    progress.request();
    let first = watch.next().await.unwrap().unwrap();
    assert_eq!(first.kind, EventType::Added);
    let second = watch.next().await.unwrap().unwrap();
    assert_eq!(
        (second.kind, second.object.revision),
        (EventType::Progress, 1)
    );
    assert!(second.object.key.is_empty());
    drop(storage);
    progress.request(); // the storage is gone: nothing to send
    let end = tokio::time::timeout(Duration::from_secs(5), watch.next()).await;
    assert!(matches!(end, Ok(None)), "the watch ends: {end:?}");
}

fn shared() -> Arc<MemoryStorage> {
    Arc::new(MemoryStorage::new())
}

/// A storage whose watch events carry no previous value (as etcd's for a
/// change at a compacted revision).
struct NoPrevious(MemoryStorage);

/// The events of a storage watch without their previous values.
struct Stripped(api_core::registry::storage::Watch);

impl futures_core::Stream for Stripped {
    type Item = Result<api_core::registry::storage::Event, api_core::registry::StorageError>;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        std::pin::Pin::new(&mut self.0).poll_next(cx).map(|event| {
            event.map(|e| {
                e.map(|mut e| {
                    e.previous = None;
                    e
                })
            })
        })
    }
}

impl api_core::registry::Forwarding for NoPrevious {
    fn inner(&self) -> &dyn Storage {
        &self.0
    }
    fn watch<'a>(
        &'a self,
        prefix: &'a str,
        from: api_core::registry::Revision,
    ) -> api_core::registry::BoxFuture<
        'a,
        Result<api_core::registry::storage::Watch, api_core::registry::StorageError>,
    > {
        Box::pin(async move {
            let inner = self.0.watch(prefix, from).await?;
            Ok(api_core::registry::storage::Watch::new(Stripped(inner)))
        })
    }
}

async fn next_event(watch: &mut api_core::registry::Watch<Memcached>) -> WatchEvent<Memcached> {
    tokio::time::timeout(Duration::from_secs(5), watch.next())
        .await
        .expect("an event")
        .expect("not ended")
        .expect("not an error")
}

/// Without selectors a change is MODIFIED even when the storage cannot
/// say what the object was before (the etcd3 watcher's `acceptAll`); with
/// one, an unknown previous state reads as entering the selection.
#[tokio::test]
async fn an_unknown_previous_value_is_still_a_modification() {
    let registry = Registry::<Memcached>::with_storage(
        DefaultStrategy,
        Arc::new(NoPrevious(MemoryStorage::new())),
    );
    let created = registry.create("default", mc("a", "web")).await.unwrap();
    let from = ListOptions {
        resource_version: Some(created.object.metadata.resource_version.clone()),
        ..Default::default()
    };
    let selected = ListOptions {
        label_selector: Some("app=web".into()),
        ..from.clone()
    };
    let mut all = registry.watch("default", &from).await.unwrap();
    let mut web = registry.watch("default", &selected).await.unwrap();
    let mut changed = created.object.clone();
    changed.spec.size = Some(3);
    registry.update("default", changed).await.unwrap();
    assert_eq!(describe(&next_event(&mut all).await), "MODIFIED a");
    assert_eq!(describe(&next_event(&mut web).await), "ADDED a");
}
