//! kube 5 drives derived kinds through `api_core::kube::Kube<R>`, against
//! the API server in process (`kube::Client::new` over the server's tower
//! Service: no socket): every `Api` verb, `watcher` (list-then-watch and
//! streaming lists), `reflector`, a `Controller` with a finalizer, and
//! cluster-scoped kinds with and without a status.

use std::sync::Arc;
use std::time::Duration;

use api_core::kube::Kube;
use api_core::prelude::*;
use api_envtest::TestEnv;
use examples::memcached::{Memcached, MemcachedSpec, MemcachedStatus};
use futures_util::{StreamExt, TryStreamExt};
use kube::api::{
    Api, DeleteParams, ListParams, Patch, PatchParams, PostParams, WatchEvent, WatchParams,
};
use kube::runtime::controller::Action;
use kube::runtime::{Controller, WatchStreamExt, reflector, watcher};
use kube::{Client, Resource, ResourceExt};
use serde_json::json;

type Mc = Kube<Memcached>;

/// A client of a fresh in-process server with namespaces and Memcached.
async fn client() -> Client {
    TestEnv::builder()
        .resource::<Memcached>()
        .start()
        .await
        .client()
}

fn mc(name: &str, size: i32) -> Mc {
    Memcached::new(name, MemcachedSpec { size: Some(size) }).into()
}

#[tokio::test]
async fn every_api_verb() {
    let api: Api<Mc> = Api::namespaced(client().await, "default");
    let pp = PostParams::default();

    let created = api.create(&pp, &mc("a", 1)).await.unwrap();
    assert_eq!(created.name_any(), "a");
    assert!(created.metadata.uid.is_some() && created.metadata.resource_version.is_some());
    assert_eq!(created.meta().generation, Some(1));

    let got = api.get("a").await.unwrap();
    assert_eq!(got, created);
    assert!(api.get_opt("missing").await.unwrap().is_none());
    let err = api.get("missing").await.unwrap_err();
    assert!(
        matches!(err, kube::Error::Api(ref s) if s.code == 404),
        "{err:?}"
    );

    api.create(&pp, &mc("b", 2)).await.unwrap();
    let list = api.list(&ListParams::default()).await.unwrap();
    let names: Vec<String> = list.items.iter().map(|o| o.name_any()).collect();
    assert_eq!(names, ["a", "b"]);
    let page = api.list(&ListParams::default().limit(1)).await.unwrap();
    assert_eq!(page.items.len(), 1);
    assert!(page.metadata.continue_.is_some());

    // replace
    let mut changed = got.clone();
    changed.spec.size = Some(3);
    let replaced = api.replace("a", &pp, &changed).await.unwrap();
    assert_eq!(replaced.spec.size, Some(3));
    assert_eq!(replaced.meta().generation, Some(2));

    // every patch type
    let merged = api
        .patch(
            "a",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"size": 2}})),
        )
        .await
        .unwrap();
    assert_eq!(merged.spec.size, Some(2));
    let strategic = api
        .patch(
            "a",
            &PatchParams::default(),
            &Patch::Strategic(json!({"metadata": {"labels": {"tier": "cache"}}})),
        )
        .await
        .unwrap();
    assert_eq!(
        strategic.labels().get("tier").map(String::as_str),
        Some("cache")
    );
    let json_patch: json_patch4::Patch =
        serde_json::from_value(json!([{"op": "replace", "path": "/spec/size", "value": 1}]))
            .unwrap();
    let patched = api
        .patch("a", &PatchParams::default(), &Patch::<()>::Json(json_patch))
        .await
        .unwrap();
    assert_eq!(patched.spec.size, Some(1));
    let applied = api
        .patch(
            "c",
            &PatchParams::apply("kube-test"),
            &Patch::Apply(json!({
                "apiVersion": "cache.example.com/v1alpha1",
                "kind": "Memcached",
                "metadata": {"name": "c"},
                "spec": {"size": 3}
            })),
        )
        .await
        .unwrap();
    assert_eq!(applied.spec.size, Some(3));
    assert_eq!(
        applied.metadata.managed_fields.as_ref().unwrap()[0]
            .manager
            .as_deref(),
        Some("kube-test")
    );

    // status
    let mut status = MemcachedStatus::default();
    status.conditions.set(Condition::new(
        "Available",
        ConditionStatus::True,
        "Ready",
        "",
    ));
    let with_status = api
        .patch_status(
            "a",
            &PatchParams::default(),
            &Patch::Merge(json!({"status": status})),
        )
        .await
        .unwrap();
    assert!(
        with_status
            .status
            .as_ref()
            .unwrap()
            .conditions
            .get("Available")
            .is_some()
    );
    let status_only = api.get_status("a").await.unwrap();
    assert_eq!(status_only.status, with_status.status);
    let mut cleared = status_only.clone();
    cleared.status = Some(MemcachedStatus::default());
    let replaced_status = api.replace_status("a", &pp, &cleared).await.unwrap();
    assert!(
        replaced_status
            .status
            .unwrap_or_default()
            .conditions
            .is_empty()
    );

    // entry
    let mut inserted = api.entry("d").await.unwrap().or_insert(|| mc("d", 1));
    inserted.commit(&pp).await.unwrap();
    let mut modified = api
        .entry("d")
        .await
        .unwrap()
        .and_modify(|o| o.spec.size = Some(2))
        .or_insert(|| mc("d", 1));
    modified.commit(&pp).await.unwrap();
    assert_eq!(api.get("d").await.unwrap().spec.size, Some(2));

    // delete and delete_collection
    let deleted = api.delete("d", &DeleteParams::default()).await.unwrap();
    assert!(deleted.is_left());
    api.delete_collection(
        &DeleteParams::default(),
        &ListParams::default().labels("tier=cache"),
    )
    .await
    .unwrap();
    let left: Vec<String> = api
        .list(&ListParams::default())
        .await
        .unwrap()
        .items
        .iter()
        .map(|o| o.name_any())
        .collect();
    assert_eq!(left, ["b", "c"]);

    // a cluster-wide list
    let all: Api<Mc> = Api::all(api.clone().into_client());
    assert_eq!(
        all.list(&ListParams::default()).await.unwrap().items.len(),
        2
    );
}

