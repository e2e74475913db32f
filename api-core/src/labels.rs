//! Label selectors: the `a=b,c in (x,y),!d` queries of `kubectl -l` and
//! `?labelSelector=`, and the structured meta/v1 [`LabelSelector`].
//!
//! This follows apimachinery's `pkg/labels` (`selector.go`) and
//! `metav1.LabelSelectorAsSelector`:
//!
//! * [`Selector::parse`] (also [`str::parse`]) reads the string syntax:
//!   `key=value`, `key==value`, `key!=value`, `key in (v1,v2)`,
//!   `key notin (v1,v2)`, `key` (exists), `!key` (does not exist),
//!   `key>3` and `key<3`, joined by `,` (AND). The empty string selects
//!   everything.
//! * [`Selector::matches`] tests a set of labels: a
//!   `BTreeMap<String, String>`, a `HashMap`, an [`ObjectMeta`], or
//!   anything implementing [`Labels`].
//! * [`Display`](std::fmt::Display) writes the canonical form, which
//!   parses back to an equal selector: requirements sorted by key, set
//!   values sorted.
//! * [`Selector::from_label_selector`] turns a [`LabelSelector`] into a
//!   selector; `None` (a nil selector in Go) selects nothing, an empty one
//!   everything.
//!
//! ```
//! use std::collections::BTreeMap;
//! use api_core::labels::Selector;
//!
//! let selector: Selector = "tier in (frontend, cache), app = web, !canary".parse()?;
//! let labels = BTreeMap::from([
//!     ("app".to_string(), "web".to_string()),
//!     ("tier".to_string(), "cache".to_string()),
//! ]);
//! assert!(selector.matches(&labels));
//! assert_eq!(selector.to_string(), "app=web,!canary,tier in (cache,frontend)");
//!
//! let err = Selector::parse("app=web,,tier").unwrap_err();
//! assert_eq!(err.to_string(), "found ',' at position 8, expected: identifier after ','");
//! # Ok::<(), api_core::labels::SelectorParseError>(())
//! ```

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::{BuildHasher, Hash};
use std::str::FromStr;

use serde_json::Value;

use crate::meta::{LabelSelector, ObjectMeta};
use crate::validation::names::{is_qualified_name, is_valid_label_value};
use crate::validation::{ErrorList, FieldError, FieldPath, go_quote};

/// A set of labels a [`Selector`] can be matched against.
///
/// Implemented for `BTreeMap` and `HashMap` with `String` or `&str` keys
/// and values, for [`ObjectMeta`] (its `labels`), and for references to
/// any of these.
pub trait Labels {
    /// The value of the label `key`, or `None` when the label is not set.
    fn get(&self, key: &str) -> Option<&str>;
}

impl<T: Labels + ?Sized> Labels for &T {
    fn get(&self, key: &str) -> Option<&str> {
        T::get(self, key)
    }
}

impl<K, V> Labels for BTreeMap<K, V>
where
    K: Borrow<str> + Ord,
    V: AsRef<str>,
{
    fn get(&self, key: &str) -> Option<&str> {
        BTreeMap::get(self, key).map(AsRef::as_ref)
    }
}

impl<K, V, S> Labels for HashMap<K, V, S>
where
    K: Borrow<str> + Hash + Eq,
    V: AsRef<str>,
    S: BuildHasher,
{
    fn get(&self, key: &str) -> Option<&str> {
        HashMap::get(self, key).map(AsRef::as_ref)
    }
}

impl Labels for ObjectMeta {
    fn get(&self, key: &str) -> Option<&str> {
        self.labels.get(key).map(String::as_str)
    }
}

/// How a [`Requirement`] relates a label to its values (apimachinery's
/// `selection.Operator`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    /// `key=value`: the label is set to the value.
    Equals,
    /// `key==value`: the same as [`Operator::Equals`], kept apart so that
    /// the selector prints back as written.
    DoubleEquals,
    /// `key!=value`: the label is not set, or set to another value.
    NotEquals,
    /// `key in (v1,v2)`: the label is set to one of the values.
    In,
    /// `key notin (v1,v2)`: the label is not set, or set to none of the values.
    NotIn,
    /// `key`: the label is set, to any value.
    Exists,
    /// `!key`: the label is not set.
    DoesNotExist,
    /// `key>n`: the label is set to an integer greater than `n`.
    GreaterThan,
    /// `key<n`: the label is set to an integer less than `n`.
    LessThan,
}

