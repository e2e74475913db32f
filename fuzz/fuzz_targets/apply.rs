#![no_main]
//! Server-side apply (`api_core::apply`, issue 17) on arbitrary input: a
//! live object with its managedFields, an apply configuration, and the
//! writer, from bytes.
//!
//! The first byte chooses the schema (`% 3`), the mode (`/ 3 % 2`), the
//! manager, the subresource and `force` (higher bits). Mode 0: the rest is
//! three JSON documents separated by NUL bytes (object, configuration,
//! managedFields), each falling back to `null`, `{}` and `[]` when it does
//! not parse. Mode 1: the three values are built from the bytes (small
//! alphabets of keys and strings the schemas and FieldsV1 use), so that
//! coverage grows without valid JSON.
//!
//! Must hold: no panic; `FieldManager::apply` and `update` give either a
//! `Status` with a 4xx/5xx code or an object whose `metadata.managedFields`
//! decodes (operation Apply/Update, an apiVersion, FieldsV1 that
//! `Set::from_fields_v1` reads and `to_fields_v1` writes back the same), is
//! sorted as the apiserver sorts it, has one entry per manager identifier
//! and no empty entry. Any FieldsV1 that reads is a fixed point of
//! `to_fields_v1` / `from_fields_v1`.

use std::sync::LazyLock;

use api_core::apply::{FieldManager, Schema, Set, Writer, resource_schema};
use api_core::{ManagedFieldsEntry, Time};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

static SCHEMAS: LazyLock<[Schema; 3]> = LazyLock::new(|| {
    let string = json!({"type": "string"});
    // The property tests' schema (api-core-tests/tests/apply_properties.rs).
    let widget = json!({"type": "object", "properties": {
        "apiVersion": string, "kind": string, "metadata": {"type": "object"},
        "spec": {"type": "object", "properties": {
            "replicas": {"type": "integer"}, "mode": string, "enabled": {"type": "boolean"},
            "labels": {"type": "object", "additionalProperties": string},
            "selector": {"type": "object", "x-kubernetes-map-type": "atomic", "additionalProperties": string},
            "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": string},
            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                      "items": {"type": "object", "properties": {
                          "name": string, "port": {"type": "integer"}, "protocol": string,
                          "options": {"type": "object", "properties": {"a": string, "b": {"type": "integer"}}}}}},
            "args": {"type": "array", "x-kubernetes-list-type": "atomic", "items": string},
            "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}});
    // Everything kept: deduced all the way down.
    let open = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true});
    // Two-key list-maps nested in a list-map, a defaulted key, a set of
    // integers, an int-or-string, and a status.
    let nested = json!({"type": "object", "properties": {
        "apiVersion": string, "kind": string, "metadata": {"type": "object"},
        "spec": {"type": "object", "properties": {
            "containers": {"type": "array", "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "properties": {
                    "name": string,
                    "ports": {"type": "array", "x-kubernetes-list-type": "map",
                        "x-kubernetes-list-map-keys": ["port", "protocol"],
                        "items": {"type": "object", "properties": {
                            "port": {"type": "integer"},
                            "protocol": {"type": "string", "default": "TCP"},
                            "x": {"x-kubernetes-int-or-string": true}}}},
                    "env": {"type": "object", "additionalProperties": {"type": "object",
                        "properties": {"value": string}}}}}},
            "ids": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "integer"}}}},
        "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}}});
    [widget, open, nested].map(|s| resource_schema(&s))
});

const KEYS: &[&str] = &[
    "apiVersion",
    "kind",
    "metadata",
    "spec",
    "status",
    "name",
    "uid",
    "labels",
    "annotations",
    "managedFields",
    "finalizers",
    "ownerReferences",
    "ports",
    "tags",
    "selector",
    "args",
    "extra",
    "port",
    "protocol",
    "options",
    "containers",
    "env",
    "ids",
    "value",
    "a",
    "b",
    "manager",
    "operation",
    "fieldsType",
    "fieldsV1",
    "time",
    "subresource",
    "f:spec",
    "f:ports",
    "f:metadata",
    "f:labels",
    "k:{\"name\":\"a\"}",
    "k:{\"port\":1,\"protocol\":\"TCP\"}",
    "v:\"x\"",
    "v:1",
    "i:0",
    ".",
    "f:a",
    "kubectl.kubernetes.io/last-applied-configuration",
];

const STRINGS: &[&str] = &[
    "a",
    "b",
    "x",
    "",
    "Apply",
    "Update",
    "FieldsV1",
    "example.com/v1",
    "v1",
    "TCP",
    "w",
    "u1",
    "2026-01-01T00:00:00Z",
    "alice",
    "kubectl",
    "status",
    "{\"apiVersion\":\"v1\"}",
];

