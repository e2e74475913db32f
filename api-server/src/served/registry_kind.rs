//! [`RegistryKind`]: a [`Registry<K>`] as a [`ServedKind`], with how its
//! bodies are decoded and what it admits.

use super::*;

/// How a body becomes a `K` for a registry: decoded with the request's
/// field validation, with its warnings.
pub type DecodeBody<K> =
    fn(&Registry<K>, &[u8], FieldValidation) -> Result<(K, Vec<String>), Status>;

/// A body read through the Rust type `T` of a built-in kind (JSON), as the
/// registry's [`DynamicObject`]: its `apiVersion` and `kind` checked
/// against the registry's kind (none given: the kind's), `T`'s unknown
/// fields warned about or refused per `validation`, and
/// `"managedFields": []` kept as the request to clear them.
pub fn decode_as<T: serde::de::DeserializeOwned + serde::Serialize>(
    registry: &Registry<DynamicObject>,
    body: &[u8],
    validation: FieldValidation,
) -> Result<(DynamicObject, Vec<String>), Status> {
    let kind = registry.kind_info();
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| Status::bad_request(format!("the request body is not JSON: {e}")))?;
    for (key, want) in [
        ("apiVersion", kind.api_version()),
        ("kind", kind.kind.clone()),
    ] {
        if let Some(got) = value.get(key).and_then(Value::as_str)
            && got != want
        {
            return Err(Status::bad_request(format!(
                "the {key} of the object ({got}) is not {want}"
            )));
        }
    }
    let mut unknown = Vec::new();
    let object: T = serde_ignored::deserialize(&value, |path| {
        if !matches!(path.to_string().as_str(), "apiVersion" | "kind") {
            unknown.push(format!("unknown field {:?}", path.to_string()));
        }
    })
    .map_err(|e| Status::bad_request(format!("the request body is not a {}: {e}", kind.kind)))?;
    let warnings = match validation {
        FieldValidation::Ignore => Vec::new(),
        FieldValidation::Warn => unknown,
        FieldValidation::Strict if unknown.is_empty() => unknown,
        FieldValidation::Strict => {
            return Err(Status::bad_request(format!(
                "strict decoding error: {}",
                unknown.join(", ")
            )));
        }
    };
    let mut typed = serde_json::to_value(&object).map_err(Status::internal_error)?;
    typed["apiVersion"] = Value::String(kind.api_version());
    typed["kind"] = Value::String(kind.kind.clone());
    let mut object: DynamicObject =
        serde_json::from_value(typed).map_err(Status::internal_error)?;
    // `"managedFields": []` clears them, which the typed object cannot
    // carry by itself.
    if api_core::apply::clears_managed_fields(&value) {
        object.metadata.managed_fields = api_core::apply::reset_marker();
    }
    Ok((object, warnings))
}

/// What a kind admits for one write, from the request's options (its
/// user): a check of the final object, or none.
pub type AdmissionFor<K> = Arc<
    dyn for<'a> Fn(&'a WriteOptions) -> BoxFuture<'a, Result<Option<Admission<K>>, Status>>
        + Send
        + Sync,
>;

/// A [`Registry<K>`] as a [`ServedKind`]: a Rust type's registry, or a
/// registry of [`DynamicObject`]s of a kind described by data.
pub struct RegistryKind<K: Served> {
    registry: Arc<Registry<K>>,
    info: KindInfo,
    decode: DecodeBody<K>,
    admission: Option<AdmissionFor<K>>,
    /// The server's admission plugins, set when the server is built.
    plugins: OnceLock<AdmissionPlugins>,
    /// Whether it is one of Kubernetes' own kinds (written `kind` first).
    builtin: bool,
    /// Subresources served as the object through another strategy.
    subresources: Vec<(&'static str, Arc<dyn ServedKind>)>,
    /// Whether a garbage collector runs (deletes then record the
    /// propagation policy as finalizers), set when the server is built.
    garbage_collection: AtomicBool,
    /// The patch types it takes besides server-side apply.
    patch_types: &'static [PatchType],
}

impl<K: Served + CustomResourceExt> RegistryKind<K> {
    /// Serves `registry`, described by `K::crd()`.
    pub fn new(registry: Arc<Registry<K>>) -> Self {
        RegistryKind {
            registry,
            info: KindInfo::of_crd_type::<K>(),
            decode: decode_body::<K>,
            admission: None,
            plugins: OnceLock::new(),
            builtin: false,
            subresources: Vec::new(),
            garbage_collection: AtomicBool::new(false),
            patch_types: &PatchType::ALL,
        }
    }