impl Operator {
    /// The operator's value in apimachinery's `selection.Operator`: `=`,
    /// `==`, `!=`, `in`, `notin`, `exists`, `!`, `gt`, `lt`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Operator::Equals => "=",
            Operator::DoubleEquals => "==",
            Operator::NotEquals => "!=",
            Operator::In => "in",
            Operator::NotIn => "notin",
            Operator::Exists => "exists",
            Operator::DoesNotExist => "!",
            Operator::GreaterThan => "gt",
            Operator::LessThan => "lt",
        }
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One condition on one label: a key, an [`Operator`] and values.
///
/// A requirement is always valid: [`Requirement::new`] checks it. The
/// values are kept sorted and without duplicates, since they are a set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Requirement {
    key: String,
    operator: Operator,
    values: Vec<String>,
}

impl Requirement {
    /// A requirement, checked as apimachinery's `NewRequirement` checks it:
    ///
    /// * the key is a qualified name (`example.com/name`, `name`);
    /// * `In` and `NotIn` have at least one value; `=`, `==` and `!=`
    ///   exactly one; `Exists` and `DoesNotExist` none;
    /// * `GreaterThan` and `LessThan` have exactly one value, a decimal
    ///   64-bit integer;
    /// * every value is a valid label value.
    ///
    /// The error lists every problem with apimachinery's field errors
    /// (`values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty`).
    ///
    /// ```
    /// use api_core::labels::{Operator, Requirement};
    ///
    /// let r = Requirement::new("tier", Operator::In, ["web", "cache", "web"])?;
    /// assert_eq!(r.values(), ["cache", "web"]);
    /// assert_eq!(r.to_string(), "tier in (cache,web)");
    /// assert!(Requirement::new("tier", Operator::Exists, ["web"]).is_err());
    /// # Ok::<(), api_core::labels::SelectorParseError>(())
    /// ```
    pub fn new<K, I, V>(key: K, operator: Operator, values: I) -> Result<Self, SelectorParseError>
    where
        K: Into<String>,
        I: IntoIterator<Item = V>,
        V: Into<String>,
    {
        let key = key.into();
        let mut values: Vec<String> = values.into_iter().map(Into::into).collect();
        let errors = validate_requirement(&key, operator, &values);
        if !errors.is_empty() {
            return Err(SelectorParseError::invalid(None, errors));
        }
        values.sort();
        values.dedup();
        Ok(Requirement {
            key,
            operator,
            values,
        })
    }

    /// The label key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The operator.
    pub fn operator(&self) -> Operator {
        self.operator
    }

    /// The values, sorted and without duplicates; empty for `Exists` and
    /// `DoesNotExist`.
    pub fn values(&self) -> &[String] {
        &self.values
    }

    fn has_value(&self, value: &str) -> bool {
        self.values
            .binary_search_by(|v| v.as_str().cmp(value))
            .is_ok()
    }

    /// Whether `labels` satisfy this requirement, as apimachinery's
    /// `Requirement.Matches`:
    ///
    /// * `In`, `=`, `==`: the label is set to one of the values;
    /// * `NotIn`, `!=`: the label is not set, or set to none of the values;
    /// * `Exists`, `DoesNotExist`: the label is set, is not set;
    /// * `GreaterThan`, `LessThan`: the label is set to a decimal 64-bit
    ///   integer greater (less) than the value; any other label value does
    ///   not match.
    pub fn matches<L: Labels + ?Sized>(&self, labels: &L) -> bool {
        let value = labels.get(&self.key);
        match self.operator {
            Operator::In | Operator::Equals | Operator::DoubleEquals => {
                value.is_some_and(|v| self.has_value(v))
            }
            Operator::NotIn | Operator::NotEquals => value.is_none_or(|v| !self.has_value(v)),
            Operator::Exists => value.is_some(),
            Operator::DoesNotExist => value.is_none(),
            Operator::GreaterThan | Operator::LessThan => {
                let Some(Ok(actual)) = value.map(str::parse::<i64>) else {
                    return false;
                };
                let [bound] = self.values.as_slice() else {
                    return false;
                };
                let Ok(bound) = bound.parse::<i64>() else {
                    return false;
                };
                if self.operator == Operator::GreaterThan {
                    actual > bound
                } else {
                    actual < bound
                }
            }
        }
    }
}

