//! Server-side apply over HTTP (in-process): `PATCH` with
//! `application/apply-patch+yaml`, managedFields on every write, the
//! apiserver's 409 for conflicts, `force`, no-op applies, status applies,
//! and the PatchOptions checks.

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;

use api_core::prelude::*;
use api_core::registry::DefaultStrategy;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tower::ServiceExt;

/// GizmoSpec is the desired state of a Gizmo.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Gizmo",
    namespaced,
    status = "GizmoStatus"
)]
pub struct GizmoSpec {
    /// size of the gizmo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i32>,
    /// ports of the gizmo.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[kube(list_type = "map", list_map_keys = ["name"])]
    pub ports: Vec<Port>,
}

/// Port is a named port.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug)]
pub struct Port {
    /// name of the port.
    pub name: String,
    /// number of the port.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<i32>,
}

/// GizmoStatus is the observed state of a Gizmo.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default)]
pub struct GizmoStatus {
    /// ready is whether the gizmo is ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready: Option<bool>,
}

const GIZMOS: &str = "/apis/example.com/v1/namespaces/default/gizmos";

async fn app() -> axum::Router {
    storage::builder()
        .await
        .resource::<Gizmo>(DefaultStrategy)
        .build()
        .router()
}

async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    content_type: &str,
    body: &str,
    user_agent: &str,
) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, content_type)
        .header(header::USER_AGENT, user_agent)
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let code = response.status();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (code, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

const APPLY: &str = "application/apply-patch+yaml";

fn managers(object: &Value) -> Vec<(String, String)> {
    object["metadata"]["managedFields"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| {
                    (
                        e["manager"].as_str().unwrap().to_string(),
                        e["operation"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn apply_creates_owns_conflicts_and_forces() {
    let app = app().await;
    let g = format!("{GIZMOS}/g");
    let config = "apiVersion: example.com/v1\nkind: Gizmo\nmetadata:\n  name: g\nspec:\n  size: 1\n  ports:\n  - name: http\n    port: 80\n";

    // An apply needs a field manager.
    let (code, body) = call(&app, "PATCH", &g, APPLY, config, "curl/8").await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        body["message"],
        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
    );

    // Create on apply: 201, one Apply entry with the YAML's fields.
    let (code, created) = call(
        &app,
        "PATCH",
        &format!("{g}?fieldManager=alice"),
        APPLY,
        config,
        "curl/8",
    )
    .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(
        managers(&created),
        [("alice".to_string(), "Apply".to_string())]
    );
    assert_eq!(
        created["metadata"]["managedFields"][0]["fieldsV1"],
        json!({"f:spec": {"f:ports": {"k:{\"name\":\"http\"}": {".": {}, "f:name": {}, "f:port": {}}}, "f:size": {}}})
    );
    assert_eq!(
        created["metadata"]["managedFields"][0]["fieldsType"],
        "FieldsV1"
    );
    assert!(
        created["metadata"]["managedFields"][0]
            .get("apiVersion")
            .is_some()
    );

    // The same apply: nothing changes, not even the resourceVersion.
    let (code, same) = call(
        &app,
        "PATCH",
        &format!("{g}?fieldManager=alice"),
        APPLY,
        config,
        "curl/8",
    )
    .await;
    assert_eq!(code, StatusCode::OK, "{same}");
    assert_eq!(
        same["metadata"]["resourceVersion"],
        created["metadata"]["resourceVersion"]
    );

    // A merge patch from kubectl (no fieldManager): an Update entry named
    // after the user agent's program.
    let (code, patched) = call(
        &app,
        "PATCH",
        &g,
        "application/merge-patch+json",
        r#"{"spec":{"size":3}}"#,
        "kubectl/v1.37.1 (linux/amd64) kubernetes/abcdef",
    )
    .await;
    assert_eq!(code, StatusCode::OK, "{patched}");
    assert_eq!(
        managers(&patched),
        [
            ("alice".to_string(), "Apply".to_string()),
            ("kubectl".to_string(), "Update".to_string())
        ]
    );

    // alice applies size 1 again: kubectl owns it now.
    let (code, conflict) = call(
        &app,
        "PATCH",
        &format!("{g}?fieldManager=alice"),
        APPLY,
        config,
        "curl/8",
    )
    .await;
    assert_eq!(code, StatusCode::CONFLICT, "{conflict}");
    assert_eq!(
        conflict["message"],
        "Apply failed with 1 conflict: conflict with \"kubectl\" using example.com/v1: .spec.size"
    );
    assert_eq!(conflict["reason"], "Conflict");
    assert_eq!(
        conflict["details"]["causes"],
        json!([{"reason": "FieldManagerConflict", "message": "conflict with \"kubectl\" using example.com/v1", "field": ".spec.size"}])
    );

    // force takes it.
    let (code, forced) = call(
        &app,
        "PATCH",
        &format!("{g}?fieldManager=alice&force=true"),
        APPLY,
        config,
        "curl/8",
    )
    .await;
    assert_eq!(code, StatusCode::OK, "{forced}");
    assert_eq!(forced["spec"]["size"], 1);
    assert_eq!(
        managers(&forced),
        [("alice".to_string(), "Apply".to_string())]
    );

    // alice stops applying the port: it goes.
    let smaller =
        "apiVersion: example.com/v1\nkind: Gizmo\nmetadata:\n  name: g\nspec:\n  size: 1\n";
    let (code, pruned) = call(
        &app,
        "PATCH",
        &format!("{g}?fieldManager=alice"),
        APPLY,
        smaller,
        "curl/8",
    )
    .await;
    assert_eq!(code, StatusCode::OK, "{pruned}");
    assert!(pruned["spec"].get("ports").is_none(), "{pruned}");

    // force is for applies only.
    let (code, body) = call(
        &app,
        "PATCH",
        &format!("{g}?force=true"),
        "application/merge-patch+json",
        "{}",
        "curl/8",
    )
    .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        body["message"],
        "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch"
    );
}

#[tokio::test]
async fn status_applies_own_status_only_and_dry_runs_store_nothing() {
    let app = app().await;
    let g = format!("{GIZMOS}/s");
    let config = r#"{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"s"},"spec":{"size":2}}"#;
    let (code, created) = call(
        &app,
        "PATCH",
        &format!("{g}?fieldManager=ci"),
        APPLY,
        config,
        "x",
    )
    .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");

    let status = r#"{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"s"},"status":{"ready":true}}"#;
    let (code, with_status) = call(
        &app,
        "PATCH",
        &format!("{g}/status?fieldManager=controller"),
        APPLY,
        status,
        "x",
    )
    .await;
    assert_eq!(code, StatusCode::OK, "{with_status}");
    assert_eq!(with_status["status"]["ready"], true);
    assert_eq!(with_status["spec"]["size"], 2, "the spec is kept");
    let entries = with_status["metadata"]["managedFields"].as_array().unwrap();
    let controller = entries
        .iter()
        .find(|e| e["manager"] == "controller")
        .unwrap();
    assert_eq!(controller["subresource"], "status");
    assert_eq!(controller["fieldsV1"], json!({"f:status": {"f:ready": {}}}));

    // A status applied to the main resource is not owned (reset field).
    let (code, body) = call(&app, "PATCH", &format!("{g}?fieldManager=ci&dryRun=All"), APPLY,
        r#"{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"s"},"spec":{"size":5}}"#, "x").await;
    assert_eq!(code, StatusCode::OK, "{body}");
    assert_eq!(body["spec"]["size"], 5);
    let (_, stored) = call(&app, "GET", &g, "", "", "x").await;
    assert_eq!(stored["spec"]["size"], 2, "a dry run stores nothing");

    // Wrong kind or name in the body: 400.
    let (code, body) = call(
        &app,
        "PATCH",
        &format!("{g}?fieldManager=ci"),
        APPLY,
        r#"{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"other"}}"#,
        "x",
    )
    .await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{body}");
    let (code, body) = call(
        &app,
        "PATCH",
        &format!("{g}?fieldManager=ci"),
        APPLY,
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"s"}}"#,
        "x",
    )
    .await;
    assert_eq!(code, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["message"], "invalid object type: v1, Kind=ConfigMap");
}

#[tokio::test]
async fn every_write_records_its_manager() {
    let app = app().await;
    let body = r#"{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"w"},"spec":{"size":1}}"#;
    let (code, created) = call(
        &app,
        "POST",
        GIZMOS,
        "application/json",
        body,
        "my-operator/0.1",
    )
    .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let entry = &created["metadata"]["managedFields"][0];
    assert_eq!(entry["manager"], "my-operator");
    assert_eq!(entry["operation"], "Update");
    assert_eq!(entry["apiVersion"], "example.com/v1");
    // As for custom resources on a real apiserver (their empty object has
    // no spec): the added spec is itself a member.
    assert_eq!(
        entry["fieldsV1"],
        json!({"f:spec": {".": {}, "f:size": {}}})
    );
    let mut put = created.clone();
    put["spec"]["size"] = json!(4);
    let (code, updated) = call(
        &app,
        "PUT",
        &format!("{GIZMOS}/w?fieldManager=editor"),
        "application/json",
        &put.to_string(),
        "my-operator/0.1",
    )
    .await;
    assert_eq!(code, StatusCode::OK, "{updated}");
    // The editor took spec.size; the creator keeps spec itself. (Sorted
    // here: the server orders two `Update` entries by their time in
    // seconds first, and the two writes may fall in different seconds.)
    let mut both = managers(&updated);
    both.sort();
    assert_eq!(
        both,
        [
            ("editor".to_string(), "Update".to_string()),
            ("my-operator".to_string(), "Update".to_string())
        ]
    );
    let entries = updated["metadata"]["managedFields"].as_array().unwrap();
    assert_eq!(entries[0]["fieldsV1"], json!({"f:spec": {"f:size": {}}}));
    assert_eq!(entries[1]["fieldsV1"], json!({"f:spec": {}}));
}

/// kubernetes `test/integration/apiserver/apply/apply_test.go`,
/// `TestClearManagedFieldsWithUpdateEmptyList`: a PUT whose body sets
/// `managedFields: []` clears them (the typed object cannot carry the
/// empty list, so the server marks the reset); a PUT without the field
/// keeps them.
#[tokio::test]
async fn a_put_with_an_empty_managed_fields_list_clears_them() {
    let app = app().await;
    let config = r#"{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"c","labels":{"test-label":"test"}},"spec":{"size":1}}"#;
    let (code, created) = call(
        &app,
        "PATCH",
        &format!("{GIZMOS}/c?fieldManager=apply_test"),
        "application/apply-patch+yaml",
        config,
        "test",
    )
    .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(managers(&created).len(), 1);

    let put = |body: Value| {
        let app = app.clone();
        async move {
            let uri = format!("{GIZMOS}/c");
            let (code, answer) = call(
                &app,
                "PUT",
                &uri,
                "application/json",
                &body.to_string(),
                "test",
            )
            .await;
            assert_eq!(code, StatusCode::OK, "{answer}");
            answer
        }
    };
    let mut body = created.clone();
    body["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("managedFields");
    let kept = put(body.clone()).await;
    assert_eq!(managers(&kept), managers(&created), "no field: kept");

    body["metadata"]["managedFields"] = json!([]);
    body["metadata"]["resourceVersion"] = kept["metadata"]["resourceVersion"].clone();
    let cleared = put(body).await;
    assert_eq!(cleared["metadata"].get("managedFields"), None, "{cleared}");
    let (_, read) = call(&app, "GET", &format!("{GIZMOS}/c"), "", "", "test").await;
    assert_eq!(read["metadata"].get("managedFields"), None, "{read}");
}
