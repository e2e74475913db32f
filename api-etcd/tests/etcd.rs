//! What only an `EtcdStorage` does: the keys and values in etcd, several
//! storages on one etcd, an etcd that goes away and comes back,
//! compaction, and the storage's lifetime. Each test starts an etcd of
//! its own (skipped without the binary unless `API_ETCD_REQUIRE=1`).

mod common;

use std::time::{Duration, Instant};

use api_core::registry::{EventType, ListRequest, Storage, StorageError};
use api_etcd::testing::{EtcdServer, EtcdTls, etcd_binary};
use api_etcd::{COMPACT_REV_KEY, EtcdConfig, EtcdStorage};
use common::{TEST_LIMIT, next_event, no_event};
use serde_json::{Value, json};

/// Starts an etcd for `test`, or returns from the test (skipped).
macro_rules! etcd {
    ($test:expr) => {
        match EtcdServer::start_or_skip($test) {
            Some(server) => server,
            None => return,
        }
    };
}

/// Runs a test body bounded by `TEST_LIMIT`.
async fn bounded(body: impl std::future::Future<Output = ()>) {
    tokio::time::timeout(TEST_LIMIT, body)
        .await
        .expect("the test took too long");
}

/// The raw value of an etcd key, and its `mod_revision`.
async fn raw(server: &EtcdServer, key: &str) -> Option<(Value, i64)> {
    let mut client = etcd_client::Client::connect([server.endpoint()], None)
        .await
        .unwrap();
    let resp = client.get(key, None).await.unwrap();
    resp.kvs().first().map(|kv| {
        (
            serde_json::from_slice(kv.value()).unwrap(),
            kv.mod_revision(),
        )
    })
}

fn is_unavailable(e: &StorageError) -> bool {
    matches!(e, StorageError::Unavailable(m) if m.starts_with("etcd unavailable"))
}

#[tokio::test]
async fn keys_are_under_the_prefix_and_values_have_no_resource_version() {
    let server = etcd!("keys_are_under_the_prefix_and_values_have_no_resource_version");
    bounded(async {
        let s = server.storage("/registry").await;
        let key = "/example.com/foos/default/a";
        let object = json!({
            "apiVersion": "example.com/v1",
            "kind": "Foo",
            "metadata": {"name": "a", "namespace": "default", "resourceVersion": "5"},
            "spec": {"n": 1},
        });
        let created = s.create(key, object).await.unwrap();
        let (value, mod_revision) = raw(&server, "/registry/example.com/foos/default/a")
            .await
            .expect("the object under /registry");
        assert_eq!(
            value["metadata"],
            json!({"name": "a", "namespace": "default"})
        );
        assert_eq!(created.value, value);
        assert_eq!(created.revision, mod_revision as u64);
        assert_eq!(s.get(key).await.unwrap(), created);
        // An update strips it too.
        let mut changed = created.value.clone();
        changed["metadata"]["resourceVersion"] = json!(created.revision.to_string());
        changed["spec"]["n"] = json!(2);
        let updated = s.update(key, changed, created.revision).await.unwrap();
        let (value, _) = raw(&server, "/registry/example.com/foos/default/a")
            .await
            .unwrap();
        assert_eq!(value["metadata"].get("resourceVersion"), None);
        assert_eq!(value, updated.value);
        // A prefix's trailing slash is ignored.
        let custom = server.storage("/custom/").await;
        assert_eq!(custom.prefix(), "/custom");
        custom.create("/x", json!(1)).await.unwrap();
        assert!(raw(&server, "/custom/x").await.is_some());
        // Keys start with '/'.
        assert!(matches!(
            custom.create("x", json!(1)).await,
            Err(StorageError::Internal(_))
        ));
    })
    .await;
}

#[tokio::test]
async fn two_storages_on_one_etcd_see_each_others_writes_and_watches() {
    let server = etcd!("two_storages_on_one_etcd_see_each_others_writes_and_watches");
    bounded(async {
        let a = server.storage("/registry").await;
        let b = server.storage("/registry").await;
        let base = b.revision().await.unwrap();
        let mut watch = b.watch("/foos/", base).await.unwrap();
        let created = a.create("/foos/x", json!({"n": 1})).await.unwrap();
        assert_eq!(b.get("/foos/x").await.unwrap(), created);
        let event = next_event(&mut watch).await;
        assert_eq!((event.kind, &event.object), (EventType::Added, &created));
        // b updates what a wrote; a's stale update conflicts.
        let updated = b
            .update("/foos/x", json!({"n": 2}), created.revision)
            .await
            .unwrap();
        assert_eq!(
            a.update("/foos/x", json!({"n": 3}), created.revision).await,
            Err(StorageError::Conflict {
                key: "/foos/x".into(),
                expected: created.revision,
                actual: updated.revision
            })
        );
        let event = next_event(&mut watch).await;
        assert_eq!(event.previous, Some(json!({"n": 1})));
        assert_eq!(a.list("/foos/").await.unwrap().0, vec![updated]);
    })
    .await;
}

