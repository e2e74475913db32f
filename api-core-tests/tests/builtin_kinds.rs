//! Kubernetes' built-in kinds served from k8s-openapi's types by the one
//! store (`api_server::builtin`): ConfigMap, driven with k8s-openapi's
//! own `ConfigMap` as a client would, with `ValidateConfigMap`'s rules
//! (translated from `pkg/apis/core/validation`'s ConfigMap cases:
//! invalid keys, a key in both maps, the immutable ConfigMap).
//! Run with `cargo test -p api-core-tests --features k8s --test builtin_kinds`.

use std::collections::BTreeMap;
use std::sync::Arc;

use api_core::registry::{MemoryStorage, Storage};
use api_server::ApiServer;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use serde_json::{Value, json};
use tower::ServiceExt;

const CONFIGMAPS: &str = "/api/v1/namespaces/default/configmaps";

fn app() -> axum::Router {
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
    ApiServer::builder()
        .storage(storage.clone())
        .with_namespaces()
        .kind(Arc::new(api_server::builtin::config_map(storage)))
        .build()
        .router()
}

async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    content_type: &str,
    body: Value,
) -> (StatusCode, Vec<String>, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, content_type)
        .body(if body.is_null() {
            Body::empty()
        } else {
            Body::from(body.to_string())
        })
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let code = response.status();
    let warnings = response
        .headers()
        .get_all(header::WARNING)
        .iter()
        .map(|w| w.to_str().unwrap().to_string())
        .collect();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (
        code,
        warnings,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn config_map(name: &str, data: &[(&str, &str)]) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..ObjectMeta::default()
        },
        data: Some(
            data.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<BTreeMap<_, _>>(),
        ),
        ..ConfigMap::default()
    }
}

fn body(cm: &ConfigMap) -> Value {
    let mut v = serde_json::to_value(cm).unwrap();
    v["apiVersion"] = json!("v1");
    v["kind"] = json!("ConfigMap");
    v
}