#[tokio::test]
async fn raw_watch_events() {
    let api: Api<Mc> = Api::namespaced(client().await, "default");
    let rv = api
        .list(&ListParams::default())
        .await
        .unwrap()
        .metadata
        .resource_version
        .unwrap();
    let mut stream = api
        .watch(&WatchParams::default().timeout(10), &rv)
        .await
        .unwrap()
        .boxed();
    api.create(&PostParams::default(), &mc("w", 1))
        .await
        .unwrap();
    let event = tokio::time::timeout(Duration::from_secs(5), stream.try_next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    match event {
        WatchEvent::Added(o) => assert_eq!(o.name_any(), "w"),
        other => panic!("expected ADDED, got {other:?}"),
    }
}

/// `watcher` in both modes and a reflector see the objects and the
/// changes.
#[tokio::test]
async fn watchers_and_reflectors() {
    let api: Api<Mc> = Api::namespaced(client().await, "default");
    api.create(&PostParams::default(), &mc("x", 1))
        .await
        .unwrap();
    for config in [
        watcher::Config::default(),
        watcher::Config::default().streaming_lists(),
    ] {
        let (reader, writer) = reflector::store::<Mc>();
        let stream = reflector(writer, watcher(api.clone(), config)).applied_objects();
        let mut stream = Box::pin(stream);
        let first = tokio::time::timeout(Duration::from_secs(5), stream.try_next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        assert_eq!(first.name_any(), "x");
        api.patch(
            "x",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"size": 2}})),
        )
        .await
        .unwrap();
        let changed = tokio::time::timeout(Duration::from_secs(5), stream.try_next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        assert_eq!(changed.spec.size, Some(2));
        // The store was ready once the initial list ended.
        tokio::time::timeout(Duration::from_secs(5), reader.wait_until_ready())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(reader.state().len(), 1);
        assert_eq!(reader.state()[0].spec.size, Some(2));
        api.patch(
            "x",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"size": 1}})),
        )
        .await
        .unwrap();
    }
}

