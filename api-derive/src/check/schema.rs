//! The checks of a type's schema: its own keywords and rules (with the
//! unions' rules), then each field's keywords, plus the problems that make
//! a type describable by no structural schema (recursion, unions serde
//! cannot tell apart). The result, [`SchemaChecked`], is what the schema
//! and validation code generation reads.

use proc_macro2::Span;
use syn::spanned::Spanned;

use super::keywords::{self, CheckedKeywords, Rule, RuleSrc};
use crate::lints::{self, Context, Diagnostics, LintId};
use crate::model::attrs::{EnumValues, TypeRuleAttr, Union, UnionKind};
use crate::model::{Data, Derive, Field, Model, Variant, VariantShape};

/// A type after its schema checks.
pub struct SchemaChecked<'m> {
    /// The type's own keywords and rules.
    pub type_keywords: CheckedKeywords<'m>,
    /// Whether the type is an enum no structural schema describes (an
    /// untagged or adjacently tagged enum, mixed unit and data variants,
    /// tuple variants): its schema preserves unknown fields.
    pub schemaless: bool,
    /// The checked keywords of every field a schema is generated for, by
    /// `Field::index` (`None`: not in the schema).
    fields: Vec<Option<CheckedKeywords<'m>>>,
    /// What a field outside the schema has: no keywords.
    none: CheckedKeywords<'m>,
}

impl<'m> SchemaChecked<'m> {
    /// The checked keywords of `f`, one of the model's fields (none for a
    /// field outside the schema).
    pub fn field(&self, f: &Field) -> &CheckedKeywords<'m> {
        self.fields
            .get(f.index)
            .and_then(Option::as_ref)
            .unwrap_or(&self.none)
    }
}

/// Checks a type's schema, reporting to `diags` in this order: the type's
/// unions, `map_type` and rules; recursion; for an enum the `unions` lint;
/// then each field's keywords (the fields in the schema: not skipped, and
/// none of a schemaless enum).
pub fn check<'m>(model: &'m Model, diags: &mut Diagnostics) -> SchemaChecked<'m> {
    let type_keywords = type_keywords(model, diags);
    int_or_string(model, diags);
    let mut schemaless = false;
    let fields: Vec<&'m Field> = match &model.data {
        Data::Struct(fields) => {
            recursion(model, fields, diags);
            fields.iter().filter(|f| !f.serde.skip).collect()
        }
        Data::Newtype(f) => vec![&**f],
        Data::Enum(variants) => {
            schemaless = union_problems(model, variants, diags);
            if schemaless {
                Vec::new()
            } else {
                variants
                    .iter()
                    .filter_map(|v| match &v.shape {
                        VariantShape::Struct(fields) => Some(fields),
                        _ => None,
                    })
                    .flatten()
                    .filter(|f| !f.serde.skip)
                    .collect()
            }
        }
    };
    let mut checked: Vec<Option<CheckedKeywords<'m>>> = Vec::new();
    checked.resize_with(model.field_count, || None);
    for f in fields {
        if let Some(slot) = checked.get_mut(f.index) {
            *slot = Some(keywords::field(f, diags));
        }
    }
    SchemaChecked {
        type_keywords,
        schemaless,
        fields: checked,
        none: CheckedKeywords::default(),
    }
}

