//! Status conditions: [`Conditions`], a list of [`Condition`]s keyed by
//! condition type, with the semantics of apimachinery's condition helpers
//! (`k8s.io/apimachinery/pkg/api/meta/conditions.go`) and the schema and
//! validation of meta/v1 `Condition`.
//!
//! On the wire, conditions are the standard list (`x-kubernetes-list-type:
//! map` keyed by `type`), in order, exactly as Go writes `[]metav1.Condition`.
//! In Rust they are a map: look a condition up by its type, set it (only a
//! status change moves `lastTransitionTime`), remove it.
//!
//! ```
//! use api_core::prelude::*;
//!
//! let mut conditions = Conditions::new();
//! let now: Time = "2024-05-01T10:00:00Z".parse().unwrap();
//!
//! // A new condition gets the current time as its lastTransitionTime.
//! let changed = conditions.set_with_clock(
//!     Condition::new("Available", ConditionStatus::True, "MinimumReplicasAvailable", "Deployment has minimum availability."),
//!     now,
//! );
//! assert!(changed);
//! assert!(conditions.is_true("Available"));
//! // Absent conditions count as Unknown.
//! assert!(conditions.is_unknown("Progressing"));
//!
//! // Setting the same condition again changes nothing.
//! let later = now.checked_add_seconds(60).unwrap();
//! let again = Condition::new("Available", ConditionStatus::True, "MinimumReplicasAvailable", "Deployment has minimum availability.");
//! assert!(!conditions.set_with_clock(again, later));
//!
//! assert_eq!(
//!     serde_json::to_string(&conditions).unwrap(),
//!     r#"[{"type":"Available","status":"True","lastTransitionTime":"2024-05-01T10:00:00Z","reason":"MinimumReplicasAvailable","message":"Deployment has minimum availability."}]"#,
//! );
//! ```
//!
//! # The "zero" lastTransitionTime
//!
//! Go's `SetStatusCondition` sets `lastTransitionTime` to now when the caller
//! leaves it zero. `lastTransitionTime` is a required field, so it is a plain
//! [`Time`] here, not an `Option`; "not set" is Go's zero time itself,
//! `0001-01-01T00:00:00Z` ([`Condition::zero_time`]), which is what
//! [`Condition::new`] puts there. It behaves as in Go: [`Conditions::set`]
//! replaces it, validation reports it as `Required`, and it is written as
//! `null` (as `metav1.Time` writes its zero value) and read back from `null`,
//! a missing field or `0001-01-01T00:00:00Z`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use regex::Regex;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

use super::Time;
use crate::api_type::ApiType;
use crate::facts::{self, FieldFacts, Kind, TypeFacts};
use crate::validation::names::regex_error;
use crate::validation::object_meta::validate_label_name;
use crate::validation::{ErrorList, FieldError, FieldPath, go_quote};

/// The status of a condition: `True`, `False` or `Unknown` (meta/v1
/// `ConditionStatus`).
///
/// Only these three values exist, so a status can never be invalid once
/// decoded; any other string is a decoding error worded like the
/// apiserver's `Unsupported value` cause.
///
/// ```
/// use api_core::ConditionStatus;
///
/// assert_eq!(ConditionStatus::True.to_string(), "True");
/// assert_eq!("Unknown".parse::<ConditionStatus>(), Ok(ConditionStatus::Unknown));
/// assert_eq!(ConditionStatus::from(false), ConditionStatus::False);
/// assert!("true".parse::<ConditionStatus>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConditionStatus {
    /// The condition holds.
    True,
    /// The condition does not hold.
    False,
    /// The controller cannot tell whether the condition holds.
    Unknown,
}

/// The supported statuses, sorted as apimachinery lists them in its
/// `Unsupported value` message (`sets.String.List()`).
const SUPPORTED_STATUSES: [&str; 3] = ["False", "True", "Unknown"];

impl ConditionStatus {
    /// The wire form: `"True"`, `"False"` or `"Unknown"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ConditionStatus::True => "True",
            ConditionStatus::False => "False",
            ConditionStatus::Unknown => "Unknown",
        }
    }
}

impl fmt::Display for ConditionStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<bool> for ConditionStatus {
    /// `true` is `True`, `false` is `False`.
    fn from(b: bool) -> Self {
        if b {
            ConditionStatus::True
        } else {
            ConditionStatus::False
        }
    }
}

