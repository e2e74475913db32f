//! Watches of a registry: the changes to a kind's objects as
//! [`WatchEvent`]s, after the initial state when asked (the etcd3
//! watcher's initial sync, the cacher's watch-list), with bookmarks from
//! the storage's progress notifications.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};

use futures_core::Stream;

use super::storage::{self, EventType, ProgressRequester, Revision, StorageError};
use super::{
    Codec, KindInfo, ListOptions, Registry, Selection, Served, decode_stored, decode_value,
    selected,
};
use crate::resource::Resource;
use crate::status::Status;

/// An event of a [`Watch`].
#[derive(Clone, Debug, PartialEq)]
pub enum WatchEvent<K> {
    /// The object was created (or entered the selection).
    Added(K),
    /// The object changed.
    Modified(K),
    /// The object was removed; its last state.
    Deleted(K),
    /// Every change up to a revision has been delivered (only with
    /// [`ListOptions::allow_watch_bookmarks`]).
    Bookmark(Bookmark),
}

/// A watch bookmark: the watch has delivered every change up to
/// `resource_version`, so a client may resume from it (the apiserver's
/// `BOOKMARK` event).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bookmark {
    /// The revision reached.
    pub resource_version: String,
    /// Whether it ends the initial events of a watch that sent them
    /// (annotated `k8s.io/initial-events-end` on the wire).
    pub initial_events_end: bool,
}

impl<K: Resource> WatchEvent<K> {
    /// The object of the event (a bookmark has none).
    pub fn object(&self) -> Option<&K> {
        match self {
            WatchEvent::Added(o) | WatchEvent::Modified(o) | WatchEvent::Deleted(o) => Some(o),
            WatchEvent::Bookmark(_) => None,
        }
    }
}

/// A stream of [`WatchEvent`]s, in the order the changes happened.
pub struct Watch<K> {
    inner: storage::Watch,
    /// The initial events (and their closing bookmark) still to deliver.
    initial: VecDeque<WatchEvent<K>>,
    /// Whether progress notifications become bookmarks.
    bookmarks: bool,
    namespace: String,
    selection: Selection,
    codec: Codec,
    kind: Arc<KindInfo>,
}

// Nothing in a watch is pinned in place: its events are moved out whole.
impl<K> Unpin for Watch<K> {}

impl<K: Served> Watch<K> {
    fn convert(&self, event: storage::Event) -> Option<WatchEvent<K>> {
        if event.kind == EventType::Progress {
            return self.bookmarks.then(|| {
                WatchEvent::Bookmark(Bookmark {
                    resource_version: event.object.revision.to_string(),
                    initial_events_end: false,
                })
            });
        }
        let object: K = decode_stored(&event.object, &self.codec).ok()?;
        let namespaced = self.kind.namespaced();
        let now = selected(&object, namespaced, &self.namespace, &self.selection);
        Some(match event.kind {
            EventType::Added if now => WatchEvent::Added(object),
            EventType::Deleted if now => WatchEvent::Deleted(object),
            // Without selectors every change of a key under the prefix is
            // a modification, whether or not its previous value is known
            // (etcd has none for an event at a compacted revision): the
            // etcd3 watcher's `acceptAll`.
            EventType::Modified if self.selection.is_unfiltered() => WatchEvent::Modified(object),
            EventType::Modified => {
                // An object entering the selection is ADDED, one leaving it
                // DELETED, as the apiserver's watch cache reports them.
                let before = event
                    .previous
                    .and_then(|v| decode_value::<K>(&v, &event.object.key, &self.codec).ok())
                    .is_some_and(|o| selected(&o, namespaced, &self.namespace, &self.selection));
                match (before, now) {
                    (true, true) => WatchEvent::Modified(object),
                    (false, true) => WatchEvent::Added(object),
                    (true, false) => WatchEvent::Deleted(object),
                    (false, false) => return None,
                }
            }
            _ => return None,
        })
    }

