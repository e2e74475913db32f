//! Reading the derive input into the model: the type, its fields and
//! variants, with their `#[kube]`, `#[serde]` and `#[default]` attributes.

use darling::FromAttributes;
use proc_macro2::Span;
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::{Attribute, DeriveInput, Expr};

use super::attrs::{self, ContainerAttrs, FieldAttrs, RawExpr, VariantAttrs};
use super::resource::resource_names;
use super::serde_attrs::{self, SerdeContainer, SerdeField};
use super::{Data, Derive, Field, Model, Variant, VariantShape, attr_errors, docs, is_option};
use crate::lints::{Diagnostics, Levels};

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
