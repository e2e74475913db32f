//! core/v1 kinds' tables: PersistentVolumes, PersistentVolumeClaims,
//! ConfigMaps, Endpoints, ResourceQuotas.

use super::*;

/// `TestPrintPersistentVolume`.
#[test]
fn persistent_volume_table() {
    let volume = |name: &str,
                  class: Option<&str>,
                  attributes: Option<&str>,
                  mode: &str,
                  size: &str,
                  phase: &str| {
        let mut pv = json!({"metadata": {"name": name}, "spec": {"claimRef": {"name": "test", "namespace": "default"},
            "accessModes": [mode], "capacity": {"storage": size}}, "status": {"phase": phase}});
        if let Some(class) = class {
            pv["spec"]["storageClassName"] = json!(class);
        }
        if let Some(attributes) = attributes {
            pv["spec"]["volumeAttributesClassName"] = json!(attributes);
        }
        cells("", "persistentvolumes", &pv)
    };
    let row = |name: &str, size: &str, mode: &str, phase: &str, class: &str, attributes: &str| {
        json!([
            name,
            size,
            mode,
            "",
            phase,
            "default/test",
            class,
            attributes,
            "",
            "<unknown>",
            "<unset>"
        ])
    };
    assert_eq!(
        volume("test1", None, None, "ReadOnlyMany", "4Gi", "Bound"),
        row("test1", "4Gi", "ROX", "Bound", "", "<unset>")
    );
    assert_eq!(
        volume("test2", None, None, "ReadOnlyMany", "4Gi", "Failed"),
        row("test2", "4Gi", "ROX", "Failed", "", "<unset>")
    );
    assert_eq!(
        volume("test3", None, None, "ReadWriteMany", "10Gi", "Pending"),
        row("test3", "10Gi", "RWX", "Pending", "", "<unset>")
    );
    assert_eq!(
        volume(
            "test4",
            Some("my-scn"),
            None,
            "ReadWriteOnce",
            "10Gi",
            "Pending"
        ),
        row("test4", "10Gi", "RWO", "Pending", "my-scn", "<unset>")
    );
    assert_eq!(
        volume(
            "test4",
            Some("my-scn"),
            Some("my-vacn"),
            "ReadWriteOnce",
            "10Gi",
            "Pending"
        ),
        row("test4", "10Gi", "RWO", "Pending", "my-scn", "my-vacn")
    );
    assert_eq!(
        volume(
            "test5",
            Some("my-scn"),
            None,
            "ReadWriteOnce",
            "10Gi",
            "Available"
        ),
        row("test5", "10Gi", "RWO", "Available", "my-scn", "<unset>")
    );
    assert_eq!(
        volume(
            "test6",
            Some("my-scn"),
            None,
            "ReadWriteOnce",
            "10Gi",
            "Released"
        ),
        row("test6", "10Gi", "RWO", "Released", "my-scn", "<unset>")
    );
    // Not upstream's: a quantity prints in canonical form, a deleted
    // volume is Terminating, the beta annotation names the class.
    let pv = json!({"metadata": {"name": "v", "deletionTimestamp": "2026-06-01T12:00:00Z",
        "annotations": {"volume.beta.kubernetes.io/storage-class": "beta"}},
        "spec": {"capacity": {"storage": "1024Mi"}, "accessModes": ["ReadWriteOncePod", "ReadWriteOnce", "ReadWriteOnce"],
                 "storageClassName": "ignored", "volumeMode": "Block"}});
    assert_eq!(
        cells("", "persistentvolumes", &pv),
        json!([
            "v",
            "1Gi",
            "RWO,RWOP",
            "",
            "Terminating",
            "",
            "beta",
            "<unset>",
            "",
            "<unknown>",
            "Block"
        ])
    );
}

/// `TestPrintPersistentVolumeClaim`.
#[test]
fn persistent_volume_claim_table() {
    let claim = |name: &str, spec: Value, phase: &str, mode: &str, size: &str| {
        json!({"metadata": {"name": name}, "spec": spec,
               "status": {"phase": phase, "accessModes": [mode], "capacity": {"storage": size}}})
    };
    let cases = [
        (
            claim(
                "test1",
                json!({"volumeName": "my-volume", "volumeMode": "Filesystem"}),
                "Bound",
                "ReadOnlyMany",
                "4Gi",
            ),
            json!([
                "test1",
                "Bound",
                "my-volume",
                "4Gi",
                "ROX",
                "",
                "<unset>",
                "<unknown>",
                "Filesystem"
            ]),
        ),
        (
            claim(
                "test2",
                json!({"volumeMode": "Filesystem"}),
                "Lost",
                "ReadOnlyMany",
                "4Gi",
            ),
            json!([
                "test2",
                "Lost",
                "",
                "",
                "",
                "",
                "<unset>",
                "<unknown>",
                "Filesystem"
            ]),
        ),
        (
            claim(
                "test3",
                json!({"volumeName": "my-volume", "volumeMode": "Filesystem"}),
                "Pending",
                "ReadWriteMany",
                "10Gi",
            ),
            json!([
                "test3",
                "Pending",
                "my-volume",
                "10Gi",
                "RWX",
                "",
                "<unset>",
                "<unknown>",
                "Filesystem"
            ]),
        ),
        (
            claim(
                "test4",
                json!({"volumeName": "my-volume", "storageClassName": "my-scn", "volumeMode": "Filesystem"}),
                "Pending",
                "ReadWriteOnce",
                "10Gi",
            ),
            json!([
                "test4",
                "Pending",
                "my-volume",
                "10Gi",
                "RWO",
                "my-scn",
                "<unset>",
                "<unknown>",
                "Filesystem"
            ]),
        ),
        (
            claim(
                "test5",
                json!({"volumeName": "my-volume", "storageClassName": "my-scn"}),
                "Pending",
                "ReadWriteOnce",
                "10Gi",
            ),
            json!([
                "test5",
                "Pending",
                "my-volume",
                "10Gi",
                "RWO",
                "my-scn",
                "<unset>",
                "<unknown>",
                "<unset>"
            ]),
        ),
        (
            claim(
                "test5",
                json!({"volumeName": "my-volume", "storageClassName": "my-scn",
            "volumeAttributesClassName": "my-vacn"}),
                "Pending",
                "ReadWriteOnce",
                "10Gi",
            ),
            json!([
                "test5",
                "Pending",
                "my-volume",
                "10Gi",
                "RWO",
                "my-scn",
                "my-vacn",
                "<unknown>",
                "<unset>"
            ]),
        ),
    ];
    for (claim, row) in cases {
        assert_eq!(cells("", "persistentvolumeclaims", &claim), row);
    }
}

