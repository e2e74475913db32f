//! How answers are written: a `Status` (with `Retry-After` when it
//! advises a delay), JSON objects (built-in kinds `kind` first), warning
//! headers, the apiserver's 404 for an unknown path and its statuses for a
//! body that cannot be read.

use super::*;

/// A `Status` as the apiserver writes it, with `Retry-After` when it
/// advises a delay.
pub(super) fn status_response(status: Status) -> Response {
    let code = StatusCode::from_u16(u16::try_from(status.code).unwrap_or(500))
        .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let body = serde_json::to_vec(&status).unwrap_or_default();
    let mut response = (code, [(header::CONTENT_TYPE, "application/json")], body).into_response();
    if let Some(seconds) = status
        .details
        .as_ref()
        .map(|d| d.retry_after_seconds)
        .filter(|s| *s > 0)
    {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

pub(super) fn json_response(
    code: StatusCode,
    value: &impl serde::Serialize,
    content_type: &str,
) -> Response {
    match serde_json::to_vec(value) {
        Ok(body) => (
            code,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_str(content_type)
                    .unwrap_or(HeaderValue::from_static("application/json")),
            )],
            body,
        )
            .into_response(),
        Err(e) => status_response(Status::internal_error(e)),
    }
}

/// An object, list or watch event of a kind, as JSON: a built-in kind's
/// with `kind` first ([`KindFirst`]).
pub(super) fn object_response(code: StatusCode, value: &Value, builtin: bool) -> Response {
    if builtin {
        json_response(code, &KindFirst(value), "application/json")
    } else {
        json_response(code, value, "application/json")
    }
}

/// A JSON object written with `kind` first, then `apiVersion`, then the
/// rest: how kube-apiserver writes a built-in kind from its Go struct
/// (`TypeMeta`'s field order), where a `serde_json` map would sort
/// `apiVersion` first. A list's `items` and a watch event's `object` are
/// written the same way.
pub(crate) struct KindFirst<'a>(pub(crate) &'a Value);

impl Serialize for KindFirst<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let Value::Object(members) = self.0 else {
            return self.0.serialize(serializer);
        };
        let mut map = serializer.serialize_map(Some(members.len()))?;
        for key in ["kind", "apiVersion"] {
            if let Some(value) = members.get(key) {
                map.serialize_entry(key, value)?;
            }
        }
        for (key, value) in members {
            match (key.as_str(), value) {
                ("kind" | "apiVersion", _) => {}
                ("items", Value::Array(items)) => {
                    let items: Vec<KindFirst<'_>> = items.iter().map(KindFirst).collect();
                    map.serialize_entry(key, &items)?;
                }
                ("object", object) => map.serialize_entry(key, &KindFirst(object))?,
                _ => map.serialize_entry(key, value)?,
            }
        }
        map.end()
    }
}

/// `Warning: 299 - "..."` headers, as the apiserver sends warnings.
pub(super) fn with_warnings(mut response: Response, warnings: &[String]) -> Response {
    for w in warnings {
        let escaped = w.replace('\\', "\\\\").replace('"', "\\\"");
        if let Ok(v) = HeaderValue::from_str(&format!("299 - \"{escaped}\"")) {
            response.headers_mut().append(header::WARNING, v);
        }
    }
    response
}

pub(super) fn header_str(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

pub(super) fn not_found_path() -> Status {
    let mut status = Status::not_found(GroupResource::new("", ""), "");
    status.message = "the server could not find the requested resource".into();
    status.details = None;
    status
}

/// The answer to a body that could not be read: 413 when it is over the
/// limit, 400 when it is broken (shorter than its `Content-Length`, a
/// malformed chunk, a connection gone mid-body).
pub(super) fn body_error(error: axum::Error, limit: usize) -> Status {
    let error = error.into_inner();
    if error.is::<http_body_util::LengthLimitError>() {
        return Status::request_entity_too_large(format!("limit is {limit}"));
    }
    Status::bad_request(format!("error reading the request body: {error}"))
}
