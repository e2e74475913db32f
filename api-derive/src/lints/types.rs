//! Lints about the types of fields: `integer_width`, `no_floats`,
//! `no_maps`, `hash_map`, `no_durations`, `no_bools`. Syntax reports what
//! it can see (at the exact token); the type layer asserts the facts of
//! what syntax cannot see into (aliases, nested types) in `const` items.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::{Context, Diagnostics, Finding, Level, Levels, LintId, level, level_with_origin};
use crate::facts::Consts;
use crate::model::Field;
use crate::model::shape::{Known, Prim, Shape};

/// A lint that a facts flag carries through the type layer.
struct FlagLint {
    lint: LintId,
    /// The `api_core::facts` flags the lint is about.
    flags: &'static [&'static str],
    /// What the flag means, for type-layer messages.
    what: &'static str,
    help: &'static str,
    /// The help of type-layer messages.
    short_help: &'static str,
}

const FLAG_LINTS: &[FlagLint] = &[
    FlagLint {
        lint: LintId::IntegerWidth,
        short_help: "use `i32` or `i64`",
        flags: &["UNSIGNED", "NARROW_INT"],
        what: "an integer other than `i32`/`i64`",
        help: "use `i32` (or `i64` where values may exceed 2^31) and bound it with `#[kube(minimum = 0)]` if it must not be negative",
    },
    FlagLint {
        lint: LintId::NoFloats,
        short_help: "use an integer with units, or a string",
        flags: &["FLOAT"],
        what: "a float",
        help: "floats do not round-trip between languages: use an integer with the unit in the name (`fooMillis`), or a string (a `Quantity`) for fractional values",
    },
    FlagLint {
        lint: LintId::NoMaps,
        short_help: "use a list of named objects",
        flags: &["NON_STRING_MAP"],
        what: "a map whose values are not strings",
        help: "use a list of objects with a unique name, `#[kube(list_type = \"map\", list_map_keys = [\"name\"])]`; only `BTreeMap<String, String>` (labels-like data) is a map",
    },
    FlagLint {
        lint: LintId::HashMap,
        short_help: "use `BTreeMap`",
        flags: &["HASH_MAP"],
        what: "a `HashMap` or `HashSet`",
        help: "use `BTreeMap`/`BTreeSet`: a `HashMap` serializes in random order, so every write looks like a change",
    },
    FlagLint {
        lint: LintId::NoDurations,
        short_help: "use an integer with units (`fooSeconds`)",
        flags: &["DURATION"],
        what: "a `Duration`",
        help: "use an integer with the unit in the name (`timeoutSeconds: i32`): clients in other languages cannot parse Rust durations",
    },
    FlagLint {
        lint: LintId::NoBools,
        short_help: "use a string enum",
        flags: &["BOOL"],
        what: "a `bool`",
        help: "a string enum leaves room for a third state later (`Enabled`/`Disabled`)",
    },
];

/// The syntax-layer problem of one shape node for a flag lint, if any.
fn syntax_problem(lint: LintId, s: &Shape) -> Option<String> {
    match (lint, s) {
        (LintId::IntegerWidth, Shape::Prim(Prim::Unsigned(n), _)) => {
            Some(format!("`{n}` is an unsigned integer"))
        }
        (LintId::IntegerWidth, Shape::Prim(Prim::Narrow(n), _)) => {
            Some(format!("`{n}` is not `i32` or `i64`"))
        }
        (LintId::NoFloats, Shape::Prim(Prim::Float(n), _)) => Some(format!("`{n}` is a float")),
        (LintId::NoDurations, Shape::Known(Known::Duration, _)) => Some("is a `Duration`".into()),
        (LintId::NoBools, Shape::Prim(Prim::Bool, _)) => Some("is a `bool`".into()),
        (LintId::HashMap, Shape::Map { hash: true, .. }) => Some("is a `HashMap`".into()),
        (LintId::HashMap, Shape::Set { hash: true, .. }) => Some("is a `HashSet`".into()),
        (LintId::NoMaps, Shape::Map { key, value, .. }) => {
            let key_ok = matches!(
                key.unwrapped(),
                Shape::Prim(Prim::String, _) | Shape::Other(_)
            );
            match value.unwrapped() {
                Shape::Prim(Prim::String, _) if key_ok => None,
                // An opaque value (a string enum?) is left to the type layer.
                Shape::Other(_) if key_ok => None,
                _ if !key_ok => Some("is a map whose keys are not strings".into()),
                _ => Some("is a map whose values are not strings".into()),
            }
        }
        _ => None,
    }
}

