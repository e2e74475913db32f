//! The root object of a `KubeResource`: struct, list alias, `Resource`,
//! serde, schema, CRD. Generated from the checked resource
//! ([`ResourceChecked`]): nothing here validates the resource attributes.
//! The serde impls are in `root_serde.rs`; `__INFO`, `JsonSchema` and
//! `CustomResourceExt` in `root_crd.rs`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{Ident, LitStr};

use super::keywords::rules;
use super::private;
use super::root_crd::{crd, info, json_schema};
use super::root_serde::{serde_flat, serde_spec_status};
use crate::check::resource::{ResourceChecked, SpecLayout};
use crate::model::Model;
use crate::model::attrs::ContainerAttrs;

/// What every part of the root reads.
pub(super) struct Cx<'a> {
    /// The path of `api_core`.
    pub(super) k: &'a TokenStream,
    /// The path of `api_core::__private`.
    pub(super) p: TokenStream,
    /// The spec struct.
    pub(super) spec: &'a Ident,
    /// The spec's visibility, given to the root, its list and constructor.
    pub(super) vis: &'a syn::Visibility,
    /// The `#[kube(...)]` attributes.
    pub(super) a: &'a ContainerAttrs,
    /// The checked resource.
    pub(super) r: &'a ResourceChecked<'a>,
    /// The root struct.
    pub(super) root: &'a Ident,
}

impl Cx<'_> {
    /// Whether the root has a `status` field.
    pub(super) fn has_status(&self) -> bool {
        self.r.status.is_some()
    }

    /// Whether the spec's fields are at the top level (`no_spec`).
    pub(super) fn flat(&self) -> bool {
        self.r.spec_layout == SpecLayout::Flat
    }

    /// Whether `spec` is required in the schema.
    pub(super) fn spec_required(&self) -> bool {
        self.r.spec_layout == SpecLayout::Required
    }
}

/// The generated items of a root object, in the order they are emitted.
struct RootItems {
    /// The root struct and its list alias.
    definition: TokenStream,
    /// `new` and `crd` on the root.
    constructor: TokenStream,
    /// `Resource`.
    resource: TokenStream,
    /// `SpecStatus`.
    spec_status: TokenStream,
    /// `HasSpec`.
    has_spec: TokenStream,
    /// `HasStatus`, when there is a status.
    has_status: Option<TokenStream>,
    /// `ResourceParts`.
    resource_parts: TokenStream,
    /// `Serialize` and `Deserialize` (and `RootParts` unless `no_spec`).
    serde: TokenStream,
    /// The `__INFO` constant: what the CRD says besides the schema.
    info: TokenStream,
    /// `JsonSchema`.
    json_schema: TokenStream,
    /// `ApiType`.
    api_type: TokenStream,
    /// `CustomResourceExt`.
    crd: TokenStream,
}

/// Generates the root object of a checked `KubeResource`.
pub fn root(model: &Model, checked: &ResourceChecked<'_>) -> TokenStream {
    let cx = Cx {
        k: &model.krate,
        p: private(model),
        spec: &model.ident,
        vis: &model.vis,
        a: &model.attrs,
        r: checked,
        root: &checked.root,
    };
    let validations = rules(&cx.p, &checked.validations);
    RootItems::build(&cx, &validations).into_tokens()
}

impl RootItems {
    /// Builds every item of the root; `validations` are the root's rules.
    fn build(cx: &Cx<'_>, validations: &TokenStream) -> Self {
        RootItems {
            definition: definition(cx),
            constructor: constructor(cx),
            resource: resource(cx),
            spec_status: spec_status(cx),
            has_spec: has_spec(cx),
            has_status: has_status(cx),
            resource_parts: resource_parts(cx),
            serde: if cx.flat() {
                serde_flat(cx)
            } else {
                serde_spec_status(cx)
            },
            info: info(cx, validations),
            json_schema: json_schema(cx),
            api_type: api_type(cx),
            crd: crd(cx),
        }
    }

    /// The items, in the order they are emitted.
    fn into_tokens(self) -> TokenStream {
        let RootItems {
            definition,
            constructor,
            resource,
            spec_status,
            has_spec,
            has_status,
            resource_parts,
            serde,
            info,
            json_schema,
            api_type,
            crd,
        } = self;
        quote! {
            #definition
            #constructor
            #resource
            #spec_status
            #has_spec
            #has_status
            #resource_parts
            #serde
            #info
            #json_schema
            #api_type
            #crd
        }
    }
}

