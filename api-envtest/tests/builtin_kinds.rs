//! Kubernetes' built-in kinds in the test environment, through kube-rs
//! with k8s-openapi's types: every kind of `api_server::builtin::KINDS`
//! is discoverable and takes a create, a get, a list and a delete; a
//! Deployment owned by a ConfigMap is collected when the ConfigMap goes.

use std::time::{Duration, Instant};

use api_envtest::{BuiltinKinds, TestEnv};
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference};
use kube::api::{Api, DeleteParams, ListParams, PostParams};
use kube::discovery::Discovery;

fn deployment(name: &str, replicas: i32, owner: Option<OwnerReference>) -> Deployment {
    let labels = serde_json::json!({"app": name});
    serde_json::from_value(serde_json::json!({
        "metadata": {"name": name, "ownerReferences": owner.into_iter().collect::<Vec<_>>()},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {"containers": [{"name": "memcached", "image": "memcached:1.6"}]}
            }
        }
    }))
    .expect("a Deployment")
}

#[tokio::test]
async fn every_builtin_kind_is_discovered_and_served() {
    let env = TestEnv::builder()
        .builtin_kinds(BuiltinKinds::All)
        .start()
        .await;
    let discovery = Discovery::new(env.client()).run().await.unwrap();
    let mut served = Vec::new();
    for group in discovery.groups() {
        for (resource, _) in group.recommended_resources() {
            served.push((resource.group.clone(), resource.plural.clone()));
        }
    }
    for kind in api_server::builtin::KINDS {
        assert!(
            served.contains(&(kind.group.to_string(), kind.plural.to_string())),
            "{}/{} not discovered in {served:?}",
            kind.group,
            kind.plural
        );
    }
    // A Deployment, a ConfigMap and a Secret as a controller writes them.
    let deployments: Api<Deployment> = Api::default_namespaced(env.client());
    let created = deployments
        .create(&PostParams::default(), &deployment("web", 2, None))
        .await
        .unwrap();
    assert_eq!(created.spec.as_ref().unwrap().replicas, Some(2));
    assert_eq!(created.metadata.generation, Some(1));
    let got = deployments.get("web").await.unwrap();
    assert_eq!(got.metadata.uid, created.metadata.uid);
    let secrets: Api<Secret> = Api::default_namespaced(env.client());
    let secret = Secret {
        metadata: ObjectMeta {
            name: Some("token".into()),
            ..ObjectMeta::default()
        },
        string_data: Some([("a".to_string(), "b".to_string())].into()),
        ..Secret::default()
    };
    secrets
        .create(&PostParams::default(), &secret)
        .await
        .unwrap();
    assert_eq!(
        secrets
            .list(&ListParams::default())
            .await
            .unwrap()
            .items
            .len(),
        1
    );
}

