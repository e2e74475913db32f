//! The examples of the Kubernetes documentation's "Server-Side Apply" page
//! (kubernetes/website, `content/en/docs/reference/using-api/
//! server-side-apply.md`), reproduced (issue 17). Each test names the
//! section it follows; the page's own YAML is the expected managedFields
//! where it shows some. The first example of the page (one ConfigMap
//! applied by kubectl) is the unit test
//! `api_core::apply::manager::tests::the_documented_configmap_example`.
//!
//! Field-manager level (`FieldManager` over a ConfigMap's schema, as the
//! page's examples are ConfigMaps): the object with two managers, the
//! conflict the same change would have been as an apply, the three ways
//! to resolve a conflict, shared ownership and its transfer, the
//! no-change body of "Serialization", and the topology change of "Custom
//! resources and Server-Side Apply".
//!
//! Registry level (`Registry::apply` and `Registry::patch` on a
//! Deployment-like kind whose `replicas` defaults to 1): "Transferring
//! ownership" from a user to the HorizontalPodAutoscaler, both the basic
//! and the advanced way, the removed field reset to its default, and
//! "Clearing managedFields".
//!
//! Where the page and the apiserver's code disagree, the code wins and
//! the test says so: `"managedFields": []` clears them (the page says it
//! does not; `isResetManagedFields` and the integration test
//! `TestClearManagedFieldsWithUpdateEmptyList` say it does), and a reset
//! combined with other changes leaves the object untracked (the page says
//! the writer owns what it changed; `skipNonAppliedManager` skips an
//! existing object whose managedFields are empty).

use std::collections::BTreeMap;

use api_core::apply::{FieldManager, Schema, Writer, resource_schema};
use api_core::meta::Time;
use api_core::patch::PatchType;
use api_core::prelude::*;
use api_core::registry::{ApplyOptions, DefaultStrategy, Registry};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------
// Field-manager level: ConfigMaps

fn configmap_schema() -> Schema {
    resource_schema(&json!({
        "type": "object",
        "properties": {
            "apiVersion": {"type": "string"}, "kind": {"type": "string"},
            "metadata": {"type": "object"},
            "data": {"type": "object", "additionalProperties": {"type": "string"}}
        }
    }))
}

fn time(s: &str) -> Time {
    s.parse().expect("a time")
}

fn writer(manager: &str) -> Writer<'_> {
    Writer {
        manager,
        api_version: "v1",
        subresource: "",
    }
}

/// The page's ConfigMap, applied by kubectl at 15:00 and stored (a uid).
fn applied_by_kubectl(schema: &Schema) -> Value {
    let config = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "test-cm", "namespace": "default", "labels": {"test-label": "test"}},
        "data": {"key": "some value"}});
    let fm = FieldManager::new(schema, time("2019-03-30T15:00:00Z"));
    let mut live = fm
        .apply(&Value::Null, &config, &writer("kubectl"), false)
        .expect("creates")
        .expect("a new object");
    live["metadata"]["uid"] = json!("6f1f2b4e-0000-4000-8000-000000000001");
    live
}

fn apply(schema: &Schema, live: &Value, manager: &str, data: Value, force: bool) -> Value {
    try_apply(schema, live, manager, data, force).unwrap_or_else(|e| panic!("{}", e.message))
}

fn try_apply(
    schema: &Schema,
    live: &Value,
    manager: &str,
    data: Value,
    force: bool,
) -> Result<Value, api_core::Status> {
    let mut config = json!({"apiVersion": "v1", "kind": "ConfigMap",
                            "metadata": {"name": "test-cm", "namespace": "default"}});
    if !data.is_null() {
        config["data"] = data;
    }
    let fm = FieldManager::new(schema, time("2019-03-30T17:00:00Z"));
    Ok(fm
        .apply(live, &config, &writer(manager), force)?
        .unwrap_or_else(|| live.clone()))
}

