//! What the tests share: the storages under test, and bounded waits.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use api_core::registry::storage::{Event, Watch};
use api_core::registry::{MemoryStorage, Revision, Storage};
use api_etcd::EtcdStorage;
use api_etcd::testing::EtcdServer;
use serde_json::json;

/// How long a test waits for one event.
pub const EVENT_WAIT: Duration = Duration::from_secs(5);

/// How long one whole test may take.
pub const TEST_LIMIT: Duration = Duration::from_secs(60);

/// How many changes a [`MemoryStorage`] under test keeps; a compaction
/// pushes more than that many changes through it.
const MEMORY_HISTORY: usize = 16;

/// A storage under test: the same test functions run on each kind.
pub struct Subject {
    pub storage: Arc<dyn Storage>,
    /// The etcd behind an `EtcdStorage` (kept running for the test).
    pub etcd: Option<(EtcdServer, EtcdStorage)>,
}

impl Subject {
    /// A [`MemoryStorage`] that keeps the last 16 changes.
    pub fn memory() -> Subject {
        Subject {
            storage: Arc::new(MemoryStorage::with_history(MEMORY_HISTORY)),
            etcd: None,
        }
    }

    /// An [`EtcdStorage`] on an etcd of its own; `None` when there is no
    /// etcd binary (the test is skipped).
    pub async fn etcd(test: &str) -> Option<Subject> {
        let server = EtcdServer::start_or_skip(test)?;
        let storage = server.storage("/registry").await;
        Some(Subject {
            storage: Arc::new(storage.clone()),
            etcd: Some((server, storage)),
        })
    }

    /// Makes every revision up to now unreadable: pushes more changes
    /// than the history keeps through a `MemoryStorage` (under
    /// `/filler/`), compacts etcd to its current revision after the same
    /// changes. Returns the current revision.
    pub async fn compact(&self) -> Revision {
        for i in 0..=MEMORY_HISTORY {
            self.storage
                .create(&format!("/filler/{i:03}"), json!(i))
                .await
                .unwrap();
        }
        let now = self.storage.revision().await.unwrap();
        if let Some((_, etcd)) = &self.etcd {
            etcd.compact(now).await.unwrap();
        }
        now
    }
}

/// The next event of `watch`, which must come within [`EVENT_WAIT`].
pub async fn next_event(watch: &mut Watch) -> Event {
    match tokio::time::timeout(EVENT_WAIT, watch.next()).await {
        Ok(Some(Ok(event))) => event,
        Ok(Some(Err(e))) => panic!("watch failed: {e}"),
        Ok(None) => panic!("watch ended"),
        Err(_) => panic!("no event within {EVENT_WAIT:?}"),
    }
}

/// Asserts that no event comes within `wait`.
pub async fn no_event(watch: &mut Watch, wait: Duration) {
    if let Ok(item) = tokio::time::timeout(wait, watch.next()).await {
        panic!("unexpected watch item: {item:?}");
    }
}
