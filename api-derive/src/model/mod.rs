//! One model of the derive input: fields, JSON names, optionality, docs,
//! attributes and spans. Lints and code generation both read this model;
//! nothing re-parses attributes.

pub mod attr_errors;
pub mod attrs;
pub mod plural;
pub mod serde_attrs;
pub mod shape;

use darling::FromAttributes;
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::{Attribute, DeriveInput, Expr, Ident, Type, Visibility};

use crate::lints::{Diagnostics, Levels};
use attrs::{ContainerAttrs, FieldAttrs, RawExpr, VariantAttrs};
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

/// group/version/kind and the resource names, with the spans to report at.
pub struct ResourceNames {
    pub group: (String, Span),
    pub version: (String, Span),
    pub kind: (String, Span),
    pub plural: (String, Span),
    pub singular: (String, Span),
    pub short_names: Vec<(String, Span)>,
    pub categories: Vec<(String, Span)>,
}

impl ResourceNames {
    /// The names that must be DNS-1035 labels, with what they are.
    pub fn dns_names(&self) -> impl Iterator<Item = (&'static str, &str, Span)> {
        [("plural", &self.plural), ("singular", &self.singular)]
            .into_iter()
            .map(|(w, (v, s))| (w, v.as_str(), *s))
            .chain(
                self.short_names
                    .iter()
                    .map(|(v, s)| ("short name", v.as_str(), *s)),
            )
            .chain(
                self.categories
                    .iter()
                    .map(|(v, s)| ("category", v.as_str(), *s)),
            )
    }
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

/// `#[default(expr)]` on a field.
fn default_attr(attrs: &[Attribute], diags: &mut Diagnostics) -> Option<(Expr, Span)> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("default")) {
        match &attr.meta {
            syn::Meta::List(list) => match list.parse_args::<Expr>() {
                Ok(e) => {
                    if found.is_some() {
                        diags.error(attr.path().span(), "`#[default(...)]` is given twice");
                    }
                    let span = e.span();
                    found = Some((e, span));
                }
                Err(e) => diags.error(e.span(), format!("`#[default(...)]` takes one expression: {e}")),
            },
            _ => diags.error(attr.path().span(), "write the default as `#[default(expr)]`, e.g. `#[default(1)]` or `#[default(\"TCP\")]`"),
        }
    }
    found
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

fn parse_field(
    field: &syn::Field,
    rename_all: Option<serde_attrs::RenameRule>,
    container_default: bool,
    diags: &mut Diagnostics,
) -> Field {
    let attrs = match FieldAttrs::from_attributes(&field.attrs) {
        Ok(a) => a,
        Err(e) => {
            diags.darling(e, attr_errors::Context::Field, &field.attrs);
            FieldAttrs::default()
        }
    };
    let serde = serde_attrs::parse_field(&field.attrs).unwrap_or_else(|e| {
        diags.syn(e);
        SerdeField::default()
    });
    for liar in &serde.problems {
        diags.error(
            liar.span,
            format!("{} makes the schema lie: {}", liar.what, liar.why),
        );
    }
    if let Some(span) = serde.with
        && attrs.schema_with.is_none()
    {
        diags.error(
                span,
                "a custom serde format needs a schema that describes it: add `#[kube(schema_with = path::to::fn)]`",
            );
    }
    let json_name = match (&serde.rename, &field.ident) {
        (Some(r), _) => r.value(),
        (None, Some(id)) => {
            let raw = id.to_string();
            let raw = raw.strip_prefix("r#").unwrap_or(&raw).to_string();
            rename_all.map_or(raw.clone(), |r| r.apply_to_field(&raw))
        }
        (None, None) => String::new(),
    };
    let levels = Levels::parse(
        &attrs::lint_paths(&attrs.allow),
        &attrs::lint_paths(&attrs.warn),
        &attrs::lint_paths(&attrs.deny),
        diags,
    );
    let mut default = default_attr(&field.attrs, diags);
    if let Some(RawExpr(e)) = &attrs.default {
        if let Some((_, span)) = default {
            diags.error(
                span,
                "the default is given twice: keep `#[kube(default = ...)]` or `#[default(...)]`",
            );
        }
        default = Some((e.clone(), e.span()));
    }
    if attrs.optional.is_present() && attrs.required.is_present() {
        diags.error(
            attrs.required.span(),
            "a field cannot be both `optional` and `required`",
        );
    }
    let optional = if attrs.optional.is_present() {
        true
    } else if attrs.required.is_present() {
        false
    } else {
        is_option(&field.ty) || serde.default.is_some() || container_default
    };
    Field {
        ident: field.ident.clone(),
        ty: field.ty.clone(),
        json_name,
        docs: docs(&field.attrs),
        default_span: default.as_ref().map_or(field.span(), |d| d.1),
        default: default.map(|d| d.0),
        attrs,
        serde,
        optional,
        levels,
        span: field.span(),
        index: 0,
    }
}