/// The garbage collector takes an owned Deployment along with its owner
/// (a ConfigMap here: any kind may own any other).
#[tokio::test]
async fn an_owned_deployment_goes_with_its_owner() {
    let env = TestEnv::builder()
        .builtin_kinds(BuiltinKinds::Only(vec![
            "configmaps".into(),
            "deployments".into(),
        ]))
        .start()
        .await;
    let config_maps: Api<ConfigMap> = Api::default_namespaced(env.client());
    let owner = config_maps
        .create(
            &PostParams::default(),
            &ConfigMap {
                metadata: ObjectMeta {
                    name: Some("owner".into()),
                    ..ObjectMeta::default()
                },
                ..ConfigMap::default()
            },
        )
        .await
        .unwrap();
    let reference = OwnerReference {
        api_version: "v1".into(),
        kind: "ConfigMap".into(),
        name: "owner".into(),
        uid: owner.metadata.uid.clone().unwrap(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    };
    let deployments: Api<Deployment> = Api::default_namespaced(env.client());
    deployments
        .create(
            &PostParams::default(),
            &deployment("owned", 1, Some(reference)),
        )
        .await
        .unwrap();
    config_maps
        .delete("owner", &DeleteParams::foreground())
        .await
        .unwrap();
    let start = Instant::now();
    while deployments.get_opt("owned").await.unwrap().is_some()
        || config_maps.get_opt("owner").await.unwrap().is_some()
    {
        assert!(start.elapsed() < Duration::from_secs(5), "not collected");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Start-up, with every built-in kind and without: printed, for
/// BENCHMARKS.md (measured there, not asserted here).
#[tokio::test]
async fn start_up_with_and_without_builtin_kinds() {
    for which in [BuiltinKinds::None, BuiltinKinds::All] {
        let start = Instant::now();
        let env = TestEnv::builder()
            .builtin_kinds(which.clone())
            .start()
            .await;
        let namespaces: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(env.client());
        let listed = namespaces.list(&ListParams::default()).await.unwrap();
        assert!(listed.items.len() >= 4, "the system namespaces");
        println!("start to first list, {which:?}: {:?}", start.elapsed());
    }
}

/// What a new cluster has: the `kubernetes` Service in `default` when
/// Services are served, and with RBAC the `cluster-admin` ClusterRole
/// bound to `system:masters`, and the `admin`, `edit` and `view` roles
/// (what they grant: `api_server`'s bootstrap unit tests).
#[tokio::test]
async fn a_new_cluster_has_its_bootstrap_objects() {
    use k8s_openapi::api::core::v1::Service;
    use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
    let env = TestEnv::builder()
        .builtin_kinds(BuiltinKinds::Only(vec!["services".into()]))
        .configure(|server| server.authorization(api_server::server::AuthorizationMode::Rbac))
        .start()
        .await;
    let services: Api<Service> = Api::default_namespaced(env.client());
    let kubernetes = services.get("kubernetes").await.unwrap();
    let spec = kubernetes.spec.unwrap();
    assert_eq!(spec.cluster_ip.as_deref(), Some("10.96.0.1"));
    assert_eq!(spec.ports.unwrap()[0].port, 443);
    let roles: Api<ClusterRole> = Api::all(env.client());
    let admin = roles.get("cluster-admin").await.unwrap();
    assert_eq!(admin.rules.unwrap()[0].verbs, ["*"]);
    let bindings: Api<ClusterRoleBinding> = Api::all(env.client());
    let binding = bindings.get("cluster-admin").await.unwrap();
    assert_eq!(binding.subjects.unwrap()[0].name, "system:masters");

    // The user-facing roles, aggregated from `system:aggregate-to-*`.
    for name in ["admin", "edit", "view"] {
        let role = roles.get(name).await.unwrap();
        let selector = &role
            .aggregation_rule
            .unwrap()
            .cluster_role_selectors
            .unwrap()[0];
        assert_eq!(
            selector.match_labels.as_ref().unwrap()
                [&format!("rbac.authorization.k8s.io/aggregate-to-{name}")],
            "true"
        );
        roles
            .get(&format!("system:aggregate-to-{name}"))
            .await
            .unwrap();
    }
    // An operator's role for its custom resources, labelled to extend
    // `edit`: the aggregation controller merges it into `edit`, and
    // through `edit` into `admin`.
    let widgets: ClusterRole = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "widgets-edit",
                     "labels": {"rbac.authorization.k8s.io/aggregate-to-edit": "true"}},
        "rules": [{"apiGroups": ["example.com"], "resources": ["widgets"], "verbs": ["*"]}]
    }))
    .unwrap();
    roles
        .create(&PostParams::default(), &widgets)
        .await
        .unwrap();
    let has_widgets = |r: Option<&ClusterRole>| {
        r.and_then(|r| r.rules.as_ref()).is_some_and(|rules| {
            rules
                .iter()
                .any(|rule| rule.resources.as_deref() == Some(&["widgets".to_string()][..]))
        })
    };
    env.wait_for(&roles, "edit", has_widgets).await;
    env.wait_for(&roles, "admin", has_widgets).await;
    let view = roles.get("view").await.unwrap();
    assert!(!has_widgets(Some(&view)));
}

