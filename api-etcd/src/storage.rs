//! [`EtcdStorage`]: the registry's [`Storage`] on etcd v3.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use api_core::registry::storage::{Stored, Watch};
use api_core::registry::{BoxFuture, ListPage, ListRequest, Revision, Storage, StorageError};
use etcd_client::{
    Certificate, Client, Compare, CompareOp, ConnectOptions, DeleteOptions, GetOptions,
    GetResponse, Identity, KeyValue, KvClient, TlsOptions, Txn, TxnOp, TxnOpResponse, WatchClient,
};
use serde_json::Value;

use crate::config::EtcdConfig;
use crate::retry::{Failure, retry, unavailable};

/// The largest message accepted from etcd: a page of a list may be large
/// (the apiserver lifts gRPC's 4 MiB default too).
const MAX_MESSAGE: usize = 1 << 30;

/// How many objects [`Storage::list`] reads per request (the whole
/// prefix is read page by page, at one revision).
const LIST_CHUNK: usize = 10_000;

/// The registry's [`Storage`] on etcd v3: keys under a prefix,
/// resourceVersion = `mod_revision`, compare-and-swap transactions,
/// ranged reads at a revision, and watches (see the [crate] docs).
///
/// Cheap to clone: clones share one client (one connection per member).
/// When the last clone is dropped, its watches end and its compactor
/// stops.
#[derive(Clone)]
pub struct EtcdStorage {
    pub(crate) inner: Arc<Inner>,
    /// Dropped with the last clone: its receivers (watches, the
    /// compactor) end then. (Not in `Inner`, which they hold.)
    pub(crate) shutdown: Arc<tokio::sync::watch::Sender<()>>,
}

pub(crate) struct Inner {
    pub(crate) kv: KvClient,
    pub(crate) watch: WatchClient,
    /// The prefix, without its trailing `/`.
    pub(crate) root: String,
    pub(crate) timeout: Duration,
    /// The highest revision this storage compacted etcd to (or saw
    /// compacted): what a `TooOld` reports as the oldest revision kept.
    pub(crate) compacted: AtomicU64,
    /// The shared etcd watches, by prefix.
    pub(crate) hubs: crate::hub::Hubs,
}

impl std::fmt::Debug for EtcdStorage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EtcdStorage")
            .field("prefix", &self.inner.root)
            .field("request_timeout", &self.inner.timeout)
            .finish_non_exhaustive()
    }
}

/// Reads a PEM file of the TLS configuration.
fn read_pem(path: &std::path::Path, what: &str) -> Result<Vec<u8>, StorageError> {
    std::fs::read(path)
        .map_err(|e| StorageError::Internal(format!("etcd {what} {}: {e}", path.display())))
}

impl EtcdStorage {
    /// A storage on the etcd members of `config`. Connections are made
    /// when first used: this fails only for a configuration that cannot
    /// work (no endpoint, an unreadable certificate, a bad URL); ask
    /// [`EtcdStorage::check`] whether etcd answers.
    pub async fn connect(config: EtcdConfig) -> Result<EtcdStorage, StorageError> {
        if config.endpoints.is_empty() {
            return Err(StorageError::Internal("etcd: no endpoints".into()));
        }
        let mut options = ConnectOptions::new()
            .with_connect_timeout(config.request_timeout)
            // Finds a dead connection under an idle watch (the
            // apiserver's keepalive: 30 s, 10 s).
            .with_keep_alive(Duration::from_secs(30), Duration::from_secs(10));
        if config.uses_tls() {
            let mut tls = TlsOptions::new();
            if let Some(ca) = &config.ca_file {
                tls = tls.ca_certificate(Certificate::from_pem(read_pem(ca, "CA file")?));
            }
            match (&config.cert_file, &config.key_file) {
                (Some(cert), Some(key)) => {
                    tls = tls.identity(Identity::from_pem(
                        read_pem(cert, "certificate file")?,
                        read_pem(key, "key file")?,
                    ));
                }
                (None, None) => {}
                _ => {
                    return Err(StorageError::Internal(
                        "etcd: a client certificate needs both a certificate and a key file".into(),
                    ));
                }
            }
            options = options.with_tls(tls);
        }
        let client = tokio::time::timeout(
            config.request_timeout,
            Client::connect(&config.endpoints, Some(options)),
        )
        .await
        .map_err(|_| unavailable("connect", "timed out"))?
        .map_err(|e| StorageError::Internal(format!("etcd: {e}")))?;
        Ok(EtcdStorage::from_client(client, &config))
    }

