//! The `#[kube(...)]` attribute grammar, parsed with darling.

use darling::util::{Flag, Override, PathList, SpannedValue};
use darling::{FromAttributes, FromMeta};
use syn::{Expr, LitStr, Path};

/// A number in an attribute (`minimum = 1`, `maximum = 2.5`): kept as
/// written so integers stay integers in the schema.
#[derive(Clone, Debug)]
pub enum Number {
    Int(i64),
    Float(f64),
}

impl FromMeta for Number {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        fn lit(expr: &Expr, negative: bool) -> darling::Result<Number> {
            match expr {
                Expr::Lit(l) => match &l.lit {
                    syn::Lit::Int(i) => {
                        let v: i64 = i
                            .base10_parse()
                            .map_err(|e| darling::Error::custom(e).with_span(i))?;
                        Ok(Number::Int(if negative { -v } else { v }))
                    }
                    syn::Lit::Float(f) => {
                        let v: f64 = f
                            .base10_parse()
                            .map_err(|e| darling::Error::custom(e).with_span(f))?;
                        Ok(Number::Float(if negative { -v } else { v }))
                    }
                    other => Err(
                        darling::Error::custom("expected a number, like `1` or `0.5`")
                            .with_span(other),
                    ),
                },
                Expr::Group(g) => lit(&g.expr, negative),
                Expr::Paren(p) => lit(&p.expr, negative),
                Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) && !negative => {
                    lit(&u.expr, true)
                }
                other => Err(darling::Error::custom(
                    "expected a number literal, like `1` or `-2.5`",
                )
                .with_span(other)),
            }
        }
        lit(expr, false)
    }
}

/// An expression taken exactly as written (`example = "text"` is the
/// string, `example = 42` the number), unlike darling's `Expr`, which
/// parses the contents of a string literal as code.
#[derive(Clone, Debug)]
pub struct RawExpr(pub Expr);

impl FromMeta for RawExpr {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        Ok(RawExpr(expr.clone()))
    }
}

/// An integer count (`max_length = 63`): non-negative.
#[derive(Clone, Debug)]
pub struct Count(pub i64);

impl FromMeta for Count {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match Number::from_expr(expr)? {
            Number::Int(i) if i >= 0 => Ok(Count(i)),
            _ => Err(darling::Error::custom("expected a non-negative integer").with_span(expr)),
        }
    }
}

/// `validation(rule = "...", message = "...", ...)`: one CEL rule.
#[derive(Clone, Debug, FromMeta)]
pub struct ValidationRule {
    pub rule: LitStr,
    pub message: Option<LitStr>,
    pub message_expression: Option<LitStr>,
    pub reason: Option<SpannedValue<String>>,
    pub field_path: Option<LitStr>,
    pub optional_old_self: Option<bool>,
}

/// `external_docs(url = "...", description = "...")`.
#[derive(Clone, Debug, FromMeta)]
pub struct ExternalDocs {
    pub url: LitStr,
    pub description: Option<LitStr>,
}

/// The validation keywords that apply to a value: on fields, and inside
/// `items(...)` for the elements of a list.
#[derive(Clone, Debug, Default, FromMeta)]
pub struct Validations {
    pub minimum: Option<SpannedValue<Number>>,
    pub maximum: Option<SpannedValue<Number>>,
    pub exclusive_minimum: Option<SpannedValue<Number>>,
    pub exclusive_maximum: Option<SpannedValue<Number>>,
    pub multiple_of: Option<SpannedValue<Number>>,
    pub min_length: Option<SpannedValue<Count>>,
    pub max_length: Option<SpannedValue<Count>>,
    pub pattern: Option<LitStr>,
    pub format: Option<LitStr>,
    pub min_items: Option<SpannedValue<Count>>,
    pub max_items: Option<SpannedValue<Count>>,
    pub min_properties: Option<SpannedValue<Count>>,
    pub max_properties: Option<SpannedValue<Count>>,
    #[darling(rename = "enum")]
    pub enum_: Option<Vec<LitStr>>,
}

/// `printcolumn(name = "...", type = "...", json_path = "...", ...)`.
#[derive(Clone, Debug, FromMeta)]
pub struct PrintColumn {
    pub name: LitStr,
    #[darling(rename = "type")]
    pub type_: LitStr,
    pub json_path: LitStr,
    pub description: Option<LitStr>,
    pub format: Option<LitStr>,
    pub priority: Option<i32>,
}

