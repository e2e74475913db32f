//! The storage behind a [`Registry`](super::Registry): keys to JSON
//! objects, each with the revision of its last change, and watches from a
//! revision. Shaped like etcd (a global revision, compare-and-swap on a
//! key's modification revision), so an etcd backend fits without changing
//! the registry; [`MemoryStorage`] is the embedded default.
//!
//! The trait is asynchronous (a backend such as etcd does I/O) and object
//! safe: methods return boxed futures ([`BoxFuture`]), as `async_trait`
//! would write them, so a registry holds any storage as `Arc<dyn Storage>`.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Mutex, MutexGuard};
use std::task::{Context, Poll};

use futures_channel::mpsc::{UnboundedSender, unbounded};
use futures_core::Stream;
use serde_json::Value;

use crate::status::{GroupResource, Status};

/// A boxed, `Send` future: what [`Storage`]'s methods return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A store revision. Every change gets the next one; an object's
/// `resourceVersion` is the revision of its last change.
pub type Revision = u64;

/// An object as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Stored {
    /// Its key.
    pub key: String,
    /// The object.
    pub value: Value,
    /// The revision of its last change.
    pub revision: Revision,
}

/// What happened to a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    /// Created.
    Added,
    /// Changed.
    Modified,
    /// Removed (the value is the last state).
    Deleted,
}

/// One change, as a watch delivers it.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// What happened.
    pub kind: EventType,
    /// The object (after the change; before it for a deletion).
    pub object: Stored,
    /// For a modification: the object before it (so that a filtered watch
    /// can tell an object entering or leaving its selection).
    pub previous: Option<Value>,
}

/// Why a storage operation failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StorageError {
    /// No object at this key.
    NotFound(String),
    /// An object already exists at this key.
    AlreadyExists(String),
    /// The object changed since the expected revision.
    Conflict {
        /// The key.
        key: String,
        /// The revision the caller expected.
        expected: Revision,
        /// The object's current revision.
        actual: Revision,
    },
    /// The requested revision is older than the history kept.
    TooOld {
        /// The requested revision.
        requested: Revision,
        /// The oldest revision a watch can start from.
        oldest: Revision,
    },
    /// Anything else (a backend failure).
    Internal(String),
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::NotFound(k) => write!(f, "key not found: {k}"),
            StorageError::AlreadyExists(k) => write!(f, "key exists: {k}"),
            StorageError::Conflict {
                key,
                expected,
                actual,
            } => {
                write!(f, "{key}: expected revision {expected}, found {actual}")
            }
            StorageError::TooOld { requested, oldest } => {
                write!(f, "too old resource version: {requested} ({oldest})")
            }
            StorageError::Internal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for StorageError {}

impl StorageError {
    /// The apiserver's `Status` for this error on the object `name` of
    /// `resource`: 404 `NotFound`, 409 `AlreadyExists`, 409 `Conflict`
    /// (with the "please apply your changes to the latest version"
    /// message), 410 `Expired`, or 500.
    pub fn into_status(self, resource: GroupResource, name: &str) -> Status {
        match self {
            StorageError::NotFound(_) => Status::not_found(resource, name),
            StorageError::AlreadyExists(_) => Status::already_exists(resource, name),
            StorageError::Conflict { .. } => Status::conflict(
                resource,
                name,
                "the object has been modified; please apply your changes to the latest version and try again",
            ),
            e @ StorageError::TooOld { .. } => Status::resource_expired(e.to_string()),
            e => Status::internal_error(e),
        }
    }
}

/// A stream of changes under a prefix, in revision order. It ends when
/// the storage is gone; an error (a backend's history compacted under a
/// slow watcher: [`StorageError::TooOld`]) is the last item.
pub struct Watch {
    inner: Pin<Box<dyn Stream<Item = Result<Event, StorageError>> + Send>>,
}

impl Watch {
    /// Wraps a stream of events (for storage backends).
    pub fn new(stream: impl Stream<Item = Result<Event, StorageError>> + Send + 'static) -> Self {
        Watch {
            inner: Box::pin(stream),
        }
    }