    /// A storage over an etcd client connected elsewhere (its TLS and
    /// endpoints are the client's; `config` gives the prefix and the
    /// timeout).
    pub fn from_client(client: Client, config: &EtcdConfig) -> EtcdStorage {
        let (shutdown, _) = tokio::sync::watch::channel(());
        EtcdStorage {
            inner: Arc::new(Inner {
                kv: client.kv_client().max_decoding_message_size(MAX_MESSAGE),
                watch: client.watch_client().max_decoding_message_size(MAX_MESSAGE),
                root: config.root(),
                timeout: config.request_timeout,
                compacted: AtomicU64::new(0),
                hubs: crate::hub::Hubs::default(),
            }),
            shutdown: Arc::new(shutdown),
        }
    }

    /// How many etcd watches this storage's watchers share now: one per
    /// prefix watched, however many watch it (a watcher from a revision
    /// older than the latest 100 changes gets one of its own, which
    /// this does not count).
    pub fn shared_watches(&self) -> usize {
        self.inner.hubs.running()
    }

    /// The key prefix, without its trailing `/`.
    pub fn prefix(&self) -> &str {
        &self.inner.root
    }

    /// Whether etcd answers a read within the request timeout: the
    /// `/readyz` check `etcd` (the apiserver reads `<prefix>/health`).
    pub async fn check(&self) -> Result<(), StorageError> {
        let key = format!("{}/health", self.inner.root);
        self.inner
            .read(key, GetOptions::new().with_count_only())
            .await
            .map(|_| ())
            .map_err(|f| f.into_storage("health check"))
    }
}

/// The smallest key after every key that starts with `prefix` (etcd's
/// range end of a prefix): the prefix with its last byte below `0xff`
/// incremented and what follows dropped; `[0]` (no end) when there is none.
pub(crate) fn range_end(prefix: &[u8]) -> Vec<u8> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            return end;
        }
    }
    vec![0]
}

/// A revision as etcd's signed one.
pub(crate) fn signed(revision: Revision) -> i64 {
    i64::try_from(revision).unwrap_or(i64::MAX)
}

/// etcd's revision as ours (never negative).
pub(crate) fn unsigned(revision: i64) -> Revision {
    Revision::try_from(revision).unwrap_or(0)
}

/// The revision a response was answered at.
fn header_revision(resp: &GetResponse) -> Revision {
    resp.header().map_or(0, |h| unsigned(h.revision()))
}

/// The value as stored: its JSON without `metadata.resourceVersion` (the
/// revision is the key's `mod_revision`, never stored).
pub(crate) fn strip_revision(mut value: Value) -> Value {
    if let Some(meta) = value.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("resourceVersion");
    }
    value
}

impl Inner {
    /// The etcd key of the registry's `key`. Keys start with `/`, so
    /// that one prefix is never the start of another's keys (`/a` + `/x`
    /// against `/ab` + `/x`).
    pub(crate) fn etcd_key(&self, key: &str) -> Result<String, StorageError> {
        if !key.starts_with('/') {
            return Err(StorageError::Internal(format!(
                "storage key {key:?} does not start with '/'"
            )));
        }
        Ok(format!("{}{key}", self.root))
    }

    /// The etcd key range of the registry's `prefix` (`""` is every key:
    /// the storage's prefix and `/`).
    pub(crate) fn etcd_range(&self, prefix: &str) -> Result<(Vec<u8>, Vec<u8>), StorageError> {
        let start = if prefix.is_empty() {
            format!("{}/", self.root)
        } else {
            self.etcd_key(prefix)?
        };
        let end = range_end(start.as_bytes());
        Ok((start.into_bytes(), end))
    }

