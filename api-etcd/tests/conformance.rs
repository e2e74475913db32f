//! One storage conformance suite, run against `MemoryStorage` and
//! `EtcdStorage` (on an etcd of its own per test; skipped without an etcd
//! binary unless `API_ETCD_REQUIRE=1`): the same test functions, so that
//! the registry cannot tell the storages apart. Revisions are relative
//! to the store's at the start (a fresh etcd is at revision 1, an empty
//! `MemoryStorage` at 0).

mod common;

use std::time::Duration;

use api_core::registry::storage::Stored;
use api_core::registry::{EventType, ListPage, ListRequest, Revision, StorageError};
use common::{Subject, next_event, no_event};
use serde_json::json;

/// Runs each test function once per storage: `memory::name` and
/// `etcd::name`, each bounded by `TEST_LIMIT`.
macro_rules! conformance {
    ($($name:ident),* $(,)?) => {
        mod memory {
            $(
                #[tokio::test]
                async fn $name() {
                    let subject = crate::Subject::memory();
                    tokio::time::timeout(crate::common::TEST_LIMIT, super::$name(subject))
                        .await
                        .expect("the test took too long");
                }
            )*
        }
        mod etcd {
            $(
                #[tokio::test]
                async fn $name() {
                    let Some(subject) = crate::Subject::etcd(stringify!($name)).await else {
                        return;
                    };
                    tokio::time::timeout(crate::common::TEST_LIMIT, super::$name(subject))
                        .await
                        .expect("the test took too long");
                }
            )*
        }
    };
}

conformance!(
    revisions_and_compare_and_swap,
    create_of_a_taken_key_is_already_exists,
    update_conflicts_and_missing_keys,
    delete_with_and_without_expected_revision,
    lists_by_prefix_in_key_order,
    prefixes_do_not_match_longer_names,
    list_at_a_revision,
    pages_read_one_revision_while_the_store_changes,
    continue_keys_walk_every_page_at_one_revision,
    a_page_at_a_compacted_revision_is_too_old,
    watches_replay_from_a_revision_and_follow,
    watch_events_carry_previous_values,
    a_watch_from_a_compacted_revision_is_too_old,
    a_progress_request_delivers_a_progress_event,
    watches_see_only_their_prefix,
);

fn keys(page: &ListPage) -> Vec<(&str, Revision)> {
    page.items
        .iter()
        .map(|s| (s.key.as_str(), s.revision))
        .collect()
}

fn names(items: &[Stored]) -> Vec<&str> {
    items.iter().map(|s| s.key.as_str()).collect()
}

async fn revisions_and_compare_and_swap(s: Subject) {
    let s = &s.storage;
    let base = s.revision().await.unwrap();
    let a = s.create("/a", json!(1)).await.unwrap();
    assert_eq!(a.revision, base + 1);
    assert_eq!(a.value, json!(1));
    let b = s.update("/a", json!(2), a.revision).await.unwrap();
    assert_eq!(b.revision, base + 2);
    assert_eq!(
        s.get("/a").await.unwrap(),
        Stored {
            key: "/a".into(),
            value: json!(2),
            revision: base + 2
        }
    );
    assert_eq!(
        s.delete("/a", Some(base + 2)).await.unwrap().value,
        json!(2)
    );
    assert_eq!(s.get("/a").await, Err(StorageError::NotFound("/a".into())));
    assert_eq!(s.revision().await, Ok(base + 3));
}

async fn create_of_a_taken_key_is_already_exists(s: Subject) {
    let s = &s.storage;
    let first = s.create("/k", json!({"a": 1})).await.unwrap();
    assert_eq!(
        s.create("/k", json!({"a": 2})).await,
        Err(StorageError::AlreadyExists("/k".into()))
    );
    // Nothing changed, and the revision did not move.
    assert_eq!(s.get("/k").await.unwrap(), first);
    assert_eq!(s.revision().await, Ok(first.revision));
    // A deleted key can be created again.
    s.delete("/k", None).await.unwrap();
    let again = s.create("/k", json!({"a": 3})).await.unwrap();
    assert_eq!(again.revision, first.revision + 2);
}

async fn update_conflicts_and_missing_keys(s: Subject) {
    let s = &s.storage;
    let a = s.create("/a", json!(1)).await.unwrap();
    let b = s.update("/a", json!(2), a.revision).await.unwrap();
    assert_eq!(
        s.update("/a", json!(3), a.revision).await,
        Err(StorageError::Conflict {
            key: "/a".into(),
            expected: a.revision,
            actual: b.revision,
        })
    );
    assert_eq!(s.get("/a").await.unwrap().value, json!(2));
    assert_eq!(
        s.update("/missing", json!(1), a.revision).await,
        Err(StorageError::NotFound("/missing".into()))
    );
    // Revision 0 is no key's: not a way to create one.
    assert_eq!(
        s.update("/missing", json!(1), 0).await,
        Err(StorageError::NotFound("/missing".into()))
    );
    assert_eq!(s.revision().await, Ok(b.revision));
}

