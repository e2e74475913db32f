//! What strict clients found (issue 27), each as the apiserver behaves:
//! aggregated discovery on `/api`, writes that change nothing, writes
//! whose `Accept` cannot be honoured, broken bodies, malformed
//! `fieldValidation` and `timeout` parameters, server-side apply of a
//! configuration without a name. In process (the router as a tower
//! service) where the HTTP framing does not matter, over loopback TCP
//! where it does.

mod support;

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;

use std::time::Duration;

use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tower::ServiceExt;

use support::{COUNTERS, counter};

struct Answer {
    code: StatusCode,
    headers: axum::http::HeaderMap,
    body: Value,
}

async fn call(app: &axum::Router, request: Request<Body>) -> Answer {
    let response = app.clone().oneshot(request).await.expect("an answer");
    let code = response.status();
    let headers = response.headers().clone();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    Answer {
        code,
        headers,
        body,
    }
}

fn request(method: &str, uri: &str, content_type: &str, body: &str) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body.to_string()))
        .unwrap()
}

fn json_request(method: &str, uri: &str, body: &Value) -> Request<Body> {
    request(method, uri, "application/json", &body.to_string())
}

async fn app() -> axum::Router {
    support::counters(storage::builder().await).router()
}

fn rv(object: &Value) -> &str {
    object["metadata"]["resourceVersion"].as_str().unwrap()
}

