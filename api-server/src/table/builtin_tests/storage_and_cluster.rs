//! Tables of StorageClasses, PriorityClasses, CertificateSigningRequests,
//! CSI kinds and VolumeAttachments.

use super::*;

/// `TestPrintStorageClass`.
#[test]
fn storage_class_table() {
    let class = |name: &str, created: String, extra: Value| {
        let mut class = json!({"metadata": {"name": name, "creationTimestamp": created},
                               "provisioner": "kubernetes.io/nfs"});
        for (k, v) in extra.as_object().expect("fields") {
            class[k] = v.clone();
        }
        cells("storage.k8s.io", "storageclasses", &class)
    };
    let five = || ago(TimeDelta::minutes(5));
    assert_eq!(
        class(
            "sc1",
            soon(),
            json!({"provisioner": "kubernetes.io/glusterfs"})
        ),
        json!([
            "sc1",
            "kubernetes.io/glusterfs",
            "Delete",
            "Immediate",
            false,
            "0s"
        ])
    );
    assert_eq!(
        class("sc2", five(), json!({})),
        json!([
            "sc2",
            "kubernetes.io/nfs",
            "Delete",
            "Immediate",
            false,
            "5m"
        ])
    );
    assert_eq!(
        class("sc3", five(), json!({"reclaimPolicy": "Delete"})),
        json!([
            "sc3",
            "kubernetes.io/nfs",
            "Delete",
            "Immediate",
            false,
            "5m"
        ])
    );
    assert_eq!(
        class(
            "sc4",
            five(),
            json!({"reclaimPolicy": "Retain", "volumeBindingMode": "Immediate"})
        ),
        json!([
            "sc4",
            "kubernetes.io/nfs",
            "Retain",
            "Immediate",
            false,
            "5m"
        ])
    );
    assert_eq!(
        class(
            "sc5",
            five(),
            json!({"reclaimPolicy": "Retain", "volumeBindingMode": "WaitForFirstConsumer"})
        ),
        json!([
            "sc5",
            "kubernetes.io/nfs",
            "Retain",
            "WaitForFirstConsumer",
            false,
            "5m"
        ])
    );
    assert_eq!(
        class(
            "sc6",
            five(),
            json!({"reclaimPolicy": "Retain", "allowVolumeExpansion": true,
            "volumeBindingMode": "WaitForFirstConsumer"})
        ),
        json!([
            "sc6",
            "kubernetes.io/nfs",
            "Retain",
            "WaitForFirstConsumer",
            true,
            "5m"
        ])
    );
    // Not upstream's: the default class (either annotation).
    for key in [
        "storageclass.kubernetes.io/is-default-class",
        "storageclass.beta.kubernetes.io/is-default-class",
    ] {
        let default = json!({"metadata": {"name": "standard", "annotations": {key: "true"}}, "provisioner": "p"});
        assert_eq!(
            cells("storage.k8s.io", "storageclasses", &default)[0],
            "standard (default)"
        );
    }
}

/// `TestPrintPriorityClass` (the server's rows are wide: the preemption
/// policy is always there).
#[test]
fn priority_class_table() {
    let cases = [
        (
            json!({"metadata": {"name": "pc1", "creationTimestamp": soon()}, "value": 1, "preemptionPolicy": "Never"}),
            json!(["pc1", 1, false, "0s", "Never"]),
        ),
        (
            json!({"metadata": {"name": "pc2", "creationTimestamp": ago(TimeDelta::minutes(5))}, "value": 1000000000,
                "globalDefault": true, "preemptionPolicy": "PreemptLowerPriority"}),
            json!(["pc2", 1000000000, true, "5m", "PreemptLowerPriority"]),
        ),
        (
            json!({"metadata": {"name": "pc2", "creationTimestamp": ago(TimeDelta::minutes(5))}, "value": 1000000000,
                "globalDefault": true}),
            json!(["pc2", 1000000000, true, "5m", ""]),
        ),
    ];
    for (class, row) in cases {
        assert_eq!(cells("scheduling.k8s.io", "priorityclasses", &class), row);
    }
}

