//! Every key of every `#[kube]` context with an example of its form: the
//! tables that darling's attribute errors are explained from.
//!
//! [`forms`] lists them per context; a test checks it against the darling
//! structs of `attrs.rs`, so a key added there without a form fails the
//! build's tests.

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
    pub(super) fn describe(self) -> &'static str {
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
    pub(super) fn nested(key: &str) -> Option<Context> {
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

pub(super) fn form(context: Context, key: &str) -> Option<&'static str> {
    forms(context)
        .into_iter()
        .find(|(k, _)| *k == key)
        .map(|(_, f)| f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

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
}
