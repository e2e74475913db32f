//! Field paths and field errors, as in apimachinery's `util/validation/field`.

use std::collections::HashSet;
use std::fmt;

use serde_json::Value;

/// A path to a field of an object, rendered like apimachinery's `field.Path`:
/// children are joined with `.`, list indexes and map keys are written in
/// brackets without quoting (`spec.containers[0].ports[http]`).
///
/// A path is a chain of borrowed links, so building one for every field a
/// validator visits costs nothing; it is only rendered when an error is
/// reported.
///
/// ```
/// use api_core::validation::FieldPath;
///
/// let spec = FieldPath::new("spec");
/// let containers = spec.child("containers");
/// let first = containers.index(0);
/// let ports = first.child("ports");
/// assert_eq!(ports.key("http").to_string(), "spec.containers[0].ports[http]");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct FieldPath<'a> {
    parent: Option<&'a FieldPath<'a>>,
    segment: Segment<'a>,
}

#[derive(Clone, Copy, Debug)]
enum Segment<'a> {
    Child(&'a str),
    Index(usize),
    Key(&'a str),
}

impl<'a> FieldPath<'a> {
    /// A path that starts at the field `name` (for example `"spec"` or `"metadata"`).
    pub const fn new(name: &'a str) -> Self {
        FieldPath {
            parent: None,
            segment: Segment::Child(name),
        }
    }

    /// The path of the field `name` below this one (`spec.replicas`).
    pub fn child<'b>(&'b self, name: &'b str) -> FieldPath<'b> {
        FieldPath {
            parent: Some(self),
            segment: Segment::Child(name),
        }
    }

    /// The path of the list item at `index` (`spec.ports[0]`).
    pub fn index(&self, index: usize) -> FieldPath<'_> {
        FieldPath {
            parent: Some(self),
            segment: Segment::Index(index),
        }
    }

    /// Whether this is `FieldPath::new("")`, the object itself, which
    /// renders as nothing.
    pub fn is_empty_root(&self) -> bool {
        self.parent.is_none() && matches!(self.segment, Segment::Child(""))
    }

    /// The path of the map entry or list-map item with the key `key` (`spec.selector[app]`).
    pub fn key<'b>(&'b self, key: &'b str) -> FieldPath<'b> {
        FieldPath {
            parent: Some(self),
            segment: Segment::Key(key),
        }
    }
}

impl fmt::Display for FieldPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Iterative, root first: deep paths must not recurse.
        let mut links = Vec::new();
        let mut cur = Some(self);
        while let Some(p) = cur {
            links.push(p.segment);
            cur = p.parent;
        }
        // An empty root (`FieldPath::new("")`, the object itself) adds
        // nothing: its children render as `spec`, not `.spec`.
        let mut started = false;
        for seg in links.iter().rev() {
            match seg {
                Segment::Child(name) if !started => f.write_str(name)?,
                Segment::Child(name) => write!(f, ".{name}")?,
                Segment::Index(n) => write!(f, "[{n}]")?,
                Segment::Key(k) => write!(f, "[{k}]")?,
            }
            started = started || !matches!(seg, Segment::Child(""));
        }
        Ok(())
    }
}

/// The kind of a field error. The string forms are apimachinery's
/// `field.ErrorType` values, which are also the `reason` of a `StatusCause`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorType {
    /// `FieldValueNotFound`: a referenced value was not found.
    NotFound,
    /// `FieldValueRequired`: a required value is missing.
    Required,
    /// `FieldValueDuplicate`: a value that must be unique is repeated.
    Duplicate,
    /// `FieldValueInvalid`: the value is malformed (pattern, range, ...).
    Invalid,
    /// `FieldValueNotSupported`: the value is not one of the supported values.
    NotSupported,
    /// `FieldValueForbidden`: the value is not allowed here.
    Forbidden,
    /// `FieldValueTooLong`: a string is too long (the value is not shown).
    TooLong,
    /// `FieldValueTooMany`: a list or map has too many items.
    TooMany,
    /// `FieldValueTooShort`: a string is too short.
    TooShort,
    /// `FieldValueTooFew`: a list or map has too few items.
    TooFew,
    /// `InternalError`: a problem that is not the user's input.
    Internal,
    /// `FieldValueTypeInvalid`: the value has the wrong type for the field.
    TypeInvalid,
}

