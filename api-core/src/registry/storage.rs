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
use std::sync::{Arc, Mutex, MutexGuard, Weak};
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
    /// A progress notification (etcd's): every change under the watch's
    /// prefix up to the event's revision has been delivered. Its object
    /// has no key and a null value; only `object.revision` counts. Sent
    /// when the watch's [`ProgressRequester`] asks.
    Progress,
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

/// Which page of a prefix a [`Storage::list_page`] reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListRequest {
    /// The first key to read (inclusive); from the prefix's start when
    /// unset. A `continue` token's key is the last key of the page before
    /// with `"\0"` appended, as etcd ranges.
    pub from_key: Option<String>,
    /// At most this many objects; all when unset.
    pub limit: Option<usize>,
    /// The revision to read at (every page of one list reads at the
    /// first page's); the current one when unset. `TooOld` when the
    /// storage no longer keeps that revision (compacted).
    pub revision: Option<Revision>,
}

/// One page of a list, consistent with one revision.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ListPage {
    /// The objects, in key order.
    pub items: Vec<Stored>,
    /// The revision the page was read at.
    pub revision: Revision,
    /// Whether keys under the prefix follow the last item.
    pub more: bool,
    /// How many keys under the prefix follow the last item (etcd's count
    /// of the range less what was returned).
    pub remaining: u64,
}

impl ListPage {
    /// The page of `items` (every object under the prefix at `revision`,
    /// in key order) that `request` asks for; for storages that read a
    /// whole prefix at once.
    pub fn of(items: Vec<Stored>, revision: Revision, request: &ListRequest) -> ListPage {
        let mut items: Vec<Stored> = match &request.from_key {
            Some(from) => items.into_iter().filter(|s| s.key >= *from).collect(),
            None => items,
        };
        let total = items.len();
        if let Some(limit) = request.limit {
            items.truncate(limit);
        }
        let remaining = (total - items.len()) as u64;
        ListPage {
            items,
            revision,
            more: remaining > 0,
            remaining,
        }
    }
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
    /// The backend could not be reached in time (etcd down or without a
    /// leader, after retrying): the apiserver's `ServerTimeout`, which
    /// clients retry after the advised delay.
    Unavailable(String),
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
            StorageError::Unavailable(m) => write!(f, "storage unavailable: {m}"),
            StorageError::Internal(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for StorageError {}

impl StorageError {
    /// The apiserver's `Status` for this error on the object `name` of
    /// `resource`: 404 `NotFound`, 409 `AlreadyExists`, 409 `Conflict`
    /// (with the "please apply your changes to the latest version"
    /// message), 410 `Expired`, a 500 `ServerTimeout` with
    /// `retryAfterSeconds: 2` for an unreachable storage (as the
    /// apiserver's `InterpretGetError` answers one), or 500.
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
            StorageError::Unavailable(_) => Status::server_timeout(resource, "storage", 2),
            e => Status::internal_error(e),
        }
    }
}

/// A stream of changes under a prefix, in revision order. It ends when
/// the storage is gone; an error (a backend's history compacted under a
/// slow watcher: [`StorageError::TooOld`]) is the last item.
pub struct Watch {
    inner: Pin<Box<dyn Stream<Item = Result<Event, StorageError>> + Send>>,
    progress: Option<ProgressRequester>,
}

/// Asks a watch's backend for a progress notification: an
/// [`EventType::Progress`] event at the store's current revision, after
/// every change up to it (etcd's `RequestProgress`). The apiserver turns
/// them into watch bookmarks; whoever holds a requester decides how
/// often (a server's bookmark interval).
#[derive(Clone)]
pub struct ProgressRequester(Arc<dyn Fn() + Send + Sync>);

impl ProgressRequester {
    /// A requester that calls `request` (for storage backends).
    pub fn new(request: impl Fn() + Send + Sync + 'static) -> Self {
        ProgressRequester(Arc::new(request))
    }

    /// Asks for one progress notification; it arrives in the watch's
    /// stream (nothing happens once the watch or the storage is gone).
    pub fn request(&self) {
        (self.0)()
    }
}

impl fmt::Debug for ProgressRequester {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ProgressRequester")
    }
}

impl Watch {
    /// Wraps a stream of events (for storage backends).
    pub fn new(stream: impl Stream<Item = Result<Event, StorageError>> + Send + 'static) -> Self {
        Watch {
            inner: Box::pin(stream),
            progress: None,
        }
    }

    /// The watch, able to deliver progress notifications on request (for
    /// storage backends that can: [`MemoryStorage`], etcd).
    pub fn with_progress(mut self, requester: ProgressRequester) -> Self {
        self.progress = Some(requester);
        self
    }