/// `kubectl scale deployment` and an autoscaler read and write the
/// replicas through the scale subresource.
#[tokio::test]
async fn deployments_scale() {
    use kube::api::{Patch, PatchParams};
    let env = TestEnv::builder()
        .builtin_kinds(BuiltinKinds::Only(vec!["deployments".into()]))
        .start()
        .await;
    let deployments: Api<Deployment> = Api::default_namespaced(env.client());
    deployments
        .create(&PostParams::default(), &deployment("web", 2, None))
        .await
        .unwrap();
    let scale = deployments.get_scale("web").await.unwrap();
    assert_eq!(scale.spec.unwrap().replicas, Some(2));
    // What an autoscaler reads to find the pods.
    assert_eq!(scale.status.unwrap().selector.as_deref(), Some("app=web"));
    let patch = serde_json::json!({"spec": {"replicas": 5}});
    deployments
        .patch_scale("web", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    let web = deployments.get("web").await.unwrap();
    assert_eq!(web.spec.unwrap().replicas, Some(5));
}

/// A ReplicationController's selector is a label set: its Scale's
/// selector is the set's string form.
#[tokio::test]
async fn replication_controllers_scale_with_a_label_set() {
    use k8s_openapi::api::core::v1::ReplicationController;
    let env = TestEnv::builder()
        .builtin_kinds(BuiltinKinds::Only(vec!["replicationcontrollers".into()]))
        .start()
        .await;
    let rcs: Api<ReplicationController> = Api::default_namespaced(env.client());
    let rc: ReplicationController = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "rc"},
        "spec": {"replicas": 1, "selector": {"tier": "web", "app": "x"}}
    }))
    .unwrap();
    rcs.create(&PostParams::default(), &rc).await.unwrap();
    let scale = rcs.get_scale("rc").await.unwrap();
    assert_eq!(
        scale.status.unwrap().selector.as_deref(),
        Some("app=x,tier=web")
    );
}

/// A namespace's delete finishes, as on a cluster (Go's envtest leaves it
/// `Terminating` forever: controller-runtime issue 880): its content goes
/// and then the namespace, and a create in it meanwhile is refused.
#[tokio::test]
async fn a_namespace_delete_finishes() {
    use k8s_openapi::api::core::v1::Namespace;
    let env = TestEnv::builder()
        .builtin_kinds(BuiltinKinds::Only(vec!["configmaps".into()]))
        .start()
        .await;
    let namespaces: Api<Namespace> = Api::all(env.client());
    let namespace: Namespace = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "doomed"}
    }))
    .unwrap();
    namespaces
        .create(&PostParams::default(), &namespace)
        .await
        .unwrap();
    let maps: Api<ConfigMap> = Api::namespaced(env.client(), "doomed");
    let map = |name: &str, finalizers: Vec<String>| ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            finalizers: Some(finalizers),
            ..Default::default()
        },
        ..Default::default()
    };
    maps.create(&PostParams::default(), &map("plain", vec![]))
        .await
        .unwrap();
    maps.create(
        &PostParams::default(),
        &map("held", vec!["example.com/hold".into()]),
    )
    .await
    .unwrap();

    namespaces
        .delete("doomed", &DeleteParams::default())
        .await
        .unwrap();
    env.wait_for(&maps, "plain", |m| m.is_none()).await;
    let terminating = env
        .wait_for(&namespaces, "doomed", |n| {
            n.and_then(|n| n.status.as_ref()?.conditions.as_ref())
                .is_some_and(|c| {
                    c.iter()
                        .any(|c| c.type_ == "NamespaceFinalizersRemaining" && c.status == "True")
                })
        })
        .await
        .unwrap();
    assert_eq!(
        terminating.status.unwrap().phase.as_deref(),
        Some("Terminating")
    );
    let refused = maps
        .create(&PostParams::default(), &map("late", vec![]))
        .await
        .unwrap_err();
    match refused {
        kube::Error::Api(status) => assert_eq!(status.code, 403, "{status:?}"),
        other => panic!("not a Status: {other}"),
    }

    // The finalizer's owner lets go: the ConfigMap goes, then the namespace.
    maps.patch(
        "held",
        &kube::api::PatchParams::default(),
        &kube::api::Patch::Merge(serde_json::json!({"metadata": {"finalizers": null}})),
    )
    .await
    .unwrap();
    env.wait_for(&namespaces, "doomed", |n| n.is_none()).await;
}