    /// The next event; `None` when the watch has ended.
    pub async fn next(&mut self) -> Option<Result<Event, StorageError>> {
        std::future::poll_fn(|cx| self.inner.as_mut().poll_next(cx)).await
    }

    /// The next event if one is ready now, without waiting.
    pub fn try_next(&mut self) -> Option<Result<Event, StorageError>> {
        let mut cx = Context::from_waker(std::task::Waker::noop());
        match self.inner.as_mut().poll_next(&mut cx) {
            Poll::Ready(item) => item,
            Poll::Pending => None,
        }
    }
}

impl Stream for Watch {
    type Item = Result<Event, StorageError>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner.as_mut().poll_next(cx)
    }
}

impl fmt::Debug for Watch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Watch")
    }
}

/// A key-value store with revisions and watches. Implementations must
/// not block the async runtime (an in-memory store answers at once; an
/// I/O backend awaits its client).
pub trait Storage: Send + Sync {
    /// The object at `key`.
    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Stored, StorageError>>;
    /// Every object whose key starts with `prefix`, in key order, and the
    /// revision the list is consistent with.
    fn list<'a>(
        &'a self,
        prefix: &'a str,
    ) -> BoxFuture<'a, Result<(Vec<Stored>, Revision), StorageError>>;
    /// Stores a new object; `AlreadyExists` if the key is taken.
    fn create<'a>(
        &'a self,
        key: &'a str,
        value: Value,
    ) -> BoxFuture<'a, Result<Stored, StorageError>>;
    /// Replaces the object if its revision is still `expected`; `Conflict`
    /// otherwise, `NotFound` if it is gone.
    fn update<'a>(
        &'a self,
        key: &'a str,
        value: Value,
        expected: Revision,
    ) -> BoxFuture<'a, Result<Stored, StorageError>>;
    /// Removes the object (if its revision is `expected`, when given) and
    /// returns its last state.
    fn delete<'a>(
        &'a self,
        key: &'a str,
        expected: Option<Revision>,
    ) -> BoxFuture<'a, Result<Stored, StorageError>>;
    /// Changes under `prefix` after revision `from`; `TooOld` when the
    /// history no longer reaches back that far.
    fn watch<'a>(
        &'a self,
        prefix: &'a str,
        from: Revision,
    ) -> BoxFuture<'a, Result<Watch, StorageError>>;
    /// The current revision.
    fn revision(&self) -> BoxFuture<'_, Result<Revision, StorageError>>;
}

struct Watcher {
    prefix: String,
    sender: UnboundedSender<Result<Event, StorageError>>,
}

struct State {
    revision: Revision,
    objects: BTreeMap<String, (Value, Revision)>,
    history: VecDeque<Event>,
    watchers: Vec<Watcher>,
}

/// The in-memory [`Storage`]: a map guarded by one lock, with a bounded
/// history of changes for watches.
pub struct MemoryStorage {
    state: Mutex<State>,
    history_limit: usize,
}

impl Default for MemoryStorage {
    fn default() -> Self {
        Self::with_history(1000)
    }
}

impl MemoryStorage {
    /// An empty store that keeps the last 1000 changes for watches.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store that keeps the last `limit` changes for watches
    /// (older revisions are "compacted": watching from them is `TooOld`).
    pub fn with_history(limit: usize) -> Self {
        MemoryStorage {
            state: Mutex::new(State {
                revision: 0,
                objects: BTreeMap::new(),
                history: VecDeque::new(),
                watchers: Vec::new(),
            }),
            history_limit: limit.max(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the map half-written
        // (every change is one insert or remove), so a poisoned lock is
        // still consistent.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn record(&self, state: &mut State, event: Event) {
        state.watchers.retain(|w| {
            !event.object.key.starts_with(&w.prefix)
                || w.sender.unbounded_send(Ok(event.clone())).is_ok()
        });
        state.history.push_back(event);
        while state.history.len() > self.history_limit {
            state.history.pop_front();
        }
    }
}

impl Storage for MemoryStorage {
    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(std::future::ready(self.get_now(key)))
    }

    fn list<'a>(
        &'a self,
        prefix: &'a str,
    ) -> BoxFuture<'a, Result<(Vec<Stored>, Revision), StorageError>> {
        Box::pin(std::future::ready(self.list_now(prefix)))
    }

    fn create<'a>(
        &'a self,
        key: &'a str,
        value: Value,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(std::future::ready(self.create_now(key, value)))
    }

    fn update<'a>(
        &'a self,
        key: &'a str,
        value: Value,
        expected: Revision,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(std::future::ready(self.update_now(key, value, expected)))
    }

    fn delete<'a>(
        &'a self,
        key: &'a str,
        expected: Option<Revision>,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(std::future::ready(self.delete_now(key, expected)))
    }

    fn watch<'a>(
        &'a self,
        prefix: &'a str,
        from: Revision,
    ) -> BoxFuture<'a, Result<Watch, StorageError>> {
        Box::pin(std::future::ready(self.watch_now(prefix, from)))
    }

    fn revision(&self) -> BoxFuture<'_, Result<Revision, StorageError>> {
        Box::pin(std::future::ready(Ok(self.lock().revision)))
    }
}

