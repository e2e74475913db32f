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
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::api_type::ApiType;
use crate::resource::Resource;
use crate::status::{GroupKind, Status};
use crate::validation::{ErrorList, FieldPath};

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
/// validation, every problem at once in a 422 `Invalid`.
pub fn decode<K>(bytes: &[u8], options: &DecodeOptions) -> Result<Decoded<K>, Status>
where
    K: Resource + ApiType + DeserializeOwned,
{
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
        Err(e) => {
            return Err(Status::bad_request(format!(
                "the request body could not be decoded as a {}: {e}",
                K::KIND
            )));
        }
    };
    let mut warnings: Vec<String> = duplicates
        .into_iter()
        .map(|p| format!("duplicate field {p:?}"))
        .collect();
    warnings.extend(unknown.into_iter().map(|p| format!("unknown field {p:?}")));
    if options.field_validation == FieldValidation::Strict && !warnings.is_empty() {
        return Err(Status::bad_request(format!(
            "strict decoding error: {}",
            warnings.join(", ")
        )));
    }
    if options.apply_defaults {
        object.apply_defaults();
    }
    if options.validate {
        let mut errors = ErrorList::new();
        object.validate(&FieldPath::new(""), &mut errors);
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
fn duplicate_keys(bytes: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let _ = Walk {
        at: None,
        found: &mut found,
    }
    .deserialize(&mut de);
    found
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
