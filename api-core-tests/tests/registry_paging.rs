//! Paged lists through the registry, against the etcd3 store's semantics
//! (k8s.io/apiserver `storage/etcd3/store.go` `GetList` and the storage
//! tests' `RunTestList`/`RunTestConsistentList` scenarios): every page of
//! a list reads the revision of its first page while the store changes
//! under it; `resourceVersionMatch=Exact` reads an older revision; a
//! continuation whose revision the store no longer keeps is the
//! apiserver's 410 with a token that continues at the current revision;
//! a selector's misses are made up by reading on; and a page reads only
//! what it returns from storage.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use api_core::prelude::*;
use api_core::registry::storage::Stored;
use api_core::registry::{
    BoxFuture, DefaultStrategy, EXPIRED, INCONSISTENT_CONTINUE, ListOptions, ListPage, ListRequest,
    MemoryStorage, Registry, ResourceVersionMatch, Revision, Storage, StorageError,
};
use examples::memcached::{Memcached, MemcachedSpec};

fn mc(name: &str, app: &str) -> Memcached {
    let mut obj = Memcached::new(name, MemcachedSpec { size: None });
    obj.metadata.labels.insert("app".into(), app.into());
    obj
}

fn names(list: &List<Memcached>) -> Vec<&str> {
    list.items
        .iter()
        .map(|o| o.metadata.name.as_str())
        .collect()
}

fn page(limit: usize, token: &str) -> ListOptions {
    ListOptions {
        limit: Some(limit),
        continue_token: (!token.is_empty()).then(|| token.to_string()),
        ..ListOptions::default()
    }
}

async fn filled(storage: Arc<dyn Storage>, count: usize) -> Registry<Memcached> {
    let registry = Registry::<Memcached>::with_storage(DefaultStrategy, storage);
    for i in 0..count {
        let app = if i % 10 == 0 { "rare" } else { "common" };
        registry
            .create("default", mc(&format!("mc-{i:04}"), app))
            .await
            .unwrap();
    }
    registry
}

#[tokio::test]
async fn every_page_shows_the_first_pages_revision() {
    let registry = filled(Arc::new(MemoryStorage::new()), 6).await;
    let first = registry.list("", &page(2, "")).await.unwrap();
    assert_eq!(names(&first), ["mc-0000", "mc-0001"]);
    assert_eq!(first.metadata.resource_version, "6");
    assert_eq!(first.metadata.remaining_item_count, Some(4));

    // The store changes between the pages: a new object within the
    // remaining range, one changed and one deleted there.
    registry
        .create("default", mc("mc-0002a", "common"))
        .await
        .unwrap();
    let mut changed = registry.get("default", "mc-0003").await.unwrap();
    changed.spec.size = Some(3);
    registry.update("default", changed).await.unwrap();
    registry
        .delete("default", "mc-0004", &Default::default())
        .await
        .unwrap();

    let second = registry
        .list("", &page(2, &first.metadata.continue_))
        .await
        .unwrap();
    assert_eq!(names(&second), ["mc-0002", "mc-0003"]);
    assert_eq!(second.metadata.resource_version, "6");
    assert_eq!(
        second.items[1].spec.size,
        Some(1),
        "the state at revision 6"
    );
    assert_eq!(second.items[1].metadata.resource_version, "4");
    let third = registry
        .list("", &page(2, &second.metadata.continue_))
        .await
        .unwrap();
    assert_eq!(names(&third), ["mc-0004", "mc-0005"]);
    assert_eq!(third.metadata.continue_, "");
    assert_eq!(third.metadata.remaining_item_count, None);

    // A new list sees the changes.
    let now = registry.list("", &ListOptions::default()).await.unwrap();
    assert_eq!(
        names(&now),
        [
            "mc-0000", "mc-0001", "mc-0002", "mc-0002a", "mc-0003", "mc-0005"
        ]
    );
    assert_eq!(now.metadata.resource_version, "9");
}

