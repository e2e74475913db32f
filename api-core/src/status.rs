//! The meta/v1 `Status` kind: what the apiserver returns instead of an
//! object when a request fails (and for some successful deletes).
//!
//! The constructors on [`Status`] produce the same messages, reasons, codes
//! and details as apimachinery's `pkg/api/errors` (`NewNotFound`,
//! `NewInvalid`, ...), so that a Rust server or webhook answers exactly like
//! the apiserver, and a client can check a decoded `Status` with the same
//! predicates (`is_not_found`, `is_conflict`, ...).
//!
//! ```
//! use api_core::status::{GroupKind, Status, StatusReason};
//! use api_core::validation::{ErrorList, FieldError, FieldPath};
//!
//! let spec = FieldPath::new("spec");
//! let size = spec.child("size");
//! let mut errors = ErrorList::new();
//! errors.push(FieldError::invalid(&size, 0, "must be greater than or equal to 1"));
//!
//! let status = Status::invalid(GroupKind::new("cache.example.com", "Memcached"), "mc", &errors);
//! assert_eq!(status.code, 422);
//! assert_eq!(status.reason, StatusReason::Invalid);
//! assert_eq!(
//!     status.message,
//!     r#"Memcached.cache.example.com "mc" is invalid: spec.size: Invalid value: 0: must be greater than or equal to 1"#
//! );
//! ```

use std::borrow::Cow;
use std::convert::Infallible;
use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::meta::ListMeta;
use crate::resource::{Resource, check_type_field};
use crate::validation::{ErrorList, FieldError, go_quote};

/// Decodes `null` as the default value, as Go's `encoding/json` does for
/// strings, numbers, slices and structs.
fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

fn is_zero(n: &i32) -> bool {
    *n == 0
}

// ---------------------------------------------------------------------------
// GroupKind, GroupResource

/// A kind in an API group, without a version (apimachinery's `schema.GroupKind`).
///
/// Displays as `Kind` for the core group and `Kind.group` otherwise, the
/// form used in error messages (`Memcached.cache.example.com "mc" is invalid`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupKind {
    /// The API group; empty for the core group.
    pub group: String,
    /// The kind, CamelCase (`Memcached`).
    pub kind: String,
}

impl GroupKind {
    /// The kind `kind` in the group `group` (empty for the core group).
    pub fn new(group: impl Into<String>, kind: impl Into<String>) -> Self {
        GroupKind {
            group: group.into(),
            kind: kind.into(),
        }
    }

    /// The group and kind of the resource type `R`.
    pub fn of<R: Resource>() -> Self {
        GroupKind::new(R::GROUP, R::KIND)
    }

    /// Whether both the group and the kind are empty (Go's `Empty()`).
    pub fn is_empty(&self) -> bool {
        self.group.is_empty() && self.kind.is_empty()
    }
}

impl fmt::Display for GroupKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group.is_empty() {
            f.write_str(&self.kind)
        } else {
            write!(f, "{}.{}", self.kind, self.group)
        }
    }
}

/// A resource (the plural used in URLs) in an API group, without a version
/// (apimachinery's `schema.GroupResource`).
///
/// Displays as `resource` for the core group and `resource.group` otherwise
/// (`memcacheds.cache.example.com "mc" not found`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupResource {
    /// The API group; empty for the core group.
    pub group: String,
    /// The resource, lowercase plural (`memcacheds`).
    pub resource: String,
}

impl GroupResource {
    /// The resource `resource` in the group `group` (empty for the core group).
    pub fn new(group: impl Into<String>, resource: impl Into<String>) -> Self {
        GroupResource {
            group: group.into(),
            resource: resource.into(),
        }
    }

    /// The group and plural of the resource type `R`.
    pub fn of<R: Resource>() -> Self {
        GroupResource::new(R::GROUP, R::PLURAL)
    }

    /// Whether both the group and the resource are empty (Go's `Empty()`).
    pub fn is_empty(&self) -> bool {
        self.group.is_empty() && self.resource.is_empty()
    }
}

impl fmt::Display for GroupResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group.is_empty() {
            f.write_str(&self.resource)
        } else {
            write!(f, "{}.{}", self.resource, self.group)
        }
    }
}

// ---------------------------------------------------------------------------
// StatusReason

