//! Decoding an object the way the apiserver does: JSON in, a typed object
//! (defaulted and validated) or a `Status` out.
//!
//! ```
//! use api_core::decode::{decode, DecodeOptions};
//! # use api_core::prelude::*;
//! # use serde::{Deserialize, Serialize};
//! # /// Spec.
//! # #[derive(KubeResource, Serialize, Deserialize, Clone, Debug)]
//! # #[kube(group = "example.com", version = "v1", kind = "Widget")]
//! # pub struct WidgetSpec {
//! #     /// size.
//! #     #[kube(minimum = 1)]
//! #     #[default(1)]
//! #     #[serde(default, skip_serializing_if = "Option::is_none")]
//! #     pub size: Option<i32>,
//! # }
//! let ok = decode::<Widget>(br#"{"metadata": {"name": "w"}, "spec": {}, "extra": 1}"#, &DecodeOptions::default()).unwrap();
//! assert_eq!(ok.object.spec.size, Some(1)); // defaulted
//! assert_eq!(ok.warnings, [r#"unknown field "extra""#]);
//!
//! let bad = decode::<Widget>(br#"{"spec": {"size": 0}}"#, &DecodeOptions::default()).unwrap_err();
//! assert_eq!(bad.code, 422);
//! assert_eq!(bad.message, "Widget.example.com \"\" is invalid: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1");
//! ```

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{LazyLock, Mutex};

use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::api_type::ApiType;
use crate::facts;
use crate::resource::Resource;
use crate::schema::defaulting;
use crate::schema::structural::CompiledSchema;
use crate::status::{GroupKind, Status};
use crate::validation::{ErrorList, ErrorType, FieldPath};

/// The apiserver's `fieldValidation` query parameter: what to do with
/// unknown and duplicate fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FieldValidation {
    /// Drop them silently (the fastest).
    Ignore,
    /// Drop them with a warning each (the apiserver's default).
    #[default]
    Warn,
    /// Reject the request (400 `BadRequest`).
    Strict,
}

/// How [`decode`] treats what it does not know.
#[derive(Clone, Debug)]
pub struct DecodeOptions {
    /// Unknown and duplicate fields: ignored, warned about, or errors.
    pub field_validation: FieldValidation,
    /// Apply static defaults (`apply_defaults()`) after decoding.
    pub apply_defaults: bool,
    /// Validate after defaulting; problems are a 422 `Invalid`.
    pub validate: bool,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            field_validation: FieldValidation::Warn,
            apply_defaults: true,
            validate: true,
        }
    }
}

impl DecodeOptions {
    /// Strict field validation: unknown or duplicate fields are errors.
    pub fn strict() -> Self {
        DecodeOptions {
            field_validation: FieldValidation::Strict,
            ..Self::default()
        }
    }
}

/// A decoded object and the warnings the apiserver would return with it
/// (as `Warning` headers).
#[derive(Clone, Debug)]
pub struct Decoded<K> {
    /// The object, defaulted (unless switched off).
    pub object: K,
    /// `unknown field "spec.foo"`, `duplicate field "spec.bar"`.
    pub warnings: Vec<String>,
}

/// Decodes `bytes` into `K` as the apiserver would: malformed JSON or a
/// wrong `apiVersion`/`kind` is a 400 `BadRequest` (with line and column);
/// unknown fields and duplicate keys are dropped with a warning each (or
/// silently, or a 400, per [`FieldValidation`]); then static defaults; then
/// validation (with feature `cel`, the schema's rules too), every problem
/// at once in a 422 `Invalid`.
pub fn decode<K>(bytes: &[u8], options: &DecodeOptions) -> Result<Decoded<K>, Status>
where
    K: Resource + ApiType + DeserializeOwned + serde::Serialize,
{
    if let Some(status) = nested_too_deep(bytes, K::KIND) {
        return Err(status);
    }
    let check = options.field_validation != FieldValidation::Ignore;
    let duplicates = if check {
        duplicate_keys(bytes)
    } else {
        Vec::new()
    };
    let mut unknown = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let decoded: Result<K, _> = if check {
        serde_ignored::deserialize(&mut de, |path| unknown.push(render(&path)))
    } else {
        K::deserialize(&mut de)
    };
    let mut object = match decoded.and_then(|o| de.end().map(|()| o)) {
        Ok(o) => o,
        Err(e) => return Err(undecodable::<K>(bytes, &e)),
    };
    let mut warnings: Vec<String> = duplicates
        .into_iter()
        .map(|p| format!("duplicate field {p:?}"))
        .collect();
    warnings.extend(unknown.into_iter().map(|p| format!("unknown field {p:?}")));
    if options.field_validation == FieldValidation::Strict && !warnings.is_empty() {
        return Err(strict_error(&warnings));
    }
    if options.apply_defaults {
        object.apply_defaults();
    }
    if options.validate {
        let mut errors = ErrorList::new();
        if K::FACTS.deep_flags & facts::LENIENT_DECODE != 0 {
            missing_required::<K>(bytes, &mut errors);
        }
        object.validate(&FieldPath::new(""), &mut errors);
        #[cfg(feature = "cel")]
        crate::cel::validate_into(&object, None, &mut errors);
        if !errors.is_empty() {
            let name = object.metadata().name.clone();
            return Err(Status::invalid(
                GroupKind::new(K::GROUP, K::KIND),
                &name,
                &errors,
            ));
        }
    }
    Ok(Decoded { object, warnings })
}

