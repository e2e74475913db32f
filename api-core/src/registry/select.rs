//! What a list or a watch selects: label and field selectors and
//! `limit`/`continue` paging, shared by the [`Registry`](super::Registry)
//! and by kinds served without one (an API server's RBAC objects).
//!
//! `continue` tokens are the apiserver's (`k8s.io/apiserver/pkg/storage`
//! `continue.go`): unpadded URL-safe base64 of
//! `{"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key>"}`, the key
//! relative to the list's key prefix. So a token pins the revision the
//! first page was read at, and cannot name a key outside the prefix.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::labels::Selector;
use crate::meta::{ListMeta, ObjectMeta};
use crate::status::Status;

use super::{ListOptions, Revision};

/// A field selector requirement (`metadata.name=web`).
#[derive(Clone, Debug)]
struct FieldRequirement {
    /// `metadata.name`, `metadata.namespace`, or a selectable field's
    /// label (`spec.color`).
    field: String,
    /// For a selectable field: its JSON pointer (`/spec/color`).
    pointer: Option<String>,
    equal: bool,
    value: String,
}

/// The selection of a list or watch, parsed from its [`ListOptions`]:
/// which objects match, and which page of them a list returns.
///
/// ```
/// use api_core::meta::ObjectMeta;
/// use api_core::registry::{ListOptions, Selection};
///
/// let options = ListOptions {
///     label_selector: Some("app=web".into()),
///     field_selector: Some("metadata.name!=old".into()),
///     limit: Some(1),
///     ..ListOptions::default()
/// };
/// let selection = Selection::new(&options).unwrap();
/// let mut meta = ObjectMeta { name: "new".into(), ..ObjectMeta::default() };
/// meta.labels.insert("app".into(), "web".into());
/// assert!(selection.matches(&meta));
///
/// let (page, list) = selection.page(vec![("/k/a".to_string(), 1), ("/k/b".to_string(), 2)], 7, "/k/");
/// assert_eq!(page, [1]);
/// assert_eq!(list.resource_version, "7");
/// assert!(!list.continue_.is_empty());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Selection {
    labels: Option<Selector>,
    fields: Vec<FieldRequirement>,
    continue_: Option<ContinueToken>,
    limit: Option<usize>,
}

/// A decoded `continue` token.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ContinueToken {
    /// The revision of the list's first page; negative: the current one
    /// (a token handed out with a 410 for an inconsistent continuation).
    revision: i64,
    /// The first key of the next page, relative to the key prefix.
    start: String,
}

impl Selection {
    /// The selectors and page of `options`: 400 `BadRequest` for a
    /// malformed label or field selector (only `metadata.name` and
    /// `metadata.namespace` are field labels, as for custom resources) or
    /// `continue` token.
    pub fn new(options: &ListOptions) -> Result<Self, Status> {
        Self::with_selectable_fields(options, &[])
    }

    /// [`Selection::new`] for a kind whose version declares
    /// `selectableFields` (JSON paths such as `.spec.color`): each is a
    /// field label too (`spec.color=red`), compared with the field's
    /// value as a string (a missing field is the empty string), as the
    /// apiserver selects custom resources.
    pub fn with_selectable_fields(
        options: &ListOptions,
        selectable: &[&str],
    ) -> Result<Self, Status> {
        let labels = options
            .label_selector
            .as_deref()
            .map(Selector::parse)
            .transpose()
            .map_err(|e| Status::bad_request(format!("unable to parse requirement: {e}")))?;
        let fields = options
            .field_selector
            .as_deref()
            .map(|s| parse_field_selector(s, selectable))
            .transpose()?
            .unwrap_or_default();
        let continue_ = options
            .continue_token
            .as_deref()
            .map(decode_continue)
            .transpose()
            .map_err(|e| Status::bad_request(format!("invalid continue token: {e}")))?;
        Ok(Selection {
            labels,
            fields,
            continue_,
            limit: options.limit.filter(|l| *l > 0),
        })
    }

    /// Whether no label or field selector filters (every object matches).
    pub fn is_unfiltered(&self) -> bool {
        self.labels.is_none() && self.fields.is_empty()
    }

    /// The page size (`limit`), if the list is paged.
    pub fn limit(&self) -> Option<usize> {
        self.limit
    }

    /// Whether a `continue` token was given.
    pub fn is_continuation(&self) -> bool {
        self.continue_.is_some()
    }

    /// The revision a `continue` token pins (the first page's); none
    /// without a token, or for a token that continues at the current
    /// revision.
    pub fn continue_revision(&self) -> Option<Revision> {
        self.continue_
            .as_ref()
            .and_then(|c| Revision::try_from(c.revision).ok())
    }