/// `TestPrintCertificateSigningRequest`.
#[test]
fn certificate_signing_request_table() {
    let request = |name: &str, spec: Value, status: Value| json!({"metadata": {"name": name, "creationTimestamp": soon()}, "spec": spec, "status": status});
    let approved = json!({"conditions": [{"type": "Approved"}]});
    let requestor = json!({"username": "CSR Requestor"});
    let cases = [
        // Basic CSR with no spec or status; defaults to status: Pending.
        (
            request("csr1", json!({}), json!({})),
            json!(["csr1", "0s", "<none>", "", "<none>", "Pending"]),
        ),
        // Basic CSR with Spec and Status=Approved.
        (
            request("csr2", requestor.clone(), approved.clone()),
            json!([
                "csr2",
                "0s",
                "<none>",
                "CSR Requestor",
                "<none>",
                "Approved"
            ]),
        ),
        // Basic CSR with Spec and SignerName set
        (
            request(
                "csr2",
                json!({"username": "CSR Requestor", "signerName": "example.com/test-signer"}),
                approved.clone(),
            ),
            json!([
                "csr2",
                "0s",
                "example.com/test-signer",
                "CSR Requestor",
                "<none>",
                "Approved"
            ]),
        ),
        // Basic CSR with Spec, SignerName and ExpirationSeconds set (a
        // little bit more than a week).
        (
            request(
                "csr2",
                json!({"username": "CSR Requestor", "signerName": "example.com/test-signer",
            "expirationSeconds": 7 * 24 * 3600 + 3600}),
                approved,
            ),
            json!([
                "csr2",
                "0s",
                "example.com/test-signer",
                "CSR Requestor",
                "7d1h",
                "Approved"
            ]),
        ),
        // Basic CSR with Spec and Status=Approved; certificate issued.
        (
            request(
                "csr2",
                requestor.clone(),
                json!({"conditions": [{"type": "Approved"}], "certificate": "Y2VydCBkYXRh"}),
            ),
            json!([
                "csr2",
                "0s",
                "<none>",
                "CSR Requestor",
                "<none>",
                "Approved,Issued"
            ]),
        ),
        // Basic CSR with Spec and Status=Denied.
        (
            request(
                "csr3",
                requestor.clone(),
                json!({"conditions": [{"type": "Denied"}]}),
            ),
            json!(["csr3", "0s", "<none>", "CSR Requestor", "<none>", "Denied"]),
        ),
        // Not upstream's: denied wins over approved, failed is added.
        (
            request(
                "csr4",
                requestor,
                json!({"conditions": [{"type": "Approved"}, {"type": "Failed"}, {"type": "Denied"}]}),
            ),
            json!([
                "csr4",
                "0s",
                "<none>",
                "CSR Requestor",
                "<none>",
                "Denied,Failed"
            ]),
        ),
    ];
    for (request, row) in cases {
        assert_eq!(
            cells(
                "certificates.k8s.io",
                "certificatesigningrequests",
                &request
            ),
            row
        );
    }
}

/// The storage kinds upstream's printers_test.go has no test for:
/// `printCSIDriver`, `printCSINode`, `printCSIStorageCapacity`,
/// `printVolumeAttachment`.
#[test]
fn csi_and_volume_attachment_tables() {
    let driver =
        json!({"metadata": {"name": "csi.example.com", "creationTimestamp": soon()}, "spec": {}});
    assert_eq!(
        cells("storage.k8s.io", "csidrivers", &driver),
        json!([
            "csi.example.com",
            true,
            false,
            false,
            "<unset>",
            false,
            "<none>",
            "0s"
        ])
    );
    let configured = json!({"metadata": {"name": "d"}, "spec": {"attachRequired": false, "podInfoOnMount": true,
        "storageCapacity": true, "requiresRepublish": true, "tokenRequests": [{"audience": "a"}, {"audience": "b"}],
        "volumeLifecycleModes": ["Persistent", "Ephemeral"]}});
    assert_eq!(
        cells("storage.k8s.io", "csidrivers", &configured),
        json!([
            "d",
            false,
            true,
            true,
            "a,b",
            true,
            "Persistent,Ephemeral",
            "<unknown>"
        ])
    );
    let no_audience = json!({"metadata": {"name": "d"}, "spec": {"tokenRequests": []}});
    assert_eq!(cells("storage.k8s.io", "csidrivers", &no_audience)[4], "");
    let node = json!({"metadata": {"name": "node1", "creationTimestamp": ago(TimeDelta::minutes(5))},
        "spec": {"drivers": [{"name": "a", "nodeID": "n"}, {"name": "b", "nodeID": "n"}]}});
    assert_eq!(
        cells("storage.k8s.io", "csinodes", &node),
        json!(["node1", 2, "5m"])
    );
    let capacity =
        json!({"metadata": {"name": "c1"}, "storageClassName": "fast", "capacity": "1048576Ki"});
    assert_eq!(
        cells("storage.k8s.io", "csistoragecapacities", &capacity),
        json!(["c1", "fast", "1Gi"])
    );
    let unknown = json!({"metadata": {"name": "c2"}, "storageClassName": "fast"});
    assert_eq!(
        cells("storage.k8s.io", "csistoragecapacities", &unknown),
        json!(["c2", "fast", "<unset>"])
    );
    let attachment = json!({"metadata": {"name": "va", "creationTimestamp": soon()},
        "spec": {"attacher": "csi.example.com", "source": {"persistentVolumeName": "pv1"}, "nodeName": "node1"},
        "status": {"attached": true}});
    assert_eq!(
        cells("storage.k8s.io", "volumeattachments", &attachment),
        json!(["va", "csi.example.com", "pv1", "node1", true, "0s"])
    );
    let inline = json!({"metadata": {"name": "va2"}, "spec": {"attacher": "a", "source": {"inlineVolumeSpec": {}},
        "nodeName": "n"}});
    assert_eq!(
        cells("storage.k8s.io", "volumeattachments", &inline),
        json!(["va2", "a", "", "n", false, "<unknown>"])
    );
}
