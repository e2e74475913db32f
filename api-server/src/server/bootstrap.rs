//! What a new cluster has before its first request is served: the
//! system namespaces, the `kubernetes` Service and, with RBAC, the
//! `cluster-admin` role and binding.

use super::*;

/// What a new cluster has, made before the first request is served: the
/// system namespaces, then the bootstrap objects (the `kubernetes`
/// Service, the `cluster-admin` role and binding), each kept when it
/// exists already.
pub(super) async fn bootstrap(inner: &Inner) -> Result<(), Status> {
    if let Some(namespaces) = &inner.namespaces {
        namespaces.ensure_system().await?;
    }
    let options = crate::served::WriteOptions {
        manager: "kube-apiserver".into(),
        user: Some(User::new("system:apiserver", &[SYSTEM_MASTERS])),
        ..Default::default()
    };
    for object in bootstrap_objects(inner.rbac.is_some()) {
        let (group, version) = match object["apiVersion"].as_str().unwrap_or_default() {
            v if v.contains('/') => v.split_once('/').unwrap_or_default(),
            v => ("", v),
        };
        let kind_name = object["kind"].as_str().unwrap_or_default();
        let Some(kind) = inner.by_path.of_kind(group, version, kind_name) else {
            continue;
        };
        let namespace = object["metadata"]["namespace"].as_str().unwrap_or_default();
        let body = serde_json::to_vec(&object).map_err(Status::internal_error)?;
        match kind.create(namespace, &body, &options).await {
            Ok(_) => {}
            Err(e) if e.code == 409 => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The objects kube-apiserver makes in a new cluster, of the kinds this
/// server may serve: the `kubernetes` Service in `default` (the
/// apiserver's own address in the cluster: `10.96.0.1:443`, as a
/// kubeadm cluster's default service CIDR gives it), and with RBAC the
/// `cluster-admin` ClusterRole and its binding to `system:masters`
/// (`plugin/pkg/auth/authorizer/rbac/bootstrappolicy`).
fn bootstrap_objects(rbac: bool) -> Vec<Value> {
    let bootstrapping = json!({"kubernetes.io/bootstrapping": "rbac-defaults"});
    let mut objects = vec![json!({
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "kubernetes", "namespace": "default",
                     "labels": {"component": "apiserver", "provider": "kubernetes"}},
        "spec": {"type": "ClusterIP", "clusterIP": "10.96.0.1", "clusterIPs": ["10.96.0.1"],
                 "sessionAffinity": "None",
                 "ports": [{"name": "https", "port": 443, "protocol": "TCP", "targetPort": 6443}]}
    })];
    if rbac {
        objects.push(json!({
            "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
            "metadata": {"name": "cluster-admin", "labels": bootstrapping,
                         "annotations": {"rbac.authorization.kubernetes.io/autoupdate": "true"}},
            "rules": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["*"]},
                      {"nonResourceURLs": ["*"], "verbs": ["*"]}]
        }));
        objects.push(json!({
            "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
            "metadata": {"name": "cluster-admin", "labels": bootstrapping,
                         "annotations": {"rbac.authorization.kubernetes.io/autoupdate": "true"}},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                        "name": "cluster-admin"},
            "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "Group",
                          "name": "system:masters"}]
        }));
    }
    objects
}
