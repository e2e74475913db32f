//! Runtime checks of the schema keywords an attribute declares
//! (`minimum`, `max_length`, `pattern`, ...), with the apiserver's error
//! types and wording for custom resources ("spec.size in body should be
//! greater than or equal to 1"). Generated `validate()` code calls these.

use regex::Regex;
use serde::Serialize;
use serde_json::Value;

use crate::__private::{Keywords, Num};
use crate::go_regex;
use crate::validation::{ErrorList, FieldError, FieldPath};

/// The largest integer every JSON reader keeps exactly (2^53 − 1).
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

fn num(n: Num) -> f64 {
    match n {
        Num::Int(i) => i as f64,
        Num::Float(f) => f,
    }
}

fn show(n: Num) -> String {
    match n {
        Num::Int(i) => i.to_string(),
        Num::Float(f) => f.to_string(),
    }
}

/// `minimum`, `maximum` (exclusive too), `multipleOf` and an integer `enum` of a number;
/// `shown` renders the value for an error message, only when there is one.
pub fn number(
    value: f64,
    shown: impl Fn() -> Value,
    kw: &Keywords,
    path: &FieldPath<'_>,
    errors: &mut ErrorList,
) {
    if let Some(min) = kw.minimum {
        let (bad, rel) = if kw.exclusive_minimum {
            (value <= num(min), "greater than")
        } else {
            (value < num(min), "greater than or equal to")
        };
        if bad {
            errors.push(FieldError::invalid(
                path,
                shown(),
                format!("{path} in body should be {rel} {}", show(min)),
            ));
        }
    }
    if let Some(max) = kw.maximum {
        let (bad, rel) = if kw.exclusive_maximum {
            (value >= num(max), "less than")
        } else {
            (value > num(max), "less than or equal to")
        };
        if bad {
            errors.push(FieldError::invalid(
                path,
                shown(),
                format!("{path} in body should be {rel} {}", show(max)),
            ));
        }
    }
    if let Some(m) = kw.multiple_of {
        let m = num(m);
        if m > 0.0 && (value / m).fract() != 0.0 {
            errors.push(FieldError::invalid(
                path,
                shown(),
                format!("{path} in body should be a multiple of {m}"),
            ));
        }
    }
    if !kw.int_enum_values.is_empty() && !kw.int_enum_values.iter().any(|&i| i as f64 == value) {
        let supported: Vec<String> = kw.int_enum_values.iter().map(i64::to_string).collect();
        errors.push(FieldError::not_supported(path, shown(), &supported));
    }
}

/// Integers beyond ±(2^53 − 1) do not survive JSON in every language.
pub fn safe_integer(value: i64, path: &FieldPath<'_>, errors: &mut ErrorList) {
    if !(-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&value) {
        errors.push(FieldError::invalid(
            path,
            value,
            "must be between -(2^53-1) and 2^53-1: larger integers do not survive JSON in every language",
        ));
    }
}

/// The regex of `pattern`, compiled once into `cell` (a `static` where the
/// pattern is declared, so that matching takes no lock). One non-generic
/// function for every pattern, so each declaration adds a static, not a
/// new `OnceLock` initialiser. The pattern is Go's (RE2), compiled as
/// schema validation and CEL compile it (the Perl classes `\d`, `\w`, `\s`
/// and `\b` are ASCII, ...), through their cache. `None` when this build
/// cannot match it (the derive checks patterns at compile time): values
/// are then not checked against it.
pub fn cached_go_regex(
    cell: &'static std::sync::OnceLock<Option<Regex>>,
    pattern: &'static str,
) -> Option<&'static Regex> {
    cell.get_or_init(|| go_regex::compile(pattern).ok().map(|re| Regex::clone(&re)))
        .as_ref()
}

/// `minLength`, `maxLength` (in characters), `pattern` and `enum` of a string.
pub fn string(value: &str, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
    if kw.min_length.is_some() || kw.max_length.is_some() {
        let len = value.chars().count() as i64;
        if let Some(min) = kw.min_length
            && len < min
        {
            errors.push(FieldError::invalid(
                path,
                value,
                format!("{path} in body should be at least {min} chars long"),
            ));
        }
        if let Some(max) = kw.max_length
            && len > max
        {
            errors.push(FieldError::too_long(path, max));
        }
    }
    if let Some(pattern) = kw.pattern
        && !matches_pattern(pattern, kw.regex, value)
    {
        errors.push(FieldError::invalid(
            path,
            value,
            format!("{path} in body should match '{pattern}'"),
        ));
    }
    if !kw.enum_values.is_empty() && !kw.enum_values.contains(&value) {
        errors.push(FieldError::not_supported(path, value, kw.enum_values));
    }
}

