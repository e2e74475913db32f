//! The handlers of resource requests: a path's kind found, the request
//! translated into calls of its [`ServedKind`] (get, list, watch, create,
//! update, patch of every type, apply, delete, deletecollection, the
//! status and scale subresources), and the answer negotiated (JSON,
//! Table, PartialObjectMetadata) and framed (watch lines). Nothing here
//! is kind-specific: the kinds' semantics are their stores'.

use super::*;
use crate::request_info::ResourceInfo;

/// What every handler reads of a request besides its path and body: the
/// query, the headers and the authenticated user.
#[derive(Clone, Copy)]
pub(super) struct Req<'a> {
    pub(super) query: &'a Query,
    pub(super) headers: &'a HeaderMap,
    pub(super) user: Option<&'a User>,
}

/// A body as JSON bytes: JSON as it is, YAML converted.
pub(super) fn json_body(headers: &HeaderMap, body: &Bytes) -> Result<Vec<u8>, Status> {
    let content_type = header_str(headers, header::CONTENT_TYPE).unwrap_or("application/json");
    let media = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match media.as_str() {
        "application/json" | "" => Ok(body.to_vec()),
        "application/yaml" | "application/x-yaml" | "text/yaml" => {
            let text = std::str::from_utf8(body)
                .map_err(|_| Status::bad_request("the YAML body is not UTF-8"))?;
            let value: Value = serde_saphyr::from_str(text)
                .map_err(|e| Status::bad_request(format!("error converting YAML to JSON: {e}")))?;
            serde_json::to_vec(&value).map_err(Status::internal_error)
        }
        _ => Err(Status::unsupported_media_type(&[
            "application/json",
            "application/yaml",
        ])),
    }
}

/// The answer to a write: the object as JSON, or as its
/// `PartialObjectMetadata` when the client asked for metadata only
/// (kube-rs' `patch_metadata`).
fn written_response(written: Written, headers: &HeaderMap, builtin: bool) -> Response {
    let code = if written.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    let body = match negotiate(header_str(headers, header::ACCEPT), true, false) {
        Some(
            representation @ (Representation::PartialObjectMetadata(_)
            | Representation::PartialObjectMetadataList(_)),
        ) => match metadata_only(&written.object, representation, false) {
            Ok(body) => json_response(code, &body, representation.content_type()),
            Err(status) => return status_response(status),
        },
        _ => object_response(code, &written.object, builtin),
    };
    let mut response = with_warnings(body, &written.warnings);
    // The audit log names a created object, whose name the URL lacks.
    if let Some(name) = written
        .object
        .pointer("/metadata/name")
        .and_then(Value::as_str)
    {
        response
            .extensions_mut()
            .insert(WrittenName(name.to_string()));
    }
    response
}

/// The name of the object a write answered with.
#[derive(Clone, Debug)]
pub(crate) struct WrittenName(pub String);

/// A request of a kind's resources, as its path names them.
pub(super) async fn resource_request(
    inner: &Inner,
    method: Method,
    target: &ResourceInfo,
    req: Req<'_>,
    body: Bytes,
) -> Response {
    // The kinds as they are when the request starts, for all of it.
    let catalog = inner.catalogs.current();
    let Some(kind) = catalog.get(&target.group, &target.version, &target.resource) else {
        return status_response(not_found_path());
    };
    let kind = kind.as_ref();
    let version = target.version.as_str();
    let namespace = if kind.namespaced() {
        target.namespace.as_str()
    } else {
        ""
    };
    // Checked before any storage key is built from it (names are checked
    // by the registry).
    let problems = is_valid_path_segment_name(namespace);
    if !problems.is_empty() {
        return status_response(Status::bad_request(format!(
            "invalid namespace {namespace:?}: {}",
            problems.join(", ")
        )));
    }
    let result = match (target.name.as_deref(), target.subresource.as_deref()) {
        (None, None) => {
            collection_request(inner, kind, &method, version, namespace, req, body).await
        }
        (Some(name), None) => {
            object_request(kind, &method, version, namespace, name, req, body).await
        }
        (Some(name), Some("status")) if kind.status_subresource() => {
            status_request(kind, &method, namespace, name, req, body).await
        }
        (Some(name), Some("scale")) => match ScalePaths::of(&kind.crd(), version) {
            Some(paths) => scale_request(kind, &paths, &method, namespace, name, req, body).await,
            None => Err(not_found_path()),
        },
        // A subresource served as the object through its own strategy
        // (a Pod's `ephemeralcontainers`): read and written, not deleted.
        (Some(name), Some(sub)) if method != Method::DELETE => match kind.subresource(sub) {
            Some(part) => object_request(part, &method, version, namespace, name, req, body).await,
            None => Err(not_found_path()),
        },
        _ => Err(not_found_path()),
    };
    result.unwrap_or_else(status_response)
}