/// A Pod's `ephemeralcontainers` subresource, as `kubectl debug` writes
/// it: only `spec.ephemeralContainers` changes, and a container once
/// added may not be removed.
#[tokio::test]
async fn pods_take_ephemeral_containers() {
    use k8s_openapi::api::core::v1::Pod;
    use kube::api::{Patch, PatchParams};
    let env = TestEnv::builder()
        .builtin_kinds(BuiltinKinds::Only(vec!["pods".into()]))
        .start()
        .await;
    let pods: Api<Pod> = Api::default_namespaced(env.client());
    let pod: Pod = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "web", "labels": {"app": "web"}},
        "spec": {"containers": [{"name": "app", "image": "nginx"}]}
    }))
    .unwrap();
    pods.create(&PostParams::default(), &pod).await.unwrap();

    // A change of the labels or containers through the subresource is
    // dropped; the ephemeral container is added.
    let patch = serde_json::json!({
        "metadata": {"labels": {"app": "changed"}},
        "spec": {
            "containers": [{"name": "app", "image": "changed"}],
            "ephemeralContainers": [{"name": "debugger", "image": "busybox", "targetContainerName": "app"}]
        }
    });
    let patched = pods
        .patch_ephemeral_containers("web", &PatchParams::default(), &Patch::Strategic(patch))
        .await
        .unwrap();
    let spec = patched.spec.unwrap();
    assert_eq!(spec.containers[0].image.as_deref(), Some("nginx"));
    assert_eq!(patched.metadata.labels.unwrap()["app"], "web");
    let ephemeral = spec.ephemeral_containers.unwrap();
    assert_eq!(ephemeral[0].name, "debugger");
    let read = pods.get_ephemeral_containers("web").await.unwrap();
    assert_eq!(read.spec.unwrap().ephemeral_containers.unwrap().len(), 1);

    // Removing it is refused, as is a name a container has.
    let mut removed = pods.get("web").await.unwrap();
    removed.spec.as_mut().unwrap().ephemeral_containers = Some(Vec::new());
    let refused = pods
        .replace_ephemeral_containers("web", &PostParams::default(), &removed)
        .await
        .unwrap_err();
    match refused {
        kube::Error::Api(status) => {
            assert_eq!(status.code, 422, "{status:?}");
            assert!(
                status
                    .message
                    .contains("existing ephemeral containers \"debugger\" may not be removed"),
                "{}",
                status.message
            );
        }
        other => panic!("not a Status: {other}"),
    }
    let clash = serde_json::json!({"spec": {"ephemeralContainers": [
        {"name": "debugger", "image": "busybox", "targetContainerName": "app"},
        {"name": "app", "image": "busybox"}
    ]}});
    let refused = pods
        .patch_ephemeral_containers("web", &PatchParams::default(), &Patch::Merge(clash))
        .await
        .unwrap_err();
    assert!(matches!(refused, kube::Error::Api(s) if s.code == 422));
}

/// A Deployment keeps its pod template's labels and annotations (a
/// structural schema would prune an embedded ObjectMeta to nothing), and
/// one whose selector does not match them is refused as on a cluster
/// (`ValidateDeploymentSpec`).
#[tokio::test]
async fn deployments_keep_their_template_and_are_validated() {
    let env = TestEnv::builder()
        .builtin_kinds(BuiltinKinds::Only(vec!["deployments".into()]))
        .start()
        .await;
    let deployments: Api<Deployment> = Api::default_namespaced(env.client());
    let mut web = deployment("web", 1, None);
    web.spec
        .as_mut()
        .unwrap()
        .template
        .metadata
        .as_mut()
        .unwrap()
        .annotations = Some([("checksum/config".to_string(), "abc".to_string())].into());
    let created = deployments
        .create(&PostParams::default(), &web)
        .await
        .unwrap();
    let template = created.spec.unwrap().template.metadata.unwrap();
    assert_eq!(template.labels.unwrap()["app"], "web");
    assert_eq!(template.annotations.unwrap()["checksum/config"], "abc");

    let mut wrong = deployment("wrong", 1, None);
    wrong.spec.as_mut().unwrap().selector.match_labels =
        Some([("app".to_string(), "other".to_string())].into());
    match deployments.create(&PostParams::default(), &wrong).await {
        Err(kube::Error::Api(status)) => {
            assert_eq!(status.code, 422);
            assert!(
                status
                    .message
                    .contains("`selector` does not match template `labels`"),
                "{}",
                status.message
            );
        }
        other => panic!("accepted: {other:?}"),
    }
}