/// The checks of apimachinery's `NewRequirement`, in its order.
fn validate_requirement(key: &str, operator: Operator, values: &[String]) -> ErrorList {
    let mut errors = ErrorList::new();
    if let Some(e) = validate_label_key(key) {
        errors.push(e);
    }
    let values_path = FieldPath::new("values");
    let as_value = || Value::from(values.to_vec());
    match operator {
        Operator::In | Operator::NotIn => {
            if values.is_empty() {
                errors.push(FieldError::invalid(
                    &values_path,
                    as_value(),
                    "for 'in', 'notin' operators, values set can't be empty",
                ));
            }
        }
        Operator::Equals | Operator::DoubleEquals | Operator::NotEquals => {
            if values.len() != 1 {
                errors.push(FieldError::invalid(
                    &values_path,
                    as_value(),
                    "exact-match compatibility requires one single value",
                ));
            }
        }
        Operator::Exists | Operator::DoesNotExist => {
            if !values.is_empty() {
                errors.push(FieldError::invalid(
                    &values_path,
                    as_value(),
                    "values set must be empty for exists and does not exist",
                ));
            }
        }
        Operator::GreaterThan | Operator::LessThan => {
            if values.len() != 1 {
                errors.push(FieldError::invalid(
                    &values_path,
                    as_value(),
                    "for 'Gt', 'Lt' operators, exactly one value is required",
                ));
            }
            for (i, v) in values.iter().enumerate() {
                if v.parse::<i64>().is_err() {
                    errors.push(FieldError::invalid(
                        &values_path.index(i),
                        v.as_str(),
                        "for 'Gt', 'Lt' operators, the value must be an integer",
                    ));
                }
            }
        }
    }
    for (i, v) in values.iter().enumerate() {
        let problems = is_valid_label_value(v);
        if !problems.is_empty() {
            let index = values_path.index(i);
            errors.push(FieldError::invalid(
                &index.key(key),
                v.as_str(),
                problems.join("; "),
            ));
        }
    }
    errors
}

fn validate_label_key(key: &str) -> Option<FieldError> {
    let problems = is_qualified_name(key);
    (!problems.is_empty())
        .then(|| FieldError::invalid(&FieldPath::new("key"), key, problems.join("; ")))
}

/// Whether a value alone would make a requirement invalid (to point at it).
fn value_is_invalid(operator: Operator, value: &str) -> bool {
    !is_valid_label_value(value).is_empty()
        || (matches!(operator, Operator::GreaterThan | Operator::LessThan)
            && value.parse::<i64>().is_err())
}

impl fmt::Display for Requirement {
    /// The requirement in selector syntax, as apimachinery's
    /// `Requirement.String`: `!key`, `key`, `key=v`, `key in (a,b)`, `key>3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.operator == Operator::DoesNotExist {
            f.write_str("!")?;
        }
        f.write_str(&self.key)?;
        let (op, parens) = match self.operator {
            Operator::Exists | Operator::DoesNotExist => return Ok(()),
            Operator::Equals => ("=", false),
            Operator::DoubleEquals => ("==", false),
            Operator::NotEquals => ("!=", false),
            Operator::GreaterThan => (">", false),
            Operator::LessThan => ("<", false),
            Operator::In => (" in ", true),
            Operator::NotIn => (" notin ", true),
        };
        f.write_str(op)?;
        if parens {
            f.write_str("(")?;
        }
        for (i, v) in self.values.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(v)?;
        }
        if parens {
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// A label query: requirements that must all hold (AND), or the selector
/// that matches nothing.
///
/// Build one with [`Selector::parse`], [`Selector::new`],
/// [`Selector::from_label_selector`], [`Selector::everything`] or
/// [`Selector::nothing`]. The requirements are kept sorted by key (stably),
/// so selectors that differ only in the order of their requirements are
/// equal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Selector {
    /// `None` is the selector that matches nothing.
    requirements: Option<Vec<Requirement>>,
}

impl Default for Selector {
    /// [`Selector::everything`].
    fn default() -> Self {
        Selector::everything()
    }
}

impl Selector {
    /// The selector that matches every set of labels (no requirements);
    /// what the empty string and an empty [`LabelSelector`] mean.
    pub const fn everything() -> Self {
        Selector {
            requirements: Some(Vec::new()),
        }
    }

    /// The selector that matches nothing: what a missing (nil in Go)
    /// [`LabelSelector`] means. It has no string form: it prints as the
    /// empty string, which parses as [`Selector::everything`].
    pub const fn nothing() -> Self {
        Selector { requirements: None }
    }

    /// The selector requiring all of `requirements`, sorted by key.
    pub fn new(requirements: impl IntoIterator<Item = Requirement>) -> Self {
        let mut requirements: Vec<Requirement> = requirements.into_iter().collect();
        requirements.sort_by(|a, b| a.key.cmp(&b.key));
        Selector {
            requirements: Some(requirements),
        }
    }

    /// This selector with one more requirement (apimachinery's `Add`). The
    /// selector that matches nothing stays so.
    #[must_use]
    pub fn add_requirement(self, requirement: Requirement) -> Self {
        match self.requirements {
            None => self,
            Some(mut reqs) => {
                // Insert after any requirement with the same key: a stable sort.
                let at = reqs.partition_point(|r| r.key <= requirement.key);
                reqs.insert(at, requirement);
                Selector {
                    requirements: Some(reqs),
                }
            }
        }
    }