/// The operations themselves: in memory they complete at once, under a
/// lock never held across an `await`.
impl MemoryStorage {
    fn get_now(&self, key: &str) -> Result<Stored, StorageError> {
        let state = self.lock();
        state
            .objects
            .get(key)
            .map(|(v, r)| Stored {
                key: key.to_string(),
                value: v.clone(),
                revision: *r,
            })
            .ok_or_else(|| StorageError::NotFound(key.to_string()))
    }

    fn list_now(&self, prefix: &str) -> Result<(Vec<Stored>, Revision), StorageError> {
        let state = self.lock();
        let items = state
            .objects
            .range(prefix.to_string()..)
            .take_while(|(k, _)| k.starts_with(prefix))
            .map(|(k, (v, r))| Stored {
                key: k.clone(),
                value: v.clone(),
                revision: *r,
            })
            .collect();
        Ok((items, state.revision))
    }

    fn create_now(&self, key: &str, value: Value) -> Result<Stored, StorageError> {
        let mut state = self.lock();
        if state.objects.contains_key(key) {
            return Err(StorageError::AlreadyExists(key.to_string()));
        }
        state.revision += 1;
        let revision = state.revision;
        state
            .objects
            .insert(key.to_string(), (value.clone(), revision));
        let stored = Stored {
            key: key.to_string(),
            value,
            revision,
        };
        self.record(
            &mut state,
            Event {
                kind: EventType::Added,
                object: stored.clone(),
                previous: None,
            },
        );
        Ok(stored)
    }

    fn update_now(
        &self,
        key: &str,
        value: Value,
        expected: Revision,
    ) -> Result<Stored, StorageError> {
        let mut state = self.lock();
        let actual = match state.objects.get(key) {
            Some((_, r)) => *r,
            None => return Err(StorageError::NotFound(key.to_string())),
        };
        if actual != expected {
            return Err(StorageError::Conflict {
                key: key.to_string(),
                expected,
                actual,
            });
        }
        state.revision += 1;
        let revision = state.revision;
        let previous = state
            .objects
            .insert(key.to_string(), (value.clone(), revision))
            .map(|(v, _)| v);
        let stored = Stored {
            key: key.to_string(),
            value,
            revision,
        };
        self.record(
            &mut state,
            Event {
                kind: EventType::Modified,
                object: stored.clone(),
                previous,
            },
        );
        Ok(stored)
    }

    fn delete_now(&self, key: &str, expected: Option<Revision>) -> Result<Stored, StorageError> {
        let mut state = self.lock();
        let actual = match state.objects.get(key) {
            Some((_, r)) => *r,
            None => return Err(StorageError::NotFound(key.to_string())),
        };
        if let Some(expected) = expected
            && expected != actual
        {
            return Err(StorageError::Conflict {
                key: key.to_string(),
                expected,
                actual,
            });
        }
        let Some((value, _)) = state.objects.remove(key) else {
            return Err(StorageError::NotFound(key.to_string()));
        };
        state.revision += 1;
        let stored = Stored {
            key: key.to_string(),
            value,
            revision: state.revision,
        };
        self.record(
            &mut state,
            Event {
                kind: EventType::Deleted,
                object: stored.clone(),
                previous: None,
            },
        );
        Ok(stored)
    }

