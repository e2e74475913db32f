//! `printcolumn_path`: printer-column, scale and selectable-field paths
//! must resolve through the resource's types to a field of a fitting type.
//! Checked at compile time by resolving the path through the facts.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::LitStr;

use super::{Context, Diagnostics, Finding, Level, Levels, LintId, level, message};

/// The prefixes of a path at each segment boundary:
/// `.spec.ports[0].port` → `.spec`, `.spec.ports`, `.spec.ports[0]`, `.spec.ports[0].port`.
fn prefixes(path: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0;
    for (i, c) in path.char_indices() {
        match c {
            '[' if depth == 0 => {
                if i > 0 {
                    out.push(&path[..i]);
                }
                depth += 1;
            }
            '[' => depth += 1,
            ']' => depth -= 1,
            '.' if depth == 0 && i > 0 => out.push(&path[..i]),
            _ => {}
        }
    }
    out.push(path);
    out.dedup();
    out
}

/// What a path must lead to.
pub enum Expect {
    /// A printer column of this type.
    Column(String),
    /// An integer (scale replicas).
    Integer,
    /// A string (scale label selector).
    String,
    /// A string, boolean or integer (selectable fields).
    Selectable,
}

/// The resource whose paths are checked: what every path check reads.
struct PathCx<'a> {
    /// The path of `api_core`.
    k: &'a TokenStream,
    /// The root struct the paths resolve in.
    root: &'a syn::Ident,
    /// The resource's lint levels.
    levels: &'a Levels,
}

/// Asserts that `lit`'s path resolves in `cx.root` and leads to `expect`.
fn check_path(cx: &PathCx<'_>, what: &str, lit: &LitStr, expect: Expect, diags: &mut Diagnostics) {
    let PathCx { k, root, levels } = *cx;
    let lint = LintId::PrintcolumnPath;
    let lvl = level(lint, &[levels], Context::Spec);
    if lvl == Level::Allow {
        return;
    }
    let p = quote!(#k::__private);
    let path = lit.value();
    let subject = format!("{root} {what}");
    let span: Span = lit.span();
    let facts = quote!(<#root as #k::ApiType>::FACTS);
    let mut checks = Vec::new();
    let mut parent = String::from("the object");
    for prefix in prefixes(&path) {
        let msg = message(
            lint,
            &subject,
            &format!("`{path}` does not resolve: `{prefix}` is not a field of {parent}"),
            "point it at a field that exists, by JSON name (`.spec.replicas`, `.status.conditions[?(@.type==\"Ready\")].status`)",
        );
        checks.push(quote_spanned! {span=>
            ::core::assert!(#p::facts::resolve(#facts, #prefix).is_some(), #msg);
        });
        parent = format!("`{prefix}`");
    }
    let (cond, wanted) = match &expect {
        Expect::Column(t) => (
            quote!(#p::facts::fits_column(__f, #t)),
            format!("a column of type `{t}`"),
        ),
        Expect::Integer => (
            quote!(::core::matches!(__f.kind, #p::Kind::Integer)),
            "an integer".to_string(),
        ),
        Expect::String => (
            quote!(::core::matches!(__f.kind, #p::Kind::String)),
            "a string".to_string(),
        ),
        Expect::Selectable => (
            quote!(
                ::core::matches!(__f.kind, #p::Kind::String | #p::Kind::Integer | #p::Kind::Boolean)
            ),
            "a string, integer or boolean".to_string(),
        ),
    };
    let msg = message(
        lint,
        &subject,
        &format!("`{path}` does not lead to {wanted}"),
        "point it at a field of that type, or change the declared type",
    );
    let body = if lvl == Level::Deny {
        quote_spanned! {span=>
            #(#checks)*
            if let ::core::option::Option::Some(__f) = #p::facts::resolve(#facts, #path) {
                ::core::assert!(#cond, #msg);
            }
        }
    } else {
        // Warn: one deprecated marker if the whole path is wrong.
        let ok = quote!(match #p::facts::resolve(#facts, #path) {
            ::core::option::Option::Some(__f) => #cond,
            ::core::option::Option::None => false,
        });
        diags.late_check(super::types::warn_unless(&ok, lint, &msg, span));
        return;
    };
    diags.late_check(quote_spanned! {span=>
        const _: () = { #body };
    });
}

/// Checks the printcolumn, scale and selectable paths of a resource.
pub fn check_resource_paths(
    k: &TokenStream,
    root: &syn::Ident,
    attrs: &crate::model::attrs::ContainerAttrs,
    levels: &Levels,
    diags: &mut Diagnostics,
) {
    let cx = PathCx { k, root, levels };
    for col in &attrs.printcolumn {
        let what = format!("printcolumn `{}`", col.name.value());
        check_path(
            &cx,
            &what,
            &col.json_path,
            Expect::Column(col.type_.value()),
            diags,
        );
    }
    if let Some(scale) = &attrs.scale {
        check_path(
            &cx,
            "scale spec_replicas_path",
            &scale.spec_replicas_path,
            Expect::Integer,
            diags,
        );
        check_path(
            &cx,
            "scale status_replicas_path",
            &scale.status_replicas_path,
            Expect::Integer,
            diags,
        );
        if let Some(l) = &scale.label_selector_path {
            check_path(&cx, "scale label_selector_path", l, Expect::String, diags);
        }
    }
    for s in &attrs.selectable {
        if s.value().starts_with(".metadata") {
            diags.lint(
                Finding {
                    lint: LintId::PrintcolumnPath,
                    span: s.span(),
                    subject: format!("{root} selectable"),
                    problem: format!("`{}` is under metadata", s.value()),
                    help: "the apiserver already selects on metadata.name and metadata.namespace; point selectable fields at spec or status".into(),
                },
                &[levels],
                Context::Spec,
            );
        }
        check_path(&cx, "selectable", s, Expect::Selectable, diags);
    }
}

#[cfg(test)]
mod tests {
    use super::prefixes;

    #[test]
    fn path_prefixes() {
        assert_eq!(prefixes(".spec.replicas"), [".spec", ".spec.replicas"]);
        assert_eq!(
            prefixes(".spec.ports[0].port"),
            [
                ".spec",
                ".spec.ports",
                ".spec.ports[0]",
                ".spec.ports[0].port"
            ]
        );
        assert_eq!(
            prefixes(".status.conditions[?(@.type==\"Ready\")].status"),
            [
                ".status",
                ".status.conditions",
                ".status.conditions[?(@.type==\"Ready\")]",
                ".status.conditions[?(@.type==\"Ready\")].status"
            ]
        );
    }
}