    /// Serves `registry`, one version of the multi-version kind `crd`
    /// describes (discovery and tables read every served version there).
    pub fn with_crd(registry: Arc<Registry<K>>, crd: CustomResourceDefinition) -> Self {
        RegistryKind {
            registry,
            info: KindInfo {
                crd: Some(Arc::new(crd)),
                ..KindInfo::of::<K>()
            },
            decode: decode_body::<K>,
            admission: None,
            plugins: OnceLock::new(),
            builtin: false,
            subresources: Vec::new(),
            garbage_collection: AtomicBool::new(false),
            patch_types: &PatchType::ALL,
        }
    }
}

impl RegistryKind<DynamicObject> {
    /// Serves a registry of a kind described by data
    /// ([`Registry::with_kind`]): bodies are read as that kind's objects
    /// (their `apiVersion` and `kind` checked against it).
    pub fn dynamic(registry: Arc<Registry<DynamicObject>>) -> Self {
        let info = KindInfo::clone(registry.kind_info());
        RegistryKind {
            registry,
            info,
            decode: Registry::<DynamicObject>::decode,
            admission: None,
            plugins: OnceLock::new(),
            builtin: false,
            subresources: Vec::new(),
            garbage_collection: AtomicBool::new(false),
            patch_types: &PatchType::ALL,
        }
    }

    /// Marks the kind as one of Kubernetes' own (built-in) kinds, which
    /// kube-apiserver writes from Go structs: `kind` before `apiVersion`
    /// ([`ServedKind::builtin`]).
    pub fn as_builtin(mut self) -> Self {
        self.builtin = true;
        self
    }

    /// Serves `/NAME` under each object as `kind` serves the object: the
    /// same stored objects read whole and written through `kind`'s
    /// strategy, which keeps all but the part the subresource writes (a
    /// Pod's `ephemeralcontainers`), as the apiserver registers another
    /// store over the same storage for such a subresource.
    pub fn with_subresource(mut self, name: &'static str, kind: Arc<dyn ServedKind>) -> Self {
        self.subresources.push((name, kind));
        self
    }

    /// Takes JSON and merge patches only (and server-side apply): a
    /// strategic merge patch is a 415, as apiextensions-apiserver answers
    /// it for custom resources, which have no Go type to merge by.
    pub fn without_strategic_merge(mut self) -> Self {
        self.patch_types = &[PatchType::Json, PatchType::Merge];
        self
    }

    /// Reads bodies with `decode` instead (a built-in kind read through its
    /// own type, with that type's unknown-field warnings).
    pub fn with_decode(mut self, decode: DecodeBody<DynamicObject>) -> Self {
        self.decode = decode;
        self
    }
}

impl<K: Served> RegistryKind<K> {
    /// Runs `admission`'s check, for each write, on the final object
    /// (`Registry::with_admission`).
    pub fn with_admission(mut self, admission: AdmissionFor<K>) -> Self {
        self.admission = Some(admission);
        self
    }
}

impl<K: Served> RegistryKind<K> {
    /// `registry` running the server's admission plugins.
    fn with_plugins(&self, registry: Registry<K>) -> Registry<K> {
        match self.plugins.get() {
            Some(plugins) => registry.with_admission_plugins(plugins.clone()),
            None => registry,
        }
    }

