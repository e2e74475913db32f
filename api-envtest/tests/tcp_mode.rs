//! The test environment's TCP mode: HTTPS on a loopback port and a
//! kubeconfig any client reads (here kube-rs, over rustls, as a
//! controller binary would); the in-process client sees the same server.

use api_core::kube::Kube;
use api_envtest::TestEnv;
use examples::memcached::{Memcached, MemcachedSpec};
use k8s_openapi::api::core::v1::Namespace;
use kube::api::{Api, ListParams, PostParams};
use kube::config::{KubeConfigOptions, Kubeconfig};

#[tokio::test]
async fn a_kubeconfig_reaches_the_same_server_over_tls() {
    let env = TestEnv::builder()
        .resource::<Memcached>()
        .tcp()
        .start()
        .await;
    let url = env.url().expect("TCP mode has a URL");
    assert!(url.starts_with("https://127.0.0.1:"), "{url}");
    let path = env.kubeconfig().expect("and a kubeconfig").to_path_buf();
    let kubeconfig = Kubeconfig::read_from(&path).unwrap();
    let config = kube::Config::from_custom_kubeconfig(kubeconfig, &KubeConfigOptions::default())
        .await
        .unwrap();
    assert_eq!(config.cluster_url.to_string().trim_end_matches('/'), url);
    let remote = kube::Client::try_from(config).unwrap();
    let namespaces: Api<Namespace> = Api::all(remote.clone());
    let names: Vec<String> = namespaces
        .list(&ListParams::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter_map(|n| n.metadata.name)
        .collect();
    assert!(names.contains(&"kube-system".to_string()), "{names:?}");
    // Written over TCP, read in process.
    let over_tcp: Api<Kube<Memcached>> = Api::default_namespaced(remote);
    over_tcp
        .create(
            &PostParams::default(),
            &Memcached::new("m", MemcachedSpec { size: Some(1) }).into(),
        )
        .await
        .unwrap();
    let in_process: Api<Kube<Memcached>> = Api::default_namespaced(env.client());
    assert_eq!(in_process.get("m").await.unwrap().spec.size, Some(1));
    // The kubeconfig goes with the environment.
    drop(env);
    assert!(!path.exists());
}

#[tokio::test]
async fn without_tcp_there_is_no_url() {
    let env = TestEnv::builder().start().await;
    assert!(env.url().is_none() && env.kubeconfig().is_none());
}
