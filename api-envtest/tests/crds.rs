//! CRDs at run time with kube-rs, as a kube-rs user's test suite installs
//! them on a cluster: a kind defined with kube-derive (`#[derive(CustomResource)]`,
//! not this repository's derive) is installed through
//! `Api::<CustomResourceDefinition>`, waited for with
//! `kube::runtime::wait::conditions::is_crd_established`, and used with
//! `Api` and a `Controller`; or installed at start (`TestEnvBuilder::crd`).

use std::time::Duration;

use api_envtest::TestEnv;
use futures_util::StreamExt;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, Patch, PatchParams, PostParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::wait::{await_condition, conditions};
use kube::runtime::watcher;
use kube::{CustomResource, CustomResourceExt, ResourceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// A document, as a kube-rs user defines a kind.
#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, JsonSchema)]
#[kube(
    group = "docs.example.com",
    version = "v1",
    kind = "Document",
    namespaced,
    status = "DocumentStatus",
    printcolumn = r#"{"name":"Title","type":"string","jsonPath":".spec.title"}"#
)]
pub struct DocumentSpec {
    title: String,
    #[serde(default)]
    pages: u32,
}

/// What the controller writes.
#[derive(Serialize, Deserialize, Clone, Debug, Default, JsonSchema)]
pub struct DocumentStatus {
    indexed: bool,
}

fn document(name: &str, title: &str) -> Document {
    Document::new(
        name,
        DocumentSpec {
            title: title.into(),
            pages: 3,
        },
    )
}

#[tokio::test]
async fn a_kube_derive_crd_is_installed_established_and_reconciled() {
    let env = TestEnv::builder().start().await;
    let client = env.client();
    let crds: Api<CustomResourceDefinition> = Api::all(client.clone());
    crds.create(&PostParams::default(), &Document::crd())
        .await
        .expect("the CRD is accepted");
    let established = await_condition(
        crds.clone(),
        "documents.docs.example.com",
        conditions::is_crd_established(),
    );
    tokio::time::timeout(Duration::from_secs(10), established)
        .await
        .expect("established in time")
        .expect("the wait runs");

    let docs: Api<Document> = Api::namespaced(client.clone(), "default");
    let created = docs
        .create(&PostParams::default(), &document("guide", "A guide"))
        .await
        .expect("a Document is created");
    assert_eq!(created.spec.title, "A guide");
    assert!(created.uid().is_some());

    // A controller over the kind: it marks every Document indexed.
    let controller = Controller::new(docs.clone(), watcher::Config::default())
        .run(
            |doc: std::sync::Arc<Document>, ctx: std::sync::Arc<Api<Document>>| async move {
                let patch = json!({"status": {"indexed": true}});
                ctx.patch_status(
                    &doc.name_any(),
                    &PatchParams::default(),
                    &Patch::Merge(&patch),
                )
                .await?;
                Ok::<_, kube::Error>(Action::await_change())
            },
            |_, _: &kube::Error, _| Action::requeue(Duration::from_millis(50)),
            std::sync::Arc::new(docs.clone()),
        )
        .for_each(|_| async {});
    let running = tokio::spawn(controller);
    env.wait_for(&docs, "guide", |d| {
        d.and_then(|d| d.status.as_ref()).is_some_and(|s| s.indexed)
    })
    .await;
    docs.create(&PostParams::default(), &document("notes", "Notes"))
        .await
        .expect("a second Document");
    env.wait_for(&docs, "notes", |d| {
        d.and_then(|d| d.status.as_ref()).is_some_and(|s| s.indexed)
    })
    .await;
    running.abort();

    // Validated by the schema kube-derive wrote: `pages` is an unsigned
    // integer (`minimum: 0`), refused with the apiserver's 422.
    let resource = kube::api::ApiResource::erase::<Document>(&());
    let untyped: Api<kube::api::DynamicObject> =
        Api::namespaced_with(client.clone(), "default", &resource);
    let bad: kube::api::DynamicObject = serde_json::from_value(json!({
        "apiVersion": "docs.example.com/v1", "kind": "Document",
        "metadata": {"name": "bad"}, "spec": {"title": "x", "pages": -1}}))
    .unwrap();
    match untyped.create(&PostParams::default(), &bad).await {
        Err(kube::Error::Api(status)) => {
            assert_eq!(status.code, 422, "{status:?}");
            assert!(status.message.contains("spec.pages"), "{status:?}");
        }
        other => panic!("a negative page count was not refused: {other:?}"),
    }

    // Deleting the CRD deletes its Documents, then the CRD.
    crds.delete("documents.docs.example.com", &Default::default())
        .await
        .expect("the CRD is deleted");
    let gone = await_condition(
        crds.clone(),
        "documents.docs.example.com",
        conditions::is_deleted(""),
    );
    tokio::time::timeout(Duration::from_secs(10), gone)
        .await
        .expect("the CRD goes in time")
        .expect("the wait runs");
    assert!(
        docs.list(&Default::default()).await.is_err(),
        "the kind is no longer served"
    );
}

#[tokio::test]
async fn a_crd_given_at_start_is_ready_when_the_environment_is() {
    let env = TestEnv::builder().crd(Document::crd()).start().await;
    let docs: Api<Document> = Api::namespaced(env.client(), "default");
    docs.create(&PostParams::default(), &document("now", "Now"))
        .await
        .expect("served as soon as the environment started");
    assert_eq!(docs.list(&Default::default()).await.unwrap().items.len(), 1);
}
