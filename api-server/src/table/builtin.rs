//! The tables kube-apiserver serves for its built-in kinds: one entry per
//! group and resource ([`TABLES`]) with the columns of upstream's
//! `*ColumnDefinitions` (name, type, format, priority and description,
//! the descriptions being k8s.io/api's `SwaggerDoc()` texts where upstream
//! takes them from there) and a printer of the row's cells, after the
//! `print<Kind>` functions of kubernetes
//! `pkg/printers/internalversion/printers.go`.
//!
//! The server's table convertor (`pkg/printers/storage`) always asks the
//! printers for wide output, so every row carries every column, the
//! priority-1 ones included. The objects are JSON as on the wire
//! (camelCase); a missing field, or one of the wrong type, prints as
//! upstream prints the field's zero value.

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::{
    CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION, Printer, TableColumnDefinition, age_of,
    int_at, text_at,
};

/// A column as upstream declares it in a `*ColumnDefinitions` list.
#[derive(Clone, Copy, Debug)]
struct Column {
    name: &'static str,
    type_: &'static str,
    format: &'static str,
    priority: i32,
    description: &'static str,
}

impl Column {
    fn definition(&self) -> TableColumnDefinition {
        TableColumnDefinition {
            name: self.name.into(),
            type_: self.type_.into(),
            format: self.format.into(),
            description: self.description.into(),
            priority: self.priority,
        }
    }
}

/// A column shown by default.
const fn column(name: &'static str, type_: &'static str, description: &'static str) -> Column {
    Column {
        name,
        type_,
        format: "",
        priority: 0,
        description,
    }
}

/// A column shown with `-o wide` (priority 1).
const fn wide(name: &'static str, type_: &'static str, description: &'static str) -> Column {
    Column {
        priority: 1,
        ..column(name, type_, description)
    }
}

/// `{Name: "Name", Type: "string", Format: "name", Description: metav1.ObjectMeta{}.SwaggerDoc()["name"]}`.
const NAME: Column = Column {
    format: "name",
    ..column("Name", "string", NAME_DESCRIPTION)
};

/// `{Name: "Age", Type: "string", Description: metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"]}`.
const AGE: Column = column("Age", "string", CREATION_TIMESTAMP_DESCRIPTION);

/// The wide `Containers` column of the kinds with a pod template.
const CONTAINERS: Column = wide(
    "Containers",
    "string",
    "Names of each container in the template.",
);

/// The wide `Images` column of the kinds with a pod template.
const IMAGES: Column = wide(
    "Images",
    "string",
    "Images referenced by each container in the template.",
);

/// A built-in kind's table.
struct Kind {
    /// API group, `""` for core.
    group: &'static str,
    /// Resource.
    plural: &'static str,
    /// The columns, in the order of the cells.
    columns: &'static [Column],
    /// The row's cells, one per column.
    printer: Printer,
}

/// Every built-in kind with a table, by group and resource.
const TABLES: &[Kind] = &[
    // podColumnDefinitions: NAME READY STATUS RESTARTS AGE, IP and NODE
    // wide (upstream's NOMINATED NODE and READINESS GATES are not served).
    Kind {
        group: "",
        plural: "pods",
        columns: &[
            NAME,
            column(
                "Ready",
                "string",
                "The aggregate readiness state of this pod for accepting traffic.",
            ),
            column(
                "Status",
                "string",
                "The aggregate status of the containers in this pod.",
            ),
            column(
                "Restarts",
                "string",
                "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
            ),
            AGE,
            wide("IP", "string", "The IP address of the pod"),
            wide(
                "Node",
                "string",
                "The name of the node the pod is scheduled on",
            ),
        ],
        printer: print_pod,
    },
    // deploymentColumnDefinitions.
    Kind {
        group: "apps",
        plural: "deployments",
        columns: &[
            NAME,
            column("Ready", "string", "Number of the pod with ready state"),
            column(
                "Up-to-date",
                "integer",
                "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
            ),
            column(
                "Available",
                "integer",
                "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
            ),
            AGE,
            CONTAINERS,
            IMAGES,
            wide(
                "Selector",
                "string",
                "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.",
            ),
        ],
        printer: print_deployment,
    },
];

/// The columns and printer of a built-in kind's table.
pub(super) fn table(group: &str, plural: &str) -> Option<(Vec<TableColumnDefinition>, Printer)> {
    let kind = TABLES
        .iter()
        .find(|k| k.group == group && k.plural == plural)?;
    Some((
        kind.columns.iter().map(Column::definition).collect(),
        kind.printer,
    ))
}

/// The array at `pointer`, empty when absent or not an array.
fn array_at<'a>(object: &'a Value, pointer: &str) -> &'a [Value] {
    object
        .pointer(pointer)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// `printPod`, for what a store without a kubelet holds: ready
/// containers of all, the reason (the pod's, a container's waiting or
/// terminated reason, `Terminating` once deleted, else the phase), the
/// restarts summed, age, IP and node.
fn print_pod(pod: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let total = array_at(pod, "/spec/containers").len();
    let statuses = array_at(pod, "/status/containerStatuses");
    let ready = statuses
        .iter()
        .filter(|s| s["ready"].as_bool() == Some(true))
        .count();
    let restarts: i64 = statuses
        .iter()
        .filter_map(|s| s["restartCount"].as_i64())
        .sum();
    let mut reason = text_at(pod, "/status/reason");
    if reason.is_empty() {
        reason = text_at(pod, "/status/phase");
    }
    for status in statuses.iter().rev() {
        let state = &status["state"];
        if let Some(r) = state["waiting"]["reason"]
            .as_str()
            .filter(|r| !r.is_empty())
        {
            reason = r.to_string();
        } else if let Some(r) = state["terminated"]["reason"]
            .as_str()
            .filter(|r| !r.is_empty())
        {
            reason = r.to_string();
        }
    }
    if !pod["metadata"]["deletionTimestamp"].is_null() {
        reason = "Terminating".into();
    }
    let or_none = |s: String| {
        if s.is_empty() {
            "<none>".to_string()
        } else {
            s
        }
    };
    vec![
        Value::String(text_at(pod, "/metadata/name")),
        Value::String(format!("{ready}/{total}")),
        Value::String(reason),
        Value::String(restarts.to_string()),
        Value::String(age_of(pod, now)),
        Value::String(or_none(text_at(pod, "/status/podIP"))),
        Value::String(or_none(text_at(pod, "/spec/nodeName"))),
    ]
}

/// `printDeployment`: ready of desired replicas, up to date, available,
/// age, and the template's containers, images and the selector.
fn print_deployment(deployment: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let desired = int_at(deployment, "/spec/replicas");
    let ready = int_at(deployment, "/status/readyReplicas");
    let containers = array_at(deployment, "/spec/template/spec/containers");
    let joined = |key: &str| {
        containers
            .iter()
            .filter_map(|c| c[key].as_str())
            .collect::<Vec<_>>()
            .join(",")
    };
    let selector = deployment
        .pointer("/spec/selector")
        .map(crate::scale::selector_text)
        .unwrap_or_default();
    vec![
        Value::String(text_at(deployment, "/metadata/name")),
        Value::String(format!("{ready}/{desired}")),
        Value::from(int_at(deployment, "/status/updatedReplicas")),
        Value::from(int_at(deployment, "/status/availableReplicas")),
        Value::String(age_of(deployment, now)),
        Value::String(joined("name")),
        Value::String(joined("image")),
        Value::String(selector),
    ]
}

#[cfg(test)]
#[path = "builtin_tests.rs"]
mod tests;