    /// The registry's key of an etcd key under the prefix.
    pub(crate) fn registry_key(&self, key: &[u8]) -> Result<String, StorageError> {
        let key = std::str::from_utf8(key)
            .map_err(|_| StorageError::Internal("etcd key is not UTF-8".into()))?;
        key.strip_prefix(self.root.as_str())
            .map(str::to_string)
            .ok_or_else(|| StorageError::Internal(format!("etcd key {key:?} outside the prefix")))
    }

    pub(crate) fn decode(&self, key: &str, value: &[u8]) -> Result<Value, StorageError> {
        serde_json::from_slice(value)
            .map_err(|e| StorageError::Internal(format!("etcd value of {key} is not JSON: {e}")))
    }

    /// The stored object of a key-value pair read from etcd.
    pub(crate) fn stored(&self, kv: &KeyValue) -> Result<Stored, StorageError> {
        let key = self.registry_key(kv.key())?;
        let value = self.decode(&key, kv.value())?;
        Ok(Stored {
            key,
            value,
            revision: unsigned(kv.mod_revision()),
        })
    }

    /// What `TooOld` reports as the oldest revision still kept, for a
    /// request at `requested`: the compaction this storage knows of, or
    /// the revision after the one requested.
    pub(crate) fn oldest_hint(&self, requested: Revision) -> Revision {
        self.compacted
            .load(Ordering::Relaxed)
            .max(requested.saturating_add(1))
    }

    /// A ranged read, retried while etcd is unavailable.
    pub(crate) async fn read(
        &self,
        key: impl Into<Vec<u8>>,
        options: GetOptions,
    ) -> Result<GetResponse, Failure> {
        let key = key.into();
        retry(self.timeout, || {
            let mut kv = self.kv.clone();
            let (key, options) = (key.clone(), options.clone());
            async move { kv.get(key, Some(options)).await }
        })
        .await
    }

    /// A transaction, retried while etcd is unavailable. (A retried
    /// write whose first attempt was applied, its answer lost, fails its
    /// comparison: a create reports `AlreadyExists`, an update
    /// `Conflict`, as the apiserver's would.)
    pub(crate) async fn txn(&self, txn: Txn) -> Result<etcd_client::TxnResponse, Failure> {
        retry(self.timeout, || {
            let mut kv = self.kv.clone();
            let txn = txn.clone();
            async move { kv.txn(txn).await }
        })
        .await
    }

    async fn get(&self, key: &str) -> Result<Stored, StorageError> {
        let resp = self
            .read(self.etcd_key(key)?, GetOptions::new())
            .await
            .map_err(|f| f.into_storage("get"))?;
        match resp.kvs().first() {
            Some(kv) => self.stored(kv),
            None => Err(StorageError::NotFound(key.to_string())),
        }
    }

