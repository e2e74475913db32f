//! Code generation for enums: string enums, externally tagged unions,
//! internally tagged (discriminated) unions, and enums no structural
//! schema describes.

use proc_macro2::TokenStream;
use quote::quote;

use super::{TypeParts, field_facts, field_schema, field_validate, private};
use crate::check::schema::SchemaChecked;
use crate::model::{Field, Model, VariantShape};

/// The `apply_defaults` and `validate` match arms of a struct variant; with
/// `child`, the variant's fields are validated below `__path.child(child)`.
fn struct_variant_arms(
    model: &Model,
    schema: &SchemaChecked<'_>,
    vid: &syn::Ident,
    fields: &[Field],
    child: Option<&String>,
) -> (TokenStream, TokenStream) {
    let k = &model.krate;
    let ident = &model.ident;
    let binds: Vec<_> = fields.iter().filter_map(|f| f.ident.clone()).collect();
    let d = fields
        .iter()
        .filter(|f| !f.serde.skip)
        .filter_map(|f| f.ident.as_ref())
        .map(|id| quote!(#k::ApiType::apply_defaults(#id);));
    let val = fields.iter().filter(|f| !f.serde.skip).filter_map(|f| {
        let id = f.ident.as_ref()?;
        Some(field_validate(model, f, schema, quote!(#id)))
    });
    let scope = child.map(|name| quote!(let __path = &__path.child(#name);));
    (
        quote!(#ident::#vid { #(#binds,)* .. } => { #(#d)* }),
        quote!(#ident::#vid { #(#binds,)* .. } => { #scope #(#val)* }),
    )
}

/// `#[serde(tag = "kind")]`: a discriminator and the members' fields in
/// one object.
fn internally_tagged_parts(
    model: &Model,
    variants: &[crate::model::Variant],
    tag: &str,
    kw: &TokenStream,
    schema: &SchemaChecked<'_>,
) -> TypeParts {
    let k = &model.krate;
    let p = private(model);
    let ident = &model.ident;
    let values: Vec<&String> = variants.iter().map(|v| &v.json_name).collect();
    let mut facts = vec![
        quote!(#p::FieldFacts { name: #tag, ty: <::std::string::String as #k::ApiType>::FACTS, required: true, defaulted: false, flattened: false, masked: 0 }),
    ];
    let mut members = Vec::new();
    let mut defaults = Vec::new();
    let mut validate = Vec::new();
    for v in variants {
        let vid = &v.ident;
        match &v.shape {
            VariantShape::Unit => {
                defaults.push(quote!(#ident::#vid => {}));
                validate.push(quote!(#ident::#vid => {}));
            }
            VariantShape::Newtype(f) => {
                let ty = &f.ty;
                facts.push(quote!(#p::FieldFacts { name: "", ty: <#ty as #k::ApiType>::FACTS, required: false, defaulted: false, flattened: true, masked: 0 }));
                members.push(quote!(<#ty as #k::ApiType>::api_schema(__g)));
                defaults.push(quote!(#ident::#vid(__v) => #k::ApiType::apply_defaults(__v),));
                validate.push(
                    quote!(#ident::#vid(__v) => #k::ApiType::validate(__v, __path, __errors),),
                );
            }
            VariantShape::Struct(fields) => {
                for ff in field_facts(model, fields) {
                    facts.push(ff);
                }
                let statements: Vec<TokenStream> = fields
                    .iter()
                    .filter(|f| !f.serde.skip)
                    .map(|f| field_schema(model, f, schema))
                    .collect();
                members.push(quote!({
                    let mut __o = #p::ObjectSchema::new();
                    #(#statements)*
                    __o.finish(&#p::Keywords::NONE)
                }));
                let (d, val) = struct_variant_arms(model, schema, vid, fields, None);
                defaults.push(d);
                validate.push(val);
            }
            VariantShape::Tuple => {}
        }
    }
    TypeParts::new(
        quote!({
            const __FIELDS: &[#p::FieldFacts] = &[#(#facts),*];
            &#p::TypeFacts::object(__FIELDS, 0)
        }),
        quote!(#p::discriminated_union(#tag, &[#(#values),*], ::std::vec![#(#members),*], &#kw)),
        quote!(#[allow(unused_variables)] match self { #(#defaults)* }),
        quote!(#[allow(unused_variables)] match self { #(#validate)* }),
    )
}

/// The facts, schema, `apply_defaults` and `validate` bodies of an enum:
/// a string enum, a schemaless enum (its problems were reported), an
/// internally tagged union or an externally tagged one; `tkw` is the
/// type's own `Keywords` literal.
pub(super) fn enum_parts(
    model: &Model,
    variants: &[crate::model::Variant],
    tkw: Option<&TokenStream>,
    schema: &SchemaChecked<'_>,
) -> TypeParts {
    let k = &model.krate;
    let p = private(model);
    let kw = tkw.cloned().unwrap_or_else(|| quote!(#p::Keywords::NONE));
    let all_unit = variants
        .iter()
        .all(|v| matches!(v.shape, VariantShape::Unit));
    let ident = &model.ident;
    // An enum no structural schema describes (its problems were reported
    // to the `unions` lint) preserves unknown fields.
    if all_unit && !schema.schemaless && model.serde.tag.is_none() {
        let values: Vec<&String> = variants.iter().map(|v| &v.json_name).collect();
        let idents = variants.iter().map(|v| &v.ident);
        let mut parts = TypeParts::new(
            quote!(&#p::TypeFacts::scalar(#p::Kind::String, #p::facts::BOUNDED)),
            quote!(#p::string_enum(&[#(#values),*], &#kw)),
            quote!(),
            quote!(),
        );
        // Keywords where the enum is used (a narrower `enum`, a pattern)
        // are checked against the value's JSON string.
        parts.methods = quote! {
            fn check_keywords(&self, __kw: &#p::Keywords, __path: &#k::FieldPath<'_>, __errors: &mut #k::ErrorList) {
                let __value: &str = match self {
                    #(#ident::#idents => #values,)*
                    // `#[serde(skip)]`ped variants are not in the API.
                    #[allow(unreachable_patterns)]
                    _ => return,
                };
                #p::checks::string(__value, __kw, __path, __errors);
            }
        };
        return parts;
    }
    if schema.schemaless {
        return TypeParts::new(
            quote!(&#p::TypeFacts::scalar(#p::Kind::Any, 0)),
            quote!({
                let mut __s = #p::schemars::json_schema!({ "x-kubernetes-preserve-unknown-fields": true });
                #p::apply(&mut __s, &#kw);
                __s
            }),
            quote!(),
            quote!(),
        );
    }
    let internally_tagged = model.serde.tag.is_some() && model.serde.content.is_none();
    if internally_tagged && let Some(tag) = &model.serde.tag {
        return internally_tagged_parts(model, variants, &tag.value(), &kw, schema);
    }
    let mut facts = Vec::new();
    let mut schemas = Vec::new();
    let mut defaults = Vec::new();
    let mut validate = Vec::new();
    for v in variants {
        let name = &v.json_name;
        let vid = &v.ident;
        let desc = v
            .docs
            .as_deref()
            .map(|d| quote!(__s.insert("description".into(), #d.into());));
        match &v.shape {
            VariantShape::Unit | VariantShape::Tuple => {}
            VariantShape::Newtype(f) => {
                let ty = &f.ty;
                facts.push(quote!(#p::FieldFacts { name: #name, ty: <#ty as #k::ApiType>::FACTS, required: false, defaulted: false, flattened: false, masked: 0 }));
                schemas.push(quote!((#name, {
                    #[allow(unused_mut)]
                    let mut __s = <#ty as #k::ApiType>::api_schema(__g);
                    #desc
                    __s
                })));
                defaults.push(quote!(#ident::#vid(__v) => #k::ApiType::apply_defaults(__v),));
                validate.push(quote!(#ident::#vid(__v) => #k::ApiType::validate(__v, &__path.child(#name), __errors),));
            }
            VariantShape::Struct(fields) => {
                let ff = field_facts(model, fields);
                facts.push(quote!(#p::FieldFacts { name: #name, ty: &#p::TypeFacts::object(&[#(#ff),*], 0), required: false, defaulted: false, flattened: false, masked: 0 }));
                let statements: Vec<TokenStream> = fields
                    .iter()
                    .filter(|f| !f.serde.skip)
                    .map(|f| field_schema(model, f, schema))
                    .collect();
                schemas.push(quote!((#name, {
                    let mut __o = #p::ObjectSchema::new();
                    #(#statements)*
                    #[allow(unused_mut)]
                    let mut __s = __o.finish(&#p::Keywords::NONE);
                    #desc
                    __s
                })));
                let (d, val) = struct_variant_arms(model, schema, vid, fields, Some(name));
                defaults.push(d);
                validate.push(val);
            }
        }
    }
    let unit_arms = variants
        .iter()
        .filter(|v| matches!(v.shape, VariantShape::Unit | VariantShape::Tuple))
        .map(|v| {
            let vid = &v.ident;
            quote!(#ident::#vid { .. } => {})
        });
    let unit_arms: Vec<_> = unit_arms.collect();
    TypeParts::new(
        quote!({
            const __FIELDS: &[#p::FieldFacts] = &[#(#facts),*];
            &#p::TypeFacts::object(__FIELDS, 0)
        }),
        quote!(#p::tagged_union(::std::vec![#(#schemas),*], &#kw)),
        quote!(#[allow(unused_variables)] match self { #(#defaults)* #(#unit_arms)* }),
        quote!(#[allow(unused_variables)] match self { #(#validate)* #(#unit_arms)* }),
    )
}