/// `manager → fieldsV1` of an object's entries.
fn owners(object: &Value) -> BTreeMap<String, Value> {
    object["metadata"]["managedFields"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| {
            (
                e["manager"].as_str().unwrap_or_default().to_string(),
                e["fieldsV1"].clone(),
            )
        })
        .collect()
}

/// "Operations in scope for field management": the page's object with
/// two managers, kubectl's apply and kube-controller-manager's update of
/// `data.key`, entry for entry.
#[test]
fn an_update_moves_the_field_it_changes_to_its_manager() {
    let schema = configmap_schema();
    let live = applied_by_kubectl(&schema);
    let mut updated = live.clone();
    updated["data"]["key"] = json!("new value");
    FieldManager::new(&schema, time("2019-03-30T16:00:00Z")).update(
        &live,
        &mut updated,
        &writer("kube-controller-manager"),
    );
    assert_eq!(
        updated["metadata"]["managedFields"],
        json!([
            {"manager": "kubectl", "operation": "Apply", "apiVersion": "v1",
             "time": "2019-03-30T15:00:00Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:metadata": {"f:labels": {"f:test-label": {}}}}},
            {"manager": "kube-controller-manager", "operation": "Update", "apiVersion": "v1",
             "time": "2019-03-30T16:00:00Z", "fieldsType": "FieldsV1",
             "fieldsV1": {"f:data": {"f:key": {}}}}
        ])
    );
    assert_eq!(updated["data"]["key"], "new value");
}

/// "If this update has instead been attempted using Server-Side Apply,
/// the request would have failed due to conflicting ownership."
#[test]
fn the_same_change_as_an_apply_conflicts() {
    let schema = configmap_schema();
    let live = applied_by_kubectl(&schema);
    let err = try_apply(
        &schema,
        &live,
        "kube-controller-manager",
        json!({"key": "new value"}),
        false,
    )
    .expect_err("kubectl owns data.key");
    assert_eq!(err.code, 409);
    assert_eq!(err.reason, api_core::status::StatusReason::Conflict);
    assert_eq!(
        err.message,
        "Apply failed with 1 conflict: conflict with \"kubectl\": .data.key"
    );
}

/// "Conflicts", first way: overwrite the value and become its sole
/// manager (`force`): the value changes and the field leaves every other
/// manager's entry.
#[test]
fn a_forced_apply_takes_the_field() {
    let schema = configmap_schema();
    let live = applied_by_kubectl(&schema);
    let next = apply(&schema, &live, "bob", json!({"key": "bob's"}), true);
    assert_eq!(next["data"]["key"], "bob's");
    let owners = owners(&next);
    assert_eq!(owners["bob"], json!({"f:data": {"f:key": {}}}));
    assert_eq!(
        owners["kubectl"],
        json!({"f:metadata": {"f:labels": {"f:test-label": {}}}})
    );
}

/// "Conflicts", second way: give up the claim by omitting the field: the
/// value stays, and the applier owns nothing of it.
#[test]
fn omitting_the_field_gives_up_the_claim() {
    let schema = configmap_schema();
    let live = applied_by_kubectl(&schema);
    // Bob owned another key, and wanted data.key too.
    let live = apply(&schema, &live, "bob", json!({"other": "x"}), false);
    assert!(
        try_apply(
            &schema,
            &live,
            "bob",
            json!({"other": "x", "key": "mine"}),
            false
        )
        .is_err()
    );
    let next = apply(&schema, &live, "bob", json!({"other": "x"}), false);
    assert_eq!(next["data"]["key"], "some value");
    assert_eq!(owners(&next)["bob"], json!({"f:data": {"f:other": {}}}));
}

