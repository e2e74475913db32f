//! The built-in kinds' tables: every entry's columns and rows.

use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use serde_json::{Value, json};

use super::*;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 12, 0, 0).unwrap()
}

/// Odd objects: empty, and every field the printers read of the wrong
/// type.
fn odd_objects() -> Vec<Value> {
    vec![
        json!({}),
        json!(null),
        json!([]),
        json!({"metadata": 1, "spec": "x", "status": []}),
        json!({"metadata": {"name": 7, "creationTimestamp": "yesterday", "labels": [],
                            "annotations": "a", "deletionTimestamp": 5, "ownerReferences": {}},
               "spec": {"containers": {}, "template": [], "selector": 3, "replicas": "2"},
               "status": {"containerStatuses": "none", "conditions": 1}}),
    ]
}

/// Every table's rows have a cell per column, for odd objects too, and
/// the columns are well formed.
#[test]
fn rows_have_a_cell_per_column() {
    for kind in TABLES {
        let (columns, printer) = table(kind.group, kind.plural).expect("listed");
        assert!(!columns.is_empty());
        // The Name column (VolumeAttachments' Attacher has the name
        // format too, as upstream declares it).
        assert!(
            columns
                .iter()
                .any(|c| c.name == "Name" && c.format == "name"),
            "{}: a name column",
            kind.plural
        );
        for column in &columns {
            assert!(
                ["string", "integer", "number", "boolean", "date"].contains(&column.type_.as_str()),
                "{}: {}",
                kind.plural,
                column.name
            );
            assert!(
                !column.description.is_empty(),
                "{}: {}",
                kind.plural,
                column.name
            );
        }
        for object in odd_objects() {
            assert_eq!(
                printer(&object, now()).len(),
                columns.len(),
                "{}: {object}",
                kind.plural
            );
        }
    }
}

/// One entry per group and resource.
#[test]
fn one_table_per_resource() {
    for (i, kind) in TABLES.iter().enumerate() {
        assert!(
            !TABLES[i + 1..]
                .iter()
                .any(|k| k.group == kind.group && k.plural == kind.plural),
            "{}/{} twice",
            kind.group,
            kind.plural
        );
    }
    assert!(table("example.com", "widgets").is_none());
}

/// `now` shifted back by `d` (forward for a negative `d`), as metav1.Time
/// writes it.
fn ago(d: TimeDelta) -> String {
    (now() - d).to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
}

/// Upstream's `time.Now().Add(1.9e9)`: a creation time that prints `0s`.
fn soon() -> String {
    ago(-TimeDelta::milliseconds(1900))
}

/// The cells of `object`'s row in the table of `group`/`plural`.
fn cells(group: &str, plural: &str, object: &Value) -> Value {
    let (_, printer) = table(group, plural).expect("a table");
    Value::Array(printer(object, now()))
}

/// The cells of the columns shown without `-o wide` (priority 0): the
/// row of upstream's tests that print without `GenerateOptions.Wide`
/// (the server always prints the wide row, and kubectl shows these).
fn default_cells(group: &str, plural: &str, object: &Value) -> Value {
    let (columns, printer) = table(group, plural).expect("a table");
    Value::Array(
        printer(object, now())
            .into_iter()
            .zip(&columns)
            .filter(|(_, c)| c.priority == 0)
            .map(|(cell, _)| cell)
            .collect(),
    )
}

/// `TestPrintEvent`, core/v1 Events (the events.k8s.io ones in
/// `events_k8s_io_event_table`).
#[test]
fn event_table() {
    let (d2, d3) = (ago(TimeDelta::days(2)), ago(TimeDelta::days(3)));
    let deployment = json!({"kind": "Deployment", "name": "Deployment Name", "fieldPath": "spec.containers{foo}"});
    // Basic event; no generate options.
    let basic = json!({"metadata": {"name": "event1"}, "source": {"component": "kubelet"},
        "involvedObject": {"kind": "Pod", "name": "Pod Name", "fieldPath": "spec.containers{foo}"},
        "reason": "Event Reason", "message": "Message Data", "firstTimestamp": d3,
        "lastTimestamp": d2, "count": 6, "type": "Normal"});
    assert_eq!(
        default_cells("", "events", &basic),
        json!([
            "2d",
            "Normal",
            "Event Reason",
            "pod/Pod Name",
            "Message Data"
        ])
    );
    let wide = |name: &str, source: Value, extra: Value| {
        let mut event = json!({"metadata": {"name": name}, "source": source,
            "involvedObject": deployment, "reason": "Event Reason", "message": "Message Data",
            "type": "Warning"});
        for (k, v) in extra.as_object().expect("fields") {
            event[k] = v.clone();
        }
        cells("", "events", &event)
    };
    let kubelet_node1 = json!({"component": "kubelet", "host": "Node1"});
    let row = |last: &str, count: i64, name: &str| {
        json!([
            last,
            "Warning",
            "Event Reason",
            "deployment/Deployment Name",
            "spec.containers{foo}",
            "kubelet, Node1",
            "Message Data",
            "3d",
            count,
            name
        ])
    };
    // Basic event; generate options=Wide.
    assert_eq!(
        wide(
            "event2",
            kubelet_node1.clone(),
            json!({"firstTimestamp": d3, "lastTimestamp": d2, "count": 6})
        ),
        row("2d", 6, "event2")
    );
    // Basic event, w/o FirstTimestamp set.
    assert_eq!(
        wide(
            "event3",
            kubelet_node1.clone(),
            json!({"eventTime": d3, "lastTimestamp": d3, "count": 1})
        ),
        row("3d", 1, "event3")
    );
    // Basic event, w/o LastTimestamp set.
    assert_eq!(
        wide(
            "event4",
            kubelet_node1.clone(),
            json!({"eventTime": d3, "firstTimestamp": d3, "count": 1})
        ),
        row("3d", 1, "event4")
    );
    // Basic event, w/o FirstTimestamp and LastTimestamp set.
    assert_eq!(
        wide(
            "event5",
            kubelet_node1.clone(),
            json!({"eventTime": d3, "count": 1})
        ),
        row("3d", 1, "event5")
    );
    // Basic event serie, w/o FirstTimestamp, LastTimestamp and Count set.
    assert_eq!(
        wide(
            "event6",
            kubelet_node1.clone(),
            json!({"eventTime": d3, "series": {"count": 2, "lastObservedTime": d2}})
        ),
        row("2d", 2, "event6")
    );
    // Singleton event, w/o FirstTimestamp, LastTimestamp and Count set.
    assert_eq!(
        wide("event7", kubelet_node1, json!({"eventTime": d3})),
        row("3d", 1, "event7")
    );
    // Basic event, with empty Source; generate options=Wide.
    assert_eq!(
        wide(
            "event2",
            Value::Null,
            json!({"reportingController": "kubelet",
            "reportingInstance": "test", "firstTimestamp": d3, "lastTimestamp": d2, "count": 6})
        ),
        json!([
            "2d",
            "Warning",
            "Event Reason",
            "deployment/Deployment Name",
            "spec.containers{foo}",
            "kubelet, test",
            "Message Data",
            "3d",
            6,
            "event2"
        ])
    );
}

/// `TestPrintEventsResultSorted`: a list's rows keep its order.
#[test]
fn event_list_keeps_its_order() {
    let event = |message: &str, at: &str| {
        json!({"source": {"component": "kubelet"}, "message": message, "firstTimestamp": at,
               "lastTimestamp": at, "count": 1, "type": "Normal"})
    };
    let items = [
        event("Item 1", "2014-01-15T00:00:00Z"),
        event("Item 2", "1987-06-17T00:00:00Z"),
        event("Item 3", "2002-12-25T00:00:00Z"),
    ];
    let convertor = crate::table::TableConvertor::builtin("", "events").expect("a table");
    let table = convertor.convert_list(
        &items,
        api_core::ListMeta::default(),
        &crate::table::TableOptions::default(),
        now(),
    );
    let messages: Vec<&Value> = table.rows.iter().map(|r| &r.cells[6]).collect();
    assert_eq!(messages, ["Item 1", "Item 2", "Item 3"]);
}

