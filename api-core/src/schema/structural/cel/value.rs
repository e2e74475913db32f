//! JSON values as CEL sees them (`UnstructuredToVal` of
//! apiextensions-apiserver): typed by the schema, property names escaped,
//! string formats as CEL types.

use std::collections::HashMap;
use std::sync::Arc;

use ::cel::Value as Cel;
use ::cel::objects::{Key, Map};
use serde_json::Value;

use api_cel::{RESERVED, escape};

use super::tree::{CelNode, Shape};

/// `value` as a CEL value, typed by `node` (`None`: no schema, as under
/// `x-kubernetes-preserve-unknown-fields`).
pub(crate) fn to_cel(value: &Value, node: Option<&CelNode>) -> Cel {
    let Some(node) = node else {
        return untyped(value);
    };
    match (&node.shape, value) {
        (_, Value::Null) => Cel::Null,
        (Shape::Object, Value::Object(m)) => {
            if let Some(values) = &node.additional {
                let map: HashMap<Key, Cel> = m
                    .iter()
                    .map(|(k, v)| (Key::String(Arc::new(k.clone())), to_cel(v, Some(values))))
                    .collect();
                return Cel::Map(Map { map: Arc::new(map) });
            }
            let mut map = HashMap::with_capacity(m.len());
            for (k, v) in m {
                // A property set to null is absent (`has()` is false).
                if v.is_null() {
                    continue;
                }
                if node.embedded && (k == "apiVersion" || k == "kind") {
                    map.insert(Key::String(Arc::new(k.clone())), untyped(v));
                } else if node.embedded && k == "metadata" {
                    let declared = node.property(k).filter(|p| !p.node.properties.is_empty());
                    map.insert(
                        Key::String(Arc::new(k.clone())),
                        object_meta(v, declared.map(|p| &p.node)),
                    );
                } else if let Some(prop) = node.property(k) {
                    if let Some(name) = &prop.escaped {
                        let value = to_cel(v, Some(&prop.node));
                        if name.as_str() != k && RESERVED.contains(&k.as_str()) {
                            // Reserved words may be selected unescaped too
                            // (Kubernetes 1.30 and later).
                            map.insert(Key::String(Arc::new(k.clone())), value.clone());
                        }
                        map.insert(Key::String(name.clone()), value);
                    } else {
                        // A name rules cannot spell: it takes part in
                        // equality (under its own name), as in the
                        // apiserver's values.
                        map.insert(
                            Key::String(Arc::new(k.clone())),
                            to_cel(v, Some(&prop.node)),
                        );
                    }
                } else if node.preserve_unknown
                    && let Some(name) = escape(k)
                {
                    // Kept unknown fields take part in equality; rules
                    // cannot select them.
                    map.insert(Key::String(Arc::new(name)), untyped(v));
                }
            }
            Cel::Map(Map { map: Arc::new(map) })
        }
        (Shape::Array, Value::Array(items)) => Cel::List(Arc::new(
            items
                .iter()
                .map(|v| to_cel(v, node.items.as_deref()))
                .collect(),
        )),
        (Shape::String, Value::String(s)) => string(s, node.format.as_deref()),
        (Shape::Integer, Value::Number(n)) => match n.as_i64() {
            Some(i) => Cel::Int(i),
            None => untyped(value),
        },
        (Shape::Number, Value::Number(n)) => Cel::Float(n.as_f64().unwrap_or(f64::NAN)),
        _ => untyped(value),
    }
}

/// The metadata of an embedded or root object as rules see it: `name` and
/// `generateName`, and whatever else its schema declares
/// (`model.WithTypeAndObjectMeta`).
pub(crate) fn object_meta(value: &Value, declared: Option<&CelNode>) -> Cel {
    let mut map = match declared.map(|d| to_cel(value, Some(d))) {
        Some(Cel::Map(m)) => (*m.map).clone(),
        _ => HashMap::new(),
    };
    if let Value::Object(m) = value {
        for key in ["name", "generateName"] {
            if let Some(Value::String(s)) = m.get(key) {
                map.insert(
                    Key::String(Arc::new(key.to_string())),
                    Cel::String(Arc::new(s.clone())),
                );
            }
        }
    }
    Cel::Map(Map { map: Arc::new(map) })
}

/// A string of a schema `format`: `duration`, `date` and `date-time` are
/// CEL durations and timestamps, `byte` is bytes (when they parse; as a
/// string otherwise).
fn string(s: &str, format: Option<&str>) -> Cel {
    match format {
        Some("duration") => {
            if let Ok(d) = crate::meta::Duration::parse(s) {
                return Cel::Duration(chrono::Duration::nanoseconds(d.as_nanos()));
            }
        }
        Some("date-time") => {
            if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
                return Cel::Timestamp(t);
            }
        }
        Some("date") => {
            if let Ok(d) = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
                && let Some(t) = d.and_hms_opt(0, 0, 0)
            {
                return Cel::Timestamp(t.and_utc().fixed_offset());
            }
        }
        Some("byte") => {
            use base64::Engine as _;
            if let Ok(b) = base64::engine::general_purpose::STANDARD.decode(s) {
                return Cel::Bytes(Arc::new(b));
            }
        }
        _ => {}
    }
    Cel::String(Arc::new(s.to_string()))
}

/// A value without a schema: objects are maps with their keys as they are.
pub(crate) fn untyped(value: &Value) -> Cel {
    match value {
        Value::Null => Cel::Null,
        Value::Bool(b) => Cel::Bool(*b),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Cel::Int(i),
            (None, Some(u)) => Cel::UInt(u),
            _ => Cel::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Cel::String(Arc::new(s.clone())),
        Value::Array(a) => Cel::List(Arc::new(a.iter().map(untyped).collect())),
        Value::Object(m) => Cel::Map(Map {
            map: Arc::new(
                m.iter()
                    .map(|(k, v)| (Key::String(Arc::new(k.clone())), untyped(v)))
                    .collect(),
            ),
        }),
    }
}
