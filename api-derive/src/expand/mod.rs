//! Code generation from the model and the checked values: facts,
//! `JsonSchema`, `ApiType`, and for `KubeResource` the root object, its
//! list and its CRD. Nothing here reports: checking is done (`check/`,
//! `lints/`) before any of it runs.

mod default_value;
mod enums;
mod keywords;
pub mod root;
mod root_crd;
mod root_serde;

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::check::keywords::{CheckedKeywords, ListType, MapType};
use crate::check::schema::SchemaChecked;
use crate::facts::Consts;
use crate::lints::{self, Context};
use crate::model::{Data, Field, Model};

/// Minimal `JsonSchema` and `ApiType` impls for a type whose derive
/// failed: its users compile against them instead of reporting the type
/// as not implementing `ApiType`.
pub fn stub_impls(model: &Model) -> TokenStream {
    let k = &model.krate;
    let p = private(model);
    let ident = &model.ident;
    let name = ident.to_string();
    quote! {
        impl #p::schemars::JsonSchema for #ident {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#name)
            }
            fn json_schema(_: &mut #p::schemars::SchemaGenerator) -> #p::schemars::Schema {
                #p::schemars::Schema::default()
            }
        }
        impl #k::ApiType for #ident {
            const FACTS: &'static #p::TypeFacts =
                &#p::TypeFacts::scalar(#p::Kind::Any, #p::facts::UNCHECKED);
        }
    }
}

