//! core/v1 kinds' tables: Events, Secrets, ServiceAccounts, Nodes,
//! Services, PodTemplates, ReplicationControllers.

use super::*;

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