/// `GET` (list or watch), `POST` and `DELETE` (deletecollection) of a
/// collection.
async fn collection_request(
    inner: &Inner,
    kind: &dyn ServedKind,
    method: &Method,
    version: &str,
    namespace: &str,
    req: Req<'_>,
    body: Bytes,
) -> Result<Response, Status> {
    let Req {
        query,
        headers,
        user,
    } = req;
    match *method {
        Method::GET => {
            let params = list_params(query)?;
            if params.watch {
                let metadata_only =
                    match negotiate(header_str(headers, header::ACCEPT), true, false) {
                        Some(
                            Representation::PartialObjectMetadata(v)
                            | Representation::PartialObjectMetadataList(v),
                        ) => Some(v),
                        _ => None,
                    };
                let watch = WatchShape {
                    bookmark_interval: inner.bookmark_interval,
                    metadata_only,
                };
                return Ok(watch_response(kind, namespace, params, watch).await);
            }
            let accept = header_str(headers, header::ACCEPT);
            if negotiate(accept, true, false) == Some(Representation::Json) && !kind.builtin() {
                // The common case, without a detour through a JSON value.
                let (json, revision) = kind.list_json(namespace, &params.options).await?;
                check_list_revision(&params, &revision)?;
                return Ok((
                    StatusCode::OK,
                    [(header::CONTENT_TYPE, "application/json")],
                    json,
                )
                    .into_response());
            }
            let list = kind.list(namespace, &params.options).await?;
            let revision = list
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .unwrap_or_default();
            check_list_revision(&params, revision)?;
            Ok(maybe_table(kind, version, headers, query, list, true))
        }
        Method::POST => {
            if kind.namespaced() && namespace.is_empty() {
                return Err(not_found_path());
            }
            let json = if is_protobuf(headers) {
                // kubectl create namespace/role/rolebinding/... send
                // built-in kinds as protobuf.
                serde_json::to_vec(&crate::protobuf::object(kind.info(), &body)?)
                    .map_err(Status::internal_error)?
            } else {
                json_body(headers, &body)?
            };
            let options = write_options_for(query, "CreateOptions", headers, user)?;
            let written = kind.create(namespace, &json, &options).await?;
            Ok(written_response(written, headers, kind.builtin()))
        }
        Method::DELETE => delete_collection(kind, namespace, query, &body).await,
        _ => Err(method_not_allowed()),
    }
}