/// Whether `value` matches `pattern`, compiled by `compiled` (generated
/// code) or else from the shared cache; `true` when it cannot be matched.
fn matches_pattern(
    pattern: &str,
    compiled: Option<fn() -> Option<&'static Regex>>,
    value: &str,
) -> bool {
    match compiled {
        Some(compiled) => compiled().is_none_or(|re| re.is_match(value)),
        None => go_regex::compile(pattern)
            .ok()
            .is_none_or(|re| re.is_match(value)),
    }
}

/// `minItems`, `maxItems`.
pub fn items(len: usize, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
    let len = len as i64;
    if let Some(min) = kw.min_items
        && len < min
    {
        errors.push(FieldError::too_few(path, len, min));
    }
    if let Some(max) = kw.max_items
        && len > max
    {
        errors.push(FieldError::too_many(path, len, max));
    }
}

/// `minProperties`, `maxProperties`.
pub fn properties(len: usize, kw: &Keywords, path: &FieldPath<'_>, errors: &mut ErrorList) {
    let len = len as i64;
    if let Some(min) = kw.min_properties
        && len < min
    {
        errors.push(FieldError::invalid(
            path,
            len,
            format!("{path} in body should have at least {min} properties"),
        ));
    }
    if let Some(max) = kw.max_properties
        && len > max
    {
        errors.push(FieldError::too_many(path, len, max));
    }
}

/// The items of a list field, whether it is a `Vec` or an optional one.
pub trait Items {
    /// The item type.
    type Item;
    /// The items, empty when unset.
    fn items(&self) -> &[Self::Item];
}

impl<T> Items for Vec<T> {
    type Item = T;
    fn items(&self) -> &[T] {
        self
    }
}

impl<T> Items for Option<Vec<T>> {
    type Item = T;
    fn items(&self) -> &[T] {
        self.as_deref().unwrap_or_default()
    }
}

impl<T: Items> Items for &T {
    type Item = T::Item;
    fn items(&self) -> &[T::Item] {
        (**self).items()
    }
}

/// `x-kubernetes-list-type: map`: the items' key tuples are unique; a
/// repeat is a `Duplicate` at the item, with its keys as the value.
pub fn list_map<T: crate::ApiType>(
    items: &[T],
    keys: &[&str],
    path: &FieldPath<'_>,
    errors: &mut ErrorList,
) {
    // Only the key lookup depends on `T`; the rest is compiled once.
    list_map_by(
        items.len(),
        keys,
        &|i, k| items[i].field_json(k),
        path,
        errors,
    );
}

/// [`list_map`] over `len` items whose key `k` of item `i` is `key(i, k)`.
pub(crate) fn list_map_by(
    len: usize,
    keys: &[&str],
    key: &dyn Fn(usize, &str) -> Option<Value>,
    path: &FieldPath<'_>,
    errors: &mut ErrorList,
) {
    if len < 2 {
        return;
    }
    let mut seen: Vec<Vec<Option<Value>>> = Vec::with_capacity(len);
    for i in 0..len {
        let tuple: Vec<Option<Value>> = keys.iter().map(|k| key(i, k)).collect();
        if seen.contains(&tuple) {
            let shown: serde_json::Map<String, Value> = keys
                .iter()
                .zip(&tuple)
                .filter_map(|(k, v)| v.clone().map(|v| ((*k).to_string(), v)))
                .collect();
            errors.push(FieldError::duplicate(&path.index(i), Value::Object(shown)));
        } else {
            seen.push(tuple);
        }
    }
}