/// `TestPrintSecret`.
#[test]
fn secret_table() {
    let secret = json!({"metadata": {"name": "secret1", "creationTimestamp": soon()},
        "type": "kubernetes.io/service-account-token", "data": {"token": "c2VjcmV0IGRhdGE="}});
    assert_eq!(
        cells("", "secrets", &secret),
        json!(["secret1", "kubernetes.io/service-account-token", 1, "0s"])
    );
    let no_data = json!({"metadata": {"name": "secret1", "creationTimestamp": soon()},
        "type": "kubernetes.io/service-account-token"});
    assert_eq!(
        cells("", "secrets", &no_data),
        json!(["secret1", "kubernetes.io/service-account-token", 0, "0s"])
    );
    // Not upstream's: stringData is merged into data before printing.
    let both = json!({"metadata": {"name": "s"}, "type": "Opaque",
        "data": {"a": "YQ==", "b": "Yg=="}, "stringData": {"b": "b", "c": "c"}});
    assert_eq!(cells("", "secrets", &both)[2], 3);
}

/// `TestPrintServiceAccount`.
#[test]
fn service_account_table() {
    let account = |secrets: Value| json!({"metadata": {"name": "sa1", "creationTimestamp": soon()}, "secrets": secrets});
    assert_eq!(
        cells("", "serviceaccounts", &account(json!([]))),
        json!(["sa1", 0, "0s"])
    );
    assert_eq!(
        cells(
            "",
            "serviceaccounts",
            &account(json!([{"name": "Secret1"}, {"name": "Secret2"}]))
        ),
        json!(["sa1", 2, "0s"])
    );
}

/// `TestPrintNodeStatus`, `TestPrintNodeRole` and `TestPrintNodeName`
/// (rows without `-o wide`).
#[test]
fn node_status_and_roles() {
    let ready = |status: &str| json!({"type": "Ready", "status": status});
    let cases = [
        (
            json!({"metadata": {"name": "foo1"}, "status": {"conditions": [ready("True")]}}),
            "foo1",
            "Ready",
            "<none>",
        ),
        (
            json!({"metadata": {"name": "foo2"}, "spec": {"unschedulable": true},
                "status": {"conditions": [ready("True")]}}),
            "foo2",
            "Ready,SchedulingDisabled",
            "<none>",
        ),
        (
            json!({"metadata": {"name": "foo3"}, "status": {"conditions": [ready("True"), ready("True")]}}),
            "foo3",
            "Ready",
            "<none>",
        ),
        (
            json!({"metadata": {"name": "foo4"}, "status": {"conditions": [ready("False")]}}),
            "foo4",
            "NotReady",
            "<none>",
        ),
        (
            json!({"metadata": {"name": "foo5"}, "spec": {"unschedulable": true},
                "status": {"conditions": [ready("False")]}}),
            "foo5",
            "NotReady,SchedulingDisabled",
            "<none>",
        ),
        (
            json!({"metadata": {"name": "foo6"}, "status": {"conditions": [{"type": "InvalidValue", "status": "True"}]}}),
            "foo6",
            "Unknown",
            "<none>",
        ),
        (
            json!({"metadata": {"name": "foo7"}, "status": {"conditions": [{}]}}),
            "foo7",
            "Unknown",
            "<none>",
        ),
        (
            json!({"metadata": {"name": "foo8"}, "spec": {"unschedulable": true},
                "status": {"conditions": [{"type": "InvalidValue", "status": "True"}]}}),
            "foo8",
            "Unknown,SchedulingDisabled",
            "<none>",
        ),
        (
            json!({"metadata": {"name": "foo9"}, "spec": {"unschedulable": true}, "status": {"conditions": [{}]}}),
            "foo9",
            "Unknown,SchedulingDisabled",
            "<none>",
        ),
        // TestPrintNodeRole.
        (
            json!({"metadata": {"name": "foo9"}}),
            "foo9",
            "Unknown",
            "<none>",
        ),
        (
            json!({"metadata": {"name": "foo10", "labels": {"node-role.kubernetes.io/master": "",
                "node-role.kubernetes.io/control-plane": "", "node-role.kubernetes.io/proxy": "",
                "kubernetes.io/role": "node"}}}),
            "foo10",
            "Unknown",
            "control-plane,master,node,proxy",
        ),
        (
            json!({"metadata": {"name": "foo11", "labels": {"kubernetes.io/role": "node"}}}),
            "foo11",
            "Unknown",
            "node",
        ),
        // TestPrintNodeName.
        (
            json!({"metadata": {"name": "127.0.0.1"}, "status": {}}),
            "127.0.0.1",
            "Unknown",
            "<none>",
        ),
        (
            json!({"metadata": {"name": ""}, "status": {}}),
            "",
            "Unknown",
            "<none>",
        ),
    ];
    for (node, name, status, roles) in cases {
        assert_eq!(
            default_cells("", "nodes", &node),
            json!([name, status, roles, "<unknown>", ""]),
            "{node}"
        );
    }
}

/// `TestPrintNodeOSImage`, `TestPrintNodeKernelVersion`,
/// `TestPrintNodeContainerRuntimeVersion`, `TestPrintNodeExternalIP` and
/// `TestPrintNodeInternalIP` (wide rows).
#[test]
fn node_wide_columns() {
    let external = json!([{"type": "ExternalIP", "address": "1.1.1.1"}]);
    let internal = json!([{"type": "InternalIP", "address": "1.1.1.1"}]);
    let node = |info: Value, addresses: &Value| json!({"metadata": {"name": "foo"}, "status": {"nodeInfo": info, "addresses": addresses}});
    let row = |internal: &str, external: &str, os: &str, kernel: &str, runtime: &str| {
        json!([
            "foo",
            "Unknown",
            "<none>",
            "<unknown>",
            "",
            internal,
            external,
            os,
            kernel,
            runtime
        ])
    };
    let cases = [
        (
            node(json!({"osImage": "fake-os-image"}), &external),
            row(
                "<none>",
                "1.1.1.1",
                "fake-os-image",
                "<unknown>",
                "<unknown>",
            ),
        ),
        (
            node(json!({"kernelVersion": "fake-kernel-version"}), &external),
            row(
                "<none>",
                "1.1.1.1",
                "<unknown>",
                "fake-kernel-version",
                "<unknown>",
            ),
        ),
        (
            node(json!({"containerRuntimeVersion": "foo://1.2.3"}), &external),
            row("<none>", "1.1.1.1", "<unknown>", "<unknown>", "foo://1.2.3"),
        ),
        (
            node(json!({}), &external),
            row("<none>", "1.1.1.1", "<unknown>", "<unknown>", "<unknown>"),
        ),
        (
            node(json!({}), &internal),
            row("1.1.1.1", "<none>", "<unknown>", "<unknown>", "<unknown>"),
        ),
        (
            node(
                json!({}),
                &json!([{"type": "ExternalIP", "address": "2.2.2.2"},
            {"type": "InternalIP", "address": "3.3.3.3"}, {"type": "ExternalIP", "address": "4.4.4.4"}]),
            ),
            row("3.3.3.3", "2.2.2.2", "<unknown>", "<unknown>", "<unknown>"),
        ),
        (
            node(
                json!({}),
                &json!([{"type": "InternalIP", "address": "2.2.2.2"},
            {"type": "ExternalIP", "address": "3.3.3.3"}, {"type": "InternalIP", "address": "4.4.4.4"}]),
            ),
            row("2.2.2.2", "3.3.3.3", "<unknown>", "<unknown>", "<unknown>"),
        ),
    ];
    for (node, row) in cases {
        assert_eq!(cells("", "nodes", &node), row, "{node}");
    }
}