/// `GET`, `PUT`, `PATCH` and `DELETE` of one object.
async fn object_request(
    kind: &dyn ServedKind,
    method: &Method,
    version: &str,
    namespace: &str,
    name: &str,
    req: Req<'_>,
    body: Bytes,
) -> Result<Response, Status> {
    let Req {
        query,
        headers,
        user,
    } = req;
    match *method {
        Method::GET => {
            let accept = header_str(headers, header::ACCEPT);
            if negotiate(accept, true, false) == Some(Representation::Json) && !kind.builtin() {
                // The common case, without a detour through a JSON value.
                let json = kind.get_json(namespace, name).await?;
                return Ok((
                    StatusCode::OK,
                    [(header::CONTENT_TYPE, "application/json")],
                    json,
                )
                    .into_response());
            }
            let object = kind.get(namespace, name).await?;
            Ok(maybe_table(kind, version, headers, query, object, false))
        }
        Method::PUT => {
            let json = json_body(headers, &body)?;
            let options = write_options_for(query, "UpdateOptions", headers, user)?;
            let written = kind.update(namespace, name, &json, &options, false).await?;
            Ok(written_response(written, headers, kind.builtin()))
        }
        Method::PATCH => {
            let written = patch_request(kind, namespace, name, req, &body, false).await?;
            Ok(written_response(written, headers, kind.builtin()))
        }
        Method::DELETE => {
            let (options, dry_run) = delete_options(query, &body)?;
            let (object, pending) = kind.delete(namespace, name, &options, dry_run).await?;
            // 200 with the object, deleted or waiting for finalizers;
            // 202 only for one left waiting when the client asked for
            // `orphanDependents: false` (`DeleteResource`: upstream keeps
            // 200 otherwise, for the clients that expect it).
            let code = if pending && options.orphan_dependents == Some(false) {
                StatusCode::ACCEPTED
            } else {
                StatusCode::OK
            };
            Ok(object_response(code, &object, kind.builtin()))
        }
        _ => Err(method_not_allowed()),
    }
}

/// `GET`, `PUT` and `PATCH` of the status subresource.
async fn status_request(
    kind: &dyn ServedKind,
    method: &Method,
    namespace: &str,
    name: &str,
    req: Req<'_>,
    body: Bytes,
) -> Result<Response, Status> {
    let Req {
        query,
        headers,
        user,
    } = req;
    let written = match *method {
        Method::GET => {
            let object = kind.get(namespace, name).await?;
            return Ok(object_response(StatusCode::OK, &object, kind.builtin()));
        }
        Method::PUT => {
            let json = json_body(headers, &body)?;
            let options = write_options_for(query, "UpdateOptions", headers, user)?;
            kind.update(namespace, name, &json, &options, true).await?
        }
        Method::PATCH => patch_request(kind, namespace, name, req, &body, true).await?,
        _ => return Err(method_not_allowed()),
    };
    Ok(written_response(written, headers, kind.builtin()))
}

/// `GET`, `PUT` and `PATCH` of the scale subresource.
async fn scale_request(
    kind: &dyn ServedKind,
    paths: &ScalePaths,
    method: &Method,
    namespace: &str,
    name: &str,
    req: Req<'_>,
    body: Bytes,
) -> Result<Response, Status> {
    let Req {
        query,
        headers,
        user,
    } = req;
    let scale = match *method {
        Method::GET => scale::get(kind, paths, namespace, name).await?,
        Method::PUT => {
            let json = json_body(headers, &body)?;
            let options = write_options_for(query, "UpdateOptions", headers, user)?;
            let change = ScaleChange::Replace(&json);
            scale::write(kind, paths, namespace, name, change, &options).await?
        }
        Method::PATCH => {
            let change = ScaleChange::Patch(patch_type(kind, headers)?, &body);
            let options = write_options_for(query, "PatchOptions", headers, user)?;
            scale::write(kind, paths, namespace, name, change, &options).await?
        }
        _ => return Err(method_not_allowed()),
    };
    Ok(json_response(StatusCode::OK, &scale, "application/json"))
}

/// Whether the body is protobuf.
pub(super) fn is_protobuf(headers: &HeaderMap) -> bool {
    let content_type = header_str(headers, header::CONTENT_TYPE).unwrap_or_default();
    content_type.split(';').next().unwrap_or("").trim() == crate::protobuf::PROTOBUF
}

/// The media type of server-side apply patches.
const APPLY_PATCH: &str = "application/apply-patch+yaml";

