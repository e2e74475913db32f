//! What the macros need to know from `#[serde(...)]`: JSON names,
//! optionality, flattening, enum representation, and the attributes that
//! would make the schema lie.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, LitStr};

/// serde's `rename_all` rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    fn parse(s: &LitStr) -> syn::Result<Self> {
        Ok(match s.value().as_str() {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebab,
            other => {
                return Err(syn::Error::new(
                    s.span(),
                    format!(
                        "unknown rename rule `{other}` (serde accepts lowercase, UPPERCASE, PascalCase, camelCase, snake_case, SCREAMING_SNAKE_CASE, kebab-case, SCREAMING-KEBAB-CASE)"
                    ),
                ));
            }
        })
    }

    /// Applies the rule to a field name written in snake_case, as serde does.
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_string(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut out = String::new();
                let mut capitalize = true;
                for c in field.chars() {
                    if c == '_' {
                        capitalize = true;
                    } else if capitalize {
                        out.push(c.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        out.push(c);
                    }
                }
                out
            }
            RenameRule::Camel => {
                let pascal = RenameRule::Pascal.apply_to_field(field);
                let mut chars = pascal.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// Applies the rule to a variant name written in PascalCase, as serde does.
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_string(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => {
                let mut chars = variant.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            RenameRule::Snake => {
                let mut out = String::new();
                for (i, c) in variant.char_indices() {
                    if i > 0 && c.is_uppercase() {
                        out.push('_');
                    }
                    out.push(c.to_ascii_lowercase());
                }
                out
            }
            RenameRule::ScreamingSnake => RenameRule::Snake
                .apply_to_variant(variant)
                .to_ascii_uppercase(),
            RenameRule::Kebab => RenameRule::Snake
                .apply_to_variant(variant)
                .replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake
                .apply_to_variant(variant)
                .replace('_', "-"),
        }
    }
}

/// A serde attribute that the schema cannot describe truthfully.
#[derive(Clone, Debug)]
pub struct Liar {
    pub span: Span,
    pub what: &'static str,
    pub why: &'static str,
}

/// `#[serde(...)]` on a struct or enum.
#[derive(Debug, Default)]
pub struct SerdeContainer {
    pub rename_all: Option<RenameRule>,
    pub rename_all_fields: Option<RenameRule>,
    pub transparent: bool,
    pub default: bool,
    pub tag: Option<LitStr>,
    pub content: Option<LitStr>,
    pub untagged: Option<Span>,
    pub problems: Vec<Liar>,
}

/// `#[serde(...)]` on a field or variant.
#[derive(Debug, Default)]
pub struct SerdeField {
    pub rename: Option<LitStr>,
    pub default: Option<Span>,
    pub skip_serializing_if: Option<LitStr>,
    pub flatten: Option<Span>,
    pub skip: bool,
    pub with: Option<Span>,
    pub rename_all: Option<RenameRule>,
    pub untagged: Option<Span>,
    pub problems: Vec<Liar>,
}

fn skip_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// Reads `rename = "x"` or `rename(serialize = "x", deserialize = "y")`;
/// the second form is a problem when the two differ.
fn rename_value(
    meta: &syn::meta::ParseNestedMeta<'_>,
    problems: &mut Vec<Liar>,
) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(syn::Token![=]) {
        return Ok(Some(meta.value()?.parse()?));
    }
    let (mut ser, mut de) = (None::<LitStr>, None::<LitStr>);
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("serialize") {
            ser = Some(inner.value()?.parse()?);
        } else if inner.path.is_ident("deserialize") {
            de = Some(inner.value()?.parse()?);
        } else {
            skip_value(&inner)?;
        }
        Ok(())
    })?;
    match (ser, de) {
        (Some(s), Some(d)) if s.value() == d.value() => Ok(Some(s)),
        (s, d) => {
            problems.push(Liar {
                span: meta.path.span(),
                what: "different names for serialize and deserialize",
                why: "the schema has one name per field: give one `rename = \"...\"`",
            });
            Ok(s.or(d))
        }
    }
}

fn rename_rule_value(
    meta: &syn::meta::ParseNestedMeta<'_>,
    problems: &mut Vec<Liar>,
) -> syn::Result<Option<RenameRule>> {
    match rename_value(meta, problems)? {
        Some(lit) => RenameRule::parse(&lit).map(Some),
        None => Ok(None),
    }
}

