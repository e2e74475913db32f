//! `Registry::patch`: a patch is applied to the stored object and the
//! result goes through the same update path as a `PUT`.

use super::{Outcome, Registry, Served};
use crate::decode::{FieldValidation, from_value_with_unknown, strict_error};
use crate::patch::{PatchType, apply};
use crate::status::Status;

/// How [`Registry::patch_with`] treats the patched object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatchOptions {
    /// Unknown fields in the patched object: dropped silently, dropped
    /// with a warning each, or a 400 (`fieldValidation`).
    pub field_validation: FieldValidation,
    /// Patch the status subresource (as [`Registry::patch_status`]).
    pub status: bool,
}

impl Default for PatchOptions {
    /// What [`Registry::patch`] does: unknown fields dropped silently.
    fn default() -> Self {
        PatchOptions {
            field_validation: FieldValidation::Ignore,
            status: false,
        }
    }
}

/// How often a patch that lost a race is applied again (the apiserver's
/// patcher retries until its request deadline; five is plenty in memory).
const PATCH_ATTEMPTS: usize = 5;

impl<K: Served> Registry<K> {
    /// Patches the object `name` with a JSON Patch, a JSON Merge Patch or a
    /// strategic merge patch (driven by the kind's schema: list-maps merge
    /// by key, sets merge, other lists are replaced). The result goes
    /// through the update path (defaults, strategy, validation); a patch
    /// that sets `metadata.resourceVersion` is a conditional update.
    pub async fn patch(
        &self,
        namespace: &str,
        name: &str,
        patch_type: PatchType,
        patch: &[u8],
    ) -> Result<Outcome<K>, Status> {
        self.patch_with(namespace, name, patch_type, patch, PatchOptions::default())
            .await
    }

    /// Patches the object's status subresource (`PATCH .../status`): the
    /// patch applies to the whole stored object, and the result goes
    /// through the status update path, which keeps everything but the
    /// status (and what the status strategy lets through) as stored.
    /// 404 for a kind without a status subresource, as there is no such
    /// endpoint.
    pub async fn patch_status(
        &self,
        namespace: &str,
        name: &str,
        patch_type: PatchType,
        patch: &[u8],
    ) -> Result<Outcome<K>, Status> {
        let options = PatchOptions {
            status: true,
            ..PatchOptions::default()
        };
        self.patch_with(namespace, name, patch_type, patch, options)
            .await
    }

    /// [`Registry::patch`] or [`Registry::patch_status`] with the
    /// request's field validation: unknown fields in the patched object
    /// are warnings in the outcome (`Warn`) or a 400 `strict decoding
    /// error` (`Strict`), as the apiserver's patch handler answers.
    pub async fn patch_with(
        &self,
        namespace: &str,
        name: &str,
        patch_type: PatchType,
        patch: &[u8],
        options: PatchOptions,
    ) -> Result<Outcome<K>, Status> {
        let status = options.status;
        // As the apiserver's patcher does inside `GuaranteedUpdate`: a
        // patch that does not name a resourceVersion applies to whatever
        // is stored, so one that loses a race is applied again to the new
        // state; one that names a version gets the 409.
        let mut attempt = 0;
        loop {
            attempt += 1;
            let current = self.get(namespace, name).await?;
            let (object, warnings) =
                self.patched(&current, name, patch_type, patch, options.field_validation)?;
            let conditional =
                object.metadata().resource_version != current.metadata().resource_version;
            let result = if status {
                self.update_status(namespace, object).await
            } else {
                self.update(namespace, object).await
            };
            match result {
                Ok(mut outcome) => {
                    outcome.warnings.splice(0..0, warnings);
                    return Ok(outcome);
                }
                Err(e)
                    if !conditional
                        && attempt < PATCH_ATTEMPTS
                        && e.code == 409
                        && e.reason.as_str() == "Conflict" => {}
                other => return other,
            }
        }
    }

    /// `patch` applied to `current`, decoded as a `K`, with the unknown
    /// fields found (none looked for under `Ignore`).
    fn patched(
        &self,
        current: &K,
        name: &str,
        patch_type: PatchType,
        patch: &[u8],
        validation: FieldValidation,
    ) -> Result<(K, Vec<String>), Status> {
        let original = super::to_owned_value(current)
            .map_err(|e| Status::internal_error(format!("object does not encode: {e}")))?;
        let patched = apply(&original, patch, patch_type, self.schema())?;
        let decoded = if validation == FieldValidation::Ignore {
            K::deserialize(&patched).map(|o| (o, Vec::new()))
        } else {
            from_value_with_unknown::<K>(&patched)
        };
        let (mut object, warnings) = match decoded {
            Ok(decoded) => decoded,
            // What the schema rejects is the apiserver's 422, every cause.
            Err(e) => {
                return Err(
                    crate::decode::schema_invalid::<K>(patched).unwrap_or_else(|| {
                        Status::bad_request(format!(
                            "the patched object is not a valid {}: {e}",
                            self.kind.kind
                        ))
                    }),
                );
            }
        };
        if validation == FieldValidation::Strict && !warnings.is_empty() {
            return Err(strict_error(&warnings));
        }
        if crate::apply::clears_managed_fields(&patched) {
            object.metadata_mut().managed_fields = crate::apply::reset_marker();
        }
        // A patch that removes the resourceVersion applies to what is
        // stored.
        if object.metadata().resource_version.is_empty() {
            object.metadata_mut().resource_version = current.metadata().resource_version.clone();
        }
        if object.metadata().name != name {
            return Err(super::name_mismatch(&object.metadata().name, name));
        }
        Ok((object, warnings))
    }
}