/// `int_or_string` describes a value that is an integer or a string: on a
/// field or a newtype, its type must be one (checked when the types are
/// known, through their facts); on an enum, every variant must hold one
/// (an untagged `enum { Int(i32), Str(String) }`); a struct with named
/// fields is an error here. Otherwise the CRD would fail the structural
/// checker.
fn int_or_string(model: &Model, diags: &mut Diagnostics) {
    let holds = |ty: &syn::Type, name: String, span: Span, diags: &mut Diagnostics| {
        type_check(
            model,
            ty,
            &format!("{name}_int_or_string"),
            span,
            quote::quote!(check_int_or_string),
            &[],
            diags,
        );
    };
    let fields: Vec<(String, &Field)> = match &model.data {
        Data::Struct(fields) => fields
            .iter()
            .map(|f| (model.ident.to_string(), f))
            .collect(),
        Data::Newtype(f) => vec![(model.ident.to_string(), &**f)],
        Data::Enum(variants) => variants
            .iter()
            .flat_map(|v| {
                let owner = format!("{}_{}", model.ident, v.ident);
                match &v.shape {
                    VariantShape::Struct(fields) => {
                        fields.iter().map(|f| (owner.clone(), f)).collect()
                    }
                    VariantShape::Newtype(f) => vec![(owner, &**f)],
                    _ => Vec::new(),
                }
            })
            .collect(),
    };
    for (owner, f) in fields {
        let name = crate::lints::types::check_name(&owner, f);
        if f.attrs.int_or_string.is_present() {
            holds(&f.ty, name.clone(), f.attrs.int_or_string.span(), diags);
        }
        if let Some(values) = &f.attrs.validations.enum_ {
            let ints = matches!(&**values, EnumValues::Ints(_));
            let extra = [quote::quote!(#ints)];
            let check = quote::quote!(check_enum_kind);
            type_check(
                model,
                &f.ty,
                &format!("{name}_enum"),
                values.span(),
                check,
                &extra,
                diags,
            );
        }
    }
    let flag = &model.attrs.int_or_string;
    if !flag.is_present() {
        return;
    }
    let span = flag.span();
    match &model.data {
        Data::Struct(_) => diags.error(
            span,
            "`int_or_string` describes a value that is an integer or a string, not an object: put it on a newtype, an untagged enum of an integer and a string, or a field",
        ),
        Data::Newtype(f) => holds(&f.ty, model.ident.to_string(), span, diags),
        Data::Enum(variants) => {
            if model.serde.untagged.is_none() {
                diags.error(
                    span,
                    "an `int_or_string` enum is `#[serde(untagged)]`: serde must write its variants as a bare integer or string",
                );
            }
            for v in variants {
                match &v.shape {
                    VariantShape::Newtype(f) => {
                        let name = format!("{}_{}", model.ident, v.ident);
                        holds(&f.ty, name, v.span, diags);
                    }
                    _ => diags.error(
                        v.span,
                        format!(
                            "variant `{}` of an `int_or_string` enum must hold one integer or string (`{}(i32)`, `{}(String)`)",
                            v.ident, v.ident, v.ident
                        ),
                    ),
                }
            }
        }
    }
}

/// A compile-time check of a field's type through its facts:
/// `facts::<check>(<ty as ApiType>::FACTS, extra...)` in a const named
/// `name`, spanned at `span` (where the error is reported).
fn type_check(
    model: &Model,
    ty: &syn::Type,
    name: &str,
    span: Span,
    check: proc_macro2::TokenStream,
    extra: &[proc_macro2::TokenStream],
    diags: &mut Diagnostics,
) {
    let (k, p) = (&model.krate, crate::expand::private(model));
    let ident = quote::format_ident!("{}", name, span = span);
    diags.check(quote::quote_spanned! {span=>
        const _: () = {
            #[allow(non_upper_case_globals)]
            const #ident: () = #p::facts::#check(<#ty as #k::ApiType>::FACTS #(, #extra)*);
            #ident
        };
    });
}

/// A struct that contains itself: no structural schema describes it.
fn recursion(model: &Model, fields: &[Field], diags: &mut Diagnostics) {
    let ident = &model.ident;
    for f in fields {
        if mentions(&f.ty, ident) {
            diags.error(
                f.ty.span(),
                format!("`{ident}` contains itself: a structural schema cannot describe recursive types (Kubernetes forbids `$ref`)"),
            );
        }
    }
}

/// Whether a type mentions `ident` (direct recursion).
fn mentions(ty: &syn::Type, ident: &syn::Ident) -> bool {
    /// Whether `tokens` mention `ident`, at any depth.
    fn walk(tokens: proc_macro2::TokenStream, ident: &syn::Ident) -> bool {
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == *ident,
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), ident),
            _ => false,
        })
    }
    walk(quote::ToTokens::to_token_stream(ty), ident)
}

/// The type's own keywords: its union rules, `map_type`, its written
/// rules (not a `KubeResource` spec's: they are the root's) and the rules
/// that keep optional immutable fields set.
fn type_keywords<'m>(model: &'m Model, diags: &mut Diagnostics) -> CheckedKeywords<'m> {
    let a = &model.attrs;
    let mut srcs = union_and_written_rules(model, diags);
    // Optional immutable fields may not be removed once set (controller-gen's
    // `+k8s:immutable` puts this rule on the parent).
    if let Data::Struct(fields) = &model.data {
        for f in fields
            .iter()
            .filter(|f| f.attrs.immutable.is_present() && f.optional)
        {
            let n = &f.json_name;
            srcs.push(RuleSrc::Generated(Rule::generated(
                format!("!has(oldSelf.{n}) || has(self.{n})"),
                format!("field {n} is immutable once set"),
            )));
        }
    }
    let map_type = a
        .map_type
        .as_ref()
        .and_then(|t| keywords::map_type(t, diags));
    CheckedKeywords {
        description: model.docs.as_deref(),
        title: a.title.as_ref(),
        external_docs: a.external_docs.as_ref(),
        map_type,
        int_or_string: a.int_or_string.is_present(),
        preserve_unknown_fields: a.preserve_unknown_fields.is_present(),
        embedded_resource: a.embedded_resource.is_present(),
        rules: {
            #[cfg(feature = "cel")]
            let this = super::cel::model_self(model);
            #[cfg(not(feature = "cel"))]
            let this = ();
            keywords::rules(&srcs, &this, diags)
        },
        ..CheckedKeywords::default()
    }
}

