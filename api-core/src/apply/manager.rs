//! `metadata.managedFields` on every write, as the apiserver's field
//! manager keeps it (k8s.io/apimachinery `pkg/util/managedfields/internal`):
//! entries identified by manager, operation, API version (updates only)
//! and subresource; metadata fields the server sets are never owned; an
//! update's entry gains what it changed and gets a new time; at most ten
//! update entries (the oldest merged into `ancient-changes`); the first
//! apply to an object written without managedFields records its fields
//! under `before-first-apply`; entries sorted as the apiserver sorts them.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Value, json};

use super::fieldpath::{Path, PathElement, Set};
use super::typed::Schema;
use super::update::{Conflicts, ManagedFields, UpdateError, Updater, VersionedSet};
use crate::meta::{ManagedFieldsEntry, Time};
use crate::status::{Status, StatusCause};

/// The most update entries an object keeps (`DefaultMaxUpdateManagers`).
pub const MAX_UPDATE_MANAGERS: usize = 10;

/// The manager that receives the oldest update entries beyond the cap.
pub const ANCIENT_CHANGES: &str = "ancient-changes";

/// The manager of the fields an object had before its first apply.
pub const BEFORE_FIRST_APPLY: &str = "before-first-apply";

/// The annotation `kubectl apply` (client-side) keeps its last
/// configuration in.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The schema of `metadata` as the apiserver types it for apply: maps of
/// labels and annotations, finalizers a set, owner references keyed by
/// uid.
fn object_meta_schema() -> Value {
    let string = json!({"type": "string"});
    json!({
        "type": "object",
        "properties": {
            "name": string, "generateName": string, "namespace": string,
            "selfLink": string, "uid": string, "resourceVersion": string,
            "generation": {"type": "integer"},
            "creationTimestamp": string, "deletionTimestamp": string,
            "deletionGracePeriodSeconds": {"type": "integer"},
            "labels": {"type": "object", "additionalProperties": string},
            "annotations": {"type": "object", "additionalProperties": string},
            "finalizers": {"type": "array", "items": string, "x-kubernetes-list-type": "set"},
            "ownerReferences": {
                "type": "array",
                "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": ["uid"],
                "items": {"type": "object", "properties": {
                    "apiVersion": string, "kind": string, "name": string, "uid": string,
                    "controller": {"type": "boolean"}, "blockOwnerDeletion": {"type": "boolean"}
                }}
            },
            "managedFields": {"type": "array", "x-kubernetes-list-type": "atomic",
                              "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}
        }
    })
}

/// The schema of a kind's objects for apply: its CRD schema with
/// `metadata` typed as ObjectMeta.
pub fn resource_schema(openapi_v3: &Value) -> Schema {
    let mut schema = openapi_v3.clone();
    if let Some(properties) = schema
        .as_object_mut()
        .map(|s| s.entry("properties").or_insert_with(|| json!({})))
        .and_then(Value::as_object_mut)
    {
        properties.insert("metadata".into(), object_meta_schema());
        // Every object has them, declared or not (apiextensions' builder
        // adds them to a CRD's schema): a CRD whose schema leaves them out
        // does not make them unknown fields.
        for field in ["apiVersion", "kind"] {
            properties
                .entry(field)
                .or_insert_with(|| json!({"type": "string"}));
        }
    }
    add_embedded_properties(&mut schema);
    Schema::new(&schema)
}

/// `addEmbeddedProperties` of apiextensions' OpenAPI builder, whose
/// models the apiserver applies with: every `x-kubernetes-embedded-resource`
/// object has `apiVersion` and `kind` strings and an ObjectMeta `metadata`,
/// declared or not (so they are not unknown fields, and `metadata` merges
/// as ObjectMeta).
fn add_embedded_properties(schema: &mut Value) {
    let mut stack = vec![schema];
    while let Some(node) = stack.pop() {
        let Some(members) = node.as_object_mut() else {
            continue;
        };
        if members.get("x-kubernetes-embedded-resource") == Some(&Value::Bool(true))
            && let Some(properties) = members
                .entry("properties")
                .or_insert_with(|| json!({}))
                .as_object_mut()
        {
            properties.insert("apiVersion".into(), json!({"type": "string"}));
            properties.insert("kind".into(), json!({"type": "string"}));
            properties.insert("metadata".into(), object_meta_schema());
        }
        for (key, value) in members.iter_mut() {
            match key.as_str() {
                "properties" => {
                    if let Some(properties) = value.as_object_mut() {
                        stack.extend(properties.values_mut());
                    }
                }
                "items" | "additionalProperties" => stack.push(value),
                _ => {}
            }
        }
    }
}

/// The apply schema of kinds served without one (built-in kinds such as
/// Namespaces and the RBAC kinds): everything deduced (objects granular,
/// lists atomic), `metadata` typed.
pub fn untyped_schema() -> &'static Schema {
    static UNTYPED: std::sync::LazyLock<Schema> = std::sync::LazyLock::new(|| {
        resource_schema(&json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}))
    });
    &UNTYPED
}