/// A JSON value from bytes (mode 1).
fn build(bytes: &mut impl Iterator<Item = u8>, depth: u8) -> Value {
    let Some(b) = bytes.next() else {
        return Value::Null;
    };
    let mut next = || bytes.next().unwrap_or(0);
    match b % 9 {
        0 => Value::Null,
        1 => Value::Bool(b & 0x80 != 0),
        2 => json!(i64::from(next() as i8)),
        3 => json!(f64::from(next()) / 4.0),
        4 | 5 => Value::String(STRINGS[usize::from(next()) % STRINGS.len()].into()),
        6 if depth > 0 => {
            let n = usize::from(next() % 4);
            Value::Array((0..n).map(|_| build(bytes, depth - 1)).collect())
        }
        _ if depth > 0 => {
            let n = usize::from(next() % 5);
            let mut m = serde_json::Map::new();
            for _ in 0..n {
                let k = KEYS[usize::from(bytes.next().unwrap_or(0)) % KEYS.len()];
                m.insert(k.into(), build(bytes, depth - 1));
            }
            Value::Object(m)
        }
        _ => Value::String(STRINGS[usize::from(b) % STRINGS.len()].into()),
    }
}

fn check_fields_v1(fields: &Value) {
    if let Ok(set) = Set::from_fields_v1(fields) {
        let written = set.to_fields_v1();
        let back = Set::from_fields_v1(&written).expect("what to_fields_v1 writes reads");
        assert_eq!(back, set, "{fields} -> {written}");
        assert_eq!(back.to_fields_v1(), written);
        let text: Value = serde_json::from_str(&set.to_fields_v1_string()).expect("JSON");
        assert_eq!(text, written);
    }
}

/// The invariants of the managedFields of an object the field manager wrote.
fn check_managed_fields(object: &Value) {
    let Some(raw) = object.pointer("/metadata/managedFields") else {
        return;
    };
    let entries: Vec<ManagedFieldsEntry> =
        serde_json::from_value(raw.clone()).unwrap_or_else(|e| panic!("{e}: {raw}"));
    assert!(!entries.is_empty(), "an empty managedFields is left out");
    let mut ids = std::collections::BTreeSet::new();
    for e in &entries {
        assert!(matches!(e.operation.as_str(), "Apply" | "Update"), "{e:?}");
        assert!(!e.api_version.is_empty(), "{e:?}");
        assert_eq!(e.fields_type, "FieldsV1", "{e:?}");
        let fields = e.fields_v1.as_ref().expect("fieldsV1");
        let set = Set::from_fields_v1(fields).unwrap_or_else(|m| panic!("{m}: {fields}"));
        assert!(!set.is_empty(), "an empty entry: {raw}");
        assert_eq!(&set.to_fields_v1(), fields);
        let version = if e.operation == "Apply" {
            ""
        } else {
            e.api_version.as_str()
        };
        assert!(
            ids.insert((
                e.manager.clone(),
                e.operation.clone(),
                version.to_string(),
                e.subresource.clone()
            )),
            "two entries for one manager: {raw}"
        );
    }
    let key = |e: &ManagedFieldsEntry| {
        (
            e.operation.clone(),
            e.time.map_or(0, |t| t.unix_seconds()),
            e.manager.clone(),
            e.api_version.clone(),
            e.subresource.clone(),
        )
    };
    for pair in entries.windows(2) {
        assert!(key(&pair[0]) <= key(&pair[1]), "not sorted: {raw}");
    }
}

fn check_status(status: &api_core::Status) {
    assert!((400..600).contains(&status.code), "{status:?}");
}

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let schema = &SCHEMAS[usize::from(head % 3)];
    let (mut live, mut config, managed) = if head / 3 % 2 == 0 {
        let mut parts = rest.splitn(3, |b| *b == 0);
        let mut doc = |fallback: Value| {
            parts
                .next()
                .and_then(|p| serde_json::from_slice::<Value>(p).ok())
                .unwrap_or(fallback)
        };
        (doc(Value::Null), doc(json!({})), doc(json!([])))
    } else {
        let mut bytes = rest.iter().copied();
        (
            build(&mut bytes, 5),
            build(&mut bytes, 5),
            build(&mut bytes, 3),
        )
    };
    let manager = ["alice", "kubectl", ""][usize::from(head / 6 % 3)];
    let subresource = if head & 0x40 != 0 { "status" } else { "" };
    let force = head & 0x80 != 0;
    let writer = Writer {
        manager,
        api_version: "example.com/v1",
        subresource,
    };
    // Most configurations name the writer's version (else a 400).
    if head / 18 % 4 != 0
        && let Some(c) = config.as_object_mut()
    {
        c.insert("apiVersion".into(), json!("example.com/v1"));
    }
    if !managed.is_null()
        && let Some(meta) = live.get_mut("metadata").and_then(Value::as_object_mut)
    {
        meta.insert("managedFields".into(), managed.clone());
    }

    // The schema's walks take anything.
    let _ = schema.to_field_set(&live);
    let _ = schema.compare(&live, &config);
    let _ = schema.merge(&live, &config);
    let mut pruned = config.clone();
    let _ = schema.prune_unknown(&mut pruned);
    check_fields_v1(&managed);
    if let Some(entries) = managed.as_array() {
        for e in entries {
            if let Some(f) = e.get("fieldsV1") {
                check_fields_v1(f);
            }
        }
    }

    let now = Time::from_unix_seconds(1_800_000_000).unwrap();
    let fm = FieldManager::new(schema, now);
    match fm.apply(&live, &config, &writer, force) {
        Ok(Some(new)) => check_managed_fields(&new),
        Ok(None) => {}
        Err(status) => check_status(&status),
    }
    // The configuration as the body of an update (create when `live` is
    // null).
    let mut new = config;
    fm.update(&live, &mut new, &writer);
    check_managed_fields(&new);
});
