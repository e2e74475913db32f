//! A kind served from its CustomResourceDefinition (`ServerBuilder::
//! custom_resource`: a registry of `DynamicObject`s) answers HTTP as the
//! same kind served from its Rust type does: the same request sequence
//! against both servers gives the same codes, bodies, tables, warnings
//! and errors.

use api_core::registry::DefaultStrategy;
use api_server::ApiServer;
use axum::body::{Body, to_bytes};
use axum::http::{Request, header};
use examples::memcached::Memcached;
use serde_json::{Value, json};
use tower::ServiceExt;

const MEMCACHEDS: &str = "/apis/cache.example.com/v1alpha1/namespaces/default/memcacheds";

fn typed() -> axum::Router {
    ApiServer::builder()
        .resource::<Memcached>(DefaultStrategy)
        .build()
        .router()
}

fn from_crd() -> axum::Router {
    ApiServer::builder()
        .custom_resource(&Memcached::crd())
        .expect("the CRD is served")
        .build()
        .router()
}

/// Code, warnings and body, without what differs by nature (uids,
/// timestamps of this second or the next).
async fn call(app: &axum::Router, request: &Req) -> (u16, Vec<String>, Value) {
    let mut builder = Request::builder()
        .method(request.method)
        .uri(request.uri.clone())
        .header(header::CONTENT_TYPE, request.content_type);
    if let Some(accept) = request.accept {
        builder = builder.header(header::ACCEPT, accept);
    }
    let response = app
        .clone()
        .oneshot(builder.body(Body::from(request.body.clone())).unwrap())
        .await
        .unwrap();
    let code = response.status().as_u16();
    let warnings = response
        .headers()
        .get_all(header::WARNING)
        .iter()
        .map(|w| w.to_str().unwrap().to_string())
        .collect();
    let bytes = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let mut body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    scrub(&mut body);
    (code, warnings, body)
}

fn scrub(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for key in ["uid", "creationTimestamp", "time"] {
                m.remove(key);
            }
            // A table's Age column.
            if let Some(Value::Array(rows)) = m.get_mut("rows") {
                for row in rows {
                    if let Some(Value::Array(cells)) = row.get_mut("cells") {
                        cells.pop();
                    }
                }
            }
            m.values_mut().for_each(scrub);
        }
        Value::Array(a) => a.iter_mut().for_each(scrub),
        _ => {}
    }
}

struct Req {
    method: &'static str,
    uri: String,
    content_type: &'static str,
    accept: Option<&'static str>,
    body: String,
}

fn req(method: &'static str, path: &str, body: Value) -> Req {
    Req {
        method,
        uri: path.to_string(),
        content_type: "application/json",
        accept: None,
        body: if body.is_null() {
            String::new()
        } else {
            body.to_string()
        },
    }
}

fn memcached(name: &str, spec: Value) -> Value {
    json!({"apiVersion": "cache.example.com/v1alpha1", "kind": "Memcached",
           "metadata": {"name": name}, "spec": spec})
}

#[tokio::test]
async fn a_crd_is_served_as_its_rust_type_is() {
    let (typed, dynamic) = (typed(), from_crd());
    let one = format!("{MEMCACHEDS}/a");
    let table = "application/json;as=Table;v=v1;g=meta.k8s.io";
    let status = json!({"conditions": [{"type": "Available", "status": "True",
        "lastTransitionTime": "2024-05-01T10:00:00Z", "reason": "Up", "message": "m"}]});
    let requests = vec![
        // Defaults, pruning with a warning, strictness.
        req("POST", MEMCACHEDS, memcached("a", json!({"colour": "red"}))),
        req(
            "POST",
            &format!("{MEMCACHEDS}?fieldValidation=Strict"),
            memcached("b", json!({"colour": "red"})),
        ),
        req("POST", MEMCACHEDS, memcached("a", json!({}))),
        // The schema's bounds, with the apiserver's words.
        req("POST", MEMCACHEDS, memcached("c", json!({"size": 7}))),
        // Another kind in the body.
        req(
            "POST",
            MEMCACHEDS,
            json!({"apiVersion": "cache.example.com/v1alpha1", "kind": "Other",
                   "metadata": {"name": "d"}, "spec": {}}),
        ),
        req("GET", &one, Value::Null),
        Req {
            accept: Some(table),
            ..req("GET", MEMCACHEDS, Value::Null)
        },
        Req {
            content_type: "application/merge-patch+json",
            ..req("PATCH", &one, json!({"spec": {"size": 3}}))
        },
        Req {
            content_type: "application/merge-patch+json",
            ..req("PATCH", &format!("{one}/status"), json!({"status": status}))
        },
        Req {
            accept: Some(table),
            ..req("GET", &one, Value::Null)
        },
        Req {
            accept: Some("application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"),
            ..req("GET", MEMCACHEDS, Value::Null)
        },
        Req {
            content_type: "application/apply-patch+yaml",
            ..req(
                "PATCH",
                &format!("{one}?fieldManager=me&force=true"),
                json!({"apiVersion": "cache.example.com/v1alpha1", "kind": "Memcached",
                       "spec": {"size": 2}}),
            )
        },
        req(
            "GET",
            &format!("{MEMCACHEDS}?labelSelector=app%3Dweb"),
            Value::Null,
        ),
        req("DELETE", &one, Value::Null),
        req("GET", &one, Value::Null),
        req("GET", "/apis/cache.example.com/v1alpha1", Value::Null),
    ];
    for (i, request) in requests.iter().enumerate() {
        let mut a = call(&typed, request).await;
        let mut b = call(&dynamic, request).await;
        if i == 4 {
            // The typed decoder's message is serde's (with a position),
            // the dynamic one the apiserver's wording: both name the kinds.
            for (_, _, body) in [&mut a, &mut b] {
                let message = body["message"].as_str().unwrap().to_string();
                assert!(
                    message.contains("Other") && message.contains("Memcached"),
                    "{message}"
                );
                body["message"] = Value::Null;
            }
        }
        assert_eq!(a, b, "request {i}: {} {}", request.method, request.uri);
    }
}

#[test]
fn several_served_versions_are_refused_until_conversion_is_served() {
    let mut crd = Memcached::crd();
    let mut second = crd.spec.versions[0].clone();
    second.name = "v1beta1".into();
    second.storage = false;
    crd.spec.versions.push(second);
    let Err(e) = ApiServer::builder().custom_resource(&crd) else {
        panic!("served");
    };
    assert_eq!(e.code, 400);
    assert!(e.message.contains("conversion"), "{}", e.message);
    let mut broken = Memcached::crd();
    broken.spec.names.plural = "Memcacheds".into();
    let Err(e) = ApiServer::builder().custom_resource(&broken) else {
        panic!("served");
    };
    assert_eq!(e.code, 422, "{}", e.message);
}