    async fn list(&self, prefix: &str) -> Result<(Vec<Stored>, Revision), StorageError> {
        // A compaction between two chunks makes the list start over (a
        // whole list is never `TooOld`); twice is unlucky, three times
        // is reported.
        let mut attempts = 0;
        'list: loop {
            attempts += 1;
            let mut request = ListRequest {
                from_key: None,
                limit: Some(LIST_CHUNK),
                revision: None,
            };
            let mut items = Vec::new();
            loop {
                let page = match self.list_page(prefix, &request).await {
                    Err(StorageError::TooOld { .. }) if attempts < 3 => continue 'list,
                    page => page?,
                };
                let more = page.more;
                items.extend(page.items);
                let Some(last) = items.last().filter(|_| more) else {
                    return Ok((items, page.revision));
                };
                request.from_key = Some(format!("{}\0", last.key));
                request.revision = Some(page.revision);
            }
        }
    }

    async fn list_page(
        &self,
        prefix: &str,
        request: &ListRequest,
    ) -> Result<ListPage, StorageError> {
        let (mut start, end) = self.etcd_range(prefix)?;
        if let Some(from) = &request.from_key
            && from.as_str() > prefix
        {
            start = self.etcd_key(from)?.into_bytes();
        }
        let mut options = GetOptions::new().with_range(end);
        match request.limit {
            // etcd's limit 0 is "no limit".
            Some(0) => options = options.with_count_only(),
            Some(limit) => options = options.with_limit(i64::try_from(limit).unwrap_or(i64::MAX)),
            None => {}
        }
        let at = request.revision.filter(|r| *r > 0);
        let resp = match at {
            Some(revision) => {
                match self
                    .read(
                        start.clone(),
                        options.clone().with_revision(signed(revision)),
                    )
                    .await
                {
                    Ok(resp) => Ok((resp, Some(revision))),
                    Err(f) if f.is_compacted() => {
                        return Err(StorageError::TooOld {
                            requested: revision,
                            oldest: self.oldest_hint(revision),
                        });
                    }
                    // A revision etcd has not reached reads the current
                    // one, as `MemoryStorage` does.
                    Err(f) if f.is_future_revision() => {
                        self.read(start, options).await.map(|r| (r, None))
                    }
                    Err(f) => Err(f),
                }
            }
            None => self.read(start, options).await.map(|r| (r, None)),
        };
        let (resp, at) = resp.map_err(|f| f.into_storage("list"))?;
        let items = resp
            .kvs()
            .iter()
            .map(|kv| self.stored(kv))
            .collect::<Result<Vec<_>, _>>()?;
        let remaining = unsigned(resp.count()).saturating_sub(items.len() as u64);
        Ok(ListPage {
            revision: at.unwrap_or_else(|| header_revision(&resp)),
            more: remaining > 0,
            remaining,
            items,
        })
    }

    async fn create(&self, key: &str, value: Value) -> Result<Stored, StorageError> {
        let etcd_key = self.etcd_key(key)?;
        let value = strip_revision(value);
        let bytes = serde_json::to_vec(&value)
            .map_err(|e| StorageError::Internal(format!("object does not encode: {e}")))?;
        let txn = Txn::new()
            .when([Compare::create_revision(
                etcd_key.clone(),
                CompareOp::Equal,
                0,
            )])
            .and_then([TxnOp::put(etcd_key, bytes, None)]);
        let resp = self.txn(txn).await.map_err(|f| f.into_storage("create"))?;
        if !resp.succeeded() {
            return Err(StorageError::AlreadyExists(key.to_string()));
        }
        Ok(Stored {
            key: key.to_string(),
            value,
            revision: resp.header().map_or(0, |h| unsigned(h.revision())),
        })
    }

    /// The error of a comparison on `key` at `expected` that failed: the
    /// key's state (read in the transaction's else branch) says whether
    /// it is gone or changed.
    fn compare_failed(
        &self,
        key: &str,
        expected: Revision,
        resp: &etcd_client::TxnResponse,
    ) -> StorageError {
        let current = resp.op_responses().into_iter().find_map(|r| match r {
            TxnOpResponse::Get(get) => Some(get.kvs().first().map(KeyValue::mod_revision)),
            _ => None,
        });
        match current {
            Some(Some(actual)) => StorageError::Conflict {
                key: key.to_string(),
                expected,
                actual: unsigned(actual),
            },
            _ => StorageError::NotFound(key.to_string()),
        }
    }

    /// The comparisons of a write at `expected`: the key exists and was
    /// last changed at `expected`.
    fn unchanged_since(etcd_key: &str, expected: Revision) -> [Compare; 2] {
        [
            Compare::create_revision(etcd_key, CompareOp::Greater, 0),
            Compare::mod_revision(etcd_key, CompareOp::Equal, signed(expected)),
        ]
    }

    async fn update(
        &self,
        key: &str,
        value: Value,
        expected: Revision,
    ) -> Result<Stored, StorageError> {
        let etcd_key = self.etcd_key(key)?;
        let value = strip_revision(value);
        let bytes = serde_json::to_vec(&value)
            .map_err(|e| StorageError::Internal(format!("object does not encode: {e}")))?;
        let txn = Txn::new()
            .when(Self::unchanged_since(&etcd_key, expected))
            .and_then([TxnOp::put(etcd_key.clone(), bytes, None)])
            .or_else([TxnOp::get(etcd_key, None)]);
        let resp = self.txn(txn).await.map_err(|f| f.into_storage("update"))?;
        if !resp.succeeded() {
            return Err(self.compare_failed(key, expected, &resp));
        }
        Ok(Stored {
            key: key.to_string(),
            value,
            revision: resp.header().map_or(0, |h| unsigned(h.revision())),
        })
    }

    async fn delete(&self, key: &str, expected: Option<Revision>) -> Result<Stored, StorageError> {
        let etcd_key = self.etcd_key(key)?;
        let delete = TxnOp::delete(etcd_key.clone(), Some(DeleteOptions::new().with_prev_key()));
        let txn = match expected {
            Some(expected) => Txn::new()
                .when(Self::unchanged_since(&etcd_key, expected))
                .and_then([delete])
                .or_else([TxnOp::get(etcd_key, None)]),
            None => Txn::new()
                .when([Compare::create_revision(
                    etcd_key.clone(),
                    CompareOp::Greater,
                    0,
                )])
                .and_then([delete])
                .or_else([TxnOp::get(etcd_key, None)]),
        };
        let resp = self.txn(txn).await.map_err(|f| f.into_storage("delete"))?;
        if !resp.succeeded() {
            return Err(self.compare_failed(key, expected.unwrap_or(0), &resp));
        }
        let last = resp.op_responses().into_iter().find_map(|r| match r {
            TxnOpResponse::Delete(mut d) => d.take_prev_kvs().into_iter().next(),
            _ => None,
        });
        let Some(last) = last else {
            return Err(StorageError::NotFound(key.to_string()));
        };
        Ok(Stored {
            key: key.to_string(),
            value: self.decode(key, last.value())?,
            revision: resp.header().map_or(0, |h| unsigned(h.revision())),
        })
    }

    async fn revision(&self) -> Result<Revision, StorageError> {
        let resp = self
            .read(self.root.clone() + "/", GetOptions::new().with_count_only())
            .await
            .map_err(|f| f.into_storage("revision"))?;
        Ok(header_revision(&resp))
    }
}