/// "Conflicts", third way, and "Field management": two appliers that set
/// the same value share the field; any change by either then conflicts.
#[test]
fn the_same_value_shares_the_field_and_then_conflicts_for_both() {
    let schema = configmap_schema();
    let live = applied_by_kubectl(&schema);
    let shared = apply(&schema, &live, "bob", json!({"key": "some value"}), false);
    assert_eq!(shared["data"], live["data"], "the value is unchanged");
    let owners = owners(&shared);
    assert_eq!(owners["bob"], json!({"f:data": {"f:key": {}}}));
    assert_eq!(
        owners["kubectl"]["f:data"],
        json!({"f:key": {}}),
        "kubectl keeps it"
    );

    let bob = try_apply(&schema, &shared, "bob", json!({"key": "b"}), false).unwrap_err();
    assert_eq!(
        bob.message,
        "Apply failed with 1 conflict: conflict with \"kubectl\": .data.key"
    );
    let mut config = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "test-cm", "namespace": "default", "labels": {"test-label": "test"}},
        "data": {"key": "k"}});
    let kubectl = FieldManager::new(&schema, time("2019-03-30T18:00:00Z"))
        .apply(&shared, &config, &writer("kubectl"), false)
        .unwrap_err();
    assert_eq!(
        kubectl.message,
        "Apply failed with 1 conflict: conflict with \"bob\": .data.key"
    );
    // Unchanged, kubectl's own configuration is no conflict.
    config["data"]["key"] = json!("some value");
    assert_eq!(
        FieldManager::new(&schema, time("2019-03-30T18:00:00Z"))
            .apply(&shared, &config, &writer("kubectl"), false)
            .unwrap(),
        None
    );
}

/// "Transferring ownership between managers": share the field, then the
/// old owner drops it from its configuration; the value stays with the new
/// owner alone. When the last owner drops it, it goes.
#[test]
fn ownership_moves_between_managers_through_sharing() {
    let schema = configmap_schema();
    let live = applied_by_kubectl(&schema);
    let shared = apply(&schema, &live, "bob", json!({"key": "some value"}), false);
    let labels_only = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "test-cm", "namespace": "default", "labels": {"test-label": "test"}}});
    let moved = FieldManager::new(&schema, time("2019-03-30T18:00:00Z"))
        .apply(&shared, &labels_only, &writer("kubectl"), false)
        .unwrap()
        .expect("kubectl's entry changes");
    assert_eq!(moved["data"]["key"], "some value");
    let owners = owners(&moved);
    assert_eq!(owners["bob"], json!({"f:data": {"f:key": {}}}));
    assert_eq!(
        owners["kubectl"],
        json!({"f:metadata": {"f:labels": {"f:test-label": {}}}})
    );
    // Bob is now free to change it.
    let changed = apply(&schema, &moved, "bob", json!({"key": "bob's"}), false);
    assert_eq!(changed["data"]["key"], "bob's");
    // "If you remove a field from a manifest and apply that manifest [...]
    // if the field is not owned by any other field managers, it is [...]
    // deleted from the live object."
    let dropped = apply(&schema, &changed, "bob", Value::Null, false);
    assert_eq!(dropped.get("data"), None, "{dropped}");
    assert!(!self::owners(&dropped).contains_key("bob"));
}

/// "Serialization": `{"apiVersion": "v1", "kind": "ConfigMap"}` as the
/// body is "a no-change update".
#[test]
fn the_minimal_body_changes_nothing() {
    let schema = configmap_schema();
    let live = applied_by_kubectl(&schema);
    let body = json!({"apiVersion": "v1", "kind": "ConfigMap"});
    let fm = FieldManager::new(&schema, time("2019-03-30T17:00:00Z"));
    assert_eq!(
        fm.apply(&live, &body, &writer("someone"), false).unwrap(),
        None
    );
}