/// Numbers the fields of a type (`Field::index`) in order, the fields of
/// every variant included; returns how many there are.
fn number_fields(data: &mut Data) -> usize {
    let mut fields: Vec<&mut Field> = match data {
        Data::Struct(fields) => fields.iter_mut().collect(),
        Data::Newtype(f) => vec![&mut **f],
        Data::Enum(variants) => variants
            .iter_mut()
            .flat_map(|v| match &mut v.shape {
                VariantShape::Newtype(f) => vec![&mut **f],
                VariantShape::Struct(fields) => fields.iter_mut().collect(),
                VariantShape::Unit | VariantShape::Tuple => Vec::new(),
            })
            .collect(),
    };
    for (i, f) in fields.iter_mut().enumerate() {
        f.index = i;
    }
    fields.len()
}

fn parse_fields(
    fields: &syn::FieldsNamed,
    rename_all: Option<serde_attrs::RenameRule>,
    container_default: bool,
    diags: &mut Diagnostics,
) -> Vec<Field> {
    fields
        .named
        .iter()
        .map(|f| parse_field(f, rename_all, container_default, diags))
        .collect()
}

/// A struct's data: named fields, or a newtype (one unnamed field, or one
/// named field under `#[serde(transparent)]`). `None` when it has no shape
/// an API type can have (the error is reported).
fn parse_struct(
    input: &DeriveInput,
    st: &syn::DataStruct,
    serde: &SerdeContainer,
    diags: &mut Diagnostics,
) -> Option<Data> {
    Some(match &st.fields {
        syn::Fields::Named(named) if serde.transparent => {
            if named.named.len() != 1 {
                diags.error(
                    input.ident.span(),
                    "`#[serde(transparent)]` needs exactly one field",
                );
                return None;
            }
            let f = parse_field(&named.named[0], None, false, diags);
            Data::Newtype(Box::new(f))
        }
        syn::Fields::Named(named) => {
            Data::Struct(parse_fields(named, serde.rename_all, serde.default, diags))
        }
        syn::Fields::Unnamed(u) if u.unnamed.len() == 1 => {
            Data::Newtype(Box::new(parse_field(&u.unnamed[0], None, false, diags)))
        }
        syn::Fields::Unnamed(u) => {
            diags.error(
                u.span(),
                "tuple structs have no field names, so they cannot be API objects: use named fields (a one-field tuple struct is a newtype and is fine)",
            );
            return None;
        }
        syn::Fields::Unit => {
            diags.error(
                input.ident.span(),
                "unit structs serialize as `null`, which is not an API object: use `struct Name {}` for an empty object",
            );
            return None;
        }
    })
}

/// One enum variant; `None` for a `#[serde(skip)]`ped one.
fn parse_variant(
    v: &syn::Variant,
    serde: &SerdeContainer,
    diags: &mut Diagnostics,
) -> Option<Variant> {
    let vattrs = VariantAttrs::from_attributes(&v.attrs).unwrap_or_else(|err| {
        diags.darling(err, attr_errors::Context::Variant, &v.attrs);
        VariantAttrs::default()
    });
    let vserde = serde_attrs::parse_field(&v.attrs).unwrap_or_else(|err| {
        diags.syn(err);
        SerdeField::default()
    });
    for liar in &vserde.problems {
        diags.error(
            liar.span,
            format!("{} makes the schema lie: {}", liar.what, liar.why),
        );
    }
    if vserde.skip {
        return None;
    }
    let raw = v.ident.to_string();
    let json_name = match &vserde.rename {
        Some(r) => r.value(),
        None => serde
            .rename_all
            .map_or(raw.clone(), |r| r.apply_to_variant(&raw)),
    };
    let field_rule = vserde.rename_all.or(serde.rename_all_fields);
    let shape = match &v.fields {
        syn::Fields::Unit => VariantShape::Unit,
        syn::Fields::Unnamed(u) if u.unnamed.len() == 1 => {
            VariantShape::Newtype(Box::new(parse_field(&u.unnamed[0], None, false, diags)))
        }
        syn::Fields::Unnamed(_) => VariantShape::Tuple,
        syn::Fields::Named(n) => VariantShape::Struct(parse_fields(n, field_rule, false, diags)),
    };
    if v.discriminant.is_some() && !matches!(shape, VariantShape::Unit) {
        diags.error(
            v.span(),
            "explicit discriminants are only allowed on unit variants",
        );
    }
    Some(Variant {
        ident: v.ident.clone(),
        json_name,
        docs: docs(&v.attrs),
        shape,
        levels: Levels::parse(
            &attrs::lint_paths(&vattrs.allow),
            &attrs::lint_paths(&vattrs.warn),
            &attrs::lint_paths(&vattrs.deny),
            diags,
        ),
        span: v.ident.span(),
    })
}

