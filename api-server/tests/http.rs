//! The HTTP surface over the in-process service (no socket): paths, verbs,
//! status codes, discovery, tables and watch framing.

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;

use api_core::prelude::*;
use api_core::registry::DefaultStrategy;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tower::ServiceExt;

/// WidgetSpec is the desired state of a Widget.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    namespaced,
    status = "WidgetStatus",
    shortname = "wd",
    printcolumn(name = "Size", type = "integer", json_path = ".spec.size"),
    scale(
        spec_replicas_path = ".spec.size",
        status_replicas_path = ".status.replicas"
    )
)]
#[serde(rename_all = "camelCase")]
pub struct WidgetSpec {
    /// size of the widget.
    #[kube(minimum = 1, maximum = 10)]
    pub size: i32,
    /// color of the widget.
    #[kube(max_length = 16)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
}

/// WidgetStatus is the observed state of a Widget.
#[derive(ApiType, Serialize, Deserialize, Clone, Debug, Default)]
pub struct WidgetStatus {
    /// conditions of the widget.
    #[serde(default, skip_serializing_if = "Conditions::is_empty")]
    pub conditions: Conditions,
    /// replicas is how many widgets there are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
}

async fn app() -> axum::Router {
    storage::builder()
        .await
        .max_request_bytes(64 * 1024)
        .resource::<Widget>(DefaultStrategy)
        .build()
        .router()
}

struct Answer {
    code: StatusCode,
    headers: axum::http::HeaderMap,
    body: Value,
}

async fn call(app: &axum::Router, request: Request<Body>) -> Answer {
    let response = app
        .clone()
        .oneshot(request)
        .await
        .expect("the service answers");
    let code = response.status();
    let headers = response.headers().clone();
    let bytes = to_bytes(response.into_body(), usize::MAX)
        .await
        .expect("a body");
    let body = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()))
    };
    Answer {
        code,
        headers,
        body,
    }
}

fn req(method: &str, uri: &str, body: Option<Value>) -> Request<Body> {
    let builder = Request::builder().method(method).uri(uri);
    match body {
        Some(b) => builder
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(b.to_string()))
            .unwrap(),
        None => builder.body(Body::empty()).unwrap(),
    }
}

const WIDGETS: &str = "/apis/example.com/v1/namespaces/demo/widgets";

fn widget(name: &str, size: i32) -> Value {
    json!({
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {"name": name},
        "spec": {"size": size}
    })
}

#[tokio::test]
async fn create_get_list_update_delete() {
    let app = app().await;
    let created = call(&app, req("POST", WIDGETS, Some(widget("w", 3)))).await;
    assert_eq!(created.code, StatusCode::CREATED, "{}", created.body);
    assert_eq!(created.body["metadata"]["namespace"], "demo");
    assert_eq!(created.body["metadata"]["generation"], 1);
    assert!(created.body["metadata"]["uid"].is_string());

    let got = call(&app, req("GET", &format!("{WIDGETS}/w"), None)).await;
    assert_eq!(got.code, StatusCode::OK);
    assert_eq!(got.body["spec"]["size"], 3);

    let list = call(&app, req("GET", WIDGETS, None)).await;
    assert_eq!(list.code, StatusCode::OK);
    assert_eq!(list.body["kind"], "WidgetList");
    assert_eq!(list.body["items"].as_array().unwrap().len(), 1);
    // Across namespaces.
    let all = call(&app, req("GET", "/apis/example.com/v1/widgets", None)).await;
    assert_eq!(all.body["items"].as_array().unwrap().len(), 1);

    let mut changed = got.body.clone();
    changed["spec"]["size"] = json!(4);
    let updated = call(
        &app,
        req("PUT", &format!("{WIDGETS}/w"), Some(changed.clone())),
    )
    .await;
    assert_eq!(updated.code, StatusCode::OK, "{}", updated.body);
    assert_eq!(updated.body["metadata"]["generation"], 2);
    // The same resourceVersion again: 409 Conflict.
    let stale = call(&app, req("PUT", &format!("{WIDGETS}/w"), Some(changed))).await;
    assert_eq!(stale.code, StatusCode::CONFLICT);
    assert_eq!(stale.body["reason"], "Conflict");

    let deleted = call(&app, req("DELETE", &format!("{WIDGETS}/w"), None)).await;
    assert_eq!(deleted.code, StatusCode::OK);
    let gone = call(&app, req("GET", &format!("{WIDGETS}/w"), None)).await;
    assert_eq!(gone.code, StatusCode::NOT_FOUND);
    assert_eq!(gone.body["kind"], "Status");
    assert_eq!(gone.body["reason"], "NotFound");
    assert_eq!(gone.body["message"], "widgets.example.com \"w\" not found");
}

