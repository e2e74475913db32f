//! `meta.k8s.io/v1` `Table`s of custom resources, for `kubectl get`
//! (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`).
//!
//! This is apiextensions-apiserver's table convertor
//! (`pkg/registry/customresource/tableconvertor/tableconvertor.go`) plus
//! what the apiserver's response writer does to its rows
//! (k8s.io/apiserver `pkg/endpoints/handlers/response.go`, `asTable`):
//!
//! - columns: `Name` (type `string`, format `name`, ObjectMeta's `name`
//!   description), then the served version's `additionalPrinterColumns`
//!   with their name, type, format and priority, and their description or
//!   `Custom resource definition column (in JSONPath format): <path>`;
//!   a version without printer columns gets one `Age` column
//!   (`.metadata.creationTimestamp`, type `date`, ObjectMeta's
//!   `creationTimestamp` description): apiextensions-apiserver
//!   `pkg/apiserver/helpers.go` `serveDefaultColumnsIfEmpty`;
//! - a column path is parsed as `{<path>}` with missing keys allowed; a
//!   path that does not parse stops the column list there (upstream's `New`
//!   returns the convertor built so far with the error, and the handler
//!   logs it and serves that convertor);
//! - cells: the name, then for each column only the *first* result of the
//!   path (upstream's `results[0][0]`; the convertor's test notes that
//!   `[*]` paths show only their first value). No result, or an evaluation
//!   error, gives `null`. A `string` column prints the value as client-go's
//!   JSONPath does ([`print_value`]: maps and lists as JSON, JSON `null` as
//!   `<no value>` since the value reaches the printer as a nil interface);
//!   other types go through `cellForJSONValue`: `integer` takes integers
//!   and truncates floats, `number` takes any number, `boolean` booleans,
//!   `date` an RFC 3339 string shown as its age (`HumanDuration`;
//!   `<unknown>` for an empty string, `<invalid>` for an unparsable or
//!   future one); anything else is `null`;
//! - rows carry `object` per `includeObject`: `Metadata` (the default) a
//!   `PartialObjectMetadata` of the table's group-version with the object's
//!   whole `metadata`; `Object` the object; `None` `null`;
//! - `metadata`: the list's `resourceVersion`, `continue` and
//!   `remainingItemCount`, or a single object's `resourceVersion`;
//!   `noHeaders` leaves `columnDefinitions` null.

use api_core::ListMeta;
use api_core::crd::{CustomResourceColumnDefinition, CustomResourceDefinition};
use chrono::{DateTime, FixedOffset, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::jsonpath::{JsonPath, JsonPathError, print_value};

/// ObjectMeta's `name` description (apimachinery
/// `types_swagger_doc_generated.go`), the `Name` column's description.
pub const NAME_DESCRIPTION: &str = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

/// ObjectMeta's `creationTimestamp` description, the default `Age`
/// column's description.
pub const CREATION_TIMESTAMP_DESCRIPTION: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/// A `Table` (`meta.k8s.io/v1` or `v1beta1`). Serialize it directly to keep
/// Go's field order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Table {
    /// Always `Table`.
    pub kind: String,
    /// `meta.k8s.io/v1` or `meta.k8s.io/v1beta1`.
    pub api_version: String,
    /// The list's metadata (`resourceVersion`, `continue`,
    /// `remainingItemCount`; a single object's `resourceVersion`).
    pub metadata: ListMeta,
    /// The columns; `null` when the client asked for no headers.
    pub column_definitions: Option<Vec<TableColumnDefinition>>,
    /// One row per object.
    pub rows: Vec<TableRow>,
}

/// A column of a table; every field is always written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableColumnDefinition {
    /// The header.
    pub name: String,
    /// `string`, `integer`, `number`, `boolean` or `date`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `name` for the Name column; the printer column's format otherwise.
    pub format: String,
    /// What the column shows.
    pub description: String,
    /// 0: shown by default; higher: only with `-o wide`.
    pub priority: i32,
}