#[tokio::test]
async fn storages_with_different_prefixes_do_not_see_each_other() {
    let server = etcd!("storages_with_different_prefixes_do_not_see_each_other");
    bounded(async {
        let b = server.storage("/a/b").await;
        let bc = server.storage("/a/bc").await;
        let base = b.revision().await.unwrap();
        let mut watch = b.watch("", base).await.unwrap();
        bc.create("/x", json!("bc")).await.unwrap();
        b.create("/x", json!("b")).await.unwrap();
        for prefix in ["", "/"] {
            let (items, _) = b.list(prefix).await.unwrap();
            assert_eq!(items.len(), 1, "{prefix:?}");
            assert_eq!(items[0].value, json!("b"));
            let page = b.list_page(prefix, &ListRequest::default()).await.unwrap();
            assert_eq!((page.items.len(), page.remaining), (1, 0));
        }
        let event = next_event(&mut watch).await;
        assert_eq!(
            (event.object.key.as_str(), &event.object.value),
            ("/x", &json!("b"))
        );
        no_event(&mut watch, Duration::from_millis(200)).await;
    })
    .await;
}

#[tokio::test]
async fn an_unavailable_etcd_fails_operations_within_the_timeout_then_recovers() {
    let mut server = etcd!("an_unavailable_etcd_fails_operations_within_the_timeout_then_recovers");
    bounded(async {
        // The test server's storages give up after 2 s.
        let s = server.storage("/registry").await;
        let kept = s.create("/k/a", json!(1)).await.unwrap();
        s.check().await.unwrap();
        server.kill();
        let all = ListRequest::default();
        let started = Instant::now();
        let (get, list, page, create, update, delete, watch, revision, check) = tokio::join!(
            s.get("/k/a"),
            s.list("/k/"),
            s.list_page("/k/", &all),
            s.create("/k/b", json!(1)),
            s.update("/k/a", json!(2), kept.revision),
            s.delete("/k/a", None),
            s.watch("/k/", kept.revision),
            s.revision(),
            s.check(),
        );
        let elapsed = started.elapsed();
        let errors = [
            get.err(),
            list.err(),
            page.err(),
            create.err(),
            update.err(),
            delete.err(),
            watch.err(),
            revision.err(),
            check.err(),
        ];
        for e in &errors {
            let e = e.as_ref().expect("an error while etcd is down");
            assert!(is_unavailable(e), "{e}");
        }
        assert!(elapsed < Duration::from_secs(4), "took {elapsed:?} to fail");
        // The 500 the registry makes of it.
        let status = errors[0]
            .clone()
            .unwrap()
            .into_status(Default::default(), "a");
        assert_eq!(status.code, 500);
        // Back on the same data: the same storage works again.
        server.restart().unwrap();
        assert_eq!(s.get("/k/a").await.unwrap(), kept);
        s.create("/k/b", json!(1)).await.unwrap();
        s.check().await.unwrap();
    })
    .await;
}

#[tokio::test]
async fn a_watch_resumes_when_etcd_comes_back_in_time() {
    let mut server = etcd!("a_watch_resumes_when_etcd_comes_back_in_time");
    bounded(async {
        let s = server.storage("/registry").await;
        let base = s.revision().await.unwrap();
        let mut watch = s.watch("/w/", base).await.unwrap();
        s.create("/w/a", json!(1)).await.unwrap();
        assert_eq!(next_event(&mut watch).await.object.key, "/w/a");
        server.kill();
        server.restart().unwrap();
        let b = s.create("/w/b", json!(1)).await.unwrap();
        // Resumed after the last event: /w/b, and no repeat of /w/a.
        let event = next_event(&mut watch).await;
        assert_eq!((event.kind, &event.object), (EventType::Added, &b));
        no_event(&mut watch, Duration::from_millis(200)).await;
    })
    .await;
}