/// The type's CEL rules in the order the attributes are written: `validation`
/// rules as given, `exactly_one_of`/`at_most_one_of`/`at_least_one_of` in
/// controller-gen's current form. On a `KubeResource` spec the written rules
/// belong to the root and are left out here. Reports the unions' problems.
fn union_and_written_rules<'m>(model: &'m Model, diags: &mut Diagnostics) -> Vec<RuleSrc<'m>> {
    let mut out = Vec::new();
    for attr in model.attrs.type_rules() {
        let (group, op, verb) = match attr {
            TypeRuleAttr::Written(r) => {
                if model.derive == Derive::ApiType {
                    out.push(RuleSrc::Written(r));
                }
                continue;
            }
            TypeRuleAttr::Union(UnionKind::Exactly, group) => (
                group,
                "== 1",
                "exactly one of the fields in [{}] must be set",
            ),
            TypeRuleAttr::Union(UnionKind::AtMost, group) => (
                group,
                "<= 1",
                "at most one of the fields in [{}] may be set",
            ),
            TypeRuleAttr::Union(UnionKind::AtLeast, group) => {
                (group, "", "at least one of the fields in [{}] must be set")
            }
        };
        if let Some(rule) = union_rule(model, group, op, verb, diags) {
            out.push(RuleSrc::Generated(rule));
        }
    }
    out
}

/// One union (`exactly_one_of = [...]` and its kin): optional JSON fields
/// of the type, at least two. The rule counts the members set (`op`, or
/// any of them when `op` is empty); `verb` is its message, with `{}` for
/// the members.
fn union_rule(
    model: &Model,
    group: &Union,
    op: &str,
    verb: &str,
    diags: &mut Diagnostics,
) -> Option<Rule> {
    let fields = match &model.data {
        Data::Struct(fields) => fields.as_slice(),
        _ => &[],
    };
    let names: Vec<String> = group.iter().map(syn::LitStr::value).collect();
    for lit in group.iter() {
        match fields.iter().find(|f| f.json_name == lit.value()) {
            None => diags.error(
                lit.span(),
                format!(
                    "`{}` is not a JSON field name of `{}`",
                    lit.value(),
                    model.ident
                ),
            ),
            Some(f) if !f.optional => diags.error(
                lit.span(),
                format!(
                    "`{}` is required, so it cannot be a member of a union: make it optional",
                    lit.value()
                ),
            ),
            Some(_) => {}
        }
    }
    if names.len() < 2 {
        diags.error(group.span(), "a union needs at least two fields");
        return None;
    }
    let rule = if op.is_empty() {
        names
            .iter()
            .map(|n| format!("has(self.{n})"))
            .collect::<Vec<_>>()
            .join("||")
    } else {
        let sum = names
            .iter()
            .map(|n| format!("(has(self.{n})?1:0)"))
            .collect::<Vec<_>>()
            .join("+");
        format!("{sum} {op}")
    };
    Some(Rule::generated(rule, verb.replace("{}", &names.join(" "))))
}

/// `unions`: an enum that cannot map to a structural schema. Reports each
/// problem to the lint (when it is allowed the enum becomes schemaless,
/// preserving unknown fields) and says whether there was any.
fn union_problems(model: &Model, variants: &[Variant], diags: &mut Diagnostics) -> bool {
    let all_unit = variants
        .iter()
        .all(|v| matches!(v.shape, VariantShape::Unit));
    let mut problems: Vec<(Span, String, String)> = Vec::new();
    // An untagged enum declared `int_or_string` is the int-or-string
    // schema (its variants are checked by `int_or_string`).
    if let Some(span) = model
        .serde
        .untagged
        .filter(|_| !model.attrs.int_or_string.is_present())
    {
        problems.push((
            span,
            "is an untagged enum: no structural schema can tell its variants apart".into(),
            "use the default external tagging (one optional field per variant)".into(),
        ));
    }
    if let (Some(_), Some(content)) = (&model.serde.tag, &model.serde.content) {
        problems.push((
            content.span(),
            "is adjacently tagged, which is not supported yet".into(),
            "use external tagging (one optional field per variant) or internal tagging (`#[serde(tag = \"kind\")]` alone)".into(),
        ));
    }
    let internally_tagged = model.serde.tag.is_some() && model.serde.content.is_none();
    for v in variants {
        let (name, vid) = (&v.json_name, &v.ident);
        match &v.shape {
            VariantShape::Unit if !all_unit && !internally_tagged => problems.push((
                v.span,
                format!("variant `{vid}` carries no data while its siblings do: serde writes it as the string \"{name}\" and the others as objects"),
                format!("give it an empty struct (`{vid} {{}}`), or move the data out of the enum"),
            )),
            VariantShape::Tuple => problems.push((
                v.span,
                format!("variant `{vid}` is a tuple variant, which serde writes as an array of mixed types"),
                "use named fields or a single field".into(),
            )),
            _ => {}
        }
    }
    let schemaless = !problems.is_empty() || model.serde.untagged.is_some();
    for (span, problem, help) in problems {
        diags.lint(
            lints::Finding {
                lint: LintId::Unions,
                span,
                subject: model.ident.to_string(),
                problem,
                help,
            },
            &[&model.levels],
            Context::of(model),
        );
    }
    schemaless
}