    /// The registry (or its dry-run view) writing as `manager`, with what
    /// the kind admits for this request.
    async fn registry_for(
        &self,
        options: &WriteOptions,
        manager: &str,
    ) -> Result<Registry<K>, Status> {
        let registry = self.with_plugins(if options.dry_run {
            self.registry.dry_run().field_manager(manager)
        } else {
            self.registry.field_manager(manager)
        });
        Ok(match &self.admission {
            Some(admission) => match admission(options).await? {
                Some(check) => registry.with_admission(check),
                None => registry,
            },
            None => registry,
        })
    }
}

/// A list of a kind known at run time, written with its table's
/// `apiVersion` and `kind` (as [`RegistryKind::typed_list`] adds them).
#[derive(serde::Serialize)]
struct KindList<'a, K> {
    #[serde(rename = "apiVersion")]
    api_version: String,
    kind: &'a str,
    metadata: &'a api_core::meta::ListMeta,
    items: &'a [K],
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<Value, Status> {
    serde_json::to_value(value)
        .map_err(|e| Status::internal_error(format!("object does not encode: {e}")))
}

/// The body as a `K`: the registry defaults and validates it (with the
/// strategy), so decoding only reads it, with the request's field
/// validation.
fn decode_body<K: Served + CustomResourceExt>(
    _: &Registry<K>,
    body: &[u8],
    validation: FieldValidation,
) -> Result<(K, Vec<String>), Status> {
    let options = DecodeOptions {
        field_validation: validation,
        apply_defaults: false,
        validate: false,
    };
    let mut decoded = decode::<K>(body, &options)?;
    // `"managedFields": []` clears them, which the typed object cannot
    // carry by itself.
    let names_managed_fields = body.windows(15).any(|w| w == b"\"managedFields\"");
    if names_managed_fields
        && serde_json::from_slice::<serde_json::Value>(body)
            .is_ok_and(|v| api_core::apply::clears_managed_fields(&v))
    {
        decoded.object.metadata_mut().managed_fields = api_core::apply::reset_marker();
    }
    Ok((decoded.object, decoded.warnings))
}

impl<K: Served> RegistryKind<K> {
    /// A list as JSON with the kind's `apiVersion` and list `kind` (which
    /// a list of [`DynamicObject`]s does not carry), first as the
    /// apiserver writes them.
    fn typed_list(&self, list: Value) -> Value {
        let Value::Object(mut members) = list else {
            return list;
        };
        if members.contains_key("kind") {
            return Value::Object(members);
        }
        let mut out = serde_json::Map::new();
        out.insert("apiVersion".into(), Value::String(self.info.api_version()));
        out.insert("kind".into(), Value::String(self.info.list_kind.clone()));
        out.append(&mut members);
        Value::Object(out)
    }
}

impl<K: Served> ServedKind for RegistryKind<K> {
    fn info(&self) -> &KindInfo {
        &self.info
    }