#[tokio::test]
async fn a_watch_ends_with_an_error_when_etcd_stays_away() {
    let mut server = etcd!("a_watch_ends_with_an_error_when_etcd_stays_away");
    bounded(async {
        let s = server.storage("/registry").await;
        let base = s.revision().await.unwrap();
        let mut watch = s.watch("/w/", base).await.unwrap();
        server.kill();
        let started = Instant::now();
        match tokio::time::timeout(Duration::from_secs(10), watch.next()).await {
            Ok(Some(Err(e))) => assert!(is_unavailable(&e), "{e}"),
            other => panic!("expected the watch to fail, got {other:?}"),
        }
        assert!(started.elapsed() < Duration::from_secs(4));
        // The error was the last item.
        assert!(watch.next().await.is_none());
    })
    .await;
}

#[tokio::test]
async fn the_compactor_compacts_to_the_revision_of_the_interval_before() {
    let server = etcd!("the_compactor_compacts_to_the_revision_of_the_interval_before");
    bounded(async {
        let s = server.storage("/registry").await;
        let other = server.storage("/other").await;
        s.create("/c/a", json!(1)).await.unwrap();
        let then = s.revision().await.unwrap();
        s.create("/c/b", json!(1)).await.unwrap();
        let at_then = ListRequest {
            revision: Some(then),
            ..ListRequest::default()
        };
        assert!(s.list_page("/c/", &at_then).await.is_ok());
        // Two servers' compactors on one etcd take turns.
        let compactors = [
            s.spawn_compactor(Duration::from_millis(200)),
            other.spawn_compactor(Duration::from_millis(200)),
        ];
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match s.list_page("/c/", &at_then).await {
                Err(StorageError::TooOld { requested, .. }) => {
                    assert_eq!(requested, then);
                    break;
                }
                Ok(_) if Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(50)).await
                }
                other => panic!("not compacted in 10 s: {other:?}"),
            }
        }
        assert!(matches!(
            s.watch("/c/", then - 1).await,
            Err(StorageError::TooOld { .. })
        ));
        assert!(raw(&server, COMPACT_REV_KEY).await.is_some());
        // The current state is all there.
        assert_eq!(s.list("/c/").await.unwrap().0.len(), 2);
        // A compactor stops with its storage.
        drop((s, other));
        for compactor in compactors {
            tokio::time::timeout(Duration::from_secs(2), compactor)
                .await
                .expect("the compactor stops with its storage")
                .unwrap();
        }
    })
    .await;
}

#[tokio::test]
async fn compacting_twice_or_backwards_is_no_error() {
    let server = etcd!("compacting_twice_or_backwards_is_no_error");
    bounded(async {
        let s = server.storage("/registry").await;
        for i in 0..3 {
            s.create(&format!("/k/{i}"), json!(i)).await.unwrap();
        }
        let now = s.revision().await.unwrap();
        s.compact(now).await.unwrap();
        s.compact(now).await.unwrap();
        s.compact(now - 1).await.unwrap();
        // A revision etcd has not reached is an error.
        assert!(s.compact(now + 10).await.is_err());
        // The oldest revision a list may read is the compacted one.
        let at = |revision| ListRequest {
            revision: Some(revision),
            ..ListRequest::default()
        };
        assert_eq!(s.list_page("/k/", &at(now)).await.unwrap().items.len(), 3);
        assert_eq!(
            s.list_page("/k/", &at(now - 1)).await,
            Err(StorageError::TooOld {
                requested: now - 1,
                oldest: now
            })
        );
    })
    .await;
}

#[tokio::test]
async fn dropping_the_storage_ends_its_watches() {
    let server = etcd!("dropping_the_storage_ends_its_watches");
    bounded(async {
        let s = server.storage("/registry").await;
        let clone = s.clone();
        let base = s.revision().await.unwrap();
        let mut watch = s.watch("/w/", base).await.unwrap();
        let progress = watch.progress_requester().unwrap();
        drop(s);
        // A clone keeps it alive.
        clone.create("/w/a", json!(1)).await.unwrap();
        assert_eq!(next_event(&mut watch).await.kind, EventType::Added);
        drop(clone);
        let end = tokio::time::timeout(Duration::from_secs(2), watch.next()).await;
        assert!(matches!(end, Ok(None)), "{end:?}");
        // Asking a gone watch for progress is nothing.
        progress.request();
    })
    .await;
}