/// "Compatibility across topology changes": the page's `Foo`, whose
/// `spec.data` manager-one applied while the map was atomic. Still atomic,
/// changing a key conflicts over the whole map; once the CRD makes it
/// granular, manager-one keeps `spec.data` itself but not its keys, so
/// another manager changes `key1` without a conflict.
#[test]
fn an_atomic_map_made_granular_frees_its_keys() {
    let foo = |map_type: &str| {
        resource_schema(&json!({
            "type": "object",
            "properties": {
                "apiVersion": {"type": "string"}, "kind": {"type": "string"},
                "metadata": {"type": "object"},
                "spec": {"type": "object", "properties": {
                    "data": {"type": "object", "additionalProperties": {"type": "string"},
                             "x-kubernetes-map-type": map_type}}}
            }
        }))
    };
    // The page's YAML, stored (a uid).
    let live = json!({
        "apiVersion": "example.com/v1", "kind": "Foo",
        "metadata": {"name": "foo-sample", "uid": "6f1f2b4e-0000-4000-8000-000000000002",
            "managedFields": [{"manager": "manager-one", "operation": "Apply",
                "apiVersion": "example.com/v1", "fieldsType": "FieldsV1",
                "fieldsV1": {"f:spec": {"f:data": {}}}}]},
        "spec": {"data": {"key1": "val1", "key2": "val2"}}
    });
    let config = json!({"apiVersion": "example.com/v1", "kind": "Foo",
                        "metadata": {"name": "foo-sample"},
                        "spec": {"data": {"key1": "changed"}}});
    let two = Writer {
        manager: "manager-two",
        api_version: "example.com/v1",
        subresource: "",
    };
    let atomic = foo("atomic");
    let err = FieldManager::new(&atomic, time("2024-01-01T00:00:00Z"))
        .apply(&live, &config, &two, false)
        .unwrap_err();
    assert_eq!(
        err.message,
        "Apply failed with 1 conflict: conflict with \"manager-one\": .spec.data"
    );

    let granular = foo("granular");
    let next = FieldManager::new(&granular, time("2024-01-01T00:00:00Z"))
        .apply(&live, &config, &two, false)
        .expect("no conflict once granular")
        .expect("a change");
    assert_eq!(
        next["spec"]["data"],
        json!({"key1": "changed", "key2": "val2"})
    );
    let owners = owners(&next);
    assert_eq!(owners["manager-one"], json!({"f:spec": {"f:data": {}}}));
    assert_eq!(
        owners["manager-two"],
        json!({"f:spec": {"f:data": {"f:key1": {}}}})
    );
}

// ---------------------------------------------------------------------------
// Registry level: a Deployment whose replicas default to 1

/// DeploymentSpec: the fields of an apps/v1 Deployment that the page's
/// nginx example uses.
#[derive(KubeResource, Serialize, Deserialize, Clone, Debug, PartialEq)]
#[kube(
    group = "apps.example.com",
    version = "v1",
    kind = "Deployment",
    namespaced
)]
#[serde(rename_all = "camelCase")]
pub struct DeploymentSpec {
    /// replicas is the number of desired pods (1 when unset).
    #[kube(default = 1)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// selector of the pods, by label.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub selector: BTreeMap<String, String>,
    /// image of the pods' container.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
}

fn run<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime")
        .block_on(f)
}

fn registry() -> Registry<Deployment> {
    Registry::new(DefaultStrategy)
}

/// The page's nginx-deployment.yaml, reduced to this kind's fields.
const NGINX: &str = r#"
apiVersion: apps.example.com/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app: nginx
spec:
  replicas: 3
  selector:
    app: nginx
  image: nginx:1.14.2
"#;

/// nginx-deployment-no-replicas.yaml.
const NGINX_NO_REPLICAS: &str = r#"
apiVersion: apps.example.com/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app: nginx
spec:
  selector:
    app: nginx
  image: nginx:1.14.2
"#;

/// nginx-deployment-replicas-only.yaml.
const REPLICAS_ONLY: &str = r#"
apiVersion: apps.example.com/v1
kind: Deployment
metadata:
  name: nginx-deployment
