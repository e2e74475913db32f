//! A kind described by data serves as its Rust type does: the same
//! request sequences against `Registry<Memcached>` (the derived type, its
//! typed strategy) and `Registry<DynamicObject>` (the kind read from
//! `Memcached::crd()`, `DynamicStrategy`) give the same objects and the
//! same errors — defaults, pruning, validation, the status subresource,
//! the generation bump, managed fields, deletion. This is what serving
//! CustomResourceDefinitions at run time stands on (issue 31's property).

use std::sync::Arc;

use api_core::Status;
use api_core::patch::PatchType;
use api_core::prelude::*;
use api_core::registry::{
    DefaultStrategy, DeleteOptions, DynamicObject, DynamicStrategy, KindInfo, ListOptions,
    MemoryStorage, Registry,
};
use examples::memcached::Memcached;
use proptest::prelude::*;
use serde_json::{Value, json};

const T0: i64 = 1_700_000_000;

fn clock() -> Time {
    Time::from_unix_seconds(T0).unwrap()
}

// On memory on every run (not `tests/storage`'s etcd): this suite compares
// the typed and the dynamic registry request by request, resourceVersions
// included, which needs a storage of its own for each whose revisions
// count alike; on etcd the two would share one revision counter. The
// storage's own behaviour is the other suites' subject.
fn typed() -> Registry<Memcached> {
    Registry::new(DefaultStrategy)
        .with_clock(clock)
        .field_manager("test")
}

fn dynamic() -> Registry<DynamicObject> {
    let kind = KindInfo::from_crd(&Memcached::crd(), "v1alpha1").unwrap();
    Registry::with_kind(
        kind.clone(),
        DynamicStrategy::new(&kind),
        Arc::new(MemoryStorage::new()),
    )
    .with_clock(clock)
    .field_manager("test")
}