#[tokio::test]
async fn a_configuration_that_cannot_work_is_refused_at_once() {
    // No etcd needed: nothing is dialed.
    let none: [&str; 0] = [];
    assert!(EtcdStorage::connect(EtcdConfig::new(none)).await.is_err());
    let missing_ca = EtcdConfig::new(["https://127.0.0.1:1"]).ca_file("/nonexistent/ca.pem");
    let e = EtcdStorage::connect(missing_ca).await.unwrap_err();
    assert!(e.to_string().contains("/nonexistent/ca.pem"), "{e}");
    let half = EtcdConfig {
        cert_file: Some("/nonexistent/c.pem".into()),
        ..EtcdConfig::new(["https://127.0.0.1:1"])
    };
    assert!(EtcdStorage::connect(half).await.is_err());
    // An etcd nobody runs: the check fails within the timeout.
    let nobody =
        EtcdConfig::new(["http://127.0.0.1:1"]).request_timeout(Duration::from_millis(500));
    let s = EtcdStorage::connect(nobody).await.unwrap();
    let started = Instant::now();
    let e = s.check().await.unwrap_err();
    assert!(is_unavailable(&e), "{e}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

/// A CA, a serving certificate for 127.0.0.1 and a client certificate,
/// written to `dir`.
fn certificates(dir: &std::path::Path) -> EtcdTls {
    use rcgen::{
        BasicConstraints, CertificateParams, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
        KeyUsagePurpose,
    };
    let write = |name: &str, pem: String| {
        let path = dir.join(name);
        std::fs::write(&path, pem).unwrap();
        path
    };
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);
    let leaf = |names: Vec<String>, usage| {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(names).unwrap();
        params.extended_key_usages = vec![usage];
        let cert = params.signed_by(&key, &issuer).unwrap();
        (cert.pem(), key.serialize_pem())
    };
    let (server_cert, server_key) = leaf(
        vec!["127.0.0.1".into(), "localhost".into()],
        ExtendedKeyUsagePurpose::ServerAuth,
    );
    let (client_cert, client_key) =
        leaf(vec!["client".into()], ExtendedKeyUsagePurpose::ClientAuth);
    EtcdTls {
        ca_file: write("ca.pem", ca_cert.pem()),
        server_cert: write("server.pem", server_cert),
        server_key: write("server-key.pem", server_key),
        client_cert: write("client.pem", client_cert),
        client_key: write("client-key.pem", client_key),
    }
}

#[tokio::test]
async fn tls_with_a_client_certificate() {
    if etcd_binary().is_none() {
        // Skipped (or failed) as every etcd test is.
        let _ = etcd!("tls_with_a_client_certificate");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let tls = certificates(dir.path());
    let server = EtcdServer::start_tls(tls.clone()).expect("etcd with TLS");
    bounded(async {
        assert!(server.endpoint().starts_with("https://"));
        let s = server.storage("/registry").await;
        s.check().await.unwrap();
        let created = s.create("/t/a", json!(1)).await.unwrap();
        let base = created.revision;
        let mut watch = s.watch("/t/", base).await.unwrap();
        s.update("/t/a", json!(2), base).await.unwrap();
        assert_eq!(next_event(&mut watch).await.kind, EventType::Modified);
        // Without the client certificate etcd refuses: unavailable, in time.
        let anonymous = EtcdConfig::new([server.endpoint()])
            .ca_file(&tls.ca_file)
            .request_timeout(Duration::from_millis(500));
        let s = EtcdStorage::connect(anonymous).await.unwrap();
        assert!(s.get("/t/a").await.is_err());
        // Without the CA the server is not trusted.
        let untrusting = EtcdConfig::new([server.endpoint()])
            .client_cert(&tls.client_cert, &tls.client_key)
            .request_timeout(Duration::from_millis(500));
        let s = EtcdStorage::connect(untrusting).await.unwrap();
        assert!(s.get("/t/a").await.is_err());
    })
    .await;
}

/// Waits (at most 5 s) until `storage` shares `n` etcd watches.
async fn shared_watches_become(storage: &EtcdStorage, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while storage.shared_watches() != n {
        assert!(
            Instant::now() < deadline,
            "{} shared watches, not {n}",
            storage.shared_watches()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The apiserver's watch cache idea: many watchers of one prefix share
/// one etcd watch; a watcher from a recent revision joins it and gets
/// exactly the changes after that revision; the etcd watch ends with its
/// last watcher.
#[tokio::test]
async fn watchers_of_one_prefix_share_one_etcd_watch() {
    let server = etcd!("watchers_of_one_prefix_share_one_etcd_watch");
    bounded(async {
        let s = server.storage("/registry").await;
        let prefix = "/example.com/foos/";
        let start = s.revision().await.unwrap();
        let mut watchers = Vec::new();
        for _ in 0..10 {
            watchers.push(s.watch(prefix, start).await.unwrap());
        }
        assert_eq!(s.shared_watches(), 1, "ten watchers, one etcd watch");
        let a = s
            .create(&format!("{prefix}default/a"), json!({"n": 1}))
            .await
            .unwrap();
        let b = s
            .update(&format!("{prefix}default/a"), json!({"n": 2}), a.revision)
            .await
            .unwrap();
        for watch in &mut watchers {
            let first = next_event(watch).await;
            assert_eq!(
                (first.kind, first.object.revision),
                (EventType::Added, a.revision)
            );
            let second = next_event(watch).await;
            assert_eq!(
                (second.kind, second.object.revision, second.previous),
                (EventType::Modified, b.revision, Some(json!({"n": 1})))
            );
        }

        // A watcher from the first change's revision joins the same etcd
        // watch and gets only what came after it, once.
        let mut late = s.watch(prefix, a.revision).await.unwrap();
        assert_eq!(s.shared_watches(), 1);
        let replayed = next_event(&mut late).await;
        assert_eq!(replayed.object.revision, b.revision);
        no_event(&mut late, Duration::from_millis(200)).await;
        let c = s.delete(&format!("{prefix}default/a"), None).await.unwrap();
        let deleted = next_event(&mut late).await;
        assert_eq!(deleted.kind, EventType::Deleted);
        assert_eq!(deleted.object.value, c.value);
        for watch in &mut watchers {
            assert_eq!(next_event(watch).await.kind, EventType::Deleted);
        }

        // Other prefixes have their own; the etcd watch goes with the last
        // watcher of its prefix.
        let bars = s.watch("/example.com/bars/", start).await.unwrap();
        assert_eq!(s.shared_watches(), 2);
        drop(bars);
        shared_watches_become(&s, 1).await;
        watchers.clear();
        drop(late);
        shared_watches_become(&s, 0).await;
        // And a new watcher starts a new one.
        let _again = s.watch(prefix, s.revision().await.unwrap()).await.unwrap();
        assert_eq!(s.shared_watches(), 1);
    })
    .await;
}

/// Progress requests from any sharer reach every sharer as progress
/// events (bookmarks for watchers that allow them), each after every
/// change before it.
#[tokio::test]
async fn progress_notifications_reach_every_sharer() {
    let server = etcd!("progress_notifications_reach_every_sharer");
    bounded(async {
        let s = server.storage("/registry").await;
        let prefix = "/example.com/foos/";
        let start = s.revision().await.unwrap();
        let mut one = s.watch(prefix, start).await.unwrap();
        let mut two = s.watch(prefix, start).await.unwrap();
        let a = s
            .create(&format!("{prefix}default/a"), json!({}))
            .await
            .unwrap();
        one.progress_requester().expect("etcd answers").request();
        for watch in [&mut one, &mut two] {
            assert_eq!(next_event(watch).await.object.revision, a.revision);
            let progress = next_event(watch).await;
            assert_eq!(progress.kind, EventType::Progress);
            assert!(progress.object.revision >= a.revision);
        }
    })
    .await;
}

/// A watcher from before what the shared watch keeps (its latest 100
/// changes) gets an etcd watch of its own, and misses nothing.
#[tokio::test]
async fn a_watcher_from_before_the_shared_buffer_gets_its_own_watch() {
    let server = etcd!("a_watcher_from_before_the_shared_buffer_gets_its_own_watch");
    bounded(async {
        let s = server.storage("/registry").await;
        let prefix = "/example.com/foos/";
        let key = format!("{prefix}default/a");
        let start = s.revision().await.unwrap();
        let mut shared = s.watch(prefix, start).await.unwrap();
        let mut stored = s.create(&key, json!({"n": 0})).await.unwrap();
        for n in 1..1100 {
            stored = s
                .update(&key, json!({"n": n}), stored.revision)
                .await
                .unwrap();
        }
        for _ in 0..1100 {
            next_event(&mut shared).await;
        }
        let mut own = s.watch(prefix, start).await.unwrap();
        assert_eq!(s.shared_watches(), 1, "the old watcher is not a sharer");
        for n in 0..1100 {
            let event = next_event(&mut own).await;
            assert_eq!(event.object.value, json!({"n": n}));
        }
        no_event(&mut own, Duration::from_millis(200)).await;
    })
    .await;
}
