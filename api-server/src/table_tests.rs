//! Translated from apiextensions-apiserver
//! `pkg/registry/customresource/tableconvertor/tableconvertor_test.go`
//! (`Test_cellForJSONValue`, `Test_convertor_ConvertToTable`) and
//! apimachinery `pkg/util/duration/duration_test.go` (`TestHumanDuration`).

use api_core::crd::CustomResourceDefinitionVersion;
use chrono::{TimeDelta, TimeZone};
use serde_json::json;

use super::*;

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 6, 1, 12, 0, 0).unwrap()
}

fn column(name: &str, type_: &str, path: &str) -> CustomResourceColumnDefinition {
    CustomResourceColumnDefinition {
        name: name.into(),
        type_: type_.into(),
        json_path: path.into(),
        ..Default::default()
    }
}

/// `Test_cellForJSONValue` (upstream's float 3.14 is 2.71 here, which
/// clippy does not take for an approximate PI).
#[test]
fn cell_for_json_value_table() {
    let hours_ago = (now() - TimeDelta::hours(12) - TimeDelta::minutes(30))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let ahead = (now() + TimeDelta::hours(12) + TimeDelta::minutes(30))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let cases = [
        ("integer", json!(42), json!(42)),
        ("integer", json!(2.71), json!(2)),
        ("integer", json!(true), Value::Null),
        ("integer", json!("foo"), Value::Null),
        ("number", json!(42), json!(42)),
        ("number", json!(2.71), json!(2.71)),
        ("number", json!(true), Value::Null),
        ("number", json!("foo"), Value::Null),
        ("boolean", json!(42), Value::Null),
        ("boolean", json!(2.71), Value::Null),
        ("boolean", json!(true), json!(true)),
        ("boolean", json!("foo"), Value::Null),
        ("string", json!(42), Value::Null),
        ("string", json!(2.71), Value::Null),
        ("string", json!(true), Value::Null),
        ("string", json!("foo"), json!("foo")),
        ("date", json!(42), Value::Null),
        ("date", json!(2.71), Value::Null),
        ("date", json!(true), Value::Null),
        ("date", json!(hours_ago), json!("12h")),
        ("date", json!(ahead), json!("<invalid>")),
        ("date", json!(""), json!("<unknown>")),
        ("unknown", json!("foo"), Value::Null),
    ];
    for (type_, value, want) in cases {
        assert_eq!(
            cell_for_json_value(type_, &value, now()),
            want,
            "{value} as {type_}"
        );
    }
    // Not in the upstream table: `null`, a malformed date, a whole float.
    assert_eq!(
        cell_for_json_value("integer", &Value::Null, now()),
        Value::Null
    );
    assert_eq!(
        cell_for_json_value("date", &json!("yesterday"), now()),
        json!("<invalid>")
    );
    assert_eq!(
        cell_for_json_value("date", &json!("null"), now()),
        json!("<unknown>")
    );
    assert_eq!(
        serde_json::to_string(&cell_for_json_value("number", &json!(2.0), now())).unwrap(),
        "2"
    );
}

