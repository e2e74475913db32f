//! [`DryRunStorage`]: a [`Storage`] that answers every write as the
//! storage under it would, and writes nothing (`dryRun=All`).

use std::sync::Arc;

use serde_json::Value;

use super::storage::{
    BoxFuture, ListPage, ListRequest, Revision, Storage, StorageError, Stored, Watch,
};

/// Reads go to the storage under it; a write is checked against it (the
/// key is free for a create, the revision matches for an update or a
/// delete) and answered with what would have been stored, without
/// storing it, as the apiserver's `DryRunnableStorage` does. A created
/// object comes back with revision 0 (no `resourceVersion`), an updated
/// one with the revision it had.
///
/// [`Registry::dry_run`](super::Registry::dry_run) wraps a registry's
/// storage in it, so that a dry run goes through every default, hook and
/// validation of the real write.
pub struct DryRunStorage {
    inner: Arc<dyn Storage>,
}

impl DryRunStorage {
    /// Dry runs over `inner`.
    pub fn new(inner: Arc<dyn Storage>) -> Self {
        DryRunStorage { inner }
    }

    async fn current(&self, key: &str, expected: Option<Revision>) -> Result<Stored, StorageError> {
        let current = self.inner.get(key).await?;
        match expected {
            Some(expected) if expected != current.revision => Err(StorageError::Conflict {
                key: key.to_string(),
                expected,
                actual: current.revision,
            }),
            _ => Ok(current),
        }
    }
}

impl Storage for DryRunStorage {
    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Stored, StorageError>> {
        self.inner.get(key)
    }

    fn list<'a>(
        &'a self,
        prefix: &'a str,
    ) -> BoxFuture<'a, Result<(Vec<Stored>, Revision), StorageError>> {
        self.inner.list(prefix)
    }

    fn list_page<'a>(
        &'a self,
        prefix: &'a str,
        request: &'a ListRequest,
    ) -> BoxFuture<'a, Result<ListPage, StorageError>> {
        self.inner.list_page(prefix, request)
    }

    fn create<'a>(
        &'a self,
        key: &'a str,
        value: Value,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(async move {
            match self.inner.get(key).await {
                Ok(_) => Err(StorageError::AlreadyExists(key.to_string())),
                Err(StorageError::NotFound(_)) => Ok(Stored {
                    key: key.to_string(),
                    value,
                    revision: 0,
                }),
                Err(e) => Err(e),
            }
        })
    }

    fn update<'a>(
        &'a self,
        key: &'a str,
        value: Value,
        expected: Revision,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(async move {
            let current = self.current(key, Some(expected)).await?;
            Ok(Stored {
                key: key.to_string(),
                value,
                revision: current.revision,
            })
        })
    }

    fn delete<'a>(
        &'a self,
        key: &'a str,
        expected: Option<Revision>,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Box::pin(self.current(key, expected))
    }

    fn watch<'a>(
        &'a self,
        prefix: &'a str,
        from: Revision,
    ) -> BoxFuture<'a, Result<Watch, StorageError>> {
        self.inner.watch(prefix, from)
    }

    fn revision(&self) -> BoxFuture<'_, Result<Revision, StorageError>> {
        self.inner.revision()
    }
}
