//! `Registry::apply`: server-side apply (`PATCH` with
//! `application/apply-patch+yaml`), with the apiserver's ownership rules
//! from [`crate::apply`].

use serde_json::Value;

use super::{Outcome, Registry, Served, Tracking, UNKNOWN_MANAGER};
use crate::apply::{FieldManager, Writer, reset_fields};
use crate::decode::{FieldValidation, from_value_with_unknown, strict_error};
use crate::status::Status;

/// How [`Registry::apply`] applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ApplyOptions {
    /// Take the fields other managers own instead of failing with a
    /// conflict (`force=true`).
    pub force: bool,
    /// Apply to the status subresource (`PATCH .../status`).
    pub status: bool,
    /// Unknown fields in the applied object: dropped silently, with a
    /// warning each, or a 400 (`fieldValidation`).
    pub field_validation: FieldValidation,
}

/// How often a read-modify-write that lost a race (an apply, which reads
/// the live object first) is run again.
pub const RACE_ATTEMPTS: usize = 5;

/// Whether a write failed only because another write got there first: a
/// 409 `Conflict` on the resourceVersion, or `AlreadyExists` for a create
/// that raced a create; not an apply's field conflict (which has causes).
/// The caller may read the object again and retry.
pub fn lost_race(status: &Status) -> bool {
    status.code == 409
        && matches!(status.reason.as_str(), "Conflict" | "AlreadyExists")
        && status.details.as_ref().is_none_or(|d| d.causes.is_empty())
}

/// 400 for a body whose `metadata.name` is not the URL's, in the
/// apiserver's words.
pub fn name_mismatch(body_name: &str, url_name: &str) -> Status {
    Status::bad_request(format!(
        "the name of the object ({body_name}) does not match the name on the URL ({url_name})"
    ))
}

/// 422 for an apply without a field manager, as `ValidatePatchOptions`
/// answers (`PatchOptions.meta.k8s.io "" is invalid: fieldManager:
/// Required value: is required for apply patch`).
pub fn manager_required() -> Status {
    let mut errors = crate::validation::ErrorList::new();
    errors.push(crate::validation::FieldError::required(
        &crate::validation::FieldPath::new("fieldManager"),
        "is required for apply patch",
    ));
    Status::invalid(
        crate::status::GroupKind::new("meta.k8s.io", "PatchOptions"),
        "",
        &errors,
    )
}

impl<K: Served> Registry<K> {
    /// Applies `config` (a YAML or JSON object of this kind) as the
    /// registry's field manager (see [`Registry::field_manager`], which an
    /// apply requires): merged into the stored object by the schema's list
    /// and map types, fields this manager applied before and no longer
    /// sends removed unless another manager owns them, and a 409
    /// `Conflict` (one cause per field) when the configuration changes a
    /// field another manager owns, unless `force`. The object is created
    /// when it does not exist. An apply that changes nothing writes
    /// nothing (no new resourceVersion, no watch event).
    pub async fn apply(
        &self,
        namespace: &str,
        name: &str,
        config: &[u8],
        options: ApplyOptions,
    ) -> Result<Outcome<K>, Status> {
        if &*self.manager == UNKNOWN_MANAGER {
            return Err(manager_required());
        }
        let mut config = apply_config(
            config,
            &self.kind.api_version(),
            &self.kind.kind,
            name,
            self.kind.namespaced().then_some(namespace),
        )?;
        // Unknown fields go before the apply, as the apiserver prunes them
        // (warned about or refused per `fieldValidation`).
        let unknown: Vec<String> = self
            .apply_schema()
            .prune_unknown(&mut config)
            .into_iter()
            .map(|p| format!("unknown field {p:?}"))
            .collect();
        let mut warnings = match options.field_validation {
            FieldValidation::Ignore => Vec::new(),
            FieldValidation::Warn => unknown,
            FieldValidation::Strict if unknown.is_empty() => unknown,
            FieldValidation::Strict => return Err(strict_error(&unknown)),
        };
        let api_version = self.kind.api_version();
        Self::check_name(name)?;
        let subresource = if options.status { "status" } else { "" };
        let reset = reset_fields(self.kind.status_subresource, subresource);
        let writer = Writer {
            manager: &self.manager,
            api_version: &api_version,
            subresource,
        };
        let mut attempt = 0;
        loop {
            attempt += 1;
            let current = match self.stored(namespace, name).await {
                Ok((object, _)) => Some(object),
                Err(e) if e.code == 404 && !options.status => None,
                Err(e) => return Err(e),
            };
            let live = match &current {
                Some(c) => super::to_owned_value(c).map_err(Status::internal_error)?,
                None => Value::Null,
            };
            let manager = FieldManager::new(self.apply_schema(), (self.clock)()).with_reset(&reset);
            let Some(new) = manager.apply(&live, &config, &writer, options.force)? else {
                let object = current.expect("an apply to nothing changes something");
                return Ok(Outcome {
                    object,
                    warnings,
                    created: false,
                });
            };
            applied_name(&new, name)?;
            // An apply that empties a container leaves it null
            // (structured-merge-diff's RemoveItems, since v6.4.2 again);
            // the apiserver's decoding drops the nulls that are neither
            // nullable nor defaulted (`PruneNonNullableNullsWithoutDefaults`),
            // so an emptied required `spec` is a 422 `Required value`, as
            // for the kind's CRD.
            let mut new = new;
            crate::schema::defaulting::prune_non_nullable_nulls_without_defaults(
                &mut new,
                self.schema(),
            );
            // What the schema allows and the type does not hold (fields
            // kept by preserve-unknown-fields the type drops) is dropped.
            let (mut object, _) = from_value_with_unknown::<K>(&new).map_err(|e| {
                crate::decode::schema_invalid::<K>(new.clone()).unwrap_or_else(|| {
                    Status::bad_request(format!(
                        "the applied object is not a {}: {e}",
                        self.kind.kind
                    ))
                })
            })?;
            let result = match &current {
                None => {
                    object.metadata_mut().resource_version.clear();
                    self.create_tracked(namespace, object, Tracking::Done).await
                }
                Some(_) => {
                    self.write_tracked(namespace, object, options.status, Tracking::Done)
                        .await
                }
            };
            match result {
                Ok(mut outcome) => {
                    outcome.warnings.splice(0..0, std::mem::take(&mut warnings));
                    return Ok(outcome);
                }
                // Lost a race with another write: apply to the new state.
                Err(e) if attempt < RACE_ATTEMPTS && lost_race(&e) => {}
                Err(e) => return Err(e),
            }
        }
    }
}