/// `TestPrintServiceLoadBalancer`. The server prints wide rows, so the
/// fourth case's long external IP list is not clipped to
/// `2.3.4.5,3.4.5...` as in upstream's narrow row: it is the fifth case's.
#[test]
fn service_load_balancer_table() {
    let service = |name: &str, ip: &str, ports: Value, ingress: Value| {
        json!({"metadata": {"name": name}, "spec": {"clusterIPs": [ip], "type": "LoadBalancer",
               "ports": ports, "selector": {"foo": "bar"}},
               "status": {"loadBalancer": {"ingress": ingress}}})
    };
    let tcp80 = json!({"port": 80, "protocol": "TCP"});
    let three =
        json!([tcp80, {"port": 8090, "protocol": "UDP"}, {"port": 8000, "protocol": "TCP"}]);
    let cases = [
        (
            service(
                "service1",
                "1.2.3.4",
                json!([tcp80]),
                json!([{"ip": "2.3.4.5"}, {"ip": "3.4.5.6"}]),
            ),
            json!([
                "service1",
                "LoadBalancer",
                "1.2.3.4",
                "2.3.4.5,3.4.5.6",
                "80/TCP",
                "<unknown>",
                "foo=bar"
            ]),
        ),
        (
            service(
                "service2",
                "1.3.4.5",
                json!([tcp80, {"port": 8090, "protocol": "UDP"},
            {"port": 8000, "protocol": "TCP"}, {"port": 7777, "protocol": "SCTP"}]),
                Value::Null,
            ),
            json!([
                "service2",
                "LoadBalancer",
                "1.3.4.5",
                "<pending>",
                "80/TCP,8090/UDP,8000/TCP,7777/SCTP",
                "<unknown>",
                "foo=bar"
            ]),
        ),
        (
            service(
                "service3",
                "1.4.5.6",
                three.clone(),
                json!([{"ip": "2.3.4.5"}]),
            ),
            json!([
                "service3",
                "LoadBalancer",
                "1.4.5.6",
                "2.3.4.5",
                "80/TCP,8090/UDP,8000/TCP",
                "<unknown>",
                "foo=bar"
            ]),
        ),
        (
            service(
                "service4",
                "1.5.6.7",
                three,
                json!([{"ip": "2.3.4.5"}, {"ip": "3.4.5.6"},
            {"ip": "5.6.7.8", "hostname": "host5678"}]),
            ),
            json!([
                "service4",
                "LoadBalancer",
                "1.5.6.7",
                "2.3.4.5,3.4.5.6,5.6.7.8",
                "80/TCP,8090/UDP,8000/TCP",
                "<unknown>",
                "foo=bar"
            ]),
        ),
    ];
    for (service, row) in cases {
        assert_eq!(cells("", "services", &service), row);
    }
}

/// `TestPrintService` (rows without `-o wide` but the second) and
/// `TestPrintServiceList`.
#[test]
fn service_table() {
    let tcp = |port: i64| json!({"protocol": "tcp", "port": port});
    let service = |name: &str, spec: Value| json!({"metadata": {"name": name}, "spec": spec});
    let with_selector = service(
        "test1",
        json!({"type": "ClusterIP", "ports": [tcp(2233)],
        "clusterIPs": ["10.9.8.7"], "selector": {"foo": "bar"}}),
    );
    assert_eq!(
        default_cells("", "services", &with_selector),
        json!([
            "test1",
            "ClusterIP",
            "10.9.8.7",
            "<none>",
            "2233/tcp",
            "<unknown>"
        ])
    );
    assert_eq!(
        cells("", "services", &with_selector),
        json!([
            "test1",
            "ClusterIP",
            "10.9.8.7",
            "<none>",
            "2233/tcp",
            "<unknown>",
            "foo=bar"
        ])
    );
    let cases = [
        (
            service(
                "test2",
                json!({"type": "NodePort", "clusterIPs": ["10.9.8.7"],
            "ports": [{"protocol": "tcp", "port": 8888, "nodePort": 9999}]}),
            ),
            json!([
                "test2",
                "NodePort",
                "10.9.8.7",
                "<none>",
                "8888:9999/tcp",
                "<unknown>"
            ]),
        ),
        (
            service(
                "test3",
                json!({"type": "LoadBalancer", "ports": [tcp(8888)], "clusterIPs": ["10.9.8.7"]}),
            ),
            json!([
                "test3",
                "LoadBalancer",
                "10.9.8.7",
                "<pending>",
                "8888/tcp",
                "<unknown>"
            ]),
        ),
        (
            service(
                "test4",
                json!({"type": "LoadBalancer", "ports": [tcp(8888)], "clusterIPs": ["10.9.8.7"],
            "externalIPs": ["80.11.12.10"]}),
            ),
            json!([
                "test4",
                "LoadBalancer",
                "10.9.8.7",
                "80.11.12.10",
                "8888/tcp",
                "<unknown>"
            ]),
        ),
        (
            json!({"metadata": {"name": "test5"}, "spec": {"type": "LoadBalancer", "ports": [tcp(8888)],
            "clusterIPs": ["10.9.8.7"], "externalIPs": ["80.11.12.10"]},
            "status": {"loadBalancer": {"ingress": [{"ip": "3.4.5.6", "hostname": "test.cluster.com"}]}}}),
            json!([
                "test5",
                "LoadBalancer",
                "10.9.8.7",
                "3.4.5.6,80.11.12.10",
                "8888/tcp",
                "<unknown>"
            ]),
        ),
        (
            json!({"metadata": {"name": "test6"}, "spec": {"type": "LoadBalancer", "ports": [tcp(8888)],
            "clusterIPs": ["10.9.8.7"], "externalIPs": ["80.11.12.10", "80.11.12.11"]},
            "status": {"loadBalancer": {"ingress": [{"ip": "2.3.4.5", "hostname": "test.cluster.local"},
                {"ip": "3.4.5.6", "hostname": "test.cluster.com"}]}}}),
            json!([
                "test6",
                "LoadBalancer",
                "10.9.8.7",
                "2.3.4.5,3.4.5.6,80.11.12.10,80.11.12.11",
                "8888/tcp",
                "<unknown>"
            ]),
        ),
        (
            service(
                "test7",
                json!({"type": "ExternalName", "externalName": "my.database.example.com"}),
            ),
            json!([
                "test7",
                "ExternalName",
                "<none>",
                "my.database.example.com",
                "<none>",
                "<unknown>"
            ]),
        ),
        // TestPrintServiceList.
        (
            service(
                "service1",
                json!({"type": "ClusterIP", "ports": [tcp(2233)], "clusterIPs": ["10.9.8.7"]}),
            ),
            json!([
                "service1",
                "ClusterIP",
                "10.9.8.7",
                "<none>",
                "2233/tcp",
                "<unknown>"
            ]),
        ),
        (
            service(
                "service2",
                json!({"type": "NodePort", "ports": [{"protocol": "udp", "port": 5566}],
            "clusterIPs": ["1.2.3.4"]}),
            ),
            json!([
                "service2",
                "NodePort",
                "1.2.3.4",
                "<none>",
                "5566/udp",
                "<unknown>"
            ]),
        ),
    ];
    for (service, row) in cases {
        assert_eq!(default_cells("", "services", &service), row);
    }
}

/// `TestPrintPodTemplate` and `TestPrintPodTemplateList`.
#[test]
fn pod_template_table() {
    let template = |name: &str, labels: Value, containers: Value| {
        json!({"metadata": {"name": name}, "template": {"metadata": {"name": name, "labels": labels},
               "spec": {"containers": containers}}})
    };
    let cases = [
        (
            template("pod-template-1", Value::Null, json!([])),
            json!(["pod-template-1", "", "", "<none>"]),
        ),
        (
            template(
                "pod-template-2",
                Value::Null,
                json!([{"name": "fake-container1", "image": "fake-image1"},
            {"name": "fake-container2", "image": "fake-image2"}]),
            ),
            json!([
                "pod-template-2",
                "fake-container1,fake-container2",
                "fake-image1,fake-image2",
                "<none>"
            ]),
        ),
        (
            template("pod-template-3", json!({"foo": "bar"}), json!([])),
            json!(["pod-template-3", "", "", "foo=bar"]),
        ),
        (
            template("pod-template-2", json!({"a": "b"}), json!([])),
            json!(["pod-template-2", "", "", "a=b"]),
        ),
    ];
    for (template, row) in cases {
        assert_eq!(cells("", "podtemplates", &template), row);
    }
}