/// The deepest nesting of arrays and objects the apiserver's JSON decoder
/// reads (`maxNestingDepth` of the encoding/json fork it uses).
pub const MAX_NESTING_DEPTH: usize = 10_000;

/// The bracket that opens level `max + 1` of nesting in the JSON text
/// `bytes`, if any: checked on the raw text, so that a value nested that
/// deep is refused wherever it is (under an unknown field too, which a
/// typed decode would skip without looking), in one pass and without
/// recursion.
fn too_deep(bytes: &[u8], max: usize) -> Option<u8> {
    // Each level takes a byte: a shorter text cannot be that deep (and
    // most bodies are far shorter than 10,000 bytes, so skip the scan).
    if bytes.len() <= max {
        return None;
    }
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in bytes {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return Some(b);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// The 400 for a body (of a `kind`) nested deeper than
/// [`MAX_NESTING_DEPTH`], if it is.
pub(crate) fn nested_too_deep(bytes: &[u8], kind: &str) -> Option<Status> {
    too_deep(bytes, MAX_NESTING_DEPTH).map(|c| {
        Status::bad_request(format!(
            "the request body could not be decoded as a {kind}: invalid character '{}' exceeded max depth",
            char::from(c)
        ))
    })
}

/// The 400 of a `Strict` request with unknown or duplicate fields.
pub(crate) fn strict_error(warnings: &[String]) -> Status {
    Status::bad_request(format!("strict decoding error: {}", warnings.join(", ")))
}

/// `value` as a `K`, and a warning per unknown field on the way
/// (`unknown field "spec.foo"`), for objects built in memory (a patched
/// object), where duplicate keys cannot occur.
pub(crate) fn from_value_with_unknown<K: DeserializeOwned>(
    value: &serde_json::Value,
) -> Result<(K, Vec<String>), serde_json::Error> {
    let mut unknown = Vec::new();
    let object = serde_ignored::deserialize(value, |path| unknown.push(render(&path)))?;
    let warnings = unknown
        .into_iter()
        .map(|p| format!("unknown field {p:?}"))
        .collect();
    Ok((object, warnings))
}

/// The error for a body serde could not decode into `K`. Malformed JSON
/// is a 400 `BadRequest`. Well-formed JSON that does not fit the type (a
/// missing required field, a string where a number goes) is what the
/// apiserver finds by validating against the schema: a 422 `Invalid` with
/// every cause at its field path (`spec.selector: Required value`). Only
/// what the schema does not explain stays a 400 with serde's message.
fn undecodable<K: Resource + ApiType>(bytes: &[u8], e: &serde_json::Error) -> Status {
    if e.is_data()
        && let Ok(json) = serde_json::from_slice(bytes)
        && let Some(invalid) = schema_invalid::<K>(json)
    {
        return invalid;
    }
    Status::bad_request(format!(
        "the request body could not be decoded as a {}: {e}",
        K::KIND
    ))
}

/// The apiserver's 422 for a JSON object that `K`'s schema rejects (after
/// dropping the nulls that are neither nullable nor defaulted and applying
/// the schema's defaults, as the apiserver's decoding does first), with
/// every cause; `None` when the schema finds nothing wrong or `json` is not
/// an object (whose kind the apiserver could not even read).
pub(crate) fn schema_invalid<K: Resource + ApiType>(mut json: serde_json::Value) -> Option<Status> {
    if !json.is_object() {
        return None;
    }
    // Another version or kind is the 400 serde reports, as the apiserver
    // rejects it before it validates anything.
    let names = |key: &str, want: &str| {
        json.get(key)
            .and_then(serde_json::Value::as_str)
            .is_some_and(|got| got != want)
    };
    if names("apiVersion", &K::api_version()) || names("kind", K::KIND) {
        return None;
    }
    let schema = root_schema::<K>();
    defaulting::apply_schema_defaults(&mut json, schema.0);
    let errors = schema.1.validate(&json, &FieldPath::new(""));
    if errors.is_empty() {
        return None;
    }
    let name = json
        .pointer("/metadata/name")
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default();
    Some(Status::invalid(
        GroupKind::new(K::GROUP, K::KIND),
        name,
        &errors,
    ))
}

/// The `Required value` errors of the JSON itself, for kinds that embed
/// types whose decoding fills in a missing required field (k8s-openapi's:
/// a container without `name` decodes with an empty one). The apiserver
/// validates the JSON, where the field is absent; so does this, after
/// applying the schema's defaults as the apiserver does first. Other
/// problems are found by the typed validation.
fn missing_required<K: ApiType>(bytes: &[u8], errors: &mut ErrorList) {
    let Ok(mut json) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        return;
    };
    let schema = root_schema::<K>();
    defaulting::default(&mut json, schema.0);
    errors.extend(
        schema
            .1
            .validate(&json, &FieldPath::new(""))
            .into_iter()
            .filter(|e| e.error_type == ErrorType::Required),
    );
}

/// The root schema of `K`, decoded once per type for the rest of the
/// program (one per kind that needs it).
fn root_schema<K: ApiType>() -> &'static (&'static serde_json::Value, CompiledSchema<'static>) {
    type Cache =
        HashMap<&'static str, &'static (&'static serde_json::Value, CompiledSchema<'static>)>;
    static SCHEMAS: LazyLock<Mutex<Cache>> = LazyLock::new(Default::default);
    let mut cache = SCHEMAS.lock().unwrap_or_else(|e| e.into_inner());
    let found: &'static (&'static serde_json::Value, CompiledSchema<'static>) =
        cache.entry(std::any::type_name::<K>()).or_insert_with(|| {
            let schema = K::api_schema(&mut crate::__private::generator()).to_value();
            let schema: &'static serde_json::Value = Box::leak(Box::new(schema));
            Box::leak(Box::new((schema, CompiledSchema::new(schema))))
        });
    found
}