/// Why an operation failed: meta/v1 `StatusReason`, a machine-readable
/// refinement of the HTTP code.
///
/// Decoding never fails on a reason this crate does not know: the string is
/// kept in [`StatusReason::Other`]. Build reasons from strings with
/// [`StatusReason::from`] (or `parse`), which maps the known strings to their
/// variants, so that `Other` only ever holds unknown ones.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum StatusReason {
    /// `""`: the server gave no specific reason (code 500).
    #[default]
    Unknown,
    /// `Unauthorized`: the request needs valid credentials (401).
    Unauthorized,
    /// `Forbidden`: the user may not perform the action (403).
    Forbidden,
    /// `NotFound`: the resource does not exist (404).
    NotFound,
    /// `AlreadyExists`: a resource with that name already exists (409).
    AlreadyExists,
    /// `Conflict`: the operation conflicts with the current state, usually a stale `resourceVersion` (409).
    Conflict,
    /// `Gone`: the item is no longer available (410).
    Gone,
    /// `Invalid`: the object failed validation; `details.causes` lists the fields (422).
    Invalid,
    /// `ServerTimeout`: the server could not complete the operation in time; retry (500).
    ServerTimeout,
    /// `StorageReadError`: reading from the backend store failed (500).
    StoreReadError,
    /// `Timeout`: the request did not complete in time, but may still succeed (504).
    Timeout,
    /// `TooManyRequests`: rate limited; retry after `details.retryAfterSeconds` (429).
    TooManyRequests,
    /// `BadRequest`: the request itself is malformed (400).
    BadRequest,
    /// `MethodNotAllowed`: the action is not supported on this resource (405).
    MethodNotAllowed,
    /// `NotAcceptable`: none of the `Accept` media types can be served (406).
    NotAcceptable,
    /// `RequestEntityTooLarge`: the request body is too large (413).
    RequestEntityTooLarge,
    /// `UnsupportedMediaType`: the `Content-Type` of the body is not supported (415).
    UnsupportedMediaType,
    /// `InternalError`: an unexpected error in the server (500).
    InternalError,
    /// `Expired`: the content has expired, usually a `resourceVersion` too old to watch from (410).
    Expired,
    /// `ServiceUnavailable`: the requested service is unavailable (503).
    ServiceUnavailable,
    /// A reason this crate does not know, kept as sent (500).
    Other(String),
}

impl StatusReason {
    /// Every reason except [`StatusReason::Other`], in meta/v1 order.
    pub const ALL: &'static [StatusReason] = &[
        StatusReason::Unknown,
        StatusReason::Unauthorized,
        StatusReason::Forbidden,
        StatusReason::NotFound,
        StatusReason::AlreadyExists,
        StatusReason::Conflict,
        StatusReason::Gone,
        StatusReason::Invalid,
        StatusReason::ServerTimeout,
        StatusReason::StoreReadError,
        StatusReason::Timeout,
        StatusReason::TooManyRequests,
        StatusReason::BadRequest,
        StatusReason::MethodNotAllowed,
        StatusReason::NotAcceptable,
        StatusReason::RequestEntityTooLarge,
        StatusReason::UnsupportedMediaType,
        StatusReason::InternalError,
        StatusReason::Expired,
        StatusReason::ServiceUnavailable,
    ];

    /// The string form, as written in JSON (`""` for [`StatusReason::Unknown`]).
    pub fn as_str(&self) -> &str {
        match self {
            StatusReason::Unknown => "",
            StatusReason::Unauthorized => "Unauthorized",
            StatusReason::Forbidden => "Forbidden",
            StatusReason::NotFound => "NotFound",
            StatusReason::AlreadyExists => "AlreadyExists",
            StatusReason::Conflict => "Conflict",
            StatusReason::Gone => "Gone",
            StatusReason::Invalid => "Invalid",
            StatusReason::ServerTimeout => "ServerTimeout",
            StatusReason::StoreReadError => "StorageReadError",
            StatusReason::Timeout => "Timeout",
            StatusReason::TooManyRequests => "TooManyRequests",
            StatusReason::BadRequest => "BadRequest",
            StatusReason::MethodNotAllowed => "MethodNotAllowed",
            StatusReason::NotAcceptable => "NotAcceptable",
            StatusReason::RequestEntityTooLarge => "RequestEntityTooLarge",
            StatusReason::UnsupportedMediaType => "UnsupportedMediaType",
            StatusReason::InternalError => "InternalError",
            StatusReason::Expired => "Expired",
            StatusReason::ServiceUnavailable => "ServiceUnavailable",
            StatusReason::Other(s) => s,
        }
    }

    /// The HTTP status code that goes with this reason. [`StatusReason::Unknown`]
    /// and [`StatusReason::Other`] give 500.
    pub fn code(&self) -> i32 {
        match self {
            StatusReason::BadRequest => 400,
            StatusReason::Unauthorized => 401,
            StatusReason::Forbidden => 403,
            StatusReason::NotFound => 404,
            StatusReason::MethodNotAllowed => 405,
            StatusReason::NotAcceptable => 406,
            StatusReason::AlreadyExists | StatusReason::Conflict => 409,
            StatusReason::Gone | StatusReason::Expired => 410,
            StatusReason::RequestEntityTooLarge => 413,
            StatusReason::UnsupportedMediaType => 415,
            StatusReason::Invalid => 422,
            StatusReason::TooManyRequests => 429,
            StatusReason::ServiceUnavailable => 503,
            StatusReason::Timeout => 504,
            StatusReason::Unknown
            | StatusReason::ServerTimeout
            | StatusReason::StoreReadError
            | StatusReason::InternalError
            | StatusReason::Other(_) => 500,
        }
    }

    /// Whether this is [`StatusReason::Unknown`] (the empty reason).
    pub fn is_unknown(&self) -> bool {
        matches!(self, StatusReason::Unknown)
    }

    /// Whether this is one of the reasons apimachinery's `Is*` checks treat
    /// as specific: anything but [`StatusReason::Unknown`] and
    /// [`StatusReason::Other`]. When the reason is not known, those checks
    /// fall back to the HTTP code.
    pub fn is_known(&self) -> bool {
        !matches!(self, StatusReason::Unknown | StatusReason::Other(_))
    }
}