/// A `Controller` reconciles every object and writes its status with
/// server-side apply; the `finalizer` helper adds and removes its
/// finalizer (a JSON patch that starts with a `test` op).
#[tokio::test]
async fn a_controller_with_a_finalizer() {
    use kube::runtime::finalizer::{Event, finalizer};

    struct Ctx {
        api: Api<Mc>,
    }

    #[derive(Debug)]
    struct Error(String);

    impl std::fmt::Display for Error {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(&self.0)
        }
    }

    impl std::error::Error for Error {}

    async fn apply(mc: Arc<Mc>, ctx: Arc<Ctx>) -> Result<Action, Error> {
        let status = json!({
            "apiVersion": "cache.example.com/v1alpha1",
            "kind": "Memcached",
            "status": {"conditions": [{
                "type": "Available", "status": "True", "reason": "Reconciled",
                "message": "", "lastTransitionTime": "2026-01-01T00:00:00Z"
            }]}
        });
        ctx.api
            .patch_status(
                &mc.name_any(),
                &PatchParams::apply("memcached-controller").force(),
                &Patch::Apply(status),
            )
            .await
            .map_err(|e| Error(e.to_string()))?;
        Ok(Action::await_change())
    }

    async fn reconcile(obj: Arc<Mc>, ctx: Arc<Ctx>) -> Result<Action, Error> {
        let api = ctx.api.clone();
        finalizer(&api, "cache.example.com/cleanup", obj, |event| async move {
            match event {
                Event::Apply(mc) => apply(mc, ctx).await,
                Event::Cleanup(_) => Ok::<_, Error>(Action::await_change()),
            }
        })
        .await
        .map_err(|e| Error(e.to_string()))
    }

    fn error_policy(_: Arc<Mc>, _: &Error, _: Arc<Ctx>) -> Action {
        Action::requeue(Duration::from_millis(50))
    }

    let api: Api<Mc> = Api::namespaced(client().await, "default");
    let controller = Controller::new(api.clone(), watcher::Config::default())
        .run(reconcile, error_policy, Arc::new(Ctx { api: api.clone() }))
        .for_each(|result| async move {
            if let Err(e) = result {
                eprintln!("reconcile: {e:?}");
            }
        });
    let running = tokio::spawn(controller);

    api.create(&PostParams::default(), &mc("m", 1))
        .await
        .unwrap();
    let ready = wait_for(&api, "m", |o| {
        o.as_ref().is_some_and(|o| {
            o.finalizers()
                .iter()
                .any(|f| f == "cache.example.com/cleanup")
                && o.status
                    .as_ref()
                    .is_some_and(|s| s.conditions.get("Available").is_some())
        })
    })
    .await;
    assert!(ready, "reconciled");
    api.delete("m", &DeleteParams::default()).await.unwrap();
    let gone = wait_for(&api, "m", |o| o.is_none()).await;
    assert!(gone, "the finalizer ran and the object went");
    running.abort();
}

/// Polls `name` until `done` holds (5 s at most).
async fn wait_for(api: &Api<Mc>, name: &str, done: impl Fn(&Option<Mc>) -> bool) -> bool {
    for _ in 0..500 {
        let object = api.get_opt(name).await.unwrap();
        if done(&object) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

/// NoteSpec is a cluster-wide kind without a status, to show that shape
/// through kube too.
#[derive(KubeResource, serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
#[kube(group = "notes.example.com", version = "v1", kind = "Note")]
#[serde(rename_all = "camelCase")]
pub struct NoteSpec {
    /// text of the note.
    pub text: String,
}

/// Cluster-scoped kinds (`Api::all`), with and without a status.
#[tokio::test]
async fn cluster_scoped_kinds_with_and_without_a_status() {
    use examples::tenant::{Tenant, TenantSpec};

    let env = TestEnv::builder()
        .resource::<Tenant>()
        .resource::<Note>()
        .start()
        .await;
    let tenants: Api<Kube<Tenant>> = Api::all(env.client());
    let spec = TenantSpec {
        display_name: "Team A".into(),
        admins: vec!["alice".into()],
        quota: None,
    };
    let created = tenants
        .create(&PostParams::default(), &Tenant::new("team-a", spec).into())
        .await
        .unwrap();
    assert_eq!(created.metadata.namespace, None);
    assert_eq!(
        tenants.get("team-a").await.unwrap().spec.display_name,
        "Team A"
    );

    let notes: Api<Kube<Note>> = Api::all(env.client());
    let note = Note::new("hello", NoteSpec { text: "hi".into() });
    let created = notes
        .create(&PostParams::default(), &note.clone().into())
        .await
        .unwrap();
    assert!(created.status.is_none());
    let back = created.into_inner();
    assert_eq!(
        (back.metadata.name.as_str(), back.spec),
        ("hello", note.spec)
    );
    let listed = notes.list(&ListParams::default()).await.unwrap();
    assert_eq!(listed.items.len(), 1);
}