    /// The first storage key of the page a `continue` token asks for,
    /// under `prefix`.
    pub fn start_key(&self, prefix: &str) -> Option<String> {
        self.continue_
            .as_ref()
            .map(|c| format!("{prefix}{}", c.start))
    }

    /// Whether an object with this metadata matches the label and field
    /// selectors.
    pub fn matches(&self, meta: &ObjectMeta) -> bool {
        if self
            .labels
            .as_ref()
            .is_some_and(|s| !s.matches(&meta.labels))
        {
            return false;
        }
        self.fields.iter().all(|r| {
            let actual = match r.field.as_str() {
                "metadata.name" => &meta.name,
                "metadata.namespace" => &meta.namespace,
                // A selectable field: [`Selection::matches_value`]'s.
                _ => return true,
            };
            (actual == &r.value) == r.equal
        })
    }

    /// Whether a selectable field is selected on (the object's JSON is
    /// then needed: [`Selection::matches_value`]).
    pub fn selects_fields(&self) -> bool {
        self.fields.iter().any(|r| r.pointer.is_some())
    }

    /// Whether `object` (as JSON) matches the selectable-field
    /// requirements.
    pub fn matches_value(&self, object: &serde_json::Value) -> bool {
        use serde_json::Value;
        self.fields.iter().all(|r| {
            let Some(pointer) = &r.pointer else {
                return true;
            };
            let actual = match object.pointer(pointer) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Bool(b)) => b.to_string(),
                Some(Value::Number(n)) => n.to_string(),
                _ => String::new(),
            };
            (actual == r.value) == r.equal
        })
    }

    /// Whether the object at storage key `key` (under `prefix`) is on or
    /// after the page the `continue` token asks for (every key is when
    /// there is none). Storage lists are in key order, so a page starts
    /// after the last key of the one before.
    pub fn continues_after(&self, prefix: &str, key: &str) -> bool {
        self.continue_.as_ref().is_none_or(|c| {
            key.strip_prefix(prefix)
                .is_some_and(|rest| rest >= c.start.as_str())
        })
    }

    /// The page of the `selected` objects (each with its storage key under
    /// `prefix`, in key order, already past
    /// [`continues_after`](Self::continues_after)) and the list's metadata
    /// at `revision`: at most `limit` items and a `continue` token when
    /// more remain, with `remainingItemCount` only when no selector
    /// filters (as the apiserver counts).
    pub fn page<T>(
        &self,
        mut selected: Vec<(String, T)>,
        revision: Revision,
        prefix: &str,
    ) -> (Vec<T>, ListMeta) {
        let mut metadata = ListMeta {
            resource_version: revision.to_string(),
            ..ListMeta::default()
        };
        if let Some(limit) = self.limit.filter(|l| selected.len() > *l) {
            let remaining = selected.len() - limit;
            selected.truncate(limit);
            if let Some((last, _)) = selected.last() {
                metadata.continue_ = encode_continue(&next_key(last), prefix, revision as i64);
            }
            if self.is_unfiltered() {
                metadata.remaining_item_count = i64::try_from(remaining).ok();
            }
        }
        (selected.into_iter().map(|(_, o)| o).collect(), metadata)
    }
}

fn parse_field_selector(
    selector: &str,
    selectable: &[&str],
) -> Result<Vec<FieldRequirement>, Status> {
    let mut out = Vec::new();
    for part in selector.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (field, value, equal) = if let Some((f, v)) = part.split_once("!=") {
            (f, v, false)
        } else if let Some((f, v)) = part.split_once("==") {
            (f, v, true)
        } else if let Some((f, v)) = part.split_once('=') {
            (f, v, true)
        } else {
            return Err(Status::bad_request(format!(
                "invalid selector: '{selector}'; can't understand '{part}'"
            )));
        };
        let field = field.trim();
        let pointer = match field {
            "metadata.name" | "metadata.namespace" => None,
            other => match selectable
                .iter()
                .find(|path| path.strip_prefix('.') == Some(other))
            {
                Some(path) => Some(path.replace('.', "/")),
                None => {
                    let mut supported = vec!["metadata.name", "metadata.namespace"];
                    supported.extend(selectable.iter().map(|p| p.trim_start_matches('.')));
                    return Err(Status::bad_request(format!(
                        "field label not supported: {other} (supported: {})",
                        supported.join(", ")
                    )));
                }
            },
        };
        out.push(FieldRequirement {
            field: field.to_string(),
            pointer,
            equal,
            value: value.trim().to_string(),
        });
    }
    Ok(out)
}

/// The first key after `key` in etcd's order: the key with a zero byte
/// appended, where the next page of a list starts.
pub fn next_key(key: &str) -> String {
    format!("{key}\0")
}

