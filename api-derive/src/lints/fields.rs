//! Lints about one field: optionality, naming, docs, lists, conditions.

use proc_macro2::TokenStream;
use quote::quote_spanned;
use syn::spanned::Spanned;

use super::types::warn_unless;
use super::{Context, Diagnostics, Finding, Level, Levels, lint_level, message};
use crate::model::Field;
use crate::model::shape::{Known, Prim, Shape};

/// Unit suffixes that say what an integer duration counts.
const UNITS: &[&str] = &[
    "Seconds",
    "Millis",
    "Milliseconds",
    "Micros",
    "Microseconds",
    "Nanos",
    "Nanoseconds",
    "Minutes",
    "Hours",
    "Days",
];
/// Words that make an integer a duration.
const DURATION_WORDS: &[&str] = &[
    "timeout", "period", "interval", "deadline", "delay", "duration", "ttl", "backoff", "grace",
];

fn skip_fn(shape: &Shape) -> &'static str {
    match shape {
        Shape::Option(_) => "Option::is_none",
        Shape::Vec(_) => "Vec::is_empty",
        Shape::Map { hash: false, .. } => "BTreeMap::is_empty",
        Shape::Map { hash: true, .. } => "HashMap::is_empty",
        Shape::Set { hash: false, .. } => "BTreeSet::is_empty",
        Shape::Known(Known::Conditions, _) => "Conditions::is_empty",
        _ => "Option::is_none",
    }
}

