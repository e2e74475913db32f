//! What a field's written type is, as far as syntax can tell: the
//! containers (`Option`, `Vec`, maps, ...) and the leaf types. Lints read
//! it for precise spans; anything syntax cannot see through (aliases, user
//! types) is left to the type layer (facts asserted in `const` items).

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{GenericArgument, PathArguments, Type};

/// A scalar type syntax recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prim {
    String,
    Bool,
    I32,
    I64,
    /// `i8`, `i16`, `i128`, `isize`.
    Narrow(&'static str),
    /// `u8` ... `usize`.
    Unsigned(&'static str),
    /// `f32`, `f64`.
    Float(&'static str),
    Char,
}

/// A library or std type with a known meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    Time,
    MicroTime,
    Duration,
    Conditions,
    Condition,
    JsonValue,
}

/// The shape of a type.
#[derive(Clone, Debug)]
pub enum Shape {
    Option(Box<Shape>),
    Box(Box<Shape>),
    Vec(Box<Shape>),
    Set {
        item: Box<Shape>,
        hash: bool,
    },
    Map {
        key: Box<Shape>,
        value: Box<Shape>,
        hash: bool,
        span: Span,
    },
    Prim(Prim, Span),
    Known(Known, Span),
    /// A type syntax cannot see into: a user type or an alias.
    Other(Box<Type>),
}

fn args(seg: &syn::PathSegment) -> Vec<&Type> {
    match &seg.arguments {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|g| match g {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

impl Shape {
    pub fn of(ty: &Type) -> Shape {
        match ty {
            Type::Group(g) => Shape::of(&g.elem),
            Type::Paren(p) => Shape::of(&p.elem),
            Type::Path(p) if p.qself.is_none() => {
                let Some(seg) = p.path.segments.last() else {
                    return Shape::Other(Box::new(ty.clone()));
                };
                let name = seg.ident.to_string();
                let a = args(seg);
                let span = seg.ident.span();
                let one = |f: fn(Box<Shape>) -> Shape| a.first().map(|t| f(Box::new(Shape::of(t))));
                let shape = match (name.as_str(), a.len()) {
                    ("Option", 1) => one(Shape::Option),
                    ("Box", 1) => one(Shape::Box),
                    ("Vec", 1) => one(Shape::Vec),
                    ("BTreeSet", 1) => Some(Shape::Set {
                        item: Box::new(Shape::of(a[0])),
                        hash: false,
                    }),
                    ("HashSet", 1 | 2) => Some(Shape::Set {
                        item: Box::new(Shape::of(a[0])),
                        hash: true,
                    }),
                    ("BTreeMap", 2) | ("HashMap", 2 | 3) => Some(Shape::Map {
                        key: Box::new(Shape::of(a[0])),
                        value: Box::new(Shape::of(a[1])),
                        hash: name == "HashMap",
                        span,
                    }),
                    (_, 0) => prim_or_known(&name, span, &p.path),
                    _ => None,
                };
                shape.unwrap_or_else(|| Shape::Other(Box::new(ty.clone())))
            }
            _ => Shape::Other(Box::new(ty.clone())),
        }
    }

    /// The shape under `Option` and `Box`.
    pub fn unwrapped(&self) -> &Shape {
        match self {
            Shape::Option(s) | Shape::Box(s) => s.unwrapped(),
            s => s,
        }
    }

    pub fn is_option(&self) -> bool {
        matches!(self, Shape::Option(_))
    }

    /// Whether the value is a list or a map (optional by being empty).
    pub fn is_collection(&self) -> bool {
        matches!(
            self.unwrapped(),
            Shape::Vec(_)
                | Shape::Set { .. }
                | Shape::Map { .. }
                | Shape::Known(Known::Conditions, _)
        )
    }

    /// Every shape in the tree, with how it is reached (`list item`, `map value`, ...).
    pub fn walk(&self, mut visit: impl FnMut(&Shape, &str)) {
        fn go(s: &Shape, at: &str, visit: &mut dyn FnMut(&Shape, &str)) {
            visit(s, at);
            match s {
                Shape::Option(i) | Shape::Box(i) => go(i, at, visit),
                Shape::Vec(i) | Shape::Set { item: i, .. } => go(i, &join(at, "list item"), visit),
                Shape::Map { key, value, .. } => {
                    go(key, &join(at, "map key"), visit);
                    go(value, &join(at, "map value"), visit);
                }
                _ => {}
            }
        }
        fn join(a: &str, b: &str) -> String {
            if a.is_empty() {
                b.to_string()
            } else {
                format!("{a} {b}")
            }
        }
        go(self, "", &mut visit);
    }

    /// The types in the tree that syntax cannot see into.
    pub fn opaque(&self) -> Vec<&Type> {
        fn go<'a>(s: &'a Shape, out: &mut Vec<&'a Type>) {
            match s {
                Shape::Other(t) => out.push(t),
                Shape::Option(i) | Shape::Box(i) | Shape::Vec(i) | Shape::Set { item: i, .. } => {
                    go(i, out)
                }
                Shape::Map { key, value, .. } => {
                    go(key, out);
                    go(value, out);
                }
                Shape::Prim(..) | Shape::Known(..) => {}
            }
        }
        let mut out = Vec::new();
        go(self, &mut out);
        out
    }

    /// The span of a shape's type, for diagnostics.
    pub fn span(&self) -> Span {
        match self {
            Shape::Prim(_, s) | Shape::Known(_, s) => *s,
            Shape::Map { span, .. } => *span,
            Shape::Other(t) => t.span(),
            Shape::Option(i) | Shape::Box(i) | Shape::Vec(i) | Shape::Set { item: i, .. } => {
                i.span()
            }
        }
    }
}

/// `std::time::Duration`, `core::time::Duration`, or a path into
/// api-core (`api_core::Duration`, `api_core::meta::Duration`).
fn is_known_duration(path: &syn::Path) -> bool {
    let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    match segs.as_slice() {
        [krate, time, _] if (krate == "std" || krate == "core") && time == "time" => true,
        [krate, .., _] => krate == "api_core",
        _ => false,
    }
}

fn prim_or_known(name: &str, span: Span, path: &syn::Path) -> Option<Shape> {
    let prim = match name {
        "String" => Prim::String,
        "bool" => Prim::Bool,
        "i32" => Prim::I32,
        "i64" => Prim::I64,
        "i8" => Prim::Narrow("i8"),
        "i16" => Prim::Narrow("i16"),
        "i128" => Prim::Narrow("i128"),
        "isize" => Prim::Narrow("isize"),
        "u8" => Prim::Unsigned("u8"),
        "u16" => Prim::Unsigned("u16"),
        "u32" => Prim::Unsigned("u32"),
        "u64" => Prim::Unsigned("u64"),
        "u128" => Prim::Unsigned("u128"),
        "usize" => Prim::Unsigned("usize"),
        "f32" => Prim::Float("f32"),
        "f64" => Prim::Float("f64"),
        "char" => Prim::Char,
        _ => {
            let known = match name {
                "Time" => Known::Time,
                "MicroTime" => Known::MicroTime,
                // A `Duration` is only known by a path that names the
                // standard library's or api-core's; any other type called
                // `Duration` (a pattern-checked string newtype, as Gateway
                // API's) is opaque, and the type layer reads its facts.
                "Duration" if is_known_duration(path) => Known::Duration,
                "Conditions" => Known::Conditions,
                "Condition" => Known::Condition,
                "Value"
                    if path.segments.len() >= 2
                        && path.segments[path.segments.len() - 2].ident == "serde_json" =>
                {
                    Known::JsonValue
                }
                _ => return None,
            };
            return Some(Shape::Known(known, span));
        }
    };
    // A one-segment primitive name could still be shadowed by a user type;
    // the type layer double-checks through the facts.
    Some(Shape::Prim(prim, span))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(s: &str) -> Shape {
        Shape::of(&syn::parse_str(s).unwrap())
    }

    #[test]
    fn reads_containers() {
        assert!(matches!(shape("Option<Vec<u32>>"), Shape::Option(_)));
        assert!(matches!(
            shape("Option<Vec<u32>>").unwrapped(),
            Shape::Vec(_)
        ));
        assert!(matches!(
            shape("std::collections::BTreeMap<String, f64>"),
            Shape::Map { hash: false, .. }
        ));
        assert!(matches!(
            shape("HashMap<String, String>"),
            Shape::Map { hash: true, .. }
        ));
        assert!(matches!(
            shape("api_core::Time"),
            Shape::Known(Known::Time, _)
        ));
        assert!(matches!(
            shape("serde_json::Value"),
            Shape::Known(Known::JsonValue, _)
        ));
        assert!(matches!(shape("Port"), Shape::Other(_)));
        for known in [
            "std::time::Duration",
            "::core::time::Duration",
            "api_core::Duration",
        ] {
            assert!(
                matches!(shape(known), Shape::Known(Known::Duration, _)),
                "{known}"
            );
        }
        // Any other `Duration` is read through its facts.
        for other in ["Duration", "metav1::Duration", "gateway::v1::Duration"] {
            assert!(matches!(shape(other), Shape::Other(_)), "{other}");
        }
        assert_eq!(shape("Vec<Port>").opaque().len(), 1);
        assert!(shape("Vec<String>").opaque().is_empty());
        let mut seen = Vec::new();
        shape("BTreeMap<String, Vec<u8>>").walk(|s, at| {
            if let Shape::Prim(Prim::Unsigned(n), _) = s {
                seen.push(format!("{at}: {n}"));
            }
        });
        assert_eq!(seen, ["map value list item: u8"]);
    }
}