impl ErrorType {
    /// The machine-readable name (`FieldValueInvalid`), used as the cause's `reason`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::TooShort => "FieldValueTooShort",
            ErrorType::TooFew => "FieldValueTooFew",
            ErrorType::Internal => "InternalError",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
        }
    }

    /// The human-readable name (`Invalid value`) that starts an error message.
    pub const fn description(self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid | ErrorType::TypeInvalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::TooShort => "Too short",
            ErrorType::TooFew => "Too few",
            ErrorType::Internal => "Internal error",
        }
    }

    /// Whether messages of this type leave the bad value out.
    const fn omits_value(self) -> bool {
        matches!(
            self,
            ErrorType::Required
                | ErrorType::Forbidden
                | ErrorType::TooLong
                | ErrorType::TooShort
                | ErrorType::Internal
        )
    }
}

impl fmt::Display for ErrorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// One validation error of one field, as apimachinery's `field.Error`.
///
/// Build them with the constructors ([`FieldError::required`],
/// [`FieldError::invalid`], ...), which produce apimachinery's wording.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// What kind of error this is.
    pub error_type: ErrorType,
    /// The rendered field path (`spec.ports[0].port`).
    pub field: String,
    /// The offending value; `None` when it is not shown in the message.
    pub bad_value: Option<Value>,
    /// Extra detail: what is wrong and what is expected.
    pub detail: String,
}

impl FieldError {
    fn new(
        error_type: ErrorType,
        path: &FieldPath<'_>,
        bad_value: Option<Value>,
        detail: impl Into<String>,
    ) -> Self {
        FieldError {
            error_type,
            field: path.to_string(),
            bad_value,
            detail: detail.into(),
        }
    }

    /// A required value is missing (`Required value: <detail>`).
    pub fn required(path: &FieldPath<'_>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Required, path, None, detail)
    }

    /// The value is malformed (`Invalid value: "x": <detail>`).
    pub fn invalid(
        path: &FieldPath<'_>,
        value: impl Into<Value>,
        detail: impl Into<String>,
    ) -> Self {
        Self::new(ErrorType::Invalid, path, Some(value.into()), detail)
    }

    /// The value has the wrong type (`Invalid value: ...`, reason `FieldValueTypeInvalid`).
    pub fn type_invalid(
        path: &FieldPath<'_>,
        value: impl Into<Value>,
        detail: impl Into<String>,
    ) -> Self {
        Self::new(ErrorType::TypeInvalid, path, Some(value.into()), detail)
    }

    /// The value is not one of `supported` (`Unsupported value: "x": supported values: "a", "b"`).
    pub fn not_supported<S: AsRef<str>>(
        path: &FieldPath<'_>,
        value: impl Into<Value>,
        supported: &[S],
    ) -> Self {
        let detail = if supported.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = supported.iter().map(|s| go_quote(s.as_ref())).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        Self::new(ErrorType::NotSupported, path, Some(value.into()), detail)
    }

    /// The value must be unique and is not (`Duplicate value: "x"`).
    pub fn duplicate(path: &FieldPath<'_>, value: impl Into<Value>) -> Self {
        Self::new(ErrorType::Duplicate, path, Some(value.into()), "")
    }

    /// A referenced value does not exist (`Not found: "x"`).
    pub fn not_found(path: &FieldPath<'_>, value: impl Into<Value>) -> Self {
        Self::new(ErrorType::NotFound, path, Some(value.into()), "")
    }

