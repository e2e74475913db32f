//! What a new cluster has before its first request is served: the
//! system namespaces, the `kubernetes` Service and, with RBAC, the
//! `cluster-admin` role and binding and the user-facing `admin`, `edit`
//! and `view` roles.

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
    if let Some(crds) = &inner.crds {
        crate::apiextensions::publish(crds, &inner.typed_crds).await?;
    }
    for object in bootstrap_objects(inner.rbac.is_some()) {
        let (group, version) = match object["apiVersion"].as_str().unwrap_or_default() {
            v if v.contains('/') => v.split_once('/').unwrap_or_default(),
            v => ("", v),
        };
        let kind_name = object["kind"].as_str().unwrap_or_default();
        let catalog = inner.catalogs.current();
        let Some(kind) = catalog.of_kind(group, version, kind_name) else {
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
        objects.extend(user_facing_roles());
    }
    objects
}

const READ: &[&str] = &["get", "list", "watch"];
const WRITE: &[&str] = &["create", "delete", "deletecollection", "patch", "update"];
const ALL: &[&str] = &crate::discovery::BUILTIN_VERBS;

fn rule(group: &str, resources: &[&str], verbs: &[&str]) -> Value {
    json!({"apiGroups": [group], "resources": resources, "verbs": verbs})
}