spec:
  replicas: 3
"#;

async fn apply_as(
    registry: &Registry<Deployment>,
    manager: &str,
    config: &str,
) -> Result<Deployment, api_core::Status> {
    registry
        .field_manager(manager)
        .apply(
            "default",
            "nginx-deployment",
            config.as_bytes(),
            ApplyOptions::default(),
        )
        .await
        .map(|o| o.object)
}

/// The HorizontalPodAutoscaler's controller scaling the Deployment (an
/// update by `kube-controller-manager`; on a cluster it writes through the
/// scale subresource, which this kind does not have).
async fn scale(registry: &Registry<Deployment>, replicas: i32) -> Deployment {
    let patch = json!({"spec": {"replicas": replicas}}).to_string();
    registry
        .field_manager("kube-controller-manager")
        .patch(
            "default",
            "nginx-deployment",
            PatchType::Merge,
            patch.as_bytes(),
        )
        .await
        .expect("scales")
        .object
}

fn managers(object: &Deployment) -> BTreeMap<String, Value> {
    object
        .metadata
        .managed_fields
        .iter()
        .map(|e| (e.manager.clone(), e.fields_v1.clone().unwrap_or_default()))
        .collect()
}

fn owns_replicas(object: &Deployment, manager: &str) -> bool {
    managers(object)
        .get(manager)
        .and_then(|f| f.pointer("/f:spec/f:replicas"))
        .is_some()
}

/// "Transferring ownership", the race the page warns about: removing
/// `replicas` before the autoscaler owns it resets it to the default, 1.
#[test]
fn a_removed_field_nobody_else_owns_gets_its_default_back() {
    run(async {
        let registry = registry();
        let created = apply_as(&registry, "kubectl", NGINX).await.unwrap();
        assert_eq!(created.spec.replicas, Some(3));
        let next = apply_as(&registry, "kubectl", NGINX_NO_REPLICAS)
            .await
            .unwrap();
        assert_eq!(next.spec.replicas, Some(1));
        assert!(!owns_replicas(&next, "kubectl"));
    })
}

/// "Transferring ownership", the basic way: leave `replicas` in the
/// configuration; once the autoscaler wrote it, the next apply conflicts,
/// and then it is safe to remove it.
#[test]
fn the_basic_handover_waits_for_the_conflict() {
    run(async {
        let registry = registry();
        apply_as(&registry, "kubectl", NGINX).await.unwrap();
        let scaled = scale(&registry, 5).await;
        assert!(owns_replicas(&scaled, "kube-controller-manager"));
        assert!(!owns_replicas(&scaled, "kubectl"));
        let err = apply_as(&registry, "kubectl", NGINX).await.unwrap_err();
        assert_eq!(err.code, 409);
        assert_eq!(
            err.message,
            "Apply failed with 1 conflict: conflict with \"kube-controller-manager\" using apps.example.com/v1: .spec.replicas"
        );
        let next = apply_as(&registry, "kubectl", NGINX_NO_REPLICAS)
            .await
            .unwrap();
        assert_eq!(next.spec.replicas, Some(5), "the autoscaler's value stays");
    })
}

/// "Transferring ownership", the advanced way: a private manager
/// (`handover-to-hpa`) applies only `replicas`, sharing it; the user then
/// drops `replicas` with no reset; when the autoscaler writes a new value
/// the private manager owns nothing and its entry disappears.
#[test]
fn the_advanced_handover_goes_through_a_private_manager() {
    run(async {
        let registry = registry();
        apply_as(&registry, "kubectl", NGINX).await.unwrap();
        let shared = apply_as(&registry, "handover-to-hpa", REPLICAS_ONLY)
            .await
            .unwrap();
        assert!(owns_replicas(&shared, "kubectl"));
        assert!(owns_replicas(&shared, "handover-to-hpa"));
        assert_eq!(
            managers(&shared)["handover-to-hpa"],
            json!({"f:spec": {"f:replicas": {}}})
        );

        let dropped = apply_as(&registry, "kubectl", NGINX_NO_REPLICAS)
            .await
            .unwrap();
        assert_eq!(dropped.spec.replicas, Some(3), "no reset to 1");
        assert!(!owns_replicas(&dropped, "kubectl"));
        assert!(owns_replicas(&dropped, "handover-to-hpa"));

        let scaled = scale(&registry, 7).await;
        assert_eq!(scaled.spec.replicas, Some(7));
        let managers = managers(&scaled);
        assert!(
            !managers.contains_key("handover-to-hpa"),
            "the temporary manager is gone: {managers:?}"
        );
        assert!(owns_replicas(&scaled, "kube-controller-manager"));
    })
}