/// `TestPrintReplicationController`.
#[test]
fn replication_controller_table() {
    let template = json!({"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "test",
        "image": "test_image", "imagePullPolicy": "IfNotPresent", "terminationMessagePolicy": "File"}],
        "restartPolicy": "Always", "dnsPolicy": "ClusterFirst"}});
    let basic = json!({"metadata": {"name": "rc1", "namespace": "test-namespace"},
        "spec": {"replicas": 0, "selector": {"a": "b"}, "template": template}});
    assert_eq!(
        default_cells("", "replicationcontrollers", &basic),
        json!(["rc1", 0, 0, 0, "<unknown>"])
    );
    let replicas = json!({"metadata": {"name": "rc1", "namespace": "test-namespace"},
        "spec": {"replicas": 5, "selector": {"a": "b"}, "template": template},
        "status": {"replicas": 3, "readyReplicas": 1}});
    assert_eq!(
        default_cells("", "replicationcontrollers", &replicas),
        json!(["rc1", 5, 3, 1, "<unknown>"])
    );
    assert_eq!(
        cells("", "replicationcontrollers", &replicas),
        json!(["rc1", 5, 3, 1, "<unknown>", "test", "test_image", "a=b"])
    );
    // No panic without a template.
    let bookmark = json!({"metadata": {"annotations": {"k8s.io/initial-events-end": "true"}},
        "spec": {"replicas": 0}});
    assert_eq!(
        cells("", "replicationcontrollers", &bookmark),
        json!(["", 0, 0, 0, "<unknown>", "", "", "<none>"])
    );
}

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

/// Two containers, as upstream's tests have them.
fn two_containers(prefix: &str) -> Value {
    json!([{"name": format!("fake-{prefix}container1"), "image": format!("fake-{prefix}image1")},
           {"name": format!("fake-{prefix}container2"), "image": format!("fake-{prefix}image2")}])
}

/// `TestPrintDaemonSet` and `TestPrintDaemonSetList`.
#[test]
fn daemon_set_table() {
    let daemon_set = json!({"metadata": {"name": "test1", "creationTimestamp": soon()},
        "spec": {"template": {"spec": {"containers": two_containers("")}},
                 "selector": {"matchLabels": {"foo": "bar"}}},
        "status": {"currentNumberScheduled": 2, "desiredNumberScheduled": 3, "numberReady": 1,
                   "updatedNumberScheduled": 2, "numberAvailable": 0}});
    assert_eq!(
        default_cells("apps", "daemonsets", &daemon_set),
        json!(["test1", 3, 2, 1, 2, 0, "<none>", "0s"])
    );
    assert_eq!(
        cells("apps", "daemonsets", &daemon_set),
        json!([
            "test1",
            3,
            2,
            1,
            2,
            0,
            "<none>",
            "0s",
            "fake-container1,fake-container2",
            "fake-image1,fake-image2",
            "foo=bar"
        ])
    );
    let second = json!({"metadata": {"name": "daemonset2", "creationTimestamp": soon()},
        "spec": {"template": {}, "selector": {"matchLabels": {"foo": "bar"}}},
        "status": {"currentNumberScheduled": 4, "desiredNumberScheduled": 2, "numberReady": 9,
                   "updatedNumberScheduled": 3, "numberAvailable": 3}});
    assert_eq!(
        default_cells("apps", "daemonsets", &second),
        json!(["daemonset2", 2, 4, 9, 3, 3, "<none>", "0s"])
    );
    // Not upstream's: a node selector prints as a label set.
    let selected =
        json!({"spec": {"template": {"spec": {"nodeSelector": {"disk": "ssd", "a.b": "c"}}}}});
    assert_eq!(cells("apps", "daemonsets", &selected)[6], "a.b=c,disk=ssd");
}

/// `TestPrintJob` and `TestPrintJobList`.
#[test]
fn job_table() {
    let job = |name: &str, created: String, spec: Value, status: Value| json!({"metadata": {"name": name, "creationTimestamp": created}, "spec": spec, "status": status});
    let template = json!({"spec": {"containers": two_containers("job-")}});
    let job1 = job(
        "job1",
        soon(),
        json!({"completions": 2, "template": template,
        "selector": {"matchLabels": {"job-label": "job-label-value"}}}),
        json!({"succeeded": 1}),
    );
    assert_eq!(
        default_cells("batch", "jobs", &job1),
        json!(["job1", "Running", "1/2", "", "0s"])
    );
    assert_eq!(
        cells("batch", "jobs", &job1),
        json!([
            "job1",
            "Running",
            "1/2",
            "",
            "0s",
            "fake-job-container1,fake-job-container2",
            "fake-job-image1,fake-job-image2",
            "job-label=job-label-value"
        ])
    );
    let ten_years = ago(TimeDelta::days(10 * 365));
    let condition = |kind: &str| json!({"conditions": [{"type": kind, "status": "True"}]});
    let cases = [
        // Job with ten-year age.
        (
            job(
                "job2",
                ago(TimeDelta::days(3653)),
                json!({}),
                json!({"succeeded": 0}),
            ),
            json!(["job2", "Running", "0/1", "", "10y"]),
        ),
        // Job with duration.
        (
            job(
                "job3",
                ten_years.clone(),
                json!({}),
                json!({"succeeded": 0,
            "startTime": ago(-TimeDelta::minutes(1)), "completionTime": ago(-TimeDelta::minutes(31))}),
            ),
            json!(["job3", "Running", "0/1", "30m", "10y"]),
        ),
        (
            job(
                "job4",
                ten_years,
                json!({}),
                json!({"succeeded": 0, "startTime": ago(TimeDelta::minutes(20))}),
            ),
            json!(["job4", "Running", "0/1", "20m", "10y"]),
        ),
        (
            job("job5", soon(), json!({}), condition("Complete")),
            json!(["job5", "Complete", "0/1", "", "0s"]),
        ),
        (
            job("job6", soon(), json!({}), condition("Failed")),
            json!(["job6", "Failed", "0/1", "", "0s"]),
        ),
        (
            job("job7", soon(), json!({}), condition("Suspended")),
            json!(["job7", "Suspended", "0/1", "", "0s"]),
        ),
        (
            job("job8", soon(), json!({}), condition("FailureTarget")),
            json!(["job8", "FailureTarget", "0/1", "", "0s"]),
        ),
        (
            json!({"metadata": {"name": "job9", "creationTimestamp": soon(), "deletionTimestamp": soon()}, "spec": {}}),
            json!(["job9", "Terminating", "0/1", "", "0s"]),
        ),
        // TestPrintJobList's second job.
        (
            job(
                "job2",
                soon(),
                json!({"completions": 2}),
                json!({"succeeded": 2, "startTime": ago(TimeDelta::minutes(20))}),
            ),
            json!(["job2", "Running", "2/2", "20m", "0s"]),
        ),
        // Not upstream's: parallel jobs without completions.
        (
            job(
                "par",
                soon(),
                json!({"parallelism": 3}),
                json!({"succeeded": 1}),
            ),
            json!(["par", "Running", "1/1 of 3", "", "0s"]),
        ),
    ];
    for (job, row) in cases {
        assert_eq!(default_cells("batch", "jobs", &job), row, "{job}");
    }
}

/// `TestPrintCronJob` and `TestPrintCronJobList`.
#[test]
fn cron_job_table() {
    let job_template = json!({"spec": {"completions": 2, "template": {"spec": {"containers": two_containers("job-")}},
        "selector": {"matchLabels": {"a": "b"}}}});
    let cron_job = |name: &str, created: String, spec: Value, last: Option<String>| {
        let mut cron_job = json!({"metadata": {"name": name, "creationTimestamp": created}, "spec": spec, "status": {}});
        if let Some(last) = last {
            cron_job["status"]["lastScheduleTime"] = json!(last);
        }
        cron_job
    };
    let basic = cron_job(
        "cronjob1",
        soon(),
        json!({"schedule": "0/5 * * * ?", "suspend": false,
        "jobTemplate": job_template}),
        Some(soon()),
    );
    assert_eq!(
        default_cells("batch", "cronjobs", &basic),
        json!(["cronjob1", "0/5 * * * ?", "<none>", "False", 0, "0s", "0s"])
    );
    assert_eq!(
        cells("batch", "cronjobs", &basic),
        json!([
            "cronjob1",
            "0/5 * * * ?",
            "<none>",
            "False",
            0,
            "0s",
            "0s",
            "fake-job-container1,fake-job-container2",
            "fake-job-image1,fake-job-image2",
            "a=b"
        ])
    );
    let cases = [
        (
            cron_job(
                "cronjob1",
                soon(),
                json!({"schedule": "0/5 * * * ?", "timeZone": "LOCAL", "suspend": false,
            "jobTemplate": job_template}),
                Some(soon()),
            ),
            json!(["cronjob1", "0/5 * * * ?", "LOCAL", "False", 0, "0s", "0s"]),
        ),
        // CronJob with Last Schedule and Age.
        (
            cron_job(
                "cronjob2",
                ago(TimeDelta::minutes(5)),
                json!({"schedule": "0/5 * * * ?", "suspend": false}),
                Some(ago(TimeDelta::seconds(30))),
            ),
            json!(["cronjob2", "0/5 * * * ?", "<none>", "False", 0, "30s", "5m"]),
        ),
        // CronJob without Last Schedule.
        (
            cron_job(
                "cronjob3",
                ago(TimeDelta::minutes(5)),
                json!({"schedule": "0/5 * * * ?", "suspend": false}),
                None,
            ),
            json!([
                "cronjob3",
                "0/5 * * * ?",
                "<none>",
                "False",
                0,
                "<none>",
                "5m"
            ]),
        ),
        // TestPrintCronJobList's second cron job.
        (
            cron_job(
                "cronjob2",
                soon(),
                json!({"schedule": "4/5 1 1 1 ?", "suspend": false}),
                Some(ago(TimeDelta::minutes(20))),
            ),
            json!(["cronjob2", "4/5 1 1 1 ?", "<none>", "False", 0, "20m", "0s"]),
        ),
        // Not upstream's: suspend unset, active jobs.
        (
            json!({"metadata": {"name": "c"}, "spec": {"schedule": "@daily"},
                "status": {"active": [{"name": "j1"}, {"name": "j2"}]}}),
            json!(["c", "@daily", "<none>", "<unset>", 2, "<none>", "<unknown>"]),
        ),
    ];
    for (cron_job, row) in cases {
        assert_eq!(
            default_cells("batch", "cronjobs", &cron_job),
            row,
            "{cron_job}"
        );
    }
}