/// A `PATCH` of an object or its status: server-side apply for
/// `application/apply-patch+yaml`, else a JSON, merge or strategic merge
/// patch.
async fn patch_request(
    kind: &dyn ServedKind,
    namespace: &str,
    name: &str,
    req: Req<'_>,
    body: &Bytes,
    status: bool,
) -> Result<Written, Status> {
    let Req {
        query,
        headers,
        user,
    } = req;
    let options = write_options_for(query, "PatchOptions", headers, user)?;
    match patch_kind(kind, query, headers, &options)? {
        None => kind.apply(namespace, name, body, &options, status).await,
        Some(patch_type) => {
            kind.patch(namespace, name, patch_type, body, &options, status)
                .await
        }
    }
}

/// What a `PATCH` asks for: a server-side apply (`None`) or a patch type,
/// checked as `ValidatePatchOptions` checks them: an apply needs a
/// `fieldManager`, and only an apply may say `force` (422 `PatchOptions`
/// otherwise); another media type, or one the kind does not take, is a
/// 415 listing those it takes and apply.
fn patch_kind(
    kind: &dyn ServedKind,
    query: &Query,
    headers: &HeaderMap,
    options: &crate::served::WriteOptions,
) -> Result<Option<PatchType>, Status> {
    let content_type = header_str(headers, header::CONTENT_TYPE).unwrap_or("");
    let media = content_type.split(';').next().unwrap_or("").trim();
    if media.eq_ignore_ascii_case(APPLY_PATCH) {
        if options.field_manager.is_none() {
            return Err(api_core::registry::manager_required());
        }
        return Ok(None);
    }
    if query.contains_key("force") {
        use api_core::validation::{ErrorList, FieldError, FieldPath};
        let mut errors = ErrorList::new();
        errors.push(FieldError::forbidden(
            &FieldPath::new("force"),
            "may not be specified for non-apply patch",
        ));
        return Err(Status::invalid(
            api_core::status::GroupKind::new("meta.k8s.io", "PatchOptions"),
            "",
            &errors,
        ));
    }
    accepted_patch_type(kind, content_type).map(Some)
}

/// The patch type of `content_type` if `kind` takes it, else a 415 listing
/// the types it takes and server-side apply.
fn accepted_patch_type(kind: &dyn ServedKind, content_type: &str) -> Result<PatchType, Status> {
    let accepted = kind.patch_types();
    PatchType::from_content_type(content_type)
        .filter(|t| accepted.contains(t))
        .ok_or_else(|| {
            let mut types: Vec<&str> = accepted.iter().map(|t| t.content_type()).collect();
            types.push(APPLY_PATCH);
            Status::unsupported_media_type(&types)
        })
}

/// The patch type of a `PATCH`'s `Content-Type` (415 listing the
/// supported ones otherwise); of a kind without strategic merge patches,
/// a 415 for one too.
fn patch_type(kind: &dyn ServedKind, headers: &HeaderMap) -> Result<PatchType, Status> {
    let content_type = header_str(headers, header::CONTENT_TYPE).unwrap_or("");
    let patch_type = PatchType::parse_content_type(content_type)?;
    if !kind.patch_types().contains(&patch_type) {
        return accepted_patch_type(kind, content_type);
    }
    Ok(patch_type)
}

/// 405, as the apiserver's router answers a method a path does not
/// serve (`NewGenericServerResponse(405, ...)` over go-restful's
/// `405: Method Not Allowed`).
fn method_not_allowed() -> Status {
    let mut status = Status::failure(
        StatusReason::MethodNotAllowed,
        "the server does not allow this method on the requested resource",
    );
    status.code = 405;
    status.details = Some(StatusDetails {
        causes: vec![StatusCause {
            reason: "UnexpectedServerResponse".into(),
            message: "405: Method Not Allowed".into(),
            field: String::new(),
        }],
        ..StatusDetails::default()
    });
    status
}

async fn delete_collection(
    kind: &dyn ServedKind,
    namespace: &str,
    query: &Query,
    body: &Bytes,
) -> Result<Response, Status> {
    let params = list_params(query)?;
    let (delete, dry_run) = delete_options(query, body)?;
    let (list, deleted) = delete_listed(kind, namespace, &params.options, &delete, dry_run).await?;
    let mut out = list;
    out["items"] = Value::Array(deleted);
    Ok(object_response(StatusCode::OK, &out, kind.builtin()))
}