/// `spec.ports[0].foo` from serde_ignored's path.
fn render(path: &serde_ignored::Path<'_>) -> String {
    use serde_ignored::Path;
    match path {
        Path::Root => String::new(),
        Path::Seq { parent, index } => format!("{}[{index}]", render(parent)),
        Path::Map { parent, key } => {
            let p = render(parent);
            if p.is_empty() {
                key.to_string()
            } else {
                format!("{p}.{key}")
            }
        }
        Path::Some { parent }
        | Path::NewtypeStruct { parent }
        | Path::NewtypeVariant { parent } => render(parent),
    }
}

/// The paths of keys that appear twice in one JSON object. Malformed input
/// gives none here: the typed decode reports it.
pub(crate) fn duplicate_keys(bytes: &[u8]) -> Vec<String> {
    // Escaped keys, very deep nesting or malformed input: the serde walk
    // (which unescapes keys) decides.
    scan_duplicates(bytes).unwrap_or_else(|| walk_duplicates(bytes))
}

fn scan_duplicates(bytes: &[u8]) -> Option<Vec<String>> {
    let mut scan = Scan {
        bytes,
        i: 0,
        found: Vec::new(),
    };
    scan.value(None, 0).map(|()| scan.found)
}

fn walk_duplicates(bytes: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let _ = Walk {
        at: None,
        found: &mut found,
    }
    .deserialize(&mut de);
    found
}

/// A byte-level walk of well-formed JSON that finds repeated object keys
/// several times faster than a serde pass. It gives up (`None`) on anything
/// it does not handle exactly: keys with escapes, nesting deeper than
/// serde_json allows, malformed input.
struct Scan<'b> {
    bytes: &'b [u8],
    i: usize,
    found: Vec<String>,
}

