//! The expected documents are written in the shape a real cluster serves
//! them (field order and omissions of apimachinery `meta/v1/types.go` and
//! k8s.io/api `apidiscovery/v2/types.go`; contents per apiextensions-apiserver
//! `customresource_discovery_controller.go`). They are compared as text, so
//! the field order is checked too.

use api_core::crd::{
    CustomResourceDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionVersion,
    CustomResourceSubresourceScale, CustomResourceSubresourceStatus, CustomResourceSubresources,
};
use serde_json::json;

use super::*;

fn widgets() -> CustomResourceDefinition {
    let mut crd = CustomResourceDefinition::default();
    crd.metadata.name = "widgets.example.com".into();
    crd.spec.group = "example.com".into();
    crd.spec.scope = "Namespaced".into();
    crd.spec.names = CustomResourceDefinitionNames {
        short_names: vec!["wd".into()],
        categories: vec!["all".into()],
        ..CustomResourceDefinitionNames::for_kind("Widget", "widgets")
    };
    let subresources = CustomResourceSubresources {
        status: Some(CustomResourceSubresourceStatus {}),
        scale: Some(CustomResourceSubresourceScale {
            spec_replicas_path: ".spec.replicas".into(),
            status_replicas_path: ".status.replicas".into(),
            label_selector_path: None,
        }),
    };
    crd.spec.versions = vec![
        CustomResourceDefinitionVersion {
            subresources: Some(subresources.clone()),
            ..CustomResourceDefinitionVersion::new("v1", true, true)
        },
        CustomResourceDefinitionVersion::new("v1alpha1", true, false),
        CustomResourceDefinitionVersion {
            subresources: Some(subresources),
            ..CustomResourceDefinitionVersion::new("v1beta1", true, false)
        },
        CustomResourceDefinitionVersion::new("v2alpha1", false, false),
    ];
    crd
}

fn gadgets() -> CustomResourceDefinition {
    let mut crd = CustomResourceDefinition::default();
    crd.metadata.name = "gadgets.example.com".into();
    crd.spec.group = "example.com".into();
    crd.spec.scope = "Cluster".into();
    crd.spec.names = CustomResourceDefinitionNames {
        singular: String::new(),
        ..CustomResourceDefinitionNames::for_kind("Gadget", "gadgets")
    };
    crd.spec.versions = vec![CustomResourceDefinitionVersion::new("v1", true, true)];
    crd
}

fn other_group() -> CustomResourceDefinition {
    let mut crd = CustomResourceDefinition::default();
    crd.metadata.name = "foos.abc.io".into();
    crd.spec.group = "abc.io".into();
    crd.spec.scope = "Namespaced".into();
    crd.spec.names = CustomResourceDefinitionNames::for_kind("Foo", "foos");
    crd.spec.versions = vec![CustomResourceDefinitionVersion::new("v1beta1", true, true)];
    crd
}

fn discovery() -> Discovery {
    Discovery::new(vec![widgets(), other_group(), gadgets()])
}

/// Serializes directly (Go field order) and compares with `expected`
/// re-serialized in the same order it was written.
fn assert_json<T: Serialize>(actual: &T, expected: &str) {
    let actual = serde_json::to_string(actual).unwrap();
    let expected: String = expected.split_whitespace().collect();
    assert_eq!(actual, expected);
}

#[test]
fn storage_version_hash_matches_a_real_cluster() {
    // Values a kube-apiserver lists in `/api/v1` and `/apis/apps/v1`.
    assert_eq!(storage_version_hash("", "v1", "Namespace"), "Q3oi5N2YM8M=");
    assert_eq!(storage_version_hash("", "v1", "Pod"), "xPOwRZ+Yhw8=");
    assert_eq!(
        storage_version_hash("apps", "v1", "Deployment"),
        "8aSe+NMegvE="
    );
}

#[test]
fn base64_padding() {
    assert_eq!(base64(b""), "");
    assert_eq!(base64(b"f"), "Zg==");
    assert_eq!(base64(b"fo"), "Zm8=");
    assert_eq!(base64(b"foo"), "Zm9v");
    assert_eq!(base64(b"foob"), "Zm9vYg==");
}