/// `TestPrintConfigMap`.
#[test]
fn config_map_table() {
    let cases = [
        (
            json!({"metadata": {"name": "configmap1", "creationTimestamp": soon()}}),
            json!(["configmap1", 0, "0s"]),
        ),
        (
            json!({"metadata": {"name": "configmap2", "creationTimestamp": soon()}, "data": {"foo": "bar"}}),
            json!(["configmap2", 1, "0s"]),
        ),
        (
            json!({"metadata": {"name": "configmap3", "creationTimestamp": soon()}, "data": {"foo": "bar"},
                "binaryData": {"bin": "YmluYXJ5IGRhdGE="}}),
            json!(["configmap3", 2, "0s"]),
        ),
    ];
    for (config_map, row) in cases {
        assert_eq!(cells("", "configmaps", &config_map), row);
    }
}

/// `TestPrintEndpoint`.
#[test]
fn endpoints_table() {
    let endpoints = |name: &str, created: String, subsets: Value| json!({"metadata": {"name": name, "creationTimestamp": created}, "subsets": subsets});
    let ip = |ip: &str| json!({"ip": ip});
    let cases = [
        (
            endpoints("endpoint1", soon(), Value::Null),
            json!(["endpoint1", "<none>", "0s"]),
        ),
        (
            endpoints(
                "endpoint3",
                ago(TimeDelta::minutes(5)),
                json!([{"addresses": [ip("1.2.3.4"), ip("5.6.7.8")]}]),
            ),
            json!(["endpoint3", "1.2.3.4,5.6.7.8", "5m"]),
        ),
        (
            endpoints(
                "endpoint2",
                soon(),
                json!([{"addresses": [ip("1.2.3.4"), ip("5.6.7.8")],
            "ports": [{"port": 8001, "protocol": "tcp"}]}]),
            ),
            json!(["endpoint2", "1.2.3.4:8001,5.6.7.8:8001", "0s"]),
        ),
        (
            endpoints(
                "endpoint2",
                soon(),
                json!([{"addresses": [ip("1.2.3.4"), ip("5.6.7.8"), ip("9.8.7.6"),
            ip("6.6.6.6")], "ports": [{"port": 8001, "protocol": "tcp"}]}]),
            ),
            json!([
                "endpoint2",
                "1.2.3.4:8001,5.6.7.8:8001,9.8.7.6:8001 + 1 more...",
                "0s"
            ]),
        ),
        // Not upstream's: IPv6 addresses in brackets (net.JoinHostPort).
        (
            endpoints(
                "v6",
                soon(),
                json!([{"addresses": [ip("fd00::1")], "ports": [{"port": 80}]}]),
            ),
            json!(["v6", "[fd00::1]:80", "0s"]),
        ),
    ];
    for (endpoints, row) in cases {
        assert_eq!(cells("", "endpoints", &endpoints), row);
    }
}

/// `TestPrintResourceQuota`.
#[test]
fn resource_quota_table() {
    let quota = json!({"metadata": {"name": "test-resourcequota", "creationTimestamp": ago(TimeDelta::minutes(5))},
        "spec": {}, "status": {
            "used": {"cpu": "1", "memory": "1Gi", "pods": "1", "services": "1",
                     "replicationcontrollers": "1", "resourcequotas": "1", "limits.cpu": "2", "limits.memory": "2Gi"},
            "hard": {"cpu": "100", "memory": "4Gi", "pods": "10", "services": "10",
                     "replicationcontrollers": "10", "resourcequotas": "1", "limits.cpu": "200", "limits.memory": "8Gi"}}});
    assert_eq!(
        cells("", "resourcequotas", &quota),
        json!([
            "test-resourcequota",
            "cpu: 1/100, memory: 1Gi/4Gi, pods: 1/10, replicationcontrollers: 1/10, resourcequotas: 1/1, services: 1/10",
            "limits.cpu: 2/200, limits.memory: 2Gi/8Gi",
            "5m"
        ])
    );
}