/// Which flags of a field's type stop at this field: the ones its lints
/// deny here (the build fails otherwise), and the ones a lint level set
/// here or on the type decides. Floats keep going up unless denied or
/// explicitly allowed, because whether they are an error depends on
/// whether the type ends up under `spec`.
pub fn field_mask(f: &Field, outer: &[&Levels], context: Context) -> Consts {
    let levels: Vec<&Levels> = outer.iter().copied().chain([&f.levels]).collect();
    let mut masked = Consts::default();
    for fl in FLAG_LINTS {
        let (lvl, explicit) = level_with_origin(fl.lint, &levels, context);
        let stops = match lvl {
            Level::Deny => true,
            _ if explicit => true,
            Level::Warn => fl.lint != LintId::NoFloats,
            Level::Allow => false,
        };
        if stops {
            masked.extend(&Consts::of(fl.flags));
        }
    }
    // `allow(status_optional)` on the field or its type: the root's check of
    // its status type skips the field.
    if level(LintId::StatusOptional, &levels, context) == Level::Allow {
        masked.insert("ALLOW_REQUIRED");
    }
    // `allow(conditions)`: the same for the root's check of its status'
    // conditions.
    if level(LintId::Conditions, &levels, context) == Level::Allow {
        masked.insert("ALLOW_REQUIRED_CONDITIONS");
    }
    masked
}

/// The syntax-layer findings and the type-layer checks of one field.
pub fn type_layer(
    k: &TokenStream,
    type_name: &str,
    f: &Field,
    shape: &Shape,
    outer: &[&Levels],
    context: Context,
    diags: &mut Diagnostics,
) {
    let levels: Vec<&Levels> = outer.iter().copied().chain([&f.levels]).collect();
    syntax_layer(type_name, f, shape, &levels, context, diags);
    type_checks(k, type_name, f, shape, &levels, context, diags);
}

/// Syntax layer: one walk, every flag lint at every node it recognises.
fn syntax_layer(
    type_name: &str,
    f: &Field,
    shape: &Shape,
    levels: &[&Levels],
    context: Context,
    diags: &mut Diagnostics,
) {
    shape.walk(|node, at| {
        for fl in FLAG_LINTS {
            if let Some(problem) = syntax_problem(fl.lint, node) {
                let where_ = if at.is_empty() {
                    String::new()
                } else {
                    format!(" (as the {at})")
                };
                diags.lint(
                    Finding {
                        lint: fl.lint,
                        span: node.span(),
                        subject: f.subject(type_name),
                        problem: format!("{problem}{where_}"),
                        help: fl.help.to_string(),
                    },
                    levels,
                    context,
                );
            }
        }
    });
}