#[tokio::test]
async fn aggregated_discovery_is_served_on_api_too() {
    let app = support::counters_and_namespaces(storage::builder().await).router();
    let accept =
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";
    let aggregated = call(
        &app,
        Request::builder()
            .uri("/api")
            .header(header::ACCEPT, accept)
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(aggregated.code, StatusCode::OK);
    assert_eq!(aggregated.body["kind"], "APIGroupDiscoveryList");
    assert!(
        aggregated.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .contains("as=APIGroupDiscoveryList")
    );
    let core = &aggregated.body["items"][0]["versions"][0];
    assert_eq!(core["version"], "v1");
    assert_eq!(core["resources"][0]["resource"], "namespaces");
    // Without the aggregated media type: the legacy APIVersions.
    let legacy = call(&app, json_request("GET", "/api", &Value::Null)).await;
    assert_eq!(legacy.body["kind"], "APIVersions");
    // Nothing acceptable: 406.
    let xml = call(
        &app,
        Request::builder()
            .uri("/api")
            .header(header::ACCEPT, "application/xml")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(xml.code, StatusCode::NOT_ACCEPTABLE);
}

/// Each write that changes nothing answers the object as stored: the
/// resourceVersion stays and no watch event is sent.
#[tokio::test]
async fn writes_that_change_nothing_write_nothing() {
    let (addr, _server) = support::start(support::counters(storage::builder().await)).await;
    let client = support::Client::new(addr);
    let created = client.post(COUNTERS, &counter("c", 1)).await.json();
    let path = format!("{COUNTERS}/c");
    let mut watcher = client
        .watch(&format!(
            "{COUNTERS}?watch=true&resourceVersion={}",
            rv(&created)
        ))
        .await;
    let before = rv(&created).to_string();

    let merge = "application/merge-patch+json";
    let json_patch = "application/json-patch+json";
    let cases: Vec<(&str, &str, String)> = vec![
        ("PATCH", merge, "{}".into()),
        ("PATCH", merge, json!({"spec": {"value": 1}}).to_string()),
        (
            "PATCH",
            json_patch,
            json!([{"op": "test", "path": "/spec/value", "value": 1}]).to_string(),
        ),
        ("PUT", "application/json", created.to_string()),
    ];
    for (method, content_type, body) in cases {
        let answer = client
            .send_with(
                method.parse().unwrap(),
                &path,
                content_type,
                body.clone().into_bytes(),
            )
            .await;
        assert_eq!(answer.code, StatusCode::OK, "{method} {body}");
        assert_eq!(rv(&answer.json()), before, "{method} {body}");
    }
    let read = client.get(&path).await.json();
    assert_eq!(read, created);
    // A real change is the first event the watch sees.
    let changed = client
        .send_with(
            "PATCH".parse().unwrap(),
            &path,
            merge,
            br#"{"spec":{"value":2}}"#.to_vec(),
        )
        .await
        .json();
    assert_ne!(rv(&changed), before);
    let event = tokio::time::timeout(Duration::from_secs(5), watcher.next())
        .await
        .expect("an event")
        .expect("the watch is open");
    assert_eq!(event["type"], "MODIFIED");
    assert_eq!(event["object"]["spec"]["value"], 2);
}

#[tokio::test]
async fn a_write_whose_accept_cannot_be_honoured_is_406_and_writes_nothing() {
    let app = app().await;
    let xml = |mut r: Request<Body>| {
        r.headers_mut()
            .insert(header::ACCEPT, "application/xml".parse().unwrap());
        r
    };
    let create = call(&app, xml(json_request("POST", COUNTERS, &counter("c", 1)))).await;
    assert_eq!(create.code, StatusCode::NOT_ACCEPTABLE, "{}", create.body);
    assert_eq!(create.body["reason"], "NotAcceptable");
    let list = call(&app, json_request("GET", COUNTERS, &Value::Null)).await;
    assert_eq!(list.body["items"], json!([]));

    call(&app, json_request("POST", COUNTERS, &counter("c", 1))).await;
    let path = format!("{COUNTERS}/c");
    for (method, content_type, body) in [
        (
            "PATCH",
            "application/merge-patch+json",
            r#"{"spec":{"value":9}}"#,
        ),
        ("PUT", "application/json", ""),
        ("DELETE", "application/json", ""),
    ] {
        let answer = call(&app, xml(request(method, &path, content_type, body))).await;
        assert_eq!(answer.code, StatusCode::NOT_ACCEPTABLE, "{method}");
    }
    let read = call(&app, json_request("GET", &path, &Value::Null)).await;
    assert_eq!(read.body["spec"]["value"], 1);
}

#[tokio::test]
async fn bad_field_validation_and_timeout_are_the_apiservers_errors() {
    let app = app().await;
    let bogus = call(
        &app,
        json_request(
            "POST",
            &format!("{COUNTERS}?fieldValidation=Bogus"),
            &counter("c", 1),
        ),
    )
    .await;
    assert_eq!(bogus.code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bogus.body["reason"], "Invalid");
    assert_eq!(
        bogus.body["message"],
        r#"CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn""#
    );
    let timeout = call(
        &app,
        json_request("GET", &format!("{COUNTERS}?timeout=abc"), &Value::Null),
    )
    .await;
    assert_eq!(timeout.code, StatusCode::BAD_REQUEST);
    assert_eq!(
        timeout.body["message"],
        r#"invalid timeout specified in the request URL - time: invalid duration "abc""#
    );
    // A zero timeout is no timeout of the client's (the server's applies).
    let zero = call(
        &app,
        json_request("GET", &format!("{COUNTERS}?timeout=0s"), &Value::Null),
    )
    .await;
    assert_eq!(zero.code, StatusCode::OK);
}

#[tokio::test]
async fn an_apply_without_a_name_applies_to_the_object_the_url_names() {
    let app = app().await;
    call(&app, json_request("POST", COUNTERS, &counter("c", 1))).await;
    let apply = |path: &str, body: &str| {
        request(
            "PATCH",
            &format!("{path}?fieldManager=kube-rs&force=true"),
            "application/apply-patch+yaml",
            body,
        )
    };
    let partial = r#"{"apiVersion":"example.com/v1","kind":"Counter","spec":{"value":5}}"#;
    let applied = call(&app, apply(&format!("{COUNTERS}/c"), partial)).await;
    assert_eq!(applied.code, StatusCode::OK, "{}", applied.body);
    assert_eq!(applied.body["metadata"]["name"], "c");
    assert_eq!(applied.body["spec"]["value"], 5);
    // Creating from it has no name to take: the apiserver's 400.
    let missing = call(&app, apply(&format!("{COUNTERS}/d"), partial)).await;
    assert_eq!(missing.code, StatusCode::BAD_REQUEST);
    assert_eq!(
        missing.body["message"],
        "the name of the object () does not match the name on the URL (d)"
    );
    // Another name is still refused.
    let other = r#"{"apiVersion":"example.com/v1","kind":"Counter","metadata":{"name":"x"},"spec":{"value":5}}"#;
    let mismatch = call(&app, apply(&format!("{COUNTERS}/c"), other)).await;
    assert_eq!(mismatch.code, StatusCode::BAD_REQUEST);
}

/// Sends `raw` on a new loopback connection and reads what comes back:
/// up to the end of the answer's head, or until the server closes the
/// connection (or 5 s pass).
async fn raw_exchange(addr: std::net::SocketAddr, raw: &[u8], close_write: bool) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    // The server may answer (413) and close before it has read it all.
    let _ = stream.write_all(raw).await;
    if close_write {
        stream.shutdown().await.unwrap();
    }
    let mut out = Vec::new();
    let read = async {
        let mut chunk = [0u8; 4096];
        while !out.windows(4).any(|w| w == b"\r\n\r\n") {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&chunk[..n]),
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(5), read).await;
    String::from_utf8_lossy(&out).into_owned()
}

#[tokio::test]
async fn a_broken_body_is_400_and_only_an_oversized_one_is_413() {
    let (addr, _server) = support::start(support::counters(storage::builder().await)).await;
    let head = |extra: &str| {
        format!(
            "POST {COUNTERS} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{extra}\r\n"
        )
    };
    // Shorter than its Content-Length, then the client stops sending.
    let short = format!("{}{{\"a\"", head("Content-Length: 100\r\n"));
    let answer = raw_exchange(addr, short.as_bytes(), true).await;
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 400"),
        "{answer}"
    );
    assert!(!answer.contains("413"), "{answer}");
    // A malformed chunk size.
    let chunked = format!(
        "{}zz\r\n{{}}\r\n0\r\n\r\n",
        head("Transfer-Encoding: chunked\r\n")
    );
    let answer = raw_exchange(addr, chunked.as_bytes(), false).await;
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 400"),
        "{answer}"
    );
    assert!(!answer.contains("413"), "{answer}");
    // Over the limit: 413.
    let big = format!(
        "{}{}",
        head(&format!("Content-Length: {}\r\n", 4 * 1024 * 1024)),
        " ".repeat(4 * 1024 * 1024)
    );
    let answer = raw_exchange(addr, big.as_bytes(), false).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer:.200}");
    // Nothing was created, and the server still serves.
    let client = support::Client::new(addr);
    assert_eq!(client.get(COUNTERS).await.json()["items"], json!([]));
}