/// The root struct and its list alias.
fn definition(cx: &Cx<'_>) -> TokenStream {
    let (k, spec, vis, root, r) = (cx.k, cx.spec, cx.vis, cx.root, cx.r);
    let (kind, list, root_name) = (&r.names.kind.0, &r.list, &r.root_name);
    let api_version = &r.api_version;
    let root_doc = cx.a.doc.as_ref().map_or_else(
        || format!("`{kind}`: the root object of the `{kind}` API ({api_version}), generated from [`{spec}`]."),
        LitStr::value,
    );
    let list_doc = format!("A list of [`{root_name}`] (`kind: {kind}List`).");
    let derives = cx.a.derive.iter().map(|d| {
        let path = &**d;
        quote_spanned!(d.span()=> #[derive(#path)])
    });
    let status_field = r.status.map(|t| {
        quote! {
            /// The observed state, written by controllers; absent until first written.
            pub status: ::core::option::Option<#t>,
        }
    });
    quote! {
        #[doc = #root_doc]
        #[derive(::core::clone::Clone, ::core::fmt::Debug)]
        #(#derives)*
        #vis struct #root {
            /// Standard object metadata.
            pub metadata: #k::ObjectMeta,
            /// The desired state.
            pub spec: #spec,
            #status_field
        }

        #[doc = #list_doc]
        #vis type #list = #k::List<#root>;
    }
}

/// `new` and `crd` on the root.
fn constructor(cx: &Cx<'_>) -> TokenStream {
    let (k, spec, vis, root) = (cx.k, cx.spec, cx.vis, cx.root);
    let status_none = if cx.has_status() {
        quote!(status: ::core::option::Option::None,)
    } else {
        quote!()
    };
    quote! {
        impl #root {
            /// A new object named `name` with the given spec and no status.
            #vis fn new(name: impl ::core::convert::Into<::std::string::String>, spec: #spec) -> Self {
                #root {
                    metadata: #k::ObjectMeta { name: ::core::convert::Into::into(name), ..::core::default::Default::default() },
                    spec,
                    #status_none
                }
            }

            /// The CustomResourceDefinition of this version of the resource.
            #vis fn crd() -> #k::crd::CustomResourceDefinition {
                <Self as #k::CustomResourceExt>::crd()
            }
        }
    }
}

/// `Resource`: the names, the scope and the metadata.
fn resource(cx: &Cx<'_>) -> TokenStream {
    let (k, p, root, names) = (cx.k, &cx.p, cx.root, cx.r.names);
    let (group, version, kind, plural, singular) = (
        &names.group.0,
        &names.version.0,
        &names.kind.0,
        &names.plural.0,
        &names.singular.0,
    );
    let api_version = &cx.r.api_version;
    let short_names = names.short_names.iter().map(|(s, _)| s);
    let categories = names.categories.iter().map(|(s, _)| s);
    let namespaced = cx.a.namespaced.is_present();
    quote! {
        #[automatically_derived]
        impl #k::Resource for #root {
            const GROUP: &'static str = #group;
            const VERSION: &'static str = #version;
            const KIND: &'static str = #kind;
            const PLURAL: &'static str = #plural;
            const SINGULAR: &'static str = #singular;
            const SHORT_NAMES: &'static [&'static str] = &[#(#short_names),*];
            const CATEGORIES: &'static [&'static str] = &[#(#categories),*];
            const SCOPE: #k::Scope = #p::scope(#namespaced);
            fn api_version() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#api_version)
            }
            fn metadata(&self) -> &#k::ObjectMeta {
                &self.metadata
            }
            fn metadata_mut(&mut self) -> &mut #k::ObjectMeta {
                &mut self.metadata
            }
        }
    }
}

/// `SpecStatus`: comparing and copying the spec and the status.
fn spec_status(cx: &Cx<'_>) -> TokenStream {
    let (k, p, root) = (cx.k, &cx.p, cx.root);
    let status_subresource = cx.r.status_subresource;
    let status_equal = if cx.has_status() {
        quote!(#p::json_eq(&self.status, &other.status))
    } else {
        quote!({
            let _ = other;
            true
        })
    };
    let (clear_status, copy_status) = if cx.has_status() {
        (
            quote!(self.status = ::core::option::Option::None;),
            quote!(self.status = ::core::clone::Clone::clone(&from.status);),
        )
    } else {
        (quote!(), quote!(let _ = from;))
    };
    quote! {
        #[automatically_derived]
        impl #k::SpecStatus for #root {
            const STATUS_SUBRESOURCE: bool = #status_subresource;
            fn spec_equal(&self, other: &Self) -> bool {
                #p::json_eq(&self.spec, &other.spec)
            }
            fn status_equal(&self, other: &Self) -> bool {
                #status_equal
            }
            fn clear_status(&mut self) {
                #clear_status
            }
            fn copy_status(&mut self, from: &Self) {
                #copy_status
            }
            fn copy_spec(&mut self, from: &Self) {
                self.spec = ::core::clone::Clone::clone(&from.spec);
            }
        }
    }
}

/// `HasSpec`.
fn has_spec(cx: &Cx<'_>) -> TokenStream {
    let (k, spec, root) = (cx.k, cx.spec, cx.root);
    quote! {
        #[automatically_derived]
        impl #k::HasSpec for #root {
            type Spec = #spec;
            fn spec(&self) -> &#spec {
                &self.spec
            }
            fn spec_mut(&mut self) -> &mut #spec {
                &mut self.spec
            }
        }
    }
}