/// A row: its cells and the object (per [`IncludeObject`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableRow {
    /// One value per column.
    pub cells: Vec<Value>,
    /// `PartialObjectMetadata`, the object, or `null`.
    pub object: Value,
}

/// What a row's `object` holds (`includeObject` of `TableOptions`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IncludeObject {
    /// `None`: `null`.
    None,
    /// `Metadata` (the default): a `PartialObjectMetadata`.
    #[default]
    Metadata,
    /// `Object`: the whole object.
    Object,
}

impl IncludeObject {
    /// Reads the `includeObject` query parameter (empty is `Metadata`);
    /// `None` for an unknown value (upstream answers 400 then).
    pub fn from_query(value: &str) -> Option<Self> {
        match value {
            "" | "Metadata" => Some(IncludeObject::Metadata),
            "None" => Some(IncludeObject::None),
            "Object" => Some(IncludeObject::Object),
            _ => None,
        }
    }
}

/// The table's group-version, from the `Accept` header's `v=` parameter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableVersion {
    /// `meta.k8s.io/v1`.
    #[default]
    V1,
    /// `meta.k8s.io/v1beta1`.
    V1beta1,
}

impl TableVersion {
    /// `meta.k8s.io/v1` or `meta.k8s.io/v1beta1`.
    pub fn api_version(self) -> &'static str {
        match self {
            TableVersion::V1 => "meta.k8s.io/v1",
            TableVersion::V1beta1 => "meta.k8s.io/v1beta1",
        }
    }
}

/// `TableOptions` and the negotiated version.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableOptions {
    /// Leave `columnDefinitions` out (`null`).
    pub no_headers: bool,
    /// What rows carry.
    pub include_object: IncludeObject,
    /// The table's group-version.
    pub version: TableVersion,
}

/// A printer column whose path does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnError {
    /// The column's `jsonPath`.
    pub json_path: String,
    /// What the JSONPath parser said.
    pub source: JsonPathError,
}

impl std::fmt::Display for ColumnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unrecognized column definition {:?}", self.json_path)
    }
}

impl std::error::Error for ColumnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// A built-in kind's row printer: the cells of an object at a time.
type Printer = fn(&Value, DateTime<Utc>) -> Vec<Value>;

/// Converts custom resources (JSON objects) into tables for one version
/// of a CRD. Build it once per served version.
///
/// ```
/// use api_core::crd::CustomResourceColumnDefinition;
/// use api_server::table::{TableConvertor, TableOptions};
/// use serde_json::json;
///
/// let (convertor, error) = TableConvertor::new(&[CustomResourceColumnDefinition {
///     name: "Replicas".into(),
///     type_: "integer".into(),
///     json_path: ".spec.replicas".into(),
///     ..Default::default()
/// }]);
/// assert!(error.is_none());
/// let obj = json!({"metadata": {"name": "w", "resourceVersion": "7"}, "spec": {"replicas": 3}});
/// let table = convertor.convert_object(&obj, &TableOptions::default(), chrono::Utc::now());
/// assert_eq!(table.rows[0].cells, vec![json!("w"), json!(3)]);
/// assert_eq!(table.metadata.resource_version, "7");
/// ```
#[derive(Clone, Debug)]
pub struct TableConvertor {
    headers: Vec<TableColumnDefinition>,
    columns: Vec<JsonPath>,
    /// A built-in kind's printer, instead of the JSONPath columns.
    printer: Option<Printer>,
}

impl TableConvertor {
    /// The convertor for these printer columns (upstream `New`): on a path
    /// that does not parse, the convertor of the columns before it and the
    /// error (the server logs it and serves the partial convertor).
    pub fn new(columns: &[CustomResourceColumnDefinition]) -> (Self, Option<ColumnError>) {
        let mut convertor = TableConvertor {
            headers: vec![TableColumnDefinition {
                name: "Name".into(),
                type_: "string".into(),
                format: "name".into(),
                description: NAME_DESCRIPTION.into(),
                priority: 0,
            }],
            columns: Vec::new(),
            printer: None,
        };
        for column in columns {
            let path = match JsonPath::parse_column(&column.json_path) {
                Ok(path) => path,
                Err(source) => {
                    let error = ColumnError {
                        json_path: column.json_path.clone(),
                        source,
                    };
                    return (convertor, Some(error));
                }
            };
            let description = match &column.description {
                Some(d) if !d.is_empty() => d.clone(),
                _ => format!(
                    "Custom resource definition column (in JSONPath format): {}",
                    column.json_path
                ),
            };
            convertor.columns.push(path);
            convertor.headers.push(TableColumnDefinition {
                name: column.name.clone(),
                type_: column.type_.clone(),
                format: column.format.clone().unwrap_or_default(),
                description,
                priority: column.priority,
            });
        }
        (convertor, None)
    }

