//! Attribute values to `__private::Keywords` / `Rule` literals.

use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;

use crate::lints::Diagnostics;
use crate::model::attrs::{ExternalDocs, Number, ValidationRule, Validations};

pub fn opt_str(v: Option<&str>) -> TokenStream {
    match v {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

fn num(p: &TokenStream, n: &Number) -> TokenStream {
    match n {
        Number::Int(i) => quote!(::core::option::Option::Some(#p::Num::Int(#i))),
        Number::Float(f) => quote!(::core::option::Option::Some(#p::Num::Float(#f))),
    }
}

const REASONS: &[&str] = &[
    "FieldValueRequired",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueDuplicate",
];

/// A CEL rule: written in an attribute, or generated (unions, immutability).
pub enum RuleSrc<'a> {
    Written(&'a ValidationRule),
    Generated { rule: String, message: String },
}

pub fn rules(p: &TokenStream, rules: &[RuleSrc<'_>], diags: &mut Diagnostics) -> TokenStream {
    let none = quote!(::core::option::Option::None);
    let items = rules.iter().map(|r| {
        let r = match r {
            RuleSrc::Generated { rule, message } => {
                return quote! {
                    #p::Rule {
                        rule: #rule,
                        message: ::core::option::Option::Some(#message),
                        message_expression: #none,
                        reason: #none,
                        field_path: #none,
                        optional_old_self: #none,
                    }
                };
            }
            RuleSrc::Written(r) => r,
        };
        let rule = r.rule.value();
        if rule.trim().is_empty() {
            diags.error(r.rule.span(), "a validation rule cannot be blank");
        }
        let message = r.message.as_ref().map(LitStr::value);
        if let Some(m) = &r.message {
            if m.value().trim().is_empty() || m.value().contains('\n') {
                diags.error(
                    m.span(),
                    "a validation message must be non-blank and on one line",
                );
            }
        } else if rule.contains('\n') && r.message_expression.is_none() {
            diags.error(r.rule.span(), "a multi-line rule needs a `message`");
        }
        if let Some(reason) = &r.reason
            && !REASONS.contains(&reason.as_str())
        {
            diags.error(
                reason.span(),
                format!("`reason` must be one of {}", REASONS.join(", ")),
            );
        }
        let message = opt_str(message.as_deref());
        let message_expression =
            opt_str(r.message_expression.as_ref().map(LitStr::value).as_deref());
        let reason = opt_str(r.reason.as_ref().map(|s| s.as_str()));
        let field_path = opt_str(r.field_path.as_ref().map(LitStr::value).as_deref());
        let old = match r.optional_old_self {
            Some(b) => quote!(::core::option::Option::Some(#b)),
            None => none.clone(),
        };
        quote! {
            #p::Rule {
                rule: #rule,
                message: #message,
                message_expression: #message_expression,
                reason: #reason,
                field_path: #field_path,
                optional_old_self: #old,
            }
        }
    });
    quote!(&[#(#items),*])
}

/// Extra keywords beyond the validation set.
#[derive(Default)]
pub struct Extra<'a> {
    pub description: Option<&'a str>,
    pub title: Option<&'a LitStr>,
    pub external_docs: Option<&'a ExternalDocs>,
    pub list_type: Option<String>,
    pub list_map_keys: Vec<String>,
    pub map_type: Option<&'a LitStr>,
    pub int_or_string: bool,
    pub preserve_unknown_fields: bool,
    pub embedded_resource: bool,
    pub rules: Vec<RuleSrc<'a>>,
    pub items: Option<&'a Validations>,
}

fn check_pattern(pattern: &LitStr, diags: &mut Diagnostics) {
    if let Err(e) = regex_syntax::Parser::new().parse(&pattern.value()) {
        diags.error(
            pattern.span(),
            format!("`pattern` is not a valid regular expression: {e}"),
        );
    }
}

/// The `Keywords` literal, or `None` when no keyword is set (so that
/// nothing is generated for plain fields).
pub fn keywords(
    p: &TokenStream,
    v: &Validations,
    extra: &Extra<'_>,
    diags: &mut Diagnostics,
) -> Option<TokenStream> {
    let mut set: Vec<TokenStream> = Vec::new();
    let some = |t: TokenStream| quote!(::core::option::Option::Some(#t));
    if let Some(d) = extra.description {
        set.push(quote!(description: ::core::option::Option::Some(#d)));
    }
    if let Some(t) = extra.title {
        set.push(quote!(title: ::core::option::Option::Some(#t)));
    }
    if let Some(f) = &v.format {
        set.push(quote!(format: ::core::option::Option::Some(#f)));
    }
    if let Some(pat) = &v.pattern {
        check_pattern(pat, diags);
        set.push(quote!(pattern: ::core::option::Option::Some(#pat)));
        // Compiled once, in a static where the pattern is declared.
        set.push(quote!(regex: ::core::option::Option::Some({
            fn __re() -> ::core::option::Option<&'static #p::Regex> {
                static RE: ::std::sync::OnceLock<::core::option::Option<#p::Regex>> = ::std::sync::OnceLock::new();
                #p::checks::cached_go_regex(&RE, #pat)
            }
            __re as fn() -> ::core::option::Option<&'static #p::Regex>
        })));
    }
    match (&v.minimum, &v.exclusive_minimum) {
        (Some(_), Some(e)) => diags.error(
            e.span(),
            "give either `minimum` or `exclusive_minimum`, not both",
        ),
        (Some(m), None) => set.push({
            let n = num(p, m);
            quote!(minimum: #n)
        }),
        (None, Some(e)) => {
            let n = num(p, e);
            set.push(quote!(minimum: #n));
            set.push(quote!(exclusive_minimum: true));
        }
        (None, None) => {}
    }
    match (&v.maximum, &v.exclusive_maximum) {
        (Some(_), Some(e)) => diags.error(
            e.span(),
            "give either `maximum` or `exclusive_maximum`, not both",
        ),
        (Some(m), None) => set.push({
            let n = num(p, m);
            quote!(maximum: #n)
        }),
        (None, Some(e)) => {
            let n = num(p, e);
            set.push(quote!(maximum: #n));
            set.push(quote!(exclusive_maximum: true));
        }
        (None, None) => {}
    }
    if let Some(m) = &v.multiple_of {
        if matches!(**m, Number::Int(0))
            || matches!(**m, Number::Float(f) if f <= 0.0)
            || matches!(**m, Number::Int(i) if i < 0)
        {
            diags.error(m.span(), "`multiple_of` must be greater than 0");
        }
        let n = num(p, m);
        set.push(quote!(multiple_of: #n));
    }
    for (name, val) in [
        ("min_length", &v.min_length),
        ("max_length", &v.max_length),
        ("min_items", &v.min_items),
        ("max_items", &v.max_items),
        ("min_properties", &v.min_properties),
        ("max_properties", &v.max_properties),
    ] {
        if let Some(c) = val {
            let ident = syn::Ident::new(name, proc_macro2::Span::call_site());
            let n = some({
                let i = c.0;
                quote!(#i)
            });
            set.push(quote!(#ident: #n));
        }
    }
    for (lo, hi, what) in [
        (&v.min_length, &v.max_length, "length"),
        (&v.min_items, &v.max_items, "items"),
        (&v.min_properties, &v.max_properties, "properties"),
    ] {
        if let (Some(lo), Some(hi)) = (lo, hi)
            && lo.0 > hi.0
        {
            diags.error(
                lo.span(),
                format!("min {what} {} is larger than max {what} {}", lo.0, hi.0),
            );
        }
    }
    if let Some(values) = &v.enum_ {
        set.push(quote!(enum_values: &[#(#values),*]));
    }
    if let Some(t) = &extra.list_type {
        set.push(quote!(list_type: ::core::option::Option::Some(#t)));
    }
    if !extra.list_map_keys.is_empty() {
        let keys = &extra.list_map_keys;
        set.push(quote!(list_map_keys: &[#(#keys),*]));
    }
    if let Some(t) = extra.map_type {
        set.push(quote!(map_type: ::core::option::Option::Some(#t)));
    }
    if extra.int_or_string {
        set.push(quote!(int_or_string: true));
    }
    if extra.preserve_unknown_fields {
        set.push(quote!(preserve_unknown_fields: true));
    }
    if extra.embedded_resource {
        set.push(quote!(embedded_resource: true));
    }
    if let Some(d) = extra.external_docs {
        let url = &d.url;
        let desc = opt_str(d.description.as_ref().map(LitStr::value).as_deref());
        set.push(quote!(external_docs: ::core::option::Option::Some((#url, #desc))));
    }
    if !extra.rules.is_empty() {
        let r = rules(p, &extra.rules, diags);
        set.push(quote!(validations: #r));
    }
    if let Some(items) = extra.items
        && let Some(inner) = keywords(p, items, &Extra::default(), diags)
    {
        set.push(quote!(items: ::core::option::Option::Some(&#inner)));
    }
    if set.is_empty() {
        return None;
    }
    Some(quote!(#p::Keywords { #(#set,)* ..#p::Keywords::NONE }))
}