/// An apply request's body (`application/apply-patch+yaml`: JSON, or YAML,
/// one object), checked as the apiserver checks it against the request:
/// the configuration's `apiVersion` and `kind` are the resource's (400
/// `invalid object type` otherwise), its `metadata.name` is the URL's, and
/// its `metadata.namespace`, when set, the request's (`namespace` is
/// `None` for a cluster-scoped kind, which ignores it). For served kinds
/// that are not registries (the API server's RBAC kinds).
pub fn apply_config(
    body: &[u8],
    api_version: &str,
    kind: &str,
    name: &str,
    namespace: Option<&str>,
) -> Result<Value, Status> {
    let config = parse_config(body)?;
    let (got_version, got_kind) = (
        config
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or(""),
        config.get("kind").and_then(Value::as_str).unwrap_or(""),
    );
    if got_version != api_version || got_kind != kind {
        return Err(Status::bad_request(format!(
            "invalid object type: {}, Kind={got_kind}",
            if got_version.is_empty() {
                "/"
            } else {
                got_version
            }
        )));
    }
    // A configuration without a name applies to the object the URL names
    // (kube-rs applies partial objects so): the apiserver checks the name
    // of the merged object (`checkName` after the patch), which the stored
    // object gives; see [`applied_name`].
    let body_name = config
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    if !body_name.is_empty() && body_name != name {
        return Err(name_mismatch(body_name, name));
    }
    if let (Some(request), Some(ns)) = (
        namespace,
        config
            .pointer("/metadata/namespace")
            .and_then(Value::as_str),
    ) && !ns.is_empty()
        && ns != request
    {
        return Err(Status::bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        ));
    }
    Ok(config)
}

/// The apiserver's `checkName` of an applied object: the object that
/// results from merging the configuration (which may leave the name out)
/// into the stored one has the URL's name. A create from a configuration
/// without a name fails here, as it does on the apiserver.
pub fn applied_name(merged: &Value, name: &str) -> Result<(), Status> {
    let merged_name = merged
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    if merged_name == name {
        Ok(())
    } else {
        Err(name_mismatch(merged_name, name))
    }
}

/// The apply body: JSON, or YAML (a superset); one object.
fn parse_config(body: &[u8]) -> Result<Value, Status> {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(_) => {
            let text = std::str::from_utf8(body)
                .map_err(|e| Status::bad_request(format!("error decoding YAML: {e}")))?;
            serde_saphyr::from_str(text)
                .map_err(|e| Status::bad_request(format!("error decoding YAML: {e}")))?
        }
    };
    if !value.is_object() {
        return Err(Status::bad_request(
            "error decoding YAML: the apply configuration is not an object",
        ));
    }
    Ok(value)
}
