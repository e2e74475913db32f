//! The tables kube-apiserver serves for its built-in kinds: one entry per
//! group and resource ([`TABLES`]) with the columns of upstream's
//! `*ColumnDefinitions` (name, type, format, priority and description,
//! the descriptions being k8s.io/api's `SwaggerDoc()` texts where upstream
//! takes them from there) and a printer of the row's cells, after the
//! `print<Kind>` functions of kubernetes
//! `pkg/printers/internalversion/printers.go` (LimitRanges, which have
//! none, get the default table convertor's columns, as their REST storage
//! does).
//!
//! The server's table convertor (`pkg/printers/storage`) always asks the
//! printers for wide output, so every row carries every column, the
//! priority-1 ones included. The objects are JSON as on the wire
//! (camelCase); a missing field, or one of the wrong type, prints as
//! upstream prints the field's zero value.

use super::printers::*;
use super::{CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION, Printer, TableColumnDefinition};

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

/// `eventColumnDefinitions` (the descriptions of core/v1's Event), the
/// table of both groups' Events.
const EVENT_COLUMNS: &[Column] = &[
    column(
        "Last Seen",
        "string",
        "The time at which the most recent occurrence of this event was recorded.",
    ),
    column(
        "Type",
        "string",
        "Type of this event (Normal, Warning), new types could be added in the future",
    ),
    column(
        "Reason",
        "string",
        "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    column("Object", "string", "The object that this event is about."),
    wide(
        "Subobject",
        "string",
        "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: \"spec.containers{name}\" (where \"name\" refers to the name of the container that triggered the event) or if no container name is specified \"spec.containers[2]\" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.",
    ),
    wide(
        "Source",
        "string",
        "The component reporting this event. Should be a short machine understandable string.",
    ),
    column(
        "Message",
        "string",
        "A human-readable description of the status of this operation.",
    ),
    wide(
        "First Seen",
        "string",
        "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)",
    ),
    wide(
        "Count",
        "string",
        "The number of times this event has occurred.",
    ),
    Column {
        format: "name",
        ..wide("Name", "string", NAME_DESCRIPTION)
    },
];

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

mod core_v1;
mod other_groups;

/// Every built-in kind with a table, by group and resource: the core
/// group's, then the other groups'.
static TABLES: std::sync::LazyLock<Vec<&'static Kind>> = std::sync::LazyLock::new(|| {
    core_v1::CORE
        .iter()
        .chain(other_groups::OTHER_GROUPS)
        .collect()
});

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

#[cfg(test)]
#[path = "builtin_tests/mod.rs"]
mod tests;
