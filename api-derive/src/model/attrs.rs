//! The `#[kube(...)]` attribute grammar, parsed with darling.

use darling::util::{Flag, Override, PathList, SpannedValue};
use std::cell::Cell;

use api_keywords::Keyword;
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

/// `annotation("key", "value")` / `label("key", "value")`: two string
/// literals, as kube-derive writes them.
#[derive(Clone, Debug)]
pub struct KeyValue {
    pub key: LitStr,
    pub value: LitStr,
}

impl FromMeta for KeyValue {
    fn from_list(items: &[darling::ast::NestedMeta]) -> darling::Result<Self> {
        let lit = |item: &darling::ast::NestedMeta| match item {
            darling::ast::NestedMeta::Lit(syn::Lit::Str(s)) => Some(s.clone()),
            _ => None,
        };
        match items {
            [k, v] => match (lit(k), lit(v)) {
                (Some(key), Some(value)) => Ok(KeyValue { key, value }),
                _ => Err(darling::Error::custom(
                    "write the key and the value as two string literals: `annotation(\"example.com/key\", \"value\")`",
                )),
            },
            _ => Err(darling::Error::custom(
                "expected a key and a value: `annotation(\"example.com/key\", \"value\")`",
            )),
        }
    }
}

/// `enum = [...]`: string literals (`["A", "B"]`) or integer literals
/// (`[301, 302]`), not mixed.
#[derive(Clone, Debug)]
pub enum EnumValues {
    /// String values.
    Strings(Vec<LitStr>),
    /// Integer values.
    Ints(Vec<i64>),
}

impl FromMeta for EnumValues {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        let accepted = "`enum` takes a list of string literals (`enum = [\"Allow\", \"Deny\"]`) or of integer literals (`enum = [301, 302]`)";
        let Expr::Array(array) = expr else {
            return Err(darling::Error::custom(accepted).with_span(expr));
        };
        let (mut strings, mut ints) = (Vec::new(), Vec::new());
        for item in &array.elems {
            match item {
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => strings.push(s.clone()),
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(i),
                    ..
                }) => {
                    ints.push(i.base10_parse::<i64>()?);
                }
                Expr::Unary(syn::ExprUnary {
                    op: syn::UnOp::Neg(_),
                    expr,
                    ..
                }) if matches!(
                    &**expr,
                    Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(_),
                        ..
                    })
                ) =>
                {
                    if let Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(i),
                        ..
                    }) = &**expr
                    {
                        ints.push(-i.base10_parse::<i64>()?);
                    }
                }
                other => return Err(darling::Error::custom(accepted).with_span(other)),
            }
        }
        match (strings.is_empty(), ints.is_empty()) {
            (false, false) => Err(darling::Error::custom(
                "`enum` values are all strings or all integers, not both",
            )
            .with_span(expr)),
            (true, false) => Ok(EnumValues::Ints(ints)),
            _ => Ok(EnumValues::Strings(strings)),
        }
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
    pub enum_: Option<SpannedValue<EnumValues>>,
}