impl From<&str> for StatusReason {
    fn from(s: &str) -> Self {
        StatusReason::ALL
            .iter()
            .find(|r| r.as_str() == s)
            .cloned()
            .unwrap_or_else(|| StatusReason::Other(s.to_string()))
    }
}

impl From<String> for StatusReason {
    fn from(s: String) -> Self {
        match StatusReason::ALL.iter().find(|r| r.as_str() == s) {
            Some(r) => r.clone(),
            None => StatusReason::Other(s),
        }
    }
}

impl FromStr for StatusReason {
    type Err = Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(StatusReason::from(s))
    }
}

impl fmt::Display for StatusReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for StatusReason {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for StatusReason {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = Option::<Cow<'de, str>>::deserialize(deserializer)?.unwrap_or_default();
        Ok(match s {
            Cow::Borrowed(s) => StatusReason::from(s),
            Cow::Owned(s) => StatusReason::from(s),
        })
    }
}

// ---------------------------------------------------------------------------
// StatusDetails, StatusCause

/// Extra data about a [`Status`] (meta/v1 `StatusDetails`): which object it
/// is about, the individual causes, and when to retry. Empty fields are
/// left out of the JSON; `null` fields are read as empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusDetails {
    /// The name of the object concerned, when there is one.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The API group of the object concerned.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// The kind of the object concerned. The constructors that take a
    /// [`GroupResource`] put the resource here, as apimachinery does.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The UID of the object concerned, when there is one.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// The individual problems; one per field error for `Invalid`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<StatusCause>,
    /// How many seconds the client should wait before retrying; 0 for no advice.
    #[serde(skip_serializing_if = "is_zero")]
    pub retry_after_seconds: i32,
}

/// One cause of a [`Status`] (meta/v1 `StatusCause`), typically one field
/// error. Empty fields are left out of the JSON; `null` fields are read as empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StatusCause {
    /// The machine-readable kind of the cause (Go's `CauseType`, such as
    /// `FieldValueInvalid`); written under the JSON key `reason`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// A human-readable description of the cause.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// The field the cause is about, as a field path (`spec.ports[0].port`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub field: String,
}

impl StatusCause {
    /// The cause type of a response that was not in the expected API format
    /// (Go's `CauseTypeUnexpectedServerResponse`).
    pub const UNEXPECTED_SERVER_RESPONSE: &'static str = "UnexpectedServerResponse";

    /// A cause with the given type, message and field.
    pub fn new(
        reason: impl Into<String>,
        message: impl Into<String>,
        field: impl Into<String>,
    ) -> Self {
        StatusCause {
            reason: reason.into(),
            message: message.into(),
            field: field.into(),
        }
    }
}

impl From<&FieldError> for StatusCause {
    /// The cause `NewInvalid` makes of a field error: the error type as the
    /// reason, the error body (the message without the field) as the
    /// message, and the field path.
    fn from(error: &FieldError) -> Self {
        StatusCause {
            reason: error.error_type.as_str().to_string(),
            message: error.error_body(),
            field: error.field.clone(),
        }
    }
}

// ---------------------------------------------------------------------------
// Status