#[allow(clippy::too_many_lines)]
pub fn check_fields(
    k: &TokenStream,
    type_name: &str,
    fields: &[Field],
    outer: &[&Levels],
    context: Context,
    diags: &mut Diagnostics,
) {
    for f in fields.iter().filter(|f| !f.serde.skip) {
        let shape = Shape::of(&f.ty);
        super::types::type_layer(k, type_name, f, &shape, outer, context, diags);
        let subject = f.subject(type_name);
        let levels: Vec<&Levels> = outer.iter().copied().chain([&f.levels]).collect();
        let json = f.json_name.as_str();
        let lower = json.to_ascii_lowercase();
        let mut report = |lint: &'static str, span, problem: String, help: String| {
            diags.lint(
                Finding {
                    lint,
                    span,
                    subject: subject.clone(),
                    problem,
                    help,
                },
                &levels,
                context,
            );
        };
        let name_span = f.name_span();

        if f.is_flattened() {
            continue;
        }

        // optional_field / required_field
        if f.optional {
            if let Shape::Option(inner) = &shape
                && matches!(
                    &**inner,
                    Shape::Vec(_) | Shape::Map { .. } | Shape::Set { .. } | Shape::Option(_)
                )
            {
                report(
                    "optional_field",
                    f.ty.span(),
                    "wraps a list, map or `Option` in an `Option`".into(),
                    "drop the outer `Option`: a list or map is optional by being empty (`#[serde(default, skip_serializing_if = \"Vec::is_empty\")]`), and `null` is not a value".into(),
                );
            }
            if !shape.is_option() && !shape.is_collection() {
                report(
                    "optional_field",
                    f.ty.span(),
                    "is optional but not an `Option` (or a list or map), so an unset value cannot be told from a zero value".into(),
                    "make it `Option<T>` with `#[serde(default, skip_serializing_if = \"Option::is_none\")]`, or make it required".into(),
                );
            } else if f.serde.skip_serializing_if.is_none() {
                report(
                    "optional_field",
                    name_span,
                    format!(
                        "is optional but always serialized: an unset value is written as {}",
                        if shape.is_option() {
                            "`null`"
                        } else {
                            "an empty value"
                        }
                    ),
                    format!(
                        "add `#[serde(skip_serializing_if = \"{}\")]`",
                        skip_fn(&shape)
                    ),
                );
            }
            if shape.is_collection() && !shape.is_option() && f.serde.default.is_none() {
                report(
                    "optional_field",
                    name_span,
                    "is optional but must be present on input (no serde default)".into(),
                    format!(
                        "add `#[serde(default, skip_serializing_if = \"{}\")]`",
                        skip_fn(&shape)
                    ),
                );
            }
        } else {
            if shape.is_option() {
                report(
                    "required_field",
                    f.ty.span(),
                    "is required but an `Option`".into(),
                    "make it `T` instead of `Option<T>`, or mark it `#[kube(optional)]`".into(),
                );
            }
            if f.serde.default.is_some() && f.default.is_none() {
                report(
                    "required_field",
                    name_span,
                    "is required but has a serde default, so it may be omitted".into(),
                    "drop `#[serde(default)]`, or make the field optional".into(),
                );
            }
            if let Some(skip) = &f.serde.skip_serializing_if {
                report(
                    "required_field",
                    skip.span(),
                    "is required but may be skipped when serializing".into(),
                    "drop `skip_serializing_if`: a required field is always written".into(),
                );
            }
        }

        // Naming.
        if lower.contains("timestamp") {
            report(
                "timestamp_naming",
                name_span,
                format!("JSON name `{json}` says `Timestamp`"),
                format!(
                    "call it `{}`: the conventions use `fooTime`",
                    json.replace("Timestamp", "Time")
                        .replace("timestamp", "time")
                ),
            );
        }
        // `Reference` as a word (`secretReference`, `referenceName`), not
        // inside another word (`preference`).
        if json.contains("Reference") || json.starts_with("reference") {
            report(
                "reference_naming",
                name_span,
                format!("JSON name `{json}` says `Reference`"),
                format!(
                    "call it `{}`: references are `fooRef` (`fooRefs` for lists)",
                    json.replace("References", "Refs")
                        .replace("Reference", "Ref")
                        .replace("references", "refs")
                        .replace("reference", "ref")
                ),
            );
        }
        if lower.contains("phase") {
            report(
                "no_phase",
                name_span,
                format!("JSON name `{json}` is a phase"),
                "phases are deprecated: report state with conditions (`Conditions`, keyed by type)"
                    .into(),
            );
        }
        let unwrapped = shape.unwrapped();
        if matches!(unwrapped, Shape::Prim(Prim::Bool, _)) {
            let b = json.as_bytes();
            if b.len() > 2 && json.starts_with("is") && b[2].is_ascii_uppercase() {
                let rest = &json[2..];
                let fixed = rest[..1].to_ascii_lowercase() + &rest[1..];
                report(
                    "bool_naming",
                    name_span,
                    format!("boolean `{json}` starts with `is`"),
                    format!(
                        "call it `{fixed}`: booleans are adjectives (`fooable`), not questions"
                    ),
                );
            }
        }
        if matches!(unwrapped, Shape::Prim(Prim::I32 | Prim::I64, _))
            && DURATION_WORDS.iter().any(|w| lower.contains(w))
            && !UNITS.iter().any(|u| json.contains(u))
        {
            report(
                "duration_units",
                name_span,
                format!("integer `{json}` looks like a duration but does not say its unit"),
                format!("name the unit: `{json}Seconds` (or Millis, Minutes, ...)"),
            );
        }
        if matches!(unwrapped, Shape::Known(Known::Time | Known::MicroTime, _))
            && !json.ends_with("Time")
        {
            report(
                "time_field_suffix",
                name_span,
                format!("timestamp field `{json}` does not end in `Time`"),
                format!("call it `{json}Time` (for example `lastUpdateTime`)"),
            );
        }

        // Conditions.
        let mut has_condition_list = false;
        shape.walk(|s, _| {
            if let Shape::Vec(item) = s {
                has_condition_list |= matches!(item.unwrapped(), Shape::Known(Known::Condition, _));
            }
        });
        if has_condition_list {
            report(
                "conditions",
                f.ty.span(),
                "is a list of `Condition`s".into(),
                "use `api_core::Conditions`: a list keyed by condition type, with the list-map schema and the condition helpers".into(),
            );
        } else if json == "conditions" && !matches!(unwrapped, Shape::Known(Known::Conditions, _)) {
            report(
                "conditions",
                f.ty.span(),
                "is named `conditions` but is not `Conditions`".into(),
                "use `api_core::Conditions`, with `#[serde(default, skip_serializing_if = \"Conditions::is_empty\")]`".into(),
            );
        }
        if matches!(unwrapped, Shape::Known(Known::Conditions, _)) && !f.optional {
            report(
                "conditions",
                name_span,
                "conditions are required here".into(),
                "conditions are optional: add `#[serde(default, skip_serializing_if = \"Conditions::is_empty\")]`".into(),
            );
        }

        // field_docs
        if f.docs.is_none() {
            report(
                "field_docs",
                name_span,
                "has no doc comment".into(),
                format!(
                    "document it (`/// {json} is ...`): the comment becomes the field's description in the schema and `kubectl explain`"
                ),
            );
        }

        // max_length
        let v = &f.attrs.validations;
        match unwrapped {
            Shape::Prim(Prim::String, _) if v.max_length.is_none() && v.enum_.is_none() && v.format.is_none() => report(
                "max_length",
                name_span,
                "is a string without `max_length`".into(),
                "bound it with `#[kube(max_length = N)]`: unbounded strings make CEL rules expensive".into(),
            ),
            Shape::Vec(item) | Shape::Set { item, .. } => {
                if v.max_items.is_none() {
                    report(
                        "max_length",
                        name_span,
                        "is a list without `max_items`".into(),
                        "bound it with `#[kube(max_items = N)]`: unbounded lists make CEL rules expensive".into(),
                    );
                }
                if matches!(item.unwrapped(), Shape::Prim(Prim::String, _))
                    && f.attrs.items.as_ref().is_none_or(|i| i.max_length.is_none())
                {
                    report(
                        "max_length",
                        name_span,
                        "is a list of strings without `items(max_length = ...)`".into(),
                        "bound the items with `#[kube(items(max_length = N))]`".into(),
                    );
                }
            }
            _ => {}
        }

        max_length_type_layer(k, type_name, f, &shape, &levels, context, diags);
        duplicate_keywords(k, type_name, f, &shape, &levels, context, diags);
        list_type(k, type_name, f, &shape, &levels, context, diags);
    }
}