    /// The convertor of a CRD version (`None` if the CRD has no such
    /// version): its printer columns, or the default `Age` column when it
    /// has none.
    pub fn for_version(
        crd: &CustomResourceDefinition,
        version: &str,
    ) -> Option<(Self, Option<ColumnError>)> {
        let v = crd.spec.versions.iter().find(|v| v.name == version)?;
        Some(Self::new(&columns_or_default(
            &v.additional_printer_columns,
        )))
    }

    /// The table of core `Namespace`s, as kube-apiserver prints them
    /// (kubernetes `pkg/printers/internalversion/printers.go`,
    /// `namespaceColumnDefinitions` and `printNamespace`): `Name`,
    /// `Status` (`status.phase`, `""` when unset) and `Age` (type
    /// `string`, `translateTimestampSince`: `<unknown>` without a
    /// creation timestamp).
    pub fn namespaces() -> Self {
        let (mut convertor, _) = Self::new(&[]);
        convertor.headers.push(TableColumnDefinition {
            name: "Status".into(),
            type_: "string".into(),
            description: "The status of the namespace".into(),
            ..Default::default()
        });
        convertor.headers.push(TableColumnDefinition {
            name: "Age".into(),
            type_: "string".into(),
            description: CREATION_TIMESTAMP_DESCRIPTION.into(),
            ..Default::default()
        });
        convertor.printer = Some(|object, now| {
            let text = |pointer: &str| {
                object
                    .pointer(pointer)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            let created = text("/metadata/creationTimestamp");
            let age = match DateTime::parse_from_rfc3339(&created) {
                Ok(t) => human_duration(now.signed_duration_since(t)),
                Err(_) => "<unknown>".into(),
            };
            vec![
                Value::String(text("/metadata/name")),
                Value::String(text("/status/phase")),
                Value::String(age),
            ]
        });
        convertor
    }

    /// The convertor of a kind's version: a built-in kind's own columns
    /// as kube-apiserver prints them ([`TableConvertor::builtin`]), else
    /// the CRD's printer columns ([`TableConvertor::for_version`]).
    pub fn for_kind(
        group: &str,
        plural: &str,
        crd: &CustomResourceDefinition,
        version: &str,
    ) -> Option<Self> {
        Self::builtin(group, plural).or_else(|| Self::for_version(crd, version).map(|(c, _)| c))
    }

    /// The table kube-apiserver serves for a built-in kind, by API group
    /// (`""`: core) and resource: the columns of its printer's
    /// `*ColumnDefinitions` and its row printer, from kubernetes
    /// `pkg/printers/internalversion/printers.go` (see the `builtin`
    /// submodule for the kinds; LimitRanges, which have no printer, get
    /// the apiserver's default NAME and CREATED AT); `None` for a resource
    /// without one.
    pub fn builtin(group: &str, plural: &str) -> Option<Self> {
        let (headers, printer) = builtin::table(group, plural)?;
        Some(TableConvertor {
            headers,
            columns: Vec::new(),
            printer: Some(printer),
        })
    }

    /// The column definitions: Name first (the column of format `name`),
    /// but for Events, whose name upstream prints last.
    pub fn column_definitions(&self) -> &[TableColumnDefinition] {
        &self.headers
    }

    /// The cells of one object's row, `now` being the time ages are
    /// measured to.
    pub fn cells(&self, object: &Value, now: DateTime<Utc>) -> Vec<Value> {
        if let Some(printer) = self.printer {
            return printer(object, now);
        }
        let name = object
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let mut cells = Vec::with_capacity(1 + self.columns.len());
        cells.push(Value::String(name.into()));
        for (path, header) in self.columns.iter().zip(&self.headers[1..]) {
            let first = match path.find_results(object) {
                Ok(results) => results
                    .into_iter()
                    .next()
                    .and_then(|r| r.into_iter().next()),
                Err(_) => None,
            };
            let cell = match first {
                None => Value::Null,
                Some(value) if header.type_ == "string" => Value::String(match value.as_ref() {
                    Value::Null => "<no value>".into(),
                    v => print_value(v),
                }),
                Some(value) => cell_for_json_value(&header.type_, &value, now),
            };
            cells.push(cell);
        }
        cells
    }

    fn row(&self, object: &Value, options: &TableOptions, now: DateTime<Utc>) -> TableRow {
        let row_object = match options.include_object {
            IncludeObject::None => Value::Null,
            IncludeObject::Object => object.clone(),
            IncludeObject::Metadata => partial_object_metadata(object, options.version),
        };
        TableRow {
            cells: self.cells(object, now),
            object: row_object,
        }
    }

    fn table(&self, meta: ListMeta, rows: Vec<TableRow>, options: &TableOptions) -> Table {
        Table {
            kind: "Table".into(),
            api_version: options.version.api_version().into(),
            metadata: meta,
            column_definitions: (!options.no_headers).then(|| self.headers.clone()),
            rows,
        }
    }

    /// The table of one object; `metadata.resourceVersion` is the object's.
    pub fn convert_object(
        &self,
        object: &Value,
        options: &TableOptions,
        now: DateTime<Utc>,
    ) -> Table {
        let meta = ListMeta {
            resource_version: object
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .into(),
            ..Default::default()
        };
        self.table(meta, vec![self.row(object, options, now)], options)
    }

    /// The table of a list's items, with the list's metadata.
    pub fn convert_list(
        &self,
        items: &[Value],
        list_meta: ListMeta,
        options: &TableOptions,
        now: DateTime<Utc>,
    ) -> Table {
        let rows = items.iter().map(|o| self.row(o, options, now)).collect();
        self.table(list_meta, rows, options)
    }
}

/// The printer columns served for a version: its own, or the default
/// `Age` column (apiextensions-apiserver `serveDefaultColumnsIfEmpty`).
pub fn columns_or_default(
    columns: &[CustomResourceColumnDefinition],
) -> Vec<CustomResourceColumnDefinition> {
    if !columns.is_empty() {
        return columns.to_vec();
    }
    vec![CustomResourceColumnDefinition {
        name: "Age".into(),
        type_: "date".into(),
        format: None,
        description: Some(CREATION_TIMESTAMP_DESCRIPTION.into()),
        priority: 0,
        json_path: ".metadata.creationTimestamp".into(),
    }]
}

/// `PartialObjectMetadata` of `object` (apimachinery
/// `meta.AsPartialObjectMetadata`: the whole ObjectMeta).
pub(crate) fn partial_object_metadata(object: &Value, version: TableVersion) -> Value {
    let metadata = object
        .get("metadata")
        .cloned()
        .unwrap_or_else(|| Value::Object(Map::new()));
    json!({
        "kind": "PartialObjectMetadata",
        "apiVersion": version.api_version(),
        "metadata": metadata,
    })
}

/// `PartialObjectMetadataList` of `list` (a `...List`): its list
/// metadata, and each item as [`partial_object_metadata`]
/// (`asPartialObjectMetadataList`).
pub(crate) fn partial_object_metadata_list(list: &Value, version: TableVersion) -> Value {
    let items: Vec<Value> = list
        .get("items")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|item| partial_object_metadata(item, version))
        .collect();
    json!({
        "kind": "PartialObjectMetadataList",
        "apiVersion": version.api_version(),
        "metadata": list.get("metadata").cloned().unwrap_or_else(|| json!({})),
        "items": items,
    })
}

