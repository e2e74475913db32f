//! Tests of the storage trait's defaults and of `MemoryStorage`.
use super::*;
use serde_json::json;

#[tokio::test]
async fn revisions_and_compare_and_swap() {
    let s = MemoryStorage::new();
    let a = s.create("/a", json!(1)).await.unwrap();
    assert_eq!(a.revision, 1);
    assert_eq!(
        s.create("/a", json!(2)).await,
        Err(StorageError::AlreadyExists("/a".into()))
    );
    let b = s.update("/a", json!(2), 1).await.unwrap();
    assert_eq!(b.revision, 2);
    assert!(matches!(
        s.update("/a", json!(3), 1).await,
        Err(StorageError::Conflict {
            expected: 1,
            actual: 2,
            ..
        })
    ));
    assert_eq!(s.get("/a").await.unwrap().value, json!(2));
    assert!(matches!(
        s.delete("/a", Some(1)).await,
        Err(StorageError::Conflict { .. })
    ));
    assert_eq!(s.delete("/a", Some(2)).await.unwrap().value, json!(2));
    assert!(matches!(s.get("/a").await, Err(StorageError::NotFound(_))));
    assert_eq!(s.revision().await, Ok(3));
}

#[tokio::test]
async fn lists_by_prefix_in_key_order() {
    let s = MemoryStorage::new();
    for k in ["/x/b", "/x/a", "/y/a", "/x"] {
        s.create(k, json!(k)).await.unwrap();
    }
    let (items, rev) = s.list("/x/").await.unwrap();
    assert_eq!(
        items.iter().map(|i| i.key.as_str()).collect::<Vec<_>>(),
        ["/x/a", "/x/b"]
    );
    assert_eq!(rev, 4);
}

fn keys(page: &ListPage) -> Vec<(&str, Revision)> {
    page.items
        .iter()
        .map(|s| (s.key.as_str(), s.revision))
        .collect()
}

#[tokio::test]
async fn pages_read_one_revision_while_the_store_changes() {
    let s = MemoryStorage::new();
    for k in ["/p/a", "/p/b", "/p/c", "/p/d", "/q/a"] {
        s.create(k, json!(k)).await.unwrap();
    }
    let first = s
        .list_page(
            "/p/",
            &ListRequest {
                limit: Some(2),
                ..ListRequest::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(keys(&first), [("/p/a", 1), ("/p/b", 2)]);
    assert_eq!((first.revision, first.more, first.remaining), (5, true, 2));
    // Changes after the first page: a new key before and after the
    // page boundary, a change and a deletion of keys still to come.
    s.create("/p/bb", json!(0)).await.unwrap();
    s.create("/p/e", json!(0)).await.unwrap();
    s.update("/p/c", json!("changed"), 3).await.unwrap();
    s.delete("/p/d", None).await.unwrap();
    let rest = ListRequest {
        from_key: Some("/p/b\0".into()),
        revision: Some(first.revision),
        limit: None,
    };
    let second = s.list_page("/p/", &rest).await.unwrap();
    assert_eq!(keys(&second), [("/p/c", 3), ("/p/d", 4)]);
    assert_eq!(second.items[0].value, json!("/p/c"));
    assert_eq!((second.revision, second.more), (5, false));
    // The same range now.
    let now = s
        .list_page(
            "/p/",
            &ListRequest {
                from_key: Some("/p/b\0".into()),
                ..ListRequest::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(keys(&now), [("/p/bb", 6), ("/p/c", 8), ("/p/e", 7)]);
    assert_eq!(now.revision, 9);
    // A limit counts what remains at the old revision.
    let one = ListRequest {
        limit: Some(1),
        ..rest
    };
    let page = s.list_page("/p/", &one).await.unwrap();
    assert_eq!(keys(&page), [("/p/c", 3)]);
    assert_eq!((page.more, page.remaining), (true, 1));
}

#[tokio::test]
async fn a_page_at_a_revision_the_history_left_is_too_old() {
    let s = MemoryStorage::with_history(2);
    for k in ["/p/a", "/p/b", "/p/c"] {
        s.create(k, json!(1)).await.unwrap();
    }
    let at = |revision| ListRequest {
        revision: Some(revision),
        ..ListRequest::default()
    };
    // Changes 2 and 3 are kept: revision 1 can be restored, 0 cannot.
    assert_eq!(
        keys(&s.list_page("/p/", &at(1)).await.unwrap()),
        [("/p/a", 1)]
    );
    assert_eq!(
        s.list_page("/p/", &at(0)).await,
        Err(StorageError::TooOld {
            requested: 0,
            oldest: 1
        })
    );
    // The current revision is always there.
    assert_eq!(s.list_page("/p/", &at(3)).await.unwrap().items.len(), 3);
}

#[tokio::test]
async fn the_default_page_reads_the_current_revision_only() {
    /// A storage that only implements `list`.
    struct Plain(MemoryStorage);
    impl Storage for Plain {
        fn get<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<Stored, StorageError>> {
            self.0.get(key)
        }
        fn list<'a>(
            &'a self,
            prefix: &'a str,
        ) -> BoxFuture<'a, Result<(Vec<Stored>, Revision), StorageError>> {
            self.0.list(prefix)
        }
        fn create<'a>(
            &'a self,
            key: &'a str,
            value: Value,
        ) -> BoxFuture<'a, Result<Stored, StorageError>> {
            self.0.create(key, value)
        }
        fn update<'a>(
            &'a self,
            key: &'a str,
            value: Value,
            expected: Revision,
        ) -> BoxFuture<'a, Result<Stored, StorageError>> {
            self.0.update(key, value, expected)
        }
        fn delete<'a>(
            &'a self,
            key: &'a str,
            expected: Option<Revision>,
        ) -> BoxFuture<'a, Result<Stored, StorageError>> {
            self.0.delete(key, expected)
        }
        fn watch<'a>(
            &'a self,
            prefix: &'a str,
            from: Revision,
        ) -> BoxFuture<'a, Result<Watch, StorageError>> {
            self.0.watch(prefix, from)
        }
        fn revision(&self) -> BoxFuture<'_, Result<Revision, StorageError>> {
            self.0.revision()
        }
    }
    let s = Plain(MemoryStorage::new());
    for k in ["/p/a", "/p/b", "/p/c"] {
        s.create(k, json!(1)).await.unwrap();
    }
    let request = ListRequest {
        from_key: Some("/p/a\0".into()),
        limit: Some(1),
        revision: Some(3),
    };
    let page = s.list_page("/p/", &request).await.unwrap();
    assert_eq!(keys(&page), [("/p/b", 2)]);
    assert_eq!((page.more, page.remaining), (true, 1));
    s.delete("/p/c", None).await.unwrap();
    assert!(matches!(
        s.list_page("/p/", &request).await,
        Err(StorageError::TooOld { requested: 3, .. })
    ));
}

