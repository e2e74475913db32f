//! Shape check of the server-side apply conformance data in
//! `tests/ssa_cases/*.yaml` (structured-merge-diff's merge tests, translated;
//! see `tests/ssa_cases/README.md`). It only checks that every file parses
//! and follows the documented format, so that the runner can rely on it.

use serde_json::{Map, Value};
use std::path::Path;

/// The number of translated cases over all files.
const TOTAL_CASES: usize = 102;

const OPS: [&str; 4] = ["apply", "force_apply", "update", "extract_apply"];
const CASE_KEYS: [&str; 7] = [
    "name", "test", "schema", "deduced", "ops", "object", "managed",
];
const OP_KEYS: [&str; 5] = ["op", "manager", "apiVersion", "object", "conflicts"];

fn obj<'a>(v: &'a Value, what: &str) -> &'a Map<String, Value> {
    v.as_object()
        .unwrap_or_else(|| panic!("{what}: expected a mapping, got {v}"))
}

fn string<'a>(m: &'a Map<String, Value>, key: &str, what: &str) -> &'a str {
    m.get(key)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{what}: `{key}` must be a string"))
}

fn check_path(p: &Value, what: &str) {
    let elems = p
        .as_array()
        .unwrap_or_else(|| panic!("{what}: a path must be a sequence, got {p}"));
    assert!(!elems.is_empty(), "{what}: empty path");
    for e in elems {
        match e {
            Value::String(_) => {}
            Value::Object(m) => {
                assert_eq!(m.len(), 1, "{what}: path element {e} must have one key");
                let (k, v) = m.iter().next().expect("one key");
                match k.as_str() {
                    "k" => assert!(
                        v.as_object().is_some_and(|kv| !kv.is_empty()),
                        "{what}: `k` must be a non-empty mapping in {e}"
                    ),
                    "v" => {}
                    "i" => assert!(v.is_u64(), "{what}: `i` must be an index in {e}"),
                    _ => panic!("{what}: unknown path element key `{k}` in {e}"),
                }
            }
            _ => panic!("{what}: path element {e} is neither a field name nor k/v/i"),
        }
    }
}

fn check_case(case: &Value, schemas: &Map<String, Value>, file: &str) -> String {
    let c = obj(case, file);
    let name = string(c, "name", file).to_owned();
    let what = format!("{file}: {name}");
    for k in c.keys() {
        assert!(CASE_KEYS.contains(&k.as_str()), "{what}: unknown key `{k}`");
    }
    string(c, "test", &what);
    let schema = string(c, "schema", &what);
    assert!(schemas.contains_key(schema), "{what}: no schema `{schema}`");
    if let Some(d) = c.get("deduced") {
        assert_eq!(d, &Value::Bool(true), "{what}: `deduced` is only ever true");
    }
    let ops = c
        .get("ops")
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{what}: `ops` must be a sequence"));
    assert!(!ops.is_empty(), "{what}: no ops");
    for (i, op) in ops.iter().enumerate() {
        let what = format!("{what}: op {i}");
        let o = obj(op, &what);
        for k in o.keys() {
            assert!(OP_KEYS.contains(&k.as_str()), "{what}: unknown key `{k}`");
        }
        let kind = string(o, "op", &what);
        assert!(OPS.contains(&kind), "{what}: unknown op `{kind}`");
        string(o, "manager", &what);
        string(o, "apiVersion", &what);
        assert!(o.contains_key("object"), "{what}: no `object`");
        if let Some(conflicts) = o.get("conflicts") {
            assert_eq!(kind, "apply", "{what}: only a non-forced apply conflicts");
            let conflicts = conflicts
                .as_array()
                .unwrap_or_else(|| panic!("{what}: `conflicts` must be a sequence"));
            assert!(!conflicts.is_empty(), "{what}: empty `conflicts`");
            for conflict in conflicts {
                let cm = obj(conflict, &what);
                assert_eq!(cm.len(), 2, "{what}: a conflict is {{manager, path}}");
                string(cm, "manager", &what);
                check_path(&cm["path"], &what);
            }
        }
    }
    if let Some(managed) = c.get("managed") {
        for (manager, set) in obj(managed, &what) {
            let what = format!("{what}: managed {manager}");
            let s = obj(set, &what);
            assert_eq!(s.len(), 3, "{what}: expected apiVersion, applied, fields");
            string(s, "apiVersion", &what);
            assert!(
                s.get("applied").is_some_and(Value::is_boolean),
                "{what}: `applied`"
            );
            let fields = s
                .get("fields")
                .and_then(Value::as_array)
                .unwrap_or_else(|| panic!("{what}: `fields` must be a sequence"));
            for p in fields {
                check_path(p, &what);
            }
        }
    }
    name
}

#[test]
fn ssa_cases_follow_the_format() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ssa_cases");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/ssa_cases exists")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no YAML files in {}", dir.display());

    let mut total = 0;
    for path in &files {
        let file = path.file_name().expect("file name").to_string_lossy();
        let text = std::fs::read_to_string(path).expect("readable");
        let doc: Value =
            serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{file}: does not parse: {e}"));
        let top = obj(&doc, &file);
        let source = string(top, "source", &file);
        assert!(
            source.starts_with("merge/") && source.ends_with("_test.go"),
            "{file}: source `{source}`"
        );
        let schemas = obj(
            top.get("schemas")
                .unwrap_or_else(|| panic!("{file}: no `schemas`")),
            &file,
        );
        for (name, schema) in schemas {
            obj(schema, &format!("{file}: schema {name}"));
        }
        let cases = top
            .get("cases")
            .and_then(Value::as_array)
            .unwrap_or_else(|| panic!("{file}: `cases` must be a sequence"));
        assert!(!cases.is_empty(), "{file}: no cases");
        let mut names = std::collections::BTreeSet::new();
        for case in cases {
            let name = check_case(case, schemas, &file);
            assert!(names.insert(name.clone()), "{file}: duplicate case {name}");
        }
        total += cases.len();
    }
    assert_eq!(total, TOTAL_CASES, "total number of translated cases");
}
