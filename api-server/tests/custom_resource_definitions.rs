//! CustomResourceDefinitions created at run time, as apiextensions-apiserver
//! serves them: the scenarios of its `test/integration/basic_test.go`
//! (`TestServerUp`/`TestNamespaceScopedCRUD`: create the CRD, wait for
//! `Established`, use the kind; `TestDeRegistrationAndReRegistration`:
//! delete and create again), `finalization_test.go` (a deleted CRD's
//! objects go first, creates are refused meanwhile) and
//! `names_test.go`-style conflicts (the naming controller's
//! `calculateNamesAndConditions`), over HTTP in process.

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;
mod support;

use api_core::prelude::*;
use api_core::registry::DefaultStrategy;
use api_server::ApiServer;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// GizmoSpec is the desired state of a Gizmo, a kind served from its Rust
/// type beside the CRDs.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "later.example.com",
    version = "v1",
    kind = "Gizmo",
    namespaced
)]
pub struct GizmoSpec {
    /// replicas of the gizmo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
}

const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const WIDGETS_V1: &str = "/apis/later.example.com/v1/namespaces/default/widgets";
const WIDGETS_V1BETA1: &str = "/apis/later.example.com/v1beta1/namespaces/default/widgets";

struct Env {
    app: axum::Router,
    server: ApiServer,
    _controllers: api_server::Controllers,
}

async fn env() -> Env {
    let server = ApiServer::builder()
        .storage(storage::storage().await)
        .with_namespaces()
        .with_custom_resource_definitions()
        .resource::<Gizmo>(DefaultStrategy)
        .build();
    Env {
        app: server.router(),
        _controllers: server.start_controllers(),
        server,
    }
}

impl Env {
    async fn call(&self, method: &str, uri: &str, body: Value) -> (StatusCode, Value) {
        support::oneshot(&self.app, method, uri, body).await
    }

    /// Waits (up to ten seconds) until `done` holds of what `uri` answers.
    async fn until(&self, uri: &str, done: impl Fn(StatusCode, &Value) -> bool) -> Value {
        support::until(&self.app, uri, done).await
    }

    async fn established(&self, name: &str) -> Value {
        self.until(&format!("{CRDS}/{name}"), |_, crd| {
            condition(crd, "Established")["status"] == "True"
        })
        .await
    }
}

use support::condition;

fn schema() -> Value {
    json!({"openAPIV3Schema": {"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
            "size": {"type": "integer", "default": 1, "maximum": 10},
            "color": {"type": "string"}}}}}})
}

/// `widgets.later.example.com`: versions v1 (stored) and v1beta1, both
/// served, conversion None.
fn widgets_crd() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.later.example.com"},
        "spec": {
            "group": "later.example.com", "scope": "Namespaced",
            "names": {"plural": "widgets", "kind": "Widget", "shortNames": ["wd"]},
            "versions": [
                {"name": "v1", "served": true, "storage": true, "schema": schema()},
                {"name": "v1beta1", "served": true, "storage": false, "schema": schema()}
            ]
        }
    })
}

