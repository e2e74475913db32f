//! The body of a field's default function (`#[default(expr)]`).
//!
//! The expression is converted into the value's type with `Into`, except
//! an unsuffixed numeric literal on a numeric field (issue 27): through
//! `Into` an unsuffixed integer literal falls back to `i32` before the
//! conversion, and `isize: From<i32>` (and `i16`, `u32`, `f32`, ...) does
//! not hold. Such a literal is written as the function's body, so that
//! rustc types it by the return type (and reports one out of range with
//! its own `literal out of range` error, at the literal).

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, Lit, LitFloat, UnOp};

use crate::model::shape::{Prim, Shape};

/// The body of the function returning the default `expr` as a value of
/// the type whose shape is `value` (`None` when syntax cannot tell).
pub fn body(value: Option<&Shape>, expr: &Expr) -> TokenStream {
    match value {
        Some(Shape::Prim(prim, _)) => numeric_literal(*prim, expr),
        _ => None,
    }
    // Spanned at the expression: a failed conversion is reported there.
    .unwrap_or_else(|| quote_spanned!(expr.span()=> ::core::convert::Into::into(#expr)))
}

/// The shape of the value a field's default function returns: the type
/// under the `Option` when the default applies at runtime, or the field's
/// own type when it only goes into the schema (a required field). `None`
/// for other optional fields (lists, maps): not numbers.
pub fn value_shape(field: &Shape, applies: bool) -> Option<&Shape> {
    match field {
        Shape::Option(inner) if applies => Some(inner),
        _ if applies => None,
        shape => Some(shape),
    }
}

/// `expr` as a literal of the numeric type `prim`: an unsuffixed integer
/// literal (possibly negated) as it is on an integer type and as a float
/// literal on a float type (`1` is `1.0`), an unsuffixed float literal as
/// it is on a float type. `None` for anything else.
fn numeric_literal(prim: Prim, expr: &Expr) -> Option<TokenStream> {
    let (neg, lit) = match expr {
        Expr::Lit(l) if l.attrs.is_empty() => (None, &l.lit),
        Expr::Unary(u) if u.attrs.is_empty() && matches!(u.op, UnOp::Neg(_)) => match &*u.expr {
            Expr::Lit(l) if l.attrs.is_empty() => (Some(&u.op), &l.lit),
            _ => return None,
        },
        _ => return None,
    };
    let literal = match (prim, lit) {
        (Prim::I32 | Prim::I64 | Prim::Narrow(_) | Prim::Unsigned(_), Lit::Int(i))
            if i.suffix().is_empty() =>
        {
            i.to_token_stream()
        }
        (Prim::Float(_), Lit::Int(i)) if i.suffix().is_empty() => {
            // `base10_digits` spells hex, octal and binary literals (and
            // drops underscores), which a float literal cannot.
            LitFloat::new(&format!("{}.0", i.base10_digits()), i.span()).to_token_stream()
        }
        (Prim::Float(_), Lit::Float(f)) if f.suffix().is_empty() => f.to_token_stream(),
        _ => return None,
    };
    Some(quote!(#neg #literal))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body_of(ty: &str, applies: bool, expr: &str) -> String {
        let shape = Shape::of(&syn::parse_str(ty).unwrap());
        let expr: Expr = syn::parse_str(expr).unwrap();
        body(value_shape(&shape, applies), &expr).to_string()
    }

    const INTO: &str = ":: core :: convert :: Into :: into";

    #[test]
    fn integer_literals_on_integer_types_are_written_as_they_are() {
        for ty in [
            "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
        ] {
            let option = format!("Option<{ty}>");
            assert_eq!(body_of(&option, true, "302"), "302", "{ty}");
            assert_eq!(body_of(&option, true, "-302"), "- 302", "{ty}");
            assert_eq!(body_of(&option, true, "0x1_f"), "0x1_f", "{ty}");
            // A required field's default is its own type.
            assert_eq!(body_of(ty, false, "302"), "302", "{ty}");
        }
    }

    #[test]
    fn literals_on_float_types_are_float_literals() {
        for ty in ["f32", "f64"] {
            let option = format!("Option<{ty}>");
            assert_eq!(body_of(&option, true, "1"), "1.0", "{ty}");
            assert_eq!(body_of(&option, true, "-1"), "- 1.0", "{ty}");
            assert_eq!(body_of(&option, true, "0x10"), "16.0", "{ty}");
            assert_eq!(body_of(&option, true, "1_000"), "1000.0", "{ty}");
            assert_eq!(body_of(&option, true, "1.5"), "1.5", "{ty}");
            assert_eq!(body_of(&option, true, "-1.5"), "- 1.5", "{ty}");
            assert_eq!(body_of(&option, true, "1e3"), "1e3", "{ty}");
            assert_eq!(body_of(ty, false, "2"), "2.0", "{ty}");
        }
    }

    #[test]
    fn anything_else_converts_with_into() {
        for (ty, applies, expr) in [
            // Suffixed literals keep their type.
            ("Option<isize>", true, "30u8"),
            ("Option<f64>", true, "1.5f32"),
            // A float literal is no integer.
            ("Option<i32>", true, "1.5"),
            // Not numbers, or types syntax cannot see into.
            ("Option<String>", true, "\"TCP\""),
            ("Option<IntOrString>", true, "8080"),
            ("Option<Quantity>", true, "\"1Gi\""),
            ("Option<Port>", true, "80"),
            ("Option<Box<i32>>", true, "1"),
            // Expressions other than a (negated) literal.
            ("Option<i64>", true, "1 + 1"),
            ("Option<i64>", true, "-(1)"),
            ("Option<i64>", true, "!1"),
            ("Option<i64>", true, "LIMIT"),
            // Optional lists are never numbers; neither is a non-`Option`
            // optional field (which `Defaultable` rejects).
            ("Vec<i32>", true, "vec![1]"),
            ("i32", true, "1"),
        ] {
            let body = body_of(ty, applies, expr);
            assert!(body.starts_with(INTO), "{ty} = {expr}: {body}");
        }
    }
}