/// `TestHumanDuration`.
#[test]
fn human_duration_table() {
    const MS: i64 = 1_000_000;
    const S: i64 = 1000 * MS;
    const M: i64 = 60 * S;
    const H: i64 = 60 * M;
    let cases: &[(i64, &str)] = &[
        (S, "1s"),
        (70 * S, "70s"),
        (190 * S, "3m10s"),
        (70 * M, "70m"),
        (47 * H, "47h"),
        (49 * H, "2d1h"),
        ((8 * 24 + 2) * H, "8d"),
        ((367 * 24) * H, "367d"),
        ((365 * 2 * 24 + 25) * H, "2y1d"),
        ((365 * 8 * 24 + 2) * H, "8y"),
        (-2 * S, "<invalid>"),
        (-2 * S + 1, "0s"),
        (0, "0s"),
        (S - MS, "0s"),
        (2 * M - MS, "119s"),
        (2 * M, "2m"),
        (2 * M + S, "2m1s"),
        (10 * M - MS, "9m59s"),
        (10 * M, "10m"),
        (10 * M + S, "10m"),
        (3 * H - MS, "179m"),
        (3 * H, "3h"),
        (3 * H + M, "3h1m"),
        (8 * H - MS, "7h59m"),
        (8 * H, "8h"),
        (8 * H + 59 * M, "8h"),
        (2 * 24 * H - MS, "47h"),
        (2 * 24 * H, "2d"),
        (2 * 24 * H + H, "2d1h"),
        (8 * 24 * H - MS, "7d23h"),
        (8 * 24 * H, "8d"),
        (8 * 24 * H + 23 * H, "8d"),
        (2 * 365 * 24 * H - MS, "729d"),
        (2 * 365 * 24 * H, "2y"),
        (2 * 365 * 24 * H + 23 * H, "2y"),
        (2 * 365 * 24 * H + 23 * H + 59 * M, "2y"),
        (2 * 365 * 24 * H + 24 * H - MS, "2y"),
        (2 * 365 * 24 * H + 24 * H, "2y1d"),
        (3 * 365 * 24 * H, "3y"),
        (4 * 365 * 24 * H, "4y"),
        (5 * 365 * 24 * H, "5y"),
        (6 * 365 * 24 * H, "6y"),
        (7 * 365 * 24 * H, "7y"),
        (8 * 365 * 24 * H - MS, "7y364d"),
        (8 * 365 * 24 * H, "8y"),
        (8 * 365 * 24 * H + 364 * 24 * H, "8y"),
        (9 * 365 * 24 * H, "9y"),
    ];
    for &(nanos, want) in cases {
        assert_eq!(
            human_duration(TimeDelta::nanoseconds(nanos)),
            want,
            "{nanos}ns"
        );
    }
}

fn blah_list_object() -> Value {
    json!({
        "apiVersion": "example.istio.io/v1alpha1",
        "kind": "Blah",
        "metadata": {"name": "blah"},
        "spec": {"servers": [{"hosts": ["foo"]}, {"hosts": ["bar", "baz"]}]}
    })
}

fn blah_int_object() -> Value {
    json!({
        "apiVersion": "example.istio.io/v1alpha1",
        "kind": "Blah",
        "metadata": {"name": "blah"},
        "spec": {"foo": [{"bar": [1]}, {"bar": [2, 3]}]}
    })
}