/// A string that is not a [`ConditionStatus`]. Its message is the
/// apiserver's: `Unsupported value: "x": supported values: "False", "True", "Unknown"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseConditionStatusError {
    value: String,
}

impl ParseConditionStatusError {
    /// The rejected string.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The same problem as the apiserver's `NotSupported` error at `path`
    /// (`status.conditions[0].status`).
    pub fn to_field_error(&self, path: &FieldPath<'_>) -> FieldError {
        FieldError::not_supported(path, self.value.as_str(), &SUPPORTED_STATUSES)
    }
}

impl fmt::Display for ParseConditionStatusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = FieldPath::new("status");
        f.write_str(&self.to_field_error(&path).error_body())
    }
}

impl std::error::Error for ParseConditionStatusError {}

impl FromStr for ConditionStatus {
    type Err = ParseConditionStatusError;

    /// Parses the exact wire form (case-sensitive, as the API is).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "True" => Ok(ConditionStatus::True),
            "False" => Ok(ConditionStatus::False),
            "Unknown" => Ok(ConditionStatus::Unknown),
            _ => Err(ParseConditionStatusError {
                value: s.to_string(),
            }),
        }
    }
}

impl Serialize for ConditionStatus {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ConditionStatus {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = ConditionStatus;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a condition status: \"True\", \"False\" or \"Unknown\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ConditionStatus, E> {
                v.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(V)
    }
}

/// A condition type: what [`Conditions`] are keyed by.
///
/// Implemented for everything that is `AsRef<str>` (`&str`, `String`,
/// `Cow<str>`, ...), so a typed enum of the conditions your controller
/// owns only needs `AsRef<str>` (or an impl of this trait):
///
/// ```
/// use api_core::prelude::*;
///
/// #[derive(Clone, Copy)]
/// enum MemcachedCondition { Available, Degraded }
///
/// impl AsRef<str> for MemcachedCondition {
///     fn as_ref(&self) -> &str {
///         match self {
///             MemcachedCondition::Available => "Available",
///             MemcachedCondition::Degraded => "Degraded",
///         }
///     }
/// }
///
/// let mut conditions = Conditions::new();
/// conditions.set(Condition::new(MemcachedCondition::Available, ConditionStatus::True, "Ready", ""));
/// assert!(conditions.is_true(MemcachedCondition::Available));
/// assert!(conditions.is_unknown(MemcachedCondition::Degraded));
/// // Plain strings work too, for types written by other controllers.
/// assert!(conditions.is_true("Available"));
/// ```
pub trait ConditionType {
    /// The type as written in the condition's `type` field.
    fn as_condition_type(&self) -> &str;
}

impl<T: AsRef<str> + ?Sized> ConditionType for T {
    fn as_condition_type(&self) -> &str {
        self.as_ref()
    }
}

/// Go's zero `time.Time`, 0001-01-01T00:00:00Z, in Unix seconds.
const GO_ZERO_UNIX_SECONDS: i64 = -62_135_596_800;

fn is_zero_time(t: &Time) -> bool {
    t.unix_seconds() == GO_ZERO_UNIX_SECONDS
}

/// One aspect of the current state of an object (meta/v1 `Condition`).
///
/// The JSON is exactly Go's: `type`, `status`, `observedGeneration` (left
/// out when `None`), `lastTransitionTime`, `reason` and `message` (always
/// written, even when empty).
///
/// `lastTransitionTime` is required on the wire, so it is a [`Time`], not
/// an `Option`. "Not set" is Go's zero time, `0001-01-01T00:00:00Z`
/// ([`Condition::zero_time`]), which [`Condition::new`] puts there and
/// [`Conditions::set`] replaces, as Go's `SetStatusCondition` replaces a
/// zero time. As `metav1.Time` does, the zero time is written as `null`,
/// and `null` reads back as the zero time.
///
/// Decoding is as lenient as Go's for the fields that validation checks:
/// a missing `reason` or `message` is empty, and a missing or `null`
/// `lastTransitionTime` is the zero time, so that [`ApiType::validate`]
/// reports them with the apiserver's wording. `type` and `status` are
/// required.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// The type of the condition, in CamelCase or in `foo.example.com/CamelCase`.
    #[serde(rename = "type")]
    pub type_: String,
    /// The status of the condition: `True`, `False` or `Unknown`.
    pub status: ConditionStatus,
    /// The `.metadata.generation` the condition was set based upon; the
    /// condition is out of date when it is older than the object's generation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// When the condition last changed from one status to another. The zero
    /// time ([`Condition::zero_time`]) means "not set": [`Conditions::set`]
    /// fills it in.
    #[serde(default = "Condition::zero_time", with = "zero_time_as_null")]
    pub last_transition_time: Time,
    /// A programmatic CamelCase identifier of the reason for the last
    /// transition; may not be empty.
    #[serde(default)]
    pub reason: String,
    /// A human readable message with details about the transition; may be empty.
    #[serde(default)]
    pub message: String,
}