    fn get<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
    ) -> BoxFuture<'a, Result<Value, Status>> {
        Box::pin(async move { to_json(&self.registry.get(namespace, name).await?) })
    }

    fn get_json<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
    ) -> BoxFuture<'a, Result<Vec<u8>, Status>> {
        Box::pin(async move {
            let object = self.registry.get(namespace, name).await?;
            serde_json::to_vec(&object)
                .map_err(|e| Status::internal_error(format!("object does not encode: {e}")))
        })
    }

    fn list<'a>(
        &'a self,
        namespace: &'a str,
        options: &'a ListOptions,
    ) -> BoxFuture<'a, Result<Value, Status>> {
        Box::pin(async move {
            let list = to_json(&self.registry.list(namespace, options).await?)?;
            Ok(self.typed_list(list))
        })
    }

    fn list_json<'a>(
        &'a self,
        namespace: &'a str,
        options: &'a ListOptions,
    ) -> BoxFuture<'a, Result<(Vec<u8>, String), Status>> {
        Box::pin(async move {
            let list = self.registry.list(namespace, options).await?;
            let revision = list.metadata.resource_version.clone();
            let json = if K::KIND.is_empty() {
                // A kind known at run time: its list kind is the table's.
                serde_json::to_vec(&KindList {
                    api_version: self.info.api_version(),
                    kind: &self.info.list_kind,
                    metadata: &list.metadata,
                    items: &list.items,
                })
            } else {
                serde_json::to_vec(&list)
            }
            .map_err(|e| Status::internal_error(format!("list does not encode: {e}")))?;
            Ok((json, revision))
        })
    }

    fn create<'a>(
        &'a self,
        namespace: &'a str,
        body: &'a [u8],
        options: &'a WriteOptions,
    ) -> BoxFuture<'a, Result<Written, Status>> {
        Box::pin(async move {
            let (object, mut warnings) =
                (self.decode)(&self.registry, body, options.field_validation)?;
            let registry = self.registry_for(options, &options.manager).await?;
            let outcome = registry.create(namespace, object).await?;
            warnings.extend(outcome.warnings);
            Ok(Written {
                object: to_json(&outcome.object)?,
                warnings,
                created: true,
            })
        })
    }

    fn update<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        body: &'a [u8],
        options: &'a WriteOptions,
        status: bool,
    ) -> BoxFuture<'a, Result<Written, Status>> {
        Box::pin(async move {
            let (object, mut warnings) =
                (self.decode)(&self.registry, body, options.field_validation)?;
            if object.metadata().name != name {
                return Err(api_core::registry::name_mismatch(
                    &object.metadata().name,
                    name,
                ));
            }
            let registry = self.registry_for(options, &options.manager).await?;
            let outcome = if status {
                registry.update_status(namespace, object).await?
            } else {
                registry.update(namespace, object).await?
            };
            warnings.extend(outcome.warnings);
            Ok(Written {
                object: to_json(&outcome.object)?,
                warnings,
                created: outcome.created,
            })
        })
    }

    fn patch<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        patch_type: PatchType,
        body: &'a [u8],
        options: &'a WriteOptions,
        status: bool,
    ) -> BoxFuture<'a, Result<Written, Status>> {
        Box::pin(async move {
            let registry = self.registry_for(options, &options.manager).await?;
            let patch_options = PatchOptions {
                field_validation: options.field_validation,
                status,
            };
            let outcome = registry
                .patch_with(namespace, name, patch_type, body, patch_options)
                .await?;
            Ok(Written {
                object: to_json(&outcome.object)?,
                warnings: outcome.warnings,
                created: false,
            })
        })
    }

    fn apply<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        body: &'a [u8],
        options: &'a WriteOptions,
        status: bool,
    ) -> BoxFuture<'a, Result<Written, Status>> {
        Box::pin(async move {
            let manager = options.field_manager.as_deref().unwrap_or("");
            let registry = self.registry_for(options, manager).await?;
            let apply_options = ApplyOptions {
                force: options.force,
                status,
                field_validation: options.field_validation,
            };
            let outcome = registry.apply(namespace, name, body, apply_options).await?;
            Ok(Written {
                object: to_json(&outcome.object)?,
                warnings: outcome.warnings,
                created: outcome.created,
            })
        })
    }

    fn delete<'a>(
        &'a self,
        namespace: &'a str,
        name: &'a str,
        options: &'a DeleteOptions,
        dry_run: bool,
    ) -> BoxFuture<'a, Result<(Value, bool), Status>> {
        Box::pin(async move {
            let mut registry = self.with_plugins(if dry_run {
                self.registry.dry_run()
            } else {
                Registry::clone_view(&self.registry)
            });
            if self.garbage_collection.load(Ordering::Relaxed) {
                registry = registry.with_garbage_collection();
            }
            let deleted = registry.delete(namespace, name, options).await?;
            Ok((to_json(&deleted.object)?, deleted.pending))
        })
    }

    fn watch<'a>(
        &'a self,
        namespace: &'a str,
        options: &'a ListOptions,
    ) -> BoxFuture<'a, Result<JsonWatch, Status>> {
        Box::pin(async move {
            let watch = self.registry.watch(namespace, options).await?;
            let progress = watch.progress_requester();
            let kind = self.registry.kind_info().clone();
            let events = futures_util::stream::unfold(watch, move |mut watch| {
                let kind = kind.clone();
                async move {
                    let event = watch.next().await?;
                    let json = event.and_then(|e| {
                        Ok(match &e {
                            WatchEvent::Added(o) => ("ADDED", to_json(o)?),
                            WatchEvent::Modified(o) => ("MODIFIED", to_json(o)?),
                            WatchEvent::Deleted(o) => ("DELETED", to_json(o)?),
                            WatchEvent::Bookmark(b) => ("BOOKMARK", bookmark_object(&kind, b)),
                        })
                    });
                    Some((json, watch))
                }
            });
            Ok(JsonWatch::new(events, progress))
        })
    }

    fn set_garbage_collection(&self, on: bool) {
        self.garbage_collection.store(on, Ordering::Relaxed);
    }

    fn set_admission_plugins(&self, plugins: AdmissionPlugins) {
        for (_, kind) in &self.subresources {
            kind.set_admission_plugins(plugins.clone());
        }
        let _ = self.plugins.set(plugins);
    }

    fn builtin(&self) -> bool {
        self.builtin
    }

    fn patch_types(&self) -> &'static [PatchType] {
        self.patch_types
    }

    fn subresource(&self, name: &str) -> Option<&dyn ServedKind> {
        self.subresources
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, kind)| kind.as_ref())
    }
}