/// `TestPrintReplicaSet` and `TestPrintReplicaSetList`.
#[test]
fn replica_set_table() {
    let replica_set = json!({"metadata": {"name": "test1", "creationTimestamp": soon()},
        "spec": {"replicas": 5, "template": {"spec": {"containers": two_containers("")}},
                 "selector": {"matchLabels": {"foo": "bar"}}},
        "status": {"replicas": 5, "readyReplicas": 2}});
    assert_eq!(
        default_cells("apps", "replicasets", &replica_set),
        json!(["test1", 5, 5, 2, "0s"])
    );
    assert_eq!(
        cells("apps", "replicasets", &replica_set),
        json!([
            "test1",
            5,
            5,
            2,
            "0s",
            "fake-container1,fake-container2",
            "fake-image1,fake-image2",
            "foo=bar"
        ])
    );
    let second = json!({"metadata": {"name": "replicaset2", "creationTimestamp": soon()},
        "spec": {"replicas": 4, "template": {}, "selector": {"matchLabels": {"foo": "bar"}}},
        "status": {"replicas": 3, "readyReplicas": 1}});
    assert_eq!(
        default_cells("apps", "replicasets", &second),
        json!(["replicaset2", 4, 3, 1, "0s"])
    );
    // Not upstream's: FormatLabelSelector's <none> and <error>.
    let empty = json!({"spec": {"selector": {}}});
    assert_eq!(cells("apps", "replicasets", &empty)[7], "<none>");
    let bad =
        json!({"spec": {"selector": {"matchExpressions": [{"key": "a", "operator": "Near"}]}}});
    assert_eq!(cells("apps", "replicasets", &bad)[7], "<error>");
    let expressions = json!({"spec": {"selector": {"matchLabels": {"app": "web"},
        "matchExpressions": [{"key": "tier", "operator": "In", "values": ["fe", "be"]}]}}});
    assert_eq!(
        cells("apps", "replicasets", &expressions)[7],
        "app=web,tier in (be,fe)"
    );
}

/// `TestPrintStatefulSet`.
#[test]
fn stateful_set_table() {
    let stateful_set = json!({"metadata": {"name": "test1", "creationTimestamp": soon()},
        "spec": {"replicas": 5, "template": {"spec": {"containers": two_containers("")}}},
        "status": {"replicas": 5, "readyReplicas": 2}});
    assert_eq!(
        default_cells("apps", "statefulsets", &stateful_set),
        json!(["test1", "2/5", "0s"])
    );
    assert_eq!(
        cells("apps", "statefulsets", &stateful_set),
        json!([
            "test1",
            "2/5",
            "0s",
            "fake-container1,fake-container2",
            "fake-image1,fake-image2"
        ])
    );
}

/// `TestPrintControllerRevision` and `TestFormatResourceName`.
#[test]
fn controller_revision_table() {
    let revision = |name: &str, owners: Value, revision: i64| {
        json!({"metadata": {"name": name, "creationTimestamp": soon(), "ownerReferences": owners},
               "revision": revision})
    };
    let cases = [
        (
            revision(
                "test1",
                json!([{"controller": true, "apiVersion": "apps/v1", "kind": "DaemonSet", "name": "foo"}]),
                1,
            ),
            json!(["test1", "daemonset.apps/foo", 1, "0s"]),
        ),
        (
            revision(
                "test2",
                json!([{"controller": false, "kind": "ABC", "name": "foo"}]),
                2,
            ),
            json!(["test2", "<none>", 2, "0s"]),
        ),
        (
            revision("test3", json!([]), 3),
            json!(["test3", "<none>", 3, "0s"]),
        ),
        (
            revision("test4", Value::Null, 4),
            json!(["test4", "<none>", 4, "0s"]),
        ),
        // TestFormatResourceName's kinds without a group, or without either.
        (
            revision(
                "core",
                json!([{"controller": true, "apiVersion": "v1", "kind": "Kind", "name": "name"}]),
                5,
            ),
            json!(["core", "kind/name", 5, "0s"]),
        ),
        (
            revision("none", json!([{"controller": true, "name": "name"}]), 6),
            json!(["none", "name", 6, "0s"]),
        ),
    ];
    for (revision, row) in cases {
        assert_eq!(
            cells("apps", "controllerrevisions", &revision),
            row,
            "{revision}"
        );
    }
}

/// `TestPrintEvent`'s events as events.k8s.io/v1 has them: the same rows
/// (the apiserver prints both groups' Events from the internal Event).
#[test]
fn events_k8s_io_event_table() {
    let (d2, d3) = (ago(TimeDelta::days(2)), ago(TimeDelta::days(3)));
    let event = |name: &str, extra: Value| {
        let mut event = json!({"metadata": {"name": name},
            "deprecatedSource": {"component": "kubelet", "host": "Node1"},
            "regarding": {"kind": "Deployment", "name": "Deployment Name", "fieldPath": "spec.containers{foo}"},
            "reason": "Event Reason", "note": "Message Data", "type": "Warning"});
        for (k, v) in extra.as_object().expect("fields") {
            event[k] = v.clone();
        }
        cells("events.k8s.io", "events", &event)
    };
    let row = |last: &str, source: &str, count: i64, name: &str| {
        json!([
            last,
            "Warning",
            "Event Reason",
            "deployment/Deployment Name",
            "spec.containers{foo}",
            source,
            "Message Data",
            "3d",
            count,
            name
        ])
    };
    assert_eq!(
        event(
            "event2",
            json!({"deprecatedFirstTimestamp": d3, "deprecatedLastTimestamp": d2, "deprecatedCount": 6})
        ),
        row("2d", "kubelet, Node1", 6, "event2")
    );
    assert_eq!(
        event(
            "event3",
            json!({"eventTime": d3, "deprecatedLastTimestamp": d3, "deprecatedCount": 1})
        ),
        row("3d", "kubelet, Node1", 1, "event3")
    );
    assert_eq!(
        event(
            "event4",
            json!({"eventTime": d3, "deprecatedFirstTimestamp": d3, "deprecatedCount": 1})
        ),
        row("3d", "kubelet, Node1", 1, "event4")
    );
    assert_eq!(
        event("event5", json!({"eventTime": d3})),
        row("3d", "kubelet, Node1", 1, "event5")
    );
    assert_eq!(
        event(
            "event6",
            json!({"eventTime": d3, "series": {"count": 2, "lastObservedTime": d2}})
        ),
        row("2d", "kubelet, Node1", 2, "event6")
    );
    assert_eq!(
        event(
            "event2",
            json!({"deprecatedSource": null, "reportingController": "kubelet",
            "reportingInstance": "test", "deprecatedFirstTimestamp": d3, "deprecatedLastTimestamp": d2,
            "deprecatedCount": 6})
        ),
        row("2d", "kubelet, test", 6, "event2")
    );
    // Not upstream's: a kind without a name, and a message to trim.
    let cluster = json!({"regarding": {"kind": "Node"}, "note": "  rebooted \n", "eventTime": d3});
    assert_eq!(
        default_cells("events.k8s.io", "events", &cluster),
        json!(["3d", "", "", "node", "rebooted"])
    );
}