/// `x-kubernetes-list-type: set`: items are unique.
pub fn list_set<T: Serialize>(items: &[T], path: &FieldPath<'_>, errors: &mut ErrorList) {
    if items.len() < 2 {
        return;
    }
    let mut seen: Vec<Value> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Ok(v) = serde_json::to_value(item) else {
            continue;
        };
        if seen.contains(&v) {
            errors.push(FieldError::duplicate(&path.index(i), v));
        } else {
            seen.push(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Typed `pattern`s are Go's: `\d` is ASCII, whether the regex comes
    /// from generated code or from the shared cache.
    #[test]
    fn patterns_are_go_s() {
        static RE: std::sync::OnceLock<Option<Regex>> = std::sync::OnceLock::new();
        let re = cached_go_regex(&RE, r"^\d+$").unwrap();
        assert!(re.is_match("123"));
        assert!(!re.is_match("١٢٣"));
        static BAD: std::sync::OnceLock<Option<Regex>> = std::sync::OnceLock::new();
        assert!(cached_go_regex(&BAD, "(").is_none());
        let kw = Keywords {
            pattern: Some(r"^\d+$"),
            ..Keywords::NONE
        };
        for (value, ok) in [("123", true), ("１２", false), ("١٢٣", false)] {
            let mut errors = ErrorList::new();
            string(value, &kw, &FieldPath::new("spec"), &mut errors);
            assert_eq!(errors.is_empty(), ok, "{value}");
        }
    }

    /// One keyword of api-keywords' table set to a value that `violation`
    /// breaks. A row without a case here fails the tests below: a new
    /// keyword needs its `Keywords` field, its schema output and (unless
    /// its check is `None`) its run-time check.
    fn sample(k: &api_keywords::Keyword) -> Keywords {
        use api_keywords as kw;
        let none = Keywords::NONE;
        match k.fact {
            f if f == kw::MINIMUM.fact => Keywords {
                minimum: Some(Num::Int(2)),
                ..none
            },
            f if f == kw::MAXIMUM.fact => Keywords {
                maximum: Some(Num::Int(0)),
                ..none
            },
            f if f == kw::MULTIPLE_OF.fact => Keywords {
                multiple_of: Some(Num::Int(3)),
                ..none
            },
            f if f == kw::MIN_LENGTH.fact => Keywords {
                min_length: Some(5),
                ..none
            },
            f if f == kw::MAX_LENGTH.fact => Keywords {
                max_length: Some(1),
                ..none
            },
            f if f == kw::PATTERN.fact => Keywords {
                pattern: Some("^[0-9]+$"),
                ..none
            },
            f if f == kw::FORMAT.fact => Keywords {
                format: Some("int32"),
                ..none
            },
            f if f == kw::MIN_ITEMS.fact => Keywords {
                min_items: Some(3),
                ..none
            },
            f if f == kw::MAX_ITEMS.fact => Keywords {
                max_items: Some(1),
                ..none
            },
            f if f == kw::MIN_PROPERTIES.fact => Keywords {
                min_properties: Some(3),
                ..none
            },
            f if f == kw::MAX_PROPERTIES.fact => Keywords {
                max_properties: Some(1),
                ..none
            },
            f if f == kw::ENUM.fact => Keywords {
                enum_values: &["a", "b"],
                ..none
            },
            // `example` is written by `set_example`, not through `Keywords`.
            f if f == kw::EXAMPLE.fact => none,
            other => panic!("no sample for keyword {other}: add one"),
        }
    }

    /// Every row's schema keywords are what the schema gets (both names of
    /// a bound: the exclusive form is written with the bound).
    #[test]
    fn keyword_rows_write_their_schema_keywords() {
        for k in api_keywords::TABLE {
            let mut schema = schemars::json_schema!({ "type": "string", "items": {} });
            let mut set = sample(k);
            set.exclusive_minimum = set.minimum.is_some();
            set.exclusive_maximum = set.maximum.is_some();
            crate::__private::apply(&mut schema, &set);
            if k.fact == api_keywords::EXAMPLE.fact {
                crate::__private::set_example(&mut schema, &1);
            }
            for name in k.schema {
                assert!(
                    schema.get(*name).is_some(),
                    "{}: `{name}` not written: {schema:?}",
                    k.fact
                );
            }
        }
    }

    /// Every row checked at run time is enforced by the check the table
    /// names, with one error for a breaking value; rows checked elsewhere
    /// or not at all produce none here.
    #[test]
    fn keyword_rows_are_checked_at_run_time() {
        use api_keywords::Check;
        let spec = FieldPath::new("spec");
        let path = spec.child("x");
        for k in api_keywords::TABLE {
            let set = sample(k);
            let mut errors = ErrorList::default();
            match k.check {
                Check::Number => number(1.0, || Value::from(1), &set, &path, &mut errors),
                Check::String => string("abc", &set, &path, &mut errors),
                Check::Items => items(2, &set, &path, &mut errors),
                Check::Properties => properties(2, &set, &path, &mut errors),
                Check::None => {
                    number(1.0, || Value::from(1), &set, &path, &mut errors);
                    string("abc", &set, &path, &mut errors);
                    items(2, &set, &path, &mut errors);
                    properties(2, &set, &path, &mut errors);
                    assert!(errors.is_empty(), "{}: {errors:?}", k.fact);
                    continue;
                }
            }
            assert_eq!(errors.len(), 1, "{}: {errors:?}", k.fact);
        }
    }
}