/// `scale(spec_replicas_path = "...", status_replicas_path = "...", label_selector_path = "...")`.
#[derive(Clone, Debug, FromMeta)]
pub struct Scale {
    pub spec_replicas_path: LitStr,
    pub status_replicas_path: LitStr,
    pub label_selector_path: Option<LitStr>,
}

/// Everything `#[kube(...)]` accepts on a struct or enum. Keys that only
/// make sense on a `KubeResource` spec are checked after parsing, so that
/// misspellings get did-you-mean suggestions from the whole grammar.
#[derive(Debug, Default, FromAttributes)]
#[darling(attributes(kube))]
pub struct ContainerAttrs {
    // --- the resource (KubeResource only) ---
    pub group: Option<LitStr>,
    pub version: Option<LitStr>,
    pub kind: Option<LitStr>,
    pub namespaced: Flag,
    pub status: Option<SpannedValue<syn::Type>>,
    pub plural: Option<LitStr>,
    pub singular: Option<LitStr>,
    #[darling(multiple)]
    pub shortname: Vec<LitStr>,
    #[darling(multiple)]
    pub category: Vec<LitStr>,
    #[darling(multiple)]
    pub printcolumn: Vec<SpannedValue<PrintColumn>>,
    pub scale: Option<SpannedValue<Scale>>,
    #[darling(multiple)]
    pub selectable: Vec<LitStr>,
    pub root: Option<LitStr>,
    pub served: Option<bool>,
    pub storage: Option<bool>,
    pub deprecated: Option<SpannedValue<Override<String>>>,
    pub status_subresource: Option<SpannedValue<bool>>,
    pub optional_spec: Flag,
    pub no_spec: Flag,
    pub doc: Option<LitStr>,
    #[darling(multiple)]
    pub derive: Vec<SpannedValue<syn::Path>>,

    // --- every API type ---
    #[darling(rename = "crate")]
    pub crate_path: Option<Path>,
    #[darling(multiple)]
    pub validation: Vec<SpannedValue<ValidationRule>>,
    #[darling(multiple)]
    pub exactly_one_of: Vec<SpannedValue<Vec<LitStr>>>,
    #[darling(multiple)]
    pub at_most_one_of: Vec<SpannedValue<Vec<LitStr>>>,
    #[darling(multiple)]
    pub at_least_one_of: Vec<SpannedValue<Vec<LitStr>>>,
    pub example: Option<RawExpr>,
    pub title: Option<LitStr>,
    pub external_docs: Option<ExternalDocs>,
    pub map_type: Option<LitStr>,
    pub preserve_unknown_fields: Flag,
    pub embedded_resource: Flag,
    pub int_or_string: Flag,
    #[darling(default)]
    pub allow: PathList,
    #[darling(default)]
    pub warn: PathList,
    #[darling(default)]
    pub deny: PathList,
}

/// Everything `#[kube(...)]` accepts on a field.
#[derive(Debug, Default, FromAttributes)]
#[darling(attributes(kube))]
pub struct FieldAttrs {
    pub optional: Flag,
    pub required: Flag,
    #[darling(flatten)]
    pub validations: Validations,
    pub items: Option<Validations>,
    pub list_type: Option<LitStr>,
    pub list_map_keys: Option<SpannedValue<Vec<LitStr>>>,
    pub map_type: Option<LitStr>,
    pub example: Option<RawExpr>,
    pub title: Option<LitStr>,
    pub external_docs: Option<ExternalDocs>,
    #[darling(multiple)]
    pub validation: Vec<SpannedValue<ValidationRule>>,
    pub immutable: Flag,
    pub int_or_string: Flag,
    pub preserve_unknown_fields: Flag,
    pub embedded_resource: Flag,
    pub schema_with: Option<Path>,
    #[darling(default)]
    pub allow: PathList,
    #[darling(default)]
    pub warn: PathList,
    #[darling(default)]
    pub deny: PathList,
}

/// `#[kube(...)]` on an enum variant: only lint levels for now.
#[derive(Debug, Default, FromAttributes)]
#[darling(attributes(kube))]
pub struct VariantAttrs {
    #[darling(default)]
    pub allow: PathList,
    #[darling(default)]
    pub warn: PathList,
    #[darling(default)]
    pub deny: PathList,
}