/// `TestPrintLease`.
#[test]
fn lease_table() {
    let cases = [
        (
            json!({"metadata": {"name": "lease1", "creationTimestamp": soon()}, "spec": {"holderIdentity": "holder1"}}),
            json!(["lease1", "holder1", "0s"]),
        ),
        (
            json!({"metadata": {"name": "lease2", "creationTimestamp": ago(TimeDelta::minutes(5))},
                "spec": {"holderIdentity": "holder2"}}),
            json!(["lease2", "holder2", "5m"]),
        ),
        // Not upstream's: no holder.
        (
            json!({"metadata": {"name": "lease3"}, "spec": {}}),
            json!(["lease3", "", "<unknown>"]),
        ),
    ];
    for (lease, row) in cases {
        assert_eq!(cells("coordination.k8s.io", "leases", &lease), row);
    }
}

/// `TestPrintIngress`.
#[test]
fn ingress_table() {
    let ingress = json!({"metadata": {"name": "test1", "creationTimestamp": ago(TimeDelta::days(3650))},
        "spec": {"ingressClassName": "foo", "defaultBackend": {"service": {"name": "default-backend",
            "port": {"name": "default-backend", "number": 80}}}},
        "status": {"loadBalancer": {"ingress": [{"ip": "2.3.4.5", "hostname": "localhost.localdomain"}]}}});
    assert_eq!(
        cells("networking.k8s.io", "ingresses", &ingress),
        json!(["test1", "foo", "*", "2.3.4.5", "80", "10y"])
    );
    // Not upstream's: hosts past three, TLS, no class.
    let hosts = json!({"metadata": {"name": "h"}, "spec": {"tls": [{"hosts": ["a"]}],
        "rules": [{"host": "a"}, {}, {"host": "b"}, {"host": "c"}, {"host": "d"}]}});
    assert_eq!(
        cells("networking.k8s.io", "ingresses", &hosts),
        json!([
            "h",
            "<none>",
            "a,b,c + 2 more...",
            "",
            "80, 443",
            "<unknown>"
        ])
    );
}

/// `TestPrintIngressClass`.
#[test]
fn ingress_class_table() {
    let class = |name: &str, created: String, spec: Value| json!({"metadata": {"name": name, "creationTimestamp": created}, "spec": spec});
    let cases = [
        (
            class(
                "test1",
                ago(TimeDelta::days(3650)),
                json!({"controller": "example.com/controller",
            "parameters": {"kind": "customgroup", "name": "example"}}),
            ),
            json!([
                "test1",
                "example.com/controller",
                "customgroup/example",
                "10y"
            ]),
        ),
        (
            class(
                "test1",
                ago(TimeDelta::days(3650)),
                json!({"controller": "example.com/controller",
            "parameters": {"apiGroup": "example.com", "kind": "customgroup", "name": "example"}}),
            ),
            json!([
                "test1",
                "example.com/controller",
                "customgroup.example.com/example",
                "10y"
            ]),
        ),
        (
            class(
                "test2",
                ago(TimeDelta::days(11 * 365)),
                json!({"controller": "example.com/controller2"}),
            ),
            json!(["test2", "example.com/controller2", "<none>", "11y"]),
        ),
    ];
    for (class, row) in cases {
        assert_eq!(cells("networking.k8s.io", "ingressclasses", &class), row);
    }
}

/// `TestPrintNetworkPolicy`.
#[test]
fn network_policy_table() {
    let cases = [
        (
            json!({"metadata": {"name": "policy1", "creationTimestamp": soon()}, "spec": {}}),
            json!(["policy1", "<none>", "0s"]),
        ),
        (
            json!({"metadata": {"name": "policy2", "creationTimestamp": soon()},
                "spec": {"podSelector": {"matchLabels": {"foo": "bar"}}}}),
            json!(["policy2", "foo=bar", "0s"]),
        ),
    ];
    for (policy, row) in cases {
        assert_eq!(cells("networking.k8s.io", "networkpolicies", &policy), row);
    }
}

/// `TestPrintPodDisruptionBudget` and `TestPrintPodDisruptionBudgetList`.
#[test]
fn pod_disruption_budget_table() {
    let budget = |name: &str, spec: Value, allowed: i64| {
        json!({"metadata": {"namespace": "ns1", "name": name, "creationTimestamp": soon()},
               "spec": spec, "status": {"disruptionsAllowed": allowed}})
    };
    let cases = [
        (
            budget("pdb1", json!({"minAvailable": 22}), 5),
            json!(["pdb1", "22", "N/A", 5, "0s"]),
        ),
        (
            budget("pdb2", json!({"maxUnavailable": 11}), 5),
            json!(["pdb2", "N/A", "11", 5, "0s"]),
        ),
        (
            budget("pdb2", json!({"minAvailable": 22}), 3),
            json!(["pdb2", "22", "N/A", 3, "0s"]),
        ),
        // Not upstream's: a percentage.
        (
            budget("pdb3", json!({"maxUnavailable": "25%"}), 0),
            json!(["pdb3", "N/A", "25%", 0, "0s"]),
        ),
    ];
    for (budget, row) in cases {
        assert_eq!(cells("policy", "poddisruptionbudgets", &budget), row);
    }
}

/// `TestPrintEndpointSlice`.
#[test]
fn endpoint_slice_table() {
    let port = |name: &str, port: i64| json!({"name": name, "port": port, "protocol": "TCP"});
    let endpoints = json!([{"addresses": ["10.1.2.3", "2001:db8::1234:5678"]},
                           {"addresses": ["10.2.3.4", "2001:db8::2345:6789"]}]);
    let cases = [
        (
            json!({"metadata": {"name": "abcslice.123", "creationTimestamp": soon()}, "addressType": "IPv4",
                "ports": [port("http", 80)], "endpoints": [{"addresses": ["10.1.2.3", "2001:db8::1234:5678"]}]}),
            json!([
                "abcslice.123",
                "IPv4",
                "80",
                "10.1.2.3,2001:db8::1234:5678",
                "0s"
            ]),
        ),
        (
            json!({"metadata": {"name": "longerslicename.123", "creationTimestamp": ago(TimeDelta::minutes(5))},
                "addressType": "IPv6", "ports": [port("http", 80), port("https", 443)], "endpoints": endpoints}),
            json!([
                "longerslicename.123",
                "IPv6",
                "80,443",
                "10.1.2.3,2001:db8::1234:5678,10.2.3.4 + 1 more...",
                "5m"
            ]),
        ),
        (
            json!({"metadata": {"name": "multiportslice.123", "creationTimestamp": ago(TimeDelta::minutes(5))},
                "addressType": "IPv4", "ports": [port("http", 80), port("https", 443), port("extra1", 3000),
                port("extra2", 3001)], "endpoints": endpoints}),
            json!([
                "multiportslice.123",
                "IPv4",
                "80,443,3000 + 1 more...",
                "10.1.2.3,2001:db8::1234:5678,10.2.3.4 + 1 more...",
                "5m"
            ]),
        ),
        // Not upstream's: a port without a number, one without either,
        // and no endpoints.
        (
            json!({"metadata": {"name": "s"}, "addressType": "FQDN", "ports": [{"name": "dns"}, {}]}),
            json!(["s", "FQDN", "dns,*", "<unset>", "<unknown>"]),
        ),
    ];
    for (slice, row) in cases {
        assert_eq!(cells("discovery.k8s.io", "endpointslices", &slice), row);
    }
}

