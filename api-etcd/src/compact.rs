//! Compaction: etcd keeps every revision until told to forget them, as
//! the apiserver does every 5 minutes (`storage/etcd3/compact.go`).

use std::sync::atomic::Ordering;
use std::time::Duration;

use api_core::registry::{Revision, StorageError};
use etcd_client::{Compare, CompareOp, Txn, TxnOp, TxnOpResponse};
use tokio::task::JoinHandle;

use crate::retry::retry;
use crate::storage::{EtcdStorage, Inner, signed, unsigned};

/// The key whose version the apiserver's compactors share (outside any
/// prefix, as theirs: compaction is of the whole etcd), so that only one
/// of the servers on an etcd compacts each interval.
pub const COMPACT_REV_KEY: &str = "compact_rev_key";

impl EtcdStorage {
    /// Forgets every revision before `revision` (etcd's compaction, of
    /// the whole etcd, not only this storage's prefix): reads and watches
    /// at older revisions are `TooOld` from then on. Compacting to a
    /// revision already compacted is no error.
    pub async fn compact(&self, revision: Revision) -> Result<(), StorageError> {
        self.inner.compact(revision).await
    }

    /// Compacts etcd every `interval` (the server's
    /// `--etcd-compaction-interval`, [`DEFAULT_COMPACTION_INTERVAL`]) as
    /// the apiserver's compactor does: each interval it records the
    /// current revision and compacts to the one recorded the interval
    /// before, so a revision is kept for at least one interval. Servers
    /// sharing an etcd take turns through the version of
    /// [`COMPACT_REV_KEY`]: in each interval one of them compacts.
    ///
    /// The task stops when the storage (every clone) is dropped, or when
    /// the handle is aborted; failures are logged and retried the next
    /// interval. Call it inside a Tokio runtime.
    ///
    /// [`DEFAULT_COMPACTION_INTERVAL`]: crate::DEFAULT_COMPACTION_INTERVAL
    pub fn spawn_compactor(&self, interval: Duration) -> JoinHandle<()> {
        let inner = self.inner.clone();
        let mut shutdown = self.shutdown.subscribe();
        tokio::spawn(async move {
            // The compactor's `compactTime` (the key's version it last
            // saw) and the revision it saw then.
            let mut version = 0;
            let mut revision = 0;
            loop {
                tokio::select! {
                    _ = shutdown.changed() => return,
                    _ = tokio::time::sleep(interval) => {}
                }
                match inner.compact_turn(version, revision).await {
                    Ok((v, r)) => (version, revision) = (v, r),
                    Err(e) => tracing::warn!("etcd compaction failed: {e}"),
                }
            }
        })
    }
}

impl Inner {
    pub(crate) async fn compact(&self, revision: Revision) -> Result<(), StorageError> {
        let result = retry(self.timeout, || {
            let mut kv = self.kv.clone();
            async move { kv.compact(signed(revision), None).await }
        })
        .await;
        match result {
            Ok(_) => {}
            // Someone compacted further already.
            Err(f) if f.is_compacted() => {}
            Err(f) => return Err(f.into_storage("compact")),
        }
        self.compacted.fetch_max(revision, Ordering::Relaxed);
        Ok(())
    }

    /// One interval of the compactor (the apiserver's `compact`): if
    /// [`COMPACT_REV_KEY`]'s version is still `version`, this server's
    /// turn: it records the current revision in the key and compacts to
    /// `revision` (the one it recorded an interval ago; none the first
    /// time). Otherwise another server took the turn: adopt its version.
    /// Returns the key's version and the revision to compact to next.
    async fn compact_turn(
        &self,
        version: i64,
        revision: Revision,
    ) -> Result<(i64, Revision), StorageError> {
        let txn = Txn::new()
            .when([Compare::version(COMPACT_REV_KEY, CompareOp::Equal, version)])
            .and_then([TxnOp::put(
                COMPACT_REV_KEY,
                signed(revision).to_string(),
                None,
            )])
            .or_else([TxnOp::get(COMPACT_REV_KEY, None)]);
        let resp = self
            .txn(txn)
            .await
            .map_err(|f| f.into_storage("compaction"))?;
        let current = resp.header().map_or(0, |h| unsigned(h.revision()));
        if !resp.succeeded() {
            let theirs = resp.op_responses().into_iter().find_map(|r| match r {
                TxnOpResponse::Get(get) => get.kvs().first().map(|kv| kv.version()),
                _ => None,
            });
            return Ok((theirs.unwrap_or(0), current));
        }
        if revision > 0 {
            self.compact(revision).await?;
        }
        Ok((version + 1, current))
    }
}