    /// Parses the string syntax; see the [module documentation](self).
    ///
    /// Whitespace (space, tab, CR, LF) may surround every token. Errors
    /// name the byte position of the offending token, what was found
    /// there and what was expected, or the validation errors of a key or
    /// value:
    ///
    /// ```
    /// use api_core::labels::Selector;
    ///
    /// assert_eq!(Selector::parse("x in (a,b), !y")?.to_string(), "x in (a,b),!y");
    /// assert_eq!(
    ///     Selector::parse("x in a").unwrap_err().to_string(),
    ///     "unable to parse requirement: found 'a' at position 5, expected: '('",
    /// );
    /// # Ok::<(), api_core::labels::SelectorParseError>(())
    /// ```
    pub fn parse(selector: &str) -> Result<Self, SelectorParseError> {
        let mut parser = Parser {
            tokens: lex(selector),
            next: 0,
        };
        parser.parse().map(Selector::new)
    }

    /// The selector of a meta/v1 [`LabelSelector`], as apimachinery's
    /// `LabelSelectorAsSelector`: `None` matches nothing, an empty selector
    /// everything; each `matchLabels` entry becomes a `key=value`
    /// requirement and each `matchExpressions` entry a requirement with
    /// the operator `In`, `NotIn`, `Exists` or `DoesNotExist`.
    ///
    /// ```
    /// use api_core::LabelSelector;
    /// use api_core::labels::Selector;
    ///
    /// let ls: LabelSelector = serde_json::from_str(r#"{
    ///     "matchLabels": {"app": "web"},
    ///     "matchExpressions": [{"key": "tier", "operator": "NotIn", "values": ["db"]}]
    /// }"#).unwrap();
    /// let selector = Selector::from_label_selector(Some(&ls))?;
    /// assert_eq!(selector.to_string(), "app=web,tier notin (db)");
    /// assert!(!Selector::from_label_selector(None)?.matches(&ls.match_labels));
    /// # Ok::<(), api_core::labels::SelectorParseError>(())
    /// ```
    pub fn from_label_selector(
        selector: Option<&LabelSelector>,
    ) -> Result<Self, SelectorParseError> {
        let Some(selector) = selector else {
            return Ok(Selector::nothing());
        };
        let mut requirements =
            Vec::with_capacity(selector.match_labels.len() + selector.match_expressions.len());
        for (key, value) in &selector.match_labels {
            requirements.push(Requirement::new(
                key.as_str(),
                Operator::Equals,
                [value.as_str()],
            )?);
        }
        for expr in &selector.match_expressions {
            let operator = match expr.operator.as_str() {
                "In" => Operator::In,
                "NotIn" => Operator::NotIn,
                "Exists" => Operator::Exists,
                "DoesNotExist" => Operator::DoesNotExist,
                other => {
                    return Err(SelectorParseError {
                        repr: ErrorRepr::UnknownOperator(other.to_string()),
                    });
                }
            };
            requirements.push(Requirement::new(
                expr.key.as_str(),
                operator,
                expr.values.iter().map(String::as_str),
            )?);
        }
        Ok(Selector::new(requirements))
    }

    /// Whether `labels` satisfy every requirement. [`Selector::nothing`]
    /// matches no labels, [`Selector::everything`] all of them.
    pub fn matches<L: Labels + ?Sized>(&self, labels: &L) -> bool {
        match &self.requirements {
            None => false,
            Some(reqs) => reqs.iter().all(|r| r.matches(labels)),
        }
    }

    /// The requirements, sorted by key; empty for [`Selector::everything`]
    /// and [`Selector::nothing`].
    pub fn requirements(&self) -> &[Requirement] {
        self.requirements.as_deref().unwrap_or_default()
    }

    /// Whether this selector has no requirements and so matches everything
    /// (apimachinery's `Empty`); false for [`Selector::nothing`].
    pub fn is_empty(&self) -> bool {
        self.requirements.as_ref().is_some_and(Vec::is_empty)
    }

    /// Whether this is [`Selector::nothing`].
    pub fn is_nothing(&self) -> bool {
        self.requirements.is_none()
    }

    /// The value the label `key` must have, when the selector pins it with
    /// `=`, `==` or `in` with a single value (apimachinery's
    /// `RequiresExactMatch`). Only the first requirement on `key` is looked at.
    pub fn requires_exact_match(&self, key: &str) -> Option<&str> {
        let r = self.requirements().iter().find(|r| r.key == key)?;
        match (r.operator, r.values.as_slice()) {
            (Operator::Equals | Operator::DoubleEquals | Operator::In, [v]) => Some(v),
            _ => None,
        }
    }
}

impl fmt::Display for Selector {
    /// The canonical string form (apimachinery's `String`): the
    /// requirements joined by `,`. [`Selector::nothing`] prints as the
    /// empty string, as in Go.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.requirements().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            fmt::Display::fmt(r, f)?;
        }
        Ok(())
    }
}