/// The object or list of `kind`, or its `Table` when the client asks.
fn maybe_table(
    kind: &dyn ServedKind,
    version: &str,
    headers: &HeaderMap,
    query: &Query,
    value: Value,
    is_list: bool,
) -> Response {
    let info = kind.info();
    let convertor = || TableConvertor::for_kind(&info.group, &info.plural, &kind.crd(), version);
    table_or_json(convertor, headers, query, value, is_list, kind.builtin())
}

/// `value` as JSON, or as a `Table` by `convertor` when the `Accept`
/// header asks for one (kubectl get).
fn table_or_json(
    convertor: impl FnOnce() -> Option<TableConvertor>,
    headers: &HeaderMap,
    query: &Query,
    value: Value,
    is_list: bool,
    builtin: bool,
) -> Response {
    let accept = header_str(headers, header::ACCEPT);
    match negotiate(accept, true, false) {
        Some(Representation::Table(table_version)) => {
            let Some(convertor) = convertor() else {
                return status_response(not_found_path());
            };
            let options = TableOptions {
                no_headers: false,
                include_object: query
                    .get("includeObject")
                    .and_then(|v| IncludeObject::from_query(v))
                    .unwrap_or_default(),
                version: table_version,
            };
            let now = chrono::Utc::now();
            let table = if is_list {
                let meta: ListMeta = value
                    .get("metadata")
                    .cloned()
                    .and_then(|m| serde_json::from_value(m).ok())
                    .unwrap_or_default();
                let items = value
                    .get("items")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                convertor.convert_list(&items, meta, &options, now)
            } else {
                convertor.convert_object(&value, &options, now)
            };
            json_response(
                StatusCode::OK,
                &table,
                Representation::Table(table_version).content_type(),
            )
        }
        Some(
            representation @ (Representation::PartialObjectMetadata(_)
            | Representation::PartialObjectMetadataList(_)),
        ) => match metadata_only(&value, representation, is_list) {
            Ok(body) => json_response(StatusCode::OK, &body, representation.content_type()),
            Err(status) => status_response(status),
        },
        Some(_) => object_response(StatusCode::OK, &value, builtin),
        None => status_response(Status::not_acceptable(&[
            "application/json",
            crate::negotiation::TABLE_V1,
        ])),
    }
}

/// `value` (an object, or a list when `is_list`) as the metadata-only
/// `representation` asks (`asPartialObjectMetadata(List)`); the wrong
/// shape is the apiserver's 406. `value` unchanged for other
/// representations.
fn metadata_only(
    value: &Value,
    representation: Representation,
    is_list: bool,
) -> Result<Value, Status> {
    match (representation, is_list) {
        (Representation::PartialObjectMetadata(version), false) => {
            Ok(partial_object_metadata(value, version))
        }
        (Representation::PartialObjectMetadataList(version), true) => {
            Ok(partial_object_metadata_list(value, version))
        }
        (Representation::PartialObjectMetadata(_), true) => Err(not_a(
            "you requested PartialObjectMetadata, but the requested object is a list",
        )),
        (Representation::PartialObjectMetadataList(_), false) => Err(not_a(
            "you requested PartialObjectMetadataList, but the requested object is not a list",
        )),
        _ => Ok(value.clone()),
    }
}

/// 406 for a metadata-only representation of the wrong shape (the
/// apiserver's `newNotAcceptableError`).
fn not_a(message: &str) -> Status {
    let mut status = Status::not_acceptable(&["application/json"]);
    status.message = message.to_string();
    status
}

/// `?watch=true`: chunked JSON, one `{"type","object"}` per line, flushed
/// per event; ends after `timeoutSeconds` (default 30 minutes); an error
/// (410 for a too-old resourceVersion) is an `ERROR` event.
/// How a watch's events are written.
struct WatchShape {
    /// How often a BOOKMARK goes out (with `allowWatchBookmarks`).
    bookmark_interval: Duration,
    /// Each event's object as a `PartialObjectMetadata` of this version
    /// (a metadata-only watch).
    metadata_only: Option<crate::table::TableVersion>,
}