fn with_accept(mut request: Request<Body>, accept: &str) -> Request<Body> {
    request
        .headers_mut()
        .insert(header::ACCEPT, accept.parse().unwrap());
    request
}

/// kube-rs' `get_metadata`, `list_metadata`, `patch_metadata` and
/// `metadata_watcher` ask for `PartialObjectMetadata(List)`, as client-go's
/// metadata client does; every kind serves it.
#[tokio::test]
async fn metadata_only_representations() {
    let app = app().await;
    let mut labelled = counter("c", 1);
    labelled["metadata"]["labels"] = json!({"app": "web"});
    call(&app, json_request("POST", COUNTERS, &labelled)).await;
    let one = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
    let list = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
    let path = format!("{COUNTERS}/c");

    let got = call(
        &app,
        with_accept(json_request("GET", &path, &Value::Null), one),
    )
    .await;
    assert_eq!(got.code, StatusCode::OK);
    assert_eq!(got.body["kind"], "PartialObjectMetadata");
    assert_eq!(got.body["apiVersion"], "meta.k8s.io/v1");
    assert_eq!(got.body["metadata"]["labels"]["app"], "web");
    assert!(got.body.get("spec").is_none());
    assert!(
        got.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .contains("as=PartialObjectMetadata")
    );

    let listed = call(
        &app,
        with_accept(json_request("GET", COUNTERS, &Value::Null), list),
    )
    .await;
    assert_eq!(listed.body["kind"], "PartialObjectMetadataList");
    assert!(listed.body["metadata"]["resourceVersion"].is_string());
    assert_eq!(listed.body["items"][0]["kind"], "PartialObjectMetadata");
    assert_eq!(listed.body["items"][0]["metadata"]["name"], "c");
    assert!(listed.body["items"][0].get("spec").is_none());
    // The wrong shape is the apiserver's 406.
    let wrong = call(
        &app,
        with_accept(json_request("GET", COUNTERS, &Value::Null), one),
    )
    .await;
    assert_eq!(wrong.code, StatusCode::NOT_ACCEPTABLE);
    let wrong = call(
        &app,
        with_accept(json_request("GET", &path, &Value::Null), list),
    )
    .await;
    assert_eq!(wrong.code, StatusCode::NOT_ACCEPTABLE);

    let patched = call(
        &app,
        with_accept(
            request(
                "PATCH",
                &path,
                "application/merge-patch+json",
                r#"{"metadata":{"labels":{"tier":"front"}}}"#,
            ),
            one,
        ),
    )
    .await;
    assert_eq!(patched.code, StatusCode::OK, "{}", patched.body);
    assert_eq!(patched.body["kind"], "PartialObjectMetadata");
    assert_eq!(patched.body["metadata"]["labels"]["tier"], "front");

    // A metadata watch: every event's object is PartialObjectMetadata.
    let (addr, _server) = support::start(support::counters(storage::builder().await)).await;
    let client = support::Client::new(addr);
    client.post(COUNTERS, &counter("w", 1)).await;
    let watch = client
        .watch_as(
            &format!("{COUNTERS}?watch=true&resourceVersion=0&allowWatchBookmarks=true"),
            list,
        )
        .await;
    let mut watcher = watch;
    let first = tokio::time::timeout(Duration::from_secs(5), watcher.next())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(first["type"], "ADDED");
    assert_eq!(first["object"]["kind"], "PartialObjectMetadata");
    assert_eq!(first["object"]["metadata"]["name"], "w");
    assert!(first["object"].get("spec").is_none());
}