impl<'b> Scan<'b> {
    const MAX_DEPTH: usize = 128;

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.i) {
            self.i += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        self.ws();
        (self.bytes.get(self.i) == Some(&byte)).then(|| self.i += 1)
    }

    /// A string starting at `"`; its raw contents, and whether it has escapes.
    fn string(&mut self) -> Option<(&'b [u8], bool)> {
        self.i += 1;
        let start = self.i;
        let mut escaped = false;
        loop {
            let rest = self.bytes.get(self.i..)?;
            self.i += rest
                .iter()
                .position(|&b| b == b'"' || b == b'\\')
                .unwrap_or(rest.len());
            match *self.bytes.get(self.i)? {
                b'"' => {
                    self.i += 1;
                    return Some((&self.bytes[start..self.i - 1], escaped));
                }
                b'\\' => {
                    escaped = true;
                    self.i += 2;
                }
                _ => self.i += 1,
            }
        }
    }

    fn value(&mut self, at: Option<&At<'_>>, depth: usize) -> Option<()> {
        if depth > Self::MAX_DEPTH {
            return None;
        }
        self.ws();
        match *self.bytes.get(self.i)? {
            b'{' => self.object(at, depth),
            b'[' => self.array(at, depth),
            b'"' => self.string().map(drop),
            _ => {
                let start = self.i;
                while let Some(b) = self.bytes.get(self.i) {
                    if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.i += 1;
                }
                (self.i > start).then_some(())
            }
        }
    }

    fn object(&mut self, at: Option<&At<'_>>, depth: usize) -> Option<()> {
        self.i += 1;
        if self.eat(b'}').is_some() {
            return Some(());
        }
        // Most objects have a few keys: a stack array, then a set.
        let mut seen: [&'b [u8]; 16] = [&[]; 16];
        let mut count = 0;
        let mut many: Option<HashSet<&'b [u8]>> = None;
        loop {
            self.ws();
            if self.bytes.get(self.i) != Some(&b'"') {
                return None;
            }
            let (key, escaped) = self.string()?;
            if escaped {
                return None;
            }
            let key_str = std::str::from_utf8(key).ok()?;
            self.eat(b':')?;
            let repeated = match &mut many {
                Some(set) => !set.insert(key),
                None if count < seen.len() => {
                    let r = seen[..count].contains(&key);
                    seen[count] = key;
                    count += 1;
                    r
                }
                None => {
                    let mut set: HashSet<&'b [u8]> = seen.iter().copied().collect();
                    let r = !set.insert(key);
                    many = Some(set);
                    r
                }
            };
            let here = At {
                parent: at,
                seg: Seg::Key(key_str),
            };
            if repeated {
                self.found.push(here.to_string());
            }
            self.value(Some(&here), depth + 1)?;
            if self.eat(b',').is_none() {
                return self.eat(b'}');
            }
        }
    }

    fn array(&mut self, at: Option<&At<'_>>, depth: usize) -> Option<()> {
        self.i += 1;
        if self.eat(b']').is_some() {
            return Some(());
        }
        let mut index = 0;
        loop {
            let here = At {
                parent: at,
                seg: Seg::Index(index),
            };
            self.value(Some(&here), depth + 1)?;
            if self.eat(b',').is_none() {
                return self.eat(b']');
            }
            index += 1;
        }
    }
}

/// Where the walk is: a borrowed chain, rendered only for a duplicate.
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

struct At<'a> {
    parent: Option<&'a At<'a>>,
    seg: Seg<'a>,
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.parent {
            write!(f, "{p}")?;
        }
        match self.seg {
            Seg::Key(k) if self.parent.is_some() => write!(f, ".{k}"),
            Seg::Key(k) => f.write_str(k),
            Seg::Index(i) => write!(f, "[{i}]"),
        }
    }
}