/// The `continue` token of a list under `prefix` whose next page starts
/// at `key` and reads at `revision` (`-1`: at the current revision), as
/// the apiserver's `EncodeContinue` writes it. A key outside `prefix`
/// gives an empty token (no continuation).
pub fn encode_continue(key: &str, prefix: &str, revision: i64) -> String {
    let Some(start) = key.strip_prefix(prefix).filter(|s| s.len() < key.len()) else {
        return String::new();
    };
    let token = serde_json::json!({"v": "meta.k8s.io/v1", "rv": revision, "start": start});
    URL_SAFE_NO_PAD.encode(token.to_string())
}

const INVALID_KEY: &str = "continue key is not valid";

/// `DecodeContinue`: the token's start key (relative to the prefix,
/// cleaned as a path so that it cannot reach above it) and revision;
/// the error is the apiserver's message.
fn decode_continue(token: &str) -> Result<ContinueToken, String> {
    #[derive(serde::Deserialize)]
    struct Encoded {
        #[serde(default)]
        v: String,
        #[serde(default)]
        rv: i64,
        #[serde(default)]
        start: String,
    }
    let bytes = URL_SAFE_NO_PAD
        .decode(token)
        .map_err(|e| format!("{INVALID_KEY}: {e}"))?;
    let encoded: Encoded =
        serde_json::from_slice(&bytes).map_err(|e| format!("{INVALID_KEY}: {e}"))?;
    if encoded.v != "meta.k8s.io/v1" {
        return Err(format!(
            "{INVALID_KEY}: server does not recognize this encoded version {}",
            encoded.v
        ));
    }
    if encoded.rv == 0 {
        return Err(format!(
            "{INVALID_KEY}: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"
        ));
    }
    if encoded.start.is_empty() {
        return Err(format!(
            "{INVALID_KEY}: encoded start key empty (version meta.k8s.io/v1)"
        ));
    }
    let rooted = if encoded.start.starts_with('/') {
        encoded.start.clone()
    } else {
        format!("/{}", encoded.start)
    };
    if clean_path(&rooted) != rooted {
        return Err(format!("{INVALID_KEY}: {}", encoded.start));
    }
    Ok(ContinueToken {
        revision: encoded.rv,
        start: rooted[1..].to_string(),
    })
}