/// A whole float as a JSON integer (Go's `json.Marshal` writes `42`, not
/// `42.0`), other floats as they are.
fn number_cell(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 9e18 {
        Value::from(f as i64)
    } else {
        serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

/// apiextensions-apiserver `cellForJSONValue`: the cell of a non-string
/// column for a JSON value.
pub fn cell_for_json_value(column_type: &str, value: &Value, now: DateTime<Utc>) -> Value {
    match (column_type, value) {
        ("integer", Value::Number(n)) => match n.as_i64() {
            Some(i) => Value::from(i),
            // Go's int64(float64) conversion truncates toward zero.
            None => n.as_f64().map_or(Value::Null, |f| Value::from(f as i64)),
        },
        ("number", Value::Number(n)) => n.as_f64().map_or(Value::Null, number_cell),
        ("boolean", Value::Bool(b)) => Value::Bool(*b),
        ("string", Value::String(s)) => Value::String(s.clone()),
        ("date", Value::String(s)) => Value::String(age(s, now)),
        _ => Value::Null,
    }
}

/// A `date` cell: metav1.Time's `UnmarshalQueryParameter` (empty or
/// `null` is the zero time, shown `<unknown>`; otherwise RFC 3339, else
/// `<invalid>`), then apimachinery `ConvertToHumanReadableDateType`.
pub fn age(timestamp: &str, now: DateTime<Utc>) -> String {
    if timestamp.is_empty() || timestamp == "null" {
        return "<unknown>".into();
    }
    match DateTime::parse_from_rfc3339(timestamp) {
        Ok(t) => human_duration(now.signed_duration_since(t)),
        Err(_) => "<invalid>".into(),
    }
}

/// apimachinery `pkg/util/duration` `HumanDuration`: `45s`, `3m12s`,
/// `15m`, `5h20m`, `30h`, `3d4h`, `150d`, `3y10d`, `9y`; `<invalid>` more
/// than a second in the future.
pub fn human_duration(d: chrono::TimeDelta) -> String {
    let nanos: i128 = i128::from(d.num_seconds()) * 1_000_000_000 + i128::from(d.subsec_nanos());
    let seconds = nanos / 1_000_000_000; // truncated toward zero, like int(d.Seconds())
    if seconds < -1 {
        return "<invalid>".into();
    }
    if seconds < 0 {
        return "0s".into();
    }
    if seconds < 60 * 2 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{s}s")
        };
    }
    if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = seconds / 3600;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{h}h", hours / 24)
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let dy = (hours / 24) % 365;
        return if dy == 0 {
            format!("{}y", hours / 24 / 365)
        } else {
            format!("{}y{dy}d", hours / 24 / 365)
        };
    }
    format!("{}y", hours / 24 / 365)
}

mod builtin;
mod printers;

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;

/// The text at `pointer` in `object`, `""` when absent.
fn text_at(object: &Value, pointer: &str) -> String {
    object
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// The integer at `pointer` in `object`, 0 when absent.
fn int_at(object: &Value, pointer: &str) -> i64 {
    object.pointer(pointer).and_then(Value::as_i64).unwrap_or(0)
}

/// The time at `pointer` in `object` (a metav1 `Time` or `MicroTime`,
/// RFC 3339); `None` for Go's zero time: absent, `null`, or not a time.
fn time_at(object: &Value, pointer: &str) -> Option<DateTime<FixedOffset>> {
    DateTime::parse_from_rfc3339(object.pointer(pointer)?.as_str()?).ok()
}

/// `translateTimestampSince`: the age of a time, `<unknown>` for the zero
/// time.
fn since(time: Option<DateTime<FixedOffset>>, now: DateTime<Utc>) -> String {
    match time {
        Some(t) => human_duration(now.signed_duration_since(t)),
        None => "<unknown>".into(),
    }
}

/// `translateTimestampSince` of the object's creation.
fn age_of(object: &Value, now: DateTime<Utc>) -> String {
    since(time_at(object, "/metadata/creationTimestamp"), now)
}