    /// The value is not allowed here (`Forbidden: <detail>`).
    pub fn forbidden(path: &FieldPath<'_>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Forbidden, path, None, detail)
    }

    /// The value is longer than `max` bytes (`Too long: may not be more than N bytes`).
    /// A negative `max` gives `value is too long`.
    pub fn too_long(path: &FieldPath<'_>, max: i64) -> Self {
        Self::new(
            ErrorType::TooLong,
            path,
            None,
            length_detail("may not be more than", max, "byte", "value is too long"),
        )
    }

    /// The value is longer than `max` characters (`Too long: may not be more than N characters`),
    /// as the apiserver reports `maxLength` of a schema.
    pub fn too_long_characters(path: &FieldPath<'_>, max: i64) -> Self {
        Self::new(
            ErrorType::TooLong,
            path,
            None,
            length_detail(
                "may not be more than",
                max,
                "character",
                "value is too long",
            ),
        )
    }

    /// The value is shorter than `min` characters (`Too short: must be at least N characters`).
    pub fn too_short(path: &FieldPath<'_>, value: impl Into<Value>, min: i64) -> Self {
        Self::new(
            ErrorType::TooShort,
            path,
            Some(value.into()),
            length_detail("must be at least", min, "character", "value is too short"),
        )
    }

    /// A list has `actual` items where at most `max` are allowed
    /// (`Too many: 5: must have at most 3 items`). A negative `actual` is left out.
    pub fn too_many(path: &FieldPath<'_>, actual: i64, max: i64) -> Self {
        let value = (actual >= 0).then(|| Value::from(actual));
        Self::new(
            ErrorType::TooMany,
            path,
            value,
            length_detail("must have at most", max, "item", "has too many items"),
        )
    }

    /// A list has `actual` items where at least `min` are required
    /// (`Too few: 0: must have at least 1 item`).
    pub fn too_few(path: &FieldPath<'_>, actual: i64, min: i64) -> Self {
        Self::new(
            ErrorType::TooFew,
            path,
            Some(Value::from(actual)),
            length_detail("must have at least", min, "item", "has too few items"),
        )
    }

    /// Something went wrong that is not the user's fault (`Internal error: <detail>`).
    pub fn internal(path: &FieldPath<'_>, error: impl fmt::Display) -> Self {
        let detail = error.to_string();
        Self::new(
            ErrorType::Internal,
            path,
            Some(Value::String(detail.clone())),
            detail,
        )
    }

