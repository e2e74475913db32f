//! `Strategy::allow_create_on_update`: a `PUT` of a missing object
//! creates it (`rest.Update` with `forceAllowCreate`), and the outcome
//! says so, so that a server answers 201 as the apiserver does.

mod storage;

use api_core::registry::{DefaultStrategy, Strategy};
use examples::memcached::{Memcached, MemcachedSpec};

const NS: &str = "default";

struct Upsert;

impl Strategy<Memcached> for Upsert {
    fn allow_create_on_update(&self) -> bool {
        true
    }
}

fn mc(name: &str, size: i32) -> Memcached {
    Memcached::new(name, MemcachedSpec { size: Some(size) })
}

#[tokio::test]
async fn an_update_of_a_missing_object_creates_it_when_allowed() {
    let registry = storage::registry::<Memcached>(Upsert).await;
    let created = registry.update(NS, mc("mc", 2)).await.unwrap();
    assert!(created.created);
    assert_eq!(created.object.metadata.generation, 1);
    assert!(!created.object.metadata.resource_version.is_empty());

    let mut changed = created.object.clone();
    changed.spec.size = Some(3);
    let updated = registry.update(NS, changed).await.unwrap();
    assert!(!updated.created);
    assert_eq!(updated.object.metadata.generation, 2);

    assert!(registry.create(NS, mc("other", 1)).await.unwrap().created);
}

#[tokio::test]
async fn without_it_an_update_of_a_missing_object_is_not_found() {
    let registry = storage::registry::<Memcached>(DefaultStrategy).await;
    let err = registry.update(NS, mc("mc", 2)).await.unwrap_err();
    assert_eq!((err.code, err.reason.as_str()), (404, "NotFound"));
    // Nor through /status, even when allowed.
    let upsert = storage::registry::<Memcached>(Upsert).await;
    let err = upsert.update_status(NS, mc("mc", 2)).await.unwrap_err();
    assert_eq!(err.code, 404);
}
