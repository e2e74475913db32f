//! A delete's `propagationPolicy` under garbage collection, as the
//! apiserver's store records it (`deletionFinalizersForGarbageCollection`,
//! `shouldOrphanDependents`, `shouldDeleteDependents` in
//! k8s.io/apiserver `registry/generic/registry/store.go`, and the
//! policies of its `TestStoreDeleteWithOrphanDependents` table): as the
//! `orphan` and `foregroundDeletion` finalizers a garbage collector acts
//! on; without garbage collection, carried and the object deleted at once.

mod storage;

use api_core::registry::{
    DefaultStrategy, DeleteOptions, FINALIZER_FOREGROUND, FINALIZER_ORPHAN, PropagationPolicy,
};
use examples::memcached::{Memcached, MemcachedSpec};

fn mc(name: &str, finalizers: &[&str]) -> Memcached {
    let mut m = Memcached::new(name, MemcachedSpec { size: None });
    m.metadata.finalizers = finalizers.iter().map(ToString::to_string).collect();
    m
}

/// Finalizers before a delete, its options, and the finalizers after it
/// (`None`: the object is gone).
type Case = (
    &'static [&'static str],
    DeleteOptions,
    Option<Vec<&'static str>>,
);

fn policy(p: PropagationPolicy) -> DeleteOptions {
    DeleteOptions {
        propagation_policy: Some(p),
        ..DeleteOptions::default()
    }
}

#[tokio::test]
async fn without_garbage_collection_the_policy_is_only_carried() {
    let registry = storage::registry::<Memcached>(DefaultStrategy).await;
    registry.create("default", mc("a", &[])).await.unwrap();
    let deleted = registry
        .delete("default", "a", &policy(PropagationPolicy::Orphan))
        .await
        .unwrap();
    assert!(!deleted.pending);
    assert!(deleted.object.metadata.finalizers.is_empty());
}

#[tokio::test]
async fn the_policy_becomes_finalizers_under_garbage_collection() {
    let registry = storage::registry::<Memcached>(DefaultStrategy)
        .await
        .with_garbage_collection();
    let orphan_dependents = |o: bool| DeleteOptions {
        orphan_dependents: Some(o),
        ..DeleteOptions::default()
    };
    let cases: Vec<Case> = vec![
        (&[], DeleteOptions::default(), None),
        (&[], policy(PropagationPolicy::Background), None),
        (
            &[],
            policy(PropagationPolicy::Orphan),
            Some(vec![FINALIZER_ORPHAN]),
        ),
        (
            &[],
            policy(PropagationPolicy::Foreground),
            Some(vec![FINALIZER_FOREGROUND]),
        ),
        (&[], orphan_dependents(true), Some(vec![FINALIZER_ORPHAN])),
        (&[], orphan_dependents(false), None),
        // The object's own finalizer, without a policy in the request.
        (
            &[FINALIZER_ORPHAN],
            DeleteOptions::default(),
            Some(vec![FINALIZER_ORPHAN]),
        ),
        // The request's policy wins over the object's finalizer.
        (
            &[FINALIZER_ORPHAN],
            policy(PropagationPolicy::Background),
            None,
        ),
        (
            &[FINALIZER_ORPHAN],
            policy(PropagationPolicy::Foreground),
            Some(vec![FINALIZER_FOREGROUND]),
        ),
        // Other finalizers stay, and keep the object.
        (
            &["example.com/cleanup"],
            policy(PropagationPolicy::Orphan),
            Some(vec!["example.com/cleanup", FINALIZER_ORPHAN]),
        ),
        (
            &["example.com/cleanup"],
            policy(PropagationPolicy::Background),
            Some(vec!["example.com/cleanup"]),
        ),
    ];
    for (i, (before, options, after)) in cases.into_iter().enumerate() {
        let name = format!("m{i}");
        registry.create("default", mc(&name, before)).await.unwrap();
        let deleted = registry.delete("default", &name, &options).await.unwrap();
        match after {
            None => {
                assert!(!deleted.pending, "case {i}: {deleted:?}");
                assert_eq!(registry.get("default", &name).await.unwrap_err().code, 404);
            }
            Some(finalizers) => {
                assert!(deleted.pending, "case {i}");
                let stored = registry.get("default", &name).await.unwrap();
                assert_eq!(stored.metadata.finalizers, finalizers, "case {i}");
                assert!(stored.metadata.deletion_timestamp.is_some(), "case {i}");
            }
        }
    }
}

#[tokio::test]
async fn a_second_delete_can_change_the_policy_of_a_pending_one() {
    let registry = storage::registry::<Memcached>(DefaultStrategy)
        .await
        .with_garbage_collection();
    registry.create("default", mc("a", &[])).await.unwrap();
    registry
        .delete("default", "a", &policy(PropagationPolicy::Orphan))
        .await
        .unwrap();
    let again = registry
        .delete("default", "a", &policy(PropagationPolicy::Foreground))
        .await
        .unwrap();
    assert!(again.pending);
    assert_eq!(again.object.metadata.finalizers, [FINALIZER_FOREGROUND]);
    // Background drops the GC finalizers: nothing holds the object now.
    let gone = registry
        .delete("default", "a", &policy(PropagationPolicy::Background))
        .await
        .unwrap();
    assert!(!gone.pending);
    assert_eq!(registry.get("default", "a").await.unwrap_err().code, 404);
}