/// The meta/v1 `Status` kind: the result of an operation that returns no
/// object, above all a failed one.
///
/// Its JSON is what the apiserver writes: `kind: Status`, `apiVersion: v1`,
/// `metadata` (always written, `{}` when empty), then `status`, `message`,
/// `reason`, `details` and `code`, each left out when empty. Decoding
/// accepts a missing `kind` and `apiVersion` but rejects any other `kind`.
///
/// A `Status` is an error ([`std::error::Error`]) whose message is
/// [`Status::message`], like Go's `StatusError`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// List metadata; servers leave it empty.
    pub metadata: ListMeta,
    /// `"Success"` or `"Failure"` ([`Status::SUCCESS`], [`Status::FAILURE`]); empty when unset.
    pub status: String,
    /// A human-readable description of the outcome.
    pub message: String,
    /// Why the operation failed; [`StatusReason::Unknown`] when not given.
    pub reason: StatusReason,
    /// Extra data about the reason; its meaning depends on the reason.
    pub details: Option<StatusDetails>,
    /// The HTTP status code; 0 when unset.
    pub code: i32,
}

impl Status {
    /// The `kind` of a Status.
    pub const KIND: &'static str = "Status";
    /// The `apiVersion` a Status is written with.
    pub const API_VERSION: &'static str = "v1";
    /// The `status` of a successful operation.
    pub const SUCCESS: &'static str = "Success";
    /// The `status` of a failed operation.
    pub const FAILURE: &'static str = "Failure";

    fn failure_with(
        code: i32,
        reason: StatusReason,
        message: String,
        details: Option<StatusDetails>,
    ) -> Self {
        Status {
            metadata: ListMeta::default(),
            status: Status::FAILURE.to_string(),
            message,
            reason,
            details,
            code,
        }
    }

    fn resource_details(resource: GroupResource, name: String) -> StatusDetails {
        StatusDetails {
            name,
            group: resource.group,
            kind: resource.resource,
            ..StatusDetails::default()
        }
    }

    fn retry_details(retry_after_seconds: i32) -> StatusDetails {
        StatusDetails {
            retry_after_seconds,
            ..StatusDetails::default()
        }
    }

    /// A successful outcome: status `Success`, code 200, as the apiserver
    /// returns for a delete without an object to show.
    pub fn success() -> Self {
        Status {
            status: Status::SUCCESS.to_string(),
            code: 200,
            ..Status::default()
        }
    }

    /// A failure with `reason`, its HTTP code ([`StatusReason::code`]) and
    /// `message`, without details.
    pub fn failure(reason: StatusReason, message: impl Into<String>) -> Self {
        let code = reason.code();
        Status::failure_with(code, reason, message.into(), None)
    }

    /// 404 `NotFound`: `<resource> "<name>" not found` (Go's `NewNotFound`).
    /// The details carry the group, the resource (as `kind`) and the name.
    pub fn not_found(resource: GroupResource, name: impl Into<String>) -> Self {
        let name = name.into();
        let message = format!("{resource} {} not found", go_quote(&name));
        Status::failure_with(
            404,
            StatusReason::NotFound,
            message,
            Some(Status::resource_details(resource, name)),
        )
    }

    /// 409 `AlreadyExists`: `<resource> "<name>" already exists` (Go's `NewAlreadyExists`).
    pub fn already_exists(resource: GroupResource, name: impl Into<String>) -> Self {
        let name = name.into();
        let message = format!("{resource} {} already exists", go_quote(&name));
        Status::failure_with(
            409,
            StatusReason::AlreadyExists,
            message,
            Some(Status::resource_details(resource, name)),
        )
    }

    /// 409 `AlreadyExists` for a name generated from `generateName` that was
    /// taken (Go's `NewGenerateNameConflict`); the details advise a retry.
    pub fn generate_name_conflict(
        resource: GroupResource,
        name: impl Into<String>,
        retry_after_seconds: i32,
    ) -> Self {
        let name = name.into();
        let message = format!(
            "{resource} {} already exists, the server was not able to generate a unique name for the object",
            go_quote(&name)
        );
        let mut details = Status::resource_details(resource, name);
        details.retry_after_seconds = retry_after_seconds;
        Status::failure_with(409, StatusReason::AlreadyExists, message, Some(details))
    }

    /// 409 `Conflict`: `Operation cannot be fulfilled on <resource> "<name>": <error>`
    /// (Go's `NewConflict`), typically for a stale `resourceVersion`.
    pub fn conflict(
        resource: GroupResource,
        name: impl Into<String>,
        error: impl fmt::Display,
    ) -> Self {
        let name = name.into();
        let message = format!(
            "Operation cannot be fulfilled on {resource} {}: {error}",
            go_quote(&name)
        );
        Status::failure_with(
            409,
            StatusReason::Conflict,
            message,
            Some(Status::resource_details(resource, name)),
        )
    }

