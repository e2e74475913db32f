//! Checked keywords and rules ([`CheckedKeywords`], [`Rule`]) to
//! `__private::Keywords` / `Rule` literals. Nothing here validates: the
//! values were checked by `check::keywords`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;

use crate::check::keywords::{Bound, CheckedKeywords, Rule};
use crate::model::attrs::Number;

/// `Some("...")` or `None`.
pub fn opt_str(v: Option<&str>) -> TokenStream {
    match v {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

/// `Some(Num::Int(..))` or `Some(Num::Float(..))`.
fn num(p: &TokenStream, n: &Number) -> TokenStream {
    match n {
        Number::Int(i) => quote!(::core::option::Option::Some(#p::Num::Int(#i))),
        Number::Float(f) => quote!(::core::option::Option::Some(#p::Num::Float(#f))),
    }
}

/// The `&[Rule { .. }]` literal of checked rules.
pub fn rules(p: &TokenStream, rules: &[Rule]) -> TokenStream {
    let items = rules.iter().map(|r| {
        let rule = &r.rule;
        let message = opt_str(r.message.as_deref());
        let message_expression = opt_str(r.message_expression.as_deref());
        let reason = opt_str(r.reason.as_deref());
        let field_path = opt_str(r.field_path.as_deref());
        let old = match r.optional_old_self {
            Some(b) => quote!(::core::option::Option::Some(#b)),
            None => quote!(::core::option::Option::None),
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

/// The fields of a bound: `minimum: ..` (and `exclusive_minimum: true`),
/// named by `name` and `exclusive`.
fn bound(p: &TokenStream, b: &Bound, name: &str, exclusive: &str) -> Vec<TokenStream> {
    let (name, n) = (
        syn::Ident::new(name, proc_macro2::Span::call_site()),
        num(p, &b.value),
    );
    let mut set = vec![quote!(#name: #n)];
    if b.exclusive {
        let exclusive = syn::Ident::new(exclusive, proc_macro2::Span::call_site());
        set.push(quote!(#exclusive: true));
    }
    set
}

/// The fields of the value keywords: format, pattern (with its compiled
/// regex), bounds, `multiple_of`, counts and enum values.
fn value_fields(p: &TokenStream, kw: &CheckedKeywords<'_>, set: &mut Vec<TokenStream>) {
    if let Some(f) = kw.format {
        set.push(quote!(format: ::core::option::Option::Some(#f)));
    }
    if let Some(pat) = kw.pattern {
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
    if let Some(b) = &kw.minimum {
        set.extend(bound(p, b, "minimum", "exclusive_minimum"));
    }
    if let Some(b) = &kw.maximum {
        set.extend(bound(p, b, "maximum", "exclusive_maximum"));
    }
    if let Some(m) = &kw.multiple_of {
        let n = num(p, m);
        set.push(quote!(multiple_of: #n));
    }
    for (name, val) in [
        ("min_length", kw.min_length),
        ("max_length", kw.max_length),
        ("min_items", kw.min_items),
        ("max_items", kw.max_items),
        ("min_properties", kw.min_properties),
        ("max_properties", kw.max_properties),
    ] {
        if let Some(i) = val {
            let ident = syn::Ident::new(name, proc_macro2::Span::call_site());
            set.push(quote!(#ident: ::core::option::Option::Some(#i)));
        }
    }
    if let Some(values) = kw.enum_values {
        set.push(quote!(enum_values: &[#(#values),*]));
    }
    if let Some(values) = kw.int_enum_values {
        set.push(quote!(int_enum_values: &[#(#values),*]));
    }
}

/// The `Keywords` literal of checked keywords, or `None` when no keyword
/// is set (so that nothing is generated for plain fields).
pub fn keywords(p: &TokenStream, kw: &CheckedKeywords<'_>) -> Option<TokenStream> {
    let mut set: Vec<TokenStream> = Vec::new();
    if let Some(d) = kw.description {
        set.push(quote!(description: ::core::option::Option::Some(#d)));
    }
    if let Some(t) = kw.title {
        set.push(quote!(title: ::core::option::Option::Some(#t)));
    }
    value_fields(p, kw, &mut set);
    if let Some(t) = kw.list_type.map(|t| t.name()) {
        set.push(quote!(list_type: ::core::option::Option::Some(#t)));
    }
    if !kw.list_map_keys.is_empty() {
        let keys = kw.list_map_keys.iter().map(|k| k.value());
        set.push(quote!(list_map_keys: &[#(#keys),*]));
    }
    if let Some(t) = kw.map_type.map(|t| t.lit) {
        set.push(quote!(map_type: ::core::option::Option::Some(#t)));
    }
    for (on, name) in [
        (kw.int_or_string, "int_or_string"),
        (kw.preserve_unknown_fields, "preserve_unknown_fields"),
        (kw.embedded_resource, "embedded_resource"),
    ] {
        if on {
            let ident = syn::Ident::new(name, proc_macro2::Span::call_site());
            set.push(quote!(#ident: true));
        }
    }
    if let Some(d) = kw.external_docs {
        let url = &d.url;
        let desc = opt_str(d.description.as_ref().map(LitStr::value).as_deref());
        set.push(quote!(external_docs: ::core::option::Option::Some((#url, #desc))));
    }
    if !kw.rules.is_empty() {
        let r = rules(p, &kw.rules);
        set.push(quote!(validations: #r));
    }
    if let Some(inner) = kw.items.as_deref().and_then(|items| keywords(p, items)) {
        set.push(quote!(items: ::core::option::Option::Some(&#inner)));
    }
    if set.is_empty() {
        return None;
    }
    Some(quote!(#p::Keywords { #(#set,)* ..#p::Keywords::NONE }))
}