    fn watch_now(&self, prefix: &str, from: Revision) -> Result<Watch, StorageError> {
        let mut state = self.lock();
        // The history holds every change after `oldest - 1`.
        let oldest = state
            .history
            .front()
            .map_or(state.revision + 1, |e| e.object.revision);
        if from + 1 < oldest && from < state.revision {
            return Err(StorageError::TooOld {
                requested: from,
                oldest: oldest - 1,
            });
        }
        let (sender, receiver) = unbounded();
        for e in state
            .history
            .iter()
            .filter(|e| e.object.revision > from && e.object.key.starts_with(prefix))
        {
            // The receiver is alive: it is in this function.
            let _ = sender.unbounded_send(Ok(e.clone()));
        }
        state.watchers.push(Watcher {
            prefix: prefix.to_string(),
            sender,
        });
        Ok(Watch::new(receiver))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test]
    async fn revisions_and_compare_and_swap() {
        let s = MemoryStorage::new();
        let a = s.create("/a", json!(1)).await.unwrap();
        assert_eq!(a.revision, 1);
        assert_eq!(
            s.create("/a", json!(2)).await,
            Err(StorageError::AlreadyExists("/a".into()))
        );
        let b = s.update("/a", json!(2), 1).await.unwrap();
        assert_eq!(b.revision, 2);
        assert!(matches!(
            s.update("/a", json!(3), 1).await,
            Err(StorageError::Conflict {
                expected: 1,
                actual: 2,
                ..
            })
        ));
        assert_eq!(s.get("/a").await.unwrap().value, json!(2));
        assert!(matches!(
            s.delete("/a", Some(1)).await,
            Err(StorageError::Conflict { .. })
        ));
        assert_eq!(s.delete("/a", Some(2)).await.unwrap().value, json!(2));
        assert!(matches!(s.get("/a").await, Err(StorageError::NotFound(_))));
        assert_eq!(s.revision().await, Ok(3));
    }

    #[tokio::test]
    async fn lists_by_prefix_in_key_order() {
        let s = MemoryStorage::new();
        for k in ["/x/b", "/x/a", "/y/a", "/x"] {
            s.create(k, json!(k)).await.unwrap();
        }
        let (items, rev) = s.list("/x/").await.unwrap();
        assert_eq!(
            items.iter().map(|i| i.key.as_str()).collect::<Vec<_>>(),
            ["/x/a", "/x/b"]
        );
        assert_eq!(rev, 4);
    }

    #[tokio::test]
    async fn watches_replay_history_and_follow() {
        let s = MemoryStorage::with_history(3);
        s.create("/p/a", json!(1)).await.unwrap();
        s.create("/q/a", json!(1)).await.unwrap();
        let mut w = s.watch("/p/", 0).await.unwrap();
        s.update("/p/a", json!(2), 1).await.unwrap();
        s.delete("/p/a", None).await.unwrap();
        let kinds: Vec<_> = std::iter::from_fn(|| w.try_next())
            .map(|e| e.map(|e| (e.kind, e.object.revision)))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(
            kinds,
            [
                (EventType::Added, 1),
                (EventType::Modified, 3),
                (EventType::Deleted, 4)
            ]
        );
        // Revision 1 and 2 left the 3-event history.
        assert!(matches!(
            s.watch("/p/", 0).await,
            Err(StorageError::TooOld {
                requested: 0,
                oldest: 1
            })
        ));
        assert!(s.watch("/p/", 2).await.is_ok());
        assert!(s.watch("/p/", 4).await.is_ok());
        // A watch waits for the next change.
        let mut w = s.watch("/p/", 4).await.unwrap();
        assert!(w.try_next().is_none());
        let next = tokio::spawn(async move { w.next().await });
        s.create("/p/b", json!(1)).await.unwrap();
        let event = next.await.unwrap().unwrap().unwrap();
        assert_eq!(
            (event.kind, event.object.key.as_str()),
            (EventType::Added, "/p/b")
        );
    }
}