async fn delete_with_and_without_expected_revision(s: Subject) {
    let s = &s.storage;
    let a = s.create("/a", json!("a")).await.unwrap();
    let b = s.create("/b", json!("b")).await.unwrap();
    let a2 = s.update("/a", json!("a2"), a.revision).await.unwrap();
    assert_eq!(
        s.delete("/a", Some(a.revision)).await,
        Err(StorageError::Conflict {
            key: "/a".into(),
            expected: a.revision,
            actual: a2.revision,
        })
    );
    let gone = s.delete("/a", Some(a2.revision)).await.unwrap();
    // The last state, at the deletion's revision.
    assert_eq!(
        gone,
        Stored {
            key: "/a".into(),
            value: json!("a2"),
            revision: a2.revision + 1
        }
    );
    let gone = s.delete("/b", None).await.unwrap();
    assert_eq!((gone.value, gone.revision), (json!("b"), a2.revision + 2));
    assert_eq!(gone.key, b.key);
    for expected in [None, Some(a2.revision)] {
        assert_eq!(
            s.delete("/a", expected).await,
            Err(StorageError::NotFound("/a".into()))
        );
    }
    assert_eq!(s.revision().await, Ok(a2.revision + 2));
}

async fn lists_by_prefix_in_key_order(s: Subject) {
    let s = &s.storage;
    for k in ["/x/b", "/x/a", "/y/a", "/x"] {
        s.create(k, json!(k)).await.unwrap();
    }
    let now = s.revision().await.unwrap();
    let (items, rev) = s.list("/x/").await.unwrap();
    assert_eq!(names(&items), ["/x/a", "/x/b"]);
    assert_eq!(items[0].value, json!("/x/a"));
    assert_eq!(rev, now);
    let (items, _) = s.list("/").await.unwrap();
    assert_eq!(names(&items), ["/x", "/x/a", "/x/b", "/y/a"]);
    let (items, rev) = s.list("/z/").await.unwrap();
    assert!(items.is_empty());
    assert_eq!(rev, now);
}

async fn prefixes_do_not_match_longer_names(s: Subject) {
    let s = &s.storage;
    for k in ["/a/b/x", "/a/bc/y", "/a/b", "/a/b/z"] {
        s.create(k, json!(k)).await.unwrap();
    }
    let (items, _) = s.list("/a/b/").await.unwrap();
    assert_eq!(names(&items), ["/a/b/x", "/a/b/z"]);
    let page = s.list_page("/a/b/", &ListRequest::default()).await.unwrap();
    assert_eq!(names(&page.items), ["/a/b/x", "/a/b/z"]);
    assert_eq!((page.more, page.remaining), (false, 0));
    let (items, _) = s.list("/a/bc/").await.unwrap();
    assert_eq!(names(&items), ["/a/bc/y"]);
}

async fn list_at_a_revision(s: Subject) {
    let s = &s.storage;
    let a = s.create("/l/a", json!("a1")).await.unwrap();
    s.create("/l/b", json!("b1")).await.unwrap();
    let then = s.revision().await.unwrap();
    s.update("/l/a", json!("a2"), a.revision).await.unwrap();
    s.delete("/l/b", None).await.unwrap();
    s.create("/l/c", json!("c1")).await.unwrap();
    let at = |revision| ListRequest {
        revision,
        ..ListRequest::default()
    };
    let old = s.list_page("/l/", &at(Some(then))).await.unwrap();
    assert_eq!(keys(&old), [("/l/a", then - 1), ("/l/b", then)]);
    assert_eq!(old.items[0].value, json!("a1"));
    assert_eq!(old.revision, then);
    let now = s.list_page("/l/", &at(None)).await.unwrap();
    assert_eq!(keys(&now), [("/l/a", then + 1), ("/l/c", then + 3)]);
    assert_eq!(now.items[0].value, json!("a2"));
    assert_eq!(now.revision, then + 3);
    // A revision the store has not reached reads the current one.
    let future = s.list_page("/l/", &at(Some(then + 100))).await.unwrap();
    assert_eq!(keys(&future), keys(&now));
}

