//! The garbage collector, with the scenarios of kube-controller-manager's
//! end-to-end tests translated (`test/e2e/apimachinery/garbage_collector.go`,
//! each test names the one it follows) onto kinds of our own: `Gizmo`
//! owns `Part`s, as a ReplicationController owns Pods there; `Rack` is a
//! cluster-scoped owner. Upstream waits for real controllers to create
//! the dependents; here the test creates them with their owner
//! references, which is all the collector reads.

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;
mod support;

use std::time::{Duration, Instant};

use api_core::prelude::*;
use api_core::registry::DefaultStrategy;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tower::ServiceExt;

/// GizmoSpec is the desired state of a Gizmo.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Gizmo", namespaced)]
pub struct GizmoSpec {
    /// size of the gizmo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

/// PartSpec is the desired state of a Part.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Part", namespaced)]
pub struct PartSpec {
    /// size of the part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

/// RackSpec is the desired state of a Rack.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Rack")]
pub struct RackSpec {
    /// size of the rack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

const NS: &str = "/apis/example.com/v1/namespaces/default";
const RACKS: &str = "/apis/example.com/v1/racks";

struct Env {
    app: axum::Router,
    server: api_server::ApiServer,
    controllers: Option<api_server::Controllers>,
}

async fn env(collector: bool) -> Env {
    let mut env = env_stopped(collector).await;
    env.start();
    env
}

/// The server with its controllers (the collector) not started yet.
async fn env_stopped(collector: bool) -> Env {
    let mut builder = storage::builder()
        .await
        .resource::<Gizmo>(DefaultStrategy)
        .resource::<Part>(DefaultStrategy)
        .resource::<Rack>(DefaultStrategy);
    if collector {
        builder = builder.garbage_collector();
    }
    let server = builder.build();
    Env {
        app: server.router(),
        server,
        controllers: None,
    }
}

impl Env {
    fn start(&mut self) {
        self.controllers = Some(self.server.start_controllers());
    }

    /// How many `kind`s there are (in `default`).
    async fn count(&self, kind: &str) -> usize {
        let (code, list) = self.call("GET", &collection(kind), Value::Null).await;
        assert_eq!(code, StatusCode::OK, "{list}");
        list["items"].as_array().map_or(0, Vec::len)
    }

    async fn call(&self, method: &str, uri: &str, body: Value) -> (StatusCode, Value) {
        support::oneshot(&self.app, method, uri, body).await
    }

    /// Creates `kind` `name` (in `default` unless a rack) owned by
    /// `owners` (`(kind, name, uid, blockOwnerDeletion)`), with
    /// `finalizers`; its uid.
    async fn create(
        &self,
        kind: &str,
        name: &str,
        owners: &[(&str, &str, &str, bool)],
        finalizers: &[&str],
    ) -> String {
        let mut metadata = json!({"name": name});
        if !owners.is_empty() {
            metadata["ownerReferences"] = owners
                .iter()
                .map(|(kind, name, uid, block)| {
                    json!({"apiVersion": "example.com/v1", "kind": kind, "name": name,
                           "uid": uid, "blockOwnerDeletion": block})
                })
                .collect();
        }
        if !finalizers.is_empty() {
            metadata["finalizers"] = json!(finalizers);
        }
        let body = json!({"apiVersion": "example.com/v1", "kind": kind,
                          "metadata": metadata, "spec": {}});
        let (code, object) = self.call("POST", &collection(kind), body).await;
        assert_eq!(code, StatusCode::CREATED, "{object}");
        object["metadata"]["uid"].as_str().unwrap().to_string()
    }

    async fn get(&self, kind: &str, name: &str) -> Option<Value> {
        let (code, object) = self
            .call("GET", &format!("{}/{name}", collection(kind)), Value::Null)
            .await;
        match code {
            StatusCode::OK => Some(object),
            StatusCode::NOT_FOUND => None,
            other => panic!("GET {kind} {name}: {other} {object}"),
        }
    }

