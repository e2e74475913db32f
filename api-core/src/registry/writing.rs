//! The store's create and update (`Create`, `Update` of the generic
//! store): defaults, the strategy's hooks, validation, admission, managed
//! fields, and the compare-and-swap write.

use super::*;

impl<K: Served> Registry<K> {
    /// Creates `obj` in `namespace` (ignored for cluster-scoped kinds; may
    /// be empty when the object names its namespace).
    pub async fn create(&self, namespace: &str, obj: K) -> Result<Outcome<K>, Status> {
        self.create_tracked(namespace, obj, Tracking::Update(""))
            .await
    }

    pub(super) async fn create_tracked(
        &self,
        namespace: &str,
        obj: K,
        tracking: Tracking,
    ) -> Result<Outcome<K>, Status> {
        let mut obj = obj;
        if !obj.metadata().resource_version.is_empty() {
            return Err(Status::internal_error(
                "resourceVersion should not be set on objects to be created",
            ));
        }
        {
            let meta = obj.metadata_mut();
            self.match_namespace(meta, namespace)?;
        }
        {
            let meta = obj.metadata();
            self.admit(Operation::Create, &meta.namespace, &meta.name, "")
                .await?;
        }
        {
            let meta = obj.metadata_mut();
            // WipeObjectMetaSystemFields
            meta.creation_timestamp = None;
            meta.uid.clear();
            meta.deletion_timestamp = None;
            meta.deletion_grace_period_seconds = None;
            meta.self_link.clear();
        }
        self.strategy.apply_defaults(&mut obj);
        if let Tracking::Update(subresource) = tracking {
            self.track(None, &mut obj, subresource)?;
        }
        self.strategy.prepare_for_create(&mut obj);
        {
            let now = (self.clock)();
            let meta = obj.metadata_mut();
            meta.uid = new_uid();
            meta.creation_timestamp = Some(now);
        }
        let generated = obj.metadata().name.is_empty() && !obj.metadata().generate_name.is_empty();
        for attempt in 0.. {
            if generated {
                let base = obj.metadata().generate_name.clone();
                obj.metadata_mut().name = generate_name(&base);
            }
            // A custom resource's strategy validates metadata and the
            // schema together (metadata first), so one 422 lists both.
            let mut errors = validate_object_meta(
                obj.metadata(),
                self.kind.namespaced(),
                self.strategy.name_validation(),
                &FieldPath::new("metadata"),
            );
            errors.extend(self.strategy.validate(&obj));
            if !errors.is_empty() {
                return Err(Status::invalid(
                    self.group_kind(),
                    obj.metadata().name.clone(),
                    &errors,
                ));
            }
            if let Some(admit) = &self.admission {
                admit(&obj, None)?;
            }
            let warnings = self.strategy.warnings_on_create(&obj);
            self.strategy.canonicalize(&mut obj);
            let key = self.key(&obj.metadata().namespace, &obj.metadata().name);
            match self.storage.create(&key, encode(&obj, &self.codec)?).await {
                Ok(s) => {
                    return Ok(Outcome {
                        object: decode_stored(&s, &self.codec)?,
                        warnings,
                        created: true,
                    });
                }
                Err(StorageError::AlreadyExists(_))
                    if generated && attempt + 1 < NAME_GENERATION_ATTEMPTS =>
                {
                    continue;
                }
                Err(StorageError::AlreadyExists(_)) if !obj.metadata().generate_name.is_empty() => {
                    return Err(Status::generate_name_conflict(
                        self.resource(),
                        obj.metadata().name.clone(),
                        1,
                    ));
                }
                Err(StorageError::AlreadyExists(_)) => {
                    return Err(Status::already_exists(
                        self.resource(),
                        obj.metadata().name.clone(),
                    ));
                }
                Err(e) => return Err(self.storage_error(e, &obj.metadata().name)),
            }
        }
        unreachable!("the loop returns")
    }

    /// The update checks and hooks shared by `update`, `update_status` and
    /// `patch`: `status` selects the status strategy.
    pub(super) async fn write(
        &self,
        namespace: &str,
        obj: K,
        status: bool,
    ) -> Result<Outcome<K>, Status> {
        let subresource = if status { "status" } else { "" };
        self.write_tracked(namespace, obj, status, Tracking::Update(subresource))
            .await
    }