    /// 409 `Conflict` of a server-side apply, with the conflicting fields as
    /// causes (Go's `NewApplyConflict`).
    pub fn apply_conflict(causes: Vec<StatusCause>, message: impl Into<String>) -> Self {
        Status::failure_with(
            409,
            StatusReason::Conflict,
            message.into(),
            Some(StatusDetails {
                causes,
                ..StatusDetails::default()
            }),
        )
    }

    /// 422 `Invalid`, the apiserver's answer to an object that fails
    /// validation (Go's `NewInvalid`).
    ///
    /// The details carry the group, kind and name and one cause per error
    /// (reason = error type, message = error body, field = path). The
    /// message is `<Kind.group> "<name>" is invalid: <aggregate>`, where the
    /// aggregate is [`ErrorList::aggregate_message`], or
    /// `<Kind.group> "<name>" is invalid` when the list is empty.
    pub fn invalid(kind: GroupKind, name: impl Into<String>, errors: &ErrorList) -> Self {
        let name = name.into();
        let message = match errors.aggregate_message() {
            Some(aggregate) => format!("{kind} {} is invalid: {aggregate}", go_quote(&name)),
            None => format!("{kind} {} is invalid", go_quote(&name)),
        };
        let details = StatusDetails {
            name,
            group: kind.group,
            kind: kind.kind,
            causes: errors.iter().map(StatusCause::from).collect(),
            ..StatusDetails::default()
        };
        Status::failure_with(422, StatusReason::Invalid, message, Some(details))
    }

    /// 400 `BadRequest` with `message` (Go's `NewBadRequest`).
    pub fn bad_request(message: impl Into<String>) -> Self {
        Status::failure_with(400, StatusReason::BadRequest, message.into(), None)
    }

    /// 401 `Unauthorized` with `message`, or `not authorized` when it is
    /// empty (Go's `NewUnauthorized`).
    pub fn unauthorized(message: impl Into<String>) -> Self {
        let mut message = message.into();
        if message.is_empty() {
            message = "not authorized".to_string();
        }
        Status::failure_with(401, StatusReason::Unauthorized, message, None)
    }

    /// 403 `Forbidden` (Go's `NewForbidden`). The message is
    /// `<resource> "<name>" is forbidden: <error>`, `<resource> is forbidden: <error>`
    /// without a name, or `forbidden: <error>` without a resource.
    pub fn forbidden(
        resource: GroupResource,
        name: impl Into<String>,
        error: impl fmt::Display,
    ) -> Self {
        let name = name.into();
        let message = if resource.is_empty() {
            format!("forbidden: {error}")
        } else if name.is_empty() {
            format!("{resource} is forbidden: {error}")
        } else {
            format!("{resource} {} is forbidden: {error}", go_quote(&name))
        };
        Status::failure_with(
            403,
            StatusReason::Forbidden,
            message,
            Some(Status::resource_details(resource, name)),
        )
    }

    /// 410 `Gone` with `message` (Go's deprecated `NewGone`; prefer
    /// [`Status::resource_expired`]).
    pub fn gone(message: impl Into<String>) -> Self {
        Status::failure_with(410, StatusReason::Gone, message.into(), None)
    }

    /// 410 `Expired` with `message` (Go's `NewResourceExpired`), typically
    /// for a `resourceVersion` too old to list or watch from.
    pub fn resource_expired(message: impl Into<String>) -> Self {
        Status::failure_with(410, StatusReason::Expired, message.into(), None)
    }

    /// 405 `MethodNotAllowed`: `<action> is not supported on resources of kind "<resource>"`
    /// (Go's `NewMethodNotSupported`).
    pub fn method_not_supported(resource: GroupResource, action: impl fmt::Display) -> Self {
        let message = format!(
            "{action} is not supported on resources of kind {}",
            go_quote(&resource.to_string())
        );
        Status::failure_with(
            405,
            StatusReason::MethodNotAllowed,
            message,
            Some(Status::resource_details(resource, String::new())),
        )
    }

    /// 500 `ServerTimeout`: `The <operation> operation against <resource> could
    /// not be completed at this time, please try again.` (Go's
    /// `NewServerTimeout`). The details carry the operation as `name`.
    pub fn server_timeout(
        resource: GroupResource,
        operation: impl Into<String>,
        retry_after_seconds: i32,
    ) -> Self {
        let operation = operation.into();
        let message = format!(
            "The {operation} operation against {resource} could not be completed at this time, please try again."
        );
        let mut details = Status::resource_details(resource, operation);
        details.retry_after_seconds = retry_after_seconds;
        Status::failure_with(500, StatusReason::ServerTimeout, message, Some(details))
    }