#[tokio::test]
async fn exact_reads_an_older_revision_until_the_store_forgets_it() {
    let registry = filled(Arc::new(MemoryStorage::with_history(3)), 3).await;
    let exact = |rv: &str| ListOptions {
        resource_version: Some(rv.into()),
        resource_version_match: Some(ResourceVersionMatch::Exact),
        ..ListOptions::default()
    };
    let at_two = registry.list("", &exact("2")).await.unwrap();
    assert_eq!(names(&at_two), ["mc-0000", "mc-0001"]);
    assert_eq!(at_two.metadata.resource_version, "2");
    // NotOlderThan (and no match) serve the current state.
    let not_older = ListOptions {
        resource_version: Some("2".into()),
        ..ListOptions::default()
    };
    assert_eq!(registry.list("", &not_older).await.unwrap().items.len(), 3);

    for i in 0..3 {
        registry
            .create("default", mc(&format!("late-{i}"), "x"))
            .await
            .unwrap();
    }
    let err = registry.list("", &exact("2")).await.unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (410, "Expired"));
    assert_eq!(err.message, EXPIRED);

    // Newer than the store: the apiserver's 504.
    let err = registry.list("", &exact("99")).await.unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (504, "Timeout"));
    assert_eq!(
        err.message,
        "Timeout: Too large resource version: 99, current: 6"
    );
    let cause = &err.details.as_ref().unwrap().causes[0];
    assert_eq!(cause.reason, "ResourceVersionTooLarge");
}

#[tokio::test]
async fn a_continuation_past_the_history_is_410_with_a_token_that_goes_on() {
    let registry = filled(Arc::new(MemoryStorage::with_history(4)), 4).await;
    let first = registry.list("", &page(2, "")).await.unwrap();
    for i in 0..5 {
        registry
            .create("default", mc(&format!("mc-1{i:03}"), "x"))
            .await
            .unwrap();
    }
    let err = registry
        .list("", &page(2, &first.metadata.continue_))
        .await
        .unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (410, "Expired"));
    assert_eq!(err.message, INCONSISTENT_CONTINUE);
    assert!(!err.metadata.continue_.is_empty());
    // The token in the 410 continues at the current revision, from where
    // the first page stopped.
    let rest = registry
        .list("", &page(100, &err.metadata.continue_))
        .await
        .unwrap();
    assert_eq!(rest.metadata.resource_version, "9");
    assert_eq!(rest.items.len(), 7);
    assert_eq!(rest.items[0].metadata.name, "mc-0002");

    // A resourceVersion beside a token is refused, as the apiserver does.
    let both = ListOptions {
        resource_version: Some("9".into()),
        ..page(2, &first.metadata.continue_)
    };
    let err = registry.list("", &both).await.unwrap_err();
    assert_eq!(err.code, 400);
    assert_eq!(
        err.message,
        "specifying resource version is not allowed when using continue"
    );
}

/// A storage that pages with `MemoryStorage` and counts the objects it
/// hands out; reading a whole prefix is a failure of the test.
struct Counting {
    inner: MemoryStorage,
    read: AtomicUsize,
    /// The most objects one read handed out.
    largest: AtomicUsize,
}

impl api_core::registry::Forwarding for Counting {
    fn inner(&self) -> &dyn Storage {
        &self.inner
    }
    fn list<'a>(
        &'a self,
        _prefix: &'a str,
    ) -> BoxFuture<'a, Result<(Vec<Stored>, Revision), StorageError>> {
        Box::pin(std::future::ready(Err(StorageError::Internal(
            "a paged list read a whole prefix".into(),
        ))))
    }
    fn list_page<'a>(
        &'a self,
        prefix: &'a str,
        request: &'a ListRequest,
    ) -> BoxFuture<'a, Result<ListPage, StorageError>> {
        Box::pin(async move {
            let page = self.inner.list_page(prefix, request).await?;
            self.read.fetch_add(page.items.len(), Ordering::SeqCst);
            self.largest.fetch_max(page.items.len(), Ordering::SeqCst);
            Ok(page)
        })
    }
}