    /// What asks this watch for a progress notification, when its backend
    /// can deliver them.
    pub fn progress_requester(&self) -> Option<ProgressRequester> {
        self.progress.clone()
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
    /// A page of the objects under `prefix`, in key order, consistent
    /// with one revision (`request.revision`, or the current one): what a
    /// paginated list reads, so a page of 500 reads 500 objects.
    ///
    /// The default reads the whole prefix with [`Storage::list`] and cuts
    /// the page from it; it can only read the current revision, and
    /// answers `TooOld` for an older one (as etcd does for a compacted
    /// revision). [`MemoryStorage`] keeps the history to read recent
    /// revisions; a backend with revisions of its own (etcd) reads them
    /// there.
    fn list_page<'a>(
        &'a self,
        prefix: &'a str,
        request: &'a ListRequest,
    ) -> BoxFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(async move {
            let (items, revision) = self.list(prefix).await?;
            if let Some(requested) = request.revision
                && requested < revision
            {
                return Err(StorageError::TooOld {
                    requested,
                    oldest: revision,
                });
            }
            Ok(ListPage::of(items, revision, request))
        })
    }
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
    /// Which watch this is (for its progress requests).
    id: u64,
    prefix: String,
    sender: UnboundedSender<Result<Event, StorageError>>,
}

/// A change kept in the history: the event a watch replays, and the
/// revision of the key's state before it (a list at an older revision
/// restores that state: the event's `previous` for a modification, its
/// object for a deletion, nothing for a creation). The values are the
/// event's: a write clones nothing more for the history.
struct Change {
    event: Event,
    before: Revision,
}

impl Change {
    /// The key's value and revision before this change.
    fn before(&self) -> Option<(&Value, Revision)> {
        match self.event.kind {
            EventType::Added | EventType::Progress => None,
            EventType::Modified => self.event.previous.as_ref().map(|v| (v, self.before)),
            EventType::Deleted => Some((&self.event.object.value, self.before)),
        }
    }
}

struct State {
    revision: Revision,
    objects: BTreeMap<String, (Value, Revision)>,
    history: VecDeque<Change>,
    watchers: Vec<Watcher>,
    /// The id of the next watcher.
    next_watcher: u64,
}

impl State {
    /// The revision of the oldest change kept: every change after
    /// `oldest_kept() - 1` is in the history.
    fn oldest_kept(&self) -> Revision {
        self.history
            .front()
            .map_or(self.revision + 1, |c| c.event.object.revision)
    }

    /// `TooOld` unless every change after `from` is in the history.
    fn check_kept(&self, from: Revision) -> Result<(), StorageError> {
        let oldest = self.oldest_kept();
        if from + 1 < oldest && from < self.revision {
            return Err(StorageError::TooOld {
                requested: from,
                oldest: oldest - 1,
            });
        }
        Ok(())
    }
}

/// The in-memory [`Storage`]: a map guarded by one lock, with a bounded
/// history of changes for watches and for lists at a recent revision
/// (the pages of one list all read the first page's revision, as on
/// etcd, until the history has moved past it).
pub struct MemoryStorage {
    state: Arc<Mutex<State>>,
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

