//! PATCH: JSON Patch (RFC 6902), JSON Merge Patch (RFC 7386) and strategic
//! merge patch, applied the way the apiserver applies them and failing with
//! the [`Status`] it answers.
//!
//! [`apply`] takes the stored object, the request body and its
//! [`PatchType`] (from the `Content-Type` header,
//! [`PatchType::from_content_type`]) and returns the patched object, which
//! the caller then decodes, defaults and validates like the body of an
//! update. [`strategic_merge`] is the strategic merge on already parsed JSON.
//!
//! ```
//! use api_core::patch::{PatchType, apply};
//! use serde_json::json;
//!
//! let schema = json!({
//!     "type": "object",
//!     "properties": {"spec": {"type": "object", "properties": {"ports": {
//!         "type": "array",
//!         "x-kubernetes-list-type": "map",
//!         "x-kubernetes-list-map-keys": ["name"],
//!         "items": {"type": "object", "properties": {
//!             "name": {"type": "string"}, "port": {"type": "integer"}}}}}}}
//! });
//! let stored = json!({"spec": {"ports": [{"name": "http", "port": 80}]}});
//!
//! // Strategic merge: list-map items merge by key.
//! let patch = br#"{"spec": {"ports": [{"name": "https", "port": 443}]}}"#;
//! let content_type = "application/strategic-merge-patch+json; charset=utf-8";
//! let patch_type = PatchType::from_content_type(content_type).unwrap();
//! let patched = apply(&stored, patch, patch_type, &schema).unwrap();
//! assert_eq!(patched, json!({"spec": {"ports": [
//!     {"name": "http", "port": 80}, {"name": "https", "port": 443}]}}));
//!
//! // Merge patch: lists are replaced.
//! let patched = apply(&stored, patch, PatchType::Merge, &schema).unwrap();
//! assert_eq!(patched, json!({"spec": {"ports": [{"name": "https", "port": 443}]}}));
//!
//! // JSON patch: a failed `test` is the apiserver's generic 422.
//! let test = br#"[{"op": "test", "path": "/spec/ports/0/port", "value": 8080}]"#;
//! let err = apply(&stored, test, PatchType::Json, &schema).unwrap_err();
//! assert_eq!(err.code, 422);
//! assert_eq!(err.message, "the server rejected our request due to an error in our request");
//! ```
//!
//! # Errors, as the apiserver answers them
//!
//! They mirror `k8s.io/apiserver/pkg/endpoints/handlers/patch.go` with the
//! default `fieldValidation` (`Warn`):
//!
//! - A body that is not JSON, or not of the shape the patch type needs (an
//!   array of operation objects whose `op`, `path` and `from` are strings;
//!   an object for the two merge patches), is a 400 `BadRequest` naming the
//!   problem (`error decoding patch: ...`).
//! - A JSON patch of more than [`MAX_JSON_PATCH_OPERATIONS`] operations is
//!   a 413 `RequestEntityTooLarge`, as in the apiserver.
//! - A JSON patch that cannot be applied is the apiserver's
//!   `NewGenericServerResponse(422, ...)`: 422 `Invalid`, the message
//!   `the server rejected our request due to an error in our request` and
//!   empty details, whatever the cause: a failed `test`, a `path` or `from`
//!   that does not exist, an array index out of range, an unknown `op`, an
//!   operation without its `path`/`value`/`from`, a `move` into its own
//!   child, or `copy` operations that together copy more than
//!   [`JSON_PATCH_MAX_COPY_BYTES`] (the apiserver's `JSONPatchMaxCopyBytes`).
//!   The apiserver drops the underlying error and so does this module, so
//!   that clients which look for that exact answer (to tell a lost `test`
//!   race) behave the same against both.
//! - Strategic merge patch errors are 400 `BadRequest` with a message that
//!   starts with the field path (`spec.ports[1]: map: {...} does not contain
//!   declared merge key: name`). The apiserver answers the same for the
//!   malformed directive formats (`invalid patch format of primitive list`,
//!   `... of retainKeys`, `... of setElementOrder list`); for the other
//!   problems (a missing merge key, an unknown `$patch` value, an item of
//!   the wrong type) it passes apimachinery's plain error through, which
//!   ends as a 500; here they are the client's 400.
//!
//! None of these functions panics, whatever the input: deep nesting is
//! refused by the JSON parser (128 levels) and by [`strategic_merge`]'s own
//! limit, huge array indexes are a 422, and `$patch` in odd places is a 400.
//!
//! # Strategic merge patch
//!
//! The registry serves strategic merge patch as an aggregated API server
//! would; CRD-backed APIs on a real cluster accept JSON patch, merge patch
//! and server-side apply only (the apiserver answers 415
//! `UnsupportedMediaType` to a strategic merge patch of a custom resource).
//!
//! An aggregated API server takes the merge rules from the Go struct tags
//! (`patchStrategy`, `patchMergeKey`); here they come from the resource's
//! OpenAPI schema (the CRD's `openAPIV3Schema`), walked through
//! `properties`, `additionalProperties` and `items` alongside the patch:
//!
//! - Objects merge recursively; a `null` value deletes the key. An object
//!   whose schema says `x-kubernetes-map-type: atomic` is replaced.
//! - `x-kubernetes-list-type: map` lists merge by their
//!   `x-kubernetes-list-map-keys` (all of them, so multi-key list maps work;
//!   a key missing from an item counts as the key's schema `default` when it
//!   has one): a patch item whose key tuple matches an item of the object
//!   is merged into it recursively, in place; the others are appended in
//!   patch order; items the patch does not name are kept.
//! - `x-kubernetes-list-type: set` lists are the union of the two lists
//!   without duplicates: the object's items in their order, then the
//!   patch's new ones.
//! - `atomic` lists and lists without a list type are replaced.
//! - Directives:
//!   - `{"$patch": "delete", <keys>}` as an item of a list map deletes the
//!     items with those keys, before the rest of the list is merged (as in
//!     apimachinery), so that a patch that also has an item with those keys
//!     replaces the item, in place;
//!   - `{"$patch": "replace"}` as an item of a list replaces the list with
//!     the patch's other items;
//!   - `"$patch": "replace"` in an object replaces the object with the rest
//!     of the patch object; `"$patch": "delete"` empties the object (as in
//!     apimachinery); `"$patch": "merge"` is the default and changes
//!     nothing;
//!   - `"$deleteFromPrimitiveList/<field>": [...]` removes those values
//!     from the `set` list `<field>`, after `<field>` itself is merged, so
//!     that a value the patch both adds and removes is removed
//!     (apimachinery does the two in map order, which is random);
//!   - `"$retainKeys": [...]` removes the fields of the object that are not
//!     listed, and rejects a patch that sets a field it does not list;
//!   - `"$setElementOrder/<field>": [...]` (the values of a set, or objects
//!     with the keys of a list map) reorders the `set` or `map` list
//!     `<field>` as apimachinery does: the listed items in the listed
//!     order, each unlisted item of the object just before the first
//!     listed item that came after it in the object; the patch's own items
//!     of `<field>` must follow the listed order;
//!   - any other key that starts with `$` (and is not a property of the
//!     schema), and any other `$patch` value, is a 400.
//! - List-map keys are strings, numbers or booleans: a patch item whose key
//!   is an object or a list is a 400.
//! - Parts of the patch that land where the object has nothing (a new key,
//!   a new list item, a replaced value) are built by merging them into
//!   nothing: their `null`s are dropped and their directives applied,
//!   where apimachinery would store them verbatim.
//! - `metadata` follows ObjectMeta's Go tags where the schema says nothing
//!   more (a CRD schema declares `metadata` as a bare object):
//!   `finalizers` is a set and `ownerReferences` a list map keyed by `uid`.
//!
//! Differences from apimachinery's `strategicpatch`: it moves the items a
//! merged list shares with the patch into the patch's order, where this
//! module keeps them in place (send `$setElementOrder` to reorder, as
//! kubectl does); it merges list maps by a single key only; and the
//! extensions above (multi-key list maps, `set` unions of any JSON values,
//! `$patch: merge`, `$patch: replace` in sets) are errors or unsupported
//! there.