#[tokio::test]
async fn a_page_reads_what_it_returns_and_a_selector_reads_on() {
    let storage = Arc::new(Counting {
        inner: MemoryStorage::new(),
        read: AtomicUsize::new(0),
        largest: AtomicUsize::new(0),
    });
    let registry = filled(storage.clone(), 1000).await;
    let first = registry.list("default", &page(5, "")).await.unwrap();
    assert_eq!(first.items.len(), 5);
    assert_eq!(first.metadata.remaining_item_count, Some(995));
    assert_eq!(storage.read.swap(0, Ordering::SeqCst), 5);

    // One object in ten is "rare": a page of 5 of them reads on through
    // doubling reads (5, 10, 20, 40) until it has five, and no further.
    let rare = ListOptions {
        label_selector: Some("app=rare".into()),
        ..page(5, "")
    };
    let found = registry.list("default", &rare).await.unwrap();
    assert_eq!(
        names(&found),
        ["mc-0000", "mc-0010", "mc-0020", "mc-0030", "mc-0040"]
    );
    assert_eq!(found.metadata.remaining_item_count, None);
    let read = storage.read.swap(0, Ordering::SeqCst);
    assert!((41..=75).contains(&read), "read {read}");
    // The next page starts after the last object examined.
    let next = registry
        .list(
            "default",
            &ListOptions {
                continue_token: Some(found.metadata.continue_.clone()),
                ..rare
            },
        )
        .await
        .unwrap();
    assert_eq!(
        names(&next),
        ["mc-0050", "mc-0060", "mc-0070", "mc-0080", "mc-0090"]
    );

    // Every page of 100 covers all 1000 exactly once.
    let mut seen = 0;
    let mut token = String::new();
    loop {
        let list = registry.list("default", &page(100, &token)).await.unwrap();
        seen += list.items.len();
        token = list.metadata.continue_;
        if token.is_empty() {
            break;
        }
    }
    assert_eq!(seen, 1000);
}

/// A list without a limit is read from storage in chunks of 10,000
/// (etcd3's `maxLimit`), all at the first chunk's revision (the paging
/// tests above check what a revision shows), and returns every object
/// without a continue token: 25,000 objects come in three reads, none
/// larger than 10,000.
#[tokio::test]
async fn a_list_without_a_limit_reads_in_chunks_at_one_revision() {
    let storage = Arc::new(Counting {
        inner: MemoryStorage::new(),
        read: AtomicUsize::new(0),
        largest: AtomicUsize::new(0),
    });
    let registry = Registry::<Memcached>::with_storage(DefaultStrategy, storage.clone());
    // Straight into storage: 25,000 registry creates are slow in a debug
    // build, and a list only reads what is stored.
    let template = serde_json::to_value(
        registry
            .create("default", mc("mc-00000", "a"))
            .await
            .unwrap()
            .object,
    )
    .unwrap();
    for i in 1..25_000 {
        let name = format!("mc-{i:05}");
        let mut value = template.clone();
        value["metadata"]["name"] = name.clone().into();
        value["metadata"]["uid"] = format!("uid-{i}").into();
        value["metadata"]
            .as_object_mut()
            .unwrap()
            .remove("resourceVersion");
        storage
            .inner
            .create(&registry.kind_info().key("default", &name), value)
            .await
            .unwrap();
    }
    let all = registry
        .list("default", &ListOptions::default())
        .await
        .unwrap();
    assert_eq!(all.items.len(), 25_000);
    assert!(all.metadata.continue_.is_empty());
    assert_eq!(all.metadata.remaining_item_count, None);
    assert_eq!(storage.read.swap(0, Ordering::SeqCst), 25_000);
    assert_eq!(storage.largest.load(Ordering::SeqCst), 10_000);
    let revision: u64 = all.metadata.resource_version.parse().unwrap();
    assert!(
        all.items
            .iter()
            .all(|m| m.metadata.resource_version.parse::<u64>().unwrap() <= revision)
    );
}