async fn pages_read_one_revision_while_the_store_changes(s: Subject) {
    let s = &s.storage;
    let base = s.revision().await.unwrap();
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
    assert_eq!(keys(&first), [("/p/a", base + 1), ("/p/b", base + 2)]);
    assert_eq!(
        (first.revision, first.more, first.remaining),
        (base + 5, true, 2)
    );
    // Changes after the first page: a new key before and after the page
    // boundary, a change and a deletion of keys still to come.
    s.create("/p/bb", json!(0)).await.unwrap();
    s.create("/p/e", json!(0)).await.unwrap();
    s.update("/p/c", json!("changed"), base + 3).await.unwrap();
    s.delete("/p/d", None).await.unwrap();
    let rest = ListRequest {
        from_key: Some("/p/b\0".into()),
        revision: Some(first.revision),
        limit: None,
    };
    let second = s.list_page("/p/", &rest).await.unwrap();
    assert_eq!(keys(&second), [("/p/c", base + 3), ("/p/d", base + 4)]);
    assert_eq!(second.items[0].value, json!("/p/c"));
    assert_eq!((second.revision, second.more), (base + 5, false));
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
    assert_eq!(
        keys(&now),
        [("/p/bb", base + 6), ("/p/c", base + 8), ("/p/e", base + 7)]
    );
    assert_eq!(now.revision, base + 9);
    // A limit counts what remains at the old revision.
    let one = ListRequest {
        limit: Some(1),
        ..rest
    };
    let page = s.list_page("/p/", &one).await.unwrap();
    assert_eq!(keys(&page), [("/p/c", base + 3)]);
    assert_eq!((page.more, page.remaining), (true, 1));
    // A limit of 0 reads nothing, and counts everything.
    let none = ListRequest {
        limit: Some(0),
        ..ListRequest::default()
    };
    let page = s.list_page("/p/", &none).await.unwrap();
    assert!(page.items.is_empty());
    assert_eq!((page.more, page.remaining), (true, 5));
}

async fn continue_keys_walk_every_page_at_one_revision(s: Subject) {
    let s = &s.storage;
    for i in 0..7 {
        s.create(&format!("/w/{i}"), json!(i)).await.unwrap();
    }
    let snapshot = s.list("/w/").await.unwrap().0;
    let mut request = ListRequest {
        limit: Some(3),
        ..ListRequest::default()
    };
    let mut seen = Vec::new();
    let mut remaining = Vec::new();
    loop {
        let page = s.list_page("/w/", &request).await.unwrap();
        // Every page reads the first page's revision, whatever changes.
        if let Some(revision) = request.revision {
            assert_eq!(page.revision, revision);
        }
        remaining.push(page.remaining);
        seen.extend(page.items.iter().cloned());
        let Some(last) = page.items.last().filter(|_| page.more) else {
            break;
        };
        request.from_key = Some(format!("{}\0", last.key));
        request.revision = Some(page.revision);
        s.create(&format!("/w/{}a", seen.len()), json!("late"))
            .await
            .unwrap();
        if seen.len() == 3 {
            s.delete("/w/6", None).await.unwrap();
        }
    }
    assert_eq!(seen, snapshot);
    assert_eq!(remaining, [4, 1, 0]);
}

async fn a_page_at_a_compacted_revision_is_too_old(s: Subject) {
    for k in ["/p/a", "/p/b", "/p/c"] {
        s.storage.create(k, json!(1)).await.unwrap();
    }
    let then = s.storage.revision().await.unwrap();
    let first = s
        .storage
        .list_page(
            "/p/",
            &ListRequest {
                limit: Some(1),
                ..ListRequest::default()
            },
        )
        .await
        .unwrap();
    let now = s.compact().await;
    let rest = ListRequest {
        from_key: Some("/p/a\0".into()),
        limit: None,
        revision: Some(first.revision),
    };
    assert!(matches!(
        s.storage.list_page("/p/", &rest).await,
        Err(StorageError::TooOld { requested, .. }) if requested == then
    ));
    // The current revision is always there.
    let current = ListRequest {
        revision: Some(now),
        ..rest
    };
    let page = s.storage.list_page("/p/", &current).await.unwrap();
    assert_eq!(names(&page.items), ["/p/b", "/p/c"]);
    // A whole list is never too old.
    assert_eq!(s.storage.list("/p/").await.unwrap().0.len(), 3);
}

async fn watches_replay_from_a_revision_and_follow(s: Subject) {
    let s = &s.storage;
    let base = s.revision().await.unwrap();
    s.create("/p/a", json!(1)).await.unwrap();
    s.create("/q/a", json!(1)).await.unwrap();
    let mut w = s.watch("/p/", base).await.unwrap();
    s.update("/p/a", json!(2), base + 1).await.unwrap();
    s.delete("/p/a", None).await.unwrap();
    let mut kinds = Vec::new();
    for _ in 0..3 {
        let e = next_event(&mut w).await;
        kinds.push((e.kind, e.object.key, e.object.revision));
    }
    assert_eq!(
        kinds,
        [
            (EventType::Added, "/p/a".to_string(), base + 1),
            (EventType::Modified, "/p/a".to_string(), base + 3),
            (EventType::Deleted, "/p/a".to_string(), base + 4)
        ]
    );
    // From a later revision: only what follows it.
    let mut w = s.watch("/p/", base + 3).await.unwrap();
    let e = next_event(&mut w).await;
    assert_eq!((e.kind, e.object.revision), (EventType::Deleted, base + 4));
    // A watch from now waits for the next change.
    let mut w = s.watch("/p/", base + 4).await.unwrap();
    no_event(&mut w, Duration::from_millis(200)).await;
    let next = tokio::spawn(async move { next_event(&mut w).await });
    s.create("/p/b", json!(1)).await.unwrap();
    let event = next.await.unwrap();
    assert_eq!(
        (event.kind, event.object.key.as_str(), event.object.revision),
        (EventType::Added, "/p/b", base + 5)
    );
    // A watch may start after the current revision.
    assert!(s.watch("/p/", base + 50).await.is_ok());
}