    /// [`Status::server_timeout`] for a kind instead of a resource (Go's
    /// `NewServerTimeoutForKind`).
    pub fn server_timeout_for_kind(
        kind: GroupKind,
        operation: impl Into<String>,
        retry_after_seconds: i32,
    ) -> Self {
        Status::server_timeout(
            GroupResource::new(kind.group, kind.kind),
            operation,
            retry_after_seconds,
        )
    }

    /// 504 `Timeout`: `Timeout: <message>` (Go's `NewTimeoutError`); the
    /// client may retry, but the operation may still complete.
    pub fn timeout(message: impl fmt::Display, retry_after_seconds: i32) -> Self {
        Status::failure_with(
            504,
            StatusReason::Timeout,
            format!("Timeout: {message}"),
            Some(Status::retry_details(retry_after_seconds)),
        )
    }

    /// 429 `TooManyRequests` with `message` and a retry advice (Go's `NewTooManyRequests`).
    pub fn too_many_requests(message: impl Into<String>, retry_after_seconds: i32) -> Self {
        Status::failure_with(
            429,
            StatusReason::TooManyRequests,
            message.into(),
            Some(Status::retry_details(retry_after_seconds)),
        )
    }

    /// 429 `TooManyRequests`: `Too many requests: <message>`, without details
    /// (Go's `NewTooManyRequestsError`).
    pub fn too_many_requests_error(message: impl fmt::Display) -> Self {
        Status::failure_with(
            429,
            StatusReason::TooManyRequests,
            format!("Too many requests: {message}"),
            None,
        )
    }

    /// 413 `RequestEntityTooLarge`: `Request entity too large: <message>`
    /// (Go's `NewRequestEntityTooLargeError`).
    pub fn request_entity_too_large(message: impl fmt::Display) -> Self {
        Status::failure_with(
            413,
            StatusReason::RequestEntityTooLarge,
            format!("Request entity too large: {message}"),
            None,
        )
    }

    /// 415 `UnsupportedMediaType` for a request body in a format the server
    /// does not accept: `the body of the request was in an unknown format -
    /// accepted media types include: <accepted, comma separated>` (the
    /// apiserver's content negotiation, `NewUnsupportedMediaTypeError`).
    pub fn unsupported_media_type<S: AsRef<str>>(accepted: &[S]) -> Self {
        Status::failure_with(
            415,
            StatusReason::UnsupportedMediaType,
            format!(
                "the body of the request was in an unknown format - accepted media types include: {}",
                join(accepted)
            ),
            None,
        )
    }

    /// 406 `NotAcceptable` when no media type of the `Accept` header can be
    /// served: `only the following media types are accepted: <accepted, comma
    /// separated>` (the apiserver's content negotiation, `NewNotAcceptableError`).
    pub fn not_acceptable<S: AsRef<str>>(accepted: &[S]) -> Self {
        Status::failure_with(
            406,
            StatusReason::NotAcceptable,
            format!(
                "only the following media types are accepted: {}",
                join(accepted)
            ),
            None,
        )
    }

    /// 500 `InternalError`: `Internal error occurred: <error>`, with one
    /// cause carrying the error message (Go's `NewInternalError`).
    pub fn internal_error(error: impl fmt::Display) -> Self {
        let error = error.to_string();
        let message = format!("Internal error occurred: {error}");
        let details = StatusDetails {
            causes: vec![StatusCause {
                message: error,
                ..StatusCause::default()
            }],
            ..StatusDetails::default()
        };
        Status::failure_with(500, StatusReason::InternalError, message, Some(details))
    }

    /// 503 `ServiceUnavailable` with `message` (Go's `NewServiceUnavailable`).
    pub fn service_unavailable(message: impl Into<String>) -> Self {
        Status::failure_with(503, StatusReason::ServiceUnavailable, message.into(), None)
    }

    // -- accessors and checks ------------------------------------------------

    /// Whether `status` is `Success`.
    pub fn is_success(&self) -> bool {
        self.status == Status::SUCCESS
    }

    /// Whether `status` is `Failure`.
    pub fn is_failure(&self) -> bool {
        self.status == Status::FAILURE
    }

    /// The reason (Go's `ReasonForError`).
    pub fn reason(&self) -> &StatusReason {
        &self.reason
    }

    /// The HTTP status code; 0 when unset.
    pub fn code(&self) -> i32 {
        self.code
    }

    /// The causes in the details; empty when there are none.
    pub fn causes(&self) -> &[StatusCause] {
        self.details.as_ref().map_or(&[], |d| &d.causes)
    }

    /// The first cause whose type (its `reason`) is `cause_type` (Go's `StatusCause`).
    pub fn cause(&self, cause_type: &str) -> Option<&StatusCause> {
        self.causes().iter().find(|c| c.reason == cause_type)
    }