#[tokio::test]
async fn config_maps_round_trip_through_k8s_openapi() {
    let app = app();
    let cm = config_map("settings", &[("mode", "fast"), ("level", "3")]);
    let (code, _, created) = call(&app, "POST", CONFIGMAPS, "application/json", body(&cm)).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let read: ConfigMap = serde_json::from_value(created.clone()).unwrap();
    assert_eq!(read.data, cm.data);
    assert_eq!(read.metadata.namespace.as_deref(), Some("default"));
    assert!(read.metadata.uid.is_some() && read.metadata.resource_version.is_some());

    let (code, _, patched) = call(
        &app,
        "PATCH",
        &format!("{CONFIGMAPS}/settings"),
        "application/merge-patch+json",
        json!({"data": {"level": "4"}}),
    )
    .await;
    assert_eq!(code, StatusCode::OK, "{patched}");
    assert_eq!(patched["data"], json!({"mode": "fast", "level": "4"}));

    let (code, _, list) = call(&app, "GET", CONFIGMAPS, "application/json", Value::Null).await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(list["kind"], "ConfigMapList");
    assert_eq!(list["apiVersion"], "v1");
    assert_eq!(list["items"][0]["metadata"]["name"], "settings");

    // Unknown fields are warned about, as for every kind.
    let mut extra = body(&config_map("extra", &[]));
    extra["spec"] = json!({"x": 1});
    let (code, warnings, _) = call(&app, "POST", CONFIGMAPS, "application/json", extra).await;
    assert_eq!(code, StatusCode::CREATED);
    assert_eq!(warnings, [r#"299 - "unknown field \"spec\"""#]);

    let (code, _, deleted) = call(
        &app,
        "DELETE",
        &format!("{CONFIGMAPS}/settings"),
        "application/json",
        Value::Null,
    )
    .await;
    assert_eq!(code, StatusCode::OK, "{deleted}");
}

#[tokio::test]
async fn config_maps_are_validated_as_the_apiserver_validates_them() {
    let app = app();
    let mut bad = config_map("bad", &[("bad key", "x"), ("..dots", "y"), ("ok", "z")]);
    bad.binary_data = Some(BTreeMap::from([(
        "ok".to_string(),
        k8s_openapi::ByteString(b"bytes".to_vec()),
    )]));
    let (code, _, status) = call(&app, "POST", CONFIGMAPS, "application/json", body(&bad)).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{status}");
    let fields: Vec<&str> = status["details"]["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["field"].as_str().unwrap())
        .collect();
    assert_eq!(
        fields,
        ["data[..dots]", "data[bad key]", "data[ok]"],
        "{status}"
    );
    assert!(
        status["message"]
            .as_str()
            .unwrap()
            .contains("duplicate of key present in binaryData"),
        "{status}"
    );

    // An immutable ConfigMap keeps its data and stays immutable.
    let mut frozen = config_map("frozen", &[("a", "1")]);
    frozen.immutable = Some(true);
    let (code, _, created) =
        call(&app, "POST", CONFIGMAPS, "application/json", body(&frozen)).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    for patch in [json!({"data": {"a": "2"}}), json!({"immutable": false})] {
        let (code, _, status) = call(
            &app,
            "PATCH",
            &format!("{CONFIGMAPS}/frozen"),
            "application/merge-patch+json",
            patch.clone(),
        )
        .await;
        assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{patch}: {status}");
        assert!(
            status["message"]
                .as_str()
                .unwrap()
                .contains("field is immutable when `immutable` is set"),
            "{status}"
        );
    }
    // Labels may still change.
    let (code, _, _) = call(
        &app,
        "PATCH",
        &format!("{CONFIGMAPS}/frozen"),
        "application/merge-patch+json",
        json!({"metadata": {"labels": {"a": "b"}}}),
    )
    .await;
    assert_eq!(code, StatusCode::OK);
}

#[test]
fn config_map_keys() {
    use api_server::builtin::is_config_map_key;
    for good in ["a", "key.name", "KEY_NAME", "key-name", ".dotfile", "a..b"] {
        assert!(is_config_map_key(good).is_empty(), "{good}");
    }
    for bad in ["", ".", "..", "..a", "a b", "a/b", &"a".repeat(254)] {
        assert!(!is_config_map_key(bad).is_empty(), "{bad}");
    }
}

/// A server serving ConfigMap, with or without namespaces.
fn app_serving_config_maps(namespaces: bool) -> axum::Router {
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new());
    let mut builder = ApiServer::builder().storage(storage.clone());
    if namespaces {
        builder = builder.with_namespaces();
    }
    builder
        .kind(Arc::new(api_server::builtin::config_map(storage)))
        .build()
        .router()
}

/// `GET uri` with `Accept: accept`: the status and the JSON body.
async fn get(app: &axum::Router, uri: &str, accept: &str) -> (StatusCode, Value) {
    let request = Request::builder()
        .uri(uri)
        .header(header::ACCEPT, accept)
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let code = response.status();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (code, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

const AGGREGATED: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

/// kubectl discovers configmaps (`kubectl get cm`) from `/api/v1` and the
/// aggregated `/api`, and reads their schema from `/openapi/v3/api/v1`,
/// whether or not the server serves namespaces.
#[tokio::test]
async fn config_maps_are_discovered() {
    for namespaces in [false, true] {
        let app = app_serving_config_maps(namespaces);
        let (code, list) = get(&app, "/api/v1", "application/json").await;
        assert_eq!(code, StatusCode::OK, "{list}");
        assert_eq!(list["kind"], "APIResourceList");
        let names: Vec<&str> = list["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        let expected: &[&str] = if namespaces {
            &[
                "configmaps",
                "namespaces",
                "namespaces/finalize",
                "namespaces/status",
            ]
        } else {
            &["configmaps"]
        };
        assert_eq!(names, expected);
        let verbs = json!([
            "create",
            "delete",
            "deletecollection",
            "get",
            "list",
            "patch",
            "update",
            "watch"
        ]);
        assert_eq!(
            list["resources"][0],
            json!({
                "name": "configmaps", "singularName": "configmap", "namespaced": true,
                "kind": "ConfigMap", "verbs": verbs, "shortNames": ["cm"],
                "storageVersionHash": "qFsyl6wFWjQ="
            })
        );

        let (code, aggregated) = get(&app, "/api", AGGREGATED).await;
        assert_eq!(code, StatusCode::OK, "{aggregated}");
        let resources = &aggregated["items"][0]["versions"][0]["resources"];
        assert_eq!(
            resources[0],
            json!({
                "resource": "configmaps",
                "responseKind": {"group": "", "version": "v1", "kind": "ConfigMap"},
                "scope": "Namespaced", "singularResource": "configmap",
                "verbs": verbs, "shortNames": ["cm"]
            })
        );
        assert_eq!(
            resources.as_array().unwrap().len(),
            if namespaces { 2 } else { 1 }
        );
        let (code, versions) = get(&app, "/api", "application/json").await;
        assert_eq!(code, StatusCode::OK);
        assert_eq!(versions["kind"], "APIVersions");

        let (code, index) = get(&app, "/openapi/v3", "application/json").await;
        assert_eq!(code, StatusCode::OK);
        let url = index["paths"]["api/v1"]["serverRelativeURL"]
            .as_str()
            .unwrap();
        let (code, document) = get(&app, url, "application/json").await;
        assert_eq!(code, StatusCode::OK);
        let paths = &document["paths"];
        let patch = &paths["/api/v1/namespaces/{namespace}/configmaps/{name}"]["patch"];
        assert_eq!(patch["operationId"], "patchCoreV1NamespacedConfigMap");
        assert_eq!(
            patch["x-kubernetes-group-version-kind"],
            json!({"group": "", "version": "v1", "kind": "ConfigMap"})
        );
        assert!(paths["/api/v1/configmaps"]["get"].is_object());
        let schema = &document["components"]["schemas"]["io.k8s.api.core.v1.ConfigMap"];
        assert!(schema["properties"]["data"].is_object(), "{schema}");
        assert_eq!(paths["/api/v1/namespaces"].is_object(), namespaces);
        let text = document.to_string();
        for piece in text.split("\"$ref\":\"#/components/schemas/").skip(1) {
            let name = &piece[..piece.find('"').unwrap()];
            assert!(
                document["components"]["schemas"].get(name).is_some(),
                "dangling {name}"
            );
        }
        // The groups are not the core group's.
        let (code, groups) = get(&app, "/apis", "application/json").await;
        assert_eq!(code, StatusCode::OK);
        assert_eq!(groups["groups"], json!([]));
    }
}

/// Without a core kind nor namespaces, `/api/v1` is not served.
#[tokio::test]
async fn no_core_kind_no_core_group() {
    let app = ApiServer::builder().build().router();
    let (code, _) = get(&app, "/api/v1", "application/json").await;
    assert_eq!(code, StatusCode::NOT_FOUND);
    let (code, index) = get(&app, "/openapi/v3", "application/json").await;
    assert_eq!(code, StatusCode::OK);
    assert!(index["paths"].get("api/v1").is_none());
}
