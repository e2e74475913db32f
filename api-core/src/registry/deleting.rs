//! Deletes: preconditions, finalizers, grace periods and the garbage
//! collector's finalizers (the generic store's `Delete`,
//! `updateForGracefulDeletionAndFinalizers`).

use super::*;

impl<K: Served> Registry<K> {
    /// Deletes the object. With finalizers it is only marked
    /// (`deletionTimestamp`) and goes when the last finalizer is removed.
    pub async fn delete(
        &self,
        namespace: &str,
        name: &str,
        options: &DeleteOptions,
    ) -> Result<Deleted<K>, Status> {
        // Without preconditions a delete that loses a race is retried, as
        // the apiserver's GuaranteedUpdate does.
        let retries = if options.uid.is_none() && options.resource_version.is_none() {
            5
        } else {
            1
        };
        let mut last = None;
        for _ in 0..retries {
            match self.delete_once(namespace, name, options).await {
                Err(e) if e.code == 409 && e.reason.as_str() == "Conflict" && retries > 1 => {
                    last = Some(e)
                }
                other => return other,
            }
        }
        Err(last.unwrap_or_else(|| Status::internal_error("delete retries exhausted")))
    }

    async fn delete_once(
        &self,
        namespace: &str,
        name: &str,
        options: &DeleteOptions,
    ) -> Result<Deleted<K>, Status> {
        let (mut obj, revision) = self.stored(namespace, name).await?;
        self.admit(Operation::Delete, &obj.metadata().namespace, name, "")
            .await?;
        let meta = obj.metadata();
        if let Some(uid) = &options.uid
            && *uid != meta.uid
        {
            return Err(Status::conflict(
                self.resource(),
                name,
                format!(
                    "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                    meta.uid
                ),
            ));
        }
        if let Some(rv) = &options.resource_version
            && *rv != meta.resource_version
        {
            return Err(Status::conflict(
                self.resource(),
                name,
                format!(
                    "Precondition failed: ResourceVersion in precondition: {rv}, ResourceVersion in object meta: {}",
                    meta.resource_version
                ),
            ));
        }
        let key = self.key(&meta.namespace, name);
        // Under garbage collection the policy is finalizers on the object.
        let gc_finalizers = if self.garbage_collection {
            gc_finalizers(&meta.finalizers, options)
        } else {
            None
        };
        if let Some(finalizers) = gc_finalizers {
            let deleting = obj.metadata().deletion_timestamp.is_some();
            let held = !finalizers.is_empty()
                || obj.metadata().deletion_grace_period_seconds.unwrap_or(0) > 0
                || self.strategy.held_by_own_finalizers(&obj);
            obj.metadata_mut().finalizers = finalizers;
            if deleting {
                // Already being deleted: only the policy changes, and with
                // nothing left to wait for the object goes.
                return if held {
                    self.mark(&key, obj, revision, name).await
                } else {
                    self.remove(&key, revision, name).await
                };
            }
        }
        let meta = obj.metadata();
        // BeforeDelete: only a graceful strategy waits; the request's grace
        // period overrides the strategy's, and a negative one counts as 1.
        let grace = self
            .strategy
            .graceful_delete(&obj)
            .map(|g| options.grace_period_seconds.unwrap_or(g))
            .map(|g| if g < 0 { 1 } else { g });
        let has_finalizers =
            !meta.finalizers.is_empty() || self.strategy.held_by_own_finalizers(&obj);
        let now = (self.clock)();
        if let Some(current) = meta.deletion_timestamp {
            // Already being deleted: a shorter grace period brings it forward;
            // none at all (and no finalizers) deletes now.
            let pending_grace = meta.deletion_grace_period_seconds.unwrap_or(0);
            match grace {
                Some(0) | None if !has_finalizers => {
                    return self.remove(&key, revision, name).await;
                }
                Some(g) if g < pending_grace => {
                    let meta = obj.metadata_mut();
                    let at = now.checked_add_seconds(g).unwrap_or(now);
                    meta.deletion_timestamp = Some(if at < current { at } else { current });
                    meta.deletion_grace_period_seconds = Some(g);
                    return self.mark(&key, obj, revision, name).await;
                }
                _ => {
                    return Ok(Deleted {
                        object: obj,
                        pending: true,
                    });
                }
            }
        }
        if has_finalizers || grace.is_some_and(|g| g > 0) {
            let grace = grace.unwrap_or(0);
            self.strategy.prepare_for_delete(&mut obj);
            let meta = obj.metadata_mut();
            meta.deletion_timestamp = now.checked_add_seconds(grace).or(Some(now));
            meta.deletion_grace_period_seconds = Some(grace);
            if meta.generation > 0 {
                meta.generation += 1;
            }
            return self.mark(&key, obj, revision, name).await;
        }
        self.remove(&key, revision, name).await
    }

    async fn mark(
        &self,
        key: &str,
        obj: K,
        revision: Revision,
        name: &str,
    ) -> Result<Deleted<K>, Status> {
        match self
            .storage
            .update(key, encode(&obj, &self.codec)?, revision)
            .await
        {
            Ok(s) => Ok(Deleted {
                object: decode_stored(&s, &self.codec)?,
                pending: true,
            }),
            Err(e) => Err(self.storage_error(e, name)),
        }
    }

    async fn remove(
        &self,
        key: &str,
        revision: Revision,
        name: &str,
    ) -> Result<Deleted<K>, Status> {
        match self.storage.delete(key, Some(revision)).await {
            Ok(s) => Ok(Deleted {
                object: decode_stored(&s, &self.codec)?,
                pending: false,
            }),
            Err(e) => Err(self.storage_error(e, name)),
        }
    }
}
