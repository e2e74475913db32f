//! A namespace's deletion as on a cluster: `Terminating`, its content
//! deleted by the namespace controller, held by finalizers (reported in
//! the namespace's conditions), then the namespace itself; and the
//! NamespaceLifecycle admission plugin, run by the store for every kind.
//! Scenarios from kubernetes `test/e2e/apimachinery/namespace.go`
//! ("should ensure that all pods/services are removed when a namespace is
//! deleted", "should always delete fast", the finalizer tests) and the
//! admission plugin's `admission_test.go` (`TestAdmissionNamespaceTerminating`,
//! `TestAdmissionNamespaceDoesNotExist`, `TestAdmissionNamespaceForceLiveLookup`,
//! `TestAdmissionNamespaceImmortal`). Also: built-in kinds (Namespace)
//! are written `kind` first.

#[path = "../../api-core-tests/tests/storage/mod.rs"]
mod storage;

use std::time::Duration;

use api_core::prelude::*;
use api_core::registry::DefaultStrategy;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tower::ServiceExt;

/// GadgetSpec is the desired state of a Gadget.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Gadget", namespaced)]
pub struct GadgetSpec {
    /// size of the gadget.
    pub size: i32,
}

/// ToolSpec is the desired state of a cluster-scoped Tool.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "example.com", version = "v1", kind = "Tool")]
pub struct ToolSpec {
    /// size of the tool.
    pub size: i32,
}

struct Env {
    app: axum::Router,
    _controllers: api_server::Controllers,
}

async fn env() -> Env {
    let server = storage::builder()
        .await
        .with_namespaces()
        .resource::<Gadget>(DefaultStrategy)
        .resource::<Tool>(DefaultStrategy)
        .build();
    Env {
        app: server.router(),
        _controllers: server.start_controllers(),
    }
}

impl Env {
    async fn call(&self, method: &str, path: &str, body: Option<Value>) -> (StatusCode, Value) {
        let mut request = Request::builder().method(method).uri(path);
        if body.is_some() {
            request = request.header(
                "content-type",
                if method == "PATCH" {
                    "application/merge-patch+json"
                } else {
                    "application/json"
                },
            );
        }
        let request = request
            .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
            .expect("a request");
        let response = self.app.clone().oneshot(request).await.expect("an answer");
        let code = response.status();
        let bytes = to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a body");
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        (code, body)
    }

    async fn create_namespace(&self, name: &str) {
        let (code, body) = self
            .call(
                "POST",
                "/api/v1/namespaces",
                Some(json!({"metadata": {"name": name}})),
            )
            .await;
        assert_eq!(code, StatusCode::CREATED, "{body}");
    }

    async fn create_gadget(&self, namespace: &str, name: &str, finalizers: &[&str]) -> StatusCode {
        let (code, _) = self
            .call(
                "POST",
                &gadgets(namespace),
                Some(json!({
                    "apiVersion": "example.com/v1", "kind": "Gadget",
                    "metadata": {"name": name, "finalizers": finalizers},
                    "spec": {"size": 1}
                })),
            )
            .await;
        code
    }

