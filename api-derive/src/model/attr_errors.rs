//! darling's attribute errors ("Unknown field", "Duplicate field",
//! "Unexpected type `int`", "Missing field `rule` at validation[0]"),
//! rewritten to say what is accepted there, with a working example.
//!
//! [`FORMS`] lists every key of every `#[kube]` context with an example of
//! its form; a test checks it against the darling structs of `attrs.rs`, so
//! a key added there without a form fails the build's tests.

use proc_macro2::Span;
use syn::Attribute;

/// Where a `#[kube(...)]` key is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// On a struct or enum (`ContainerAttrs`).
    Type,
    /// On a field (`FieldAttrs`, with `Validations` flattened in).
    Field,
    /// On an enum variant (`VariantAttrs`).
    Variant,
    /// Inside `items(...)` (`Validations`).
    Items,
    /// Inside `validation(...)` (`ValidationRule`).
    Validation,
    /// Inside `printcolumn(...)` (`PrintColumn`).
    PrintColumn,
    /// Inside `scale(...)` (`Scale`).
    Scale,
    /// Inside `external_docs(...)` (`ExternalDocs`).
    ExternalDocs,
}

impl Context {
    /// How the context reads in a message.
    fn describe(self) -> &'static str {
        match self {
            Context::Type => "`#[kube(...)]` on a type",
            Context::Field => "`#[kube(...)]` on a field",
            Context::Variant => "`#[kube(...)]` on an enum variant",
            Context::Items => "`items(...)`",
            Context::Validation => "`validation(...)`",
            Context::PrintColumn => "`printcolumn(...)`",
            Context::Scale => "`scale(...)`",
            Context::ExternalDocs => "`external_docs(...)`",
        }
    }

    /// The nested context a key opens (`items` → `items(...)`).
    fn nested(key: &str) -> Option<Context> {
        Some(match key {
            "items" => Context::Items,
            "validation" => Context::Validation,
            "printcolumn" => Context::PrintColumn,
            "scale" => Context::Scale,
            "external_docs" => Context::ExternalDocs,
            _ => return None,
        })
    }
}

use Context::*;

const VALUE_KEYWORDS: &[(&str, &str)] = &[
    ("minimum", "minimum = 0"),
    ("maximum", "maximum = 100"),
    ("exclusive_minimum", "exclusive_minimum = 0"),
    ("exclusive_maximum", "exclusive_maximum = 100"),
    ("multiple_of", "multiple_of = 2"),
    ("min_length", "min_length = 1"),
    ("max_length", "max_length = 63"),
    ("pattern", "pattern = \"^[a-z]+$\""),
    ("format", "format = \"uri\""),
    ("min_items", "min_items = 1"),
    ("max_items", "max_items = 16"),
    ("min_properties", "min_properties = 1"),
    ("max_properties", "max_properties = 16"),
    ("enum", "enum = [\"Allow\", \"Deny\"]"),
];

const LINT_LEVELS: &[(&str, &str)] = &[
    ("allow", "allow(optional_field)"),
    ("warn", "warn(optional_field)"),
    ("deny", "deny(optional_field)"),
];