    pub(super) async fn write_tracked(
        &self,
        namespace: &str,
        obj: K,
        status: bool,
        tracking: Tracking,
    ) -> Result<Outcome<K>, Status> {
        let mut new = obj;
        let name = new.metadata().name.clone();
        Self::check_name(&name)?;
        self.match_namespace(new.metadata_mut(), namespace)?;
        let ns = new.metadata().namespace.clone();
        let (mut old, stored) = match self.stored_raw(&ns, &name).await {
            Ok(found) => found,
            Err(e) if e.code == 404 && self.strategy.allow_create_on_update() && !status => {
                new.metadata_mut().resource_version.clear();
                return self.create_tracked(&ns, new, tracking).await;
            }
            Err(e) => return Err(e),
        };
        self.admit(
            Operation::Update,
            &ns,
            &name,
            if status { "status" } else { "" },
        )
        .await?;
        let revision = stored.revision;
        let rv = new.metadata().resource_version.clone();
        if rv.is_empty() {
            if self.strategy.allow_unconditional_update() {
                new.metadata_mut().resource_version = revision.to_string();
            } else {
                let mut errors = ErrorList::new();
                let meta = FieldPath::new("metadata");
                errors.push(FieldError::invalid(
                    &meta.child("resourceVersion"),
                    0,
                    "must be specified for an update",
                ));
                return Err(Status::invalid(self.group_kind(), name, &errors));
            }
        } else if rv != revision.to_string() {
            return Err(Status::conflict(
                self.resource(),
                name,
                "the object has been modified; please apply your changes to the latest version and try again",
            ));
        }
        self.strategy.apply_defaults(&mut new);
        if let Tracking::Update(subresource) = tracking {
            self.track(Some(&mut old), &mut new, subresource)?;
        }
        // BeforeUpdate
        let errors = if status {
            self.strategy.prepare_for_status_update(&mut new, &old);
            let mut errors = validate_object_meta_update(
                new.metadata(),
                old.metadata(),
                &FieldPath::new("metadata"),
            );
            errors.extend(self.strategy.validate_status_update(&new, &old));
            errors
        } else {
            new.metadata_mut().generation = old.metadata().generation;
            self.strategy.prepare_for_update(&mut new, &old);
            {
                let (nm, om) = (new.metadata_mut(), old.metadata());
                if nm.uid.is_empty() {
                    nm.uid = om.uid.clone();
                }
                if om.creation_timestamp.is_some() {
                    nm.creation_timestamp = om.creation_timestamp;
                }
                if om.deletion_timestamp.is_some() {
                    nm.deletion_timestamp = om.deletion_timestamp;
                }
                if om.deletion_grace_period_seconds.is_some()
                    && nm.deletion_grace_period_seconds.is_none()
                {
                    nm.deletion_grace_period_seconds = om.deletion_grace_period_seconds;
                }
            }
            let meta = FieldPath::new("metadata");
            let mut errors = validate_object_meta(
                new.metadata(),
                self.kind.namespaced(),
                self.strategy.name_validation(),
                &meta,
            );
            errors.extend(validate_object_meta_update(
                new.metadata(),
                old.metadata(),
                &meta,
            ));
            errors.extend(self.strategy.validate_update(&new, &old));
            errors
        };
        if !errors.is_empty() {
            return Err(Status::invalid(self.group_kind(), name, &errors));
        }
        if let Some(admit) = &self.admission {
            admit(&new, Some(&old))?;
        }
        let warnings = if status {
            Vec::new()
        } else {
            self.strategy.warnings_on_update(&new, &old)
        };
        self.strategy.canonicalize(&mut new);
        let key = self.key(&ns, &name);
        // ShouldDeleteDuringUpdate: the last finalizer of a deleting object is gone.
        let om = old.metadata();
        if new.metadata().finalizers.is_empty()
            && !self.strategy.held_by_own_finalizers(&new)
            && om.deletion_timestamp.is_some()
            && om.deletion_grace_period_seconds.unwrap_or(0) == 0
        {
            return match self.storage.delete(&key, Some(revision)).await {
                Ok(s) => Ok(Outcome {
                    object: decode_stored(&s, &self.codec)?,
                    warnings,
                    created: false,
                }),
                Err(e) => Err(self.storage_error(e, &name)),
            };
        }
        let encoded = encode(&new, &self.codec)?;
        // A write that changes nothing writes nothing: no new
        // resourceVersion, no watch event (etcd3's GuaranteedUpdate
        // compares the new bytes with the stored ones).
        if encoded == stored.value {
            return Ok(Outcome {
                object: decode_stored(&stored, &self.codec)?,
                warnings,
                created: false,
            });
        }
        match self.storage.update(&key, encoded, revision).await {
            Ok(s) => Ok(Outcome {
                object: decode_stored(&s, &self.codec)?,
                warnings,
                created: false,
            }),
            Err(e) => Err(self.storage_error(e, &name)),
        }
    }

    /// Replaces the object (`PUT`): the stored status is kept (when the
    /// kind has a status subresource), `generation` goes up when the spec
    /// changes; `metadata.resourceVersion` must match the stored one.
    pub async fn update(&self, namespace: &str, obj: K) -> Result<Outcome<K>, Status> {
        // An unconditional update (no resourceVersion, allowed by the
        // strategy) that loses a race is retried against the new state.
        let unconditional = obj.metadata().resource_version.is_empty()
            && self.strategy.allow_unconditional_update();
        let attempts = if unconditional { 5 } else { 1 };
        let mut last = None;
        for _ in 0..attempts {
            match self.write(namespace, obj.clone(), false).await {
                Err(e) if unconditional && e.code == 409 && e.reason.as_str() == "Conflict" => {
                    last = Some(e)
                }
                other => return other,
            }
        }
        Err(last.unwrap_or_else(|| Status::internal_error("update retries exhausted")))
    }

    /// Writes the status (`PUT .../status`): everything but the status
    /// comes from the stored object.
    pub async fn update_status(&self, namespace: &str, obj: K) -> Result<Outcome<K>, Status> {
        if !self.kind.status_subresource {
            return Err(Status::not_found(
                GroupResource::new(
                    self.kind.group.clone(),
                    format!("{}/status", self.kind.plural),
                ),
                obj.metadata().name.clone(),
            ));
        }
        self.write(namespace, obj, true).await
    }
}