/// `TestPrintHPA`.
#[test]
fn horizontal_pod_autoscaler_table() {
    let hpa = |min: Option<i64>, metrics: Value, current: Value| {
        let mut hpa = json!({"metadata": {"name": "some-hpa"},
            "spec": {"scaleTargetRef": {"name": "some-rc", "kind": "ReplicationController"},
                     "maxReplicas": 10, "metrics": metrics},
            "status": {"currentReplicas": 4, "desiredReplicas": 5, "currentMetrics": current}});
        if let Some(min) = min {
            hpa["spec"]["minReplicas"] = json!(min);
        }
        cells("autoscaling", "horizontalpodautoscalers", &hpa)
    };
    let row = |targets: &str, min: &str| {
        json!([
            "some-hpa",
            "ReplicationController/some-rc",
            targets,
            min,
            10,
            4,
            "<unknown>"
        ])
    };
    // minReplicas unset.
    assert_eq!(
        hpa(None, Value::Null, Value::Null),
        row("<none>", "<unset>")
    );
    let selector = json!({"matchLabels": {"label": "value"}});
    let metric = |kind: &str, source: &str, body: Value| {
        let mut metric = json!({"type": kind});
        metric[source] = body;
        json!([metric])
    };
    let external = |target: Value| {
        metric(
            "External",
            "external",
            json!({"metric": {"name": "some-external-metric", "selector": selector}, "target": target}),
        )
    };
    let external_status = |current: Value| {
        metric(
            "External",
            "external",
            json!({"metric": {"name": "some-external-metric"}, "current": current}),
        )
    };
    let average = json!({"type": "AverageValue", "averageValue": "100m"});
    let value = json!({"type": "Value", "value": "100m"});
    let utilization = json!({"type": "Utilization", "averageUtilization": 80});
    let cases = [
        // external source type, target average value (no current)
        (
            external(average.clone()),
            Value::Null,
            "<unknown>/100m (avg)",
        ),
        // external source type, target average value
        (
            external(average.clone()),
            external_status(json!({"averageValue": "50m"})),
            "50m/100m (avg)",
        ),
        // external source type, target value (no current)
        (external(value.clone()), Value::Null, "<unknown>/100m"),
        // external source type, target value
        (
            external(value.clone()),
            external_status(json!({"value": "50m"})),
            "50m/100m",
        ),
        // pods source type (no current)
        (
            metric(
                "Pods",
                "pods",
                json!({"metric": {"name": "some-pods-metric"}, "target": average}),
            ),
            Value::Null,
            "<unknown>/100m",
        ),
        // pods source type
        (
            metric(
                "Pods",
                "pods",
                json!({"metric": {"name": "some-pods-metric"}, "target": average}),
            ),
            metric(
                "Pods",
                "pods",
                json!({"metric": {"name": "some-pods-metric"}, "current": {"averageValue": "50m"}}),
            ),
            "50m/100m",
        ),
        // object source type (no current)
        (
            metric(
                "Object",
                "object",
                json!({"describedObject": {"name": "some-service", "kind": "Service"},
            "metric": {"name": "some-service-metric"}, "target": value}),
            ),
            Value::Null,
            "<unknown>/100m",
        ),
        // object source type
        (
            metric(
                "Object",
                "object",
                json!({"describedObject": {"name": "some-service", "kind": "Service"},
            "metric": {"name": "some-service-metric"}, "target": value}),
            ),
            metric(
                "Object",
                "object",
                json!({"describedObject": {"name": "some-service", "kind": "Service"},
                "metric": {"name": "some-service-metric"}, "current": {"value": "50m"}}),
            ),
            "50m/100m",
        ),
        // resource source type, targetVal (no current)
        (
            metric(
                "Resource",
                "resource",
                json!({"name": "cpu", "target": average}),
            ),
            Value::Null,
            "cpu: <unknown>/100m",
        ),
        // resource source type, targetVal
        (
            metric(
                "Resource",
                "resource",
                json!({"name": "cpu", "target": average}),
            ),
            metric(
                "Resource",
                "resource",
                json!({"name": "cpu", "current": {"averageValue": "50m"}}),
            ),
            "cpu: 50m/100m",
        ),
        // resource source type, targetUtil (no current)
        (
            metric(
                "Resource",
                "resource",
                json!({"name": "cpu", "target": utilization}),
            ),
            Value::Null,
            "cpu: <unknown>/80%",
        ),
        // resource source type, targetUtil
        (
            metric(
                "Resource",
                "resource",
                json!({"name": "cpu", "target": utilization}),
            ),
            metric(
                "Resource",
                "resource",
                json!({"name": "cpu",
                "current": {"averageUtilization": 50, "averageValue": "40m"}}),
            ),
            "cpu: 50%/80%",
        ),
        // container resource source type, targetVal (no current)
        (
            metric(
                "ContainerResource",
                "containerResource",
                json!({"name": "cpu", "container": "application",
            "target": average}),
            ),
            Value::Null,
            "cpu: <unknown>/100m",
        ),
        // container resource source type, targetVal
        (
            metric(
                "ContainerResource",
                "containerResource",
                json!({"name": "cpu", "target": average}),
            ),
            metric(
                "ContainerResource",
                "containerResource",
                json!({"name": "cpu", "container": "application",
                "current": {"averageValue": "50m"}}),
            ),
            "cpu: 50m/100m",
        ),
        // container resource source type, targetUtil (no current)
        (
            metric(
                "ContainerResource",
                "containerResource",
                json!({"name": "cpu", "container": "application",
            "target": utilization}),
            ),
            Value::Null,
            "cpu: <unknown>/80%",
        ),
        // container resource source type, targetUtil
        (
            metric(
                "ContainerResource",
                "containerResource",
                json!({"name": "cpu", "target": utilization}),
            ),
            metric(
                "ContainerResource",
                "containerResource",
                json!({"name": "cpu", "container": "application",
                "current": {"averageUtilization": 50, "averageValue": "40m"}}),
            ),
            "cpu: 50%/80%",
        ),
        // multiple specs
        (
            json!([{"type": "Pods", "pods": {"metric": {"name": "some-pods-metric"}, "target": average}},
                {"type": "Resource", "resource": {"name": "cpu", "target": utilization}},
                {"type": "Pods", "pods": {"metric": {"name": "other-pods-metric"},
                    "target": {"type": "AverageValue", "averageValue": "400m"}}}]),
            json!([{"type": "Pods", "pods": {"metric": {"name": "some-pods-metric"}, "current": {"averageValue": "50m"}}},
                   {"type": "Resource", "resource": {"name": "cpu",
                       "current": {"averageUtilization": 50, "averageValue": "40m"}}}]),
            "50m/100m, cpu: 50%/80% + 1 more...",
        ),
        // Not upstream's: a target without a utilization, a status
        // without a value (Go's nil *Quantity prints <nil>), an unknown
        // type, a quantity in a form that is not canonical.
        (
            metric(
                "Resource",
                "resource",
                json!({"name": "memory", "target": {"type": "Utilization"}}),
            ),
            Value::Null,
            "memory: <unknown>/<auto>",
        ),
        (
            external(value.clone()),
            external_status(json!({})),
            "<nil>/100m",
        ),
        (json!([{"type": "Weather"}]), Value::Null, "<unknown type>"),
        (
            external(json!({"type": "Value", "value": "1500m"})),
            Value::Null,
            "<unknown>/1500m",
        ),
        (
            external(json!({"type": "Value", "value": "2000m"})),
            Value::Null,
            "<unknown>/2",
        ),
    ];
    for (metrics, current, targets) in cases {
        assert_eq!(
            hpa(Some(2), metrics.clone(), current),
            row(targets, "2"),
            "{metrics}"
        );
    }
}

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

/// LimitRanges: the default table convertor's row (k8s.io/apiserver
/// `pkg/registry/rest/table.go`; its test is `TestGetTable` in
/// `pkg/endpoints/apiserver_test.go`: `now.Time.UTC().Format(time.RFC3339)`).
#[test]
fn custom_resource_definitions_have_the_default_table() {
    let (columns, _) = table("apiextensions.k8s.io", "customresourcedefinitions").expect("a table");
    let names: Vec<(&str, &str)> = columns
        .iter()
        .map(|c| (c.name.as_str(), c.type_.as_str()))
        .collect();
    assert_eq!(names, [("Name", "string"), ("Created At", "date")]);
}