    async fn delete(&self, kind: &str, name: &str, options: Value) -> Value {
        let (code, object) = self
            .call("DELETE", &format!("{}/{name}", collection(kind)), options)
            .await;
        assert!(code.is_success(), "DELETE {kind} {name}: {code} {object}");
        object
    }

    /// Waits (up to five seconds) until `done` holds of `kind` `name`'s
    /// state (`None`: gone).
    async fn wait(&self, kind: &str, name: &str, done: impl Fn(Option<&Value>) -> bool) {
        let start = Instant::now();
        loop {
            let state = self.get(kind, name).await;
            if done(state.as_ref()) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "{kind} {name} never reached the state; last: {state:?}"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    async fn gone(&self, kind: &str, name: &str) {
        self.wait(kind, name, |s| s.is_none()).await;
    }

    /// Lets the collector catch up: a dependent of a missing owner,
    /// created now, is collected after everything queued before it.
    async fn settle(&self) {
        let name = format!("probe-{}", rand_suffix());
        self.create(
            "Part",
            &name,
            &[("Gizmo", "none", "no-such-uid", false)],
            &[],
        )
        .await;
        self.gone("Part", &name).await;
    }
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

fn collection(kind: &str) -> String {
    match kind {
        "Rack" => RACKS.to_string(),
        other => format!("{NS}/{}s", other.to_lowercase()),
    }
}

fn owner_uids(object: &Value) -> Vec<&str> {
    object["metadata"]["ownerReferences"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["uid"].as_str())
        .collect()
}

fn policy(policy: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "DeleteOptions", "propagationPolicy": policy})
}

/// "should delete pods created by rc when not orphaning", "should delete
/// RS created by deployment when not orphaning" and "should support
/// cascading deletion of custom resources": `Background` (and no policy:
/// custom resources default to it) deletes the owner at once and its
/// dependents after.
#[tokio::test]
async fn background_deletion_collects_the_dependents() {
    let env = env(true).await;
    for (owner, options) in [("g1", policy("Background")), ("g2", Value::Null)] {
        let uid = env.create("Gizmo", owner, &[], &[]).await;
        for i in 0..3 {
            env.create(
                "Part",
                &format!("{owner}-p{i}"),
                &[("Gizmo", owner, &uid, false)],
                &[],
            )
            .await;
        }
        env.delete("Gizmo", owner, options).await;
        assert!(
            env.get("Gizmo", owner).await.is_none(),
            "the owner goes at once"
        );
        for i in 0..3 {
            env.gone("Part", &format!("{owner}-p{i}")).await;
        }
    }
}

/// "should orphan pods created by rc when deleteOptions.propagationPolicy
/// is Orphan", "should orphan RS created by deployment when
/// deleteOptions.PropagationPolicy is Orphan" and "should support orphan
/// deletion of custom resources" (and the deprecated
/// `orphanDependents: true`): the dependents stay, without the reference.
#[tokio::test]
async fn orphan_deletion_keeps_the_dependents_without_the_reference() {
    let env = env(true).await;
    let orphan_dependents =
        json!({"apiVersion": "v1", "kind": "DeleteOptions", "orphanDependents": true});
    for (owner, options) in [("g1", policy("Orphan")), ("g2", orphan_dependents)] {
        let uid = env.create("Gizmo", owner, &[], &[]).await;
        let other_name = format!("{owner}-other");
        let other = env.create("Gizmo", &other_name, &[], &[]).await;
        env.create(
            "Part",
            &format!("{owner}-p0"),
            &[("Gizmo", owner, &uid, true)],
            &[],
        )
        .await;
        env.create(
            "Part",
            &format!("{owner}-p1"),
            &[
                ("Gizmo", owner, &uid, false),
                ("Gizmo", &other_name, &other, false),
            ],
            &[],
        )
        .await;
        let deleted = env.delete("Gizmo", owner, options).await;
        assert_eq!(
            deleted["metadata"]["finalizers"],
            json!(["orphan"]),
            "{deleted}"
        );
        env.gone("Gizmo", owner).await;
        env.settle().await;
        let p0 = env
            .get("Part", &format!("{owner}-p0"))
            .await
            .expect("p0 stays");
        assert!(owner_uids(&p0).is_empty(), "{p0}");
        let p1 = env
            .get("Part", &format!("{owner}-p1"))
            .await
            .expect("p1 stays");
        assert_eq!(owner_uids(&p1), [other.as_str()], "{p1}");
    }
}

/// "should keep the rc around until all its pods are deleted if the
/// deleteOptions says so": `Foreground` keeps the owner (with the
/// `foregroundDeletion` finalizer) until its blocking dependents are gone.
/// One dependent holds a finalizer of its own, so the owner's wait shows.
#[tokio::test]
async fn foreground_deletion_keeps_the_owner_until_its_blocking_dependents_are_gone() {
    let env = env(true).await;
    let uid = env.create("Gizmo", "g", &[], &[]).await;
    env.create("Part", "p0", &[("Gizmo", "g", &uid, true)], &[])
        .await;
    env.create("Part", "p1", &[("Gizmo", "g", &uid, false)], &[])
        .await;
    env.create(
        "Part",
        "held",
        &[("Gizmo", "g", &uid, true)],
        &["example.com/hold"],
    )
    .await;
    let deleted = env.delete("Gizmo", "g", policy("Foreground")).await;
    assert_eq!(
        deleted["metadata"]["finalizers"],
        json!(["foregroundDeletion"])
    );
    env.gone("Part", "p0").await;
    env.gone("Part", "p1").await;
    env.wait("Part", "held", |s| {
        s.is_some_and(|p| !p["metadata"]["deletionTimestamp"].is_null())
    })
    .await;
    env.settle().await;
    let owner = env
        .get("Gizmo", "g")
        .await
        .expect("waits for the held part");
    assert!(!owner["metadata"]["deletionTimestamp"].is_null());
    // The hold goes: the part, then the owner.
    let request = Request::builder()
        .method("PATCH")
        .uri(format!("{NS}/parts/held"))
        .header(header::CONTENT_TYPE, "application/merge-patch+json")
        .body(Body::from(r#"{"metadata":{"finalizers":null}}"#))
        .unwrap();
    let response = env.app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    env.gone("Part", "held").await;
    env.gone("Gizmo", "g").await;
}

/// "should not delete dependents that have both valid owner and owner
/// that's waiting for dependents to be deleted": of the dependents of an
/// owner deleted in the foreground, those with a second owner that stays
/// only lose the reference to the first.
#[tokio::test]
async fn a_dependent_with_a_second_owner_that_stays_only_loses_the_reference() {
    let env = env(true).await;
    let going = env.create("Gizmo", "to-be-deleted", &[], &[]).await;
    let staying = env.create("Gizmo", "to-stay", &[], &[]).await;
    for i in 0..6 {
        let mut owners = vec![("Gizmo", "to-be-deleted", going.as_str(), true)];
        if i % 2 == 0 {
            owners.push(("Gizmo", "to-stay", staying.as_str(), true));
        }
        env.create("Part", &format!("p{i}"), &owners, &[]).await;
    }
    env.delete("Gizmo", "to-be-deleted", policy("Foreground"))
        .await;
    env.gone("Gizmo", "to-be-deleted").await;
    for i in 0..6 {
        if i % 2 == 0 {
            env.wait("Part", &format!("p{i}"), |s| {
                s.is_some_and(|p| owner_uids(p) == [staying.as_str()])
            })
            .await;
        } else {
            env.gone("Part", &format!("p{i}")).await;
        }
    }
    assert!(env.get("Gizmo", "to-stay").await.is_some());
}

/// "should not be blocked by dependency circle": three owners, each the
/// blocking dependent of the next, deleted in the foreground, all go.
#[tokio::test]
async fn a_circle_of_blocking_owners_is_collected() {
    let env = env(true).await;
    let one = env.create("Gizmo", "one", &[], &[]).await;
    let two = env
        .create("Gizmo", "two", &[("Gizmo", "one", &one, true)], &[])
        .await;
    let three = env
        .create("Gizmo", "three", &[("Gizmo", "two", &two, true)], &[])
        .await;
    // one → owned by three: the circle closes.
    let (code, body) = env
        .call("GET", &format!("{NS}/gizmos/one"), Value::Null)
        .await;
    assert_eq!(code, StatusCode::OK);
    let mut updated = body.clone();
    updated["metadata"]["ownerReferences"] = json!([{"apiVersion": "example.com/v1",
        "kind": "Gizmo", "name": "three", "uid": three, "blockOwnerDeletion": true}]);
    let (code, body) = env.call("PUT", &format!("{NS}/gizmos/one"), updated).await;
    assert_eq!(code, StatusCode::OK, "{body}");
    env.delete("Gizmo", "one", policy("Foreground")).await;
    for name in ["one", "two", "three"] {
        env.gone("Gizmo", name).await;
    }
}

/// Dependents whose owner never existed are collected (the collector
/// checks an owner it has not seen against the storage, as upstream's
/// `isDangling`); a reference to a kind the server does not serve is left
/// alone; a cluster-scoped owner takes its namespaced dependents along.
#[tokio::test]
async fn dangling_unserved_and_cluster_scoped_owners() {
    let env = env(true).await;
    let (code, body) = env
        .call(
            "POST",
            &format!("{NS}/parts"),
            json!({"apiVersion": "example.com/v1", "kind": "Part", "spec": {},
                   "metadata": {"name": "unserved", "ownerReferences": [{"apiVersion": "other.io/v1",
                   "kind": "Thing", "name": "t", "uid": "u-1"}]}}),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    env.create(
        "Part",
        "dangling",
        &[("Gizmo", "ghost", "no-such-uid", false)],
        &[],
    )
    .await;
    // Same name, another uid: the reference is still dangling.
    env.create("Gizmo", "renamed", &[], &[]).await;
    env.create(
        "Part",
        "stale",
        &[("Gizmo", "renamed", "an-older-uid", false)],
        &[],
    )
    .await;
    env.gone("Part", "dangling").await;
    env.gone("Part", "stale").await;
    env.settle().await;
    assert!(env.get("Part", "unserved").await.is_some());

    let rack = env.create("Rack", "r", &[], &[]).await;
    let (code, body) = env
        .call(
            "POST",
            &format!("{NS}/parts"),
            json!({"apiVersion": "example.com/v1", "kind": "Part", "spec": {},
                   "metadata": {"name": "in-rack", "ownerReferences": [{"apiVersion": "example.com/v1",
                   "kind": "Rack", "name": "r", "uid": rack}]}}),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    env.delete("Rack", "r", Value::Null).await;
    env.gone("Part", "in-rack").await;
}

/// Without a collector a delete's policy adds no finalizer (nothing would
/// remove it): the owner goes at once and its dependents stay.
#[tokio::test]
async fn without_a_collector_foreground_deletes_at_once() {
    let env = env(false).await;
    let uid = env.create("Gizmo", "g", &[], &[]).await;
    env.create("Part", "p", &[("Gizmo", "g", &uid, true)], &[])
        .await;
    let deleted = env.delete("Gizmo", "g", policy("Foreground")).await;
    assert!(deleted["metadata"]["finalizers"].is_null(), "{deleted}");
    assert!(env.get("Gizmo", "g").await.is_none());
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(env.get("Part", "p").await.is_some());
}

/// The collector reads what is there when it starts a page at a time
/// (client-go's pager's 500, as upstream's informers list): 1,100
/// dependents of an owner that was never there, created before the
/// collector starts, span three pages, and every one of them is
/// collected (a collector that stopped after the first page would leave
/// 600: they come in no watch event, being older than the list).
#[tokio::test]
async fn the_collector_lists_what_is_there_page_by_page() {
    let mut env = env_stopped(true).await;
    for i in 0..1_100 {
        env.create(
            "Part",
            &format!("p{i:04}"),
            &[("Gizmo", "never", "never-there", false)],
            &[],
        )
        .await;
    }
    assert_eq!(env.count("Part").await, 1_100);
    env.start();
    let start = Instant::now();
    loop {
        let left = env.count("Part").await;
        if left == 0 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{left} of 1,100 dependents of a missing owner are left"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
