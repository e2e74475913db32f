//! Where two JSON values differ, for comparisons with the corpus: one line
//! per differing path (`spec.versions[0].schema...: generated 1, the file
//! has 2`).

use serde_json::Value;

/// Where two JSON values differ: one line per differing path.
pub fn json_diff(path: &str, generated: &Value, file: &Value, out: &mut Vec<String>) {
    match (generated, file) {
        (Value::Object(g), Value::Object(f)) => {
            let mut keys: Vec<&String> = g.keys().chain(f.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let child = child_path(path, key);
                match (g.get(key), f.get(key)) {
                    (Some(gv), Some(fv)) => json_diff(&child, gv, fv, out),
                    (Some(gv), None) => out.push(format!(
                        "{child}: only in the generated CRD: {}",
                        compact(gv)
                    )),
                    (None, Some(fv)) => {
                        out.push(format!("{child}: only in the file: {}", compact(fv)))
                    }
                    (None, None) => unreachable!("the key comes from one of the maps"),
                }
            }
        }
        (Value::Array(g), Value::Array(f)) if g.len() == f.len() => {
            for (i, (gv, fv)) in g.iter().zip(f).enumerate() {
                json_diff(&format!("{path}[{i}]"), gv, fv, out);
            }
        }
        _ if generated != file => out.push(format!(
            "{path}: generated {}, the file has {}",
            compact(generated),
            compact(file)
        )),
        _ => {}
    }
}

/// `path.key`, or `path[key]` for keys that are not plain identifiers
/// (`metadata.annotations[controller-gen.kubebuilder.io/version]`).
fn child_path(path: &str, key: &str) -> String {
    let plain = key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key.chars().all(|c| c.is_ascii_alphanumeric());
    match (path.is_empty(), plain) {
        (true, true) => key.to_string(),
        (false, true) => format!("{path}.{key}"),
        (_, false) => format!("{path}[{key}]"),
    }
}

/// A value on one line, cut after 200 characters.
fn compact(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 200 {
        let cut: String = text.chars().take(200).collect();
        format!("{cut}...")
    } else {
        text
    }
}
