//! The CRD side of the root object: the `__INFO` constant, `JsonSchema`
//! and `CustomResourceExt`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::LitStr;
use syn::spanned::Spanned;

use super::keywords::opt_str;
use super::root::Cx;
use crate::check::resource::{ColumnFormat, Deprecation, Scale};

/// The `__INFO` constant: what the CRD says besides the schema, with the
/// root's validation rules.
pub(super) fn info(cx: &Cx<'_>, validations: &TokenStream) -> TokenStream {
    let (p, root, r) = (&cx.p, cx.root, cx.r);
    let served = cx.a.served.unwrap_or(true);
    let storage = cx.a.storage.unwrap_or(true);
    let (deprecated, deprecation_warning) = match &r.deprecation {
        Deprecation::Active => (false, None),
        Deprecation::Deprecated { warning } => (true, warning.as_deref()),
    };
    let deprecation_warning = opt_str(deprecation_warning);
    let columns = r.printcolumns.iter().map(|col| {
        let (name, t, json_path) = (col.name, col.type_.name(), col.json_path);
        let description = opt_str(col.description.as_deref());
        let format = opt_str(col.format.map(ColumnFormat::name));
        let priority = col.priority;
        quote!(#p::PrintColumn { name: #name, type_: #t, json_path: #json_path, description: #description, format: #format, priority: #priority })
    });
    let scale = scale_info(p, r.scale.as_ref());
    let selectable = &r.selectable;
    let status_subresource = r.status_subresource;
    let description = opt_str(cx.a.doc.as_ref().map(LitStr::value).as_deref());
    let spec_description = opt_str(cx.a.spec_doc.as_ref().map(LitStr::value).as_deref());
    let status_description = opt_str(cx.a.status_doc.as_ref().map(LitStr::value).as_deref());
    let spec_required = cx.spec_required();
    let (annotation_keys, annotation_values): (Vec<&str>, Vec<&str>) = r
        .annotations
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .unzip();
    let (label_keys, label_values): (Vec<&str>, Vec<&str>) = r
        .labels
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .unzip();
    let status_default = r.status.zip(r.status_default).map(|(t, expr)| {
        quote_spanned! {expr.span()=>
            #[doc(hidden)]
            fn __status_default() -> #t {
                ::core::convert::Into::into(#expr)
            }
        }
    });
    quote! {
        impl #root {
            #status_default
            const __INFO: #p::ResourceInfo = #p::ResourceInfo {
                served: #served,
                storage: #storage,
                deprecated: #deprecated,
                deprecation_warning: #deprecation_warning,
                printcolumns: &[#(#columns),*],
                scale: #scale,
                selectable: &[#(#selectable),*],
                status_subresource: #status_subresource,
                description: #description,
                spec_description: #spec_description,
                status_description: #status_description,
                spec_required: #spec_required,
                validations: #validations,
                annotations: &[#((#annotation_keys, #annotation_values)),*],
                labels: &[#((#label_keys, #label_values)),*],
            };
        }
    }
}

/// The `ScaleInfo` of the scale subresource, if any.
fn scale_info(p: &TokenStream, scale: Option<&Scale<'_>>) -> TokenStream {
    match scale {
        Some(s) => {
            let (sp, st) = (s.spec_replicas_path, s.status_replicas_path);
            let ls = opt_str(s.label_selector_path.as_deref());
            quote!(::core::option::Option::Some(#p::ScaleInfo { spec_replicas_path: #sp, status_replicas_path: #st, label_selector_path: #ls }))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// `JsonSchema`: the root schema from `__INFO`, the spec and the status.
pub(super) fn json_schema(cx: &Cx<'_>) -> TokenStream {
    let (k, p, spec, root) = (cx.k, &cx.p, cx.spec, cx.root);
    let root_name = &cx.r.root_name;
    let body = if cx.flat() {
        quote!(#p::RootBody::Flat(<#spec as #k::ApiType>::api_schema(__g)))
    } else {
        let status_schema = match (cx.r.status, cx.r.status_default) {
            (Some(t), Some(_)) => quote!(::core::option::Option::Some({
                let mut __s = <#t as #k::ApiType>::api_schema(__g);
                #p::set_default(&mut __s, &Self::__status_default());
                __s
            })),
            (Some(t), None) => {
                quote!(::core::option::Option::Some(<#t as #k::ApiType>::api_schema(__g)))
            }
            (None, _) => quote!(::core::option::Option::None),
        };
        quote!(#p::RootBody::SpecStatus { spec: <#spec as #k::ApiType>::api_schema(__g), status: #status_schema })
    };
    quote! {
        #[automatically_derived]
        impl #p::schemars::JsonSchema for #root {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(#root_name)
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(__g: &mut #p::schemars::SchemaGenerator) -> #p::schemars::Schema {
                #p::root_schema(&Self::__INFO, #body)
            }
        }
    }
}

/// `CustomResourceExt`: the CRD from `__INFO` and the schema.
pub(super) fn crd(cx: &Cx<'_>) -> TokenStream {
    let (k, p, root) = (cx.k, &cx.p, cx.root);
    quote! {
        #[automatically_derived]
        impl #k::CustomResourceExt for #root {
            fn crd() -> #k::crd::CustomResourceDefinition {
                let mut __g = #p::generator();
                let __schema = <Self as #p::schemars::JsonSchema>::json_schema(&mut __g);
                #p::build_crd::<Self>(&Self::__INFO, __schema)
            }
        }
    }
}