async fn watch_response(
    kind: &dyn ServedKind,
    namespace: &str,
    params: ListParams,
    shape: WatchShape,
) -> Response {
    let WatchShape {
        bookmark_interval,
        metadata_only,
    } = shape;
    let builtin = kind.builtin();
    let event_line = move |event: &str, object: &Value| match metadata_only {
        Some(version) => event_line(event, &partial_object_metadata(object, version), false),
        None => event_line(event, object, builtin),
    };
    let timeout = params.timeout_seconds.unwrap_or(1800);
    // With `sendInitialEvents` (the default of a watch without a
    // resourceVersion, or at "0") the store's watch starts with the
    // current state as ADDED events, ended by a BOOKMARK annotated
    // `k8s.io/initial-events-end` when bookmarks are allowed (watch-list,
    // which kube-rs and client-go use).
    let options = params.options;
    let events = match kind.watch(namespace, &options).await {
        Ok(events) => events,
        Err(status) => {
            // A watch that cannot start from the requested revision
            // answers 200 with one ERROR event, as the apiserver does.
            if status.code == 410 {
                let line = error_line(&status);
                return (
                    StatusCode::OK,
                    [(header::CONTENT_TYPE, "application/json")],
                    line,
                )
                    .into_response();
            }
            return status_response(status);
        }
    };
    let deadline = tokio::time::sleep(Duration::from_secs(timeout));
    // With `allowWatchBookmarks`, the storage is asked for its progress
    // every `bookmark_interval` (the cacher's bookmark frequency is a
    // minute); the store's watch answers with a BOOKMARK at the revision
    // reached, so a client can resume from it.
    // Each item is moved once through the stream: boxing the large
    // variant would only add an allocation per event.
    #[allow(clippy::large_enum_variant)]
    enum Item {
        Event(JsonEvent),
        Tick,
        End,
    }
    let progress = events
        .progress_requester()
        .filter(|_| params.allow_bookmarks);
    let ticks = match &progress {
        Some(_) => futures_util::stream::unfold(
            tokio::time::interval_at(
                tokio::time::Instant::now() + bookmark_interval,
                bookmark_interval,
            ),
            |mut interval| async move {
                interval.tick().await;
                Some((Item::Tick, interval))
            },
        )
        .boxed(),
        None => futures_util::stream::pending().boxed(),
    };
    let events = events
        .map(Item::Event)
        .chain(futures_util::stream::iter([Item::End]));
    let lines = futures_util::stream::select(events, ticks)
        .take_while(|item| std::future::ready(!matches!(item, Item::End)))
        .filter_map(move |item| {
            let line = match item {
                Item::Event(Ok((event, object))) => Some(event_line(event, &object)),
                Item::Event(Err(status)) => Some(error_line(&status)),
                Item::Tick => {
                    // The answer comes back through the events.
                    if let Some(progress) = &progress {
                        progress.request();
                    }
                    None
                }
                Item::End => None,
            };
            std::future::ready(line.map(|l| Ok::<_, std::convert::Infallible>(Bytes::from(l))))
        });
    let lines = lines.take_until(deadline);
    Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::TRANSFER_ENCODING, "chunked")
        .body(Body::from_stream(lines))
        .unwrap_or_else(|_| status_response(Status::internal_error("watch response")))
}

fn event_line(kind: &str, object: &Value, builtin: bool) -> Vec<u8> {
    let event = json!({"type": kind, "object": object});
    let mut line = if builtin {
        serde_json::to_vec(&KindFirst(&event))
    } else {
        serde_json::to_vec(&event)
    }
    .unwrap_or_default();
    line.push(b'\n');
    line
}

fn error_line(status: &Status) -> Vec<u8> {
    let mut line =
        serde_json::to_vec(&json!({"type": "ERROR", "object": status})).unwrap_or_default();
    line.push(b'\n');
    line
}
