//! `Registry::patch`: a patch is applied to the stored object and the
//! result goes through the same update path as a `PUT`.

use super::{Outcome, Registry, Served};
use crate::patch::{PatchType, apply};
use crate::status::Status;

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
        let current = self.get(namespace, name).await?;
        let original = serde_json::to_value(&current)
            .map_err(|e| Status::internal_error(format!("object does not encode: {e}")))?;
        let patched = apply(&original, patch, patch_type, self.schema())?;
        let mut object: K = match K::deserialize(&patched) {
            Ok(object) => object,
            // What the schema rejects is the apiserver's 422, every cause.
            Err(e) => {
                return Err(
                    crate::decode::schema_invalid::<K>(patched).unwrap_or_else(|| {
                        Status::bad_request(format!(
                            "the patched object is not a valid {}: {e}",
                            K::KIND
                        ))
                    }),
                );
            }
        };
        // Patches apply to what is stored unless they name a resourceVersion.
        if object.metadata().resource_version.is_empty() {
            object.metadata_mut().resource_version = current.metadata().resource_version.clone();
        }
        if object.metadata().name != name {
            return Err(Status::bad_request(format!(
                "the name of the object ({}) does not match the name on the URL ({name})",
                object.metadata().name
            )));
        }
        self.update(namespace, object).await
    }
}