#[test]
fn api_versions() {
    assert_json(
        &discovery().api_versions("127.0.0.1:6443"),
        r#"{"kind":"APIVersions","versions":["v1"],
            "serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1:6443"}]}"#,
    );
}

#[test]
fn group_list_sorted_by_name_versions_by_preference() {
    assert_json(
        &discovery().api_group_list(),
        r#"{"kind":"APIGroupList","apiVersion":"v1","groups":[
            {"name":"abc.io","versions":[{"groupVersion":"abc.io/v1beta1","version":"v1beta1"}],
             "preferredVersion":{"groupVersion":"abc.io/v1beta1","version":"v1beta1"}},
            {"name":"example.com","versions":[
                {"groupVersion":"example.com/v1","version":"v1"},
                {"groupVersion":"example.com/v1beta1","version":"v1beta1"},
                {"groupVersion":"example.com/v1alpha1","version":"v1alpha1"}],
             "preferredVersion":{"groupVersion":"example.com/v1","version":"v1"}}]}"#,
    );
}

#[test]
fn api_group() {
    assert_json(
        &discovery().api_group("abc.io").unwrap(),
        r#"{"kind":"APIGroup","apiVersion":"v1","name":"abc.io",
            "versions":[{"groupVersion":"abc.io/v1beta1","version":"v1beta1"}],
            "preferredVersion":{"groupVersion":"abc.io/v1beta1","version":"v1beta1"}}"#,
    );
    assert_eq!(discovery().api_group("nope.io"), None);
}

#[test]
fn unserved_versions_are_not_discovered() {
    let d = discovery();
    assert_eq!(d.api_resource_list("example.com", "v2alpha1"), None);
    assert!(
        !d.group_versions("example.com")
            .contains(&"v2alpha1".to_string())
    );
    // A group whose versions are all unserved does not exist.
    let mut crd = other_group();
    crd.spec.versions[0].served = false;
    let d = Discovery::new(vec![crd]);
    assert_eq!(d.api_group("abc.io"), None);
    assert!(d.api_group_list().groups.is_empty());
    assert!(d.aggregated_apis().items.is_empty());
}

#[test]
fn preferred_version_prefers_ga_over_newer_beta() {
    let mut crd = other_group();
    crd.spec.versions = vec![
        CustomResourceDefinitionVersion::new("v2beta1", true, false),
        CustomResourceDefinitionVersion::new("v1", true, true),
        CustomResourceDefinitionVersion::new("v10alpha1", true, false),
    ];
    let d = Discovery::new(vec![crd]);
    assert_eq!(d.preferred_version("abc.io").as_deref(), Some("v1"));
    assert_eq!(d.group_versions("abc.io"), ["v1", "v2beta1", "v10alpha1"]);
}

#[test]
fn resource_list_with_subresources() {
    // Resources in plural order (gadgets, widgets), each followed by its
    // status and scale, as `sync` appends them.
    assert_json(
        &discovery().api_resource_list("example.com", "v1").unwrap(),
        r#"{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"example.com/v1","resources":[
            {"name":"gadgets","singularName":"gadget","namespaced":false,"kind":"Gadget",
             "verbs":["delete","deletecollection","get","list","patch","create","update","watch"],
             "storageVersionHash":"HASH_GADGET"},
            {"name":"widgets","singularName":"widget","namespaced":true,"kind":"Widget",
             "verbs":["delete","deletecollection","get","list","patch","create","update","watch"],
             "shortNames":["wd"],"categories":["all"],"storageVersionHash":"HASH_WIDGET"},
            {"name":"widgets/status","singularName":"","namespaced":true,"kind":"Widget",
             "verbs":["get","patch","update"]},
            {"name":"widgets/scale","singularName":"","namespaced":true,"group":"autoscaling",
             "version":"v1","kind":"Scale","verbs":["get","patch","update"]}]}"#
            .replace("HASH_GADGET", &storage_version_hash("example.com", "v1", "Gadget"))
            .replace("HASH_WIDGET", &storage_version_hash("example.com", "v1", "Widget"))
            .as_str(),
    );
}