/// Fields no manager owns (`stripMetaManager`), built once.
fn strip_set() -> &'static Set {
    static STRIP: std::sync::LazyLock<Set> = std::sync::LazyLock::new(build_strip_set);
    &STRIP
}

fn build_strip_set() -> Set {
    let mut set = Set::from_paths([
        Path::fields(&["apiVersion"]),
        Path::fields(&["kind"]),
        Path::fields(&["metadata"]),
    ]);
    for f in [
        "name",
        "namespace",
        "creationTimestamp",
        "selfLink",
        "uid",
        "clusterName",
        "generation",
        "managedFields",
        "resourceVersion",
    ] {
        set.insert(&[PathElement::field("metadata"), PathElement::field(f)]);
    }
    set
}

/// The fields a write may not own (the strategy's reset fields, as
/// apiextensions' custom resource strategies declare them): `status` for
/// the main resource of a kind with a status subresource, `spec` for its
/// status subresource, nothing otherwise.
pub fn reset_fields(has_status_subresource: bool, subresource: &str) -> Set {
    match (has_status_subresource, subresource) {
        (true, "") => Set::from_paths([Path::fields(&["status"])]),
        (_, "status") => Set::from_paths([Path::fields(&["spec"])]),
        _ => Set::new(),
    }
}

/// Whether a request's JSON clears managedFields with an empty list
/// (`"managedFields": []`), which the apiserver reads as a reset
/// (`isResetManagedFields`), as it reads `[{}]`. A typed object cannot
/// tell an empty list from none (which keeps the live entries), so a
/// caller that decodes the JSON into one marks the reset with
/// [`reset_marker`].
pub fn clears_managed_fields(object: &Value) -> bool {
    object
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .is_some_and(Vec::is_empty)
}

/// The managedFields that ask a write to clear them: one empty entry, as
/// the Kubernetes documentation's "Clearing managedFields" sends.
pub fn reset_marker() -> Vec<ManagedFieldsEntry> {
    vec![ManagedFieldsEntry::default()]
}

/// Who writes: the manager name, and the API version and subresource of
/// the request.
#[derive(Clone, Debug)]
pub struct Writer<'a> {
    /// `fieldManager`, or the client's program name when none is given.
    pub manager: &'a str,
    /// The request's group/version (`cache.example.com/v1alpha1`).
    pub api_version: &'a str,
    /// `status`, `scale`, or empty for the main resource.
    pub subresource: &'a str,
}

/// The identifier of an entry (`BuildManagerIdentifier`): the entry's
/// JSON without its fields and time, and without the API version for an
/// apply.
fn identifier(manager: &str, operation: &str, api_version: &str, subresource: &str) -> String {
    let entry = ManagedFieldsEntry {
        manager: if manager.is_empty() {
            "unknown".into()
        } else {
            manager.into()
        },
        operation: operation.into(),
        api_version: if operation == "Apply" {
            String::new()
        } else {
            api_version.into()
        },
        subresource: subresource.into(),
        ..ManagedFieldsEntry::default()
    };
    serde_json::to_string(&entry).unwrap_or_default()
}