const TYPE_KEYS: &[(&str, &str)] = &[
    ("group", "group = \"example.com\""),
    ("version", "version = \"v1\""),
    ("kind", "kind = \"Widget\""),
    ("namespaced", "namespaced"),
    ("status", "status = \"WidgetStatus\""),
    (
        "annotation",
        "annotation(\"cert-manager.io/inject-ca-from\", \"ns/cert\")",
    ),
    ("label", "label(\"app.kubernetes.io/part-of\", \"widgets\")"),
    ("status_default", "status_default = WidgetStatus::default()"),
    ("plural", "plural = \"widgets\""),
    ("singular", "singular = \"widget\""),
    ("shortname", "shortname = \"wd\""),
    ("category", "category = \"all\""),
    (
        "printcolumn",
        "printcolumn(name = \"Size\", type = \"integer\", json_path = \".spec.size\")",
    ),
    (
        "scale",
        "scale(spec_replicas_path = \".spec.replicas\", status_replicas_path = \".status.replicas\")",
    ),
    ("selectable", "selectable = \".spec.color\""),
    ("root", "root = \"Widget\""),
    ("served", "served = true"),
    ("storage", "storage = true"),
    ("deprecated", "deprecated = \"use v2\""),
    ("status_subresource", "status_subresource = true"),
    ("optional_spec", "optional_spec"),
    ("no_spec", "no_spec"),
    ("doc", "doc = \"A widget.\""),
    (
        "spec_doc",
        "spec_doc = \"Spec defines the desired state of Widget.\"",
    ),
    (
        "status_doc",
        "status_doc = \"Status defines the current state of Widget.\"",
    ),
    ("derive", "derive = \"PartialEq\""),
    ("crate", "crate = \"::api_core\""),
    (
        "validation",
        "validation(rule = \"self.min <= self.max\", message = \"min must not exceed max\")",
    ),
    ("exactly_one_of", "exactly_one_of = [\"a\", \"b\"]"),
    ("at_most_one_of", "at_most_one_of = [\"a\", \"b\"]"),
    ("at_least_one_of", "at_least_one_of = [\"a\", \"b\"]"),
    ("example", "example = \"value\""),
    ("title", "title = \"Widget\""),
    (
        "external_docs",
        "external_docs(url = \"https://example.com/docs\")",
    ),
    ("map_type", "map_type = \"atomic\""),
    ("preserve_unknown_fields", "preserve_unknown_fields"),
    ("embedded_resource", "embedded_resource"),
    ("int_or_string", "int_or_string"),
];

const FIELD_KEYS: &[(&str, &str)] = &[
    ("optional", "optional"),
    ("required", "required"),
    ("default", "default = \"TCP\""),
    ("items", "items(max_length = 63)"),
    ("list_type", "list_type = \"map\""),
    ("list_map_keys", "list_map_keys = [\"name\"]"),
    ("map_type", "map_type = \"atomic\""),
    ("example", "example = \"value\""),
    ("title", "title = \"Size\""),
    (
        "external_docs",
        "external_docs(url = \"https://example.com/docs\")",
    ),
    (
        "validation",
        "validation(rule = \"self >= 0\", message = \"must not be negative\")",
    ),
    ("immutable", "immutable"),
    ("int_or_string", "int_or_string"),
    ("preserve_unknown_fields", "preserve_unknown_fields"),
    ("embedded_resource", "embedded_resource"),
    ("schema_with", "schema_with = my_schema"),
];

const VALIDATION_KEYS: &[(&str, &str)] = &[
    ("rule", "rule = \"self.size > 0\""),
    ("message", "message = \"size must be positive\""),
    (
        "message_expression",
        "message_expression = \"'size is ' + string(self.size)\"",
    ),
    ("reason", "reason = \"FieldValueForbidden\""),
    ("field_path", "field_path = \".size\""),
    ("optional_old_self", "optional_old_self = true"),
];

const PRINTCOLUMN_KEYS: &[(&str, &str)] = &[
    ("name", "name = \"Size\""),
    ("type", "type = \"integer\""),
    ("json_path", "json_path = \".spec.size\""),
    ("description", "description = \"The size.\""),
    ("format", "format = \"int32\""),
    ("priority", "priority = 1"),
];

const SCALE_KEYS: &[(&str, &str)] = &[
    (
        "spec_replicas_path",
        "spec_replicas_path = \".spec.replicas\"",
    ),
    (
        "status_replicas_path",
        "status_replicas_path = \".status.replicas\"",
    ),
    (
        "label_selector_path",
        "label_selector_path = \".status.selector\"",
    ),
];