    /// The message without the field: `Invalid value: "x": detail`, as
    /// apimachinery's `ErrorBody`, used as a `StatusCause` message.
    pub fn error_body(&self) -> String {
        let mut s = String::from(self.error_type.description());
        if !self.error_type.omits_value()
            && let Some(v) = &self.bad_value
        {
            s.push_str(": ");
            s.push_str(&render_value(v));
        }
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

fn length_detail(prefix: &str, limit: i64, unit: &str, unlimited: &str) -> String {
    if limit < 0 {
        unlimited.to_string()
    } else if limit == 1 {
        format!("{prefix} 1 {unit}")
    } else {
        format!("{prefix} {limit} {unit}s")
    }
}

/// Renders a bad value the way apimachinery does: strings Go-quoted,
/// numbers and booleans plain, everything else as JSON.
fn render_value(v: &Value) -> String {
    match v {
        Value::String(s) => go_quote(s),
        other => other.to_string(),
    }
}

/// Quotes a string like Go's `strconv.Quote` (`%q`), as the apiserver's
/// messages quote names and values: double quotes, backslash escapes for
/// quotes, backslashes, control and non-printable characters.
///
/// ```
/// use api_core::validation::go_quote;
///
/// assert_eq!(go_quote("a\"b"), r#""a\"b""#);
/// assert_eq!(go_quote("tab\t"), r#""tab\t""#);
/// ```
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if !super::object_meta::is_go_printable(c) => {
                let n = c as u32;
                if n <= 0xffff {
                    out.push_str(&format!("\\u{n:04x}"));
                } else {
                    out.push_str(&format!("\\U{n:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl fmt::Display for FieldError {
    /// `field: body`, as apimachinery's `Error()`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.error_body())
    }
}

impl std::error::Error for FieldError {}

/// A list of field errors, as apimachinery's `field.ErrorList`. Validators
/// push every problem they find, so a user sees all of them at once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ErrorList(Vec<FieldError>);

impl ErrorList {
    /// An empty list.
    pub const fn new() -> Self {
        ErrorList(Vec::new())
    }

    /// Adds one error.
    pub fn push(&mut self, error: FieldError) {
        self.0.push(error);
    }

    /// Whether there are no errors.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many errors there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The errors, in the order they were found.
    pub fn iter(&self) -> std::slice::Iter<'_, FieldError> {
        self.0.iter()
    }

    /// The errors as a slice.
    pub fn as_slice(&self) -> &[FieldError] {
        &self.0
    }

    /// Keeps the first `len` errors and drops the rest (what a validator
    /// found after [`len`](Self::len) returned `len`): how a check that
    /// turns out not to apply takes its errors back.
    pub fn truncate(&mut self, len: usize) {
        self.0.truncate(len);
    }

    /// Takes the errors out.
    pub fn into_vec(self) -> Vec<FieldError> {
        self.0
    }

    /// `Ok(())` when empty, else the list itself as the error.
    pub fn into_result(self) -> Result<(), ErrorList> {
        if self.is_empty() { Ok(()) } else { Err(self) }
    }

    /// The aggregate message of apimachinery's `ToAggregate().Error()`:
    /// duplicate messages dropped, one message alone, several as `[m1, m2]`;
    /// `None` when the list is empty.
    pub fn aggregate_message(&self) -> Option<String> {
        let mut seen = HashSet::new();
        let msgs: Vec<String> = self
            .0
            .iter()
            .map(ToString::to_string)
            .filter(|m| seen.insert(m.clone()))
            .collect();
        match msgs.len() {
            0 => None,
            1 => msgs.into_iter().next(),
            _ => Some(format!("[{}]", msgs.join(", "))),
        }
    }
}

impl fmt::Display for ErrorList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.aggregate_message().unwrap_or_default())
    }
}

impl std::error::Error for ErrorList {}

impl Extend<FieldError> for ErrorList {
    fn extend<T: IntoIterator<Item = FieldError>>(&mut self, iter: T) {
        self.0.extend(iter);
    }
}

impl FromIterator<FieldError> for ErrorList {
    fn from_iter<T: IntoIterator<Item = FieldError>>(iter: T) -> Self {
        ErrorList(iter.into_iter().collect())
    }
}

impl From<Vec<FieldError>> for ErrorList {
    fn from(v: Vec<FieldError>) -> Self {
        ErrorList(v)
    }
}

impl IntoIterator for ErrorList {
    type Item = FieldError;
    type IntoIter = std::vec::IntoIter<FieldError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a ErrorList {
    type Item = &'a FieldError;
    type IntoIter = std::slice::Iter<'a, FieldError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_render_like_apimachinery() {
        let spec = FieldPath::new("spec");
        assert_eq!(spec.to_string(), "spec");
        let c = spec.child("containers");
        let i = c.index(0);
        let p = i.child("ports");
        assert_eq!(p.key("http").to_string(), "spec.containers[0].ports[http]");
        assert_eq!(spec.key("a.b/c").to_string(), "spec[a.b/c]");
        let m = FieldPath::new("metadata");
        assert_eq!(m.child("labels").to_string(), "metadata.labels");
    }