#[test]
fn storage_version_hash_is_of_the_storage_version_in_every_version() {
    let list = discovery()
        .api_resource_list("example.com", "v1alpha1")
        .unwrap();
    assert_eq!(list.resources.len(), 1, "v1alpha1 has no subresources");
    assert_eq!(
        list.resources[0].storage_version_hash,
        storage_version_hash("example.com", "v1", "Widget")
    );
}

#[test]
fn core_resource_list() {
    let d = Discovery::new(vec![]).with_namespaces(NamespaceDiscovery::default());
    assert_json(
        &d.core_api_resource_list(),
        r#"{"kind":"APIResourceList","groupVersion":"v1","resources":[
            {"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace",
             "verbs":["create","delete","get","list","patch","update","watch"],
             "shortNames":["ns"],"storageVersionHash":"Q3oi5N2YM8M="},
            {"name":"namespaces/finalize","singularName":"","namespaced":false,"kind":"Namespace","verbs":["update"]},
            {"name":"namespaces/status","singularName":"","namespaced":false,"kind":"Namespace",
             "verbs":["get","patch","update"]}]}"#,
    );
    let none = Discovery::new(vec![]).core_api_resource_list();
    assert_json(
        &none,
        r#"{"kind":"APIResourceList","groupVersion":"v1","resources":[]}"#,
    );
}

#[test]
fn aggregated_apis() {
    assert_json(
        &discovery().aggregated_apis(),
        r#"{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[
            {"metadata":{"name":"abc.io"},"versions":[
                {"version":"v1beta1","resources":[
                    {"resource":"foos","responseKind":{"group":"abc.io","version":"v1beta1","kind":"Foo"},
                     "scope":"Namespaced","singularResource":"foo",
                     "verbs":["delete","deletecollection","get","list","patch","create","update","watch"]}],
                 "freshness":"Current"}]},
            {"metadata":{"name":"example.com"},"versions":[
                {"version":"v1","resources":[
                    {"resource":"gadgets","responseKind":{"group":"example.com","version":"v1","kind":"Gadget"},
                     "scope":"Cluster","singularResource":"gadget",
                     "verbs":["delete","deletecollection","get","list","patch","create","update","watch"]},
                    {"resource":"widgets","responseKind":{"group":"example.com","version":"v1","kind":"Widget"},
                     "scope":"Namespaced","singularResource":"widget",
                     "verbs":["delete","deletecollection","get","list","patch","create","update","watch"],
                     "shortNames":["wd"],"categories":["all"],
                     "subresources":[
                        {"subresource":"status","responseKind":{"group":"example.com","version":"v1","kind":"Widget"},
                         "verbs":["get","patch","update"]},
                        {"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"},
                         "verbs":["get","patch","update"]}]}],
                 "freshness":"Current"},
                {"version":"v1beta1","resources":[
                    {"resource":"widgets","responseKind":{"group":"example.com","version":"v1beta1","kind":"Widget"},
                     "scope":"Namespaced","singularResource":"widget",
                     "verbs":["delete","deletecollection","get","list","patch","create","update","watch"],
                     "shortNames":["wd"],"categories":["all"],
                     "subresources":[
                        {"subresource":"status","responseKind":{"group":"example.com","version":"v1beta1","kind":"Widget"},
                         "verbs":["get","patch","update"]},
                        {"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"},
                         "verbs":["get","patch","update"]}]}],
                 "freshness":"Current"},
                {"version":"v1alpha1","resources":[
                    {"resource":"widgets","responseKind":{"group":"example.com","version":"v1alpha1","kind":"Widget"},
                     "scope":"Namespaced","singularResource":"widget",
                     "verbs":["delete","deletecollection","get","list","patch","create","update","watch"],
                     "shortNames":["wd"],"categories":["all"]}],
                 "freshness":"Current"}]}]}"#,
    );
}