const EXTERNAL_DOCS_KEYS: &[(&str, &str)] = &[
    ("url", "url = \"https://example.com/docs\""),
    ("description", "description = \"The manual.\""),
];

/// Every key of a context with an example of its form, in the order
/// messages list them.
pub fn forms(context: Context) -> Vec<(&'static str, &'static str)> {
    let parts: &[&[(&str, &str)]] = match context {
        Type => &[TYPE_KEYS, LINT_LEVELS],
        Field => &[FIELD_KEYS, VALUE_KEYWORDS, LINT_LEVELS],
        Variant => &[LINT_LEVELS],
        Items => &[VALUE_KEYWORDS],
        Validation => &[VALIDATION_KEYS],
        PrintColumn => &[PRINTCOLUMN_KEYS],
        Scale => &[SCALE_KEYS],
        ExternalDocs => &[EXTERNAL_DOCS_KEYS],
    };
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

fn form(context: Context, key: &str) -> Option<&'static str> {
    forms(context)
        .into_iter()
        .find(|(k, _)| *k == key)
        .map(|(_, f)| f)
}

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
    use super::*;
    use crate::model::attrs::{ContainerAttrs, FieldAttrs, VariantAttrs};
    use darling::FromAttributes;
    use std::collections::BTreeSet;

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

    /// The darling structs' keys, read from `attrs.rs`, are exactly the
    /// keys `forms` lists: a key added there needs a form here.
    #[test]
    fn forms_list_exactly_the_keys_of_the_attribute_structs() {
        let file = syn::parse_file(include_str!("attrs.rs")).expect("attrs.rs parses");
        let mut keys = std::collections::BTreeMap::<String, BTreeSet<String>>::new();
        for item in &file.items {
            let syn::Item::Struct(s) = item else { continue };
            let syn::Fields::Named(fields) = &s.fields else {
                continue;
            };
            let derives_darling = s.attrs.iter().any(|a| {
                a.path().is_ident("derive") && {
                    let t = a.meta.to_token_stream_string();
                    t.contains("FromMeta") || t.contains("FromAttributes")
                }
            });
            if !derives_darling {
                continue;
            }
            let set = keys.entry(s.ident.to_string()).or_default();
            for f in &fields.named {
                let darling = f
                    .attrs
                    .iter()
                    .filter(|a| a.path().is_ident("darling"))
                    .map(|a| a.meta.to_token_stream_string())
                    .collect::<String>();
                if darling.contains("flatten") {
                    set.insert("<flatten Validations>".into());
                    continue;
                }
                let name = darling
                    .split("rename = \"")
                    .nth(1)
                    .and_then(|r| r.split('"').next())
                    .map(str::to_string)
                    .unwrap_or_else(|| f.ident.as_ref().expect("named").to_string());
                set.insert(name);
            }
        }
        let listed = |cx: Context| -> BTreeSet<String> {
            forms(cx).iter().map(|(k, _)| k.to_string()).collect()
        };
        let mut field = keys["FieldAttrs"].clone();
        assert!(field.remove("<flatten Validations>"));
        field.extend(keys["Validations"].iter().cloned());
        assert_eq!(listed(Field), field);
        assert_eq!(listed(Type), keys["ContainerAttrs"]);
        assert_eq!(listed(Variant), keys["VariantAttrs"]);
        assert_eq!(listed(Items), keys["Validations"]);
        assert_eq!(listed(Validation), keys["ValidationRule"]);
        assert_eq!(listed(PrintColumn), keys["PrintColumn"]);
        assert_eq!(listed(Scale), keys["Scale"]);
        assert_eq!(listed(ExternalDocs), keys["ExternalDocs"]);
    }

    trait TokenString {
        fn to_token_stream_string(&self) -> String;
    }
    impl TokenString for syn::Meta {
        fn to_token_stream_string(&self) -> String {
            quote::ToTokens::to_token_stream(self).to_string()
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
