//! Tables of events.k8s.io Events, Leases, Ingresses, IngressClasses,
//! NetworkPolicies, PodDisruptionBudgets, EndpointSlices and
//! HorizontalPodAutoscalers.

use super::*;

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
