//! A kind served from its Rust type and the same kind served from its
//! generated CRD, given at run time, answer every request alike (issue
//! 31's property): the same request sequences over HTTP (in process) to a
//! server built with `resource::<Memcached>()` and to one that was handed
//! `Memcached::crd()` through the API get the same status codes and the
//! same bodies, but for what differs by nature (uids, resourceVersions,
//! which count each server's own writes, and timestamps).
//!
//! The registry-level counterpart is api-core-tests' `registry_dynamic`;
//! this one adds the HTTP layer (decoding, field validation, the status
//! subresource, merge patches and server-side apply, lists, Status
//! bodies) and the CRD's path through the CRD controller.

use std::time::{Duration, Instant};

use api_core::registry::DefaultStrategy;
use api_server::ApiServer;
use axum::body::{Body, to_bytes};
use axum::http::Request;
use examples::memcached::Memcached;
use proptest::prelude::*;
use serde_json::{Value, json};
use tower::ServiceExt;

const MEMCACHEDS: &str = "/apis/cache.example.com/v1alpha1/namespaces/default/memcacheds";

/// One request, abstractly (each server's own resourceVersions fill in).
#[derive(Clone, Debug)]
enum Op {
    Create(&'static str, Value),
    /// GET, then PUT with this spec (and the read resourceVersion).
    Replace(&'static str, Value),
    /// PUT with a resourceVersion long gone.
    ReplaceStale(&'static str, Value),
    /// GET, then PUT of the status subresource with this status.
    ReplaceStatus(&'static str, Value),
    MergePatch(&'static str, Value),
    /// Server-side apply of this spec, as manager `test`.
    Apply(&'static str, Value),
    Delete(&'static str),
    Get(&'static str),
    List,
}

struct Server {
    router: axum::Router,
    _controllers: api_server::Controllers,
}

async fn typed() -> Server {
    let server = ApiServer::builder()
        .with_custom_resource_definitions()
        .resource::<Memcached>(DefaultStrategy)
        .build();
    Server {
        router: server.router(),
        _controllers: server.start_controllers(),
    }
}

async fn from_crd() -> Server {
    let server = ApiServer::builder()
        .with_custom_resource_definitions()
        .build();
    let router = server.router();
    let controllers = server.start_controllers();
    let crd = Memcached::crd().to_json();
    let (code, body) = call(
        &router,
        "POST",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        "application/json",
        Some(crd),
    )
    .await;
    assert_eq!(code, 201, "{body}");
    let start = Instant::now();
    while call(&router, "GET", MEMCACHEDS, "", None).await.0 != 200 {
        assert!(start.elapsed() < Duration::from_secs(10), "never served");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    Server {
        router,
        _controllers: controllers,
    }
}

async fn call(
    router: &axum::Router,
    method: &str,
    uri: &str,
    content_type: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    if !content_type.is_empty() {
        request = request.header("content-type", content_type);
    }
    let request = request
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let response = router.clone().oneshot(request).await.unwrap();
    let code = response.status().as_u16();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (code, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

fn memcached(name: &str, spec: &Value) -> Value {
    json!({"apiVersion": "cache.example.com/v1alpha1", "kind": "Memcached",
           "metadata": {"name": name}, "spec": spec})
}

/// Runs `op` against `server`.
async fn run(server: &Server, op: &Op) -> (u16, Value) {
    let r = &server.router;
    let one = |name: &str| format!("{MEMCACHEDS}/{name}");
    let json = "application/json";
    match op {
        Op::Create(name, spec) => {
            call(r, "POST", MEMCACHEDS, json, Some(memcached(name, spec))).await
        }
        Op::Replace(name, spec) => {
            let (code, mut current) = call(r, "GET", &one(name), "", None).await;
            if code != 200 {
                return (code, current);
            }
            current["spec"] = spec.clone();
            call(r, "PUT", &one(name), json, Some(current)).await
        }
        Op::ReplaceStale(name, spec) => {
            let mut object = memcached(name, spec);
            object["metadata"]["resourceVersion"] = json!("1");
            call(r, "PUT", &one(name), json, Some(object)).await
        }
        Op::ReplaceStatus(name, status) => {
            let (code, mut current) = call(r, "GET", &one(name), "", None).await;
            if code != 200 {
                return (code, current);
            }
            current["status"] = status.clone();
            call(
                r,
                "PUT",
                &format!("{}/status", one(name)),
                json,
                Some(current),
            )
            .await
        }
        Op::MergePatch(name, patch) => {
            call(
                r,
                "PATCH",
                &one(name),
                "application/merge-patch+json",
                Some(patch.clone()),
            )
            .await
        }
        Op::Apply(name, spec) => {
            call(
                r,
                "PATCH",
                &format!("{}?fieldManager=test", one(name)),
                "application/apply-patch+yaml",
                Some(memcached(name, spec)),
            )
            .await
        }
        Op::Delete(name) => call(r, "DELETE", &one(name), "", None).await,
        Op::Get(name) => call(r, "GET", &one(name), "", None).await,
        Op::List => call(r, "GET", MEMCACHEDS, "", None).await,
    }
}

/// `value` without what differs by nature: uids, resourceVersions and
/// timestamps (each server counts its own writes, and the two may fall
/// in different seconds).
fn normal(mut value: Value) -> Value {
    fn meta(object: &mut Value) {
        if let Some(m) = object.get_mut("metadata").and_then(Value::as_object_mut) {
            for field in [
                "uid",
                "resourceVersion",
                "creationTimestamp",
                "deletionTimestamp",
            ] {
                m.remove(field);
            }
            if let Some(entries) = m.get_mut("managedFields").and_then(Value::as_array_mut) {
                for entry in entries {
                    if let Some(e) = entry.as_object_mut() {
                        e.remove("time");
                    }
                }
            }
        }
    }
    meta(&mut value);
    if let Some(items) = value.get_mut("items").and_then(Value::as_array_mut) {
        items.iter_mut().for_each(meta);
    }
    value
}

async fn agree(ops: &[Op]) {
    let (a, b) = (typed().await, from_crd().await);
    for (i, op) in ops.iter().enumerate() {
        let (code_a, body_a) = run(&a, op).await;
        let (code_b, body_b) = run(&b, op).await;
        assert_eq!(
            (code_a, normal(body_a)),
            (code_b, normal(body_b)),
            "step {i}: {op:?}"
        );
    }
}

fn ready(status: &str) -> Value {
    json!({"conditions": [{"type": "Available", "status": status,
        "lastTransitionTime": "2023-11-14T22:13:20Z", "reason": "R", "message": "m"}]})
}

#[tokio::test]
async fn the_same_answers_for_a_life_cycle() {
    agree(&[
        // Defaulted (size 1), pruned (colour).
        Op::Create("a", json!({"colour": "red"})),
        Op::Create("a", json!({})),
        // Invalid: the bounds, with the apiserver's words.
        Op::Create("b", json!({"size": 0})),
        Op::Create("b", json!({"size": 9})),
        Op::Get("a"),
        Op::Replace("a", json!({"size": 2})),
        Op::ReplaceStatus("a", ready("True")),
        Op::ReplaceStale("a", json!({"size": 3})),
        Op::MergePatch("a", json!({"spec": {"size": 3}})),
        Op::MergePatch("a", json!({"spec": {"size": 7}})),
        Op::MergePatch("a", json!({"metadata": {"labels": {"app": "web"}}})),
        Op::MergePatch("a", json!({})),
        Op::Apply("a", json!({"size": 2})),
        Op::Apply("c", json!({"size": 1})),
        Op::List,
        Op::Delete("a"),
        Op::Get("a"),
        Op::Delete("a"),
        Op::List,
    ])
    .await;
}

fn op() -> impl Strategy<Value = Op> {
    let name = prop::sample::select(vec!["a", "b"]);
    let spec = prop::option::of(-1i32..5).prop_map(|s| match s {
        Some(s) => json!({"size": s}),
        None => json!({}),
    });
    prop_oneof![
        (name.clone(), spec.clone()).prop_map(|(n, s)| Op::Create(n, s)),
        (name.clone(), spec.clone()).prop_map(|(n, s)| Op::Replace(n, s)),
        (name.clone(), spec.clone()).prop_map(|(n, s)| Op::ReplaceStale(n, s)),
        (name.clone(), prop::bool::ANY)
            .prop_map(|(n, r)| Op::ReplaceStatus(n, ready(if r { "True" } else { "False" }))),
        (name.clone(), spec.clone()).prop_map(|(n, s)| Op::MergePatch(n, json!({"spec": s}))),
        (name.clone(), spec.clone()).prop_map(|(n, s)| Op::Apply(n, s)),
        name.clone().prop_map(Op::Delete),
        name.prop_map(Op::Get),
        Just(Op::List),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn any_sequence_gets_the_same_answers(ops in prop::collection::vec(op(), 1..10)) {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(agree(&ops));
    }
}
