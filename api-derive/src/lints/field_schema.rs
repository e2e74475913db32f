//! Lints about one field's schema keywords: bounded strings and lists
//! (`max_length`), keywords its type declares too, list types and
//! list-map keys.

use quote::{format_ident, quote, quote_spanned};

use super::fields::FieldCx;
use super::types::{check_name, warn_unless};
use super::{Level, LintId, message};
use crate::model::shape::{Prim, Shape};

/// `max_length` as written: strings and lists (and the strings in lists)
/// are bounded.
pub(super) fn max_length(cx: &mut FieldCx<'_>) {
    const LINT: LintId = LintId::MaxLength;
    let f = cx.f;
    let v = &f.attrs.validations;
    match cx.shape.unwrapped() {
        Shape::Prim(Prim::String, _)
            if v.max_length.is_none() && v.enum_.is_none() && v.format.is_none() =>
        {
            cx.report(
                LINT,
                cx.name_span(),
                "is a string without `max_length`".into(),
                "bound it with `#[kube(max_length = N)]`: unbounded strings make CEL rules expensive".into(),
            );
        }
        Shape::Vec(item) | Shape::Set { item, .. } => {
            if v.max_items.is_none() {
                cx.report(
                    LINT,
                    cx.name_span(),
                    "is a list without `max_items`".into(),
                    "bound it with `#[kube(max_items = N)]`: unbounded lists make CEL rules expensive".into(),
                );
            }
            if matches!(item.unwrapped(), Shape::Prim(Prim::String, _))
                && f.attrs
                    .items
                    .as_ref()
                    .is_none_or(|i| i.max_length.is_none())
            {
                cx.report(
                    LINT,
                    cx.name_span(),
                    "is a list of strings without `items(max_length = ...)`".into(),
                    "bound the items with `#[kube(items(max_length = N))]`".into(),
                );
            }
        }
        _ => {}
    }
}

/// `max_length` through aliases: a string the syntax cannot see.
pub(super) fn max_length_type_layer(cx: &mut FieldCx<'_>) {
    const LINT: LintId = LintId::MaxLength;
    let lvl = cx.level(LINT);
    if lvl == Level::Allow {
        return;
    }
    let (k, f) = (cx.k, cx.f);
    let p = cx.private();
    let target = match cx.shape.unwrapped() {
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
    let span = cx.name_span();
    if lvl == Level::Deny {
        let ident = cx.check_ident(LINT.name(), span);
        cx.diags.check(quote_spanned! {span=>
            const _: () = {
                #[allow(non_upper_case_globals)]
                const #ident: () = #p::facts::deny_unbounded_string(<#t as #k::ApiType>::FACTS);
                #ident
            };
        });
    } else {
        let msg = message(
            LINT,
            &cx.subject,
            "is a string (through its type) without `max_length`",
            "bound it with `#[kube(max_length = N)]`",
        );
        let cond = quote!(!::core::matches!(<#t as #k::ApiType>::FACTS.kind, #p::Kind::String));
        cx.diags.check(warn_unless(&cond, LINT, &msg, span));
    }
}

/// `duplicate_keywords`: a keyword on a field that its (newtype) type
/// already declares.
pub(super) fn duplicate_keywords(cx: &mut FieldCx<'_>) {
    if cx.level(LintId::DuplicateKeywords) != Level::Deny {
        return;
    }
    let bits = crate::expand::keyword_bits(cx.f);
    let Shape::Other(t) = cx.shape.unwrapped() else {
        return;
    };
    if bits.is_empty() {
        return;
    }
    let (k, p) = (cx.k, cx.private());
    let bits = bits.tokens(&p);
    let span = cx.name_span();
    let ident = cx.check_ident("keywords", span);
    cx.diags.check(quote_spanned! {span=>
        const _: () = {
            #[allow(non_upper_case_globals)]
            const #ident: () = #p::facts::check_unique_keywords(<#t as #k::ApiType>::FACTS.keywords, #bits);
            #ident
        };
    });
}

/// `list_type`: lists of objects declare their list type; `map` keys must
/// exist in the item type, be scalars, and be required or defaulted.
pub(super) fn list_type(cx: &mut FieldCx<'_>) {
    const LINT: LintId = LintId::ListType;
    let Shape::Vec(item) = cx.shape.unwrapped() else {
        return;
    };
    let lvl = cx.level(LINT);
    let (k, f, p) = (cx.k, cx.f, cx.private());
    let span = cx.name_span();
    let item_ty: Option<&syn::Type> = match item.unwrapped() {
        Shape::Other(t) => Some(t),
        _ => None,
    };
    let declared = f.attrs.list_type.as_ref().map(syn::LitStr::value);
    match (&declared, item_ty) {
        (None, Some(t)) if lvl != Level::Allow => {
            let msg = message(
                LINT,
                &cx.subject,
                "is a list of objects without a list type",
                "declare how server-side apply merges it: `#[kube(list_type = \"map\", list_map_keys = [\"name\"])]` for items with a unique key, or `list_type = \"atomic\"`",
            );
            let cond = quote!(!::core::matches!(<#t as #k::ApiType>::FACTS.kind, #p::Kind::Object));
            cx.diags.check(match lvl {
                Level::Deny => {
                    quote_spanned!(span=> const _: () = ::core::assert!(#cond, #msg);)
                }
                _ => warn_unless(&cond, LINT, &msg, span),
            });
        }
        (Some(decl), Some(t)) if decl == "set" => {
            // Always an error: the apiserver rejects such a CRD.
            let ident = cx.check_ident("list_type_set", span);
            cx.diags.check(quote_spanned! {span=>
                const _: () = {
                    #[allow(non_upper_case_globals)]
                    const #ident: () = #p::facts::check_set_items(<#t as #k::ApiType>::FACTS);
                    #ident
                };
            });
        }
        (Some(decl), _) if decl == "map" => list_map_keys(cx, item_ty),
        _ => {}
    }
}

/// `list_type = "map"`: the items are objects, and each of
/// `list_map_keys` is a field of them that fits a key. Always an error,
/// whatever the level: the apiserver rejects such a CRD.
fn list_map_keys(cx: &mut FieldCx<'_>, item_ty: Option<&syn::Type>) {
    let Some(keys) = &cx.f.attrs.list_map_keys else {
        return;
    };
    let Some(t) = item_ty else {
        cx.diags.error(
            keys.span(),
            format!(
                "{}: `list_type = \"map\"` needs object items; a list of scalars is `set` or `atomic` [{}]",
                cx.subject,
                LintId::ListType.name()
            ),
        );
        return;
    };
    let (k, p) = (cx.k, cx.private());
    let name = check_name(cx.type_name, cx.f);
    for key in keys.iter() {
        let key_name = key.value();
        let ident = format_ident!("{}_list_map_key_{}", name, key_name, span = key.span());
        cx.diags.check(quote_spanned! {key.span()=>
            const _: () = {
                #[allow(non_upper_case_globals)]
                const #ident: () = #p::facts::check_list_map_key(<#t as #k::ApiType>::FACTS, #key_name);
                #ident
            };
        });
    }
}