async fn watch_events_carry_previous_values(s: Subject) {
    let s = &s.storage;
    let base = s.revision().await.unwrap();
    let mut w = s.watch("/v/", base).await.unwrap();
    let a = s.create("/v/a", json!({"n": 1})).await.unwrap();
    let a2 = s.update("/v/a", json!({"n": 2}), a.revision).await.unwrap();
    let gone = s.delete("/v/a", Some(a2.revision)).await.unwrap();
    let again = s.create("/v/a", json!({"n": 3})).await.unwrap();
    let added = next_event(&mut w).await;
    assert_eq!(
        (added.kind, &added.object, &added.previous),
        (EventType::Added, &a, &None)
    );
    let modified = next_event(&mut w).await;
    assert_eq!(
        (modified.kind, &modified.object, &modified.previous),
        (EventType::Modified, &a2, &Some(json!({"n": 1})))
    );
    let deleted = next_event(&mut w).await;
    assert_eq!(
        (deleted.kind, &deleted.object, &deleted.previous),
        (EventType::Deleted, &gone, &None)
    );
    assert_eq!(deleted.object.value, json!({"n": 2}));
    // Created again after a deletion: added, with nothing before.
    let readded = next_event(&mut w).await;
    assert_eq!(
        (readded.kind, &readded.object, &readded.previous),
        (EventType::Added, &again, &None)
    );
}

async fn a_watch_from_a_compacted_revision_is_too_old(s: Subject) {
    s.storage.create("/p/a", json!(1)).await.unwrap();
    let then = s.storage.revision().await.unwrap();
    let now = s.compact().await;
    assert!(matches!(
        s.storage.watch("/p/", then - 1).await,
        Err(StorageError::TooOld { requested, .. }) if requested == then - 1
    ));
    // From the current revision it works, and follows.
    let mut w = s.storage.watch("/p/", now).await.unwrap();
    s.storage.create("/p/b", json!(1)).await.unwrap();
    let e = next_event(&mut w).await;
    assert_eq!((e.kind, e.object.revision), (EventType::Added, now + 1));
}

async fn a_progress_request_delivers_a_progress_event(s: Subject) {
    let s = &s.storage;
    let base = s.revision().await.unwrap();
    let mut w = s.watch("/g/", base).await.unwrap();
    let progress = w.progress_requester().expect("a progress requester");
    // Nothing happened yet: the progress is at the current revision.
    progress.request();
    let e = next_event(&mut w).await;
    assert_eq!((e.kind, e.object.revision), (EventType::Progress, base));
    assert_eq!((e.object.key.as_str(), &e.object.value), ("", &json!(null)));
    s.create("/g/a", json!(1)).await.unwrap();
    // A change outside the prefix moves the revision too.
    s.create("/h/a", json!(1)).await.unwrap();
    let e = next_event(&mut w).await;
    assert_eq!((e.kind, e.object.revision), (EventType::Added, base + 1));
    progress.request();
    let e = next_event(&mut w).await;
    assert_eq!((e.kind, e.object.revision), (EventType::Progress, base + 2));
    // Requesters are clones of one another.
    progress.clone().request();
    assert_eq!(next_event(&mut w).await.kind, EventType::Progress);
    no_event(&mut w, Duration::from_millis(200)).await;
}

async fn watches_see_only_their_prefix(s: Subject) {
    let s = &s.storage;
    let base = s.revision().await.unwrap();
    let mut b = s.watch("/a/b/", base).await.unwrap();
    let mut bc = s.watch("/a/bc/", base).await.unwrap();
    for k in ["/a/bc/y", "/a/b", "/a/b/x"] {
        s.create(k, json!(k)).await.unwrap();
    }
    let e = next_event(&mut b).await;
    assert_eq!(e.object.key, "/a/b/x");
    let e = next_event(&mut bc).await;
    assert_eq!(e.object.key, "/a/bc/y");
    no_event(&mut b, Duration::from_millis(200)).await;
    no_event(&mut bc, Duration::from_millis(10)).await;
}