fn parse_identifier(id: &str) -> ManagedFieldsEntry {
    serde_json::from_str(id).unwrap_or_else(|_| ManagedFieldsEntry {
        manager: id.into(),
        ..ManagedFieldsEntry::default()
    })
}

/// Field sets and times by identifier.
#[derive(Clone, Debug, Default)]
struct Managed {
    fields: ManagedFields,
    times: BTreeMap<String, Option<Time>>,
}

/// Reads `metadata.managedFields` (`DecodeManagedFields`).
fn decode(entries: &[ManagedFieldsEntry]) -> Result<Managed, String> {
    let mut out = Managed::default();
    for (i, e) in entries.iter().enumerate() {
        if !matches!(e.operation.as_str(), "Apply" | "Update") {
            return Err("operation must be `Apply` or `Update`".into());
        }
        if e.api_version.is_empty() {
            return Err("apiVersion must not be empty".into());
        }
        match e.fields_type.as_str() {
            "FieldsV1" => {}
            "" => return Err(format!("missing fieldsType in managed fields entry {i}")),
            other => {
                return Err(format!(
                    "invalid fieldsType {other:?} in managed fields entry {i}"
                ));
            }
        }
        let id = identifier(&e.manager, &e.operation, &e.api_version, &e.subresource);
        let set = match &e.fields_v1 {
            Some(v) => Set::from_fields_v1(v).map_err(|m| format!("error decoding set: {m}"))?,
            None => Set::new(),
        };
        out.fields.insert(
            id.clone(),
            VersionedSet {
                set,
                api_version: e.api_version.clone(),
                applied: e.operation == "Apply",
            },
        );
        out.times.insert(id, e.time);
    }
    Ok(out)
}

/// Writes the entries, sorted by operation, time (seconds), manager, API
/// version and subresource (`encodeManagedFields`).
fn encode(managed: &Managed) -> Vec<ManagedFieldsEntry> {
    let mut entries: Vec<ManagedFieldsEntry> = managed
        .fields
        .iter()
        .map(|(id, vs)| {
            let mut e = parse_identifier(id);
            e.api_version = vs.api_version.clone();
            if vs.applied {
                e.operation = "Apply".into();
            }
            e.fields_type = "FieldsV1".into();
            e.fields_v1 = Some(vs.set.to_fields_v1());
            e.time = managed.times.get(id).copied().flatten();
            e
        })
        .collect();
    let seconds = |t: &Option<Time>| t.map_or(0, |t| t.unix_seconds());
    entries.sort_by(|p, q| {
        p.operation
            .cmp(&q.operation)
            .then_with(|| seconds(&p.time).cmp(&seconds(&q.time)))
            .then_with(|| p.manager.cmp(&q.manager))
            .then_with(|| p.api_version.cmp(&q.api_version))
            .then_with(|| p.subresource.cmp(&q.subresource))
    });
    entries
}

fn entries_of(object: &Value) -> Option<Vec<ManagedFieldsEntry>> {
    object
        .pointer("/metadata/managedFields")
        .map(|v| Vec::<ManagedFieldsEntry>::deserialize(v).unwrap_or_default())
}

fn set_entries(object: &mut Value, entries: Vec<ManagedFieldsEntry>) {
    let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    if entries.is_empty() {
        meta.remove("managedFields");
    } else {
        meta.insert(
            "managedFields".into(),
            serde_json::to_value(entries).unwrap_or_default(),
        );
    }
}

fn without_managed_fields(object: &Value) -> Value {
    let mut out = object.clone();
    if let Some(meta) = out.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.remove("managedFields");
    }
    out
}

/// The apiserver's field manager for one kind.
#[derive(Debug)]
pub struct FieldManager<'s> {
    schema: &'s Schema,
    now: Time,
    reset: Option<&'s Set>,
}

impl<'s> FieldManager<'s> {
    /// A field manager over the kind's schema (see [`resource_schema`]),
    /// stamping entries with `now`.
    pub fn new(schema: &'s Schema, now: Time) -> Self {
        FieldManager {
            schema,
            now,
            reset: None,
        }
    }