mod strategic;

use std::fmt;
use std::io;

use serde_json::Value;

use crate::status::{Status, StatusDetails, StatusReason};

pub use strategic::{MAX_DEPTH, strategic_merge};

/// The most operations a JSON patch may have, as in the apiserver
/// (`maxJSONPatchOperations`); more is a 413 `RequestEntityTooLarge`.
pub const MAX_JSON_PATCH_OPERATIONS: usize = 10_000;

/// How many bytes (of JSON) the `copy` operations of one JSON patch may copy
/// in all: the apiserver's default `JSONPatchMaxCopyBytes` (3 MiB), which
/// keeps a patch from doubling the object again and again.
pub const JSON_PATCH_MAX_COPY_BYTES: usize = 3 * 1024 * 1024;

/// The kind of a PATCH request, given by its `Content-Type`
/// (apimachinery's `types.PatchType`, without server-side apply).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatchType {
    /// JSON Patch (RFC 6902): a list of operations,
    /// `application/json-patch+json`.
    Json,
    /// JSON Merge Patch (RFC 7386): a partial object whose lists replace
    /// and whose `null`s delete, `application/merge-patch+json`.
    Merge,
    /// Kubernetes strategic merge patch: a merge patch whose lists merge as
    /// the schema says, `application/strategic-merge-patch+json`.
    StrategicMerge,
}