/// `lastTransitionTime` as `metav1.Time` writes it: the zero time is `null`.
mod zero_time_as_null {
    use super::*;

    pub(super) fn serialize<S: Serializer>(t: &Time, serializer: S) -> Result<S::Ok, S::Error> {
        if is_zero_time(t) {
            serializer.serialize_none()
        } else {
            t.serialize(serializer)
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Time, D::Error> {
        Ok(Option::<Time>::deserialize(deserializer)?.unwrap_or_else(Condition::zero_time))
    }
}

impl Condition {
    /// A condition whose `lastTransitionTime` is left for [`Conditions::set`]
    /// to fill in (it is the zero time), without an `observedGeneration`.
    pub fn new(
        condition_type: impl ConditionType,
        status: ConditionStatus,
        reason: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Condition {
            type_: condition_type.as_condition_type().to_string(),
            status,
            observed_generation: None,
            last_transition_time: Condition::zero_time(),
            reason: reason.into(),
            message: message.into(),
        }
    }

    /// This condition with `observedGeneration` set.
    pub fn with_observed_generation(mut self, generation: i64) -> Self {
        self.observed_generation = Some(generation);
        self
    }

    /// This condition with an explicit `lastTransitionTime`, which
    /// [`Conditions::set`] uses instead of the current time when it records
    /// a transition.
    pub fn with_last_transition_time(mut self, time: Time) -> Self {
        self.last_transition_time = time;
        self
    }

    /// Go's zero time, `0001-01-01T00:00:00Z`: the "not set" value of
    /// `lastTransitionTime`.
    pub fn zero_time() -> Time {
        Time::from_unix_seconds(GO_ZERO_UNIX_SECONDS)
            .unwrap_or_else(|| unreachable!("year 1 is in Time's range"))
    }

    /// Whether `lastTransitionTime` is set, that is, not the zero time.
    pub fn has_transition_time(&self) -> bool {
        !is_zero_time(&self.last_transition_time)
    }

    /// Whether the condition is of type `condition_type`.
    pub fn is_type(&self, condition_type: impl ConditionType) -> bool {
        self.type_ == condition_type.as_condition_type()
    }
}

/// The conditions of an object: a map keyed by condition type that is a
/// list on the wire.
///
/// ```
/// use api_core::prelude::*;
///
/// let mut conditions = Conditions::new();
/// conditions.set(Condition::new("Ready", ConditionStatus::True, "Reconciled", "").with_observed_generation(3));
/// assert!(conditions.is_true("Ready"));
/// assert!(conditions.is_unknown("Degraded"));
///
/// let json = serde_json::to_value(&conditions).unwrap();
/// assert_eq!(json[0]["type"], "Ready");
/// assert_eq!(json[0]["observedGeneration"], 3);
/// let back: Conditions = serde_json::from_value(json).unwrap();
/// assert_eq!(back, conditions);
/// ```
///
/// The order of the list is kept: decoding and encoding reproduce it, and
/// [`set`](Conditions::set) appends new types at the end. Condition types
/// that this program does not know (written by other controllers) are kept
/// untouched.
///
/// Types are unique: decoding a list that repeats a type is an error
/// naming the type and index, as is [`Conditions::from_vec`]. Lookups scan
/// the list, which is the fastest way for the handful of conditions an
/// object has; they use the first condition of a type, as Go's helpers do,
/// so the behaviour stays Go's even if a type is made to repeat through
/// [`get_mut`](Conditions::get_mut) (validation reports that as a
/// `Duplicate`).
///
/// Equality compares the lists, order included.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conditions(Vec<Condition>);

/// A condition type that appears twice in a list of conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateConditionType {
    /// The repeated type.
    pub condition_type: String,
    /// The index of the repeat.
    pub index: usize,
    /// The index of the first condition of that type.
    pub first_index: usize,
}

impl DuplicateConditionType {
    /// The error the apiserver reports for the repeat in a list-map keyed
    /// by `type` at `path` (`status.conditions`): `Duplicate value:
    /// {"type":"Ready"}` at `status.conditions[i]`.
    pub fn to_field_error(&self, path: &FieldPath<'_>) -> FieldError {
        FieldError::duplicate(
            &path.index(self.index),
            serde_json::json!({ "type": self.condition_type }),
        )
    }
}

impl fmt::Display for DuplicateConditionType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "duplicate condition type {} at index {} (first at index {}): condition types must be unique",
            go_quote(&self.condition_type),
            self.index,
            self.first_index
        )
    }
}