impl Storage for EtcdStorage {
    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(self.inner.get(key))
    }

    fn list<'a>(
        &'a self,
        prefix: &'a str,
    ) -> BoxFuture<'a, Result<(Vec<Stored>, Revision), StorageError>> {
        Box::pin(self.inner.list(prefix))
    }

    fn list_page<'a>(
        &'a self,
        prefix: &'a str,
        request: &'a ListRequest,
    ) -> BoxFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(self.inner.list_page(prefix, request))
    }

    fn create<'a>(
        &'a self,
        key: &'a str,
        value: Value,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(self.inner.create(key, value))
    }

    fn update<'a>(
        &'a self,
        key: &'a str,
        value: Value,
        expected: Revision,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(self.inner.update(key, value, expected))
    }

    fn delete<'a>(
        &'a self,
        key: &'a str,
        expected: Option<Revision>,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(self.inner.delete(key, expected))
    }

    fn watch<'a>(
        &'a self,
        prefix: &'a str,
        from: Revision,
    ) -> BoxFuture<'a, Result<Watch, StorageError>> {
        Box::pin(crate::hub::watch(
            self.inner.clone(),
            self.shutdown.subscribe(),
            prefix,
            from,
        ))
    }

    fn revision(&self) -> BoxFuture<'_, Result<Revision, StorageError>> {
        Box::pin(self.inner.revision())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn range_ends() {
        assert_eq!(range_end(b"/a/"), b"/a0");
        assert_eq!(range_end(b"a\xff"), b"b");
        assert_eq!(range_end(b"\xff\xff"), [0]);
    }

    #[test]
    fn the_resource_version_is_not_stored() {
        let v = json!({"metadata": {"name": "a", "resourceVersion": "7"}, "spec": {}});
        assert_eq!(
            strip_revision(v),
            json!({"metadata": {"name": "a"}, "spec": {}})
        );
        assert_eq!(strip_revision(json!(1)), json!(1));
    }
}