impl PatchType {
    /// Every patch type, in the order the apiserver lists them.
    pub const ALL: [PatchType; 3] = [PatchType::Json, PatchType::Merge, PatchType::StrategicMerge];

    /// The media type of this patch type (`application/merge-patch+json`).
    pub const fn content_type(self) -> &'static str {
        match self {
            PatchType::Json => "application/json-patch+json",
            PatchType::Merge => "application/merge-patch+json",
            PatchType::StrategicMerge => "application/strategic-merge-patch+json",
        }
    }

    /// The patch type of a `Content-Type` header value; parameters
    /// (`; charset=utf-8`) and surrounding spaces are ignored and the media
    /// type is matched without regard to case. `None` for any other media
    /// type (the apiserver answers those with a 415, see
    /// [`PatchType::parse_content_type`]).
    ///
    /// ```
    /// use api_core::patch::PatchType;
    ///
    /// assert_eq!(
    ///     PatchType::from_content_type("application/merge-patch+json; charset=utf-8"),
    ///     Some(PatchType::Merge)
    /// );
    /// assert_eq!(PatchType::from_content_type("application/json"), None);
    /// ```
    pub fn from_content_type(content_type: &str) -> Option<Self> {
        let media_type = content_type.split(';').next().unwrap_or("").trim();
        PatchType::ALL
            .into_iter()
            .find(|t| t.content_type().eq_ignore_ascii_case(media_type))
    }

    /// [`PatchType::from_content_type`], with the apiserver's answer to an
    /// unsupported `Content-Type` as the error: 415 `UnsupportedMediaType`
    /// listing the three patch media types.
    pub fn parse_content_type(content_type: &str) -> Result<Self, Status> {
        PatchType::from_content_type(content_type).ok_or_else(|| {
            Status::unsupported_media_type(&PatchType::ALL.map(PatchType::content_type))
        })
    }
}

impl fmt::Display for PatchType {
    /// The media type ([`PatchType::content_type`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.content_type())
    }
}