impl std::error::Error for DuplicateConditionType {}

/// Up to this many conditions, duplicates are found by comparing pairs;
/// above it, with a hash map (lists from untrusted input can be long).
const PAIRWISE_MAX: usize = 16;

/// Every condition whose type appeared earlier in `items`, as
/// `(index, first index)`, in order.
fn duplicates(items: &[Condition]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    if items.len() <= PAIRWISE_MAX {
        for (i, c) in items.iter().enumerate() {
            if let Some(first) = items[..i].iter().position(|p| p.type_ == c.type_) {
                found.push((i, first));
            }
        }
    } else {
        let mut first: HashMap<&str, usize> = HashMap::with_capacity(items.len());
        for (i, c) in items.iter().enumerate() {
            if let Some(&f) = first.get(c.type_.as_str()) {
                found.push((i, f));
            } else {
                first.insert(&c.type_, i);
            }
        }
    }
    found
}

impl Conditions {
    /// No conditions.
    pub const fn new() -> Self {
        Conditions(Vec::new())
    }

    /// The conditions of `list`, in order; an error at the first type that
    /// repeats.
    pub fn from_vec(list: Vec<Condition>) -> Result<Self, DuplicateConditionType> {
        match duplicates(&list).first() {
            None => Ok(Conditions(list)),
            Some(&(index, first_index)) => Err(DuplicateConditionType {
                condition_type: list[index].type_.clone(),
                index,
                first_index,
            }),
        }
    }

    /// The conditions as a list, in order.
    pub fn into_vec(self) -> Vec<Condition> {
        self.0
    }

    /// The conditions as a slice, in order.
    pub fn as_slice(&self) -> &[Condition] {
        &self.0
    }