/// Go's `path.Clean` of a rooted path: no empty, `.` or `..` elements,
/// no trailing slash (except the root itself).
fn clean_path(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continue_tokens_round_trip_and_bad_ones_are_400() {
        let prefix = "/example.com/widgets/";
        let key = "/example.com/widgets/default/w-1\0";
        let token = encode_continue(key, prefix, 42);
        // The apiserver's own encoding of the same continuation.
        let json = r#"{"v":"meta.k8s.io/v1","rv":42,"start":"default/w-1\u0000"}"#;
        assert_eq!(
            serde_json::from_slice::<serde_json::Value>(&URL_SAFE_NO_PAD.decode(&token).unwrap())
                .unwrap(),
            serde_json::from_str::<serde_json::Value>(json).unwrap()
        );
        let decoded = decode_continue(&token).unwrap();
        assert_eq!(decoded.revision, 42);
        assert_eq!(format!("{prefix}{}", decoded.start), key);
        let selection = Selection::new(&ListOptions {
            continue_token: Some(token),
            ..ListOptions::default()
        })
        .unwrap();
        assert_eq!(selection.continue_revision(), Some(42));
        assert_eq!(selection.start_key(prefix).as_deref(), Some(key));
        assert!(!selection.continues_after(prefix, "/example.com/widgets/default/w-1"));
        assert!(selection.continues_after(prefix, "/example.com/widgets/default/w-2"));
        // Tokens from Go's table (continue_test.go) and malformed ones.
        let token = |json: &str| URL_SAFE_NO_PAD.encode(json);
        for (bad, why) in [
            ("abc!".to_string(), "continue key is not valid: "),
            ("zz".to_string(), "continue key is not valid: "),
            (
                token(r#"{"v":"meta.k8s.io/v1","rv":0,"start":"a"}"#),
                "continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
            ),
            (
                token(r#"{"v":"meta.k8s.io/v1","rv":1,"start":""}"#),
                "continue key is not valid: encoded start key empty (version meta.k8s.io/v1)",
            ),
            (
                token(r#"{"v":"v1","rv":1,"start":"a"}"#),
                "continue key is not valid: server does not recognize this encoded version v1",
            ),
            (
                token(r#"{"v":"meta.k8s.io/v1","rv":1,"start":"../other"}"#),
                "continue key is not valid: ../other",
            ),
            (
                token(r#"{"v":"meta.k8s.io/v1","rv":1,"start":"a/../../b"}"#),
                "continue key is not valid: a/../../b",
            ),
        ] {
            let e = Selection::new(&ListOptions {
                continue_token: Some(bad.clone()),
                ..ListOptions::default()
            })
            .unwrap_err();
            assert_eq!(e.code, 400, "{bad}");
            assert!(
                e.message
                    .starts_with(&format!("invalid continue token: {why}")),
                "{bad}: {}",
                e.message
            );
        }
        // A rooted start key is accepted (Go cleans it to the same key).
        let rooted = decode_continue(&token(r#"{"v":"meta.k8s.io/v1","rv":-1,"start":"/a"}"#));
        assert_eq!(rooted.unwrap().start, "a");
    }

    #[test]
    fn field_selectors_name_and_namespace_only() {
        let options = |f: &str| ListOptions {
            field_selector: Some(f.into()),
            ..ListOptions::default()
        };
        let meta = ObjectMeta {
            name: "a".into(),
            namespace: "demo".into(),
            ..ObjectMeta::default()
        };
        for (selector, want) in [
            ("metadata.name=a", true),
            ("metadata.name==a", true),
            ("metadata.name!=a", false),
            ("metadata.namespace=demo,metadata.name=b", false),
            ("", true),
        ] {
            let s = Selection::new(&options(selector)).unwrap();
            assert_eq!(s.matches(&meta), want, "{selector}");
        }
        let e = Selection::new(&options("spec.x=1")).unwrap_err();
        assert!(
            e.message.contains("field label not supported: spec.x"),
            "{}",
            e.message
        );
        assert_eq!(Selection::new(&options("name")).unwrap_err().code, 400);
    }

    #[test]
    fn pages_count_what_remains_only_when_unfiltered() {
        let items = || (0..5).map(|i| (format!("/k/{i}"), i)).collect::<Vec<_>>();
        let page = Selection::new(&ListOptions {
            limit: Some(2),
            ..ListOptions::default()
        })
        .unwrap();
        let (got, meta) = page.page(items(), 9, "/k/");
        assert_eq!(got, [0, 1]);
        assert_eq!(meta.remaining_item_count, Some(3));
        let next = Selection::new(&ListOptions {
            limit: Some(2),
            continue_token: Some(meta.continue_.clone()),
            ..ListOptions::default()
        })
        .unwrap();
        let rest: Vec<_> = items()
            .into_iter()
            .filter(|(k, _)| next.continues_after("/k/", k))
            .collect();
        assert_eq!(next.page(rest, 9, "/k/").0, [2, 3]);
        let filtered = Selection::new(&ListOptions {
            limit: Some(2),
            label_selector: Some("a".into()),
            ..ListOptions::default()
        })
        .unwrap();
        assert_eq!(
            filtered.page(items(), 9, "/k/").1.remaining_item_count,
            None
        );
    }

    /// A CRD version's `selectableFields` are field labels: compared as
    /// strings (numbers and booleans as JSON writes them, a missing field
    /// as ""), and listed when a label is not supported.
    #[test]
    fn selectable_fields_are_field_labels() {
        let selectable = [".spec.color", ".spec.replicas", ".status.ready"];
        let select = |selector: &str| {
            Selection::with_selectable_fields(
                &ListOptions {
                    field_selector: Some(selector.into()),
                    ..ListOptions::default()
                },
                &selectable,
            )
        };
        let object = serde_json::json!({"metadata": {"name": "a"},
            "spec": {"color": "red", "replicas": 3}, "status": {"ready": true}});
        for (selector, matches) in [
            ("spec.color=red", true),
            ("spec.color!=red", false),
            ("spec.replicas=3", true),
            ("status.ready=true", true),
            ("spec.color=red,status.ready=false", false),
            ("spec.missing=", false),
        ] {
            match select(selector) {
                Ok(s) => {
                    assert!(s.selects_fields());
                    assert_eq!(s.matches_value(&object), matches, "{selector}");
                }
                Err(e) => {
                    assert_eq!(selector, "spec.missing=", "{e:?}");
                    assert_eq!(
                        e.message,
                        "field label not supported: spec.missing (supported: metadata.name, \
                         metadata.namespace, spec.color, spec.replicas, status.ready)"
                    );
                }
            }
        }
        let by_name = select("metadata.name=a").unwrap();
        assert!(!by_name.selects_fields());
        assert!(by_name.matches(&ObjectMeta {
            name: "a".into(),
            ..ObjectMeta::default()
        }));
        let without = serde_json::json!({"metadata": {"name": "b"}});
        assert!(select("spec.color=").unwrap().matches_value(&without));
    }
}
