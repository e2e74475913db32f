//! Kinds added to and removed from a running server
//! (`ApiServer::add_kind`, `ApiServer::remove_kind`), as
//! apiextensions-apiserver adds a CustomResourceDefinition's versions:
//! the kind is served from the next request on, discovery, OpenAPI and
//! the table of kinds list it, and the controllers that act across kinds
//! (the garbage collector, the namespace controller) take it in; once
//! removed, it is a 404 again and gone from discovery.

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;
mod support;

use std::sync::Arc;
use std::time::Duration;

use api_core::prelude::*;
use api_core::registry::{DefaultStrategy, DynamicObject, DynamicStrategy, KindInfo, Registry};
use api_core::resource::Scope;
use api_server::ApiServer;
use api_server::served::RegistryKind;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// GadgetSpec is the desired state of a Gadget.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Gadget", namespaced)]
pub struct GadgetSpec {
    /// size of the gadget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
}

const WIDGETS: &str = "/apis/later.example.com/v1/namespaces/default/widgets";
const GADGETS: &str = "/apis/example.com/v1/namespaces/default/gadgets";

fn widgets() -> KindInfo {
    KindInfo {
        group: "later.example.com".into(),
        version: "v1".into(),
        kind: "Widget".into(),
        list_kind: "WidgetList".into(),
        plural: "widgets".into(),
        singular: "widget".into(),
        short_names: vec!["wd".into()],
        categories: Vec::new(),
        scope: Scope::Namespaced,
        status_subresource: false,
        crd: None,
    }
}

struct Env {
    server: ApiServer,
    app: axum::Router,
    storage: Arc<dyn api_core::registry::Storage>,
    _controllers: api_server::Controllers,
}

async fn env() -> Env {
    let storage = storage::storage().await;
    let server = ApiServer::builder()
        .storage(storage.clone())
        .with_namespaces()
        .garbage_collector()
        .resource::<Gadget>(DefaultStrategy)
        .build();
    Env {
        app: server.router(),
        _controllers: server.start_controllers(),
        server,
        storage,
    }
}

impl Env {
    async fn call(&self, method: &str, uri: &str, body: Value) -> (StatusCode, Value) {
        support::oneshot(&self.app, method, uri, body).await
    }

    fn add_widgets(&self) {
        let kind = widgets();
        let registry = Registry::<DynamicObject>::with_kind(
            kind.clone(),
            DynamicStrategy::new(&kind),
            self.storage.clone(),
        );
        self.server
            .add_kind(Arc::new(RegistryKind::dynamic(Arc::new(registry))));
    }

    /// Waits (up to ten seconds) until `uri` answers `code`.
    async fn until(&self, uri: &str, code: StatusCode) {
        support::until(&self.app, uri, |got, _| got == code).await;
    }
}

fn widget(name: &str, owners: Value) -> Value {
    json!({"apiVersion": "later.example.com/v1", "kind": "Widget",
           "metadata": {"name": name, "ownerReferences": owners}, "spec": {"size": 1}})
}

#[tokio::test]
async fn a_kind_added_at_run_time_is_served_discovered_and_described() {
    let env = env().await;
    let (code, _) = env.call("GET", WIDGETS, Value::Null).await;
    assert_eq!(code, StatusCode::NOT_FOUND);
    assert!(
        env.server
            .kinds()
            .by_resource("later.example.com", "v1", "widgets")
            .is_none()
    );

    env.add_widgets();
    let (code, created) = env.call("POST", WIDGETS, widget("w1", json!([]))).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let (code, list) = env.call("GET", WIDGETS, Value::Null).await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(list["kind"], "WidgetList");
    assert_eq!(list["items"][0]["metadata"]["name"], "w1");

    // Discovery: the group, its version's resources, the aggregated form.
    let (_, groups) = env.call("GET", "/apis", Value::Null).await;
    assert!(
        groups["groups"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["name"] == "later.example.com"),
        "{groups}"
    );
    let (code, resources) = env
        .call("GET", "/apis/later.example.com/v1", Value::Null)
        .await;
    assert_eq!(code, StatusCode::OK);
    let widgets = &resources["resources"][0];
    assert_eq!(widgets["name"], "widgets");
    assert_eq!(widgets["kind"], "Widget");
    assert_eq!(widgets["shortNames"], json!(["wd"]));
    // OpenAPI v3 lists the new group version.
    let (_, index) = env.call("GET", "/openapi/v3", Value::Null).await;
    assert!(
        index["paths"].get("apis/later.example.com/v1").is_some(),
        "{index}"
    );
    // The table of kinds.
    let info = env
        .server
        .kinds()
        .by_resource("later.example.com", "v1", "widgets")
        .expect("in the table");
    assert_eq!(info.kind, "Widget");
    // The kinds it was built with are still served.
    let (code, _) = env.call("GET", GADGETS, Value::Null).await;
    assert_eq!(code, StatusCode::OK);

    // Removed: a 404 again, gone from discovery and the table; the
    // objects stay in storage (served again when the kind comes back).
    let removed = env.server.remove_kind("later.example.com", "v1", "widgets");
    assert!(removed.is_some());
    let (code, _) = env.call("GET", WIDGETS, Value::Null).await;
    assert_eq!(code, StatusCode::NOT_FOUND);
    let (code, _) = env
        .call("GET", "/apis/later.example.com/v1", Value::Null)
        .await;
    assert_eq!(code, StatusCode::NOT_FOUND);
    assert!(
        env.server
            .kinds()
            .by_resource("later.example.com", "v1", "widgets")
            .is_none()
    );
    assert!(
        env.server
            .remove_kind("later.example.com", "v1", "widgets")
            .is_none()
    );
    env.add_widgets();
    env.until(&format!("{WIDGETS}/w1"), StatusCode::OK).await;
}