/// `ResourceParts`: the root taken apart and put back together.
fn resource_parts(cx: &Cx<'_>) -> TokenStream {
    let (k, spec, root) = (cx.k, cx.spec, cx.root);
    let scope = if cx.a.namespaced.is_present() {
        quote!(#k::resource::NamespacedScope)
    } else {
        quote!(#k::resource::ClusterScope)
    };
    let (status_ty, take, put) = match cx.r.status {
        Some(t) => (quote!(#t), quote!(self.status), quote!(status,)),
        None => (
            quote!(#k::resource::NoStatus),
            quote!(::core::option::Option::None),
            quote!(),
        ),
    };
    let ignore = cx.r.status.is_none().then(|| quote!(let _ = status;));
    quote! {
        #[automatically_derived]
        impl #k::ResourceParts for #root {
            type Spec = #spec;
            type Status = #status_ty;
            type Scope = #scope;
            fn into_parts(self) -> (#k::ObjectMeta, #spec, ::core::option::Option<#status_ty>) {
                (self.metadata, self.spec, #take)
            }
            fn from_parts(metadata: #k::ObjectMeta, spec: #spec, status: ::core::option::Option<#status_ty>) -> Self {
                #ignore
                #root { metadata, spec, #put }
            }
        }
    }
}

/// `HasStatus`, when the resource has a status.
fn has_status(cx: &Cx<'_>) -> Option<TokenStream> {
    let (k, root) = (cx.k, cx.root);
    cx.r.status.map(|t| {
        quote! {
            #[automatically_derived]
            impl #k::HasStatus for #root {
                type Status = #t;
                fn status(&self) -> ::core::option::Option<&#t> {
                    self.status.as_ref()
                }
                fn status_mut(&mut self) -> &mut ::core::option::Option<#t> {
                    &mut self.status
                }
            }
        }
    })
}

/// `ApiType`: the root's facts, defaulting and validation, delegated to
/// the spec and the status.
fn api_type(cx: &Cx<'_>) -> TokenStream {
    let (k, p, spec, root) = (cx.k, &cx.p, cx.spec, cx.root);
    let spec_required = cx.spec_required();
    let status_facts = cx.r.status.map(|t| {
        quote!(#p::FieldFacts { name: "status", ty: <#t as #k::ApiType>::FACTS, required: false, defaulted: false, flattened: false, masked: 0 },)
    });
    let spec_facts = if cx.flat() {
        quote!(#p::FieldFacts { name: "", ty: <#spec as #k::ApiType>::FACTS, required: false, defaulted: false, flattened: true, masked: 0 },)
    } else {
        quote!(#p::FieldFacts { name: "spec", ty: <#spec as #k::ApiType>::FACTS, required: #spec_required, defaulted: false, flattened: false, masked: 0 },)
    };
    let status_default = cx.r.status_default.map(
        |_| quote!(#p::Defaultable::default_if_unset(&mut self.status, Self::__status_default);),
    );
    let status_defaults = cx
        .has_status()
        .then(|| quote!(#status_default #k::ApiType::apply_defaults(&mut self.status);));
    let status_validate = cx.has_status().then(
        || quote!(#k::ApiType::validate(&self.status, &#k::FieldPath::new("status"), __errors);),
    );
    // With `no_spec` the fields are at the top level: their paths have no
    // prefix.
    let spec_path = if cx.flat() { "" } else { "spec" };
    let spec_validate =
        quote!(#k::ApiType::validate(&self.spec, &#k::FieldPath::new(#spec_path), __errors););
    let spec_validate_update = quote!(#k::ApiType::validate_update(&self.spec, &__old.spec, &#k::FieldPath::new(#spec_path), __errors););
    quote! {
        #[automatically_derived]
        impl #k::ApiType for #root {
            const FACTS: &'static #p::TypeFacts = {
                const __FIELDS: &[#p::FieldFacts] = &[
                    #p::FieldFacts { name: "metadata", ty: <#k::ObjectMeta as #k::ApiType>::FACTS, required: false, defaulted: false, flattened: false, masked: 0 },
                    #spec_facts
                    #status_facts
                ];
                &#p::TypeFacts::object(__FIELDS, 0)
            };
            fn apply_defaults(&mut self) {
                #k::ApiType::apply_defaults(&mut self.spec);
                #status_defaults
            }
            fn validate(&self, _: &#k::FieldPath<'_>, __errors: &mut #k::ErrorList) {
                #spec_validate
                #status_validate
            }
            fn validate_update(&self, __old: &Self, _: &#k::FieldPath<'_>, __errors: &mut #k::ErrorList) {
                #spec_validate_update
            }
        }
    }
}
