//! darling's attribute errors ("Unknown field", "Duplicate field",
//! "Unexpected type `int`", "Missing field `rule` at validation[0]"),
//! rewritten to say what is accepted there, with a working example (the
//! forms of `attr_forms.rs`).

use proc_macro2::Span;
use syn::Attribute;

pub use super::attr_forms::Context;
use super::attr_forms::{form, forms};

/// What darling reported, read back from its message (its error kinds are
/// private; the wording is pinned by the UI tests).
#[derive(Debug, PartialEq)]
enum Kind<'a> {
    Unknown {
        key: &'a str,
        did_you_mean: Option<&'a str>,
    },
    Duplicate(&'a str),
    Missing(&'a str),
    /// `Unexpected type `int``: the value's type does not fit the key.
    UnexpectedType(&'a str),
    /// `Unexpected meta-item format `word``: `key` where `key = ...` was
    /// needed, and so on.
    UnexpectedFormat(&'a str),
    Other(&'a str),
}

fn between<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    text.strip_prefix(prefix)?
        .strip_prefix('`')?
        .split('`')
        .next()
}

fn kind(text: &str) -> Kind<'_> {
    if let Some(rest) = text.strip_prefix("Unknown field: ") {
        let key = between(rest, "").unwrap_or(rest);
        let did_you_mean = rest
            .split_once(". Did you mean ")
            .and_then(|(_, alt)| between(alt, ""));
        return Kind::Unknown { key, did_you_mean };
    }
    if let Some(key) = between(text, "Duplicate field ") {
        return Kind::Duplicate(key);
    }
    if let Some(key) = between(text, "Missing field ") {
        return Kind::Missing(key);
    }
    if let Some(ty) = between(text, "Unexpected type ") {
        return Kind::UnexpectedType(ty);
    }
    if let Some(format) = between(text, "Unexpected meta-item format ") {
        return Kind::UnexpectedFormat(format);
    }
    Kind::Other(text)
}

/// Splits darling's " at a/b[0]" location suffix off a message.
fn location(text: &str) -> (&str, Vec<&str>) {
    if let Some((message, at)) = text.rsplit_once(" at ") {
        let segments: Vec<&str> = at
            .split('/')
            .map(|s| s.split('[').next().unwrap_or(s))
            .collect();
        let is_path = segments
            .iter()
            .all(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        if is_path {
            return (message, segments);
        }
    }
    (text, Vec::new())
}

fn accepted(context: Context) -> String {
    let keys: Vec<String> = forms(context)
        .iter()
        .map(|(k, _)| format!("`{k}`"))
        .collect();
    format!("accepted in {}: {}", context.describe(), keys.join(", "))
}

/// The message for one darling error found while parsing `context`.
pub fn explain(message: &str, context: Context) -> String {
    let (message, segments) = location(message);
    // The context the error happened in: the deepest nested key of the
    // location (`validation[0]`, `items/pattern`).
    let nested_context = |skip_last: bool| {
        let n = segments.len().saturating_sub(usize::from(skip_last));
        segments[..n]
            .iter()
            .rev()
            .find_map(|s| Context::nested(s))
            .unwrap_or(context)
    };
    match kind(message) {
        Kind::Unknown { key, did_you_mean } => {
            let cx = nested_context(false);
            let hint = did_you_mean
                .map(|alt| format!(" (did you mean `{alt}`?)"))
                .unwrap_or_default();
            format!("unknown key `{key}`{hint}; {}", accepted(cx))
        }
        Kind::Duplicate(key) => {
            let cx = nested_context(false);
            match form(cx, key) {
                Some(f) => format!("`{key}` is given twice: give it once, as `{f}`"),
                None => format!("`{key}` is given twice: give it once"),
            }
        }
        Kind::Missing(key) => {
            let cx = nested_context(false);
            let example = form(cx, key)
                .map(|f| format!(": add `{f}`"))
                .unwrap_or_default();
            format!("{} needs `{key}`{example}", cx.describe())
        }
        Kind::UnexpectedType(_) | Kind::UnexpectedFormat(_) => {
            let Some(key) = segments.last().copied() else {
                return message.to_string();
            };
            let cx = nested_context(true);
            let got = match kind(message) {
                Kind::UnexpectedFormat("word") => "needs a value".to_string(),
                Kind::UnexpectedFormat("list") => "takes no list".to_string(),
                Kind::UnexpectedFormat("name-value") => "takes no `= value`".to_string(),
                Kind::UnexpectedType(ty) => format!("does not take {}", type_phrase(ty)),
                _ => "is written differently".to_string(),
            };
            match form(cx, key) {
                Some(f) => format!("`{key}` {got}: write it as `{f}`"),
                None => format!("`{key}` {got}"),
            }
        }
        Kind::Other(text) => text.to_string(),
    }
}

fn type_phrase(ty: &str) -> String {
    match ty {
        "int" => "an integer".into(),
        "float" => "a number".into(),
        "string" => "a string".into(),
        "bool" => "`true`/`false`".into(),
        other => format!("a `{other}` value"),
    }
}

/// The errors of one darling parse, each explained and spanned: darling's
/// "missing field" errors carry no span, so they point at the `#[kube]`
/// attribute that names the nested key (or the first `#[kube]`).
pub fn errors(error: darling::Error, context: Context, attrs: &[Attribute]) -> Vec<syn::Error> {
    let kube_attrs: Vec<&Attribute> = attrs.iter().filter(|a| a.path().is_ident("kube")).collect();
    let leaves: Vec<darling::Error> = error.flatten().into_iter().collect();
    // A misspelt required key is one mistake: "unknown key `rul` (did you
    // mean `rule`?)" says it all, so darling's "missing field `rule`" for
    // the same place is dropped.
    let misspelt: Vec<(String, Vec<String>)> = leaves
        .iter()
        .filter_map(|e| {
            let text = e.to_string();
            let (message, segments) = location(&text);
            match kind(message) {
                Kind::Unknown {
                    did_you_mean: Some(alt),
                    ..
                } => Some((
                    alt.to_string(),
                    segments.iter().map(|s| s.to_string()).collect(),
                )),
                _ => None,
            }
        })
        .collect();
    leaves
        .into_iter()
        .filter(|e| {
            let text = e.to_string();
            let (message, segments) = location(&text);
            !matches!(kind(message), Kind::Missing(key)
                if misspelt.iter().any(|(alt, at)| alt == key && *at == segments))
        })
        .map(|e| {
            let text = e.to_string();
            let span = e.explicit_span().unwrap_or_else(|| {
                let (_, segments) = location(&text);
                fallback_span(&kube_attrs, segments.first().copied())
            });
            syn::Error::new(span, explain(&text, context))
        })
        .collect()
}

/// The span of `key` (the nested key an error is about) in the first
/// `#[kube]` attribute that names it, else the first `#[kube]` attribute.
fn fallback_span(attrs: &[&Attribute], key: Option<&str>) -> Span {
    use proc_macro2::TokenTree;
    use quote::ToTokens;
    use syn::spanned::Spanned;
    fn find(tokens: proc_macro2::TokenStream, key: &str) -> Option<Span> {
        tokens.into_iter().find_map(|t| match t {
            TokenTree::Ident(i) if i == key => Some(i.span()),
            TokenTree::Group(g) => find(g.stream(), key),
            _ => None,
        })
    }
    key.and_then(|k| attrs.iter().find_map(|a| find(a.meta.to_token_stream(), k)))
        .or_else(|| attrs.first().map(|a| a.span()))
        .unwrap_or_else(Span::call_site)
}

#[cfg(test)]
mod tests {
    use super::Context::*;
    use super::*;
    use crate::model::attrs::{ContainerAttrs, FieldAttrs, VariantAttrs};
    use darling::FromAttributes;

    fn parse(context: Context, inner: &str) -> Vec<String> {
        let attr: syn::Attribute =
            syn::parse_str::<syn::DeriveInput>(&format!("#[kube({inner})] struct S;"))
                .expect("the form is valid Rust")
                .attrs
                .remove(0);
        let attrs = [attr];
        let result = match context {
            Type => ContainerAttrs::from_attributes(&attrs).map(drop),
            Field => FieldAttrs::from_attributes(&attrs).map(drop),
            Variant => VariantAttrs::from_attributes(&attrs).map(drop),
            _ => unreachable!("nested contexts are parsed through their key"),
        };
        match result {
            Ok(()) => Vec::new(),
            Err(e) => errors(e, context, &attrs)
                .iter()
                .map(ToString::to_string)
                .collect(),
        }
    }

    /// Where a nested context's keys are tried: on a field or a type.
    fn host(context: Context) -> (Context, &'static str, &'static str) {
        match context {
            Items => (Field, "items(", ")"),
            Validation => (Field, "validation(rule = \"true\", ", ")"),
            ExternalDocs => (Field, "external_docs(url = \"https://x\", ", ")"),
            PrintColumn => (
                Type,
                "printcolumn(name = \"A\", type = \"string\", json_path = \".spec.a\", ",
                ")",
            ),
            Scale => (
                Type,
                "scale(spec_replicas_path = \".spec.r\", status_replicas_path = \".status.r\", ",
                ")",
            ),
            other => (other, "", ""),
        }
    }

    const ALL: [Context; 8] = [
        Type,
        Field,
        Variant,
        Items,
        Validation,
        PrintColumn,
        Scale,
        ExternalDocs,
    ];

    /// Every form a message suggests parses in its context (a nested key
    /// that the host already gives is given twice, so those are skipped).
    #[test]
    fn every_suggested_form_parses() {
        for cx in ALL {
            let (host_cx, open, close) = host(cx);
            for (key, form) in forms(cx) {
                if open.contains(&format!("{key} =")) {
                    continue;
                }
                let errors = parse(host_cx, &format!("{open}{form}{close}"));
                assert!(errors.is_empty(), "{cx:?} `{form}`: {errors:?}");
            }
        }
    }

    #[test]
    fn darling_errors_say_what_is_accepted() {
        let unknown = parse(Field, "items(nope = 1)");
        assert_eq!(unknown.len(), 1, "{unknown:?}");
        assert!(
            unknown[0].starts_with("unknown key `nope`; accepted in `items(...)`: `minimum`"),
            "{unknown:?}"
        );
        let typo = parse(Field, "minimun = 1");
        assert!(
            typo[0].starts_with("unknown key `minimun` (did you mean `minimum`?); accepted in `#[kube(...)]` on a field: `optional`"),
            "{typo:?}"
        );
        assert_eq!(
            parse(Field, "maximum = 5, maximum = 6"),
            ["`maximum` is given twice: give it once, as `maximum = 100`"]
        );
        assert_eq!(
            parse(Field, "optional = 3"),
            ["`optional` does not take an integer: write it as `optional`"]
        );
        assert_eq!(
            parse(Field, "list_type"),
            ["`list_type` needs a value: write it as `list_type = \"map\"`"]
        );
        assert_eq!(
            parse(Field, "pattern = 5"),
            ["`pattern` does not take an integer: write it as `pattern = \"^[a-z]+$\"`"]
        );
        assert_eq!(
            parse(Field, "validation(message = \"m\")"),
            ["`validation(...)` needs `rule`: add `rule = \"self.size > 0\"`"]
        );
        assert_eq!(
            parse(Field, "items(pattern = 5)"),
            ["`pattern` does not take an integer: write it as `pattern = \"^[a-z]+$\"`"]
        );
        let misspelt = parse(Field, "validation(rul = \"self > 0\")");
        assert_eq!(misspelt.len(), 1, "one mistake, one error: {misspelt:?}");
        assert!(misspelt[0].starts_with("unknown key `rul` (did you mean `rule`?)"));
        assert_eq!(
            parse(Type, "scale(spec_replicas_path = \".spec.r\")"),
            [
                "`scale(...)` needs `status_replicas_path`: add `status_replicas_path = \".status.replicas\"`"
            ]
        );
    }

    #[test]
    fn messages_without_a_known_shape_pass_through() {
        assert_eq!(
            explain("expected a number, like `1`", Field),
            "expected a number, like `1`"
        );
        assert_eq!(
            explain("something odd at 3 places", Field),
            "something odd at 3 places"
        );
    }
}