#[tokio::test]
async fn a_crd_created_at_run_time_is_established_and_served() {
    let env = env().await;
    let (code, _) = env.call("GET", WIDGETS_V1, Value::Null).await;
    assert_eq!(code, StatusCode::NOT_FOUND);
    let (code, created) = env.call("POST", CRDS, widgets_crd()).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    // The v1 defaults.
    assert_eq!(created["spec"]["names"]["singular"], "widget");
    assert_eq!(created["spec"]["names"]["listKind"], "WidgetList");
    assert_eq!(created["spec"]["conversion"]["strategy"], "None");
    assert_eq!(created["status"]["storedVersions"], json!(["v1"]));

    let crd = env.established("widgets.later.example.com").await;
    let accepted = condition(&crd, "NamesAccepted");
    assert_eq!(accepted["status"], "True");
    assert_eq!(accepted["reason"], "NoConflicts");
    assert_eq!(accepted["message"], "no conflicts found");
    assert_eq!(
        condition(&crd, "Established")["reason"],
        "InitialNamesAccepted"
    );
    assert_eq!(crd["status"]["acceptedNames"]["plural"], "widgets");
    assert_eq!(crd["status"]["acceptedNames"]["kind"], "Widget");
    assert_eq!(crd["status"]["acceptedNames"]["shortNames"], json!(["wd"]));

    // Written through one version, read through both; stored as v1.
    let widget = json!({"apiVersion": "later.example.com/v1beta1", "kind": "Widget",
                        "metadata": {"name": "w1"}, "spec": {"color": "red"}});
    let (code, created) = env.call("POST", WIDGETS_V1BETA1, widget).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(created["apiVersion"], "later.example.com/v1beta1");
    assert_eq!(created["spec"]["size"], 1, "defaulted by the schema");
    let (code, as_v1) = env
        .call("GET", &format!("{WIDGETS_V1}/w1"), Value::Null)
        .await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(as_v1["apiVersion"], "later.example.com/v1");
    assert_eq!(as_v1["spec"], created["spec"]);
    // Validated by the schema, with the apiserver's causes.
    let bad = json!({"apiVersion": "later.example.com/v1", "kind": "Widget",
                     "metadata": {"name": "w2"}, "spec": {"size": 11}});
    let (code, status) = env.call("POST", WIDGETS_V1, bad).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert_eq!(status["details"]["causes"][0]["field"], "spec.size");
    // Discovery lists both versions.
    let (code, resources) = env
        .call("GET", "/apis/later.example.com/v1beta1", Value::Null)
        .await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(resources["resources"][0]["name"], "widgets");
}