/// `::api_core::__private`
pub fn private(model: &Model) -> TokenStream {
    let k = &model.krate;
    quote!(#k::__private)
}

/// The statements that build one field's schema into `__o`.
fn field_schema(model: &Model, f: &Field, schema: &SchemaChecked<'_>) -> TokenStream {
    let p = private(model);
    let k = &model.krate;
    let ty = &f.ty;
    let base = match &f.attrs.schema_with {
        Some(path) => quote_spanned!(path.span()=> #path(__g)),
        None => quote_spanned!(ty.span()=> <#ty as #k::ApiType>::api_schema(__g)),
    };
    if f.is_flattened() {
        return quote!(__o.flatten(#base););
    }
    let kw = keywords::keywords(&p, schema.field(f));
    let apply = kw.map(|kw| quote!(#p::apply(&mut __s, &#kw);));
    let default = f.default.as_ref().map(|_| {
        let func = default_fn_name(f);
        quote!(#p::set_default(&mut __s, &Self::#func());)
    });
    let example = f
        .attrs
        .example
        .as_ref()
        .map(|crate::model::attrs::RawExpr(expr)| quote_spanned!(expr.span()=> #p::set_example(&mut __s, &(#expr));));
    let name = &f.json_name;
    let required = !f.optional;
    let mutability = if apply.is_some() || default.is_some() || example.is_some() {
        quote!(mut)
    } else {
        quote!()
    };
    quote! {
        {
            let #mutability __s = #base;
            #apply
            #default
            #example
            __o.field(#name, #required, __s);
        }
    }
}

/// Flags a derived type has of its own: `ATOMIC` for
/// `map_type = "atomic"`. (`DURATION` is not given by name: a derived
/// `Duration` that is a string carries its unit in the value, which the
/// conventions allow; see [`duration_flag`] for number newtypes.)
fn own_flags(schema: &SchemaChecked<'_>) -> Consts {
    let mut flags = Consts::default();
    if schema
        .type_keywords
        .map_type
        .is_some_and(|t| t.value == MapType::Atomic)
    {
        flags.insert("ATOMIC");
    }
    flags
}

/// `DURATION` for a newtype named `Duration` over a number (an integer
/// or float duration, like Go's `time.Duration`): its unit is neither in
/// the value nor, necessarily, in the field's name. A `Duration` over a
/// string (`"1h30m"`) says its unit in the value and gets nothing.
fn duration_flag(model: &Model, ty: &syn::Type) -> Option<TokenStream> {
    if model.ident != "Duration" {
        return None;
    }
    let (k, p) = (&model.krate, private(model));
    Some(quote! {
        (if ::core::matches!(<#ty as #k::ApiType>::FACTS.kind, #p::Kind::Integer | #p::Kind::Number) {
            #p::facts::DURATION
        } else {
            0u32
        })
    })
}

/// The `facts::KW_*` constants of the keywords a field declares.
pub fn keyword_bits(f: &Field) -> Consts {
    let mut bits = Consts::default();
    for k in f.attrs.declared_keywords() {
        bits.insert(k.fact);
    }
    bits
}

/// Whether a field declares keywords that are checked at runtime (a
/// format alone is not).
fn has_checks(f: &Field, kw: &CheckedKeywords<'_>) -> bool {
    f.attrs
        .validations
        .declared()
        .any(|k| k.check != api_keywords::Check::None)
        || kw.items.is_some()
}

/// The validation of one field: its keywords, list-map and set
/// uniqueness, then the field's own `validate()` at its path.
fn field_validate(
    model: &Model,
    f: &Field,
    schema: &SchemaChecked<'_>,
    value: TokenStream,
) -> TokenStream {
    let k = &model.krate;
    let ty = &f.ty;
    if f.is_flattened() {
        return quote_spanned!(ty.span()=> #k::ApiType::validate(#value, __path, __errors););
    }
    let json = &f.json_name;
    let checks = value_checks(model, f, schema, &value);
    quote_spanned! {ty.span()=>
        {
            let __p = __path.child(#json);
            #checks
            #k::ApiType::validate(#value, &__p, __errors);
        }
    }
}

/// The run-time checks of the keywords a field (or a newtype's field)
/// declares, and list-map/set uniqueness, of `value` at the path `__p`.
fn value_checks(
    model: &Model,
    f: &Field,
    schema: &SchemaChecked<'_>,
    value: &TokenStream,
) -> TokenStream {
    let k = &model.krate;
    let p = private(model);
    let ty = &f.ty;
    let checked = schema.field(f);
    let keywords = has_checks(f, checked).then(|| {
        // Only the keywords checked at runtime (no docs, no rules).
        let kw = keywords::keywords(&p, &checked.value_checks());
        kw.map(|kw| {
            quote! {
                const __KW: #p::Keywords = #kw;
                #k::ApiType::check_keywords(#value, &__KW, &__p, __errors);
            }
        })
    });
    // Uniqueness of `Vec` items (sets of other kinds are unique already).
    let is_vec = matches!(
        crate::model::shape::Shape::of(ty).unwrapped(),
        crate::model::shape::Shape::Vec(_)
    );
    let lists = match checked.list_type.filter(|_| is_vec) {
        Some(ListType::Map) => {
            let keys = &checked.list_map_keys;
            Some(
                quote!(#p::checks::list_map(#p::checks::Items::items(#value), &[#(#keys),*], &__p, __errors);),
            )
        }
        Some(ListType::Set) => {
            Some(quote!(#p::checks::list_set(#p::checks::Items::items(#value), &__p, __errors);))
        }
        _ => None,
    };
    quote!(#keywords #lists)
}

/// The name of the generated function that computes a field's default.
fn default_fn_name(f: &Field) -> syn::Ident {
    let base = f
        .ident
        .as_ref()
        .map_or_else(|| "0".to_string(), |i| i.to_string());
    let base = base.strip_prefix("r#").unwrap_or(&base).to_string();
    quote::format_ident!("__kube_default_{}", base)
}

/// One function per `#[default(expr)]`: the expression converted into the
/// field's value type (a numeric literal typed as it, `default_value`). Both the schema's `default:` and `apply_defaults`
/// call it, so a type error in the expression is reported once, at it.
fn default_fns(model: &Model) -> TokenStream {
    let Data::Struct(fields) = &model.data else {
        return quote!();
    };
    let p = private(model);
    let ident = &model.ident;
    let fns = fields
        .iter()
        .filter(|f| !f.serde.skip && !f.is_flattened())
        .filter_map(|f| {
            let expr = f.default.as_ref()?;
            let ty = &f.ty;
            let func = default_fn_name(f);
            // A required field is never unset, so its default only goes into
            // the schema (the `default_or_required` lint says why that is odd).
            let applies = f.default_applies();
            let value = if applies {
                quote!(<#ty as #p::Defaultable>::Value)
            } else {
                quote!(#ty)
            };
            let shape = crate::model::shape::Shape::of(ty);
            let body = default_value::body(default_value::value_shape(&shape, applies), expr);
            Some(quote_spanned! {expr.span()=>
                #[doc(hidden)]
                fn #func() -> #value {
                    #body
                }
            })
        });
    let fns: Vec<_> = fns.collect();
    if fns.is_empty() {
        return quote!();
    }
    quote! {
        #[automatically_derived]
        impl #ident {
            #(#fns)*
        }
    }
}

/// Facts of one struct-like field list.
fn field_facts(model: &Model, fields: &[Field]) -> Vec<TokenStream> {
    let p = private(model);
    let k = &model.krate;
    fields
        .iter()
        .filter(|f| !f.serde.skip)
        .map(|f| {
            let ty = &f.ty;
            let name = &f.json_name;
            let required = !f.optional;
            let defaulted = f.default.is_some();
            let flattened = f.is_flattened();
            let masked = lints::field_mask(f, &[&model.levels], Context::of(model)).tokens(&p);
            quote_spanned! {ty.span()=>
                #p::FieldFacts { name: #name, ty: <#ty as #k::ApiType>::FACTS, required: #required, defaulted: #defaulted, flattened: #flattened, masked: #masked }
            }
        })
        .collect()
}

/// The parts of a type's `JsonSchema` and `ApiType` impls, as each kind
/// of type (struct, newtype, enum) builds them.
struct TypeParts {
    /// The `FACTS` constant's value.
    facts: TokenStream,
    /// The body of `json_schema`.
    schema: TokenStream,
    /// The body of `apply_defaults`.
    defaults: TokenStream,
    /// The body of `validate`.
    validate: TokenStream,
    /// Further `ApiType` methods (a struct's `validate_update`, `field_json`).
    methods: TokenStream,
}

impl TypeParts {
    /// Parts without further methods.
    fn new(
        facts: TokenStream,
        schema: TokenStream,
        defaults: TokenStream,
        validate: TokenStream,
    ) -> Self {
        TypeParts {
            facts,
            schema,
            defaults,
            validate,
            methods: quote!(),
        }
    }
}

/// `impl JsonSchema` and `impl ApiType` (with the facts) for the input type.
pub fn api_type(model: &Model, checked: &SchemaChecked<'_>) -> TokenStream {
    let k = &model.krate;
    let p = private(model);
    let ident = &model.ident;
    let name = ident.to_string();
    let tkw = keywords::keywords(&p, &checked.type_keywords);

    let TypeParts {
        facts,
        schema,
        defaults,
        validate,
        methods: extra_methods,
    } = match &model.data {
        Data::Struct(fields) => struct_parts(model, checked, fields, tkw.as_ref()),
        Data::Newtype(f) => newtype_parts(model, checked, f, tkw.as_ref()),
        Data::Enum(variants) => enums::enum_parts(model, variants, tkw.as_ref(), checked),
    };

    // A documented type's schema carries its doc as the description, which
    // a field without a doc of its own takes over (`field_docs` reads it).
    let facts = if model.docs.is_some() {
        quote!({
            const __UNDESCRIBED: &#p::TypeFacts = #facts;
            &#p::facts::flagged(__UNDESCRIBED, #p::facts::DESCRIBED, 0)
        })
    } else {
        facts
    };
    let facts_check = quote! {
        // Evaluating the facts makes a recursive type a compile error.
        const _: () = {
            let _ = <#ident as #k::ApiType>::FACTS;
        };
    };
    let default_fns = default_fns(model);
    let map_key = map_key(model);
    quote! {
        #default_fns
        #map_key
        #facts_check
        #[automatically_derived]
        impl #p::schemars::JsonSchema for #ident {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#name)
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(__g: &mut #p::schemars::SchemaGenerator) -> #p::schemars::Schema {
                #schema
            }
        }
        #[automatically_derived]
        impl #k::ApiType for #ident {
            const FACTS: &'static #p::TypeFacts = #facts;
            fn apply_defaults(&mut self) {
                #defaults
            }
            #[allow(unused_variables)]
            fn validate(&self, __path: &#k::FieldPath<'_>, __errors: &mut #k::ErrorList) {
                #validate
            }
            #extra_methods
        }
    }
}

/// `impl MapKey` for a type that is a string in JSON and can key a map: a
/// newtype of `String` and a string enum (unit variants only).
fn map_key(model: &Model) -> TokenStream {
    let k = &model.krate;
    let ident = &model.ident;
    let body = match &model.data {
        Data::Newtype(f) => {
            let is_string = matches!(&f.ty, syn::Type::Path(tp) if tp.qself.is_none()
                && tp.path.segments.last().is_some_and(|s| s.ident == "String" && s.arguments.is_none()));
            if !is_string {
                return quote!();
            }
            let access = f.access(0);
            quote!(&self.#access)
        }
        Data::Enum(variants)
            if model.serde.tag.is_none()
                && variants
                    .iter()
                    .all(|v| matches!(v.shape, crate::model::VariantShape::Unit)) =>
        {
            let idents = variants.iter().map(|v| &v.ident);
            let names = variants.iter().map(|v| &v.json_name);
            quote! {
                match self {
                    #(#ident::#idents => #names,)*
                    // `#[serde(skip)]`ped variants are not in the API.
                    #[allow(unreachable_patterns)]
                    _ => "",
                }
            }
        }
        _ => return quote!(),
    };
    quote! {
        #[automatically_derived]
        impl #k::MapKey for #ident {
            fn as_key(&self) -> &str {
                #body
            }
        }
    }
}

/// The facts, schema, `apply_defaults` and `validate` bodies of a struct,
/// with its `validate_update` and `field_json` methods; `tkw` is the
/// type's own `Keywords` literal.
fn struct_parts(
    model: &Model,
    checked: &SchemaChecked<'_>,
    fields: &[Field],
    tkw: Option<&TokenStream>,
) -> TypeParts {
    let k = &model.krate;
    let p = private(model);
    let facts = field_facts(model, fields);
    let statements: Vec<TokenStream> = fields
        .iter()
        .filter(|f| !f.serde.skip)
        .map(|f| field_schema(model, f, checked))
        .collect();
    let finish = match &tkw {
        Some(kw) => quote!(__o.finish(&#kw)),
        None => quote!(__o.finish(&#p::Keywords::NONE)),
    };
    let example = model
        .attrs
        .example
        .as_ref()
        .map(|crate::model::attrs::RawExpr(e)| quote_spanned!(e.span()=> #p::set_example(&mut __t, &(#e));));
    let schema = quote! {
        let mut __o = #p::ObjectSchema::new();
        #(#statements)*
        #[allow(unused_mut)]
        let mut __t = #finish;
        #example
        __t
    };
    let defaults = fields.iter().enumerate().filter(|(_, f)| !f.serde.skip).map(|(i, f)| {
        let access = f.access(i);
        let ty = &f.ty;
        let set = f.default.as_ref().filter(|_| f.default_applies()).map(|expr| {
            let func = default_fn_name(f);
            quote_spanned!(expr.span()=> #p::Defaultable::default_if_unset(&mut self.#access, Self::#func);)
        });
        quote_spanned!(ty.span()=> #set #k::ApiType::apply_defaults(&mut self.#access);)
    });
    let validate = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.serde.skip)
        .map(|(i, f)| {
            let access = f.access(i);
            field_validate(model, f, checked, quote!(&self.#access))
        });
    let validate_update: Vec<TokenStream> = fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.serde.skip)
        .map(|(i, f)| {
            let access = f.access(i);
            let ty = &f.ty;
            let imm = f.attrs.immutable.is_present().then(|| {
                quote!(#p::immutable(&self.#access, &__old.#access, &__p, __errors);)
            });
            if f.is_flattened() {
                quote_spanned!(ty.span()=> #k::ApiType::validate_update(&self.#access, &__old.#access, __path, __errors);)
            } else {
                let json = &f.json_name;
                quote_spanned! {ty.span()=> {
                    let __p = __path.child(#json);
                    #imm
                    #k::ApiType::validate_update(&self.#access, &__old.#access, &__p, __errors);
                }}
            }
        })
        .collect();
    let field_json = fields
        .iter()
        .filter(|f| !f.serde.skip && !f.is_flattened())
        .filter_map(|f| {
            let id = f.ident.as_ref()?;
            let json = &f.json_name;
            Some(quote!(#json => #p::serde_json::to_value(&self.#id).ok(),))
        });
    let extra_methods = quote! {
        #[allow(unused_variables)]
        fn validate_update(&self, __old: &Self, __path: &#k::FieldPath<'_>, __errors: &mut #k::ErrorList) {
            #(#validate_update)*
        }
        fn field_json(&self, __name: &str) -> ::core::option::Option<#p::serde_json::Value> {
            match __name {
                #(#field_json)*
                _ => ::core::option::Option::None,
            }
        }
    };
    let own = own_flags(checked).tokens(&p);
    TypeParts {
        facts: quote!({
            const __FIELDS: &[#p::FieldFacts] = &[#(#facts),*];
            &#p::TypeFacts::object(__FIELDS, #own)
        }),
        schema,
        defaults: quote!(#(#defaults)*),
        validate: quote!(#(#validate)*),
        methods: extra_methods,
    }
}

/// The facts, schema, `apply_defaults` and `validate` bodies of a newtype:
/// the inner type's, with the field's and the type's keywords (`tkw`).
fn newtype_parts(
    model: &Model,
    checked: &SchemaChecked<'_>,
    f: &Field,
    tkw: Option<&TokenStream>,
) -> TypeParts {
    let k = &model.krate;
    let p = private(model);
    let ty = &f.ty;
    let base = match &f.attrs.schema_with {
        Some(path) => quote!(#path(__g)),
        None => quote!(<#ty as #k::ApiType>::api_schema(__g)),
    };
    let field_kw = keywords::keywords(&p, checked.field(f));
    let field_apply = field_kw.map(|kw| quote!(#p::apply(&mut __s, &#kw);));
    let type_apply = tkw.map(|kw| quote!(#p::apply(&mut __s, &#kw);));
    let access = f.access(0);
    let mut own = own_flags(checked);
    if f.attrs.validations.max_length.is_some() || f.attrs.validations.enum_.is_some() {
        own.insert("BOUNDED");
    }
    let mut declared = keyword_bits(f);
    if model.attrs.example.is_some() {
        declared.insert(api_keywords::EXAMPLE.fact);
    }
    let (mut own, declared) = (own.tokens(&p), declared.tokens(&p));
    if let Some(duration) = duration_flag(model, ty) {
        own = quote!((#own) | #duration);
    }
    let checks = value_checks(model, f, checked, &quote!(&self.#access));
    let mut parts = TypeParts::new(
        quote!(&#p::facts::flagged(<#ty as #k::ApiType>::FACTS, #own, #declared)),
        quote!({
            #[allow(unused_mut)]
            let mut __s = #base;
            #field_apply
            #type_apply
            __s
        }),
        quote!(#k::ApiType::apply_defaults(&mut self.#access);),
        quote!({
            let __p = *__path;
            #checks
            #k::ApiType::validate(&self.#access, &__p, __errors);
        }),
    );
    // Keywords declared where the newtype is used apply to its value.
    parts.methods = quote! {
        fn check_keywords(&self, __kw: &#p::Keywords, __path: &#k::FieldPath<'_>, __errors: &mut #k::ErrorList) {
            #k::ApiType::check_keywords(&self.#access, __kw, __path, __errors);
        }
    };
    parts
}
