//! The row printers of the built-in kinds' tables ([`super::builtin`]),
//! after the `print<Kind>` functions of kubernetes
//! `pkg/printers/internalversion/printers.go` and their helpers
//! (`formatEndpoints`, `formatLabelSelector`, ...): each takes the object
//! as JSON and gives its cells in column order. This file has the
//! helpers every group's printers share; each group's printers are in a
//! file of their own.

use api_core::meta::Quantity;
use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

pub(super) use super::{age_of, human_duration, int_at, since, text_at, time_at};

mod cluster;
mod core;
mod networking;
mod storage;
mod workloads;

pub(super) use cluster::*;
pub(super) use core::*;
pub(super) use networking::*;
pub(super) use storage::*;
pub(super) use workloads::*;

/// The array at `pointer`, empty when absent or not an array.
pub(super) fn array_at<'a>(object: &'a Value, pointer: &str) -> &'a [Value] {
    object
        .pointer(pointer)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// A string cell.
pub(super) fn text(s: impl Into<String>) -> Value {
    Value::String(s.into())
}

/// The object's name cell.
pub(super) fn name_cell(object: &Value) -> Value {
    text(text_at(object, "/metadata/name"))
}

/// The object's age cell (`translateTimestampSince(obj.CreationTimestamp)`).
pub(super) fn age_cell(object: &Value, now: DateTime<Utc>) -> Value {
    text(age_of(object, now))
}

/// The string at `pointer`, `None` when absent or not a string.
pub(super) fn str_at<'a>(object: &'a Value, pointer: &str) -> Option<&'a str> {
    object.pointer(pointer).and_then(Value::as_str)
}

/// The object at `pointer`, `None` when absent or not an object.
pub(super) fn map_at<'a>(object: &'a Value, pointer: &str) -> Option<&'a Map<String, Value>> {
    object.pointer(pointer).and_then(Value::as_object)
}

/// The number of entries of the map at `pointer` (0 when absent).
pub(super) fn map_len(object: &Value, pointer: &str) -> usize {
    map_at(object, pointer).map_or(0, Map::len)
}

/// `s`, or `default` when `s` is empty.
pub(super) fn or(s: impl Into<String>, default: &str) -> String {
    let s = s.into();
    if s.is_empty() { default.to_string() } else { s }
}

/// A `resource.Quantity` as its `String()` writes it (the canonical
/// form); `None` when absent. A JSON number is the quantity it spells; a
/// string that does not parse (which no apiserver would have stored) is
/// shown as it is.
pub(super) fn quantity(value: Option<&Value>) -> Option<String> {
    let spelled = match value? {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    Some(Quantity::parse(&spelled).map_or(spelled, |q| q.to_string()))
}

/// An `intstr.IntOrString` as its `String()` writes it; `None` when absent.
pub(super) fn int_or_string(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => n.as_i64().map(|i| i.to_string()),
        _ => None,
    }
}

/// `labels.FormatLabels`: the `key=value` pairs of a label set sorted as
/// strings (`labels.Set.String` sorts the pairs, not the keys) and joined
/// by `,`; `<none>` for an empty set.
pub(super) fn format_labels(labels: Option<&Value>) -> String {
    let mut pairs: Vec<String> = labels
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some(format!("{k}={}", v.as_str()?)))
        .collect();
    pairs.sort();
    or(pairs.join(","), "<none>")
}

/// `metav1.FormatLabelSelector`: the selector's string form, `<none>` for
/// an empty or absent one, `<error>` for one that does not convert.
pub(super) fn format_label_selector(selector: Option<&Value>) -> String {
    let text = match selector {
        Some(v @ Value::Object(_)) => match crate::scale::label_selector_text(v) {
            Some(text) => text,
            None => return "<error>".into(),
        },
        // A nil selector: `labels.Nothing()`, whose string is empty.
        _ => String::new(),
    };
    or(text, "<none>")
}

/// `layoutContainerCells`: the containers' names and images, each joined
/// by `,` (a missing name or image is an empty string).
pub(super) fn container_cells(containers: &[Value]) -> (String, String) {
    let joined = |key: &str| {
        containers
            .iter()
            .map(|c| c[key].as_str().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(",")
    };
    (joined("name"), joined("image"))
}

/// `net.JoinHostPort`: IPv6 hosts in brackets.
pub(super) fn join_host_port(host: &str, port: i64) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// `rest.NewDefaultTableConvertor`'s row: the name and the creation time
/// in RFC 3339 (UTC, whole seconds; Go's zero time when there is none).
pub(super) fn print_default(object: &Value, _now: DateTime<Utc>) -> Vec<Value> {
    let created = time_at(object, "/metadata/creationTimestamp").map_or_else(
        || "0001-01-01T00:00:00Z".to_string(),
        |t| {
            t.with_timezone(&Utc)
                .format("%Y-%m-%dT%H:%M:%SZ")
                .to_string()
        },
    );
    vec![name_cell(object), text(created)]
}

/// Whether the object is being deleted.
pub(super) fn deleting(object: &Value) -> bool {
    object
        .pointer("/metadata/deletionTimestamp")
        .is_some_and(|t| !t.is_null())
}

/// The row ReplicationControllers and ReplicaSets share: name, desired,
/// current and ready replicas, age, the template's containers and
/// images, and `selector` as the kind prints it.
pub(super) fn replicas_row(object: &Value, now: DateTime<Utc>, selector: String) -> Vec<Value> {
    let (names, images) = container_cells(array_at(object, "/spec/template/spec/containers"));
    vec![
        name_cell(object),
        Value::from(int_at(object, "/spec/replicas")),
        Value::from(int_at(object, "/status/replicas")),
        Value::from(int_at(object, "/status/readyReplicas")),
        age_cell(object, now),
        text(names),
        text(images),
        text(selector),
    ]
}

/// `printBoolPtr`: `True`, `False`, or `<unset>`.
pub(super) fn bool_text(value: Option<&Value>) -> &'static str {
    match value.and_then(Value::as_bool) {
        Some(true) => "True",
        Some(false) => "False",
        None => "<unset>",
    }
}

/// A `*resource.Quantity`'s `String()`: `<nil>` when absent.
pub(super) fn quantity_or_nil(value: Option<&Value>) -> String {
    quantity(value).unwrap_or_else(|| "<nil>".into())
}