#[tokio::test]
async fn names_in_use_are_not_accepted() {
    let env = env().await;
    let (code, _) = env.call("POST", CRDS, widgets_crd()).await;
    assert_eq!(code, StatusCode::CREATED);
    env.established("widgets.later.example.com").await;
    // Another plural, the same kind and short name.
    let mut gadgets = widgets_crd();
    gadgets["metadata"]["name"] = json!("gadgets.later.example.com");
    gadgets["spec"]["names"] =
        json!({"plural": "gadgets", "kind": "Widget", "listKind": "GadgetList"});
    let (code, body) = env.call("POST", CRDS, gadgets).await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    let crd = env
        .until(&format!("{CRDS}/gadgets.later.example.com"), |_, crd| {
            condition(crd, "NamesAccepted")["status"] == "False"
        })
        .await;
    let accepted = condition(&crd, "NamesAccepted");
    assert_eq!(accepted["reason"], "KindConflict");
    assert_eq!(accepted["message"], "\"Widget\" is already in use");
    let established = condition(&crd, "Established");
    assert_eq!(established["status"], "False");
    assert_eq!(established["reason"], "NotAccepted");
    // Accepted names hold what was free.
    assert_eq!(crd["status"]["acceptedNames"]["plural"], "gadgets");
    let (code, _) = env
        .call(
            "GET",
            "/apis/later.example.com/v1/namespaces/default/gadgets",
            Value::Null,
        )
        .await;
    assert_eq!(code, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn deleting_a_crd_deletes_its_objects_first() {
    let env = env().await;
    let (code, _) = env.call("POST", CRDS, widgets_crd()).await;
    assert_eq!(code, StatusCode::CREATED);
    env.established("widgets.later.example.com").await;
    for name in ["a", "b"] {
        let widget = json!({"apiVersion": "later.example.com/v1", "kind": "Widget",
                            "metadata": {"name": name}, "spec": {}});
        let (code, body) = env.call("POST", WIDGETS_V1, widget).await;
        assert_eq!(code, StatusCode::CREATED, "{body}");
    }
    // One held by a finalizer: the CRD waits for it.
    let (code, body) = env
        .call(
            "PATCH",
            &format!("{WIDGETS_V1}/b"),
            json!({"metadata": {"finalizers": ["example.com/hold"]}}),
        )
        .await;
    assert!(code.is_success(), "{body}");
    let (code, deleted) = env
        .call(
            "DELETE",
            &format!("{CRDS}/widgets.later.example.com"),
            Value::Null,
        )
        .await;
    assert!(code.is_success(), "{deleted}");
    assert!(
        deleted["metadata"]["finalizers"]
            .as_array()
            .unwrap()
            .contains(&json!("customresourcecleanup.apiextensions.k8s.io")),
        "{deleted}"
    );
    env.until(&format!("{WIDGETS_V1}/a"), |code, _| {
        code == StatusCode::NOT_FOUND
    })
    .await;
    let crd = env
        .until(&format!("{CRDS}/widgets.later.example.com"), |_, crd| {
            condition(crd, "Terminating")["reason"] == "InstanceDeletionInProgress"
        })
        .await;
    assert_eq!(condition(&crd, "Terminating")["status"], "True");
    // Creates are refused while it terminates.
    let widget = json!({"apiVersion": "later.example.com/v1", "kind": "Widget",
                        "metadata": {"name": "c"}, "spec": {}});
    let (code, status) = env.call("POST", WIDGETS_V1, widget).await;
    assert_eq!(code, StatusCode::METHOD_NOT_ALLOWED, "{status}");
    assert_eq!(
        status["message"],
        "create not allowed while custom resource definition is terminating"
    );
    // The held object lets go: the CRD goes, and its kind with it.
    let (code, body) = env
        .call(
            "PATCH",
            &format!("{WIDGETS_V1}/b"),
            json!({"metadata": {"finalizers": null}}),
        )
        .await;
    assert!(code.is_success(), "{body}");
    env.until(&format!("{CRDS}/widgets.later.example.com"), |code, _| {
        code == StatusCode::NOT_FOUND
    })
    .await;
    let (code, _) = env.call("GET", WIDGETS_V1, Value::Null).await;
    assert_eq!(code, StatusCode::NOT_FOUND);
    // Created again, served again.
    let (code, _) = env.call("POST", CRDS, widgets_crd()).await;
    assert_eq!(code, StatusCode::CREATED);
    env.established("widgets.later.example.com").await;
    env.until(WIDGETS_V1, |code, list| {
        code == StatusCode::OK && list["items"] == json!([])
    })
    .await;
}

#[tokio::test]
async fn invalid_crds_and_webhook_conversion_are_refused() {
    let env = env().await;
    let mut bad = widgets_crd();
    bad["metadata"]["name"] = json!("wrong.later.example.com");
    let (code, status) = env.call("POST", CRDS, bad).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .contains(r#"must be spec.names.plural+"."+spec.group"#),
        "{status}"
    );
    let mut webhook = widgets_crd();
    webhook["spec"]["conversion"] = json!({"strategy": "Webhook", "webhook": {
        "conversionReviewVersions": ["v1"],
        "clientConfig": {"url": "https://example.com/convert"}}});
    let (code, status) = env.call("POST", CRDS, webhook).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .contains("conversion webhooks are not served yet"),
        "{status}"
    );
}

/// envtest's `CRDDirectoryPaths`: the CRDs of a directory's YAML and JSON
/// files (other kinds skipped, other files ignored), installed at start;
/// installing one again replaces it.
#[tokio::test]
async fn crds_are_read_from_a_directory_and_installed() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let mut gadgets = widgets_crd();
    gadgets["metadata"]["name"] = json!("gadgets.later.example.com");
    gadgets["spec"]["names"] = json!({"plural": "gadgets", "kind": "Gadget"});
    let yaml = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: skipped\n---\n{}",
        serde_json::from_value::<api_core::crd::CustomResourceDefinition>(widgets_crd())
            .unwrap()
            .to_yaml()
    );
    std::fs::write(dir.join("a-widgets.yaml"), yaml).unwrap();
    std::fs::write(dir.join("b-gadgets.json"), gadgets.to_string()).unwrap();
    std::fs::write(dir.join("README.md"), "not a CRD").unwrap();
    let crds = api_server::apiextensions::read_crd_dir(dir).unwrap();
    let names: Vec<&str> = crds
        .iter()
        .map(|c| c["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["widgets.later.example.com", "gadgets.later.example.com"]
    );

    let env = env().await;
    for crd in &crds {
        env.server.install_crd(crd).await.unwrap();
    }
    env.established("widgets.later.example.com").await;
    env.established("gadgets.later.example.com").await;
    // Again, with a third version: replaced, and served.
    let mut more = crds[0].clone();
    more["spec"]["versions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "v2", "served": true, "storage": false, "schema": schema()}));
    let replaced = env.server.install_crd(&more).await.unwrap();
    assert_eq!(replaced["metadata"]["generation"], 2);
    env.until(
        "/apis/later.example.com/v2/namespaces/default/widgets",
        |code, _| code == StatusCode::OK,
    )
    .await;

    let missing =
        api_server::apiextensions::read_crd_dir(std::path::Path::new("/no/such/dir")).unwrap_err();
    assert!(missing.starts_with("/no/such/dir: "), "{missing}");
}

/// A CRD may not take the names of a kind served from a Rust type in its
/// group (the naming controller counts every served resource of the
/// group): its own CRD exists already (409), and another CRD's kind
/// conflicts; the typed kind keeps being served.
#[tokio::test]
async fn a_crd_does_not_take_a_served_kind_s_names() {
    let env = env().await;
    let mut gizmos = widgets_crd();
    gizmos["metadata"]["name"] = json!("gizmos.later.example.com");
    gizmos["spec"]["names"] = json!({"plural": "gizmos", "kind": "Thing"});
    let (code, body) = env.call("POST", CRDS, gizmos).await;
    assert_eq!(code, StatusCode::CONFLICT, "{body}");
    let mut things = widgets_crd();
    things["metadata"]["name"] = json!("things.later.example.com");
    things["spec"]["names"] = json!({"plural": "things", "kind": "Gizmo", "listKind": "ThingList"});
    let (code, body) = env.call("POST", CRDS, things).await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    let crd = env
        .until(&format!("{CRDS}/things.later.example.com"), |_, crd| {
            condition(crd, "NamesAccepted")["status"] == "False"
        })
        .await;
    assert_eq!(condition(&crd, "NamesAccepted")["reason"], "KindConflict");
    assert_eq!(
        condition(&crd, "NamesAccepted")["message"],
        "\"Gizmo\" is already in use"
    );
    let gizmo = json!({"apiVersion": "later.example.com/v1", "kind": "Gizmo",
                       "metadata": {"name": "g"}, "spec": {"replicas": 1}});
    let (code, body) = env
        .call(
            "POST",
            "/apis/later.example.com/v1/namespaces/default/gizmos",
            gizmo,
        )
        .await;
    assert_eq!(
        code,
        StatusCode::CREATED,
        "the typed kind is still served: {body}"
    );
}

/// The scale subresource of a CRD given at run time (`subresources.scale`),
/// as `kubectl scale` uses it.
#[tokio::test]
async fn a_crd_s_scale_subresource_is_served() {
    let env = env().await;
    let mut crd = widgets_crd();
    crd["spec"]["versions"] = json!([{"name": "v1", "served": true, "storage": true,
        "schema": {"openAPIV3Schema": {"type": "object", "properties": {
            "spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}},
            "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}},
        "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
            "statusReplicasPath": ".status.replicas"}}}]);
    let (code, body) = env.call("POST", CRDS, crd).await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    env.established("widgets.later.example.com").await;
    let widget = json!({"apiVersion": "later.example.com/v1", "kind": "Widget",
                        "metadata": {"name": "w"}, "spec": {"replicas": 2}});
    let (code, body) = env.call("POST", WIDGETS_V1, widget).await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    let (code, scale) = env
        .call("GET", &format!("{WIDGETS_V1}/w/scale"), Value::Null)
        .await;
    assert_eq!(code, StatusCode::OK, "{scale}");
    assert_eq!(scale["kind"], "Scale");
    assert_eq!(scale["spec"]["replicas"], 2);
    let (code, body) = env
        .call(
            "PATCH",
            &format!("{WIDGETS_V1}/w/scale"),
            json!({"spec": {"replicas": 5}}),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{body}");
    let (_, widget) = env
        .call("GET", &format!("{WIDGETS_V1}/w"), Value::Null)
        .await;
    assert_eq!(widget["spec"]["replicas"], 5);
}

/// The kinds served from Rust types are CRD objects too, `Established`,
/// as a cluster lists every kind it serves (`kubectl get crds`, and code
/// that waits for `Established` before it uses a kind), and read-only.
#[tokio::test]
async fn kinds_served_from_rust_types_are_established_read_only_crds() {
    let env = env().await;
    let crd = env.established("gizmos.later.example.com").await;
    assert_eq!(crd["spec"]["names"]["kind"], "Gizmo");
    assert_eq!(crd["status"]["acceptedNames"]["plural"], "gizmos");
    assert_eq!(condition(&crd, "NamesAccepted")["reason"], "NoConflicts");
    let (_, list) = env.call("GET", CRDS, Value::Null).await;
    let names: Vec<&str> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["gizmos.later.example.com"]);

    let mut changed = crd.clone();
    changed["spec"]["names"]["shortNames"] = json!(["gz"]);
    let (code, status) = env
        .call("PUT", &format!("{CRDS}/gizmos.later.example.com"), changed)
        .await;
    assert_eq!(code, StatusCode::METHOD_NOT_ALLOWED, "{status}");
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .contains("serves from its Rust type: it cannot be changed"),
        "{status}"
    );
    let (code, status) = env
        .call(
            "DELETE",
            &format!("{CRDS}/gizmos.later.example.com"),
            Value::Null,
        )
        .await;
    assert_eq!(code, StatusCode::METHOD_NOT_ALLOWED, "{status}");
    // Still served, still there.
    let (code, _) = env
        .call(
            "GET",
            "/apis/later.example.com/v1/namespaces/default/gizmos",
            Value::Null,
        )
        .await;
    assert_eq!(code, StatusCode::OK);
    env.established("gizmos.later.example.com").await;
}

/// Defaults apply on read too, with the storage version's schema
/// ("when reading from etcd using the storage version defaults"): a
/// defaulted `status` (dropped by the status subresource on create) shows
/// on every read, as Gateway API's `Pending` conditions do on a cluster,
/// and a default added to the CRD later shows on objects stored before.
#[tokio::test]
async fn defaults_apply_on_read() {
    let env = env().await;
    let mut crd = widgets_crd();
    crd["spec"]["versions"] = json!([{"name": "v1", "served": true, "storage": true,
        "subresources": {"status": {}},
        "schema": {"openAPIV3Schema": {"type": "object", "properties": {
            "spec": {"type": "object", "properties": {"size": {"type": "integer"}}},
            "status": {"type": "object", "default": {"phase": "Pending"},
                       "properties": {"phase": {"type": "string"}}}}}}}]);
    let (code, body) = env.call("POST", CRDS, crd.clone()).await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    env.established("widgets.later.example.com").await;
    let widget = json!({"apiVersion": "later.example.com/v1", "kind": "Widget",
                        "metadata": {"name": "w"}, "spec": {}});
    let (code, created) = env.call("POST", WIDGETS_V1, widget).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let (_, read) = env
        .call("GET", &format!("{WIDGETS_V1}/w"), Value::Null)
        .await;
    assert_eq!(read["status"]["phase"], "Pending", "{read}");

    // A default added to the CRD shows on the object stored before it.
    let (_, mut current) = env
        .call(
            "GET",
            &format!("{CRDS}/widgets.later.example.com"),
            Value::Null,
        )
        .await;
    current["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]
        ["size"]["default"] = json!(3);
    let (code, body) = env
        .call("PUT", &format!("{CRDS}/widgets.later.example.com"), current)
        .await;
    assert_eq!(code, StatusCode::OK, "{body}");
    env.until(&format!("{WIDGETS_V1}/w"), |code, w| {
        code == StatusCode::OK && w["spec"]["size"] == 3
    })
    .await;
    let (_, list) = env.call("GET", WIDGETS_V1, Value::Null).await;
    assert_eq!(list["items"][0]["spec"]["size"], 3, "{list}");
}

/// `change_test.go`'s scenario: a CRD changed while served takes effect
/// (its schema's new bound validates the next write; a version no longer
/// served is a 404, the others stay served with their objects).
#[tokio::test]
async fn a_changed_crd_takes_effect() {
    let env = env().await;
    let (code, _) = env.call("POST", CRDS, widgets_crd()).await;
    assert_eq!(code, StatusCode::CREATED);
    env.established("widgets.later.example.com").await;
    let widget = |name: &str, size: i64| {
        json!({"apiVersion": "later.example.com/v1", "kind": "Widget",
               "metadata": {"name": name}, "spec": {"size": size}})
    };
    let (code, body) = env.call("POST", WIDGETS_V1, widget("w5", 5)).await;
    assert_eq!(code, StatusCode::CREATED, "{body}");

    let (_, mut crd) = env
        .call(
            "GET",
            &format!("{CRDS}/widgets.later.example.com"),
            Value::Null,
        )
        .await;
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["size"]
        ["maximum"] = json!(4);
    crd["spec"]["versions"][1]["served"] = json!(false);
    let (code, body) = env
        .call("PUT", &format!("{CRDS}/widgets.later.example.com"), crd)
        .await;
    assert_eq!(code, StatusCode::OK, "{body}");
    assert_eq!(body["metadata"]["generation"], 2);
    env.until(WIDGETS_V1BETA1, |code, _| code == StatusCode::NOT_FOUND)
        .await;
    let (code, status) = env.call("POST", WIDGETS_V1, widget("w6", 5)).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert_eq!(status["details"]["causes"][0]["field"], "spec.size");
    let (code, _) = env
        .call("GET", &format!("{WIDGETS_V1}/w5"), Value::Null)
        .await;
    assert_eq!(code, StatusCode::OK, "objects stored before stay");

    // ... and stay updatable where they do not change what the tightened
    // schema refuses (validation ratcheting, after upstream's
    // `TestRatchetingFunctionality` "Minimum Maximum": fields added, old
    // ones kept, then an old field changed to another invalid value).
    let w5 = format!("{WIDGETS_V1}/w5");
    let patch = json!({"metadata": {"labels": {"touched": "yes"}}, "spec": {"color": "red"}});
    let (code, body) = env.call("PATCH", &w5, patch).await;
    assert_eq!(code, StatusCode::OK, "{body}");
    assert_eq!(body["spec"], json!({"size": 5, "color": "red"}));
    let (code, status) = env.call("PATCH", &w5, json!({"spec": {"size": 6}})).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    assert_eq!(status["details"]["causes"][0]["field"], "spec.size");
    let (code, _) = env.call("PATCH", &w5, json!({"spec": {"size": 4}})).await;
    assert_eq!(code, StatusCode::OK, "a valid value");
}

/// The naming controller's other conflicts: a singular, short names (all
/// of them named) and a list kind in use.
#[tokio::test]
async fn singular_short_name_and_list_kind_conflicts() {
    let env = env().await;
    let (code, _) = env.call("POST", CRDS, widgets_crd()).await;
    assert_eq!(code, StatusCode::CREATED);
    env.established("widgets.later.example.com").await;
    for (names, reason, message) in [
        (
            json!({"plural": "gadgets", "singular": "widget", "kind": "Gadget"}),
            "SingularConflict",
            "\"widget\" is already in use",
        ),
        (
            json!({"plural": "gadgets", "kind": "Gadget", "shortNames": ["wd", "gizmo"]}),
            "ShortNamesConflict",
            "[\"wd\" is already in use, \"gizmo\" is already in use]",
        ),
        (
            json!({"plural": "gadgets", "kind": "Gadget", "listKind": "WidgetList"}),
            "ListKindConflict",
            "\"WidgetList\" is already in use",
        ),
    ] {
        let mut gadgets = widgets_crd();
        gadgets["metadata"]["name"] = json!("gadgets.later.example.com");
        gadgets["spec"]["names"] = names;
        let (code, body) = env.call("POST", CRDS, gadgets).await;
        assert_eq!(code, StatusCode::CREATED, "{body}");
        let crd = env
            .until(&format!("{CRDS}/gadgets.later.example.com"), |_, crd| {
                condition(crd, "NamesAccepted")["status"] == "False"
            })
            .await;
        let accepted = condition(&crd, "NamesAccepted");
        assert_eq!(accepted["reason"], reason, "{crd}");
        assert_eq!(accepted["message"], message, "{crd}");
        let (code, _) = env
            .call(
                "DELETE",
                &format!("{CRDS}/gadgets.later.example.com"),
                Value::Null,
            )
            .await;
        assert!(code.is_success());
        env.until(&format!("{CRDS}/gadgets.later.example.com"), |code, _| {
            code == StatusCode::NOT_FOUND
        })
        .await;
    }
}

/// A CRD whose schema does not declare `apiVersion`, `kind` and `metadata`
/// (controller-gen's do; hand-written ones often do not): they are every
/// object's all the same, not unknown fields, also under
/// `fieldValidation=Strict` (kubectl's default).
#[tokio::test]
async fn type_meta_is_known_without_being_declared() {
    let env = env().await;
    let (code, _) = env.call("POST", CRDS, widgets_crd()).await;
    assert_eq!(code, StatusCode::CREATED);
    env.established("widgets.later.example.com").await;
    let widget = json!({"apiVersion": "later.example.com/v1", "kind": "Widget",
                        "metadata": {"name": "w", "labels": {"a": "b"}}, "spec": {"size": 2}});
    let (code, body) = env
        .call(
            "POST",
            &format!("{WIDGETS_V1}?fieldValidation=Strict"),
            widget,
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    let unknown = json!({"apiVersion": "later.example.com/v1", "kind": "Widget",
                         "metadata": {"name": "u"}, "spec": {"size": 2, "colour": "red"}});
    let (code, status) = env
        .call(
            "POST",
            &format!("{WIDGETS_V1}?fieldValidation=Strict"),
            unknown,
        )
        .await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{status}");
    assert_eq!(
        status["message"],
        "strict decoding error: unknown field \"spec.colour\""
    );
}

/// A CRD's `selectableFields` are field selectors of its kind (as
/// `kubectl get --field-selector spec.color=red`); other fields are not.
#[tokio::test]
async fn selectable_fields_select() {
    let env = env().await;
    let mut crd = widgets_crd();
    crd["spec"]["versions"] = json!([{"name": "v1", "served": true, "storage": true,
        "schema": schema(), "selectableFields": [{"jsonPath": ".spec.color"}]}]);
    let (code, body) = env.call("POST", CRDS, crd).await;
    assert_eq!(code, StatusCode::CREATED, "{body}");
    env.established("widgets.later.example.com").await;
    for (name, color) in [("r", "red"), ("b", "blue")] {
        let widget = json!({"apiVersion": "later.example.com/v1", "kind": "Widget",
                            "metadata": {"name": name}, "spec": {"color": color}});
        let (code, body) = env.call("POST", WIDGETS_V1, widget).await;
        assert_eq!(code, StatusCode::CREATED, "{body}");
    }
    let (code, list) = env
        .call(
            "GET",
            &format!("{WIDGETS_V1}?fieldSelector=spec.color%3Dred"),
            Value::Null,
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{list}");
    let names: Vec<&str> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["r"]);
    let (code, status) = env
        .call(
            "GET",
            &format!("{WIDGETS_V1}?fieldSelector=spec.size%3D1"),
            Value::Null,
        )
        .await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{status}");
}