impl FromStr for Selector {
    type Err = SelectorParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Selector::parse(s)
    }
}

impl FromIterator<Requirement> for Selector {
    fn from_iter<T: IntoIterator<Item = Requirement>>(iter: T) -> Self {
        Selector::new(iter)
    }
}

impl From<Requirement> for Selector {
    fn from(requirement: Requirement) -> Self {
        Selector::new([requirement])
    }
}

impl TryFrom<&LabelSelector> for Selector {
    type Error = SelectorParseError;

    /// [`Selector::from_label_selector`] of a selector that is present.
    fn try_from(selector: &LabelSelector) -> Result<Self, Self::Error> {
        Selector::from_label_selector(Some(selector))
    }
}

/// Why a selector string, a [`Requirement`] or a [`LabelSelector`] was
/// rejected.
///
/// Three kinds of problems are reported:
///
/// * syntax errors of [`Selector::parse`], with the byte position (from
///   0) of the offending token, what was found there and what was
///   expected: `unable to parse requirement: found ',' at position 4, expected: identifier`;
/// * invalid keys or values, with apimachinery's field errors
///   ([`SelectorParseError::field_errors`]) and, when parsing, the
///   position of the offending key or value:
///   `unable to parse requirement at position 0: key: Invalid value: "-x": ...`;
/// * unknown operators in a [`LabelSelector`]:
///   `"Foo" is not a valid label selector operator`.
///
/// The syntax messages are apimachinery's, with the position added.
#[derive(Clone, Debug, PartialEq)]
pub struct SelectorParseError {
    repr: ErrorRepr,
}

#[derive(Clone, Debug, PartialEq)]
enum ErrorRepr {
    Syntax {
        position: usize,
        /// `None` at the end of the input.
        found: Option<String>,
        expected: &'static str,
        /// Whether Go reports it as `unable to parse requirement: ...`.
        in_requirement: bool,
    },
    Invalid {
        position: Option<usize>,
        errors: ErrorList,
    },
    UnknownOperator(String),
}

impl SelectorParseError {
    fn invalid(position: Option<usize>, errors: ErrorList) -> Self {
        SelectorParseError {
            repr: ErrorRepr::Invalid { position, errors },
        }
    }

    /// The byte offset in the parsed string of the token the error is
    /// about (the input's length for its end); `None` for errors that do
    /// not come from parsing a string.
    pub fn position(&self) -> Option<usize> {
        match &self.repr {
            ErrorRepr::Syntax { position, .. } => Some(*position),
            ErrorRepr::Invalid { position, .. } => *position,
            ErrorRepr::UnknownOperator(_) => None,
        }
    }

    /// For a syntax error, the token found: `Some("")` at the end of the
    /// input.
    pub fn found(&self) -> Option<&str> {
        match &self.repr {
            ErrorRepr::Syntax { found, .. } => Some(found.as_deref().unwrap_or("")),
            _ => None,
        }
    }

    /// For a syntax error, what was expected instead (`identifier`, `')'`, ...).
    pub fn expected(&self) -> Option<&str> {
        match &self.repr {
            ErrorRepr::Syntax { expected, .. } => Some(expected),
            _ => None,
        }
    }

    /// The validation errors of an invalid key, operator or value count,
    /// with apimachinery's paths and wording (`values[0][app]: Invalid value: ...`);
    /// empty for syntax errors and unknown operators.
    pub fn field_errors(&self) -> &[FieldError] {
        match &self.repr {
            ErrorRepr::Invalid { errors, .. } => errors.as_slice(),
            _ => &[],
        }
    }
}

impl fmt::Display for SelectorParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            ErrorRepr::Syntax {
                position,
                found,
                expected,
                in_requirement,
            } => {
                if *in_requirement {
                    f.write_str("unable to parse requirement: ")?;
                }
                match found {
                    Some(found) => write!(f, "found '{found}'")?,
                    None => f.write_str("found end of string")?,
                }
                write!(f, " at position {position}, expected: {expected}")
            }
            ErrorRepr::Invalid {
                position: Some(position),
                errors,
            } => write!(
                f,
                "unable to parse requirement at position {position}: {errors}"
            ),
            ErrorRepr::Invalid {
                position: None,
                errors,
            } => fmt::Display::fmt(errors, f),
            ErrorRepr::UnknownOperator(op) => {
                write!(f, "{} is not a valid label selector operator", go_quote(op))
            }
        }
    }
}

impl std::error::Error for SelectorParseError {}

// ---------------------------------------------------------------------------
// Lexer and parser: a transcription of apimachinery's, without its panics.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    End,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
}

