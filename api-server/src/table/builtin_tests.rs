//! The built-in kinds' tables: every entry's columns and rows.

use chrono::TimeZone;
use serde_json::json;

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
        assert_eq!(
            columns.iter().filter(|c| c.format == "name").count(),
            1,
            "{}: one name column",
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