    /// Never gives ownership of these fields (see [`reset_fields`]).
    pub fn with_reset(mut self, reset: &'s Set) -> Self {
        self.reset = Some(reset);
        self
    }

    fn updater(&self) -> Updater<'s> {
        match self.reset {
            Some(reset) => Updater::new(self.schema).with_reset(reset),
            None => Updater::new(self.schema),
        }
    }

    /// `metadata.managedFields` of `new` after a create, update or patch
    /// from `live` (`Value::Null` for a create) by `writer`. The request's
    /// own managedFields are kept when it sends some (an empty list resets
    /// them); an object that exists without managedFields stays without,
    /// as the apiserver leaves objects it never tracked.
    pub fn update(&self, live: &Value, new: &mut Value, writer: &Writer<'_>) {
        let request = new
            .get_mut("metadata")
            .and_then(Value::as_object_mut)
            .and_then(|m| m.remove("managedFields"))
            .map(|v| serde_json::from_value::<Vec<ManagedFieldsEntry>>(v).unwrap_or_default());
        let live_entries = entries_of(live).unwrap_or_default();
        let entries = self.update_entries(live, &live_entries, new, request.as_deref(), writer);
        set_entries(new, entries);
    }

    /// [`FieldManager::update`] for callers that keep managedFields apart
    /// from the object's JSON (a typed object's `metadata.managed_fields`):
    /// the entries of `new` after the write from `live` (with
    /// `live_entries`) by `writer`. `request` is what the request sent
    /// (`None`: nothing, so the live entries carry over). A
    /// `metadata.managedFields` left in `live` or `new` is ignored.
    pub fn update_entries(
        &self,
        live: &Value,
        live_entries: &[ManagedFieldsEntry],
        new: &Value,
        request: Option<&[ManagedFieldsEntry]>,
        writer: &Writer<'_>,
    ) -> Vec<ManagedFieldsEntry> {
        let subresource = !writer.subresource.is_empty();
        let live_managed = || decode(live_entries).unwrap_or_default();
        let mut managed = match request {
            _ if subresource => live_managed(),
            Some(e) if e.is_empty() || (e.len() == 1 && e[0] == ManagedFieldsEntry::default()) => {
                Managed::default()
            }
            Some(e) => match decode(e) {
                Ok(m) if !m.fields.is_empty() => m,
                _ => live_managed(),
            },
            None => live_managed(),
        };
        // skipNonApplied: an existing object that was never tracked.
        let existing = live
            .pointer("/metadata/uid")
            .and_then(Value::as_str)
            .is_some_and(|u| !u.is_empty());
        if managed.fields.is_empty() && existing {
            return Vec::new();
        }
        let id = identifier(
            writer.manager,
            "Update",
            writer.api_version,
            writer.subresource,
        );
        let fields = std::mem::take(&mut managed.fields);
        // An update never conflicts, so this does not fail; if it did, the
        // apiserver would keep what the object had.
        let Ok((fields, changed)) = self.update_fields(live, new, writer.api_version, fields, &id)
        else {
            return live_entries.to_vec();
        };
        managed.fields = fields;
        if changed {
            managed.times.insert(id, Some(self.now));
        }
        self.cap_updaters(&mut managed);
        encode(&managed)
    }

    /// `managedFieldsUpdater` + `stripMetaManager` around the updater's
    /// update: the manager's entry gains what the update changed; whether
    /// it changed anything.
    fn update_fields(
        &self,
        live: &Value,
        new: &Value,
        version: &str,
        managers: ManagedFields,
        id: &str,
    ) -> Result<(ManagedFields, bool), UpdateError> {
        const CURRENT: &str = "current-operation";
        let mut managers = self
            .updater()
            .update(live, new, version, managers, CURRENT)?;
        strip(&mut managers, CURRENT);
        let Some(current) = managers.remove(CURRENT) else {
            return Ok((managers, false));
        };
        let set = match managers.remove(id) {
            Some(mut previous) => {
                previous.set.union_with(&current.set);
                previous.set
            }
            None => current.set,
        };
        managers.insert(
            id.to_string(),
            VersionedSet {
                set,
                api_version: current.api_version,
                applied: current.applied,
            },
        );
        Ok((managers, true))
    }

    /// `capManagersManager`: beyond ten update entries, the oldest are
    /// merged (per API version) into `ancient-changes`.
    fn cap_updaters(&self, managed: &mut Managed) {
        let mut updaters: Vec<String> = managed
            .fields
            .iter()
            .filter(|(_, vs)| !vs.applied)
            .map(|(id, _)| id.clone())
            .collect();
        if updaters.len() <= MAX_UPDATE_MANAGERS {
            return;
        }
        let seconds = |id: &String| {
            managed
                .times
                .get(id)
                .copied()
                .flatten()
                .map_or(0, |t| t.unix_seconds())
        };
        updaters.sort_by(|a, b| seconds(a).cmp(&seconds(b)).then_with(|| a.cmp(b)));
        let mut first_of_version: BTreeMap<String, String> = BTreeMap::new();
        let mut length = updaters.len();
        for id in updaters {
            if length <= MAX_UPDATE_MANAGERS {
                break;
            }
            let Some(vs) = managed.fields.get(&id).cloned() else {
                continue;
            };
            let time = managed.times.get(&id).copied().flatten();
            let bucket = identifier(ANCIENT_CHANGES, "Update", &vs.api_version, "");
            match first_of_version.get(&vs.api_version) {
                Some(first) => {
                    if !managed.fields.contains_key(&bucket)
                        && let Some(s) = managed.fields.remove(first)
                    {
                        managed.fields.insert(bucket.clone(), s);
                    }
                    let merged = managed
                        .fields
                        .get(&bucket)
                        .map_or_else(|| vs.set.clone(), |b| vs.set.union(&b.set));
                    managed.fields.insert(
                        bucket.clone(),
                        VersionedSet {
                            set: merged,
                            api_version: vs.api_version.clone(),
                            applied: vs.applied,
                        },
                    );
                    managed.fields.remove(&id);
                    length -= 1;
                    managed.times.insert(bucket, time);
                }
                None => {
                    first_of_version.insert(vs.api_version.clone(), id);
                }
            }
        }
    }

    /// A server-side apply of `applied` (the request body as JSON) to
    /// `live` (`Value::Null` when the object does not exist yet) by
    /// `writer`: the new object with its managedFields, or `None` when
    /// nothing would change; 409 `Conflict` naming each field another
    /// manager owns, unless `force`.
    pub fn apply(
        &self,
        live: &Value,
        applied: &Value,
        writer: &Writer<'_>,
        force: bool,
    ) -> Result<Option<Value>, Status> {
        if applied
            .pointer("/metadata/managedFields")
            .is_some_and(|m| !m.is_null())
        {
            return Err(Status::bad_request("metadata.managedFields must be nil"));
        }
        if let Some(version) = applied.get("apiVersion").and_then(Value::as_str)
            && version != writer.api_version
        {
            return Err(Status::bad_request(format!(
                "Incorrect version specified in apply patch. Specified patch version: {version}, expected: {}",
                writer.api_version
            )));
        }
        let mut managed = match entries_of(live) {
            Some(e) => decode(&e).map_err(|m| {
                Status::internal_error(format!("failed to decode managed fields: {m}"))
            })?,
            None => Managed::default(),
        };
        let live_bare = without_managed_fields(live);
        if managed.fields.is_empty() && !live_bare.is_null() {
            // skipNonApplied: what is there belongs to before-first-apply.
            let id = identifier(BEFORE_FIRST_APPLY, "Update", writer.api_version, "");
            if let Ok((fields, changed)) = self.update_fields(
                &Value::Null,
                &live_bare,
                writer.api_version,
                ManagedFields::new(),
                &id,
            ) {
                managed.fields = fields;
                if changed {
                    managed.times.insert(id, Some(self.now));
                }
            }
        }
        let id = identifier(
            writer.manager,
            "Apply",
            writer.api_version,
            writer.subresource,
        );
        let result = self.apply_fields(&live_bare, applied, writer, &managed, &id, force);
        let (new, fields) = match result {
            Err(UpdateError::Conflicts(conflicts)) if writer.manager == "kubectl" => {
                // lastAppliedManager: conflicts with what kubectl applied
                // client-side are not conflicts.
                let allowed = self.allowed_from_last_applied(live, writer);
                if conflicts.0.iter().all(|c| allowed.has(&c.path.0)) {
                    self.apply_fields(&live_bare, applied, writer, &managed, &id, true)
                } else {
                    let rest = Conflicts(
                        conflicts
                            .0
                            .into_iter()
                            .filter(|c| !allowed.has(&c.path.0))
                            .collect(),
                    );
                    Err(UpdateError::Conflicts(rest))
                }
            }
            other => other,
        }
        .map_err(|e| match e {
            UpdateError::Conflicts(c) => conflict_status(&c),
            UpdateError::Invalid(m) => Status::bad_request(m),
        })?;
        managed.fields = fields;
        // The object did not change: the owners may have (a second applier
        // of the same values shares them), and then the object is written
        // with its new managedFields; else nothing is.
        let Some(mut new) = new else {
            let mut same = live_bare;
            set_entries(&mut same, encode(&managed));
            return Ok((same != *live).then_some(same));
        };
        managed.times.insert(id, Some(self.now));
        if writer.manager == "kubectl"
            && let Some(annotations) = new
                .pointer_mut("/metadata/annotations")
                .and_then(Value::as_object_mut)
            && annotations
                .get(LAST_APPLIED)
                .and_then(Value::as_str)
                .is_some_and(|s| !s.is_empty())
        {
            // lastAppliedUpdater: keep kubectl's annotation current.
            let mut config = applied.clone();
            if let Some(a) = config
                .pointer_mut("/metadata/annotations")
                .and_then(Value::as_object_mut)
            {
                a.remove(LAST_APPLIED);
            }
            annotations.insert(LAST_APPLIED.into(), Value::String(format!("{config}\n")));
        }
        set_entries(&mut new, encode(&managed));
        Ok(Some(new))
    }

    fn apply_fields(
        &self,
        live: &Value,
        applied: &Value,
        writer: &Writer<'_>,
        managed: &Managed,
        id: &str,
        force: bool,
    ) -> Result<(Option<Value>, ManagedFields), UpdateError> {
        let (new, mut fields) = self.updater().apply(
            live,
            applied,
            writer.api_version,
            managed.fields.clone(),
            id,
            force,
        )?;
        strip(&mut fields, id);
        Ok((new, fields))
    }

    /// The fields of the last client-side configuration that still hold
    /// their applied values (`allowedConflictsFromLastApplied`).
    fn allowed_from_last_applied(&self, live: &Value, writer: &Writer<'_>) -> Set {
        let Some(text) = live
            .pointer("/metadata/annotations")
            .and_then(|a| a.get(LAST_APPLIED))
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
        else {
            return Set::new();
        };
        let Ok(last) = serde_json::from_str::<Value>(text) else {
            return Set::new();
        };
        if last.get("apiVersion").and_then(Value::as_str) != Some(writer.api_version) {
            return Set::new();
        }
        let c = self.schema.compare(&last, live);
        self.schema
            .to_field_set(&last)
            .difference(&c.modified)
            .difference(&c.added)
            .difference(&c.removed)
    }
}

