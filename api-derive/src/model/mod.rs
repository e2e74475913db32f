//! One model of the derive input: fields, JSON names, optionality, docs,
//! attributes and spans. Lints and code generation both read this model;
//! nothing re-parses attributes.

pub mod attr_errors;
mod attr_forms;
pub mod attrs;
mod parse;
pub mod plural;
mod resource;
pub mod serde_attrs;
pub mod shape;

pub use parse::parse;
pub use resource::ResourceNames;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Attribute, Expr, Ident, Type, Visibility};

use crate::lints::Levels;
use attrs::{ContainerAttrs, FieldAttrs};
use serde_attrs::{SerdeContainer, SerdeField};

/// Which derive is expanding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Derive {
    KubeResource,
    ApiType,
}

/// The type being derived.
pub struct Model {
    pub derive: Derive,
    pub ident: Ident,
    pub vis: Visibility,
    pub docs: Option<String>,
    pub attrs: ContainerAttrs,
    pub serde: SerdeContainer,
    pub data: Data,
    pub levels: Levels,
    /// The path of the `api_core` crate in generated code.
    pub krate: TokenStream,
    /// Names of the resource (KubeResource only).
    pub resource: Option<ResourceNames>,
    /// How many fields the type has (`Field::index` is below it).
    pub field_count: usize,
}

/// The shape of the type.
pub enum Data {
    /// A struct with named fields.
    Struct(Vec<Field>),
    /// A newtype (one unnamed field, or `#[serde(transparent)]`).
    Newtype(Box<Field>),
    /// An enum.
    Enum(Vec<Variant>),
}

/// A field of a struct or of a struct-like enum variant.
pub struct Field {
    pub ident: Option<Ident>,
    pub ty: Type,
    pub json_name: String,
    pub docs: Option<String>,
    pub attrs: FieldAttrs,
    pub serde: SerdeField,
    pub default: Option<Expr>,
    pub default_span: Span,
    pub optional: bool,
    pub levels: Levels,
    pub span: Span,
    /// The field's number in the type, counting every variant's fields:
    /// checked values are kept by it.
    pub index: usize,
}

impl Field {
    /// Whether a `#[default]` on this field sets an unset value at runtime
    /// (`Option`, or an optional list or map); otherwise it only goes into
    /// the schema.
    pub fn default_applies(&self) -> bool {
        self.optional || is_option(&self.ty)
    }

    pub fn is_flattened(&self) -> bool {
        self.serde.flatten.is_some()
    }

    /// The span to point lints at: the field's name, or its type for tuple fields.
    pub fn name_span(&self) -> Span {
        self.ident.as_ref().map_or(self.span, Ident::span)
    }

    /// `Type.field`, plus the JSON name when it differs.
    pub fn subject(&self, type_name: &str) -> String {
        match &self.ident {
            Some(id) => {
                let rust = id.to_string();
                let rust = rust.strip_prefix("r#").unwrap_or(&rust).to_string();
                if rust == self.json_name {
                    format!("{type_name}.{rust}")
                } else {
                    format!("{type_name}.{rust} (JSON `{}`)", self.json_name)
                }
            }
            None => type_name.to_string(),
        }
    }

    /// How generated code reaches the field on `self`.
    pub fn access(&self, index: usize) -> TokenStream {
        match &self.ident {
            Some(id) => quote!(#id),
            None => {
                let i = syn::Index::from(index);
                quote!(#i)
            }
        }
    }
}

/// An enum variant.
pub struct Variant {
    pub ident: Ident,
    pub json_name: String,
    pub docs: Option<String>,
    pub shape: VariantShape,
    pub levels: Levels,
    pub span: Span,
}

/// What a variant carries.
pub enum VariantShape {
    Unit,
    Newtype(Box<Field>),
    Struct(Vec<Field>),
    Tuple,
}

/// The doc comment of an item: lines joined with `\n`, one leading space
/// stripped from each, trimmed; `None` when there is none.
pub fn docs(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
        {
            // `split`, not `lines`: an empty `///` is one empty line (a
            // paragraph break), which `"".lines()` would drop.
            for line in s.value().split('\n') {
                let line = line.strip_prefix(' ').unwrap_or(line).trim_end();
                // Go's `CommentGroup.Text` (which controller-gen reads)
                // keeps one blank line between paragraphs, however many
                // were written.
                if line.is_empty() && lines.last().is_some_and(String::is_empty) {
                    continue;
                }
                lines.push(line.to_string());
            }
        }
    }
    let text = lines.join("\n");
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// Whether the type is written `Option<...>`.
pub fn is_option(ty: &Type) -> bool {
    match ty {
        Type::Path(p) => {
            p.qself.is_none() && p.path.segments.last().is_some_and(|s| s.ident == "Option")
        }
        Type::Group(g) => is_option(&g.elem),
        Type::Paren(p) => is_option(&p.elem),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::docs;

    fn docs_of(item: syn::DeriveInput) -> Option<String> {
        docs(&item.attrs)
    }

    #[test]
    fn a_blank_doc_line_is_a_paragraph_break() {
        let item: syn::DeriveInput = syn::parse_quote! {
            /// First paragraph,
            /// still the first.
            ///
            /// Second paragraph.
            struct S;
        };
        assert_eq!(
            docs_of(item).as_deref(),
            Some("First paragraph,\nstill the first.\n\nSecond paragraph.")
        );
    }

    #[test]
    fn blank_lines_collapse_and_edges_are_trimmed_as_go_does() {
        let item: syn::DeriveInput = syn::parse_quote! {
            ///
            /// One.
            ///
            ///
            /// Two.
            ///
            struct S;
        };
        assert_eq!(docs_of(item).as_deref(), Some("One.\n\nTwo."));
        let empty: syn::DeriveInput = syn::parse_quote! {
            ///
            struct S;
        };
        assert_eq!(docs_of(empty), None);
    }
}