    /// Waits until `path` answers 404.
    async fn until_gone(&self, path: &str) {
        for _ in 0..500 {
            if self.call("GET", path, None).await.0 == StatusCode::NOT_FOUND {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!(
            "{path} is still there: {}",
            self.call("GET", path, None).await.1
        );
    }

    /// Waits until the namespace's condition `type_` has `status`, and
    /// returns it.
    async fn until_condition(&self, namespace: &str, type_: &str, status: &str) -> Value {
        let path = format!("/api/v1/namespaces/{namespace}");
        let mut last = Value::Null;
        for _ in 0..500 {
            last = self.call("GET", &path, None).await.1;
            if let Some(c) = last["status"]["conditions"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|c| c["type"] == type_ && c["status"] == status)
            {
                return c.clone();
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("no {type_}={status} on {namespace}: {last}");
    }
}

fn gadgets(namespace: &str) -> String {
    format!("/apis/example.com/v1/namespaces/{namespace}/gadgets")
}

/// "should ensure that all pods are removed when a namespace is deleted":
/// the delete answers the namespace `Terminating` (200, not yet gone);
/// its content goes, then it does; cluster-scoped objects stay.
#[tokio::test]
async fn a_deleted_namespace_takes_its_content_along() {
    let env = env().await;
    env.create_namespace("nsdelete").await;
    for name in ["a", "b", "c"] {
        assert_eq!(
            env.create_gadget("nsdelete", name, &[]).await,
            StatusCode::CREATED
        );
    }
    let (code, tool) = env
        .call(
            "POST",
            "/apis/example.com/v1/tools",
            Some(json!({"metadata": {"name": "t"}, "spec": {"size": 1}})),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{tool}");

    let (code, deleted) = env
        .call("DELETE", "/api/v1/namespaces/nsdelete", None)
        .await;
    assert_eq!(code, StatusCode::OK, "{deleted}");
    assert_eq!(deleted["kind"], "Namespace");
    assert_eq!(deleted["status"]["phase"], "Terminating");
    assert!(deleted["metadata"]["deletionTimestamp"].is_string());
    assert_eq!(deleted["spec"]["finalizers"], json!(["kubernetes"]));

    env.until_gone("/api/v1/namespaces/nsdelete").await;
    let (_, list) = env.call("GET", &gadgets("nsdelete"), None).await;
    assert_eq!(list["items"], json!([]), "{list}");
    let (code, _) = env.call("GET", "/apis/example.com/v1/tools/t", None).await;
    assert_eq!(
        code,
        StatusCode::OK,
        "a cluster-scoped object is no content"
    );
}

/// Content held by a finalizer keeps the namespace `Terminating`, with
/// the conditions kube-controller-manager writes; creates in it are
/// refused (`TestAdmissionNamespaceTerminating`); a second delete answers
/// it unchanged; removing the finalizer lets both go.
#[tokio::test]
async fn finalizers_hold_a_terminating_namespace() {
    let env = env().await;
    env.create_namespace("held").await;
    assert_eq!(
        env.create_gadget("held", "kept", &["example.com/keep"])
            .await,
        StatusCode::CREATED
    );
    let (code, _) = env.call("DELETE", "/api/v1/namespaces/held", None).await;
    assert_eq!(code, StatusCode::OK);

    let remaining = env
        .until_condition("held", "NamespaceContentRemaining", "True")
        .await;
    assert_eq!(remaining["reason"], "SomeResourcesRemain");
    assert_eq!(
        remaining["message"],
        "Some resources are remaining: gadgets.example.com has 1 resource instances"
    );
    let finalizers = env
        .until_condition("held", "NamespaceFinalizersRemaining", "True")
        .await;
    assert_eq!(
        finalizers["message"],
        "Some content in the namespace has finalizers remaining: example.com/keep in 1 resource instances"
    );
    let discovery = env
        .until_condition("held", "NamespaceDeletionDiscoveryFailure", "False")
        .await;
    assert_eq!(discovery["reason"], "ResourcesDiscovered");

    // Creates in a terminating namespace: 403 with the cause.
    let (code, refused) = env
        .call(
            "POST",
            &gadgets("held"),
            Some(json!({"metadata": {"name": "late"}, "spec": {"size": 1}})),
        )
        .await;
    assert_eq!(code, StatusCode::FORBIDDEN, "{refused}");
    assert_eq!(refused["reason"], "Forbidden");
    assert_eq!(
        refused["message"],
        "gadgets.example.com \"late\" is forbidden: unable to create new content in namespace held because it is being terminated"
    );
    assert_eq!(
        refused["details"]["causes"],
        json!([{"reason": "NamespaceTerminating",
                "message": "namespace held is being terminated",
                "field": "metadata.namespace"}])
    );

    // Deleting it again answers it as it is.
    let (code, again) = env.call("DELETE", "/api/v1/namespaces/held", None).await;
    assert_eq!(code, StatusCode::OK, "{again}");
    assert_eq!(again["status"]["phase"], "Terminating");

    // Updates of what is there are allowed (a controller removes its
    // finalizer); then the object and the namespace go.
    let (code, patched) = env
        .call(
            "PATCH",
            &format!("{}/kept", gadgets("held")),
            Some(json!({"metadata": {"finalizers": null}})),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{patched}");
    env.until_gone("/api/v1/namespaces/held").await;
}

/// `TestAdmissionNamespaceDoesNotExist`: a create or an update in a
/// namespace that does not exist is a 404 for the namespace, checked
/// before the object is validated.
#[tokio::test]
async fn writes_need_their_namespace() {
    let env = env().await;
    let (code, body) = env
        .call(
            "POST",
            &gadgets("nowhere"),
            Some(json!({"metadata": {"name": "Not_A_Name"}, "spec": {"size": 1}})),
        )
        .await;
    assert_eq!(code, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["message"], "namespaces \"nowhere\" not found");
    assert_eq!(body["details"]["kind"], "namespaces");
}

/// `TestAdmissionNamespaceImmortal`: `default`, `kube-system` and
/// `kube-public` may not be deleted; `kube-node-lease` may.
#[tokio::test]
async fn immortal_namespaces_stay() {
    let env = env().await;
    // The system namespaces exist once the server has answered.
    env.call("GET", "/api/v1/namespaces", None).await;
    for name in ["default", "kube-system", "kube-public"] {
        let (code, body) = env
            .call("DELETE", &format!("/api/v1/namespaces/{name}"), None)
            .await;
        assert_eq!(code, StatusCode::FORBIDDEN, "{body}");
        assert_eq!(
            body["message"],
            format!("namespaces \"{name}\" is forbidden: this namespace may not be deleted")
        );
    }
    let (code, _) = env
        .call("DELETE", "/api/v1/namespaces/kube-node-lease", None)
        .await;
    assert_eq!(code, StatusCode::OK);
    env.until_gone("/api/v1/namespaces/kube-node-lease").await;
}

/// A namespace deleted with a dry run stays `Active`, its content too.
#[tokio::test]
async fn a_dry_run_delete_changes_nothing() {
    let env = env().await;
    env.create_namespace("dry").await;
    assert_eq!(
        env.create_gadget("dry", "g", &[]).await,
        StatusCode::CREATED
    );
    let (code, answer) = env
        .call("DELETE", "/api/v1/namespaces/dry?dryRun=All", None)
        .await;
    assert_eq!(code, StatusCode::OK, "{answer}");
    assert_eq!(answer["status"]["phase"], "Terminating");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (_, namespace) = env.call("GET", "/api/v1/namespaces/dry", None).await;
    assert_eq!(namespace["status"]["phase"], "Active");
    assert!(namespace["metadata"]["deletionTimestamp"].is_null());
    let (code, _) = env
        .call("GET", &format!("{}/g", gadgets("dry")), None)
        .await;
    assert_eq!(code, StatusCode::OK);
}

/// Built-in kinds are written as kube-apiserver writes Go structs, `kind`
/// before `apiVersion` (objects, lists and their items, watch events);
/// custom resources `apiVersion` first, as the apiserver writes them.
#[tokio::test]
async fn builtin_kinds_are_written_kind_first() {
    let env = env().await;
    env.create_namespace("order").await;
    assert_eq!(
        env.create_gadget("order", "g", &[]).await,
        StatusCode::CREATED
    );
    let raw = |path: &str| {
        let app = env.app.clone();
        let request = Request::builder()
            .uri(path)
            .body(Body::empty())
            .expect("a request");
        async move {
            let response = app.oneshot(request).await.expect("an answer");
            let bytes = to_bytes(response.into_body(), usize::MAX)
                .await
                .expect("a body");
            String::from_utf8(bytes.to_vec()).expect("UTF-8")
        }
    };
    let namespace = raw("/api/v1/namespaces/order").await;
    assert!(
        namespace.starts_with(r#"{"kind":"Namespace","apiVersion":"v1","metadata":"#),
        "{namespace}"
    );
    let list = raw("/api/v1/namespaces").await;
    assert!(
        list.starts_with(r#"{"kind":"NamespaceList","apiVersion":"v1","#),
        "{list}"
    );
    assert!(
        list.contains(r#""items":[{"kind":"Namespace","apiVersion":"v1","#),
        "{list}"
    );
    let gadget = raw(&format!("{}/g", gadgets("order"))).await;
    assert!(
        gadget.starts_with(r#"{"apiVersion":"example.com/v1","kind":"Gadget","#),
        "{gadget}"
    );
    let watch =
        raw("/api/v1/namespaces?watch=true&fieldSelector=metadata.name%3Dorder&timeoutSeconds=1")
            .await;
    assert!(
        watch.starts_with(r#"{"object":{"kind":"Namespace","apiVersion":"v1","#),
        "{watch}"
    );
}

/// The `finalize` subresource, as `kubectl replace --raw
/// /api/v1/namespaces/NAME/finalize` uses it to let a stuck namespace go:
/// a PUT that empties `spec.finalizers` of a terminating namespace whose
/// content is held deletes it at once; a PUT on the object itself cannot
/// change `spec`.
#[tokio::test]
async fn the_finalize_subresource_lets_a_namespace_go() {
    let env = env().await;
    env.create_namespace("stuck").await;
    assert_eq!(
        env.create_gadget("stuck", "kept", &["example.com/forever"])
            .await,
        StatusCode::CREATED
    );
    env.call("DELETE", "/api/v1/namespaces/stuck", None).await;
    let (_, namespace) = env.call("GET", "/api/v1/namespaces/stuck", None).await;
    assert_eq!(namespace["status"]["phase"], "Terminating");

    // The namespace controller writes its conditions meanwhile: the
    // writes are unconditional (no resourceVersion), as namespaces allow.
    let mut emptied = namespace.clone();
    emptied["spec"]["finalizers"] = json!([]);
    emptied["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("resourceVersion");
    let (code, kept) = env
        .call("PUT", "/api/v1/namespaces/stuck", Some(emptied.clone()))
        .await;
    assert_eq!(code, StatusCode::OK, "{kept}");
    assert_eq!(kept["spec"]["finalizers"], json!(["kubernetes"]));

    let (code, answer) = env
        .call("PUT", "/api/v1/namespaces/stuck/finalize", Some(emptied))
        .await;
    assert_eq!(code, StatusCode::OK, "{answer}");
    let (code, _) = env.call("GET", "/api/v1/namespaces/stuck", None).await;
    assert_eq!(code, StatusCode::NOT_FOUND);
}
