//! The ClusterRole aggregation controller (kube-controller-manager's
//! `pkg/controller/clusterroleaggregation`): a ClusterRole with an
//! `aggregationRule` gets the rules of every ClusterRole its
//! `clusterRoleSelectors` select (in name order, each rule once), so that
//! a role labelled `rbac.authorization.k8s.io/aggregate-to-edit: "true"`
//! (what operators install for their custom resources) extends `edit`
//! and, through it, `admin`. It runs as kube-controller-manager does,
//! beside the server, and recomputes every aggregated role on any change
//! to a ClusterRole.

use std::sync::Arc;
use std::time::Duration;

use api_core::Status;
use api_core::labels::Selector;
use api_core::meta::LabelSelector;
use api_core::registry::ListOptions;
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_util::task::AbortOnDropHandle;

use crate::authn::{SYSTEM_MASTERS, User};
use crate::served::{ServedKind, WriteOptions};

/// The name its writes are recorded under (`managedFields`), upstream's.
pub const MANAGER: &str = "clusterrole-aggregation-controller";

/// A running aggregation controller; it stops when dropped.
#[derive(Debug)]
pub struct AggregationController {
    _task: AbortOnDropHandle<()>,
}

impl AggregationController {
    /// Starts aggregating over `cluster_roles` (the served ClusterRole
    /// kind). Call it in a Tokio runtime.
    pub fn start(cluster_roles: Arc<dyn ServedKind>) -> Self {
        AggregationController {
            _task: AbortOnDropHandle::new(tokio::spawn(run(cluster_roles))),
        }
    }
}

async fn run(roles: Arc<dyn ServedKind>) {
    let options = WriteOptions {
        manager: MANAGER.to_string(),
        user: Some(User::new(
            "system:kube-controller-manager",
            &[SYSTEM_MASTERS],
        )),
        ..WriteOptions::default()
    };
    loop {
        let Ok(list) = roles.list("", &ListOptions::default()).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let _ = aggregate_all(roles.as_ref(), &list["items"], &options).await;
        let watch_options = ListOptions {
            resource_version: list["metadata"]["resourceVersion"]
                .as_str()
                .map(str::to_string),
            ..ListOptions::default()
        };
        let Ok(mut events) = roles.watch("", &watch_options).await else {
            continue;
        };
        while let Some(event) = events.next().await {
            match event {
                Ok(("BOOKMARK", _)) => {}
                Ok(_) => {
                    // Any change may change what an aggregated role
                    // selects: read them all again.
                    if let Ok(list) = roles.list("", &ListOptions::default()).await {
                        let _ = aggregate_all(roles.as_ref(), &list["items"], &options).await;
                    }
                }
                Err(_) => break,
            }
        }
    }
}

/// Brings every aggregated role of `roles` up to date.
async fn aggregate_all(
    kind: &dyn ServedKind,
    roles: &Value,
    options: &WriteOptions,
) -> Result<(), Status> {
    let roles = roles.as_array().cloned().unwrap_or_default();
    for role in &roles {
        let Some(rules) = aggregated_rules(role, &roles) else {
            continue;
        };
        if role["rules"].as_array().cloned().unwrap_or_default() == rules {
            continue;
        }
        let mut updated = role.clone();
        updated["rules"] = Value::Array(rules);
        let name = role["metadata"]["name"].as_str().unwrap_or_default();
        let body = serde_json::to_vec(&updated).map_err(Status::internal_error)?;
        // A conflict means another change came in: its event recomputes.
        match kind.update("", name, &body, options, false).await {
            Ok(_) => {}
            Err(e) if e.code == 409 || e.code == 404 => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The rules `role` aggregates from `roles` (`syncClusterRole`), or
/// `None` when it has no `aggregationRule`: the rules of the roles any of
/// its selectors select, other than itself, in name order, each once.
fn aggregated_rules(role: &Value, roles: &[Value]) -> Option<Vec<Value>> {
    let selectors = role["aggregationRule"]["clusterRoleSelectors"].as_array()?;
    let selectors: Vec<Selector> = selectors
        .iter()
        .filter_map(|s| serde_json::from_value::<LabelSelector>(s.clone()).ok())
        .filter_map(|s| Selector::from_label_selector(Some(&s)).ok())
        .collect();
    let name = &role["metadata"]["name"];
    let mut sources: Vec<&Value> = roles
        .iter()
        .filter(|r| r["metadata"]["name"] != *name)
        .filter(|r| {
            let labels: std::collections::BTreeMap<String, String> =
                serde_json::from_value(r["metadata"]["labels"].clone()).unwrap_or_default();
            selectors.iter().any(|s| s.matches(&labels))
        })
        .collect();
    sources.sort_by_key(|r| {
        r["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    });
    let mut rules: Vec<Value> = Vec::new();
    for source in sources {
        for rule in source["rules"].as_array().into_iter().flatten() {
            let rule = normalized(rule);
            if !rules.contains(&rule) {
                rules.push(rule);
            }
        }
    }
    Some(rules)
}

/// A rule without its empty lists (as the Go struct writes it), so that
/// equal rules compare equal.
fn normalized(rule: &Value) -> Value {
    let mut out = json!({});
    for (key, value) in rule.as_object().into_iter().flatten() {
        if value.as_array().is_some_and(|a| !a.is_empty()) {
            out[key] = value.clone();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role(name: &str, labels: Value, rules: Value) -> Value {
        json!({"metadata": {"name": name, "labels": labels}, "rules": rules})
    }

    /// `TestSyncClusterRole` (clusterroleaggregation_controller_test.go):
    /// the selected roles' rules, in name order, each once; not the role
    /// itself; a role without an aggregation rule is left alone.
    #[test]
    fn aggregated_rules_as_sync_cluster_role() {
        let hammer = json!({"verbs": ["hammer"], "resources": ["nails"], "apiGroups": [""]});
        let saw = json!({"verbs": ["saw"], "resources": ["boards"], "apiGroups": [""]});
        let roles = vec![
            role("b-hammer", json!({"foo": "bar"}), json!([hammer])),
            role("a-saw", json!({"foo": "bar"}), json!([saw, hammer])),
            role(
                "unrelated",
                json!({"foo": "other"}),
                json!([{"verbs": ["*"], "resources": ["*"], "apiGroups": ["*"]}]),
            ),
            json!({
                "metadata": {"name": "aggregate", "labels": {"foo": "bar"}},
                "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"foo": "bar"}}]},
                "rules": [{"verbs": ["old"], "resources": ["x"], "apiGroups": [""]}]
            }),
        ];
        assert_eq!(
            aggregated_rules(&roles[3], &roles).unwrap(),
            vec![saw.clone(), hammer.clone()]
        );
        assert_eq!(aggregated_rules(&roles[0], &roles), None);
        // Nothing selected: no rules.
        let lonely = json!({
            "metadata": {"name": "lonely"},
            "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {"none": "match"}}]}
        });
        assert_eq!(
            aggregated_rules(&lonely, &roles).unwrap(),
            Vec::<Value>::new()
        );
    }
}