struct Walk<'a, 'p> {
    at: Option<&'a At<'p>>,
    found: &'a mut Vec<String>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_, '_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        loop {
            let at = At {
                parent: self.at,
                seg: Seg::Index(i),
            };
            if seq
                .next_element_seed(Walk {
                    at: Some(&at),
                    found: self.found,
                })?
                .is_none()
            {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen: Vec<Cow<'de, str>> = Vec::new();
        let mut many: Option<HashSet<Cow<'de, str>>> = None;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            let repeated = match &mut many {
                Some(set) => !set.insert(key.clone()),
                None => {
                    let r = seen.contains(&key);
                    seen.push(key.clone());
                    if seen.len() > 16 {
                        many = Some(seen.drain(..).collect());
                    }
                    r
                }
            };
            let at = At {
                parent: self.at,
                seg: Seg::Key(&key),
            };
            if repeated {
                self.found.push(at.to_string());
            }
            map.next_value_seed(Walk {
                at: Some(&at),
                found: self.found,
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{scan_duplicates, too_deep, walk_duplicates};
    use proptest::prelude::*;

    /// JSON text with few distinct keys (so objects repeat them), odd
    /// spacing, strings holding JSON punctuation, and escaped keys.
    fn json() -> impl Strategy<Value = String> {
        let key = prop_oneof![
            Just("a".to_string()),
            Just("b".to_string()),
            Just("c d".to_string()),
            Just("x\\\"y".to_string()),
            Just("{,}".to_string()),
        ];
        let leaf = prop_oneof![
            Just("1".to_string()),
            Just("-2.5e3".to_string()),
            Just("true".to_string()),
            Just("null".to_string()),
            Just("\"s\\\\\"".to_string()),
            Just("\"[1,{\\\"a\\\":2}]\"".to_string()),
        ];
        leaf.prop_recursive(5, 64, 6, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6)
                    .prop_map(|items| format!("[ {} ]", items.join(" ,\n"))),
                prop::collection::vec((key.clone(), inner), 0..6).prop_map(|members| {
                    let members: Vec<String> = members
                        .into_iter()
                        .map(|(k, v)| format!("\"{k}\"\t: {v}"))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }),
            ]
        })
    }

    proptest! {
        /// Where the scanner answers, it agrees with the serde walk; it
        /// declines only for escaped keys.
        #[test]
        fn scanner_agrees_with_the_serde_walk(text in json()) {
            let bytes = text.as_bytes();
            match scan_duplicates(bytes) {
                Some(found) => prop_assert_eq!(found, walk_duplicates(bytes)),
                None => prop_assert!(text.contains("x\\\"y"), "declined {}", text),
            }
        }

        /// Any bytes: no panic, and the cut-off prefixes of valid JSON too.
        #[test]
        fn scanner_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..256), text in json(), cut in 0usize..200) {
            let _ = scan_duplicates(&bytes);
            let cut = cut.min(text.len());
            let _ = scan_duplicates(&text.as_bytes()[..cut]);
        }
    }

    #[test]
    fn duplicates_are_found_with_their_paths() {
        let text = br#"{"metadata":{"labels":{"a":"1","a":"2"}},"spec":{"ports":[{"name":"x","name":"y"}]},"spec":{}}"#;
        assert_eq!(
            scan_duplicates(text).unwrap(),
            ["metadata.labels.a", "spec.ports[0].name", "spec"]
        );
    }

    #[test]
    fn nesting_is_counted_outside_strings() {
        let deep = |n: usize| "[".repeat(n) + &"]".repeat(n);
        assert_eq!(too_deep(deep(10_000).as_bytes(), 10_000), None);
        assert_eq!(too_deep(deep(10_001).as_bytes(), 10_000), Some(b'['));
        // At the length bound: the shortest texts that reach the depth.
        assert_eq!(too_deep("[".repeat(10_000).as_bytes(), 10_000), None);
        assert_eq!(too_deep("{".repeat(10_001).as_bytes(), 10_000), Some(b'{'));
        let text = format!(r#"{{"a":"{}\"[{{","b":[[1]]}}"#, "[".repeat(20));
        assert_eq!(too_deep(text.as_bytes(), 3), None);
        assert_eq!(too_deep(text.as_bytes(), 2), Some(b'['));
    }

    #[test]
    fn deep_nesting_falls_back_without_overflow() {
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        assert_eq!(scan_duplicates(deep.as_bytes()), None);
        assert!(walk_duplicates(deep.as_bytes()).is_empty());
    }

    #[test]
    fn many_keys_use_a_set() {
        let members: Vec<String> = (0..40).map(|i| format!("\"k{}\":{i}", i % 30)).collect();
        let text = format!("{{{}}}", members.join(","));
        let found = scan_duplicates(text.as_bytes()).unwrap();
        assert_eq!(found.len(), 10);
        assert_eq!(found, walk_duplicates(text.as_bytes()));
    }
}