/// Removes the server's metadata fields from `id`'s set.
fn strip(managers: &mut ManagedFields, id: &str) {
    if let Some(vs) = managers.get_mut(id) {
        vs.set.difference_with(strip_set());
        if vs.set.is_empty() {
            managers.remove(id);
        }
    }
}

/// How a manager is named in conflict messages (`printManager`).
fn print_manager(id: &str) -> String {
    let e = parse_identifier(id);
    let mut out = format!("{:?}", e.manager);
    if !e.subresource.is_empty() {
        out.push_str(&format!(" with subresource {:?}", e.subresource));
    }
    if e.operation == "Update" {
        out.push_str(&format!(" using {}", e.api_version));
    }
    out
}

/// The apiserver's 409 for apply conflicts (`NewConflictError`): one
/// `FieldManagerConflict` cause per field.
pub fn conflict_status(conflicts: &Conflicts) -> Status {
    let causes = conflicts
        .0
        .iter()
        .map(|c| StatusCause {
            reason: "FieldManagerConflict".into(),
            message: format!("conflict with {}", print_manager(&c.manager)),
            field: c.path.to_string(),
        })
        .collect();
    let message = match conflicts.0.as_slice() {
        [one] => format!(
            "Apply failed with 1 conflict: conflict with {}: {}",
            print_manager(&one.manager),
            one.path
        ),
        all => {
            let mut by_manager: BTreeMap<&str, Vec<String>> = BTreeMap::new();
            for c in all {
                by_manager
                    .entry(&c.manager)
                    .or_default()
                    .push(c.path.to_string());
            }
            let mut lines = Vec::new();
            for (manager, paths) in by_manager {
                lines.push(format!("conflicts with {}:", print_manager(manager)));
                lines.extend(paths.into_iter().map(|p| format!("- {p}")));
            }
            format!(
                "Apply failed with {} conflicts: {}",
                all.len(),
                lines.join("\n")
            )
        }
    };
    Status::apply_conflict(causes, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Schema {
        resource_schema(&json!({
            "type": "object",
            "properties": {
                "apiVersion": {"type": "string"}, "kind": {"type": "string"},
                "metadata": {"type": "object"},
                "data": {"type": "object", "additionalProperties": {"type": "string"}},
                "spec": {"type": "object", "properties": {
                    "size": {"type": "integer"},
                    "ports": {"type": "array", "x-kubernetes-list-type": "map",
                              "x-kubernetes-list-map-keys": ["name"],
                              "items": {"type": "object", "properties": {
                                  "name": {"type": "string"}, "port": {"type": "integer"}}}}
                }}
            }
        }))
    }

    fn time(s: &str) -> Time {
        s.parse().unwrap()
    }

    const V1: Writer<'static> = Writer {
        manager: "kubectl",
        api_version: "v1",
        subresource: "",
    };

    /// The Kubernetes documentation's server-side apply example: a
    /// ConfigMap applied by kubectl carries one Apply entry with the
    /// label and the data key.
    #[test]
    fn the_documented_configmap_example() {
        let schema = schema();
        let fm = FieldManager::new(&schema, time("2010-10-10T00:00:00Z"));
        let config = json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "test-cm", "namespace": "default", "labels": {"test-label": "test"}},
            "data": {"key": "some value"}});
        let created = fm
            .apply(&Value::Null, &config, &V1, false)
            .unwrap()
            .unwrap();
        assert_eq!(
            created["metadata"]["managedFields"],
            json!([{"manager": "kubectl", "operation": "Apply", "apiVersion": "v1",
                    "time": "2010-10-10T00:00:00Z", "fieldsType": "FieldsV1",
                    "fieldsV1": {"f:data": {"f:key": {}}, "f:metadata": {"f:labels": {"f:test-label": {}}}}}])
        );
        // The same apply again changes nothing.
        assert_eq!(fm.apply(&created, &config, &V1, false).unwrap(), None);
    }

    /// An update takes the fields it changes; an apply that changes them
    /// back conflicts, in the apiserver's words, unless forced.
    #[test]
    fn conflicts_name_the_manager_and_the_field() {
        let schema = schema();
        let fm = FieldManager::new(&schema, time("2026-01-01T00:00:00Z"));
        let alice = Writer {
            manager: "alice",
            api_version: "cache.example.com/v1alpha1",
            subresource: "",
        };
        let config = json!({"apiVersion": "cache.example.com/v1alpha1", "kind": "Memcached",
                            "metadata": {"name": "m"}, "spec": {"size": 1}});
        let created = fm
            .apply(
                &Value::Null,
                &config,
                &Writer {
                    manager: "bob",
                    ..alice.clone()
                },
                false,
            )
            .unwrap()
            .unwrap();
        let mut updated = created.clone();
        updated["spec"]["size"] = json!(3);
        updated["metadata"]["uid"] = json!("u1");
        let mut live = created.clone();
        live["metadata"]["uid"] = json!("u1");
        fm.update(&live, &mut updated, &alice);
        let entries = updated["metadata"]["managedFields"].as_array().unwrap();
        // Bob applied spec.size only: alice's update took it, so bob owns
        // nothing and his entry is gone.
        assert_eq!(entries.len(), 1, "{updated}");
        assert_eq!(entries[0]["manager"], "alice");
        assert_eq!(entries[0]["operation"], "Update");
        assert_eq!(entries[0]["fieldsV1"], json!({"f:spec": {"f:size": {}}}));

        let err = fm
            .apply(
                &updated,
                &config,
                &Writer {
                    manager: "bob",
                    ..alice.clone()
                },
                false,
            )
            .unwrap_err();
        assert_eq!(err.code, 409);
        assert_eq!(
            err.message,
            "Apply failed with 1 conflict: conflict with \"alice\" using cache.example.com/v1alpha1: .spec.size"
        );
        let cause = &err.details.as_ref().unwrap().causes[0];
        assert_eq!(
            (cause.reason.as_str(), cause.field.as_str()),
            ("FieldManagerConflict", ".spec.size")
        );

        let forced = fm
            .apply(
                &updated,
                &config,
                &Writer {
                    manager: "bob",
                    ..alice
                },
                true,
            )
            .unwrap()
            .unwrap();
        assert_eq!(forced["spec"]["size"], 1);
        let managers: Vec<_> = forced["metadata"]["managedFields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["manager"].as_str().unwrap())
            .collect();
        assert_eq!(managers, ["bob"], "alice lost her only field");
    }

    #[test]
    fn an_applier_that_stops_sending_a_field_removes_it() {
        let schema = schema();
        let fm = FieldManager::new(&schema, time("2026-01-01T00:00:00Z"));
        let w = Writer {
            manager: "ci",
            api_version: "v1",
            subresource: "",
        };
        let first = json!({"apiVersion": "v1", "kind": "X", "metadata": {"name": "x"},
                           "spec": {"size": 2, "ports": [{"name": "a", "port": 1}, {"name": "b", "port": 2}]}});
        let live = fm.apply(&Value::Null, &first, &w, false).unwrap().unwrap();
        let second = json!({"apiVersion": "v1", "kind": "X", "metadata": {"name": "x"},
                            "spec": {"ports": [{"name": "b", "port": 2}]}});
        let next = fm.apply(&live, &second, &w, false).unwrap().unwrap();
        assert_eq!(next["spec"], json!({"ports": [{"name": "b", "port": 2}]}));
        assert_eq!(
            next["metadata"]["managedFields"][0]["fieldsV1"],
            json!({"f:spec": {"f:ports": {"k:{\"name\":\"b\"}": {".": {}, "f:name": {}, "f:port": {}}}}})
        );
    }

    #[test]
    fn update_entries_are_capped_at_ten() {
        let schema = schema();
        let mut live =
            json!({"apiVersion": "v1", "kind": "X", "metadata": {"name": "x"}, "data": {}});
        for i in 0..12 {
            let fm = FieldManager::new(&schema, time(&format!("2026-01-01T00:00:{i:02}Z")));
            let mut new = live.clone();
            new["data"][format!("k{i}")] = json!("v");
            let manager = format!("m{i:02}");
            fm.update(
                &live,
                &mut new,
                &Writer {
                    manager: &manager,
                    api_version: "v1",
                    subresource: "",
                },
            );
            live = new;
            live["metadata"]["uid"] = json!("u");
        }
        let entries = live["metadata"]["managedFields"].as_array().unwrap();
        assert_eq!(entries.len(), 10);
        let names: Vec<_> = entries
            .iter()
            .map(|e| e["manager"].as_str().unwrap())
            .collect();
        assert!(names.contains(&ANCIENT_CHANGES), "{names:?}");
        let ancient = entries
            .iter()
            .find(|e| e["manager"] == ANCIENT_CHANGES)
            .unwrap();
        assert_eq!(
            ancient["fieldsV1"],
            json!({"f:data": {"f:k0": {}, "f:k1": {}, "f:k2": {}}}),
            "the three oldest merged"
        );
    }
}