    /// Whether some cause has the type `cause_type` (Go's `HasStatusCause`).
    pub fn has_cause(&self, cause_type: &str) -> bool {
        self.cause(cause_type).is_some()
    }

    /// The seconds to wait before retrying, when the status asks for a delay
    /// (Go's `SuggestsClientDelay`): any `ServerTimeout` with details, or a
    /// positive `retryAfterSeconds`.
    pub fn suggests_client_delay(&self) -> Option<i32> {
        let details = self.details.as_ref()?;
        if self.reason == StatusReason::ServerTimeout || details.retry_after_seconds > 0 {
            Some(details.retry_after_seconds)
        } else {
            None
        }
    }

    /// The reason is `reason`, or the reason is not a known one and the code is `code`:
    /// the test of most of apimachinery's `Is*` functions.
    fn reason_or_code(&self, reason: StatusReason, code: i32) -> bool {
        self.reason == reason || (!self.reason.is_known() && self.code == code)
    }

    /// `NotFound`, or an unknown reason with code 404 (Go's `IsNotFound`).
    pub fn is_not_found(&self) -> bool {
        self.reason_or_code(StatusReason::NotFound, 404)
    }

    /// `AlreadyExists` (Go's `IsAlreadyExists`; the code is not enough, as 409 is also `Conflict`).
    pub fn is_already_exists(&self) -> bool {
        self.reason == StatusReason::AlreadyExists
    }

    /// `Conflict`, or an unknown reason with code 409 (Go's `IsConflict`).
    pub fn is_conflict(&self) -> bool {
        self.reason_or_code(StatusReason::Conflict, 409)
    }

    /// `Invalid`, or an unknown reason with code 422 (Go's `IsInvalid`).
    pub fn is_invalid(&self) -> bool {
        self.reason_or_code(StatusReason::Invalid, 422)
    }

    /// `Gone`, or an unknown reason with code 410 (Go's `IsGone`).
    pub fn is_gone(&self) -> bool {
        self.reason_or_code(StatusReason::Gone, 410)
    }

    /// `Expired` (Go's `IsResourceExpired`).
    pub fn is_resource_expired(&self) -> bool {
        self.reason == StatusReason::Expired
    }

    /// `NotAcceptable`, or an unknown reason with code 406 (Go's `IsNotAcceptable`).
    pub fn is_not_acceptable(&self) -> bool {
        self.reason_or_code(StatusReason::NotAcceptable, 406)
    }

    /// `UnsupportedMediaType`, or an unknown reason with code 415 (Go's `IsUnsupportedMediaType`).
    pub fn is_unsupported_media_type(&self) -> bool {
        self.reason_or_code(StatusReason::UnsupportedMediaType, 415)
    }

    /// `MethodNotAllowed`, or an unknown reason with code 405 (Go's `IsMethodNotSupported`).
    pub fn is_method_not_supported(&self) -> bool {
        self.reason_or_code(StatusReason::MethodNotAllowed, 405)
    }

    /// `ServiceUnavailable`, or an unknown reason with code 503 (Go's `IsServiceUnavailable`).
    pub fn is_service_unavailable(&self) -> bool {
        self.reason_or_code(StatusReason::ServiceUnavailable, 503)
    }

    /// `BadRequest`, or an unknown reason with code 400 (Go's `IsBadRequest`).
    pub fn is_bad_request(&self) -> bool {
        self.reason_or_code(StatusReason::BadRequest, 400)
    }

    /// `Unauthorized`, or an unknown reason with code 401 (Go's `IsUnauthorized`).
    pub fn is_unauthorized(&self) -> bool {
        self.reason_or_code(StatusReason::Unauthorized, 401)
    }

    /// `Forbidden`, or an unknown reason with code 403 (Go's `IsForbidden`).
    pub fn is_forbidden(&self) -> bool {
        self.reason_or_code(StatusReason::Forbidden, 403)
    }

    /// `Timeout`, or an unknown reason with code 504 (Go's `IsTimeout`).
    pub fn is_timeout(&self) -> bool {
        self.reason_or_code(StatusReason::Timeout, 504)
    }

    /// `ServerTimeout` (Go's `IsServerTimeout`; no code identifies it).
    pub fn is_server_timeout(&self) -> bool {
        self.reason == StatusReason::ServerTimeout
    }

    /// `InternalError`, or an unknown reason with code 500 (Go's `IsInternalError`).
    pub fn is_internal_error(&self) -> bool {
        self.reason_or_code(StatusReason::InternalError, 500)
    }

    /// `TooManyRequests`, or code 429 whatever the reason (Go's `IsTooManyRequests`).
    pub fn is_too_many_requests(&self) -> bool {
        self.reason == StatusReason::TooManyRequests || self.code == 429
    }

