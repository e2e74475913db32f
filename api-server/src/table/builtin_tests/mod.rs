//! The built-in kinds' tables: every entry's columns and rows.

use chrono::{DateTime, TimeDelta, TimeZone, Utc};
use serde_json::{Value, json};

use super::*;

mod core_objects;
mod core_storage_and_config;
mod networking_and_policy;
mod storage_and_cluster;
mod workloads;

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
    for kind in TABLES.iter() {
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
    for table in TABLES.iter() {
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
        include_str!("../printers/mod.rs"),
        include_str!("../printers/core.rs"),
        include_str!("../printers/workloads.rs"),
        include_str!("../printers/networking.rs"),
        include_str!("../printers/storage.rs"),
        include_str!("../printers/cluster.rs"),
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
        for kind in TABLES.iter() {
            let cells = (kind.printer)(&object, now());
            proptest::prop_assert_eq!(cells.len(), kind.columns.len(), "{}", kind.plural);
        }
    }

    /// Nor on odd values where they look.
    #[test]
    fn printers_never_panic_on_odd_fields(object in odd_object()) {
        for kind in TABLES.iter() {
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
