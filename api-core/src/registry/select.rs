//! What a list or a watch selects: label and field selectors and
//! `limit`/`continue` paging, shared by the [`Registry`](super::Registry)
//! and by kinds served without one (an API server's RBAC objects).

use crate::labels::Selector;
use crate::meta::{ListMeta, ObjectMeta};
use crate::status::Status;

use super::{ListOptions, Revision};

/// A field selector requirement (`metadata.name=web`).
#[derive(Clone, Debug)]
struct FieldRequirement {
    field: &'static str,
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
/// let (page, list) = selection.page(vec![("/k/a".to_string(), 1), ("/k/b".to_string(), 2)], 7);
/// assert_eq!(page, [1]);
/// assert_eq!(list.resource_version, "7");
/// assert!(!list.continue_.is_empty());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Selection {
    labels: Option<Selector>,
    fields: Vec<FieldRequirement>,
    after: Option<String>,
    limit: Option<usize>,
}

impl Selection {
    /// The selectors and page of `options`: 400 `BadRequest` for a
    /// malformed label or field selector (only `metadata.name` and
    /// `metadata.namespace` are field labels, as for custom resources) or
    /// `continue` token.
    pub fn new(options: &ListOptions) -> Result<Self, Status> {
        let labels = options
            .label_selector
            .as_deref()
            .map(Selector::parse)
            .transpose()
            .map_err(|e| Status::bad_request(format!("unable to parse requirement: {e}")))?;
        let fields = options
            .field_selector
            .as_deref()
            .map(parse_field_selector)
            .transpose()?
            .unwrap_or_default();
        let after = options
            .continue_token
            .as_deref()
            .map(decode_continue)
            .transpose()?;
        Ok(Selection {
            labels,
            fields,
            after,
            limit: options.limit.filter(|l| *l > 0),
        })
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
            let actual = if r.field == "metadata.name" {
                &meta.name
            } else {
                &meta.namespace
            };
            (actual == &r.value) == r.equal
        })
    }

    /// Whether the object at storage key `key` comes after the `continue`
    /// token (every key does when there is none). Storage lists are in
    /// key order, so a page starts after the last key of the one before.
    pub fn continues_after(&self, key: &str) -> bool {
        self.after.as_deref().is_none_or(|after| key > after)
    }

    /// The page of the `selected` objects (each with its storage key, in
    /// key order, already past [`continues_after`](Self::continues_after))
    /// and the list's metadata at `revision`: at most `limit` items and a
    /// `continue` token when more remain, with `remainingItemCount` only
    /// when no selector filters (as the apiserver counts).
    pub fn page<T>(
        &self,
        mut selected: Vec<(String, T)>,
        revision: Revision,
    ) -> (Vec<T>, ListMeta) {
        let mut metadata = ListMeta {
            resource_version: revision.to_string(),
            ..ListMeta::default()
        };
        if let Some(limit) = self.limit.filter(|l| selected.len() > *l) {
            let remaining = selected.len() - limit;
            selected.truncate(limit);
            if let Some((last, _)) = selected.last() {
                metadata.continue_ = encode_continue(last);
            }
            if self.labels.is_none() && self.fields.is_empty() {
                metadata.remaining_item_count = i64::try_from(remaining).ok();
            }
        }
        (selected.into_iter().map(|(_, o)| o).collect(), metadata)
    }
}

fn parse_field_selector(selector: &str) -> Result<Vec<FieldRequirement>, Status> {
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
        let field = match field.trim() {
            "metadata.name" => "metadata.name",
            "metadata.namespace" => "metadata.namespace",
            other => {
                return Err(Status::bad_request(format!(
                    "field label not supported: {other} (supported: metadata.name, metadata.namespace)"
                )));
            }
        };
        out.push(FieldRequirement {
            field,
            equal,
            value: value.trim().to_string(),
        });
    }
    Ok(out)
}

fn encode_continue(key: &str) -> String {
    key.bytes().map(|b| format!("{b:02x}")).collect()
}

fn decode_continue(token: &str) -> Result<String, Status> {
    let bad = || Status::bad_request(format!("continue key is not valid: {token:?}"));
    if !token.len().is_multiple_of(2) {
        return Err(bad());
    }
    let bytes = (0..token.len())
        .step_by(2)
        .map(|i| {
            token
                .get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        })
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(bad)?;
    String::from_utf8(bytes).map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continue_tokens_round_trip_and_bad_ones_are_400() {
        let key = "/example.com/widgets/default/w-1";
        assert_eq!(decode_continue(&encode_continue(key)).unwrap(), key);
        for bad in ["abc", "zz", "ff"] {
            assert_eq!(decode_continue(bad).unwrap_err().code, 400, "{bad}");
        }
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
        let (got, meta) = page.page(items(), 9);
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
            .filter(|(k, _)| next.continues_after(k))
            .collect();
        assert_eq!(next.page(rest, 9).0, [2, 3]);
        let filtered = Selection::new(&ListOptions {
            limit: Some(2),
            label_selector: Some("a".into()),
            ..ListOptions::default()
        })
        .unwrap();
        assert_eq!(filtered.page(items(), 9).1.remaining_item_count, None);
    }
}