/// `duplicate_keywords`: a keyword on a field that its (newtype) type
/// already declares.
fn duplicate_keywords(
    k: &TokenStream,
    type_name: &str,
    f: &Field,
    shape: &Shape,
    levels: &[&Levels],
    context: Context,
    diags: &mut Diagnostics,
) {
    let Some((_, lvl)) = lint_level("duplicate_keywords", levels, context) else {
        return;
    };
    if lvl != Level::Deny {
        return;
    }
    let bits = crate::expand::keyword_bits(f);
    let Shape::Other(t) = shape.unwrapped() else {
        return;
    };
    if bits == 0 {
        return;
    }
    let p = quote::quote!(#k::__private);
    let span = f.name_span();
    let ident = quote::format_ident!(
        "{}_keywords",
        super::types::check_name(type_name, f),
        span = span
    );
    diags.check(quote_spanned! {span=>
        const _: () = {
            #[allow(non_upper_case_globals)]
            const #ident: () = #p::facts::check_unique_keywords(<#t as #k::ApiType>::FACTS.keywords, #bits);
            #ident
        };
    });
}

/// `max_length` through aliases: a string the syntax cannot see.
fn max_length_type_layer(
    k: &TokenStream,
    type_name: &str,
    f: &Field,
    shape: &Shape,
    levels: &[&Levels],
    context: Context,
    diags: &mut Diagnostics,
) {
    let Some((lint, lvl)) = lint_level("max_length", levels, context) else {
        return;
    };
    if lvl == Level::Allow {
        return;
    }
    let p = quote::quote!(#k::__private);
    let target = match shape.unwrapped() {
        Shape::Other(t)
            if f.attrs.validations.max_length.is_none() && f.attrs.validations.enum_.is_none() =>
        {
            Some(t)
        }
        Shape::Vec(item) | Shape::Set { item, .. }
            if f.attrs
                .items
                .as_ref()
                .is_none_or(|i| i.max_length.is_none()) =>
        {
            match item.unwrapped() {
                Shape::Other(t) => Some(t),
                _ => None,
            }
        }
        _ => None,
    };
    let Some(t) = target else { return };
    let span = f.name_span();
    match lvl {
        Level::Deny => {
            let ident = quote::format_ident!(
                "{}_max_length",
                super::types::check_name(type_name, f),
                span = span
            );
            diags.check(quote_spanned! {span=>
                const _: () = {
                    #[allow(non_upper_case_globals)]
                    const #ident: () = #p::facts::deny_unbounded_string(<#t as #k::ApiType>::FACTS);
                    #ident
                };
            });
        }
        _ => {
            let msg = message(
                lint,
                &f.subject(type_name),
                "is a string (through its type) without `max_length`",
                "bound it with `#[kube(max_length = N)]`",
            );
            let cond =
                quote::quote!(!::core::matches!(<#t as #k::ApiType>::FACTS.kind, #p::Kind::String));
            diags.check(warn_unless(&cond, "max_length", &msg, span));
        }
    }
}

/// `list_type`: lists of objects declare their list type; `map` keys must
/// exist in the item type, be scalars, and be required or defaulted.
fn list_type(
    k: &TokenStream,
    type_name: &str,
    f: &Field,
    shape: &Shape,
    levels: &[&Levels],
    context: Context,
    diags: &mut Diagnostics,
) {
    let Some((lint, lvl)) = lint_level("list_type", levels, context) else {
        return;
    };
    let Shape::Vec(item) = shape.unwrapped() else {
        return;
    };
    let subject = f.subject(type_name);
    let p = quote::quote!(#k::__private);
    let item_ty = match item.unwrapped() {
        Shape::Other(t) => Some(t),
        _ => None,
    };
    let declared = f.attrs.list_type.as_ref().map(syn::LitStr::value);
    match (&declared, item_ty) {
        (None, Some(t)) if lvl != Level::Allow => {
            let msg = message(
                lint,
                &subject,
                "is a list of objects without a list type",
                "declare how server-side apply merges it: `#[kube(list_type = \"map\", list_map_keys = [\"name\"])]` for items with a unique key, or `list_type = \"atomic\"`",
            );
            let cond =
                quote::quote!(!::core::matches!(<#t as #k::ApiType>::FACTS.kind, #p::Kind::Object));
            diags.check(match lvl {
                Level::Deny => {
                    quote_spanned!(f.name_span()=> const _: () = ::core::assert!(#cond, #msg);)
                }
                _ => warn_unless(&cond, "list_type", &msg, f.name_span()),
            });
        }
        (Some(decl), Some(t)) if decl == "set" => {
            // Always an error: the apiserver rejects such a CRD.
            let ident = quote::format_ident!(
                "{}_list_type_set",
                super::types::check_name(type_name, f),
                span = f.name_span()
            );
            diags.check(quote_spanned! {f.name_span()=>
                const _: () = {
                    #[allow(non_upper_case_globals)]
                    const #ident: () = #p::facts::check_set_items(<#t as #k::ApiType>::FACTS);
                    #ident
                };
            });
        }
        (Some(decl), _) if decl == "map" => {
            let Some(keys) = &f.attrs.list_map_keys else {
                return;
            };
            match item_ty {
                // The apiserver rejects it, so it is an error whatever the level.
                None => diags.error(
                    keys.span(),
                    format!(
                        "{subject}: `list_type = \"map\"` needs object items; a list of scalars is `set` or `atomic` [list_type]"
                    ),
                ),
                Some(t) => {
                    // Always an error: the apiserver rejects such a CRD.
                    let name = super::types::check_name(type_name, f);
                    for key in keys.iter() {
                        let key_name = key.value();
                        let ident = quote::format_ident!("{}_list_map_key_{}", name, key_name, span = key.span());
                        diags.check(quote_spanned! {key.span()=>
                            const _: () = {
                                #[allow(non_upper_case_globals)]
                                const #ident: () = #p::facts::check_list_map_key(<#t as #k::ApiType>::FACTS, #key_name);
                                #ident
                            };
                        });
                    }
                }
            }
        }
        _ => {}
    }
}
