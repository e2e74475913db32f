//! The Memcached operator of the kubebuilder tutorial, with kube-rs
//! (feature `controller`): a `Controller` over [`Memcached`] that owns a
//! `Deployment` of `spec.size` replicas (k8s-openapi's type), writes
//! `status.conditions` with server-side apply, and holds a finalizer
//! while it exists.
//!
//! It runs against any cluster: the `memcached-controller` binary reads
//! the kubeconfig as kubectl does (`KUBECONFIG`, `~/.kube/config`, or the
//! in-cluster service account), e.g. the example server's:
//!
//! ```text
//! cargo run -p examples --bin apiserver -- --kubeconfig /tmp/kubeconfig.yaml &
//! KUBECONFIG=/tmp/kubeconfig.yaml cargo run -p examples --features controller --bin memcached-controller
//! ```
//!
//! Its tests run it against `api-envtest`'s in-process server
//! (`api-envtest/tests/memcached_controller.rs`).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use api_core::kube::Kube;
use futures_util::StreamExt;
use k8s_openapi::api::apps::v1::{Deployment, DeploymentSpec};
use k8s_openapi::api::core::v1::{Container, ContainerPort, PodSpec, PodTemplateSpec};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::controller::{Action, Controller};
use kube::runtime::finalizer::{Event, finalizer};
use kube::runtime::watcher;
use kube::{Client, Resource, ResourceExt};
use serde_json::json;

use crate::memcached::Memcached;

/// The finalizer the controller holds on each Memcached.
pub const FINALIZER: &str = "cache.example.com/finalizer";

/// The field manager of the controller's server-side applies.
pub const MANAGER: &str = "memcached-controller";

/// What the reconciler shares.
pub struct Context {
    /// The client.
    pub client: Client,
}

/// A reconcile that failed (retried after a short delay).
#[derive(Debug)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

fn error(e: impl std::fmt::Display) -> Error {
    Error(e.to_string())
}

/// The Deployment a Memcached wants: `size` replicas of memcached, owned
/// by (and so collected with) the Memcached.
pub fn deployment(mc: &Kube<Memcached>) -> Result<Deployment, Error> {
    let name = mc.name_any();
    let labels = BTreeMap::from([
        (
            "app.kubernetes.io/name".to_string(),
            "memcached".to_string(),
        ),
        ("app.kubernetes.io/instance".to_string(), name.clone()),
    ]);
    let owner = mc
        .controller_owner_ref(&())
        .ok_or_else(|| error("a Memcached without a name or uid"))?;
    Ok(Deployment {
        metadata: ObjectMeta {
            name: Some(name),
            namespace: mc.namespace(),
            owner_references: Some(vec![owner]),
            labels: Some(labels.clone()),
            ..ObjectMeta::default()
        },
        spec: Some(DeploymentSpec {
            replicas: Some(mc.spec.size.unwrap_or(1)),
            selector: LabelSelector {
                match_labels: Some(labels.clone()),
                ..LabelSelector::default()
            },
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta {
                    labels: Some(labels),
                    ..ObjectMeta::default()
                }),
                spec: Some(PodSpec {
                    containers: vec![Container {
                        name: "memcached".into(),
                        image: Some("memcached:1.6.26-alpine3.19".into()),
                        command: Some(vec!["memcached".into(), "--port=11211".into()]),
                        ports: Some(vec![ContainerPort {
                            container_port: 11211,
                            name: Some("memcached".into()),
                            ..ContainerPort::default()
                        }]),
                        ..Container::default()
                    }],
                    ..PodSpec::default()
                }),
            },
            ..DeploymentSpec::default()
        }),
        ..Deployment::default()
    })
}

/// Applies the Deployment and reports `Available` in the status.
async fn apply(mc: Arc<Kube<Memcached>>, ctx: &Context) -> Result<Action, Error> {
    let namespace = mc.namespace().unwrap_or_default();
    let name = mc.name_any();
    let deployments: Api<Deployment> = Api::namespaced(ctx.client.clone(), &namespace);
    let params = PatchParams::apply(MANAGER).force();
    let mut body = serde_json::to_value(deployment(&mc)?).map_err(error)?;
    body["apiVersion"] = json!("apps/v1");
    body["kind"] = json!("Deployment");
    deployments
        .patch(&name, &params, &Patch::Apply(&body))
        .await
        .map_err(error)?;
    let size = mc.spec.size.unwrap_or(1);
    let status = json!({
        "apiVersion": <Memcached as api_core::Resource>::api_version(),
        "kind": <Memcached as api_core::Resource>::KIND,
        "status": {"conditions": [{
            "type": "Available",
            "status": "True",
            "reason": "Reconciled",
            "message": format!("Deployment {name} has {size} replicas"),
            "observedGeneration": mc.metadata.generation,
            "lastTransitionTime": api_core::meta::Time::now(),
        }]},
    });
    let memcacheds: Api<Kube<Memcached>> = Api::namespaced(ctx.client.clone(), &namespace);
    memcacheds
        .patch_status(&name, &params, &Patch::Apply(status))
        .await
        .map_err(error)?;
    Ok(Action::requeue(Duration::from_secs(300)))
}

/// One reconcile: with the finalizer held, apply; when the Memcached is
/// deleted, let it go (its Deployment goes with it, by owner reference).
pub async fn reconcile(mc: Arc<Kube<Memcached>>, ctx: Arc<Context>) -> Result<Action, Error> {
    let namespace = mc.namespace().unwrap_or_default();
    let api: Api<Kube<Memcached>> = Api::namespaced(ctx.client.clone(), &namespace);
    finalizer(&api, FINALIZER, mc, |event| async {
        match event {
            Event::Apply(mc) => apply(mc, &ctx).await,
            Event::Cleanup(_) => Ok(Action::await_change()),
        }
    })
    .await
    .map_err(error)
}

/// Retries a failed reconcile soon.
pub fn error_policy(_: Arc<Kube<Memcached>>, _: &Error, _: Arc<Context>) -> Action {
    Action::requeue(Duration::from_millis(100))
}

/// Runs the controller over every namespace until the stream ends.
pub async fn run(client: Client) {
    let memcacheds: Api<Kube<Memcached>> = Api::all(client.clone());
    let deployments: Api<Deployment> = Api::all(client.clone());
    Controller::new(memcacheds, watcher::Config::default())
        .owns(deployments, watcher::Config::default())
        .run(reconcile, error_policy, Arc::new(Context { client }))
        .for_each(|result| async move {
            if let Err(e) = result {
                eprintln!("reconcile: {e}");
            }
        })
        .await;
}
