//! Query parameters and their validation: list and watch options
//! (apimachinery `internalversion/validation.ValidateListOptions`), write
//! options (`dryRun`, `fieldValidation`, `fieldManager`) and delete
//! options, each failure the apiserver's `Status`.

use std::collections::BTreeMap;

use api_core::Status;
use api_core::decode::FieldValidation;
use api_core::registry::{DeleteOptions, ListOptions, PropagationPolicy, ResourceVersionMatch};
use api_core::status::GroupKind;
use api_core::validation::{ErrorList, FieldError, FieldPath};
use axum::body::Bytes;
use serde_json::Value;

use crate::served::WriteOptions;

/// The query string as a map (a repeated key keeps its first value, as
/// Go's `url.Values.Get` reads it).
pub(crate) type Query = BTreeMap<String, String>;

/// `resourceVersionMatch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RvMatch {
    /// `Exact`: the list at exactly that revision.
    Exact,
    /// `NotOlderThan`: any state at least that new.
    NotOlderThan,
}

/// What a list or a watch asks for, validated.
#[derive(Clone, Debug, Default)]
pub(crate) struct ListParams {
    /// Selectors, page, revision.
    pub options: ListOptions,
    /// `resourceVersionMatch`, after `SetListOptionsDefaults`.
    pub rv_match: Option<RvMatch>,
    /// `allowWatchBookmarks`.
    pub allow_bookmarks: bool,
    /// `watch`.
    pub watch: bool,
    /// `timeoutSeconds`.
    pub timeout_seconds: Option<u64>,
}