#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    tok: Tok,
    lit: &'a str,
    /// Byte offset of the token in the input.
    pos: usize,
}

fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

fn is_special(b: u8) -> bool {
    matches!(b, b'=' | b'!' | b'(' | b')' | b',' | b'>' | b'<')
}

/// Splits the input into tokens, ending with [`Tok::End`]. Whitespace and
/// the special characters are ASCII, so every token is a `str` slice.
/// Unlike Go, a NUL byte is an ordinary character, not the end of input.
fn lex(s: &str) -> Vec<Token<'_>> {
    let bytes = s.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    loop {
        while i < bytes.len() && is_whitespace(bytes[i]) {
            i += 1;
        }
        let start = i;
        let Some(&b) = bytes.get(i) else {
            tokens.push(Token {
                tok: Tok::End,
                lit: "",
                pos: start,
            });
            return tokens;
        };
        let tok = if is_special(b) {
            // The longest token: every special character is a token alone,
            // and `==` and `!=` are the only two-character ones.
            let next = bytes.get(i + 1).copied();
            let (tok, len) = match (b, next) {
                (b'=', Some(b'=')) => (Tok::DoubleEquals, 2),
                (b'!', Some(b'=')) => (Tok::NotEquals, 2),
                (b'=', _) => (Tok::Equals, 1),
                (b'!', _) => (Tok::DoesNotExist, 1),
                (b'(', _) => (Tok::OpenPar, 1),
                (b')', _) => (Tok::ClosedPar, 1),
                (b',', _) => (Tok::Comma, 1),
                (b'>', _) => (Tok::GreaterThan, 1),
                _ => (Tok::LessThan, 1),
            };
            i += len;
            tok
        } else {
            while i < bytes.len() && !is_special(bytes[i]) && !is_whitespace(bytes[i]) {
                i += 1;
            }
            match &s[start..i] {
                "in" => Tok::In,
                "notin" => Tok::NotIn,
                _ => Tok::Identifier,
            }
        };
        tokens.push(Token {
            tok,
            lit: &s[start..i],
            pos: start,
        });
    }
}

/// Whether `in` and `notin` are operators (after a key) or identifiers
/// (keys and values).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    KeyAndOperator,
    Values,
}

struct Parser<'a> {
    tokens: Vec<Token<'a>>,
    next: usize,
}

fn syntax(t: Token<'_>, expected: &'static str, in_requirement: bool) -> SelectorParseError {
    SelectorParseError {
        repr: ErrorRepr::Syntax {
            position: t.pos,
            found: (t.tok != Tok::End).then(|| t.lit.to_string()),
            expected,
            in_requirement,
        },
    }
}

fn req_syntax(t: Token<'_>, expected: &'static str) -> SelectorParseError {
    syntax(t, expected, true)
}