    /// An empty store that keeps the last `limit` changes for watches and
    /// paged lists (older revisions are "compacted": watching from them,
    /// or listing at them, is `TooOld`).
    pub fn with_history(limit: usize) -> Self {
        MemoryStorage {
            state: Arc::new(Mutex::new(State {
                revision: 0,
                objects: BTreeMap::new(),
                history: VecDeque::new(),
                watchers: Vec::new(),
                next_watcher: 0,
            })),
            history_limit: limit.max(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the map half-written
        // (every change is one insert or remove), so a poisoned lock is
        // still consistent.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn record(&self, state: &mut State, event: Event, before: Revision) {
        state.watchers.retain(|w| {
            !event.object.key.starts_with(&w.prefix)
                || w.sender.unbounded_send(Ok(event.clone())).is_ok()
        });
        state.history.push_back(Change { event, before });
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

    fn list_page<'a>(
        &'a self,
        prefix: &'a str,
        request: &'a ListRequest,
    ) -> BoxFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(std::future::ready(self.list_page_now(prefix, request)))
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
            0,
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
        let (previous, before) = state
            .objects
            .insert(key.to_string(), (value.clone(), revision))
            .map_or((None, 0), |(v, r)| (Some(v), r));
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
            before,
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
        let Some((value, last)) = state.objects.remove(key) else {
            return Err(StorageError::NotFound(key.to_string()));
        };
        state.revision += 1;
        let stored = Stored {
            key: key.to_string(),
            value,
            revision: state.revision,
        };
        let before = last;
        self.record(
            &mut state,
            Event {
                kind: EventType::Deleted,
                object: stored.clone(),
                previous: None,
            },
            before,
        );
        Ok(stored)
    }

    /// A page at `request.revision`: the current objects from the first
    /// key on, with the changes made since that revision undone (each
    /// changed key takes its state before the oldest such change), merged
    /// in key order. Only the page's objects are cloned.
    fn list_page_now(&self, prefix: &str, request: &ListRequest) -> Result<ListPage, StorageError> {
        let state = self.lock();
        let at = request
            .revision
            .unwrap_or(state.revision)
            .min(state.revision);
        state.check_kept(at)?;
        let from = match &request.from_key {
            Some(k) if k.as_str() > prefix => k.clone(),
            _ => prefix.to_string(),
        };
        let in_range = |k: &str| k.starts_with(prefix) && k >= from.as_str();
        // Newest first, so the oldest change after `at` wins.
        let mut undone: BTreeMap<&str, Option<(&Value, Revision)>> = BTreeMap::new();
        for change in state.history.iter().rev() {
            let key = change.event.object.key.as_str();
            if change.event.object.revision <= at {
                break;
            }
            if in_range(key) {
                undone.insert(key, change.before());
            }
        }
        let current = state
            .objects
            .range(from.clone()..)
            .take_while(|(k, _)| k.starts_with(prefix))
            .filter(|(k, _)| !undone.contains_key(k.as_str()))
            .map(|(k, (v, r))| (k.as_str(), (v, *r)));
        let restored = undone
            .iter()
            .filter_map(|(k, state)| state.map(|s| (*k, s)));
        let mut merged = Merged {
            a: current.peekable(),
            b: restored.peekable(),
        };
        let limit = request.limit.unwrap_or(usize::MAX);
        let items: Vec<Stored> = merged
            .by_ref()
            .take(limit)
            .map(|(k, (v, r))| Stored {
                key: k.to_string(),
                value: v.clone(),
                revision: r,
            })
            .collect();
        let remaining = merged.count() as u64;
        Ok(ListPage {
            items,
            revision: at,
            more: remaining > 0,
            remaining,
        })
    }

    fn watch_now(&self, prefix: &str, from: Revision) -> Result<Watch, StorageError> {
        let mut state = self.lock();
        state.check_kept(from)?;
        let (sender, receiver) = unbounded();
        for e in state
            .history
            .iter()
            .map(|c| &c.event)
            .filter(|e| e.object.revision > from && e.object.key.starts_with(prefix))
        {
            // The receiver is alive: it is in this function.
            let _ = sender.unbounded_send(Ok(e.clone()));
        }
        let id = state.next_watcher;
        state.next_watcher += 1;
        state.watchers.push(Watcher {
            id,
            prefix: prefix.to_string(),
            sender,
        });
        // Sent under the lock every change is sent under, so it follows
        // every change up to its revision. The requester holds neither
        // the storage nor the channel: the watch still ends when the
        // storage is gone.
        let state: Weak<Mutex<State>> = Arc::downgrade(&self.state);
        let progress = ProgressRequester::new(move || {
            if let Some(state) = state.upgrade() {
                let state = state.lock().unwrap_or_else(|p| p.into_inner());
                let Some(watcher) = state.watchers.iter().find(|w| w.id == id) else {
                    return;
                };
                let _ = watcher.sender.unbounded_send(Ok(Event {
                    kind: EventType::Progress,
                    object: Stored {
                        key: String::new(),
                        value: Value::Null,
                        revision: state.revision,
                    },
                    previous: None,
                }));
            }
        });
        Ok(Watch::new(receiver).with_progress(progress))
    }
}

/// Two iterators of distinct keys, each in key order, merged in key order.
struct Merged<A: Iterator, B: Iterator> {
    a: std::iter::Peekable<A>,
    b: std::iter::Peekable<B>,
}

impl<'k, T, A, B> Iterator for Merged<A, B>
where
    A: Iterator<Item = (&'k str, T)>,
    B: Iterator<Item = (&'k str, T)>,
{
    type Item = (&'k str, T);
    fn next(&mut self) -> Option<Self::Item> {
        match (self.a.peek(), self.b.peek()) {
            (Some((ka, _)), Some((kb, _))) if kb < ka => self.b.next(),
            (Some(_), _) => self.a.next(),
            (None, _) => self.b.next(),
        }
    }
}

#[cfg(test)]
#[path = "storage_tests.rs"]
mod tests;
