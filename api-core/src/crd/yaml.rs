//! YAML output and input for CRDs, through serde-saphyr.
//!
//! Output goes through a JSON value whose maps are re-sorted explicitly
//! (never relying on `serde_json::Map`'s order, which depends on the
//! `preserve_order` feature) in the order sigs.k8s.io/yaml (go-yaml v2)
//! writes them.

use std::cmp::Ordering;

use serde::de::DeserializeOwned;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::Value;

use super::{CrdError, CustomResourceDefinition};

/// How deep a YAML document may nest: serde-saphyr's default. A CRD
/// embedding a full pod template nests about 35 deep. serde-saphyr needs
/// about 20 KiB of stack per level in debug builds, so more than this can
/// overflow a 2 MiB (test) thread stack before the budget check fires.
const MAX_DEPTH: usize = 64;

fn read_options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        // `0755` is octal, as in YAML 1.1 readers (sigs.k8s.io/yaml).
        legacy_octal_numbers: true,
        // One-line messages (`line 3 column 5: ...`) without an input excerpt.
        with_snippet: false,
        budget: serde_saphyr::budget! {
            max_depth: MAX_DEPTH,
            max_nodes: 10_000_000,
            max_events: 20_000_000,
        },
    }
}

/// Parses every non-empty document of a YAML stream as `T`.
pub(super) fn parse_stream<T: DeserializeOwned>(text: &str) -> Result<Vec<T>, CrdError> {
    serde_saphyr::from_multiple_with_options(text, read_options())
        .map_err(|e| CrdError::Yaml(e.to_string()))
}

/// Reads a YAML stream (one or more documents, `---`-separated) into JSON
/// values, one per non-empty document.
///
/// Documents nesting deeper than 64 levels are refused with an error.
///
/// Scalars are typed as a YAML 1.1 reader (and so kubectl) types them:
/// quoted scalars and plain text are strings, but unquoted `yes`/`no`/`on`/
/// `off` become booleans, `0755` an octal number, `~` and `null` null.
/// YAML written by [`CustomResourceDefinition::to_yaml`] quotes such strings,
/// so it reads back unchanged.
pub fn yaml_to_json(text: &str) -> Result<Vec<Value>, CrdError> {
    parse_stream(text)
}

/// Reads every document of a YAML stream (such as one written by
/// [`to_yaml_stream`]) as a CRD.
pub fn from_yaml_stream(text: &str) -> Result<Vec<CustomResourceDefinition>, CrdError> {
    parse_stream(text)
}

/// The YAML documents of `crds`, each starting with `---`, concatenated; an
/// empty string for no CRDs.
pub fn to_yaml_stream(crds: &[CustomResourceDefinition]) -> String {
    crds.iter().map(CustomResourceDefinition::to_yaml).collect()
}

/// One YAML document for `value`, starting with `---`, keys sorted.
pub(super) fn document(value: &Value) -> String {
    // Block style with sequences at their parent's indentation (as
    // sigs.k8s.io/yaml writes them), `|` literals for multi-line strings,
    // YAML-1.1-ambiguous strings quoted (`yaml_12: false`): all defaults.
    let options = serde_saphyr::ser_options! {
        indent_step: 2,
        compact_list_indent: true,
        prefer_block_scalars: true,
        yaml_12: false,
    };
    let body = serde_saphyr::to_string_with_options(&Sorted(value), options)
        .expect("a JSON value is always representable as YAML");
    format!("---\n{body}")
}

/// Serialises a JSON value with object keys in [`key_order`].
struct Sorted<'a>(&'a Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(map) => {
                let mut entries: Vec<(&String, &Value)> = map.iter().collect();
                entries.sort_by(|a, b| key_order(a.0, b.0));
                let mut out = serializer.serialize_map(Some(entries.len()))?;
                for (k, v) in entries {
                    out.serialize_entry(k, &Sorted(v))?;
                }
                out.end()
            }
            Value::Array(items) => {
                let mut out = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    out.serialize_element(&Sorted(item))?;
                }
                out.end()
            }
            scalar => scalar.serialize(serializer),
        }
    }
}