/// Reads the derive input. Problems go to `diags`; the model is returned
/// whenever its shape could be read, so that lints still run.
pub fn parse(input: &DeriveInput, derive: Derive, diags: &mut Diagnostics) -> Option<Model> {
    let (attrs, attrs_ok) = match ContainerAttrs::from_attributes(&input.attrs) {
        Ok(a) => (a, true),
        Err(e) => {
            diags.darling(e, attr_errors::Context::Type, &input.attrs);
            (ContainerAttrs::default(), false)
        }
    };
    let serde = serde_attrs::parse_container(&input.attrs).unwrap_or_else(|e| {
        diags.syn(e);
        SerdeContainer::default()
    });
    for liar in &serde.problems {
        diags.error(
            liar.span,
            format!("{} makes the schema lie: {}", liar.what, liar.why),
        );
    }
    let levels = Levels::parse(
        &attrs::lint_paths(&attrs.allow),
        &attrs::lint_paths(&attrs.warn),
        &attrs::lint_paths(&attrs.deny),
        diags,
    );

    if !input.generics.params.is_empty() {
        diags.error(
            input.generics.span(),
            "generic API types are not supported: a CRD schema describes one concrete type; define a type per instantiation",
        );
    }
    if let Some(w) = &input.generics.where_clause {
        diags.error(w.span(), "generic API types are not supported");
    }
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("default")) {
        diags.error(
            attr.path().span(),
            "`#[default(...)]` goes on an optional field, not on the type: the field's value when it is unset",
        );
    }

    let krate = attrs
        .crate_path
        .as_ref()
        .map_or_else(|| quote!(::api_core), ToTokens::to_token_stream);

    let mut data = match &input.data {
        syn::Data::Struct(st) => parse_struct(input, st, &serde, diags)?,
        syn::Data::Enum(e) => {
            if derive == Derive::KubeResource {
                diags.error(
                    input.ident.span(),
                    "#[derive(KubeResource)] goes on the spec struct; enums are #[derive(ApiType)] types used inside it",
                );
                return None;
            }
            if e.variants.is_empty() {
                diags.error(
                    input.ident.span(),
                    "an enum without variants has no values: add at least one variant",
                );
                return None;
            }
            let variants = e
                .variants
                .iter()
                .filter_map(|v| parse_variant(v, &serde, diags))
                .collect();
            Data::Enum(variants)
        }
        syn::Data::Union(u) => {
            diags.error(
                u.union_token.span,
                "Rust unions cannot be API types: use an enum, which becomes a structural union schema",
            );
            return None;
        }
    };

    // When `#[kube(...)]` itself could not be read, darling has said why;
    // reporting its keys as missing too would only add noise.
    let resource = if derive == Derive::KubeResource && attrs_ok {
        resource_names(&input.ident, &attrs, diags)
    } else {
        None
    };

    let field_count = number_fields(&mut data);
    Some(Model {
        field_count,
        derive,
        ident: input.ident.clone(),
        vis: input.vis.clone(),
        docs: docs(&input.attrs),
        attrs,
        serde,
        data,
        levels,
        krate,
        resource,
    })
}

fn resource_names(
    ident: &Ident,
    attrs: &ContainerAttrs,
    diags: &mut Diagnostics,
) -> Option<ResourceNames> {
    let mut missing = Vec::new();
    let mut get = |v: &Option<syn::LitStr>, key: &'static str| {
        v.as_ref().map(|l| (l.value(), l.span())).or_else(|| {
            missing.push(key);
            None
        })
    };
    let group = get(&attrs.group, "group");
    let version = get(&attrs.version, "version");
    let kind = get(&attrs.kind, "kind");
    if !missing.is_empty() {
        let keys = missing
            .iter()
            .map(|k| format!("{k} = \"...\""))
            .collect::<Vec<_>>()
            .join(", ");
        diags.error(
            ident.span(),
            format!(
                "#[derive(KubeResource)] needs {}: #[kube({keys})]\n  help: e.g. #[kube(group = \"cache.example.com\", version = \"v1alpha1\", kind = \"Memcached\")]",
                missing.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
            ),
        );
        return None;
    }
    let (group, version, kind) = (group?, version?, kind?);
    if *ident == kind.0 && attrs.root.is_none() {
        diags.error(
            kind.1,
            format!(
                "the kind `{}` is the name of the generated root struct, so the spec struct needs another name (`{}Spec`), or give the root another name with `root = \"...\"`",
                kind.0, kind.0
            ),
        );
    }
    let lower = kind.0.to_lowercase();
    let plural = attrs.plural.as_ref().map_or_else(
        || (plural::pluralize(&lower), kind.1),
        |l| (l.value(), l.span()),
    );
    let singular = attrs
        .singular
        .as_ref()
        .map_or_else(|| (lower.clone(), kind.1), |l| (l.value(), l.span()));
    Some(ResourceNames {
        group,
        version,
        kind,
        plural,
        singular,
        short_names: attrs
            .shortname
            .iter()
            .map(|l| (l.value(), l.span()))
            .collect(),
        categories: attrs
            .category
            .iter()
            .map(|l| (l.value(), l.span()))
            .collect(),
    })
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
