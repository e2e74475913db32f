//! `Registry::dry_run` (`dryRun=All`): every default, hook, validation
//! and precondition of a write runs and nothing is stored, as the
//! apiserver's `DryRunnableStorage` answers (k8s.io/apiserver
//! `pkg/registry/generic/registry/dryrun.go`): a created object comes
//! back without a `resourceVersion`, an updated or deleted one with the
//! version it had; no watch event is sent.

mod storage;

use api_core::registry::{DefaultStrategy, DeleteOptions, ListOptions};
use examples::memcached::{Memcached, MemcachedSpec};
use serde_json::Value;

fn json(m: &Memcached) -> Value {
    serde_json::to_value(m).unwrap()
}

const NS: &str = "default";

fn mc(name: &str, size: Option<i32>) -> Memcached {
    Memcached::new(name, MemcachedSpec { size })
}

#[tokio::test]
async fn dry_run_create_defaults_and_validates_but_stores_nothing() {
    let registry = storage::registry::<Memcached>(DefaultStrategy).await;
    let mut watch = registry.watch(NS, &ListOptions::default()).await.unwrap();
    let dry = registry.dry_run();

    let created = dry.create(NS, mc("mc", None)).await.unwrap().object;
    assert_eq!(created.spec.size, Some(1), "defaults applied");
    assert_eq!(created.metadata.resource_version, "", "nothing stored");
    assert!(!created.metadata.uid.is_empty());
    assert!(created.metadata.creation_timestamp.is_some());
    assert_eq!(created.metadata.generation, 1);
    assert_eq!(
        registry.get(NS, "mc").await.unwrap_err().code,
        404,
        "the real registry has nothing"
    );
    assert_eq!(
        registry.storage().revision().await.unwrap(),
        storage::base()
    );

    // Validation runs: size 9 is over the maximum.
    let invalid = dry.create(NS, mc("big", Some(9))).await.unwrap_err();
    assert_eq!(invalid.code, 422);

    // A taken name is still a conflict.
    registry.create(NS, mc("taken", None)).await.unwrap();
    let exists = dry.create(NS, mc("taken", None)).await.unwrap_err();
    assert_eq!(
        (exists.code, exists.reason.as_str()),
        (409, "AlreadyExists")
    );

    let events = storage::pending(&mut watch).await;
    assert_eq!(events.len(), 1, "only the real create: {events:?}");
}

#[tokio::test]
async fn dry_run_update_checks_the_version_and_stores_nothing() {
    let registry = storage::registry::<Memcached>(DefaultStrategy).await;
    let stored = registry.create(NS, mc("mc", Some(1))).await.unwrap().object;
    let mut watch = registry
        .watch(
            NS,
            &ListOptions {
                resource_version: Some(stored.metadata.resource_version.clone()),
                ..ListOptions::default()
            },
        )
        .await
        .unwrap();
    let dry = registry.dry_run();

    let mut changed = stored.clone();
    changed.spec.size = Some(3);
    let answer = dry.update(NS, changed.clone()).await.unwrap().object;
    assert_eq!(answer.spec.size, Some(3));
    assert_eq!(answer.metadata.generation, 2, "the spec change is counted");
    assert_eq!(
        answer.metadata.resource_version, stored.metadata.resource_version,
        "the version it had"
    );
    assert_eq!(json(&registry.get(NS, "mc").await.unwrap()), json(&stored));

    // A stale resourceVersion is the same 409 as for a real update.
    let mut stale = changed;
    stale.metadata.resource_version = "999".into();
    assert_eq!(dry.update(NS, stale).await.unwrap_err().code, 409);

    // Status writes and patches go through the same storage.
    let patched = dry
        .patch(
            NS,
            "mc",
            api_core::patch::PatchType::Merge,
            br#"{"spec":{"size":2}}"#,
        )
        .await
        .unwrap()
        .object;
    assert_eq!(patched.spec.size, Some(2));
    assert_eq!(registry.get(NS, "mc").await.unwrap().spec.size, Some(1));

    assert!(
        storage::pending(&mut watch).await.is_empty(),
        "no event for a dry run"
    );
}

#[tokio::test]
async fn dry_run_delete_checks_preconditions_and_keeps_the_object() {
    let registry = storage::registry::<Memcached>(DefaultStrategy).await;
    let stored = registry.create(NS, mc("mc", None)).await.unwrap().object;
    let dry = registry.dry_run();

    let deleted = dry
        .delete(NS, "mc", &DeleteOptions::default())
        .await
        .unwrap();
    assert!(!deleted.pending);
    assert_eq!(deleted.object.metadata.name, "mc");
    assert_eq!(json(&registry.get(NS, "mc").await.unwrap()), json(&stored));

    let wrong_uid = DeleteOptions {
        uid: Some("not-the-uid".into()),
        ..DeleteOptions::default()
    };
    assert_eq!(
        dry.delete(NS, "mc", &wrong_uid).await.unwrap_err().code,
        409
    );
    assert_eq!(
        dry.delete(NS, "missing", &DeleteOptions::default())
            .await
            .unwrap_err()
            .code,
        404
    );

    // With a finalizer, a dry-run delete answers "marked", marks nothing.
    let mut held = stored;
    held.metadata.finalizers.push("example.com/hold".into());
    let held = registry.update(NS, held).await.unwrap().object;
    let marked = dry
        .delete(NS, "mc", &DeleteOptions::default())
        .await
        .unwrap();
    assert!(marked.pending);
    assert!(marked.object.metadata.deletion_timestamp.is_some());
    assert_eq!(json(&registry.get(NS, "mc").await.unwrap()), json(&held));
}
