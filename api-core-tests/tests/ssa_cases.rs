//! structured-merge-diff's own merge tests, translated into
//! `tests/ssa_cases/*.yaml` (see the README there for provenance and the
//! format), run against `api_core::apply`: the same operations must give
//! the same object, the same owners and the same conflicts.

use std::collections::BTreeSet;
use std::path::PathBuf;

use api_core::apply::{ManagedFields, Path, PathElement, Schema, Set, UpdateError, Updater};
use serde_json::Value;

fn element(v: &Value) -> PathElement {
    match v {
        Value::String(s) => PathElement::field(s.clone()),
        Value::Object(m) if m.len() == 1 => {
            let (kind, inner) = m.iter().next().expect("one key");
            match kind.as_str() {
                "k" => PathElement::key(
                    inner
                        .as_object()
                        .expect("k: a map of key fields")
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                ),
                "v" => PathElement::Value(inner.clone()),
                "i" => PathElement::Index(inner.as_u64().expect("i: a number") as usize),
                other => panic!("unknown path element {other}"),
            }
        }
        other => panic!("bad path element {other}"),
    }
}

fn path(v: &Value) -> Path {
    Path(
        v.as_array()
            .expect("a path is a list")
            .iter()
            .map(element)
            .collect(),
    )
}

fn conflicts_of(v: &Value) -> BTreeSet<(String, String)> {
    v.as_array()
        .expect("conflicts: a list")
        .iter()
        .map(|c| {
            (
                c["manager"].as_str().expect("manager").to_string(),
                path(&c["path"]).to_string(),
            )
        })
        .collect()
}

/// Runs one case; `Err` says what differs.
fn run(schema: &Schema, case: &Value) -> Result<(), String> {
    let updater = Updater::new(schema);
    let mut live = Value::Null;
    let mut started = false;
    let mut managers = ManagedFields::new();
    for (i, op) in case["ops"].as_array().expect("ops").iter().enumerate() {
        let manager = op["manager"].as_str().expect("manager");
        let version = op["apiVersion"].as_str().expect("apiVersion");
        let extracted;
        let mut object = &op["object"];
        let mut kind = op["op"].as_str().expect("op");
        if kind == "extract_apply" {
            // The manager's owned leaves taken from the live object, the
            // configuration merged on top, force-applied as that manager.
            if started {
                let owned = match managers.get(manager) {
                    Some(vs) if vs.api_version != version => {
                        return Err(format!("op {i}: cannot extract at another version"));
                    }
                    Some(vs) => vs.set.leaves(),
                    None => Set::new(),
                };
                let base = schema.extract_items(&live, &owned);
                extracted = schema
                    .merge(&base, object)
                    .map_err(|e| format!("op {i}: {e}"))?;
                object = &extracted;
            }
            kind = "force_apply";
        }
        started = true;
        match kind {
            "update" => {
                managers = updater
                    .update(&live, object, version, managers, manager)
                    .map_err(|e| format!("op {i}: {e}"))?;
                live = object.clone();
            }
            "apply" | "force_apply" => {
                let force = kind == "force_apply";
                match updater.apply(&live, object, version, managers.clone(), manager, force) {
                    Ok((new, owners)) => {
                        if let Some(expected) = op.get("conflicts")
                            && !conflicts_of(expected).is_empty()
                        {
                            return Err(format!("op {i}: expected conflicts {expected}, got none"));
                        }
                        managers = owners;
                        if let Some(new) = new {
                            live = new;
                        }
                    }
                    Err(UpdateError::Conflicts(got)) => {
                        let got: BTreeSet<_> = got
                            .0
                            .iter()
                            .map(|c| (c.manager.clone(), c.path.to_string()))
                            .collect();
                        let Some(expected) = op.get("conflicts") else {
                            return Err(format!("op {i}: unexpected conflicts {got:?}"));
                        };
                        if conflicts_of(expected) != got {
                            return Err(format!("op {i}: conflicts {got:?}, expected {expected}"));
                        }
                    }
                    Err(e) => return Err(format!("op {i}: {e}")),
                }
            }
            other => return Err(format!("op {i}: unsupported op {other}")),
        }
    }
    if let Some(expected) = case.get("object") {
        let c = schema.compare(&live, expected);
        if !c.is_same() {
            return Err(format!(
                "object {}\nexpected {}\nmodified:\n{}added:\n{}removed:\n{}",
                live, expected, c.modified, c.added, c.removed
            ));
        }
    }
    if let Some(expected) = case.get("managed") {
        let expected = expected.as_object().expect("managed: a map");
        let mut problems = Vec::new();
        for (manager, want) in expected {
            let want_set =
                Set::from_paths(want["fields"].as_array().expect("fields").iter().map(path));
            match managers.get(manager) {
                None if want_set.is_empty() => {}
                None => problems.push(format!("{manager}: missing")),
                Some(got) => {
                    if got.api_version != want["apiVersion"].as_str().unwrap_or_default() {
                        problems.push(format!("{manager}: apiVersion {}", got.api_version));
                    }
                    if got.set != want_set {
                        problems.push(format!(
                            "{manager}: owns\n{}expected\n{}",
                            got.set, want_set
                        ));
                    }
                    // Upstream's ManagedFields.Difference does not compare
                    // `applied` (its tables write false after applies).
                }
            }
        }
        for manager in managers.keys() {
            if !expected.contains_key(manager) {
                problems.push(format!(
                    "{manager}: not expected\n{}",
                    managers[manager].set
                ));
            }
        }
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
    }
    if let Some((m, _)) = managers.iter().find(|(_, vs)| vs.set.is_empty()) {
        return Err(format!("{m} has an empty set"));
    }
    Ok(())
}

#[test]
fn structured_merge_diff_merge_tests() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ssa_cases");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/ssa_cases")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let (mut passed, mut failed) = (0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        let doc: Value = serde_saphyr::from_str(&text).expect("YAML");
        for case in doc["cases"].as_array().expect("cases") {
            let name = format!(
                "{}: {}",
                file.file_name().unwrap().to_string_lossy(),
                case["name"].as_str().unwrap_or("?")
            );
            let schema = Schema::new(&doc["schemas"][case["schema"].as_str().expect("schema")]);
            match run(&schema, case) {
                Ok(()) => passed += 1,
                Err(e) => failed.push(format!("{name}\n{e}")),
            }
        }
    }
    println!("{passed} structured-merge-diff cases passed");
    assert!(
        failed.is_empty(),
        "{} failed:\n\n{}",
        failed.len(),
        failed.join("\n\n")
    );
    assert!(passed >= 60, "only {passed} cases");
}
