//! `Serialize` and `Deserialize` of the root object (and `RootParts`
//! when it has a `spec`).

use proc_macro2::TokenStream;
use quote::quote;

use super::root::Cx;
use crate::check::resource::SpecLayout;

/// `Serialize` and `Deserialize` of a `no_spec` root: the spec's fields
/// flattened next to `apiVersion`, `kind` and `metadata`.
pub(super) fn serde_flat(cx: &Cx<'_>) -> TokenStream {
    let (k, p, spec, root) = (cx.k, &cx.p, cx.spec, cx.root);
    let (api_version, kind) = (&cx.r.api_version, &cx.r.names.kind.0);
    let serde_crate = format!("{}", quote!(#p::serde)).replace(' ', "");
    quote! {
        #[automatically_derived]
        impl #p::serde::Serialize for #root {
            fn serialize<__S: #p::serde::Serializer>(&self, __s: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                #[derive(#p::serde::Serialize)]
                #[serde(crate = #serde_crate)]
                struct __Wire<'a> {
                    #[serde(rename = "apiVersion")]
                    api_version: &'static str,
                    kind: &'static str,
                    metadata: &'a #k::ObjectMeta,
                    #[serde(flatten)]
                    spec: &'a #spec,
                }
                #p::serde::Serialize::serialize(
                    &__Wire { api_version: #api_version, kind: #kind, metadata: &self.metadata, spec: &self.spec },
                    __s,
                )
            }
        }
        #[automatically_derived]
        impl<'de> #p::serde::Deserialize<'de> for #root {
            fn deserialize<__D: #p::serde::Deserializer<'de>>(__d: __D) -> ::core::result::Result<Self, __D::Error> {
                #[derive(#p::serde::Deserialize)]
                #[serde(crate = #serde_crate)]
                struct __Wire {
                    #[serde(rename = "apiVersion", default)]
                    api_version: ::core::option::Option<::std::string::String>,
                    #[serde(default)]
                    kind: ::core::option::Option<::std::string::String>,
                    #[serde(default)]
                    metadata: #k::ObjectMeta,
                    #[serde(flatten)]
                    spec: #spec,
                }
                let __w = <__Wire as #p::serde::Deserialize>::deserialize(__d)?;
                #p::check_flat_type::<__D::Error>(__w.api_version.as_deref(), __w.kind.as_deref(), #api_version, #kind)?;
                ::core::result::Result::Ok(#root { metadata: __w.metadata, spec: __w.spec })
            }
        }
    }
}

/// `RootParts`, `Serialize` and `Deserialize` of a root with a `spec` (and
/// maybe a `status`).
pub(super) fn serde_spec_status(cx: &Cx<'_>) -> TokenStream {
    let (k, p, spec, root) = (cx.k, &cx.p, cx.spec, cx.root);
    let has_status = cx.has_status();
    let optional_spec = cx.r.spec_layout == SpecLayout::Optional;
    let api_version = &cx.r.api_version;
    let status_ty_or_unit = cx.r.status.map_or_else(|| quote!(()), |t| quote!(#t));
    let (status_part, status_init, status_bind) = if has_status {
        (quote!(self.status.as_ref()), quote!(status,), quote!())
    } else {
        (
            quote!(::core::option::Option::None),
            quote!(),
            quote!(let _ = status;),
        )
    };
    quote! {
        #[automatically_derived]
        impl #p::RootParts for #root {
            type Spec = #spec;
            type Status = #status_ty_or_unit;
            const HAS_STATUS: bool = #has_status;
            const SPEC_OPTIONAL: bool = #optional_spec;
            const API_VERSION: &'static str = #api_version;
            fn parts(&self) -> (&#k::ObjectMeta, &#spec, ::core::option::Option<&#status_ty_or_unit>) {
                (&self.metadata, &self.spec, #status_part)
            }
            fn from_parts(
                metadata: #k::ObjectMeta,
                spec: #spec,
                status: ::core::option::Option<#status_ty_or_unit>,
            ) -> Self {
                #status_bind
                #root { metadata, spec, #status_init }
            }
        }
        #[automatically_derived]
        impl #p::serde::Serialize for #root {
            fn serialize<__S: #p::serde::Serializer>(&self, __s: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                #p::serialize_root(self, __s)
            }
        }
        #[automatically_derived]
        impl<'de> #p::serde::Deserialize<'de> for #root {
            fn deserialize<__D: #p::serde::Deserializer<'de>>(__d: __D) -> ::core::result::Result<Self, __D::Error> {
                #p::deserialize_root(__d)
            }
        }
    }
}
