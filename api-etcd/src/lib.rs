//! An etcd [`Storage`] for the registry: [`EtcdStorage`] keeps objects in
//! etcd v3 as k8s.io/apiserver's etcd3 store does
//! (`staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go`):
//!
//! * the etcd key is the configured prefix (`/registry` by default) followed
//!   by the registry's key (`/registry/example.com/foos/default/a`);
//! * the value is the object's JSON, without `metadata.resourceVersion`
//!   (an object's resourceVersion is its key's `mod_revision`, a list's the
//!   revision it was read at, as [`Stored::revision`] and
//!   [`ListPage::revision`] report them);
//! * a create is a transaction that only writes when the key does not
//!   exist (`create_revision == 0`), an update or a conditional delete one
//!   that compares the key's `mod_revision`;
//! * a page of a list is one ranged read at one revision; a read at a
//!   compacted revision is [`StorageError::TooOld`];
//! * a watch watches from the revision after the one asked for, with the
//!   previous values of changed and deleted keys, and answers its
//!   [`ProgressRequester`] with etcd's progress notifications.
//!
//! Transient failures (etcd unreachable, no leader, a request timing out)
//! are retried with backoff for at most [`EtcdConfig::request_timeout`]
//! per operation (5 s by default), then reported as
//! [`StorageError::Unavailable`] (the registry's 500 `ServerTimeout` with
//! `retryAfterSeconds`, which clients retry), with a message that starts
//! with `etcd unavailable`. No operation waits longer than that.
//!
//! Besides the [`Storage`] operations the server needs [`EtcdStorage::compact`]
//! and [`EtcdStorage::spawn_compactor`] (the apiserver's periodic
//! compaction, every 5 minutes by default) and [`EtcdStorage::check`]
//! (`/readyz`'s `etcd` check).
//!
//! # Limits
//!
//! * The watches of one prefix share one etcd watch (the idea of the
//!   apiserver's watch cache), which keeps its latest 100 changes for
//!   watchers that start at a recent revision (a list's); a watcher from
//!   an older revision gets an etcd watch of its own
//!   ([`EtcdStorage::shared_watches`] counts the shared ones). Unlike the
//!   apiserver's cache, lists and gets still read etcd.
//! * A progress notification says that every change up to its revision
//!   was delivered. etcd releases without the fix of etcd-io/etcd#15220
//!   (Debian bookworm's 3.4.23 among them) answer `RequestProgress` with
//!   the current revision even when an event is still queued for the
//!   stream, so a progress event can overtake a change made a moment
//!   before it; releases with that fix but not etcd-io/etcd#17507's may
//!   leave a request on a new, idle watch unanswered. kube-apiserver
//!   relies on progress notifications only from etcd 3.4.31 and 3.5.13.
//! * A write whose answer is lost (etcd went away after applying it) is
//!   retried and then fails its comparison: a create reports
//!   `AlreadyExists`, an update `Conflict`, as the apiserver's would.
//!
//! # Building
//!
//! The crate depends on `etcd-client`, whose build script compiles etcd's
//! protocol buffers: building it needs `protoc` on the `PATH` (Debian's
//! `protobuf-compiler`), or in `PROTOC`. For that reason it is not one of
//! the workspace's default members: build and test it with
//! `cargo test -p api-etcd`, or `.ci/etcd.sh`, which installs etcd and
//! protoc first. The tests start an `etcd` of their own with the
//! `testing` module (feature `testing`: `api_etcd::testing::EtcdServer`,
//! for other crates' tests too); without an `etcd` binary they are
//! skipped, unless `API_ETCD_REQUIRE=1`. `ETCD_BIN` names another etcd
//! than the `PATH`'s: CI runs the suite on Debian's etcd 3.4.23 and on
//! upstream's 3.5.1.
//!
//! # Example
//!
//! ```no_run
//! # async fn run() -> Result<(), api_core::registry::StorageError> {
//! use std::sync::Arc;
//! use std::time::Duration;
//! use api_etcd::{EtcdConfig, EtcdStorage};
//!
//! let storage = EtcdStorage::connect(
//!     EtcdConfig::new(["http://127.0.0.1:2379"]).prefix("/registry"),
//! )
//! .await?;
//! storage.check().await?;
//! let _compactor = storage.spawn_compactor(Duration::from_secs(300));
//! let storage: Arc<dyn api_core::registry::Storage> = Arc::new(storage);
//! # let _ = storage;
//! # Ok(())
//! # }
//! ```
//!
//! [`Storage`]: api_core::registry::Storage
//! [`Storage::watch`]: api_core::registry::Storage::watch
//! [`Stored::revision`]: api_core::registry::storage::Stored::revision
//! [`ListPage::revision`]: api_core::registry::ListPage::revision
//! [`StorageError::TooOld`]: api_core::registry::StorageError::TooOld
//! [`StorageError::Unavailable`]: api_core::registry::StorageError::Unavailable
//! [`ProgressRequester`]: api_core::registry::ProgressRequester

mod compact;
mod config;
mod hub;
mod retry;
mod storage;
#[cfg(feature = "testing")]
pub mod testing;
mod watch;

pub use compact::COMPACT_REV_KEY;
pub use config::{DEFAULT_PREFIX, DEFAULT_REQUEST_TIMEOUT, EtcdConfig};
pub use storage::EtcdStorage;

/// The compaction interval of [`EtcdStorage::spawn_compactor`] when the
/// server is not told otherwise (`--etcd-compaction-interval`): 5
/// minutes, as the apiserver's.
pub const DEFAULT_COMPACTION_INTERVAL: std::time::Duration = std::time::Duration::from_secs(300);