impl<'a> Parser<'a> {
    fn lookahead(&self, context: Context) -> Token<'a> {
        // The last token is End; never look past it.
        let i = self.next.min(self.tokens.len() - 1);
        let mut t = self.tokens[i];
        if context == Context::Values && matches!(t.tok, Tok::In | Tok::NotIn) {
            t.tok = Tok::Identifier;
        }
        t
    }

    fn consume(&mut self, context: Context) -> Token<'a> {
        let t = self.lookahead(context);
        self.next += 1;
        t
    }

    fn parse(&mut self) -> Result<Vec<Requirement>, SelectorParseError> {
        let mut requirements = Vec::new();
        loop {
            let t = self.lookahead(Context::Values);
            match t.tok {
                Tok::Identifier | Tok::DoesNotExist => {
                    requirements.push(self.parse_requirement()?);
                    let t = self.consume(Context::Values);
                    match t.tok {
                        Tok::End => return Ok(requirements),
                        Tok::Comma => {
                            let t2 = self.lookahead(Context::Values);
                            if !matches!(t2.tok, Tok::Identifier | Tok::DoesNotExist) {
                                return Err(syntax(t2, "identifier after ','", false));
                            }
                        }
                        _ => return Err(syntax(t, "',' or 'end of string'", false)),
                    }
                }
                Tok::End => return Ok(requirements),
                _ => return Err(syntax(t, "!, identifier, or 'end of string'", false)),
            }
        }
    }

    fn parse_requirement(&mut self) -> Result<Requirement, SelectorParseError> {
        let (key, key_pos, operator) = self.parse_key_and_infer_operator()?;
        let (operator, values) = match operator {
            Some(op) => (op, Vec::new()),
            None => {
                let op = self.parse_operator()?;
                let values = match op {
                    Operator::In | Operator::NotIn => self.parse_values()?,
                    _ => self.parse_exact_value()?,
                };
                (op, values)
            }
        };
        Requirement::new(key, operator, values.iter().map(|(v, _)| *v)).map_err(|e| {
            let position = values
                .iter()
                .find(|(v, _)| value_is_invalid(operator, v))
                .map_or(key_pos, |(_, pos)| *pos);
            match e.repr {
                ErrorRepr::Invalid { errors, .. } => {
                    SelectorParseError::invalid(Some(position), errors)
                }
                repr => SelectorParseError { repr },
            }
        })
    }

    /// The key, its position, and `Exists` or `DoesNotExist` when no
    /// binary operator follows.
    fn parse_key_and_infer_operator(
        &mut self,
    ) -> Result<(&'a str, usize, Option<Operator>), SelectorParseError> {
        let mut operator = None;
        let mut t = self.consume(Context::Values);
        if t.tok == Tok::DoesNotExist {
            operator = Some(Operator::DoesNotExist);
            t = self.consume(Context::Values);
        }
        if t.tok != Tok::Identifier {
            return Err(req_syntax(t, "identifier"));
        }
        if let Some(e) = validate_label_key(t.lit) {
            return Err(SelectorParseError::invalid(
                Some(t.pos),
                ErrorList::from(vec![e]),
            ));
        }
        if operator.is_none()
            && matches!(self.lookahead(Context::Values).tok, Tok::End | Tok::Comma)
        {
            operator = Some(Operator::Exists);
        }
        Ok((t.lit, t.pos, operator))
    }

    fn parse_operator(&mut self) -> Result<Operator, SelectorParseError> {
        let t = self.consume(Context::KeyAndOperator);
        Ok(match t.tok {
            Tok::In => Operator::In,
            Tok::Equals => Operator::Equals,
            Tok::DoubleEquals => Operator::DoubleEquals,
            Tok::GreaterThan => Operator::GreaterThan,
            Tok::LessThan => Operator::LessThan,
            Tok::NotIn => Operator::NotIn,
            Tok::NotEquals => Operator::NotEquals,
            _ => return Err(req_syntax(t, "in, notin, =, ==, !=, >, <")),
        })
    }

    /// `(v1, v2, ...)`; an empty list or an empty item is the empty value.
    fn parse_values(&mut self) -> Result<Vec<(&'a str, usize)>, SelectorParseError> {
        let t = self.consume(Context::Values);
        if t.tok != Tok::OpenPar {
            return Err(req_syntax(t, "'('"));
        }
        let t = self.lookahead(Context::Values);
        match t.tok {
            Tok::Identifier | Tok::Comma => {
                let values = self.parse_identifiers_list()?;
                let t = self.consume(Context::Values);
                if t.tok != Tok::ClosedPar {
                    return Err(req_syntax(t, "')'"));
                }
                Ok(values)
            }
            Tok::ClosedPar => {
                self.consume(Context::Values);
                Ok(vec![("", t.pos)])
            }
            _ => Err(req_syntax(t, "',', ')' or identifier")),
        }
    }

    /// A comma-separated list of possibly empty identifiers, up to (not
    /// including) `)`. As in Go, `(a,,)` is rejected while `(a,,b)`,
    /// `(,a)` and `(a,)` are accepted.
    fn parse_identifiers_list(&mut self) -> Result<Vec<(&'a str, usize)>, SelectorParseError> {
        let mut values = Vec::new();
        loop {
            let t = self.consume(Context::Values);
            match t.tok {
                Tok::Identifier => {
                    values.push((t.lit, t.pos));
                    let t2 = self.lookahead(Context::Values);
                    match t2.tok {
                        Tok::Comma => {}
                        Tok::ClosedPar => return Ok(values),
                        _ => return Err(req_syntax(t2, "',' or ')'")),
                    }
                }
                Tok::Comma => {
                    if values.is_empty() {
                        values.push(("", t.pos));
                    }
                    let t2 = self.lookahead(Context::Values);
                    match t2.tok {
                        Tok::ClosedPar => {
                            values.push(("", t2.pos));
                            return Ok(values);
                        }
                        Tok::Comma => {
                            self.consume(Context::Values);
                            values.push(("", t2.pos));
                        }
                        _ => {}
                    }
                }
                _ => return Err(req_syntax(t, "',' or identifier")),
            }
        }
    }

    /// The value of `=`, `==`, `!=`, `>` or `<`; nothing before `,` or the
    /// end is the empty value.
    fn parse_exact_value(&mut self) -> Result<Vec<(&'a str, usize)>, SelectorParseError> {
        let t = self.lookahead(Context::Values);
        if matches!(t.tok, Tok::End | Tok::Comma) {
            return Ok(vec![("", t.pos)]);
        }
        let t = self.consume(Context::Values);
        if t.tok == Tok::Identifier {
            Ok(vec![(t.lit, t.pos)])
        } else {
            Err(req_syntax(t, "identifier"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn lexer_single_tokens() {
        for (s, t) in [
            ("", Tok::End),
            (",", Tok::Comma),
            ("notin", Tok::NotIn),
            ("in", Tok::In),
            ("=", Tok::Equals),
            ("==", Tok::DoubleEquals),
            (">", Tok::GreaterThan),
            ("<", Tok::LessThan),
            ("!", Tok::DoesNotExist),
            ("!=", Tok::NotEquals),
            ("(", Tok::OpenPar),
            (")", Tok::ClosedPar),
            ("~", Tok::Identifier),
            ("||", Tok::Identifier),
        ] {
            let got = lex(s);
            assert_eq!(got[0].tok, t, "{s:?}");
            if t != Tok::End {
                assert_eq!(got[0].lit, s);
                assert_eq!(got[1].tok, Tok::End);
            }
        }
    }

    #[test]
    fn lexer_sequences() {
        use Tok::*;
        for (s, want) in [
            (
                "key in ( value )",
                vec![Identifier, In, OpenPar, Identifier, ClosedPar],
            ),
            (
                "key notin ( value )",
                vec![Identifier, NotIn, OpenPar, Identifier, ClosedPar],
            ),
            (
                "key in ( value1, value2 )",
                vec![
                    Identifier, In, OpenPar, Identifier, Comma, Identifier, ClosedPar,
                ],
            ),
            ("key", vec![Identifier]),
            ("!key", vec![DoesNotExist, Identifier]),
            ("()", vec![OpenPar, ClosedPar]),
            (
                "x in (),y",
                vec![Identifier, In, OpenPar, ClosedPar, Comma, Identifier],
            ),
            (
                "== != (), = notin",
                vec![
                    DoubleEquals,
                    NotEquals,
                    OpenPar,
                    ClosedPar,
                    Comma,
                    Equals,
                    NotIn,
                ],
            ),
            ("key>2", vec![Identifier, GreaterThan, Identifier]),
            ("key<1", vec![Identifier, LessThan, Identifier]),
            ("===", vec![DoubleEquals, Equals]),
            ("!==", vec![NotEquals, Equals]),
            ("!!=", vec![DoesNotExist, NotEquals]),
            ("<=>=", vec![LessThan, Equals, GreaterThan, Equals]),
        ] {
            let mut want = want;
            want.push(End);
            assert_eq!(toks(s), want, "{s:?}");
        }
    }

    #[test]
    fn lexer_positions_and_unicode() {
        let t = lex(" é=ü\u{0}x ,  ");
        assert_eq!(
            t.iter().map(|t| (t.tok, t.lit, t.pos)).collect::<Vec<_>>(),
            vec![
                (Tok::Identifier, "é", 1),
                (Tok::Equals, "=", 3),
                (Tok::Identifier, "ü\u{0}x", 4),
                (Tok::Comma, ",", 9),
                (Tok::End, "", 12),
            ]
        );
    }

    #[test]
    fn parser_never_reads_past_the_end() {
        for s in [
            "!",
            "x in",
            "x in (",
            "x in (a,",
            "x in (,",
            "x=",
            "x,",
            "x notin(a",
        ] {
            let _ = Selector::parse(s);
        }
    }

    #[test]
    fn operators_print_as_apimachinery() {
        assert_eq!(Operator::GreaterThan.to_string(), "gt");
        assert_eq!(Operator::DoesNotExist.as_str(), "!");
        assert_eq!(Operator::Exists.as_str(), "exists");
    }

    #[test]
    fn error_positions_point_at_values() {
        let e = Selector::parse("x=a, y in (b, -c)").unwrap_err();
        assert_eq!(e.position(), Some(14));
        let e = Selector::parse("x>1, y < 1.5").unwrap_err();
        assert_eq!(e.position(), Some(9));
        let e = Selector::parse("x, -y").unwrap_err();
        assert_eq!(e.position(), Some(3));
        assert!(e.to_string().starts_with(
            "unable to parse requirement at position 3: key: Invalid value: \"-y\": name part must consist of"
        ));
    }

    #[test]
    fn add_keeps_keys_sorted_and_stable() {
        let a = Requirement::new("a", Operator::Exists, [""; 0]).unwrap();
        let b1 = Requirement::new("b", Operator::Equals, ["1"]).unwrap();
        let b2 = Requirement::new("b", Operator::Equals, ["2"]).unwrap();
        let s = Selector::everything()
            .add_requirement(b1)
            .add_requirement(a)
            .add_requirement(b2);
        assert_eq!(s.to_string(), "a,b=1,b=2");
        assert_eq!(Selector::parse(&s.to_string()).unwrap(), s);
        assert!(
            Selector::nothing()
                .add_requirement(s.requirements()[0].clone())
                .is_nothing()
        );
    }
}