/// Applies the PATCH body `patch` of type `patch_type` to `original` (the
/// stored object as JSON) and returns the patched object.
///
/// JSON patch and merge patch are applied with the `json-patch` crate and
/// ignore `schema`; strategic merge patch is [`strategic_merge`] driven by
/// `schema`, the resource's OpenAPI v3 schema (a CRD version's
/// `schema.openAPIV3Schema`; `{}` or `null` when there is none, which makes
/// every list atomic). See the [module documentation](self) for the errors.
///
/// The result is not decoded, defaulted or validated: do that as for the
/// body of an update (a JSON patch may even replace the whole object with
/// something that is not an object).
pub fn apply(
    original: &Value,
    patch: &[u8],
    patch_type: PatchType,
    schema: &Value,
) -> Result<Value, Status> {
    match patch_type {
        PatchType::Json => apply_json_patch(original, patch),
        PatchType::Merge => {
            let patch = decode_object(patch, "a merge patch")?;
            let mut doc = original.clone();
            json_patch::merge(&mut doc, &patch);
            Ok(doc)
        }
        PatchType::StrategicMerge => {
            let patch = decode_object(patch, "a strategic merge patch")?;
            strategic_merge(original, &patch, schema)
        }
    }
}

/// The apiserver's answer to a JSON patch that does not apply:
/// `NewGenericServerResponse(422, "", GroupResource{}, "", err, 0, false)`,
/// which keeps the code and the reason and drops the error.
fn not_applied() -> Status {
    let mut status = Status::failure(
        StatusReason::Invalid,
        "the server rejected our request due to an error in our request",
    );
    status.details = Some(StatusDetails::default());
    status
}

/// The JSON type of `value`, for messages.
pub(crate) fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn decode_error(detail: impl fmt::Display) -> Status {
    Status::bad_request(format!("error decoding patch: {detail}"))
}

/// Parses a merge patch body, which must be a JSON object.
fn decode_object(patch: &[u8], what: &str) -> Result<Value, Status> {
    let value: Value = serde_json::from_slice(patch).map_err(decode_error)?;
    if !value.is_object() {
        return Err(decode_error(format_args!(
            "{what} must be a JSON object, not {}",
            json_kind(&value)
        )));
    }
    Ok(value)
}

fn apply_json_patch(original: &Value, patch: &[u8]) -> Result<Value, Status> {
    let body: Value = serde_json::from_slice(patch).map_err(decode_error)?;
    let Value::Array(operations) = body else {
        return Err(decode_error(format_args!(
            "a JSON patch must be a JSON array of operations, not {}",
            json_kind(&body)
        )));
    };
    // What the apiserver's strict decoding into `[]jsonPatchOp` rejects.
    for (i, operation) in operations.iter().enumerate() {
        let Value::Object(fields) = operation else {
            return Err(decode_error(format_args!(
                "operation {i} must be a JSON object, not {}",
                json_kind(operation)
            )));
        };
        for name in ["op", "path", "from"] {
            match fields.get(name) {
                None | Some(Value::Null) | Some(Value::String(_)) => {}
                Some(other) => {
                    return Err(decode_error(format_args!(
                        "operation {i}: {name:?} must be a string, not {}",
                        json_kind(other)
                    )));
                }
            }
        }
    }
    if operations.len() > MAX_JSON_PATCH_OPERATIONS {
        return Err(Status::request_entity_too_large(format_args!(
            "The allowed maximum operations in a JSON patch is {MAX_JSON_PATCH_OPERATIONS}, got {}",
            operations.len()
        )));
    }

    let mut doc = original.clone();
    let mut copy_budget = JSON_PATCH_MAX_COPY_BYTES;
    for operation in operations {
        // Like evanphx/json-patch, which the apiserver uses, operations are
        // only checked when they are applied: an unknown `op` or a missing
        // field is a 422, not a 400.
        let operation: json_patch::PatchOperation =
            serde_json::from_value(operation).map_err(|_| not_applied())?;
        if let json_patch::PatchOperation::Copy(copy) = &operation
            && let Some(source) = doc.pointer(copy.from.as_str())
        {
            copy_budget = spend(copy_budget, source).ok_or_else(not_applied)?;
        }
        // evanphx/json-patch passes a `test` for `null` of a key its
        // object lacks (kube-rs' finalizer helper tests
        // `/metadata/finalizers` for `null` before adding the first one,
        // and the apiserver omits an empty list).
        if let json_patch::PatchOperation::Test(test) = &operation
            && test.value.is_null()
            && doc.pointer(test.path.as_str()).is_none()
            && test
                .path
                .parent()
                .and_then(|parent| doc.pointer(parent.as_str()))
                .is_some_and(Value::is_object)
        {
            continue;
        }
        // `patch_unsafe` applies without keeping an undo log: the document
        // is a copy that is dropped on error anyway.
        json_patch::patch_unsafe(&mut doc, std::slice::from_ref(&operation))
            .map_err(|_| not_applied())?;
    }
    Ok(doc)
}