#[tokio::test]
async fn watches_replay_history_and_follow() {
    let s = MemoryStorage::with_history(3);
    s.create("/p/a", json!(1)).await.unwrap();
    s.create("/q/a", json!(1)).await.unwrap();
    let mut w = s.watch("/p/", 0).await.unwrap();
    s.update("/p/a", json!(2), 1).await.unwrap();
    s.delete("/p/a", None).await.unwrap();
    let kinds: Vec<_> = std::iter::from_fn(|| w.try_next())
        .map(|e| e.map(|e| (e.kind, e.object.revision)))
        .collect::<Result<_, _>>()
        .unwrap();
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
        s.watch("/p/", 0).await,
        Err(StorageError::TooOld {
            requested: 0,
            oldest: 1
        })
    ));
    assert!(s.watch("/p/", 2).await.is_ok());
    assert!(s.watch("/p/", 4).await.is_ok());
    // A watch waits for the next change.
    let mut w = s.watch("/p/", 4).await.unwrap();
    assert!(w.try_next().is_none());
    let next = tokio::spawn(async move { w.next().await });
    s.create("/p/b", json!(1)).await.unwrap();
    let event = next.await.unwrap().unwrap().unwrap();
    assert_eq!(
        (event.kind, event.object.key.as_str()),
        (EventType::Added, "/p/b")
    );
}

/// An unreachable storage is the apiserver's `ServerTimeout` (500, with
/// `retryAfterSeconds`: client-go retries it), not a bare 500.
#[test]
fn an_unavailable_storage_is_a_server_timeout() {
    let status = StorageError::Unavailable("etcd unavailable: get: connection refused".into())
        .into_status(GroupResource::new("example.com", "widgets"), "w");
    assert_eq!(status.code, 500);
    assert_eq!(status.reason.as_str(), "ServerTimeout");
    assert_eq!(
        status.message,
        "The storage operation against widgets.example.com could not be completed at this time, please try again."
    );
    assert_eq!(status.details.unwrap().retry_after_seconds, 2);
}