/// The garbage collector takes in a kind added after it started: a
/// widget whose owner was never there is collected, and a gadget owned
/// by a widget goes with it.
#[tokio::test]
async fn the_garbage_collector_follows_kinds_added_at_run_time() {
    let env = env().await;
    let missing = json!([{"apiVersion": "example.com/v1", "kind": "Gadget",
                          "name": "never", "uid": "never-there"}]);
    // The collector is running (and has read the kinds it started with)
    // once it collected a gadget of a missing owner: only then the kind
    // comes.
    let probe = json!({"apiVersion": "example.com/v1", "kind": "Gadget",
        "metadata": {"name": "probe", "ownerReferences": missing.clone()}, "spec": {}});
    let (code, _) = env.call("POST", GADGETS, probe).await;
    assert_eq!(code, StatusCode::CREATED);
    env.until(&format!("{GADGETS}/probe"), StatusCode::NOT_FOUND)
        .await;
    env.add_widgets();
    let (code, _) = env.call("POST", WIDGETS, widget("orphan", missing)).await;
    assert_eq!(code, StatusCode::CREATED);
    env.until(&format!("{WIDGETS}/orphan"), StatusCode::NOT_FOUND)
        .await;

    let (_, owner) = env.call("POST", WIDGETS, widget("owner", json!([]))).await;
    let uid = owner["metadata"]["uid"].as_str().unwrap().to_string();
    let gadget = json!({"apiVersion": "example.com/v1", "kind": "Gadget",
        "metadata": {"name": "g1", "ownerReferences": [{"apiVersion": "later.example.com/v1",
            "kind": "Widget", "name": "owner", "uid": uid}]}, "spec": {}});
    let (code, body) = env.call("POST", GADGETS, gadget).await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    let (code, _) = env
        .call("DELETE", &format!("{WIDGETS}/owner"), Value::Null)
        .await;
    assert!(code.is_success());
    env.until(&format!("{GADGETS}/g1"), StatusCode::NOT_FOUND)
        .await;
}

/// The namespace controller deletes the objects of a kind added after
/// it started when their namespace goes.
#[tokio::test]
async fn a_namespace_deletion_deletes_objects_of_kinds_added_at_run_time() {
    let env = env().await;
    // Let the controllers start with the kinds the server was built with.
    tokio::time::sleep(Duration::from_millis(50)).await;
    env.add_widgets();
    let (code, body) = env
        .call(
            "POST",
            "/api/v1/namespaces",
            json!({"apiVersion": "v1", "kind": "Namespace",
            "metadata": {"name": "temp"}}),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    let in_temp = "/apis/later.example.com/v1/namespaces/temp/widgets";
    let (code, body) = env.call("POST", in_temp, widget("w", json!([]))).await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    let (code, _) = env
        .call("DELETE", "/api/v1/namespaces/temp", Value::Null)
        .await;
    assert!(code.is_success());
    env.until(&format!("{in_temp}/w"), StatusCode::NOT_FOUND)
        .await;
    env.until("/api/v1/namespaces/temp", StatusCode::NOT_FOUND)
        .await;
}