    fn storage_status(&self, e: StorageError) -> Status {
        e.into_status(self.kind.resource(), "")
    }

    /// The next event; `None` when the watch has ended (the storage is
    /// gone). An error (410 `Expired` when the storage's history was
    /// compacted under the watch) is the last item.
    pub async fn next(&mut self) -> Option<Result<WatchEvent<K>, Status>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }

    /// What asks the storage for a progress notification, which this
    /// watch delivers as a [`WatchEvent::Bookmark`] at the storage's
    /// current revision when bookmarks are allowed; `None` when the
    /// storage cannot (a server asks every bookmark interval, as the
    /// apiserver's watch cache sends bookmarks).
    pub fn progress_requester(&self) -> Option<ProgressRequester> {
        self.inner.progress_requester()
    }

    /// The events already waiting, without waiting for more (an error
    /// ends the list).
    pub fn pending(&mut self) -> Vec<WatchEvent<K>> {
        let mut out: Vec<WatchEvent<K>> = self.initial.drain(..).collect();
        while let Some(event) = self.inner.try_next() {
            match event {
                Ok(e) => out.extend(self.convert(e)),
                Err(_) => break,
            }
        }
        out
    }
}

impl<K: Served> Stream for Watch<K> {
    type Item = Result<WatchEvent<K>, Status>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Option<Self::Item>> {
        if let Some(event) = self.initial.pop_front() {
            return Poll::Ready(Some(Ok(event)));
        }
        loop {
            match Pin::new(&mut self.inner).poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Ready(Some(Err(e))) => {
                    return Poll::Ready(Some(Err(self.storage_status(e))));
                }
                Poll::Ready(Some(Ok(event))) => {
                    if let Some(e) = self.convert(event) {
                        return Poll::Ready(Some(Ok(e)));
                    }
                }
            }
        }
    }
}

impl<K: Served> Registry<K> {
    /// Changes to the objects in `namespace` (all when empty) that match
    /// the selectors, after `options.resource_version` (a list's: no change
    /// is missed) or from now. A revision older than the storage keeps is
    /// a 410 `Expired`.
    pub async fn watch(&self, namespace: &str, options: &ListOptions) -> Result<Watch<K>, Status> {
        let selection = Selection::with_selectable_fields(options, &self.kind.selectable_fields())?;
        let mut initial = VecDeque::new();
        let from = if options.send_initial_events {
            // The state at one revision as ADDED events, then the changes
            // after it (the etcd3 watcher's initial sync, the cacher's
            // watch-list), the end marked by a bookmark when allowed.
            let list_options = ListOptions {
                label_selector: options.label_selector.clone(),
                field_selector: options.field_selector.clone(),
                ..ListOptions::default()
            };
            let list = self.list(namespace, &list_options).await?;
            let revision = list.metadata.resource_version.clone();
            initial.extend(list.items.into_iter().map(WatchEvent::Added));
            if options.allow_watch_bookmarks {
                initial.push_back(WatchEvent::Bookmark(Bookmark {
                    resource_version: revision.clone(),
                    initial_events_end: true,
                }));
            }
            revision
                .parse::<Revision>()
                .map_err(|_| Status::internal_error("a list without a revision"))?
        } else {
            match options.resource_version.as_deref() {
                None | Some("") | Some("0") => self
                    .storage
                    .revision()
                    .await
                    .map_err(|e| e.into_status(self.resource(), ""))?,
                Some(rv) => rv
                    .parse::<Revision>()
                    .map_err(|_| Status::bad_request(format!("invalid resource version {rv:?}")))?,
            }
        };
        let inner = self
            .storage
            .watch(&self.prefix(namespace), from)
            .await
            .map_err(|e| e.into_status(self.resource(), ""))?;
        Ok(Watch {
            inner,
            initial,
            bookmarks: options.allow_watch_bookmarks,
            namespace: namespace.to_string(),
            selection,
            codec: self.codec.clone(),
            kind: self.kind.clone(),
        })
    }
}