#[test]
fn aggregated_api_core_group() {
    let d = Discovery::new(vec![]).with_namespaces(NamespaceDiscovery::default());
    assert_json(
        &d.aggregated_api(),
        r#"{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[
            {"metadata":{},"versions":[{"version":"v1","resources":[
                {"resource":"namespaces","responseKind":{"group":"","version":"v1","kind":"Namespace"},
                 "scope":"Cluster","singularResource":"namespace",
                 "verbs":["create","delete","get","list","patch","update","watch"],"shortNames":["ns"],
                 "subresources":[
                    {"subresource":"finalize","responseKind":{"group":"","version":"v1","kind":"Namespace"},"verbs":["update"]},
                    {"subresource":"status","responseKind":{"group":"","version":"v1","kind":"Namespace"},
                     "verbs":["get","patch","update"]}]}],
             "freshness":"Current"}]}]}"#,
    );
}

#[test]
fn documents_round_trip() {
    let d = discovery();
    let list = d.aggregated_apis();
    let back: ApiGroupDiscoveryList =
        serde_json::from_value(serde_json::to_value(&list).unwrap()).unwrap();
    assert_eq!(back, list);
    let rl = d.api_resource_list("example.com", "v1").unwrap();
    let back: ApiResourceList = serde_json::from_value(json!(rl)).unwrap();
    assert_eq!(back, rl);
}

#[test]
fn group_version_pairs_in_discovery_order() {
    let pairs = discovery().group_version_pairs();
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(g, v)| (g.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("abc.io", "v1beta1"),
            ("example.com", "v1"),
            ("example.com", "v1beta1"),
            ("example.com", "v1alpha1")
        ]
    );
    assert_eq!(
        discovery().preferred_version("abc.io").as_deref(),
        Some("v1beta1")
    );
    assert_eq!(discovery().preferred_version("none.io"), None);
}

/// A core-group kind as `builtin::kind_info` describes ConfigMap.
fn config_maps() -> CustomResourceDefinition {
    let mut crd = CustomResourceDefinition::default();
    crd.metadata.name = "configmaps".into();
    crd.spec.scope = "Namespaced".into();
    crd.spec.names = CustomResourceDefinitionNames {
        short_names: vec!["cm".into()],
        ..CustomResourceDefinitionNames::for_kind("ConfigMap", "configmaps")
    };
    crd.spec.versions = vec![CustomResourceDefinitionVersion::new("v1", true, true)];
    crd
}

/// A core-group kind with status and scale.
fn replication_controllers() -> CustomResourceDefinition {
    let mut crd = widgets();
    crd.metadata.name = "replicationcontrollers".into();
    crd.spec.group = String::new();
    crd.spec.names = CustomResourceDefinitionNames {
        short_names: vec!["rc".into()],
        categories: vec!["all".into()],
        ..CustomResourceDefinitionNames::for_kind("ReplicationController", "replicationcontrollers")
    };
    crd.spec.versions.truncate(1);
    crd
}

/// `/api/v1` as kube-apiserver lists its built-in resources: sorted by
/// name (subresources too: `scale` before `status`), verbs sorted, the
/// hashes a real cluster shows; the groups do not see the core kinds.
#[test]
fn core_kinds_are_listed_from_their_crds() {
    let d = Discovery::new(vec![replication_controllers(), widgets(), config_maps()])
        .with_namespaces(NamespaceDiscovery::default());
    assert!(d.serves_core());
    assert_json(
        &d.core_api_resource_list(),
        r#"{"kind":"APIResourceList","groupVersion":"v1","resources":[
            {"name":"configmaps","singularName":"configmap","namespaced":true,"kind":"ConfigMap",
             "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
             "shortNames":["cm"],"storageVersionHash":"qFsyl6wFWjQ="},
            {"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace",
             "verbs":["create","delete","get","list","patch","update","watch"],
             "shortNames":["ns"],"storageVersionHash":"Q3oi5N2YM8M="},
            {"name":"namespaces/finalize","singularName":"","namespaced":false,"kind":"Namespace","verbs":["update"]},
            {"name":"namespaces/status","singularName":"","namespaced":false,"kind":"Namespace",
             "verbs":["get","patch","update"]},
            {"name":"replicationcontrollers","singularName":"replicationcontroller","namespaced":true,
             "kind":"ReplicationController",
             "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
             "shortNames":["rc"],"categories":["all"],"storageVersionHash":"Jond2If31h0="},
            {"name":"replicationcontrollers/scale","singularName":"","namespaced":true,
             "group":"autoscaling","version":"v1","kind":"Scale","verbs":["get","patch","update"]},
            {"name":"replicationcontrollers/status","singularName":"","namespaced":true,
             "kind":"ReplicationController","verbs":["get","patch","update"]}]}"#,
    );
    assert_eq!(d.groups(), ["example.com"]);
    assert!(d.api_group("").is_none());
    assert!(d.api_resource_list("", "v1").is_none());
    assert_eq!(d.aggregated_apis().items.len(), 1);
    assert_eq!(
        d.api_resource_list("example.com", "v1").unwrap().resources[0].name,
        "widgets"
    );
}