impl Validations {
    /// The rows of api-keywords' table these attributes declare, in table
    /// order: the one place that maps an attribute field to its row.
    pub fn declared(&self) -> impl Iterator<Item = &'static Keyword> {
        use api_keywords as kw;
        [
            (
                self.minimum.is_some() || self.exclusive_minimum.is_some(),
                &kw::MINIMUM,
            ),
            (
                self.maximum.is_some() || self.exclusive_maximum.is_some(),
                &kw::MAXIMUM,
            ),
            (self.multiple_of.is_some(), &kw::MULTIPLE_OF),
            (self.min_length.is_some(), &kw::MIN_LENGTH),
            (self.max_length.is_some(), &kw::MAX_LENGTH),
            (self.pattern.is_some(), &kw::PATTERN),
            (self.format.is_some(), &kw::FORMAT),
            (self.min_items.is_some(), &kw::MIN_ITEMS),
            (self.max_items.is_some(), &kw::MAX_ITEMS),
            (self.min_properties.is_some(), &kw::MIN_PROPERTIES),
            (self.max_properties.is_some(), &kw::MAX_PROPERTIES),
            (self.enum_.is_some(), &kw::ENUM),
        ]
        .into_iter()
        .filter_map(|(set, k)| set.then_some(k))
    }
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
    /// `annotation("key", "value")`: an annotation of the CRD.
    #[darling(multiple)]
    pub annotation: Vec<SpannedValue<KeyValue>>,
    /// `label("key", "value")`: a label of the CRD.
    #[darling(multiple)]
    pub label: Vec<SpannedValue<KeyValue>>,
    /// `status_default = expr`: the status a new object gets (converted
    /// with `Into`), written as the status' `default:`.
    pub status_default: Option<RawExpr>,
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
    /// `spec_doc = "..."`: the `spec` property's description, where Go
    /// documents the root's `Spec` field apart from the spec type.
    pub spec_doc: Option<LitStr>,
    /// `status_doc = "..."`: the same for `status`.
    pub status_doc: Option<LitStr>,
    #[darling(multiple)]
    pub derive: Vec<SpannedValue<syn::Path>>,

    // --- every API type ---
    #[darling(rename = "crate")]
    pub crate_path: Option<Path>,
    #[darling(multiple)]
    pub validation: Vec<InOrder<SpannedValue<ValidationRule>>>,
    #[darling(multiple)]
    pub exactly_one_of: Vec<InOrder<Union>>,
    #[darling(multiple)]
    pub at_most_one_of: Vec<InOrder<Union>>,
    #[darling(multiple)]
    pub at_least_one_of: Vec<InOrder<Union>>,
    pub example: Option<RawExpr>,
    pub title: Option<LitStr>,
    pub external_docs: Option<ExternalDocs>,
    pub map_type: Option<LitStr>,
    pub preserve_unknown_fields: Flag,
    pub embedded_resource: Flag,
    pub int_or_string: Flag,
    #[darling(multiple)]
    pub allow: Vec<PathList>,
    #[darling(multiple)]
    pub warn: Vec<PathList>,
    #[darling(multiple)]
    pub deny: Vec<PathList>,
}

/// The members of a union (`exactly_one_of = ["a", "b"]`), as written.
pub type Union = SpannedValue<Vec<LitStr>>;

thread_local! {
    /// The number of the next value [`InOrder`] parses.
    static NEXT_SEQ: Cell<u64> = const { Cell::new(0) };
}

/// A value of a repeatable container attribute, numbered in the order
/// darling parsed it, which is the order the items are written in: the
/// type-level rules of different keys (`validation`, `exactly_one_of`, ...)
/// are put back into that order (controller-gen's) without a second parse.
#[derive(Clone, Debug)]
pub struct InOrder<T> {
    /// Increases from one parsed value to the next.
    pub seq: u64,
    /// The value.
    pub value: T,
}

impl<T: FromMeta> FromMeta for InOrder<T> {
    fn from_meta(item: &syn::Meta) -> darling::Result<Self> {
        let value = T::from_meta(item)?;
        let seq = NEXT_SEQ.with(|n| {
            let seq = n.get();
            n.set(seq + 1);
            seq
        });
        Ok(InOrder { seq, value })
    }
}

impl<T> std::ops::Deref for InOrder<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

/// Which union a type-level rule attribute declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnionKind {
    /// `exactly_one_of`.
    Exactly,
    /// `at_most_one_of`.
    AtMost,
    /// `at_least_one_of`.
    AtLeast,
}