    /// `RequestEntityTooLarge`, or code 413 whatever the reason (Go's
    /// `IsRequestEntityTooLargeError`).
    pub fn is_request_entity_too_large(&self) -> bool {
        self.reason == StatusReason::RequestEntityTooLarge || self.code == 413
    }
}

fn join<S: AsRef<str>>(items: &[S]) -> String {
    items
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<&str>>()
        .join(", ")
}

impl fmt::Display for Status {
    /// The message, as Go's `StatusError.Error()`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Status {}

impl Serialize for Status {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Status", 8)?;
        s.serialize_field("kind", Status::KIND)?;
        s.serialize_field("apiVersion", Status::API_VERSION)?;
        s.serialize_field("metadata", &self.metadata)?;
        if self.status.is_empty() {
            s.skip_field("status")?;
        } else {
            s.serialize_field("status", &self.status)?;
        }
        if self.message.is_empty() {
            s.skip_field("message")?;
        } else {
            s.serialize_field("message", &self.message)?;
        }
        if self.reason.as_str().is_empty() {
            s.skip_field("reason")?;
        } else {
            s.serialize_field("reason", &self.reason)?;
        }
        match &self.details {
            Some(details) => s.serialize_field("details", details)?,
            None => s.skip_field("details")?,
        }
        if self.code == 0 {
            s.skip_field("code")?;
        } else {
            s.serialize_field("code", &self.code)?;
        }
        s.end()
    }
}

/// Deserializes `T` from a map only: derived struct impls also accept a
/// sequence of the fields in order, which Go's decoder (and Kubernetes)
/// would reject.
fn map_only<'de, D, T>(deserializer: D, expecting: &'static str) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct MapOnly<T>(&'static str, PhantomData<T>);

    impl<'de, T: Deserialize<'de>> Visitor<'de> for MapOnly<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }

        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
            T::deserialize(de::value::MapAccessDeserializer::new(map))
        }
    }

    deserializer.deserialize_map(MapOnly(expecting, PhantomData))
}

/// The JSON form of a `Status` as read: everything optional, `null` as empty.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StatusWire {
    #[serde(default, deserialize_with = "null_as_default")]
    kind: String,
    #[serde(default, deserialize_with = "null_as_default")]
    metadata: ListMeta,
    #[serde(default, deserialize_with = "null_as_default")]
    status: String,
    #[serde(default, deserialize_with = "null_as_default")]
    message: String,
    #[serde(default)]
    reason: StatusReason,
    #[serde(default)]
    details: Option<StatusDetails>,
    #[serde(default, deserialize_with = "null_as_default")]
    code: i32,
}

/// The JSON form of `StatusDetails` as read.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StatusDetailsWire {
    #[serde(default, deserialize_with = "null_as_default")]
    name: String,
    #[serde(default, deserialize_with = "null_as_default")]
    group: String,
    #[serde(default, deserialize_with = "null_as_default")]
    kind: String,
    #[serde(default, deserialize_with = "null_as_default")]
    uid: String,
    #[serde(default, deserialize_with = "null_as_default")]
    causes: Vec<StatusCause>,
    #[serde(default, deserialize_with = "null_as_default")]
    retry_after_seconds: i32,
}

impl<'de> Deserialize<'de> for StatusDetails {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let w: StatusDetailsWire = map_only(deserializer, "a StatusDetails object")?;
        Ok(StatusDetails {
            name: w.name,
            group: w.group,
            kind: w.kind,
            uid: w.uid,
            causes: w.causes,
            retry_after_seconds: w.retry_after_seconds,
        })
    }
}

/// The JSON form of `StatusCause` as read.
#[derive(Deserialize)]
struct StatusCauseWire {
    #[serde(default, deserialize_with = "null_as_default")]
    reason: String,
    #[serde(default, deserialize_with = "null_as_default")]
    message: String,
    #[serde(default, deserialize_with = "null_as_default")]
    field: String,
}

impl<'de> Deserialize<'de> for StatusCause {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let w: StatusCauseWire = map_only(deserializer, "a StatusCause object")?;
        Ok(StatusCause {
            reason: w.reason,
            message: w.message,
            field: w.field,
        })
    }
}

impl<'de> Deserialize<'de> for Status {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire: StatusWire = map_only(deserializer, "a Status object")?;
        if !wire.kind.is_empty() {
            check_type_field("kind", Status::KIND, &wire.kind)?;
        }
        Ok(Status {
            metadata: wire.metadata,
            status: wire.status,
            message: wire.message,
            reason: wire.reason,
            details: wire.details,
            code: wire.code,
        })
    }
}