/// What is left of `budget` bytes after copying `value`, or `None` when its
/// JSON is larger.
fn spend(budget: usize, value: &Value) -> Option<usize> {
    struct Budget(usize);

    impl io::Write for Budget {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0 = self
                .0
                .checked_sub(buf.len())
                .ok_or_else(|| io::Error::other("copy limit exceeded"))?;
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    let mut left = Budget(budget);
    serde_json::to_writer(&mut left, value).ok()?;
    Some(left.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn content_types_round_trip() {
        for t in PatchType::ALL {
            assert_eq!(PatchType::from_content_type(t.content_type()), Some(t));
            assert_eq!(t.to_string(), t.content_type());
        }
        assert_eq!(
            PatchType::from_content_type(" Application/JSON-Patch+JSON ;charset=utf-8"),
            Some(PatchType::Json)
        );
        assert_eq!(PatchType::from_content_type(""), None);
        assert_eq!(PatchType::from_content_type(";"), None);
        let err = PatchType::parse_content_type("application/apply-patch+yaml").unwrap_err();
        assert_eq!(err.code, 415);
        assert!(err.message.ends_with(
            "application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json"
        ));
    }

    // evanphx/json-patch's `test` (the apiserver's): `null` matches a key
    // its object lacks, not a missing object; other values must be there.
    #[test]
    fn a_test_for_null_passes_on_a_missing_key() {
        let doc = json!({"metadata": {"name": "a"}});
        let run = |ops: Value| {
            apply(
                &doc,
                ops.to_string().as_bytes(),
                PatchType::Json,
                &json!({}),
            )
        };
        let added = run(json!([
            {"op": "test", "path": "/metadata/finalizers", "value": null},
            {"op": "add", "path": "/metadata/finalizers", "value": ["f"]}
        ]))
        .unwrap();
        assert_eq!(added["metadata"]["finalizers"], json!(["f"]));
        assert_eq!(
            run(json!([{"op": "test", "path": "/metadata/labels/x", "value": null}]))
                .unwrap_err()
                .code,
            422
        );
        assert_eq!(
            run(json!([{"op": "test", "path": "/metadata/finalizers", "value": []}]))
                .unwrap_err()
                .code,
            422
        );
    }

    #[test]
    fn copy_budget() {
        let v = json!({"a": "xyz"});
        assert_eq!(spend(100, &v), Some(100 - 11)); // {"a":"xyz"}
        assert_eq!(spend(11, &v), Some(0));
        assert_eq!(spend(10, &v), None);
    }

    #[test]
    fn doubling_copies_stop_at_the_limit() {
        let ops: Vec<Value> = (0..64)
            .map(|i| json!({"op": "copy", "from": "/a", "path": format!("/a/{i}")}))
            .collect();
        let body = serde_json::to_vec(&ops).unwrap();
        let err = apply(
            &json!({"a": ["x", "y"]}),
            &body,
            PatchType::Json,
            &json!({}),
        )
        .unwrap_err();
        assert_eq!(err.code, 422);
    }
}