/// One request, as JSON in and JSON out.
#[derive(Clone, Debug)]
enum Op {
    Create(Value),
    Update(Value),
    UpdateStatus(Value),
    MergePatch(&'static str, Value),
    Delete(&'static str),
    Get(&'static str),
    List,
}

/// A result with what differs by nature removed (uids are random).
fn normal(result: Result<Value, Status>) -> Result<Value, (i32, String, String)> {
    match result {
        Ok(mut v) => {
            if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
                m.remove("uid");
            }
            if let Some(items) = v.get_mut("items").and_then(Value::as_array_mut) {
                for item in items {
                    if let Some(m) = item.get_mut("metadata").and_then(Value::as_object_mut) {
                        m.remove("uid");
                    }
                }
            }
            Ok(v)
        }
        Err(s) => Err((s.code, s.reason.as_str().to_string(), s.message)),
    }
}

fn json<T: serde::Serialize>(value: T) -> Value {
    serde_json::to_value(value).unwrap()
}

/// Runs `op` against `registry`, for a Rust type and for
/// `DynamicObject` alike (the same generic store).
async fn run<K>(registry: &Registry<K>, op: &Op) -> Result<Value, Status>
where
    K: api_core::registry::Served,
{
    let from = |v: &Value| serde_json::from_value::<K>(v.clone()).unwrap();
    match op {
        Op::Create(v) => registry
            .create("default", from(v))
            .await
            .map(|o| json(o.object)),
        Op::Update(v) => registry
            .update("default", from(v))
            .await
            .map(|o| json(o.object)),
        Op::UpdateStatus(v) => registry
            .update_status("default", from(v))
            .await
            .map(|o| json(o.object)),
        Op::MergePatch(name, patch) => registry
            .patch(
                "default",
                name,
                PatchType::Merge,
                patch.to_string().as_bytes(),
            )
            .await
            .map(|o| json(o.object)),
        Op::Delete(name) => registry
            .delete("default", name, &DeleteOptions::default())
            .await
            .map(|d| json(d.object)),
        Op::Get(name) => registry.get("default", name).await.map(json),
        // A list of dynamic objects has no kind of its own: the
        // registry's kind names it (as a server writes it).
        Op::List => registry
            .list("default", &ListOptions::default())
            .await
            .map(|list| {
                let kind = registry.kind_info();
                let mut v = json(list);
                v["apiVersion"] = json!(kind.api_version());
                v["kind"] = json!(kind.list_kind);
                v
            }),
    }
}

/// Runs `ops` against both registries; the answers must agree one by one.
async fn agree(ops: &[Op]) {
    let (t, d) = (typed(), dynamic());
    for (i, op) in ops.iter().enumerate() {
        let a = normal(run(&t, op).await);
        let b = normal(run(&d, op).await);
        assert_eq!(a, b, "step {i}: {op:?}");
    }
}

fn memcached(name: &str, spec: Value) -> Value {
    json!({
        "apiVersion": "cache.example.com/v1alpha1",
        "kind": "Memcached",
        "metadata": {"name": name},
        "spec": spec
    })
}

fn with_rv(mut v: Value, rv: &str) -> Value {
    v["metadata"]["resourceVersion"] = json!(rv);
    v
}

fn ready(status: &str) -> Value {
    json!({"conditions": [{"type": "Available", "status": status,
        "lastTransitionTime": "2023-11-14T22:13:20Z", "reason": "R", "message": "m"}]})
}

#[tokio::test]
async fn the_same_answers_for_a_life_cycle() {
    let mut with_status = with_rv(memcached("a", json!({"size": 2})), "1");
    with_status["status"] = ready("True");
    agree(&[
        // Defaulted (size 1), pruned (colour), generation 1.
        Op::Create(memcached("a", json!({"colour": "red"}))),
        Op::Create(memcached("a", json!({}))),
        // Invalid: minimum and maximum, with the apiserver's words.
        Op::Create(memcached("b", json!({"size": 0}))),
        Op::Create(memcached("b", json!({"size": 9}))),
        Op::Get("a"),
        // The main endpoint keeps the status; the spec change bumps the
        // generation.
        Op::Update(with_status.clone()),
        Op::UpdateStatus(with_rv(with_status.clone(), "2")),
        Op::Get("a"),
        // A stale resourceVersion.
        Op::Update(with_rv(memcached("a", json!({"size": 3})), "1")),
        Op::MergePatch("a", json!({"spec": {"size": 3}})),
        Op::MergePatch("a", json!({"spec": {"size": 7}})),
        Op::MergePatch("a", json!({"metadata": {"labels": {"app": "web"}}})),
        // A write that changes nothing.
        Op::MergePatch("a", json!({})),
        Op::List,
        Op::Delete("a"),
        Op::Get("a"),
        Op::Delete("a"),
    ])
    .await;
}

fn op() -> impl Strategy<Value = Op> {
    let name = prop::sample::select(vec!["a", "b"]);
    let size = prop::option::of(-1i32..5);
    let spec = size.prop_map(|s| match s {
        Some(s) => json!({"size": s}),
        None => json!({}),
    });
    prop_oneof![
        (name.clone(), spec.clone()).prop_map(|(n, s)| Op::Create(memcached(n, s))),
        (name.clone(), spec.clone()).prop_map(|(n, s)| Op::MergePatch(n, json!({"spec": s}))),
        (name.clone(), prop::bool::ANY).prop_map(|(n, r)| Op::MergePatch(
            n,
            json!({"metadata": {"labels": {"ready": r.to_string()}}})
        )),
        name.clone().prop_map(Op::Delete),
        name.prop_map(Op::Get),
        Just(Op::List),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn any_sequence_gets_the_same_answers(ops in prop::collection::vec(op(), 1..12)) {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(agree(&ops));
    }
}

/// Two served versions of one kind described by data, with conversion
/// strategy `None` (`Registry::stored_as`): both read and write the same
/// stored objects, which are stored as the storage version, and each
/// answers in its own version, nothing else changed.
#[tokio::test]
async fn two_versions_share_the_stored_objects_with_conversion_none() {
    let storage = Arc::new(MemoryStorage::new());
    let v1 = KindInfo::from_crd(&Memcached::crd(), "v1alpha1").unwrap();
    let mut v2 = v1.clone();
    v2.version = "v1beta1".into();
    let stored = Registry::<DynamicObject>::with_kind(
        v1.clone(),
        DynamicStrategy::new(&v1),
        storage.clone(),
    );
    let other = Registry::<DynamicObject>::with_kind(
        v2.clone(),
        DynamicStrategy::new(&v2),
        storage.clone(),
    )
    .stored_as("cache.example.com/v1alpha1");
    let object: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "cache.example.com/v1beta1", "kind": "Memcached",
        "metadata": {"name": "m"}, "spec": {"size": 2}
    }))
    .unwrap();
    let created = other.create("default", object).await.unwrap().object;
    assert_eq!(
        created.to_value()["apiVersion"],
        "cache.example.com/v1beta1"
    );
    let raw = api_core::registry::Storage::get(storage.as_ref(), &v1.key("default", "m"))
        .await
        .unwrap();
    assert_eq!(raw.value["apiVersion"], "cache.example.com/v1alpha1");
    let as_v1 = stored.get("default", "m").await.unwrap().to_value();
    let as_v2 = other.get("default", "m").await.unwrap().to_value();
    assert_eq!(as_v1["apiVersion"], "cache.example.com/v1alpha1");
    assert_eq!(as_v2["apiVersion"], "cache.example.com/v1beta1");
    let mut same = as_v2.clone();
    same["apiVersion"] = as_v1["apiVersion"].clone();
    assert_eq!(same, as_v1, "nothing but apiVersion differs");
    let listed = other
        .list("default", &ListOptions::default())
        .await
        .unwrap();
    assert_eq!(
        listed.items[0].to_value()["apiVersion"],
        "cache.example.com/v1beta1"
    );
}