#[test]
fn aggregated_api_lists_core_kinds() {
    let d = Discovery::new(vec![config_maps(), replication_controllers()])
        .with_namespaces(NamespaceDiscovery::default());
    assert_json(
        &d.aggregated_api(),
        r#"{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[
            {"metadata":{},"versions":[{"version":"v1","resources":[
                {"resource":"configmaps","responseKind":{"group":"","version":"v1","kind":"ConfigMap"},
                 "scope":"Namespaced","singularResource":"configmap",
                 "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
                 "shortNames":["cm"]},
                {"resource":"namespaces","responseKind":{"group":"","version":"v1","kind":"Namespace"},
                 "scope":"Cluster","singularResource":"namespace",
                 "verbs":["create","delete","get","list","patch","update","watch"],"shortNames":["ns"],
                 "subresources":[
                    {"subresource":"finalize","responseKind":{"group":"","version":"v1","kind":"Namespace"},"verbs":["update"]},
                    {"subresource":"status","responseKind":{"group":"","version":"v1","kind":"Namespace"},
                     "verbs":["get","patch","update"]}]},
                {"resource":"replicationcontrollers",
                 "responseKind":{"group":"","version":"v1","kind":"ReplicationController"},
                 "scope":"Namespaced","singularResource":"replicationcontroller",
                 "verbs":["create","delete","deletecollection","get","list","patch","update","watch"],
                 "shortNames":["rc"],"categories":["all"],
                 "subresources":[
                    {"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"},
                     "verbs":["get","patch","update"]},
                    {"subresource":"status","responseKind":{"group":"","version":"v1","kind":"ReplicationController"},
                     "verbs":["get","patch","update"]}]}],
             "freshness":"Current"}]}]}"#,
    );
}

/// Without namespaces, the core group lists its kinds alone; with no core
/// kind, it serves nothing (`/api/v1` is a 404).
#[test]
fn core_kinds_without_namespaces() {
    let d = Discovery::new(vec![config_maps()]);
    assert!(d.serves_core());
    let names: Vec<String> = d
        .core_api_resource_list()
        .resources
        .into_iter()
        .map(|r| r.name)
        .collect();
    assert_eq!(names, ["configmaps"]);
    assert_eq!(d.aggregated_api().items[0].versions[0].resources.len(), 1);
    assert!(!discovery().serves_core());
    assert!(
        Discovery::new(vec![])
            .with_namespaces(NamespaceDiscovery::default())
            .serves_core()
    );
    // Namespace's own knobs still decide its listing.
    let bare = Discovery::new(vec![config_maps()]).with_namespaces(NamespaceDiscovery {
        verbs: vec!["get".into()],
        finalize: false,
        status: false,
    });
    let names: Vec<String> = bare
        .core_api_resource_list()
        .resources
        .into_iter()
        .map(|r| format!("{} {:?}", r.name, r.verbs))
        .collect();
    assert_eq!(
        names,
        [
            r#"configmaps ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]"#,
            r#"namespaces ["get"]"#
        ]
    );
}