    #[test]
    fn bodies_follow_error_body() {
        let p = FieldPath::new("spec");
        let f = p.child("name");
        assert_eq!(
            FieldError::required(&f, "").to_string(),
            "spec.name: Required value"
        );
        assert_eq!(
            FieldError::required(&f, "name or generateName is required").error_body(),
            "Required value: name or generateName is required"
        );
        assert_eq!(
            FieldError::invalid(&f, "a b", "bad").to_string(),
            "spec.name: Invalid value: \"a b\": bad"
        );
        assert_eq!(
            FieldError::invalid(&f, -1, "neg").error_body(),
            "Invalid value: -1: neg"
        );
        assert_eq!(
            FieldError::invalid(&f, true, "x").error_body(),
            "Invalid value: true: x"
        );
        assert_eq!(
            FieldError::invalid(&f, serde_json::json!(["a", "b"]), "x").error_body(),
            "Invalid value: [\"a\",\"b\"]: x"
        );
        assert_eq!(
            FieldError::not_supported(&f, "Maybe", &["Always", "Never"]).error_body(),
            "Unsupported value: \"Maybe\": supported values: \"Always\", \"Never\""
        );
        assert_eq!(
            FieldError::duplicate(&f, "x").error_body(),
            "Duplicate value: \"x\""
        );
        assert_eq!(
            FieldError::not_found(&f, "x").error_body(),
            "Not found: \"x\""
        );
        assert_eq!(
            FieldError::forbidden(&f, "no").error_body(),
            "Forbidden: no"
        );
        assert_eq!(
            FieldError::too_long(&f, 63).error_body(),
            "Too long: may not be more than 63 bytes"
        );
        assert_eq!(
            FieldError::too_long(&f, 1).error_body(),
            "Too long: may not be more than 1 byte"
        );
        assert_eq!(
            FieldError::too_long(&f, -1).error_body(),
            "Too long: value is too long"
        );
        assert_eq!(
            FieldError::too_long_characters(&f, 10).error_body(),
            "Too long: may not be more than 10 characters"
        );
        assert_eq!(
            FieldError::too_short(&f, "ab", 3).error_body(),
            "Too short: must be at least 3 characters"
        );
        assert_eq!(
            FieldError::too_many(&f, 5, 3).error_body(),
            "Too many: 5: must have at most 3 items"
        );
        assert_eq!(
            FieldError::too_many(&f, -1, 1).error_body(),
            "Too many: must have at most 1 item"
        );
        assert_eq!(
            FieldError::too_few(&f, 0, 1).error_body(),
            "Too few: 0: must have at least 1 item"
        );
        assert_eq!(
            FieldError::internal(&f, "boom").error_body(),
            "Internal error: boom"
        );
        assert_eq!(
            FieldError::required(&f, "").error_type.as_str(),
            "FieldValueRequired"
        );
    }

    #[test]
    fn go_quoting() {
        assert_eq!(go_quote("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(go_quote("line\nnext\t"), r#""line\nnext\t""#);
        assert_eq!(go_quote("\u{1}"), r#""\x01""#);
        assert_eq!(go_quote("ünï"), "\"ünï\"");
        assert_eq!(go_quote("\u{85}"), r#""\u0085""#);
        assert_eq!(go_quote("a\u{a0}b\u{200b}"), r#""a\u00a0b\u200b""#);
    }

    #[test]
    fn aggregate_dedups_and_brackets() {
        let p = FieldPath::new("spec");
        let mut list = ErrorList::new();
        assert_eq!(list.aggregate_message(), None);
        list.push(FieldError::required(&p, ""));
        assert_eq!(list.aggregate_message().unwrap(), "spec: Required value");
        list.push(FieldError::required(&p, ""));
        assert_eq!(list.aggregate_message().unwrap(), "spec: Required value");
        list.push(FieldError::forbidden(&p, "x"));
        assert_eq!(
            list.aggregate_message().unwrap(),
            "[spec: Required value, spec: Forbidden: x]"
        );
        assert_eq!(list.len(), 3);
    }
}