#[test]
fn limit_range_default_table() {
    let (columns, _) = table("", "limitranges").expect("a table");
    let names: Vec<(&str, &str)> = columns
        .iter()
        .map(|c| (c.name.as_str(), c.type_.as_str()))
        .collect();
    assert_eq!(names, [("Name", "string"), ("Created At", "date")]);
    let range =
        json!({"metadata": {"name": "limits", "creationTimestamp": "2026-05-30T14:00:00.5+02:00"}});
    assert_eq!(
        cells("", "limitranges", &range),
        json!(["limits", "2026-05-30T12:00:00Z"])
    );
    assert_eq!(
        cells("", "limitranges", &json!({"metadata": {"name": "new"}})),
        json!(["new", "0001-01-01T00:00:00Z"])
    );
}

/// Every built-in kind the server serves (`crate::builtin::KINDS`) has a
/// table, with a cell per column for any object; and every table is of a
/// served kind. (LimitRanges, without a printer upstream, have the
/// default convertor's table, so no kind is left out.)
#[cfg(feature = "k8s-openapi")]
#[test]
fn every_served_builtin_kind_has_a_table() {
    use crate::table::TableConvertor;

    for kind in crate::builtin::KINDS {
        let convertor = TableConvertor::builtin(kind.group, kind.plural)
            .unwrap_or_else(|| panic!("{}/{} has no table", kind.group, kind.plural));
        let columns = convertor.column_definitions().len();
        let named = json!({"metadata": {"name": "x", "creationTimestamp": soon()}});
        for object in odd_objects().iter().chain([&named]) {
            assert_eq!(
                convertor.cells(object, now()).len(),
                columns,
                "{}/{}: {object}",
                kind.group,
                kind.plural
            );
        }
    }
    for table in TABLES {
        // CRDs are served by `ServerBuilder::with_custom_resource_definitions`.
        assert!(
            table.group == "apiextensions.k8s.io"
                || crate::builtin::KINDS
                    .iter()
                    .any(|k| k.group == table.group && k.plural == table.plural),
            "{}/{} is not served",
            table.group,
            table.plural
        );
    }
}

/// Pods' and Deployments' columns are upstream's `podColumnDefinitions`
/// and `deploymentColumnDefinitions` (less the pods' NOMINATED NODE and
/// READINESS GATES), types and SwaggerDoc descriptions included.
#[test]
fn pod_and_deployment_columns_are_upstreams() {
    let (pods, _) = table("", "pods").expect("a table");
    assert_eq!(
        pods[5].description,
        "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated."
    );
    assert!(
        pods[6]
            .description
            .starts_with("NodeName indicates in which node this pod is scheduled.")
    );
    let (deployments, _) = table("apps", "deployments").expect("a table");
    let types: Vec<&str> = deployments.iter().map(|c| c.type_.as_str()).collect();
    assert_eq!(types, ["string"; 8]);
    assert_eq!(
        deployments[2].description,
        "Total number of non-terminating pods targeted by this deployment that have the desired template spec."
    );
}

/// Field names the printers read, so that arbitrary objects reach them.
const FIELDS: &[&str] = &[
    "metadata",
    "name",
    "namespace",
    "creationTimestamp",
    "deletionTimestamp",
    "labels",
    "annotations",
    "ownerReferences",
    "controller",
    "apiVersion",
    "kind",
    "spec",
    "status",
    "template",
    "jobTemplate",
    "containers",
    "image",
    "selector",
    "matchLabels",
    "matchExpressions",
    "key",
    "operator",
    "values",
    "replicas",
    "readyReplicas",
    "updatedReplicas",
    "availableReplicas",
    "conditions",
    "type",
    "reason",
    "message",
    "note",
    "series",
    "count",
    "lastObservedTime",
    "eventTime",
    "firstTimestamp",
    "lastTimestamp",
    "involvedObject",
    "regarding",
    "fieldPath",
    "source",
    "deprecatedSource",
    "component",
    "host",
    "addresses",
    "address",
    "ip",
    "hostname",
    "ports",
    "port",
    "nodePort",
    "protocol",
    "subsets",
    "endpoints",
    "data",
    "binaryData",
    "stringData",
    "secrets",
    "capacity",
    "storage",
    "accessModes",
    "claimRef",
    "volumeMode",
    "storageClassName",
    "phase",
    "hard",
    "used",
    "clusterIPs",
    "externalIPs",
    "externalName",
    "loadBalancer",
    "ingress",
    "nodeInfo",
    "unschedulable",
    "completions",
    "parallelism",
    "succeeded",
    "startTime",
    "completionTime",
    "suspend",
    "active",
    "lastScheduleTime",
    "timeZone",
    "schedule",
    "rules",
    "tls",
    "ingressClassName",
    "parameters",
    "apiGroup",
    "podSelector",
    "minAvailable",
    "maxUnavailable",
    "metrics",
    "currentMetrics",
    "external",
    "object",
    "pods",
    "resource",
    "containerResource",
    "target",
    "current",
    "value",
    "averageValue",
    "averageUtilization",
    "minReplicas",
    "maxReplicas",
    "scaleTargetRef",
    "tokenRequests",
    "audience",
    "volumeLifecycleModes",
    "drivers",
    "attached",
    "expirationSeconds",
    "certificate",
    "signerName",
    "username",
    "revision",
    "globalDefault",
    "preemptionPolicy",
    "holderIdentity",
    "provisioner",
    "reclaimPolicy",
    "allowVolumeExpansion",
];

/// Arbitrary JSON over the printers' field names, with leaves of every
/// type and of the values printers look for.
fn odd_json() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-1e20f64..1e20).prop_map(Value::from),
        prop::sample::select(vec![
            "",
            "True",
            "Ready",
            "Complete",
            "LoadBalancer",
            "ClusterIP",
            "NodePort",
            "ExternalName",
            "Resource",
            "External",
            "Pods",
            "Object",
            "ContainerResource",
            "ReadWriteOnce",
            "1Gi",
            "100m",
            "1e3",
            "-5",
            "x/y/z",
            "apps/v1",
            "2026-05-30T12:00:00Z",
            "0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
            "node-role.kubernetes.io/",
            "limits.cpu",
            "In",
            "NotIn",
            "Exists",
            "::1",
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(8, 96, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(prop::sample::select(FIELDS.to_vec()), inner, 0..5)
                .prop_map(|m| Value::Object(
                    m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
                )),
        ]
    })
}

/// The JSON pointers the printers read, found in their source
/// (their string literals that look like one).
fn pointers() -> Vec<&'static str> {
    let mut pointers: Vec<&str> = concat!(
        include_str!("printers/mod.rs"),
        include_str!("printers/core.rs"),
        include_str!("printers/workloads.rs"),
        include_str!("printers/networking.rs"),
        include_str!("printers/storage.rs"),
        include_str!("printers/cluster.rs"),
    )
    .split('"')
    .filter(|s| {
        s.len() > 1
            && s.starts_with('/')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '/')
    })
    .collect();
    pointers.sort_unstable();
    pointers.dedup();
    pointers
}

/// An object with odd values at the places the printers read.
fn odd_object() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    prop::collection::vec((prop::sample::select(pointers()), odd_json()), 0..12).prop_map(
        |entries| {
            let mut object = json!({});
            for (pointer, value) in entries {
                let mut at = &mut object;
                for segment in pointer.trim_start_matches('/').split('/') {
                    if !at.is_object() {
                        *at = json!({});
                    }
                    at = at
                        .as_object_mut()
                        .map(|map| map.entry(segment).or_insert(Value::Null))
                        .expect("made an object above");
                }
                *at = value;
            }
            object
        },
    )
}

proptest::proptest! {
    /// No printer panics on odd JSON, and every row has a cell per column.
    #[test]
    fn printers_never_panic(object in odd_json()) {
        for kind in TABLES {
            let cells = (kind.printer)(&object, now());
            proptest::prop_assert_eq!(cells.len(), kind.columns.len(), "{}", kind.plural);
        }
    }

    /// Nor on odd values where they look.
    #[test]
    fn printers_never_panic_on_odd_fields(object in odd_object()) {
        for kind in TABLES {
            let cells = (kind.printer)(&object, now());
            proptest::prop_assert_eq!(cells.len(), kind.columns.len(), "{}", kind.plural);
        }
    }
}

#[test]
fn pointers_are_found() {
    let pointers = pointers();
    for pointer in [
        "/metadata/name",
        "/spec/template/spec/containers",
        "/status/loadBalancer/ingress",
    ] {
        assert!(pointers.contains(&pointer), "{pointer}");
    }
}