    /// Whether there are no conditions.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many conditions there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The conditions, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Condition> {
        self.0.iter()
    }

    fn position(&self, condition_type: &str) -> Option<usize> {
        self.0.iter().position(|c| c.type_ == condition_type)
    }

    /// The condition of type `condition_type` (Go's `FindStatusCondition`).
    pub fn get(&self, condition_type: impl ConditionType) -> Option<&Condition> {
        let t = condition_type.as_condition_type();
        self.0.iter().find(|c| c.type_ == t)
    }

    /// The condition of type `condition_type`, to change in place. Prefer
    /// [`set`](Conditions::set), which keeps `lastTransitionTime` right.
    pub fn get_mut(&mut self, condition_type: impl ConditionType) -> Option<&mut Condition> {
        let t = condition_type.as_condition_type();
        self.0.iter_mut().find(|c| c.type_ == t)
    }

    /// Whether there is a condition of type `condition_type`.
    pub fn contains(&self, condition_type: impl ConditionType) -> bool {
        self.get(condition_type).is_some()
    }

    /// The status of the condition of type `condition_type`, if present.
    pub fn status(&self, condition_type: impl ConditionType) -> Option<ConditionStatus> {
        self.get(condition_type).map(|c| c.status)
    }

    /// Whether the condition is present with `status` (Go's
    /// `IsStatusConditionPresentAndEqual`).
    pub fn has_status(&self, condition_type: impl ConditionType, status: ConditionStatus) -> bool {
        self.status(condition_type) == Some(status)
    }

    /// Whether the condition is present and `True` (Go's `IsStatusConditionTrue`).
    pub fn is_true(&self, condition_type: impl ConditionType) -> bool {
        self.has_status(condition_type, ConditionStatus::True)
    }

    /// Whether the condition is present and `False` (Go's `IsStatusConditionFalse`).
    pub fn is_false(&self, condition_type: impl ConditionType) -> bool {
        self.has_status(condition_type, ConditionStatus::False)
    }

    /// Whether the condition is `Unknown` or absent: the API conventions
    /// say an absent condition is to be read as `Unknown`.
    pub fn is_unknown(&self, condition_type: impl ConditionType) -> bool {
        matches!(
            self.status(condition_type),
            None | Some(ConditionStatus::Unknown)
        )
    }

    /// Removes the condition of type `condition_type`; returns whether
    /// there was one (Go's `RemoveStatusCondition`, which removes every
    /// condition of that type).
    pub fn remove(&mut self, condition_type: impl ConditionType) -> bool {
        let t = condition_type.as_condition_type();
        let before = self.0.len();
        self.0.retain(|c| c.type_ != t);
        self.0.len() != before
    }

    /// Sets `condition`, with the current time as "now"; returns whether
    /// anything changed. See [`set_with_clock`](Conditions::set_with_clock).
    pub fn set(&mut self, condition: Condition) -> bool {
        self.set_with_clock(condition, Time::now())
    }

    /// Sets `condition` with Go's `SetStatusCondition` semantics, taking
    /// `now` as the current time; returns whether anything changed.
    ///
    /// - A condition of a new type is appended. Its `lastTransitionTime` is
    ///   kept if set, else it becomes `now`.
    /// - For an existing type, when the status differs, the status is
    ///   updated and `lastTransitionTime` becomes the given one if set, else
    ///   `now`. When the status is the same, `lastTransitionTime` is kept,
    ///   even if `condition` carries another one.
    /// - `reason`, `message` and `observedGeneration` are each updated when
    ///   they differ, independently of the status.
    pub fn set_with_clock(&mut self, condition: Condition, now: Time) -> bool {
        let Some(i) = self.position(&condition.type_) else {
            let mut condition = condition;
            if !condition.has_transition_time() {
                condition.last_transition_time = now;
            }
            self.0.push(condition);
            return true;
        };
        let has_time = condition.has_transition_time();
        let Condition {
            status,
            observed_generation,
            last_transition_time,
            reason,
            message,
            ..
        } = condition;
        let existing = &mut self.0[i];
        let mut changed = false;
        if existing.status != status {
            existing.status = status;
            existing.last_transition_time = if has_time { last_transition_time } else { now };
            changed = true;
        }
        if existing.reason != reason {
            existing.reason = reason;
            changed = true;
        }
        if existing.message != message {
            existing.message = message;
            changed = true;
        }
        if existing.observed_generation != observed_generation {
            existing.observed_generation = observed_generation;
            changed = true;
        }
        changed
    }
}

/// Conditions as given, keyed by type: a later condition of a type
/// replaces an earlier one in its place. No time is filled in (unlike
/// [`Conditions::set`]), so a `#[kube(default = ...)]` is the same value
/// every time: `Conditions::from_iter([Condition::new(...)
/// .with_last_transition_time(...)])`.
impl FromIterator<Condition> for Conditions {
    fn from_iter<I: IntoIterator<Item = Condition>>(iter: I) -> Self {
        let mut conditions = Conditions::new();
        for condition in iter {
            match conditions.position(&condition.type_) {
                Some(i) => conditions.0[i] = condition,
                None => conditions.0.push(condition),
            }
        }
        conditions
    }
}

impl TryFrom<Vec<Condition>> for Conditions {
    type Error = DuplicateConditionType;
    fn try_from(list: Vec<Condition>) -> Result<Self, Self::Error> {
        Conditions::from_vec(list)
    }
}

impl From<Conditions> for Vec<Condition> {
    fn from(c: Conditions) -> Self {
        c.0
    }
}

impl IntoIterator for Conditions {
    type Item = Condition;
    type IntoIter = std::vec::IntoIter<Condition>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Conditions {
    type Item = &'a Condition;
    type IntoIter = std::slice::Iter<'a, Condition>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl Serialize for Conditions {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Conditions {
    /// A list of conditions (`null` is an empty one, as in Go); a repeated
    /// type is an error.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let list = Option::<Vec<Condition>>::deserialize(deserializer)?.unwrap_or_default();
        Conditions::from_vec(list).map_err(de::Error::custom)
    }
}

// ---------------------------------------------------------------------------
// Validation: apimachinery's ValidateConditions / ValidateCondition
// (pkg/apis/meta/v1/validation/validation.go).

