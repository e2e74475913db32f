//! [`Forwarding`]: storage wrappers that change one or two operations.

use serde_json::Value;

use super::storage::{
    BoxFuture, ListPage, ListRequest, Revision, Storage, StorageError, Stored, Watch,
};

/// A storage that hands every operation to another ([`Forwarding::inner`]),
/// for wrappers that change one or two of them: a test's storage that
/// fails on purpose, a view that counts or records. Implement `Forwarding`,
/// override what differs, and the wrapper is a [`Storage`] (by the blanket
/// implementation), every operation it does not override reaching the
/// inner storage, [`Storage::list_page`] included.
///
/// The trait's operations have [`Storage`]'s names, so that an override
/// reads as the operation it changes: write the impl with the trait's
/// path (`impl registry::Forwarding for ...`) rather than importing it,
/// and calls on the wrapper stay [`Storage`]'s, unambiguous.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use api_core::registry::{self, BoxFuture, MemoryStorage, Storage, StorageError};
/// use api_core::registry::storage::Stored;
/// use serde_json::Value;
///
/// /// Counts the creates.
/// struct Counting {
///     inner: MemoryStorage,
///     creates: AtomicUsize,
/// }
///
/// impl registry::Forwarding for Counting {
///     fn inner(&self) -> &dyn Storage {
///         &self.inner
///     }
///     fn create<'a>(&'a self, key: &'a str, value: Value) -> BoxFuture<'a, Result<Stored, StorageError>> {
///         self.creates.fetch_add(1, Ordering::SeqCst);
///         self.inner.create(key, value)
///     }
/// }
///
/// fn storage(s: Counting) -> Box<dyn Storage> {
///     Box::new(s)
/// }
/// # let _ = storage(Counting { inner: MemoryStorage::new(), creates: AtomicUsize::new(0) });
/// ```
pub trait Forwarding: Send + Sync {
    /// The storage the operations go to.
    fn inner(&self) -> &dyn Storage;

    /// [`Storage::get`]; forwarded by default.
    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Stored, StorageError>> {
        self.inner().get(key)
    }
    /// [`Storage::list`]; forwarded by default.
    fn list<'a>(
        &'a self,
        prefix: &'a str,
    ) -> BoxFuture<'a, Result<(Vec<Stored>, Revision), StorageError>> {
        self.inner().list(prefix)
    }
    /// [`Storage::list_page`]; forwarded by default.
    fn list_page<'a>(
        &'a self,
        prefix: &'a str,
        request: &'a ListRequest,
    ) -> BoxFuture<'a, Result<ListPage, StorageError>> {
        self.inner().list_page(prefix, request)
    }
    /// [`Storage::create`]; forwarded by default.
    fn create<'a>(
        &'a self,
        key: &'a str,
        value: Value,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        self.inner().create(key, value)
    }
    /// [`Storage::update`]; forwarded by default.
    fn update<'a>(
        &'a self,
        key: &'a str,
        value: Value,
        expected: Revision,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        self.inner().update(key, value, expected)
    }
    /// [`Storage::delete`]; forwarded by default.
    fn delete<'a>(
        &'a self,
        key: &'a str,
        expected: Option<Revision>,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        self.inner().delete(key, expected)
    }
    /// [`Storage::watch`]; forwarded by default.
    fn watch<'a>(
        &'a self,
        prefix: &'a str,
        from: Revision,
    ) -> BoxFuture<'a, Result<Watch, StorageError>> {
        self.inner().watch(prefix, from)
    }
    /// [`Storage::revision`]; forwarded by default.
    fn revision(&self) -> BoxFuture<'_, Result<Revision, StorageError>> {
        self.inner().revision()
    }
}

impl<T: Forwarding + ?Sized> Storage for T {
    fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Forwarding::get(self, key)
    }
    fn list<'a>(
        &'a self,
        prefix: &'a str,
    ) -> BoxFuture<'a, Result<(Vec<Stored>, Revision), StorageError>> {
        Forwarding::list(self, prefix)
    }
    fn list_page<'a>(
        &'a self,
        prefix: &'a str,
        request: &'a ListRequest,
    ) -> BoxFuture<'a, Result<ListPage, StorageError>> {
        Forwarding::list_page(self, prefix, request)
    }
    fn create<'a>(
        &'a self,
        key: &'a str,
        value: Value,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Forwarding::create(self, key, value)
    }
    fn update<'a>(
        &'a self,
        key: &'a str,
        value: Value,
        expected: Revision,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Forwarding::update(self, key, value, expected)
    }
    fn delete<'a>(
        &'a self,
        key: &'a str,
        expected: Option<Revision>,
    ) -> BoxFuture<'a, Result<Stored, StorageError>> {
        Forwarding::delete(self, key, expected)
    }
    fn watch<'a>(
        &'a self,
        prefix: &'a str,
        from: Revision,
    ) -> BoxFuture<'a, Result<Watch, StorageError>> {
        Forwarding::watch(self, prefix, from)
    }
    fn revision(&self) -> BoxFuture<'_, Result<Revision, StorageError>> {
        Forwarding::revision(self)
    }
}