#[tokio::test]
async fn failures_are_the_apiservers_statuses() {
    let app = app().await;
    // Invalid: 422 with every cause.
    let bad = call(&app, req("POST", WIDGETS, Some(widget("w", 0)))).await;
    assert_eq!(bad.code, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.body);
    assert_eq!(bad.body["reason"], "Invalid");
    assert_eq!(bad.body["details"]["causes"][0]["field"], "spec.size");
    // Malformed JSON: 400.
    let malformed = call(
        &app,
        Request::builder()
            .method("POST")
            .uri(WIDGETS)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from("{not json"))
            .unwrap(),
    )
    .await;
    assert_eq!(malformed.code, StatusCode::BAD_REQUEST);
    assert_eq!(malformed.body["kind"], "Status");
    // Duplicate: 409 AlreadyExists.
    call(&app, req("POST", WIDGETS, Some(widget("w", 1)))).await;
    let again = call(&app, req("POST", WIDGETS, Some(widget("w", 1)))).await;
    assert_eq!(again.code, StatusCode::CONFLICT);
    assert_eq!(again.body["reason"], "AlreadyExists");
    // Unknown paths and kinds: 404.
    for path in [
        "/nope",
        "/apis/example.com/v1/gadgets",
        "/apis/other.com",
        "/apis/example.com/v9",
    ] {
        let r = call(&app, req("GET", path, None)).await;
        assert_eq!(r.code, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(r.body["kind"], "Status", "{path}");
    }
    // A verb the path does not take: 405.
    let post_named = call(
        &app,
        req("POST", &format!("{WIDGETS}/w"), Some(widget("w", 1))),
    )
    .await;
    assert_eq!(post_named.code, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(post_named.body["reason"], "MethodNotAllowed");
    // Server-side apply without a field manager: 422 (tests/apply.rs has
    // the rest); an unknown patch type: 415 listing the four.
    let apply = call(
        &app,
        Request::builder()
            .method("PATCH")
            .uri(format!("{WIDGETS}/w"))
            .header(header::CONTENT_TYPE, "application/apply-patch+yaml")
            .body(Body::from("{}"))
            .unwrap(),
    )
    .await;
    assert_eq!(apply.code, StatusCode::UNPROCESSABLE_ENTITY);
    let unknown = call(
        &app,
        Request::builder()
            .method("PATCH")
            .uri(format!("{WIDGETS}/w"))
            .header(header::CONTENT_TYPE, "application/x-patch")
            .body(Body::from("{}"))
            .unwrap(),
    )
    .await;
    assert_eq!(unknown.code, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(
        unknown.body["message"]
            .as_str()
            .unwrap()
            .contains("application/apply-patch+yaml"),
        "{}",
        unknown.body
    );
    // Protobuf and CBOR: 415 for a body, 406 for an answer, each listing
    // what is supported, so clients fall back to JSON.
    for media in ["application/vnd.kubernetes.protobuf", "application/cbor"] {
        let body = with_content_type(req("POST", WIDGETS, Some(widget("p", 1))), media);
        let refused = call(&app, body).await;
        assert_eq!(refused.code, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{media}");
        assert!(
            refused.body["message"]
                .as_str()
                .unwrap()
                .contains("application/json"),
            "{}",
            refused.body
        );
        let mut get = req("GET", &format!("{WIDGETS}/w"), None);
        get.headers_mut()
            .insert(header::ACCEPT, media.parse().unwrap());
        let refused = call(&app, get).await;
        assert_eq!(refused.code, StatusCode::NOT_ACCEPTABLE, "{media}");
        assert_eq!(refused.body["reason"], "NotAcceptable");
        // With JSON as a fallback, JSON.
        let mut get = req("GET", &format!("{WIDGETS}/w"), None);
        get.headers_mut().insert(
            header::ACCEPT,
            format!("{media}, application/json").parse().unwrap(),
        );
        assert_eq!(call(&app, get).await.code, StatusCode::OK, "{media}");
    }
    // Too large a body: 413.
    let huge = json!({"metadata": {"name": "big", "annotations": {"a": "x".repeat(70 * 1024)}}, "spec": {"size": 1}});
    let big = call(&app, req("POST", WIDGETS, Some(huge))).await;
    assert_eq!(big.code, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(big.body["kind"], "Status");
}

#[tokio::test]
async fn patches_and_warnings() {
    let app = app().await;
    call(&app, req("POST", WIDGETS, Some(widget("w", 1)))).await;
    let patched = call(
        &app,
        Request::builder()
            .method("PATCH")
            .uri(format!("{WIDGETS}/w"))
            .header(header::CONTENT_TYPE, "application/merge-patch+json")
            .body(Body::from(r#"{"spec":{"color":"red"}}"#))
            .unwrap(),
    )
    .await;
    assert_eq!(patched.code, StatusCode::OK, "{}", patched.body);
    assert_eq!(patched.body["spec"]["color"], "red");
    // An unknown field is dropped with a `Warning` header (fieldValidation=Warn).
    let mut body = widget("x", 2);
    body["spec"]["extra"] = json!(true);
    let warned = call(&app, req("POST", WIDGETS, Some(body.clone()))).await;
    assert_eq!(warned.code, StatusCode::CREATED);
    let warning = warned
        .headers
        .get(header::WARNING)
        .expect("a warning")
        .to_str()
        .unwrap();
    assert!(warning.starts_with("299 - \"unknown field"), "{warning}");
    // ... and is a 400 with fieldValidation=Strict.
    body["metadata"]["name"] = json!("y");
    let strict = call(
        &app,
        req(
            "POST",
            &format!("{WIDGETS}?fieldValidation=Strict"),
            Some(body),
        ),
    )
    .await;
    assert_eq!(strict.code, StatusCode::BAD_REQUEST, "{}", strict.body);

    // The same for patches: a warning by default, 400 with Strict.
    let patch = |query: &str| {
        with_content_type(
            req(
                "PATCH",
                &format!("{WIDGETS}/w{query}"),
                Some(json!({"spec": {"extra": 1}})),
            ),
            "application/merge-patch+json",
        )
    };
    let warned = call(&app, patch("")).await;
    assert_eq!(warned.code, StatusCode::OK);
    assert_eq!(
        warned
            .headers
            .get(header::WARNING)
            .map(|w| w.to_str().unwrap()),
        Some(r#"299 - "unknown field \"spec.extra\"""#)
    );
    let strict = call(&app, patch("?fieldValidation=Strict")).await;
    assert_eq!(strict.code, StatusCode::BAD_REQUEST);
    assert_eq!(
        strict.body["message"],
        r#"strict decoding error: unknown field "spec.extra""#
    );
}

#[tokio::test]
async fn discovery_documents() {
    let app = app().await;
    let groups = call(&app, req("GET", "/apis", None)).await;
    assert_eq!(groups.body["kind"], "APIGroupList");
    assert_eq!(groups.body["groups"][0]["name"], "example.com");
    let resources = call(&app, req("GET", "/apis/example.com/v1", None)).await;
    assert_eq!(resources.body["kind"], "APIResourceList");
    let names: Vec<&str> = resources.body["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["widgets", "widgets/status", "widgets/scale"]);
    let scale = &resources.body["resources"][2];
    assert_eq!(
        (&scale["group"], &scale["version"], &scale["kind"]),
        (&json!("autoscaling"), &json!("v1"), &json!("Scale"))
    );
    assert_eq!(scale["verbs"], json!(["get", "patch", "update"]));
    // Aggregated discovery, with the Content-Type client-go needs echoed.
    let aggregated = call(
        &app,
        Request::builder()
            .uri("/apis")
            .header(
                header::ACCEPT,
                "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json",
            )
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(aggregated.body["kind"], "APIGroupDiscoveryList");
    let content_type = aggregated.headers[header::CONTENT_TYPE].to_str().unwrap();
    assert!(
        content_type.contains("as=APIGroupDiscoveryList"),
        "{content_type}"
    );
    for path in ["/version", "/healthz", "/livez", "/readyz", "/api"] {
        assert_eq!(
            call(&app, req("GET", path, None)).await.code,
            StatusCode::OK,
            "{path}"
        );
    }
}

#[tokio::test]
async fn tables_for_kubectl_get() {
    let app = app().await;
    call(&app, req("POST", WIDGETS, Some(widget("w", 7)))).await;
    let table = call(
        &app,
        Request::builder()
            .uri(WIDGETS)
            .header(
                header::ACCEPT,
                "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json",
            )
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(table.body["kind"], "Table", "{}", table.body);
    let columns: Vec<&str> = table.body["columnDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(columns, ["Name", "Size"]);
    assert_eq!(table.body["rows"][0]["cells"], json!(["w", 7]));
}

#[tokio::test]
async fn watch_streams_one_event_per_line() {
    let app = app().await;
    let created = call(&app, req("POST", WIDGETS, Some(widget("a", 1)))).await;
    let rv = created.body["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string();
    // `resourceVersion=0`: the current state as ADDED events, then the
    // changes after it.
    let response = app
        .clone()
        .oneshot(req(
            "GET",
            &format!("{WIDGETS}?watch=true&resourceVersion=0&timeoutSeconds=1"),
            None,
        ))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let app2 = app.clone();
    let writer = tokio::spawn(async move {
        let mut changed = widget("a", 2);
        changed["metadata"]["resourceVersion"] = json!(rv);
        call(&app2, req("PUT", &format!("{WIDGETS}/a"), Some(changed)))
            .await
            .code
    });
    assert_eq!(writer.await.unwrap(), StatusCode::OK);
    // The stream ends after timeoutSeconds.
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let lines: Vec<Value> = bytes
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    let types: Vec<&str> = lines.iter().map(|l| l["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["ADDED", "MODIFIED"], "{lines:?}");
    assert_eq!(lines[0]["object"]["spec"]["size"], 1);
    assert_eq!(lines[1]["object"]["spec"]["size"], 2);
}

/// Watch-list (kube-rs, client-go): `sendInitialEvents=true` with
/// `resourceVersionMatch=NotOlderThan` sends the state, then a BOOKMARK
/// annotated `k8s.io/initial-events-end`; a watch from a list's
/// resourceVersion sends only what came after.
#[tokio::test]
async fn watch_list_and_watch_from_a_list() {
    let app = app().await;
    call(&app, req("POST", WIDGETS, Some(widget("a", 1)))).await;
    call(&app, req("POST", WIDGETS, Some(widget("b", 2)))).await;
    let lines = |bytes: axum::body::Bytes| -> Vec<Value> {
        bytes
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect()
    };
    let response = app
        .clone()
        .oneshot(req(
            "GET",
            &format!("{WIDGETS}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1"),
            None,
        ))
        .await
        .unwrap();
    let events = lines(to_bytes(response.into_body(), usize::MAX).await.unwrap());
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["ADDED", "ADDED", "BOOKMARK"], "{events:?}");
    let bookmark = &events[2]["object"];
    assert_eq!(bookmark["kind"], "Widget");
    assert_eq!(
        bookmark["metadata"]["annotations"]["k8s.io/initial-events-end"],
        "true"
    );

    let list = call(&app, req("GET", WIDGETS, None)).await;
    let rv = list.body["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string();
    let response = app
        .clone()
        .oneshot(req(
            "GET",
            &format!("{WIDGETS}?watch=true&resourceVersion={rv}&timeoutSeconds=1"),
            None,
        ))
        .await
        .unwrap();
    call(&app, req("DELETE", &format!("{WIDGETS}/a"), None)).await;
    let events = lines(to_bytes(response.into_body(), usize::MAX).await.unwrap());
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["DELETED"], "{events:?}");
}

/// OpenAPI v3 for `kubectl explain` and `kubectl apply`'s field
/// validation: the index points at a hashed, immutable document.
#[tokio::test]
async fn openapi_v3_documents() {
    let app = app().await;
    let index = call(&app, req("GET", "/openapi/v3", None)).await;
    assert_eq!(index.code, StatusCode::OK);
    let url = index.body["paths"]["apis/example.com/v1"]["serverRelativeURL"]
        .as_str()
        .expect("the group-version is listed")
        .to_string();
    let doc = call(&app, req("GET", &url, None)).await;
    assert_eq!(doc.code, StatusCode::OK);
    assert_eq!(doc.headers[header::CACHE_CONTROL], "public, immutable");
    let widget = &doc.body["components"]["schemas"]["com.example.v1.Widget"];
    assert_eq!(
        widget["x-kubernetes-group-version-kind"][0]["kind"], "Widget",
        "{}",
        doc.body
    );
    assert_eq!(
        widget["properties"]["spec"]["properties"]["size"]["maximum"],
        10
    );
    let missing = call(&app, req("GET", "/openapi/v3/apis/other.com/v1", None)).await;
    assert_eq!(missing.code, StatusCode::NOT_FOUND);
}

/// Namespaces: the system ones exist, a write into a missing namespace is
/// 404 for the namespace (NamespaceLifecycle), deleting a namespace
/// deletes what is in it.
#[tokio::test]
async fn namespaces_and_their_lifecycle() {
    let server = storage::builder()
        .await
        .with_namespaces()
        .resource::<Widget>(DefaultStrategy)
        .build();
    let _controllers = server.start_controllers();
    let app = server.router();
    let list = call(&app, req("GET", "/api/v1/namespaces", None)).await;
    assert_eq!(list.body["kind"], "NamespaceList");
    let names: Vec<&str> = list.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["default", "kube-node-lease", "kube-public", "kube-system"]
    );

    let early = call(&app, req("POST", WIDGETS, Some(widget("w", 1)))).await;
    assert_eq!(early.code, StatusCode::NOT_FOUND);
    assert_eq!(early.body["message"], "namespaces \"demo\" not found");

    let ns = call(
        &app,
        req(
            "POST",
            "/api/v1/namespaces",
            Some(json!({"metadata": {"name": "demo"}})),
        ),
    )
    .await;
    assert_eq!(ns.code, StatusCode::CREATED, "{}", ns.body);
    assert_eq!(ns.body["status"]["phase"], "Active");
    assert_eq!(
        ns.body["metadata"]["labels"]["kubernetes.io/metadata.name"],
        "demo"
    );
    let bad = call(
        &app,
        req(
            "POST",
            "/api/v1/namespaces",
            Some(json!({"metadata": {"name": "Not_A_Label"}})),
        ),
    )
    .await;
    assert_eq!(bad.code, StatusCode::UNPROCESSABLE_ENTITY);

    assert_eq!(
        call(&app, req("POST", WIDGETS, Some(widget("w", 1))))
            .await
            .code,
        StatusCode::CREATED
    );
    let deleted = call(&app, req("DELETE", "/api/v1/namespaces/demo", None)).await;
    assert_eq!(deleted.code, StatusCode::OK);
    assert_eq!(deleted.body["status"]["phase"], "Terminating");
    // The namespace controller empties it, then it goes.
    let mut tries = 0;
    while call(&app, req("GET", "/api/v1/namespaces/demo", None))
        .await
        .code
        != StatusCode::NOT_FOUND
    {
        tries += 1;
        assert!(tries < 500, "the namespace is still there");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let gone = call(&app, req("GET", "/apis/example.com/v1/widgets", None)).await;
    assert_eq!(gone.body["items"], json!([]));

    let table = call(
        &app,
        Request::builder()
            .uri("/api/v1/namespaces")
            .header(
                header::ACCEPT,
                "application/json;as=Table;v=v1;g=meta.k8s.io",
            )
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    let columns: Vec<&str> = table.body["columnDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(columns, ["Name", "Status", "Age"]);
    let core = call(&app, req("GET", "/api/v1", None)).await;
    assert_eq!(core.body["kind"], "APIResourceList");
    assert_eq!(core.body["resources"][0]["name"], "namespaces");
    let index = call(&app, req("GET", "/openapi/v3", None)).await;
    assert!(index.body["paths"]["api/v1"].is_object(), "{}", index.body);
}

fn with_content_type(mut request: Request<Body>, content_type: &str) -> Request<Body> {
    request.headers_mut().insert(
        header::CONTENT_TYPE,
        content_type.parse().expect("a header value"),
    );
    request
}

/// The scale subresource (apiextensions-apiserver `ScaleREST`): an
/// `autoscaling/v1` `Scale` over `.spec.size` and `.status.replicas`;
/// writes go through the main strategy (validation, generation).
#[tokio::test]
async fn scale_subresource() {
    let app = app().await;
    call(&app, req("POST", WIDGETS, Some(widget("w", 3)))).await;
    let scale_uri = format!("{WIDGETS}/w/scale");

    let scale = call(&app, req("GET", &scale_uri, None)).await;
    assert_eq!(scale.code, StatusCode::OK, "{}", scale.body);
    assert_eq!(scale.body["kind"], "Scale");
    assert_eq!(scale.body["apiVersion"], "autoscaling/v1");
    assert_eq!(scale.body["metadata"]["name"], "w");
    assert_eq!(scale.body["metadata"]["namespace"], "demo");
    assert_eq!(scale.body["spec"], json!({"replicas": 3}));
    assert_eq!(scale.body["status"], json!({"replicas": 0}));

    // PUT with the Scale's resourceVersion.
    let mut new_scale = scale.body.clone();
    new_scale["spec"]["replicas"] = json!(5);
    let put = call(&app, req("PUT", &scale_uri, Some(new_scale.clone()))).await;
    assert_eq!(put.code, StatusCode::OK, "{}", put.body);
    assert_eq!(put.body["spec"]["replicas"], 5);
    let object = call(&app, req("GET", &format!("{WIDGETS}/w"), None)).await;
    assert_eq!(object.body["spec"]["size"], 5);
    assert_eq!(object.body["metadata"]["generation"], 2, "a spec change");
    // The same (now stale) resourceVersion: 409.
    let stale = call(&app, req("PUT", &scale_uri, Some(new_scale))).await;
    assert_eq!(stale.code, StatusCode::CONFLICT, "{}", stale.body);

    // PATCH (what kubectl scale sends): applies to the current Scale.
    let patch = with_content_type(
        req("PATCH", &scale_uri, Some(json!({"spec": {"replicas": 2}}))),
        "application/merge-patch+json",
    );
    let patched = call(&app, patch).await;
    assert_eq!(patched.code, StatusCode::OK, "{}", patched.body);
    assert_eq!(patched.body["spec"]["replicas"], 2);

    // The kind's validation applies: size has minimum 1.
    let zero = with_content_type(
        req("PATCH", &scale_uri, Some(json!({"spec": {"replicas": 0}}))),
        "application/merge-patch+json",
    );
    let zero = call(&app, zero).await;
    assert_eq!(zero.code, StatusCode::UNPROCESSABLE_ENTITY, "{}", zero.body);
    assert_eq!(zero.body["details"]["causes"][0]["field"], "spec.size");
    // A negative count is refused by the scale check itself.
    let negative = json!({"kind": "Scale", "apiVersion": "autoscaling/v1",
                          "metadata": {"name": "w"}, "spec": {"replicas": -1}});
    let negative = call(&app, req("PUT", &scale_uri, Some(negative))).await;
    assert_eq!(negative.code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        negative.body["message"],
        "Widget.example.com \"w\" is invalid: .spec.size: Invalid value: -1: should be a non-negative integer"
    );
    // Another name in the body: 400.
    let renamed = json!({"metadata": {"name": "other"}, "spec": {"replicas": 1}});
    let renamed = call(&app, req("PUT", &scale_uri, Some(renamed))).await;
    assert_eq!(renamed.code, StatusCode::BAD_REQUEST);

    // status.replicas comes from the status subresource.
    let status = with_content_type(
        req(
            "PATCH",
            &format!("{WIDGETS}/w/status"),
            Some(json!({"status": {"replicas": 4}})),
        ),
        "application/merge-patch+json",
    );
    let status = call(&app, status).await;
    assert_eq!(status.code, StatusCode::OK, "{}", status.body);
    let scale = call(&app, req("GET", &scale_uri, None)).await;
    assert_eq!(scale.body["status"]["replicas"], 4);
    assert_eq!(scale.body["spec"]["replicas"], 2);

    // Missing objects and methods.
    let missing = call(&app, req("GET", &format!("{WIDGETS}/nope/scale"), None)).await;
    assert_eq!(missing.code, StatusCode::NOT_FOUND);
    let delete = call(&app, req("DELETE", &scale_uri, None)).await;
    assert_eq!(delete.code, StatusCode::METHOD_NOT_ALLOWED);
}

/// `dryRun=All`: the answer of the real write, nothing stored.
#[tokio::test]
async fn dry_run_writes_store_nothing() {
    let app = app().await;
    let dry = call(
        &app,
        req(
            "POST",
            &format!("{WIDGETS}?dryRun=All"),
            Some(widget("w", 3)),
        ),
    )
    .await;
    assert_eq!(dry.code, StatusCode::CREATED, "{}", dry.body);
    assert!(dry.body["metadata"]["uid"].is_string());
    assert!(dry.body["metadata"].get("resourceVersion").is_none());
    let missing = call(&app, req("GET", &format!("{WIDGETS}/w"), None)).await;
    assert_eq!(missing.code, StatusCode::NOT_FOUND);
    // Validation still runs.
    let invalid = call(
        &app,
        req(
            "POST",
            &format!("{WIDGETS}?dryRun=All"),
            Some(widget("w", 99)),
        ),
    )
    .await;
    assert_eq!(invalid.code, StatusCode::UNPROCESSABLE_ENTITY);

    let created = call(&app, req("POST", WIDGETS, Some(widget("w", 3)))).await;
    let mut changed = created.body.clone();
    changed["spec"]["size"] = json!(4);
    let put = call(
        &app,
        req("PUT", &format!("{WIDGETS}/w?dryRun=All"), Some(changed)),
    )
    .await;
    assert_eq!(put.code, StatusCode::OK, "{}", put.body);
    assert_eq!(put.body["spec"]["size"], 4);
    let patch = with_content_type(
        req(
            "PATCH",
            &format!("{WIDGETS}/w?dryRun=All"),
            Some(json!({"spec": {"size": 6}})),
        ),
        "application/merge-patch+json",
    );
    assert_eq!(call(&app, patch).await.body["spec"]["size"], 6);
    let scale = with_content_type(
        req(
            "PATCH",
            &format!("{WIDGETS}/w/scale?dryRun=All"),
            Some(json!({"spec": {"replicas": 7}})),
        ),
        "application/merge-patch+json",
    );
    assert_eq!(call(&app, scale).await.body["spec"]["replicas"], 7);
    let deleted = call(
        &app,
        req("DELETE", &format!("{WIDGETS}/w?dryRun=All"), None),
    )
    .await;
    assert_eq!(deleted.code, StatusCode::OK);
    let all = call(&app, req("DELETE", &format!("{WIDGETS}?dryRun=All"), None)).await;
    assert_eq!(all.body["items"].as_array().map(Vec::len), Some(1));
    let stored = call(&app, req("GET", &format!("{WIDGETS}/w"), None)).await;
    assert_eq!(stored.body, created.body, "nothing changed");

    let bad = call(
        &app,
        req(
            "POST",
            &format!("{WIDGETS}?dryRun=Some"),
            Some(widget("x", 1)),
        ),
    )
    .await;
    assert_eq!(bad.code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        bad.body["message"],
        r#"CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: "Some": supported values: "All""#
    );
}

/// Options the apiserver validates, and its 405.
#[tokio::test]
async fn options_and_methods() {
    let app = app().await;
    let created = call(&app, req("POST", WIDGETS, Some(widget("w", 3)))).await;
    let rv: u64 = created.body["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();

    let not_allowed = call(
        &app,
        req("POST", &format!("{WIDGETS}/w"), Some(widget("w", 1))),
    )
    .await;
    assert_eq!(not_allowed.code, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(not_allowed.body["reason"], "MethodNotAllowed");
    assert_eq!(
        not_allowed.body["message"],
        "the server does not allow this method on the requested resource"
    );
    let put_collection = call(&app, req("PUT", WIDGETS, Some(widget("w", 1)))).await;
    assert_eq!(put_collection.code, StatusCode::METHOD_NOT_ALLOWED);

    // resourceVersion semantics of a list.
    let too_new = call(
        &app,
        req(
            "GET",
            &format!("{WIDGETS}?resourceVersion={}", rv + 100),
            None,
        ),
    )
    .await;
    assert_eq!(too_new.code, StatusCode::GATEWAY_TIMEOUT);
    assert_eq!(too_new.body["reason"], "Timeout");
    let exact = call(
        &app,
        req(
            "GET",
            &format!("{WIDGETS}?resourceVersion={rv}&resourceVersionMatch=Exact"),
            None,
        ),
    )
    .await;
    assert_eq!(exact.code, StatusCode::OK, "{}", exact.body);
    let no_rv = call(
        &app,
        req(
            "GET",
            &format!("{WIDGETS}?resourceVersionMatch=Exact"),
            None,
        ),
    )
    .await;
    assert_eq!(no_rv.code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        no_rv.body["message"],
        r#"ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"#
    );

    let policy = call(
        &app,
        req(
            "DELETE",
            &format!("{WIDGETS}/w?propagationPolicy=Later"),
            None,
        ),
    )
    .await;
    assert_eq!(policy.code, StatusCode::UNPROCESSABLE_ENTITY);
    let background = call(
        &app,
        req(
            "DELETE",
            &format!("{WIDGETS}/w?propagationPolicy=Background"),
            None,
        ),
    )
    .await;
    assert_eq!(background.code, StatusCode::OK, "{}", background.body);
}

/// `pretty=true`, or curl, gets indented JSON; otherwise compact.
#[tokio::test]
async fn pretty_output() {
    let app = app().await;
    call(&app, req("POST", WIDGETS, Some(widget("w", 3)))).await;
    let text = |request: Request<Body>| {
        let app = app.clone();
        async move {
            let response = app.oneshot(request).await.unwrap();
            let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
            String::from_utf8(bytes.to_vec()).unwrap()
        }
    };
    let compact = text(req("GET", &format!("{WIDGETS}/w"), None)).await;
    assert!(!compact.contains('\n'), "{compact}");
    let pretty = text(req("GET", &format!("{WIDGETS}/w?pretty=true"), None)).await;
    assert!(pretty.starts_with("{\n  \""), "{pretty}");
    let mut curl = req("GET", &format!("{WIDGETS}/w"), None);
    curl.headers_mut()
        .insert(header::USER_AGENT, "curl/8.5.0".parse().unwrap());
    assert!(text(curl).await.contains("\n  "));
    let mut curl_off = req("GET", &format!("{WIDGETS}/w?pretty=false"), None);
    curl_off
        .headers_mut()
        .insert(header::USER_AGENT, "curl/8.5.0".parse().unwrap());
    assert!(!text(curl_off).await.contains('\n'));
    // Failures too.
    let missing = text(req("GET", &format!("{WIDGETS}/nope?pretty=1"), None)).await;
    assert!(missing.contains("\n  \"kind\": \"Status\""), "{missing}");
}

/// With `allowWatchBookmarks`, BOOKMARKs carrying the latest revision
/// seen come periodically; without it, none.
#[tokio::test]
async fn periodic_bookmarks() {
    let app = storage::builder()
        .await
        .bookmark_interval(std::time::Duration::from_millis(150))
        .resource::<Widget>(DefaultStrategy)
        .build()
        .router();
    let created = call(&app, req("POST", WIDGETS, Some(widget("a", 1)))).await;
    let rv = created.body["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string();
    let watch = |bookmarks: bool| {
        let app = app.clone();
        let uri = format!(
            "{WIDGETS}?watch=true&resourceVersion={rv}&timeoutSeconds=1&allowWatchBookmarks={bookmarks}"
        );
        async move {
            let response = app.oneshot(req("GET", &uri, None)).await.unwrap();
            let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
            bytes
                .split(|b| *b == b'\n')
                .filter(|l| !l.is_empty())
                .map(|l| serde_json::from_slice::<Value>(l).unwrap())
                .collect::<Vec<_>>()
        }
    };
    let with = tokio::spawn(watch(true));
    let without = tokio::spawn(watch(false));
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    let mut changed = created.body.clone();
    changed["spec"]["size"] = json!(2);
    let updated = call(&app, req("PUT", &format!("{WIDGETS}/a"), Some(changed))).await;
    let new_rv = updated.body["metadata"]["resourceVersion"].clone();

    let events = with.await.unwrap();
    let bookmarks: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "BOOKMARK")
        .map(|e| &e["object"]["metadata"]["resourceVersion"])
        .collect();
    assert!(bookmarks.len() >= 3, "{events:?}");
    assert_eq!(bookmarks[0], &json!(rv), "before the change: the start");
    assert_eq!(
        bookmarks.last().unwrap(),
        &&new_rv,
        "after it: the change's"
    );
    let bookmark = events.iter().find(|e| e["type"] == "BOOKMARK").unwrap();
    assert_eq!(bookmark["object"]["kind"], "Widget");
    assert_eq!(bookmark["object"]["apiVersion"], "example.com/v1");
    assert!(events.iter().any(|e| e["type"] == "MODIFIED"));

    let plain = without.await.unwrap();
    let types: Vec<&str> = plain.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["MODIFIED"]);
}

/// Namespaces take updates and patches (labels and annotations: what
/// `kubectl label namespace` and `kubectl apply` change) and server-side
/// applies; spec, status, uid and the `kubernetes.io/metadata.name`
/// label stay the server's, as the namespace strategy keeps them.
#[tokio::test]
async fn namespaces_are_updated_patched_and_applied() {
    let app = storage::builder().await.with_namespaces().build().router();
    let created = call(
        &app,
        req(
            "POST",
            "/api/v1/namespaces",
            Some(json!({"metadata": {"name": "team"}})),
        ),
    )
    .await;
    assert_eq!(created.code, StatusCode::CREATED, "{}", created.body);
    let uid = created.body["metadata"]["uid"].clone();

    // kubectl label namespace team tier=web (a strategic merge patch).
    let labelled = call(
        &app,
        with_content_type(
            req(
                "PATCH",
                "/api/v1/namespaces/team",
                Some(json!({"metadata": {"labels": {"tier": "web"}}, "status": {"phase": "Gone"}})),
            ),
            "application/strategic-merge-patch+json",
        ),
    )
    .await;
    assert_eq!(labelled.code, StatusCode::OK, "{}", labelled.body);
    assert_eq!(labelled.body["metadata"]["labels"]["tier"], "web");
    assert_eq!(labelled.body["metadata"]["uid"], uid);
    assert_eq!(labelled.body["status"]["phase"], "Active", "status is kept");

    // PUT: dropping the name label gets it back; a stale version is a 409;
    // a bad label a 422.
    let mut put = labelled.body.clone();
    put["metadata"]["labels"] = json!({"tier": "db"});
    put["spec"] = json!({"finalizers": []});
    let updated = call(
        &app,
        req("PUT", "/api/v1/namespaces/team", Some(put.clone())),
    )
    .await;
    assert_eq!(updated.code, StatusCode::OK, "{}", updated.body);
    assert_eq!(
        updated.body["metadata"]["labels"],
        json!({"tier": "db", "kubernetes.io/metadata.name": "team"})
    );
    assert_eq!(updated.body["spec"]["finalizers"], json!(["kubernetes"]));
    let stale = call(
        &app,
        req("PUT", "/api/v1/namespaces/team", Some(put.clone())),
    )
    .await;
    assert_eq!(stale.code, StatusCode::CONFLICT, "{}", stale.body);
    put["metadata"]["resourceVersion"] = updated.body["metadata"]["resourceVersion"].clone();
    put["metadata"]["labels"] = json!({"bad key!": "x"});
    let bad = call(&app, req("PUT", "/api/v1/namespaces/team", Some(put))).await;
    assert_eq!(bad.code, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.body);
    let renamed = call(
        &app,
        req(
            "PUT",
            "/api/v1/namespaces/team",
            Some(json!({"metadata": {"name": "other"}})),
        ),
    )
    .await;
    assert_eq!(renamed.code, StatusCode::BAD_REQUEST, "{}", renamed.body);
    // What a Namespace does not have is not stored; an empty
    // managedFields list clears them.
    let junk = call(
        &app,
        req(
            "PUT",
            "/api/v1/namespaces/team",
            Some(json!({"metadata": {"name": "team", "junk": 1, "managedFields": []}, "junk": {"a": 1}})),
        ),
    )
    .await;
    assert_eq!(junk.code, StatusCode::OK, "{}", junk.body);
    assert_eq!(junk.body.get("junk"), None, "{}", junk.body);
    assert_eq!(junk.body["metadata"].get("junk"), None, "{}", junk.body);
    assert_eq!(
        junk.body["metadata"].get("managedFields"),
        None,
        "{}",
        junk.body
    );
    let bad_create = call(
        &app,
        req(
            "POST",
            "/api/v1/namespaces",
            Some(json!({"metadata": {"name": "labels", "labels": {"bad key!": "x"}}})),
        ),
    )
    .await;
    assert_eq!(
        bad_create.code,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        bad_create.body
    );

    // kubectl apply --server-side of a Namespace manifest: created, then
    // a no-op; a conflict with the label's other owner unless forced.
    let apply = |name: &str, query: &str, body: &str| {
        with_content_type(
            Request::builder()
                .method("PATCH")
                .uri(format!("/api/v1/namespaces/{name}{query}"))
                .body(Body::from(body.to_string()))
                .unwrap(),
            "application/apply-patch+yaml",
        )
    };
    let manifest =
        "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: applied\n  labels:\n    tier: web\n";
    let first = call(&app, apply("applied", "?fieldManager=kubectl", manifest)).await;
    assert_eq!(first.code, StatusCode::CREATED, "{}", first.body);
    assert_eq!(first.body["status"]["phase"], "Active");
    let entries = first.body["metadata"]["managedFields"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{}", first.body);
    assert_eq!(entries[0]["operation"], "Apply");
    assert_eq!(
        entries[0]["fieldsV1"],
        json!({"f:metadata": {"f:labels": {"f:tier": {}}}})
    );
    let again = call(&app, apply("applied", "?fieldManager=kubectl", manifest)).await;
    assert_eq!(again.code, StatusCode::OK, "{}", again.body);
    assert_eq!(
        again.body["metadata"]["resourceVersion"],
        first.body["metadata"]["resourceVersion"]
    );
    let other = manifest.replace("tier: web", "tier: db");
    let conflict = call(&app, apply("applied", "?fieldManager=ci", &other)).await;
    assert_eq!(conflict.code, StatusCode::CONFLICT, "{}", conflict.body);
    assert_eq!(
        conflict.body["message"],
        "Apply failed with 1 conflict: conflict with \"kubectl\": .metadata.labels.tier"
    );
    let forced = call(
        &app,
        apply("applied", "?fieldManager=ci&force=true", &other),
    )
    .await;
    assert_eq!(forced.code, StatusCode::OK, "{}", forced.body);
    assert_eq!(forced.body["metadata"]["labels"]["tier"], "db");
    let missing_manager = call(&app, apply("applied", "", manifest)).await;
    assert_eq!(missing_manager.code, StatusCode::UNPROCESSABLE_ENTITY);
    let forced_patch = call(
        &app,
        with_content_type(
            req(
                "PATCH",
                "/api/v1/namespaces/applied?force=true",
                Some(json!({})),
            ),
            "application/merge-patch+json",
        ),
    )
    .await;
    assert_eq!(forced_patch.code, StatusCode::UNPROCESSABLE_ENTITY);
    let missing = call(
        &app,
        with_content_type(
            req("PATCH", "/api/v1/namespaces/nope", Some(json!({}))),
            "application/merge-patch+json",
        ),
    )
    .await;
    assert_eq!(missing.code, StatusCode::NOT_FOUND);
}

/// A HEAD is answered without a body, whatever the answer (Go's
/// `net/http`, and RFC 9110 §9.3.2), also when the router is called as a
/// tower service with no HTTP connection to drop it (found by the
/// `api_server` fuzz target: resource paths answer HEAD with 405 and a
/// `Status`, which axum's fallback service passed on whole).
#[tokio::test]
async fn head_is_answered_without_a_body() {
    let app = app().await;
    for uri in [
        WIDGETS.to_string(),
        format!("{WIDGETS}?labelSelector=app+in+(web)&gracePeriodSeconds=0"),
        format!("{WIDGETS}/missing"),
        "/version".to_string(),
        "/healthz".to_string(),
        "/apis".to_string(),
        "/no/such/path".to_string(),
    ] {
        let get = call(&app, req("GET", &uri, None)).await;
        let head = call(&app, req("HEAD", &uri, None)).await;
        assert_eq!(head.body, Value::Null, "HEAD {uri}: {}", head.body);
        assert_ne!(head.code, StatusCode::INTERNAL_SERVER_ERROR, "HEAD {uri}");
        if head.code == get.code && get.body != Value::Null {
            assert!(
                head.headers.contains_key(header::CONTENT_LENGTH),
                "HEAD {uri}: the length of the body left out"
            );
        }
    }
}