/// `true`, `1`, ... as Go's `strconv.ParseBool` reads them.
pub(crate) fn parse_bool(value: &str) -> Option<bool> {
    match value {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

fn bool_param(query: &Query, key: &str) -> Result<Option<bool>, Status> {
    match query.get(key).map(String::as_str) {
        None | Some("") => Ok(None),
        Some(v) => parse_bool(v)
            .map(Some)
            .ok_or_else(|| Status::bad_request(format!("invalid value {v:?} for {key}"))),
    }
}

/// The options of a list or a watch, validated as the apiserver's list
/// handler does (422 `ListOptions.meta.k8s.io "" is invalid: ...`), with
/// the WatchList defaults applied (a watch without a resourceVersion, or
/// at "0", sends the initial state: `SetListOptionsDefaults`).
pub(crate) fn list_params(query: &Query) -> Result<ListParams, Status> {
    let limit = match query.get("limit").map(String::as_str) {
        None | Some("") => None,
        Some(l) => Some(
            l.parse::<i64>()
                .map_err(|_| Status::bad_request(format!("invalid limit {l:?}")))?,
        )
        .filter(|l| *l > 0)
        .map(|l| usize::try_from(l).unwrap_or(usize::MAX)),
    };
    let non_empty = |key: &str| query.get(key).filter(|s| !s.is_empty()).cloned();
    let mut options = ListOptions {
        label_selector: non_empty("labelSelector"),
        field_selector: non_empty("fieldSelector"),
        limit,
        continue_token: non_empty("continue"),
        resource_version: non_empty("resourceVersion"),
        ..ListOptions::default()
    };
    let watch = bool_param(query, "watch")?.unwrap_or(false);
    let mut send_initial_events = bool_param(query, "sendInitialEvents")?;
    let mut matched = query
        .get("resourceVersionMatch")
        .cloned()
        .unwrap_or_default();
    let rv = options.resource_version.as_deref().unwrap_or("");
    if watch && send_initial_events.is_none() && matched.is_empty() && matches!(rv, "" | "0") {
        send_initial_events = Some(true);
        matched = "NotOlderThan".into();
    }
    let errors = validate(
        watch,
        rv,
        &matched,
        send_initial_events,
        options.continue_token.is_some(),
    );
    if !errors.is_empty() {
        return Err(Status::invalid(
            GroupKind::new("meta.k8s.io", "ListOptions"),
            "",
            &errors,
        ));
    }
    let timeout_seconds = match query.get("timeoutSeconds").map(String::as_str) {
        None | Some("") => None,
        Some(t) => Some(
            t.parse::<u64>()
                .map_err(|_| Status::bad_request(format!("invalid timeoutSeconds {t:?}")))?,
        ),
    };
    if !watch {
        options.resource_version_match = match matched.as_str() {
            "Exact" => Some(ResourceVersionMatch::Exact),
            "NotOlderThan" => Some(ResourceVersionMatch::NotOlderThan),
            _ => None,
        };
    }
    let allow_bookmarks = bool_param(query, "allowWatchBookmarks")?.unwrap_or(false);
    // The store's watch sends the initial events and the bookmarks.
    options.send_initial_events = watch && send_initial_events == Some(true);
    options.allow_watch_bookmarks = watch && allow_bookmarks;
    Ok(ListParams {
        options,
        rv_match: match matched.as_str() {
            "Exact" => Some(RvMatch::Exact),
            "NotOlderThan" => Some(RvMatch::NotOlderThan),
            _ => None,
        },
        allow_bookmarks,
        watch,
        timeout_seconds,
    })
}

/// `ValidateListOptions` with the WatchList feature on.
fn validate(
    watch: bool,
    rv: &str,
    matched: &str,
    send_initial_events: Option<bool>,
    has_continue: bool,
) -> ErrorList {
    let path = FieldPath::new("resourceVersionMatch");
    let mut errors = ErrorList::new();
    if watch {
        if send_initial_events.is_some() && matched != "NotOlderThan" {
            errors.push(FieldError::forbidden(
                &path,
                "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
            ));
        }
        if !matched.is_empty() {
            if send_initial_events.is_none() {
                errors.push(FieldError::forbidden(
                    &path,
                    "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
                ));
            }
            if matched != "NotOlderThan" {
                errors.push(FieldError::not_supported(&path, matched, &["NotOlderThan"]));
            }
            if has_continue {
                errors.push(FieldError::forbidden(
                    &path,
                    "resourceVersionMatch is forbidden when continue is provided",
                ));
            }
        }
        return errors;
    }
    if !matched.is_empty() {
        if rv.is_empty() {
            errors.push(FieldError::forbidden(
                &path,
                "resourceVersionMatch is forbidden unless resourceVersion is provided",
            ));
        }
        if has_continue {
            errors.push(FieldError::forbidden(
                &path,
                "resourceVersionMatch is forbidden when continue is provided",
            ));
        }
        if matched != "Exact" && matched != "NotOlderThan" {
            errors.push(FieldError::not_supported(
                &path,
                matched,
                &["Exact", "NotOlderThan", ""],
            ));
        }
        if matched == "Exact" && rv == "0" {
            errors.push(FieldError::forbidden(
                &path,
                "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
            ));
        }
    }
    if send_initial_events.is_some() {
        errors.push(FieldError::forbidden(
            &FieldPath::new("sendInitialEvents"),
            "sendInitialEvents is forbidden for list",
        ));
    }
    errors
}

/// A list's `resourceVersion` semantics against the revision the list was
/// read at: a revision newer than the store's is the apiserver's 504
/// `Too large resource version` (it waits up to 3 s for it first; this
/// server answers at once), and `Exact` at an older revision is 410
/// `Expired`, because the in-memory store keeps no snapshots (an etcd
/// store can serve it until compaction).
pub(crate) fn check_list_revision(params: &ListParams, current: &str) -> Result<(), Status> {
    let Some(requested) = params.options.resource_version.as_deref() else {
        return Ok(());
    };
    if requested == "0" {
        return Ok(());
    }
    let invalid = || Status::bad_request(format!("invalid resource version {requested:?}"));
    let requested: u64 = requested.parse().map_err(|_| invalid())?;
    let current: u64 = current.parse().unwrap_or(0);
    if requested > current {
        let mut status = Status::timeout(
            format!("Too large resource version: {requested}, current: {current}"),
            1,
        );
        if let Some(details) = status.details.as_mut() {
            details.causes.push(api_core::status::StatusCause {
                reason: "ResourceVersionTooLarge".into(),
                message: "Too large resource version".into(),
                field: String::new(),
            });
        }
        return Err(status);
    }
    if params.rv_match == Some(RvMatch::Exact) && requested < current {
        return Err(Status::resource_expired(
            "The resourceVersion for the provided list is too old.",
        ));
    }
    Ok(())
}

/// `fieldValidation`'s values, as `ValidateFieldValidation` lists them
/// (the empty value means the default, `Warn`).
const FIELD_VALIDATIONS: [&str; 4] = ["", "Ignore", "Strict", "Warn"];

/// `fieldValidation`, or its `Unsupported value` error.
fn field_validation(query: &Query, errors: &mut ErrorList) -> FieldValidation {
    match query.get("fieldValidation").map(String::as_str) {
        None | Some("") | Some("Warn") => FieldValidation::Warn,
        Some("Ignore") => FieldValidation::Ignore,
        Some("Strict") => FieldValidation::Strict,
        Some(other) => {
            errors.push(FieldError::not_supported(
                &FieldPath::new("fieldValidation"),
                other,
                &FIELD_VALIDATIONS,
            ));
            FieldValidation::Warn
        }
    }
}

/// `dryRun`: only `All` exists (`ValidateDryRun`).
fn dry_run(query: &Query, errors: &mut ErrorList) -> bool {
    match query.get("dryRun").map(String::as_str) {
        None | Some("") => false,
        Some("All") => true,
        Some(other) => {
            errors.push(FieldError::not_supported(
                &FieldPath::new("dryRun"),
                other,
                &["All"],
            ));
            false
        }
    }
}

/// `fieldManager`: at most 128 characters, printable
/// (`ValidateFieldManager`).
fn field_manager(query: &Query, errors: &mut ErrorList) -> Option<String> {
    let manager = query.get("fieldManager").filter(|m| !m.is_empty())?;
    let path = FieldPath::new("fieldManager");
    let before = errors.len();
    if manager.chars().count() > 128 {
        errors.push(FieldError::too_long(&path, 128));
    }
    if manager.chars().any(|c| c.is_control()) {
        errors.push(FieldError::invalid(
            &path,
            manager.as_str(),
            "must only contain printable characters",
        ));
    }
    (errors.len() == before).then(|| manager.clone())
}

/// The options of a create (`CreateOptions`), an update (`UpdateOptions`)
/// or a patch (`PatchOptions`), validated as `ValidateCreateOptions` and
/// its siblings do: every problem in one 422 `<kind>Options.meta.k8s.io
/// "" is invalid: ...` (`fieldManager`, `dryRun`, `fieldValidation`).
pub(crate) fn write_options(query: &Query, options_kind: &str) -> Result<WriteOptions, Status> {
    let mut errors = ErrorList::new();
    let field_manager = field_manager(query, &mut errors);
    let dry_run = dry_run(query, &mut errors);
    let field_validation = field_validation(query, &mut errors);
    if !errors.is_empty() {
        return Err(Status::invalid(
            GroupKind::new("meta.k8s.io", options_kind),
            "",
            &errors,
        ));
    }
    Ok(WriteOptions {
        field_validation,
        dry_run,
        field_manager,
        ..WriteOptions::default()
    })
}

/// [`write_options`] with the manager of the write: `fieldManager`, else
/// the user agent's program name; and `force`.
pub(crate) fn write_options_for(
    query: &Query,
    options_kind: &str,
    headers: &axum::http::HeaderMap,
    user: Option<&crate::authn::User>,
) -> Result<WriteOptions, Status> {
    let mut options = write_options(query, options_kind)?;
    options.user = user.cloned();
    let user_agent = headers
        .get(axum::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    options.manager = manager_or_user_agent(options.field_manager.as_deref(), user_agent);
    options.force = query
        .get("force")
        .and_then(|f| parse_bool(f))
        .unwrap_or(false);
    Ok(options)
}

/// The apiserver's `managerOrUserAgent`: the `fieldManager`, else the
/// user agent up to its first `/` (`kubectl/v1.37.1 (linux/amd64)` →
/// `kubectl`), printable characters only, at most 128 bytes.
pub(crate) fn manager_or_user_agent(manager: Option<&str>, user_agent: &str) -> String {
    if let Some(m) = manager.filter(|m| !m.is_empty()) {
        return m.to_string();
    }
    let prefix = user_agent.split('/').next().unwrap_or_default();
    let mut out = String::new();
    for c in prefix
        .chars()
        .filter(|c| api_core::validation::object_meta::is_go_printable(*c))
    {
        if out.len() + c.len_utf8() > 128 {
            break;
        }
        out.push(c);
    }
    out
}

/// `propagationPolicy`'s values.
const PROPAGATION_POLICIES: [&str; 3] = ["Orphan", "Background", "Foreground"];

/// A delete's options: the `DeleteOptions` body (JSON; kubectl sends one)
/// and the query parameters, which win. Returns the registry's options
/// and whether it is a dry run.
pub(crate) fn delete_options(query: &Query, body: &Bytes) -> Result<(DeleteOptions, bool), Status> {
    let mut options = DeleteOptions::default();
    let mut dry = false;
    let mut policy: Option<String> = None;
    if !body.is_empty() {
        let v: Value = serde_json::from_slice(body)
            .map_err(|e| Status::bad_request(format!("invalid DeleteOptions: {e}")))?;
        options.grace_period_seconds = v.get("gracePeriodSeconds").and_then(Value::as_i64);
        if let Some(p) = v.get("preconditions") {
            options.uid = p.get("uid").and_then(Value::as_str).map(str::to_string);
            options.resource_version = p
                .get("resourceVersion")
                .and_then(Value::as_str)
                .map(str::to_string);
        }
        if let Some(d) = v.get("dryRun").and_then(Value::as_array) {
            for value in d {
                let value = value.as_str().unwrap_or_default();
                let mut q = Query::new();
                q.insert("dryRun".into(), value.to_string());
                dry |= delete_dry_run(&q)?;
            }
        }
        policy = v
            .get("propagationPolicy")
            .and_then(Value::as_str)
            .map(str::to_string);
        options.orphan_dependents = v.get("orphanDependents").and_then(Value::as_bool);
        if options.orphan_dependents == Some(true) && policy.is_some() {
            return Err(delete_invalid(FieldError::invalid(
                &FieldPath::new("propagationPolicy"),
                policy.clone().unwrap_or_default(),
                "orphanDependents and deletionPropagation cannot be both set",
            )));
        }
    }
    if let Some(g) = query.get("gracePeriodSeconds").filter(|g| !g.is_empty()) {
        options.grace_period_seconds = Some(
            g.parse()
                .map_err(|_| Status::bad_request(format!("invalid gracePeriodSeconds {g:?}")))?,
        );
    }
    dry |= delete_dry_run(query)?;
    if let Some(p) = query.get("propagationPolicy").filter(|p| !p.is_empty()) {
        policy = Some(p.clone());
    }
    if let Some(policy) = policy {
        options.propagation_policy =
            Some(PropagationPolicy::from_name(&policy).ok_or_else(|| {
                delete_invalid(FieldError::not_supported(
                    &FieldPath::new("propagationPolicy"),
                    policy.as_str(),
                    &PROPAGATION_POLICIES,
                ))
            })?);
    }
    Ok((options, dry))
}

/// A delete's `dryRun`.
fn delete_dry_run(query: &Query) -> Result<bool, Status> {
    let mut errors = ErrorList::new();
    let dry = dry_run(query, &mut errors);
    match errors.into_iter().next() {
        Some(e) => Err(delete_invalid(e)),
        None => Ok(dry),
    }
}

fn delete_invalid(error: FieldError) -> Status {
    let mut errors = ErrorList::new();
    errors.push(error);
    Status::invalid(GroupKind::new("meta.k8s.io", "DeleteOptions"), "", &errors)
}

#[cfg(test)]
#[path = "params_tests.rs"]
mod tests;
