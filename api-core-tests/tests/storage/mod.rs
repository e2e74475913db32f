//! The storage the registry's and the server's test suites run on:
//! memory, or etcd when `API_TEST_STORAGE=etcd` and feature `test-etcd`
//! (of api-core-tests and of api-server) is on; CI's `.ci/etcd.sh` runs
//! them so. api-server's tests include this file too (`#[path]`), so that
//! both crates' suites are parametrized by the same code. On etcd every test gets a prefix of its own on
//! one etcd per test binary, so tests stay independent of each other's
//! objects. Revisions are etcd's, the whole store's: the suites on etcd
//! run one test at a time (`RUST_TEST_THREADS=1`, checked here), and a
//! test names the revision of its `n`th write as [`rv`]`(n)` (`n` on
//! memory, the revision the test's storage started at plus `n` on etcd).
//! Watch events arrive asynchronously from etcd: [`pending`] waits for
//! them to settle where memory has them at once.

#![allow(dead_code)] // each includer uses its part

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use api_core::registry::{MemoryStorage, Registry, Served, Storage, Strategy, Watch, WatchEvent};

/// The revision the latest [`storage`] started at (0 on memory).
static BASE: AtomicU64 = AtomicU64::new(0);

/// Whether the tests run on etcd.
static ON_ETCD: AtomicBool = AtomicBool::new(false);

/// A storage of its own for one test.
pub async fn storage() -> Arc<dyn Storage> {
    #[cfg(feature = "test-etcd")]
    if let Some(etcd) = api_etcd::testing::suite_storage("api-core-tests").await {
        assert!(
            std::env::var("RUST_TEST_THREADS").is_ok_and(|v| v == "1"),
            "the registry's suites run on etcd one test at a time (RUST_TEST_THREADS=1): \
             their revisions are counted from where the test's storage started"
        );
        let base = Storage::revision(&etcd)
            .await
            .expect("the test etcd answers");
        BASE.store(base, Ordering::SeqCst);
        ON_ETCD.store(true, Ordering::SeqCst);
        return Arc::new(etcd);
    }
    #[cfg(not(feature = "test-etcd"))]
    assert!(
        std::env::var("API_TEST_STORAGE").map_or(true, |v| v != "etcd"),
        "API_TEST_STORAGE=etcd needs feature `test-etcd`"
    );
    Arc::new(MemoryStorage::new())
}

/// A server builder over a [`storage`] of its own.
pub async fn builder() -> api_server::ServerBuilder {
    api_server::ApiServer::builder().storage(storage().await)
}

/// A registry of `K` with `strategy` over a [`storage`] of its own.
pub async fn registry<K: Served>(strategy: impl Strategy<K> + 'static) -> Registry<K> {
    Registry::with_storage(strategy, storage().await)
}

/// The revision before the test's first write (0 on memory).
pub fn base() -> u64 {
    BASE.load(Ordering::SeqCst)
}

/// The resourceVersion of the test's `n`th write.
pub fn rv(n: u64) -> String {
    (base() + n).to_string()
}

/// The events `watch` has, or (on etcd) receives until none comes for
/// 300 ms; an error ends them.
pub async fn pending<K: Served>(watch: &mut Watch<K>) -> Vec<WatchEvent<K>> {
    if !ON_ETCD.load(Ordering::SeqCst) {
        return watch.pending();
    }
    let mut events = Vec::new();
    while let Ok(Some(Ok(event))) =
        tokio::time::timeout(Duration::from_millis(300), watch.next()).await
    {
        events.push(event);
    }
    events
}