fn serde_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("serde"))
}

pub fn parse_container(attrs: &[Attribute]) -> syn::Result<SerdeContainer> {
    let mut out = SerdeContainer::default();
    for attr in serde_attrs(attrs) {
        attr.parse_nested_meta(|meta| {
            let p = &meta.path;
            if p.is_ident("rename_all") {
                out.rename_all = rename_rule_value(&meta, &mut out.problems)?;
            } else if p.is_ident("rename_all_fields") {
                out.rename_all_fields = rename_rule_value(&meta, &mut out.problems)?;
            } else if p.is_ident("transparent") {
                out.transparent = true;
            } else if p.is_ident("default") {
                out.default = true;
                skip_value(&meta)?;
            } else if p.is_ident("tag") {
                out.tag = Some(meta.value()?.parse()?);
            } else if p.is_ident("content") {
                out.content = Some(meta.value()?.parse()?);
            } else if p.is_ident("untagged") {
                out.untagged = Some(p.span());
            } else if p.is_ident("from") || p.is_ident("try_from") || p.is_ident("into") {
                out.problems.push(Liar {
                    span: p.span(),
                    what: "conversion through another type",
                    why: "the schema is derived from this type's fields, but serde would write another type",
                });
                skip_value(&meta)?;
            } else {
                skip_value(&meta)?;
            }
            Ok(())
        })?;
    }
    Ok(out)
}

pub fn parse_field(attrs: &[Attribute]) -> syn::Result<SerdeField> {
    let mut out = SerdeField::default();
    for attr in serde_attrs(attrs) {
        attr.parse_nested_meta(|meta| {
            let p = &meta.path;
            if p.is_ident("rename") {
                out.rename = rename_value(&meta, &mut out.problems)?;
            } else if p.is_ident("rename_all") {
                out.rename_all = rename_rule_value(&meta, &mut out.problems)?;
            } else if p.is_ident("default") {
                out.default = Some(p.span());
                skip_value(&meta)?;
            } else if p.is_ident("skip_serializing_if") {
                out.skip_serializing_if = Some(meta.value()?.parse()?);
            } else if p.is_ident("flatten") {
                out.flatten = Some(p.span());
            } else if p.is_ident("skip") {
                out.skip = true;
            } else if p.is_ident("untagged") {
                out.untagged = Some(p.span());
            } else if p.is_ident("skip_serializing") {
                out.problems.push(Liar {
                    span: p.span(),
                    what: "`skip_serializing` alone",
                    why: "the field would be read but never written; use `skip` to leave it out of the API entirely, or `skip_serializing_if` to omit it when unset",
                });
            } else if p.is_ident("skip_deserializing") {
                out.problems.push(Liar {
                    span: p.span(),
                    what: "`skip_deserializing` alone",
                    why: "the field would be written but ignored on input; use `skip` to leave it out of the API entirely",
                });
            } else if p.is_ident("with") || p.is_ident("serialize_with") || p.is_ident("deserialize_with") {
                out.with = Some(p.span());
                skip_value(&meta)?;
            } else if p.is_ident("alias") {
                out.problems.push(Liar {
                    span: p.span(),
                    what: "`alias`",
                    why: "the schema has one name per field and the API server prunes every other name before your code sees it",
                });
                skip_value(&meta)?;
            } else {
                skip_value(&meta)?;
            }
            Ok(())
        })?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_rules_match_serde() {
        assert_eq!(
            RenameRule::Camel.apply_to_field("starting_deadline_seconds"),
            "startingDeadlineSeconds"
        );
        assert_eq!(RenameRule::Pascal.apply_to_field("a_b"), "AB");
        assert_eq!(RenameRule::Kebab.apply_to_field("a_b"), "a-b");
        assert_eq!(RenameRule::ScreamingSnake.apply_to_field("a_b"), "A_B");
        assert_eq!(RenameRule::Camel.apply_to_variant("ForbidAll"), "forbidAll");
        assert_eq!(
            RenameRule::Snake.apply_to_variant("ForbidAll"),
            "forbid_all"
        );
        assert_eq!(
            RenameRule::ScreamingKebab.apply_to_variant("ForbidAll"),
            "FORBID-ALL"
        );
        assert_eq!(RenameRule::Lower.apply_to_variant("ForbidAll"), "forbidall");
    }
}