/// A type-level attribute that makes a CEL rule.
#[derive(Clone, Copy, Debug)]
pub enum TypeRuleAttr<'a> {
    /// `validation(...)`.
    Written(&'a SpannedValue<ValidationRule>),
    /// `exactly_one_of`, `at_most_one_of`, `at_least_one_of`.
    Union(UnionKind, &'a Union),
}

impl ContainerAttrs {
    /// The rule-making attributes in the order they are written.
    pub fn type_rules(&self) -> Vec<TypeRuleAttr<'_>> {
        let mut all: Vec<(u64, TypeRuleAttr<'_>)> = Vec::new();
        all.extend(
            self.validation
                .iter()
                .map(|r| (r.seq, TypeRuleAttr::Written(&r.value))),
        );
        for (kind, unions) in [
            (UnionKind::Exactly, &self.exactly_one_of),
            (UnionKind::AtMost, &self.at_most_one_of),
            (UnionKind::AtLeast, &self.at_least_one_of),
        ] {
            all.extend(
                unions
                    .iter()
                    .map(|u| (u.seq, TypeRuleAttr::Union(kind, &u.value))),
            );
        }
        all.sort_by_key(|(seq, _)| *seq);
        all.into_iter().map(|(_, rule)| rule).collect()
    }
}

/// Everything `#[kube(...)]` accepts on a field.
#[derive(Debug, Default, FromAttributes)]
#[darling(attributes(kube))]
pub struct FieldAttrs {
    pub optional: Flag,
    pub required: Flag,
    /// `default = expr`: the spelling of `#[default(expr)]` that does not
    /// collide with std's `#[default]` (on `#[derive(Default)]` enums).
    pub default: Option<RawExpr>,
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
    #[darling(multiple)]
    pub allow: Vec<PathList>,
    #[darling(multiple)]
    pub warn: Vec<PathList>,
    #[darling(multiple)]
    pub deny: Vec<PathList>,
}

/// The lint names of repeated `allow(...)` (or `warn`, `deny`) items, in
/// order: `allow(a), allow(b)` is `allow(a, b)`.
pub fn lint_paths(lists: &[PathList]) -> Vec<Path> {
    lists.iter().flat_map(|l| l.iter().cloned()).collect()
}

impl FieldAttrs {
    /// The keyword rows a field declares: its value keywords and `example`.
    pub fn declared_keywords(&self) -> impl Iterator<Item = &'static Keyword> {
        let example = self.example.is_some().then_some(&api_keywords::EXAMPLE);
        self.validations.declared().chain(example)
    }
}

/// `#[kube(...)]` on an enum variant: only lint levels for now.
#[derive(Debug, Default, FromAttributes)]
#[darling(attributes(kube))]
pub struct VariantAttrs {
    #[darling(multiple)]
    pub allow: Vec<PathList>,
    #[darling(multiple)]
    pub warn: Vec<PathList>,
    #[darling(multiple)]
    pub deny: Vec<PathList>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every attribute of every row of api-keywords' table is accepted on a
    /// field and declares exactly its row: a row without an attribute field
    /// or a `declared` case fails here.
    #[test]
    fn every_keyword_row_is_an_attribute() {
        for k in api_keywords::TABLE {
            for attr in k.attrs {
                let parsed = ["1", "\"a\"", "[\"a\"]"].iter().find_map(|value| {
                    let tokens: proc_macro2::TokenStream =
                        format!("#[kube({attr} = {value})]").parse().unwrap();
                    let attr: syn::Attribute = syn::parse_quote!(#tokens);
                    FieldAttrs::from_attributes(&[attr]).ok()
                });
                let parsed = parsed.unwrap_or_else(|| panic!("`{attr}` is not a field attribute"));
                let declared: Vec<&str> = parsed.declared_keywords().map(|r| r.fact).collect();
                assert_eq!(declared, [k.fact], "`{attr}`");
            }
        }
    }

    /// Type-level rules come back in the order written, across keys and
    /// across `#[kube]` attributes.
    #[test]
    fn type_rules_keep_the_written_order() {
        let input: syn::DeriveInput = syn::parse_quote! {
            #[kube(at_least_one_of = ["a", "b"], validation(rule = "r1"), exactly_one_of = ["c", "d"])]
            #[kube(validation(rule = "r2"), at_most_one_of = ["e", "f"], validation(rule = "r3"))]
            struct T {}
        };
        let attrs = ContainerAttrs::from_attributes(&input.attrs).unwrap();
        let order: Vec<String> = attrs
            .type_rules()
            .into_iter()
            .map(|r| match r {
                TypeRuleAttr::Written(v) => v.rule.value(),
                TypeRuleAttr::Union(kind, members) => format!("{kind:?} {}", members[0].value()),
            })
            .collect();
        assert_eq!(
            order,
            ["AtLeast a", "r1", "Exactly c", "r2", "AtMost e", "r3"]
        );
    }
}