const MAX_REASON_LEN: usize = 1024;
const MAX_MESSAGE_LEN: usize = 32 * 1024;
const CONDITION_REASON_FMT: &str = "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?";
const CONDITION_REASON_ERR_MSG: &str = "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";

static CONDITION_REASON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!("^{CONDITION_REASON_FMT}$"))
        .unwrap_or_else(|e| unreachable!("bad built-in regex: {e}"))
});

/// `ValidateCondition`: the checks of one condition, below `path`
/// (`status.conditions[0]`).
fn validate_condition(c: &Condition, path: &FieldPath<'_>, errors: &mut ErrorList) {
    errors.extend(validate_label_name(&c.type_, &path.child("type")));
    // `status` is a ConditionStatus: it is always one of the supported
    // values (anything else fails to decode with the NotSupported wording).
    if let Some(generation) = c.observed_generation
        && generation < 0
    {
        errors.push(FieldError::invalid(
            &path.child("observedGeneration"),
            generation,
            "must be greater than or equal to zero",
        ));
    }
    if !c.has_transition_time() {
        errors.push(FieldError::required(
            &path.child("lastTransitionTime"),
            "must be set",
        ));
    }
    let reason = path.child("reason");
    if c.reason.is_empty() {
        errors.push(FieldError::required(&reason, "must be set"));
    } else {
        if !CONDITION_REASON.is_match(&c.reason) {
            errors.push(FieldError::invalid(
                &reason,
                c.reason.as_str(),
                regex_error(
                    CONDITION_REASON_ERR_MSG,
                    CONDITION_REASON_FMT,
                    &[
                        "my_name",
                        "MY_NAME",
                        "MyName",
                        "ReasonA,ReasonB",
                        "ReasonA:ReasonB",
                    ],
                ),
            ));
        }
        if c.reason.len() > MAX_REASON_LEN {
            errors.push(FieldError::too_long(&reason, MAX_REASON_LEN as i64));
        }
    }
    if c.message.len() > MAX_MESSAGE_LEN {
        errors.push(FieldError::too_long(
            &path.child("message"),
            MAX_MESSAGE_LEN as i64,
        ));
    }
}

// ---------------------------------------------------------------------------
// Schemas: metav1.Condition as controller-gen writes it.

const TYPE_PATTERN: &str = r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$";
const REASON_PATTERN: &str = "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$";

fn status_schema() -> Schema {
    json_schema!({ "type": "string", "enum": ["True", "False", "Unknown"] })
}

fn condition_schema() -> Schema {
    json_schema!({
        "description": "Condition contains details for one aspect of the current state of this API Resource.",
        "type": "object",
        "properties": {
            "lastTransitionTime": {
                "description": "lastTransitionTime is the last time the condition transitioned from one status to another.\nThis should be when the underlying condition changed.  If that is not known, then using the time when the API field changed is acceptable.",
                "type": "string",
                "format": "date-time"
            },
            "message": {
                "description": "message is a human readable message indicating details about the transition.\nThis may be an empty string.",
                "type": "string",
                "maxLength": 32768
            },
            "observedGeneration": {
                "description": "observedGeneration represents the .metadata.generation that the condition was set based upon.\nFor instance, if .metadata.generation is currently 12, but the .status.conditions[x].observedGeneration is 9, the condition is out of date\nwith respect to the current state of the instance.",
                "type": "integer",
                "format": "int64",
                "minimum": 0
            },
            "reason": {
                "description": "reason contains a programmatic identifier indicating the reason for the condition's last transition.\nProducers of specific condition types may define expected values and meanings for this field,\nand whether the values are considered a guaranteed API.\nThe value should be a CamelCase string.\nThis field may not be empty.",
                "type": "string",
                "minLength": 1,
                "maxLength": 1024,
                "pattern": REASON_PATTERN
            },
            "status": {
                "description": "status of the condition, one of True, False, Unknown.",
                "type": "string",
                "enum": ["True", "False", "Unknown"]
            },
            "type": {
                "description": "type of condition in CamelCase or in foo.example.com/CamelCase.",
                "type": "string",
                "maxLength": 316,
                "pattern": TYPE_PATTERN
            }
        },
        "required": ["lastTransitionTime", "message", "reason", "status", "type"]
    })
}

fn conditions_schema() -> Schema {
    let items = condition_schema();
    json_schema!({
        "type": "array",
        "items": items,
        "x-kubernetes-list-type": "map",
        "x-kubernetes-list-map-keys": ["type"]
    })
}