/// The user-facing ClusterRoles of `bootstrappolicy.ClusterRoles()`:
/// `admin`, `edit` and `view`, each aggregated (`aggregationRule`) from
/// the `system:aggregate-to-*` roles that carry their rules, written with
/// the rules aggregation gives them (so they hold from the first request;
/// the aggregation controller, [`crate::rbac::aggregation`], keeps them up
/// to date). The rules are upstream's for the kinds this server can
/// serve.
fn user_facing_roles() -> Vec<Value> {
    let view = vec![
        rule(
            "",
            &[
                "configmaps",
                "endpoints",
                "persistentvolumeclaims",
                "persistentvolumeclaims/status",
                "pods",
                "replicationcontrollers",
                "replicationcontrollers/scale",
                "serviceaccounts",
                "services",
                "services/status",
                "bindings",
                "events",
                "limitranges",
                "namespaces/status",
                "pods/log",
                "pods/status",
                "replicationcontrollers/status",
                "resourcequotas",
                "resourcequotas/status",
                "namespaces",
            ],
            READ,
        ),
        rule("discovery.k8s.io", &["endpointslices"], READ),
        rule(
            "apps",
            &[
                "controllerrevisions",
                "daemonsets",
                "daemonsets/status",
                "deployments",
                "deployments/scale",
                "deployments/status",
                "replicasets",
                "replicasets/scale",
                "replicasets/status",
                "statefulsets",
                "statefulsets/scale",
                "statefulsets/status",
            ],
            READ,
        ),
        rule(
            "autoscaling",
            &[
                "horizontalpodautoscalers",
                "horizontalpodautoscalers/status",
            ],
            READ,
        ),
        rule(
            "batch",
            &["cronjobs", "cronjobs/status", "jobs", "jobs/status"],
            READ,
        ),
        rule(
            "policy",
            &["poddisruptionbudgets", "poddisruptionbudgets/status"],
            READ,
        ),
        rule(
            "networking.k8s.io",
            &["ingresses", "ingresses/status", "networkpolicies"],
            READ,
        ),
    ];
    let edit = vec![
        rule(
            "",
            &[
                "pods/attach",
                "pods/exec",
                "pods/portforward",
                "pods/proxy",
                "secrets",
                "services/proxy",
            ],
            READ,
        ),
        rule("", &["serviceaccounts"], &["impersonate"]),
        rule(
            "",
            &[
                "pods",
                "pods/attach",
                "pods/exec",
                "pods/portforward",
                "pods/proxy",
            ],
            WRITE,
        ),
        rule("", &["pods/eviction"], &["create"]),
        rule(
            "",
            &[
                "configmaps",
                "events",
                "persistentvolumeclaims",
                "replicationcontrollers",
                "replicationcontrollers/scale",
                "secrets",
                "serviceaccounts",
                "services",
                "services/proxy",
            ],
            WRITE,
        ),
        rule("", &["serviceaccounts/token"], &["create"]),
        rule(
            "apps",
            &[
                "daemonsets",
                "deployments",
                "deployments/rollback",
                "deployments/scale",
                "replicasets",
                "replicasets/scale",
                "statefulsets",
                "statefulsets/scale",
            ],
            WRITE,
        ),
        rule("autoscaling", &["horizontalpodautoscalers"], WRITE),
        rule("batch", &["cronjobs", "jobs"], WRITE),
        rule("policy", &["poddisruptionbudgets"], WRITE),
        rule(
            "networking.k8s.io",
            &["ingresses", "networkpolicies"],
            WRITE,
        ),
        rule("coordination.k8s.io", &["leases"], ALL),
    ];
    let admin = vec![
        rule(
            "authorization.k8s.io",
            &["localsubjectaccessreviews"],
            &["create"],
        ),
        rule("rbac.authorization.k8s.io", &["rolebindings", "roles"], ALL),
    ];
    let aggregate = |name: &str, label: Option<&str>, rules: &[Value]| {
        let mut labels = json!({"kubernetes.io/bootstrapping": "rbac-defaults"});
        if let Some(label) = label {
            labels[format!("rbac.authorization.k8s.io/aggregate-to-{label}")] = json!("true");
        }
        json!({
            "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
            "metadata": {"name": format!("system:aggregate-to-{name}"), "labels": labels,
                         "annotations": {"rbac.authorization.kubernetes.io/autoupdate": "true"}},
            "rules": rules,
        })
    };
    let aggregated = |name: &str, label: Option<&str>, rules: Vec<Value>| {
        let mut labels = json!({"kubernetes.io/bootstrapping": "rbac-defaults"});
        if let Some(label) = label {
            labels[format!("rbac.authorization.k8s.io/aggregate-to-{label}")] = json!("true");
        }
        json!({
            "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
            "metadata": {"name": name, "labels": labels,
                         "annotations": {"rbac.authorization.kubernetes.io/autoupdate": "true"}},
            "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {
                format!("rbac.authorization.k8s.io/aggregate-to-{name}"): "true"
            }}]},
            "rules": rules,
        })
    };
    let edit_all: Vec<Value> = edit.iter().chain(&view).cloned().collect();
    let admin_all: Vec<Value> = admin.iter().chain(&edit_all).cloned().collect();
    vec![
        aggregate("admin", Some("admin"), &admin),
        aggregate("edit", Some("edit"), &edit),
        aggregate("view", Some("view"), &view),
        aggregated("admin", None, admin_all),
        aggregated("edit", Some("admin"), edit_all),
        aggregated("view", Some("edit"), view.clone()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rbac::{Attributes, Authorizer, RoleBinding, RoleRef, Subject, UserInfo};

    /// What `admin`, `edit` and `view` grant a user bound to them in a
    /// namespace (`bootstrappolicy` and the e2e "should allow the
    /// user-facing roles" expectations): `view` reads but not secrets,
    /// `edit` writes workloads but not RBAC, `admin` both.
    #[test]
    fn user_facing_roles_grant_what_they_grant_on_a_cluster() {
        let cluster_roles: Vec<ClusterRole> = user_facing_roles()
            .into_iter()
            .map(|r| serde_json::from_value(r).expect("a ClusterRole"))
            .collect();
        let bindings: Vec<RoleBinding> = [("jane", "edit"), ("vic", "view"), ("ada", "admin")]
            .into_iter()
            .map(|(user, role)| {
                RoleBinding::new(
                    "default",
                    &format!("{user}-{role}"),
                    RoleRef::cluster_role(role),
                    vec![Subject::user(user)],
                )
            })
            .collect();
        let authorizer = Authorizer::new(Vec::new(), bindings, cluster_roles, Vec::new());
        let can = |user: &str, verb: &str, group: &str, resource: &str| {
            let attributes = Attributes::resource(UserInfo::new(user, &[]), verb, group, resource)
                .in_namespace("default");
            authorizer.authorize(&attributes).allowed
        };
        assert!(can("jane", "create", "", "configmaps"));
        assert!(can("jane", "update", "apps", "deployments"));
        assert!(can("jane", "get", "", "secrets"));
        assert!(!can("jane", "create", "rbac.authorization.k8s.io", "roles"));
        assert!(can("vic", "list", "", "pods"));
        assert!(can("vic", "watch", "batch", "jobs"));
        assert!(!can("vic", "get", "", "secrets"));
        assert!(!can("vic", "create", "", "configmaps"));
        assert!(can("ada", "create", "rbac.authorization.k8s.io", "roles"));
        assert!(can("ada", "get", "", "secrets"));
        assert!(can("ada", "delete", "apps", "statefulsets"));
        assert!(!can("nobody", "get", "", "pods"));
    }
}
