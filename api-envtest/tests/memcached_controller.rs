//! The example Memcached controller (`examples::controller`, kube-rs)
//! against the test environment: it creates the Deployment, follows the
//! size, holds its finalizer, and the garbage collector removes the
//! Deployment with the Memcached. The README's controller-test example is
//! the body of `the_controller_reconciles_a_memcached`.

use std::time::Duration;

use api_core::kube::Kube;
use api_envtest::{BuiltinKinds, TestEnv};
use examples::memcached::{Memcached, MemcachedSpec};
use k8s_openapi::api::apps::v1::Deployment;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};

// Kept compact (not rustfmt's layout): the README shows this body.
#[rustfmt::skip]
#[tokio::test]
async fn the_controller_reconciles_a_memcached() {
    let deployments_only = BuiltinKinds::Only(vec!["deployments".into()]);
    let env = TestEnv::builder().resource::<Memcached>().builtin_kinds(deployments_only).start().await;
    tokio::spawn(examples::controller::run(env.client())); // the controller under test
    let memcacheds: Api<Kube<Memcached>> = Api::default_namespaced(env.client());
    let deployments: Api<Deployment> = Api::default_namespaced(env.client());
    let mc = Memcached::new("cache", MemcachedSpec { size: Some(2) });
    memcacheds.create(&PostParams::default(), &mc.into()).await.unwrap();
    // The Deployment appears, owned by the Memcached, with its size.
    let replicas = |d: Option<&Deployment>| d.and_then(|d| d.spec.as_ref()?.replicas);
    let d = env.wait_for(&deployments, "cache", |d| replicas(d) == Some(2)).await.unwrap();
    assert_eq!(d.metadata.owner_references.unwrap()[0].kind, "Memcached");
    // It follows the size.
    let size = serde_json::json!({"spec": {"size": 3}});
    memcacheds.patch("cache", &PatchParams::default(), &Patch::Merge(&size)).await.unwrap();
    env.wait_for(&deployments, "cache", |d| replicas(d) == Some(3)).await;
    // Deleted: the finalizer runs, then the garbage collector takes the Deployment.
    memcacheds.delete("cache", &DeleteParams::default()).await.unwrap();
    env.wait_for(&memcacheds, "cache", |m| m.is_none()).await;
    env.wait_for(&deployments, "cache", |d| d.is_none()).await;
}

/// The README's controller test is the body of
/// `the_controller_reconciles_a_memcached`, as it is here.
#[test]
fn the_readme_shows_the_controller_test() {
    let source = include_str!("memcached_controller.rs");
    let start = source
        .find("async fn the_controller_reconciles_a_memcached() {\n")
        .expect("the test")
        + "async fn the_controller_reconciles_a_memcached() {\n".len();
    let end = start + source[start..].find("\n}\n").expect("its end");
    let body: Vec<&str> = source[start..end]
        .lines()
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .collect();
    let readme = include_str!("../../README.md");
    assert!(
        readme.contains(&body.join("\n")),
        "README.md should show the body of the_controller_reconciles_a_memcached"
    );
}

/// The status the controller writes with server-side apply, and its
/// finalizer, while the Memcached exists.
#[tokio::test]
async fn the_controller_reports_available_and_holds_its_finalizer() {
    let env = TestEnv::builder()
        .resource::<Memcached>()
        .builtin_kinds(BuiltinKinds::Only(vec!["deployments".into()]))
        .start()
        .await;
    tokio::spawn(examples::controller::run(env.client()));
    let memcacheds: Api<Kube<Memcached>> = Api::default_namespaced(env.client());
    let mc = Memcached::new("cache", MemcachedSpec { size: Some(1) });
    memcacheds
        .create(&PostParams::default(), &mc.into())
        .await
        .unwrap();
    let reconciled = env
        .wait_for(&memcacheds, "cache", |m| {
            m.is_some_and(|m| {
                m.metadata
                    .finalizers
                    .iter()
                    .flatten()
                    .any(|f| f == examples::controller::FINALIZER)
                    && m.status
                        .as_ref()
                        .and_then(|s| s.conditions.get("Available"))
                        .is_some_and(|c| c.status == api_core::meta::ConditionStatus::True)
            })
        })
        .await
        .unwrap();
    let managers: Vec<_> = reconciled
        .metadata
        .managed_fields
        .iter()
        .flatten()
        .filter_map(|f| Some((f.manager.clone()?, f.subresource.clone())))
        .collect();
    assert!(
        managers.contains(&(
            examples::controller::MANAGER.to_string(),
            Some("status".to_string())
        )),
        "{managers:?}"
    );
    // A wait that does not come true names the object and its last state.
    let failed = tokio::spawn(async move {
        env.wait_for_within(&memcacheds, "cache", Duration::from_millis(50), |m| {
            m.is_none()
        })
        .await
    })
    .await
    .unwrap_err();
    let message = failed.into_panic();
    let message = message
        .downcast_ref::<String>()
        .map(String::as_str)
        .unwrap_or_default();
    assert!(
        message.contains("Memcached default/cache") && message.contains("\"size\""),
        "{message}"
    );
}