/// `Test_convertor_ConvertToTable`: "Return table for object", "Return
/// table for list", "Accept TableOptions", "Omit headers from TableOptions".
#[test]
fn object_list_and_no_headers() {
    let (convertor, error) = TableConvertor::new(&[]);
    assert!(error.is_none());
    let obj = json!({"metadata": {"name": "blah", "creationTimestamp": "1970-01-01T00:00:01Z"}});
    let table = convertor.convert_object(&obj, &TableOptions::default(), now());
    assert_eq!(table.column_definitions.as_ref().unwrap().len(), 1);
    assert_eq!(table.rows.len(), 1);
    assert_eq!(table.rows[0].cells, vec![json!("blah")]);
    assert_eq!(
        table.rows[0].object,
        json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
               "metadata": {"name": "blah", "creationTimestamp": "1970-01-01T00:00:01Z"}})
    );

    let items = [
        obj.clone(),
        json!({"metadata": {"name": "blah-2", "creationTimestamp": "1970-01-01T00:00:02Z"}}),
    ];
    let table =
        convertor.convert_list(&items, ListMeta::default(), &TableOptions::default(), now());
    let names: Vec<_> = table.rows.iter().map(|r| r.cells.clone()).collect();
    assert_eq!(names, vec![vec![json!("blah")], vec![json!("blah-2")]]);

    let no_headers = TableOptions {
        no_headers: true,
        ..Default::default()
    };
    let table = convertor.convert_object(&obj, &no_headers, now());
    assert_eq!(table.column_definitions, None);
    assert_eq!(table.rows[0].cells, vec![json!("blah")]);
    let text = serde_json::to_string(&table).unwrap();
    assert!(text.contains(r#""columnDefinitions":null"#), "{text}");
}

/// "Return table with additional column containing multiple string values".
#[test]
fn multiple_string_values() {
    let (convertor, _) = TableConvertor::new(&[
        column("valueOnly", "string", ".spec.servers[0].hosts[0]"),
        column("single1", "string", ".spec.servers[0].hosts"),
        column("single2", "string", ".spec.servers[1].hosts"),
        column("multi", "string", ".spec.servers[*].hosts"),
    ]);
    assert_eq!(
        convertor.cells(&blah_list_object(), now()),
        // Upstream's TODO: `multi` shows only the first result.
        vec![
            json!("blah"),
            json!("foo"),
            json!(r#"["foo"]"#),
            json!(r#"["bar","baz"]"#),
            json!(r#"["foo"]"#)
        ]
    );
}

/// "Return table with additional column containing multiple integer values as string".
#[test]
fn multiple_integer_values_as_string() {
    let (convertor, _) = TableConvertor::new(&[
        column("valueOnly", "string", ".spec.foo[0].bar[0]"),
        column("single1", "string", ".spec.foo[0].bar"),
        column("single2", "string", ".spec.foo[1].bar"),
        column("multi", "string", ".spec.foo[*].bar"),
    ]);
    assert_eq!(
        convertor.cells(&blah_int_object(), now()),
        vec![
            json!("blah"),
            json!("1"),
            json!("[1]"),
            json!("[2,3]"),
            json!("[1]")
        ]
    );
}

/// "Return table with additional column containing multiple integer values".
#[test]
fn multiple_integer_values() {
    let (convertor, _) = TableConvertor::new(&[
        column("valueOnly", "integer", ".spec.foo[0].bar[0]"),
        column("single1", "integer", ".spec.foo[0].bar"),
        column("single2", "integer", ".spec.foo[1].bar"),
        column("multi", "integer", ".spec.foo[*].bar"),
    ]);
    assert_eq!(
        convertor.cells(&blah_int_object(), now()),
        vec![
            json!("blah"),
            json!(1),
            Value::Null,
            Value::Null,
            Value::Null
        ]
    );
}

#[test]
fn headers_from_printer_columns() {
    let (convertor, error) = TableConvertor::new(&[
        CustomResourceColumnDefinition {
            name: "Ready".into(),
            type_: "string".into(),
            json_path: r#".status.conditions[?(@.type=="Ready")].status"#.into(),
            ..Default::default()
        },
        CustomResourceColumnDefinition {
            name: "Replicas".into(),
            type_: "integer".into(),
            format: Some("int32".into()),
            description: Some("Desired replicas.".into()),
            priority: 1,
            json_path: ".spec.replicas".into(),
        },
    ]);
    assert!(error.is_none());
    assert_eq!(
        serde_json::to_value(convertor.column_definitions()).unwrap(),
        json!([
            {"name": "Name", "type": "string", "format": "name", "description": NAME_DESCRIPTION, "priority": 0},
            {"name": "Ready", "type": "string", "format": "",
             "description": "Custom resource definition column (in JSONPath format): .status.conditions[?(@.type==\"Ready\")].status",
             "priority": 0},
            {"name": "Replicas", "type": "integer", "format": "int32", "description": "Desired replicas.", "priority": 1}
        ])
    );
    let obj = json!({
        "metadata": {"name": "w"},
        "spec": {"replicas": 2},
        "status": {"conditions": [{"type": "Ready", "status": "True"}]}
    });
    assert_eq!(
        convertor.cells(&obj, now()),
        vec![json!("w"), json!("True"), json!(2)]
    );
    // Missing values are null cells.
    assert_eq!(
        convertor.cells(&json!({"metadata": {"name": "x"}}), now()),
        vec![json!("x"), Value::Null, Value::Null]
    );
}

#[test]
fn string_cells_print_like_client_go() {
    let (convertor, _) = TableConvertor::new(&[
        column("B", "string", ".b"),
        column("F", "string", ".f"),
        column("N", "string", ".n"),
        column("O", "string", ".o"),
    ]);
    let obj = json!({"metadata": {"name": "x"}, "b": true, "f": 2.5, "n": null, "o": {"k": "<v>"}});
    assert_eq!(
        convertor.cells(&obj, now()),
        vec![
            json!("x"),
            json!("true"),
            json!("2.5"),
            json!("<no value>"),
            json!(r#"{"k":"\u003cv\u003e"}"#)
        ]
    );
}

#[test]
fn bad_column_path_keeps_the_columns_before_it() {
    let (convertor, error) = TableConvertor::new(&[
        column("A", "string", ".a"),
        column("Bad", "string", ".b[x]"),
        column("C", "string", ".c"),
    ]);
    let error = error.unwrap();
    assert_eq!(
        error.to_string(),
        r#"unrecognized column definition ".b[x]""#
    );
    let names: Vec<_> = convertor
        .column_definitions()
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, ["Name", "A"]);
    assert_eq!(
        convertor.cells(&json!({"a": "1"}), now()),
        vec![json!(""), json!("1")]
    );
}

#[test]
fn default_age_column() {
    let mut crd = CustomResourceDefinition::default();
    crd.spec.versions = vec![
        CustomResourceDefinitionVersion::new("v1", true, true),
        CustomResourceDefinitionVersion {
            additional_printer_columns: vec![column("Size", "integer", ".spec.size")],
            ..CustomResourceDefinitionVersion::new("v2", true, false)
        },
    ];
    let (v1, _) = TableConvertor::for_version(&crd, "v1").unwrap();
    assert_eq!(
        serde_json::to_value(&v1.column_definitions()[1]).unwrap(),
        json!({"name": "Age", "type": "date", "format": "", "description": CREATION_TIMESTAMP_DESCRIPTION, "priority": 0})
    );
    let obj = json!({"metadata": {"name": "a", "creationTimestamp": "2026-06-01T11:00:00Z"}});
    assert_eq!(v1.cells(&obj, now()), vec![json!("a"), json!("60m")]);
    let (v2, _) = TableConvertor::for_version(&crd, "v2").unwrap();
    let names: Vec<_> = v2
        .column_definitions()
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, ["Name", "Size"]);
    assert!(TableConvertor::for_version(&crd, "v3").is_none());
}

#[test]
fn include_object_and_list_metadata() {
    let (convertor, _) = TableConvertor::new(&[]);
    let obj = json!({"apiVersion": "example.com/v1", "kind": "Widget",
                     "metadata": {"name": "a", "resourceVersion": "5"}, "spec": {}});
    let meta = ListMeta {
        resource_version: "10".into(),
        continue_: "token".into(),
        remaining_item_count: Some(3),
        ..Default::default()
    };
    let none = TableOptions {
        include_object: IncludeObject::None,
        ..Default::default()
    };
    let table = convertor.convert_list(std::slice::from_ref(&obj), meta, &none, now());
    assert_eq!(
        serde_json::to_string(&table).unwrap(),
        format!(
            r#"{{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{{"resourceVersion":"10","continue":"token","remainingItemCount":3}},"columnDefinitions":[{{"name":"Name","type":"string","format":"name","description":{},"priority":0}}],"rows":[{{"cells":["a"],"object":null}}]}}"#,
            serde_json::to_string(NAME_DESCRIPTION).unwrap()
        )
    );
    let whole = TableOptions {
        include_object: IncludeObject::Object,
        version: TableVersion::V1beta1,
        ..Default::default()
    };
    let table = convertor.convert_object(&obj, &whole, now());
    assert_eq!(table.api_version, "meta.k8s.io/v1beta1");
    assert_eq!(table.rows[0].object, obj);
    assert_eq!(table.metadata.resource_version, "5");
    let meta_only = convertor.convert_object(
        &obj,
        &TableOptions {
            version: TableVersion::V1beta1,
            ..Default::default()
        },
        now(),
    );
    assert_eq!(
        meta_only.rows[0].object["apiVersion"],
        "meta.k8s.io/v1beta1"
    );
    let empty = convertor.convert_list(&[], ListMeta::default(), &TableOptions::default(), now());
    let empty = serde_json::to_value(&empty).unwrap();
    assert_eq!(empty["metadata"], json!({}));
    assert_eq!(empty["rows"], json!([]));
    assert_eq!(IncludeObject::from_query(""), Some(IncludeObject::Metadata));
    assert_eq!(IncludeObject::from_query("None"), Some(IncludeObject::None));
    assert_eq!(
        IncludeObject::from_query("Object"),
        Some(IncludeObject::Object)
    );
    assert_eq!(IncludeObject::from_query("All"), None);
}

#[test]
fn namespace_table() {
    let convertor = TableConvertor::namespaces();
    let names: Vec<_> = convertor
        .column_definitions()
        .iter()
        .map(|c| (c.name.as_str(), c.type_.as_str()))
        .collect();
    assert_eq!(
        names,
        [("Name", "string"), ("Status", "string"), ("Age", "string")]
    );
    assert_eq!(
        convertor.column_definitions()[2].description,
        CREATION_TIMESTAMP_DESCRIPTION
    );
    let ns = json!({"apiVersion": "v1", "kind": "Namespace",
                    "metadata": {"name": "default", "creationTimestamp": "2026-05-30T12:00:00Z", "resourceVersion": "3"},
                    "status": {"phase": "Active"}});
    assert_eq!(
        convertor.cells(&ns, now()),
        vec![json!("default"), json!("Active"), json!("2d")]
    );
    assert_eq!(
        convertor.cells(&json!({"metadata": {"name": "new"}}), now()),
        vec![json!("new"), json!(""), json!("<unknown>")]
    );
    let table = convertor.convert_object(&ns, &TableOptions::default(), now());
    assert_eq!(table.metadata.resource_version, "3");
    assert_eq!(table.rows[0].object["kind"], "PartialObjectMetadata");
}

// The rows of kubernetes `pkg/printers/internalversion/printers_test.go`'s
// `TestPrintPod` and `TestPrintDeployment` that a store without a kubelet
// can hold (no readiness gates, no restart times).
#[test]
fn pod_table() {
    let convertor = TableConvertor::builtin("", "pods").expect("pods have a table");
    let names: Vec<_> = convertor
        .column_definitions()
        .iter()
        .map(|c| (c.name.as_str(), c.priority))
        .collect();
    assert_eq!(
        names,
        [
            ("Name", 0),
            ("Ready", 0),
            ("Status", 0),
            ("Restarts", 0),
            ("Age", 0),
            ("IP", 1),
            ("Node", 1)
        ]
    );
    let pod = json!({"metadata": {"name": "test1", "creationTimestamp": "2026-05-30T12:00:00Z"},
        "spec": {"containers": [{"name": "a"}, {"name": "b"}], "nodeName": "node1"},
        "status": {"phase": "podPhase", "podIP": "1.1.1.1", "containerStatuses": [
            {"ready": true, "restartCount": 3, "state": {"running": {}}},
            {"restartCount": 3}]}});
    assert_eq!(
        convertor.cells(&pod, now()),
        [
            json!("test1"),
            json!("1/2"),
            json!("podPhase"),
            json!("6"),
            json!("2d"),
            json!("1.1.1.1"),
            json!("node1")
        ]
    );
    let waiting = json!({"metadata": {"name": "test2"}, "spec": {"containers": [{"name": "a"}]},
        "status": {"phase": "Pending", "containerStatuses": [
            {"restartCount": 0, "state": {"waiting": {"reason": "ContainerWaitingReason"}}}]}});
    assert_eq!(
        convertor.cells(&waiting, now())[1..4],
        [json!("0/1"), json!("ContainerWaitingReason"), json!("0")]
    );
    let deleted = json!({"metadata": {"name": "t", "deletionTimestamp": "2026-06-01T12:00:00Z"},
        "spec": {"containers": []}, "status": {"phase": "Running"}});
    assert_eq!(convertor.cells(&deleted, now())[2], json!("Terminating"));
    assert_eq!(convertor.cells(&deleted, now())[5], json!("<none>"));
}

#[test]
fn deployment_table() {
    let convertor = TableConvertor::builtin("apps", "deployments").expect("a table");
    let names: Vec<_> = convertor
        .column_definitions()
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "Name",
            "Ready",
            "Up-to-date",
            "Available",
            "Age",
            "Containers",
            "Images",
            "Selector"
        ]
    );
    let deployment = json!({"metadata": {"name": "test1", "creationTimestamp": "2026-05-30T12:00:00Z"},
        "spec": {"replicas": 5, "selector": {"matchLabels": {"foo": "bar"}},
                 "template": {"spec": {"containers": [
                     {"name": "fake-container1", "image": "fake-image1"},
                     {"name": "fake-container2", "image": "fake-image2"}]}}},
        "status": {"replicas": 10, "updatedReplicas": 2, "availableReplicas": 1, "readyReplicas": 1}});
    assert_eq!(
        convertor.cells(&deployment, now()),
        [
            json!("test1"),
            json!("1/5"),
            json!(2),
            json!(1),
            json!("2d"),
            json!("fake-container1,fake-container2"),
            json!("fake-image1,fake-image2"),
            json!("foo=bar")
        ]
    );
    // ReplicaSets have a table now; a custom resource has none.
    assert!(TableConvertor::builtin("example.com", "widgets").is_none());
}