/// JSON nested deeper than the apiserver's decoder reads (10,000) is a
/// 400 wherever it sits, under an unknown field too (issue 27).
#[tokio::test]
async fn very_deep_json_is_refused_wherever_it_is() {
    let app = app().await;
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    for body in [
        format!(
            r#"{{"apiVersion":"example.com/v1","kind":"Counter","metadata":{{"name":"d"}},"spec":{{"value":1,"x":{deep}}}}}"#
        ),
        format!(
            r#"{{"apiVersion":"example.com/v1","kind":"Counter","metadata":{{"name":"d","annotations":{deep}}},"spec":{{"value":1}}}}"#
        ),
    ] {
        let answer = call(&app, request("POST", COUNTERS, "application/json", &body)).await;
        assert_eq!(answer.code, StatusCode::BAD_REQUEST, "{}", answer.body);
        assert!(
            answer.body["message"]
                .as_str()
                .unwrap()
                .contains("exceeded max depth"),
            "{}",
            answer.body
        );
    }
    let list = call(&app, json_request("GET", COUNTERS, &Value::Null)).await;
    assert_eq!(list.body["items"], json!([]));
}

/// Namespaces are served by the same store and handlers as every other
/// kind (issue 27, item 12): a single GET negotiates tables, the list
/// takes label selectors and limits, and watches work.
#[tokio::test]
async fn namespaces_answer_as_every_kind_does() {
    let app = support::counters_and_namespaces(storage::builder().await).router();
    let namespaces = "/api/v1/namespaces";
    for (name, team) in [("a", "red"), ("b", "blue"), ("c", "red")] {
        let ns = json!({"apiVersion": "v1", "kind": "Namespace",
                        "metadata": {"name": name, "labels": {"team": team}}});
        let created = call(&app, json_request("POST", namespaces, &ns)).await;
        assert_eq!(created.code, StatusCode::CREATED, "{}", created.body);
    }
    let table = "application/json;as=Table;v=v1;g=meta.k8s.io";
    let one = call(
        &app,
        with_accept(
            json_request("GET", &format!("{namespaces}/a"), &Value::Null),
            table,
        ),
    )
    .await;
    assert_eq!(one.body["kind"], "Table", "{}", one.body);
    assert_eq!(one.body["rows"][0]["cells"][0], "a");
    assert_eq!(one.body["rows"][0]["cells"][1], "Active");
    let xml = call(
        &app,
        with_accept(
            json_request("GET", &format!("{namespaces}/a"), &Value::Null),
            "application/xml",
        ),
    )
    .await;
    assert_eq!(xml.code, StatusCode::NOT_ACCEPTABLE);

    let red = call(
        &app,
        json_request(
            "GET",
            &format!("{namespaces}?labelSelector=team%3Dred"),
            &Value::Null,
        ),
    )
    .await;
    let names: Vec<&str> = red.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["metadata"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["a", "c"]);
    let page = call(
        &app,
        json_request("GET", &format!("{namespaces}?limit=2"), &Value::Null),
    )
    .await;
    assert_eq!(page.body["items"].as_array().unwrap().len(), 2);
    assert!(page.body["metadata"]["continue"].is_string());
    let by_name = call(
        &app,
        json_request(
            "GET",
            &format!("{namespaces}?fieldSelector=metadata.name%3Db"),
            &Value::Null,
        ),
    )
    .await;
    assert_eq!(by_name.body["items"][0]["metadata"]["name"], "b");

    // A watch over loopback: the namespace created after it starts.
    let (addr, _server) =
        support::start(support::counters_and_namespaces(storage::builder().await)).await;
    let client = support::Client::new(addr);
    let list = client.get(namespaces).await.json();
    let rv = rv(&list).to_string();
    let mut watcher = client
        .watch(&format!("{namespaces}?watch=true&resourceVersion={rv}"))
        .await;
    let created = client
        .post(namespaces, &json!({"metadata": {"generateName": "gen-"}}))
        .await
        .json();
    let name = created["metadata"]["name"].as_str().unwrap().to_string();
    assert!(name.starts_with("gen-"));
    assert_eq!(
        created["metadata"]["labels"]["kubernetes.io/metadata.name"],
        name.as_str()
    );
    let event = tokio::time::timeout(Duration::from_secs(5), watcher.next())
        .await
        .expect("an event")
        .expect("the watch is open");
    assert_eq!(event["type"], "ADDED");
    assert_eq!(event["object"]["metadata"]["name"], name.as_str());
}

/// The RBAC kinds write nothing for a write that changes nothing either.
#[tokio::test]
async fn an_unchanged_role_is_not_written_again() {
    let app = storage::builder()
        .await
        .authorization(api_server::server::AuthorizationMode::Rbac)
        .build()
        .router();
    let roles = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles";
    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role",
        "metadata": {"name": "reader"},
        "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]}]});
    let created = call(&app, json_request("POST", roles, &role)).await;
    assert_eq!(created.code, StatusCode::CREATED, "{}", created.body);
    let path = format!("{roles}/reader");
    let again = call(&app, json_request("PUT", &path, &created.body)).await;
    assert_eq!(again.code, StatusCode::OK, "{}", again.body);
    assert_eq!(rv(&again.body), rv(&created.body));
    let patched = call(
        &app,
        request("PATCH", &path, "application/merge-patch+json", "{}"),
    )
    .await;
    assert_eq!(rv(&patched.body), rv(&created.body));
}