/// One unit of a key for [`key_order`]. The variant order matters:
/// punctuation sorts before digits, digits before letters.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum KeyPart<'a> {
    /// A character that is neither a letter nor an ASCII digit.
    Other(char),
    /// A run of ASCII digits, compared by value: significant length, then
    /// digits, then the length with leading zeros (`1` before `01`).
    Number {
        significant_len: usize,
        significant: &'a str,
        len: usize,
    },
    /// A letter, compared by code point (so `Z` before `a`).
    Letter(char),
}

/// The parts of a key, lazily (a sort compares keys many times).
struct KeyParts<'a> {
    rest: &'a str,
}

impl<'a> Iterator for KeyParts<'a> {
    type Item = KeyPart<'a>;

    fn next(&mut self) -> Option<KeyPart<'a>> {
        let rest = self.rest;
        let c = rest.chars().next()?;
        if c.is_ascii_digit() {
            let end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let digits = &rest[..end];
            let significant = digits.trim_start_matches('0');
            self.rest = &rest[end..];
            Some(KeyPart::Number {
                significant_len: significant.len(),
                significant,
                len: digits.len(),
            })
        } else {
            self.rest = &rest[c.len_utf8()..];
            Some(if c.is_alphabetic() {
                KeyPart::Letter(c)
            } else {
                KeyPart::Other(c)
            })
        }
    }
}

fn key_parts(key: &str) -> KeyParts<'_> {
    KeyParts { rest: key }
}

/// The order in which sigs.k8s.io/yaml (go-yaml v2's `keyList`) writes map
/// keys, as a total order: letters by code point, punctuation before
/// letters, and digit runs by numeric value (`v2` before `v10`). For keys of
/// letters only this is plain alphabetical (byte) order.
pub(super) fn key_order(a: &str, b: &str) -> Ordering {
    let letters = |k: &str| k.bytes().all(|c| c.is_ascii_alphabetic());
    if letters(a) && letters(b) {
        return a.cmp(b);
    }
    key_parts(a).cmp(key_parts(b)).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The letters-only fast path gives the general order.
        #[test]
        fn fast_path_agrees(a in "[a-zA-Z]{0,6}|[a-zA-Z0-9_-]{0,6}", b in "[a-zA-Z]{0,6}|[a-zA-Z0-9_-]{0,6}") {
            let general = key_parts(&a).cmp(key_parts(&b)).then_with(|| a.cmp(&b));
            proptest::prop_assert_eq!(key_order(&a, &b), general);
        }
    }

    fn sorted(keys: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = keys.iter().map(|s| s.to_string()).collect();
        v.sort_by(|a, b| key_order(a, b));
        v
    }

    #[test]
    fn letters_sort_by_code_point() {
        assert_eq!(
            sorted(&[
                "type",
                "properties",
                "Zeta",
                "description",
                "x-kubernetes-map-type"
            ]),
            [
                "Zeta",
                "description",
                "properties",
                "type",
                "x-kubernetes-map-type"
            ]
        );
    }

    #[test]
    fn go_yaml_natural_order() {
        assert_eq!(sorted(&["v10", "v2", "v1"]), ["v1", "v2", "v10"]);
        assert_eq!(sorted(&["aB", "a_b", "a"]), ["a", "a_b", "aB"]);
        assert_eq!(sorted(&["a01", "a1", "a2"]), ["a1", "a01", "a2"]);
        assert_eq!(sorted(&["a-b", "a1", "ab"]), ["a-b", "a1", "ab"]);
    }

    #[test]
    fn document_starts_with_marker() {
        let doc = document(&serde_json::json!({"b": 1, "a": [true]}));
        assert_eq!(doc, "---\na:\n- true\nb: 1\n");
    }
}