impl JsonSchema for ConditionStatus {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("ConditionStatus")
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        status_schema()
    }
}

impl JsonSchema for Condition {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Condition")
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        condition_schema()
    }
}

impl JsonSchema for Conditions {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Conditions")
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        conditions_schema()
    }
}

// ---------------------------------------------------------------------------
// ApiType.

const CONDITION_FIELDS: &[FieldFacts] = &[
    FieldFacts::new("type", <String as ApiType>::FACTS, true),
    FieldFacts::new("status", <ConditionStatus as ApiType>::FACTS, true),
    FieldFacts::new("observedGeneration", <i64 as ApiType>::FACTS, false),
    FieldFacts::new("lastTransitionTime", <Time as ApiType>::FACTS, true),
    FieldFacts::new("reason", <String as ApiType>::FACTS, true),
    FieldFacts::new("message", <String as ApiType>::FACTS, true),
];

impl ApiType for ConditionStatus {
    const FACTS: &'static TypeFacts = &TypeFacts::scalar(Kind::String, 0);

    fn api_schema(_: &mut SchemaGenerator) -> Schema {
        status_schema()
    }
}

impl ApiType for Condition {
    const FACTS: &'static TypeFacts = &TypeFacts::object(CONDITION_FIELDS, 0);

    /// `ValidateCondition`: `type` a qualified name, `observedGeneration`
    /// not negative, `lastTransitionTime` set, `reason` set, matching the
    /// reason pattern and at most 1024 bytes, `message` at most 32768 bytes.
    fn validate(&self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        validate_condition(self, path, errors);
    }

    fn api_schema(_: &mut SchemaGenerator) -> Schema {
        condition_schema()
    }
}

impl ApiType for Conditions {
    const FACTS: &'static TypeFacts =
        &TypeFacts::array(<Condition as ApiType>::FACTS, facts::CONDITIONS);

    /// `ValidateConditions`: for each condition, in order, a `Duplicate` at
    /// `path[i].type` when its type appeared before, then the checks of
    /// [`Condition`]'s `validate` at `path[i]`.
    fn validate(&self, path: &FieldPath<'_>, errors: &mut ErrorList) {
        let dups = duplicates(&self.0);
        let mut dups = dups.iter().peekable();
        for (i, c) in self.0.iter().enumerate() {
            let item = path.index(i);
            if dups.next_if(|(d, _)| *d == i).is_some() {
                errors.push(FieldError::duplicate(&item.child("type"), c.type_.as_str()));
            }
            validate_condition(c, &item, errors);
        }
    }

    fn api_schema(_: &mut SchemaGenerator) -> Schema {
        conditions_schema()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_time_is_go_zero() {
        assert_eq!(Condition::zero_time().to_string(), "0001-01-01T00:00:00Z");
        let c = Condition::new("Ready", ConditionStatus::True, "R", "");
        assert!(!c.has_transition_time());
        let v = serde_json::to_value(&c).unwrap();
        assert_eq!(v["lastTransitionTime"], serde_json::Value::Null);
        let back: Condition = serde_json::from_value(v).unwrap();
        assert_eq!(back, c);
    }

    #[test]
    fn facts_are_an_array_of_six_fields() {
        const F: &TypeFacts = <Conditions as ApiType>::FACTS;
        assert_eq!(F.kind, Kind::Array);
        assert_eq!(F.flags & facts::CONDITIONS, facts::CONDITIONS);
        let item = F.item.unwrap();
        assert_eq!(item.kind, Kind::Object);
        let names: Vec<_> = item.fields.iter().map(|f| f.name).collect();
        assert_eq!(
            names,
            [
                "type",
                "status",
                "observedGeneration",
                "lastTransitionTime",
                "reason",
                "message"
            ]
        );
    }

    #[test]
    fn duplicates_agree_pairwise_and_hashed() {
        let mk = |t: &str| Condition::new(t, ConditionStatus::True, "R", "");
        for n in [3usize, 40] {
            let mut list: Vec<Condition> = (0..n).map(|i| mk(&format!("T{i}"))).collect();
            list.push(mk("T1"));
            list.push(mk("T2"));
            list.push(mk("T1"));
            assert_eq!(duplicates(&list), vec![(n, 1), (n + 1, 2), (n + 2, 1)]);
        }
    }
}