/// "Clearing managedFields": a merge patch or a JSON patch that sets them
/// to `[{}]` strips them entirely. So does `[]`, as the apiserver's code
/// has it (the page says otherwise). A reset combined with another change
/// leaves the object untracked, as `skipNonAppliedManager` does.
#[test]
fn managed_fields_are_cleared_by_a_write_that_resets_them() {
    run(async {
        let registry = registry();
        let created = apply_as(&registry, "kubectl", NGINX).await.unwrap();
        assert!(!created.metadata.managed_fields.is_empty());
        let patch = |registry: &Registry<Deployment>, kind, body: Value| {
            let registry = registry.field_manager("cleaner");
            async move {
                registry
                    .patch(
                        "default",
                        "nginx-deployment",
                        kind,
                        body.to_string().as_bytes(),
                    )
                    .await
                    .expect("patches")
                    .object
            }
        };

        let cleared = patch(
            &registry,
            PatchType::Merge,
            json!({"metadata": {"managedFields": [{}]}}),
        )
        .await;
        assert_eq!(cleared.metadata.managed_fields, []);

        // Tracked again by an apply (before-first-apply takes what is there).
        let again = apply_as(&registry, "kubectl", NGINX).await.unwrap();
        assert!(!again.metadata.managed_fields.is_empty());
        let cleared = patch(
            &registry,
            PatchType::Json,
            json!([{"op": "replace", "path": "/metadata/managedFields", "value": [{}]}]),
        )
        .await;
        assert_eq!(cleared.metadata.managed_fields, []);

        apply_as(&registry, "kubectl", NGINX).await.unwrap();
        let cleared = patch(
            &registry,
            PatchType::Merge,
            json!({"metadata": {"managedFields": []}}),
        )
        .await;
        assert_eq!(cleared.metadata.managed_fields, []);

        apply_as(&registry, "kubectl", NGINX).await.unwrap();
        let combined = patch(
            &registry,
            PatchType::Merge,
            json!({"metadata": {"managedFields": [{}]}, "spec": {"image": "nginx:1.27"}}),
        )
        .await;
        assert_eq!(combined.spec.image.as_deref(), Some("nginx:1.27"));
        assert_eq!(combined.metadata.managed_fields, []);

        // A write that does not name managedFields keeps them. (The image
        // the untracked patch set now belongs to before-first-apply, so
        // kubectl's apply takes it back by force.)
        let tracked = registry
            .field_manager("kubectl")
            .apply(
                "default",
                "nginx-deployment",
                NGINX.as_bytes(),
                ApplyOptions {
                    force: true,
                    ..ApplyOptions::default()
                },
            )
            .await
            .expect("a forced apply")
            .object;
        assert_eq!(tracked.spec.image.as_deref(), Some("nginx:1.14.2"));
        let kept = patch(
            &registry,
            PatchType::Merge,
            json!({"metadata": {"labels": {"tier": "web"}}}),
        )
        .await;
        assert_eq!(
            kept.metadata.managed_fields.len(),
            tracked.metadata.managed_fields.len() + 1,
            "the patch adds its own entry"
        );
    })
}
