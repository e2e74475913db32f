//! The storage behind a [`Registry`](super::Registry): keys to JSON
//! objects, each with the revision of its last change, and watches from a
//! revision. Shaped like etcd (a global revision, compare-and-swap on a
//! key's modification revision), so an etcd backend fits without changing
//! the registry; [`MemoryStorage`] is the embedded default.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;

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

/// A stream of changes under a prefix, in revision order.
pub struct Watch {
    receiver: Receiver<Event>,
}

impl Watch {
    /// Wraps a channel of events (for storage backends).
    pub fn new(receiver: Receiver<Event>) -> Self {
        Watch { receiver }
    }

    /// The next event, waiting at most `timeout`; `None` on timeout or
    /// when the storage is gone.
    pub fn next_timeout(&self, timeout: Duration) -> Option<Event> {
        self.receiver.recv_timeout(timeout).ok()
    }

    /// The next event if one is ready.
    pub fn try_next(&self) -> Option<Event> {
        self.receiver.try_recv().ok()
    }
}

impl Iterator for Watch {
    type Item = Event;
    /// Blocks until the next event; `None` when the storage is gone.
    fn next(&mut self) -> Option<Event> {
        self.receiver.recv().ok()
    }
}

/// A key-value store with revisions and watches.
pub trait Storage: Send + Sync {
    /// The object at `key`.
    fn get(&self, key: &str) -> Result<Stored, StorageError>;
    /// Every object whose key starts with `prefix`, in key order, and the
    /// revision the list is consistent with.
    fn list(&self, prefix: &str) -> Result<(Vec<Stored>, Revision), StorageError>;
    /// Stores a new object; `AlreadyExists` if the key is taken.
    fn create(&self, key: &str, value: Value) -> Result<Stored, StorageError>;
    /// Replaces the object if its revision is still `expected`; `Conflict`
    /// otherwise, `NotFound` if it is gone.
    fn update(&self, key: &str, value: Value, expected: Revision) -> Result<Stored, StorageError>;
    /// Removes the object (if its revision is `expected`, when given) and
    /// returns its last state.
    fn delete(&self, key: &str, expected: Option<Revision>) -> Result<Stored, StorageError>;
    /// Changes under `prefix` after revision `from`; `TooOld` when the
    /// history no longer reaches back that far.
    fn watch(&self, prefix: &str, from: Revision) -> Result<Watch, StorageError>;
    /// The current revision.
    fn revision(&self) -> Revision;
}

struct Watcher {
    prefix: String,
    sender: Sender<Event>,
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
            !event.object.key.starts_with(&w.prefix) || w.sender.send(event.clone()).is_ok()
        });
        state.history.push_back(event);
        while state.history.len() > self.history_limit {
            state.history.pop_front();
        }
    }
}

impl Storage for MemoryStorage {
    fn get(&self, key: &str) -> Result<Stored, StorageError> {
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

    fn list(&self, prefix: &str) -> Result<(Vec<Stored>, Revision), StorageError> {
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

    fn create(&self, key: &str, value: Value) -> Result<Stored, StorageError> {
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

    fn update(&self, key: &str, value: Value, expected: Revision) -> Result<Stored, StorageError> {
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

    fn delete(&self, key: &str, expected: Option<Revision>) -> Result<Stored, StorageError> {
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

    fn watch(&self, prefix: &str, from: Revision) -> Result<Watch, StorageError> {
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
        let (sender, receiver) = mpsc::channel();
        for e in state
            .history
            .iter()
            .filter(|e| e.object.revision > from && e.object.key.starts_with(prefix))
        {
            // The receiver is alive: it is in this function.
            let _ = sender.send(e.clone());
        }
        state.watchers.push(Watcher {
            prefix: prefix.to_string(),
            sender,
        });
        Ok(Watch::new(receiver))
    }

    fn revision(&self) -> Revision {
        self.lock().revision
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn revisions_and_compare_and_swap() {
        let s = MemoryStorage::new();
        let a = s.create("/a", json!(1)).unwrap();
        assert_eq!(a.revision, 1);
        assert_eq!(
            s.create("/a", json!(2)),
            Err(StorageError::AlreadyExists("/a".into()))
        );
        let b = s.update("/a", json!(2), 1).unwrap();
        assert_eq!(b.revision, 2);
        assert!(matches!(
            s.update("/a", json!(3), 1),
            Err(StorageError::Conflict {
                expected: 1,
                actual: 2,
                ..
            })
        ));
        assert_eq!(s.get("/a").unwrap().value, json!(2));
        assert!(matches!(
            s.delete("/a", Some(1)),
            Err(StorageError::Conflict { .. })
        ));
        assert_eq!(s.delete("/a", Some(2)).unwrap().value, json!(2));
        assert!(matches!(s.get("/a"), Err(StorageError::NotFound(_))));
        assert_eq!(s.revision(), 3);
    }

    #[test]
    fn lists_by_prefix_in_key_order() {
        let s = MemoryStorage::new();
        for k in ["/x/b", "/x/a", "/y/a", "/x"] {
            s.create(k, json!(k)).unwrap();
        }
        let (items, rev) = s.list("/x/").unwrap();
        assert_eq!(
            items.iter().map(|i| i.key.as_str()).collect::<Vec<_>>(),
            ["/x/a", "/x/b"]
        );
        assert_eq!(rev, 4);
    }

    #[test]
    fn watches_replay_history_and_follow() {
        let s = MemoryStorage::with_history(3);
        s.create("/p/a", json!(1)).unwrap();
        s.create("/q/a", json!(1)).unwrap();
        let w = s.watch("/p/", 0).unwrap();
        s.update("/p/a", json!(2), 1).unwrap();
        s.delete("/p/a", None).unwrap();
        let kinds: Vec<_> = std::iter::from_fn(|| w.try_next())
            .map(|e| (e.kind, e.object.revision))
            .collect();
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
            s.watch("/p/", 0),
            Err(StorageError::TooOld {
                requested: 0,
                oldest: 1
            })
        ));
        assert!(s.watch("/p/", 2).is_ok());
        assert!(s.watch("/p/", 4).is_ok());
    }
}