/// Type layer: `const` checks of what syntax cannot see into (opaque
/// types, map values); most fields have nothing.
fn type_checks(
    k: &TokenStream,
    type_name: &str,
    f: &Field,
    shape: &Shape,
    levels: &[&Levels],
    context: Context,
    diags: &mut Diagnostics,
) {
    let opaque = shape.opaque();
    let mut map_values: Vec<(Box<syn::Type>, Span)> = Vec::new();
    shape.walk(|node, _| {
        if let Shape::Map { value, span, .. } = node
            && let Shape::Other(t) = value.unwrapped()
        {
            map_values.push((t.clone(), *span));
        }
    });
    if opaque.is_empty() && map_values.is_empty() {
        return;
    }
    let p = quote!(#k::__private);
    // (facts expression, the type, span, lints it is checked for)
    let mut targets: Vec<(TokenStream, &syn::Type, Span, &[LintId])> = opaque
        .into_iter()
        .map(|t| {
            // `hash_map` is a warning: nested types report it themselves.
            let all: &[LintId] = &[
                LintId::IntegerWidth,
                LintId::NoFloats,
                LintId::NoMaps,
                LintId::NoDurations,
                LintId::NoBools,
            ];
            (
                quote!(<#t as #k::ApiType>::FACTS.deep_flags),
                t,
                t.span(),
                all,
            )
        })
        .collect();
    for (t, span) in &map_values {
        targets.push((
            quote!((if ::core::matches!(<#t as #k::ApiType>::FACTS.kind, #p::Kind::String | #p::Kind::IntOrString) { 0 } else { #p::facts::NON_STRING_MAP })),
            t,
            *span,
            &[LintId::NoMaps],
        ));
    }
    // The check is a `const` named after the field, so that rustc's
    // "evaluation of `_::Type_field` failed" names it; the messages are
    // static in api-core (`facts::deny_flags`).
    let name = check_name(type_name, f);
    for (facts, ty, span, lints) in targets {
        let mut denied = Consts::default();
        for fl in FLAG_LINTS.iter().filter(|fl| lints.contains(&fl.lint)) {
            match level(fl.lint, levels, context) {
                Level::Deny => denied.extend(&Consts::of(fl.flags)),
                // A float in a status type, or a duration the lint warns
                // about (only the facts tell a `Duration` that is not
                // std's or api-core's): a warning at the field.
                Level::Warn
                    if (fl.lint == LintId::NoFloats && context == Context::Status)
                        || fl.lint == LintId::NoDurations =>
                {
                    let flags = Consts::of(fl.flags).tokens(&p);
                    let cond = quote!((#facts & (#flags)) == 0);
                    let msg = format!(
                        "{}: `{}` is or contains {} [{}]\n  help: {}",
                        f.subject(type_name),
                        quote!(#ty).to_string().replace(' ', ""),
                        fl.what,
                        fl.lint.name(),
                        fl.short_help
                    );
                    diags.check(warn_unless(&cond, fl.lint, &msg, span));
                }
                _ => {}
            }
        }
        if !denied.is_empty() {
            let ident = quote::format_ident!("{}", name, span = span);
            let denied = denied.tokens(&p);
            diags.check(quote_spanned! {span=>
                const _: () = {
                    #[allow(non_upper_case_globals)]
                    const #ident: () = #p::facts::deny_flags(#facts, #denied);
                    #ident
                };
            });
        }
    }
}

/// `Type_field`: a name for a field's type-layer check.
pub fn check_name(type_name: &str, f: &Field) -> String {
    let field = f
        .ident
        .as_ref()
        .map_or_else(|| "0".to_string(), ToString::to_string);
    let field = field.strip_prefix("r#").unwrap_or(&field);
    format!("{}_{}", type_name.replace("::", "_"), field)
}

/// A compiler warning, spanned at `span`, unless the const `cond` holds:
/// a deprecated associated const chosen by a const-generic `bool`.
pub fn warn_unless(cond: &TokenStream, lint: LintId, msg: &str, span: Span) -> TokenStream {
    let name = format_ident!("{}", lint.name(), span = span);
    quote_spanned! {span=>
        const _: () = {
            #[allow(dead_code)]
            struct __Lint<const OK: bool>;
            #[allow(dead_code, non_upper_case_globals)]
            impl __Lint<false> {
                #[deprecated(note = #msg)]
                const #name: () = ();
            }
            #[allow(dead_code, non_upper_case_globals)]
            impl __Lint<true> {
                const #name: () = ();
            }
            __Lint::<{ #cond }>::#name
        };
    }
}
